//! Issue 21: memory one Rhai dispatch (or mod load) may build. Rhai's size limits count a
//! function pointer as one element and never look at what it curries or captures, so arrays
//! of curried pointers (or of closures capturing big strings) nest past every limit; within
//! its operation budget one call could build gigabytes. `rhai.max_dispatch_bytes` counts what
//! the thread allocates while the scripts run ([`pallet_script_host::alloc`]) and stops them
//! with an error naming the limit; the game and the other mods go on.

mod rhai_support;

use std::time::{Duration, Instant};

use pallet_api::loader::ModState;
use pallet_script_host::alloc::{MAX_DISPATCH_BYTES, MEMORY_TOKEN};
use rhai_support::*;

const GOOD: &str =
    r#"hooks.wrap("exp.gain", -100, |next, ctx| next.call() + 1); log.info("good loaded");"#;

fn with_good(name: &str) -> Env {
    load(
        &[fixture(name)],
        &[("good", &manifest("good", &["hooks", "log"]), GOOD)],
    )
}

/// Loose bounds: stopped within a few seconds (debug build, shared CPU), the process never
/// near the gigabytes the mod asks for, the good mod and the game untouched.
fn contained(env: &Env, began: Instant, what: &str) {
    let took = began.elapsed();
    assert!(took < Duration::from_secs(5), "{what}: took {took:?}");
    assert_eq!(env.state("good"), ModState::Loaded);
    assert_eq!(exp_gain(&env.rt, 100), (101, 1));
    if let Some(peak) = peak_rss() {
        assert!(peak < 1 << 30, "{what}: peak RSS {peak} bytes");
    }
}

#[test]
fn curried_pointers_stuffed_into_arrays_inside_a_dispatch_are_stopped() {
    let env = with_good("fnptr-stuff-in-hook");
    assert_eq!(
        env.state("fnptr-stuff-in-hook"),
        ModState::Loaded,
        "{}",
        env.error("fnptr-stuff-in-hook")
    );
    env.feed();
    for round in 0..2 {
        let began = Instant::now();
        // The hostile link fails before `next`: skipped, the good link and vanilla run.
        assert_eq!(exp_gain(&env.rt, 100), (101, 1), "round {round}");
        let feed = env.feed();
        let line = feed
            .iter()
            .find(|l| l.starts_with("[fnptr-stuff-in-hook] hook exp.gain failed"))
            .unwrap_or_else(|| panic!("round {round}: {feed:?}"));
        assert!(line.contains(&format!("{MEMORY_TOKEN}: ")), "{line}");
        assert!(line.contains(&MAX_DISPATCH_BYTES.to_string()), "{line}");
        contained(&env, began, "fnptr-stuff-in-hook");
    }
}

#[test]
fn closures_capturing_big_values_stuffed_into_arrays_at_load_are_stopped() {
    let began = Instant::now();
    let env = with_good("closure-stuff-at-load");
    assert_eq!(env.state("closure-stuff-at-load"), ModState::Failed);
    let err = env.error("closure-stuff-at-load");
    assert!(err.contains(&format!("{MEMORY_TOKEN}: ")), "{err}");
    contained(&env, began, "closure-stuff-at-load");
}

#[test]
fn a_dispatch_well_under_the_limit_runs() {
    // 200 curried pointers with their own 32 KiB string each (~6.5 MiB): allowed, every time
    // (the count starts afresh with each dispatch).
    const MODERATE: &str = r#"
        fn keep(x) { x }
        hooks.wrap("exp.gain", |next, ctx| {
            let base = "z";
            for i in 0..15 { base += base; }
            let kept = [];
            for j in 0..200 { kept.push(Fn("keep").curry(base + j)); }
            next.call() + kept.len() / 20
        });
    "#;
    let env = load(
        &[],
        &[
            ("moderate", &manifest("moderate", &["hooks"]), MODERATE),
            ("good", &manifest("good", &["hooks", "log"]), GOOD),
        ],
    );
    assert_eq!(
        env.state("moderate"),
        ModState::Loaded,
        "{}",
        env.error("moderate")
    );
    env.feed();
    for _ in 0..20 {
        assert_eq!(exp_gain(&env.rt, 100), (111, 1));
    }
    let feed = env.feed();
    assert!(feed.iter().all(|l| !l.contains(MEMORY_TOKEN)), "{feed:?}");
}

#[test]
fn one_pad_copying_a_heavy_pointer_is_refused_before_it_allocates() {
    let env = with_good("pad-heavy-in-hook");
    assert_eq!(
        env.state("pad-heavy-in-hook"),
        ModState::Loaded,
        "{}",
        env.error("pad-heavy-in-hook")
    );
    env.feed();
    let began = Instant::now();
    assert_eq!(exp_gain(&env.rt, 100), (101, 1));
    let feed = env.feed();
    let line = feed
        .iter()
        .find(|l| l.starts_with("[pad-heavy-in-hook] hook exp.gain failed"))
        .unwrap_or_else(|| panic!("{feed:?}"));
    assert!(line.contains(&format!("{MEMORY_TOKEN}: ")), "{line}");
    contained(&env, began, "pad-heavy-in-hook");
}

#[test]
fn recursion_through_a_function_pointer_stops_at_the_call_levels() {
    // Audit (issue 21, deep recursion): a closure calling itself through the captured
    // variable that holds it is refused by Rhai (the cell is borrowed while it runs), and
    // would otherwise stop at the call levels like script recursion.
    const SELF_CALL: &str = r#"
        hooks.wrap("exp.gain", |next, ctx| {
            let f = 0;
            f = |n| f.call(n + 1);
            f.call(0);
            next.call()
        });
    "#;
    let env = load(
        &[],
        &[
            ("self-call", &manifest("self-call", &["hooks"]), SELF_CALL),
            ("good", &manifest("good", &["hooks", "log"]), GOOD),
        ],
    );
    assert_eq!(
        env.state("self-call"),
        ModState::Loaded,
        "{}",
        env.error("self-call")
    );
    env.feed();
    let began = Instant::now();
    assert_eq!(exp_gain(&env.rt, 100), (101, 1));
    let feed = env.feed();
    assert!(
        feed.iter()
            .any(|l| l.starts_with("[self-call] hook exp.gain failed")
                && [
                    "Data race detected",
                    "Stack overflow",
                    "rhai.max_closure_depth"
                ]
                .iter()
                .any(|e| l.contains(e))),
        "{feed:?}"
    );
    contained(&env, began, "self-call");
}

/// A closure stored in the variable it captures is a cycle Rhai never frees: each dispatch
/// leaves tens of MiB behind that no live value reaches, under every per-dispatch limit. The bytes
/// the mod's calls leave behind are summed (`rhai.max_retained_bytes`); past the limit the mod
/// is stopped, so the process stops growing, and the good mod and the game go on.
#[test]
fn closures_stored_in_what_they_capture_are_bounded_by_what_calls_leave_behind() {
    use pallet_script_host::host::held::MAX_RETAINED_BYTES;
    let env = with_good("self-capture-leak");
    assert_eq!(
        env.state("self-capture-leak"),
        ModState::Loaded,
        "{}",
        env.error("self-capture-leak")
    );
    env.feed();
    let began = Instant::now();
    let before = pallet_script_host::alloc::net_bytes();
    let mut stopped_at = None;
    // 40 calls would leave ~1.3 GB behind unbounded.
    for call in 0..40 {
        let (exp, _) = exp_gain(&env.rt, 100);
        let feed = env.feed();
        if let Some(line) = feed
            .iter()
            .find(|l| l.starts_with("[self-capture-leak] hook exp.gain failed"))
        {
            assert!(line.contains("rhai.max_retained_bytes: "), "{line}");
            assert!(line.contains(&MAX_RETAINED_BYTES.to_string()), "{line}");
            stopped_at.get_or_insert(call);
        }
        if stopped_at.is_some() {
            // Stopped: its link is refused unrun (skipped), the good link and vanilla run.
            assert_eq!(exp, 101, "call {call}");
        }
    }
    let stopped_at = stopped_at.expect("the leaking mod was never stopped");
    assert!(
        (1..=6).contains(&stopped_at),
        "stopped after {stopped_at} calls"
    );
    let grown = pallet_script_host::alloc::net_bytes() - before;
    assert!(
        grown < (MAX_RETAINED_BYTES as i64) + (96 << 20),
        "this thread kept {grown} bytes"
    );
    contained(&env, began, "self-capture-leak");
}
