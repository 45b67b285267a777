//! RFC 0016 `battle.field_residual` at the engine level: the guard (no context, no call, no
//! allocation without a subscriber), the end-of-round position, clamping, lazy messages, and
//! the faint scheduling of one batch (blackout precedence in both row orders, player → enemy
//! otherwise). Script-side validation is covered by the api's result rule and the
//! `tests/tests/rfc0016_*` integration tests.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use pallet_api::catalog::common::Side as ApiSide;
use pallet_api::catalog::{events, hooks};
use pallet_api::{Runtime, Value};

use super::*;
use crate::battle::field_residual::{project_field, sentinel, MAX_PROJECTION_DEPTH};
use crate::battle::state::{Field, Token};

fn with_speed(species: &str, moves: &[&str], spe: u16) -> Pokemon {
    let mut m = mon(species, 50, moves);
    set_stats(&mut m, 160, 100, 100, spe, 100);
    m
}

fn row(side: ApiSide, amount: u32, message: Option<&str>) -> hooks::ResidualRow {
    hooks::ResidualRow {
        side,
        amount,
        message: message.map(str::to_owned),
    }
}

/// A runtime whose `battle.field_residual` chain answers `rows` (after vanilla's) every round.
fn answering(rows: Vec<hooks::ResidualRow>) -> Runtime {
    let rt = Runtime::default();
    rt.wrap::<hooks::BattleFieldResidual, _>("t", 0, move |next, _| {
        let mut out = next.call();
        out.extend(rows.iter().cloned());
        Ok(out)
    });
    rt
}

/// Player RATTATA (fast) vs enemy PIDGEY, both SPLASH: a round draws no random byte.
fn splash_battle(
    kind: BattleKind,
    player: Vec<Pokemon>,
    enemy: Vec<Pokemon>,
) -> Battle<ScriptedRng> {
    battle(kind, player, enemy, &[])
}

fn splasher(species: &str, spe: u16) -> Pokemon {
    with_speed(species, &["SPLASH"], spe)
}

#[test]
fn no_subscriber_builds_no_context_makes_no_call_and_allocates_nothing() {
    let rt = Runtime::default();
    let mut b = splash_battle(
        BattleKind::Wild,
        vec![splasher("RATTATA", 100)],
        vec![splasher("PIDGEY", 10)],
    );
    // A field with data the projection would have to copy.
    b.field_mut().weather = Some("SANDSTORM".into());
    b.field_mut().tokens.push(Token {
        id: "big".into(),
        turns: None,
        data: BTreeMap::from([("payload".to_owned(), Value::from("x".repeat(64)))]),
    });
    b.set_record_rows(false);
    b.start(&rt);
    let before = sentinel::counts();
    let allocs = allocations();
    for _ in 0..3 {
        b.submit(&rt, Action::Move(0), Action::Move(0)).unwrap();
    }
    assert_eq!(allocations(), allocs, "a round allocated");
    assert_eq!(sentinel::counts(), before, "context built or bus called");

    // Subscribed: one context and one call per round.
    let handle = rt.wrap::<hooks::BattleFieldResidual, _>("t", 0, |next, _| Ok(next.call()));
    b.submit(&rt, Action::Move(0), Action::Move(0)).unwrap();
    let (c, k) = sentinel::counts();
    assert_eq!((c - before.0, k - before.1), (1, 1));

    // Unsubscribed again: back to nothing.
    assert!(rt.unsubscribe_hook(handle));
    let allocs = allocations();
    b.submit(&rt, Action::Move(0), Action::Move(0)).unwrap();
    assert_eq!(allocations(), allocs);
    assert_eq!(sentinel::counts(), (c, k));
    drained(&b);
}

#[test]
fn rows_apply_in_order_with_messages_before_clamped_drains() {
    let rt = answering(vec![
        row(ApiSide::Enemy, 7, Some("PIDGEY is buffeted!")),
        row(ApiSide::Player, 5, None),
        row(ApiSide::Enemy, 0, Some("zero from a native link: ignored")),
        row(ApiSide::Player, 1000, Some("clamped")),
    ]);
    let mut b = splash_battle(
        BattleKind::Wild,
        vec![splasher("RATTATA", 100), splasher("PIDGEY", 50)],
        vec![splasher("PIDGEY", 10)],
    );
    b.submit(&rt, Action::Move(0), Action::Move(0)).unwrap();
    let rows: Vec<Row> = b.rows().collect();
    // Everything after the two SPLASH turns.
    let tail: Vec<String> = rows
        .iter()
        .skip_while(|r| !matches!(r, Row::Text(Msg::ModText { .. })))
        .map(|r| match r {
            Row::HpDrain { side, from, to, .. } => format!("drain {side:?} {from}->{to}"),
            other => other.render(&b).unwrap_or_else(|| format!("{other:?}")),
        })
        .collect();
    assert_eq!(
        tail[..5],
        [
            "PIDGEY is buffeted!",
            "drain Enemy 160->153",
            "drain Player 160->155",
            "clamped",
            "drain Player 155->0",
        ]
    );
    // The player's mon fainted; a reserve is left: "Use next POKéMON?".
    assert!(tail.contains(&"RATTATA fainted!".to_owned()));
    assert_eq!(tail.last().map(String::as_str), Some("Use next POKéMON?"));
    assert_eq!(
        b.needs_choice(),
        NeedsChoice::Replacement {
            player: true,
            enemy: false
        }
    );
    assert_eq!(b.active(Side::Enemy).hp, 153);
    // Identical messages are stored once (the zero row was ignored, message included).
    b.submit(&rt, Action::Switch(1), Action::Continue).unwrap();
    b.submit(&rt, Action::Move(0), Action::Move(0)).unwrap();
    let texts = texts(&mut b);
    assert_eq!(
        texts.iter().filter(|t| *t == "PIDGEY is buffeted!").count(),
        1
    );
    assert_eq!(b.mod_texts, ["PIDGEY is buffeted!", "clamped"]);
    drained(&b);
}

#[test]
fn hook_runs_after_status_residuals_and_before_token_ticks_and_turn_ended() {
    let log = Rc::new(RefCell::new(Vec::<String>::new()));
    let rt = Runtime::default();
    let l = log.clone();
    rt.wrap::<hooks::BattleFieldResidual, _>("probe", 0, move |next, args| {
        let c = &args.context;
        let tokens = c
            .field
            .get("tokens")
            .and_then(Value::as_list)
            .map_or(0, <[Value]>::len);
        l.borrow_mut().push(format!(
            "field_residual turn {} player hp {} tokens {tokens}",
            c.turn, c.battlers.player.hp
        ));
        Ok(next.call())
    });
    let l = log.clone();
    let _t = rt.on::<events::BattleTurnEnded, _>("probe", 0, move |p| {
        l.borrow_mut().push(format!("turn_ended {}", p.turn));
        Ok(())
    });
    let mut p = splasher("RATTATA", 100);
    p.status = Status::Poison;
    let mut b = splash_battle(BattleKind::Wild, vec![p], vec![splasher("PIDGEY", 10)]);
    b.field_mut().tokens.push(Token {
        id: "one-round".into(),
        turns: Some(1),
        data: Default::default(),
    });
    b.submit(&rt, Action::Move(0), Action::Move(0)).unwrap();
    // Poison (160 / 16 = 10) already applied; the expiring token still there; then the tick,
    // then the event.
    assert_eq!(
        *log.borrow(),
        [
            "field_residual turn 1 player hp 150 tokens 1",
            "turn_ended 1"
        ]
    );
    assert!(b.field().tokens.is_empty());
    drained(&b);
}

#[test]
fn the_context_is_detached_and_checkpoint_shaped() {
    let seen = Rc::new(RefCell::new(None));
    let rt = Runtime::default();
    let s = seen.clone();
    rt.wrap::<hooks::BattleFieldResidual, _>("t", 0, move |next, args| {
        *s.borrow_mut() = Some(args.context.clone());
        Ok(next.call())
    });
    let mut e = splasher("GEODUDE", 10);
    e.nickname = Some("ROCKY".into());
    let mut b = splash_battle(trainer_kind(), vec![splasher("CHARIZARD", 100)], vec![e]);
    b.field_mut().weather = Some("SANDSTORM".into());
    b.field_mut().tokens.push(Token {
        id: "storm".into(),
        turns: Some(3),
        data: BTreeMap::from([
            ("power".to_owned(), Value::Int(2)),
            ("nan".to_owned(), Value::Float(f64::NAN)),
            ("id".to_owned(), Value::from("shadowed")),
        ]),
    });
    b.submit(&rt, Action::Move(0), Action::Move(0)).unwrap();
    let ctx = seen.borrow_mut().take().expect("called");
    assert_eq!(ctx.turn, 1);
    assert_eq!(
        ctx.field,
        Value::map([
            ("weather", Value::from("SANDSTORM")),
            (
                "tokens",
                Value::List(vec![Value::map([
                    ("id", Value::from("storm")),
                    ("power", Value::Int(2)),
                    ("turns", Value::Int(3)),
                ])])
            ),
        ])
    );
    assert!(ctx.field.get("sides").is_none());
    let p = &ctx.battlers.player;
    assert_eq!(
        (p.side, p.name.as_str(), p.hp, p.max_hp, p.vanished),
        (ApiSide::Player, "CHARIZARD", 160, 160, false)
    );
    assert_eq!(p.types, ["FIRE", "FLYING"]);
    let e = &ctx.battlers.enemy;
    assert_eq!((e.side, e.name.as_str()), (ApiSide::Enemy, "ROCKY"));
    assert_eq!(e.types, ["ROCK", "GROUND"]);
    drained(&b);
}

#[test]
fn the_projection_omits_non_data_and_never_reaches_sides() {
    let mut deep = Value::Int(1);
    for _ in 0..(MAX_PROJECTION_DEPTH + 4) {
        deep = Value::List(vec![deep]);
    }
    let field = Field {
        weather: None,
        tokens: vec![Token {
            id: "t".into(),
            turns: None,
            data: BTreeMap::from([
                ("inf".to_owned(), Value::Float(f64::INFINITY)),
                ("nil".to_owned(), Value::Nil),
                ("turns".to_owned(), Value::Int(9)),
                (
                    "nested".to_owned(),
                    Value::map([
                        ("ok", Value::Float(0.5)),
                        ("bad", Value::Float(f64::NEG_INFINITY)),
                        (
                            "list",
                            Value::List(vec![Value::Float(f64::NAN), Value::Bool(true)]),
                        ),
                    ]),
                ),
                ("deep".to_owned(), deep),
            ]),
        }],
    };
    let v = project_field(&field);
    let m = v.as_map().expect("map");
    assert_eq!(
        m.keys().collect::<Vec<_>>(),
        ["tokens"],
        "no weather, no sides"
    );
    let token = &m["tokens"].as_list().expect("list")[0];
    // `turns` is the token's own (absent here), not a data key of that name.
    assert_eq!(
        token.as_map().unwrap().keys().collect::<Vec<_>>(),
        ["deep", "id", "nested"]
    );
    assert_eq!(
        token.get("nested"),
        Some(&Value::map([
            ("list", Value::List(vec![Value::Bool(true)])),
            ("ok", Value::Float(0.5)),
        ]))
    );
    // The deep chain is cut at the bound.
    let mut depth = 0;
    let mut cur = token.get("deep");
    while let Some(Value::List(l)) = cur {
        depth += 1;
        cur = l.first();
    }
    assert!(depth < MAX_PROJECTION_DEPTH, "{depth}");
}

fn exp_probe(rt: &Runtime) -> Rc<RefCell<Vec<&'static str>>> {
    let calls = Rc::new(RefCell::new(Vec::new()));
    let c = calls.clone();
    rt.wrap::<hooks::BattleExpAward, _>("probe", 0, move |next, _| {
        c.borrow_mut().push("battle.exp_award");
        Ok(next.call())
    });
    let c = calls.clone();
    rt.wrap::<hooks::ExpGain, _>("probe", 0, move |next, _| {
        c.borrow_mut().push("exp.gain");
        Ok(next.call())
    });
    let c = calls.clone();
    let _ = rt.on::<events::BattleFainted, _>("probe", 0, move |p| {
        c.borrow_mut().push(match p.battler.side {
            ApiSide::Player => "fainted player",
            ApiSide::Enemy => "fainted enemy",
        });
        Ok(())
    });
    calls
}

#[test]
fn a_terminal_batch_blacks_out_in_both_row_orders() {
    for enemy_first in [true, false] {
        let lethal_p = row(ApiSide::Player, 500, Some("storm hits RATTATA"));
        let lethal_e = row(ApiSide::Enemy, 500, Some("storm hits CATERPIE"));
        let (rows, messages) = if enemy_first {
            (
                vec![lethal_e, lethal_p],
                ["storm hits CATERPIE", "storm hits RATTATA"],
            )
        } else {
            (
                vec![lethal_p, lethal_e],
                ["storm hits RATTATA", "storm hits CATERPIE"],
            )
        };
        let rt = answering(rows);
        let calls = exp_probe(&rt);
        let mut b = splash_battle(
            trainer_kind(),
            vec![splasher("RATTATA", 100)],
            vec![splasher("CATERPIE", 10), splasher("WEEDLE", 10)],
        );
        b.submit(&rt, Action::Move(0), Action::Move(0)).unwrap();
        assert_eq!(
            b.result(),
            Some(BattleResult::Lose),
            "enemy first: {enemy_first}"
        );
        assert_eq!(b.needs_choice(), NeedsChoice::Finished);
        assert_eq!(
            *calls.borrow(),
            ["fainted player"],
            "no EXP path, no enemy faint"
        );
        let rows: Vec<Row> = b.rows().collect();
        let t: Vec<String> = rows.iter().filter_map(|r| r.render(&b)).collect();
        assert_eq!(
            t[t.len() - 5..],
            [
                messages[0],
                messages[1],
                "RATTATA fainted!",
                "RED is out of useable POKéMON!",
                "RED blacked out!",
            ]
        );
        assert!(!rows.contains(&Row::Faint(Side::Enemy)));
        assert!(!rows.iter().any(|r| matches!(r, Row::SendOut(_))));
        assert!(!t
            .iter()
            .any(|l| l.contains("EXP") || l.contains("about to use")));
        assert_eq!(b.active(Side::Enemy).hp, 0, "the enemy row was applied too");
        assert_eq!(b.side(Side::Enemy).active, 0, "no replacement");
        drained(&b);
    }
}

/// Like [`answering`], on turn `turn` only.
fn answering_at(turn: u32, rows: Vec<hooks::ResidualRow>) -> Runtime {
    let rt = Runtime::default();
    rt.wrap::<hooks::BattleFieldResidual, _>("t", 0, move |next, args| {
        let mut out = next.call();
        if args.context.turn == turn {
            out.extend(rows.iter().cloned());
        }
        Ok(out)
    });
    rt
}

#[test]
fn a_non_terminal_batch_schedules_player_then_enemy() {
    // Both active mons drop to 0 on turn 2; RATTATA (which fought PIDGEY on turn 1) is left:
    // player faint, then the enemy faint with its EXP to RATTATA, and the wild battle is won —
    // for either row order.
    for enemy_first in [true, false] {
        let p = row(ApiSide::Player, 500, None);
        let e = row(ApiSide::Enemy, 500, None);
        let rt = answering_at(2, if enemy_first { vec![e, p] } else { vec![p, e] });
        let calls = exp_probe(&rt);
        let mut b = splash_battle(
            BattleKind::Wild,
            vec![splasher("RATTATA", 100), splasher("SPEAROW", 50)],
            vec![splasher("PIDGEY", 10)],
        );
        b.submit(&rt, Action::Switch(1), Action::Move(0)).unwrap();
        b.clear_rows();
        b.submit(&rt, Action::Move(0), Action::Move(0)).unwrap();
        assert_eq!(b.result(), Some(BattleResult::Win));
        let t = texts(&mut b);
        let ip = t
            .iter()
            .position(|l| l == "SPEAROW fainted!")
            .expect("player faint");
        let ie = t
            .iter()
            .position(|l| l == "Enemy PIDGEY fainted!")
            .expect("enemy faint");
        let ix = t
            .iter()
            .position(|l| l.starts_with("RATTATA gained"))
            .expect("EXP");
        assert!(ip < ie && ie < ix, "{t:?}");
        assert_eq!(
            *calls.borrow(),
            [
                "fainted player",
                "fainted enemy",
                "battle.exp_award",
                "exp.gain"
            ]
        );
        drained(&b);
    }
}

#[test]
fn a_settled_battle_never_calls_the_hook() {
    let rt = answering(vec![row(ApiSide::Player, 1, Some("never"))]);
    let mut e = with_speed("PIDGEY", &["SPLASH"], 10);
    e.hp = 1;
    let mut b = wild(
        vec![with_speed("RATTATA", &["TACKLE"], 100)],
        vec![e],
        &[NO_CRIT, factor(255), HIT],
    );
    let before = sentinel::counts();
    b.submit(&rt, Action::Move(0), Action::Move(0)).unwrap();
    assert_eq!(b.result(), Some(BattleResult::Win));
    assert_eq!(sentinel::counts(), before);
    assert!(!texts(&mut b).contains(&"never".to_owned()));
    // Rows handed to a decided battle change nothing either.
    let hp = b.active(Side::Player).hp;
    b.apply_field_residuals(&rt, [row(ApiSide::Player, 5, Some("late"))]);
    assert_eq!(b.active(Side::Player).hp, hp);
    assert!(b.peek_rows().is_empty());
    drained(&b);
}

#[test]
fn without_rows_recorded_messages_are_not_stored() {
    let rt = answering(vec![row(ApiSide::Enemy, 3, Some("quiet"))]);
    let mut b = splash_battle(
        BattleKind::Wild,
        vec![splasher("RATTATA", 100)],
        vec![splasher("PIDGEY", 10)],
    );
    b.set_record_rows(false);
    b.submit(&rt, Action::Move(0), Action::Move(0)).unwrap();
    assert_eq!(b.active(Side::Enemy).hp, 157);
    assert!(b.mod_texts.is_empty());
    drained(&b);
}

#[test]
fn native_double_faints_keep_their_paths_with_the_hook_installed() {
    // Explosion KOs both before the end of the round: the native pipeline (not this hook's
    // precedence) decides — with a reserve, the enemy faint's EXP and the win.
    let rt = answering(vec![]);
    let calls = exp_probe(&rt);
    let mut e = with_speed("PIDGEY", &["SPLASH"], 10);
    e.hp = 5;
    let mut b = wild(
        vec![
            with_speed("SPEAROW", &["PECK"], 200),
            with_speed("GEODUDE", &["EXPLOSION"], 200),
        ],
        vec![e],
        &[NO_CRIT, factor(255), HIT],
    );
    b.submit(&rt, Action::Switch(1), Action::Move(0)).unwrap();
    b.submit(&rt, Action::Move(0), Action::Move(0)).unwrap();
    assert_eq!(b.result(), Some(BattleResult::Win));
    assert_eq!(
        *calls.borrow(),
        [
            "fainted player",
            "fainted enemy",
            "battle.exp_award",
            "exp.gain"
        ]
    );
    drained(&b);
}
