//! Multi-turn and repeating moves: Rage, Bide, Thrash, Wrap, Hyper Beam's recharge, charge
//! moves and Dig, multi-hit moves and the 2-to-5 distribution.

use super::*;
use crate::battle::state::flag;

#[test]
fn rage_locks_in_builds_attack_and_spends_no_more_pp() {
    let mut b = wild(
        vec![fast("RATTATA", &["RAGE"])],
        vec![slow("PIDGEY", &["TACKLE"])],
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
            NO_CRIT,
            factor(217),
            HIT,
        ],
    );
    go(&mut b, M0, M0);
    assert!(b.battler(Side::Player).has(flag::RAGE));
    assert_eq!(b.battler(Side::Player).stages[0], 8);
    let t = texts(&mut b);
    assert!(
        t.contains(&"RATTATA's RAGE is building!".to_string()),
        "{t:?}"
    );
    assert_eq!(b.active(Side::Player).pp[0], 19);
    // Raging: no menu at all.
    assert_eq!(legal(&b, Side::Player), [Action::Continue]);
    go(&mut b, C, M0);
    assert_eq!(texts(&mut b)[0], "RATTATA used RAGE!");
    assert_eq!(b.active(Side::Player).pp[0], 19);
    assert_eq!(b.battler(Side::Player).stages[0], 9);
    drained(&b);
}

#[test]
fn bide_stores_two_or_three_turns_and_hits_ghosts_for_double() {
    // Bide counter (0 & 1) + 2 = 2. Gastly's Tackle (no STAB): 22*35 = 770; /50 = 15; +2 = 17.
    // Turn 2: stores 17 (the last damage dealt); turn 3: stores 17 more, unleashes 2 x 34 = 68
    // with no roll, typeless: it hits the Ghost.
    let mut b = wild(
        vec![fast("RATTATA", &["BIDE"])],
        vec![slow("GASTLY", &["TACKLE"])],
        &[
            0x00,
            NO_CRIT,
            factor(255),
            HIT,
            NO_CRIT,
            factor(255),
            HIT,
            NO_CRIT,
            factor(255),
            HIT,
        ],
    );
    go(&mut b, M0, M0);
    assert_eq!(legal(&b, Side::Player), [Action::Continue, Action::Run]);
    go(&mut b, C, M0);
    assert_eq!(b.active(Side::Enemy).hp, 160);
    go(&mut b, C, M0);
    assert_eq!(b.active(Side::Enemy).hp, 160 - 68);
    assert!(texts(&mut b).contains(&"RATTATA unleashed energy!".to_string()));
    drained(&b);
}

#[test]
fn thrash_runs_three_or_four_turns_then_confuses() {
    // Counter (0 & 1) + 2 = 2 more turns; at the end confusion for (0 & 3) + 2 = 2 turns.
    let mut b = wild(
        vec![fast("TAUROS", &["THRASH"])],
        vec![slow("ONIX", &["SPLASH"])],
        &[
            0x00,
            NO_CRIT,
            factor(217),
            HIT,
            NO_CRIT,
            factor(217),
            HIT,
            0x00,
            NO_CRIT,
            factor(217),
            HIT,
        ],
    );
    b.sides[1].party[0].hp = 160;
    go(&mut b, M0, M0);
    assert_eq!(legal(&b, Side::Player), [Action::Continue]);
    go(&mut b, C, M0);
    assert_eq!(texts(&mut b)[0], "TAUROS used THRASH!");
    assert!(b.battler(Side::Player).has(flag::THRASHING));
    go(&mut b, C, M0);
    assert_eq!(texts(&mut b)[0], "TAUROS's thrashing about!");
    assert!(b.battler(Side::Player).has(flag::CONFUSED));
    assert!(!b.battler(Side::Player).has(flag::THRASHING));
    assert_eq!(b.battler(Side::Player).confusion_turns, 2);
    assert_eq!(b.active(Side::Player).pp[0], 19);
    drained(&b);
}

#[test]
fn wrap_traps_and_repeats_its_damage() {
    // Trapping counter (0 & 3) + 1 = 1 more turn. Wrap (15 power, no STAB for Ekans):
    // 22*15 = 330; /50 = 6; +2 = 8; factor 255: 8. The enemy can't move either turn; turn 2
    // repeats 8 damage with no roll. Turn 3 the enemy attacks.
    let mut b = wild(
        vec![fast("EKANS", &["WRAP", "SPLASH"])],
        vec![slow("RATTATA", &["TACKLE"])],
        &[0x00, NO_CRIT, factor(255), HIT, NO_CRIT, factor(217), HIT],
    );
    go(&mut b, M0, M0);
    assert_eq!(b.active(Side::Enemy).hp, 152);
    assert_eq!(texts(&mut b)[1], "Enemy RATTATA can't move!");
    assert_eq!(legal(&b, Side::Enemy), [Action::Continue]);
    go(&mut b, C, C);
    assert_eq!(b.active(Side::Enemy).hp, 144);
    // The trapped side selected nothing ($FF): its turn is skipped without a text.
    let t = texts(&mut b);
    assert_eq!(t, ["EKANS's attack continues!"]);
    go(&mut b, M1, M0);
    assert!(b.active(Side::Player).hp < 150);
    drained(&b);
}

#[test]
fn hyper_beam_recharges_unless_it_knocks_out() {
    let mut b = wild(
        vec![fast("TAUROS", &["HYPER BEAM"])],
        vec![slow("ONIX", &["SPLASH"])],
        &[NO_CRIT, factor(217), HIT],
    );
    b.sides[1].party[0].hp = 160;
    go(&mut b, M0, M0);
    assert!(b.battler(Side::Player).has(flag::RECHARGE));
    assert_eq!(legal(&b, Side::Player), [Action::Continue]);
    b.clear_rows();
    go(&mut b, C, M0);
    assert_eq!(texts(&mut b)[0], "TAUROS must recharge!");
    drained(&b);
    // A knock-out skips the recharge.
    let mut e = slow("RATTATA", &["SPLASH"]);
    e.hp = 10;
    let mut b = wild(
        vec![fast("TAUROS", &["HYPER BEAM"]), fast("PIDGEY", &["SPLASH"])],
        vec![e],
        &[NO_CRIT, factor(217), HIT],
    );
    go(&mut b, M0, M0);
    assert_eq!(b.result(), Some(BattleResult::Win));
    assert!(!b.battler(Side::Player).has(flag::RECHARGE));
    drained(&b);
}

#[test]
fn charge_moves_and_dig_invulnerability() {
    // Solar Beam: turn 1 no roll and no PP; turn 2 (locked) fires.
    let mut b = wild(
        vec![fast("ODDISH", &["SOLARBEAM"])],
        vec![slow("RATTATA", &["SPLASH"])],
        &[NO_CRIT, factor(217), HIT],
    );
    go(&mut b, M0, M0);
    assert_eq!(texts(&mut b)[0], "ODDISH took in sunlight!");
    assert_eq!(b.active(Side::Player).pp[0], 10);
    assert_eq!(legal(&b, Side::Player), [Action::Continue]);
    go(&mut b, C, M0);
    assert_eq!(texts(&mut b)[0], "ODDISH used SOLARBEAM!");
    assert_eq!(b.active(Side::Player).pp[0], 9);
    drained(&b);
    // Dig: the enemy's Tackle rolls crit and damage, then misses without an accuracy roll.
    let mut b = wild(
        vec![fast("DIGLETT", &["DIG"])],
        vec![slow("RATTATA", &["TACKLE"])],
        &[
            NO_CRIT,
            factor(217),
            NO_CRIT,
            factor(217),
            HIT,
            NO_CRIT,
            factor(217),
            HIT,
        ],
    );
    go(&mut b, M0, M0);
    assert_eq!(b.active(Side::Player).hp, 150);
    assert_eq!(texts(&mut b)[2], "Enemy RATTATA's attack missed!");
    go(&mut b, C, M0);
    assert!(!b.battler(Side::Player).has(flag::INVULNERABLE));
    assert!(b.active(Side::Player).hp < 150);
    drained(&b);
}

#[test]
fn multi_hit_distribution_double_kick_and_twineedle() {
    // Fury Attack (15, STAB): 22*15 = 330; /50 = 6; +2 = 8; STAB 12. After the first hit: count
    // roll 2 (>= 2) -> second roll 3 -> 5 hits = 60.
    let mut b = wild(
        vec![fast("RATTATA", &["FURY ATTACK"])],
        vec![slow("PIDGEY", &["SPLASH"])],
        &[NO_CRIT, factor(255), HIT, 0x02, 0x03],
    );
    go(&mut b, M0, M0);
    assert_eq!(b.active(Side::Enemy).hp, 100);
    assert!(texts(&mut b).contains(&"Hit 5 times!".to_string()));
    drained(&b);
    // Double Kick: two hits, no count roll. (30, Fighting, no STAB): 22*30 = 660; /50 = 13; +2 = 15.
    let mut b = wild(
        vec![fast("RATTATA", &["DOUBLE KICK"])],
        vec![slow("ONIX", &["SPLASH"])],
        &[NO_CRIT, factor(255), HIT],
    );
    b.bat_mut(Side::Enemy).types = [crate::data::Type::Water; 2];
    go(&mut b, M0, M0);
    assert_eq!(b.active(Side::Enemy).hp, 130);
    drained(&b);
    // Twineedle: two hits, then one 20% poison roll (51 < 52).
    let mut b = wild(
        vec![fast("BEEDRILL", &["TWINEEDLE"])],
        vec![slow("RATTATA", &["SPLASH"])],
        &[NO_CRIT, factor(255), HIT, 51],
    );
    go(&mut b, M0, M0);
    assert_eq!(status_of(&b, Side::Enemy), Status::Poison);
    assert!(texts(&mut b).contains(&"Hit 2 times!".to_string()));
    drained(&b);
}

#[test]
fn two_to_five_distribution_is_3_3_1_1_eighths() {
    // Every pair of bytes, weighted as the cartridge draws them: the second byte only matters
    // when the first gave 2 or 3.
    let mut counts = [0u32; 4];
    let mut b = wild(
        vec![fast("RATTATA", &["SPLASH"])],
        vec![slow("PIDGEY", &["SPLASH"])],
        &[],
    );
    for b1 in 0..=255u8 {
        for b2 in 0..=255u8 {
            b.rng.push(&[b1, b2]);
            let r = b.two_to_five_roll();
            counts[usize::from(r)] += 1;
            if !b.rng().remaining().is_empty() {
                b.rng.byte(); // the second byte was not needed
            }
        }
    }
    drained(&b);
    let total: u32 = counts.iter().sum();
    assert_eq!(total, 65536);
    assert_eq!(counts.map(|c| c * 8 / total), [3, 3, 1, 1]);
    assert_eq!(counts, [24576, 24576, 8192, 8192]);
}
