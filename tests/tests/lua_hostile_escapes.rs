//! Issue 21: Lua budget escapes that used to hang. Each hostile fixture must be stopped by the
//! budget or the memory limit within about a second of work, with the rest of the game intact
//! (the bystander mod's link and vanilla still run, and later dispatches too).

mod lua_support;

use std::time::{Duration, Instant};

use lua_support::*;

/// Load `name`, dispatch `exp.gain` three times; every dispatch must end within `bound`, the
/// hostile link must fail with `expect`, and the bystander must still add its 1.
fn stopped(name: &str, expect: &str) {
    let env = load(&[lua_fixture(name)], vec![bystander()]);
    assert_contained(&env, name, expect, Duration::from_secs(3));
}

#[test]
fn an_xpcall_handler_that_loops_is_never_run_after_the_stop() {
    stopped("hostile-xpcall-handler", "operation budget exhausted");
}

#[test]
fn print_and_mod_log_pass_a_stopped_tostring_on() {
    stopped("hostile-tostring", "operation budget exhausted");
}

#[test]
fn string_rep_is_charged_by_its_copies() {
    stopped("hostile-rep", "operation budget exhausted");
}

#[test]
fn pattern_functions_are_charged_by_their_subject() {
    stopped("hostile-patterns", "operation budget exhausted");
}

#[test]
fn table_concat_is_charged_by_its_elements_and_bytes() {
    stopped("hostile-concat", "operation budget exhausted");
}

#[test]
fn a_memory_error_cannot_be_swallowed_by_pcall() {
    stopped("hostile-memory-swallow", "memory limit exceeded");
}

#[test]
fn the_save_bucket_is_capped_at_save_max_bucket_bytes() {
    stopped("hostile-save-grow", "save.max_bucket_bytes");
}

#[test]
fn one_set_of_many_slots_sharing_a_string_is_refused_by_size() {
    stopped("hostile-save-shared", "lua.max_value_bytes");
}

#[test]
fn listeners_are_capped_at_events_max_listeners() {
    let began = Instant::now();
    let env = load(&[lua_fixture("hostile-listener-flood")], vec![bystander()]);
    assert!(
        began.elapsed() < Duration::from_secs(20),
        "{:?}",
        began.elapsed()
    );
    let err = env.error("hostile-listener-flood");
    assert!(err.contains("events.max_listeners"), "{err}");
    assert_eq!(env.rt.listener_count("hostile-listener-flood"), 0);
    env.assert_loaded("bystander");
    assert_eq!(exp_gain(&env.rt, 100), (101, 1));
}

#[test]
fn hook_links_are_capped_at_hooks_max_links() {
    let began = Instant::now();
    let env = load(&[lua_fixture("hostile-link-flood")], vec![bystander()]);
    assert!(
        began.elapsed() < Duration::from_secs(20),
        "{:?}",
        began.elapsed()
    );
    let err = env.error("hostile-link-flood");
    assert!(err.contains("hooks.max_links"), "{err}");
    // Rolled back: none of its links stays installed.
    assert_eq!(env.rt.link_count("hostile-link-flood"), 0);
    env.assert_loaded("bystander");
    assert_eq!(exp_gain(&env.rt, 100), (101, 1));
}

#[test]
fn a_mod_s_log_volume_is_capped_per_tick_and_counted_once() {
    let env = load(&[lua_fixture("hostile-log-flood")], vec![bystander()]);
    env.assert_loaded("hostile-log-flood");
    env.feed();
    for round in 0..3 {
        let began = Instant::now();
        assert_eq!(exp_gain(&env.rt, 100), (101, 1));
        assert!(
            began.elapsed() < Duration::from_secs(3),
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
                .any(|l| l.contains("log.max_bytes_per_tick: more than 65536 bytes")),
            "{feed:?}"
        );
        assert!(
            feed.iter().any(
                |l| l.starts_with("[hostile-log-flood] log.max_bytes_per_tick: ")
                    && l.contains("lines (")
                    && l.ends_with("bytes) dropped in this tick")
            ),
            "{feed:?}"
        );
        assert!(
            feed.iter().any(
                |l| l.starts_with("[hostile-log-flood] hook exp.gain failed")
                    && l.contains("operation budget exhausted")
            ),
            "the failure line is not a log line and is never dropped"
        );
    }
}

#[test]
fn a_huge_error_message_is_cut_at_errors_max_message_bytes() {
    let env = load(&[lua_fixture("hostile-throw-big")], vec![bystander()]);
    env.assert_loaded("hostile-throw-big");
    env.feed();
    for _ in 0..3 {
        assert_eq!(exp_gain(&env.rt, 100), (101, 1));
        let feed = env.feed();
        let line = feed
            .iter()
            .find(|l| l.starts_with("[hostile-throw-big] hook exp.gain failed"))
            .unwrap_or_else(|| panic!("{feed:?}"));
        assert!(line.contains("(cut at errors.max_message_bytes)"), "{line}");
        assert!(
            line.len() < 2 * pallet_api::MAX_ERROR_MESSAGE_BYTES,
            "{}",
            line.len()
        );
    }
}
