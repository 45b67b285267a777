//! RFC 0004 through a legacy Lua mod: `mod.checkpoints:inspect/capture/restore(game, …)` with
//! the Lua returns (capability table; checkpoint or `nil, code, message`; `true` or
//! `false, code, message`), against the game the engine lends at `game.ready`.

mod lua_support;

use std::rc::Rc;

use lua_support::*;
use pallet_engine::checkpoint::lend::{attach_mod_data, game_is_lent};
use pallet_engine::game::Game;
use pallet_engine::world::GameVersion;

const MAIN: &str = r#"return function(mod)
  mod.events:on("game.ready", function(payload)
    local game = payload.game
    local cap = mod.checkpoints:inspect(game)
    mod.log:info("inspect %s %s %s", cap.kind, tostring(cap.canCapture), tostring(cap.canRestore))
    mod.save:set("visits", 1)
    local cp, code, message = mod.checkpoints:capture(game)
    mod.log:info("captured format=%d kind=%s map=%s", cp.format, cp.kind, cp.runtime.overworld.map)
    mod.save:set("visits", 2)
    local forged = mod.checkpoints:capture(game)
    forged.identity.playthroughId = "someone-else"
    local ok, code2, message2 = mod.checkpoints:restore(game, forged)
    mod.log:info("forged %s %s %s", tostring(ok), code2, tostring(type(message2) == "string"))
    local ok3, code3 = mod.checkpoints:restore(game, { format = 99 })
    mod.log:info("bad %s %s", tostring(ok3), code3)
    local ok4 = mod.checkpoints:restore(game, cp)
    mod.log:info("restore %s visits=%d", tostring(ok4), mod.save:get("visits"))
  end)
  mod.hooks:wrap("exp.gain", function(next, ctx)
    local cp, code = mod.checkpoints:capture(nil)
    local cap = mod.checkpoints:inspect(nil)
    mod.log:info("mid-dispatch %s %s %s", tostring(cp), code, cap.reason)
    return next()
  end)
end"#;

#[test]
fn a_lua_mod_inspects_captures_rejects_and_restores() {
    let env = load(&[], vec![lua_mod("cp", MAIN)]);
    env.assert_loaded("cp");
    attach_mod_data(Some(env.loader.mod_data.clone()));
    let game = Game::new_game(GameVersion::Red, 4, Rc::clone(&env.rt)).unwrap();
    attach_mod_data(None);
    let start = game.overworld().unwrap().map_id().to_owned();
    let lines: Vec<String> = env
        .feed()
        .into_iter()
        .filter_map(|l| l.strip_prefix("[cp] ").map(str::to_owned))
        .collect();
    assert_eq!(
        lines,
        [
            "inspect overworld true true".to_owned(),
            format!("captured format=1 kind=overworld map={start}"),
            "forged false wrong_playthrough true".to_owned(),
            "bad false unsupported_format".to_owned(),
            "restore true visits=1".to_owned(),
        ]
    );
    // Mid-dispatch (no safe point): nothing is lent, the mod gets `script_busy`.
    exp_gain(&env.rt, 10);
    assert!(!game_is_lent());
    assert!(env
        .feed()
        .contains(&"[cp] mid-dispatch nil script_busy script_busy".to_owned()),);
}
