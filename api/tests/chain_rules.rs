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

type Vanilla = Box<dyn FnOnce(&(i64, i64)) -> i64>;

/// A call counter and a factory of counting `a + b` vanillas.
fn vanilla_counter() -> (Rc<Cell<u32>>, impl Fn() -> Vanilla) {
    let count = Rc::new(Cell::new(0));
    let c = count.clone();
    (count, move || {
        let c = c.clone();
        Box::new(move |&(a, b)| {
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

#[test]
fn next_without_args_continues_with_current_args() {
    let rt = Runtime::new();
    let seen = Rc::new(RefCell::new(Vec::new()));
    let s = seen.clone();
    rt.wrap::<Sum, _>("outer", 1, |next, _| Ok(next.call() * 10));
    rt.wrap::<Sum, _>("inner", 0, move |next, args| {
        s.borrow_mut().push(*args);
        Ok(next.call())
    });
    let (count, vanilla) = vanilla_counter();
    assert_eq!(rt.call::<Sum>((4, 5), vanilla()), 90);
    assert_eq!(*seen.borrow(), vec![(4, 5)]);
    assert_eq!(count.get(), 1);
}

#[test]
fn next_with_args_replaces_them_downstream_only() {
    let rt = Runtime::new();
    let outer_after = Rc::new(Cell::new((0, 0)));
    let inner_saw = Rc::new(Cell::new((0, 0)));
    let (oa, is) = (outer_after.clone(), inner_saw.clone());
    rt.wrap::<Sum, _>("outer", 2, move |next, args| {
        let out = next.call();
        oa.set(*args); // the outer link still sees its own arguments
        Ok(out)
    });
    rt.wrap::<Sum, _>("middle", 1, |next, _| Ok(next.call_with((100, 200))));
    rt.wrap::<Sum, _>("inner", 0, move |next, args| {
        is.set(*args);
        Ok(next.call())
    });
    let (_, vanilla) = vanilla_counter();
    assert_eq!(rt.call::<Sum>((1, 2), vanilla()), 300);
    assert_eq!(inner_saw.get(), (100, 200));
    assert_eq!(outer_after.get(), (1, 2));
}

#[test]
fn vanilla_runs_at_most_once_even_if_next_is_called_twice() {
    let rt = Runtime::new();
    rt.wrap::<Sum, _>("greedy", 0, |next, _| {
        let first = next.call();
        let second = next.call_with((50, 50));
        Ok(first + second)
    });
    let (count, vanilla) = vanilla_counter();
    // The second arrival at the bottom gets the first vanilla result (3), not 100.
    assert_eq!(rt.call::<Sum>((1, 2), vanilla()), 6);
    assert_eq!(count.get(), 1);
}

#[test]
fn vanilla_result_travels_up_unchanged() {
    struct Fallible;
    impl Hook for Fallible {
        const NAME: &'static str = "test.fallible";
        const ID: HookId = HookId(202);
        type Args = ();
        type Out = Result<u8, String>;
    }
    let rt = Runtime::new();
    rt.wrap::<Fallible, _>("m", 0, |next, _| Ok(next.call()));
    let out = rt.call::<Fallible>((), |()| Err("vanilla exploded".to_owned()));
    assert_eq!(out, Err("vanilla exploded".to_owned()));
}

#[test]
fn failure_before_next_skips_the_link_with_current_args() {
    let rt = Runtime::new();
    let inner_saw = Rc::new(Cell::new((0, 0)));
    let is = inner_saw.clone();
    rt.wrap::<Sum, _>("broken", 5, |_, _| Err(LinkError::new("boom")));
    rt.wrap::<Sum, _>("inner", 0, move |next, args| {
        is.set(*args);
        Ok(next.call() + 1)
    });
    let (count, vanilla) = vanilla_counter();
    assert_eq!(rt.call::<Sum>((3, 4), vanilla()), 8);
    assert_eq!(inner_saw.get(), (3, 4));
    assert_eq!(count.get(), 1);
    let diags = rt.drain_diagnostics();
    assert_eq!(diags.len(), 1);
    assert_eq!(
        diags[0].message,
        "[broken] hook test.sum failed: boom -- link skipped"
    );
    assert_eq!(diags[0].owner.as_deref(), Some("broken"));
}

#[test]
fn failure_before_next_in_a_replaced_args_scope_keeps_the_replaced_args() {
    let rt = Runtime::new();
    let inner_saw = Rc::new(Cell::new((0, 0)));
    let is = inner_saw.clone();
    rt.wrap::<Sum, _>("replacer", 9, |next, _| Ok(next.call_with((10, 20))));
    rt.wrap::<Sum, _>("broken", 5, |_, _| Err(LinkError::new("boom")));
    rt.wrap::<Sum, _>("inner", 0, move |next, args| {
        is.set(*args);
        Ok(next.call())
    });
    let (_, vanilla) = vanilla_counter();
    assert_eq!(rt.call::<Sum>((1, 1), vanilla()), 30);
    assert_eq!(inner_saw.get(), (10, 20));
}

#[test]
fn failure_after_next_keeps_the_downstream_result() {
    let rt = Runtime::new();
    rt.wrap::<Sum, _>("late-failer", 5, |next, _| {
        let _ = next.call();
        Err(LinkError::new("after"))
    });
    rt.wrap::<Sum, _>("inner", 0, |next, _| Ok(next.call() * 2));
    let (count, vanilla) = vanilla_counter();
    assert_eq!(rt.call::<Sum>((2, 3), vanilla()), 10);
    assert_eq!(count.get(), 1, "vanilla is not re-run");
    let diags = rt.drain_diagnostics();
    assert_eq!(
        diags[0].message,
        "[late-failer] hook test.sum failed after next: after -- downstream result kept"
    );
}

#[test]
fn failure_after_two_nexts_keeps_the_last_downstream_result() {
    let rt = Runtime::new();
    rt.wrap::<Sum, _>("twice", 5, |next, _| {
        let _ = next.call();
        let _ = next.call_with((7, 7));
        Err(LinkError::new("after"))
    });
    rt.wrap::<Sum, _>("inner", 0, |next, args| Ok(next.call() + args.0));
    let (count, vanilla) = vanilla_counter();
    // First pass: 1+2 vanilla -> 3 + 1 = 4. Second pass: vanilla cached 3, + 7 = 10.
    assert_eq!(rt.call::<Sum>((1, 2), vanilla()), 10);
    assert_eq!(count.get(), 1);
}

#[test]
fn a_link_that_never_calls_next_owns_the_answer() {
    let rt = Runtime::new();
    let lower_ran = Rc::new(Cell::new(false));
    let lr = lower_ran.clone();
    rt.wrap::<Sum, _>("owner", 5, |_, _| Ok(-1));
    rt.wrap::<Sum, _>("lower", 0, move |next, _| {
        lr.set(true);
        Ok(next.call())
    });
    let (count, vanilla) = vanilla_counter();
    assert_eq!(rt.call::<Sum>((1, 2), vanilla()), -1);
    assert!(!lower_ran.get());
    assert_eq!(count.get(), 0);
}

#[test]
fn all_links_failing_falls_back_to_vanilla() {
    let rt = Runtime::new();
    for owner in ["a", "b", "c"] {
        rt.wrap::<Sum, _>(owner, 0, |_, _| Err(LinkError::new("nope")));
    }
    let (count, vanilla) = vanilla_counter();
    assert_eq!(rt.call::<Sum>((20, 22), vanilla()), 42);
    assert_eq!(count.get(), 1);
    assert_eq!(rt.drain_diagnostics().len(), 3);
}

#[test]
fn unsubscribe_removes_one_link_and_drops_the_emptied_chain() {
    let rt = Runtime::new();
    let h1 = rt.wrap::<Sum, _>("m", 0, |next, _| Ok(next.call() + 1));
    let h2 = rt.wrap::<Sum, _>("m", 0, |next, _| Ok(next.call() + 10));
    let (_, vanilla) = vanilla_counter();
    assert_eq!(rt.call::<Sum>((0, 0), vanilla()), 11);
    assert!(rt.unsubscribe_hook(h1));
    assert!(!rt.unsubscribe_hook(h1), "second unsubscribe is a no-op");
    assert_eq!(rt.call::<Sum>((0, 0), vanilla()), 10);
    assert!(rt.wants_hook::<Sum>());
    assert!(rt.unsubscribe_hook(h2));
    assert!(!rt.wants_hook::<Sum>());
    assert!(!rt.has_chain::<Sum>());
    assert_eq!(rt.hook_chain_count(), 0);
}

#[test]
fn remove_owner_drops_only_that_owners_links_everywhere() {
    let rt = Runtime::new();
    rt.wrap::<Sum, _>("gone", 0, |next, _| Ok(next.call() + 100));
    rt.wrap::<Sum, _>("kept", 0, |next, _| Ok(next.call() + 1));
    rt.wrap::<Other, _>("gone", 0, |_, _| Ok("mod"));
    assert_eq!(rt.remove_owner("gone"), 2);
    let (_, vanilla) = vanilla_counter();
    assert_eq!(rt.call::<Sum>((0, 0), vanilla()), 1);
    assert!(!rt.wants_hook::<Other>(), "emptied chain removed");
    assert_eq!(rt.call::<Other>((), |()| "vanilla"), "vanilla");
    assert_eq!(rt.remove_owner("gone"), 0);
}

#[test]
fn subscribing_during_a_call_does_not_change_that_call() {
    let rt = Rc::new(Runtime::new());
    let handle = Rc::new(Cell::new(None));
    let (rt2, h2) = (rt.clone(), handle.clone());
    rt.wrap::<Sum, _>("self-removing", 0, move |next, _| {
        // Unsubscribe everything of ours mid-call, and add a new link.
        rt2.remove_owner("self-removing");
        h2.set(Some(rt2.wrap::<Sum, _>("late", 0, |_, _| Ok(-7))));
        Ok(next.call() + 1)
    });
    let (_, vanilla) = vanilla_counter();
    assert_eq!(rt.call::<Sum>((1, 1), vanilla()), 3);
    // The next call sees the new chain.
    assert_eq!(rt.call::<Sum>((1, 1), vanilla()), -7);
    assert!(handle.get().is_some());
}

#[test]
fn reentrant_calls_of_the_same_hook_are_independent() {
    let rt = Rc::new(Runtime::new());
    let rt2 = rt.clone();
    rt.wrap::<Sum, _>("recursive", 0, move |next, args| {
        if args.0 > 0 {
            let inner = rt2.call::<Sum>((args.0 - 1, args.1), |(a, b)| a + b);
            Ok(next.call() + inner)
        } else {
            Ok(next.call())
        }
    });
    // (2,1): inner (1,1) -> inner (0,1) = 1; (1,1) = 2 + 1 = 3; (2,1) = 3 + 3 = 6.
    assert_eq!(rt.call::<Sum>((2, 1), |(a, b)| a + b), 6);
    // The link holds the runtime that holds the link: break the cycle (Miri checks for leaks).
    assert_eq!(rt.remove_owner("recursive"), 1);
}

#[test]
fn chains_are_per_hook() {
    let rt = Runtime::new();
    rt.wrap::<Other, _>("m", 0, |_, _| Ok("mod"));
    assert!(rt.wants_hook::<Other>());
    assert!(!rt.wants_hook::<Sum>());
    let (count, vanilla) = vanilla_counter();
    assert_eq!(rt.call::<Sum>((1, 1), vanilla()), 2);
    assert_eq!(count.get(), 1);
}

/// A hook type that (wrongly) reuses `Sum`'s id with other argument and result types: the bus
/// recognises chains by type, not only by id, so it never runs `Sum`'s links on its arguments.
struct SumTwin;
impl Hook for SumTwin {
    const NAME: &'static str = "test.sum_twin";
    const ID: HookId = Sum::ID;
    type Args = String;
    type Out = usize;
}

#[test]
fn a_hook_type_reusing_another_ones_id_never_runs_its_links() {
    let rt = Runtime::new();
    rt.wrap::<Sum, _>("m", 0, |next, _| Ok(next.call() * 10));
    // The id's guard bit is set, so the call reaches the bus, which finds a chain of another
    // type under that id and runs vanilla alone.
    assert_eq!(rt.call::<SumTwin>("four".to_owned(), |s| s.len()), 4);
    assert_eq!(rt.call::<Sum>((1, 2), |(a, b)| a + b), 30);
}

// ----- property test: chain composition ------------------------------------------------------

/// What a generated link does.
#[derive(Clone, Debug)]
enum Behaviour {
    /// `next()` then add `k`.
    Add(i64),
    /// `next(a + k, b)`.
    Replace(i64),
    /// Return `k` without calling next.
    ShortCircuit(i64),
    /// Fail before next.
    FailBefore,
    /// Call next, then fail.
    FailAfter,
}

fn behaviour() -> impl Strategy<Value = Behaviour> {
    prop_oneof![
        (-5i64..5).prop_map(Behaviour::Add),
        (-5i64..5).prop_map(Behaviour::Replace),
        (-5i64..5).prop_map(Behaviour::ShortCircuit),
        Just(Behaviour::FailBefore),
        Just(Behaviour::FailAfter),
    ]
}

/// The reference model: evaluate links (already in chain order) around vanilla `a + b`.
fn model(links: &[Behaviour], args: (i64, i64), vanilla_runs: &mut u32) -> i64 {
    match links.split_first() {
        None => {
            *vanilla_runs += 1;
            args.0 + args.1
        }
        Some((first, rest)) => match first {
            Behaviour::Add(k) => model(rest, args, vanilla_runs) + k,
            Behaviour::Replace(k) => model(rest, (args.0 + k, args.1), vanilla_runs),
            Behaviour::ShortCircuit(k) => *k,
            Behaviour::FailBefore => model(rest, args, vanilla_runs),
            Behaviour::FailAfter => model(rest, args, vanilla_runs),
        },
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn chain_composition_matches_the_model(
        spec in proptest::collection::vec((behaviour(), -3i32..3), 0..8),
        a in -100i64..100,
        b in -100i64..100,
    ) {
        let rt = Runtime::new();
        for (i, (beh, prio)) in spec.iter().enumerate() {
            let beh = beh.clone();
            rt.wrap::<Sum, _>(&format!("m{i}"), *prio, move |next, args| match beh {
                Behaviour::Add(k) => Ok(next.call() + k),
                Behaviour::Replace(k) => Ok(next.call_with((args.0 + k, args.1))),
                Behaviour::ShortCircuit(k) => Ok(k),
                Behaviour::FailBefore => Err(LinkError::new("before")),
                Behaviour::FailAfter => { let _ = next.call(); Err(LinkError::new("after")) }
            });
        }
        // Expected order: priority descending, ties by registration (all owners unranked and
        // first seen in registration order).
        let mut ordered: Vec<(usize, &(Behaviour, i32))> = spec.iter().enumerate().collect();
        ordered.sort_by(|x, y| y.1 .1.cmp(&x.1 .1).then(x.0.cmp(&y.0)));
        let ordered: Vec<Behaviour> = ordered.into_iter().map(|(_, (b, _))| b.clone()).collect();
        let mut expected_runs = 0;
        let expected = model(&ordered, (a, b), &mut expected_runs);

        let runs = Cell::new(0u32);
        let got = rt.call::<Sum>((a, b), |(x, y)| { runs.set(runs.get() + 1); x + y });
        prop_assert_eq!(got, expected);
        prop_assert_eq!(runs.get(), expected_runs);
        prop_assert!(runs.get() <= 1);

        // Removing every owner empties the bus again.
        for i in 0..spec.len() {
            rt.remove_owner(&format!("m{i}"));
        }
        prop_assert!(!rt.wants_hook::<Sum>());
        prop_assert_eq!(rt.hook_chain_count(), 0);
    }
}
