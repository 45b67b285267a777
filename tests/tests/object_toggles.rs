//! Saved object toggles (the Lua engine's `toggleObject`, issue 17): `world.toggle_object` /
//! `mod.world:toggleObject` and the data map-script op `toggle_object` write the save's
//! `objectToggles[map][obj]`, raise `world.object_toggled {mapId, objName, visible}`, and then
//! (the active map only) reload the map, which raises `map.reloaded {mapId, reason}` — in that
//! order. A hidden object is gone from the live map (not drawn, not solid, not talked to), also
//! after a save round trip; the player walks through its cell.

#[path = "common/mod_dir.rs"]
mod mod_dir_support;
use mod_dir_support::content_mod_dir;

mod lua_support;

use std::rc::Rc;

use lua_support::{load, lua_mod, rhai_mod, unprefixed, Env};
use pallet_api::Value;
use pallet_engine::checkpoint::lend::lend;
use pallet_engine::game::Game;
use pallet_engine::save::{decode, encode};
use pallet_engine::world::{GameVersion, Input};

const RHAI: &str = r#"
let t = |label, f| {
    try { let v = f.call(); log.info(`${label} -> ${v}`); }
    catch (e) { log.info(`${label} !! ${e.code}: ${e.message}`); }
};
events.on("world.object_toggled", |p| log.info(`event world.object_toggled ${p.mapId} ${p.objName} ${p.visible}`));
events.on("map.reloaded", |p| log.info(`event map.reloaded ${p.mapId} ${p.reason}`));
events.on("mod.tog.go", |p| {
    t.call("hide mom", || world.toggle_object("REDS_HOUSE_1F", "mom", false));
    t.call("hide girl", || world.toggle_object("PALLET_TOWN", "girl", false));
    t.call("map typo", || world.toggle_object("REDS_HOUSE_1G", "mom", false));
    t.call("object typo", || world.toggle_object("REDS_HOUSE_1F", "moms", false));
    t.call("not a bool", || world.toggle_object("REDS_HOUSE_1F", "mom", 1));
    world.queue_script([#{cmd: "say", literal: "hi"}]);
    t.call("active map mid-script", || world.toggle_object("REDS_HOUSE_1F", "mom", true));
    t.call("other map mid-script", || world.toggle_object("PALLET_TOWN", "girl", true));
});
"#;

const LUA: &str = r#"return function(mod)
  local w, log, ev = mod.world, mod.log, mod.events
  local function try_call(label, f)
    local v, reason, message = f()
    if v == nil and reason then
      log:info("%s !! %s: %s", label, reason, message)
    else
      log:info("%s -> %s", label, tostring(v))
    end
  end
  ev:on("world.object_toggled", function(p)
    log:info("event world.object_toggled %s %s %s", p.mapId, p.objName, tostring(p.visible))
  end)
  ev:on("map.reloaded", function(p) log:info("event map.reloaded %s %s", p.mapId, p.reason) end)
  ev:on("mod.tog.go", function(p)
    try_call("hide mom", function() return w:toggleObject("REDS_HOUSE_1F", "mom", false) end)
    try_call("hide girl", function() return w:toggleObject("PALLET_TOWN", "girl", false) end)
    try_call("map typo", function() return w:toggleObject("REDS_HOUSE_1G", "mom", false) end)
    try_call("object typo", function() return w:toggleObject("REDS_HOUSE_1F", "moms", false) end)
    try_call("not a bool", function() return w:toggleObject("REDS_HOUSE_1F", "mom", 1) end)
    w:queueScript({ { cmd = "say", literal = "hi" } })
    try_call("active map mid-script", function() return w:toggleObject("REDS_HOUSE_1F", "mom", true) end)
    try_call("other map mid-script", function() return w:toggleObject("PALLET_TOWN", "girl", true) end)
  end)
end"#;

fn expected() -> Vec<&'static str> {
    vec![
        // The event first, then the active map's reload.
        "event world.object_toggled REDS_HOUSE_1F mom false",
        "event map.reloaded REDS_HOUSE_1F toggle_object",
        "hide mom -> false",
        // Another map: saved and raised, nothing to reload.
        "event world.object_toggled PALLET_TOWN girl false",
        "hide girl -> false",
        "map typo !! unknown map: unknown map \"REDS_HOUSE_1G\" (did you mean \"REDS_HOUSE_1F\"?)",
        "object typo !! unknown object: map REDS_HOUSE_1F has no object \"moms\" (did you mean \"mom\"?)",
        "not a bool !! visible must be a boolean: visible must be a boolean, got integer",
        "active map mid-script !! world is busy: the overworld is busy (script_busy)",
        "event world.object_toggled PALLET_TOWN girl true",
        "other map mid-script -> true",
    ]
}

fn signal(env: &Env, game: &mut Game, name: &str) {
    let rt = Rc::clone(&env.rt);
    lend(game, Some(&env.loader.mod_data), || {
        rt.emit_mod("tog", &format!("mod.tog.{name}"), &Value::Nil)
            .unwrap()
    });
}

fn npc_names(game: &Game) -> Vec<String> {
    let ow = game.overworld().expect("overworld");
    ow.map().def().npcs.iter().map(|n| n.name.clone()).collect()
}

/// Walk right `n` cells from REDS_HOUSE_1F (3, 4): MOM stands at (5, 4).
fn walk_right(game: &mut Game, n: usize) {
    for _ in 0..n * 20 {
        game.step(Input::Right);
    }
    for _ in 0..40 {
        game.step(Input::None);
    }
}

fn run(env: &Env) -> (Vec<String>, Game) {
    let mut game = Game::new_game(GameVersion::Red, 5, Rc::clone(&env.rt)).unwrap();
    env.feed();
    assert_eq!(npc_names(&game), ["mom"]);
    signal(env, &mut game, "go");
    let out = unprefixed(&env.feed());
    // The save holds both toggles (sorted maps), the live map lost MOM.
    let toggles = &game.save.object_toggles;
    assert_eq!(toggles["REDS_HOUSE_1F"].get("mom"), Some(&false));
    assert_eq!(toggles["PALLET_TOWN"].get("girl"), Some(&true));
    assert!(npc_names(&game).is_empty());
    (out, game)
}

#[test]
fn rhai_toggle_object_saves_emits_then_reloads_and_validates() {
    let env = load(&[], vec![rhai_mod("tog", RHAI)]);
    env.assert_loaded("tog");
    assert_eq!(run(&env).0, expected());
}

#[test]
fn lua_toggle_object_saves_emits_then_reloads_and_validates() {
    let env = load(&[], vec![lua_mod("tog", LUA)]);
    env.assert_loaded("tog");
    assert_eq!(run(&env).0, expected());
}

/// Toggle, encode the save, decode it into a fresh game: MOM is still hidden, and the player
/// walks through her cell; a game without the toggle is stopped by her.
#[test]
fn a_hidden_object_stays_hidden_across_a_save_round_trip() {
    let env = load(&[], vec![rhai_mod("tog", RHAI)]);
    env.assert_loaded("tog");
    let (_, game) = run(&env);
    let bytes = encode(&game.save).unwrap();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    assert!(text.contains("\"objectToggles\""), "{text}");
    let save = decode(&bytes).unwrap();
    assert_eq!(save.object_toggles, game.save.object_toggles);
    let mut loaded = Game::from_save(save, 9, Rc::clone(&env.rt)).unwrap();
    assert!(npc_names(&loaded).is_empty(), "MOM stays hidden after load");
    walk_right(&mut loaded, 2);
    let ow = loaded.overworld().unwrap();
    assert_eq!(
        (ow.player().x, ow.player().y),
        (5, 4),
        "walked onto MOM's cell"
    );

    let mut vanilla = Game::new_game(GameVersion::Red, 5, Rc::clone(&env.rt)).unwrap();
    assert!(vanilla.save.object_toggles.is_empty());
    walk_right(&mut vanilla, 2);
    let ow = vanilla.overworld().unwrap();
    assert_eq!(
        (ow.player().x, ow.player().y),
        (4, 4),
        "MOM blocks her cell"
    );
}

/// A save without `objectToggles` (written before the field existed) still loads: the field is
/// optional and omitted when empty, so vanilla saves keep their bytes.
#[test]
fn a_save_without_toggles_omits_the_field() {
    let env = load(&[], vec![]);
    let game = Game::new_game(GameVersion::Red, 5, Rc::clone(&env.rt)).unwrap();
    let bytes = encode(&game.save).unwrap();
    assert!(!String::from_utf8_lossy(&bytes).contains("objectToggles"));
    assert!(decode(&bytes).unwrap().object_toggles.is_empty());
}

fn mod_dir(id: &str, entry: &str, main: &str) -> std::path::PathBuf {
    content_mod_dir("toggles", id, "1.0.0", entry, main)
}

fn play(
    dir: Option<std::path::PathBuf>,
    scenario: &str,
) -> Result<pallet_script_host::cli::cmd_run::RunOutcome, String> {
    lua_support::play_strict(dir.into_iter().collect(), scenario, None)
}

const WALK_THROUGH_MOM: &str =
    "expect map REDS_HOUSE_1F 3 4 down\nwalk right 2\nexpect map REDS_HOUSE_1F 5 4 right";

/// A data map script (Rhai records and the Lua engine's positional rows alike) hides MOM when
/// the player enters Red's house: the save has the toggle and the player walks through her
/// cell under `pallet run` (strict). Without the mod she blocks the walk.
#[test]
fn a_data_map_script_hides_an_object_and_the_player_walks_through_its_cell() {
    let rhai = mod_dir(
        "hide-mom",
        "main.rhai",
        r#"content.register("map_scripts", "REDS_HOUSE_1F", #{ onEnter: [
               #{ op: "toggle_object", map: "REDS_HOUSE_1F", object: "mom", visible: false }
           ] });"#,
    );
    let lua = mod_dir(
        "hide-mom-lua",
        "main.lua",
        r#"return function(mod)
  mod.content.map_scripts:register("REDS_HOUSE_1F", { onEnter = {
    { "toggle_object", "REDS_HOUSE_1F", "mom", false },
  } })
end"#,
    );
    for dir in [rhai, lua] {
        let o = play(Some(dir), WALK_THROUGH_MOM).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            o.game.save.object_toggles["REDS_HOUSE_1F"].get("mom"),
            Some(&false),
            "{}",
            o.transcript
        );
        let ow = o.game.overworld().unwrap();
        assert!(ow.map().def().npcs.is_empty(), "{}", o.transcript);
    }
    let Err(blocked) = play(None, WALK_THROUGH_MOM) else {
        panic!("MOM blocks the vanilla walk");
    };
    assert!(
        blocked.contains("walk right: blocked at REDS_HOUSE_1F (4,4)"),
        "{blocked}"
    );
}

/// A data op naming a map or object that does not exist fails its mod at freeze, with a
/// did-you-mean.
#[test]
fn a_toggle_of_an_unknown_object_fails_the_mod_with_a_did_you_mean() {
    let dir = mod_dir(
        "bad-toggle",
        "main.rhai",
        r#"content.register("map_scripts", "REDS_HOUSE_1F", #{ onEnter: [
               #{ op: "toggle_object", map: "REDS_HOUSE_1F", object: "moms", visible: false }
           ] });"#,
    );
    let o = play(Some(dir), "expect map REDS_HOUSE_1F 3 4 down").unwrap_or_else(|e| panic!("{e}"));
    let t = &o.transcript;
    assert!(t.contains("failed 1"), "{t}");
    assert!(
        t.contains(
            "toggle_object: map REDS_HOUSE_1F has no object \"moms\" (did you mean \"mom\"?)"
        ),
        "{t}"
    );
    assert!(o.game.save.object_toggles.is_empty(), "{t}");
}
