//! Non-volatile status (sleep, freeze, paralysis, burn, poison, Toxic), confusion, Leech Seed,
//! and their quirks. Every test's rolls are listed in cartridge order.

use super::*;
use crate::battle::state::flag;

fn fast(species: &str, moves: &[&str]) -> Pokemon {
    let mut m = mon(species, 50, moves);
    set_stats(&mut m, 150, 100, 100, 200, 100);
    m
}

fn slow(species: &str, moves: &[&str]) -> Pokemon {
    let mut m = mon(species, 50, moves);
    set_stats(&mut m, 160, 100, 100, 50, 100);
    m
}

#[test]
fn sleep_counter_and_the_lost_wake_turn() {
    // Hypnosis (60% = 153): hit roll, then the counter: 0x08 & 7 = 0 is rerolled, 0x02 -> 2.
    // The counter drops at each of the sleeper's turns; reaching 0 it wakes and still loses the
    // turn. Turn 3 it attacks: crit, factor, hit.
    let mut b = wild(
        vec![fast("DROWZEE", &["HYPNOSIS", "SPLASH"])],
        vec![slow("RATTATA", &["TACKLE"])],
        &[HIT, 0x08, 0x02, NO_CRIT, factor(255), HIT],
    );
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    assert_eq!(status_of(&b, Side::Enemy), Status::Sleep(1));
    let t = texts(&mut b);
    assert_eq!(
        t,
        [
            "DROWZEE used HYPNOSIS!",
            "Enemy RATTATA fell asleep!",
            "Enemy RATTATA is fast asleep!"
        ]
    );
    // Asleep: the enemy has no move to pick.
    assert_eq!(legal(&b, Side::Enemy), [Action::Continue]);
    b.submit(&rt(), Action::Move(1), Action::Continue).unwrap();
    assert_eq!(status_of(&b, Side::Enemy), Status::None);
    assert_eq!(texts(&mut b)[2], "Enemy RATTATA woke up!");
    b.submit(&rt(), Action::Move(1), Action::Move(0)).unwrap();
    assert!(b.active(Side::Player).hp < 150);
    drained(&b);
}

#[test]
fn sleep_hits_a_recharging_target_without_any_test() {
    let mut b = wild(
        vec![fast("DROWZEE", &["HYPNOSIS"])],
        vec![slow("RATTATA", &["TACKLE"])],
        &[0x05],
    );
    b.bat_mut(Side::Enemy).set(flag::RECHARGE);
    // No hit roll: only the counter (5). The enemy then sleeps (5 -> 4) instead of recharging.
    b.submit(&rt(), Action::Move(0), Action::Continue).unwrap();
    assert_eq!(status_of(&b, Side::Enemy), Status::Sleep(4));
    assert!(!b.battler(Side::Enemy).has(flag::RECHARGE));
    drained(&b);
}

#[test]
fn freeze_lasts_until_a_fire_move_with_a_burn_chance_hits() {
    // Ice Beam: crit, factor, hit, freeze roll 25 (< 26 = 10%+1). Frozen: no move, no roll.
    // Ember next turn: crit, factor, hit; the target is statused, so CheckDefrost thaws it
    // without a roll; the thawed enemy then attacks (crit, factor, hit).
    let mut b = wild(
        vec![fast("LAPRAS", &["ICE BEAM", "EMBER"])],
        vec![slow("RATTATA", &["TACKLE"])],
        &[
            NO_CRIT,
            factor(217),
            HIT,
            25,
            NO_CRIT,
            factor(217),
            HIT,
            NO_CRIT,
            factor(217),
            HIT,
        ],
    );
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    assert_eq!(status_of(&b, Side::Enemy), Status::Freeze);
    let t = texts(&mut b);
    assert_eq!(t[1], "Enemy RATTATA was frozen solid!");
    assert_eq!(t[2], "Enemy RATTATA is frozen solid!");
    // Frozen: no choice; it thaws mid-round and uses the move it had selected before.
    assert_eq!(legal(&b, Side::Enemy), [Action::Continue]);
    b.submit(&rt(), Action::Move(1), Action::Continue).unwrap();
    assert_eq!(status_of(&b, Side::Enemy), Status::None);
    let t = texts(&mut b);
    assert!(
        t.contains(&"Enemy RATTATA was defrosted!".to_string()),
        "{t:?}"
    );
    assert!(t.contains(&"Enemy RATTATA used TACKLE!".to_string()));
    drained(&b);
}

#[test]
fn paralysis_quarters_speed_and_fully_paralyzes_a_quarter_of_the_time() {
    let mut e = slow("RATTATA", &["TACKLE"]);
    e.stats.spe = 400;
    e.status = Status::Paralysis;
    let mut p = fast("PIDGEY", &["SPLASH"]);
    p.stats.spe = 150;
    // Speed 400 / 4 = 100 < 150: the player now moves first. Roll 62 (< 63): fully paralyzed;
    // roll 63: it attacks.
    let mut b = wild(vec![p], vec![e], &[62, 63, NO_CRIT, factor(217), HIT]);
    assert_eq!(b.battler(Side::Enemy).stats[2], 100);
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    assert_eq!(texts(&mut b)[2], "Enemy RATTATA's fully paralyzed!");
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    assert!(b.active(Side::Player).hp < 150);
    drained(&b);
}

#[test]
fn type_rules_for_paralysis() {
    // Thunder Wave on a Ground type: "doesn't affect", no roll at all (power 0: no crit roll).
    // Body Slam cannot paralyze a Normal type: no side-effect roll after crit, factor, hit.
    let mut b = wild(
        vec![fast("PIKACHU", &["THUNDER WAVE", "BODY SLAM"])],
        vec![slow("DIGLETT", &["SPLASH"])],
        &[],
    );
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    assert_eq!(texts(&mut b)[1], "It doesn't affect Enemy DIGLETT!");
    drained(&b);
    let mut b = wild(
        vec![fast("PIKACHU", &["BODY SLAM"])],
        vec![slow("RATTATA", &["SPLASH"])],
        &[NO_CRIT, factor(217), HIT],
    );
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    assert_eq!(status_of(&b, Side::Enemy), Status::None);
    drained(&b);
}

#[test]
fn burn_halves_attack_and_hurts_right_after_the_action() {
    let mut e = slow("RATTATA", &["SPLASH"]);
    e.status = Status::Burn;
    let mut b = wild(vec![fast("PIDGEY", &["SPLASH"])], vec![e], &[]);
    assert_eq!(b.battler(Side::Enemy).stats[0], 50);
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    // 160 / 16 = 10.
    assert_eq!(b.active(Side::Enemy).hp, 150);
    let t = texts(&mut b);
    assert_eq!(
        t,
        [
            "PIDGEY used SPLASH!",
            "No effect!",
            "Enemy RATTATA used SPLASH!",
            "No effect!",
            "Enemy RATTATA's hurt by the burn!"
        ]
    );
    drained(&b);
}

#[test]
fn ember_burns_and_halves_attack() {
    // Burn roll 25 (< 26) after crit, factor, hit.
    let mut b = wild(
        vec![fast("CHARMANDER", &["EMBER"])],
        vec![slow("RATTATA", &["SPLASH"])],
        &[NO_CRIT, factor(217), HIT, 25],
    );
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    assert_eq!(status_of(&b, Side::Enemy), Status::Burn);
    assert_eq!(b.battler(Side::Enemy).stats[0], 50);
    drained(&b);
}

#[test]
fn toxic_counter_is_shared_with_leech_seed() {
    // Toxic (85% = 216) then Leech Seed (90% = 229): one hit roll each.
    // Turn 1: Toxic; the enemy's residual: counter 1 -> 160/16 * 1 = 10 (160 -> 150).
    // Turn 2: Leech Seed; residual: poison with counter 2 -> 20 (130), then the seed with
    // counter 3 -> 30 (100), which heals the player by 30 (50 -> 80).
    let mut p = fast("BULBASAUR", &["TOXIC", "LEECH SEED"]);
    p.hp = 50;
    let mut b = wild(vec![p], vec![slow("RATTATA", &["SPLASH"])], &[HIT, HIT]);
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    assert_eq!(status_of(&b, Side::Enemy), Status::Poison);
    assert_eq!(b.active(Side::Enemy).hp, 150);
    assert_eq!(texts(&mut b)[1], "Enemy RATTATA's badly poisoned!");
    b.submit(&rt(), Action::Move(1), Action::Move(0)).unwrap();
    assert_eq!(b.active(Side::Enemy).hp, 100);
    assert_eq!(b.active(Side::Player).hp, 80);
    assert_eq!(b.battler(Side::Enemy).toxic_counter, 3);
    let t = texts(&mut b);
    assert_eq!(
        t[t.len() - 2..],
        [
            "Enemy RATTATA's hurt by poison!".to_string(),
            "LEECH SEED saps Enemy RATTATA!".to_string()
        ]
    );
    drained(&b);
}

#[test]
fn switching_out_turns_toxic_into_poison() {
    let mut b = wild(
        vec![fast("BULBASAUR", &["TOXIC"]), fast("PIDGEY", &["SPLASH"])],
        vec![slow("RATTATA", &["SPLASH"])],
        &[],
    );
    b.bat_mut(Side::Player).set(flag::TOXIC);
    b.sides[0].party[0].status = Status::Poison;
    b.submit(&rt(), Action::Switch(1), Action::Move(0)).unwrap();
    b.submit(&rt(), Action::Switch(0), Action::Move(0)).unwrap();
    assert!(!b.battler(Side::Player).has(flag::TOXIC));
    assert_eq!(status_of(&b, Side::Player), Status::Poison);
    drained(&b);
}

#[test]
fn poison_types_cannot_be_poisoned() {
    // Poison Powder on a Poison type: "didn't affect", no roll.
    let mut b = wild(
        vec![fast("ODDISH", &["POISONPOWDER"])],
        vec![slow("EKANS", &["SPLASH"])],
        &[],
    );
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    assert_eq!(texts(&mut b)[1], "It didn't affect Enemy EKANS!");
    drained(&b);
}

#[test]
fn poison_sting_side_effect_chance() {
    // 20% + 1 = 52: a roll of 51 poisons.
    let mut b = wild(
        vec![fast("BEEDRILL", &["POISON STING"])],
        vec![slow("RATTATA", &["SPLASH"])],
        &[NO_CRIT, factor(217), HIT, 51],
    );
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    assert_eq!(status_of(&b, Side::Enemy), Status::Poison);
    // Plain poison residual: 160/16 = 10 after the enemy's action.
    drained(&b);
}

#[test]
fn confusion_turns_and_the_typeless_self_hit() {
    // Supersonic (55% = 140): hit roll; turns = (1 & 3) + 2 = 3.
    // Enemy turn 1: 3 -> 2, "is confused", roll 0x80 (>= 0x80): hurts itself: 40 power,
    // typeless, own attack 100 vs own defense 100 at L50: 22*40 = 880; /50 = 17; +2 = 19.
    // Turn 2: 2 -> 1, roll 0x7F: acts (Tackle: crit, factor, hit). Turn 3: 1 -> 0, "confused no
    // more", acts without a confusion roll.
    let mut b = wild(
        vec![fast("ZUBAT", &["SUPERSONIC", "SPLASH"])],
        vec![slow("RATTATA", &["TACKLE"])],
        &[
            HIT,
            0x01,
            0x80,
            0x7F,
            NO_CRIT,
            factor(217),
            HIT,
            NO_CRIT,
            factor(217),
            HIT,
        ],
    );
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    assert_eq!(b.active(Side::Enemy).hp, 160 - 19);
    let t = texts(&mut b);
    assert_eq!(
        t[1..],
        [
            "Enemy RATTATA became confused!".to_string(),
            "Enemy RATTATA is confused!".to_string(),
            "It hurt itself in its confusion!".to_string()
        ]
    );
    b.submit(&rt(), Action::Move(1), Action::Move(0)).unwrap();
    b.submit(&rt(), Action::Move(1), Action::Move(0)).unwrap();
    assert!(texts(&mut b).contains(&"Enemy RATTATA's confused no more!".to_string()));
    assert!(!b.battler(Side::Enemy).has(flag::CONFUSED));
    drained(&b);
}

#[test]
fn confusion_self_hit_lands_on_the_opponents_substitute_when_the_user_has_one() {
    // The confused enemy is behind a substitute: its self-hit (19) goes to the player's
    // substitute (30 -> 11); neither mon loses HP.
    let mut b = wild(
        vec![fast("ZUBAT", &["SPLASH"])],
        vec![slow("RATTATA", &["TACKLE"])],
        &[0x80],
    );
    let e = b.bat_mut(Side::Enemy);
    e.set(flag::CONFUSED | flag::SUBSTITUTE);
    e.confusion_turns = 3;
    e.substitute_hp = 40;
    let p = b.bat_mut(Side::Player);
    p.set(flag::SUBSTITUTE);
    p.substitute_hp = 30;
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    assert_eq!(b.battler(Side::Player).substitute_hp, 11);
    assert_eq!(b.battler(Side::Enemy).substitute_hp, 40);
    assert_eq!(b.active(Side::Enemy).hp, 160);
    assert_eq!(b.active(Side::Player).hp, 150);
    drained(&b);
}

#[test]
fn leech_seed_misses_grass_types() {
    // The hit roll is made first, then the Grass check: "evaded attack".
    let mut b = wild(
        vec![fast("BULBASAUR", &["LEECH SEED"])],
        vec![slow("ODDISH", &["SPLASH"])],
        &[HIT],
    );
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    assert_eq!(texts(&mut b)[1], "Enemy ODDISH evaded attack!");
    assert!(!b.battler(Side::Enemy).has(flag::SEEDED));
    drained(&b);
}
