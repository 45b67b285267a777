//! Stat-stage moves: raising and lowering stages, the six-stage cap and the 999 cap, the AI's
//! stat-down miss, the paralysis re-application quirk, Mist, and the side-effect drop chance.

use super::*;

#[test]
fn stat_up_stages_and_the_six_stage_cap() {
    // Swords Dance: no rolls. 100 -> x2 = 200 (stage 9) -> x3 = 300 (11) -> x4 = 400 (13) ->
    // "Nothing happened!".
    let mut b = wild(
        vec![fast("RATTATA", &["SWORDS DANCE"])],
        vec![slow("PIDGEY", &["SPLASH"])],
        &[],
    );
    for (stage, atk) in [(9, 200), (11, 300), (13, 400)] {
        go(&mut b, M0, M0);
        assert_eq!(b.battler(Side::Player).stages[0], stage);
        assert_eq!(b.battler(Side::Player).stats[0], atk);
    }
    b.clear_rows();
    go(&mut b, M0, M0);
    assert_eq!(texts(&mut b)[1], "Nothing happened!");
    drained(&b);
}

#[test]
fn stat_up_at_999_undoes_one_stage_only() {
    // 600 x2 = 1200 -> capped at 999 (stage 9). Again: the stat is 999, so the stage goes to
    // 11 and back by one only (10), and "Nothing happened!".
    let mut p = fast("RATTATA", &["SWORDS DANCE"]);
    p.stats.atk = 600;
    let mut b = wild(vec![p], vec![slow("PIDGEY", &["SPLASH"])], &[]);
    go(&mut b, M0, M0);
    assert_eq!(b.battler(Side::Player).stats[0], 999);
    b.clear_rows();
    go(&mut b, M0, M0);
    assert_eq!(b.battler(Side::Player).stages[0], 10);
    assert_eq!(texts(&mut b)[1], "Nothing happened!");
    drained(&b);
}

#[test]
fn the_ai_stat_down_miss_and_growl() {
    // The wild enemy's Growl first rolls its 25% miss (a byte below 64): 0 fails; 64 passes, then
    // the normal hit roll. Attack 100 x 66/100 = 66.
    let mut b = wild(
        vec![slow("RATTATA", &["SPLASH"])],
        vec![fast("PIDGEY", &["GROWL"])],
        &[0, 64, HIT],
    );
    go(&mut b, M0, M0);
    assert_eq!(texts(&mut b)[1], "But, it failed!");
    go(&mut b, M0, M0);
    assert_eq!(b.battler(Side::Player).stats[0], 66);
    assert_eq!(texts(&mut b)[1], "RATTATA's ATTACK fell!");
    drained(&b);
    // Link rules: no AI miss roll.
    let mut b = wild(
        vec![slow("RATTATA", &["SPLASH"])],
        vec![fast("PIDGEY", &["GROWL"])],
        &[HIT],
    );
    b.set_link_rules(true);
    go(&mut b, M0, M0);
    assert_eq!(b.battler(Side::Player).stages[0], 6);
    drained(&b);
}

#[test]
fn stat_moves_reapply_the_opponents_paralysis_drop() {
    // Enemy paralyzed: speed 400/4 = 100. Swords Dance by the player quarters it again (25);
    // a Growl (hit roll) on it quarters it once more (6).
    let mut e = slow("PIDGEY", &["SPLASH"]);
    e.stats.spe = 400;
    e.status = Status::Paralysis;
    let mut p = fast("RATTATA", &["SWORDS DANCE", "GROWL"]);
    p.stats.spe = 300;
    // Each enemy turn starts with its full-paralysis roll (0xFF: it acts).
    let mut b = wild(vec![p], vec![e], &[0xFF, HIT, 0xFF]);
    assert_eq!(b.battler(Side::Enemy).stats[2], 100);
    go(&mut b, M0, M0);
    assert_eq!(b.battler(Side::Enemy).stats[2], 25);
    go(&mut b, M1, M0);
    assert_eq!(b.battler(Side::Enemy).stats[2], 6);
    drained(&b);
}

#[test]
fn agility_while_paralyzed_drops_the_penalty() {
    // Speed 200 quartered to 50. The player's full-paralysis roll (0xFF: it acts), then Agility
    // recomputes Speed from the unmodified 200: x2 = 400, the quartering gone.
    let mut p = fast("RATTATA", &["AGILITY"]);
    p.status = Status::Paralysis;
    let mut e = slow("PIDGEY", &["SPLASH"]);
    e.stats.spe = 10;
    let mut b = wild(vec![p], vec![e], &[0xFF]);
    assert_eq!(b.battler(Side::Player).stats[2], 50);
    go(&mut b, M0, M0);
    assert_eq!(b.battler(Side::Player).stats[2], 400);
    drained(&b);
}

#[test]
fn mist_blocks_stat_down_moves() {
    // Enemy (faster) Mist; player Growl is stopped before its accuracy roll: no rolls at all.
    let mut b = wild(
        vec![slow("RATTATA", &["GROWL"])],
        vec![fast("PIDGEY", &["MIST"])],
        &[],
    );
    go(&mut b, M0, M0);
    let t = texts(&mut b);
    assert_eq!(t[1], "Enemy PIDGEY's shrouded in mist!");
    assert_eq!(t[3], "But, it failed!");
    assert_eq!(b.battler(Side::Enemy).stages[0], 7);
    drained(&b);
}

#[test]
fn side_effect_stat_drop_chance() {
    // Bubble's 33% (85): 84 lowers Speed.
    let mut b = wild(
        vec![fast("SQUIRTLE", &["BUBBLE"])],
        vec![slow("RATTATA", &["SPLASH"])],
        &[NO_CRIT, factor(255), HIT, 84],
    );
    go(&mut b, M0, M0);
    assert_eq!(b.battler(Side::Enemy).stages[2], 6);
    drained(&b);
}
