//! Battle prompts and the enemy's move choice in the game (`Game::battle_choose`): a party mon
//! with four moves levels up and asks which move to forget (the game waits; a battle at the
//! prompt is not a checkpoint boundary; the answer's rows reach the presentation feed and the
//! learned move the save); the trainer AI's layer-2 counter is part of the battle checkpoint.

use std::rc::Rc;

use pallet_api::Runtime;
use pallet_engine::battle::{Action, NeedsChoice};
use pallet_engine::checkpoint;
use pallet_engine::data::gen1;
use pallet_engine::game::{Game, Mode};
use pallet_engine::pokemon::stats::exp_for_level;
use pallet_engine::pokemon::{Dvs, Pokemon};
use pallet_engine::save::MonRecord;
use pallet_engine::world::presentation::PresentationRow;
use pallet_engine::world::{GameVersion, Input};

fn idle(game: &mut Game) {
    for _ in 0..10_000 {
        match game.busy().map(|b| b.as_str()) {
            None => return,
            Some("screen_busy") => game.step(Input::A),
            Some(_) => game.step(Input::None),
        }
    }
    panic!("never idle");
}

fn record(name: &str, level: u8, moves: &[&str], exp_to_next: Option<u32>) -> MonRecord {
    let data = gen1();
    let species = data.species_by_name(name).unwrap();
    let mut m = Pokemon::new(data, species, level, Dvs::uniform(15));
    let mut slots = [None; 4];
    for (slot, id) in moves.iter().enumerate() {
        slots[slot] = data.move_by_name(id);
    }
    m.moves = slots;
    m.pp_ups = [0; 4];
    for slot in 0..4 {
        m.pp[slot] = m.max_pp(data, slot).unwrap_or(0);
    }
    if let Some(short) = exp_to_next {
        let growth = data.species(species).growth;
        m.exp = exp_for_level(growth, level + 1) - short;
    }
    m.ot_name = "RED".into();
    MonRecord::from_pokemon(&m, data).unwrap()
}

fn game_with(party: &[MonRecord]) -> Game {
    let mut game = Game::new_game(GameVersion::Red, 21, Rc::new(Runtime::new())).unwrap();
    idle(&mut game);
    game.save.party = party.to_vec();
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

#[test]
fn a_full_moveset_asks_in_the_game_and_the_answer_reaches_the_save() {
    // RATTATA L6, one EXP point short of L7 (QUICK ATTACK), against a wild L2 MAGIKARP.
    let party = [record(
        "RATTATA",
        6,
        &["TACKLE", "TAIL_WHIP", "GROWL", "BITE"],
        Some(1),
    )];
    let mut game = game_with(&party);
    game.start_wild_battle("MAGIKARP", 2).unwrap();
    notes(&mut game);
    let mut shown = Vec::new();
    for _ in 0..50 {
        let need = game.battle().map(|b| b.needs_choice());
        if matches!(need, Some(NeedsChoice::LearnMove { .. })) || game.mode != Mode::Battle {
            break;
        }
        game.battle_choose(Action::Move(0)).unwrap();
        shown.extend(notes(&mut game));
    }
    let b = game.battle().expect("the battle waits for the answer");
    let qa = gen1().move_by_name("QUICK_ATTACK").unwrap();
    assert_eq!(b.needs_choice(), NeedsChoice::LearnMove { slot: 0, mv: qa });
    assert!(
        shown
            .iter()
            .any(|l| l.contains("is trying to learn QUICK ATTACK")),
        "{shown:?}"
    );
    // The question comes first: the game is still in battle, the save unchanged.
    assert_eq!(game.mode, Mode::Battle);
    assert_eq!(game.battle_actions()[0], Action::Continue);
    assert_eq!(
        game.battle().unwrap().default_prompt_answer(),
        Some(Action::Continue)
    );
    // Not a checkpoint boundary.
    let cap = checkpoint::inspect(&mut game);
    assert_eq!(
        cap.refusal.as_ref().map(|r| r.code.as_str()),
        Some("battle_phase_busy")
    );
    assert_eq!(
        checkpoint::capture(&mut game).unwrap_err().code.as_str(),
        "battle_phase_busy"
    );
    // A switch is no answer; forgetting TAIL WHIP is.
    assert!(game.battle_choose(Action::Switch(0)).is_err());
    game.battle_choose(Action::Move(1)).unwrap();
    let after = notes(&mut game);
    let i = after
        .iter()
        .position(|l| l == "battle: 1, 2 and...")
        .expect("countdown");
    assert_eq!(
        after[i..i + 3],
        [
            "battle: 1, 2 and...".to_string(),
            "battle: Poof! RATTATA forgot TAIL WHIP! And...".to_string(),
            "battle: RATTATA learned QUICK ATTACK!".to_string(),
        ]
    );
    assert_eq!(game.mode, Mode::Overworld, "the win followed the answer");
    assert_eq!(after.last().map(String::as_str), Some("battle ended: win"));
    let mon = game.save.party[0].to_pokemon(gen1()).unwrap();
    assert_eq!(mon.level, 7);
    assert_eq!(mon.moves[1], Some(qa));
}

#[test]
fn the_trainer_ai_counter_is_captured_and_restored() {
    let party = [record("SQUIRTLE", 12, &["TACKLE", "TAIL_WHIP"], None)];
    let mut game = game_with(&party);
    game.start_trainer_battle("BUG_CATCHER", 0).unwrap();
    notes(&mut game);
    game.battle_choose(Action::Move(1)).unwrap();
    notes(&mut game);
    assert_eq!(game.battle().unwrap().needs_choice(), NeedsChoice::Round);
    let a = checkpoint::capture(&mut game).unwrap();
    let model = a.runtime.battle.as_ref().unwrap();
    assert_eq!(model.ai_layer2, 1, "one enemy action since the send-out");
    let bytes = a.to_bytes().unwrap();
    assert!(String::from_utf8_lossy(&bytes).contains("aiLayer2"));
    // Play on, restore, and the same choices give the same rows.
    let play = |game: &mut Game| {
        let mut shown = Vec::new();
        for _ in 0..100 {
            if game.mode != Mode::Battle {
                break;
            }
            let pick = game.battle_actions()[0];
            game.battle_choose(pick).unwrap();
            shown.extend(notes(game));
        }
        shown
    };
    let first = play(&mut game);
    checkpoint::restore(&mut game, &a).unwrap();
    assert_eq!(
        game.battle().map(|b| b.needs_choice()),
        Some(NeedsChoice::Round)
    );
    assert_eq!(play(&mut game), first);
}
