//! The Lua engine's rule and flow hooks (issue 17) through a Rhai mod and its Lua twin on the
//! public `Battle` / `Game` API: each link sees its arguments and its answer changes what the
//! engine does (validated: answers the engine cannot honour are refused, vanilla stands).
//! The no-subscriber behaviour (vanilla once, result unchanged, nothing allocated) is
//! `gate_hooks.rs`.

mod lua_support;
mod rfc0016_support;
mod rfc_support;

use std::rc::Rc;

use lua_support::{load, lua_mod, rhai_mod, unprefixed, Env};
use pallet_engine::battle::{Action, BattleKind, BattleResult, NeedsChoice};
use pallet_engine::game::Game;
use pallet_engine::world::{Direction, GameVersion, Input, ScriptRow};
use rfc0016_support::{battle, fast, mon, slow, trainer};

const RHAI: &str = r#"
hooks.wrap("battle.turn_order", |next, player, playerMove, enemy, enemyMove, ctx| {
    log.info(`turn_order ${player.name} ${playerMove.id} ${enemy.name} ${enemyMove.id} turn=${ctx.battle.turn} vanilla=${next.call()}`);
    "enemy"
});
hooks.wrap("battle.run", |next, ctx| {
    log.info(`run ${ctx.battle.kind} attempts=${ctx.attempts} ${ctx.playerSpeed}<${ctx.enemySpeed}`);
    true
});
hooks.wrap("battle.charge_required", |next, battle, ctx| {
    log.info(`charge_required ${ctx.move.id} ${ctx.user.side} vanilla=${next.call()}`);
    false
});
hooks.wrap("battle.enemy_action", |next, battle, ctx| {
    let v = next.call();
    log.info(`enemy_action vanilla=${v.kind}${v.slot} legal=${ctx.legal.len()} ${ctx.moves[0]}`);
    #{ kind: "move", slot: 1 }
});
hooks.wrap("battle.style", |next, battle| {
    log.info(`style vanilla=${next.call()}`);
    "set"
});
hooks.wrap("script.command", |next, ctx, name, args, cmd| {
    log.info(`script.command ${ctx.source} ${name}`);
    if name == "set_flag" && args.flag == "EVENT_SKIPPED" { return (); }
    next.call()
});
hooks.wrap("world.talk", |next, game, ctx| {
    log.info(`world.talk ${ctx.mapId} ${ctx.text}`);
    ()
});
hooks.wrap("movement.speed", |next, frames, ctx| {
    log.info(`movement.speed ${frames} ${ctx.dir} scripted=${ctx.scripted}`);
    4
});
hooks.wrap("trainer.before_battle", |next, game, ctx| {
    log.info(`trainer.before_battle ${ctx.trainerClass} ${ctx.partyIndex} ${ctx.name}`);
    false
});
hooks.wrap("pokemon.give", |next, game, mon, ctx| {
    log.info(`pokemon.give ${mon.species} ${mon.level} party=${ctx.partySize}`);
    if mon.species == "MEW" { return (); }
    if mon.species == "MISSINGNO" { return #{ species: "NOT_A_MON", level: 5 }; }
    #{ species: "PIKACHU", level: 7 }
});
"#;

const LUA: &str = r#"return function(mod)
  local h, log = mod.hooks, mod.log
  h:wrap("battle.turn_order", function(next, player, playerMove, enemy, enemyMove, ctx)
    log:info("turn_order %s %s %s %s turn=%d vanilla=%s", player.name, playerMove.id, enemy.name,
      enemyMove.id, ctx.battle.turn, next())
    return "enemy"
  end)
  h:wrap("battle.run", function(next, ctx)
    log:info("run %s attempts=%d %d<%d", ctx.battle.kind, ctx.attempts, ctx.playerSpeed, ctx.enemySpeed)
    return true
  end)
  h:wrap("battle.charge_required", function(next, battle, ctx)
    log:info("charge_required %s %s vanilla=%s", ctx.move.id, ctx.user.side, tostring(next()))
    return false
  end)
  h:wrap("battle.enemy_action", function(next, battle, ctx)
    local v = next()
    log:info("enemy_action vanilla=%s%d legal=%d %s", v.kind, v.slot, #ctx.legal, ctx.moves[1])
    return { kind = "move", slot = 1 }
  end)
  h:wrap("battle.style", function(next, battle)
    log:info("style vanilla=%s", next())
    return "set"
  end)
  h:wrap("script.command", function(next, ctx, name, args, cmd)
    log:info("script.command %s %s", ctx.source, name)
    if name == "set_flag" and args.flag == "EVENT_SKIPPED" then return nil end
    return next()
  end)
  h:wrap("world.talk", function(next, game, ctx)
    log:info("world.talk %s %s", ctx.mapId, ctx.text)
  end)
  h:wrap("movement.speed", function(next, frames, ctx)
    log:info("movement.speed %d %s scripted=%s", frames, ctx.dir, tostring(ctx.scripted))
    return 4
  end)
  h:wrap("trainer.before_battle", function(next, game, ctx)
    log:info("trainer.before_battle %s %d %s", ctx.trainerClass, ctx.partyIndex, ctx.name)
    return false
  end)
  h:wrap("pokemon.give", function(next, game, mon, ctx)
    log:info("pokemon.give %s %d party=%d", mon.species, mon.level, ctx.partySize)
    if mon.species == "MEW" then return nil end
    if mon.species == "MISSINGNO" then return { species = "NOT_A_MON", level = 5 } end
    return { species = "PIKACHU", level = 7 }
  end)
end"#;

fn feed(env: &Env) -> Vec<String> {
    unprefixed(&env.feed())
}

fn battle_part(env: &Env) -> Vec<Vec<String>> {
    let rt = &env.rt;
    let mut out = Vec::new();
    // battle.turn_order: the slower enemy moves first (TACKLE faints the 1-HP RATTATA first?
    // no: the enemy's SPLASH goes first, then the player's TACKLE).
    let mut b = battle(
        BattleKind::Wild,
        vec![mon("PIDGEY", 20, &["TACKLE"], 80, 100)],
        vec![mon("RATTATA", 10, &["SPLASH"], 1, 10)],
        &[0xFF, 0xFF, 0],
    );
    b.submit(rt, Action::Move(0), Action::Move(0)).unwrap();
    let rows = rfc0016_support::drain(&mut b);
    let splash = rows.iter().position(|r| r.contains("used SPLASH"));
    let tackle = rows.iter().position(|r| r.contains("used TACKLE"));
    assert!(splash < tackle, "{rows:?}");
    out.push(feed(env));
    // battle.run: a slow player escapes.
    let mut b = battle(
        BattleKind::Wild,
        vec![slow("RATTATA", 80)],
        vec![fast("PIDGEY", 50)],
        &[],
    );
    b.submit(rt, Action::Run, Action::Move(0)).unwrap();
    assert_eq!(b.result(), Some(BattleResult::Ran));
    out.push(feed(env));
    // battle.charge_required: SOLAR_BEAM hits on the turn it is chosen.
    let mut b = battle(
        BattleKind::Wild,
        vec![mon("BULBASAUR", 30, &["SOLAR_BEAM"], 80, 100)],
        vec![slow("RATTATA", 50)],
        &[0xFF, 0xFF, 0],
    );
    b.submit(rt, Action::Move(0), Action::Move(0)).unwrap();
    assert!(
        b.party(pallet_engine::battle::Side::Enemy)[0].hp < 50,
        "hit at once"
    );
    out.push(feed(env));
    // battle.enemy_action: slot 1 is legal for a two-move enemy, refused for a one-move one.
    let mut b = battle(
        BattleKind::Wild,
        vec![fast("RATTATA", 80)],
        vec![mon("PIDGEY", 10, &["SPLASH", "TACKLE"], 50, 10)],
        &[0],
    );
    assert_eq!(b.select_enemy_action(rt), Action::Move(1));
    let mut b = battle(
        BattleKind::Wild,
        vec![fast("RATTATA", 80)],
        vec![slow("PIDGEY", 50)],
        &[0],
    );
    assert_eq!(b.select_enemy_action(rt), Action::Move(0));
    out.push(feed(env));
    // battle.style: "set" — no SHIFT prompt when the trainer sends its next mon.
    let mut b = battle(
        trainer(),
        vec![mon("RATTATA", 20, &["TACKLE"], 80, 100), fast("PIDGEY", 80)],
        vec![slow("CATERPIE", 1), slow("WEEDLE", 40)],
        &[0xFF, 0xFF, 0],
    );
    b.submit(rt, Action::Move(0), Action::Move(0)).unwrap();
    b.submit(rt, Action::Continue, Action::Switch(1)).unwrap();
    assert_eq!(b.needs_choice(), NeedsChoice::Round);
    let mut lines = feed(env);
    lines.retain(|l| !l.starts_with("turn_order"));
    out.push(lines);
    out
}

fn settle(game: &mut Game) {
    for _ in 0..2_000 {
        if game.busy().is_none() {
            return;
        }
        game.step(Input::A);
    }
    panic!("never idle");
}

fn game_part(env: &Env) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut game = Game::new_game(GameVersion::Red, 3, Rc::clone(&env.rt)).unwrap();
    env.feed();
    // script.command: a skipped row never runs.
    let rows = vec![
        ScriptRow::SetFlag {
            flag: "EVENT_SKIPPED".into(),
        },
        ScriptRow::SetFlag {
            flag: "EVENT_KEPT".into(),
        },
        ScriptRow::Warp {
            map: "VERMILION_CITY".into(),
            x: 16,
            y: 11,
            facing: Direction::Up,
        },
    ];
    game.queue_script("probe", rows).unwrap();
    settle(&mut game);
    assert!(!game.flag("EVENT_SKIPPED") && game.flag("EVENT_KEPT"));
    out.push(feed(env));
    // world.talk: the link replaces the sign's text (no text box opens).
    game.step(Input::A);
    assert!(game.busy().is_none(), "no text box: {:?}", game.busy());
    out.push(feed(env));
    // movement.speed: a 4-tick step.
    game.step(Input::Down);
    game.step(Input::Down);
    for _ in 0..3 {
        game.step(Input::None);
    }
    let ow = game.overworld().unwrap();
    assert_eq!(
        (ow.player().x, ow.player().y),
        (16, 12),
        "arrived after 4 ticks"
    );
    out.push(feed(env));
    // trainer.before_battle: false skips the battle.
    game.start_trainer_battle("BUG_CATCHER", 0).unwrap();
    assert!(game.battle().is_none());
    out.push(feed(env));
    // pokemon.give: replaced, cancelled, and an unknown species refused.
    game.give_pokemon("MAGIKARP", 5).unwrap();
    game.give_pokemon("MEW", 5).unwrap();
    assert!(game.give_pokemon("MISSINGNO", 5).is_err());
    let party: Vec<(String, i64)> = game
        .save
        .party
        .iter()
        .map(|m| (m.species.clone(), m.level))
        .collect();
    // MAGIKARP became PIKACHU L7, MEW was cancelled, and the refused NOT_A_MON left the
    // original gift: MISSINGNO is not a species either, so that gift fails as before.
    assert_eq!(party, [("PIKACHU".to_owned(), 7)]);
    out.push(feed(env));
    out
}

fn expected_battle() -> Vec<Vec<&'static str>> {
    vec![
        vec!["turn_order PIDGEY TACKLE RATTATA SPLASH turn=1 vanilla=player"],
        vec!["run wild attempts=1 10<100"],
        vec!["turn_order BULBASAUR SOLARBEAM RATTATA SPLASH turn=1 vanilla=player",
            "charge_required SOLARBEAM player vanilla=true",],
        vec![
            "enemy_action vanilla=move0 legal=2 SPLASH",
            "enemy_action vanilla=move0 legal=1 SPLASH",
            "battle.enemy_action: refused move 1 (not a legal enemy action); the cartridge's choice stands",
        ],
        vec!["style vanilla=shift"],
    ]
}

fn expected_game() -> Vec<Vec<&'static str>> {
    vec![
        vec![
            "script.command probe set_flag",
            "script.command probe set_flag",
            "script.command probe warp",
        ],
        vec!["world.talk VERMILION_CITY _VermilionCitySignText"],
        vec!["movement.speed 8 down scripted=false"],
        vec!["trainer.before_battle OPP_BUG_CATCHER 1 BUG CATCHER"],
        vec![
            "pokemon.give MAGIKARP 5 party=0",
            "pokemon.give MEW 5 party=1",
            "pokemon.give MISSINGNO 5 party=1",
            "pokemon.give: refused unknown species \"NOT_A_MON\"; the gift of MISSINGNO stands",
        ],
    ]
}

#[test]
fn rhai_hooks_see_their_arguments_and_change_the_engine() {
    let env = load(&[], vec![rhai_mod("rules", RHAI)]);
    env.assert_loaded("rules");
    env.feed();
    assert_eq!(battle_part(&env), expected_battle());
    assert_eq!(game_part(&env), expected_game());
}

#[test]
fn lua_hooks_see_their_arguments_and_change_the_engine() {
    let env = load(&[], vec![lua_mod("rules", LUA)]);
    env.assert_loaded("rules");
    env.feed();
    assert_eq!(battle_part(&env), expected_battle());
    assert_eq!(game_part(&env), expected_game());
}

/// `core.update`: once per tick; a link that does not call `next` holds the game still.
fn frozen(env: &Env) {
    let mut game = Game::new_game(GameVersion::Red, 3, Rc::clone(&env.rt)).unwrap();
    env.feed();
    let before = {
        let ow = game.overworld().unwrap();
        (ow.player().x, ow.player().y, ow.player().facing)
    };
    for _ in 0..3 {
        game.step(Input::Left);
    }
    let ow = game.overworld().unwrap();
    assert_eq!((ow.player().x, ow.player().y, ow.player().facing), before);
    assert_eq!(
        feed(env),
        [
            "core.update dt=1/60",
            "core.update dt=1/60",
            "core.update dt=1/60"
        ]
    );
}

#[test]
fn core_update_runs_once_per_tick_and_may_hold_the_game() {
    let rhai = rhai_mod(
        "freeze",
        r#"hooks.wrap("core.update", |next, game, dt| {
    let s = if dt == 1.0 / 60.0 { "1/60" } else { `${dt}` };
    log.info(`core.update dt=${s}`);
});"#,
    );
    let env = load(&[], vec![rhai]);
    env.assert_loaded("freeze");
    frozen(&env);
    let lua = lua_mod(
        "freeze",
        r#"return function(mod)
  mod.hooks:wrap("core.update", function(next, game, dt)
    mod.log:info("core.update dt=%s", dt == 1 / 60 and "1/60" or tostring(dt))
  end)
end"#,
    );
    let env = load(&[], vec![lua]);
    env.assert_loaded("freeze");
    frozen(&env);
}
