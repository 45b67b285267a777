//! Issue 18: a trade-evolution patcher in the shape of the public `trade_evolutions_by_level`
//! (`tests/fixtures/lua_mods/shape-trade-evolutions`) changes the game. The Lua view speaks
//! the Lua engine's evolution rows (`{method = "TRADE", level = 1, species = "ALAKAZAM"}`) in
//! `pokemon:each`, and its patched row `{method = "LEVEL", level = 37, species = "ALAKAZAM"}`
//! makes KADABRA evolve at 37 without a trade; `evolution.check` hands Lua the same row and
//! the trigger table `{kind = "levelup"}`. The Rhai twin (`tests/fixtures/mods/
//! twin-trade-evolutions`) does the same in Pallet's documented spelling (`{into, trade}`,
//! `{into, level}`, trigger `"level"`).

mod lua_support;

use std::path::PathBuf;

use lua_support::{lua_fixture, lua_manifest, rhai_fixture, run_mods};

/// A Lua mod `id` with entry `main` in a fresh temporary folder.
fn lua_dir(id: &str, main: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pallet-evo-rows-{id}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("manifest.json"), lua_manifest(id, "")).unwrap();
    std::fs::write(dir.join("main.lua"), main).unwrap();
    dir
}

/// KADABRA at 35, one RARE CANDY at a time: 36 (no evolution yet), then 37.
const CANDIES: &str = "give KADABRA 35\nbag RARE_CANDY 2\n\
                       use RARE_CANDY 1\nclose\nexpect mon 1 KADABRA 36\n\
                       use RARE_CANDY 1\nclose\n";

fn species(o: &pallet_script_host::cli::cmd_run::RunOutcome) -> (String, i64) {
    let m = &o.game.save.party[0];
    (m.species.clone(), m.level)
}

fn check_patcher(dir: PathBuf, check_line: &str) {
    let o = run_mods(vec![dir], CANDIES);
    let t = &o.transcript;
    assert!(o.failed_mods.is_empty(), "{t}");
    assert!(
        t.contains("KADABRA now evolves into ALAKAZAM at level 37"),
        "{t}"
    );
    // KADABRA, MACHOKE, GRAVELER and HAUNTER evolve only by trade on the cartridge.
    assert!(t.contains("4 trade evolutions rewritten"), "{t}");
    assert!(t.contains(check_line), "{t}");
    assert!(t.contains("KADABRA evolved into ALAKAZAM!"), "{t}");
    assert_eq!(species(&o), ("ALAKAZAM".to_owned(), 37), "{t}");
    // The patched rows are the game's: PIDGEY's own level row is untouched, and a level
    // evolution still needs its level (36 was not enough above).
    let d = o.game.data();
    let kadabra = d.species(d.species_by_name("KADABRA").unwrap());
    assert_eq!(kadabra.evolutions.len(), 2, "{:?}", kadabra.evolutions);
}

#[test]
fn without_a_mod_kadabra_needs_a_trade() {
    let o = run_mods(vec![], CANDIES);
    assert_eq!(species(&o), ("KADABRA".to_owned(), 37), "{}", o.transcript);
    assert!(!o.transcript.contains("is evolving"), "{}", o.transcript);
}

#[test]
fn the_lua_patcher_makes_kadabra_evolve_at_37() {
    check_patcher(
        lua_fixture("shape-trade-evolutions"),
        "check KADABRA LEVEL->ALAKAZAM L37 by levelup",
    );
}

#[test]
fn the_rhai_twin_does_the_same_in_pallets_spelling() {
    check_patcher(
        rhai_fixture("twin-trade-evolutions"),
        "check KADABRA ->ALAKAZAM L37 by level",
    );
}

#[test]
fn the_lua_view_reads_and_refuses_rows_in_the_lua_engines_spelling() {
    let dir = lua_dir(
        "rows",
        r#"return function(mod)
  local k = mod.content.pokemon:get("KADABRA").evolutions[1]
  mod.log:info("KADABRA %s %d %s", k.method, k.level, k.species)
  local b = mod.content.pokemon:get("BULBASAUR").evolutions[1]
  mod.log:info("BULBASAUR %s %d %s", b.method, b.level, b.species)
  local n = mod.content.pokemon:get("NIDORINA").evolutions[1]
  mod.log:info("NIDORINA %s %s %s", n.method, n.item, n.species)
  local ok, e = pcall(function()
    mod.content.pokemon:patch("KADABRA", { evolutions = { { method = "LINK", species = "ALAKAZAM" } } })
  end)
  mod.log:info("bad method: %s", tostring(e))
  -- Pallet's spelling is still taken, and __append lists are translated too.
  mod.content.pokemon:patch("MACHOKE", { evolutions = { __append = {
    { method = "LEVEL", level = 40, species = "MACHAMP" } } } })
  mod.content.pokemon:patch("GRAVELER", { evolutions = { { into = "GOLEM", level = 41 } } })
end"#,
    );
    let o = run_mods(
        vec![dir],
        "give MACHOKE 39\ngive GRAVELER 40\nbag RARE_CANDY 2\n\
                                  use RARE_CANDY 1\nclose\nuse RARE_CANDY 2\nclose\n",
    );
    let t = &o.transcript;
    for want in [
        "KADABRA TRADE 1 ALAKAZAM",
        "BULBASAUR LEVEL 16 IVYSAUR",
        "NIDORINA ITEM MOON_STONE NIDOQUEEN",
        "pokemon.KADABRA.evolutions[1].method: \"LINK\" is not one of \"LEVEL\", \"ITEM\", \"TRADE\"",
    ] {
        assert!(t.contains(want), "{want:?} missing:\n{t}");
    }
    let party: Vec<(&str, i64)> = o
        .game
        .save
        .party
        .iter()
        .map(|m| (m.species.as_str(), m.level))
        .collect();
    assert_eq!(party, [("MACHAMP", 40), ("GOLEM", 41)], "{t}");
}
