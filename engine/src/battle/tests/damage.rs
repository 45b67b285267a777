//! Damage formula, scaling quirks, STAB and type matchups, the random factor, critical hits and
//! accuracy — against hand-computed values.

use super::*;
use crate::battle::damage::{
    apply_random_factor, base_damage, scale_stats, scaled_accuracy, type_adjust, DamageVars,
};
use crate::data::Type;

#[test]
fn formula_hand_computed() {
    // L50, power 40, atk 100, def 100: 2*50/5+2 = 22; 22*40 = 880; *100/100 = 880; /50 = 17; +2 = 19
    assert_eq!(
        base_damage(DamageVars {
            atk: 100,
            def: 100,
            power: 40,
            level: 50
        }),
        19
    );
    // L100, power 120, atk 250, def 100: 2*100/5+2 = 42; 42*120 = 5040; *250 = 1260000; /100 = 12600;
    // /50 = 252; +2 = 254
    assert_eq!(
        base_damage(DamageVars {
            atk: 250,
            def: 100,
            power: 120,
            level: 100
        }),
        254
    );
    // L5, power 35, atk 11, def 10: 2*5/5+2 = 4; 4*35 = 140; *11 = 1540; /10 = 154; /50 = 3; +2 = 5
    assert_eq!(
        base_damage(DamageVars {
            atk: 11,
            def: 10,
            power: 35,
            level: 5
        }),
        5
    );
    // The 997 cap before +2: L100, power 255, atk 255, def 1: 42*255*255/1/50 = 54621 -> 997 + 2
    assert_eq!(
        base_damage(DamageVars {
            atk: 255,
            def: 1,
            power: 255,
            level: 100
        }),
        999
    );
    // Defense 0 (the cartridge would freeze) is read as 1.
    assert_eq!(
        base_damage(DamageVars {
            atk: 10,
            def: 0,
            power: 10,
            level: 10
        }),
        2 + 6 * 10 * 10 / 50
    );
}

#[test]
fn stats_above_255_are_quartered_and_wrap() {
    // Both stats are divided by 4 when either exceeds 255.
    assert_eq!(scale_stats(300, 200), (75, 50));
    assert_eq!(scale_stats(200, 300), (50, 75));
    assert_eq!(scale_stats(255, 255), (255, 255));
    // Reflect doubled 600 to 1200: 1200/4 = 300 keeps only its low byte: 300 - 256 = 44.
    assert_eq!(scale_stats(100, 1200), (25, 44));
    // Attack 2 with defense 400: 2/4 = 0 is bumped to 1; 400/4 = 100.
    assert_eq!(scale_stats(2, 400), (1, 100));
}

#[test]
fn stab_then_matchups_in_table_order() {
    let m = data().type_matchups();
    // STAB: 25 + 25/2 = 37; Water vs Fire x2 = 74.
    let (d, mult, zero) = type_adjust(
        m,
        25,
        Type::Water,
        [Type::Water, Type::Water],
        [Type::Fire, Type::Fire],
    );
    assert_eq!((d, mult, zero), (74, 20, false));
    // Ice vs Grass/Flying (x2 then x2, one row per defender type): 10 -> 20 -> 40.
    let (d, mult, _) = type_adjust(
        m,
        10,
        Type::Ice,
        [Type::Normal; 2],
        [Type::Grass, Type::Flying],
    );
    assert_eq!((d, mult), (40, 20));
    // Grass vs Grass/Poison: 3 -> 1 -> 0 (x0.5 twice): zero damage means a miss.
    let (d, mult, zero) = type_adjust(
        m,
        3,
        Type::Grass,
        [Type::Normal; 2],
        [Type::Grass, Type::Poison],
    );
    assert_eq!((d, mult, zero), (0, 5, true));
    // Normal vs Ghost: immune.
    let (d, mult, zero) = type_adjust(
        m,
        50,
        Type::Normal,
        [Type::Normal; 2],
        [Type::Ghost, Type::Poison],
    );
    assert_eq!((d, mult, zero), (0, 0, true));
    // Gen 1 table: Ghost has no effect on Psychic; Bug is super effective on Poison.
    let (d, ..) = type_adjust(
        m,
        40,
        Type::Ghost,
        [Type::Normal; 2],
        [Type::Psychic, Type::Psychic],
    );
    assert_eq!(d, 0);
    let (d, ..) = type_adjust(
        m,
        40,
        Type::Bug,
        [Type::Normal; 2],
        [Type::Poison, Type::Poison],
    );
    assert_eq!(d, 80);
}

#[test]
fn matchup_index_agrees_with_the_table_scan() {
    use crate::battle::damage::MatchupIndex;
    let m = data().type_matchups();
    let ix = MatchupIndex::new(m);
    for atk in Type::GEN1 {
        for d1 in Type::GEN1 {
            for d2 in Type::GEN1 {
                for dmg in [1u16, 2, 3, 7, 100, 999, 0xFFFF] {
                    let users = [Type::Normal, atk];
                    assert_eq!(
                        ix.adjust(m, dmg, atk, users, [d1, d2]),
                        type_adjust(m, dmg, atk, users, [d1, d2])
                    );
                }
            }
        }
    }
}

#[test]
fn random_factor_has_39_values() {
    let mut seen = std::collections::BTreeSet::new();
    for b in 0..=255u8 {
        let r = b.rotate_right(1);
        if r >= 217 {
            seen.insert(r);
        }
    }
    assert_eq!(seen.len(), 39);
    assert_eq!(seen.first(), Some(&217));
    assert_eq!(seen.last(), Some(&255));
    // 25 * 217 / 255 = 21.27 -> 21; 25 * 255 / 255 = 25
    assert_eq!(apply_random_factor(25, 217), 21);
    assert_eq!(apply_random_factor(25, 255), 25);
}

#[test]
fn accuracy_scaling() {
    // 100% = 255; accuracy -1 (66/100): 255*66/100 = 168.
    assert_eq!(scaled_accuracy(255, 6, 7), 168);
    // Evasion +1 mirrors to stage 6: same 168.
    assert_eq!(scaled_accuracy(255, 7, 8), 168);
    // Accuracy +6 (4/1) caps at 255.
    assert_eq!(scaled_accuracy(191, 13, 7), 255);
    // -6 and evasion +6: 76*25/100 = 19; 19*25/100 = 4.
    assert_eq!(scaled_accuracy(76, 1, 13), 4);
    // Never below 1: 1*25/100 = 0 -> 1.
    assert_eq!(scaled_accuracy(1, 1, 13), 1);
}

/// Rattata (Normal) L50 with atk 100 uses Tackle on a Pidgey with def 100; the Pidgey Splashes.
fn tackle_setup(bytes: &[u8]) -> Battle<ScriptedRng> {
    let mut p = mon("RATTATA", 50, &["TACKLE", "SWORDS DANCE"]);
    set_stats(&mut p, 150, 100, 100, 200, 100);
    let mut e = mon("PIDGEY", 50, &["SPLASH"]);
    set_stats(&mut e, 100, 100, 100, 50, 100);
    wild(vec![p], vec![e], bytes)
}

#[test]
fn tackle_in_battle() {
    // 22*35 = 770; *100/100 = 770; /50 = 15; +2 = 17; STAB 17+8 = 25; Normal vs Normal/Flying: no
    // row; factor 217: 25*217/255 = 21. Rolls: crit (no), factor, accuracy (95% = 242; 0 hits).
    let mut b = tackle_setup(&[NO_CRIT, factor(217), HIT]);
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    assert_eq!(b.active(Side::Enemy).hp, 100 - 21);
    let t = texts(&mut b);
    assert_eq!(
        t,
        [
            "RATTATA used TACKLE!",
            "Enemy PIDGEY used SPLASH!",
            "No effect!"
        ]
    );
    drained(&b);
}

#[test]
fn factor_rolls_are_retried_below_217() {
    // 0x00 rotates to 0 (< 217): rolled again; then 255: 25 damage.
    let mut b = tackle_setup(&[NO_CRIT, 0x00, factor(255), HIT]);
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    assert_eq!(b.active(Side::Enemy).hp, 75);
    drained(&b);
}

#[test]
fn critical_hit_doubles_level_and_ignores_stages_and_reflect() {
    // Turn 1: Swords Dance (no rolls): attack 100 -> 200 (stage +2).
    // Turn 2: crit Tackle against Reflect: level 100, the player's party attack 100 (the +2
    // stage ignored) and the enemy's defense recomputed from species, DVs and level without
    // stat exp (`GetEnemyMonStat`; Reflect ignored): Pidgey base 40, DV 15, L50:
    // (55*2)*50/100 + 5 = 60. 42*35 = 1470; *100 = 147000; /60 = 2450; /50 = 49; +2 = 51;
    // STAB 51+25 = 76; factor 255: 76.
    let mut b = tackle_setup(&[CRIT, factor(255), HIT]);
    b.submit(&rt(), Action::Move(1), Action::Move(0)).unwrap();
    assert_eq!(b.battler(Side::Player).stats[0], 200);
    b.sides[1].screens.reflect = true;
    b.clear_rows();
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    assert_eq!(b.active(Side::Enemy).hp, 100 - 76);
    let t = texts(&mut b);
    assert_eq!(
        t[..2],
        [
            "RATTATA used TACKLE!".to_string(),
            "Critical hit!".to_string()
        ]
    );
    drained(&b);
}

#[test]
fn non_crit_uses_stages_and_reflect() {
    // Attack 200 (after Swords Dance) vs defense 100 doubled by Reflect = 200:
    // 22*35*200/200/50 = 15; +2 = 17; STAB 25; factor 255: 25.
    let mut b = tackle_setup(&[NO_CRIT, factor(255), HIT]);
    b.submit(&rt(), Action::Move(1), Action::Move(0)).unwrap();
    b.sides[1].screens.reflect = true;
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    assert_eq!(b.active(Side::Enemy).hp, 75);
    drained(&b);
}

#[test]
fn crit_rate_from_base_speed() {
    // Rattata base Speed 72: 72/2 = 36, x2 = 72, /2 for a normal move = 36: a crit when the
    // byte rotated left three times is below 36.
    let mut b = tackle_setup(&[35u8.rotate_right(3), 36u8.rotate_right(3)]);
    b.load_move(Side::Player, mv("TACKLE"));
    assert!(b.crit_roll(Side::Player));
    assert!(!b.crit_roll(Side::Player));
    drained(&b);
}

#[test]
fn high_crit_moves_and_the_focus_energy_bug() {
    // Slash: 36*2 = 72, x2 = 144, x2 = 288 -> capped at 255.
    let mut b = tackle_setup(&[
        254u8.rotate_right(3),
        255u8.rotate_right(3),
        8u8.rotate_right(3),
        9u8.rotate_right(3),
    ]);
    b.load_move(Side::Player, mv("SLASH"));
    assert!(b.crit_roll(Side::Player));
    assert!(!b.crit_roll(Side::Player));
    // Focus Energy shifts right instead of left: 36/2 = 18, /2 = 9 for Tackle (a quarter of 36).
    b.load_move(Side::Player, mv("TACKLE"));
    b.bat_mut(Side::Player).set(state::flag::FOCUS_ENERGY);
    assert!(b.crit_roll(Side::Player));
    assert!(!b.crit_roll(Side::Player));
    drained(&b);
}

#[test]
fn immunity_does_not_affect_but_still_rolls_accuracy() {
    // Tackle on Gastly: crit roll, no factor (damage 0), the accuracy roll still happens.
    let mut p = mon("RATTATA", 50, &["TACKLE"]);
    set_stats(&mut p, 150, 100, 100, 200, 100);
    let e = mon("GASTLY", 50, &["SPLASH"]);
    let hp = e.hp;
    let mut b = wild(vec![p], vec![e], &[NO_CRIT, HIT]);
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    assert_eq!(b.active(Side::Enemy).hp, hp);
    assert_eq!(texts(&mut b)[1], "It doesn't affect Enemy GASTLY!");
    drained(&b);
}

#[test]
fn quarter_effective_on_tiny_damage_misses() {
    // L2 Pidgey, atk 5, Vine Whip (45) on Bulbasaur def 255: 2*2/5+2 = 2; 2*45*5/255 = 1; /50 = 0;
    // +2 = 2; Grass vs Grass x0.5 = 1; vs Poison x0.5 = 0 -> the move misses.
    let mut p = mon("PIDGEY", 2, &["VINE WHIP"]);
    set_stats(&mut p, 20, 5, 10, 200, 5);
    let mut e = mon("BULBASAUR", 50, &["SPLASH"]);
    set_stats(&mut e, 100, 50, 255, 10, 50);
    let mut b = wild(vec![p], vec![e], &[NO_CRIT, HIT]);
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    assert_eq!(b.active(Side::Enemy).hp, 100);
    assert_eq!(texts(&mut b)[1], "PIDGEY's attack missed!");
    drained(&b);
}

#[test]
fn minimum_damage_and_effectiveness_text() {
    // Ember (40, Fire) from a L5 non-Fire mon with spc 5 on Bulbasaur spc 200:
    // 2*5/5+2 = 4; 4*40*5/200 = 4; /50 = 0; +2 = 2; Fire vs Grass x2 = 4; factor 217: 4*217/255 = 3.
    let mut p = mon("PIDGEY", 5, &["EMBER"]);
    set_stats(&mut p, 20, 5, 10, 200, 5);
    let mut e = mon("BULBASAUR", 50, &["SPLASH"]);
    set_stats(&mut e, 100, 50, 100, 10, 200);
    // Rolls: crit, factor, accuracy, then Ember's 10% burn (26: a byte of 26 does nothing).
    let mut b = wild(vec![p], vec![e], &[NO_CRIT, factor(217), HIT, 26]);
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    assert_eq!(b.active(Side::Enemy).hp, 97);
    assert_eq!(texts(&mut b)[1], "It's super effective!");
    drained(&b);
}

#[test]
fn accuracy_one_in_256_miss() {
    // Swift-free 100% move (Slash): accuracy 255; a roll of 255 misses, 254 hits.
    let mut p = mon("RATTATA", 50, &["SLASH"]);
    set_stats(&mut p, 150, 100, 100, 200, 100);
    let mut e = mon("PIDGEY", 50, &["SPLASH"]);
    set_stats(&mut e, 200, 100, 100, 50, 100);
    let mut b = wild(
        vec![p],
        vec![e],
        &[0xFF, factor(255), 255, 0xFF, factor(255), 254],
    );
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    assert_eq!(b.active(Side::Enemy).hp, 200);
    assert_eq!(texts(&mut b)[1], "RATTATA's attack missed!");
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    assert!(b.active(Side::Enemy).hp < 200);
    drained(&b);
}

#[test]
fn accuracy_stage_scales_the_threshold() {
    // After Sand-Attack on the player (-1 accuracy: 255*66/100 = 168), a roll of 168 misses and
    // 167 hits. Enemy Sand-Attack (wild AI): its 25% miss roll (64 passes), then its own hit test.
    let mut p = mon("RATTATA", 50, &["SLASH"]);
    set_stats(&mut p, 150, 100, 100, 10, 100);
    let mut e = mon("PIDGEY", 50, &["SAND-ATTACK"]);
    set_stats(&mut e, 200, 100, 100, 50, 100);
    let mut b = wild(
        vec![p],
        vec![e],
        &[
            64,
            HIT, // enemy first (faster): AI miss roll passes, hit test
            0xFF,
            factor(255),
            168, // player: no crit, factor, 168 >= 168 misses
            64,
            HIT, // turn 2: enemy again (accuracy now -2)
            0xFF,
            factor(255),
            127, // player: 255*50/100 = 127: 127 misses
            64,
            HIT,
            0xFF,
            factor(255),
            126, // turn 3: accuracy -3 (40/100 = 102): 126 misses too
        ],
    );
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    assert_eq!(b.battler(Side::Player).stages[4], 6);
    assert_eq!(b.active(Side::Enemy).hp, 200);
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    assert_eq!(b.active(Side::Enemy).hp, 200);
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    assert_eq!(b.active(Side::Enemy).hp, 200);
    assert_eq!(b.battler(Side::Player).stages[4], 4);
    drained(&b);
}

#[test]
fn swift_never_misses_even_during_fly() {
    let mut p = mon("RATTATA", 50, &["SWIFT"]);
    set_stats(&mut p, 150, 100, 100, 10, 100);
    let mut e = mon("PIDGEY", 50, &["FLY"]);
    set_stats(&mut e, 200, 100, 100, 50, 100);
    // Enemy (faster) flies up: no rolls. Player's Swift: crit roll, factor, no accuracy roll.
    let mut b = wild(vec![p], vec![e], &[NO_CRIT, factor(255)]);
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    assert!(b.battler(Side::Enemy).has(state::flag::INVULNERABLE));
    assert!(b.active(Side::Enemy).hp < 200);
    drained(&b);
}
