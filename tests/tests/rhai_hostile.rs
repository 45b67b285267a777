//! Hostile Rhai mods: each ends with a clear error, the other mods and the engine keep
//! running, and vanilla behaviour is intact.

mod rhai_support;

use pallet_api::catalog::common::GameInfo;
use pallet_api::catalog::hooks::{MapOccupancyAllowed, MapOccupancyAllowedArgs};
use pallet_api::loader::ModState;
use rhai_support::*;

const GOOD: &str =
    r#"hooks.wrap("exp.gain", -100, |next, ctx| next.call() + 1); log.info("good loaded");"#;

/// Load `fixture` next to a well-behaved mod; the fixture must fail at load with `expect`
/// in its error, the good mod must load and work.
fn fails_at_load(name: &str, expect: &str) {
    let env = load(
        &[fixture(name)],
        &[("good", &manifest("good", &["hooks"]), GOOD)],
    );
    assert_eq!(env.state(name), ModState::Failed, "{name} should fail");
    let err = env.error(name);
    assert!(
        err.contains(expect),
        "{name}: expected {expect:?} in:\n{err}"
    );
    // Every load error names the mod and points into its source.
    assert!(err.contains(&format!("[{name}]")), "{err}");
    assert_eq!(env.state("good"), ModState::Loaded);
    // Rolled back: nothing of the failed mod is installed; the good mod's link runs.
    assert_eq!(exp_gain(&env.rt, 100), (101, 1));
    let feed = env.feed();
    assert!(feed.iter().any(|l| l == "[good] good loaded"), "{feed:?}");
}

#[test]
fn infinite_loop_at_load() {
    fails_at_load("loop-at-load", "operation budget exhausted");
}

#[test]
fn unbounded_recursion_at_load() {
    fails_at_load("recursion", "Stack overflow");
}

#[test]
fn huge_string() {
    fails_at_load("huge-string", "Length of string");
}

#[test]
fn huge_array() {
    fails_at_load("huge-array", "Size of array");
}

#[test]
fn huge_map() {
    // Growing a map by index assignment is not size-checked by Rhai; the operation budget
    // bounds it (and with it the memory a mod can take at load).
    fails_at_load("huge-map", "operation budget exhausted");
}

#[test]
fn deeply_nested_array() {
    fails_at_load("nested-array", "Size of array");
}

#[test]
fn import_of_parent_folder() {
    fails_at_load("import-parent", "is not a path inside the mod folder");
}

#[test]
fn absolute_import() {
    fails_at_load("import-absolute", "is not a path inside the mod folder");
}

#[test]
fn computed_import_path() {
    fails_at_load("import-computed", "import paths must be string literals");
}

#[test]
fn ungranted_handle_names_the_capability() {
    fails_at_load(
        "ungranted-world",
        "the script uses `world`, but the \"world\" capability is not granted",
    );
    let env = load(&[fixture("ungranted-world")], &[]);
    let err = env.error("ungranted-world");
    // Position and caret excerpt.
    assert!(err.contains("main.rhai:3:5"), "{err}");
    assert!(err.contains("world.active_block_at"), "{err}");
    assert!(err.contains('^'), "{err}");
}

#[test]
fn forging_a_handle_by_constructor() {
    fails_at_load("forge-constructor", "Function not found: Hooks");
}

#[test]
fn a_handle_copy_is_the_same_capability() {
    // In the mod's terms: the copied `hooks` handle has no `world` method.
    fails_at_load(
        "forge-cross",
        "`hooks` has no method `active_block_at`; its methods: has, wrap",
    );
}

#[test]
fn eval_is_disabled() {
    fails_at_load("eval-disabled", "eval");
}

#[test]
fn no_sleep_no_clock() {
    fails_at_load("sleep-and-time", "Function not found: sleep");
    let env = load(
        &[],
        &[("clock", &manifest("clock", &[]), "let t = timestamp();")],
    );
    assert!(
        env.error("clock").contains("Function not found: timestamp"),
        "{}",
        env.error("clock")
    );
}

#[test]
fn print_goes_to_the_mod_log() {
    let env = load(&[fixture("print-to-log")], &[]);
    assert_eq!(env.state("print-to-log"), ModState::Loaded);
    let feed = env.feed();
    assert!(
        feed.contains(&"[print-to-log] hello from print".to_owned()),
        "{feed:?}"
    );
    assert!(
        feed.iter()
            .any(|l| l == "[print-to-log] debug (line 3): \"a debug line\""),
        "{feed:?}"
    );
}

/// Load a runtime-hostile fixture next to the good mod and dispatch `exp.gain`.
fn dispatch_with(name: &str) -> (rhai_support::Env, (u32, u32), Vec<String>) {
    let env = load(
        &[fixture(name)],
        &[("good", &manifest("good", &["hooks"]), GOOD)],
    );
    assert_eq!(env.state(name), ModState::Loaded, "{}", env.error(name));
    env.feed();
    let out = exp_gain(&env.rt, 100);
    let feed = env.feed();
    (env, out, feed)
}

#[test]
fn infinite_loop_in_a_wrapper_is_skipped() {
    let (env, out, feed) = dispatch_with("loop-in-hook");
    // The looping link is skipped (failed before next); the good link and vanilla run.
    assert_eq!(out, (101, 1));
    assert!(
        feed.iter().any(
            |l| l.starts_with("[loop-in-hook] hook exp.gain failed: main.rhai:2:7:")
                && l.contains("operation budget exhausted")
                && l.ends_with("-- link skipped")
        ),
        "{feed:?}"
    );
    // The mod is reported with a source excerpt.
    let errs = env.monitor.drain_runtime_errors();
    assert_eq!(errs.len(), 1);
    assert!(
        errs[0].rendered.contains("hooks.wrap(\"exp.gain\""),
        "{}",
        errs[0].rendered
    );
    // The engine keeps running: a second dispatch behaves the same.
    assert_eq!(exp_gain(&env.rt, 7), (8, 1));
}

#[test]
fn infinite_loop_after_next_keeps_the_downstream_result() {
    let (_env, out, feed) = dispatch_with("loop-after-next");
    assert_eq!(out, (101, 1));
    assert!(
        feed.iter().any(
            |l| l.contains("[loop-after-next] hook exp.gain failed after next")
                && l.contains("downstream result kept")
        ),
        "{feed:?}"
    );
}

#[test]
fn unbounded_recursion_in_a_wrapper() {
    let (_env, out, feed) = dispatch_with("recursion-in-hook");
    assert_eq!(out, (101, 1));
    assert!(
        feed.iter()
            .any(|l| l.contains("Stack overflow") && l.contains("link skipped")),
        "{feed:?}"
    );
}

#[test]
fn wrapper_that_throws_before_next() {
    let (_env, out, feed) = dispatch_with("throws-before-next");
    assert_eq!(out, (101, 1));
    assert!(
        feed.iter().any(
            |l| l.contains("[throws-before-next] hook exp.gain failed: main.rhai:2:")
                && l.contains("uncaught throw: nope")
        ),
        "{feed:?}"
    );
}

#[test]
fn wrapper_that_throws_after_next() {
    let (_env, out, feed) = dispatch_with("throws-after-next");
    assert_eq!(out, (101, 1));
    assert!(
        feed.iter()
            .any(|l| l.contains("failed after next") && l.contains("after 101")),
        "{feed:?}"
    );
}

#[test]
fn wrapper_that_returns_the_wrong_type() {
    let (_env, out, feed) = dispatch_with("wrong-type");
    assert_eq!(out, (101, 1));
    assert!(
        feed.iter()
            .any(|l| l.contains("[wrong-type] hook exp.gain failed: bad result")),
        "{feed:?}"
    );
}

#[test]
fn wrapper_that_never_calls_next() {
    let env = load(&[fixture("no-next")], &[]);
    assert_eq!(
        env.state("no-next"),
        ModState::Loaded,
        "{}",
        env.error("no-next")
    );
    // map.occupancy_allowed: a non-forwarding wrapper owns the answer; `()` fails closed.
    let args = MapOccupancyAllowedArgs::at_dock(GameInfo::default(), Some(14), Some(0));
    let ran = std::cell::Cell::new(false);
    let allowed = env.rt.call::<MapOccupancyAllowed>(args, |_| {
        ran.set(true);
        true
    });
    assert!(!allowed);
    assert!(
        !ran.get(),
        "a wrapper that does not call next short-circuits"
    );
    // exp.gain: `()` is not a number: the link fails before next, vanilla runs.
    assert_eq!(exp_gain(&env.rt, 100), (100, 1));
    let feed = env.feed();
    assert!(
        feed.iter()
            .any(|l| l.contains("[no-next] hook exp.gain failed: bad result")),
        "{feed:?}"
    );
}

#[test]
fn next_with_wrong_arity_or_types_names_the_hook_and_signature() {
    let env = load(&[fixture("bad-next-args")], &[]);
    assert_eq!(
        env.state("bad-next-args"),
        ModState::Loaded,
        "{}",
        env.error("bad-next-args")
    );
    let args = MapOccupancyAllowedArgs::at_dock(GameInfo::default(), Some(14), Some(0));
    assert!(!env.rt.call::<MapOccupancyAllowed>(args, |_| false));
    let feed = env.feed();
    let arity = feed
        .iter()
        .find(|l| l.contains("1 arguments given"))
        .expect("arity line");
    assert!(
        arity.starts_with("[bad-next-args] bad_next_arguments: "),
        "{arity}"
    );
    assert!(
        arity.contains("hook map.occupancy_allowed expects next.call() or next.call(game, ctx)"),
        "{arity}"
    );
    assert!(arity.contains("(next, game, ctx) -> boolean"), "{arity}");
    let types = feed
        .iter()
        .find(|l| l.contains("bad arguments to next"))
        .expect("type line");
    assert!(types.contains("bad_next_arguments"), "{types}");
    assert!(types.contains("(next, game, ctx) -> boolean"), "{types}");
}

#[test]
fn a_stashed_next_cannot_be_reentered() {
    let (_env, out, feed) = dispatch_with("stash-next");
    assert_eq!(out, (101, 1));
    assert!(
        feed.contains(&"[stash-next] reenter: next_unavailable".to_owned()),
        "{feed:?}"
    );
}

#[test]
fn mods_cannot_forge_events_or_smuggle_handles() {
    let env = load(
        &[fixture("foreign-emit"), fixture("handle-in-payload")],
        &[],
    );
    assert_eq!(
        env.state("foreign-emit"),
        ModState::Loaded,
        "{}",
        env.error("foreign-emit")
    );
    let feed = env.feed();
    assert!(
        feed.contains(&"[foreign-emit] forbidden_event forbidden_event".to_owned()),
        "{feed:?}"
    );
    assert!(
        feed.contains(&"[handle-in-payload] invalid_value invalid_value".to_owned()),
        "{feed:?}"
    );
}
