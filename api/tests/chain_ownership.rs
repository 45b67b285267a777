//! Who owns what during a dispatch: the arguments a site hands to `call` are dropped exactly
//! once whatever the chain does with them (replace, short-circuit, panic), and the chain a call
//! holds is released when the call ends, even if its links unsubscribed meanwhile.

use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::rc::Rc;

use pallet_api::{Hook, HookId, LinkError, Runtime};

thread_local! {
    /// `Tracked` values alive on this thread (each test runs on its own thread).
    static LIVE: Cell<i64> = const { Cell::new(0) };
}

fn live() -> i64 {
    LIVE.with(Cell::get)
}

/// An argument that counts its live copies.
#[derive(Debug)]
struct Tracked(u32);

impl Tracked {
    fn new(v: u32) -> Self {
        LIVE.with(|l| l.set(l.get() + 1));
        Tracked(v)
    }
}

impl Clone for Tracked {
    fn clone(&self) -> Self {
        Tracked::new(self.0)
    }
}

impl Drop for Tracked {
    fn drop(&mut self) {
        LIVE.with(|l| l.set(l.get() - 1));
    }
}

/// Two register-sized fields, one of them tracked.
struct Pair;
impl Hook for Pair {
    const NAME: &'static str = "test.pair";
    const ID: HookId = HookId(210);
    type Args = (Tracked, u32);
    type Out = u32;
}

/// Arguments too large for registers.
struct Wide;
impl Hook for Wide {
    const NAME: &'static str = "test.wide";
    const ID: HookId = HookId(211);
    type Args = (Tracked, [u64; 6]);
    type Out = u64;
}

fn pair_vanilla((t, b): &(Tracked, u32)) -> u32 {
    t.0 * 10 + b
}

#[test]
fn arguments_are_dropped_exactly_once_whatever_the_chain_does() {
    let rt = Runtime::new();
    // No chain: vanilla consumes them.
    assert_eq!(rt.call::<Pair>((Tracked::new(1), 2), pair_vanilla), 12);
    assert_eq!(live(), 0);

    // Three links, the middle one replacing the arguments.
    rt.wrap::<Pair, _>("a", 2, |next, _| Ok(next.call() + 1));
    rt.wrap::<Pair, _>("b", 1, |next, args| {
        Ok(next.call_with((Tracked::new(args.0 .0 + 1), args.1)))
    });
    rt.wrap::<Pair, _>("c", 0, |next, _| Ok(next.call() * 2));
    assert_eq!(rt.call::<Pair>((Tracked::new(1), 2), pair_vanilla), 45);
    assert_eq!(live(), 0, "site and replaced arguments dropped once each");

    // A short-circuit: vanilla never runs, the site's arguments are still dropped.
    let cut = rt.wrap::<Pair, _>("cut", 9, |_, args| Ok(args.1));
    assert_eq!(rt.call::<Pair>((Tracked::new(1), 7), pair_vanilla), 7);
    assert_eq!(live(), 0);
    rt.unsubscribe_hook(cut);

    // Wide arguments (passed by address) follow the same rule.
    rt.wrap::<Wide, _>("w", 0, |next, args| {
        Ok(next.call_with((args.0.clone(), [1; 6])) + args.1[5])
    });
    let out = rt.call::<Wide>((Tracked::new(3), [4; 6]), |(t, w)| {
        u64::from(t.0) + w.iter().sum::<u64>()
    });
    assert_eq!(out, 3 + 6 + 4);
    assert_eq!(live(), 0);
}

#[test]
fn a_panicking_link_drops_the_arguments_and_leaves_the_runtime_usable() {
    let rt = Runtime::new();
    rt.wrap::<Pair, _>("outer", 1, |next, _| Ok(next.call() + 1));
    let boom = rt.wrap::<Pair, _>("boom", 0, |_, args| {
        if args.1 == 13 {
            panic!("link panicked on purpose");
        }
        Ok(args.1)
    });
    let hit = catch_unwind(AssertUnwindSafe(|| {
        rt.call::<Pair>((Tracked::new(1), 13), pair_vanilla)
    }));
    assert!(hit.is_err());
    assert_eq!(live(), 0, "the unwinding call dropped its arguments");

    // The chain is intact and still dispatches.
    assert_eq!(rt.call::<Pair>((Tracked::new(1), 5), pair_vanilla), 6);
    assert!(rt.unsubscribe_hook(boom));
    assert_eq!(rt.call::<Pair>((Tracked::new(1), 5), pair_vanilla), 16);
    assert_eq!(live(), 0);
}

#[test]
fn a_call_keeps_its_chain_alive_while_links_unsubscribe_and_releases_it_after() {
    let rt = Rc::new(Runtime::new());
    // Every link captures a sentinel; the chain's links hold the only other references.
    let sentinel = Rc::new(());
    let handles: Rc<Cell<Vec<pallet_api::HookHandle>>> = Rc::default();

    let (rt2, hs, s) = (rt.clone(), handles.clone(), sentinel.clone());
    let outer = rt.wrap::<Pair, _>("outer", 1, move |next, _| {
        let _keep = &s;
        // Remove every link of the hook (itself included), then continue down the snapshot.
        for h in hs.take() {
            rt2.unsubscribe_hook(h);
        }
        Ok(next.call() + 100)
    });
    let s = sentinel.clone();
    let inner = rt.wrap::<Pair, _>("inner", 0, move |next, _| {
        let _keep = &s;
        Ok(next.call() + 1)
    });
    handles.set(vec![outer, inner]);
    assert_eq!(Rc::strong_count(&sentinel), 3);

    assert_eq!(rt.call::<Pair>((Tracked::new(1), 2), pair_vanilla), 113);
    assert!(!rt.wants_hook::<Pair>(), "the emptied chain is gone");
    assert_eq!(
        Rc::strong_count(&sentinel),
        1,
        "the call released the snapshot it held, and with it the links"
    );
    assert_eq!(live(), 0);
    drop(rt);
}

#[test]
fn a_failing_link_drops_its_error_and_the_arguments() {
    let rt = Runtime::new();
    rt.wrap::<Pair, _>("fails", 1, |_, _| Err(LinkError::new("no")));
    rt.wrap::<Pair, _>("after", 0, |next, _| {
        let out = next.call();
        Err(LinkError::from(format!("after {out}")))
    });
    assert_eq!(rt.call::<Pair>((Tracked::new(4), 2), pair_vanilla), 42);
    assert_eq!(live(), 0);
    assert_eq!(rt.diagnostics().len(), 2);
}
