//! `rhai.max_held_bytes`: a per-mod quota on what the host holds for a Rhai mod between calls.
//!
//! **What the host holds.** A Rhai mod keeps state across dispatches only through the closures
//! it registered — its hook links and event listeners, which the runtime's buses own, and its
//! map-script handlers (`onEnter`/`talk` function pointers): each
//! closure's captured variables (shared cells, which the closure may grow on every call) and
//! curried values, and everything reachable from them (arrays, maps, strings, blobs, nested
//! function pointers and their own captures). Rhai's size limits bound one array, map or string,
//! but not what a function pointer's captures reach, so a captured array of closures each
//! holding a 64 KiB string grows past every size limit. (The `save` bucket has its own quota,
//! `save.max_bucket_bytes`; the mod's script and module constants are fixed at load.)
//!
//! **The measure.** A closure's held size is the bytes of every string and blob reachable from
//! its captures plus [`VALUE_BYTES`] per value (each `Dynamic`, map key, array slot), each
//! shared cell counted once per closure. The mod's total is the sum over its live closures
//! (a cell two closures share counts for both: conservative). It is measured when a closure is
//! registered and again after each of its calls (a closure capturing nothing costs one check);
//! a closure whose measure would visit more than [`MAX_HELD_VALUES`] values counts as over.
//!
//! **Over the quota.** The registration or the call fails with an error naming the limit, the
//! closure that passed it has its captured variables emptied (what it grew is freed), and the
//! mod is **stopped**: every later call of its links and listeners is refused unrun with the
//! same error (links skipped under the chain rules), and further registrations are refused, so
//! what it holds stops growing. The game and the other mods go on.
//!
//! **What no measure sees: `rhai.max_retained_bytes`.** A closure stored in the variable it
//! captures (`let g; g = || g;`) is a reference cycle Rhai never frees, and nothing live reaches
//! it. So every script call of a mod (link, listener, handler, item effect) runs in an
//! allocation [`Window`](crate::alloc::Window), and the net bytes each call leaves behind (other
//! mods' calls nested in it excluded) are summed per mod; past [`MAX_RETAINED_BYTES`] the mod is
//! stopped as above. What it leaked stays allocated (nothing can free a lost cycle): the limit
//! bounds how much.

use std::cell::{Cell, RefCell};
use std::collections::HashSet;

use rhai::{Array, Blob, Dynamic, FnPtr, ImmutableString, Map};

/// `rhai.max_held_bytes`: bytes one mod's closures may hold between calls.
pub const MAX_HELD_BYTES: usize = 16 * 1024 * 1024;
/// Bytes one held value counts for besides its string or blob bytes.
pub const VALUE_BYTES: usize = 16;
/// Values one measure visits at most (past it the closure counts as over the quota).
pub const MAX_HELD_VALUES: usize = 200_000;

/// The error text (the limit's name first, as every quota error).
pub fn over_message(held: usize) -> String {
    format!(
        "rhai.max_held_bytes: the mod's closures hold {held} bytes or more in captured variables and curried values (at most {MAX_HELD_BYTES}); the mod is stopped"
    )
}

/// Nesting one measure follows at most (past it the closure counts as over the quota; Rhai's
/// own depth bounds keep honest values far shallower).
pub const MAX_HELD_DEPTH: usize = 512;

/// Bytes `f`'s captures and curried values hold (at least `MAX_HELD_BYTES + 1` when its walk
/// passes [`MAX_HELD_VALUES`] values or [`MAX_HELD_DEPTH`] levels).
pub fn held_bytes(f: &FnPtr) -> usize {
    if f.iter_curry().next().is_none() {
        return 0;
    }
    let mut walk = Walk {
        values: 0,
        bytes: 0,
        over: false,
        seen: Seen::default(),
    };
    for c in f.iter_curry() {
        walk.visit(c, 1);
        if walk.over {
            return walk.bytes.max(MAX_HELD_BYTES + 1);
        }
    }
    walk.bytes
}

/// Bytes `v` reaches by the same measure (its own value included; at least
/// `MAX_HELD_BYTES + 1` past the walk's bounds): what cloning it may copy at most.
pub fn value_bytes(v: &Dynamic) -> usize {
    let mut walk = Walk {
        values: 0,
        bytes: 0,
        over: false,
        seen: Seen::default(),
    };
    walk.visit(v, 1);
    if walk.over {
        walk.bytes.max(MAX_HELD_BYTES + 1)
    } else {
        walk.bytes
    }
}

struct Walk {
    values: usize,
    bytes: usize,
    over: bool,
    /// Shared cells already counted (by the address of their contents).
    seen: Seen,
}

/// Addresses already seen: inline for the few cells an ordinary closure captures (no
/// allocation per measure), a hash set past [`Seen::INLINE`].
#[derive(Default)]
struct Seen {
    few: smallvec::SmallVec<[usize; Seen::INLINE]>,
    many: Option<HashSet<usize>>,
}

impl Seen {
    const INLINE: usize = 16;

    /// `true` when `at` was not seen before.
    fn insert(&mut self, at: usize) -> bool {
        if let Some(many) = self.many.as_mut() {
            return many.insert(at);
        }
        if self.few.contains(&at) {
            return false;
        }
        if self.few.len() < Self::INLINE {
            self.few.push(at);
        } else {
            let mut many: HashSet<usize> = self.few.drain(..).collect();
            many.insert(at);
            self.many = Some(many);
        }
        true
    }
}

impl Walk {
    /// Count `v` and what it contains (by reference: nothing is copied).
    fn visit(&mut self, v: &Dynamic, depth: usize) {
        self.values += 1;
        self.bytes += VALUE_BYTES;
        if self.over
            || depth > MAX_HELD_DEPTH
            || self.values > MAX_HELD_VALUES
            || self.bytes > MAX_HELD_BYTES
        {
            self.over = true;
            return;
        }
        if v.is_shared() {
            let Some(inner) = v.read_lock::<Dynamic>() else {
                return;
            };
            let at = &*inner as *const Dynamic as usize;
            if self.seen.insert(at) {
                self.visit(&inner, depth + 1);
            }
            return;
        }
        if let Some(s) = v.read_lock::<ImmutableString>() {
            self.bytes += s.len();
        } else if let Some(b) = v.read_lock::<Blob>() {
            self.bytes += b.len();
        } else if let Some(f) = v.read_lock::<FnPtr>() {
            self.bytes += f.fn_name().len();
            for c in f.iter_curry() {
                self.visit(c, depth + 1);
            }
        } else if let Some(a) = v.read_lock::<Array>() {
            for c in a.iter() {
                self.visit(c, depth + 1);
            }
        } else if let Some(m) = v.read_lock::<Map>() {
            for (k, c) in m.iter() {
                self.bytes += k.len() + VALUE_BYTES;
                self.visit(c, depth + 1);
            }
        }
    }
}

/// Empty the shared cells `f` captured (the variables it grew), so a closure stopped by the
/// quota gives back what it held; it never runs again, and no other mod can reach the cells.
pub fn clear_captures(f: &FnPtr) {
    for c in f.iter_curry() {
        if c.is_shared() {
            // A clone of a shared value is the same cell.
            let mut cell = c.clone();
            if let Some(mut inner) = cell.write_lock::<Dynamic>() {
                *inner = Dynamic::UNIT;
            };
        }
    }
}

/// `rhai.max_retained_bytes`: net bytes one mod's script calls may leave behind, summed over
/// the mod's life (see [`HeldTally::after_window`]).
pub const MAX_RETAINED_BYTES: usize = 128 * 1024 * 1024;

/// The error text of a retained-bytes stop (the limit's name first).
pub fn retained_message(retained: i64) -> String {
    format!(
        "rhai.max_retained_bytes: the mod's calls have left {retained} bytes or more allocated after they returned (at most {MAX_RETAINED_BYTES}; e.g. closures stored in the variables they capture, which are never freed); the mod is stopped"
    )
}

/// Why a mod was stopped.
#[derive(Clone, Copy, PartialEq)]
enum Stop {
    Running,
    Held,
    Retained,
}

/// One mod's held bytes (a slot per live closure, registered and not yet dropped) and its
/// retained bytes.
pub struct HeldTally {
    slots: RefCell<Vec<usize>>,
    free: RefCell<Vec<usize>>,
    total: Cell<usize>,
    stopped: Cell<Stop>,
    /// Net bytes the mod's calls left behind so far (never below 0).
    retained: Cell<i64>,
    /// The thread's net bytes when the mod's tally was made (its load began).
    base: i64,
}

impl Default for HeldTally {
    fn default() -> Self {
        HeldTally {
            slots: RefCell::default(),
            free: RefCell::default(),
            total: Cell::new(0),
            stopped: Cell::new(Stop::Running),
            retained: Cell::new(0),
            base: crate::alloc::net_bytes(),
        }
    }
}

impl HeldTally {
    /// `Err(message)` once the mod is stopped.
    #[inline]
    pub fn check(&self) -> Result<(), String> {
        if self.stopped.get() == Stop::Running {
            Ok(())
        } else {
            Err(self.stop_message())
        }
    }

    #[cold]
    fn stop_message(&self) -> String {
        match self.stopped.get() {
            Stop::Running | Stop::Held => over_message(self.total.get().max(MAX_HELD_BYTES + 1)),
            Stop::Retained => retained_message(self.retained.get()),
        }
    }

    /// After one of the mod's script calls: add the net bytes its [`crate::alloc::Window`]
    /// kept (`own`, negative when it freed more than it allocated). `Err` (the mod stopped)
    /// once the sum passes [`MAX_RETAINED_BYTES`].
    ///
    /// The sum is conservative in one way only: a value a call hands to the host (its result,
    /// a log line) counts until the host frees it outside any window. So before stopping a mod
    /// the sum is cut to what the thread has really grown by since the mod was loaded: a mod is
    /// stopped only when the process holds that much more than when it began.
    #[inline]
    pub fn after_window(&self, own: i64) -> Result<(), String> {
        let sum = self.retained.get().saturating_add(own).max(0);
        if sum <= MAX_RETAINED_BYTES as i64 {
            self.retained.set(sum);
            return self.check();
        }
        self.over_retained(sum)
    }

    /// [`after_window`](Self::after_window) past the limit: cut to the thread's growth, then
    /// judge.
    #[cold]
    fn over_retained(&self, mut sum: i64) -> Result<(), String> {
        {
            let grown = crate::alloc::net_bytes().saturating_sub(self.base).max(0);
            sum = sum.min(grown);
        }
        self.retained.set(sum);
        if sum > MAX_RETAINED_BYTES as i64 && self.stopped.get() == Stop::Running {
            self.stopped.set(Stop::Retained);
        }
        self.check()
    }

    /// Net bytes the mod's calls have left behind (as last summed).
    pub fn retained(&self) -> i64 {
        self.retained.get()
    }

    /// Register a closure: its slot, or `Err` (and the mod stopped) when it would pass the
    /// quota.
    pub fn register(&self, f: &FnPtr) -> Result<usize, String> {
        self.check()?;
        let held = held_bytes(f);
        let slot = match self.free.borrow_mut().pop() {
            Some(i) => i,
            None => {
                let mut slots = self.slots.borrow_mut();
                slots.push(0);
                slots.len() - 1
            }
        };
        self.set(slot, held)?;
        Ok(slot)
    }

    /// After a call of the closure in `slot`: re-measure it; `Err` (the mod stopped) when the
    /// mod's total passes the quota — and then the closure's captured variables are emptied
    /// ([`clear_captures`]) and its slot released.
    #[inline]
    pub fn after_call(&self, slot: usize, f: &FnPtr) -> Result<(), String> {
        if f.iter_curry().next().is_none() {
            return self.check();
        }
        self.remeasure(slot, f)
    }

    /// [`after_call`](Self::after_call) of a closure with captures.
    fn remeasure(&self, slot: usize, f: &FnPtr) -> Result<(), String> {
        let outcome = self.set(slot, held_bytes(f));
        if outcome.is_err() {
            clear_captures(f);
            self.set_slot(slot, 0);
        }
        outcome
    }

    /// Record `held` for `slot` without judging it.
    fn set_slot(&self, slot: usize, held: usize) {
        let mut slots = self.slots.borrow_mut();
        if let Some(cell) = slots.get_mut(slot) {
            self.total.set(self.total.get() - *cell + held);
            *cell = held;
        }
    }

    fn set(&self, slot: usize, held: usize) -> Result<(), String> {
        let mut slots = self.slots.borrow_mut();
        let Some(cell) = slots.get_mut(slot) else {
            return Ok(());
        };
        let total = self.total.get() - *cell + held;
        *cell = held;
        self.total.set(total);
        if total > MAX_HELD_BYTES && self.stopped.get() == Stop::Running {
            self.stopped.set(Stop::Held);
        }
        drop(slots);
        self.check()
    }

    /// The closure in `slot` was dropped (unsubscribed, or its mod removed).
    pub fn release(&self, slot: usize) {
        let mut slots = self.slots.borrow_mut();
        if let Some(cell) = slots.get_mut(slot) {
            self.total.set(self.total.get() - *cell);
            *cell = 0;
            self.free.borrow_mut().push(slot);
        }
    }

    /// Bytes the mod's live closures hold (as last measured).
    pub fn total(&self) -> usize {
        self.total.get()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn captures_are_measured_once_per_cell_and_by_their_bytes() {
        let engine = rhai::Engine::new();
        let f: FnPtr = engine
            .eval(r#"let s = "abcd"; let a = [s, s, 1]; |x| { a.push(x); s.len() }"#)
            .unwrap();
        let held = held_bytes(&f);
        // Two shared cells (`a`, `s`), the array's three slots, three copies of `s` counted.
        assert!(
            (4 * 3 + 6 * VALUE_BYTES..=4 * 3 + 12 * VALUE_BYTES).contains(&held),
            "{held}"
        );
        let plain: FnPtr = engine.eval("|x| x + 1").unwrap();
        assert_eq!(held_bytes(&plain), 0);
    }

    #[test]
    fn many_shared_cells_are_each_counted_once() {
        let mut seen = Seen::default();
        for round in 0..2 {
            for at in 0..100usize {
                assert_eq!(seen.insert(at * 8), round == 0, "{at}");
            }
        }
    }

    #[test]
    fn the_tally_stops_the_mod_past_the_quota_and_releases_slots() {
        let engine = rhai::Engine::new();
        let small: FnPtr = engine.eval(r#"let s = "x"; || s"#).unwrap();
        let t = HeldTally::default();
        let a = t.register(&small).unwrap();
        let b = t.register(&small).unwrap();
        assert_eq!(t.total(), 2 * held_bytes(&small));
        t.release(a);
        assert_eq!(t.total(), held_bytes(&small));
        assert_eq!(t.register(&small).unwrap(), a, "a released slot is reused");
        t.set(b, MAX_HELD_BYTES).unwrap_err();
        // A closure over the quota gives its captures back.
        let grown: FnPtr = engine
            .eval(r#"let a = []; for i in 0..10 { a.push("y" + i) } |x| a.len()"#)
            .unwrap();
        assert!(held_bytes(&grown) > 0);
        clear_captures(&grown);
        assert_eq!(held_bytes(&grown), 2 * VALUE_BYTES, "one emptied cell");
        let err = t.check().unwrap_err();
        assert!(err.starts_with("rhai.max_held_bytes:"), "{err}");
        assert!(
            t.register(&small).is_err(),
            "a stopped mod registers nothing"
        );
    }

    #[test]
    fn retained_bytes_stop_a_mod_only_when_the_thread_really_grew() {
        const MIB: i64 = 1 << 20;
        let max = MAX_RETAINED_BYTES as i64;
        // Calls that hand values to the host (counted, freed outside any window) sum past the
        // limit while the thread has not grown: cut to the growth, not stopped.
        let t = HeldTally::default();
        for _ in 0..3 {
            t.after_window(max / 2).unwrap();
        }
        assert!(t.retained() < 16 * MIB, "{}", t.retained());
        // Frees never take the sum below 0 (a later leak is not hidden by an earlier free).
        t.after_window(-10 * max).unwrap();
        assert_eq!(t.retained(), 0);
        // Real growth past the limit stops the mod, with the limit's name.
        let kept = vec![1u8; MAX_RETAINED_BYTES + (1 << 20)];
        let err = t.after_window(kept.len() as i64).unwrap_err();
        assert!(err.starts_with("rhai.max_retained_bytes: "), "{err}");
        assert_eq!(t.check().unwrap_err(), err, "stopped for good");
        drop(kept);
    }
}
