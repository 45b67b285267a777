//! Issue 18: the public Lua mods' shapes that needed Pallet to hold what the Lua engine holds —
//! the `strings`/`text` translation registries read by the game's texts (item 8), records named
//! by the Lua engine's ids (`OPP_ROCKET`, `FARFETCH_D`, `MR__MIME`, `FLOOR_B2F`, `TM_BIDE`), and
//! the Rhai twin of map-script handlers given as functions (item 6: function pointers).

mod lua_support;

use std::path::PathBuf;

use lua_support::*;
use pallet_api::Value;
use pallet_engine::content::base::content_for;
use pallet_engine::world::GameVersion;

fn base_setup() -> Setup {
    Setup {
        content: content_for(GameVersion::Red),
        options: Vec::new(),
    }
}

fn get(env: &Env, registry: &str, id: &str) -> Option<Value> {
    env.loader.content.borrow().get(registry, id).cloned()
}

fn text(v: &Option<Value>, field: &str) -> Option<String> {
    v.as_ref()?.get(field)?.as_str().map(str::to_owned)
}

#[test]
fn records_are_reached_by_the_lua_engines_ids() {
    let id = "shape-public-ids";
    let env = load_with(&[lua_fixture(id)], vec![], base_setup());
    env.assert_loaded(id);
    let pic = text(&get(&env, "trainers", "ROCKET"), "pic").unwrap();
    assert!(pic.ends_with("assets/rocket_duo.png"), "{pic}");
    // Both spellings are one record.
    assert_eq!(
        get(&env, "trainers", "OPP_ROCKET"),
        get(&env, "trainers", "ROCKET")
    );
    assert_eq!(
        text(&get(&env, "trainers", "BUG_CATCHER"), "name").as_deref(),
        Some("SCOUT")
    );
    assert!(text(&get(&env, "pokemon", "FARFETCHD"), "spriteFront").is_some());
    assert_eq!(
        text(&get(&env, "items", "FLOOR_B2F"), "name").as_deref(),
        Some("SOUS-SOL 2")
    );
    let feed = unprefixed(&env.feed());
    let line = "bide is CT34 teaching BIDE";
    assert!(feed.contains(&line.to_owned()), "{line}: {feed:?}");
    assert!(
        feed.iter()
            .any(|l| l.starts_with("rocket pic ") && l.ends_with("rocket_duo.png")),
        "{feed:?}"
    );
    // A TM record names a move the dataset has.
    let d = pallet_engine::data::gen1();
    for (item, rec) in env
        .loader
        .content
        .borrow()
        .registry("items")
        .unwrap()
        .each()
    {
        if let Some(mv) = rec.get("move").and_then(Value::as_str) {
            assert!(d.move_by_name(mv).is_some(), "{item}: {mv}");
        }
    }
    // An id the registry lacks in both spellings still fails, naming what the mod wrote.
    let env = load_with(
        &[],
        vec![lua_mod(
            "bad-id",
            "return function(mod) mod.content.trainers:patch('OPP_NOBODY', { pic = 'x' }) end",
        )],
        base_setup(),
    );
    assert!(
        env.error("bad-id")
            .contains("trainers:patch(OPP_NOBODY): no such id"),
        "{}",
        env.error("bad-id")
    );
}

const BATTLE: &str = "give PIDGEY 9\n\
    section mom\n\
    MOM_SCENARIO\
    section battle\n\
    trainer BUG_CATCHER 0\n\
    battle fight 1\n\
    battle fight 1\n";

fn scenario() -> String {
    BATTLE.replace("MOM_SCENARIO", MOM)
}

/// Talk to MOM from the new-game start (she stands at 5,4 facing left).
const MOM: &str = "walk right 1\ntalk\nclose\n";

#[test]
fn a_translation_mod_changes_what_the_game_shows() {
    let plain = run_mods(vec![], &scenario());
    let o = run_mods(vec![lua_fixture("shape-translation")], &scenario());
    let t = &o.transcript;
    assert!(
        t.contains("[shape-translation] Enemy %s reads %s adverse"),
        "{t}"
    );
    // An empty catalog entry is "not translated yet": the string reads its English.
    assert!(
        t.contains("[shape-translation] blacked out reads %s blacked\nout!")
            || t.contains("blacked out reads %s blacked"),
        "{t}"
    );
    let mom = &t[t.find("## mom").unwrap()..t.find("## battle").unwrap()];
    assert!(
        mom.contains("MAMAN: Tu t'en vas / aujourd'hui? Sois / prudent!"),
        "{mom}"
    );
    let battle = &t[t.find("## battle").unwrap()..];
    assert!(
        battle.contains("battle: BUG CATCHER te provoque!"),
        "{battle}"
    );
    assert!(battle.contains("battle: A toi, PIDGEY!"), "{battle}");
    assert!(battle.contains("battle: PIDGEY utilise "), "{battle}");
    assert!(
        battle.contains("battle: WEEDLE adverse utilise "),
        "{battle}"
    );
    // Without the mod the same run shows the English.
    let p = &plain.transcript;
    assert!(p.contains("battle: BUG CATCHER wants to fight!"), "{p}");
    assert!(p.contains("battle: Enemy WEEDLE used "), "{p}");
    assert!(!p.contains("adverse"), "{p}");
}

#[test]
fn rhai_map_script_handlers_given_as_function_pointers_run_owned_by_their_mod() {
    let id = "twin-move-tutor";
    let env = load(&[rhai_fixture(id)], vec![]);
    env.assert_loaded(id);
    let record = format!("{:?}", get(&env, "map_scripts", "REDS_HOUSE_1F"));
    assert!(!record.contains("Fn"), "{record}");
    let mut game =
        pallet_engine::game::Game::boot(GameVersion::Red, 4, std::rc::Rc::clone(&env.rt)).unwrap();
    let n = env.rhai.install_map_handlers(game.scripts_mut().unwrap());
    assert_eq!(n, 2, "onEnter and one talk handler");
    game.enter_overworld().unwrap();
    let (x, y) = {
        let p = game.overworld().unwrap().player();
        (p.x, p.y)
    };
    let feed = unprefixed(&env.feed());
    assert!(
        feed.contains(&format!("entered REDS_HOUSE_1F at {x},{y} (visit 1)")),
        "{feed:?}"
    );
    let save = serde_json::to_string(&game.save).unwrap();
    assert!(!save.contains("onEnter"), "{save}");
    // The same record from the Lua mod and its Rhai twin: one line each, equal.
    let lua = load(&[lua_fixture("shape-move-tutor")], vec![]);
    let mut game2 =
        pallet_engine::game::Game::boot(GameVersion::Red, 4, std::rc::Rc::clone(&lua.rt)).unwrap();
    lua.lua.install_map_handlers(game2.scripts_mut().unwrap());
    game2.enter_overworld().unwrap();
    let lua_feed = unprefixed(&lua.feed());
    let line = format!("entered REDS_HOUSE_1F at {x},{y} (visit 1)");
    assert!(lua_feed.contains(&line), "{lua_feed:?}");
}

/// From the new-game start to Pallet Town's (2,8), below Red's house door.
const TO_PALLET: &str = "walk right 1\nwalk left 1\nwalk down 3\nwalk down 1\n";

#[test]
fn a_new_room_on_the_cartridges_house_tileset_plays_its_positional_rows() {
    let scenario = format!(
        "{TO_PALLET}walk right 1\n\
         expect map PALLET_DEN 2 7\n\
         walk up 3\nwalk right 1\npress up\n\
         talk\nclose\n\
         expect flag MOD_DEN_GIFT_GIVEN on\n\
         talk\nclose\n\
         walk down 3\n\
         expect map PALLET_TOWN\n"
    );
    let o = run_mods(vec![lua_fixture("shape-new-room")], &scenario);
    let t = &o.transcript;
    assert!(t.contains("== PALLET DEN =="), "{t}");
    // The gift once, then the other branch: `jump "end"` ended the first run.
    assert_eq!(t.matches("Welcome to the den!").count(), 1, "{t}");
    assert_eq!(t.matches("Come back any time.").count(), 1, "{t}");
    // The cartridge's HOUSE block 3 is a wall over floor: the top row cannot be entered.
    let cs = pallet_engine::world::store::embedded(GameVersion::Red).unwrap();
    let house = cs.tilesets.get("HOUSE").expect("public HOUSE tileset");
    use pallet_engine::world::tileset::CellKind;
    assert_eq!(house.cell(3, 0, 0), Some(CellKind::Solid));
    assert_eq!(house.cell(3, 0, 1), Some(CellKind::Floor));
    assert_eq!(house.cell(11, 1, 1), Some(CellKind::Floor));
    // Without the mod the cell is plain floor of Pallet Town: no warp.
    let plain = run_mods(
        vec![],
        &format!("{TO_PALLET}walk right 1\nexpect map PALLET_TOWN 3 8\n"),
    );
    assert!(!plain.transcript.contains("PALLET DEN"));
}

fn temp_mod(name: &str, main: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pallet-public-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("manifest.json"),
        format!(r#"{{"id": "{name}", "name": "{name}", "version": "1.0.0", "api": 2, "entry": "main.lua"}}"#),
    )
    .unwrap();
    std::fs::write(dir.join("main.lua"), main).unwrap();
    dir
}

/// Town quests in the shape of the surveyed quest packs: talk scripts on every town, as
/// positional rows. A cartridge town the embedded world lacks is said once, not refused; a
/// map id the cartridge does not have fails the mod, naming it; a bad row there still fails.
#[test]
fn map_scripts_of_cartridge_towns_the_world_lacks_load_with_a_note() {
    let quests = |map: &str, row: &str| {
        format!(
            "return function(mod)\n  mod.content.map_scripts:register('{map}', {{ talk = {{\n    \
             TEXT_TOWN_GIRL = {{ {{ 'check_flag', 'MOD_Q' }}, {{ 'jump_if_true', 'end' }}, \
             {row}, {{ 'set_flag', 'MOD_Q' }} }},\n  }} }})\nend\n"
        )
    };
    let ok = temp_mod(
        "town-quests",
        &quests("CELADON_CITY", "{ 'show_text', 'Hi!' }"),
    );
    let o = run_mods(vec![ok], "");
    let t = &o.transcript;
    assert!(t.contains("town-quests"), "{t}");
    assert!(!t.contains("town-quests failed"), "{t}");
    assert!(
        t.contains(
            "mods: town-quests note: map_scripts.CELADON_CITY: CELADON_CITY is a cartridge map \
             Pallet's embedded world does not have; these scripts never run"
        ),
        "{t}"
    );
    let typo = temp_mod(
        "town-typo",
        &quests("CELADON_CTY", "{ 'show_text', 'Hi!' }"),
    );
    let t = run_mods(vec![typo], "").transcript;
    assert!(
        t.contains("mods: town-typo failed: content: map_scripts.CELADON_CTY: no map CELADON_CTY"),
        "{t}"
    );
    let bad = temp_mod(
        "town-bad-row",
        &quests("CELADON_CITY", "{ 'give_item', 'NOT_AN_ITEM' }"),
    );
    let t = run_mods(vec![bad], "").transcript;
    assert!(t.contains("town-bad-row failed"), "{t}");
    assert!(t.contains("\"NOT_AN_ITEM\" is not an item"), "{t}");
}

/// A mod written for the Lua engine's `battle.enemy_action (next, battle)` calls `next(battle)`:
/// the `ctx` Pallet adds is this link's own, not a failure (the adaptive-trainers shape).
#[test]
fn next_with_the_lua_engines_fewer_arguments_keeps_the_links_own_rest() {
    let dir = temp_mod(
        "lua-enemy-action",
        "return function(mod)\n  local n = 0\n  \
         mod.hooks:wrap('battle.enemy_action', function(next, battle)\n    \
         local action = next(battle)\n    n = n + 1\n    \
         if n == 1 then mod.log:info('enemy action %s', tostring(action and action.kind)) end\n    \
         return action\n  end)\nend\n",
    );
    let o = run_mods(vec![dir], &scenario());
    let t = &o.transcript;
    assert!(t.contains("[lua-enemy-action] enemy action move"), "{t}");
    assert!(!t.contains("bad arguments to next"), "{t}");
    assert!(
        !t.contains("lua-enemy-action] hook battle.enemy_action failed"),
        "{t}"
    );
}
