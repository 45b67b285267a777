//! RFC 0016 `battle.field_residual`, end to end (part 2: timing, the guard, faint scheduling),
//! through real Rhai mods and the public `Battle` API (see `rfc0016_field_residual.rs` for
//! part 1 and the full bullet map).
//!
//! RFC verification bullets → tests:
//! * ordering probe (after status residuals, before token expiry and `battle.turn_ended`) →
//!   `ordering_probe_after_status_residuals_before_token_expiry_and_turn_ended`
//! * settled-battle suppression → `settled_battle_suppression`
//! * both descriptor orders for a simultaneous terminal residual (blackout, no EXP event, no
//!   replacement UI) → `simultaneous_terminal_residual_blacks_out_in_both_descriptor_orders`
//! * the no-hook native double-faint regression → `no_hook_native_double_faint_regression`
//! * disabled-bus sentinel (no bus call, no context) →
//!   `disabled_bus_sentinel_no_bus_call_no_context`

#[path = "common/alloc.rs"]
mod alloc;
mod rfc0016_support;
mod rfc_support;

use std::collections::BTreeMap;

use pallet_api::catalog::hooks::BattleFieldResidual;
use pallet_api::Value;
use pallet_engine::battle::{
    Action, BattleError, BattleKind, BattleResult, NeedsChoice, Side, Token,
};
use pallet_engine::pokemon::Status;
use rfc0016_support::*;

// ----- timing and suppression ------------------------------------------------------------------

const PROBE: &str = r#"
hooks.wrap("battle.field_residual", |next, ctx| {
    let ids = [];
    for t in ctx.field.tokens { ids.push(t.id); }
    log.info(`field_residual turn ${ctx.turn}: player hp ${ctx.battlers.player.hp}, tokens ${ids}`);
    let rows = next.call();
    rows.push(#{ side: "enemy", amount: 1, message: "probe" });
    rows
});
events.on("battle.turn_ended", |p| log.info(`turn_ended ${p.turn}`));
"#;

#[test]
fn ordering_probe_after_status_residuals_before_token_expiry_and_turn_ended() {
    let mods = load_rhai(&[("probe", HOOKS, PROBE)]);
    let mut p = fast("RATTATA", 80);
    p.status = Status::Poison;
    let mut b = battle(BattleKind::Wild, vec![p], vec![slow("PIDGEY", 50)], &[]);
    b.field_mut().tokens.push(Token {
        id: "last-round".into(),
        turns: Some(1),
        data: BTreeMap::new(),
    });
    let lines = round(&mut b, &mods.rt);
    // Poison (100 / 16 = 6) right after the player's action, then the hook's row.
    assert_eq!(
        lines,
        [
            "RATTATA's hurt by poison!",
            "(player 80->74)",
            "probe",
            "(enemy 50->49)"
        ]
    );
    assert_eq!(
        mods.feed(),
        [
            "[probe] field_residual turn 1: player hp 74, tokens [\"last-round\"]",
            "[probe] turn_ended 1",
        ]
    );
    assert!(b.field().tokens.is_empty(), "expired after the hook");
    drained(&b);
}

#[test]
fn settled_battle_suppression() {
    let mods = load_rhai(&[("probe", HOOKS, PROBE)]);
    // Decided by a move: no call, and `battle.turn_ended` still fires.
    let tackle = mon("RATTATA", 20, &["TACKLE"], 80, 100);
    let mut b = battle(
        BattleKind::Wild,
        vec![tackle],
        vec![slow("PIDGEY", 1)],
        &[0xFF, 0xFF, 0],
    );
    b.submit(&mods.rt, Action::Move(0), Action::Move(0))
        .unwrap();
    assert_eq!(b.result(), Some(BattleResult::Win));
    assert_eq!(mods.feed(), ["[probe] turn_ended 1"]);
    assert!(!drain(&mut b).contains(&"probe".to_owned()));
    drained(&b);
    // Decided by the hook's own row: no later call — the battle refuses further rounds.
    let mut b = battle(
        BattleKind::Wild,
        vec![fast("RATTATA", 80)],
        vec![slow("PIDGEY", 1)],
        &[],
    );
    round(&mut b, &mods.rt);
    assert_eq!(b.result(), Some(BattleResult::Win));
    assert_eq!(mods.feed().len(), 2);
    assert_eq!(
        b.submit(&mods.rt, Action::Move(0), Action::Move(0)),
        Err(BattleError::Finished)
    );
    assert!(mods.feed().is_empty());
    // Decided at creation (nothing to send out): never called.
    let mut b = battle(
        BattleKind::Wild,
        vec![fast("RATTATA", 0)],
        vec![slow("PIDGEY", 5)],
        &[],
    );
    b.start(&mods.rt);
    assert_eq!(b.result(), Some(BattleResult::Lose));
    assert!(mods.feed().is_empty());
}

// ----- faint scheduling ------------------------------------------------------------------------

/// Observes the EXP path and the faint/end events.
const WITNESS: &str = r#"
hooks.wrap("battle.exp_award", |next, ctx| { log.info("battle.exp_award"); next.call() });
hooks.wrap("exp.gain", |next, ctx| { log.info("exp.gain"); next.call() });
events.on("battle.fainted", |p| log.info(`fainted ${p.battler.side}`));
events.on("battle.ended", |p| log.info(`ended ${p.result}`));
"#;

#[test]
fn simultaneous_terminal_residual_blacks_out_in_both_descriptor_orders() {
    let player_row = r#"#{ side: "player", amount: 500, message: "player row" }"#;
    let enemy_row = r#"#{ side: "enemy", amount: 500, message: "enemy row" }"#;
    for enemy_first in [true, false] {
        let rows = if enemy_first {
            format!("[{enemy_row}, {player_row}]")
        } else {
            format!("[{player_row}, {enemy_row}]")
        };
        let mods = load_rhai(&[
            ("storm", HOOKS, &answering(&rows)),
            ("witness", HOOKS, WITNESS),
        ]);
        // A trainer with a healthy reserve; the player's last mon.
        let mut b = battle(
            trainer(),
            vec![fast("RATTATA", 30)],
            vec![slow("CATERPIE", 30), slow("WEEDLE", 40)],
            &[],
        );
        let exp_before = b.party(Side::Player)[0].exp;
        b.submit(&mods.rt, Action::Move(0), Action::Move(0))
            .unwrap();
        // Queue completion: every row drained, nothing more to choose.
        let lines = after_moves(&drain(&mut b));
        let (first, second) = if enemy_first {
            ("enemy row", "player row")
        } else {
            ("player row", "enemy row")
        };
        let first_drain = if enemy_first {
            "(enemy 30->0)"
        } else {
            "(player 30->0)"
        };
        let second_drain = if enemy_first {
            "(player 30->0)"
        } else {
            "(enemy 30->0)"
        };
        assert_eq!(
            lines,
            [
                first,
                first_drain,
                second,
                second_drain,
                "(faint player)",
                "RATTATA fainted!",
                "RED is out of useable POKéMON!",
                "RED blacked out!",
            ],
            "enemy first: {enemy_first}"
        );
        assert!(b.peek_rows().is_empty());
        assert_eq!(b.result(), Some(BattleResult::Lose));
        assert_eq!(b.needs_choice(), NeedsChoice::Finished);
        // No EXP (neither hook called), no enemy faint, no replacement, no SHIFT prompt.
        assert_eq!(
            mods.feed(),
            ["[witness] fainted player", "[witness] ended lose"],
            "enemy first: {enemy_first}"
        );
        assert_eq!(b.side(Side::Enemy).active, 0);
        assert_eq!(b.party(Side::Enemy)[1].hp, 40);
        assert_eq!(b.party(Side::Player)[0].exp, exp_before);
        assert!(!b.is_legal(Side::Player, Action::Move(0)));
        assert_eq!(
            b.submit(&mods.rt, Action::Continue, Action::Switch(1)),
            Err(BattleError::Finished)
        );
        drained(&b);
    }
}

#[test]
fn no_hook_native_double_faint_regression() {
    // No `battle.field_residual` subscriber (only the witness): EXPLOSION knocks both out. The
    // native pipeline enters the enemy faint's EXP authority in both cases (RFC 0016's
    // native-regression rule, the Lua engine's faint order). With a reserve: EXP to the standing
    // participant and the win. Without one: `battle.exp_award` runs with nobody standing (no
    // `exp.gain`), then the player's blackout decides ("even when the battle was already won").
    let mods = load_rhai(&[("witness", HOOKS, WITNESS)]);
    assert!(!mods.rt.wants_hook::<BattleFieldResidual>());
    let boom = || mon("GEODUDE", 20, &["EXPLOSION"], 60, 200);
    let mut b = battle(
        BattleKind::Wild,
        vec![mon("SPEAROW", 20, &["PECK"], 60, 200), boom()],
        vec![slow("PIDGEY", 5)],
        &[0xFF, 0xFF, 0],
    );
    b.submit(&mods.rt, Action::Switch(1), Action::Move(0))
        .unwrap();
    b.submit(&mods.rt, Action::Move(0), Action::Move(0))
        .unwrap();
    assert_eq!(b.result(), Some(BattleResult::Win));
    let lines = drain(&mut b);
    assert!(
        lines.iter().any(|l| l.starts_with("SPEAROW gained")),
        "{lines:?}"
    );
    assert_eq!(
        mods.feed(),
        [
            "[witness] fainted player",
            "[witness] fainted enemy",
            "[witness] battle.exp_award",
            "[witness] exp.gain",
            "[witness] ended win",
        ]
    );
    drained(&b);

    let mut b = battle(
        BattleKind::Wild,
        vec![boom()],
        vec![slow("PIDGEY", 5)],
        &[0xFF, 0xFF, 0],
    );
    b.submit(&mods.rt, Action::Move(0), Action::Move(0))
        .unwrap();
    assert_eq!(b.result(), Some(BattleResult::Lose));
    let lines = drain(&mut b);
    assert!(lines.contains(&"(faint enemy)".to_owned()), "{lines:?}");
    assert!(
        lines.contains(&"Enemy PIDGEY fainted!".to_owned()),
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.contains("gained")), "{lines:?}");
    assert_eq!(lines.last().map(String::as_str), Some("RED blacked out!"));
    assert_eq!(
        mods.feed(),
        [
            "[witness] fainted player",
            "[witness] fainted enemy",
            "[witness] battle.exp_award",
            "[witness] ended lose",
        ]
    );
    drained(&b);
}

// ----- the guard -------------------------------------------------------------------------------

#[test]
fn disabled_bus_sentinel_no_bus_call_no_context() {
    // A live bus (mods wrapping and listening elsewhere) without a field_residual chain; the
    // field holds data a context would have to copy. Three whole rounds allocate nothing: no
    // context is built (it would copy the 4 KB string) and no link runs.
    let mods = load_rhai(&[("witness", HOOKS, WITNESS), ("probe", HOOKS, PROBE)]);
    let mut b = battle(
        BattleKind::Wild,
        vec![fast("RATTATA", 80)],
        vec![slow("PIDGEY", 80)],
        &[],
    );
    b.field_mut().weather = Some("SANDSTORM".into());
    b.field_mut().tokens.push(Token {
        id: "big".into(),
        turns: None,
        data: BTreeMap::from([("blob".to_owned(), Value::from("x".repeat(4096)))]),
    });
    b.set_record_rows(false);
    b.start(&mods.rt);
    // Subscribed: one call per round (the probe logs), and the round allocates.
    let (_, allocs) = alloc::count(|| {
        b.submit(&mods.rt, Action::Move(0), Action::Move(0))
            .unwrap()
    });
    assert!(allocs > 0);
    assert_eq!(mods.feed().len(), 2, "hook line + turn_ended");
    // The probe is removed (owner cleanup): the chain is gone.
    mods.rt.remove_owner("probe");
    assert!(!mods.rt.wants_hook::<BattleFieldResidual>());
    let hp = b.active(Side::Enemy).hp;
    let (_, allocs) = alloc::count(|| {
        for _ in 0..3 {
            b.submit(&mods.rt, Action::Move(0), Action::Move(0))
                .unwrap();
        }
    });
    assert_eq!(allocs, 0, "a round without a subscriber allocated");
    assert!(mods.feed().is_empty(), "no link ran");
    assert_eq!(b.active(Side::Enemy).hp, hp);
    drained(&b);
}
