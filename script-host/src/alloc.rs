//! The process's global allocator, owned by this crate: the system allocator plus two
//! per-thread counters, for `rhai.max_dispatch_bytes` and the allocation gates.
//!
//! **Why here.** Rhai's size limits bound one array, map or string, but not what a function
//! pointer's curried values or a closure's captured variables reach, so a single dispatch can
//! nest fn pointers in arrays in fn pointers and build a gigabyte within its operation budget.
//! Measuring values from inside Rhai misses temporaries (a `map` result under construction, an
//! argument list), and mutable captures grow after any check at creation. Counting what the
//! thread actually allocates misses nothing. A library-owned allocator is linked into every
//! binary that links the host (the `pallet` CLI, tests, benches), so no embedder can forget it;
//! binaries that want allocation counts read [`allocations`] instead of installing their own.
//!
//! **The measure.** Net bytes this thread allocated (allocations and reallocation growth minus
//! frees) since the outermost Rhai frame of the current dispatch (or mod load) was entered
//! ([`Dispatch`]). The Rhai budget callback checks it on every operation
//! ([`over_dispatch_limit`]); past [`MAX_DISPATCH_BYTES`] the dispatch is stopped, like the
//! operation budget: the running call and every enclosing Rhai call of the dispatch terminate.
//!
//! **Cost.** Two thread-local additions per allocation (const-initialised cells, no
//! destructor: the allocator itself never allocates), one subtraction per free, one compare per
//! Rhai operation.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// `rhai.max_dispatch_bytes`: net bytes one dispatch's (or one mod load's) Rhai scripts may
/// allocate (everything the thread allocates while they run, host calls and nested links
/// included).
pub const MAX_DISPATCH_BYTES: usize = 64 << 20;

/// The termination token a memory stop carries (the limit's name).
pub const MEMORY_TOKEN: &str = "rhai.max_dispatch_bytes";

/// The error text of a memory stop (the limit's name first).
pub fn over_message() -> String {
    format!(
        "{MEMORY_TOKEN}: the dispatch's scripts allocated (or an operation would allocate) more than {MAX_DISPATCH_BYTES} bytes (values, closures' captures, curried values, host results); the call is stopped"
    )
}

thread_local! {
    /// Allocation calls (alloc, alloc_zeroed, realloc) made by this thread.
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
    /// Bytes allocated minus bytes freed by this thread (may go negative: a thread frees what
    /// another allocated).
    static NET: Cell<i64> = const { Cell::new(0) };
    /// Rhai frames of the current dispatch ([`Dispatch`]).
    static DEPTH: Cell<u32> = const { Cell::new(0) };
    /// `NET` when the outermost frame was entered.
    static BASE: Cell<i64> = const { Cell::new(0) };
    /// The current dispatch passed the limit (sticky until its outermost frame exits).
    static OVER: Cell<bool> = const { Cell::new(false) };
}

/// The system allocator, counting per thread.
pub struct Tracking;

fn count(grow: i64) {
    let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
    let _ = NET.try_with(|c| c.set(c.get().wrapping_add(grow)));
}

// SAFETY: every method forwards to `System` unchanged; the only addition is thread-local
// counter updates (const-initialised `Cell`s, no lazy allocation, no destructor).
unsafe impl GlobalAlloc for Tracking {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size() as i64);
        // SAFETY: forwarded with the caller's layout.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size() as i64);
        // SAFETY: forwarded with the caller's layout.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size as i64 - layout.size() as i64);
        // SAFETY: forwarded with the caller's pointer, layout and size.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        let _ = NET.try_with(|c| c.set(c.get().wrapping_sub(layout.size() as i64)));
        // SAFETY: forwarded with the caller's pointer and layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Tracking = Tracking;

/// Allocations made by this thread so far (the allocation gates' counter).
pub fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

/// Net bytes this thread has allocated so far.
pub fn net_bytes() -> i64 {
    NET.with(Cell::get)
}

/// One Rhai frame of a dispatch; the outermost starts the dispatch's count. Restores on drop
/// (also on unwind).
pub struct Dispatch(());

impl Dispatch {
    pub fn enter() -> Dispatch {
        DEPTH.with(|d| {
            if d.get() == 0 {
                BASE.with(|b| b.set(net_bytes()));
                OVER.with(|o| o.set(false));
            }
            d.set(d.get() + 1);
        });
        Dispatch(())
    }
}

impl Drop for Dispatch {
    fn drop(&mut self) {
        DEPTH.with(|d| d.set(d.get().saturating_sub(1)));
    }
}

/// Net bytes allocated since the current (or last) dispatch began.
pub fn dispatch_bytes() -> i64 {
    net_bytes() - BASE.with(Cell::get)
}

/// Stop the current dispatch as if it had passed the limit (an operation refused because of
/// what it would allocate).
pub fn stop_dispatch() {
    if DEPTH.with(Cell::get) > 0 {
        OVER.with(|o| o.set(true));
    }
}

/// `true` once the current dispatch has passed [`MAX_DISPATCH_BYTES`] (and for the rest of it).
pub fn over_dispatch_limit() -> bool {
    OVER.with(|o| {
        if !o.get() && DEPTH.with(Cell::get) > 0 && dispatch_bytes() > MAX_DISPATCH_BYTES as i64 {
            o.set(true);
        }
        o.get()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dispatch_counts_what_it_keeps_and_stops_sticky() {
        let outer = Dispatch::enter();
        let small = vec![0u8; 1024];
        assert!(dispatch_bytes() >= 1024);
        assert!(!over_dispatch_limit());
        let big = vec![0u8; MAX_DISPATCH_BYTES + 1];
        {
            let _inner = Dispatch::enter();
            assert!(over_dispatch_limit(), "nested frames share the count");
        }
        drop(big);
        assert!(over_dispatch_limit(), "sticky for the rest of the dispatch");
        drop(outer);
        drop(small);
        let _next = Dispatch::enter();
        assert!(!over_dispatch_limit(), "a new dispatch starts afresh");
        let before = allocations();
        let v = vec![0u8; 8];
        assert!(allocations() > before);
        drop(v);
    }
}
