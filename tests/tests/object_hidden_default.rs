//! Objects hidden by default (the cartridge's objects a script shows later; `NpcDef.hidden`)
//! stay hidden until a `toggle_object` shows them: absent from the live map on a new game
//! (the player walks through the cell), still absent after the map reloads for another
//! object's toggle, and present once shown (saved in `objectToggles`). Rhai and Lua content
//! mods, under `pallet run` (strict).

mod lua_support;

use std::path::PathBuf;

use pallet_script_host::cli::cmd_run::RunOutcome;

const RHAI: &str = r#"content.patch("maps", "REDS_HOUSE_1F", #{ npcs: #{ __append: [
    #{ name: "ghost", x: 4, y: 4, facing: "down", text: "_RedsHouse1FMomText", hidden: true } ] } });
events.on("mod.ghost.hidemom", |p| { world.toggle_object("REDS_HOUSE_1F", "mom", false); });
events.on("mod.ghost.show", |p| { world.toggle_object("REDS_HOUSE_1F", "ghost", true); });
events.on("map.reloaded", |p| log.info(`map.reloaded ${p.mapId} ${p.reason}`));
"#;

const LUA: &str = r#"return function(mod)
  mod.content.maps:patch("REDS_HOUSE_1F", { npcs = { __append = {
    { name = "ghost", x = 4, y = 4, facing = "down", text = "_RedsHouse1FMomText", hidden = true } } } })
  mod.events:on("mod.ghost.hidemom", function() mod.world:toggleObject("REDS_HOUSE_1F", "mom", false) end)
  mod.events:on("mod.ghost.show", function() mod.world:toggleObject("REDS_HOUSE_1F", "ghost", true) end)
  mod.events:on("map.reloaded", function(p) mod.log:info("map.reloaded %s %s", p.mapId, p.reason) end)
end"#;

/// The scenario: through the hidden ghost's cell (4,4), MOM hidden (a reload: the ghost stays
/// hidden, the walk goes through both cells), then the ghost shown.
const SCENARIO: &str = "expect map REDS_HOUSE_1F 3 4 down
walk right 1
expect map REDS_HOUSE_1F 4 4 right
walk left 1
signal ghost hidemom
walk right 2
expect map REDS_HOUSE_1F 5 4 right
walk left 2
signal ghost show
";

fn mod_dir(tag: &str, entry: &str, main: &str) -> PathBuf {
    let root = std::env::temp_dir().join(format!(
        "pallet-hidden-default-{}-{tag}-{}",
        std::process::id(),
        entry.replace('.', "-")
    ));
    let dir = root.join("ghost");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let manifest = format!(
        r#"{{"id": "ghost", "name": "ghost", "version": "1.0.0", "api": 2, "entry": "{entry}", "capabilities": ["content", "world"]}}"#
    );
    std::fs::write(dir.join("manifest.json"), manifest).unwrap();
    std::fs::write(dir.join(entry), main).unwrap();
    dir
}

fn play(dir: PathBuf, scenario: &str) -> RunOutcome {
    lua_support::play_strict(vec![dir], scenario, None).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn a_hidden_by_default_object_stays_hidden_until_shown() {
    for dir in [
        mod_dir("a", "main.rhai", RHAI),
        mod_dir("a", "main.lua", LUA),
    ] {
        let o = play(dir, SCENARIO);
        let t = &o.transcript;
        assert!(t.contains("mods: loaded 1 [ghost]"), "{t}");
        assert_eq!(
            t.matches("map.reloaded REDS_HOUSE_1F toggle_object")
                .count(),
            2,
            "{t}"
        );
        let toggles = &o.game.save.object_toggles["REDS_HOUSE_1F"];
        assert_eq!(toggles.get("ghost"), Some(&true), "{t}");
        assert_eq!(toggles.get("mom"), Some(&false), "{t}");
        let ow = o.game.overworld().unwrap();
        let npcs: Vec<(&str, u32, u32)> = ow
            .map()
            .def()
            .npcs
            .iter()
            .map(|n| (n.name.as_str(), n.x, n.y))
            .collect();
        assert_eq!(npcs, [("ghost", 4, 4)], "{t}");
    }
}

/// Once shown, the ghost stands in its cell: the walk through it is blocked.
#[test]
fn a_shown_object_blocks_its_cell() {
    let scenario = format!("{SCENARIO}walk right 1\n");
    let Err(message) =
        lua_support::play_strict(vec![mod_dir("b", "main.rhai", RHAI)], &scenario, None)
    else {
        panic!("the shown ghost should block the walk");
    };
    assert!(
        message.contains("walk right: blocked at REDS_HOUSE_1F (3,4)"),
        "{message}"
    );
}
