//! Issue 16: the content registries hold the base game and the game plays what mods made of
//! them. Every test loads real mods from a folder through `pallet run`'s path
//! (`play_with_mods`: the loader, the Rhai/Lua hosts, the freeze-time compile) and checks the
//! running game.

#[path = "common/mod_dir.rs"]
mod mod_dir_support;
use mod_dir_support::content_mod_dir;

use std::path::PathBuf;

use pallet_engine::battle::calc::{damage_rolls, CalcInput, CalcSide};
use pallet_engine::battle::BattleMode;
use pallet_engine::data::Type;
use pallet_engine::world::GameVersion;
use pallet_script_host::cli::cmd_run::{play_with_mods, RunOutcome};
use pallet_script_host::host::ModsOptions;

fn mod_dir(id: &str, entry: &str, main: &str) -> PathBuf {
    content_mod_dir("content", id, "1.2.3", entry, main)
}

fn run(dirs: Vec<PathBuf>, scenario: &str) -> RunOutcome {
    let opts = ModsOptions {
        dirs,
        no_default_mods: true,
        ..Default::default()
    };
    match play_with_mods(GameVersion::Red, 7, scenario, Some(&opts)) {
        Ok(o) => o,
        Err(f) => panic!("{}\n---\n{}", f.message, f.transcript),
    }
}

fn rhai(id: &str, main: &str) -> PathBuf {
    mod_dir(id, "main.rhai", main)
}

fn tackle_damage(o: &RunOutcome) -> Vec<u16> {
    let d = o.game.data();
    let input = CalcInput {
        attacker: CalcSide::new(d, d.species_by_name("RATTATA").unwrap(), 10, 15, 0),
        defender: CalcSide::new(d, d.species_by_name("PIDGEY").unwrap(), 10, 15, 0),
        mv: d.move_by_name("TACKLE").unwrap(),
        crit: false,
        reflect: false,
        light_screen: false,
        mode: BattleMode::Link,
    };
    damage_rolls(d, &input).unwrap()
}

#[test]
fn the_modding_guide_content_examples_run_verbatim() {
    let guide = include_str!("../../docs/modding.md");
    let start = guide
        .find("## Content\n\n```rhai\n")
        .expect("content section")
        + 20;
    let body = &guide[start..start + guide[start..].find("```").unwrap()];
    assert!(
        body.contains(r#"content.patch("pokemon", "PIKACHU", #{ baseStats: #{ speed: 100 } });"#)
    );
    let main = format!(
        "{body}\nif rec.price != 300 {{ throw \"POTION price\"; }}\n\
         if ids.len() != 152 {{ throw `ids ${{ids.len()}}`; }}\n\
         if all.len() != 152 {{ throw \"each\"; }}\n\
         log.info(`speed ${{content.get(\"pokemon\", \"PIKACHU\").baseStats.speed}}`);\n"
    );
    let o = run(vec![rhai("guide", &main)], "idle");
    assert!(
        o.transcript.contains("loaded 1 [guide]"),
        "{}",
        o.transcript
    );
    assert!(
        o.transcript.contains("[guide] speed 100"),
        "{}",
        o.transcript
    );
    let d = o.game.data();
    assert_eq!(d.species(d.species_by_name("PIKACHU").unwrap()).spe, 100);
    assert!(
        d.item_by_name("ORAN_BERRY").is_none(),
        "registered then removed"
    );
    let tackle = d.move_data(d.move_by_name("TACKLE").unwrap());
    assert_eq!((tackle.power, tackle.pp), (40, 35), "overridden whole");
    use pallet_engine::data::Type;
    assert_eq!(
        d.effectiveness(Type::Normal, Type::Rock),
        10,
        "content.DELETE"
    );
}

#[test]
fn a_patched_move_power_changes_damage() {
    let vanilla = run(vec![], "idle");
    let o = run(
        vec![rhai(
            "strong-tackle",
            r#"content.patch("moves", "TACKLE", #{ power: 120 });"#,
        )],
        "idle",
    );
    let (before, after) = (tackle_damage(&vanilla), tackle_damage(&o));
    assert!(after[0] > before[0] * 2, "{before:?} -> {after:?}");
    assert_eq!(
        o.game.content_mods(),
        &[("strong-tackle".to_owned(), "1.2.3".to_owned())]
    );
    assert_eq!(o.game.save.meta.content_mods.len(), 1);
    // Without content mods the game plays the embedded tables themselves.
    assert!(std::ptr::eq(
        vanilla.game.data(),
        pallet_engine::data::gen1()
    ));
}

#[test]
fn a_patched_type_chart_entry_is_played() {
    let o = run(
        vec![rhai(
            "ghostbuster",
            r#"content.patch("type_chart", "NORMAL", #{ GHOST: 2.0, ROCK: mod_delete() });
               fn mod_delete() { #{ __delete: true } }"#,
        )],
        "idle",
    );
    let d = o.game.data();
    assert_eq!(d.effectiveness(Type::Normal, Type::Ghost), 20);
    assert_eq!(d.effectiveness(Type::Normal, Type::Rock), 10);
    assert!(d.type_matchups().contains(&(Type::Normal, Type::Ghost, 20)));
}

#[test]
fn a_registered_item_goes_into_the_bag() {
    let o = run(
        vec![rhai(
            "oran",
            r#"content.register("items", "ORAN_BERRY", #{ name: "ORAN BERRY", price: 20, kind: "heal", hp: 10 });"#,
        )],
        "bag ORAN_BERRY 3",
    );
    let bag = &o.game.save.inventory;
    assert!(
        bag.iter().any(|s| s.id == "ORAN_BERRY" && s.count == 3),
        "{bag:?}"
    );
    let d = o.game.data();
    let oran = d.item(d.item_by_name("oran berry").unwrap());
    assert_eq!(
        (oran.price, oran.num),
        (20, 7),
        "first free cartridge number"
    );
}

#[test]
fn a_patched_trainer_party_is_fought() {
    let o = run(
        vec![rhai(
            "tough-bug",
            r#"content.patch("trainers", "BUG_CATCHER", #{ parties: [[#{ species: "BEEDRILL", level: 30 }]] });"#,
        )],
        "give RATTATA 16\ntrainer BUG_CATCHER 0",
    );
    let b = o.game.battle().expect("a trainer battle runs");
    let enemy = b.party(pallet_engine::battle::Side::Enemy);
    assert_eq!(enemy.len(), 1);
    let d = o.game.data();
    assert_eq!(d.species(enemy[0].species).id, "BEEDRILL");
    assert_eq!(enemy[0].level, 30);
}

#[test]
fn a_patched_encounter_table_fills_the_grass() {
    let slots: Vec<String> = (0..10)
        .map(|_| r#"#{ species: "MEWTWO", level: 70 }"#.to_owned())
        .collect();
    let o = run(
        vec![rhai(
            "mewtwo-grass",
            &format!(
                r#"content.patch("encounters", "ROUTE_1", #{{ grass: #{{ slots: [{}] }} }});"#,
                slots.join(", ")
            ),
        )],
        "idle",
    );
    let route = o.game.maps().get("ROUTE_1").unwrap();
    let enc = route.encounters.as_ref().unwrap();
    assert!(enc
        .grass
        .iter()
        .all(|s| s.species == "MEWTWO" && s.level == 70));
}

#[test]
fn bad_content_is_one_error_per_problem_and_the_game_still_boots() {
    let o = run(
        vec![
            rhai(
                "dangling",
                r#"content.patch("pokemon", "PIKACHU", #{ learnset: [#{ level: 5, move: "NO_SUCH_MOVE" }] });
                   content.patch("moves", "TACKLE", #{ power: 99 });"#,
            ),
            rhai(
                "schema",
                r#"content.patch("pokemon", "PIKACHU", #{ baseStats: #{ speed: "fast" } });"#,
            ),
            rhai("unknown", r#"content.register("spells", "FIREBALL", #{});"#),
            rhai(
                "missing",
                r#"content.patch("moves", "NO_SUCH_MOVE", #{ power: 1 });"#,
            ),
            rhai(
                "nowhere",
                r#"content.patch("maps", "PALLET_TOWN", #{ warps: #{ __append: [
                       #{ x: 3, y: 3, to: "NO_SUCH_MAP", toX: 1, toY: 1 } ] } });"#,
            ),
            rhai(
                "good",
                r#"content.patch("moves", "POUND", #{ power: 41 });"#,
            ),
        ],
        "idle",
    );
    let t = &o.transcript;
    assert!(t.contains("loaded 1 [good]"), "{t}");
    assert!(
        t.contains("pokemon.PIKACHU.learnset[1].move: \"NO_SUCH_MOVE\" is not a move"),
        "{t}"
    );
    assert!(t.contains("pokemon.PIKACHU.baseStats.speed"), "{t}");
    assert!(t.contains("unknown registry \"spells\""), "{t}");
    assert!(t.contains("moves:patch(NO_SUCH_MOVE): no such id"), "{t}");
    assert!(
        t.contains("nowhere failed: content: map PALLET_TOWN: warp at (3, 3) leads to unknown map NO_SUCH_MAP"),
        "{t}"
    );
    assert!(!t.contains("content: content:"), "{t}");
    let d = o.game.data();
    // The dangling mod was rolled back whole (its TACKLE patch too); the good one stays.
    assert_eq!(d.move_data(d.move_by_name("TACKLE").unwrap()).power, 35);
    assert_eq!(d.move_data(d.move_by_name("POUND").unwrap()).power, 41);
    assert_eq!(
        o.game.content_mods(),
        &[("good".to_owned(), "1.2.3".to_owned())]
    );
}

#[test]
fn the_lua_clubhouse_is_walked_into_talked_to_twice_and_left() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/lua_mods/pallet-clubhouse");
    // The same scenario file `pallet run --scenario` plays (script-host/tests/run_cli.rs).
    let scenario = std::fs::read_to_string(dir.join("clubhouse.scn")).unwrap();
    let o = run(vec![dir], &scenario);
    let t = &o.transcript;
    assert!(
        t.contains("[pallet-clubhouse] PALLET_TOWN has 4 warps"),
        "{t}"
    );
    let first = &t[t.find("first talk").unwrap()..t.find("second talk").unwrap()];
    let second = &t[t.find("second talk").unwrap()..t.find("leaving").unwrap()];
    assert!(first.contains("Welcome to the club!"), "{first}");
    assert!(!first.contains("Use that candy well!"), "{first}");
    assert!(second.contains("Use that candy well!"), "{second}");
    assert!(!second.contains("Welcome to the club!"), "{second}");
    let candy: Vec<_> = o
        .game
        .save
        .inventory
        .iter()
        .filter(|s| s.id == "RARE_CANDY")
        .collect();
    assert_eq!(candy.len(), 1);
    assert_eq!(candy[0].count, 1, "the second talk gives nothing");
    assert_eq!(
        o.game.content_mods(),
        &[("pallet-clubhouse".to_owned(), "1.0.0".to_owned())]
    );
}

#[test]
fn a_registered_map_has_its_own_wild_encounters() {
    let slots: Vec<String> = (0..10)
        .map(|_| r#"#{ species: "PIKACHU", level: 9 }"#.to_owned())
        .collect();
    let main = format!(
        r#"content.register("maps", "MEADOW", #{{ name: "MEADOW", tileset: "overworld", width: 2, height: 3,
               blocks: [2, 2, 2, 2, 2, 0], outdoor: true,
               warps: [#{{ x: 2, y: 5, to: "LAST_MAP" }}] }});
           content.register("encounters", "MEADOW", #{{ grass: #{{ rate: 255, slots: [{}] }} }});
           content.patch("maps", "PALLET_TOWN", #{{ warps: #{{ __append: [#{{ x: 4, y: 8, to: "MEADOW", toX: 2, toY: 5, facing: "up" }}] }} }});"#,
        slots.join(", ")
    );
    let o = run(
        vec![rhai("meadow", &main)],
        "give RATTATA 30\nwalk down 3\nwalk down 1\nwalk right 2\nexpect map MEADOW 2 5 up\nwalk up 2\nseek up run\nexpect map MEADOW",
    );
    let t = &o.transcript;
    assert!(t.contains("PIKACHU"), "{t}");
    let meadow = o.game.maps().get("MEADOW").unwrap();
    assert_eq!(
        meadow.warps[0].to, "LAST_MAP",
        "decided when the warp is taken"
    );
    let last = o
        .game
        .save
        .last_outdoor
        .clone()
        .expect("recorded on the way in");
    assert_eq!((last.id.as_str(), last.x, last.y), ("PALLET_TOWN", 4, 8));
}

#[test]
fn a_lua_mod_changes_every_data_registry_through_mod_content() {
    let main = r#"return function(mod)
  local c = mod.content
  c.moves:patch("TACKLE", { power = 120 })
  c.type_chart:patch("NORMAL", { GHOST = 2 })
  c.pokemon:patch("PIKACHU", { baseStats = { speed = 100 } })
  c.items:register("ORAN_BERRY", { name = "ORAN BERRY", price = 20, kind = "heal" })
  c.trainers:patch("BUG_CATCHER", { parties = { { { species = "BEEDRILL", level = 30 } } } })
  local slots = {}
  for i = 1, 10 do slots[i] = { species = "MEWTWO", level = 70 } end
  c.encounters:patch("ROUTE_1", { grass = { slots = slots } })
  mod.log:info("pikachu speed %d", c.pokemon:get("PIKACHU").baseStats.speed)
end"#;
    let o = run(
        vec![mod_dir("lua-data", "main.lua", main)],
        "give RATTATA 16\nbag ORAN_BERRY 2\ntrainer BUG_CATCHER 0",
    );
    assert!(
        o.transcript.contains("[lua-data] pikachu speed 100"),
        "{}",
        o.transcript
    );
    let d = o.game.data();
    assert_eq!(d.move_data(d.move_by_name("TACKLE").unwrap()).power, 120);
    assert_eq!(d.effectiveness(Type::Normal, Type::Ghost), 20);
    assert_eq!(d.species(d.species_by_name("PIKACHU").unwrap()).spe, 100);
    assert!(o.game.save.inventory.iter().any(|s| s.id == "ORAN_BERRY"));
    let enemy = o
        .game
        .battle()
        .unwrap()
        .party(pallet_engine::battle::Side::Enemy);
    assert_eq!(d.species(enemy[0].species).id, "BEEDRILL");
    let enc = o
        .game
        .maps()
        .get("ROUTE_1")
        .unwrap()
        .encounters
        .clone()
        .unwrap();
    assert!(enc.grass.iter().all(|s| s.species == "MEWTWO"));
}
