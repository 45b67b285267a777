//! Issue 16, continued: trainer moves, removal of base records, run-time `LAST_MAP`, the Rhai
//! `content.DELETE` constant, the guide's Lua map-script example, and an item handed out by a
//! data map script. Every test loads real mods from a folder through `pallet run`'s path.

mod lua_support;
#[path = "common/mod_dir.rs"]
mod mod_dir_support;
use mod_dir_support::content_mod_dir;

use std::path::PathBuf;

use pallet_engine::battle::Side;
use pallet_script_host::cli::cmd_run::RunOutcome;

fn mod_dir(id: &str, entry: &str, main: &str) -> PathBuf {
    content_mod_dir("registries", id, "1.0.0", entry, main)
}

fn rhai(id: &str, main: &str) -> PathBuf {
    mod_dir(id, "main.rhai", main)
}

fn lua(id: &str, main: &str) -> PathBuf {
    mod_dir(id, "main.lua", main)
}

fn run_from(
    dirs: Vec<PathBuf>,
    scenario: &str,
    save: Option<pallet_engine::save::SaveData>,
) -> RunOutcome {
    lua_support::play_strict(dirs, scenario, save).unwrap_or_else(|e| panic!("{e}"))
}

fn run(dirs: Vec<PathBuf>, scenario: &str) -> RunOutcome {
    run_from(dirs, scenario, None)
}

fn move_ids(o: &RunOutcome, slot: usize) -> Vec<&'static str> {
    let d = o.game.data();
    let enemy = o
        .game
        .battle()
        .expect("a trainer battle runs")
        .party(Side::Enemy);
    enemy[slot]
        .moves
        .iter()
        .flatten()
        .map(|m| d.move_data(*m).id)
        .collect()
}

#[test]
fn a_trainer_party_with_moves_is_fought_with_those_moves() {
    let o = run(
        vec![rhai(
            "sparky",
            r#"content.patch("trainers", "BUG_CATCHER", #{ parties: [[
                   #{ species: "PIKACHU", level: 20, moves: ["THUNDERBOLT", "QUICK_ATTACK"] },
                   #{ species: "METAPOD", level: 9 }
               ]] });"#,
        )],
        "give RATTATA 16\ntrainer BUG_CATCHER 0",
    );
    assert_eq!(move_ids(&o, 0), ["THUNDERBOLT", "QUICK_ATTACK"]);
    // A mon without `moves` keeps its default moves for the level.
    let d = o.game.data();
    let metapod = &o.game.battle().unwrap().party(Side::Enemy)[1];
    let default = pallet_engine::pokemon::Pokemon::new(
        d,
        metapod.species,
        9,
        pallet_engine::pokemon::Dvs::from_bytes([0, 0]),
    );
    assert_eq!(metapod.moves, default.moves);
    // The content view shows the moves, as the mod wrote them.
    assert_eq!(
        o.game.trainers()[0].moves[0],
        ["THUNDERBOLT", "QUICK_ATTACK"]
    );
}

#[test]
fn a_lua_trainer_party_with_moves_and_a_bad_move_is_one_error() {
    let good = lua(
        "lua-moves",
        r#"return function(mod)
  mod.content.trainers:patch("BUG_CATCHER", { parties = { { { species = "ONIX", level = 14, moves = { "ROCK_THROW", "HARDEN" } } } } })
end"#,
    );
    let bad = rhai(
        "bad-moves",
        r#"content.register("trainers", "SURF_COACH", #{ name: "SURF COACH", parties: [[#{ species: "RATTATA", level: 5, moves: ["TACKLE", "NO_SUCH_MOVE"] }]] });"#,
    );
    let o = run(vec![good, bad], "give RATTATA 16\ntrainer BUG_CATCHER 0");
    let t = &o.transcript;
    assert!(
        t.contains("trainers.SURF_COACH.parties[1][1].moves[2]: \"NO_SUCH_MOVE\" is not a move"),
        "{t}"
    );
    assert!(t.contains("loaded 1 [lua-moves]"), "{t}");
    assert_eq!(move_ids(&o, 0), ["ROCK_THROW", "HARDEN"]);
    assert!(o.game.trainers().iter().all(|t| t.class != "SURF_COACH"));
}

#[test]
fn removing_a_base_species_still_in_the_grass_is_blamed_on_the_remover() {
    let o = run(
        vec![
            rhai("no-pidgey", r#"content.remove("pokemon", "PIDGEY");"#),
            rhai("no-potion", r#"content.remove("items", "POTION");"#),
        ],
        "idle",
    );
    let t = &o.transcript;
    assert!(
        t.contains(
            "content: pokemon:remove(PIDGEY): still referenced by encounters.ROUTE_1.grass.slots["
        ),
        "{t}"
    );
    assert!(t.contains("loaded 1 [no-potion]"), "{t}");
    let d = o.game.data();
    assert!(d.species_by_name("PIDGEY").is_some(), "rolled back");
    assert!(d.item_by_name("POTION").is_none(), "removed");
    assert!(d.item_by_name("Potion").is_none(), "no name reaches it");
}

#[test]
fn a_removed_species_with_its_references_patched_away_is_gone() {
    let slots: Vec<String> = (0..10)
        .map(|_| r#"#{ species: "RATTATA", level: 3 }"#.to_owned())
        .collect();
    let main = format!(
        r#"content.remove("pokemon", "PIDGEY");
           for id in content.ids("encounters") {{
               let rec = content.get("encounters", id);
               if rec.grass.slots.some(|s| s.species == "PIDGEY") {{
                   content.patch("encounters", id, #{{ grass: #{{ slots: [{}] }} }});
               }}
           }}
           for id in content.ids("pokemon") {{
               let rec = content.get("pokemon", id);
               if rec.evolutions.some(|e| e.into == "PIDGEY") {{
                   content.patch("pokemon", id, #{{ evolutions: [] }});
               }}
           }}
           if content.has("pokemon", "PIDGEY") {{ throw "still there"; }}"#,
        slots.join(", ")
    );
    let o = run(vec![rhai("pidgey-free", &main)], "idle");
    let t = &o.transcript;
    assert!(t.contains("loaded 1 [pidgey-free]"), "{t}");
    let d = o.game.data();
    assert!(d.species_by_name("PIDGEY").is_none());
    // Numbering is kept: the species after it keeps its dex number.
    let pidgeotto = d.species(d.species_by_name("PIDGEOTTO").unwrap());
    assert_eq!(pidgeotto.dex, 17);
    assert!(o
        .game
        .maps()
        .maps
        .values()
        .filter_map(|m| m.encounters.as_ref())
        .all(|e| e.grass.iter().all(|s| s.species != "PIDGEY")));
}

#[test]
fn removing_a_move_a_base_learnset_names_is_one_error_per_reference() {
    let o = run(
        vec![rhai("no-gust", r#"content.remove("moves", "GUST");"#)],
        "idle",
    );
    let t = &o.transcript;
    assert!(
        t.contains("moves:remove(GUST): still referenced by pokemon.PIDGEY.startMoves[1]"),
        "{t}"
    );
    assert!(t.contains("loaded 0"), "{t}");
    assert!(o.game.content_mods().is_empty());
}

const HUT: &str = r#"content.register("maps", "HUT", #{ name: "HUT", tileset: "house", width: 4, height: 4,
        blocks: [1, 1, 1, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 3, 0, 1],
        warps: [#{ x: 2, y: 7, to: "LAST_MAP" }, #{ x: 3, y: 7, to: "LAST_MAP" }] });
    content.patch("maps", "PALLET_TOWN", #{ warps: #{ __append: [#{ x: 4, y: 8, to: "HUT", toX: 2, toY: 7, facing: "up" }] } });"#;

#[test]
fn last_map_is_the_outdoor_map_the_player_came_from_at_run_time() {
    let o = run(
        vec![rhai("hut", HUT)],
        "walk down 3\nwalk down 1\nwalk right 2\nexpect map HUT 2 7 up\nwalk up 1\nwalk down 1\nexpect map PALLET_TOWN 4 8 down",
    );
    let hut = o.game.maps().get("HUT").unwrap();
    assert_eq!(
        hut.warps[0].to, "LAST_MAP",
        "decided when taken, not at freeze"
    );
    let last = o.game.save.last_outdoor.clone().expect("recorded");
    assert_eq!((last.id.as_str(), last.x, last.y), ("PALLET_TOWN", 4, 8));

    // The same warp from the same map, with Route 1 recorded as where the player came from
    // (a save made in the hut after entering from Route 1): it returns to Route 1.
    let mut save = o.game.save.clone();
    save.player.map = "HUT".into();
    save.player.x = 2;
    save.player.y = 6;
    save.last_outdoor = Some(pallet_engine::save::OutdoorPoint {
        id: "ROUTE_1".into(),
        x: 10,
        y: 34,
    });
    let o = run_from(
        vec![rhai("hut", HUT)],
        "walk down 1\nexpect map ROUTE_1 10 34 down",
        Some(save),
    );
    assert!(o.transcript.contains("ROUTE_1"), "{}", o.transcript);
}

#[test]
fn a_vanilla_walk_records_no_last_outdoor_point() {
    let o = run(vec![], "walk down 3\nexpect map PALLET_TOWN 2 7 down");
    assert_eq!(
        o.game.save.last_outdoor, None,
        "vanilla saves stay byte-identical"
    );
}

#[test]
fn content_delete_unsets_a_key_in_rhai() {
    let o = run(
        vec![rhai(
            "no-rock",
            r#"content.patch("type_chart", "NORMAL", #{ ROCK: content.DELETE });
               if content.get("type_chart", "NORMAL").contains("ROCK") { throw "still there"; }
               if content.DELETE != #{ __delete: true } { throw "shape"; }"#,
        )],
        "idle",
    );
    assert!(
        o.transcript.contains("loaded 1 [no-rock]"),
        "{}",
        o.transcript
    );
    use pallet_engine::data::Type;
    assert_eq!(o.game.data().effectiveness(Type::Normal, Type::Rock), 10);
}

#[test]
fn the_guides_lua_map_script_example_runs_verbatim() {
    let guide = include_str!("../../docs/modding.md");
    let section = &guide[guide.find("### Map scripts as data").expect("section")..];
    let start = section.find("```lua\n").expect("lua example") + 7;
    let example = &section[start..start + section[start..].find("```").unwrap()];
    assert!(example.contains("mod.content.map_scripts:register(\"PALLET_CLUBHOUSE\""));
    let main = format!(
        r#"return function(mod)
  mod.content.maps:register("PALLET_CLUBHOUSE", {{ name = "CLUBHOUSE", tileset = "house",
    width = 4, height = 4, blocks = {{ 1, 1, 1, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 3, 0, 1 }},
    warps = {{ {{ x = 2, y = 7, destMap = "LAST_MAP" }} }},
    npcs = {{ {{ name = "member", x = 2, y = 4, facing = "down", text = "_ClubhouseMemberText" }} }} }})
  mod.content.maps:patch("PALLET_TOWN", {{ warps = {{ __append = {{ {{ x = 4, y = 8, destMap = "PALLET_CLUBHOUSE", destWarp = 1, facing = "up" }} }} }} }})
{example}end"#
    );
    let o = run(
        vec![lua("guide-lua", &main)],
        "walk down 3\nwalk down 1\nwalk right 2\nexpect map PALLET_CLUBHOUSE 2 7 up\n\
         walk up 2\nsection first\ntalk\nclose\nsection second\ntalk\nclose\nsection end",
    );
    let t = &o.transcript;
    let first = &t[t.find("first").unwrap()..t.find("second").unwrap()];
    let second = &t[t.find("second").unwrap()..t.find("section end").unwrap_or(t.len())];
    assert!(first.contains("Take this."), "{first}");
    assert!(
        second.contains("Use it well!") && !second.contains("Take this."),
        "{second}"
    );
    assert!(o.game.save.flag("EVENT_GOT_CANDY"));
    let candy = o.game.save.inventory.iter().find(|s| s.id == "RARE_CANDY");
    assert_eq!(candy.map(|s| s.count), Some(1));
}

#[test]
fn a_registered_item_is_given_by_a_data_map_script_and_bagged() {
    let o = run(
        vec![rhai(
            "oran-gift",
            r#"content.register("items", "ORAN_BERRY", #{ name: "ORAN BERRY", price: 20, kind: "heal", hp: 10 });
               content.register("map_scripts", "PALLET_TOWN", #{ onEnter: [
                   #{ op: "check_flag", flag: "EVENT_GOT_ORAN" },
                   #{ op: "jump_if_true", label: "done" },
                   #{ op: "give_item", item: "ORAN_BERRY", count: 2 },
                   #{ op: "set_flag", flag: "EVENT_GOT_ORAN" },
                   #{ op: "label", name: "done" }
               ] });"#,
        )],
        "walk down 3\nexpect map PALLET_TOWN 2 7 down\nexpect flag EVENT_GOT_ORAN on",
    );
    let bag = &o.game.save.inventory;
    assert!(
        bag.iter().any(|s| s.id == "ORAN_BERRY" && s.count == 2),
        "{bag:?}\n{}",
        o.transcript
    );
    let d = o.game.data();
    let oran = d.item(d.item_by_name("ORAN_BERRY").unwrap());
    assert_eq!(oran.price, 20);
}

#[test]
fn override_takes_a_whole_record_in_rhai_and_lua_alike() {
    let r = rhai(
        "partial-rhai",
        r#"let code = "ok";
           try { content.override("moves", "TACKLE", #{ power: 40 }); } catch (e) { code = e.code; }
           log.info(`override: ${code}`);"#,
    );
    let l = lua(
        "partial-lua",
        r#"return function(mod)
  local ok = pcall(function() mod.content.moves:override("POUND", { power = 40 }) end)
  mod.log:info("override ok: %s", tostring(ok))
end"#,
    );
    let o = run(vec![r, l], "idle");
    let t = &o.transcript;
    assert!(t.contains("[partial-rhai] override: schema"), "{t}");
    assert!(t.contains("[partial-lua] override ok: false"), "{t}");
    let d = o.game.data();
    assert_eq!(d.move_data(d.move_by_name("TACKLE").unwrap()).power, 35);
}
