//! Moves with their own damage or HP cost: Counter, Psywave and fixed damage, Super Fang, OHKO
//! moves, Explosion, Struggle, recoil and drain (Dream Eater), Jump Kick, flinch.

use super::*;
use crate::battle::state::flag;

#[test]
fn counter_returns_double_the_last_damage() {
    // Counter moves last. Enemy Tackle: 25*217/255 = 21. Counter: crit roll (power 1), then 42
    // and a hit roll.
    let mut b = wild(
        vec![fast("MACHOP", &["COUNTER"])],
        vec![slow("RATTATA", &["TACKLE", "EMBER"])],
        &[
            NO_CRIT,
            factor(217),
            HIT,
            NO_CRIT,
            HIT,
            NO_CRIT,
            factor(217),
            HIT,
            0xFF,
            NO_CRIT,
        ],
    );
    go(&mut b, M0, M0);
    assert_eq!(b.active(Side::Player).hp, 150 - 21);
    assert_eq!(b.active(Side::Enemy).hp, 160 - 42);
    // Against a special move it fails (no hit roll). Ember: crit, factor, hit, burn roll.
    go(&mut b, M0, M1);
    assert_eq!(
        texts(&mut b).last().map(String::as_str),
        Some("MACHOP's attack missed!")
    );
    drained(&b);
}

#[test]
fn psywave_ranges_differ_by_side() {
    // Player L50: below 75, at least 1: hit roll (80%), then 0 and 80 rerolled, 30.
    let mut b = wild(
        vec![fast("DROWZEE", &["PSYWAVE"])],
        vec![slow("RATTATA", &["SPLASH"])],
        &[HIT, 0, 80, 30],
    );
    go(&mut b, M0, M0);
    assert_eq!(b.active(Side::Enemy).hp, 130);
    drained(&b);
    // The enemy's range starts at 0: a 0 does nothing.
    let mut b = wild(
        vec![slow("RATTATA", &["SPLASH"])],
        vec![fast("DROWZEE", &["PSYWAVE"])],
        &[HIT, 0],
    );
    go(&mut b, M0, M0);
    assert_eq!(b.active(Side::Player).hp, 160);
    drained(&b);
}

#[test]
fn fixed_damage_ignores_types_and_stats() {
    // Seismic Toss = level (50), even on a Ghost; one hit roll, no crit roll.
    let mut b = wild(
        vec![fast("MACHOP", &["SEISMIC TOSS"])],
        vec![slow("GASTLY", &["SPLASH"])],
        &[HIT],
    );
    go(&mut b, M0, M0);
    assert_eq!(b.active(Side::Enemy).hp, 110);
    drained(&b);
    // Night Shade hits a Normal type; Sonic Boom 20; Dragon Rage 40.
    let mut b = wild(
        vec![fast("GASTLY", &["NIGHT SHADE", "SONICBOOM", "DRAGON RAGE"])],
        vec![slow("RATTATA", &["SPLASH"])],
        &[HIT, HIT, HIT],
    );
    go(&mut b, M0, M0);
    assert_eq!(b.active(Side::Enemy).hp, 110);
    go(&mut b, M1, M0);
    assert_eq!(b.active(Side::Enemy).hp, 90);
    go(&mut b, Action::Move(2), M0);
    assert_eq!(b.active(Side::Enemy).hp, 50);
    drained(&b);
}

#[test]
fn super_fang_halves_current_hp_at_least_one() {
    let mut b = wild(
        vec![fast("RATICATE", &["SUPER FANG"])],
        vec![slow("GASTLY", &["SPLASH"])],
        &[HIT, HIT],
    );
    b.sides[1].party[0].hp = 161;
    go(&mut b, M0, M0);
    assert_eq!(b.active(Side::Enemy).hp, 81);
    b.sides[1].party[0].hp = 1;
    go(&mut b, M0, M0);
    assert_eq!(b.result(), Some(BattleResult::Win));
    drained(&b);
}

#[test]
fn ohko_moves_need_speed_and_respect_immunity() {
    // Slower user: crit roll only, then "unaffected".
    let mut b = wild(
        vec![slow("RHYDON", &["HORN DRILL", "FISSURE"])],
        vec![fast("PIDGEY", &["SPLASH"])],
        &[NO_CRIT],
    );
    go(&mut b, M0, M0);
    assert_eq!(texts(&mut b)[3], "Enemy PIDGEY is unaffected!");
    drained(&b);
    // Faster: crit roll, 65535 -> factor, hit roll: knocked out.
    let mut b = wild(
        vec![fast("RHYDON", &["HORN DRILL", "FISSURE"])],
        vec![slow("PIDGEY", &["SPLASH"])],
        &[NO_CRIT, factor(217), HIT],
    );
    go(&mut b, M0, M0);
    assert_eq!(b.result(), Some(BattleResult::Win));
    assert!(b.peek_rows().contains(&Row::Text(Msg::Ohko)));
    drained(&b);
    // Fissure on a Flying type: zero after types (no factor roll), the hit roll, "doesn't affect".
    let mut b = wild(
        vec![fast("RHYDON", &["FISSURE"])],
        vec![slow("PIDGEY", &["SPLASH"])],
        &[NO_CRIT, HIT],
    );
    go(&mut b, M0, M0);
    assert_eq!(texts(&mut b)[1], "It doesn't affect Enemy PIDGEY!");
    drained(&b);
}

#[test]
fn explosion_halves_defense_and_faints_the_user_even_on_a_miss() {
    // Defense 100 halved to 50: 22*170 = 3740; *100/50 = 7480; /50 = 149; +2 = 151 (no STAB).
    let mut e = slow("RATTATA", &["SPLASH"]);
    set_stats(&mut e, 300, 100, 100, 50, 100);
    let mut b = wild(
        vec![fast("GEODUDE", &["EXPLOSION"]), fast("PIDGEY", &["SPLASH"])],
        vec![e],
        &[NO_CRIT, factor(255), HIT],
    );
    go(&mut b, M0, M0);
    assert_eq!(b.active(Side::Enemy).hp, 300 - 151);
    assert_eq!(b.party(Side::Player)[0].hp, 0);
    drained(&b);
    // A miss still faints the user.
    let mut b = wild(
        vec![fast("GEODUDE", &["EXPLOSION"]), fast("PIDGEY", &["SPLASH"])],
        vec![slow("ONIX", &["SPLASH"])],
        &[NO_CRIT, factor(255), MISS],
    );
    go(&mut b, M0, M0);
    assert_eq!(b.party(Side::Player)[0].hp, 0);
    assert_eq!(b.active(Side::Enemy).hp, 160);
    drained(&b);
    // Breaking a substitute cancels the effect: the user survives.
    let mut b = wild(
        vec![fast("GEODUDE", &["EXPLOSION"])],
        vec![slow("ONIX", &["SPLASH"])],
        &[NO_CRIT, factor(255), HIT],
    );
    b.bat_mut(Side::Enemy).set(flag::SUBSTITUTE);
    b.bat_mut(Side::Enemy).substitute_hp = 10;
    go(&mut b, M0, M0);
    assert_eq!(b.active(Side::Player).hp, 150);
    assert!(!b.battler(Side::Enemy).has(flag::SUBSTITUTE));
    drained(&b);
}

#[test]
fn struggle_when_no_pp_and_half_recoil() {
    // Struggle (50, Normal, STAB for Rattata): 22*50 = 1100; /50 = 22; +2 = 24; STAB 36; factor
    // 255: 36; recoil 36/2 = 18.
    let mut p = fast("RATTATA", &["TACKLE"]);
    p.pp = [0; 4];
    let mut b = wild(
        vec![p],
        vec![slow("PIDGEY", &["SPLASH"])],
        &[NO_CRIT, factor(255), HIT],
    );
    assert_eq!(legal(&b, Side::Player), [Action::Struggle, Action::Run]);
    go(&mut b, Action::Struggle, M0);
    assert_eq!(b.active(Side::Enemy).hp, 160 - 36);
    assert_eq!(b.active(Side::Player).hp, 150 - 18);
    drained(&b);
}

#[test]
fn recoil_quarter_drain_half_and_dream_eater() {
    // Take Down (90): 22*90 = 1980; /50 = 39; +2 = 41; STAB 61; factor 255; recoil 61/4 = 15.
    let mut b = wild(
        vec![fast("RATTATA", &["TAKE DOWN"])],
        vec![slow("PIDGEY", &["SPLASH"])],
        &[NO_CRIT, factor(255), HIT],
    );
    go(&mut b, M0, M0);
    assert_eq!(b.active(Side::Enemy).hp, 160 - 61);
    assert_eq!(b.active(Side::Player).hp, 150 - 15);
    drained(&b);
    // Mega Drain (40, special) from Oddish (STAB): 22*40 = 880; /50 = 17; +2 = 19; STAB 28; vs
    // Normal: 28; factor 255; heals 14.
    let mut p = fast("ODDISH", &["MEGA DRAIN", "DREAM EATER"]);
    p.hp = 100;
    let mut b = wild(
        vec![p],
        vec![slow("RATTATA", &["SPLASH"])],
        &[NO_CRIT, factor(255), HIT, NO_CRIT, factor(255)],
    );
    go(&mut b, M0, M0);
    assert_eq!(b.active(Side::Enemy).hp, 160 - 28);
    assert_eq!(b.active(Side::Player).hp, 114);
    // Dream Eater on an awake target misses before the accuracy roll.
    go(&mut b, M1, M0);
    assert_eq!(b.active(Side::Enemy).hp, 132);
    drained(&b);
}

#[test]
fn jump_kick_crashes_for_one() {
    let mut b = wild(
        vec![fast("HITMONLEE", &["HI JUMP KICK"])],
        vec![slow("RATTATA", &["SPLASH"])],
        &[NO_CRIT, factor(255), MISS],
    );
    go(&mut b, M0, M0);
    assert_eq!(b.active(Side::Player).hp, 149);
    assert_eq!(texts(&mut b)[2], "HITMONLEE kept going and crashed!");
    drained(&b);
}

#[test]
fn flinch_only_when_moving_first() {
    // Bite's 10% (26): 25 flinches the slower target.
    let mut b = wild(
        vec![fast("RATTATA", &["BITE"])],
        vec![slow("PIDGEY", &["TACKLE"])],
        &[NO_CRIT, factor(255), HIT, 25],
    );
    go(&mut b, M0, M0);
    assert_eq!(texts(&mut b)[1], "Enemy PIDGEY flinched!");
    drained(&b);
}

#[test]
fn light_screen_doubles_special_and_dream_eater_drains_a_sleeper() {
    // Dream Eater (100, Psychic; no STAB for Ghost/Poison Gastly) on a sleeping target behind
    // Light Screen: special 100 x2 = 200: 22*100 = 2200; *100/200 = 1100; /50 = 22;
    // +2 = 24; factor 255: 24; heals 12.
    let mut p = fast("GASTLY", &["DREAM EATER"]);
    p.hp = 100;
    let mut e = slow("RATTATA", &["SPLASH"]);
    e.status = Status::Sleep(5);
    let mut b = wild(vec![p], vec![e], &[NO_CRIT, factor(255), HIT]);
    b.sides[1].screens.light_screen = true;
    go(&mut b, M0, C);
    assert_eq!(b.active(Side::Enemy).hp, 160 - 24);
    assert_eq!(b.active(Side::Player).hp, 112);
    assert!(texts(&mut b).contains(&"Enemy RATTATA's dream was eaten!".to_string()));
    drained(&b);
}
