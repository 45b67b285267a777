//! The Lua engine's battle flow events (issue 17), end to end through a Rhai mod and its Lua
//! twin on the public `Battle` API with a scripted RNG: every payload's fields as each language
//! reads them, and the order relative to the neighbours the Lua engine fires them between
//! (`battle.turn_started` < `battle.move_used` < `battle.damage_dealt` < `battle.fainted` <
//! `battle.exp_gained` < `battle.ended`; `battle.ball_thrown` < `pokemon.caught`).

mod lua_support;
mod rfc0016_support;
mod rfc_support;

use lua_support::{load, lua_mod, rhai_mod, unprefixed, Env};
use pallet_api::Runtime;
use pallet_engine::battle::{Action, BattleKind, BattleResult, Side};
use pallet_engine::data::gen1;
use rfc0016_support::{battle, fast, mon, slow};

const RHAI: &str = r#"
events.on("battle.turn_started", |p| log.info(`turn_started ${p.turn} ${p.battle.kind}`));
events.on("battle.move_used", |p| log.info(`move_used ${p.user.side} ${p.moveId} ${p.move.id} ${p.move.type} called=${p.isCalled}`));
events.on("battle.damage_dealt", |p| log.info(`damage_dealt ${p.attacker.side}->${p.target.side} ${p.amount} hp=${p.target.hp} crit=${p.critical} ${p.moveId} sub=${p.substitute}`));
events.on("battle.status_inflicted", |p| log.info(`status_inflicted ${p.target.side} ${p.status}`));
events.on("battle.battler_switched", |p| log.info(`battler_switched ${p.side} ${p.slot} from=${p.fromSlot} ${p.battler.name}`));
events.on("battle.ball_thrown", |p| log.info(`ball_thrown ${p.ball} caught=${p.caught} shakes=${p.shakes}`));
events.on("battle.exp_gained", |p| log.info(`exp_gained ${p.slot} ${p.amount} ${p.mon.species}`));
events.on("pokemon.move_learned", |p| log.info(`move_learned ${p.mon.species} ${p.moveId} forgot=${p.forgot}`));
events.on("pokemon.level_up", |p| log.info(`level_up ${p.level}`));
events.on("pokemon.caught", |p| log.info(`caught ${p.species}`));
events.on("battle.fainted", |p| log.info(`fainted ${p.battler.side}`));
events.on("battle.ended", |p| log.info(`ended ${p.result}`));
"#;

const LUA: &str = r#"return function(mod)
  local function s(v) if v == nil then return "" end return tostring(v) end
  local ev = mod.events
  ev:on("battle.turn_started", function(p) mod.log:info("turn_started %d %s", p.turn, p.battle.kind) end)
  ev:on("battle.move_used", function(p)
    mod.log:info("move_used %s %s %s %s called=%s", p.user.side, p.moveId, p.move.id, p.move.type, s(p.isCalled))
  end)
  ev:on("battle.damage_dealt", function(p)
    mod.log:info("damage_dealt %s->%s %d hp=%d crit=%s %s sub=%s", p.attacker.side, p.target.side,
      p.amount, p.target.hp, s(p.critical), p.moveId, s(p.substitute))
  end)
  ev:on("battle.status_inflicted", function(p) mod.log:info("status_inflicted %s %s", p.target.side, p.status) end)
  ev:on("battle.battler_switched", function(p)
    mod.log:info("battler_switched %s %d from=%s %s", p.side, p.slot, s(p.fromSlot), p.battler.name)
  end)
  ev:on("battle.ball_thrown", function(p)
    mod.log:info("ball_thrown %s caught=%s shakes=%d", p.ball, s(p.caught), p.shakes)
  end)
  ev:on("battle.exp_gained", function(p) mod.log:info("exp_gained %d %d %s", p.slot, p.amount, p.mon.species) end)
  ev:on("pokemon.move_learned", function(p)
    mod.log:info("move_learned %s %s forgot=%s", p.mon.species, p.moveId, s(p.forgot))
  end)
  ev:on("pokemon.level_up", function(p) mod.log:info("level_up %d", p.level) end)
  ev:on("pokemon.caught", function(p) mod.log:info("caught %s", p.species) end)
  ev:on("battle.fainted", function(p) mod.log:info("fainted %s", p.battler.side) end)
  ev:on("battle.ended", function(p) mod.log:info("ended %s", p.result) end)
end"#;

fn feed(env: &Env) -> Vec<String> {
    unprefixed(&env.feed())
}

/// A knockout: the player's TACKLE faints a 1-HP wild PIDGEY.
fn knockout(rt: &Runtime) {
    let tackle = mon("RATTATA", 20, &["TACKLE"], 80, 100);
    let mut b = battle(
        BattleKind::Wild,
        vec![tackle],
        vec![slow("PIDGEY", 1)],
        &[0xFF, 0xFF, 0],
    );
    b.submit(rt, Action::Move(0), Action::Move(0)).unwrap();
    assert_eq!(b.result(), Some(BattleResult::Win));
}

/// A landing THUNDER_WAVE (the dry scripted RNG yields 0, 1, 2…: every roll passes, and the
/// paralysed RATTATA is fully paralysed on its turn).
fn thunder_wave(rt: &Runtime) {
    let wave = mon("PIKACHU", 20, &["THUNDER_WAVE"], 80, 100);
    let mut b = battle(BattleKind::Wild, vec![wave], vec![slow("RATTATA", 50)], &[]);
    b.submit(rt, Action::Move(0), Action::Move(0)).unwrap();
}

/// A switch to the second party mon.
fn switch(rt: &Runtime) {
    let mut b = battle(
        BattleKind::Wild,
        vec![fast("RATTATA", 80), fast("PIDGEY", 70)],
        vec![slow("CATERPIE", 50)],
        &[],
    );
    b.submit(rt, Action::Switch(1), Action::Move(0)).unwrap();
    assert_eq!(b.side(Side::Player).active, 1);
}

/// A POKé BALL at a wild mon (the dry RNG's 0 catches).
fn ball(rt: &Runtime) {
    let d = gen1();
    let item = d.item_by_name("POKE_BALL").expect("POKE_BALL");
    let mut b = battle(
        BattleKind::Wild,
        vec![fast("RATTATA", 80)],
        vec![slow("CATERPIE", 50)],
        &[],
    );
    b.submit(rt, Action::Item(item), Action::Move(0)).unwrap();
    assert_eq!(b.result(), Some(BattleResult::Caught));
}

/// A level 6 BULBASAUR beats a level 10 PIDGEY, reaches level 7 and learns LEECH_SEED.
fn learn(rt: &Runtime) {
    let mut bulba = mon("BULBASAUR", 6, &["TACKLE"], 80, 100);
    bulba.exp = gen1().species(bulba.species).growth.exp_for_level(6);
    let mut b = battle(
        BattleKind::Wild,
        vec![bulba],
        vec![mon("PIDGEY", 10, &["SPLASH"], 1, 10)],
        &[0xFF, 0xFF, 0],
    );
    b.submit(rt, Action::Move(0), Action::Move(0)).unwrap();
}

fn scenarios(env: &Env) -> Vec<Vec<String>> {
    let rt = &env.rt;
    let mut out = Vec::new();
    for run in [knockout, thunder_wave, switch, ball, learn] {
        run(rt);
        out.push(feed(env));
    }
    out
}

fn expected() -> Vec<Vec<&'static str>> {
    vec![
        vec![
            "turn_started 1 wild",
            "move_used player TACKLE TACKLE NORMAL called=false",
            "damage_dealt player->enemy 1 hp=0 crit=false TACKLE sub=false",
            "fainted enemy",
            "exp_gained 0 78 RATTATA",
            "ended win",
        ],
        vec![
            "turn_started 1 wild",
            "move_used player THUNDER_WAVE THUNDER_WAVE ELECTRIC called=false",
            "status_inflicted enemy PAR",
            // The dry RNG's next byte (0) is below 25 %: the paralysed PIDGEY cannot move.
        ],
        vec![
            "turn_started 1 wild",
            "battler_switched player 1 from=0 PIDGEY",
            "move_used enemy SPLASH SPLASH NORMAL called=false",
        ],
        vec![
            "turn_started 1 wild",
            "ball_thrown POKE_BALL caught=true shakes=3",
            "caught CATERPIE",
            "ended caught",
        ],
        vec![
            "turn_started 1 wild",
            "move_used player TACKLE TACKLE NORMAL called=false",
            "damage_dealt player->enemy 1 hp=0 crit=false TACKLE sub=false",
            "fainted enemy",
            "exp_gained 0 78 BULBASAUR",
            "move_learned BULBASAUR LEECH_SEED forgot=",
            "level_up 7",
            "ended win",
        ],
    ]
}

#[test]
fn rhai_battle_flow_events_carry_their_payloads_in_the_lua_engine_order() {
    let env = load(&[], vec![rhai_mod("flow", RHAI)]);
    env.assert_loaded("flow");
    env.feed();
    assert_eq!(scenarios(&env), expected());
}

#[test]
fn lua_battle_flow_events_carry_their_payloads_in_the_lua_engine_order() {
    let env = load(&[], vec![lua_mod("flow", LUA)]);
    env.assert_loaded("flow");
    env.feed();
    assert_eq!(scenarios(&env), expected());
}

#[test]
fn no_listener_no_change_in_the_battle() {
    // The same battles without a mod leave the same rows and results (sites are observers).
    let rt = Runtime::new();
    for run in [knockout, thunder_wave, switch, ball, learn] {
        run(&rt);
    }
    assert!(rt.drain_diagnostics().is_empty());
}
