//! Issue 18: the shape of the public visible-encounter mod (`Pokemon_Sauvages_Visibles`), a
//! fixture written for Pallet (`tests/fixtures/lua_mods/shape-visible-wilds`, Rhai twin
//! `tests/fixtures/mods/twin-visible-wilds`). It needs `world.overworld()` (the map's cells,
//! the player, the NPCs, read mid-tick from the engine's published copy), `ctx.mover ==
//! ow.player` in `movement.collision`, `love.math.random`, and the world actions the engine
//! defers from a mid-tick link to the end of the tick: `spawnNpc` on `map.entered` (its id
//! answered at once), `removeNpc` and `startWildBattle` from `movement.collision`.

mod lua_support;
#[path = "common/overworld.rs"]
mod overworld;

use std::path::PathBuf;
use std::rc::Rc;

use lua_support::{lua_fixture, play_strict, rhai_fixture};
use overworld::grass_above_start;
use pallet_api::Runtime;
use pallet_engine::battle::Side;
use pallet_engine::game::Game;
use pallet_engine::save::SaveData;
use pallet_engine::world::{Direction, GameVersion};
use pallet_script_host::cli::cmd_run::RunOutcome;

fn run_from(dir: PathBuf, scenario: &str, save: SaveData) -> RunOutcome {
    play_strict(vec![dir], scenario, Some(save)).unwrap_or_else(|e| panic!("{e}"))
}

fn new_game() -> Game {
    Game::new_game(GameVersion::Red, 7, Rc::new(Runtime::default())).unwrap()
}

/// A new game's save with the player at `(x, y)` of `map`, facing up.
fn save_at(map: &str, (x, y): (u32, u32)) -> SaveData {
    let mut save = new_game().save;
    save.player.map = map.into();
    (save.player.x, save.player.y) = (x as u16, y as u16);
    save.player.facing = Direction::Up;
    save
}

/// `standing SPECIES Ln at X,Y as ID` lines: `(species, level, (x, y), id)`.
fn standing(t: &str) -> Vec<(String, u8, (u32, u32), String)> {
    t.lines()
        .filter_map(|l| {
            let rest = &l[l.find("standing ")? + "standing ".len()..];
            let w: Vec<&str> = rest.split_whitespace().collect();
            let (x, y) = w.get(3)?.split_once(',')?;
            Some((
                w[0].to_owned(),
                w[1].trim_start_matches('L').parse().ok()?,
                (x.parse().ok()?, y.parse().ok()?),
                w.get(5)?.to_string(),
            ))
        })
        .collect()
}

fn npc_at(o: &RunOutcome, id: &str) -> Option<(u32, u32)> {
    let ow = o.game.overworld()?;
    let npc = ow.map().def().npcs.iter().find(|n| n.name == id)?;
    Some((npc.x, npc.y))
}

fn both(check: fn(PathBuf, bool)) {
    check(lua_fixture("shape-visible-wilds"), true);
    check(rhai_fixture("twin-visible-wilds"), false);
}

#[test]
fn a_wild_stands_in_the_grass_and_bumping_into_it_starts_its_battle() {
    both(|dir, lua| {
        let (grass, start) = grass_above_start(&new_game());
        let save = save_at("ROUTE_1", start);
        let o = run_from(
            dir,
            "give PIDGEY 10\npress up\nexpect battle running\n",
            save,
        );
        let t = &o.transcript;
        let placed = standing(t);
        assert_eq!(placed.len(), 3, "placed at game.ready (a safe point):\n{t}");
        // The nearest free grass cell is the one just ahead (ties: the upper row first).
        let (species, level, at, id) = &placed[0];
        assert_eq!(*at, grass, "{t}");
        assert!(id.starts_with("WILD_"), "{t}");
        assert!(
            t.contains(&format!("engaged {species} L{level}")),
            "the bump reached the mod:\n{t}"
        );
        let battle = o.game.battle().expect("a battle runs");
        let enemy = &battle.party(Side::Enemy)[0];
        assert_eq!(o.game.data().species(enemy.species).id, species.as_str());
        assert_eq!(enemy.level, *level, "{t}");
        // The bumped one is gone; the others stand.
        assert_eq!(npc_at(&o, id), None, "{t}");
        for (_, _, at, id) in &placed[1..] {
            assert_eq!(npc_at(&o, id), Some(*at), "{t}");
        }
        if lua {
            // ctx.mover is the overworld's player table: the identity test held.
            assert!(!t.contains("no battle"), "{t}");
        }
    });
}

#[test]
fn a_battle_the_end_of_the_tick_refuses_is_reported_on_the_mods_log() {
    both(|dir, _| {
        let (_, start) = grass_above_start(&new_game());
        let save = save_at("ROUTE_1", start);
        // No party: the battle is accepted mid-tick, then refused when applied.
        let o = run_from(dir, "press up\nexpect battle none\n", save);
        let t = &o.transcript;
        assert!(t.contains("engaged "), "{t}");
        assert!(
            t.contains(
                "world.start_wild_battle (asked mid-tick, applied when the tick ended) was \
                 refused: no healthy party"
            ),
            "{t}"
        );
    });
}

#[test]
fn entering_a_map_places_them_mid_tick_and_leaving_takes_them_away() {
    both(|dir, _| {
        // PALLET_TOWN just below its warp to ROUTE_1.
        let save = save_at("PALLET_TOWN", (10, 1));
        let o = run_from(
            dir,
            "walk up 1\nexpect map ROUTE_1 10 35 up\nwalk down 1\nexpect map PALLET_TOWN\n\
             walk up 1\nexpect map ROUTE_1\n",
            save,
        );
        let t = &o.transcript;
        let placed = standing(t);
        assert_eq!(
            placed.len(),
            6,
            "placed on each entry (deferred spawns):\n{t}"
        );
        // The same cells both times: the first ones went with the map that was left.
        assert_eq!(
            placed[..3].iter().map(|p| p.2).collect::<Vec<_>>(),
            placed[3..].iter().map(|p| p.2).collect::<Vec<_>>(),
            "{t}"
        );
        for (_, _, at, id) in &placed[3..] {
            assert_eq!(npc_at(&o, id), Some(*at), "{t}");
        }
        assert!(!t.contains("was refused"), "no spurious refusals:\n{t}");
        assert!(!t.contains("could not place"), "{t}");
    });
}
