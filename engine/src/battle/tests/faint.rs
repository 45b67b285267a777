//! The faint pipeline: EXP (formula, trainer bonus, split), level-up with stat recompute and
//! move learning, double faints, "Use next POKéMON?", trainer replacement with SHIFT, blackout.

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

#[test]
fn exp_wild_and_trainer_bonus() {
    // Pidgey (base EXP 55) at L10: 55 * 10 / 7 = 78 (550 / 7 = 78.57).
    let mut b = wild(
        vec![with("RATTATA", 50, &["TACKLE"], 200)],
        vec![one_hp(with("PIDGEY", 10, &["SPLASH"], 10))],
        &[NO_CRIT, factor(255), HIT],
    );
    let exp0 = b.party(Side::Player)[0].exp;
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    assert_eq!(b.party(Side::Player)[0].exp - exp0, 78);
    let t = texts(&mut b);
    assert!(
        t.contains(&"RATTATA gained 78 EXP. Points!".to_string()),
        "{t:?}"
    );
    assert_eq!(b.result(), Some(BattleResult::Win));
    drained(&b);
    // A trainer's mon: 78 + 78/2 = 117.
    let mut b = battle(
        trainer_kind(),
        vec![with("RATTATA", 50, &["TACKLE"], 200)],
        vec![one_hp(with("PIDGEY", 10, &["SPLASH"], 10))],
        &[NO_CRIT, factor(255), HIT],
    );
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    assert_eq!(b.party(Side::Player)[0].exp - exp0, 117);
    assert!(texts(&mut b).contains(&"RED defeated BUG CATCHER!".to_string()));
    drained(&b);
}

#[test]
fn exp_and_stat_exp_split_among_participants() {
    // Two participants: base EXP 55/2 = 27, 27*10/7 = 38 each; stat exp gains the base stats
    // halved (Pidgey 40/45/40/56/35 -> 20/22/20/28/17).
    let mut b = wild(
        vec![
            with("RATTATA", 50, &["TACKLE"], 200),
            with("SPEAROW", 50, &["PECK"], 200),
        ],
        vec![one_hp(with("PIDGEY", 10, &["SPLASH"], 10))],
        &[NO_CRIT, factor(255), HIT],
    );
    let e0 = [b.party(Side::Player)[0].exp, b.party(Side::Player)[1].exp];
    b.submit(&rt(), Action::Switch(1), Action::Move(0)).unwrap();
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    for (i, e) in e0.iter().enumerate() {
        assert_eq!(b.party(Side::Player)[i].exp - e, 38);
        let se = b.party(Side::Player)[i].stat_exp;
        assert_eq!(
            (se.hp, se.atk, se.def, se.spe, se.spc),
            (20, 22, 20, 28, 17)
        );
    }
    drained(&b);
}

#[test]
fn level_up_recomputes_stats_and_learns_at_the_new_level() {
    // Rattata L5 (Medium Fast, 125 EXP) beats a L30 Pidgey: 55*30/7 = 235 -> 360 EXP: L7 (343).
    // It learns Quick Attack (L7). HP rises by the max-HP gain.
    let mut p = mon("RATTATA", 5, &["TACKLE"]);
    p.stats.spe = 200;
    let before = p.stats;
    let mut b = wild(
        vec![p],
        vec![one_hp(with("PIDGEY", 30, &["SPLASH"], 10))],
        &[NO_CRIT, factor(255), HIT],
    );
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    let m = &b.party(Side::Player)[0];
    assert_eq!(m.level, 7);
    assert_eq!(m.exp, 125 + 235);
    assert!(m.stats.max_hp > before.max_hp);
    assert_eq!(m.hp, m.stats.max_hp);
    assert_eq!(m.moves[1], Some(mv("QUICK ATTACK")));
    assert_eq!(b.leveled_up(), 1);
    let t = texts(&mut b);
    assert!(t.contains(&"RATTATA grew to level 7!".to_string()));
    assert!(t.contains(&"RATTATA learned QUICK ATTACK!".to_string()));
    drained(&b);
}

#[test]
fn double_faint_with_a_reserve_enters_the_enemy_faint_path_first() {
    // Spearow fought first, then Geodude came in and exploded, knocking out both. The player still
    // has Spearow: the enemy's faint awards EXP (to Spearow, the living participant) and the
    // wild battle is won.
    let mut e = with("PIDGEY", 10, &["SPLASH"], 10);
    e.hp = 5;
    let mut b = wild(
        vec![
            with("SPEAROW", 50, &["PECK"], 200),
            with("GEODUDE", 50, &["EXPLOSION"], 200),
        ],
        vec![e],
        &[NO_CRIT, factor(255), HIT],
    );
    b.submit(&rt(), Action::Switch(1), Action::Move(0)).unwrap();
    b.clear_rows();
    let e0 = b.party(Side::Player)[0].exp;
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    let t = texts(&mut b);
    let i_player = t.iter().position(|l| l == "GEODUDE fainted!").unwrap();
    let i_enemy = t.iter().position(|l| l == "Enemy PIDGEY fainted!").unwrap();
    let i_exp = t
        .iter()
        .position(|l| l.starts_with("SPEAROW gained"))
        .unwrap();
    assert!(i_player < i_enemy && i_enemy < i_exp);
    assert_eq!(b.party(Side::Player)[0].exp - e0, 78);
    assert_eq!(b.result(), Some(BattleResult::Win));
    drained(&b);
}

#[test]
fn double_faint_without_a_reserve_enters_the_enemy_faint_then_blacks_out() {
    // The Lua engine's faint order: the enemy's faint runs its authority (text, EXP award — no
    // participant is healthy, so nobody gains anything), then the player's blackout decides.
    let mut e = with("PIDGEY", 10, &["SPLASH"], 10);
    e.hp = 5;
    let mut b = wild(
        vec![with("GEODUDE", 50, &["EXPLOSION"], 200)],
        vec![e],
        &[NO_CRIT, factor(255), HIT],
    );
    let exp0 = b.party(Side::Player)[0].exp;
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    assert_eq!(b.result(), Some(BattleResult::Lose));
    assert_eq!(b.party(Side::Player)[0].exp, exp0);
    let t = texts(&mut b);
    assert!(!t.iter().any(|l| l.contains("EXP. Points")), "{t:?}");
    assert_eq!(
        t[t.len() - 4..],
        [
            "GEODUDE fainted!".to_string(),
            "Enemy PIDGEY fainted!".to_string(),
            "RED is out of useable POKéMON!".to_string(),
            "RED blacked out!".to_string()
        ]
    );
    drained(&b);
    // A trainer with a reserve: no replacement, no trainer defeat; the blackout.
    let mut e = with("PIDGEY", 10, &["SPLASH"], 10);
    e.hp = 5;
    let mut b = battle(
        trainer_kind(),
        vec![with("GEODUDE", 50, &["EXPLOSION"], 200)],
        vec![e, with("RATTATA", 10, &["SPLASH"], 10)],
        &[NO_CRIT, factor(255), HIT],
    );
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    assert_eq!(b.result(), Some(BattleResult::Lose));
    assert_eq!(b.needs_choice(), NeedsChoice::Finished);
    let t = texts(&mut b);
    assert!(t.contains(&"Enemy PIDGEY fainted!".to_string()), "{t:?}");
    assert!(!t
        .iter()
        .any(|l| l.contains("defeated") || l.contains("sent out")));
    assert_eq!(t.last().map(String::as_str), Some("RED blacked out!"));
    drained(&b);
}

#[test]
fn wild_use_next_pokemon_or_run() {
    // The player's mon faints: "Use next POKéMON?"; choosing to run uses the first party mon's
    // Speed (here the fainted one: 10 vs 100: 10*32 / 25 = 12; roll 13 fails), then the party
    // menu is forced.
    let p1 = one_hp(with("RATTATA", 50, &["SPLASH"], 10));
    let p2 = with("PIDGEY", 50, &["SPLASH"], 10);
    let mut b = wild(
        vec![p1, p2],
        vec![with("SPEAROW", 50, &["PECK"], 100)],
        &[NO_CRIT, factor(255), HIT, 13],
    );
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    assert_eq!(
        b.needs_choice(),
        NeedsChoice::Replacement {
            player: true,
            enemy: false
        }
    );
    assert_eq!(legal(&b, Side::Player), [Action::Switch(1), Action::Run]);
    assert_eq!(legal(&b, Side::Enemy), [Action::Continue]);
    assert!(texts(&mut b).contains(&"Use next POKéMON?".to_string()));
    b.submit(&rt(), Action::Run, Action::Continue).unwrap();
    assert_eq!(
        b.needs_choice(),
        NeedsChoice::Replacement {
            player: true,
            enemy: false
        }
    );
    b.submit(&rt(), Action::Switch(1), Action::Continue)
        .unwrap();
    assert_eq!(b.needs_choice(), NeedsChoice::Round);
    assert_eq!(texts(&mut b), ["Can't escape!", "Go! PIDGEY!"]);
    drained(&b);
}

#[test]
fn trainer_replacement_and_the_shift_offer() {
    let mut b = battle(
        trainer_kind(),
        vec![
            with("RATTATA", 50, &["TACKLE"], 200),
            with("PIDGEY", 50, &["SPLASH"], 10),
        ],
        vec![
            one_hp(with("CATERPIE", 5, &["TACKLE"], 10)),
            with("WEEDLE", 5, &["POISON STING"], 10),
        ],
        &[NO_CRIT, factor(255), HIT],
    );
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    assert_eq!(
        b.needs_choice(),
        NeedsChoice::Replacement {
            player: false,
            enemy: true
        }
    );
    assert_eq!(legal(&b, Side::Enemy), [Action::Switch(1)]);
    assert_eq!(b.default_enemy_replacement(), Action::Switch(1));
    b.clear_rows();
    b.submit(&rt(), Action::Continue, Action::Switch(1))
        .unwrap();
    assert_eq!(b.needs_choice(), NeedsChoice::Shift);
    assert_eq!(
        texts(&mut b),
        [
            "BUG CATCHER sent out WEEDLE!",
            "BUG CATCHER is about to use WEEDLE! Will RED change POKéMON?"
        ]
    );
    assert_eq!(
        legal(&b, Side::Player),
        [Action::Continue, Action::Switch(1)]
    );
    b.submit(&rt(), Action::Switch(1), Action::Continue)
        .unwrap();
    assert_eq!(b.needs_choice(), NeedsChoice::Round);
    assert_eq!(b.side(Side::Player).active, 1);
    // SET style: no offer.
    let mut b = battle(
        trainer_kind(),
        vec![
            with("RATTATA", 50, &["TACKLE"], 200),
            with("PIDGEY", 50, &["SPLASH"], 10),
        ],
        vec![
            one_hp(with("CATERPIE", 5, &["TACKLE"], 10)),
            with("WEEDLE", 5, &["POISON STING"], 10),
        ],
        &[NO_CRIT, factor(255), HIT],
    );
    b.set_style(BattleStyle::Set);
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    b.submit(&rt(), Action::Continue, Action::Switch(1))
        .unwrap();
    assert_eq!(b.needs_choice(), NeedsChoice::Round);
}

#[test]
fn losing_the_last_mon_blacks_out() {
    let mut b = battle(
        trainer_kind(),
        vec![one_hp(with("RATTATA", 50, &["SPLASH"], 10))],
        vec![with("SPEAROW", 50, &["PECK"], 100)],
        &[NO_CRIT, factor(255), HIT],
    );
    b.submit(&rt(), Action::Move(0), Action::Move(0)).unwrap();
    assert_eq!(b.result(), Some(BattleResult::Lose));
    assert_eq!(b.needs_choice(), NeedsChoice::Finished);
    assert_eq!(
        b.submit(&rt(), Action::Continue, Action::Continue),
        Err(BattleError::Finished)
    );
    drained(&b);
}
