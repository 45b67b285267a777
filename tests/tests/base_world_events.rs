//! The Lua engine's overworld and game events (issue 17), end to end through a Rhai mod and
//! its Lua twin on the public `Game` API: `script.started`/`script.ended`, `flag.changed`,
//! `sound.played`, `music.started`/`music.stopped`, `map.exited` < `player.warped` <
//! `map.entered`, `world.interacted` (before the text opens), `pokemon.before_give` <
//! `pokemon.received`, `world.trainer_engaged` < `battle.started`, and `battle.ended` <
//! `world.blacked_out` < the blackout warp.

mod lua_support;

use std::rc::Rc;

use lua_support::{load, lua_mod, rhai_mod, unprefixed, Env};
use pallet_engine::battle::Action;
use pallet_engine::game::Game;
use pallet_engine::world::{Direction, GameVersion, Input, ScriptRow};

const RHAI: &str = r#"
events.on("script.started", |p| log.info(`script.started ${p.ctx.source} ${p.ctx.mapId}`));
events.on("script.ended", |p| log.info(`script.ended ${p.ctx.source} ${p.ctx.mapId} completed=${p.completed}`));
events.on("flag.changed", |p| log.info(`flag.changed ${p.name} ${p.value}`));
events.on("sound.played", |p| log.info(`sound.played ${p.id} ${p.mapId}`));
events.on("music.started", |p| log.info(`music.started ${p.id} ${p.mapId}`));
events.on("music.stopped", |p| log.info(`music.stopped ${p.mapId}`));
events.on("map.exited", |p| log.info(`map.exited ${p.mapId} ${p.toMapId}`));
events.on("player.warped", |p| log.info(`player.warped ${p.fromMapId} ${p.mapId} ${p.x} ${p.y} ${p.facing}`));
events.on("map.entered", |p| log.info(`map.entered ${p.mapId} ${p.via}`));
events.on("world.interacted", |p| log.info(`world.interacted ${p.mapId} ${p.x} ${p.y} ${p.kind} ${p.text}`));
events.on("pokemon.before_give", |p| log.info(`pokemon.before_give ${p.species} ${p.level} ${p.mon.species}`));
events.on("pokemon.received", |p| log.info(`pokemon.received ${p.mon.species} ${p.from} ${p.destination}`));
events.on("world.trainer_engaged", |p| log.info(`world.trainer_engaged ${p.mapId} ${p.trainerClass} ${p.partyIndex} ${p.name}`));
events.on("battle.started", |p| log.info(`battle.started ${p.kind}`));
events.on("battle.ended", |p| log.info(`battle.ended ${p.result}`));
events.on("world.blacked_out", |p| log.info(`world.blacked_out ${p.healTarget.mapId} ${p.healTarget.x} ${p.healTarget.y} money=${p.save.money}`));
"#;

const LUA: &str = r#"return function(mod)
  local ev, log = mod.events, mod.log
  ev:on("script.started", function(p) log:info("script.started %s %s", p.ctx.source, p.ctx.mapId) end)
  ev:on("script.ended", function(p)
    log:info("script.ended %s %s completed=%s", p.ctx.source, p.ctx.mapId, tostring(p.completed))
  end)
  ev:on("flag.changed", function(p) log:info("flag.changed %s %s", p.name, tostring(p.value)) end)
  ev:on("sound.played", function(p) log:info("sound.played %s %s", p.id, p.mapId) end)
  ev:on("music.started", function(p) log:info("music.started %s %s", p.id, p.mapId) end)
  ev:on("music.stopped", function(p) log:info("music.stopped %s", p.mapId) end)
  ev:on("map.exited", function(p) log:info("map.exited %s %s", p.mapId, p.toMapId) end)
  ev:on("player.warped", function(p)
    log:info("player.warped %s %s %d %d %s", p.fromMapId, p.mapId, p.x, p.y, p.facing)
  end)
  ev:on("map.entered", function(p) log:info("map.entered %s %s", p.mapId, p.via) end)
  ev:on("world.interacted", function(p)
    log:info("world.interacted %s %d %d %s %s", p.mapId, p.x, p.y, p.kind, p.text)
  end)
  ev:on("pokemon.before_give", function(p)
    log:info("pokemon.before_give %s %d %s", p.species, p.level, p.mon.species)
  end)
  ev:on("pokemon.received", function(p)
    log:info("pokemon.received %s %s %s", p.mon.species, p.from, p.destination)
  end)
  ev:on("world.trainer_engaged", function(p)
    log:info("world.trainer_engaged %s %s %d %s", p.mapId, p.trainerClass, p.partyIndex, p.name)
  end)
  ev:on("battle.started", function(p) log:info("battle.started %s", p.kind) end)
  ev:on("battle.ended", function(p) log:info("battle.ended %s", p.result) end)
  ev:on("world.blacked_out", function(p)
    log:info("world.blacked_out %s %d %d money=%d", p.healTarget.mapId, p.healTarget.x, p.healTarget.y, p.save.money)
  end)
end"#;

fn settle(game: &mut Game, input: Input) {
    for _ in 0..2_000 {
        if game.busy().is_none() {
            return;
        }
        game.step(input);
    }
    panic!("never idle: {:?}", game.busy());
}

fn fight_out(game: &mut Game) {
    for _ in 0..500 {
        if game.battle().is_none() {
            return;
        }
        let legal = game.battle_actions();
        let pick = legal
            .iter()
            .copied()
            .find(|a| matches!(a, Action::Move(_) | Action::Struggle | Action::Continue))
            .or_else(|| legal.first().copied())
            .expect("an action");
        game.battle_choose(pick).expect("legal");
    }
    panic!("the battle did not end");
}

fn scenario(env: &Env) -> Vec<Vec<String>> {
    let mut game = Game::new_game(GameVersion::Red, 3, Rc::clone(&env.rt)).unwrap();
    env.feed();
    let mut out = Vec::new();
    let rows = vec![
        ScriptRow::SetFlag {
            flag: "EVENT_PROBE".into(),
        },
        ScriptRow::SetFlag {
            flag: "EVENT_PROBE".into(),
        },
        ScriptRow::PlaySound {
            sound: "SFX_PURCHASE".into(),
        },
        ScriptRow::PlayMusic {
            music: "Music_Test".into(),
        },
        ScriptRow::StopMusic,
        ScriptRow::ClearFlag {
            flag: "EVENT_PROBE".into(),
        },
        ScriptRow::Warp {
            map: "VERMILION_CITY".into(),
            x: 16,
            y: 11,
            facing: Direction::Up,
        },
    ];
    game.queue_script("probe", rows).unwrap();
    settle(&mut game, Input::None);
    out.push(unprefixed(&env.feed()));
    // Facing the city sign: A reads it.
    game.step(Input::A);
    out.push(unprefixed(&env.feed()));
    settle(&mut game, Input::A);
    env.feed();
    game.give_pokemon("MAGIKARP", 5).unwrap();
    out.push(unprefixed(&env.feed()));
    // A level 5 MAGIKARP knows only SPLASH: it loses and blacks out.
    game.start_trainer_battle("BUG_CATCHER", 0).unwrap();
    fight_out(&mut game);
    let mut lines = unprefixed(&env.feed());
    lines.retain(|l| !l.starts_with("music."));
    out.push(lines);
    out
}

fn expected() -> Vec<Vec<&'static str>> {
    vec![
        vec![
            "script.started probe REDS_HOUSE_1F",
            "flag.changed EVENT_PROBE true",
            "sound.played SFX_PURCHASE REDS_HOUSE_1F",
            "music.started Music_Test REDS_HOUSE_1F",
            "music.stopped REDS_HOUSE_1F",
            "flag.changed EVENT_PROBE false",
            "map.exited REDS_HOUSE_1F VERMILION_CITY",
            "player.warped REDS_HOUSE_1F VERMILION_CITY 16 11 up",
            "music.started Music_Vermilion VERMILION_CITY",
            "map.entered VERMILION_CITY warp",
            "script.ended probe VERMILION_CITY completed=true",
        ],
        vec!["world.interacted VERMILION_CITY 16 10 sign _VermilionCitySignText"],
        vec![
            "pokemon.before_give MAGIKARP 5 MAGIKARP",
            "pokemon.received MAGIKARP gift party",
        ],
        vec![
            "world.trainer_engaged VERMILION_CITY OPP_BUG_CATCHER 1 BUG CATCHER",
            "battle.started trainer",
            "battle.ended lose",
            // A new game's heal point is its spawn; the warp itself starts on the next tick.
            "world.blacked_out REDS_HOUSE_1F 3 4 money=1500",
        ],
    ]
}

#[test]
fn rhai_world_events_carry_their_payloads_in_the_lua_engine_order() {
    let env = load(&[], vec![rhai_mod("probe_mod", RHAI)]);
    env.assert_loaded("probe_mod");
    assert_eq!(scenario(&env), expected());
}

#[test]
fn lua_world_events_carry_their_payloads_in_the_lua_engine_order() {
    let env = load(&[], vec![lua_mod("probe_mod", LUA)]);
    env.assert_loaded("probe_mod");
    assert_eq!(scenario(&env), expected());
}
