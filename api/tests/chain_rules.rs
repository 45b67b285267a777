//! Unit tests for every hook chain rule (order, ties, argument replacement, at-most-once
//! vanilla, failure before/after `next`, short-circuit, unsubscribe, owner cleanup), plus a
//! property test of chain composition.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use pallet_api::{Hook, HookId, LinkError, Runtime};
use proptest::prelude::*;

/// A test hook outside the catalog's id range: args `(a, b)`, out `i64`.
struct Sum;
impl Hook for Sum {
    const NAME: &'static str = "test.sum";
    const ID: HookId = HookId(200);
    type Args = (i64, i64);
    type Out = i64;
}

/// A second test hook, to check chains are independent.
struct Other;
impl Hook for Other {
    const NAME: &'static str = "test.other";
    const ID: HookId = HookId(201);
    type Args = ();
    type Out = &'static str;
}

fn vanilla_counter() -> (
    Rc<Cell<u32>>,
    impl Fn() -> Box<dyn FnOnce((i64, i64)) -> i64>,
) {
    let count = Rc::new(Cell::new(0));
    let c = count.clone();
    (count, move || {
        let c = c.clone();
        Box::new(move |(a, b)| {
            c.set(c.get() + 1);
            a + b
        })
    })
}

#[test]
fn empty_chain_is_vanilla_once() {
    let rt = Runtime::new();
    let (count, vanilla) = vanilla_counter();
    assert!(!rt.wants_hook::<Sum>());
    assert_eq!(rt.call::<Sum>((2, 3), vanilla()), 5);
    assert_eq!(count.get(), 1);
    assert!(!rt.has_chain::<Sum>());
}

#[test]
fn higher_priority_is_outermost() {
    let rt = Runtime::new();
    let trace = Rc::new(RefCell::new(Vec::new()));
    for (owner, prio) in [("low", -5), ("high", 10), ("mid", 0)] {
        let t = trace.clone();
        rt.wrap::<Sum, _>(owner, prio, move |next, _| {
            t.borrow_mut().push(owner);
            Ok(next.call())
        });
    }
    let (_, vanilla) = vanilla_counter();
    assert_eq!(rt.call::<Sum>((1, 1), vanilla()), 2);
    assert_eq!(*trace.borrow(), vec!["high", "mid", "low"]);
    let chain: Vec<_> = rt.hook_chain(Sum::ID).into_iter().map(|(o, _)| o).collect();
    assert_eq!(chain, vec!["high", "mid", "low"]);
}

#[test]
fn ties_go_by_load_order_then_registration_order() {
    let rt = Runtime::new();
    rt.set_load_order(["alpha", "beta"]);
    let trace = Rc::new(RefCell::new(Vec::new()));
    // Registration order: beta#1, unranked, alpha#1, beta#2, alpha#2 — all priority 0.
    for (owner, tag) in [
        ("beta", "beta#1"),
        ("zed", "zed#1"),
        ("alpha", "alpha#1"),
        ("beta", "beta#2"),
        ("alpha", "alpha#2"),
    ] {
        let t = trace.clone();
        rt.wrap::<Sum, _>(owner, 0, move |next, _| {
            t.borrow_mut().push(tag);
            Ok(next.call())
        });
    }
    let (_, vanilla) = vanilla_counter();
    rt.call::<Sum>((0, 0), vanilla());
    assert_eq!(
        *trace.borrow(),
        vec!["alpha#1", "alpha#2", "beta#1", "beta#2", "zed#1"]
    );
}

#[test]
fn four_equal_links_keep_registration_order() {
    // The Lua engine's unstable sort permuted four equal links (1,3,2,4); ours must not.
    let rt = Runtime::new();
    let trace = Rc::new(RefCell::new(Vec::new()));
    for i in 1..=4 {
        let t = trace.clone();
        rt.wrap::<Sum, _>("m", 0, move |next, _| {
            t.borrow_mut().push(i);
            Ok(next.call())
        });
    }
    let (_, vanilla) = vanilla_counter();
    rt.call::<Sum>((0, 0), vanilla());
    assert_eq!(*trace.borrow(), vec![1, 2, 3, 4]);
}
