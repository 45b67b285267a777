//! RFC 0016 `battle.field_residual`, end to end (part 1: the seam, the context, the rows): real
//! Rhai mods (the sandboxed fixture `tests/fixtures/mods/field-residual-probe`, the bundled
//! `sandstorm` example, small in-memory mods) loaded by the `RhaiHost` through the api `Loader`,
//! and Gen 1 battles driven only through the public `Battle` API with a `ScriptedRng` (SPLASH
//! rounds draw no byte; every test checks the byte queue is drained). Part 2 (timing, guard,
//! faint scheduling) is `rfc0016_timing_and_faints.rs`.
//!
//! RFC verification bullets → tests (the capture/restore/capture bullet lands with the battle
//! checkpoint issue):
//! * gate parity → `tests/gate_hooks.rs` (`gate::<hooks::BattleFieldResidual>`), and here
//!   `gate_parity_null_and_live_empty_buses_return_the_vanilla_list`
//! * a sandboxed fixture mod reaching the faint pipeline →
//!   `sandboxed_fixture_mod_sees_the_detached_context_and_reaches_the_faint_pipeline`
//! * strict number validation → `strict_number_validation_ignores_malformed_rows_one_by_one`,
//!   `strict_number_validation_at_the_value_level`
//! * mutation isolation → `nested_mutation_isolation` (and the fixture's scribbles)
//! * projection omissions → `projection_omissions`
//! * optional messages → `optional_messages`
//! * non-table results → `non_table_results_yield_nothing`
//! * clamping → `clamping_to_current_hp`
//! * settled-battle suppression, both descriptor orders for a simultaneous terminal residual,
//!   the disabled-bus sentinel, the ordering probe, the no-hook native double-faint regression →
//!   `rfc0016_timing_and_faints.rs`
//! * plus: the example mod (`sandstorm_example_buffets_both_sides`) and composition
//!   (`wrappers_compose_by_appending_rows`).

mod rfc0016_support;
mod rfc_support;

use std::collections::BTreeMap;

use pallet_api::catalog::common::{BattlerSnapshot, Battlers, Side as ApiSide};
use pallet_api::catalog::hooks::{
    BattleFieldResidual, BattleFieldResidualArgs, FieldResidualContext, ResidualRow,
};
use pallet_api::script::ScriptHook;
use pallet_api::{Runtime, Value};
use pallet_engine::battle::{BattleKind, BattleResult, Side, Token};
use pallet_engine::world::GameVersion;
use rfc0016_support::*;
use rfc_support::{example, load};

// ----- gate parity -----------------------------------------------------------------------------

fn sample_args() -> BattleFieldResidualArgs {
    let snap = |side, name: &str| BattlerSnapshot {
        side,
        name: name.into(),
        hp: 50,
        max_hp: 100,
        types: vec!["NORMAL".into()],
        vanished: false,
    };
    BattleFieldResidualArgs {
        context: FieldResidualContext {
            field: Value::map([("tokens", Value::List(vec![]))]),
            battlers: Battlers {
                player: snap(ApiSide::Player, "RATTATA"),
                enemy: snap(ApiSide::Enemy, "PIDGEY"),
            },
            turn: 1,
        },
    }
}

#[test]
fn gate_parity_null_and_live_empty_buses_return_the_vanilla_list() {
    let vanilla = vec![ResidualRow {
        side: ApiSide::Enemy,
        amount: 3,
        message: Some("sentinel".into()),
    }];
    // A live bus: mods loaded that wrap other hooks and listen, but not this hook; and one that
    // wrapped it and was unloaded (owner cleanup drops the emptied chain).
    let busy = load_rhai(&[
        ("observer", HOOKS, "hooks.wrap(\"exp.gain\", |next, ctx| next.call());\nevents.on(\"battle.turn_ended\", |p| ());"),
        ("gone", HOOKS, &answering("[#{side: \"player\", amount: 1}]")),
    ]);
    assert!(busy.rt.wants_hook::<BattleFieldResidual>());
    busy.rt.remove_owner("gone");
    for rt in [&Runtime::new(), &*busy.rt] {
        assert!(!rt.wants_hook::<BattleFieldResidual>());
        let mut calls = 0;
        let out = rt.call::<BattleFieldResidual>(sample_args(), |args| {
            calls += 1;
            assert_eq!(args, &sample_args());
            vanilla.clone()
        });
        assert_eq!((out, calls), (vanilla.clone(), 1));
    }
    // And at the site: the same battle under the null bus and the busy bus queues the same rows
    // and leaves the same state.
    let mut outcomes = Vec::new();
    for rt in [&Runtime::new(), &*busy.rt] {
        let mut b = battle(
            BattleKind::Wild,
            vec![fast("RATTATA", 80)],
            vec![slow("PIDGEY", 60)],
            &[],
        );
        let lines = [round(&mut b, rt), round(&mut b, rt)].concat();
        outcomes.push((
            lines,
            b.party(Side::Player).to_vec(),
            b.party(Side::Enemy).to_vec(),
            b.turn(),
        ));
        drained(&b);
    }
    assert_eq!(outcomes[0], outcomes[1]);
    assert!(outcomes[0].0.is_empty(), "{:?}", outcomes[0].0);
}

// ----- the sandboxed fixture mod ----------------------------------------------------------------

fn storm_token(turns: i32, power: i64) -> Token {
    Token {
        id: "storm".into(),
        turns: Some(turns),
        data: BTreeMap::from([("power".to_owned(), Value::Int(power))]),
    }
}

#[test]
fn sandboxed_fixture_mod_sees_the_detached_context_and_reaches_the_faint_pipeline() {
    let mods = load(GameVersion::Red, &[fixture("field-residual-probe")], &[]);
    let mut b = battle(
        BattleKind::Wild,
        vec![fast("RATTATA", 90)],
        vec![slow("PIDGEY", 25)],
        &[],
    );
    b.field_mut().weather = Some("SANDSTORM".into());
    b.field_mut().tokens.push(storm_token(3, 1));

    // Rounds 1 and 2: 10 damage each; the context is fresh every round (the mod's scribbles
    // from the round before are gone), the token counts down after the hook.
    for (turn, hp, turns) in [(1, 25, 3), (2, 15, 2)] {
        let lines = round(&mut b, &mods.rt);
        assert_eq!(
            lines,
            [
                "PIDGEY is buffeted!".to_owned(),
                format!("(enemy {hp}->{})", hp - 10)
            ]
        );
        assert_eq!(
            mods.feed(),
            [
                format!("[field-residual-probe] turn {turn}: weather SANDSTORM, tokens [\"storm/{turns}/1\"], field keys [\"tokens\", \"weather\"]"),
                "[field-residual-probe] player player RATTATA 90/100 [\"NORMAL\"] vanished false; keys [\"hp\", \"maxHp\", \"name\", \"side\", \"types\", \"vanished\"]".to_owned(),
                format!("[field-residual-probe] enemy enemy PIDGEY {hp}/100 [\"NORMAL\", \"FLYING\"] vanished false"),
            ]
        );
        // Nothing the mod scribbled reached the battle.
        assert_eq!(b.turn(), turn);
        assert_eq!(b.field().weather.as_deref(), Some("SANDSTORM"));
        assert_eq!(b.field().tokens, [storm_token(3 - turn as i32, 1)]);
        assert_eq!(b.active(Side::Player).hp, 90);
        assert_eq!(b.active(Side::Enemy).stats.max_hp, 100);
        assert_eq!(b.battler(Side::Enemy).types.len(), 2);
    }
    // Round 3: 10 more than the 5 HP left — clamped, and the engine's faint pipeline runs:
    // faint, EXP, the win; the token never ticks (the battle is decided).
    let lines = round(&mut b, &mods.rt);
    let exp_line = lines
        .iter()
        .find(|l| l.starts_with("RATTATA gained"))
        .cloned()
        .expect("EXP");
    assert_eq!(
        lines,
        [
            "PIDGEY is buffeted!".to_owned(),
            "(enemy 5->0)".to_owned(),
            "(faint enemy)".to_owned(),
            "Enemy PIDGEY fainted!".to_owned(),
            exp_line,
        ]
    );
    assert_eq!(b.result(), Some(BattleResult::Win));
    assert_eq!(b.field().tokens, [storm_token(1, 1)]);
    let feed = mods.feed();
    assert_eq!(
        feed[3..],
        [
            "[field-residual-probe] fainted enemy PIDGEY".to_owned(),
            "[field-residual-probe] ended win".to_owned(),
        ]
    );
    drained(&b);
}

// ----- validation ------------------------------------------------------------------------------

/// Every malformed row in one answer, with three good ones: only the good ones apply, in order,
/// and the link does not fail (rows are validated one by one).
const MIXED_ROWS: &str = r#"
fn shout() { "boo" }

hooks.wrap("battle.field_residual", |next, ctx| {
    let inf = 1.0 / 0.0;
    let nan = 0.0 / 0.0;
    log.info(`inf ${inf} nan ${nan}`);
    let rows = next.call();
    rows += [
        #{ side: "enemy", amount: "7", message: "numeric string" },
        #{ side: "enemy", amount: "7.0", message: "numeric string 2" },
        #{ side: "enemy", amount: 0, message: "zero" },
        #{ side: "enemy", amount: 0.0, message: "zero float" },
        #{ side: "enemy", amount: -3, message: "negative" },
        #{ side: "enemy", amount: -3.0, message: "negative float" },
        #{ side: "enemy", amount: 1.5, message: "fraction" },
        #{ side: "enemy", amount: 0.5, message: "small fraction" },
        #{ side: "enemy", amount: nan, message: "nan" },
        #{ side: "enemy", amount: inf, message: "inf" },
        #{ side: "enemy", amount: -inf, message: "-inf" },
        #{ side: "enemy", amount: true, message: "boolean" },
        #{ side: "enemy", amount: (), message: "nil" },
        #{ side: "enemy", message: "missing amount" },
        #{ side: "ENEMY", amount: 1, message: "upper case side" },
        #{ side: "both", amount: 1, message: "bad side" },
        #{ side: 1, amount: 1, message: "numeric side" },
        #{ amount: 1, message: "missing side" },
        #{ side: "enemy", amount: 1, message: 5 },
        #{ side: "enemy", amount: 1, message: true },
        #{ side: "enemy", amount: 1, message: ["list"] },
        #{ side: "enemy", amount: 1, message: #{ text: "map" } },
        #{ side: "enemy", amount: 1, message: Fn("shout") },
        false, (), 42, "row", [],
        #{ side: "enemy", amount: 2.0, message: "float two", note: Fn("shout") },
        #{ side: "player", amount: 3 },
        #{ side: "enemy", amount: 4, message: () },
    ];
    rows
});
"#;

#[test]
fn strict_number_validation_ignores_malformed_rows_one_by_one() {
    let mods = load_rhai(&[("mixed", HOOKS, MIXED_ROWS)]);
    let mut b = battle(
        BattleKind::Wild,
        vec![fast("RATTATA", 50)],
        vec![slow("PIDGEY", 50)],
        &[],
    );
    let lines = round(&mut b, &mods.rt);
    assert_eq!(
        lines,
        [
            "float two",
            "(enemy 50->48)",
            "(player 50->47)",
            "(enemy 48->44)"
        ]
    );
    // The script really produced non-finite numbers, and nothing failed.
    assert_eq!(mods.feed(), ["[mixed] inf inf nan NaN"]);
    drained(&b);
}

#[test]
fn strict_number_validation_at_the_value_level() {
    let row = |amount: Value| Value::map([("side", Value::from("player")), ("amount", amount)]);
    let accepted =
        |v: Value| BattleFieldResidual::out_from_value(Value::List(vec![v])).expect("lenient");
    for good in [
        Value::Int(1),
        Value::Float(7.0),
        Value::Int(i64::MAX),
        Value::Float(1e20),
    ] {
        assert_eq!(accepted(row(good.clone())).len(), 1, "{good:?}");
    }
    assert_eq!(accepted(row(Value::Float(1e20)))[0].amount, u32::MAX);
    for bad in [
        Value::Int(0),
        Value::Int(-1),
        Value::Float(0.0),
        Value::Float(-0.0),
        Value::Float(-2.0),
        Value::Float(2.5),
        Value::Float(f64::NAN),
        Value::Float(f64::INFINITY),
        Value::Float(f64::NEG_INFINITY),
        Value::from("3"),
        Value::Bool(true),
        Value::Nil,
        Value::List(vec![Value::Int(3)]),
    ] {
        assert!(accepted(row(bad.clone())).is_empty(), "{bad:?}");
    }
}

#[test]
fn optional_messages() {
    let mods = load_rhai(&[(
        "quiet",
        HOOKS,
        &answering(
            r#"[#{ side: "enemy", amount: 5 }, #{ side: "player", amount: 6, message: () }, #{ side: "enemy", amount: 7, message: "loud" }, #{ side: "player", amount: 8, message: "" }]"#,
        ),
    )]);
    let mut b = battle(
        BattleKind::Wild,
        vec![fast("RATTATA", 50)],
        vec![slow("PIDGEY", 50)],
        &[],
    );
    assert_eq!(
        round(&mut b, &mods.rt),
        [
            "(enemy 50->45)",
            "(player 50->44)",
            "loud",
            "(enemy 45->38)",
            "",
            "(player 44->36)"
        ]
    );
    drained(&b);
}

#[test]
fn non_table_results_yield_nothing() {
    for answer in [
        "()",
        "42",
        "\"rows\"",
        "true",
        "#{ side: \"enemy\", amount: 5 }",
        "Fn(\"f\")",
    ] {
        let main = format!(
            "fn f() {{ 1 }}\nhooks.wrap(\"battle.field_residual\", |next, ctx| {{\n    let rows = next.call();\n    {answer}\n}});\n"
        );
        let mods = load_rhai(&[("odd", HOOKS, &main)]);
        let mut b = battle(
            BattleKind::Wild,
            vec![fast("RATTATA", 50)],
            vec![slow("PIDGEY", 50)],
            &[],
        );
        assert!(round(&mut b, &mods.rt).is_empty(), "{answer}");
        assert_eq!(
            (b.active(Side::Player).hp, b.active(Side::Enemy).hp),
            (50, 50)
        );
        // A function pointer cannot cross at all: that answer is a link failure (reported);
        // every other non-list answer simply means "no rows".
        let feed = mods.feed();
        if answer.starts_with("Fn") {
            assert!(feed.iter().any(|l| l.contains("cannot cross")), "{feed:?}");
        } else {
            assert!(feed.is_empty(), "{answer}: {feed:?}");
        }
        drained(&b);
    }
}

#[test]
fn clamping_to_current_hp() {
    let mods = load_rhai(&[(
        "heavy",
        HOOKS,
        &answering(
            r#"[#{ side: "player", amount: 1000000, message: "huge" }, #{ side: "player", amount: 3, message: "after the faint" }, #{ side: "enemy", amount: 1e300 }]"#,
        ),
    )]);
    let mut b = battle(
        BattleKind::Wild,
        vec![fast("RATTATA", 12), fast("SPEAROW", 50)],
        vec![slow("PIDGEY", 9)],
        &[],
    );
    let lines = round(&mut b, &mods.rt);
    // Both drains stop at 0; a row for a battler already at 0 shows its message and drains
    // nothing. Both fainted in one batch with a player reserve: player first, then the enemy
    // with its EXP path, and the wild battle is won.
    assert_eq!(
        lines[..6],
        [
            "huge",
            "(player 12->0)",
            "after the faint",
            "(enemy 9->0)",
            "(faint player)",
            "RATTATA fainted!"
        ]
    );
    assert!(
        lines.contains(&"Enemy PIDGEY fainted!".to_owned()),
        "{lines:?}"
    );
    assert_eq!(b.result(), Some(BattleResult::Win));
    assert_eq!(b.party(Side::Player)[1].hp, 50);
    drained(&b);
}

// ----- isolation and projection -----------------------------------------------------------------

/// The outer wrapper scribbles over nested parts of its context and hands the scribbled copy to
/// `next`; the inner wrapper sees that copy (arguments replaced downstream), the battle sees
/// nothing of it.
const SCRIBBLER: &str = r#"
hooks.wrap("battle.field_residual", 10, |next, ctx| {
    ctx.field.tokens[0].nested.list.push(99);
    ctx.field.tokens[0].nested.deep.x = "changed";
    ctx.battlers.enemy.types[0] = "GHOST";
    ctx.battlers.player.hp = 1;
    next.call(ctx)
});
"#;

const READER: &str = r#"
hooks.wrap("battle.field_residual", |next, ctx| {
    let t = ctx.field.tokens[0];
    log.info(`list ${t.nested.list} deep ${t.nested.deep.x} enemy ${ctx.battlers.enemy.types} player ${ctx.battlers.player.hp}`);
    next.call()
});
"#;

#[test]
fn nested_mutation_isolation() {
    let mods = load_rhai(&[("scribbler", HOOKS, SCRIBBLER), ("reader", HOOKS, READER)]);
    let nested = Value::map([
        ("list", Value::List(vec![Value::Int(1)])),
        ("deep", Value::map([("x", Value::from("orig"))])),
    ]);
    let token = Token {
        id: "data".into(),
        turns: None,
        data: BTreeMap::from([("nested".to_owned(), nested)]),
    };
    let mut b = battle(
        BattleKind::Wild,
        vec![fast("RATTATA", 50)],
        vec![slow("GEODUDE", 50)],
        &[],
    );
    b.field_mut().tokens.push(token.clone());
    for _ in 0..2 {
        assert!(round(&mut b, &mods.rt).is_empty());
        assert_eq!(
            mods.feed(),
            ["[reader] list [1, 99] deep changed enemy [\"GHOST\", \"GROUND\"] player 1"]
        );
        assert_eq!(b.field().tokens, std::slice::from_ref(&token));
        assert_eq!(b.active(Side::Player).hp, 50);
        assert_eq!(b.battler(Side::Enemy).types[0].id(), "ROCK");
    }
    drained(&b);
}

#[test]
fn projection_omissions() {
    let mods = load_rhai(&[(
        "dump",
        HOOKS,
        "hooks.wrap(\"battle.field_residual\", |next, ctx| { log.info(`${ctx.field}`); next.call() });",
    )]);
    let mut b = battle(
        BattleKind::Wild,
        vec![fast("RATTATA", 50)],
        vec![slow("PIDGEY", 50)],
        &[],
    );
    b.field_mut().tokens.push(Token {
        id: "t".into(),
        turns: None,
        data: BTreeMap::from([
            ("nan".to_owned(), Value::Float(f64::NAN)),
            ("inf".to_owned(), Value::Float(f64::INFINITY)),
            ("nil".to_owned(), Value::Nil),
            ("ok".to_owned(), Value::Float(0.25)),
            (
                "list".to_owned(),
                Value::List(vec![
                    Value::Float(f64::NEG_INFINITY),
                    Value::Bool(true),
                    Value::Nil,
                ]),
            ),
            ("id".to_owned(), Value::from("not the id")),
        ]),
    });
    round(&mut b, &mods.rt);
    // No weather (unset), no `sides`, no non-finite numbers or nils; `id` is the token's own.
    // (Functions, userdata, threads and cycles cannot exist in the engine's field: it is a
    // data-only type.)
    assert_eq!(
        mods.feed(),
        ["[dump] #{\"tokens\": [#{\"id\": \"t\", \"list\": [true], \"ok\": 0.25}]}"]
    );
    drained(&b);
}

// ----- the example mod and composition ---------------------------------------------------------

#[test]
fn sandstorm_example_buffets_both_sides() {
    let mods = load(GameVersion::Red, &[example("sandstorm")], &[]);
    // Rounds 1-2 without weather: both sides lose 100 / 16 = 6; round 3: calm.
    let mut b = battle(
        BattleKind::Wild,
        vec![fast("RATTATA", 80)],
        vec![slow("PIDGEY", 80)],
        &[],
    );
    for hp in [80, 74] {
        assert_eq!(
            round(&mut b, &mods.rt),
            [
                "RATTATA is buffeted by the sandstorm!".to_owned(),
                format!("(player {hp}->{})", hp - 6),
                "Enemy PIDGEY is buffeted by the sandstorm!".to_owned(),
                format!("(enemy {hp}->{})", hp - 6),
            ]
        );
    }
    assert!(round(&mut b, &mods.rt).is_empty());
    // A ROCK/GROUND type is sheltered; with the field's weather set to SANDSTORM the storm keeps
    // raging past round 2; another weather calms it.
    let mut b = battle(
        BattleKind::Wild,
        vec![fast("RATTATA", 80)],
        vec![slow("GEODUDE", 80)],
        &[],
    );
    b.field_mut().weather = Some("SANDSTORM".into());
    for _ in 0..3 {
        assert_eq!(
            round(&mut b, &mods.rt)[0],
            "RATTATA is buffeted by the sandstorm!"
        );
    }
    assert_eq!(b.active(Side::Enemy).hp, 80);
    b.field_mut().weather = Some("RAIN".into());
    assert!(round(&mut b, &mods.rt).is_empty());
    assert!(mods.feed().is_empty());
    drained(&b);
}

#[test]
fn wrappers_compose_by_appending_rows() {
    let mods = load(
        GameVersion::Red,
        &[example("sandstorm"), fixture("field-residual-probe")],
        &[],
    );
    let mut b = battle(
        BattleKind::Wild,
        vec![fast("RATTATA", 80)],
        vec![slow("PIDGEY", 80)],
        &[],
    );
    // Equal priority: the first in load order (ids sorted: field-residual-probe) is outermost; it
    // calls `next` (sandstorm, then vanilla's empty list) and appends after their rows.
    assert_eq!(
        round(&mut b, &mods.rt),
        [
            "RATTATA is buffeted by the sandstorm!",
            "(player 80->74)",
            "Enemy PIDGEY is buffeted by the sandstorm!",
            "(enemy 80->74)",
            "PIDGEY is buffeted!",
            "(enemy 74->64)",
        ]
    );
    // Each wrapper saw the HP before any row applied (rows are applied after the whole chain).
    let feed = mods.feed();
    assert!(
        feed.contains(&"[field-residual-probe] enemy enemy PIDGEY 80/100 [\"NORMAL\", \"FLYING\"] vanished false".to_owned()),
        "{feed:?}"
    );
    drained(&b);
}
