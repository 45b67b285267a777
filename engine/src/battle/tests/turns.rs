//! Turn structure: action order, switching, running, the residual after each action, the end
//! of the round (tokens, `battle.turn_ended`), and guarded hook/event sites.

use std::cell::RefCell;
use std::rc::Rc;

use pallet_api::catalog::events;
#[cfg(feature = "hook-sites")]
use pallet_api::catalog::hooks;

use super::*;
use crate::battle::state::{flag, Token};

fn with_speed(species: &str, moves: &[&str], spe: u16) -> Pokemon {
    let mut m = mon(species, 50, moves);
    set_stats(&mut m, 160, 100, 100, spe, 100);
    m
}

#[test]
fn quick_attack_goes_first_and_counter_last() {
    // The slower player's Quick Attack moves first; no speed roll.
    let mut b = wild(
        vec![with_speed("RATTATA", &["QUICK ATTACK"], 10)],
        vec![with_speed("PIDGEY", &["TACKLE"], 100)],
        &[NO_CRIT, factor(255), HIT, NO_CRIT, factor(255), HIT],
    );
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    assert_eq!(texts(&mut b)[0], "RATTATA used QUICK ATTACK!");
    drained(&b);
    // The faster player's Counter moves last.
    let mut b = wild(
        vec![with_speed("MACHOP", &["COUNTER"], 100)],
        vec![with_speed("PIDGEY", &["TACKLE"], 10)],
        &[NO_CRIT, factor(255), HIT, NO_CRIT, HIT],
    );
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    assert_eq!(texts(&mut b)[0], "Enemy PIDGEY used TACKLE!");
    drained(&b);
}

#[test]
fn speed_decides_then_a_coin_flip() {
    // Equal speed: a byte below 0x80 lets the player go first, otherwise the enemy.
    for (coin, first) in [
        (0x7F, "RATTATA used SPLASH!"),
        (0x80, "Enemy PIDGEY used SPLASH!"),
    ] {
        let mut b = wild(
            vec![with_speed("RATTATA", &["SPLASH"], 50)],
            vec![with_speed("PIDGEY", &["SPLASH"], 50)],
            &[coin],
        );
        b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
        assert_eq!(texts(&mut b)[0], first);
        drained(&b);
    }
}

#[test]
fn switching_happens_before_moves() {
    // The faster enemy's Tackle lands on the mon switched in.
    let mut b = wild(
        vec![
            with_speed("RATTATA", &["SPLASH"], 10),
            with_speed("PIDGEY", &["SPLASH"], 10),
        ],
        vec![with_speed("SPEAROW", &["TACKLE"], 100)],
        &[NO_CRIT, factor(255), HIT],
    );
    b.submit(&rt(), Action::Switch(1), Action::Move(0)).unwrap();
    assert_eq!(b.side(Side::Player).active, 1);
    assert!(b.party(Side::Player)[1].hp < 160);
    assert_eq!(b.party(Side::Player)[0].hp, 160);
    let t = texts(&mut b);
    assert_eq!(
        t[..3],
        [
            "RATTATA enough! Come back!".to_string(),
            "Go! PIDGEY!".to_string(),
            "Enemy SPEAROW used TACKLE!".to_string()
        ]
    );
    drained(&b);
}

#[test]
fn switching_out_of_wrap_and_the_wrap_reuse_quirk() {
    // Trainer battle: the enemy wraps the player (counter 0 & 3 + 1 = 1 more turn). The trapped
    // player may still switch; sending out a mon ends the enemy's trapping, and the enemy, whose
    // selection is still Wrap, wraps the newcomer: a fresh counter roll, crit, factor, hit
    // (the cartridge's Wrap-switch behaviour).
    let mut b = battle(
        trainer_kind(),
        vec![
            with_speed("RATTATA", &["SPLASH"], 10),
            with_speed("PIDGEY", &["SPLASH"], 10),
        ],
        vec![with_speed("EKANS", &["WRAP", "SPLASH"], 100)],
        &[
            0x00,
            NO_CRIT,
            factor(255),
            HIT,
            0x01,
            NO_CRIT,
            factor(255),
            HIT,
        ],
    );
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    assert!(b.battler(Side::Enemy).has(flag::TRAPPING));
    assert_eq!(
        legal(&b, Side::Player),
        [Action::Continue, Action::Switch(1)]
    );
    assert_eq!(legal(&b, Side::Enemy), [Action::Continue]);
    b.clear_rows();
    b.submit(&rt(), Action::Switch(1), Action::Continue)
        .unwrap();
    let t = texts(&mut b);
    assert_eq!(t[2], "Enemy EKANS used WRAP!");
    assert!(b.party(Side::Player)[1].hp < 160);
    assert!(b.battler(Side::Enemy).has(flag::TRAPPING));
    assert_eq!(b.battler(Side::Enemy).attacks_left, 2);
    drained(&b);
}

#[test]
fn residual_comes_right_after_the_sides_own_action() {
    let mut p = with_speed("RATTATA", &["SPLASH"], 100);
    p.status = Status::Poison;
    let mut b = wild(vec![p], vec![with_speed("PIDGEY", &["SPLASH"], 10)], &[]);
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    let t = texts(&mut b);
    assert_eq!(
        t,
        [
            "RATTATA used SPLASH!",
            "No effect!",
            "RATTATA's hurt by poison!",
            "Enemy PIDGEY used SPLASH!",
            "No effect!"
        ]
    );
    assert_eq!(b.active(Side::Player).hp, 150);
    drained(&b);
}

#[test]
fn residual_is_skipped_when_the_move_knocks_out() {
    let mut p = with_speed("RATTATA", &["TACKLE"], 100);
    p.status = Status::Poison;
    let mut e = with_speed("PIDGEY", &["SPLASH"], 10);
    e.hp = 1;
    let mut b = wild(vec![p], vec![e], &[NO_CRIT, factor(255), HIT]);
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    assert_eq!(b.result(), Some(BattleResult::Win));
    assert_eq!(b.active(Side::Player).hp, 160);
    drained(&b);
}

#[test]
fn running_from_wild_battles() {
    // Faster: always escapes, no roll.
    let mut b = wild(
        vec![with_speed("RATTATA", &["SPLASH"], 100)],
        vec![with_speed("PIDGEY", &["SPLASH"], 10)],
        &[],
    );
    b.submit(&rt(), Action::Run, Action::Move(0)).unwrap();
    assert_eq!(b.result(), Some(BattleResult::Ran));
    drained(&b);
    // Slower: speed 40*32 = 1280 / (100/4 = 25) = 51; roll 52 > 51 fails and the turn is lost;
    // second try adds 30 (81): roll 81 escapes.
    let mut b = wild(
        vec![with_speed("RATTATA", &["SPLASH"], 40)],
        vec![with_speed("PIDGEY", &["SPLASH"], 100)],
        &[52, 81],
    );
    b.submit(&rt(), Action::Run, Action::Move(0)).unwrap();
    assert_eq!(b.result(), None);
    let t = texts(&mut b);
    assert_eq!(t[0], "Can't escape!");
    assert_eq!(t[1], "Enemy PIDGEY used SPLASH!");
    b.submit(&rt(), Action::Run, Action::Move(0)).unwrap();
    assert_eq!(b.result(), Some(BattleResult::Ran));
    drained(&b);
    // Trainer battles offer no Run.
    let b = battle(
        trainer_kind(),
        vec![with_speed("RATTATA", &["SPLASH"], 40)],
        vec![with_speed("PIDGEY", &["SPLASH"], 100)],
        &[],
    );
    assert!(!legal(&b, Side::Player).contains(&Action::Run));
    assert!(b
        .clone()
        .submit(&rt(), Action::Run, Action::Move(0))
        .is_err());
}

#[test]
fn illegal_choices_are_refused_without_change() {
    let mut b = wild(
        vec![with_speed("RATTATA", &["SPLASH"], 40)],
        vec![with_speed("PIDGEY", &["SPLASH"], 100)],
        &[],
    );
    assert_eq!(
        b.submit(&rt(), Action::Move(3), Action::Move(0)),
        Err(BattleError::Illegal {
            side: Side::Player,
            action: Action::Move(3)
        })
    );
    assert!(b.submit(&rt(), Action::Switch(0), Action::Move(0)).is_err());
    assert!(b.submit(&rt(), Action::Move(0), Action::Switch(0)).is_err());
    assert_eq!(b.turn(), 0);
    drained(&b);
}

#[test]
fn end_of_round_ticks_tokens_then_emits_turn_ended() {
    let rt = Runtime::default();
    let seen = Rc::new(RefCell::new(Vec::new()));
    let s2 = seen.clone();
    let _h = rt.on::<events::BattleTurnEnded, _>("test", 0, move |p| {
        s2.borrow_mut().push(p.turn);
        Ok(())
    });
    let mut b = wild(
        vec![with_speed("RATTATA", &["SPLASH"], 100)],
        vec![with_speed("PIDGEY", &["SPLASH"], 10)],
        &[],
    );
    b.field_mut().tokens.push(Token {
        id: "weather".into(),
        turns: Some(2),
        data: Default::default(),
    });
    b.field_mut().tokens.push(Token {
        id: "forever".into(),
        turns: None,
        data: Default::default(),
    });
    b.side_tokens_mut(Side::Enemy).push(Token {
        id: "spikes".into(),
        turns: Some(1),
        data: Default::default(),
    });
    b.submit(&rt, Action::Move(0), Action::Move(0)).unwrap();
    assert_eq!(b.field().tokens.len(), 2);
    assert!(b.side(Side::Enemy).tokens.is_empty());
    b.submit(&rt, Action::Move(0), Action::Move(0)).unwrap();
    assert_eq!(
        b.field()
            .tokens
            .iter()
            .map(|t| t.id.as_str())
            .collect::<Vec<_>>(),
        ["forever"]
    );
    // With the sites compiled out no event is emitted.
    let expected: &[u32] = if cfg!(feature = "hook-sites") {
        &[1, 2]
    } else {
        &[]
    };
    assert_eq!(*seen.borrow(), expected);
    drained(&b);
}

#[test]
#[cfg(feature = "hook-sites")]
fn events_fire_in_order_with_subscribers() {
    let rt = Runtime::default();
    let log = Rc::new(RefCell::new(Vec::<String>::new()));
    let l = log.clone();
    let _a = rt.on::<events::BattleStarted, _>("t", 0, move |_| {
        l.borrow_mut().push("started".into());
        Ok(())
    });
    let l = log.clone();
    let _b = rt.on::<events::BattleFainted, _>("t", 0, move |p| {
        l.borrow_mut().push(format!("fainted {}", p.battler.name));
        Ok(())
    });
    let l = log.clone();
    let _c = rt.on::<events::BattleEnded, _>("t", 0, move |p| {
        l.borrow_mut().push(format!("ended {:?}", p.result));
        Ok(())
    });
    let l = log.clone();
    let _d = rt.on::<events::BattleTurnEnded, _>("t", 0, move |p| {
        l.borrow_mut().push(format!("turn {}", p.turn));
        Ok(())
    });
    let mut e = with_speed("PIDGEY", &["SPLASH"], 10);
    e.hp = 1;
    let mut b = wild(
        vec![with_speed("RATTATA", &["TACKLE"], 100)],
        vec![e],
        &[NO_CRIT, factor(255), HIT],
    );
    b.submit(&rt, Action::Move(0), Action::Move(0)).unwrap();
    assert_eq!(
        *log.borrow(),
        ["started", "fainted PIDGEY", "ended Win", "turn 1"]
    );
    drained(&b);
}

#[test]
#[cfg(feature = "hook-sites")]
fn damage_hook_replaces_the_formula_and_its_roll() {
    // With a battle.damage link answering 7, the vanilla formula (and its factor roll) never
    // runs: rolls are crit and accuracy only.
    let rt = Runtime::default();
    let _h = rt.wrap::<hooks::BattleDamage, _>("t", 0, |_next, args| {
        assert_eq!(args.ctx.move_info.id, "TACKLE");
        Ok(7)
    });
    let mut b = wild(
        vec![with_speed("RATTATA", &["TACKLE"], 100)],
        vec![with_speed("PIDGEY", &["SPLASH"], 10)],
        &[NO_CRIT, HIT],
    );
    b.submit(&rt, Action::Move(0), Action::Move(0)).unwrap();
    assert_eq!(b.active(Side::Enemy).hp, 153);
    drained(&b);
    // A link that calls next() gets the vanilla value (factor rolled inside).
    let rt = Runtime::default();
    let _h = rt.wrap::<hooks::BattleDamage, _>("t", 0, |next, _| Ok(next.call() * 2));
    let mut b = wild(
        vec![with_speed("RATTATA", &["TACKLE"], 100)],
        vec![with_speed("PIDGEY", &["SPLASH"], 10)],
        &[NO_CRIT, factor(255), HIT],
    );
    b.submit(&rt, Action::Move(0), Action::Move(0)).unwrap();
    assert_eq!(b.active(Side::Enemy).hp, 160 - 50);
    drained(&b);
}

#[test]
#[cfg(feature = "hook-sites")]
fn crit_and_accuracy_hooks() {
    let rt = Runtime::default();
    let _c = rt.wrap::<hooks::BattleCrit, _>("t", 0, |_, _| Ok(true));
    let _a = rt.wrap::<hooks::BattleAccuracy, _>("t", 0, |_, _| Ok(true));
    // Forced crit (no crit roll), forced hit (no accuracy roll): only the factor.
    let mut b = wild(
        vec![with_speed("RATTATA", &["TACKLE"], 100)],
        vec![with_speed("PIDGEY", &["SPLASH"], 10)],
        &[factor(255)],
    );
    b.submit(&rt, Action::Move(0), Action::Move(0)).unwrap();
    assert!(b.peek_rows().contains(&Row::Text(Msg::Crit)));
    drained(&b);
}
