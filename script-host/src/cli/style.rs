//! Colour for errors and warnings on a terminal: on when the stream is a terminal, off when it
//! is piped or `NO_COLOR` is set (to anything non-empty); `CLICOLOR_FORCE=1` turns it on for a
//! pipe (`NO_COLOR` still wins). Diagnostics are rendered plain (byte-stable for transcripts,
//! `--json` and tests) and painted line by line only at print time.

use std::io::IsTerminal;

const RED: &str = "\u{1b}[1;31m";
const YELLOW: &str = "\u{1b}[1;33m";
const CYAN: &str = "\u{1b}[36m";
const RESET: &str = "\u{1b}[0m";

/// Whether output to a stream that `is_terminal` gets colour, by the environment rules above.
pub fn wanted(is_terminal: bool) -> bool {
    let set = |k: &str| std::env::var_os(k).is_some_and(|v| !v.is_empty());
    if set("NO_COLOR") {
        return false;
    }
    is_terminal || std::env::var_os("CLICOLOR_FORCE").is_some_and(|v| v != "0" && !v.is_empty())
}

/// Colour for stdout.
pub fn stdout() -> bool {
    wanted(std::io::stdout().is_terminal())
}

/// Colour for stderr.
pub fn stderr() -> bool {
    wanted(std::io::stderr().is_terminal())
}

/// The colour of one line: errors red, warnings yellow, notes cyan, else none.
fn colour_of(line: &str) -> Option<&'static str> {
    let t = line.trim_start();
    let lower = t.to_ascii_lowercase();
    if lower.starts_with("warning") || t.contains(": warning: ") || t.contains("] warning") {
        return Some(YELLOW);
    }
    if t.starts_with("note:") || t.starts_with("help:") || t.starts_with("tip:") {
        return Some(CYAN);
    }
    let caret = !t.is_empty() && t.chars().all(|c| matches!(c, '^' | '-' | ' ' | '|'));
    let underline = t.contains('^') && t.trim_start_matches('|').trim().starts_with('^');
    if lower.starts_with("error")
        || (t.starts_with("pallet ") && t.contains(": "))
        || (t.starts_with("mods: ") && (t.contains(" failed") || t.contains(" refused")))
        || (t.starts_with('[')
            && !t.starts_with("[t=")
            && t.contains("] ")
            && t.contains(" failed"))
        || (caret && t.contains('^'))
        || underline
    {
        return Some(RED);
    }
    None
}

/// `text` with its error, warning and note lines coloured when `on`; unchanged otherwise.
pub fn paint(text: &str, on: bool) -> String {
    if !on {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len() + 64);
    for line in text.split_inclusive('\n') {
        let (body, nl) = match line.strip_suffix('\n') {
            Some(b) => (b, "\n"),
            None => (line, ""),
        };
        match colour_of(body) {
            Some(c) => {
                out.push_str(c);
                out.push_str(body);
                out.push_str(RESET);
                out.push_str(nl);
            }
            None => out.push_str(line),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_are_red_warnings_yellow_and_plain_text_untouched() {
        let text =
            "Error: [m] main.rhai:1:1: bad\n  |     ^^^^ here\nwarning: old\nnote: x\nwalk up 3\n";
        let p = paint(text, true);
        assert!(
            p.contains("\u{1b}[1;31mError: [m] main.rhai:1:1: bad\u{1b}[0m\n"),
            "{p:?}"
        );
        assert!(p.contains("\u{1b}[1;33mwarning: old\u{1b}[0m"), "{p:?}");
        assert!(p.contains("\u{1b}[36mnote: x\u{1b}[0m"), "{p:?}");
        assert!(p.contains("\nwalk up 3\n"), "{p:?}");
        assert_eq!(paint(text, false), text);
    }
}
