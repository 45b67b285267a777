//! One chain, two languages: Lua and Rhai wrappers interleave on one hook by the one ordering
//! rule, `next` crosses between them both ways, and one per-dispatch budget covers both.

mod lua_support;

use lua_support::*;
use pallet_api::catalog::hooks::ExpGain;
use pallet_api::Hook;

/// Loop iterations that cost a little over half the per-dispatch budget in each language
/// (Lua: ~3 VM instructions per iteration; Rhai: ~4 operations per iteration).
const LUA_SPIN: u32 = 90_000;
const RHAI_SPIN: u32 = 60_000;

#[test]
fn lua_and_rhai_links_interleave_by_priority_then_load_order() {
    // Each link appends its digit to the result: out = vanilla * 10 + digit, innermost first.
    let env = load(
        &[],
        vec![
            lua_mod(
                "a-lua",
                r#"return function(mod)
                    mod.hooks:wrap("exp.gain", function(next) return next() * 10 + 1 end, 30)
                    mod.hooks:wrap("exp.gain", function(next) return next() * 10 + 3 end, 10)
                  end"#,
            ),
            rhai_mod(
                "b-rhai",
                r#"hooks.wrap("exp.gain", 20, |next, ctx| next.call() * 10 + 2);
                   hooks.wrap("exp.gain", 10, |next, ctx| next.call() * 10 + 4);"#,
            ),
        ],
    );
    env.assert_loaded("a-lua");
    env.assert_loaded("b-rhai");
    assert_eq!(
        env.rt.hook_chain(ExpGain::ID),
        vec![
            ("a-lua".to_owned(), 30),
            ("b-rhai".to_owned(), 20),
            // Equal priority: load rank decides. b-rhai's manifest has no `priority` (0) and
            // a-lua's says 100, so b-rhai loads first and is the outer of the two.
            ("b-rhai".to_owned(), 10),
            ("a-lua".to_owned(), 10),
        ]
    );
    // Outermost first: a-lua(30) → b-rhai(20) → b-rhai(10) → a-lua(10) → vanilla (9).
    // The innermost digit is applied first: ((((9*10+3)*10+4)*10+2)*10+1).
    assert_eq!(exp_gain(&env.rt, 9), (93_421, 1));
}

#[test]
fn next_crosses_languages_with_replaced_arguments_both_ways() {
    let env = load(
        &[],
        vec![
            lua_mod(
                "lua-outer",
                r#"return function(mod)
                    mod.hooks:wrap("exp.gain", function(next, ctx)
                      ctx.level = ctx.level + 10
                      return next(ctx)
                    end, 30)
                    mod.hooks:wrap("exp.gain", function(next, ctx)
                      return next() + ctx.level * 1000
                    end, 10)
                  end"#,
            ),
            rhai_mod(
                "rhai-middle",
                r#"hooks.wrap("exp.gain", 20, |next, ctx| {
                       ctx.level += 100;
                       next.call(ctx) + ctx.level
                   });"#,
            ),
        ],
    );
    env.assert_loaded("lua-outer");
    env.assert_loaded("rhai-middle");
    let seen = std::cell::Cell::new(0u8);
    let out = env.rt.call::<ExpGain>(exp_args(5), |a| {
        seen.set(a.ctx.level);
        7
    });
    // Lua(30) passes level 15 → Rhai(20) passes 115 → Lua(10) sees 115 → vanilla sees 115.
    assert_eq!(seen.get(), 115);
    assert_eq!(out, 7 + 115 * 1000 + 115);
}

fn spin_lua(n: u32) -> String {
    format!("local i = 0 while i < {n} do i = i + 1 end")
}

fn spin_rhai(n: u32) -> String {
    format!("let i = 0; while i < {n} {{ i += 1; }}")
}

#[test]
fn one_budget_covers_a_lua_outer_and_a_rhai_inner_link() {
    // Each link alone stays under the per-dispatch budget; together they do not.
    let lua = format!(
        r#"return function(mod)
            mod.hooks:wrap("exp.gain", function(next) {} local v = next() return v + 1000 end, 10)
          end"#,
        spin_lua(LUA_SPIN)
    );
    let rhai = format!(
        r#"hooks.wrap("exp.gain", 0, |next, ctx| {{ {} next.call() + 1 }});"#,
        spin_rhai(RHAI_SPIN)
    );
    // Alone: each fits.
    let alone = load(&[], vec![lua_mod("outer", &lua)]);
    assert_eq!(exp_gain(&alone.rt, 100), (1100, 1));
    assert!(!alone.lua.last_budget().1, "{:?}", alone.lua.last_budget());
    let alone = load(&[], vec![rhai_mod("inner", &rhai)]);
    assert_eq!(exp_gain(&alone.rt, 100), (101, 1));
    assert!(!alone.rhai.last_budget().1);

    let env = load(&[], vec![lua_mod("outer", &lua), rhai_mod("inner", &rhai)]);
    env.assert_loaded("outer");
    env.assert_loaded("inner");
    let (out, runs) = exp_gain(&env.rt, 100);
    let feed = env.feed();
    assert_eq!(runs, 1, "vanilla runs exactly once");
    // The Rhai link (reached through the Lua link's next) runs out and is skipped; the Lua
    // link then stops as soon as next returns: downstream (vanilla's 100) is kept.
    assert_eq!(out, 100, "{feed:?}");
    assert!(
        feed.iter()
            .any(|l| l.starts_with("[inner] hook exp.gain failed")
                && l.contains("operation budget exhausted")),
        "{feed:?}"
    );
    assert!(
        feed.iter()
            .any(|l| l.starts_with("[outer] hook exp.gain failed after next")
                && l.contains("operation budget exhausted")),
        "{feed:?}"
    );
}

#[test]
fn one_budget_covers_a_rhai_outer_and_a_lua_inner_link() {
    let rhai = format!(
        r#"hooks.wrap("exp.gain", 10, |next, ctx| {{ {} let v = next.call(); v + 1000 }});"#,
        spin_rhai(RHAI_SPIN)
    );
    let lua = format!(
        r#"return function(mod)
            mod.hooks:wrap("exp.gain", function(next) {} return next() + 1 end, 0)
          end"#,
        spin_lua(LUA_SPIN)
    );
    let env = load(&[], vec![rhai_mod("outer", &rhai), lua_mod("inner", &lua)]);
    env.assert_loaded("outer");
    env.assert_loaded("inner");
    let (out, runs) = exp_gain(&env.rt, 100);
    let feed = env.feed();
    assert_eq!(runs, 1);
    assert_eq!(out, 100, "{feed:?}");
    assert!(
        feed.iter()
            .any(|l| l.starts_with("[inner] hook exp.gain failed:")
                && l.contains("operation budget exhausted")),
        "{feed:?}"
    );
    assert!(
        feed.iter()
            .any(|l| l.starts_with("[outer] hook exp.gain failed after next")
                && l.contains("operation budget exhausted")),
        "{feed:?}"
    );
    // The next dispatch starts a fresh budget: the same stop happens again, nothing leaks.
    assert_eq!(exp_gain(&env.rt, 100), (100, 1));
}

#[test]
fn events_emitted_by_a_lua_link_reach_rhai_and_lua_listeners_under_the_same_budget() {
    let env = load(
        &[],
        vec![
            lua_mod(
                "emitter",
                r#"return function(mod)
                    mod.events:on("mod.emitter.tick", function(p) mod.log:info("lua heard %d", p.n) end)
                    mod.hooks:wrap("exp.gain", function(next)
                      local v = next()
                      mod.events:emit("mod.emitter.tick", { n = v })
                      return v
                    end)
                  end"#,
            ),
            rhai_mod(
                "hearer",
                r#"events.on("mod.emitter.tick", |p| log.info(`rhai heard ${p.n}`));"#,
            ),
        ],
    );
    env.assert_loaded("emitter");
    env.assert_loaded("hearer");
    assert_eq!(exp_gain(&env.rt, 42), (42, 1));
    let feed = env.feed();
    assert!(
        feed.contains(&"[emitter] lua heard 42".to_owned()),
        "{feed:?}"
    );
    assert!(
        feed.contains(&"[hearer] rhai heard 42".to_owned()),
        "{feed:?}"
    );
}
