//! The writer of the restricted literal grammar: `return { … }` with sorted keys, bare
//! identifier keys where Lua allows them, `["…"]` otherwise, positional list entries, strings
//! escaped so they read back byte-for-byte, and floats in shortest round-trip form.
//! Deterministic: the same value always gives the same bytes.

use std::fmt::{self, Write};

use pallet_api::Value;

/// Deepest nesting the writer accepts (the decoder's limit is 64; this leaves headroom for
/// tests that write deeper sources on purpose).
pub const MAX_ENCODE_DEPTH: usize = 1024;

/// Why a value cannot be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EncodeError {
    /// `nil` cannot be a list entry or a root (map entries holding `nil` are skipped).
    Nil,
    NonFinite,
    TooDeep,
    NonTableRoot,
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EncodeError::Nil => "nil is not data",
            EncodeError::NonFinite => "non-finite numbers are not data",
            EncodeError::TooDeep => "value nests too deeply",
            EncodeError::NonTableRoot => "the root must be a table",
        })
    }
}

impl std::error::Error for EncodeError {}

const KEYWORDS: &[&str] = &[
    "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in",
    "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
];

/// Can `key` be written bare (`key = v`)?
pub fn is_bare_key(key: &str) -> bool {
    let mut bytes = key.bytes();
    matches!(bytes.next(), Some(b) if b.is_ascii_alphabetic() || b == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_')
        && !KEYWORDS.contains(&key)
}

/// Write a string literal: `"` quoted; `\\`, `\"`, control bytes and DEL as escapes (`\n`,
/// `\ddd`); other UTF-8 passes through.
pub fn write_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                // Three digits, so a following digit is never read as part of the escape.
                let _ = write!(out, "\\{:03}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn write_number(out: &mut String, v: &Value) -> Result<(), EncodeError> {
    match *v {
        Value::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Value::Float(f) => {
            if !f.is_finite() {
                return Err(EncodeError::NonFinite);
            }
            // `{:?}` is the shortest text that parses back to the same bits, always with a
            // `.` or an exponent, so it reads back as a float.
            let _ = write!(out, "{f:?}");
        }
        _ => {}
    }
    Ok(())
}

fn is_scalar(v: &Value) -> bool {
    !matches!(v, Value::List(_) | Value::Map(_))
}

/// Entries of a table value that will be written (`nil` map entries are skipped).
fn all_scalar(v: &Value) -> bool {
    match v {
        Value::List(l) => l.iter().all(is_scalar),
        Value::Map(m) => m.values().all(is_scalar),
        _ => true,
    }
}

fn write_value(out: &mut String, v: &Value, indent: usize) -> Result<(), EncodeError> {
    if indent > MAX_ENCODE_DEPTH {
        return Err(EncodeError::TooDeep);
    }
    match v {
        Value::Nil => Err(EncodeError::Nil),
        Value::Bool(b) => {
            out.push_str(if *b { "true" } else { "false" });
            Ok(())
        }
        Value::Int(_) | Value::Float(_) => write_number(out, v),
        Value::Str(s) => {
            write_string(out, s);
            Ok(())
        }
        Value::List(_) | Value::Map(_) => write_table(out, v, indent),
    }
}

fn write_key(out: &mut String, key: &str) {
    if is_bare_key(key) {
        out.push_str(key);
    } else {
        out.push('[');
        write_string(out, key);
        out.push(']');
    }
    out.push_str(" = ");
}

fn write_table(out: &mut String, v: &Value, indent: usize) -> Result<(), EncodeError> {
    let inline = all_scalar(v);
    let pad = |out: &mut String, n: usize| {
        for _ in 0..n {
            out.push_str("  ");
        }
    };
    out.push('{');
    let mut first = true;
    let mut entry = |out: &mut String, key: Option<&str>, value: &Value| {
        if inline {
            out.push_str(if first { "" } else { ", " });
        } else {
            out.push('\n');
            pad(out, indent + 1);
        }
        first = false;
        if let Some(k) = key {
            write_key(out, k);
        }
        let r = write_value(out, value, indent + 1);
        if !inline {
            out.push(',');
        }
        r
    };
    match v {
        Value::List(items) => {
            for item in items {
                entry(out, None, item)?;
            }
        }
        Value::Map(map) => {
            for (k, item) in map.iter().filter(|(_, item)| !item.is_nil()) {
                entry(out, Some(k), item)?;
            }
        }
        _ => {}
    }
    if !inline && !first {
        out.push('\n');
        pad(out, indent);
    }
    out.push('}');
    Ok(())
}

/// Encode a table value as a chunk: `header` comment lines (each prefixed `-- `), then
/// `return { … }` and a final newline.
pub fn encode_module(header: &[&str], root: &Value) -> Result<String, EncodeError> {
    if !matches!(root, Value::List(_) | Value::Map(_)) {
        return Err(EncodeError::NonTableRoot);
    }
    let mut out = String::new();
    for line in header {
        out.push_str("-- ");
        out.extend(line.chars().map(|c| if c.is_control() { ' ' } else { c }));
        out.push('\n');
    }
    out.push_str("return ");
    write_table(&mut out, root, 0)?;
    out.push('\n');
    Ok(out)
}
