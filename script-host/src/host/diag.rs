//! Source-pointing diagnostics for compile and runtime errors: mod id, file, line, column and
//! an excerpt with a caret, rendered with `ariadne` (plain ASCII, no colour, so transcripts
//! are byte-stable).

use std::collections::BTreeMap;
use std::fmt;

use ariadne::{CharSet, Config, Label, Report, ReportKind, Source};
use rhai::{EvalAltResult, ParseError, Position};

use super::budget::BUDGET_TOKEN;
use super::error::read_error_map;

/// The text of every script file of one mod, by mod-relative path (for excerpts).
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    files: BTreeMap<String, String>,
}

impl SourceMap {
    pub fn insert(&mut self, file: &str, text: &str) {
        self.files.insert(file.to_owned(), text.to_owned());
    }
    pub fn get(&self, file: &str) -> Option<&str> {
        self.files.get(file).map(String::as_str)
    }
}

/// One error of one mod, pointing into its source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptDiagnostic {
    pub mod_id: String,
    /// Mod-relative file (`main.rhai`, `lib/util.rhai`); `manifest.json` for manifest errors.
    pub file: String,
    /// 1-based; 0 when the error has no position.
    pub line: usize,
    pub column: usize,
    pub message: String,
    /// The rendered report: header, excerpt and caret.
    pub rendered: String,
}

impl ScriptDiagnostic {
    /// `main.rhai:3:9: message` (one line, for feeds and link failures).
    pub fn short(&self) -> String {
        if self.line == 0 {
            format!("{}: {}", self.file, self.message)
        } else {
            format!(
                "{}:{}:{}: {}",
                self.file, self.line, self.column, self.message
            )
        }
    }

    /// Build a diagnostic and render its excerpt from `sources`.
    pub fn new(
        mod_id: &str,
        file: &str,
        pos: Position,
        message: String,
        sources: &SourceMap,
    ) -> Self {
        let (line, column) = match (pos.line(), pos.position()) {
            (Some(l), Some(c)) => (l, c.max(1)),
            (Some(l), None) => (l, 1),
            _ => (0, 0),
        };
        let rendered = render(mod_id, file, line, column, &message, sources.get(file));
        ScriptDiagnostic {
            mod_id: mod_id.to_owned(),
            file: file.to_owned(),
            line,
            column,
            message,
            rendered,
        }
    }

    /// A compile error of `file`.
    pub fn from_parse(mod_id: &str, file: &str, err: &ParseError, sources: &SourceMap) -> Self {
        Self::new(
            mod_id,
            file,
            err.position(),
            err.err_type().to_string(),
            sources,
        )
    }

    /// A runtime error. `default_file` is the file the failing call started in; an error
    /// raised inside an imported module names that module's file.
    pub fn from_eval(
        mod_id: &str,
        default_file: &str,
        err: &EvalAltResult,
        sources: &SourceMap,
    ) -> Self {
        Self::from_eval_at(mod_id, default_file, Position::NONE, err, sources)
    }

    /// [`from_eval`](Self::from_eval) with a fallback position in `default_file` for errors
    /// Rhai reports without one.
    pub fn from_eval_at(
        mod_id: &str,
        default_file: &str,
        fallback: Position,
        err: &EvalAltResult,
        sources: &SourceMap,
    ) -> Self {
        let (file, pos, message) = innermost(default_file, err);
        if pos.is_none() && file == default_file {
            return Self::new(mod_id, &file, fallback, message, sources);
        }
        Self::new(mod_id, &file, pos, message, sources)
    }
}

impl fmt::Display for ScriptDiagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.rendered)
    }
}

/// Walk through function-call and module wrappers to the error that actually happened.
fn innermost(default_file: &str, err: &EvalAltResult) -> (String, Position, String) {
    let mut file = default_file.to_owned();
    let mut e = err;
    let mut outer_pos = err.position();
    loop {
        match e {
            EvalAltResult::ErrorInFunctionCall(_, source, inner, pos) => {
                if !source.is_empty() {
                    file = source.clone();
                }
                if !pos.is_none() {
                    outer_pos = *pos;
                }
                e = inner;
            }
            EvalAltResult::ErrorInModule(path, inner, pos) => {
                if !path.is_empty() {
                    file = path.clone();
                }
                if !pos.is_none() {
                    outer_pos = *pos;
                }
                e = inner;
            }
            _ => break,
        }
    }
    let pos = if e.position().is_none() {
        outer_pos
    } else {
        e.position()
    };
    (file, pos, describe(e))
}

/// A readable message for one (innermost) runtime error.
pub fn describe(e: &EvalAltResult) -> String {
    match e {
        EvalAltResult::ErrorRuntime(value, _) => match read_error_map(value) {
            Some((code, message)) => format!(
                "uncaught error {{code: {:?}}}: {}",
                pallet_api::cut_message(&code),
                pallet_api::cut_message(&message)
            ),
            None => format!("uncaught throw: {}", pallet_api::display_cut(value)),
        },
        EvalAltResult::ErrorTerminated(token, _)
            if token.clone().into_string().ok().as_deref() == Some(BUDGET_TOKEN) =>
        {
            "operation budget exhausted (the per-dispatch limit covers the whole chain)".to_owned()
        }
        EvalAltResult::ErrorTerminated(token, _)
            if token.clone().into_string().ok().as_deref() == Some(crate::alloc::MEMORY_TOKEN) =>
        {
            crate::alloc::over_message()
        }
        EvalAltResult::ErrorTooManyOperations(_) => {
            "too many operations (Rhai's per-call limit)".to_owned()
        }
        EvalAltResult::ErrorFunctionNotFound(sig, _) => function_not_found(sig),
        other => {
            // Rhai appends " (line l, position c)"; the diagnostic carries the position itself.
            let text = other.to_string();
            match text.rfind(" (line ") {
                Some(i) if text.ends_with(')') => text[..i].to_owned(),
                _ => text,
            }
        }
    }
}

/// Rhai's `Function not found: name (T1, T2)` in the mod's terms: a handle method that does
/// not exist (with a did-you-mean and the handle's methods) or a closure called with another
/// number of arguments than it declares (never the internal `anon$…` name).
pub fn function_not_found(sig: &str) -> String {
    let (name, types) = match sig.split_once(" (") {
        Some((n, rest)) => (n.trim(), rest.trim_end_matches(')')),
        None => (sig.trim(), ""),
    };
    let types: Vec<&str> = if types.trim().is_empty() {
        Vec::new()
    } else {
        types.split(", ").map(str::trim).collect()
    };
    if name.starts_with("anon$") {
        let shown: Vec<&str> = types
            .iter()
            .map(|t| if *t == "Fn" { "next" } else { t })
            .collect();
        return format!(
            "a closure of this mod was called with {} argument(s) ({}) but declares a different number of parameters (hook closures take (next, <the hook's parameters>), event listeners take (payload))",
            types.len(),
            shown.join(", ")
        );
    }
    if let Some(handle) = types
        .first()
        .map(|t| t.trim_start_matches("&mut ").trim())
        .and_then(super::suggest::handle_of_type)
    {
        if let Some(msg) = super::suggest::unknown_method(handle, name, types.len() - 1) {
            return msg;
        }
    }
    format!("Function not found: {sig}")
}

fn char_offset(src: &str, line: usize, column: usize) -> usize {
    let mut offset = 0;
    for (i, l) in src.split('\n').enumerate() {
        let len = l.chars().count() + 1;
        if i + 1 == line {
            return offset + (column.saturating_sub(1)).min(len.saturating_sub(1));
        }
        offset += len;
    }
    offset.saturating_sub(1)
}

/// Length in chars of the token at char offset `at` (an identifier/number run, else one char),
/// at least 2 when the line allows it so the excerpt always carries a `^` underline.
fn token_len(src: &str, at: usize) -> usize {
    let rest: Vec<char> = src.chars().skip(at).take_while(|c| *c != '\n').collect();
    // Full spans: a string literal through its closing quote (a hook or event name), a closure's
    // parameter list `|next, ctx|` (an arity error), else the identifier.
    if let Some(open @ ('"' | '`' | '|')) = rest.first().copied() {
        if let Some(end) = rest.iter().skip(1).position(|c| *c == open) {
            return end + 2;
        }
    }
    let word = rest
        .iter()
        .take_while(|c| c.is_alphanumeric() || **c == '_')
        .count();
    word.max(2).min(rest.len().max(1))
}

/// The widest source line an excerpt shows whole.
const MAX_EXCERPT_CHARS: usize = 160;

/// For a line longer than [`MAX_EXCERPT_CHARS`]: a stand-in source whose line `line` is the
/// window of the real line around char offset `at` (`...` marking what was cut; earlier lines
/// left empty so the excerpt's line number stays right), and `at` in it.
fn window(src: &str, line: usize, at: usize, len: usize) -> Option<(String, usize)> {
    let text = src.split('\n').nth(line.checked_sub(1)?)?;
    let chars: Vec<char> = text.chars().collect();
    if chars.len() <= MAX_EXCERPT_CHARS {
        return None;
    }
    let line_start: usize = src
        .split('\n')
        .take(line - 1)
        .map(|l| l.chars().count() + 1)
        .sum();
    let col = at.saturating_sub(line_start).min(chars.len());
    let keep = MAX_EXCERPT_CHARS;
    let from = col
        .saturating_sub(keep.saturating_sub(len.min(keep)) / 2)
        .min(chars.len() - keep);
    let to = from + keep;
    let mut out = "\n".repeat(line - 1);
    let lead = if from > 0 { "..." } else { "" };
    out.push_str(lead);
    out.extend(&chars[from..to]);
    if to < chars.len() {
        out.push_str("...");
    }
    Some((out, line - 1 + lead.len() + (col - from)))
}

fn render(
    mod_id: &str,
    file: &str,
    line: usize,
    column: usize,
    message: &str,
    source: Option<&str>,
) -> String {
    let header = if line == 0 {
        format!("[{mod_id}] {file}: {message}")
    } else {
        format!("[{mod_id}] {file}:{line}:{column}: {message}")
    };
    let Some(src) = source.filter(|_| line > 0) else {
        return header;
    };
    let at = char_offset(src, line, column);
    let len = token_len(src, at);
    // A very long line (minified or generated source, a hostile 400 KB line) is shown as a
    // window of MAX_EXCERPT_CHARS around the error; the header keeps the real line:column.
    let windowed = window(src, line, at, len);
    let (src, at, len) = match &windowed {
        Some((text, at)) => (text.as_str(), *at, len.min(MAX_EXCERPT_CHARS)),
        None => (src, at, len),
    };
    // A one-character token at the end of a line: widen to the left so the `^` underline shows.
    let start = if len < 2 && column > 1 { at - 1 } else { at };
    let span = (file, start..at + len);
    let mut out = Vec::new();
    let written = Report::build(ReportKind::Error, span.clone())
        .with_config(
            Config::default()
                .with_color(false)
                .with_char_set(CharSet::Ascii)
                .with_underlines(true),
        )
        .with_message(&header)
        .with_label(Label::new(span).with_message(message))
        .finish()
        .write((file, Source::from(src)), &mut out);
    match (written, String::from_utf8(out)) {
        (Ok(()), Ok(text)) => text.trim_end().to_owned(),
        _ => header,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_span_the_whole_name_or_closure_parameter_list() {
        // The width of the underline (`^`s, with ariadne's label stem `|` inside it).
        let width = |text: &str| {
            let line = text.lines().find(|l| l.contains('^')).unwrap_or("");
            let first = line.find('^').unwrap_or(0);
            let last = line.rfind('^').unwrap_or(0);
            last + 1 - first
        };
        let src = "hooks.wrap(\"exp.gian\", |next| next.call());\n";
        let name = render("m", "main.rhai", 1, 12, "unknown hook", Some(src));
        assert_eq!(width(&name), "\"exp.gian\"".len(), "{name}");
        let closure = render("m", "main.rhai", 1, 24, "arity", Some(src));
        assert_eq!(width(&closure), "|next|".len(), "{closure}");
        let ident = render("m", "main.rhai", 1, 7, "no method", Some(src));
        assert_eq!(width(&ident), "wrap".len(), "{ident}");
    }

    #[test]
    fn a_long_line_is_shown_as_a_window_around_the_error() {
        let filler = "x".repeat(400_000);
        let src = format!("let a = 1;\nlet b = \"{filler}\"; oops\n");
        let column = filler.len() + 12;
        let text = render("m", "main.rhai", 2, column, "bad token", Some(&src));
        assert!(
            text.contains(&format!("main.rhai:2:{column}: bad token")),
            "{text}"
        );
        assert!(text.contains("oops"), "{text}");
        assert!(text.contains("..."), "{text}");
        let widest = text.lines().map(|l| l.chars().count()).max().unwrap();
        assert!(widest < 400, "excerpt {widest} chars wide");
        assert!(text.contains('^'), "{text}");
    }

    #[test]
    fn parse_errors_point_at_the_source() {
        let mut sources = SourceMap::default();
        let text = "let a = 1;\nlet b = foo bar;\n";
        sources.insert("main.rhai", text);
        let engine = rhai::Engine::new_raw();
        let err = engine.compile(text).unwrap_err();
        let d = ScriptDiagnostic::from_parse("demo", "main.rhai", &err, &sources);
        assert_eq!((d.line, d.column), (2, 13));
        assert!(
            d.rendered.contains("[demo] main.rhai:2:13:"),
            "{}",
            d.rendered
        );
        assert!(d.rendered.contains("let b = foo bar;"), "{}", d.rendered);
        assert!(d.rendered.contains('^'), "{}", d.rendered);
        // A one-character token at the end of a line still gets a caret.
        let text = "let b = ;\n";
        sources.insert("main.rhai", text);
        let err = engine.compile(text).unwrap_err();
        let d = ScriptDiagnostic::from_parse("demo", "main.rhai", &err, &sources);
        assert!(d.rendered.contains('^'), "{}", d.rendered);
    }
}
