//! Counting-allocator proof: an unsubscribed site — guard, context never built, vanilla —
//! allocates nothing; an unguarded `call`/`emit` with no subscriber allocates nothing; a
//! subscribed call through native links copies no arguments (links and vanilla borrow them);
//! and the counter does see the allocations once someone subscribes or a link copies the
//! arguments (so the zeros are not vacuous).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use pallet_api::catalog::common::GameInfo;
use pallet_api::catalog::{events, hooks};
use pallet_api::Runtime;

thread_local! {
    static COUNT: Cell<u64> = const { Cell::new(0) };
}

struct Counting;

// SAFETY: forwards every call to `System` unchanged; only bumps a const-initialised
// thread-local counter (no lazy allocation, no destructor).
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = COUNT.try_with(|c| c.set(c.get() + 1));
        // SAFETY: forwarded with the caller's layout.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded with the caller's pointer and layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = COUNT.try_with(|c| c.set(c.get() + 1));
        // SAFETY: forwarded with the caller's pointer, layout and size.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations<T>(f: impl FnOnce() -> T) -> (T, u64) {
    let before = COUNT.with(Cell::get);
    let out = f();
    (out, COUNT.with(Cell::get) - before)
}

/// The RFC 0013 dock site, written in the engine's idiom.
fn dock_site(rt: &Runtime, x: i32, y: i32) -> bool {
    if rt.wants_hook::<hooks::MapOccupancyAllowed>() {
        let args = hooks::MapOccupancyAllowedArgs::at_dock(GameInfo::default(), Some(x), Some(y));
        rt.call::<hooks::MapOccupancyAllowed>(args, |_| false)
    } else {
        false
    }
}

fn stepped_site(rt: &Runtime, x: i32, y: i32) {
    if rt.wants_event::<events::WorldStepped>() {
        rt.emit::<events::WorldStepped>(events::WorldSteppedPayload {
            map_id: "ROUTE_1".into(),
            x,
            y,
            tile: None,
        });
    }
}

#[test]
fn unsubscribed_sites_allocate_nothing() {
    let rt = Runtime::new();
    let (allowed, n) = allocations(|| {
        (0..1000)
            .map(|i| dock_site(&rt, i, i))
            .filter(|a| *a)
            .count()
    });
    assert_eq!((allowed, n), (0, 0));
    let ((), n) = allocations(|| (0..1000).for_each(|i| stepped_site(&rt, i, i)));
    assert_eq!(n, 0);
    // Unguarded calls with scalar arguments are free too.
    let (out, n) = allocations(|| {
        rt.call::<hooks::SaveWrite>(
            hooks::SaveWriteArgs {
                game: GameInfo::default(),
            },
            |_| true,
        )
    });
    assert_eq!((out, n), (true, 0));
}

#[test]
fn the_counter_sees_subscribed_sites() {
    let rt = Runtime::new();
    let handle = rt.wrap::<hooks::MapOccupancyAllowed, _>("m", 0, |next, _| Ok(next.call()));
    let (_, n) = allocations(|| dock_site(&rt, 1, 2));
    assert!(n > 0, "building the context allocates");
    rt.unsubscribe_hook(handle);
    let (_, n) = allocations(|| dock_site(&rt, 1, 2));
    assert_eq!(n, 0, "after unsubscribe the site is free again");
    rt.on::<events::WorldStepped, _>("m", 0, |_| Ok(()));
    let ((), n) = allocations(|| stepped_site(&rt, 1, 2));
    assert!(n > 0);
}

#[test]
fn a_subscribed_call_copies_no_arguments() {
    // Context built outside the counted region: what is left is the dispatch itself.
    let args = || hooks::MapOccupancyAllowedArgs::at_dock(GameInfo::default(), Some(3), Some(4));
    let rt = Runtime::new();
    rt.wrap::<hooks::MapOccupancyAllowed, _>("a", 1, |next, _| Ok(next.call()));
    rt.wrap::<hooks::MapOccupancyAllowed, _>("b", 0, |next, ctx| {
        Ok(next.call() || ctx.ctx.x == Some(99))
    });
    let input = args();
    let (out, n) =
        allocations(|| rt.call::<hooks::MapOccupancyAllowed>(input, |a| a.ctx.x == Some(3)));
    // Links and vanilla borrow the arguments; dropping them is the only heap traffic (frees
    // are not counted), so the dispatch allocates nothing.
    assert_eq!((out, n), (true, 0));
    // A link that replaces the arguments pays for its own copy, and the counter sees it.
    rt.wrap::<hooks::MapOccupancyAllowed, _>("c", 2, |next, a| Ok(next.call_with(a.clone())));
    let input = args();
    let (_, n) = allocations(|| rt.call::<hooks::MapOccupancyAllowed>(input, |_| false));
    assert!(n > 0);
}
