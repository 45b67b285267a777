//! The runtime's error feed: link and listener failures, load warnings, mod log lines.
//! Deterministic (append order), drained by the front end.

use std::cell::RefCell;

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
}

#[derive(Default)]
pub(crate) struct Diagnostics {
    lines: RefCell<Vec<Diagnostic>>,
}

impl Diagnostics {
    pub(crate) fn push(&self, level: Level, owner: Option<&str>, message: String) {
        self.lines.borrow_mut().push(Diagnostic {
            level,
            owner: owner.map(str::to_owned),
            message,
        });
    }

    pub(crate) fn snapshot(&self) -> Vec<Diagnostic> {
        self.lines.borrow().clone()
    }

    pub(crate) fn drain(&self) -> Vec<Diagnostic> {
        std::mem::take(&mut *self.lines.borrow_mut())
    }
}
