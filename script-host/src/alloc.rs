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
//! **Cost.** One thread-local block (const-initialised cells, no destructor: the allocator
//! itself never allocates): two additions per allocation, one subtraction per free, one compare
//! per Rhai operation (the dispatch's limit is precomputed when it starts).
//!
//! **Windows.** [`Window`] measures the net bytes one mod's script call leaves behind, nested
//! calls of other mods excluded: `rhai.max_retained_bytes` (`host::held`) sums them per mod to
//! bound what no measure of live values can see (a closure stored in the variable it captures
//! is a reference cycle Rhai never frees).

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

/// This thread's counters, in one const-initialised block (one thread-local access per
/// allocation; no destructor: the allocator itself never allocates).
struct Counters {
    /// Allocation calls (alloc, alloc_zeroed, realloc) made by this thread.
    allocations: Cell<u64>,
    /// Bytes allocated minus bytes freed by this thread (may go negative: a thread frees what
    /// another allocated).
    net: Cell<i64>,
    /// Rhai frames of the current dispatch ([`Dispatch`]).
    depth: Cell<u32>,
    /// The `net` past which the current dispatch is over: `net` at its start plus
    /// [`MAX_DISPATCH_BYTES`]; `i64::MAX` outside a dispatch, `i64::MIN` once it is over (sticky
    /// until its outermost frame exits). So the per-operation check is one compare.
    limit: Cell<i64>,
    /// `net` when the innermost open [`Window`] began.
    window_start: Cell<i64>,
    /// Net bytes of the windows nested in the innermost open one (not its own).
    window_nested: Cell<i64>,
}

thread_local! {
    static COUNTERS: Counters = const {
        Counters {
            allocations: Cell::new(0),
            net: Cell::new(0),
            depth: Cell::new(0),
            limit: Cell::new(i64::MAX),
            window_start: Cell::new(0),
            window_nested: Cell::new(0),
        }
    };
}

/// The system allocator, counting per thread.
pub struct Tracking;

fn count(grow: i64) {
    let _ = COUNTERS.try_with(|c| {
        c.allocations.set(c.allocations.get() + 1);
        c.net.set(c.net.get().wrapping_add(grow));
    });
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
        let _ = COUNTERS.try_with(|c| c.net.set(c.net.get().wrapping_sub(layout.size() as i64)));
        // SAFETY: forwarded with the caller's pointer and layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Tracking = Tracking;

/// Allocations made by this thread so far (the allocation gates' counter).
pub fn allocations() -> u64 {
    COUNTERS.with(|c| c.allocations.get())
}

/// Net bytes this thread has allocated so far.
pub fn net_bytes() -> i64 {
    COUNTERS.with(|c| c.net.get())
}

/// One Rhai frame of a dispatch; the outermost starts the dispatch's count. Restores on drop
/// (also on unwind).
pub struct Dispatch(());

impl Dispatch {
    pub fn enter() -> Dispatch {
        COUNTERS.with(|c| {
            if c.depth.get() == 0 {
                c.limit
                    .set(c.net.get().saturating_add(MAX_DISPATCH_BYTES as i64));
            }
            c.depth.set(c.depth.get() + 1);
        });
        Dispatch(())
    }
}

impl Drop for Dispatch {
    fn drop(&mut self) {
        COUNTERS.with(|c| {
            let depth = c.depth.get().saturating_sub(1);
            c.depth.set(depth);
            if depth == 0 {
                c.limit.set(i64::MAX);
            }
        });
    }
}

/// Stop the current dispatch as if it had passed the limit (an operation refused because of
/// what it would allocate).
pub fn stop_dispatch() {
    COUNTERS.with(|c| {
        if c.depth.get() > 0 {
            c.limit.set(i64::MIN);
        }
    });
}

/// `true` once the current dispatch has passed [`MAX_DISPATCH_BYTES`] (and for the rest of it).
pub fn over_dispatch_limit() -> bool {
    COUNTERS.with(|c| {
        if c.net.get() > c.limit.get() {
            c.limit.set(i64::MIN);
            true
        } else {
            false
        }
    })
}

/// A span of one mod's script call, for `rhai.max_retained_bytes` (`host::held`): the net
/// bytes the thread allocated while it was open, minus those of the windows nested in it
/// (another mod's link reached through `next` is that mod's). Restores the enclosing window on
/// drop (also on unwind).
pub struct Window {
    outer_start: i64,
    outer_nested: i64,
    open: bool,
}

impl Window {
    pub fn enter() -> Window {
        COUNTERS.with(|c| {
            let w = Window {
                outer_start: c.window_start.get(),
                outer_nested: c.window_nested.get(),
                open: true,
            };
            c.window_start.set(c.net.get());
            c.window_nested.set(0);
            w
        })
    }

    /// Close the window: the net bytes it kept (its own, nested windows' excluded).
    pub fn exit(mut self) -> i64 {
        self.close()
    }

    fn close(&mut self) -> i64 {
        self.open = false;
        COUNTERS.with(|c| {
            let span = c.net.get().wrapping_sub(c.window_start.get());
            let own = span.wrapping_sub(c.window_nested.get());
            c.window_start.set(self.outer_start);
            c.window_nested.set(self.outer_nested.wrapping_add(span));
            own
        })
    }
}

impl Drop for Window {
    fn drop(&mut self) {
        if self.open {
            self.close();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dispatch_counts_what_it_keeps_and_stops_sticky() {
        let outer = Dispatch::enter();
        let small = vec![0u8; 1024];
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

    #[test]
    fn a_window_keeps_its_own_bytes_not_its_nested_windows() {
        let outer = Window::enter();
        let kept = vec![0u8; 4096];
        let inner = Window::enter();
        let theirs = vec![0u8; 1 << 20];
        let inner_own = inner.exit();
        assert!(
            (1 << 20..(1 << 20) + 256).contains(&inner_own),
            "{inner_own}"
        );
        let freed = vec![0u8; 100];
        drop(freed);
        let outer_own = outer.exit();
        assert!((4096..4096 + 256).contains(&outer_own), "{outer_own}");
        drop((kept, theirs));
        // A window dropped unclosed (unwind) restores the enclosing one.
        let outer = Window::enter();
        drop(Window::enter());
        assert!(outer.exit().abs() < 256);
    }
}
