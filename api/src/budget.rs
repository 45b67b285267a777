//! The per-dispatch operation budget every script host charges (Rhai links and Lua links alike).
//!
//! One engine dispatch (a hook call or an event emit) may run links and listeners of several
//! mods in several VMs: a Lua link's `next` runs a Rhai link, which emits an event a Lua listener
//! hears, and so on. The budget is **one counter per dispatch** across all of them, kept on the
//! [`Runtime`](crate::Runtime) so every host of that runtime shares it:
//!
//! * a host *enters a frame* ([`DispatchBudget::enter`]) around every call into script code; the
//!   outermost frame (depth 0 → 1) starts a new dispatch, resetting the counter and setting its
//!   limit; nested frames (another mod's link under `next`, a listener of an event a link emits)
//!   keep charging the same counter under the outermost limit;
//! * hosts charge what their VM reports: Rhai reports a cumulative operation count per call
//!   ([`DispatchBudget::progress`], which charges the delta since the frame's last report), Lua
//!   a fixed instruction count per count-hook firing ([`DispatchBudget::charge`]);
//! * past the limit the budget is *exhausted* until the next outermost frame starts: every
//!   enclosing script call stops at its next check, and under the chain rules each such link
//!   counts as failed (skipped before `next`, downstream kept after `next`).
//!
//! Units: one Rhai operation and one Lua VM instruction are both charged as one unit. They are
//! not the same amount of work (a Rhai operation is a coarser AST step), but both are bounded,
//! deterministic counts, and one limit keeps a chain of mixed links finite.

use std::cell::Cell;

/// Units one dispatch may spend across every script link and listener it reaches.
pub const DISPATCH_LIMIT: u64 = 500_000;

/// Units one mod entry (load) may spend.
pub const LOAD_LIMIT: u64 = 2_000_000;

/// Units one dispatch may spend when it starts at a **safe point** — the engine lends the game
/// (`game.ready`, `input.step`, `core.update`, a `pallet run` signal; see
/// [`DispatchBudget::with_floor`]). That is where mods do their heavy, user-visible work
/// (a save state serialises the whole game, a checkpoint is restored); hooks dispatched
/// mid-tick (the battle loop, collisions, encounters) keep [`DISPATCH_LIMIT`].
pub const SAFE_POINT_LIMIT: u64 = 2_000_000;

/// Script call frames (links and listeners, Rhai and Lua) one dispatch may nest. Every frame is
/// a call into a VM on the Rust stack, and the operation budget does not bound the depth (a
/// listener that re-emits its own event spends a few operations per level), so a host refuses a
/// call at this depth: the link or listener fails under the usual rules.
pub const MAX_NESTING: u32 = 48;

/// The message a budget stop carries (hosts surface it as the link's error).
pub const BUDGET_EXHAUSTED: &str = "pallet: operation budget exhausted";

/// The shared counter. Single-threaded, like the runtime that owns it.
#[derive(Debug, Default)]
pub struct DispatchBudget {
    used: Cell<u64>,
    limit: Cell<u64>,
    depth: Cell<u32>,
    /// Operations the current frame had reported at its last [`progress`](Self::progress).
    frame_seen: Cell<u64>,
    exhausted: Cell<bool>,
    /// The least limit a dispatch starting now gets ([`Self::with_floor`]; 0: none).
    floor: Cell<u64>,
}

/// Restores the previous floor on drop (also on unwind).
struct FloorGuard<'a> {
    budget: &'a DispatchBudget,
    saved: u64,
}

impl Drop for FloorGuard<'_> {
    fn drop(&mut self) {
        self.budget.floor.set(self.saved);
    }
}

/// One script call frame; restores the enclosing frame on drop (also on unwind).
pub struct BudgetFrame<'a> {
    budget: &'a DispatchBudget,
    saved_seen: u64,
}

impl Drop for BudgetFrame<'_> {
    fn drop(&mut self) {
        self.budget.frame_seen.set(self.saved_seen);
        self.budget
            .depth
            .set(self.budget.depth.get().saturating_sub(1));
    }
}

impl DispatchBudget {
    pub fn new() -> Self {
        Self::default()
    }

    /// Enter a script call. At depth 0 this starts a new dispatch with `limit` units; nested
    /// frames keep the outermost limit.
    pub fn enter(&self, limit: u64) -> BudgetFrame<'_> {
        if self.depth.get() == 0 {
            self.used.set(0);
            self.limit.set(limit.max(self.floor.get()));
            self.exhausted.set(false);
        }
        self.depth.set(self.depth.get().saturating_add(1));
        let saved_seen = self.frame_seen.replace(0);
        BudgetFrame {
            budget: self,
            saved_seen,
        }
    }

    /// Run `f` with every dispatch that *starts* inside it (an outermost frame) allowed at least
    /// `floor` units: the engine's safe points ([`SAFE_POINT_LIMIT`]). Frames nested in a
    /// dispatch that started outside keep that dispatch's limit.
    pub fn with_floor<R>(&self, floor: u64, f: impl FnOnce() -> R) -> R {
        let saved = self.floor.replace(floor);
        let _restore = FloorGuard {
            budget: self,
            saved,
        };
        f()
    }

    /// Charge a cumulative count of the current frame (Rhai's `on_progress`): only the delta
    /// since this frame's last report is added. Returns `true` when the budget is exhausted.
    pub fn progress(&self, cumulative: u64) -> bool {
        let delta = cumulative.saturating_sub(self.frame_seen.get());
        self.frame_seen.set(cumulative);
        self.charge(delta)
    }

    /// Charge `units` (Lua's count hook). Returns `true` when the budget is exhausted.
    pub fn charge(&self, units: u64) -> bool {
        let used = self.used.get().saturating_add(units);
        self.used.set(used);
        if used > self.limit.get() {
            self.exhausted.set(true);
        }
        self.exhausted.get()
    }

    /// Units charged to the current (or last) dispatch.
    pub fn used(&self) -> u64 {
        self.used.get()
    }

    /// The limit of the current (or last) dispatch.
    pub fn limit(&self) -> u64 {
        self.limit.get()
    }

    /// Did the current (or last) dispatch run out?
    pub fn exhausted(&self) -> bool {
        self.exhausted.get()
    }

    /// Current script call depth (0: no script code is running).
    pub fn depth(&self) -> u32 {
        self.depth.get()
    }

    /// `Err(message)` when one more script call would nest [`MAX_NESTING`] frames deep: every
    /// host refuses such a call with this message (the link or listener fails as usual).
    pub fn check_nesting(&self) -> Result<(), String> {
        if self.depth.get() >= MAX_NESTING {
            return Err(format!(
                "script calls nested deeper than {MAX_NESTING} levels (a listener re-emitting its own event?)"
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_floor_raises_only_dispatches_that_start_inside_it() {
        let b = DispatchBudget::new();
        b.with_floor(SAFE_POINT_LIMIT, || {
            let _f = b.enter(DISPATCH_LIMIT);
            assert_eq!(b.limit(), SAFE_POINT_LIMIT);
            assert!(
                !b.charge(DISPATCH_LIMIT + 1),
                "a safe-point dispatch may spend more"
            );
            assert!(b.charge(SAFE_POINT_LIMIT), "but not without end");
        });
        let outer = b.enter(DISPATCH_LIMIT);
        b.with_floor(SAFE_POINT_LIMIT, || {
            let _inner = b.enter(DISPATCH_LIMIT);
            assert_eq!(
                b.limit(),
                DISPATCH_LIMIT,
                "nested: the outer dispatch's limit"
            );
        });
        drop(outer);
        let _f = b.enter(DISPATCH_LIMIT);
        assert_eq!(b.limit(), DISPATCH_LIMIT, "the floor ends with its scope");
    }

    #[test]
    fn nested_frames_share_one_counter_across_report_styles() {
        let b = DispatchBudget::new();
        {
            let _outer = b.enter(100);
            assert!(!b.progress(30)); // cumulative style: 30
            {
                let _inner = b.enter(1_000_000); // nested: the outermost limit holds
                assert!(!b.charge(50)); // fixed-delta style: 80
                assert!(b.charge(21)); // 101
            }
            assert!(b.exhausted());
            // Back in the outer frame: its cumulative count continues from 30.
            assert!(b.progress(31));
            assert_eq!(b.used(), 102);
        }
        assert_eq!(b.depth(), 0);
        let _next = b.enter(100);
        assert_eq!(b.used(), 0);
        assert!(!b.exhausted());
    }
}
