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

const BATTLE: &str = r#"return function(mod)
  local slot = nil
  mod.events:on("battle.started", function(payload)
    local cap = mod.checkpoints:inspect(nil)
    mod.log:info("opening %s %s", cap.kind, cap.reason)
  end)
  mod.events:on("mod.cpl.capture", function(payload)
    local cap = mod.checkpoints:inspect(nil)
    mod.log:info("inspect %s %s", cap.kind, tostring(cap.canCapture))
    local code
    slot, code = mod.checkpoints:capture(nil)
    local b = slot.runtime.battle
    mod.log:info("captured %s phase=%s turn=%d enemy=%s tokens=%d", slot.kind, b.phase, b.turn, b.enemy.species, #b.field.tokens)
  end)
  mod.events:on("mod.cpl.restore", function(payload)
    local ok, code, message = mod.checkpoints:restore(nil, slot)
    mod.log:info("restore %s %s %s", tostring(ok), tostring(code), tostring(message))
  end)
end"#;

/// The battle kind through the Lua shim: Lua tables in and out (empty lists, absent optional
/// fields, token data) restore exactly; the opening answers `battle_phase_busy`.
#[test]
fn a_lua_mod_captures_and_restores_a_battle() {
    use pallet_api::Value;
    use pallet_engine::battle::{Action, Token};
    use pallet_engine::checkpoint;
    use pallet_engine::checkpoint::lend::lend;
    use pallet_engine::game::Mode;

    let env = load(&[], vec![lua_mod("cpl", BATTLE)]);
    env.assert_loaded("cpl");
    let mut game = Game::new_game(GameVersion::Red, 4, Rc::clone(&env.rt)).unwrap();
    game.give_pokemon("CHARMANDER", 12).unwrap();
    game.start_wild_battle("RATTATA", 10).unwrap();
    game.battle_field_mut().unwrap().tokens.push(Token {
        id: "mist".into(),
        turns: Some(4),
        data: [
            ("strength".to_owned(), Value::Int(3)),
            ("ratio".to_owned(), Value::Float(0.5)),
        ]
        .into(),
    });
    game.battle_choose(Action::Move(0)).unwrap();
    let signal = |game: &mut Game, name: &str| {
        let rt = Rc::clone(&env.rt);
        lend(game, Some(&env.loader.mod_data), || {
            rt.emit_mod("cpl", &format!("mod.cpl.{name}"), &Value::Nil)
                .unwrap()
        });
    };
    signal(&mut game, "capture");
    let a = checkpoint::capture(&mut game).unwrap();
    for _ in 0..200 {
        if game.mode != Mode::Battle {
            break;
        }
        let pick = game.battle_actions()[0];
        game.battle_choose(pick).unwrap();
    }
    signal(&mut game, "restore");
    let all = env.feed();
    assert_eq!(game.mode, Mode::Battle, "{all:?}");
    assert_eq!(
        checkpoint::capture(&mut game).unwrap(),
        a,
        "restored exactly"
    );
    let lines: Vec<String> = all
        .into_iter()
        .filter_map(|l| l.strip_prefix("[cpl] ").map(str::to_owned))
        .collect();
    assert_eq!(
        lines,
        [
            "opening battle battle_phase_busy",
            "inspect battle true",
            "captured battle phase=menu turn=1 enemy=RATTATA tokens=1",
            "restore true nil nil",
        ]
    );
}
