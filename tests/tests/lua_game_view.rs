//! The `game` a Lua link reads (legacy-lua-mods.md §4), through the adaptive-trainers shape
//! fixture: it keeps `ev.game` from `game.ready` and, inside `trainer.party` (mid-tick: a
//! script's trainer battle), reads the player's party from `game.save` and species from
//! `game.data`, lifts a weak roster toward the player's strongest mon, and finds the save
//! read-only. `mod.game` reads the same view; an unread `game` builds nothing.

mod lua_support;

use std::rc::Rc;

use lua_support::*;
use pallet_api::Value;
use pallet_engine::battle::Side;
use pallet_engine::content::base::content_for;
use pallet_engine::game::{Game, Mode};
use pallet_engine::world::{GameVersion, Input, ScriptRow};

const ID: &str = "shape-adaptive-trainers";

fn env() -> Env {
    pallet_engine::game_view::clear();
    let env = load_with(
        &[lua_fixture(ID)],
        vec![],
        Setup {
            content: content_for(GameVersion::Red),
            options: Vec::new(),
        },
    );
    env.assert_loaded(ID);
    env
}

/// A new game with `mon` at `level`, then BUG CATCHER 0's battle from a script (inside a
/// tick). Returns the enemy party's levels and the mod's log.
fn fight(env: &Env, mon: &str, level: u8) -> (Vec<u8>, Vec<String>) {
    let mut game = Game::new_game(GameVersion::Red, 3, Rc::clone(&env.rt)).unwrap();
    game.give_pokemon(mon, level).unwrap();
    game.step(Input::None);
    game.queue_script(
        "probe",
        vec![ScriptRow::StartBattle {
            class: "BUG_CATCHER".into(),
            index: 0,
        }],
    )
    .unwrap();
    for _ in 0..50 {
        if game.mode == Mode::Battle {
            break;
        }
        game.step(Input::A);
    }
    assert_eq!(game.mode, Mode::Battle, "{:?}", game.feed());
    let levels = game
        .battle()
        .unwrap()
        .party(Side::Enemy)
        .iter()
        .map(|m| m.level)
        .collect();
    (levels, unprefixed(&env.feed()))
}

#[test]
fn adaptive_trainers_shape_lifts_a_weak_roster_from_the_live_save() {
    let env = env();
    let (levels, log) = fight(&env, "CHARMANDER", 30);
    assert_eq!(levels, [27, 27], "{log:?}");
    assert_eq!(
        log,
        [
            "bound game: version red, 0 in party",
            "OPP_BUG_CATCHER #1 on REDS_HOUSE_1F (player's best L30, money 3000): \
             WEEDLE L6, CATERPIE L7 -> WEEDLE L27, CATERPIE L27",
            "write refused: game.save is read-only mid-tick in Pallet: cannot set game.save.money here; it can be set only at a safe point ",
        ]
    );
    let kept = env.loader.mod_data.to_value();
    let last = kept.get(ID).and_then(|b| b.get("lastAdapted")).unwrap();
    assert_eq!(last.get("class"), Some(&Value::from("OPP_BUG_CATCHER")));
    // A player no stronger than the roster: the cartridge's levels stand.
    let (levels, log) = fight(&env, "RATTATA", 5);
    assert_eq!(levels, [6, 7], "{log:?}");
}

#[test]
fn mod_game_reads_the_same_view_and_refuses_writes() {
    pallet_engine::game_view::clear();
    let probe = lua_mod(
        "probe",
        r#"return function(mod)
  mod.events:on("game.ready", function(ev)
    local s = mod.game.save
    mod.log:info("mod.game: %s money=%d player=%s@%s flags.EVENT_X=%s", s.version, s.money,
      s.player.name, s.player.map, tostring(s.flags.EVENT_X))
    mod.log:info("data: %s %s", tostring(mod.game.data.pokemon ~= nil), tostring(mod.game.data.nothing_here))
    mod.log:info("ev.game.version=%s", tostring(ev.game.version))
    local ok, err = pcall(function() mod.game.save = {} end)
    mod.log:info("game write: %s", tostring(err):match("game is read%-only[^(]*"))
    ok, err = pcall(function() mod.game.data.pokemon = {} end)
    mod.log:info("data write: %s", tostring(err):match("game%.data is read%-only[^(]*"))
    mod.log:info("metatable: %s", tostring(getmetatable(mod.game)))
  end)
end"#,
    );
    let env = load_with(
        &[],
        vec![probe],
        Setup {
            content: content_for(GameVersion::Red),
            options: Vec::new(),
        },
    );
    env.assert_loaded("probe");
    let _game = Game::new_game(GameVersion::Red, 3, Rc::clone(&env.rt)).unwrap();
    assert_eq!(
        unprefixed(&env.feed()),
        [
            "mod.game: red money=3000 player=RED@REDS_HOUSE_1F flags.EVENT_X=nil",
            "data: true nil",
            "ev.game.version=red",
            "game write: game is read-only in Pallet: cannot set game.save ",
            "data write: game.data is read-only in Pallet: cannot set game.data.pokemon ",
            "metatable: false",
        ]
    );
}

/// A hook's own `game` argument reads the view too: live in `core.update` (a safe point),
/// the tick start's copy in `trainer.before_battle` (mid-tick).
#[test]
fn a_hooks_game_argument_reads_the_save() {
    pallet_engine::game_view::clear();
    let probe = lua_mod(
        "probe",
        r#"return function(mod)
  local told = false
  mod.hooks:wrap("core.update", function(next, game, dt)
    if not told then
      told = true
      mod.log:info("core.update: %s party=%d", game.save.version, #game.save.party)
    end
    return next(game, dt)
  end)
  mod.hooks:wrap("trainer.before_battle", function(next, live, ctx)
    local best = 0
    for _, mon in ipairs(live.save.party) do best = math.max(best, mon.level) end
    mod.log:info("before_battle %s: best L%d, map %s", ctx.trainerClass, best, live.mapId)
    return next(live, ctx)
  end)
end"#,
    );
    let env = load(&[], vec![probe]);
    env.assert_loaded("probe");
    let (levels, log) = fight(&env, "PIDGEY", 12);
    assert_eq!(levels, [6, 7]);
    assert_eq!(
        log,
        [
            "core.update: red party=1",
            "before_battle OPP_BUG_CATCHER: best L12, map REDS_HOUSE_1F",
        ]
    );
}

/// A wrapper that reads `game` only through constant keys (`game.save.money`) gets the
/// argument filtered to those paths (`crate::reads`); the view still answers `save`.
#[test]
fn a_filtered_game_argument_still_reads_the_save() {
    pallet_engine::game_view::clear();
    let probe = lua_mod(
        "probe",
        r#"return function(mod)
  local told = false
  mod.hooks:wrap("core.update", function(next, game, dt)
    if not told then
      told = true
      mod.log:info("money=%s version=%s", tostring(game.save.money), tostring(game.version))
    end
    return next()
  end)
end"#,
    );
    let env = load(&[], vec![probe]);
    env.assert_loaded("probe");
    let mut game = Game::new_game(GameVersion::Red, 3, Rc::clone(&env.rt)).unwrap();
    env.feed();
    game.step(Input::None);
    assert_eq!(unprefixed(&env.feed()), ["money=3000 version=red"]);
}
