//! The chain-length rule: a hook holds at most `MAX_LINKS` links; a further `wrap` is refused
//! (reported, inert handle). And a full chain of links that all fail before `next` dispatches
//! to vanilla on an ordinary test thread (the failed links are skipped by nested calls, which
//! the cap bounds).

use std::cell::Cell;
use std::rc::Rc;

use pallet_api::hooks::MAX_LINKS;
use pallet_api::{Hook, HookId, LinkError, Runtime};

struct Sum;
impl Hook for Sum {
    const NAME: &'static str = "test.sum";
    const ID: HookId = HookId(210);
    type Args = (i64, i64);
    type Out = i64;
}

#[test]
fn a_full_chain_refuses_more_links() {
    let rt = Runtime::new();
    for _ in 0..MAX_LINKS {
        rt.wrap::<Sum, _>("many", 0, |next, _| Ok(next.call() + 1));
    }
    assert_eq!(rt.hook_chain(Sum::ID).len(), MAX_LINKS);
    assert!(rt.drain_diagnostics().is_empty());

    let ran = Rc::new(Cell::new(false));
    let r = ran.clone();
    let refused = rt.wrap::<Sum, _>("late", 100, move |next, _| {
        r.set(true);
        Ok(next.call())
    });
    assert_eq!(rt.hook_chain(Sum::ID).len(), MAX_LINKS);
    let diags = rt.drain_diagnostics();
    assert_eq!(diags.len(), 1);
    assert_eq!(
        diags[0].message,
        format!("[late] hook test.sum: link not installed: the hook already has {MAX_LINKS} links")
    );
    assert_eq!(diags[0].owner.as_deref(), Some("late"));
    assert!(
        !rt.unsubscribe_hook(refused),
        "the refused link's handle removes nothing"
    );

    assert_eq!(rt.call::<Sum>((1, 2), |(a, b)| a + b), 3 + MAX_LINKS as i64);
    assert!(!ran.get());

    // Room again after one link leaves.
    assert_eq!(rt.remove_owner("many"), MAX_LINKS);
    assert!(!rt.wants_hook::<Sum>());
    rt.wrap::<Sum, _>("late", 0, |next, _| Ok(next.call() * 2));
    assert_eq!(rt.call::<Sum>((1, 2), |(a, b)| a + b), 6);
}

#[test]
fn a_full_chain_of_links_failing_before_next_reaches_vanilla() {
    let rt = Runtime::new();
    for _ in 0..MAX_LINKS {
        rt.wrap::<Sum, _>("broken", 0, |_, _| Err(LinkError::new("boom")));
    }
    let runs = Cell::new(0);
    let out = rt.call::<Sum>((20, 22), |(a, b)| {
        runs.set(runs.get() + 1);
        a + b
    });
    assert_eq!(out, 42);
    assert_eq!(runs.get(), 1);
    assert_eq!(rt.drain_diagnostics().len(), MAX_LINKS);
}
