//! The `world` facade (issue 17) through a Rhai mod and its Lua twin on the public `Game`
//! API: every method at a safe point (a signal the test raises with the game lent, as
//! `pallet run`'s `signal` does), its effects on the live game and the events it raises, its
//! validation (did-you-mean for unknown ids) and its refusals with the stable reasons — mid
//! battle (`"a battle is already running"`), mid-script (`"a script is already running"` /
//! `"world is busy"`); from inside a mid-tick event the reads answer (the engine's copy). One engine
//! implementation (`pallet_engine::world_facade`) serves both languages, so both transcripts
//! must be identical.

mod lua_support;

use std::rc::Rc;

use lua_support::{load, lua_mod, rhai_mod, unprefixed, Env};
use pallet_api::Value;
use pallet_engine::checkpoint::lend::lend;
use pallet_engine::game::{Game, Mode};
use pallet_engine::world::{BusyState, GameVersion, Input};

const RHAI: &str = r#"
let show = |v| {
    if type_of(v) != "map" { return v; }
    let ks = v.keys();
    ks.sort();
    let s = "";
    for k in ks { if s != "" { s += ", "; } s += `${k}=${v[k]}`; }
    "[" + s + "]"
};
let t = |label, f| {
    try { let v = f.call(); log.info(`${label} -> ${show.call(v)}`); }
    catch (e) { log.info(`${label} !! ${e.code}: ${e.message}`); }
};
events.on("flag.changed", |p| log.info(`event flag.changed ${p.name} ${p.value}`));
events.on("world.object_toggled", |p| log.info(`event world.object_toggled ${p.mapId} ${p.objName} ${p.visible}`));
events.on("world.block_replaced", |p| log.info(`event world.block_replaced ${p.mapId} ${p.bx} ${p.by} ${p.block}`));
events.on("pokemon.received", |p| log.info(`event pokemon.received ${p.mon.species} ${p.destination}`));
events.on("world.stepped", |p| t.call("stepped current", || world.current()));
events.on("mod.tour.go", |p| {
    t.call("current", || world.current());
    t.call("overview", || { let o = world.map_overview(); `${o.mapId} ${o.width}x${o.height} rows=${o.rows.len()} row0=[${o.rows[0]}] markers=${o.markers.len()}` });
    t.call("get_flag", || world.get_flag("EVENT_TOUR"));
    t.call("set_flag", || world.set_flag("EVENT_TOUR", true));
    t.call("get_flag", || world.get_flag("EVENT_TOUR"));
    t.call("give_item", || world.give_item("POTION", 3));
    t.call("give_item", || world.give_item("POTION"));
    t.call("give_item bad", || world.give_item("POTOIN"));
    t.call("give_item count", || world.give_item("POTION", 0));
    t.call("give_pokemon", || world.give_pokemon("PIKACHU", 5));
    t.call("give_pokemon bad", || world.give_pokemon("PIKACHUU", 5));
    t.call("give_pokemon level", || world.give_pokemon("PIKACHU", 101));
    t.call("replace_block", || world.replace_block(0, 0, 2));
    t.call("replace_block out", || world.replace_block(99, 0, 2));
    t.call("replace_block frac", || world.replace_block(0.5, 0, 2));
    t.call("spawn_npc", || world.spawn_npc("REDS_HOUSE_1F", #{name: "GUIDE", x: 1, y: 1, text: "Welcome!"}));
    t.call("spawn_npc again", || world.spawn_npc("REDS_HOUSE_1F", #{name: "GUIDE", x: 2, y: 1}));
    t.call("spawn_npc map", || world.spawn_npc("PALET_TOWN", #{name: "X", x: 1, y: 1}));
    t.call("spawn_npc other", || world.spawn_npc("PALLET_TOWN", #{name: "X", x: 1, y: 1}));
    t.call("remove_npc", || world.remove_npc("GUIDE"));
    t.call("remove_npc again", || world.remove_npc("GUIDE"));
    t.call("queue_script", || world.queue_script([#{cmd: "say", literal: "Welcome to the tour!"}]));
    t.call("queue_script again", || world.queue_script([#{cmd: "say", literal: "again"}]));
    t.call("queue_script bad", || world.queue_script([#{cmd: "fly_away"}]));
    t.call("spawn_npc busy", || world.spawn_npc("REDS_HOUSE_1F", #{name: "LATE", x: 1, y: 1}));
});
events.on("mod.tour.battle", |p| {
    t.call("wild bad", || world.start_wild_battle("RATATA", 5));
    t.call("wild", || world.start_wild_battle("RATTATA", 3));
});
events.on("mod.tour.again", |p| {
    t.call("wild again", || world.start_wild_battle("RATTATA", 3));
    t.call("give_item mid-battle", || world.give_item("POTION"));
    t.call("current mid-battle", || world.current());
});
"#;

const LUA: &str = r#"return function(mod)
  local w, log, ev = mod.world, mod.log, mod.events
  local function show(v)
    if type(v) ~= "table" then return tostring(v) end
    local ks = {}
    for k in pairs(v) do ks[#ks + 1] = k end
    table.sort(ks)
    local out = {}
    for _, k in ipairs(ks) do out[#out + 1] = k .. "=" .. tostring(v[k]) end
    return "[" .. table.concat(out, ", ") .. "]"
  end
  local function try_call(label, f)
    local v, reason, message = f()
    if v == nil and reason then
      log:info("%s !! %s: %s", label, reason, message)
    else
      log:info("%s -> %s", label, show(v))
    end
  end
  ev:on("flag.changed", function(p) log:info("event flag.changed %s %s", p.name, tostring(p.value)) end)
  ev:on("world.object_toggled", function(p)
    log:info("event world.object_toggled %s %s %s", p.mapId, p.objName, tostring(p.visible))
  end)
  ev:on("world.block_replaced", function(p)
    log:info("event world.block_replaced %s %d %d %d", p.mapId, p.bx, p.by, p.block)
  end)
  ev:on("pokemon.received", function(p) log:info("event pokemon.received %s %s", p.mon.species, p.destination) end)
  ev:on("world.stepped", function(p) try_call("stepped current", function() return w:current() end) end)
  ev:on("mod.tour.go", function(p)
    try_call("current", function() return w:current() end)
    try_call("overview", function()
      local o, r, m = w:mapOverview()
      if not o then return o, r, m end
      return string.format("%s %dx%d rows=%d row0=[%s] markers=%d", o.mapId, o.width, o.height, #o.rows, o.rows[1], #o.markers)
    end)
    try_call("get_flag", function() return w:getFlag("EVENT_TOUR") end)
    try_call("set_flag", function() return w:setFlag("EVENT_TOUR", true) end)
    try_call("get_flag", function() return w:getFlag("EVENT_TOUR") end)
    try_call("give_item", function() return w:giveItem("POTION", 3) end)
    try_call("give_item", function() return w:giveItem("POTION") end)
    try_call("give_item bad", function() return w:giveItem("POTOIN") end)
    try_call("give_item count", function() return w:giveItem("POTION", 0) end)
    try_call("give_pokemon", function() return w:givePokemon("PIKACHU", 5) end)
    try_call("give_pokemon bad", function() return w:givePokemon("PIKACHUU", 5) end)
    try_call("give_pokemon level", function() return w:givePokemon("PIKACHU", 101) end)
    try_call("replace_block", function() return w:replaceBlock(0, 0, 2) end)
    try_call("replace_block out", function() return w:replaceBlock(99, 0, 2) end)
    try_call("replace_block frac", function() return w:replaceBlock(0.5, 0, 2) end)
    try_call("spawn_npc", function() return w:spawnNpc("REDS_HOUSE_1F", { name = "GUIDE", x = 1, y = 1, text = "Welcome!" }) end)
    try_call("spawn_npc again", function() return w:spawnNpc("REDS_HOUSE_1F", { name = "GUIDE", x = 2, y = 1 }) end)
    try_call("spawn_npc map", function() return w:spawnNpc("PALET_TOWN", { name = "X", x = 1, y = 1 }) end)
    try_call("spawn_npc other", function() return w:spawnNpc("PALLET_TOWN", { name = "X", x = 1, y = 1 }) end)
    try_call("remove_npc", function() return w:removeNpc("GUIDE") end)
    try_call("remove_npc again", function() return w:removeNpc("GUIDE") end)
    try_call("queue_script", function() return w:queueScript({ { cmd = "say", literal = "Welcome to the tour!" } }) end)
    try_call("queue_script again", function() return w:queueScript({ { cmd = "say", literal = "again" } }) end)
    try_call("queue_script bad", function() return w:queueScript({ { cmd = "fly_away" } }) end)
    try_call("spawn_npc busy", function() return w:spawnNpc("REDS_HOUSE_1F", { name = "LATE", x = 1, y = 1 }) end)
  end)
  ev:on("mod.tour.battle", function(p)
    try_call("wild bad", function() return w:startWildBattle("RATATA", 5) end)
    try_call("wild", function() return w:startWildBattle("RATTATA", 3) end)
  end)
  ev:on("mod.tour.again", function(p)
    try_call("wild again", function() return w:startWildBattle("RATTATA", 3) end)
    try_call("give_item mid-battle", function() return w:giveItem("POTION") end)
    try_call("current mid-battle", function() return w:current() end)
  end)
end"#;

fn signal(env: &Env, game: &mut Game, name: &str) {
    let rt = Rc::clone(&env.rt);
    lend(game, Some(&env.loader.mod_data), || {
        rt.emit_mod("tour", &format!("mod.tour.{name}"), &Value::Nil)
            .unwrap()
    });
}

fn settle(game: &mut Game) {
    for _ in 0..500 {
        if game.busy().is_none() {
            return;
        }
        game.step(Input::A);
    }
    panic!("never idle");
}

/// The tour, with the engine-side effects checked after each signal. Returns the
/// transcript (mod log lines, prefixes dropped).
fn tour(env: &Env) -> Vec<String> {
    let mut game = Game::new_game(GameVersion::Red, 5, Rc::clone(&env.rt)).unwrap();
    env.feed();
    let money = game.save.money;
    let mut out = Vec::new();
    signal(env, &mut game, "go");
    out.extend(unprefixed(&env.feed()));
    // Effects on the live game.
    assert!(game.flag("EVENT_TOUR"));
    let potions: Vec<u32> = game
        .save
        .inventory
        .iter()
        .filter(|s| s.id == "POTION")
        .map(|s| s.count)
        .collect();
    assert_eq!(potions, [4]);
    assert_eq!(game.save.money, money, "giving items costs nothing");
    assert_eq!(game.save.party.len(), 1);
    assert_eq!(game.save.party[0].species, "PIKACHU");
    assert_eq!(
        game.active_block_at("REDS_HOUSE_1F", &Value::Int(0), &Value::Int(0)),
        Ok(2)
    );
    let ow = game.overworld().unwrap();
    assert!(ow.map().def().npcs.iter().all(|n| n.name != "GUIDE"));
    assert_eq!(game.busy(), Some(BusyState::Script), "the tour script runs");
    // Mid-tick (a `world.stepped` listener): the read answers the cell just arrived on.
    settle(&mut game);
    env.feed();
    for _ in 0..8 {
        game.step(Input::Down);
    }
    let stepped: Vec<String> = unprefixed(&env.feed());
    assert!(!stepped.is_empty(), "the player stepped");
    out.push(stepped[0].clone());
    // A wild battle from the facade, then refusals mid-battle.
    settle(&mut game);
    signal(env, &mut game, "battle");
    assert_eq!(game.mode, Mode::Battle);
    signal(env, &mut game, "again");
    out.extend(
        unprefixed(&env.feed())
            .into_iter()
            .filter(|l| !l.starts_with("event ")),
    );
    out
}

fn expected() -> Vec<&'static str> {
    vec![
        "current -> [facing=down, mapId=REDS_HOUSE_1F, surfing=false, x=3, y=4]",
        "overview -> REDS_HOUSE_1F 8x8 rows=8 row0=[        ] markers=2",
        "get_flag -> false",
        "event flag.changed EVENT_TOUR true",
        "set_flag -> true",
        "get_flag -> true",
        "give_item -> 3",
        "give_item -> 4",
        "give_item bad !! unknown item: unknown item \"POTOIN\" (did you mean \"POTION\"?)",
        "give_item count !! count must be a whole number 1..99: count Int(0) is not 1..99",
        "event pokemon.received PIKACHU party",
        "give_pokemon -> [destination=party, level=5, species=PIKACHU]",
        "give_pokemon bad !! unknown species: unknown species \"PIKACHUU\" (did you mean \"PIKACHU\"?)",
        "give_pokemon level !! level must be a whole number 1..100: level Int(101) is not 1..100",
        "event world.block_replaced REDS_HOUSE_1F 0 0 2",
        "replace_block -> true",
        "replace_block out !! block coordinates out of bounds: block (99, 0) is outside the 4x4 map",
        "replace_block frac !! invalid block coordinates: block coordinates must be finite integers",
        "spawn_npc -> GUIDE",
        "spawn_npc again -> GUIDE#2",
        "spawn_npc map !! unknown map: unknown map \"PALET_TOWN\" (did you mean \"PALLET_TOWN\"?)",
        "spawn_npc other !! map is not live: PALLET_TOWN is not the active map (REDS_HOUSE_1F)",
        "remove_npc -> true",
        "remove_npc again !! invalid npc: unknown npc: \"GUIDE\"",
        "queue_script -> true",
        "queue_script again !! a script is already running: another script is running",
        // The runner is busy: refused before the rows are read (a bad row alone: below).
        "queue_script bad !! a script is already running: another script is running",
        "spawn_npc busy !! world is busy: the overworld is busy (script_busy)",
        // Mid-tick (a `world.stepped` listener): reads answer from the engine's copy.
        "stepped current -> [facing=down, mapId=REDS_HOUSE_1F, surfing=false, x=3, y=5]",
        "wild bad !! unknown species: unknown species \"RATATA\" (did you mean \"RATTATA\"?)",
        "wild -> true",
        "wild again !! a battle is already running: a battle is already running",
        "give_item mid-battle !! a battle is already running: the world waits for the battle to end",
        "current mid-battle -> [facing=down, mapId=REDS_HOUSE_1F, surfing=false, x=3, y=5]",
    ]
}

#[test]
fn rhai_world_facade_acts_validates_and_refuses() {
    let env = load(&[], vec![rhai_mod("tour", RHAI)]);
    env.assert_loaded("tour");
    assert_eq!(tour(&env), expected());
}

#[test]
fn lua_world_facade_acts_validates_and_refuses() {
    let env = load(&[], vec![lua_mod("tour", LUA)]);
    env.assert_loaded("tour");
    assert_eq!(tour(&env), expected());
}

/// A script row that does not parse is refused before anything is queued.
#[test]
fn a_bad_script_row_is_refused_and_nothing_is_queued() {
    let rhai = rhai_mod(
        "tour",
        r#"events.on("mod.tour.go", |p| {
    try { world.queue_script([#{cmd: "fly_away"}]); } catch (e) { log.info(`${e.code}`); }
    try { world.queue_script([]); } catch (e) { log.info(`${e.code}`); }
});"#,
    );
    let env = load(&[], vec![rhai]);
    env.assert_loaded("tour");
    let mut game = Game::new_game(GameVersion::Red, 5, Rc::clone(&env.rt)).unwrap();
    env.feed();
    signal(&env, &mut game, "go");
    assert_eq!(
        unprefixed(&env.feed()),
        ["invalid script", "invalid script"]
    );
    assert_eq!(game.busy(), None);
}

/// `pallet run` in ordinary play (strict): the example world-tour mod acts from its own events,
/// which the scenario's `signal` command raises between ticks; every expectation holds.
#[test]
fn pallet_run_plays_the_world_tour() {
    use pallet_script_host::cli::cmd_run::play_with_mods;
    use pallet_script_host::host::ModsOptions;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let scenario = std::fs::read_to_string(root.join("examples/scenarios/world-tour.scn")).unwrap();
    let opts = ModsOptions {
        dirs: vec![root.join("examples/mods/world-tour")],
        no_default_mods: true,
        ..ModsOptions::default()
    };
    let out = play_with_mods(GameVersion::Red, 1, &scenario, Some(&opts))
        .unwrap_or_else(|f| panic!("{}\n{}", f.message, f.transcript));
    let t = out.transcript;
    let mod_lines: Vec<&str> = t
        .lines()
        .filter_map(|l| l.split_once("[world-tour] ").map(|(_, m)| m))
        .collect();
    assert_eq!(
        mod_lines,
        [
            "arrive: REDS_HOUSE_1F (3,4) facing down; REDS_HOUSE_1F is 8x8 cells, 2 warp(s)",
            "the guide TOUR_GUIDE appears",
            "a second guide: refused, world is busy (the overworld is busy (script_busy))",
            "starter kit: POTION x2, POKE_BALL x5",
            "a typo: refused, unknown item: unknown item \"POTOIN\" (did you mean \"POTION\"?)",
            "a gift: PIKACHU L5 to the party",
            "a typo: refused, unknown species: unknown species \"RATATA\" (did you mean \"RATTATA\"?)",
            "a wild RATTATA appears",
            "mid-battle: refused, a battle is already running",
            "mid-tick (world.stepped): at REDS_HOUSE_1F (3,5) facing down; give_item refused, world is busy",
            "world.object_toggled: mom on REDS_HOUSE_1F visible=false",
            "map.reloaded: REDS_HOUSE_1F (toggle_object)",
            "leave: REDS_HOUSE_1F (3,5) facing down; the guide and MOM are gone, block (0,0) is now 2",
        ],
        "{t}"
    );
    assert!(t.contains("GUIDE: Welcome to the world tour!"), "{t}");
    // Strict: an expectation that did not hold would have failed the run above.
    assert!(!t.contains("scenario line"), "{t}");
}
