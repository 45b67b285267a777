//! Manifest findings with an excerpt: the position of a `manifest.json` error is the JSON
//! parser's `line L column C` when it gives one, else the first quoted name of the message
//! (`"hokos"`, `` `capabilities` ``) found as a JSON string in the file; the finding then
//! renders the manifest line with a caret like a script error.

use rhai::Position;

use super::diag::{ScriptDiagnostic, SourceMap};

/// `(line, column)`, 1-based, of `message` in the manifest `text`.
pub fn locate(text: &str, message: &str) -> Option<(usize, usize)> {
    if let Some(at) = message.rfind(" at line ") {
        let rest = &message[at + " at line ".len()..];
        let (line, rest) = rest.split_once(' ')?;
        let column = rest.strip_prefix("column ")?;
        let column: String = column.chars().take_while(char::is_ascii_digit).collect();
        let (line, column) = (line.parse().ok()?, column.parse::<usize>().ok()?);
        return Some((line, column.max(1)));
    }
    for (open, close) in [('"', '"'), ('`', '`'), ('\'', '\'')] {
        let mut rest = message;
        while let Some(a) = rest.find(open) {
            let after = &rest[a + 1..];
            let Some(b) = after.find(close) else { break };
            let name = &after[..b];
            rest = &after[b + 1..];
            if name.is_empty() {
                continue;
            }
            if let Some(off) = text.find(&format!("\"{name}\"")) {
                let line = text[..off].matches('\n').count() + 1;
                let line_start = text[..off].rfind('\n').map_or(0, |i| i + 1);
                return Some((line, text[line_start..off].chars().count() + 1));
            }
        }
    }
    None
}

/// `message` with a did-you-mean for an unknown capability name.
fn with_hint(message: String) -> String {
    const KEY: &str = "unknown capability \"";
    let Some(at) = message.find(KEY) else {
        return message;
    };
    if message.contains("did you mean") {
        return message;
    }
    let rest = &message[at + KEY.len()..];
    let Some(typed) = rest.split('"').next() else {
        return message;
    };
    let names = pallet_api::manifest::Capability::ALL.map(|c| c.as_str());
    match super::suggest::closest(typed, names) {
        Some(best) => format!("{message} (did you mean \"{best}\"?)"),
        None => message,
    }
}

/// A finding of `manifest.json` pointing at its place in `text` when it can be found.
pub fn finding(id: &str, text: &str, message: String) -> ScriptDiagnostic {
    let message = with_hint(message);
    let mut sources = SourceMap::default();
    sources.insert("manifest.json", text);
    let pos = locate(text, &message)
        .and_then(|(l, c)| {
            Some(Position::new(
                u16::try_from(l).ok()?,
                u16::try_from(c).ok()?,
            ))
        })
        .unwrap_or(Position::NONE);
    ScriptDiagnostic::new(id, "manifest.json", pos, message, &sources)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_positions_and_quoted_names_are_found() {
        let text = "{\n  \"id\": \"m\",\n  \"capabilities\": [\"hokos\"],\n}\n";
        assert_eq!(
            locate(text, "trailing comma at line 4 column 1"),
            Some((4, 1))
        );
        assert_eq!(
            locate(
                text,
                "unknown capability \"hokos\" (did you mean \"hooks\"?)"
            ),
            Some((3, 20))
        );
        assert_eq!(locate(text, "no position here"), None);
        let d = finding("m", text, "unknown capability \"hokos\"".to_owned());
        assert_eq!((d.line, d.column), (3, 20));
        assert!(
            d.message.ends_with("(did you mean \"hooks\"?)"),
            "{}",
            d.message
        );
        assert!(
            d.rendered.contains("\"capabilities\": [\"hokos\"]"),
            "{}",
            d.rendered
        );
        assert!(d.rendered.contains('^'), "{}", d.rendered);
    }
}
