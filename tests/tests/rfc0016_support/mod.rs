//! Shared helpers of the `rfc0016_*` integration tests: mons and battles through the public
//! `Battle` API with a `ScriptedRng`, rendered queue rows, and in-memory Rhai mods loaded with
//! `rfc_support` (the api `Loader` with a `RhaiHost`).
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use pallet_api::Runtime;
use pallet_engine::battle::{Action, Battle, BattleKind, Row, ScriptedRng};
use pallet_engine::data::gen1;
use pallet_engine::pokemon::{Dvs, Pokemon};
use pallet_engine::world::GameVersion;

use super::rfc_support::{load, Mods};

pub const HOOKS: &[&str] = &["hooks"];

pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/mods")
        .join(name)
}

/// A level-`level` mon knowing `moves` with 100 HP (`hp` left) and Speed `spe`.
pub fn mon(species: &str, level: u8, moves: &[&str], hp: u16, spe: u16) -> Pokemon {
    let d = gen1();
    let mut m = Pokemon::new(
        d,
        d.species_by_name(species).expect("species"),
        level,
        Dvs::MAX,
    );
    m.moves = [None; 4];
    m.pp = [0; 4];
    for (i, name) in moves.iter().enumerate() {
        let id = d.move_by_name(name).expect("move");
        m.moves[i] = Some(id);
        m.pp[i] = d.move_data(id).pp;
    }
    m.stats.max_hp = 100;
    m.hp = hp;
    m.stats.spe = spe;
    m
}

/// A fast SPLASH user (a SPLASH round draws no random byte).
pub fn fast(species: &str, hp: u16) -> Pokemon {
    mon(species, 20, &["SPLASH"], hp, 100)
}

pub fn slow(species: &str, hp: u16) -> Pokemon {
    mon(species, 10, &["SPLASH"], hp, 10)
}

pub fn trainer() -> BattleKind {
    BattleKind::Trainer {
        class: "BUG_CATCHER".into(),
        index: 0,
        name: "BUG CATCHER".into(),
    }
}

pub fn battle(
    kind: BattleKind,
    p: Vec<Pokemon>,
    e: Vec<Pokemon>,
    bytes: &[u8],
) -> Battle<ScriptedRng> {
    let mut b = Battle::new(gen1(), kind, p, e, ScriptedRng::new(bytes));
    b.clear_rows();
    b
}

/// Drain the queue: texts as shown, HP drains as `(player 100->93)`, faint slides as
/// `(faint enemy)`, send-outs as `(send out enemy 1)`.
pub fn drain(b: &mut Battle<ScriptedRng>) -> Vec<String> {
    let rows: Vec<Row> = b.rows().collect();
    rows.iter()
        .filter_map(|r| match r {
            Row::Text(_) => r.render(b),
            Row::HpDrain { side, from, to, .. } => {
                Some(format!("({} {from}->{to})", side.as_str()))
            }
            Row::Faint(side) => Some(format!("(faint {})", side.as_str())),
            Row::SendOut(w) => Some(format!("(send out {} {})", w.side.as_str(), w.slot)),
            _ => None,
        })
        .collect()
}

/// `lines` without the SPLASH texts (what is left is what the round's residuals queued).
pub fn after_moves(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter(|l| !l.contains("used SPLASH") && *l != "No effect!" && *l != "Nothing happened!")
        .cloned()
        .collect()
}

pub fn round(b: &mut Battle<ScriptedRng>, rt: &Runtime) -> Vec<String> {
    b.submit(rt, Action::Move(0), Action::Move(0))
        .expect("round");
    after_moves(&drain(b))
}

#[track_caller]
pub fn drained(b: &Battle<ScriptedRng>) {
    if let Err(e) = b.rng().check_drained() {
        panic!("scripted RNG: {e}");
    }
}

pub fn load_rhai(memory: &[(&str, &[&str], &str)]) -> Mods {
    load(GameVersion::Red, &[], memory)
}

/// A mod answering `rows` (a Rhai expression) after `next`'s rows.
pub fn answering(rows: &str) -> String {
    format!(
        "hooks.wrap(\"battle.field_residual\", |next, ctx| {{\n    let rows = next.call();\n    for r in {rows} {{ rows.push(r); }}\n    rows\n}});\n"
    )
}
