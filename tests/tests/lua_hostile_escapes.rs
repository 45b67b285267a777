//! Issue 21: Lua budget escapes that used to hang. Each hostile fixture must be stopped by the
//! budget or the memory limit within about a second of work, with the rest of the game intact
//! (the bystander mod's link and vanilla still run, and later dispatches too).

mod lua_support;

use std::time::{Duration, Instant};

use lua_support::*;

fn bystander() -> Mem<'static> {
    lua_mod(
        "bystander",
        r#"return function(mod)
            mod.hooks:wrap("exp.gain", function(next, ctx) return next() + 1 end, -100)
          end"#,
    )
}

/// Load `name`, dispatch `exp.gain` three times; every dispatch must end within `bound`, the
/// hostile link must fail with `expect`, and the bystander must still add its 1.
fn stopped(name: &str, expect: &str) {
    let env = load(&[lua_fixture(name)], vec![bystander()]);
    env.assert_loaded(name);
    env.assert_loaded("bystander");
    for round in 0..3 {
        let began = Instant::now();
        let (out, runs) = exp_gain(&env.rt, 100);
        let took = began.elapsed();
        assert!(
            took < Duration::from_secs(3),
            "{name} round {round}: {took:?}"
        );
        assert_eq!((out, runs), (101, 1), "{name}: the hostile link is skipped");
        let feed = env.feed();
        assert!(
            feed.iter()
                .any(|l| l.starts_with(&format!("[{name}] hook exp.gain failed"))
                    && l.contains(expect)),
            "{name}: expected {expect:?} in {feed:?}"
        );
    }
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
