//! `encounter.species` (issue 17) through a Rhai mod and its Lua twin on a real grass step:
//! the link sees the rolled species with `ctx.mapId`/`ctx.level` and replaces it (the wild
//! battle is against the answer); an answer naming no species is refused and the roll stands.
//! `encounter.roll` is pinned by the same mod so the step always meets something; which
//! species it pins is chosen by a flag the link reads mid-tick through `world.get_flag`.

mod lua_support;
#[path = "common/overworld.rs"]
mod overworld;

use std::rc::Rc;

use lua_support::{load, lua_mod, rhai_mod, unprefixed, Env};
use overworld::{below_grass, settle};
use pallet_engine::game::{Game, Mode};
use pallet_engine::world::{Direction, GameVersion, Input, ScriptRow};

const RHAI: &str = r#"
hooks.wrap("encounter.roll", |next, enc, ctx| {
    if world.get_flag("EVENT_SECOND") { #{ species: "RATTATA", level: 4 } } else { #{ species: "PIDGEY", level: 3 } }
});
hooks.wrap("encounter.species", |next, species, ctx| {
    let out = if species == "PIDGEY" { "MEW" } else { "NOT_A_MON" };
    log.info(`encounter.species ${species} L${ctx.level} on ${ctx.mapId} -> ${out}`);
    out
});
"#;

const LUA: &str = r#"return function(mod)
  mod.hooks:wrap("encounter.roll", function(next, enc, ctx)
    if mod.world:getFlag("EVENT_SECOND") then return { species = "RATTATA", level = 4 } end
    return { species = "PIDGEY", level = 3 }
  end)
  mod.hooks:wrap("encounter.species", function(next, species, ctx)
    local out = species == "PIDGEY" and "MEW" or "NOT_A_MON"
    mod.log:info("encounter.species %s L%d on %s -> %s", species, ctx.level, ctx.mapId, out)
    return out
  end)
end"#;

/// One grass step north on ROUTE_1 (with `second` set or not): the wild encounter row and
/// the mod's log.
fn step_into_grass(env: &Env, second: bool) -> (String, Vec<String>) {
    let mut game = Game::new_game(GameVersion::Red, 9, Rc::clone(&env.rt)).unwrap();
    game.give_pokemon("CHARMANDER", 20).unwrap();
    game.set_flag("EVENT_SECOND", second);
    let (x, y) = below_grass(&game);
    game.queue_script(
        "probe",
        vec![ScriptRow::Warp {
            map: "ROUTE_1".into(),
            x,
            y,
            facing: Direction::Up,
        }],
    )
    .unwrap();
    settle(&mut game);
    env.feed();
    for _ in 0..20 {
        game.step(Input::Up);
        if game.mode == Mode::Battle {
            break;
        }
    }
    assert_eq!(game.mode, Mode::Battle);
    let row = game
        .feed()
        .iter()
        .map(|r| format!("{:?}", r.row))
        .rfind(|r| r.starts_with("WildEncounter"))
        .unwrap();
    (row, unprefixed(&env.feed()))
}

fn check(env: &Env) {
    let (row, log) = step_into_grass(env, false);
    assert_eq!(row, r#"WildEncounter { species: "MEW", level: 3 }"#);
    assert_eq!(log, ["encounter.species PIDGEY L3 on ROUTE_1 -> MEW"]);
    let (row, log) = step_into_grass(env, true);
    assert_eq!(row, r#"WildEncounter { species: "RATTATA", level: 4 }"#);
    assert_eq!(
        log[0],
        "encounter.species RATTATA L4 on ROUTE_1 -> NOT_A_MON"
    );
    assert!(
        log.iter()
            .any(|l| l.contains("encounter.species: refused unknown species \"NOT_A_MON\"")),
        "{log:?}"
    );
}

#[test]
fn rhai_encounter_species_replaces_the_rolled_species() {
    let env = load(&[], vec![rhai_mod("swap", RHAI)]);
    env.assert_loaded("swap");
    check(&env);
}

#[test]
fn lua_encounter_species_replaces_the_rolled_species() {
    let env = load(&[], vec![lua_mod("swap", LUA)]);
    env.assert_loaded("swap");
    check(&env);
}
