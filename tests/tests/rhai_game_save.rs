//! The save view for Rhai (parity with Lua's `game.save`): `world.game_save()` is the same copy
//! Lua links read (`pallet_engine::game_view`), from the live game at a safe point and from the
//! tick start's copy mid-tick; `world.set_game_save("money", n)` writes at a safe point only,
//! with stable reasons. A Rhai mod and its Lua twin log the same lines.

mod lua_support;

use lua_support::{lua_mod, rhai_mod, run_mods_mem, unprefixed};

const RHAI: &str = r#"
let once = || {
    if save.get("done", false) { return; }
    save.set("done", true);
    let s = world.game_save();
    log.info(`safe point: party ${s.party.len()} ${s.party[0].species} L${s.party[0].level} money ${s.money}`);
    world.set_game_save("money", 1234);
    log.info(`written: money ${world.game_save().money}`);
    for probe in [["coins", 10000], ["party", 1], ["money", 1.5]] {
        try { world.set_game_save(probe[0], probe[1]); } catch (e) { log.info(`refused ${probe[0]}: ${e.code}`); }
    }
};
hooks.wrap("input.step", |next, game, dt| {
    if world.game_save().party.len() > 0 { once.call(); }
    next.call(game, dt)
});
events.on("world.stepped", |p| {
    let s = world.game_save();
    log.info(`mid-tick: party ${s.party.len()} money ${s.money}`);
    try { world.set_game_save("money", 1); } catch (e) { log.info(`refused mid-tick: ${e.code}`); }
});
"#;

const LUA: &str = r#"return function(mod)
  local done = false
  local function refused(field, value, game)
    local ok = pcall(function() game.save[field] = value end)
    return not ok
  end
  mod.hooks:wrap("input.step", function(next, game, dt)
    local s = game.save
    if #s.party > 0 and not done then
      done = true
      mod.log:info("safe point: party %d %s L%d money %d", #s.party, s.party[1].species, s.party[1].level, s.money)
      s.money = 1234
      mod.log:info("written: money %d", game.save.money)
      for _, probe in ipairs({ { "coins", 10000 }, { "party", 1 }, { "money", 1.5 } }) do
        if refused(probe[1], probe[2], game) then mod.log:info("refused %s", probe[1]) end
      end
    end
    return next(game, dt)
  end)
  mod.events:on("world.stepped", function()
    local s = mod.game.save
    mod.log:info("mid-tick: party %d money %d", #s.party, s.money)
  end)
end"#;

fn lines(t: &str) -> Vec<String> {
    unprefixed(&t.lines().map(str::to_owned).collect::<Vec<_>>())
        .into_iter()
        .filter(|l| {
            ["safe point", "written", "refused", "mid-tick"]
                .iter()
                .any(|p| l.starts_with(p))
        })
        .collect()
}

#[test]
fn rhai_reads_the_save_view_and_writes_money_at_a_safe_point() {
    let mut m = rhai_mod("save-view-rhai", RHAI);
    m.manifest = m
        .manifest
        .replace(r#""hooks","#, r#""hooks", "events", "log", "save","#);
    let o = run_mods_mem(vec![m], "give PIDGEY 5\nwalk right 1\n");
    assert_eq!(
        lines(&o.transcript),
        [
            "safe point: party 1 PIDGEY L5 money 3000",
            "written: money 1234",
            "refused coins: bad value",
            "refused party: read-only field",
            "refused money: bad value",
            "mid-tick: party 1 money 1234",
            "refused mid-tick: world is busy",
        ],
        "{}",
        o.transcript
    );
    assert_eq!(o.game.save.money, 1234);
}

#[test]
fn the_lua_twin_reads_the_same_view() {
    let o = run_mods_mem(
        vec![lua_mod("save-view-lua", LUA)],
        "give PIDGEY 5\nwalk right 1\n",
    );
    assert_eq!(
        lines(&o.transcript),
        [
            "safe point: party 1 PIDGEY L5 money 3000",
            "written: money 1234",
            "refused coins",
            "refused party",
            "refused money",
            "mid-tick: party 1 money 1234",
        ],
        "{}",
        o.transcript
    );
    assert_eq!(o.game.save.money, 1234);
}
