//! A closure that reads only some fields of its context (`ctx.user.hp`) gets only those written
//! by the direct call path (`script-host/src/host/reads.rs`); the answers must be exactly what
//! the same body gives through `call_raw`, which always builds the whole context.
//!
//! Each body runs twice per call sequence: as a closure (direct path, read paths) and as a
//! named function wrapped with `Fn("w")` (never the direct path), over a sequence of contexts
//! whose strings, lists, optional fields and numbers change from call to call (so the patched
//! subset is rewritten, kept, and rebuilt).

#[path = "rhai_support/mod.rs"]
mod rhai_support;

use pallet_api::catalog::common::{BattleInfo, BattleKind, BattlerSnapshot, MoveInfo, Side};
use pallet_api::catalog::hooks::{BattleDamage, BattleDamageArgs, DamageContext};
use rhai_support::{load, manifest};

fn battler(side: Side, name: &str, hp: u16, types: &[&str]) -> BattlerSnapshot {
    BattlerSnapshot {
        side,
        name: name.into(),
        hp,
        max_hp: hp + 10,
        types: types.iter().map(|t| (*t).into()).collect(),
        vanished: hp % 2 == 0,
    }
}

fn contexts() -> Vec<BattleDamageArgs> {
    let mk =
        |turn: u32, class: Option<&str>, user: BattlerSnapshot, mv: (&str, u8)| BattleDamageArgs {
            ctx: DamageContext {
                battle: BattleInfo {
                    kind: if class.is_some() {
                        BattleKind::Trainer
                    } else {
                        BattleKind::Wild
                    },
                    opp_class: class.map(Into::into),
                    party_index: class.map(|_| 2),
                    turn,
                },
                user,
                target: battler(Side::Enemy, "ONIX", 40 + turn as u16, &["ROCK", "GROUND"]),
                move_info: MoveInfo {
                    id: mv.0.into(),
                    move_type: "NORMAL".into(),
                    power: mv.1,
                    accuracy: 255,
                },
                critical: turn % 3 == 0,
            },
        };
    vec![
        mk(
            1,
            None,
            battler(Side::Player, "PIKACHU", 35, &["ELECTRIC"]),
            ("TACKLE", 35),
        ),
        mk(
            2,
            None,
            battler(Side::Player, "PIKACHU", 35, &["ELECTRIC"]),
            ("TACKLE", 35),
        ),
        mk(
            3,
            Some("OPP_BROCK"),
            battler(Side::Player, "RAICHU", 60, &["ELECTRIC"]),
            ("SLAM", 80),
        ),
        mk(
            4,
            None,
            battler(Side::Player, "PIDGEY", 7, &["NORMAL", "FLYING"]),
            ("GUST", 40),
        ),
        mk(
            5,
            Some("OPP_MISTY"),
            battler(Side::Player, "PIDGEY", 8, &["NORMAL", "FLYING"]),
            ("GUST", 40),
        ),
        mk(
            6,
            None,
            battler(Side::Player, "PIKACHU", 35, &["ELECTRIC"]),
            ("TACKLE", 35),
        ),
    ]
}

/// The answers of `body` (a `(next, ctx)` function body) over [`contexts`], as a closure and
/// as a named function.
fn answers(body: &str) -> (Vec<u16>, Vec<u16>, Vec<String>) {
    let run = |main: String| {
        let m = manifest("m", &["hooks"]);
        let env = load(&[], &[("m", m.as_str(), main.as_str())]);
        let out: Vec<u16> = contexts()
            .into_iter()
            .map(|args| env.rt.call::<BattleDamage>(args, |_| 1000))
            .collect();
        (out, env.feed())
    };
    let (closure, feed1) = run(format!(
        "hooks.wrap(\"battle.damage\", |next, ctx| {{ {body} }});"
    ));
    let (named, feed2) = run(format!(
        "fn w(next, ctx) {{ {body} }}\nhooks.wrap(\"battle.damage\", Fn(\"w\"));"
    ));
    (closure, named, [feed1, feed2].concat())
}

#[test]
fn reading_some_fields_gives_what_the_whole_context_gives() {
    let bodies = [
        // Plain chains (read paths).
        "ctx.user.hp + ctx.target.maxHp",
        "if ctx.user.hp > 30 { next.call() } else { 7 }",
        "ctx.move.id.len() * 100 + ctx.move.power",
        "if ctx.battle.oppClass == () { 1 } else { ctx.battle.oppClass.len() }",
        "ctx.user.name.len() + ctx.user.name.len() + ctx.battle.turn",
        "if ctx.critical { 2 } else { 3 } + ctx?.battle.turn",
        "`${ctx.user.name}/${ctx.target.name}`.len()",
        "let t = ctx.user.types; t.len() * 10 + t[0].len()",
        "let u = ctx.user; u.hp + u.maxHp + ctx.user.types.len()",
        "switch ctx.move.id { \"TACKLE\" => 1, \"GUST\" => 2, _ => ctx.move.power }",
        "if ctx.user.vanished { next.call() + 1 } else { next.call() }",
        "let x = ctx.missing; if x == () { 4 } else { 5 }",
        "let ctx = #{ user: #{ hp: 9 } }; ctx.user.hp",
        // The whole context (no read paths).
        "ctx.keys().len() * 10 + ctx.user.keys().len()",
        "ctx.user.types.len() + ctx[\"target\"].hp",
        "ctx.user.hp = 1; ctx.user.hp + ctx.user.maxHp",
        "let c = ctx; c.user.hp",
        "let f = || ctx.target.hp; f.call() + 1",
        "type_of(ctx).len() + ctx.len()",
        "next.call(ctx) + 1",
    ];
    for body in bodies {
        let (closure, named, feed) = answers(body);
        assert!(feed.is_empty(), "{body}: {feed:?}");
        assert_eq!(closure, named, "{body}");
    }
}
