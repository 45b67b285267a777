//! `world.effective_encounters(mapId, terrain)` (the Lua engine's `effectiveEncounters`): the
//! table a step would roll on, after the `encounter.table` chain raised as a preview
//! (`ctx.preview = true`), without rolling. Rhai and Lua twins, the vanilla answer against the
//! map data, and the refusals.

mod lua_support;

use std::rc::Rc;

use lua_support::{load, lua_mod, rhai_mod, unprefixed, Env};
use pallet_api::Value;
use pallet_engine::checkpoint::lend::lend;
use pallet_engine::game::Game;
use pallet_engine::world::GameVersion;

const RHAI: &str = r#"
hooks.wrap("encounter.table", |next, table, ctx| {
    log.info(`encounter.table ${ctx.mapId} ${ctx.terrain} preview=${ctx.preview}`);
    if ctx.preview { return #{ grassRate: 200, grass: [#{ species: "PIKACHU", level: 5 }, #{ species: "MEW", level: 7 }] }; }
    next.call(table, ctx)
});
events.on("mod.enc.go", |p| {
    let e = world.effective_encounters("ROUTE_1");
    let d = "";
    for s in e.dist { if d != "" { d += ", "; } d += `${s.species}:${s.level}:${s.weight}`; }
    log.info(`chance=${e.chance} dist=[${d}]`);
    let w = world.effective_encounters("ROUTE_1", "water");
    log.info(`water chance=${w.chance} slots=${w.dist.len()}`);
    try { world.effective_encounters("RUOTE_1"); } catch (e) { log.info(`${e.code}: ${e.message}`); }
    try { world.effective_encounters("ROUTE_1", "lava"); } catch (e) { log.info(`${e.code}`); }
});
"#;

const LUA: &str = r#"return function(mod)
  mod.hooks:wrap("encounter.table", function(next, table, ctx)
    mod.log:info("encounter.table %s %s preview=%s", ctx.mapId, ctx.terrain, tostring(ctx.preview))
    if ctx.preview then
      return { grassRate = 200, grass = { { species = "PIKACHU", level = 5 }, { species = "MEW", level = 7 } } }
    end
    return next(table, ctx)
  end)
  mod.events:on("mod.enc.go", function()
    local w = mod.world
    local e = w:effectiveEncounters("ROUTE_1")
    local d = {}
    for _, s in ipairs(e.dist) do d[#d + 1] = string.format("%s:%d:%d", s.species, s.level, s.weight) end
    mod.log:info("chance=%d dist=[%s]", e.chance, table.concat(d, ", "))
    local water = w:effectiveEncounters("ROUTE_1", "water")
    mod.log:info("water chance=%d slots=%d", water.chance, #water.dist)
    local _, reason, message = w:effectiveEncounters("RUOTE_1")
    mod.log:info("%s: %s", reason, message)
    _, reason = w:effectiveEncounters("ROUTE_1", "lava")
    mod.log:info("%s", reason)
  end)
end"#;

fn run(env: &Env) -> Vec<String> {
    let mut game = Game::new_game(GameVersion::Red, 5, Rc::clone(&env.rt)).unwrap();
    env.feed();
    let rt = Rc::clone(&env.rt);
    lend(&mut game, Some(&env.loader.mod_data), || {
        rt.emit_mod("enc", "mod.enc.go", &Value::Nil).unwrap()
    });
    unprefixed(&env.feed())
}

fn expected() -> Vec<&'static str> {
    vec![
        "encounter.table ROUTE_1 grass preview=true",
        // Slot 1 keeps its 51/256; slot 2 takes the other nine slots' odds.
        "chance=200 dist=[PIKACHU:5:51, MEW:7:205]",
        "water chance=0 slots=0",
        "unknown map: unknown map \"RUOTE_1\" (did you mean \"ROUTE_1\"?)",
        "unknown terrain",
    ]
}

#[test]
fn rhai_previews_the_effective_table() {
    let env = load(&[], vec![rhai_mod("enc", RHAI)]);
    env.assert_loaded("enc");
    assert_eq!(run(&env), expected());
}

#[test]
fn lua_previews_the_effective_table() {
    let env = load(&[], vec![lua_mod("enc", LUA)]);
    env.assert_loaded("enc");
    assert_eq!(run(&env), expected());
}

/// Without a link: the map's own table, with Gen 1's slot odds summing to 256.
#[test]
fn the_vanilla_preview_is_the_maps_table() {
    let mut game = Game::new_game(GameVersion::Red, 5, Rc::default()).unwrap();
    let def = game.maps().get("ROUTE_1").unwrap().clone();
    let table = def.encounters.as_ref().unwrap();
    let out = pallet_engine::world_facade::call(
        &mut game,
        "effective_encounters",
        &[Value::from("ROUTE_1"), Value::from("grass")],
    )
    .unwrap();
    assert_eq!(
        out.get("chance"),
        Some(&Value::Int(table.grass_rate.into()))
    );
    let Some(Value::List(dist)) = out.get("dist") else {
        panic!("{out:?}")
    };
    assert_eq!(dist.len(), table.grass.len());
    let weights: Vec<i64> = dist
        .iter()
        .map(|s| s.get("weight").and_then(Value::as_exact_int).unwrap())
        .collect();
    assert_eq!(weights.iter().sum::<i64>(), 256);
    assert_eq!(weights, [51, 51, 39, 25, 25, 25, 13, 13, 11, 3]);
    for (s, slot) in dist.iter().zip(&table.grass) {
        assert_eq!(s.get("species"), Some(&Value::from(slot.species.as_str())));
    }
}
