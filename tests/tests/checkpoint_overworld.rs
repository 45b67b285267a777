//! RFC 0004 overworld checkpoints through the engine API: lazy identity, inspection refusals,
//! detached deterministic capture, A → mutate → restore A → recapture A2 byte equality,
//! compatibility rejection without mutation (incl. a property test over random corruptions),
//! map side-effect suppression, injected reconstruction failure with rollback, and
//! `checkpoint.restored` only on success.

#[path = "common/recapture.rs"]
mod recapture;

use std::cell::Cell;
use std::rc::Rc;

use pallet_api::catalog::events;
use pallet_api::reasons::CheckpointCode;
use pallet_api::{Runtime, Value};
use pallet_engine::checkpoint::{self, Checkpoint, Fault};
use pallet_engine::data::gen1;
use pallet_engine::game::Game;
use pallet_engine::pokemon::{Dvs, Pokemon};
use pallet_engine::save::{self, ItemStack, MonRecord};
use pallet_engine::world::map_scripts::{Contribution, Handler};
use pallet_engine::world::{Direction, GameVersion, Input, ScriptRow};
use proptest::prelude::*;
use recapture::recapture_as;

fn run_until_idle(game: &mut Game) {
    for _ in 0..10_000 {
        match game.busy().map(|b| b.as_str()) {
            None => return,
            Some("screen_busy") => game.step(Input::A),
            Some(_) => game.step(Input::None),
        }
    }
    panic!("never idle: {:?}", game.busy());
}

/// A new game whose start map greets with a text box `onEnter` (to prove suppression).
fn new_game(rt: Rc<Runtime>) -> Game {
    let mut game = Game::boot(GameVersion::Red, 9, rt).unwrap();
    let start = game.maps().start.map.clone();
    let greet = Contribution {
        on_enter: Some(Handler::Rows(vec![ScriptRow::Say {
            literal: "welcome back".into(),
        }])),
        ..Contribution::default()
    };
    game.scripts_mut()
        .expect("registry not shared yet")
        .contribute(&start, "tester", 0, greet);
    game.enter_overworld().unwrap();
    run_until_idle(&mut game);
    game.drain_feed();
    game
}

fn warp(game: &mut Game, map: &str, x: u32, y: u32, facing: Direction) {
    game.queue_script(
        "test",
        vec![ScriptRow::Warp {
            map: map.into(),
            x,
            y,
            facing,
        }],
    )
    .unwrap();
    run_until_idle(game);
}

fn pikachu(level: u8) -> MonRecord {
    let data = gen1();
    let species = data.species_by_name("PIKACHU").unwrap();
    MonRecord::from_pokemon(&Pokemon::new(data, species, level, Dvs::uniform(9)), data).unwrap()
}

/// Representative progress: party, a box, bag items, flags, money, mod save data.
fn progress(game: &mut Game, n: u8) {
    game.save.party.push(pikachu(5 + n));
    game.save.boxes[0].push(pikachu(3 + n));
    game.save.inventory.push(ItemStack {
        id: "POTION".into(),
        count: 1 + u32::from(n),
    });
    game.set_flag("EVENT_GOT_HM01", n % 2 == 0);
    game.save.money += 100 * u32::from(n);
    game.save.mod_data.insert(
        "tester".into(),
        Value::Map([("visits".to_owned(), Value::Int(i64::from(n)))].into()),
    );
}

fn live_bytes(game: &Game) -> Vec<u8> {
    let mut out = save::encode(&game.save).unwrap();
    let ow = game.overworld().unwrap();
    let p = ow.player();
    out.extend(
        format!(
            "|{}|{}|{}|{:?}|{}|",
            ow.map_id(),
            p.x,
            p.y,
            p.facing,
            p.surfing
        )
        .bytes(),
    );
    // The RNG state is plain serde data; JSON is enough to compare it.
    out.extend(serde_json::to_vec(&game.rng).unwrap());
    out
}

fn counter<E: pallet_api::Event>(rt: &Runtime) -> Rc<Cell<u32>> {
    let n = Rc::new(Cell::new(0));
    let c = Rc::clone(&n);
    rt.on::<E, _>("counter", 0, move |_| {
        c.set(c.get() + 1);
        Ok(())
    });
    n
}

#[test]
fn ordinary_new_game_play_save_and_load_allocate_no_identity() {
    let mut game = Game::new_game(GameVersion::Red, 1, Rc::new(Runtime::new())).unwrap();
    for input in [Input::Down, Input::Left, Input::Right, Input::Up] {
        for _ in 0..20 {
            game.step(input);
        }
    }
    run_until_idle(&mut game);
    assert_eq!(game.save.meta.playthrough_id, None);
    let bytes = save::encode(&game.save).unwrap();
    let loaded = save::decode(&bytes).unwrap();
    let resumed = Game::from_save(loaded, 1, Rc::new(Runtime::new())).unwrap();
    assert_eq!(resumed.save.meta.playthrough_id, None);
}

#[test]
fn inspection_is_stable_and_allocates_a_deterministic_identity_lazily() {
    let mut title = Game::boot(GameVersion::Red, 1, Rc::new(Runtime::new())).unwrap();
    let cap = checkpoint::inspect(&mut title);
    assert_eq!(cap.refusal.unwrap().code, CheckpointCode::NotInPlaythrough);
    assert_eq!(title.save.meta.playthrough_id, None);

    let mut a = new_game(Rc::new(Runtime::new()));
    let mut b = new_game(Rc::new(Runtime::new()));
    let cap = checkpoint::inspect(&mut a);
    assert!(cap.can_capture && cap.can_restore && cap.refusal.is_none());
    assert_eq!(cap.kind.as_str(), "overworld");
    let id = a
        .save
        .meta
        .playthrough_id
        .clone()
        .expect("allocated on inspect");
    assert!(id.starts_with("pt-"));
    assert_eq!(checkpoint::inspect(&mut a), cap, "stable");
    assert_eq!(a.save.meta.playthrough_id.as_deref(), Some(id.as_str()));
    checkpoint::inspect(&mut b);
    assert_eq!(b.save.meta.playthrough_id, Some(id), "same state, same id");
}

#[test]
fn every_busy_state_is_refused_with_its_reason_in_order() {
    let mut game = new_game(Rc::new(Runtime::new()));
    warp(&mut game, "VERMILION_CITY", 18, 30, Direction::Down);
    // Step into the dock with the ship gone: movement → transition → screen → transition.
    game.set_flag("EVENT_SS_ANNE_LEFT", true);
    game.step(Input::Down);
    let mut seen: Vec<&'static str> = Vec::new();
    for _ in 0..200 {
        let cap = checkpoint::inspect(&mut game);
        let reason = cap.refusal.as_ref().map_or("ok", |r| r.code.as_str());
        if let Some(r) = &cap.refusal {
            assert!(!cap.can_capture && !cap.can_restore);
            assert!(!r.message.is_empty());
            assert_eq!(
                checkpoint::capture(&mut game).unwrap_err().code,
                r.code,
                "capture refuses with the same reason"
            );
        }
        if seen.last() != Some(&reason) {
            seen.push(reason);
        }
        game.step(if reason == "screen_busy" {
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
            "ok"
        ]
    );
    // Scripts and animations.
    game.queue_script("t", vec![ScriptRow::Wait { ticks: 5 }])
        .unwrap();
    assert_eq!(
        checkpoint::inspect(&mut game).refusal.unwrap().code,
        CheckpointCode::ScriptBusy
    );
}

#[test]
fn capture_is_detached_deterministic_and_synchronized() {
    let mut a = new_game(Rc::new(Runtime::new()));
    let mut b = new_game(Rc::new(Runtime::new()));
    for g in [&mut a, &mut b] {
        progress(g, 2);
        warp(g, "VERMILION_CITY", 18, 30, Direction::Left);
    }
    let ca = checkpoint::capture(&mut a).unwrap();
    let cb = checkpoint::capture(&mut b).unwrap();
    assert_eq!(ca.to_bytes().unwrap(), cb.to_bytes().unwrap());
    assert_eq!(
        ca.to_bytes().unwrap(),
        checkpoint::capture(&mut a).unwrap().to_bytes().unwrap()
    );
    let rt = &ca.runtime.overworld;
    assert_eq!(
        (rt.map.as_str(), rt.x, rt.y, rt.facing, rt.surfing),
        ("VERMILION_CITY", 18, 30, Direction::Left, false)
    );
    assert_eq!(ca.save.player.map, "VERMILION_CITY");
    assert_eq!((ca.save.player.x, ca.save.player.y), (18, 30));
    assert_eq!(ca.identity.game_version, "red");
    assert_eq!(ca.format, 1);
    // Detached: later play does not reach into the record.
    let before = ca.clone();
    progress(&mut a, 4);
    a.step(Input::Up);
    assert_eq!(ca, before);
    // Portable bytes round-trip, and the script value round-trips.
    let bytes = ca.to_bytes().unwrap();
    assert!(bytes.starts_with(b"PALLET-CHECKPOINT 1\n"));
    assert_eq!(Checkpoint::from_bytes(&bytes).unwrap(), ca);
    assert_eq!(Checkpoint::from_value(ca.to_value().unwrap()).unwrap(), ca);
    let v = ca.to_value().unwrap();
    let Value::Map(root) = &v else { panic!() };
    let keys: Vec<&str> = root.keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        ["format", "identity", "kind", "rng", "runtime", "save"]
    );
}

#[test]
fn a_mutate_restore_recapture_is_byte_identical() {
    let rt = Rc::new(Runtime::new());
    let restored = counter::<events::CheckpointRestored>(&rt);
    let entered = counter::<events::MapEntered>(&rt);
    let mut game = new_game(Rc::clone(&rt));
    progress(&mut game, 1);
    let start = game.overworld().unwrap().map_id().to_owned();
    let a = checkpoint::capture(&mut game).unwrap();
    let a_bytes = a.to_bytes().unwrap();
    let a_live = live_bytes(&game);

    // B: more progress, another map, another facing, RNG advanced.
    progress(&mut game, 3);
    game.save.party[0].hp -= 1;
    warp(&mut game, "VERMILION_CITY", 18, 30, Direction::Up);
    for _ in 0..30 {
        game.step(Input::Left);
    }
    run_until_idle(&mut game);
    assert_ne!(live_bytes(&game), a_live);
    let entered_before = entered.get();
    game.drain_feed();

    checkpoint::restore(&mut game, &a).unwrap();
    let a2 = checkpoint::capture(&mut game).unwrap();
    assert_eq!(a2.to_bytes().unwrap(), a_bytes, "A == A2 byte for byte");
    assert_eq!(live_bytes(&game), a_live);
    assert_eq!(game.overworld().unwrap().map_id(), start);
    // Side effects suppressed: no map.entered, no onEnter greeting, no presentation rows.
    assert_eq!(entered.get(), entered_before);
    assert_eq!(game.busy(), None, "onEnter did not queue its greeting");
    assert!(game.feed().is_empty(), "{:?}", game.feed());
    assert_eq!(restored.get(), 1);
    // The restored game keeps playing deterministically like the original from A.
    let mut twin = new_game(Rc::new(Runtime::new()));
    progress(&mut twin, 1);
    checkpoint::inspect(&mut twin);
    for g in [&mut game, &mut twin] {
        for _ in 0..40 {
            g.step(Input::Down);
        }
        run_until_idle(g);
    }
    assert_eq!(live_bytes(&game), live_bytes(&twin));
}

#[test]
fn compatibility_rejections_change_nothing_and_emit_nothing() {
    let rt = Rc::new(Runtime::new());
    let restored = counter::<events::CheckpointRestored>(&rt);
    let mut game = new_game(Rc::clone(&rt));
    progress(&mut game, 1);
    let a = checkpoint::capture(&mut game).unwrap();
    progress(&mut game, 2);
    let live = live_bytes(&game);
    type Mutation = Box<dyn Fn(&mut Checkpoint)>;
    let cases: Vec<(CheckpointCode, Mutation)> = vec![
        (
            CheckpointCode::UnsupportedFormat,
            Box::new(|c| c.format = 2),
        ),
        (
            CheckpointCode::UnsupportedRuntimeKind,
            Box::new(|c| c.kind = "menu".into()),
        ),
        (
            // A battle record needs `runtime.battle` (checkpoint_battle.rs covers the kind).
            CheckpointCode::InvalidCheckpoint,
            Box::new(|c| c.kind = "battle".into()),
        ),
        (
            CheckpointCode::WrongGame,
            Box::new(|c| c.identity.game_version = "blue".into()),
        ),
        (
            CheckpointCode::WrongPlaythrough,
            Box::new(|c| c.identity.playthrough_id = "pt-0".into()),
        ),
        (
            CheckpointCode::InvalidCheckpoint,
            Box::new(|c| c.save.meta.playthrough_id = None),
        ),
        (
            CheckpointCode::InvalidCheckpoint,
            Box::new(|c| c.runtime.overworld.x += 1),
        ),
        (
            CheckpointCode::InvalidMap,
            Box::new(|c| {
                c.runtime.overworld.map = "NOWHERE".into();
                c.save.player.map = "NOWHERE".into();
            }),
        ),
        (
            CheckpointCode::InvalidPosition,
            Box::new(|c| {
                c.runtime.overworld.x = 9000;
                c.save.player.x = 9000;
            }),
        ),
        (
            CheckpointCode::InvalidContent,
            Box::new(|c| {
                c.save.inventory.push(ItemStack {
                    id: "NOT_AN_ITEM".into(),
                    count: 1,
                })
            }),
        ),
        (
            CheckpointCode::InvalidContent,
            Box::new(|c| c.save.party[0].hp = 9999),
        ),
        (
            // Issue 21: a save format no load accepts (its written save would be refused).
            CheckpointCode::InvalidContent,
            Box::new(|c| c.save.meta.format = 65535),
        ),
        (
            // Issue 21: a heal point on a known map but outside it.
            CheckpointCode::InvalidContent,
            Box::new(|c| c.save.last_heal.x = 9000),
        ),
        (
            CheckpointCode::InvalidContent,
            Box::new(|c| c.save.last_heal.y = 300),
        ),
    ];
    for (code, corrupt) in &cases {
        let mut bad = a.clone();
        corrupt(&mut bad);
        let err = checkpoint::restore(&mut game, &bad).unwrap_err();
        assert_eq!(err.code, *code, "{}", err.message);
        assert_eq!(live_bytes(&game), live, "{code:?} mutated the game");
    }
    // Value-level shape errors.
    for (v, code) in [
        (Value::Int(3), CheckpointCode::InvalidCheckpoint),
        (
            Value::Map(Default::default()),
            CheckpointCode::UnsupportedFormat,
        ),
    ] {
        assert_eq!(
            checkpoint::restore_value(&mut game, &v).unwrap_err().code,
            code
        );
    }
    // A busy runtime refuses before validating anything.
    game.queue_script("t", vec![ScriptRow::Wait { ticks: 3 }])
        .unwrap();
    assert_eq!(
        checkpoint::restore(&mut game, &a).unwrap_err().code,
        CheckpointCode::ScriptBusy
    );
    assert_eq!(restored.get(), 0);
}

#[test]
fn injected_reconstruction_failure_rolls_back() {
    let rt = Rc::new(Runtime::new());
    let restored = counter::<events::CheckpointRestored>(&rt);
    let mut game = new_game(Rc::clone(&rt));
    progress(&mut game, 1);
    let a = checkpoint::capture(&mut game).unwrap();
    progress(&mut game, 2);
    warp(&mut game, "VERMILION_CITY", 18, 30, Direction::Up);
    let live = live_bytes(&game);

    checkpoint::inject_fault(Some(Fault::CorruptParty));
    let err = checkpoint::restore(&mut game, &a).unwrap_err();
    assert_eq!(err.code, CheckpointCode::RestoreFailed);
    assert!(err.message.contains("$.save.party.1.hp"), "{}", err.message);
    assert_eq!(live_bytes(&game), live, "rolled back exactly");

    checkpoint::inject_fault(Some(Fault::CorruptPartyAndRollback));
    let err = checkpoint::restore(&mut game, &a).unwrap_err();
    assert_eq!(err.code, CheckpointCode::RollbackFailed);
    assert_eq!(restored.get(), 0, "no event on failure");

    // The fault is one-shot: a clean restore now succeeds and emits once.
    checkpoint::restore(&mut game, &a).unwrap();
    assert_eq!(restored.get(), 1);
    assert_eq!(checkpoint::capture(&mut game).unwrap(), a);
}

fn fixture() -> (Game, Checkpoint, Vec<u8>) {
    let mut game = new_game(Rc::new(Runtime::new()));
    progress(&mut game, 1);
    let a = checkpoint::capture(&mut game).unwrap();
    progress(&mut game, 2);
    game.step(Input::Right);
    run_until_idle(&mut game);
    let bytes = a.to_bytes().unwrap();
    (game, a, bytes)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Random byte corruptions of a valid checkpoint either fail to decode, are rejected with
    /// the live game untouched, or (rarely) decode to a record that restores and then
    /// recaptures exactly.
    #[test]
    fn random_corruptions_never_change_live_state(
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4)
    ) {
        let (mut game, _a, bytes) = fixture();
        let live = live_bytes(&game);
        let header = b"PALLET-CHECKPOINT 1\n".len();
        let mut bad = bytes.clone();
        for (i, b) in &edits {
            let at = header + i.index(bad.len() - header);
            bad[at] = *b;
        }
        prop_assume!(bad != bytes);
        match Checkpoint::from_bytes(&bad) {
            Err(_) => {}
            Ok(cp) => match checkpoint::restore(&mut game, &cp) {
                Err(_) => prop_assert_eq!(live_bytes(&game), live),
                // A corrupted `engineVersion` restores (it is metadata), hence `recapture_as`.
                Ok(()) => prop_assert_eq!(
                    recapture_as(&mut game, &cp).to_bytes().unwrap(),
                    cp.to_bytes().unwrap()
                ),
            },
        }
    }

    /// Random corruptions of the script value (a leaf replaced) never mutate on rejection.
    #[test]
    fn random_value_corruptions_never_change_live_state(
        pick in any::<prop::sample::Index>(),
        replacement in prop_oneof![
            Just(Value::Nil), any::<bool>().prop_map(Value::Bool), any::<i64>().prop_map(Value::Int),
            "[a-z_]{0,8}".prop_map(Value::Str), Just(Value::List(vec![])),
        ]
    ) {
        let (mut game, a, _) = fixture();
        let live = live_bytes(&game);
        let mut v = a.to_value().unwrap();
        let n = count_leaves(&v);
        replace_leaf(&mut v, pick.index(n), &replacement);
        match checkpoint::restore_value(&mut game, &v) {
            Err(_) => prop_assert_eq!(live_bytes(&game), live),
            Ok(()) => {
                let cp = Checkpoint::from_value(v).unwrap();
                prop_assert_eq!(recapture_as(&mut game, &cp), cp);
            }
        }
    }
}

fn count_leaves(v: &Value) -> usize {
    match v {
        Value::Map(m) => m.values().map(count_leaves).sum::<usize>().max(1),
        Value::List(l) => l.iter().map(count_leaves).sum::<usize>().max(1),
        _ => 1,
    }
}

/// Replace the `k`-th leaf (depth-first); returns how many leaves were passed.
fn replace_leaf(v: &mut Value, mut k: usize, with: &Value) -> usize {
    match v {
        Value::Map(m) if !m.is_empty() => {
            let mut seen = 0;
            for c in m.values_mut() {
                let n = replace_leaf(c, k, with);
                if n > k {
                    return seen + n;
                }
                k -= n;
                seen += n;
            }
            seen
        }
        Value::List(l) if !l.is_empty() => {
            let mut seen = 0;
            for c in l.iter_mut() {
                let n = replace_leaf(c, k, with);
                if n > k {
                    return seen + n;
                }
                k -= n;
                seen += n;
            }
            seen
        }
        _ => {
            if k == 0 {
                *v = with.clone();
            }
            1
        }
    }
}

#[test]
fn records_convert_to_script_values_for_every_rng_state() {
    // The generator state is a full u64; the record spells it as hex so that states above
    // i64::MAX still become script values.
    let mut game = new_game(Rc::new(Runtime::new()));
    for state in [0, 1, i64::MAX as u64, i64::MAX as u64 + 1, u64::MAX] {
        game.rng = pallet_engine::rng::Rng::from_state(state);
        let cp = checkpoint::capture(&mut game).unwrap();
        let v = cp.to_value().expect("script value");
        assert_eq!(Checkpoint::from_value(v).unwrap(), cp);
        // And a restore through the script value puts the same state back.
        game.rng = pallet_engine::rng::Rng::from_state(state ^ 1);
        checkpoint::restore_value(&mut game, &cp.to_value().unwrap()).unwrap();
        assert_eq!(game.rng.state(), state);
    }
    let cp = checkpoint::capture(&mut new_game(Rc::new(Runtime::new()))).unwrap();
    let mut v = cp.to_value().unwrap();
    if let Value::Map(m) = &mut v {
        m.insert(
            "rng".into(),
            Value::Map([("state".to_owned(), Value::Str("XYZ".into()))].into()),
        );
    }
    assert!(Checkpoint::from_value(v).is_err());
}
