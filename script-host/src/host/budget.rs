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
//! The counter is `pallet_api::budget::DispatchBudget`, owned by the `Runtime` and shared with
//! the Lua shim (one budget per dispatch across both languages); this module adapts it to Rhai.
//!
//! Links that run one after another at depth 0 (the bus continuing after a link that failed
//! before `next`) each start a fresh budget: they are separate outermost Rhai calls.

use std::rc::Rc;

use pallet_api::budget::{BudgetFrame, DispatchBudget};
use rhai::Dynamic;

/// The termination token a budget stop carries.
pub const BUDGET_TOKEN: &str = pallet_api::budget::BUDGET_EXHAUSTED;

/// The Rhai side of the shared budget: the counter itself lives in `pallet_api::budget` (on the
/// `Runtime`), so Lua links of the same runtime charge the same per-dispatch counter.
#[derive(Debug, Default)]
pub struct Budget(Rc<DispatchBudget>);

/// One Rhai call frame; restores the enclosing frame on drop (also on unwind). It is also a
/// frame of the dispatch's memory count (`rhai.max_dispatch_bytes`, [`crate::alloc`]).
pub struct Frame<'a> {
    _ops: BudgetFrame<'a>,
    _memory: crate::alloc::Dispatch,
}

impl Budget {
    /// A budget of its own (tests); hosts use [`Budget::shared`] with the runtime's counter.
    pub fn new() -> Self {
        Self::default()
    }

    /// A budget over a shared counter (`Runtime::dispatch_budget`).
    pub fn shared(counter: Rc<DispatchBudget>) -> Self {
        Budget(counter)
    }

    /// Another handle on the same counter (what each engine's `on_progress` callback holds:
    /// the counter owns nothing, so holding it strongly makes no cycle and saves the callback
    /// a weak-pointer upgrade per operation).
    pub fn handle(&self) -> Budget {
        Budget(self.0.clone())
    }

    /// The shared counter itself (for host calls charged by their work, `pallet_api::host_cost`).
    pub fn counter(&self) -> Rc<DispatchBudget> {
        self.0.clone()
    }

    /// Enter a Rhai call. At depth 0 this starts a new dispatch with `limit` operations.
    pub fn enter(&self, limit: u64) -> Frame<'_> {
        Frame {
            _ops: self.0.enter(limit),
            _memory: crate::alloc::Dispatch::enter(),
        }
    }

    /// The `on_progress` callback body: charge the delta, stop when over budget or past
    /// `rhai.max_dispatch_bytes` ([`crate::alloc`]).
    pub fn progress(&self, ops: u64) -> Option<Dynamic> {
        if self.0.progress(ops) {
            return Some(Dynamic::from(BUDGET_TOKEN));
        }
        crate::alloc::over_dispatch_limit().then(|| Dynamic::from(crate::alloc::MEMORY_TOKEN))
    }

    /// Operations charged to the current (or last) dispatch.
    pub fn used(&self) -> u64 {
        self.0.used()
    }

    pub fn limit(&self) -> u64 {
        self.0.limit()
    }

    /// Did the current (or last) dispatch run out?
    pub fn exhausted(&self) -> bool {
        self.0.exhausted()
    }

    /// `Err(message)` when one more call would nest too deep (Rhai and Lua frames alike; see
    /// [`DispatchBudget::check_nesting`]).
    pub fn check_nesting(&self) -> Result<(), String> {
        self.0.check_nesting()
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
