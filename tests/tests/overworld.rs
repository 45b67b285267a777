//! Cross-crate overworld checks through the public `Game` API and a live mod runtime:
//! the dock cycle with and without a `map.occupancy_allowed` wrapper, RFC 0013 block reads per
//! version, busy states in checkpoint order, and determinism of the whole scenario.

use std::cell::Cell;
use std::rc::Rc;

use pallet_api::catalog::{events, hooks};
use pallet_api::reasons::BlockReadError;
use pallet_api::{Runtime, Value};
use pallet_engine::game::Game;
use pallet_engine::world::{GameVersion, Input};
use pallet_script_host::cli::cmd_run::{play, MAIN_SCENARIO};

fn run_until(game: &mut Game, input: Input, done: impl Fn(&Game) -> bool) {
    for _ in 0..10_000 {
        if done(game) {
            return;
        }
        game.step(input);
    }
    panic!("condition never reached; busy = {:?}", game.busy());
}

fn pos(game: &Game) -> (String, u32, u32) {
    let ow = game.overworld().expect("overworld");
    (ow.map_id().to_owned(), ow.player().x, ow.player().y)
}

/// Walk from the start point to the dock gate of Vermilion (18,30), using the scenario runner's
/// route up to the city, then step into the dock.
fn game_at_city_gate(version: GameVersion, rt: Rc<Runtime>, flags: &[&str]) -> Game {
    let mut game = Game::new_game(version, 3, rt).unwrap();
    for f in flags {
        game.set_flag(f, true);
    }
    // Teleport-free route: a script warp row is the public way to move the player for a test.
    let ow_rows = vec![pallet_engine::world::ScriptRow::Warp {
        map: "VERMILION_CITY".into(),
        x: 18,
        y: 30,
        facing: pallet_engine::world::Direction::Down,
    }];
    game.queue_script("test", ow_rows).unwrap();
    run_until(&mut game, Input::None, |g| g.busy().is_none());
    assert_eq!(pos(&game), ("VERMILION_CITY".into(), 18, 30));
    game
}

#[test]
fn departed_dock_ejects_without_subscribers() {
    for version in GameVersion::ALL {
        let mut game = game_at_city_gate(
            version,
            Rc::new(Runtime::new()),
            &["EVENT_GOT_HM01", "EVENT_SS_ANNE_LEFT"],
        );
        let flags = game.save.flags.clone();
        game.step(Input::Down);
        run_until(&mut game, Input::None, |g| {
            g.busy().map(|b| b.as_str()) == Some("screen_busy")
        });
        assert_eq!(pos(&game), ("VERMILION_DOCK".into(), 14, 0));
        assert_eq!(
            game.active_block_at("VERMILION_DOCK", &Value::Int(7), &Value::Int(1)),
            Ok(1)
        );
        // A is ignored while the fade-in finishes, then closes the box; the close warps.
        run_until(&mut game, Input::A, |g| g.busy().is_none());
        assert_eq!(pos(&game), ("VERMILION_CITY".into(), 18, 29));
        assert_eq!(
            game.save.flags, flags,
            "{version}: no flag written by the ejection"
        );
    }
}

#[test]
fn a_permission_wrapper_keeps_the_player_and_owner_cleanup_restores_vanilla() {
    let rt = Rc::new(Runtime::new());
    let calls = Rc::new(Cell::new(0));
    let c = Rc::clone(&calls);
    rt.wrap::<hooks::MapOccupancyAllowed, _>("mew_under_the_truck", 0, move |next, args| {
        c.set(c.get() + 1);
        let downstream = next.call();
        Ok(downstream || args.ctx.map_id == "VERMILION_DOCK")
    });
    let steps = Rc::new(Cell::new(0));
    let s = Rc::clone(&steps);
    rt.on::<events::WorldStepped, _>("mew_under_the_truck", 0, move |_| {
        s.set(s.get() + 1);
        Ok(())
    });
    let mut game = game_at_city_gate(
        GameVersion::Red,
        Rc::clone(&rt),
        &["EVENT_GOT_HM01", "EVENT_SS_ANNE_LEFT"],
    );
    game.step(Input::Down);
    run_until(&mut game, Input::None, |g| g.busy().is_none());
    assert_eq!(
        pos(&game),
        ("VERMILION_DOCK".into(), 14, 0),
        "occupancy allowed"
    );
    assert_eq!(calls.get(), 1);
    assert!(steps.get() >= 1);
    assert_eq!(
        game.active_block_at("VERMILION_DOCK", &Value::Int(5), &Value::Int(2)),
        Ok(13),
        "ship still erased"
    );
    // The player can walk the empty dock.
    game.step(Input::Down);
    run_until(&mut game, Input::None, |g| g.busy().is_none());
    assert_eq!(pos(&game), ("VERMILION_DOCK".into(), 14, 1));

    // Removing the mod's links (owner cleanup) brings the vanilla ejection back.
    assert!(rt.remove_owner("mew_under_the_truck") >= 1);
    assert!(!rt.wants_hook::<hooks::MapOccupancyAllowed>());
    let mut game = game_at_city_gate(
        GameVersion::Red,
        rt,
        &["EVENT_GOT_HM01", "EVENT_SS_ANNE_LEFT"],
    );
    game.step(Input::Down);
    run_until(&mut game, Input::None, |g| {
        g.busy().map(|b| b.as_str()) == Some("screen_busy")
    });
    assert_eq!(calls.get(), 1, "the removed link is not called");
}

#[test]
fn block_reads_answer_from_each_versions_data() {
    let read = |v: GameVersion| {
        let game = game_at_city_gate(v, Rc::new(Runtime::new()), &[]);
        let mut game = game;
        game.step(Input::Down);
        run_until(&mut game, Input::None, |g| g.busy().is_none());
        let row0: Vec<u32> = (0..14)
            .map(|x| {
                game.active_block_at("VERMILION_DOCK", &Value::Int(x), &Value::Int(0))
                    .unwrap()
            })
            .collect();
        assert_eq!(
            game.active_block_at("VERMILION_DOCK", &Value::Float(f64::NAN), &Value::Int(0)),
            Err(BlockReadError::InvalidBlockCoordinates)
        );
        assert_eq!(
            game.active_block_at("VERMILION_DOCK", &Value::Int(14), &Value::Int(0)),
            Err(BlockReadError::BlockCoordinatesOutOfBounds)
        );
        assert_eq!(
            game.active_block_at("PALLET_TOWN", &Value::Int(0), &Value::Int(0)),
            Err(BlockReadError::MapNotActive)
        );
        row0
    };
    let (r, b, y) = (
        read(GameVersion::Red),
        read(GameVersion::Blue),
        read(GameVersion::Yellow),
    );
    assert_eq!(r, b);
    assert_ne!(r, y);
}

#[test]
fn busy_states_follow_the_checkpoint_order() {
    let mut game = game_at_city_gate(
        GameVersion::Red,
        Rc::new(Runtime::new()),
        &["EVENT_SS_ANNE_LEFT"],
    );
    let mut seen = Vec::new();
    game.step(Input::Down);
    for _ in 0..200 {
        let b = game.busy().map(|b| b.as_str()).unwrap_or("idle");
        if seen.last() != Some(&b) {
            seen.push(b);
        }
        game.step(if b == "screen_busy" {
            Input::A
        } else {
            Input::None
        });
    }
    assert_eq!(
        seen,
        [
            "movement_busy",
            "transition_busy",
            "screen_busy",
            "transition_busy",
            "idle"
        ]
    );
}

#[test]
fn the_scenario_is_deterministic_and_seed_sensitive() {
    let a = play(GameVersion::Red, 11, MAIN_SCENARIO).unwrap_or_else(|f| panic!("{}", f.message));
    let b = play(GameVersion::Red, 11, MAIN_SCENARIO).unwrap_or_else(|f| panic!("{}", f.message));
    assert_eq!(a.transcript, b.transcript);
    assert_eq!(
        pallet_engine::save::encode(&a.game.save).unwrap(),
        pallet_engine::save::encode(&b.game.save).unwrap()
    );
    let y =
        play(GameVersion::Yellow, 11, MAIN_SCENARIO).unwrap_or_else(|f| panic!("{}", f.message));
    assert_ne!(a.transcript, y.transcript);
}
