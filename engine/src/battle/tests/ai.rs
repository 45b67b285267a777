//! The enemy's move choice (`SelectEnemyMove`) and the trainer AI's move-choice layers
//! (`AIEnemyTrainerChooseMoves`), every draw scripted.

use super::*;
use crate::battle::trainer_move_layers;

fn class(name: &str) -> BattleKind {
    BattleKind::Trainer {
        class: name.into(),
        index: 0,
        name: name.into(),
    }
}

fn foe(species: &str, moves: &[&str]) -> Pokemon {
    mon(species, 30, moves)
}

#[test]
fn wild_slot_bands_63_127_190() {
    let four = ["TACKLE", "GROWL", "GUST", "SAND-ATTACK"];
    for (byte, slot) in [
        (0, 0),
        (62, 0),
        (63, 1),
        (126, 1),
        (127, 2),
        (189, 2),
        (190, 3),
        (255, 3),
    ] {
        let mut b = wild(
            vec![foe("RATTATA", &["SPLASH"])],
            vec![foe("PIDGEY", &four)],
            &[byte],
        );
        assert_eq!(b.select_enemy_move(), Action::Move(slot), "byte {byte}");
        drained(&b);
    }
}

#[test]
fn empty_and_disabled_slots_are_drawn_again() {
    // Two moves: 200 (slot 4, empty) and 130 (slot 3, empty) are drawn again; 70 is slot 2.
    let mut b = wild(
        vec![foe("RATTATA", &["SPLASH"])],
        vec![foe("PIDGEY", &["TACKLE", "GUST"])],
        &[200, 130, 70],
    );
    assert_eq!(b.select_enemy_move(), Action::Move(1));
    drained(&b);
    // GUST disabled: 70 is drawn again, 10 picks TACKLE.
    let mut b = wild(
        vec![foe("RATTATA", &["SPLASH"])],
        vec![foe("PIDGEY", &["TACKLE", "GUST"])],
        &[70, 10],
    );
    b.bat_mut(Side::Enemy).disabled_slot = 1;
    b.bat_mut(Side::Enemy).disable_turns = 3;
    assert_eq!(b.select_enemy_move(), Action::Move(0));
    drained(&b);
}

#[test]
fn a_lone_disabled_move_struggles_and_locked_mons_pass_without_a_draw() {
    let mut b = wild(
        vec![foe("RATTATA", &["SPLASH"])],
        vec![foe("PIDGEY", &["TACKLE"])],
        &[],
    );
    b.bat_mut(Side::Enemy).disable_turns = 2;
    assert_eq!(b.select_enemy_move(), Action::Struggle);
    b.bat_mut(Side::Enemy).disable_turns = 0;
    b.sides[1].mon_mut().status = Status::Sleep(3);
    assert_eq!(b.select_enemy_move(), Action::Continue);
    b.sides[1].mon_mut().status = Status::None;
    b.bat_mut(Side::Enemy)
        .set(crate::battle::state::flag::RECHARGE);
    assert_eq!(b.select_enemy_move(), Action::Continue);
    drained(&b);
    // The chosen action is legal for `submit`.
    let mut b = wild(
        vec![foe("RATTATA", &["SPLASH"])],
        vec![foe("PIDGEY", &["SPLASH", "GUST"])],
        &[0],
    );
    let a = b.select_enemy_move();
    assert!(b.is_legal(Side::Enemy, a));
    b.submit(&rt(), Action::Move(0), a).unwrap();
    drained(&b);
}

#[test]
fn class_layers_follow_the_cartridge_table() {
    assert_eq!(trainer_move_layers("BUG_CATCHER"), [1]);
    assert_eq!(trainer_move_layers("SAILOR"), [1, 3]);
    assert_eq!(trainer_move_layers("CHIEF"), [1, 2]);
    assert_eq!(trainer_move_layers("HIKER"), [1, 4]);
    assert_eq!(trainer_move_layers("LORELEI"), [1, 2, 3, 4]);
    assert_eq!(trainer_move_layers("RIVAL1"), [1, 3, 4]);
    assert!(trainer_move_layers("YOUNGSTER").is_empty());
    assert!(trainer_move_layers("CUE_BALL").is_empty());
    assert!(trainer_move_layers("HEADLESS").is_empty());
}

#[test]
fn layer_1_avoids_status_moves_when_the_player_has_a_status() {
    let moves = ["POISONPOWDER", "SLEEP POWDER", "THUNDER WAVE", "TACKLE"];
    let mut b = battle(
        class("BUG_CATCHER"),
        vec![foe("RATTATA", &["SPLASH"])],
        vec![foe("ODDISH", &moves)],
        &[0, 100, 150, 255],
    );
    assert_eq!(b.trainer_drawable(&[1]), [true; 4], "no status: all alike");
    b.sides[0].mon_mut().status = Status::Paralysis;
    assert_eq!(b.trainer_drawable(&[1]), [false, false, false, true]);
    // Slots 1-3 are drawn again; 255 is TACKLE.
    assert_eq!(b.select_enemy_move(), Action::Move(3));
    drained(&b);
    // A class without layers keeps every move.
    let mut b = battle(
        class("YOUNGSTER"),
        vec![foe("RATTATA", &["SPLASH"])],
        vec![foe("ODDISH", &moves)],
        &[0],
    );
    b.sides[0].mon_mut().status = Status::Paralysis;
    assert_eq!(b.select_enemy_move(), Action::Move(0));
    drained(&b);
}

#[test]
fn layer_2_favours_set_up_on_the_second_action_only() {
    // CHIEF uses layers 1 and 2. The counter counts the enemy's move executions since its
    // send-out; layer 2 applies when it is exactly 1.
    let mut b = battle(
        class("CHIEF"),
        vec![foe("RATTATA", &["SPLASH"])],
        vec![
            foe("PIDGEY", &["TACKLE", "GROWL"]),
            foe("SPEAROW", &["PECK"]),
        ],
        &[],
    );
    assert_eq!(b.ai_layer2, 0);
    assert_eq!(b.trainer_drawable(&[1, 2]), [true, true, false, false]);
    // One enemy action: Splash vs TACKLE (crit, factor, hit).
    b.rng.push(&[NO_CRIT, factor(217), HIT]);
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    assert_eq!(b.ai_layer2, 1);
    assert_eq!(b.trainer_drawable(&[1, 2]), [false, true, false, false]);
    b.rng.push(&[0, 70]);
    assert_eq!(b.select_enemy_move(), Action::Move(1));
    drained(&b);
    b.ai_layer2 = 2;
    assert_eq!(b.trainer_drawable(&[1, 2]), [true, true, false, false]);
}

#[test]
fn the_layer_2_counter_resets_when_the_trainer_replaces_a_mon() {
    let mut p = foe("RATTATA", &["TACKLE"]);
    p.stats.spe = 200;
    let mut e = foe("PIDGEY", &["GROWL"]);
    e.hp = 1;
    let mut b = battle(
        class("CHIEF"),
        vec![p],
        vec![e, foe("SPEAROW", &["PECK"])],
        &[NO_CRIT, factor(255), HIT],
    );
    b.ai_layer2 = 7;
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    assert_eq!(b.select_enemy_move(), Action::Switch(1));
    b.submit(&rt(), Action::Continue, Action::Switch(1))
        .unwrap();
    assert_eq!(b.ai_layer2, 0);
    drained(&b);
}

#[test]
fn layer_3_weighs_type_effectiveness() {
    let kind = || class("SAILOR");
    let player = || vec![foe("SQUIRTLE", &["SPLASH"])];
    // Super effective THUNDERSHOCK is encouraged; neutral TACKLE is not.
    let b = battle(
        kind(),
        player(),
        vec![foe("PIKACHU", &["TACKLE", "THUNDERSHOCK"])],
        &[],
    );
    assert_eq!(b.trainer_drawable(&[1, 3]), [false, true, false, false]);
    // Not very effective EMBER is discouraged while TACKLE (another type, damaging) exists.
    let b = battle(
        kind(),
        player(),
        vec![foe("CHARMANDER", &["EMBER", "TACKLE"])],
        &[],
    );
    assert_eq!(b.trainer_drawable(&[1, 3]), [false, true, false, false]);
    // Nothing better (a Fire move and a status move): EMBER stays.
    let b = battle(
        kind(),
        player(),
        vec![foe("CHARMANDER", &["EMBER", "FIRE SPIN", "GROWL"])],
        &[],
    );
    assert_eq!(b.trainer_drawable(&[1, 3]), [true, true, true, false]);
    // SUPER FANG counts as better whatever its type.
    let b = battle(
        kind(),
        player(),
        vec![foe("RATICATE", &["EMBER", "SUPER FANG"])],
        &[],
    );
    assert_eq!(b.trainer_drawable(&[1, 3]), [false, true, false, false]);
    // A no-effect status move (THUNDER WAVE on a Ground type) is discouraged too.
    let b = battle(
        kind(),
        vec![foe("GEODUDE", &["SPLASH"])],
        vec![foe("PIKACHU", &["THUNDER WAVE", "QUICK ATTACK"])],
        &[],
    );
    assert_eq!(b.trainer_drawable(&[1, 3]), [false, true, false, false]);
}

#[test]
fn the_disabled_move_is_scored_out() {
    let mut b = battle(
        class("BUG_CATCHER"),
        vec![foe("RATTATA", &["SPLASH"])],
        vec![foe("PIDGEY", &["TACKLE", "GUST"])],
        &[],
    );
    b.bat_mut(Side::Enemy).disabled_slot = 0;
    b.bat_mut(Side::Enemy).disable_turns = 1;
    assert_eq!(b.trainer_drawable(&[1]), [false, true, false, false]);
}

#[test]
fn link_rules_skip_moves_without_pp() {
    let mut b = battle(
        class("SAILOR"),
        vec![foe("RATTATA", &["SPLASH"])],
        vec![foe("PIDGEY", &["TACKLE", "GUST"])],
        &[0, 70],
    );
    b.set_link_rules(true);
    b.bat_mut(Side::Enemy).pp[0] = 0;
    assert_eq!(b.select_enemy_move(), Action::Move(1));
    drained(&b);
}
