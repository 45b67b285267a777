//! Hostile Lua: every attack is stopped or contained with a clear error, and the engine (the
//! runtime, the other mods, later dispatches) stays intact.

mod lua_support;

use lua_support::*;
use pallet_api::catalog::hooks::ExpGain;
use pallet_api::loader::ModState;

fn hostile_fixture(name: &str) -> Env {
    load(&[lua_fixture(name)], vec![bystander()])
}

fn assert_intact(env: &Env) {
    env.assert_loaded("bystander");
    // The bystander's link (innermost) still runs; vanilla runs exactly once.
    let (out, runs) = exp_gain(&env.rt, 100);
    assert_eq!(runs, 1);
    assert!(out >= 101, "{out}");
}

#[test]
fn an_infinite_loop_in_a_hook_is_stopped_by_the_budget() {
    let env = hostile_fixture("hostile-loop-in-hook");
    env.assert_loaded("hostile-loop-in-hook");
    for _ in 0..3 {
        let (out, runs) = exp_gain(&env.rt, 100);
        assert_eq!((out, runs), (101, 1), "the looping link is skipped");
        let feed = env.feed();
        assert!(
            feed.iter().any(
                |l| l.starts_with("[hostile-loop-in-hook] hook exp.gain failed:")
                    && l.contains("operation budget exhausted")
            ),
            "{feed:?}"
        );
    }
}

#[test]
fn pcall_and_coroutines_cannot_swallow_the_budget_stop() {
    let env = hostile_fixture("hostile-swallow");
    env.assert_loaded("hostile-swallow");
    let (out, runs) = exp_gain(&env.rt, 100);
    assert_eq!((out, runs), (101, 1));
    let feed = env.feed();
    assert!(
        feed.iter()
            .any(|l| l.contains("[hostile-swallow] hook exp.gain failed") && l.contains("budget")),
        "{feed:?}"
    );
    // The coroutine link (a second wrapper of the same mod) is stopped as well.
    assert_eq!(
        feed.iter()
            .filter(|l| l.starts_with("[hostile-swallow] hook exp.gain failed"))
            .count(),
        2,
        "{feed:?}"
    );
}

#[test]
fn an_infinite_loop_at_load_fails_the_mod_and_rolls_it_back() {
    let env = hostile_fixture("hostile-loop-at-load");
    assert_eq!(env.state("hostile-loop-at-load"), ModState::Failed);
    assert!(
        env.error("hostile-loop-at-load")
            .contains("operation budget exhausted"),
        "{}",
        env.error("hostile-loop-at-load")
    );
    assert_eq!(
        env.rt.hook_chain(<ExpGain as pallet_api::Hook>::ID),
        vec![("bystander".to_owned(), -100)],
        "the hostile link installed before the loop was rolled back"
    );
    assert_intact(&env);
}

#[test]
fn a_memory_bomb_hits_the_memory_limit() {
    let env = hostile_fixture("hostile-memory");
    env.assert_loaded("hostile-memory");
    let (out, runs) = exp_gain(&env.rt, 100);
    assert_eq!((out, runs), (101, 1));
    let feed = env.feed();
    assert!(
        feed.iter()
            .any(|l| l.starts_with("[hostile-memory] hook exp.gain failed")
                && l.contains("memory limit exceeded")),
        "{feed:?}"
    );
    // The state recovers (garbage collected) and fails the same way next time.
    let (out, _) = exp_gain(&env.rt, 100);
    assert_eq!(out, 101);
    // At load: the whole mod fails and is rolled back.
    let env = hostile_fixture("hostile-memory-at-load");
    assert_eq!(env.state("hostile-memory-at-load"), ModState::Failed);
    assert!(
        env.error("hostile-memory-at-load")
            .contains("memory limit exceeded"),
        "{}",
        env.error("hostile-memory-at-load")
    );
    assert_intact(&env);
}

#[test]
fn bytecode_io_os_and_debug_are_out_of_reach() {
    let env = hostile_fixture("hostile-escape");
    env.assert_loaded("hostile-escape");
    let feed = env.feed();
    for line in [
        "[hostile-escape] string.dump nil",
        "[hostile-escape] io nil",
        "[hostile-escape] os.execute nil os.getenv nil os.remove nil os.exit nil",
        "[hostile-escape] debug.getinfo nil debug.getupvalue nil debug.sethook nil debug.setmetatable nil",
        "[hostile-escape] dofile nil loadfile nil package nil getfenv nil setfenv nil newproxy nil",
        "[hostile-escape] binary load nil binary chunks are not accepted: mods load Lua source text only",
        "[hostile-escape] binary loadstring nil",
    ] {
        assert!(feed.contains(&line.to_owned()), "{line}: {feed:?}");
    }
    for module in ["io", "os", "debug", "package", "ffi"] {
        assert!(
            feed.iter().any(
                |l| l.starts_with(&format!("[hostile-escape] require {module} false"))
                    && l.contains("not available to mods")
            ),
            "{module}: {feed:?}"
        );
    }
    assert!(
        feed.iter()
            .any(|l| l.starts_with("[hostile-escape] dump call false")),
        "{feed:?}"
    );
    assert!(
        feed.iter()
            .any(|l| l.starts_with("[hostile-escape] traceback ok stack traceback:")),
        "{feed:?}"
    );
    assert_intact(&env);
}

#[test]
fn metatable_games_on_handles_cannot_break_out() {
    let env = hostile_fixture("hostile-metatables");
    env.assert_loaded("hostile-metatables");
    let feed = env.feed();
    for line in [
        "[hostile-metatables] getmetatable(hooks) = boolean",
        "[hostile-metatables] setmetatable(hooks) false",
        "[hostile-metatables] cross-call false",
        "[hostile-metatables] DELETE write false",
        "[hostile-metatables] getmetatable(DELETE) = boolean",
        "[hostile-metatables] rawset on handle false",
        "[hostile-metatables] handle field write false",
        "[hostile-metatables] still wraps true",
    ] {
        assert!(feed.contains(&line.to_owned()), "{line}: {feed:?}");
    }
    // The mod's own link still works (string metatable games only touch its own state).
    let (out, runs) = exp_gain(&env.rt, 100);
    assert_eq!((out, runs), (102, 1));
    assert_intact(&env);
}

#[test]
fn errors_thrown_across_next_are_contained_by_the_chain_rules() {
    let env = hostile_fixture("hostile-next-errors");
    env.assert_loaded("hostile-next-errors");
    // Links (outer → inner): after-next thrower (30), pcall-around-next (20),
    // before-next thrower (10), stashed-next caller (5), bystander (-100).
    let (out, runs) = exp_gain(&env.rt, 100);
    assert_eq!(runs, 1);
    // The after-next thrower fails: the result pcall-link returned (vanilla + 1 + 1000) is kept.
    assert_eq!(out, 1101);
    let feed = env.feed();
    let has = |needle: &str| feed.iter().any(|l| l.contains(needle));
    assert!(
        has("[hostile-next-errors] hook exp.gain failed after next:"),
        "{feed:?}"
    );
    assert!(has("thrown after next"), "{feed:?}");
    assert!(
        has("[hostile-next-errors] hook exp.gain failed: ") && has("thrown before next"),
        "{feed:?}"
    );
    // A `next` kept past its link and called in a later dispatch raises a clear error.
    let (out2, runs2) = exp_gain(&env.rt, 100);
    assert_eq!(runs2, 1);
    assert_eq!(out2, 1101);
    let feed = env.feed();
    assert!(
        feed.iter().any(|l| l.contains("stale next")
            && l.contains("next can only be called while its link runs")),
        "{feed:?}"
    );
    assert_intact(&env);
}

#[test]
fn a_bad_result_fails_the_link_closed() {
    let env = load(
        &[],
        vec![
            bystander(),
            lua_mod(
                "bad-result",
                r#"return function(mod)
                    mod.hooks:wrap("exp.gain", function(next) return function() end end, 5)
                    mod.hooks:wrap("exp.gain", function(next) return "lots" end, 4)
                    mod.hooks:wrap("exp.gain", function(next) return 0/0 end, 3)
                  end"#,
            ),
        ],
    );
    env.assert_loaded("bad-result");
    assert_eq!(exp_gain(&env.rt, 100), (101, 1));
    let feed = env.feed();
    assert_eq!(
        feed.iter()
            .filter(|l| l.starts_with("[bad-result] hook exp.gain failed"))
            .count(),
        3,
        "{feed:?}"
    );
    assert!(
        feed.iter()
            .any(|l| l.contains("cannot cross into the engine")),
        "{feed:?}"
    );
}

#[test]
fn recursive_and_fanning_emits_are_stopped() {
    let env = load(
        &[],
        vec![
            bystander(),
            lua_mod(
                "echo",
                r#"return function(mod)
                    mod.events:on("mod.echo.ping", function(p)
                      mod.events:emit("mod.echo.ping", { n = p.n + 1 })
                      mod.events:emit("mod.echo.ping", { n = p.n + 1 })
                    end)
                    mod.hooks:wrap("exp.gain", function(next)
                      mod.events:emit("mod.echo.ping", { n = 0 })
                      return next()
                    end, 10)
                  end"#,
            ),
        ],
    );
    env.assert_loaded("echo");
    let (out, runs) = exp_gain(&env.rt, 100);
    assert_eq!(runs, 1);
    // The fan-out spends the dispatch's budget: the echo link fails after its `next` (vanilla's
    // answer kept) or before it (skipped); either way the answer is vanilla's, plus the
    // bystander's +1 when the budget still allowed it to run.
    assert!((100..=101).contains(&out), "{out}");
    let feed = env.feed();
    assert!(
        feed.iter()
            .any(|l| l.contains("nested deeper") || l.contains("budget")),
        "{:?}",
        &feed[..feed.len().min(5)]
    );
    // Every dispatch ends the same way (nothing leaks between dispatches); without the echo
    // mod the engine answers as before.
    assert_eq!(exp_gain(&env.rt, 100).1, 1);
    env.rt.remove_owner("echo");
    assert_intact(&env);
}

#[test]
fn a_link_re_entered_by_a_nested_dispatch_keeps_each_next_to_its_own_call() {
    // The same Lua link runs twice at once: vanilla of the outer dispatch raises the hook
    // again. Each invocation's `next` reaches its own downstream; the outer `next`, called from
    // the inner invocation while it is still running, is refused as re-entrant.
    let env = load(
        &[],
        vec![
            bystander(),
            lua_mod(
                "nest",
                r#"return function(mod)
                    local depth, outer = 0, nil
                    mod.hooks:wrap("exp.gain", function(next, ctx)
                      depth = depth + 1
                      if depth == 1 then
                        outer = next
                        local v = next()
                        depth = depth - 1
                        return v + ctx.level
                      end
                      local ok, err = pcall(outer)
                      mod.log:info("outer next from inner: %s %s", tostring(ok), tostring(err))
                      local v = next()
                      depth = depth - 1
                      return v + 1000 * ctx.level
                    end, 10)
                  end"#,
            ),
        ],
    );
    env.assert_loaded("nest");
    let rt = env.rt.clone();
    let out = env
        .rt
        .call::<ExpGain>(exp_args(5), |_| rt.call::<ExpGain>(exp_args(6), |_| 7) + 10);
    // inner: 7 + 1 (bystander) + 6000; outer vanilla: + 10; outer: + 1 (bystander) + 5.
    assert_eq!(out, 7 + 1 + 6000 + 10 + 1 + 5);
    let feed = env.feed();
    assert!(
        feed.iter()
            .any(|l| l.starts_with("[nest] outer next from inner: false")
                && l.contains("next cannot be called re-entrantly")),
        "{feed:?}"
    );
    // The kept `next` is stale once both calls are over.
    assert_eq!(exp_gain(&env.rt, 100).0, 100 + 1 + 5);
    assert_intact(&env);
}
