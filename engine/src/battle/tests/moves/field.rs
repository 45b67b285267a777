//! Field and self effects: Substitute, Haze, Disable, Pay Day and Splash, Teleport and Roar,
//! Recover and Rest, screens/Mist/Focus Energy failing when already up.

use super::*;
use crate::battle::state::flag;

#[test]
fn substitute_takes_hits_and_breaks() {
    // Max HP 100: the substitute costs 25 (100 -> 75) and has 25 HP. Enemy Tackle: 22*35 = 770;
    // /50 = 15; +2 = 17; STAB 25; factor 217: 21 -> the substitute keeps 4. Next Tackle (21 > 4)
    // breaks it; the player's HP stays 75.
    let mut p = fast("RATTATA", &["SUBSTITUTE", "SPLASH"]);
    set_stats(&mut p, 100, 100, 100, 200, 100);
    let mut b = wild(
        vec![p],
        vec![slow("RATTATA", &["TACKLE"])],
        &[NO_CRIT, factor(217), HIT, NO_CRIT, factor(217), HIT],
    );
    go(&mut b, M0, M0);
    assert_eq!(b.active(Side::Player).hp, 75);
    assert_eq!(b.battler(Side::Player).substitute_hp, 4);
    go(&mut b, M1, M0);
    assert!(!b.battler(Side::Player).has(flag::SUBSTITUTE));
    assert_eq!(b.active(Side::Player).hp, 75);
    let t = texts(&mut b);
    assert!(t.contains(&"The SUBSTITUTE took damage for RATTATA!".to_string()));
    assert!(t.contains(&"RATTATA's SUBSTITUTE broke!".to_string()));
    drained(&b);
}

#[test]
fn substitute_at_exactly_a_quarter_faints_the_user() {
    let mut p = fast("RATTATA", &["SUBSTITUTE"]);
    set_stats(&mut p, 100, 100, 100, 200, 100);
    p.hp = 25;
    let mut b = wild(
        vec![p, fast("PIDGEY", &["SPLASH"])],
        vec![slow("RATTATA", &["SPLASH"])],
        &[],
    );
    go(&mut b, M0, M0);
    assert_eq!(b.active(Side::Player).hp, 0);
    assert_eq!(
        b.needs_choice(),
        NeedsChoice::Replacement {
            player: true,
            enemy: false
        }
    );
    drained(&b);
    // 24 HP is too weak.
    let mut p = fast("RATTATA", &["SUBSTITUTE"]);
    set_stats(&mut p, 100, 100, 100, 200, 100);
    p.hp = 24;
    let mut b = wild(vec![p], vec![slow("RATTATA", &["SPLASH"])], &[]);
    go(&mut b, M0, M0);
    assert_eq!(texts(&mut b)[1], "Too weak to make a SUBSTITUTE!");
    drained(&b);
}

#[test]
fn substitute_blocks_stat_drops_but_not_sleep() {
    // Link rules (no AI miss roll). Growl on a substitute fails without a hit roll; Sing still
    // puts it to sleep (hit roll, counter).
    let mut b = wild(
        vec![fast("RATTATA", &["SPLASH"])],
        vec![slow("JIGGLYPUFF", &["GROWL", "SING"])],
        &[HIT, 0x03],
    );
    b.set_link_rules(true);
    b.bat_mut(Side::Player).set(flag::SUBSTITUTE);
    b.bat_mut(Side::Player).substitute_hp = 30;
    go(&mut b, M0, M0);
    assert_eq!(b.battler(Side::Player).stages[0], 7);
    go(&mut b, M0, M1);
    assert_eq!(status_of(&b, Side::Player), Status::Sleep(3));
    drained(&b);
}

#[test]
fn haze_resets_everything_and_cures_only_the_target() {
    let mut e = slow("PIDGEY", &["SPLASH"]);
    e.status = Status::Sleep(5);
    let mut p = fast("KOFFING", &["HAZE"]);
    p.status = Status::Poison;
    let mut b = wild(vec![p], vec![e], &[]);
    b.bat_mut(Side::Enemy).stages[0] = 11;
    b.bat_mut(Side::Enemy).set(flag::CONFUSED | flag::SEEDED);
    b.bat_mut(Side::Player).stages[2] = 3;
    b.bat_mut(Side::Player).set(flag::TOXIC);
    b.sides[0].screens.reflect = true;
    go(&mut b, M0, C);
    for s in [Side::Player, Side::Enemy] {
        assert_eq!(b.battler(s).stages, [7; 6]);
        assert!(!b
            .battler(s)
            .has(flag::CONFUSED | flag::SEEDED | flag::TOXIC));
    }
    assert!(!b.side(Side::Player).screens.reflect);
    // The target is cured (and, being asleep, loses its turn); the user keeps its poison.
    assert_eq!(status_of(&b, Side::Enemy), Status::None);
    assert_eq!(status_of(&b, Side::Player), Status::Poison);
    let t = texts(&mut b);
    assert_eq!(t[1], "All STATUS changes are eliminated!");
    assert!(!t.iter().any(|l| l.starts_with("Enemy PIDGEY used")));
    drained(&b);
}

#[test]
fn disable_picks_a_move_and_counts_down_on_the_targets_turns() {
    // Disable (55%): hit roll; slot 0 & 3 = 0 (TACKLE); turns (1 & 7) + 1 = 2.
    let mut b = wild(
        vec![fast("DROWZEE", &["DISABLE", "SPLASH"])],
        vec![slow("RATTATA", &["TACKLE", "SPLASH"])],
        &[HIT, 0x00, 0x01],
    );
    go(&mut b, M0, M0);
    let t = texts(&mut b);
    assert_eq!(t[1], "Enemy RATTATA's TACKLE was disabled!");
    // The Tackle chosen this turn is refused on the enemy's turn (counter 2 -> 1).
    assert_eq!(t[2], "TACKLE is disabled!");
    assert_eq!(legal(&b, Side::Enemy), [Action::Move(1)]);
    go(&mut b, M1, M1);
    assert_eq!(texts(&mut b)[2], "Enemy RATTATA's disabled no more!");
    assert_eq!(legal(&b, Side::Enemy), [Action::Move(0), Action::Move(1)]);
    drained(&b);
}

#[test]
fn pay_day_and_splash() {
    let mut e = slow("PIDGEY", &["SPLASH"]);
    e.hp = 1;
    let mut b = wild(
        vec![fast("MEOWTH", &["PAY DAY"])],
        vec![e],
        &[NO_CRIT, factor(255), HIT],
    );
    go(&mut b, M0, M0);
    assert_eq!(b.pay_day_money(), 100);
    let t = texts(&mut b);
    assert!(t.contains(&"Coins scattered everywhere!".to_string()));
    assert!(t.contains(&"RED picked up ¥100!".to_string()));
    drained(&b);
}

#[test]
fn teleport_and_roar_end_wild_battles_only() {
    let mut b = wild(
        vec![fast("ABRA", &["TELEPORT"])],
        vec![slow("PIDGEY", &["SPLASH"])],
        &[],
    );
    go(&mut b, M0, M0);
    assert_eq!(b.result(), Some(BattleResult::Ran));
    assert_eq!(texts(&mut b)[1], "ABRA fled from battle!");
    drained(&b);
    let mut b = battle(
        trainer_kind(),
        vec![fast("ABRA", &["TELEPORT"])],
        vec![slow("PIDGEY", &["SPLASH"])],
        &[],
    );
    go(&mut b, M0, M0);
    assert_eq!(b.result(), None);
    assert_eq!(texts(&mut b)[1], "But, it failed!");
    drained(&b);
    // Lower level: a byte below L+L+1 (60 >= 51 is rerolled) against target level / 4 (10).
    let mut p = fast("PIDGEY", &["ROAR"]);
    p.level = 10;
    let mut e = slow("RATTATA", &["SPLASH"]);
    e.level = 40;
    let mut b = wild(vec![p], vec![e], &[60, 9, 10]);
    go(&mut b, M0, M0);
    assert_eq!(b.result(), None);
    go(&mut b, M0, M0);
    assert_eq!(b.result(), Some(BattleResult::Ran));
    assert!(texts(&mut b).contains(&"Enemy RATTATA ran away scared!".to_string()));
    drained(&b);
}

#[test]
fn recover_fails_at_a_255_or_511_deficit_and_rest_sleeps_two_turns() {
    let mut p = fast("CHANSEY", &["SOFTBOILED", "REST"]);
    set_stats(&mut p, 300, 100, 100, 200, 100);
    p.hp = 45; // deficit 255
    let mut b = wild(vec![p], vec![slow("PIDGEY", &["SPLASH"])], &[]);
    go(&mut b, M0, M0);
    assert_eq!(texts(&mut b)[1], "But, it failed!");
    b.sides[0].party[0].hp = 44; // deficit 256 heals 150
    go(&mut b, M0, M0);
    assert_eq!(b.active(Side::Player).hp, 194);
    drained(&b);
    let mut p = fast("CHANSEY", &["SOFTBOILED"]);
    set_stats(&mut p, 600, 100, 100, 200, 100);
    p.hp = 89; // deficit 511
    let mut b = wild(vec![p], vec![slow("PIDGEY", &["SPLASH"])], &[]);
    go(&mut b, M0, M0);
    assert_eq!(b.active(Side::Player).hp, 89);
    // Rest: full HP, status replaced by two turns of sleep.
    let mut p = fast("SNORLAX", &["REST"]);
    p.hp = 10;
    p.status = Status::Poison;
    let mut b = wild(vec![p], vec![slow("PIDGEY", &["SPLASH"])], &[]);
    go(&mut b, M0, M0);
    assert_eq!(b.active(Side::Player).hp, 150);
    assert_eq!(status_of(&b, Side::Player), Status::Sleep(2));
    assert_eq!(texts(&mut b)[1], "SNORLAX fell asleep and became healthy!");
    drained(&b);
}

#[test]
fn screens_mist_focus_energy_fail_when_already_up() {
    let mut b = wild(
        vec![fast(
            "MR MIME",
            &["REFLECT", "LIGHT SCREEN", "FOCUS ENERGY"],
        )],
        vec![slow("PIDGEY", &["SPLASH"])],
        &[],
    );
    for a in [M0, M0, M1, M1, Action::Move(2), Action::Move(2)] {
        go(&mut b, a, M0);
    }
    let t = texts(&mut b);
    assert_eq!(t.iter().filter(|l| *l == "But, it failed!").count(), 3);
    assert!(t.contains(&"MR.MIME gained armor!".to_string()));
    assert!(b.side(Side::Player).screens.reflect && b.side(Side::Player).screens.light_screen);
    drained(&b);
}
