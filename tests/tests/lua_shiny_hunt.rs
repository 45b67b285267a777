//! Issue 18: the public `auto_shiny_hunt` mod's WALK hunt, in its shape
//! (`tests/fixtures/lua_mods/shape-shiny-hunt`, Rhai twin `tests/fixtures/mods/twin-shiny-hunt`).
//! It needs `mod.input` (a held direction with `press`/`release`, A mashed with `tap`, only
//! at a safe point), `battle.started`'s `ev.battle.enemy.mon` (species, level, DVs) and
//! `ev.battle:tryRun()` (deferred out of the battle's opening, run through `battle.run`, which
//! the mod's wrapper forces). `shiny-charm` turns every rolled encounter into a Gen 1 virtual
//! shiny (`startWildBattle` with DVs), whose battle the hunt leaves running.

mod lua_support;
#[path = "common/overworld.rs"]
mod overworld;

use std::path::PathBuf;
use std::rc::Rc;

use lua_support::{lua_fixture, play_strict_with_options, rhai_fixture};
use overworld::below_grass;
use pallet_api::{Runtime, Value};
use pallet_engine::battle::Side;
use pallet_engine::game::Game;
use pallet_engine::save::SaveData;
use pallet_engine::world::{Direction, GameVersion};
use pallet_script_host::cli::cmd_run::RunOutcome;

fn run(dirs: Vec<PathBuf>, hunt: &str, enabled: bool, scenario: &str) -> RunOutcome {
    let options = vec![(hunt.to_owned(), "enabled".to_owned(), Value::Bool(enabled))];
    run_options(dirs, options, scenario)
}

/// A strict run from [`grass_save`] with the option values `options`.
fn run_options(
    dirs: Vec<PathBuf>,
    options: Vec<(String, String, Value)>,
    scenario: &str,
) -> RunOutcome {
    play_strict_with_options(dirs, scenario, Some(grass_save()), options)
        .unwrap_or_else(|e| panic!("{e}"))
}

/// A new game's save on ROUTE_1, on a grass cell with grass above it, a PIDGEY in the party.
fn grass_save() -> SaveData {
    let game = Game::new_game(GameVersion::Red, 7, Rc::new(Runtime::default())).unwrap();
    let (x, y) = below_grass(&game);
    let mut save = game.save;
    save.player.map = "ROUTE_1".into();
    (save.player.x, save.player.y) = (x as u16, y as u16);
    save.player.facing = Direction::Up;
    let data = pallet_engine::data::gen1();
    let pidgey = data.species_by_name("PIDGEY").unwrap();
    let mon = pallet_engine::pokemon::Pokemon::new(
        data,
        pidgey,
        50,
        pallet_engine::pokemon::Dvs::from_bytes([0xff, 0xff]),
    );
    let mut party = pallet_engine::pokemon::Party::default();
    party.add(mon).unwrap();
    save.set_party(&party, data).unwrap();
    save
}

/// Each hunt (the Lua fixture, the Rhai twin) with its id.
fn hunts() -> [(PathBuf, &'static str); 2] {
    [
        (lua_fixture("shape-shiny-hunt"), "shape-shiny-hunt"),
        (rhai_fixture("twin-shiny-hunt"), "twin-shiny-hunt"),
    ]
}

fn count(t: &str, needle: &str) -> usize {
    t.lines().filter(|l| l.contains(needle)).count()
}

#[test]
fn with_no_button_pressed_the_hunt_walks_meets_wilds_and_flees_each() {
    for (dir, id) in hunts() {
        let o = run(vec![dir], id, true, "press none 3000\n");
        let t = &o.transcript;
        let met = count(t, ": running");
        assert!(
            met >= 2,
            "{id}: wild battles came from the walk alone:\n{t}"
        );
        let fled = count(t, "got away (run)");
        assert_eq!(fled, met, "{id}: each one fled:\n{t}");
        assert!(t.contains("battle: Got away safely!"), "{id}: {t}");
        assert!(!t.contains("refused"), "{id}: {t}");
        assert!(o.game.battle().is_none(), "{id}: no battle left open");
        let p = &o.game.save.player;
        assert_eq!(p.map, "ROUTE_1", "{id}: it paced in place");
        let (x, _) = below_grass(&o.game);
        assert_eq!(u32::from(p.x), x, "{id}: on one column");
        assert!(o.game.mod_input().held().count() <= 1, "{id}");
    }
}

#[test]
fn a_disabled_hunt_presses_nothing() {
    for (dir, id) in hunts() {
        let o = run(vec![dir], id, false, "press none 600\n");
        let t = &o.transcript;
        assert_eq!(count(t, "battle: "), 0, "{id}: {t}");
        assert!(o.game.mod_input().is_empty(), "{id}");
        let start = grass_save().player;
        assert_eq!(
            (o.game.save.player.x, o.game.save.player.y),
            (start.x, start.y)
        );
    }
}

#[test]
fn a_shiny_encounter_is_left_running() {
    for (dir, id) in hunts() {
        let o = run(
            vec![dir, lua_fixture("shiny-charm")],
            id,
            true,
            "press none 3000\nexpect battle running\n",
        );
        let t = &o.transcript;
        assert!(t.contains("will be shiny"), "{id}: {t}");
        assert_eq!(
            count(t, "(dvs 10/10/10/10): the battle stays open"),
            1,
            "{id}: {t}"
        );
        assert_eq!(count(t, ": running"), 0, "{id}: {t}");
        let battle = o.game.battle().expect("the shiny's battle runs");
        let enemy = &battle.party(Side::Enemy)[0];
        assert_eq!(
            (enemy.dvs.atk, enemy.dvs.def, enemy.dvs.spe, enemy.dvs.spc),
            (10, 10, 10, 10)
        );
    }
}

#[test]
fn unloading_the_hunt_releases_its_hold() {
    for (dir, id) in hunts() {
        let o = run(
            vec![dir],
            id,
            true,
            &format!("press none 3\nunload {id}\npress none 30\n"),
        );
        let t = &o.transcript;
        assert!(t.contains("released 1 button(s)"), "{id}: {t}");
        assert!(o.game.mod_input().is_empty(), "{id}");
    }
}

#[test]
fn the_forced_run_is_the_hunts_own_battle_run_answer() {
    for (dir, id) in hunts() {
        // Inner never-escape link: the hunt's wrapper answers before it, every run succeeds.
        let o = run(
            vec![dir.clone(), lua_fixture("no-escape")],
            id,
            true,
            "press none 1500\n",
        );
        let t = &o.transcript;
        assert!(count(t, ": running") >= 1, "{id}: {t}");
        assert_eq!(
            count(t, ": running"),
            count(t, "got away (run)"),
            "{id}: {t}"
        );
        assert!(!t.contains("escape refused"), "{id}: {t}");
        // Outer never-escape link: the run goes through battle.run and fails there.
        let mods = vec![dir, lua_fixture("no-escape")];
        let scenario = "press none 1500\nexpect battle running\n";
        let o = run_with(mods, &[(id, "enabled"), ("no-escape", "outer")], scenario);
        let t = &o.transcript;
        assert_eq!(count(t, ": running"), 1, "{id}: {t}");
        assert!(t.contains("escape refused (attempt 1)"), "{id}: {t}");
        assert!(t.contains("battle: Can't escape!"), "{id}: {t}");
        assert_eq!(count(t, "got away"), 0, "{id}: {t}");
    }
}

/// [`run`] with several toggles switched on.
fn run_with(dirs: Vec<PathBuf>, on: &[(&str, &str)], scenario: &str) -> RunOutcome {
    let options = on
        .iter()
        .map(|(m, k)| ((*m).to_owned(), (*k).to_owned(), Value::Bool(true)))
        .collect();
    run_options(dirs, options, scenario)
}

#[test]
fn input_and_try_run_are_refused_with_stable_reasons() {
    let probes = [
        (lua_fixture("input-probe"), "input-probe"),
        (rhai_fixture("twin-input-probe"), "twin-input-probe"),
    ];
    for (dir, id) in probes {
        let o = run_with(
            vec![dir],
            &[],
            "press up 10\ntrainer BUG_CATCHER 0\npress none 2\n",
        );
        let t = &o.transcript;
        for line in [
            "probe select: unknown button",
            "probe number: unknown button",
            "probe unknown token: unknown token",
            "probe release: ok true",
            "probe release again: unknown token",
            "probe seventeenth tap: too many queued taps",
            "probe tryRun outside a battle: no battle is running",
            "probe bad dvs: invalid dvs",
            "probe mid-tick press: input only at a safe point",
            "probe tryRun trainer: ok true",
            "world.try_run (asked mid-tick, applied when the tick ended) was refused: cannot \
             run from a trainer battle",
        ] {
            assert!(t.contains(line), "{id}: {line:?} missing:\n{t}");
        }
        assert!(
            o.game.battle().is_some(),
            "{id}: the trainer battle goes on"
        );
    }
}
