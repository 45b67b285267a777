//! RFC 0004/0005 battle checkpoints through the engine API: capture at the menu boundary, play
//! on, restore, and the battle continues identically (same rows, same result, same save) for the
//! same choices, in wild and trainer battles; inspection refusals in every unsafe battle phase
//! (replacement, SHIFT prompt, locked action, mid-round, opening); the battle record's shape;
//! restoring across kinds; random corruptions of battle records rejected without mutation; hook
//! wrappers (`battle.field_residual`, RFC 0016's last bullet; `battle.damage`) installed before
//! capture still run after restore.

#[path = "common/recapture.rs"]
mod recapture;

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use pallet_api::catalog::common::Side as ApiSide;
use pallet_api::catalog::events;
use pallet_api::catalog::hooks::{BattleDamage, BattleFieldResidual, ResidualRow};
use pallet_api::facades::{Capability, CheckpointKindTag};
use pallet_api::reasons::CheckpointCode;
use pallet_api::{Hook, Runtime, Value};
use pallet_engine::battle::{Action, NeedsChoice, Side, Token};
use pallet_engine::checkpoint::{self, Checkpoint};
use pallet_engine::data::gen1;
use pallet_engine::game::{Game, Mode};
use pallet_engine::pokemon::{Dvs, Pokemon};
use pallet_engine::save::{self, ItemStack, MonRecord};
use pallet_engine::world::presentation::PresentationRow;
use pallet_engine::world::{GameVersion, Input};
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

fn mon(name: &str, level: u8, moves: &[&str]) -> MonRecord {
    let data = gen1();
    let species = data.species_by_name(name).unwrap();
    let mut m = Pokemon::new(data, species, level, Dvs::uniform(8));
    if !moves.is_empty() {
        let mut slots = [None; 4];
        for (slot, id) in moves.iter().enumerate() {
            slots[slot] = data.move_by_name(id);
        }
        m.moves = slots;
        m.pp_ups = [0; 4];
        for slot in 0..4 {
            m.pp[slot] = m.max_pp(data, slot).unwrap_or(0);
        }
    }
    m.ot_name = "RED".into();
    MonRecord::from_pokemon(&m, data).unwrap()
}

/// A game in the overworld with `party`, a bag, a flag and mod save data.
fn game_with(rt: Rc<Runtime>, party: &[MonRecord]) -> Game {
    let mut game = Game::new_game(GameVersion::Red, 11, rt).unwrap();
    run_until_idle(&mut game);
    game.save.party = party.to_vec();
    game.save.inventory.push(ItemStack {
        id: "POKE_BALL".into(),
        count: 3,
    });
    game.set_flag("EVENT_GOT_HM01", true);
    game.save.mod_data.insert(
        "tester".into(),
        Value::Map([("wins".to_owned(), Value::Int(2))].into()),
    );
    game.drain_feed();
    game
}

fn notes(game: &mut Game) -> Vec<String> {
    game.drain_feed()
        .into_iter()
        .filter_map(|r| match r.row {
            PresentationRow::Note { text } => Some(text),
            _ => None,
        })
        .collect()
}

/// The `i`-th choice of a deterministic plan: the legal move `plan[i % len]` when the menu
/// offers it, else the first legal action (locked turns, replacements, SHIFT prompts).
fn choice(game: &Game, plan: &[Action], i: usize) -> Action {
    let legal = game.battle_actions();
    let want = plan[i % plan.len()];
    if legal.contains(&want) {
        want
    } else {
        legal
            .iter()
            .copied()
            .find(|a| matches!(a, Action::Move(_) | Action::Struggle | Action::Continue))
            .or_else(|| legal.first().copied())
            .expect("a legal action")
    }
}

/// Play `n` choices (or to the end); the rows shown and the final state.
fn play(game: &mut Game, plan: &[Action], n: usize) -> (Vec<String>, Vec<u8>) {
    let mut shown = Vec::new();
    for i in 0..n {
        if game.mode != Mode::Battle {
            break;
        }
        let a = choice(game, plan, i);
        game.battle_choose(a).unwrap();
        shown.extend(notes(game));
    }
    (shown, live(game))
}

/// The live state, as bytes: the save, the game RNG, the mode and the battle's observable state.
fn live(game: &Game) -> Vec<u8> {
    let mut out = save::encode(&game.save).unwrap();
    out.extend(serde_json::to_vec(&game.rng).unwrap());
    out.extend(format!("{:?}", game.mode).bytes());
    if let Some(b) = game.battle() {
        out.extend(
            format!(
                "|{}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}",
                b.turn(),
                b.needs_choice(),
                b.party(Side::Player),
                b.party(Side::Enemy),
                b.battler(Side::Player),
                b.battler(Side::Enemy),
                b.field(),
                b.rng(),
                b.capture_store()
            )
            .bytes(),
        );
    }
    out
}

fn refusal(cap: &Capability) -> Option<&str> {
    cap.refusal.as_ref().map(|r| r.code.as_str())
}

const PLAN: [Action; 3] = [Action::Move(0), Action::Move(1), Action::Move(0)];

/// A wild battle a few rounds in, at the menu.
fn wild_midway(rt: Rc<Runtime>) -> Game {
    let party = [
        mon("CHARMANDER", 12, &["SCRATCH", "GROWL", "EMBER", "LEER"]),
        mon("PIDGEY", 9, &[]),
    ];
    let mut game = game_with(rt, &party);
    game.start_wild_battle("RATTATA", 11).unwrap();
    notes(&mut game);
    play(&mut game, &PLAN, 2);
    assert_eq!(game.mode, Mode::Battle, "the battle should still run");
    game
}

#[test]
fn a_battle_continues_identically_after_restore() {
    let mut game = wild_midway(Rc::new(Runtime::new()));
    let cap = checkpoint::inspect(&mut game);
    assert_eq!(
        (cap.can_capture, cap.can_restore, cap.kind, refusal(&cap)),
        (true, true, CheckpointKindTag::Battle, None)
    );
    let a = checkpoint::capture(&mut game).unwrap();
    assert_eq!(a.kind, "battle");
    let before = live(&game);
    let (rows_1, end_1) = play(&mut game, &PLAN, 200);
    assert_eq!(game.mode, Mode::Overworld, "the battle ended");
    assert!(rows_1.iter().any(|r| r.starts_with("battle ended: ")));
    // Restore from the portable bytes (the overworld is the current runtime now).
    let bytes = a.to_bytes().unwrap();
    let restored = Rc::new(Cell::new(None));
    let r = Rc::clone(&restored);
    game.rt
        .on::<events::CheckpointRestored, _>("t", 0, move |p| {
            r.set(Some(p.kind));
            Ok(())
        });
    checkpoint::restore(&mut game, &Checkpoint::from_bytes(&bytes).unwrap()).unwrap();
    assert_eq!(restored.get(), Some(events::CheckpointKind::Battle));
    assert_eq!(game.mode, Mode::Battle);
    assert!(notes(&mut game).is_empty(), "restore shows nothing");
    assert_eq!(live(&game), before, "the live battle is the captured one");
    assert_eq!(
        checkpoint::capture(&mut game).unwrap().to_bytes().unwrap(),
        bytes
    );
    let (rows_2, end_2) = play(&mut game, &PLAN, 200);
    assert_eq!(rows_2, rows_1, "same rows for the same choices");
    assert_eq!(end_2, end_1, "same result and save");
}

#[test]
fn a_trainer_battle_with_tokens_continues_identically_after_restore() {
    let party = [
        mon("SQUIRTLE", 9, &["TACKLE", "TAIL_WHIP", "BUBBLE"]),
        mon("NIDORAN_M", 8, &["LEER", "TACKLE", "HORN_ATTACK"]),
    ];
    let mut game = game_with(Rc::new(Runtime::new()), &party);
    game.start_trainer_battle("BUG_CATCHER", 0).unwrap();
    notes(&mut game);
    play(&mut game, &PLAN, 1);
    {
        // Data-only state on the field and a side (RFC 0016 shape).
        let field = game.battle_field_mut().expect("a battle runs");
        field.weather = Some("RAIN".into());
        field.tokens.push(Token {
            id: "spikes".into(),
            turns: Some(3),
            data: [("power".to_owned(), Value::Float(1.5))].into(),
        });
        game.battle_tokens_mut(Side::Enemy).unwrap().push(Token {
            id: "lasting".into(),
            turns: None,
            data: [("n".to_owned(), Value::Int(1))].into(),
        });
    }
    let a = checkpoint::capture(&mut game).unwrap();
    let model = a.runtime.battle.as_ref().unwrap();
    assert_eq!(model.kind, "trainer");
    assert_eq!(model.origin.kind, "trainer_encounter");
    assert_eq!(
        model.origin.trainer_key.as_deref(),
        Some("ROUTE_1:BUG_CATCHER:0")
    );
    assert_eq!(model.field.weather.as_deref(), Some("RAIN"));
    assert_eq!(model.enemy_party.len(), 2);
    let before = live(&game);
    let (rows_1, end_1) = play(&mut game, &PLAN, 300);
    assert_eq!(game.mode, Mode::Overworld);
    checkpoint::restore(&mut game, &a).unwrap();
    assert_eq!(live(&game), before);
    let (rows_2, end_2) = play(&mut game, &PLAN, 300);
    assert_eq!(rows_2, rows_1);
    assert_eq!(end_2, end_1);
}

#[test]
fn the_battle_record_has_the_reference_shape_and_is_deterministic() {
    let mut game = wild_midway(Rc::new(Runtime::new()));
    let a = checkpoint::capture(&mut game).unwrap();
    let b = checkpoint::capture(&mut game).unwrap();
    assert_eq!(a.to_bytes().unwrap(), b.to_bytes().unwrap());
    let v = a.to_value().unwrap();
    let Value::Map(root) = &v else { panic!() };
    let Value::Map(rt) = &root["runtime"] else {
        panic!()
    };
    assert!(rt.contains_key("overworld"));
    let Value::Map(model) = &rt["battle"] else {
        panic!()
    };
    for key in [
        "kind",
        "origin",
        "phase",
        "turn",
        "player",
        "enemy",
        "playerParty",
        "enemyParty",
        "sides",
        "field",
        "leveledUp",
        "rng",
    ] {
        assert!(model.contains_key(key), "model lacks {key}");
    }
    assert_eq!(model["phase"], Value::Str("menu".into()));
    let Value::Map(field) = &model["field"] else {
        panic!()
    };
    assert_eq!(
        field.keys().map(String::as_str).collect::<Vec<_>>(),
        ["tokens"],
        "field = {{weather, tokens}} (weather nil here), no sides"
    );
    let Value::List(sides) = &model["sides"] else {
        panic!()
    };
    assert_eq!(sides.len(), 2);
    let Value::Map(player) = &model["player"] else {
        panic!()
    };
    assert_eq!(player["species"], Value::Str("CHARMANDER".into()));
    assert!(
        !root.contains_key("options")
            && !matches!(&root["save"], Value::Map(s) if s.contains_key("options"))
    );
    assert_eq!(Checkpoint::from_value(v).unwrap(), a);
}

/// Play the plan until `stop` holds (at most 100 choices); false when the battle ended first.
fn play_until(game: &mut Game, plan: &[Action], stop: impl Fn(&Game) -> bool) -> bool {
    for i in 0..100 {
        if stop(game) {
            return true;
        }
        if game.mode != Mode::Battle {
            return false;
        }
        let a = choice(game, plan, i);
        game.battle_choose(a).unwrap();
        notes(game);
    }
    stop(game)
}

/// In an unsafe phase: inspect refuses with `reason`, capture fails with it, restore of a
/// valid checkpoint is refused with it, and nothing changes.
fn assert_refused(game: &mut Game, a: &Checkpoint, reason: &str) {
    let before = live(game);
    let cap = checkpoint::inspect(game);
    assert_eq!(
        (cap.can_capture, cap.can_restore, cap.kind, refusal(&cap)),
        (false, false, CheckpointKindTag::Battle, Some(reason))
    );
    assert!(!cap.refusal.as_ref().unwrap().message.is_empty());
    assert_eq!(checkpoint::inspect(game), cap, "inspection is stable");
    assert_eq!(checkpoint::capture(game).unwrap_err().code.as_str(), reason);
    assert_eq!(
        checkpoint::restore(game, a).unwrap_err().code.as_str(),
        reason
    );
    assert_eq!(live(game), before, "refusals change nothing");
}

#[test]
fn a_replacement_prompt_is_not_a_boundary() {
    let party = [
        mon("MAGIKARP", 5, &["SPLASH"]),
        mon("CHARMANDER", 14, &["SCRATCH", "EMBER"]),
    ];
    let mut game = game_with(Rc::new(Runtime::new()), &party);
    game.start_wild_battle("SANDSHREW", 14).unwrap();
    notes(&mut game);
    let a = checkpoint::capture(&mut game).unwrap();
    let replacing = |g: &Game| {
        matches!(
            g.battle().map(|b| b.needs_choice()),
            Some(NeedsChoice::Replacement { player: true, .. })
        )
    };
    assert!(play_until(&mut game, &[Action::Move(0)], replacing));
    assert_refused(&mut game, &a, "battle_phase_busy");
    // Send the next mon: the menu is a boundary again.
    game.battle_choose(Action::Switch(1)).unwrap();
    notes(&mut game);
    assert_eq!(refusal(&checkpoint::inspect(&mut game)), None);
}

#[test]
fn a_shift_prompt_is_not_a_boundary() {
    let party = [
        mon("NIDOKING", 40, &["THRASH", "HORN_ATTACK"]),
        mon("PIDGEY", 9, &[]),
    ];
    let mut game = game_with(Rc::new(Runtime::new()), &party);
    game.start_trainer_battle("BUG_CATCHER", 0).unwrap();
    notes(&mut game);
    let a = checkpoint::capture(&mut game).unwrap();
    let shift = |g: &Game| g.battle().map(|b| b.needs_choice()) == Some(NeedsChoice::Shift);
    assert!(play_until(&mut game, &[Action::Move(1)], shift));
    assert_refused(&mut game, &a, "battle_phase_busy");
    game.battle_choose(Action::Continue).unwrap();
    notes(&mut game);
    assert_eq!(refusal(&checkpoint::inspect(&mut game)), None);
}

#[test]
fn a_locked_action_is_not_a_boundary() {
    // SOLARBEAM's charging turn locks the next round (no menu).
    let party = [mon("BULBASAUR", 20, &["SOLARBEAM", "TACKLE"])];
    let mut game = game_with(Rc::new(Runtime::new()), &party);
    game.start_wild_battle("RATTATA", 4).unwrap();
    notes(&mut game);
    let a = checkpoint::capture(&mut game).unwrap();
    game.battle_choose(Action::Move(0)).unwrap();
    notes(&mut game);
    assert_eq!(game.battle_actions().as_slice(), [Action::Continue]);
    assert_refused(&mut game, &a, "battle_phase_busy");
    game.battle_choose(Action::Continue).unwrap();
    notes(&mut game);
    if game.mode == Mode::Battle {
        assert_eq!(refusal(&checkpoint::inspect(&mut game)), None);
    }
}

#[test]
fn mid_round_and_opening_callers_are_told_battle_phase_busy() {
    use pallet_engine::checkpoint::lend::unsettled_refusal;
    let rt = Rc::new(Runtime::new());
    let seen: Rc<RefCell<Vec<(String, &'static str)>>> = Rc::default();
    let s = Rc::clone(&seen);
    rt.on::<events::BattleStarted, _>("t", 0, move |_| {
        let cap = unsettled_refusal().expect("the opening is unsettled");
        s.borrow_mut()
            .push(("started".into(), cap.refusal.unwrap().code.as_str()));
        Ok(())
    });
    let s = Rc::clone(&seen);
    rt.wrap::<BattleDamage, _>("t", 0, move |next, _| {
        let cap = unsettled_refusal().expect("a round is unsettled");
        assert_eq!(cap.kind, CheckpointKindTag::Battle);
        s.borrow_mut()
            .push(("damage".into(), cap.refusal.unwrap().code.as_str()));
        Ok(next.call())
    });
    let mut game = game_with(rt, &[mon("CHARMANDER", 12, &["SCRATCH"])]);
    game.start_wild_battle("RATTATA", 5).unwrap();
    game.battle_choose(Action::Move(0)).unwrap();
    let seen = seen.borrow();
    assert_eq!(seen[0], ("started".to_owned(), "battle_phase_busy"));
    assert!(seen[1..]
        .iter()
        .any(|(what, code)| what == "damage" && *code == "battle_phase_busy"));
    // Between choices nothing is unsettled.
    assert!(unsettled_refusal().is_none());
}

#[test]
fn restores_cross_kinds_both_ways() {
    let mut game = wild_midway(Rc::new(Runtime::new()));
    let in_battle = checkpoint::capture(&mut game).unwrap();
    // Run away, walk, capture an overworld checkpoint, go back into the battle, then back out.
    let mut fled = false;
    for _ in 0..50 {
        if game.mode != Mode::Battle {
            fled = true;
            break;
        }
        game.battle_choose(Action::Run).unwrap();
    }
    assert!(fled);
    run_until_idle(&mut game);
    game.step(Input::Down);
    run_until_idle(&mut game);
    let overworld = checkpoint::capture(&mut game).unwrap();
    assert_eq!(overworld.kind, "overworld");
    checkpoint::restore(&mut game, &in_battle).unwrap();
    assert_eq!(game.mode, Mode::Battle);
    checkpoint::restore(&mut game, &overworld).unwrap();
    assert_eq!(game.mode, Mode::Overworld);
    assert!(game.battle().is_none());
    assert_eq!(checkpoint::capture(&mut game).unwrap(), overworld);
    // A battle record claiming the overworld kind (and the reverse) is invalid.
    let mut wrong = in_battle.clone();
    wrong.kind = "overworld".into();
    assert_eq!(
        checkpoint::restore(&mut game, &wrong).unwrap_err().code,
        CheckpointCode::InvalidCheckpoint
    );
    let mut wrong = overworld.clone();
    wrong.kind = "battle".into();
    assert_eq!(
        checkpoint::restore(&mut game, &wrong).unwrap_err().code,
        CheckpointCode::InvalidCheckpoint
    );
}

#[test]
fn semantic_battle_corruptions_are_rejected_with_their_codes() {
    let mut game = wild_midway(Rc::new(Runtime::new()));
    let a = checkpoint::capture(&mut game).unwrap();
    play(&mut game, &PLAN, 1);
    let live_before = live(&game);
    type Edit = fn(&mut pallet_engine::checkpoint::BattleModel);
    let cases: [(Edit, CheckpointCode); 10] = [
        (
            |m| m.origin.map = "PALLET_TOWN".into(),
            CheckpointCode::BattleOriginUnsupported,
        ),
        (
            |m| m.origin.kind = "trainer_encounter".into(),
            CheckpointCode::BattleOriginUnsupported,
        ),
        (
            |m| m.player.species = "MISSINGNO".into(),
            CheckpointCode::InvalidContent,
        ),
        (|m| m.player.stages[0] = 7, CheckpointCode::InvalidContent),
        (
            |m| m.enemy.moves[0] = "NOT_A_MOVE".into(),
            CheckpointCode::InvalidContent,
        ),
        (
            |m| m.player_party[0].level = 0,
            CheckpointCode::InvalidContent,
        ),
        (|m| m.sides[0].active = 5, CheckpointCode::InvalidContent),
        (
            |m| m.sides[0].participants = vec![1, 0],
            CheckpointCode::InvalidCheckpoint,
        ),
        (
            |m| m.phase = "round".into(),
            CheckpointCode::InvalidCheckpoint,
        ),
        (
            |m| m.player.volatile.push("cursed".into()),
            CheckpointCode::InvalidContent,
        ),
    ];
    for (i, (edit, code)) in cases.iter().enumerate() {
        let mut bad = a.clone();
        edit(bad.runtime.battle.as_mut().unwrap());
        let err = checkpoint::restore(&mut game, &bad).unwrap_err();
        assert_eq!(err.code, *code, "case {i}: {}", err.message);
        assert_eq!(live(&game), live_before, "case {i} mutated the game");
    }
    let mut bad = a.clone();
    bad.runtime.battle = None;
    assert_eq!(
        checkpoint::restore(&mut game, &bad).unwrap_err().code,
        CheckpointCode::InvalidCheckpoint
    );
    assert_eq!(live(&game), live_before);
}

/// RFC 0016's last bullet: a `battle.field_residual` wrapper installed before a capture is
/// still installed after restore and keeps answering (here from the restored field's token,
/// which its detached context sees again), and the continuation is identical.
#[test]
fn a_field_residual_wrapper_survives_capture_and_restore() {
    let rt = Rc::new(Runtime::new());
    let calls = Rc::new(Cell::new(0u32));
    let c = Rc::clone(&calls);
    rt.wrap::<BattleFieldResidual, _>("sandstorm", 0, move |next, args| {
        c.set(c.get() + 1);
        let mut rows = next.call();
        let power = args
            .context
            .field
            .get("tokens")
            .and_then(Value::as_list)
            .and_then(|l| {
                l.iter()
                    .find(|t| t.get("id") == Some(&Value::Str("sand".into())))
            })
            .and_then(|t| t.get("power"))
            .and_then(Value::as_exact_int)
            .unwrap_or(0);
        if power > 0 {
            rows.push(ResidualRow {
                side: ApiSide::Enemy,
                amount: power as u32,
                message: Some("The sandstorm rages!".into()),
            });
        }
        Ok(rows)
    });
    let mut game = wild_midway(Rc::clone(&rt));
    game.battle_field_mut().unwrap().tokens.push(Token {
        id: "sand".into(),
        turns: None,
        data: [("power".to_owned(), Value::Int(2))].into(),
    });
    let a = checkpoint::capture(&mut game).unwrap();
    let at_capture = calls.get();
    let (rows_1, end_1) = play(&mut game, &PLAN, 200);
    run_until_idle(&mut game);
    let first_run = calls.get() - at_capture;
    assert!(first_run > 0, "the wrapper ran after the capture");
    assert!(
        rows_1.iter().any(|r| r == "battle: The sandstorm rages!"),
        "{rows_1:?}"
    );
    checkpoint::restore(&mut game, &a).unwrap();
    assert_eq!(calls.get(), at_capture + first_run, "restore calls no hook");
    assert_eq!(rt.hook_chain(<BattleFieldResidual as Hook>::ID).len(), 1);
    let (rows_2, end_2) = play(&mut game, &PLAN, 200);
    assert_eq!(
        calls.get() - at_capture - first_run,
        first_run,
        "called again, as often"
    );
    assert_eq!(rows_2, rows_1);
    assert_eq!(end_2, end_1);
}

/// The same guarantee on a per-move site (`battle.damage`).
#[test]
fn a_damage_wrapper_survives_capture_and_restore() {
    let rt = Rc::new(Runtime::new());
    let calls = Rc::new(Cell::new(0u32));
    let c = Rc::clone(&calls);
    rt.wrap::<BattleDamage, _>("tester", 0, move |next, _| {
        c.set(c.get() + 1);
        Ok(next.call().saturating_add(1))
    });
    let mut game = wild_midway(Rc::clone(&rt));
    let a = checkpoint::capture(&mut game).unwrap();
    let at_capture = calls.get();
    assert!(at_capture > 0);
    play(&mut game, &PLAN, 200);
    run_until_idle(&mut game);
    let first_run = calls.get() - at_capture;
    checkpoint::restore(&mut game, &a).unwrap();
    assert_eq!(calls.get(), at_capture + first_run, "restore calls no hook");
    play(&mut game, &PLAN, 200);
    assert_eq!(
        calls.get() - at_capture - first_run,
        first_run,
        "the wrapper runs again"
    );
    assert_eq!(rt.hook_chain(<BattleDamage as Hook>::ID).len(), 1);
}

#[test]
fn injected_battle_reconstruction_failure_rolls_back() {
    use pallet_engine::checkpoint::{inject_fault, Fault};
    let mut game = wild_midway(Rc::new(Runtime::new()));
    let restored = Rc::new(Cell::new(0u32));
    let r = Rc::clone(&restored);
    game.rt
        .on::<events::CheckpointRestored, _>("t", 0, move |_| {
            r.set(r.get() + 1);
            Ok(())
        });
    let a = checkpoint::capture(&mut game).unwrap();
    play(&mut game, &PLAN, 1);
    let before = live(&game);
    inject_fault(Some(Fault::CorruptParty));
    let err = checkpoint::restore(&mut game, &a).unwrap_err();
    assert_eq!(err.code, CheckpointCode::RestoreFailed);
    assert!(err.message.contains("$.save.party.1.hp"), "{}", err.message);
    assert_eq!(live(&game), before, "rolled back to the battle as it was");
    assert_eq!(game.mode, Mode::Battle);
    inject_fault(Some(Fault::CorruptPartyAndRollback));
    assert_eq!(
        checkpoint::restore(&mut game, &a).unwrap_err().code,
        CheckpointCode::RollbackFailed
    );
    assert_eq!(restored.get(), 0, "no event for a failed restore");
    inject_fault(None);
}

fn fixture() -> (Game, Checkpoint, Vec<u8>) {
    let mut game = wild_midway(Rc::new(Runtime::new()));
    let a = checkpoint::capture(&mut game).unwrap();
    play(&mut game, &PLAN, 1);
    assert_eq!(
        refusal(&checkpoint::inspect(&mut game)),
        None,
        "at the menu"
    );
    let bytes = a.to_bytes().unwrap();
    (game, a, bytes)
}

/// After an accepted (possibly odd) restore, the battle plays to its end without a panic.
fn play_out(game: &mut Game) {
    play(game, &PLAN, 300);
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
    let children: Vec<&mut Value> = match v {
        Value::Map(m) if !m.is_empty() => m.values_mut().collect(),
        Value::List(l) if !l.is_empty() => l.iter_mut().collect(),
        _ => {
            if k == 0 {
                *v = with.clone();
            }
            return 1;
        }
    };
    let mut seen = 0;
    for c in children {
        let n = replace_leaf(c, k, with);
        if n > k {
            return seen + n;
        }
        k -= n;
        seen += n;
    }
    seen
}

/// Every numeric leaf of the battle model outside the parties (battlers, sides, counters).
fn numeric_paths(v: &Value, path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    match v {
        Value::Map(m) => {
            for (k, c) in m {
                if path.is_empty()
                    && (k == "playerParty" || k == "enemyParty" || k == "captureStore")
                {
                    continue;
                }
                path.push(k.clone());
                numeric_paths(c, path, out);
                path.pop();
            }
        }
        Value::List(l) => {
            for (i, c) in l.iter().enumerate() {
                path.push(i.to_string());
                numeric_paths(c, path, out);
                path.pop();
            }
        }
        Value::Int(_) => out.push(path.clone()),
        _ => {}
    }
}

fn at_path<'v>(v: &'v mut Value, path: &[String]) -> &'v mut Value {
    path.iter().fold(v, |v, k| match v {
        Value::Map(m) => m.get_mut(k).unwrap(),
        Value::List(l) => &mut l[k.parse::<usize>().unwrap()],
        _ => unreachable!(),
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// One numeric field of the battle state (a battler counter, a stat, a stage, a slot, a
    /// side flag, the turn…) set to an arbitrary byte-sized or word-sized value: rejected
    /// without mutation, or restored exactly, and the battle then plays to its end without a
    /// panic.
    #[test]
    fn odd_but_accepted_battle_numbers_play_out(
        pick in any::<prop::sample::Index>(),
        value in prop_oneof![0i64..=255, 0i64..=65_535, -8i64..=8],
    ) {
        let (mut game, a, _) = fixture();
        let before = live(&game);
        let mut v = a.to_value().unwrap();
        let Value::Map(root) = &mut v else { unreachable!() };
        let Some(Value::Map(runtime)) = root.get_mut("runtime") else { unreachable!() };
        let model = runtime.get_mut("battle").unwrap();
        let mut paths = Vec::new();
        numeric_paths(model, &mut Vec::new(), &mut paths);
        let path = &paths[pick.index(paths.len())];
        *at_path(model, path) = Value::Int(value);
        match checkpoint::restore_value(&mut game, &v) {
            Err(_) => prop_assert_eq!(live(&game), before),
            Ok(()) => {
                let cp = Checkpoint::from_value(v).unwrap();
                prop_assert_eq!(recapture_as(&mut game, &cp), cp);
                play_out(&mut game);
            }
        }
    }

    /// Random byte corruptions of a battle checkpoint either fail to decode, are rejected with
    /// the live game untouched, or restore a record that recaptures exactly and plays on.
    #[test]
    fn random_battle_byte_corruptions_never_change_live_state(
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4)
    ) {
        let (mut game, _a, bytes) = fixture();
        let before = live(&game);
        let header = b"PALLET-CHECKPOINT 1\n".len();
        let mut bad = bytes.clone();
        for (i, b) in &edits {
            let at = header + i.index(bad.len() - header);
            bad[at] = *b;
        }
        prop_assume!(bad != bytes);
        if let Ok(cp) = Checkpoint::from_bytes(&bad) {
            match checkpoint::restore(&mut game, &cp) {
                Err(_) => prop_assert_eq!(live(&game), before),
                Ok(()) => {
                    prop_assert_eq!(
                        recapture_as(&mut game, &cp).to_bytes().unwrap(),
                        cp.to_bytes().unwrap()
                    );
                    play_out(&mut game);
                }
            }
        }
    }

    /// A leaf of the battle model replaced by a random value: rejected without mutation, or
    /// restored exactly.
    #[test]
    fn random_battle_value_corruptions_never_change_live_state(
        pick in any::<prop::sample::Index>(),
        replacement in prop_oneof![
            Just(Value::Nil), any::<bool>().prop_map(Value::Bool),
            (-300i64..300).prop_map(Value::Int), any::<i64>().prop_map(Value::Int),
            "[A-Z_a-z]{0,8}".prop_map(Value::Str), Just(Value::List(vec![])),
            Just(Value::Float(f64::NAN)),
        ]
    ) {
        let (mut game, a, _) = fixture();
        let before = live(&game);
        let mut v = a.to_value().unwrap();
        let Value::Map(root) = &mut v else { unreachable!() };
        let Some(Value::Map(runtime)) = root.get_mut("runtime") else { unreachable!() };
        let model = runtime.get_mut("battle").unwrap();
        let n = count_leaves(model);
        replace_leaf(model, pick.index(n), &replacement);
        match checkpoint::restore_value(&mut game, &v) {
            Err(_) => prop_assert_eq!(live(&game), before),
            Ok(()) => {
                let cp = Checkpoint::from_value(v).unwrap();
                prop_assert_eq!(recapture_as(&mut game, &cp), cp);
                play_out(&mut game);
            }
        }
    }
}
