//! Moves that pick or copy other moves: Mirror Move, Metronome, Mimic (link rules, the
//! player's menu, the enemy's random pick), Transform, Conversion.

use super::*;
use crate::battle::state::flag;

#[test]
fn mirror_move_copies_the_last_used_move() {
    let mut b = wild(
        vec![fast("PIDGEOT", &["MIRROR MOVE"])],
        vec![slow("RATTATA", &["TACKLE"])],
        &[
            NO_CRIT,
            factor(217),
            HIT,
            NO_CRIT,
            factor(217),
            HIT,
            NO_CRIT,
            factor(217),
            HIT,
        ],
    );
    go(&mut b, M0, M0);
    assert_eq!(texts(&mut b)[1], "The MIRROR MOVE failed!");
    go(&mut b, M0, M0);
    let t = texts(&mut b);
    assert_eq!(
        t[..2],
        [
            "PIDGEOT used MIRROR MOVE!".to_string(),
            "PIDGEOT used TACKLE!".to_string()
        ]
    );
    // One PP per use, not two.
    assert_eq!(b.active(Side::Player).pp[0], 18);
    drained(&b);
}

#[test]
fn metronome_picks_any_move_but_itself() {
    // 0, 118 (Metronome) and 200 (> 164) are rerolled; 33 is Tackle.
    let mut b = wild(
        vec![fast("CLEFAIRY", &["METRONOME"])],
        vec![slow("RATTATA", &["SPLASH"])],
        &[0, 118, 200, 33, NO_CRIT, factor(217), HIT],
    );
    go(&mut b, M0, M0);
    let t = texts(&mut b);
    assert_eq!(
        t[..2],
        [
            "CLEFAIRY used METRONOME!".to_string(),
            "CLEFAIRY used TACKLE!".to_string()
        ]
    );
    assert_eq!(b.active(Side::Player).pp[0], 9);
    drained(&b);
}

#[test]
fn mimic_under_link_rules_copies_a_random_move_into_its_slot() {
    // Link rules: the player's Mimic picks at random too. Hit roll; slot 3 is empty (reroll),
    // slot 1 is GROWL.
    let mut b = wild(
        vec![fast("CLEFAIRY", &["SPLASH", "MIMIC"])],
        vec![slow("RATTATA", &["TACKLE", "GROWL"])],
        &[HIT, 0x03, 0x01, HIT],
    );
    b.set_link_rules(true);
    go(&mut b, M1, M1);
    assert_eq!(b.needs_choice(), NeedsChoice::Round);
    assert_eq!(b.battler(Side::Player).moves[1], Some(mv("GROWL")));
    // The party mon keeps Mimic.
    assert_eq!(b.active(Side::Player).moves[1], Some(mv("MIMIC")));
    drained(&b);
}

#[test]
fn the_players_mimic_asks_which_enemy_move_and_draws_nothing() {
    // Outside link battles the player picks from the enemy's moves: only the hit roll is
    // drawn, the round stops at the menu, and the enemy's turn runs after the answer.
    let mut b = wild(
        vec![fast("CLEFAIRY", &["SPLASH", "MIMIC"])],
        vec![slow("RATTATA", &["TACKLE", "GROWL", "QUICK ATTACK"])],
        &[HIT],
    );
    go(&mut b, M1, M1);
    assert_eq!(b.needs_choice(), NeedsChoice::Mimic);
    assert_eq!(b.prompt(), Some(Prompt::Mimic));
    assert_eq!(legal(&b, Side::Player), [M0, M1, Action::Move(2)]);
    assert_eq!(legal(&b, Side::Enemy), [C]);
    assert_eq!(b.default_prompt_answer(), Some(M0));
    assert_eq!(texts(&mut b), ["CLEFAIRY used MIMIC!"]);
    drained(&b);
    // Refused answers change nothing (an empty enemy slot, a switch, a run).
    for bad in [Action::Move(3), Action::Switch(0), Action::Run] {
        assert!(b.submit(&rt(), bad, C).is_err());
    }
    assert!(
        b.submit(&rt(), Action::Move(2), M0).is_err(),
        "the enemy passes"
    );
    // The enemy's GROWL: the AI's stat-down miss roll, then the hit roll.
    b.rng.push(&[64, HIT]);
    go(&mut b, Action::Move(2), C);
    assert_eq!(b.needs_choice(), NeedsChoice::Round);
    assert_eq!(b.battler(Side::Player).moves[1], Some(mv("QUICK ATTACK")));
    assert_eq!(b.active(Side::Player).moves[1], Some(mv("MIMIC")));
    assert_eq!(
        texts(&mut b),
        [
            "CLEFAIRY learned QUICK ATTACK!",
            "Enemy RATTATA used GROWL!",
            "CLEFAIRY's ATTACK fell!"
        ]
    );
    drained(&b);
}

#[test]
fn the_enemys_mimic_still_picks_at_random() {
    let mut b = wild(
        vec![slow("RATTATA", &["TACKLE", "GROWL"])],
        vec![fast("CLEFAIRY", &["MIMIC"])],
        &[HIT, 0x03, 0x01, NO_CRIT, factor(255), HIT],
    );
    go(&mut b, M0, M0);
    assert_eq!(b.needs_choice(), NeedsChoice::Round);
    assert_eq!(b.battler(Side::Enemy).moves[0], Some(mv("GROWL")));
    drained(&b);
}

#[test]
fn transform_copies_species_types_stats_stages_and_moves_with_5_pp() {
    let mut b = wild(
        vec![fast("DITTO", &["TRANSFORM"])],
        vec![slow("ONIX", &["SPLASH", "TACKLE"])],
        &[],
    );
    b.bat_mut(Side::Enemy).stages[0] = 9;
    b.bat_mut(Side::Enemy).stats[0] = 200;
    go(&mut b, M0, M0);
    let p = *b.battler(Side::Player);
    let e = *b.battler(Side::Enemy);
    assert!(p.has(flag::TRANSFORMED));
    assert_eq!(p.species, sp("ONIX"));
    assert_eq!(p.types, e.types);
    assert_eq!(p.stats, e.stats);
    assert_eq!(p.stages, e.stages);
    assert_eq!(p.moves, e.moves);
    assert_eq!(p.pp, [5, 5, 0, 0]);
    assert_eq!(texts(&mut b)[1], "DITTO transformed into ONIX!");
    drained(&b);
}

#[test]
fn conversion_copies_the_targets_types() {
    let mut b = wild(
        vec![fast("PORYGON", &["CONVERSION"])],
        vec![slow("GASTLY", &["SPLASH"])],
        &[],
    );
    go(&mut b, M0, M0);
    assert_eq!(b.battler(Side::Player).types, b.battler(Side::Enemy).types);
    drained(&b);
}
