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
    // Two owners: one mod alone may hold only `MAX_LINKS_PER_MOD` (< `MAX_LINKS`) links.
    for i in 0..MAX_LINKS {
        let owner = if i % 2 == 0 { "many" } else { "more" };
        rt.wrap::<Sum, _>(owner, 0, |next, _| Ok(next.call() + 1));
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
    assert_eq!(rt.remove_owner("many"), MAX_LINKS / 2);
    assert_eq!(rt.remove_owner("more"), MAX_LINKS / 2);
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

#[test]
fn one_mod_is_refused_past_hooks_max_links_over_all_its_hooks() {
    struct Other;
    impl Hook for Other {
        const NAME: &'static str = "test.other";
        const ID: HookId = HookId(211);
        type Args = (i64, i64);
        type Out = i64;
    }
    let rt = Runtime::new();
    let mut handles = Vec::new();
    for i in 0..pallet_api::MAX_LINKS_PER_MOD {
        handles.push(if i % 2 == 0 {
            rt.wrap::<Sum, _>("greedy", 0, |next, _| Ok(next.call() + 1))
        } else {
            rt.wrap::<Other, _>("greedy", 0, |next, _| Ok(next.call() + 1))
        });
    }
    assert_eq!(rt.link_count("greedy"), pallet_api::MAX_LINKS_PER_MOD);
    let err = rt.check_link_quota("greedy").unwrap_err();
    assert!(err.starts_with("hooks.max_links: "), "{err}");
    rt.wrap::<Other, _>("greedy", 0, |next, _| Ok(next.call()));
    let diags = rt.drain_diagnostics();
    assert_eq!(diags.len(), 1);
    assert_eq!(
        diags[0].message,
        format!(
            "[greedy] hook test.other: link not installed: hooks.max_links: a mod may hold at most {} hook links",
            pallet_api::MAX_LINKS_PER_MOD
        )
    );
    // Another mod is not affected; an unsubscribed link frees its slot.
    assert!(rt.check_link_quota("modest").is_ok());
    assert!(rt.unsubscribe_hook(handles.pop().unwrap()));
    assert_eq!(rt.link_count("greedy"), pallet_api::MAX_LINKS_PER_MOD - 1);
    assert!(rt.check_link_quota("greedy").is_ok());
    rt.remove_owner("greedy");
    assert_eq!(rt.link_count("greedy"), 0);
}
