//! The runtime's error feed: link and listener failures, load warnings, mod log lines.
//! Deterministic (append order), drained by the front end.

use std::cell::RefCell;
use std::collections::BTreeMap;

/// `log.max_bytes_per_tick`: bytes of log lines one mod may add to the feed between two drains
/// (the front ends drain once per tick or command). Past it the mod's lines are dropped: one
/// line says so when it happens, and the drain that ends the tick adds one line with the count.
pub const MAX_LOG_BYTES_PER_TICK: usize = 64 * 1024;

/// `errors.max_message_bytes`: bytes of an error message or thrown value a failure line shows
/// (a mod may throw a 64 KiB string or a map of 2 000 of them; the line shows the start, cut
/// on a char boundary and marked, and the value is never rendered past it).
pub const MAX_ERROR_MESSAGE_BYTES: usize = 1_000;

/// The marker a cut message ends with.
pub const CUT_MARK: &str = "… (cut at errors.max_message_bytes)";

/// `text` cut to at most `max` bytes on a char boundary, `mark` appended when cut (every
/// bounded line the hosts print: log lines, error messages).
pub fn cut_at(text: &str, max: usize, mark: &str) -> String {
    if text.len() <= max {
        return text.to_owned();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}{mark}", &text[..end])
}

/// `text` cut to [`MAX_ERROR_MESSAGE_BYTES`] on a char boundary (marked when cut).
pub fn cut_message(text: &str) -> String {
    cut_at(text, MAX_ERROR_MESSAGE_BYTES, CUT_MARK)
}

/// `value` rendered with `Display`, stopped once past [`MAX_ERROR_MESSAGE_BYTES`] (the
/// formatter is abandoned there: a huge value is never rendered whole).
pub fn display_cut(value: &dyn std::fmt::Display) -> String {
    struct Capped(String);
    impl std::fmt::Write for Capped {
        fn write_str(&mut self, s: &str) -> std::fmt::Result {
            self.0.push_str(s);
            if self.0.len() > MAX_ERROR_MESSAGE_BYTES {
                Err(std::fmt::Error)
            } else {
                Ok(())
            }
        }
    }
    let mut out = Capped(String::new());
    let _ = std::fmt::write(&mut out, format_args!("{value}"));
    cut_message(&out.0)
}

/// Severity of a diagnostic line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    Info,
    Warn,
    Error,
}

impl Level {
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Info => "info",
            Level::Warn => "warn",
            Level::Error => "error",
        }
    }
}

/// One line of the feed. `owner` is the mod id (or `None` for the engine).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub level: Level,
    pub owner: Option<String>,
    pub message: String,
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// A shareable handle on the runtime's diagnostics feed (mod `log` services write here).
#[derive(Clone, Default)]
pub struct LogFeed(pub(crate) std::rc::Rc<Diagnostics>);

impl LogFeed {
    /// Append a line.
    pub fn push(&self, level: Level, owner: Option<&str>, message: String) {
        self.0.push(level, owner, message);
    }

    /// Append a line of `owner`'s own log, under [`MAX_LOG_BYTES_PER_TICK`].
    pub fn push_mod_line(&self, level: Level, owner: &str, message: String) {
        self.0.push_mod_line(level, owner, message);
    }
}

/// One mod's log volume since the last drain.
#[derive(Default)]
struct Volume {
    bytes: usize,
    dropped: usize,
    dropped_bytes: usize,
}

#[derive(Default)]
pub(crate) struct Diagnostics {
    lines: RefCell<Vec<Diagnostic>>,
    volume: RefCell<BTreeMap<String, Volume>>,
}

impl Diagnostics {
    pub(crate) fn push(&self, level: Level, owner: Option<&str>, message: String) {
        self.lines.borrow_mut().push(Diagnostic {
            level,
            owner: owner.map(str::to_owned),
            message,
        });
    }

    pub(crate) fn push_mod_line(&self, level: Level, owner: &str, message: String) {
        let mut volume = self.volume.borrow_mut();
        if !volume.contains_key(owner) {
            volume.insert(owner.to_owned(), Volume::default());
        }
        let Some(v) = volume.get_mut(owner) else {
            return;
        };
        if v.dropped == 0 && v.bytes.saturating_add(message.len()) <= MAX_LOG_BYTES_PER_TICK {
            v.bytes += message.len();
            drop(volume);
            self.push(level, Some(owner), message);
            return;
        }
        let first = v.dropped == 0;
        v.dropped += 1;
        v.dropped_bytes = v.dropped_bytes.saturating_add(message.len());
        drop(volume);
        if first {
            self.push(
                Level::Warn,
                Some(owner),
                format!(
                    "[{owner}] log.max_bytes_per_tick: more than {MAX_LOG_BYTES_PER_TICK} bytes \
                     logged in this tick; the mod's further lines are dropped until the next"
                ),
            );
        }
    }

    pub(crate) fn snapshot(&self) -> Vec<Diagnostic> {
        self.lines.borrow().clone()
    }

    pub(crate) fn drain(&self) -> Vec<Diagnostic> {
        let volume = std::mem::take(&mut *self.volume.borrow_mut());
        for (owner, v) in volume.into_iter().filter(|(_, v)| v.dropped > 0) {
            self.push(
                Level::Warn,
                Some(&owner),
                format!(
                    "[{owner}] log.max_bytes_per_tick: {} lines ({} bytes) dropped in this tick",
                    v.dropped, v.dropped_bytes
                ),
            );
        }
        std::mem::take(&mut *self.lines.borrow_mut())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thrown_values_are_cut_and_never_rendered_whole() {
        struct Huge;
        impl std::fmt::Display for Huge {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                for _ in 0..1_000_000_000u64 {
                    f.write_str("é")?;
                }
                Ok(())
            }
        }
        let shown = display_cut(&Huge);
        assert!(shown.ends_with(CUT_MARK), "{shown}");
        assert!(shown.len() <= MAX_ERROR_MESSAGE_BYTES + CUT_MARK.len());
        assert_eq!(cut_message("short"), "short");
    }

    #[test]
    fn a_mod_s_log_volume_is_capped_per_drain_and_the_drop_counted_once() {
        let d = Diagnostics::default();
        let line = "x".repeat(1000);
        for _ in 0..100 {
            d.push_mod_line(Level::Info, "loud", line.clone());
            d.push_mod_line(Level::Info, "quiet", "hi".into());
        }
        let lines = d.drain();
        let loud: Vec<&Diagnostic> = lines
            .iter()
            .filter(|l| l.owner.as_deref() == Some("loud"))
            .collect();
        // 65 whole lines fit in 64 KiB, then one notice and one count line.
        assert_eq!(loud.len(), 65 + 2, "{}", loud.len());
        assert!(loud[65]
            .message
            .contains("log.max_bytes_per_tick: more than 65536 bytes"));
        assert_eq!(
            loud[66].message,
            "[loud] log.max_bytes_per_tick: 35 lines (35000 bytes) dropped in this tick"
        );
        assert_eq!(
            lines
                .iter()
                .filter(|l| l.owner.as_deref() == Some("quiet"))
                .count(),
            100
        );
        // The next tick starts afresh.
        d.push_mod_line(Level::Info, "loud", line.clone());
        assert_eq!(d.drain().len(), 1);
    }
}
