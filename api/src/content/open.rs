//! The translation registries `strings` and `text` ("open" registries).
//!
//! * `strings` — record id = an English source string exactly as the Lua engine spells it
//!   (`"%s used\n%s!"`, `"Enemy %s"`), value = the string shown instead (same `%s`/`%d`
//!   placeholders, in order). Base records: every source string Pallet shows, mapped to itself.
//! * `text` — record id = a text constant (`_PalletTownSignText`), value = its text. Base
//!   records: the active version's map texts.
//!
//! Both are open: an id may be any non-empty string up to [`MAX_OPEN_ID`] bytes without control
//! characters other than the text codes `\n`, `\x0b`, `\x0c` (source strings contain spaces,
//! punctuation and line breaks), and `override` of an id the registry lacks registers it — a
//! translation catalog covers texts Pallet may not show (yet), and those entries are kept and
//! readable without failing the mod. Values must be non-empty strings.

use super::schema::Shape;

/// A `strings` record: the shown string.
pub const STRINGS: Shape = Shape::Str;
/// A `text` record: the text.
pub const TEXT: Shape = Shape::Str;

/// Registries whose ids are free text and whose `override` registers a missing id.
pub const OPEN_REGISTRIES: &[&str] = &["strings", "text"];

/// The longest id an open registry accepts, in bytes.
pub const MAX_OPEN_ID: usize = 1024;

/// Is `registry` (a canonical registry name) open?
pub fn is_open(registry: &str) -> bool {
    OPEN_REGISTRIES.contains(&registry)
}

/// An id an open registry accepts.
pub fn valid_open_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_OPEN_ID
        && id
            .chars()
            .all(|c| !c.is_control() || matches!(c, '\n' | '\x0b' | '\x0c'))
}
