//! The safe-point budget (issue 18: a save-state mod serialising a full party at `input.step`
//! spends ~540 000 units): a dispatch that starts where the engine lends the game
//! (`input.step`, `core.update`, `game.ready`, a signal) may spend `SAFE_POINT_LIMIT`
//! (2 000 000) units; one that starts mid-tick (`world.stepped` here) keeps `DISPATCH_LIMIT`
//! (500 000). The same work (about 800 000 units: 400 000 Lua loop iterations, 200 000 Rhai
//! ones) passes at the safe point and is stopped mid-tick, in Lua and Rhai.

mod lua_support;

use lua_support::{lua_mod, rhai_mod, run_mods_mem};
use pallet_api::budget::{DISPATCH_LIMIT, SAFE_POINT_LIMIT};

const LUA: &str = r#"return function(mod)
  local function spend()
    local x = 0
    for i = 1, 400000 do x = x + i end
    return x
  end
  mod.hooks:wrap("input.step", function(next, game, dt)
    if spend() > 0 then mod.log:info("input.step spent") end
    return next(game, dt)
  end)
  mod.events:on("world.stepped", function()
    spend()
    mod.log:info("world.stepped spent")
  end)
end"#;

const RHAI: &str = r#"
let spend = || { let x = 0; for i in 0..200000 { x += i; } x };
hooks.wrap("input.step", |next, game, dt| {
    if spend.call() > 0 { log.info("input.step spent"); }
    next.call(game, dt)
});
events.on("world.stepped", |p| {
    spend.call();
    log.info("world.stepped spent");
});
"#;

fn check(t: &str) {
    assert!(
        t.contains("input.step spent"),
        "the safe point's dispatch ran:\n{t}"
    );
    assert!(
        !t.contains("hook input.step failed"),
        "the safe point's dispatch was not stopped:\n{t}"
    );
    assert!(
        !t.contains("world.stepped spent"),
        "the mid-tick listener was stopped:\n{t}"
    );
    assert!(t.contains("operation budget exhausted"), "{t}");
}

#[test]
fn lua_work_that_fits_a_safe_point_is_stopped_mid_tick() {
    const { assert!(SAFE_POINT_LIMIT > DISPATCH_LIMIT) };
    let o = run_mods_mem(vec![lua_mod("spender-lua", LUA)], "walk right 1\n");
    check(&o.transcript);
}

#[test]
fn rhai_work_that_fits_a_safe_point_is_stopped_mid_tick() {
    let mut m = rhai_mod("spender-rhai", RHAI);
    m.manifest = m
        .manifest
        .replace(r#""hooks","#, r#""hooks", "events", "log","#);
    let o = run_mods_mem(vec![m], "walk right 1\n");
    check(&o.transcript);
}
