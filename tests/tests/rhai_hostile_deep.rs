//! Issue 21: deep Rhai values. A chain of ~100,000 closures each capturing the previous one,
//! and `Fn("g").curry(f)` nested deep, must neither overflow the stack when dropped (at load or
//! inside a dispatch) nor run for minutes: the mod is contained with a clear error and the
//! rest of the game keeps running. Run on the test harness's ordinary 2 MiB thread stack.

mod rhai_support;

use std::time::{Duration, Instant};

use pallet_api::loader::ModState;
use rhai_support::*;

const GOOD: &str =
    r#"hooks.wrap("exp.gain", -100, |next, ctx| next.call() + 1); log.info("good loaded");"#;

fn with_good(name: &str) -> Env {
    load(
        &[fixture(name)],
        &[("good", &manifest("good", &["hooks", "log"]), GOOD)],
    )
}

fn intact(env: &Env) {
    assert_eq!(env.state("good"), ModState::Loaded);
    assert_eq!(exp_gain(&env.rt, 100), (101, 1));
    assert_peak_rss_bounded("rhai_hostile_deep");
}

#[test]
fn a_closure_chain_at_load_is_contained() {
    let began = Instant::now();
    let env = with_good("closure-chain-at-load");
    assert!(
        began.elapsed() < Duration::from_secs(20),
        "{:?}",
        began.elapsed()
    );
    assert_eq!(env.state("closure-chain-at-load"), ModState::Failed);
    let err = env.error("closure-chain-at-load");
    assert!(err.contains("rhai.max_closure_depth"), "{err}");
    intact(&env);
}

#[test]
fn a_closure_chain_inside_a_dispatch_is_contained() {
    let env = with_good("closure-chain-in-hook");
    assert_eq!(env.state("closure-chain-in-hook"), ModState::Loaded);
    env.feed();
    let began = Instant::now();
    assert_eq!(exp_gain(&env.rt, 100), (101, 1));
    assert!(
        began.elapsed() < Duration::from_secs(20),
        "{:?}",
        began.elapsed()
    );
    let feed = env.feed();
    assert!(
        feed.iter().any(
            |l| l.starts_with("[closure-chain-in-hook] hook exp.gain failed")
                && l.contains("rhai.max_closure_depth")
        ),
        "{feed:?}"
    );
    intact(&env);
}

#[test]
fn deep_curry_nesting_is_bounded() {
    let began = Instant::now();
    let env = with_good("curry-nest");
    assert!(
        began.elapsed() < Duration::from_secs(20),
        "{:?}",
        began.elapsed()
    );
    assert_eq!(env.state("curry-nest"), ModState::Failed);
    let err = env.error("curry-nest");
    assert!(err.contains("rhai.max_closure_depth"), "{err}");
    intact(&env);
}

#[test]
fn the_save_bucket_is_capped_at_save_max_bucket_bytes() {
    let env = with_good("save-grow");
    assert_eq!(
        env.state("save-grow"),
        ModState::Loaded,
        "{}",
        env.error("save-grow")
    );
    env.feed();
    for _ in 0..3 {
        let began = Instant::now();
        assert_eq!(exp_gain(&env.rt, 100), (101, 1));
        assert!(
            began.elapsed() < Duration::from_secs(20),
            "{:?}",
            began.elapsed()
        );
    }
    let feed = env.feed();
    assert!(
        feed.iter()
            .any(|l| l.starts_with("[save-grow] hook exp.gain failed")
                && l.contains("save.max_bucket_bytes")),
        "{feed:?}"
    );
    intact(&env);
}

#[test]
fn listeners_are_capped_at_events_max_listeners() {
    let began = Instant::now();
    let env = with_good("listener-flood");
    assert!(
        began.elapsed() < Duration::from_secs(20),
        "{:?}",
        began.elapsed()
    );
    assert_eq!(env.state("listener-flood"), ModState::Failed);
    let err = env.error("listener-flood");
    assert!(err.contains("events.max_listeners"), "{err}");
    // Rolled back: none of its listeners stays registered.
    assert_eq!(env.rt.listener_count("listener-flood"), 0);
    intact(&env);
}

#[test]
fn hook_links_are_capped_at_hooks_max_links() {
    let began = Instant::now();
    let env = with_good("link-flood");
    assert!(
        began.elapsed() < Duration::from_secs(20),
        "{:?}",
        began.elapsed()
    );
    assert_eq!(env.state("link-flood"), ModState::Failed);
    let err = env.error("link-flood");
    assert!(err.contains("hooks.max_links"), "{err}");
    assert_eq!(env.rt.link_count("link-flood"), 0);
    intact(&env);
}

#[test]
fn a_thrown_map_is_shown_cut_at_errors_max_message_bytes() {
    let env = with_good("throw-big");
    assert_eq!(
        env.state("throw-big"),
        ModState::Loaded,
        "{}",
        env.error("throw-big")
    );
    env.feed();
    for _ in 0..3 {
        let began = Instant::now();
        assert_eq!(exp_gain(&env.rt, 100), (101, 1));
        assert!(
            began.elapsed() < Duration::from_secs(5),
            "{:?}",
            began.elapsed()
        );
        let feed = env.feed();
        let line = feed
            .iter()
            .find(|l| l.starts_with("[throw-big] hook exp.gain failed"))
            .unwrap_or_else(|| panic!("{feed:?}"));
        assert!(line.contains("uncaught throw: "), "{line}");
        assert!(line.contains("(cut at errors.max_message_bytes)"), "{line}");
        assert!(
            line.len() < 3 * pallet_api::MAX_ERROR_MESSAGE_BYTES,
            "{}",
            line.len()
        );
    }
    intact(&env);
}

#[test]
fn a_mod_s_log_volume_is_capped_per_tick_and_counted_once() {
    let env = with_good("log-flood");
    assert_eq!(
        env.state("log-flood"),
        ModState::Loaded,
        "{}",
        env.error("log-flood")
    );
    env.feed();
    for round in 0..3 {
        let began = Instant::now();
        assert_eq!(exp_gain(&env.rt, 100), (101, 1));
        assert!(
            began.elapsed() < Duration::from_secs(5),
            "{:?}",
            began.elapsed()
        );
        let feed = env.feed();
        let bytes: usize = feed.iter().map(String::len).sum();
        assert!(
            bytes < 2 * pallet_api::MAX_LOG_BYTES_PER_TICK,
            "round {round}: {bytes} bytes"
        );
        assert!(
            feed.iter()
                .any(|l| l.starts_with("[log-flood] log.max_bytes_per_tick: ")
                    && l.ends_with("bytes) dropped in this tick")),
            "{feed:?}"
        );
    }
    intact(&env);
}
