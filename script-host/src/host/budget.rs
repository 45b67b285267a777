//! The per-dispatch operation budget shared by every mod engine.
//!
//! Rhai counts operations per call and restarts the count for every `call_fn`/`FnPtr::call`,
//! so a chain of links in different engines (a link's `next` runs another mod's closure) would
//! each get a fresh allowance. The host counts itself instead: every engine's `on_progress`
//! callback adds the delta since the last report of the *current call frame* to one shared
//! counter, which is reset only when the outermost Rhai call of a dispatch starts (call depth
//! 0 → 1). Nested calls (another mod's link under `next`, a listener of an event a link emits,
//! a second link of the same mod) push a frame and keep charging the same counter.
//!
//! When the counter passes the limit, the running call — and every enclosing Rhai call as soon
//! as it executes its next operation — terminates with [`BUDGET_TOKEN`]. Under the chain rules
//! each such link counts as failed (skipped before `next`, downstream kept after `next`).
//!
//! Links that run one after another at depth 0 (the bus continuing after a link that failed
//! before `next`) each start a fresh budget: they are separate outermost Rhai calls.

use std::cell::Cell;

use rhai::Dynamic;

/// The termination token a budget stop carries.
pub const BUDGET_TOKEN: &str = "pallet: operation budget exhausted";

#[derive(Debug, Default)]
pub struct Budget {
    used: Cell<u64>,
    limit: Cell<u64>,
    depth: Cell<u32>,
    /// Operations the current call frame had reported at its last progress callback.
    frame_seen: Cell<u64>,
    /// Set when the budget ran out during the current outermost dispatch.
    exhausted: Cell<bool>,
}

/// One Rhai call frame; restores the enclosing frame on drop (also on unwind).
pub struct Frame<'a> {
    budget: &'a Budget,
    saved_seen: u64,
}

impl Drop for Frame<'_> {
    fn drop(&mut self) {
        self.budget.frame_seen.set(self.saved_seen);
        self.budget
            .depth
            .set(self.budget.depth.get().saturating_sub(1));
    }
}

impl Budget {
    pub fn new() -> Self {
        Self::default()
    }

    /// Enter a Rhai call. At depth 0 this starts a new dispatch with `limit` operations.
    pub fn enter(&self, limit: u64) -> Frame<'_> {
        if self.depth.get() == 0 {
            self.used.set(0);
            self.limit.set(limit);
            self.exhausted.set(false);
        }
        self.depth.set(self.depth.get().saturating_add(1));
        let saved_seen = self.frame_seen.replace(0);
        Frame {
            budget: self,
            saved_seen,
        }
    }

    /// The `on_progress` callback body: charge the delta, stop when over budget.
    pub fn progress(&self, ops: u64) -> Option<Dynamic> {
        let delta = ops.saturating_sub(self.frame_seen.get());
        self.frame_seen.set(ops);
        let used = self.used.get().saturating_add(delta);
        self.used.set(used);
        if used > self.limit.get() {
            self.exhausted.set(true);
            Some(Dynamic::from(BUDGET_TOKEN))
        } else {
            None
        }
    }

    /// Operations charged to the current (or last) dispatch.
    pub fn used(&self) -> u64 {
        self.used.get()
    }

    pub fn limit(&self) -> u64 {
        self.limit.get()
    }

    /// Did the current (or last) dispatch run out?
    pub fn exhausted(&self) -> bool {
        self.exhausted.get()
    }

    /// Current Rhai call depth.
    pub fn depth(&self) -> u32 {
        self.depth.get()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_frames_share_one_counter() {
        let b = Budget::new();
        {
            let _outer = b.enter(100);
            assert!(b.progress(30).is_none());
            {
                let _inner = b.enter(1_000_000); // nested: the limit of the outermost holds
                assert!(b.progress(50).is_none()); // 80 used
                assert!(b.progress(71).is_some()); // 101 used
            }
            assert!(b.exhausted());
            // Back in the outer frame: its own count continues from 30.
            assert!(b.progress(31).is_some());
            assert_eq!(b.used(), 102);
        }
        let _next = b.enter(100);
        assert_eq!(b.used(), 0);
        assert!(!b.exhausted());
    }
}
