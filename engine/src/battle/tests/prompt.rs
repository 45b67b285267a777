//! Prompts in the middle of a step: learning a fifth move (forget one, abandon, HM moves are
//! kept, several participants, a trainer's replacement after the answer, the field-residual
//! slot) and the player's Mimic (the rest of the round after the answer). Every roll scripted.

use super::*;

fn with(species: &str, level: u8, moves: &[&str], spe: u16) -> Pokemon {
    let mut m = mon(species, level, moves);
    m.stats.spe = spe;
    m
}

fn one_hp(mut m: Pokemon) -> Pokemon {
    m.hp = 1;
    m
}

/// RATTATA L6 with four moves beats a 1-HP PIDGEY L20 (157 EXP: L7, where it learns QUICK
/// ATTACK).
fn learner(moves: &[&str]) -> Battle<ScriptedRng> {
    wild(
        vec![with("RATTATA", 6, moves, 200)],
        vec![one_hp(with("PIDGEY", 20, &["SPLASH"], 10))],
        &[NO_CRIT, factor(255), HIT],
    )
}

const FOUR: [&str; 4] = ["TACKLE", "TAIL WHIP", "GROWL", "BITE"];

#[test]
fn four_moves_known_asks_which_to_forget() {
    let mut b = learner(&FOUR);
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    let qa = mv("QUICK ATTACK");
    assert_eq!(b.needs_choice(), NeedsChoice::LearnMove { slot: 0, mv: qa });
    assert_eq!(b.prompt(), Some(Prompt::LearnMove { slot: 0, mv: qa }));
    // The win waits for the answer; the level is already reached.
    assert_eq!(b.result(), None);
    assert_eq!(b.party(Side::Player)[0].level, 7);
    assert_eq!(
        legal(&b, Side::Player),
        [
            Action::Continue,
            Action::Move(0),
            Action::Move(1),
            Action::Move(2),
            Action::Move(3)
        ]
    );
    assert_eq!(legal(&b, Side::Enemy), [Action::Continue]);
    assert_eq!(b.default_prompt_answer(), Some(Action::Continue));
    assert_eq!(
        texts(&mut b),
        [
            "RATTATA used TACKLE!",
            "Enemy PIDGEY fainted!",
            "RATTATA gained 157 EXP. Points!",
            "RATTATA grew to level 7!",
            "RATTATA is trying to learn QUICK ATTACK! But, RATTATA can't learn more than 4 \
             moves! Delete an older move to make room for QUICK ATTACK?"
        ]
    );
    // Wrong answers are refused and change nothing.
    for bad in [
        Action::Move(4),
        Action::Switch(0),
        Action::Run,
        Action::Struggle,
    ] {
        assert!(b.submit(&rt(), bad, Action::Continue).is_err(), "{bad:?}");
    }
    assert!(b.submit(&rt(), Action::Move(1), Action::Move(0)).is_err());
    assert!(b.peek_rows().is_empty());
    b.submit(&rt(), Action::Move(1), Action::Continue).unwrap();
    let rows: Vec<Row> = b.peek_rows().to_vec();
    assert!(rows.contains(&Row::Sound(Sound::Swap)));
    assert_eq!(
        texts(&mut b),
        [
            "1, 2 and...",
            "Poof! RATTATA forgot TAIL WHIP! And...",
            "RATTATA learned QUICK ATTACK!"
        ]
    );
    let m = &b.party(Side::Player)[0];
    assert_eq!(m.moves[1], Some(qa));
    assert_eq!(m.pp[1], data().move_data(qa).pp);
    assert_eq!(m.pp_ups[1], 0);
    assert_eq!(b.battler(Side::Player).moves[1], Some(qa));
    assert_eq!(b.battler(Side::Player).pp[1], data().move_data(qa).pp);
    assert_eq!(b.leveled_up(), 1);
    assert_eq!(b.result(), Some(BattleResult::Win));
    assert_eq!(b.needs_choice(), NeedsChoice::Finished);
    drained(&b);
}

#[test]
fn abandoning_keeps_the_four_moves() {
    let mut b = learner(&FOUR);
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    b.clear_rows();
    b.submit(&rt(), Action::Continue, Action::Continue).unwrap();
    assert_eq!(texts(&mut b), ["RATTATA did not learn QUICK ATTACK!"]);
    let moves: Vec<_> = FOUR.iter().map(|n| Some(mv(n))).collect();
    assert_eq!(b.party(Side::Player)[0].moves.to_vec(), moves);
    assert_eq!(b.result(), Some(BattleResult::Win));
    drained(&b);
}

#[test]
fn hm_moves_cannot_be_forgotten() {
    let mut b = learner(&["CUT", "TAIL WHIP", "GROWL", "STRENGTH"]);
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    assert_eq!(
        legal(&b, Side::Player),
        [Action::Continue, Action::Move(1), Action::Move(2)]
    );
    for hm in [Action::Move(0), Action::Move(3)] {
        assert_eq!(
            b.submit(&rt(), hm, Action::Continue),
            Err(BattleError::Illegal {
                side: Side::Player,
                action: hm
            })
        );
    }
    b.submit(&rt(), Action::Move(2), Action::Continue).unwrap();
    assert_eq!(b.party(Side::Player)[0].moves[2], Some(mv("QUICK ATTACK")));
    drained(&b);
}

#[test]
fn the_other_participants_exp_follows_the_answer() {
    // RATTATA (L6, four moves) fought, then SPEAROW came in and knocked PIDGEY L40 out. Two
    // participants: 27 * 40 / 7 = 154 each. RATTATA (slot 0) goes first and reaches L7: the
    // prompt stops the award before SPEAROW's share.
    let mut b = wild(
        vec![
            with("RATTATA", 6, &FOUR, 200),
            with("SPEAROW", 50, &["PECK"], 200),
        ],
        vec![one_hp(with("PIDGEY", 40, &["SPLASH"], 10))],
        &[NO_CRIT, factor(255), HIT],
    );
    b.submit(&rt(), Action::Switch(1), Action::Move(0)).unwrap();
    let spearow0 = b.party(Side::Player)[1].exp;
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    assert!(matches!(
        b.needs_choice(),
        NeedsChoice::LearnMove { slot: 0, .. }
    ));
    assert_eq!(b.party(Side::Player)[1].exp, spearow0, "not yet");
    b.clear_rows();
    b.submit(&rt(), Action::Move(3), Action::Continue).unwrap();
    assert_eq!(b.party(Side::Player)[1].exp - spearow0, 154);
    let t = texts(&mut b);
    let learned = t.iter().position(|l| l == "RATTATA learned QUICK ATTACK!");
    let gained = t
        .iter()
        .position(|l| l == "SPEAROW gained 154 EXP. Points!");
    assert!(learned.is_some() && learned < gained, "{t:?}");
    assert_eq!(b.result(), Some(BattleResult::Win));
    drained(&b);
}

#[test]
fn a_trainer_sends_the_next_mon_after_the_answer() {
    let kind = trainer_kind();
    let mut b = battle(
        kind,
        vec![with("RATTATA", 6, &FOUR, 200)],
        vec![
            one_hp(with("PIDGEY", 14, &["SPLASH"], 10)),
            with("WEEDLE", 5, &["POISON STING"], 10),
        ],
        &[NO_CRIT, factor(255), HIT],
    );
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    // Trainer: 55 * 14 / 7 = 110, x1.5 = 165 → 381 EXP: L7.
    assert!(matches!(b.needs_choice(), NeedsChoice::LearnMove { .. }));
    b.submit(&rt(), Action::Continue, Action::Continue).unwrap();
    assert_eq!(
        b.needs_choice(),
        NeedsChoice::Replacement {
            player: false,
            enemy: true
        }
    );
    assert_eq!(b.select_enemy_move(), Action::Switch(1));
    drained(&b);
}

#[test]
fn a_prompt_is_not_a_resting_state_for_headless_play() {
    // Random play answers prompts like any other choice and finishes.
    let rt = rt();
    let mut b = learner(&FOUR);
    let mut chooser = crate::rng::Rng::new(3);
    let out = super::super::random::play_random(&mut b, &rt, &mut chooser, 10);
    assert_eq!(out.result, BattleResult::Win);
    drained(&b);
}

#[cfg(feature = "hook-sites")]
mod order {
    use std::cell::RefCell;
    use std::rc::Rc;

    use pallet_api::catalog::events;

    use super::*;

    /// `pokemon.level_up` comes once the learning is settled, then `battle.ended`; the
    /// round's `battle.turn_ended` last.
    #[test]
    fn level_up_event_after_the_answer_then_the_end() {
        let rt = Runtime::default();
        let log = Rc::new(RefCell::new(Vec::<String>::new()));
        let l = log.clone();
        let _a = rt.on::<events::PokemonLevelUp, _>("probe", 0, move |p| {
            l.borrow_mut().push(format!("level_up {}", p.level));
            Ok(())
        });
        let l = log.clone();
        let _b = rt.on::<events::BattleEnded, _>("probe", 0, move |p| {
            l.borrow_mut().push(format!("ended {:?}", p.result));
            Ok(())
        });
        let l = log.clone();
        let _c = rt.on::<events::BattleTurnEnded, _>("probe", 0, move |p| {
            l.borrow_mut().push(format!("turn_ended {}", p.turn));
            Ok(())
        });
        let mut b = learner(&FOUR);
        b.submit(&rt, Action::Move(0), Action::Move(0)).unwrap();
        assert!(log.borrow().is_empty(), "{:?}", log.borrow());
        b.submit(&rt, Action::Move(0), Action::Continue).unwrap();
        assert_eq!(*log.borrow(), ["level_up 7", "ended Win", "turn_ended 1"]);
        drained(&b);
    }

    /// A field-residual row that knocks a trainer's mon out: EXP, the prompt, then the rest of
    /// the end of the round (token ticks, `battle.turn_ended`) after the answer.
    #[test]
    fn a_field_residual_faint_resumes_the_end_of_the_round() {
        use pallet_api::catalog::common::Side as ApiSide;
        use pallet_api::catalog::hooks;
        let rt = Runtime::default();
        rt.wrap::<hooks::BattleFieldResidual, _>("t", 0, |next, _| {
            let mut out = next.call();
            out.push(hooks::ResidualRow {
                side: ApiSide::Enemy,
                amount: 999,
                message: None,
            });
            Ok(out)
        });
        let log = Rc::new(RefCell::new(Vec::<String>::new()));
        let l = log.clone();
        let _c = rt.on::<events::BattleTurnEnded, _>("probe", 0, move |p| {
            l.borrow_mut().push(format!("turn_ended {}", p.turn));
            Ok(())
        });
        let mut b = battle(
            trainer_kind(),
            vec![with(
                "RATTATA",
                6,
                &["SPLASH", "TAIL WHIP", "GROWL", "BITE"],
                200,
            )],
            vec![
                with("PIDGEY", 20, &["SPLASH"], 10),
                with("WEEDLE", 5, &["POISON STING"], 10),
            ],
            &[],
        );
        b.field_mut().tokens.push(crate::battle::Token {
            id: "t".into(),
            turns: Some(1),
            data: Default::default(),
        });
        b.submit(&rt, Action::Move(0), Action::Move(0)).unwrap();
        assert!(matches!(b.needs_choice(), NeedsChoice::LearnMove { .. }));
        assert!(log.borrow().is_empty());
        assert_eq!(b.field().tokens.len(), 1, "not ticked yet");
        b.submit(&rt, Action::Continue, Action::Continue).unwrap();
        assert_eq!(*log.borrow(), ["turn_ended 1"]);
        assert!(b.field().tokens.is_empty(), "ticked after the answer");
        assert_eq!(
            b.needs_choice(),
            NeedsChoice::Replacement {
                player: false,
                enemy: true
            }
        );
        drained(&b);
    }
}

// ----- Mimic ----------------------------------------------------------------------------------

#[test]
fn mimic_moving_second_resumes_with_the_players_residual() {
    // The slow, poisoned CLEFAIRY mimics after the enemy's SPLASH: after the answer its poison
    // residual runs (150 / 16 = 9), then the end of the round.
    let mut p = mon("CLEFAIRY", 50, &["MIMIC"]);
    set_stats(&mut p, 150, 100, 100, 10, 100);
    p.status = Status::Poison;
    let mut e = mon("PIDGEY", 50, &["SPLASH", "GUST"]);
    set_stats(&mut e, 150, 100, 100, 200, 100);
    let mut b = wild(vec![p], vec![e], &[HIT]);
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    assert_eq!(b.needs_choice(), NeedsChoice::Mimic);
    assert_eq!(b.active(Side::Player).hp, 150);
    b.clear_rows();
    b.submit(&rt(), Action::Move(1), Action::Continue).unwrap();
    assert_eq!(b.needs_choice(), NeedsChoice::Round);
    assert_eq!(b.turn(), 1);
    assert_eq!(b.battler(Side::Player).moves[0], Some(mv("GUST")));
    assert_eq!(b.active(Side::Player).hp, 141);
    assert_eq!(
        texts(&mut b),
        ["CLEFAIRY learned GUST!", "CLEFAIRY's hurt by poison!"]
    );
    drained(&b);
}

#[test]
fn mimic_through_metronome_asks_too() {
    // METRONOME draws its move (a byte naming MIMIC), then Mimic's hit roll; the copy replaces
    // the METRONOME slot.
    let mimic = mv("MIMIC").0 as u8;
    let mut p = mon("CLEFAIRY", 50, &["METRONOME"]);
    set_stats(&mut p, 150, 100, 100, 200, 100);
    let mut e = mon("PIDGEY", 50, &["SPLASH"]);
    set_stats(&mut e, 150, 100, 100, 10, 100);
    let mut b = wild(vec![p], vec![e], &[mimic, HIT]);
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    assert_eq!(b.needs_choice(), NeedsChoice::Mimic);
    assert_eq!(legal(&b, Side::Player), [Action::Move(0)]);
    b.submit(&rt(), Action::Move(0), Action::Continue).unwrap();
    assert_eq!(b.battler(Side::Player).moves[0], Some(mv("SPLASH")));
    assert_eq!(b.needs_choice(), NeedsChoice::Round);
    drained(&b);
}
