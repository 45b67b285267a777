//! Nesting is bounded, so hostile Rhai mods cannot overflow the engine's stack: a dispatch nests
//! at most `MAX_NESTING` (48) script frames (links and listeners, Rhai and Lua alike), and the
//! Rhai call-level limit (48) counts across the scripts of one nest — a link reached through
//! `next` and a listener reached through `events.emit` continue the calling script's level.
//! Before these bounds each case below aborted the process with a stack overflow.

#[path = "rhai_support/mod.rs"]
mod support;

use pallet_api::budget::MAX_NESTING;
use pallet_api::catalog::hooks::ExpGain;

fn run(id: &str, src: &str) -> (u32, Vec<String>) {
    let manifest = support::manifest(id, &["hooks", "events"]);
    let env = support::load(&[], &[(id, &manifest, src)]);
    assert_eq!(env.error(id), "", "{id} loads");
    let out = env.rt.call::<ExpGain>(support::exp_args(10), |_| 1);
    (out, env.feed())
}

#[test]
fn a_chain_of_rhai_links_nests_up_to_the_limit() {
    let limit = MAX_NESTING as usize;
    let src =
        format!("for i in 0..{limit} {{ hooks.wrap(\"exp.gain\", |next, ctx| next.call() + 1); }}");
    let (out, feed) = run("chain-at-limit", &src);
    assert_eq!(
        out as usize,
        1 + limit,
        "every link of a {limit}-link chain runs"
    );
    assert!(feed.is_empty(), "{feed:?}");
}

#[test]
fn a_longer_chain_is_cut_at_the_limit_and_the_rest_skipped() {
    let (out, feed) = run(
        "chain-too-long",
        "for i in 0..300 { hooks.wrap(\"exp.gain\", |next, ctx| next.call() + 1); }",
    );
    assert_eq!(out, 1 + MAX_NESTING, "the outer links still add their part");
    assert_eq!(feed.len(), 300 - MAX_NESTING as usize);
    assert!(feed.iter().all(|l| l.contains(
        "script calls nested deeper than 48 levels (a listener re-emitting its own event?) -- link skipped"
    )));
}

#[test]
fn script_recursion_counts_across_the_links_of_a_chain() {
    // Each link recurses 40 levels before calling `next`: the second link starts at the first
    // one's level and runs into Rhai's call-level limit; it and every later link fail before
    // `next` (skipped), vanilla answers, and the first link adds its 1.
    let (out, feed) = run(
        "deep-links",
        "fn down(n, next) { if n == 0 { next.call() } else { down(n - 1, next) } }\n\
         for i in 0..60 { hooks.wrap(\"exp.gain\", |next, ctx| down(40, next) + 1); }",
    );
    assert_eq!(out, 2);
    assert_eq!(feed.len(), 59);
    assert!(
        feed.iter()
            .all(|l| l.contains("Stack overflow -- link skipped")),
        "{feed:?}"
    );
}

#[test]
fn a_listener_re_emitting_its_own_event_stops_at_the_limit() {
    let (out, feed) = run(
        "re-emit",
        r#"events.on("mod.re-emit.ping", |p| { events.emit("mod.re-emit.ping", p + 1); });
hooks.wrap("exp.gain", |next, ctx| { events.emit("mod.re-emit.ping", 0); next.call() });"#,
    );
    assert_eq!(out, 1, "the link's own answer is unaffected");
    assert_eq!(feed.len(), 1, "{feed:?}");
    assert!(
        feed[0].contains("script calls nested deeper than 48 levels"),
        "{feed:?}"
    );
}

#[test]
fn listener_recursion_counts_across_re_emits() {
    let (out, feed) = run(
        "re-emit-deep",
        r#"fn down(n, p) { if n == 0 { events.emit("mod.re-emit-deep.ping", p + 1); } else { down(n - 1, p) } }
events.on("mod.re-emit-deep.ping", |p| { down(40, p); });
hooks.wrap("exp.gain", |next, ctx| { events.emit("mod.re-emit-deep.ping", 0); next.call() });"#,
    );
    assert_eq!(out, 1);
    assert_eq!(feed.len(), 1, "{feed:?}");
    assert!(feed[0].contains("Stack overflow"), "{feed:?}");
}
