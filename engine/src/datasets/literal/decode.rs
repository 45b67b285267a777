//! The bounded decoder of the restricted literal grammar that generated dataset modules are
//! written in (RFC 0015: the Lua engine's serializer subset, with size and depth limits).
//!
//! It reads `return <table>` and nothing else: tables (`ident = v`, `[key] = v` and positional
//! entries, `,` or `;` separators, optional trailing separator), strings (`"…"`/`'…'` with the
//! Lua 5.1 escapes, `\ddd` ≤ 255), numbers (decimal, exponent, hex integers, leading `-`),
//! `true`/`false`, and `--` line comments. Everything else fails closed: function literals,
//! assignments and other statements, identifiers used as values, `nil`, long brackets, binary
//! chunks (`\27Lua`), a non-table root and any trailing content. Nothing is ever executed.
//!
//! The parser is a loop over an explicit stack of open tables, so hostile nesting can only hit
//! the depth limit, never the native stack. Every limit is checked as input is consumed:
//! source bytes, depth, values, string bytes and entries per table.

use std::collections::BTreeMap;
use std::fmt;

use pallet_api::Value;

/// Resource bounds of one decode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Source size in bytes.
    pub max_bytes: usize,
    /// Table nesting; the root table is depth 1.
    pub max_depth: usize,
    /// Values parsed (tables, scalars and `[key]` keys).
    pub max_nodes: usize,
    /// Decoded bytes of one string.
    pub max_string_bytes: usize,
    /// Entries of one table.
    pub max_table_entries: usize,
}

const MIB: usize = 1024 * 1024;

impl Limits {
    /// The limits for generated dataset modules (RFC 0015-views; the Lua engine's `DECODE_LIMITS`).
    pub const GENERATED: Limits = Limits {
        max_bytes: 8 * MIB,
        max_depth: 64,
        max_nodes: 500_000,
        max_string_bytes: 2 * MIB,
        max_table_entries: 250_000,
    };
}

/// Why a decode failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeErrorKind {
    /// The source is larger than `max_bytes`.
    SourceTooLarge,
    /// The source is a precompiled chunk (starts with `\27`).
    BinaryChunk,
    /// The chunk does not start with `return`.
    ExpectedReturn,
    /// A statement (assignment, `local`, call…) where only `return <table>` may stand.
    Statement,
    /// A `function` literal.
    FunctionLiteral,
    /// `return` of something other than a table.
    NonTableRoot,
    /// Anything after the root table.
    TrailingContent,
    /// A name used as a value (a variable read) or `nil`.
    NotALiteral(String),
    /// Long strings and long comments (`[[`, `[=[`, `--[[`) are not part of the grammar.
    LongBracket,
    /// A character that cannot start a value, key or separator here.
    Unexpected(char),
    /// Expected `,`, `;` or `}` after a table entry.
    ExpectedSeparator,
    /// Expected `=` after `[key]`, or `]` after a key.
    ExpectedAssign,
    /// End of input inside a table.
    UnexpectedEnd,
    UnterminatedString,
    BadEscape,
    /// A string is not UTF-8 after unescaping.
    InvalidUtf8,
    BadNumber(String),
    /// A number that is infinite after parsing (`1e999`).
    NonFiniteNumber,
    /// A table key that is not a string or an integer (tables, booleans, fractions).
    BadKey,
    DuplicateKey(String),
    /// Integer keys that are not exactly `1..n`.
    SparseArray,
    /// String keys and integer keys in one table.
    MixedTable,
    DepthExceeded,
    TooManyValues,
    StringTooLong,
    TooManyEntries,
}

/// A decode failure with its byte offset and 1-based line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    pub kind: DecodeErrorKind,
    pub offset: usize,
    pub line: usize,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use DecodeErrorKind as K;
        write!(f, "line {}: ", self.line)?;
        match &self.kind {
            K::SourceTooLarge => f.write_str("source exceeds the size limit"),
            K::BinaryChunk => f.write_str("binary chunks are not data"),
            K::ExpectedReturn => f.write_str("expected `return`"),
            K::Statement => f.write_str("statements are not data"),
            K::FunctionLiteral => f.write_str("function literals are not data"),
            K::NonTableRoot => f.write_str("the root must be a table"),
            K::TrailingContent => f.write_str("trailing content after the root table"),
            K::NotALiteral(name) => write!(f, "`{name}` is not a literal"),
            K::LongBracket => f.write_str("long strings and long comments are not supported"),
            K::Unexpected(c) => write!(f, "unexpected {c:?}"),
            K::ExpectedSeparator => f.write_str("expected `,`, `;` or `}`"),
            K::ExpectedAssign => f.write_str("expected `]` and `=` after a key"),
            K::UnexpectedEnd => f.write_str("unexpected end of input"),
            K::UnterminatedString => f.write_str("unterminated string"),
            K::BadEscape => f.write_str("invalid escape sequence"),
            K::InvalidUtf8 => f.write_str("string is not UTF-8"),
            K::BadNumber(t) => write!(f, "malformed number {t:?}"),
            K::NonFiniteNumber => f.write_str("number is not finite"),
            K::BadKey => f.write_str("keys must be strings or integers"),
            K::DuplicateKey(k) => write!(f, "duplicate key {k:?}"),
            K::SparseArray => f.write_str("integer keys must be exactly 1..n"),
            K::MixedTable => f.write_str("a table mixes string and integer keys"),
            K::DepthExceeded => f.write_str("nesting exceeds the depth limit"),
            K::TooManyValues => f.write_str("too many values"),
            K::StringTooLong => f.write_str("string exceeds the length limit"),
            K::TooManyEntries => f.write_str("table exceeds the entry limit"),
        }
    }
}

impl std::error::Error for DecodeError {}

/// An explicit table key (`name =` or `[key] =`).
enum Key {
    Int(i64),
    Str(String),
}

/// One open table: its entries by kind of key, kept apart so the common shapes (all named,
/// all positional) close without re-sorting or re-keying. Named entries go straight into the
/// map (duplicates are caught on insert).
#[derive(Default)]
struct Frame {
    named: BTreeMap<String, Value>,
    positional: Vec<Value>,
    indexed: Vec<(i64, Value)>,
    /// The key of the entry whose value is being parsed (`None`: positional).
    pending: Option<Key>,
}

impl Frame {
    fn len(&self) -> usize {
        self.named.len() + self.positional.len() + self.indexed.len()
    }
}

/// The open tables. Frames above `depth` are kept (emptied) and reused, so the positional
/// scratch vectors keep their capacity and a closed list is allocated once at its exact size.
#[derive(Default)]
struct Stack {
    frames: Vec<Frame>,
    depth: usize,
}

impl Stack {
    fn top(&mut self) -> Option<&mut Frame> {
        self.depth
            .checked_sub(1)
            .and_then(|i| self.frames.get_mut(i))
    }
}

/// What the parser expects next inside the top frame.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Expect {
    EntryOrClose,
    SeparatorOrClose,
}

struct Parser<'a> {
    src: &'a [u8],
    /// `src` as text when it is valid UTF-8 (checked once), so slices need no re-validation.
    text: Option<&'a str>,
    pos: usize,
    limits: Limits,
    nodes: usize,
}

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

fn is_ident_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Decode `src` under `limits`. Never executes anything and never panics.
pub fn decode(src: &[u8], limits: &Limits) -> Result<Value, DecodeError> {
    let mut p = Parser {
        src,
        text: None,
        pos: 0,
        limits: *limits,
        nodes: 0,
    };
    if src.len() > limits.max_bytes {
        return Err(p.err(DecodeErrorKind::SourceTooLarge));
    }
    if src.first() == Some(&0x1b) {
        return Err(p.err(DecodeErrorKind::BinaryChunk));
    }
    p.text = std::str::from_utf8(src).ok();
    p.skip_trivia()?;
    match p.ident() {
        Some("return") => {}
        Some("function") => return Err(p.err(DecodeErrorKind::FunctionLiteral)),
        Some(_) => return Err(p.err(DecodeErrorKind::Statement)),
        None => return Err(p.err(DecodeErrorKind::ExpectedReturn)),
    }
    p.skip_trivia()?;
    if p.peek() != Some(b'{') {
        return Err(match p.peek_ident() {
            Some("function") => p.err(DecodeErrorKind::FunctionLiteral),
            _ => p.err(DecodeErrorKind::NonTableRoot),
        });
    }
    let root = p.table()?;
    p.skip_trivia()?;
    if p.pos < p.src.len() {
        return Err(p.err(DecodeErrorKind::TrailingContent));
    }
    Ok(root)
}

impl<'a> Parser<'a> {
    fn err(&self, kind: DecodeErrorKind) -> DecodeError {
        let upto = &self.src[..self.pos.min(self.src.len())];
        DecodeError {
            kind,
            offset: self.pos,
            line: 1 + upto.iter().filter(|&&b| b == b'\n').count(),
        }
    }

    /// `src[start..end]` as text (O(1) when the whole source is UTF-8).
    fn slice(&self, start: usize, end: usize) -> Option<&'a str> {
        match self.text {
            Some(t) => t.get(start..end),
            None => std::str::from_utf8(self.src.get(start..end)?).ok(),
        }
    }

    fn peek(&self) -> Option<u8> {
        self.src.get(self.pos).copied()
    }

    fn peek_at(&self, ahead: usize) -> Option<u8> {
        self.src.get(self.pos + ahead).copied()
    }

    /// Skip whitespace and `--` line comments.
    fn skip_trivia(&mut self) -> Result<(), DecodeError> {
        while let Some(b) = self.peek() {
            match b {
                b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c => self.pos += 1,
                b'-' if self.peek_at(1) == Some(b'-') => {
                    if self.peek_at(2) == Some(b'[')
                        && matches!(self.peek_at(3), Some(b'[') | Some(b'='))
                    {
                        self.pos += 2;
                        return Err(self.err(DecodeErrorKind::LongBracket));
                    }
                    while let Some(c) = self.peek() {
                        if c == b'\n' {
                            break;
                        }
                        self.pos += 1;
                    }
                }
                _ => break,
            }
        }
        Ok(())
    }

    fn peek_ident(&self) -> Option<&'a str> {
        let src: &'a [u8] = self.src;
        let start = self.pos;
        if !src.get(start).copied().is_some_and(is_ident_start) {
            return None;
        }
        let mut end = start;
        while src.get(end).copied().is_some_and(is_ident_char) {
            end += 1;
        }
        self.slice(start, end)
    }

    fn ident(&mut self) -> Option<&'a str> {
        let id = self.peek_ident()?;
        self.pos += id.len();
        Some(id)
    }

    fn count_node(&mut self) -> Result<(), DecodeError> {
        self.nodes += 1;
        if self.nodes > self.limits.max_nodes {
            return Err(self.err(DecodeErrorKind::TooManyValues));
        }
        Ok(())
    }

    /// Parse the table starting at `{`, iteratively.
    fn table(&mut self) -> Result<Value, DecodeError> {
        let mut stack = Stack::default();
        self.open(&mut stack)?;
        let mut expect = Expect::EntryOrClose;
        loop {
            self.skip_trivia()?;
            let Some(b) = self.peek() else {
                return Err(self.err(DecodeErrorKind::UnexpectedEnd));
            };
            if b == b'}' {
                self.pos += 1;
                let Some(frame) = stack.top() else {
                    return Err(self.err(DecodeErrorKind::UnexpectedEnd));
                };
                let value = self.close(frame)?;
                stack.depth -= 1;
                match stack.top() {
                    None => return Ok(value),
                    Some(parent) => {
                        self.attach(parent, value)?;
                        expect = Expect::SeparatorOrClose;
                        continue;
                    }
                }
            }
            if expect == Expect::SeparatorOrClose {
                if b == b',' || b == b';' {
                    self.pos += 1;
                    expect = Expect::EntryOrClose;
                    continue;
                }
                return Err(self.err(DecodeErrorKind::ExpectedSeparator));
            }
            // An entry: `[key] = value`, `name = value` or a positional value.
            let Some(top) = stack.top() else {
                return Err(self.err(DecodeErrorKind::UnexpectedEnd));
            };
            if b == b'[' {
                if matches!(self.peek_at(1), Some(b'[') | Some(b'=')) {
                    return Err(self.err(DecodeErrorKind::LongBracket));
                }
                self.pos += 1;
                self.skip_trivia()?;
                let key = self.key()?;
                self.skip_trivia()?;
                if self.peek() != Some(b']') {
                    return Err(self.err(DecodeErrorKind::ExpectedAssign));
                }
                self.pos += 1;
                self.skip_trivia()?;
                if self.peek() != Some(b'=') || self.peek_at(1) == Some(b'=') {
                    return Err(self.err(DecodeErrorKind::ExpectedAssign));
                }
                self.pos += 1;
                top.pending = Some(key);
            } else if let Some(name) = self.peek_ident() {
                let save = self.pos;
                self.pos += name.len();
                self.skip_trivia()?;
                if self.peek() == Some(b'=') && self.peek_at(1) != Some(b'=') {
                    self.pos += 1;
                    top.pending = Some(Key::Str(name.to_owned()));
                } else {
                    self.pos = save;
                }
            }
            // The value (of a keyed or positional entry).
            self.skip_trivia()?;
            match self.peek() {
                Some(b'{') => {
                    self.open(&mut stack)?;
                    expect = Expect::EntryOrClose;
                }
                Some(_) => {
                    let value = self.scalar()?;
                    let Some(top) = stack.top() else {
                        return Err(self.err(DecodeErrorKind::UnexpectedEnd));
                    };
                    self.attach(top, value)?;
                    expect = Expect::SeparatorOrClose;
                }
                None => return Err(self.err(DecodeErrorKind::UnexpectedEnd)),
            }
        }
    }

    fn open(&mut self, stack: &mut Stack) -> Result<(), DecodeError> {
        if stack.depth >= self.limits.max_depth {
            return Err(self.err(DecodeErrorKind::DepthExceeded));
        }
        self.count_node()?;
        self.pos += 1; // `{`
        if stack.frames.len() == stack.depth {
            stack.frames.push(Frame::default());
        }
        stack.depth += 1;
        Ok(())
    }

    /// Add a finished value to `frame` under its pending key (or the next position).
    fn attach(&self, frame: &mut Frame, value: Value) -> Result<(), DecodeError> {
        if frame.len() >= self.limits.max_table_entries {
            return Err(self.err(DecodeErrorKind::TooManyEntries));
        }
        match frame.pending.take() {
            Some(Key::Str(k)) => match frame.named.entry(k) {
                std::collections::btree_map::Entry::Vacant(slot) => {
                    slot.insert(value);
                }
                std::collections::btree_map::Entry::Occupied(slot) => {
                    return Err(self.err(DecodeErrorKind::DuplicateKey(slot.key().clone())));
                }
            },
            Some(Key::Int(i)) => frame.indexed.push((i, value)),
            None => frame.positional.push(value),
        }
        Ok(())
    }

    /// Turn a closed table into a list (keys exactly `1..n`) or a map (string keys).
    /// Leaves `frame` empty for reuse.
    fn close(&self, frame: &mut Frame) -> Result<Value, DecodeError> {
        frame.pending = None;
        if !frame.named.is_empty() {
            if !frame.positional.is_empty() || !frame.indexed.is_empty() {
                return Err(self.err(DecodeErrorKind::MixedTable));
            }
            return Ok(Value::Map(std::mem::take(&mut frame.named)));
        }
        if frame.indexed.is_empty() {
            return Ok(if frame.positional.is_empty() {
                Value::Map(BTreeMap::new())
            } else {
                // Exact-size copy; the scratch vector keeps its capacity.
                Value::List(frame.positional.drain(..).collect())
            });
        }
        // Explicit integer keys: positional entries are 1, 2, … in Lua; merge and require 1..n.
        let mut by_index: BTreeMap<i64, Value> = BTreeMap::new();
        let numbered = (1i64..).zip(frame.positional.drain(..));
        for (i, v) in numbered.chain(frame.indexed.drain(..)) {
            if by_index.insert(i, v).is_some() {
                return Err(self.err(DecodeErrorKind::DuplicateKey(i.to_string())));
            }
        }
        let n = by_index.len();
        let dense = by_index.keys().next() == Some(&1)
            && by_index
                .keys()
                .next_back()
                .is_some_and(|&last| usize::try_from(last).ok() == Some(n));
        if !dense {
            return Err(self.err(DecodeErrorKind::SparseArray));
        }
        Ok(Value::List(by_index.into_values().collect()))
    }

    /// A `[key]`: a string or an integral number.
    fn key(&mut self) -> Result<Key, DecodeError> {
        if self.peek() == Some(b'{') {
            return Err(self.err(DecodeErrorKind::BadKey));
        }
        match self.scalar()? {
            Value::Str(s) => Ok(Key::Str(s)),
            Value::Int(i) => Ok(Key::Int(i)),
            Value::Float(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => Ok(Key::Int(f as i64)),
            _ => Err(self.err(DecodeErrorKind::BadKey)),
        }
    }

    /// A string, number or boolean.
    fn scalar(&mut self) -> Result<Value, DecodeError> {
        self.count_node()?;
        let Some(b) = self.peek() else {
            return Err(self.err(DecodeErrorKind::UnexpectedEnd));
        };
        match b {
            b'"' | b'\'' => self.string(b).map(Value::Str),
            b'0'..=b'9' | b'.' => self.number(false),
            b'-' if matches!(self.peek_at(1), Some(b'0'..=b'9') | Some(b'.')) => {
                self.pos += 1;
                self.number(true)
            }
            b'[' if matches!(self.peek_at(1), Some(b'[') | Some(b'=')) => {
                Err(self.err(DecodeErrorKind::LongBracket))
            }
            _ => match self.peek_ident() {
                Some("true") => {
                    self.pos += 4;
                    Ok(Value::Bool(true))
                }
                Some("false") => {
                    self.pos += 5;
                    Ok(Value::Bool(false))
                }
                Some("function") => Err(self.err(DecodeErrorKind::FunctionLiteral)),
                Some(name) => Err(self.err(DecodeErrorKind::NotALiteral(name.to_owned()))),
                None => {
                    let c = std::str::from_utf8(&self.src[self.pos..])
                        .ok()
                        .and_then(|s| s.chars().next())
                        .unwrap_or(char::from(b));
                    Err(self.err(DecodeErrorKind::Unexpected(c)))
                }
            },
        }
    }

    fn string(&mut self, quote: u8) -> Result<String, DecodeError> {
        self.pos += 1;
        // Fast path: no escape before the closing quote — one slice, one UTF-8 check.
        let start = self.pos;
        let rest = &self.src[start..];
        if let Some(end) = rest
            .iter()
            .position(|&b| b == quote || b == b'\\' || b == b'\n' || b == b'\r')
        {
            if rest[end] == quote {
                if end > self.limits.max_string_bytes {
                    self.pos = start + self.limits.max_string_bytes;
                    return Err(self.err(DecodeErrorKind::StringTooLong));
                }
                let text = self
                    .slice(start, start + end)
                    .ok_or_else(|| self.err(DecodeErrorKind::InvalidUtf8))?;
                self.pos = start + end + 1;
                return Ok(text.to_owned());
            }
        }
        let mut out: Vec<u8> = Vec::new();
        loop {
            let Some(b) = self.peek() else {
                return Err(self.err(DecodeErrorKind::UnterminatedString));
            };
            self.pos += 1;
            let byte = match b {
                _ if b == quote => break,
                b'\n' | b'\r' => {
                    self.pos -= 1;
                    return Err(self.err(DecodeErrorKind::UnterminatedString));
                }
                b'\\' => self.escape()?,
                other => other,
            };
            if out.len() >= self.limits.max_string_bytes {
                return Err(self.err(DecodeErrorKind::StringTooLong));
            }
            out.push(byte);
        }
        String::from_utf8(out).map_err(|_| self.err(DecodeErrorKind::InvalidUtf8))
    }

    /// One escape after `\` (Lua 5.1): the byte it stands for.
    fn escape(&mut self) -> Result<u8, DecodeError> {
        let Some(b) = self.peek() else {
            return Err(self.err(DecodeErrorKind::UnterminatedString));
        };
        self.pos += 1;
        Ok(match b {
            b'a' => 0x07,
            b'b' => 0x08,
            b'f' => 0x0c,
            b'n' => b'\n',
            b'r' => b'\r',
            b't' => b'\t',
            b'v' => 0x0b,
            b'\\' => b'\\',
            b'"' => b'"',
            b'\'' => b'\'',
            b'\n' => {
                if self.peek() == Some(b'\r') {
                    self.pos += 1;
                }
                b'\n'
            }
            b'\r' => {
                if self.peek() == Some(b'\n') {
                    self.pos += 1;
                }
                b'\n'
            }
            b'0'..=b'9' => {
                let mut value = u32::from(b - b'0');
                for _ in 0..2 {
                    match self.peek() {
                        Some(d @ b'0'..=b'9') => {
                            value = value * 10 + u32::from(d - b'0');
                            self.pos += 1;
                        }
                        _ => break,
                    }
                }
                u8::try_from(value).map_err(|_| self.err(DecodeErrorKind::BadEscape))?
            }
            _ => {
                self.pos -= 1;
                return Err(self.err(DecodeErrorKind::BadEscape));
            }
        })
    }

    /// A number token (after an optional consumed `-`).
    fn number(&mut self, negative: bool) -> Result<Value, DecodeError> {
        let start = self.pos;
        let hex = self.peek() == Some(b'0') && matches!(self.peek_at(1), Some(b'x') | Some(b'X'));
        if hex {
            self.pos += 2;
        }
        while let Some(b) = self.peek() {
            let exp_sign = !hex
                && (b == b'+' || b == b'-')
                && matches!(
                    self.src.get(self.pos.wrapping_sub(1)),
                    Some(b'e') | Some(b'E')
                );
            if b.is_ascii_alphanumeric() || b == b'.' || b == b'_' || exp_sign {
                self.pos += 1;
            } else {
                break;
            }
        }
        let token = self.slice(start, self.pos).unwrap_or("");
        let bad = || DecodeErrorKind::BadNumber(token.to_owned());
        if hex {
            let digits = &token[2..];
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
                return Err(self.err(bad()));
            }
            let v = i64::from_str_radix(digits, 16).map_err(|_| self.err(bad()))?;
            return Ok(Value::Int(if negative { -v } else { v }));
        }
        let well_formed = token
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'))
            && token.bytes().any(|b| b.is_ascii_digit())
            && !token.starts_with(['e', 'E']);
        if !well_formed {
            return Err(self.err(bad()));
        }
        let integral = token.bytes().all(|b| b.is_ascii_digit());
        if integral {
            // Accumulate negatively so i64::MIN parses; overflow falls through to a float.
            let mut acc: i64 = 0;
            let mut fits = true;
            for b in token.bytes() {
                match acc
                    .checked_mul(10)
                    .and_then(|a| a.checked_sub(i64::from(b - b'0')))
                {
                    Some(a) => acc = a,
                    None => {
                        fits = false;
                        break;
                    }
                }
            }
            if fits {
                if negative {
                    return Ok(Value::Int(acc));
                }
                if let Some(i) = acc.checked_neg() {
                    return Ok(Value::Int(i));
                }
            }
        }
        let f: f64 = token.parse().map_err(|_| self.err(bad()))?;
        if !f.is_finite() {
            return Err(self.err(DecodeErrorKind::NonFiniteNumber));
        }
        Ok(Value::Float(if negative { -f } else { f }))
    }
}
