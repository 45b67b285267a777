//! Listener failures logged once per dispatch, with a count (issue 21).
//!
//! A listener that re-emits its own event twice grows a binary tree of nested emits; every
//! leaf is refused at the nesting limit, and logging each refusal wrote hundreds of megabytes.
//! The event bus routes listener failures through a [`FailureTally`]: during one outermost
//! emit (nested emits included) a failure line is logged the first time it occurs and counted
//! after that; when the outermost emit ends, every repeated line is logged once more with its
//! count ("… (repeated N more times in this dispatch)"). At most [`MAX_FAILURE_LINES`] distinct
//! lines are logged per dispatch (`events.max_failure_lines`); the rest are counted in one
//! closing line.

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;

use crate::diagnostics::{Diagnostics, Level};

/// `events.max_failure_lines`: distinct listener-failure lines one dispatch logs.
pub const MAX_FAILURE_LINES: usize = 64;

#[derive(Default)]
pub(crate) struct FailureTally {
    depth: Cell<u32>,
    /// line → (owner, repeats after the first), for the current outermost emit.
    seen: RefCell<BTreeMap<String, (String, u64)>>,
    dropped: Cell<u64>,
}

/// One emit in progress; the outermost one flushes the counts when it ends (also on unwind).
pub(crate) struct TallyFrame<'a> {
    tally: &'a FailureTally,
    diagnostics: &'a Diagnostics,
}

impl FailureTally {
    pub(crate) fn enter<'a>(&'a self, diagnostics: &'a Diagnostics) -> TallyFrame<'a> {
        self.depth.set(self.depth.get() + 1);
        TallyFrame {
            tally: self,
            diagnostics,
        }
    }

    /// Log `line` (owned by `owner`) the first time this dispatch, count it after that.
    pub(crate) fn failed(&self, diagnostics: &Diagnostics, owner: &str, line: String) {
        let mut seen = self.seen.borrow_mut();
        if let Some((_, n)) = seen.get_mut(&line) {
            *n += 1;
            return;
        }
        if seen.len() >= MAX_FAILURE_LINES {
            self.dropped.set(self.dropped.get() + 1);
            return;
        }
        seen.insert(line.clone(), (owner.to_owned(), 0));
        drop(seen);
        diagnostics.push(Level::Error, Some(owner), line);
    }

    fn flush(&self, diagnostics: &Diagnostics) {
        let seen = std::mem::take(&mut *self.seen.borrow_mut());
        for (line, (owner, n)) in seen {
            if n > 0 {
                diagnostics.push(
                    Level::Error,
                    Some(&owner),
                    format!("{line} (repeated {n} more times in this dispatch)"),
                );
            }
        }
        let dropped = self.dropped.replace(0);
        if dropped > 0 {
            diagnostics.push(
                Level::Error,
                None,
                format!(
                    "events.max_failure_lines: {dropped} more listener failures in this dispatch \
                     not shown (at most {MAX_FAILURE_LINES} distinct lines per dispatch)"
                ),
            );
        }
    }
}

impl Drop for TallyFrame<'_> {
    fn drop(&mut self) {
        let depth = self.tally.depth.get().saturating_sub(1);
        self.tally.depth.set(depth);
        if depth == 0 {
            self.tally.flush(self.diagnostics);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeats_are_logged_once_with_their_count() {
        let d = Diagnostics::default();
        let t = FailureTally::default();
        {
            let _outer = t.enter(&d);
            for _ in 0..3 {
                let _inner = t.enter(&d);
                t.failed(&d, "m", "[m] event e: too deep".to_owned());
            }
            t.failed(&d, "m", "[m] event e: other".to_owned());
            assert_eq!(d.snapshot().len(), 2);
        }
        let lines: Vec<String> = d.drain().into_iter().map(|l| l.message).collect();
        assert_eq!(
            lines,
            [
                "[m] event e: too deep",
                "[m] event e: other",
                "[m] event e: too deep (repeated 2 more times in this dispatch)",
            ]
        );
        // The next dispatch starts afresh.
        let _next = t.enter(&d);
        t.failed(&d, "m", "[m] event e: too deep".to_owned());
        assert_eq!(d.snapshot().len(), 1);
    }

    #[test]
    fn distinct_lines_are_capped() {
        let d = Diagnostics::default();
        let t = FailureTally::default();
        {
            let _outer = t.enter(&d);
            for i in 0..1000 {
                t.failed(&d, "m", format!("[m] event e: error {i}"));
            }
        }
        let lines = d.drain();
        assert_eq!(lines.len(), MAX_FAILURE_LINES + 1);
        assert!(lines[MAX_FAILURE_LINES]
            .message
            .starts_with("events.max_failure_lines: 936 more listener failures"));
    }
}
