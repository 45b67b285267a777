//! The battle kind (RFC 0005, as the Lua engine added it): a data-only mirror of a
//! running battle at its safe boundary, the boundary check itself, and the detached rebuild.
//!
//! The model is a **separate mirror** of [`Battle`], not serde derives on the battle's own types
//! (see `docs/decisions.md`): species, moves and types are stored by their stable ids, stages as
//! −6..=6, volatile status bits by name, parties as save [`MonRecord`]s. Capture and rebuild
//! destructure [`Battle`], [`SideState`], [`Battler`] and [`BattleSession`] **exhaustively**, so a
//! field added to any of them does not compile until it is either mirrored here or declared
//! transient. Whatever the model does not hold is rebuilt from the same content (the matchup
//! index, the dataset) or is empty at the safe boundary (queued rows, the result, a catch).
//!
//! This module holds the model's record types, the boundary check and the shared failure
//! constructor; the names the model uses, its capture and its rebuild live in the submodules.

use std::collections::BTreeMap;

use pallet_api::catalog::common::GameInfo;
use pallet_api::facades::CheckpointFailure;
use pallet_api::reasons::CheckpointCode;
use pallet_api::Value;
use serde::{Deserialize, Serialize};

use crate::battle::Phase;
#[cfg(doc)]
use crate::battle::{Battle, Battler, SideState};
use crate::game::BattleSession;
use crate::pokemon::MOVE_SLOTS;
use crate::rng::Rng;
use crate::save::data::Pokedex;
use crate::save::record::MonRecord;

mod capture;
mod names;
mod rebuild;

pub(crate) use capture::capture_model;
pub(crate) use rebuild::rebuild;

/// `phase` of every captured battle: the player's choice between rounds (the reference's
/// `"menu"`), the only safe boundary.
pub const PHASE_MENU: &str = "menu";
/// Highest turn counter a record may hold (the battle adds one per round).
pub const MAX_TURN: u32 = 1_000_000;
/// Most Pay Day money a battle holds (the cartridge's money cap).
pub const MAX_PAY_DAY: u32 = 999_999;
/// `origin.kind` of a wild battle.
pub const ORIGIN_WILD: &str = "wild_encounter";
/// `origin.kind` of a trainer battle.
pub const ORIGIN_TRAINER: &str = "trainer_encounter";

/// The battle model (`runtime.battle`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BattleModel {
    /// `"wild"` or `"trainer"`.
    pub kind: String,
    /// The trainer of a trainer battle.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trainer: Option<TrainerRecord>,
    pub origin: OriginRecord,
    /// Always [`PHASE_MENU`].
    pub phase: String,
    /// The Gen 1 turn counter.
    pub turn: u32,
    pub player: BattlerRecord,
    pub enemy: BattlerRecord,
    /// The battle's own copy of the player's party (HP, PP, status, EXP live here until the
    /// battle ends; `save.party` is the party as it was when the battle began).
    pub player_party: Vec<MonRecord>,
    /// The wild mon, or the trainer's roster.
    pub enemy_party: Vec<MonRecord>,
    /// `[{index = 1, …}, {index = 2, …}]`: player side, enemy side.
    pub sides: Vec<SideRecord>,
    pub field: FieldRecord,
    /// Player party indices (0-based) that gained a level this battle, ascending.
    pub leveled_up: Vec<u8>,
    /// The battle's random source, `{state = "<16 hex digits>"}`.
    #[serde(with = "crate::rng::hex")]
    pub rng: Rng,
    /// The cartridge's shared `wDamage` (Counter and Bide read it across rounds).
    pub last_damage: u16,
    pub move_missed: bool,
    pub crit: bool,
    /// `"none"`, `"hit"`, `"failed"`.
    pub ohko: String,
    /// Effectiveness of the last damage calculation, in tenths.
    pub effectiveness: u8,
    pub run_attempts: u8,
    pub pay_day: u32,
    /// `"shift"` or `"set"`.
    pub style: String,
    pub player_name: String,
    /// Mod-supplied message strings the battle's text rows reference.
    pub mod_texts: Vec<String>,
    /// `battle.started` has been emitted.
    pub started: bool,
    pub escaped: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_limit: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player_id: Option<u16>,
    /// The player's boxes and Pokédex lent to the capture path for this battle.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capture_store: Option<CaptureStoreRecord>,
    /// The trainer AI's `wAILayer2Encouragement` (enemy move executions since its last
    /// send-out); absent when 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub ai_layer2: u8,
}

fn is_zero(v: &u8) -> bool {
    *v == 0
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TrainerRecord {
    pub class: String,
    pub index: u16,
    pub name: String,
}

/// Where the battle came from (the reference's `checkpointOrigin`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OriginRecord {
    /// [`ORIGIN_WILD`] or [`ORIGIN_TRAINER`].
    pub kind: String,
    /// The overworld map under the battle (equal to `runtime.overworld.map`).
    pub map: String,
    /// `MAP:CLASS:INDEX`, recorded as defeated on a win (trainer battles).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trainer_key: Option<String>,
    /// Prize money for a win.
    pub prize: u32,
}

/// The active battler: the cartridge's `wBattleMon`/`wEnemyMon` copy and volatile state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BattlerRecord {
    /// Party index (0-based) the battler came from.
    pub slot: u8,
    pub species: String,
    pub types: [String; 2],
    pub level: u8,
    /// Attack, Defense, Speed, Special as modified by stages and status penalties.
    pub stats: [u16; 4],
    /// The same before stages.
    pub unmod: [u16; 4],
    /// Attack, Defense, Speed, Special, Accuracy, Evasion stages, −6..=6.
    pub stages: [i8; 6],
    /// Move ids by slot; `""` is an empty slot.
    pub moves: [String; MOVE_SLOTS],
    pub pp: [u8; MOVE_SLOTS],
    /// Volatile status names (`"confused"`, `"seeded"`, `"substitute"`, …), in bit order.
    pub volatile: Vec<String>,
    pub confusion_turns: u8,
    pub toxic_counter: u8,
    pub disabled_slot: u8,
    pub disable_turns: u8,
    pub attacks_left: u8,
    pub hits: u8,
    pub bide_damage: u16,
    pub substitute_hp: u8,
    /// The move chosen last; `""` is the cleared selection; absent: could not act (`$FF`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selected: Option<String>,
    /// The move last printed as used (Mirror Move reads it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub used: Option<String>,
    pub move_slot: u8,
    /// The loaded move data (the cartridge's `wPlayerMove*`; Counter reads the opponent's).
    pub cur: CurMoveRecord,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CurMoveRecord {
    /// Move id, `""` for none.
    pub id: String,
    /// Effect routine name (`"NoAdditionalEffect"`, `"DrainHp"`, …).
    pub effect: String,
    pub power: u8,
    #[serde(rename = "type")]
    pub ty: String,
    /// Accuracy out of 256.
    pub accuracy: u8,
}

/// One side's field state (`sides[i]`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SideRecord {
    /// 1 (player) or 2 (enemy).
    pub index: u8,
    /// Party index of the active mon.
    pub active: u8,
    pub screens: ScreensRecord,
    pub tokens: Vec<TokenRecord>,
    /// Party indices that fought the current enemy mon and are still standing, ascending.
    pub participants: Vec<u8>,
    pub faint_queued: bool,
    pub acted_outside_moves: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ScreensRecord {
    pub reflect: bool,
    pub light_screen: bool,
}

/// `field = {weather, tokens}` (no `sides` back-reference).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FieldRecord {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weather: Option<String>,
    pub tokens: Vec<TokenRecord>,
}

/// A data-only token (`{id, turns?, data}`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TokenRecord {
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turns: Option<i32>,
    pub data: BTreeMap<String, Value>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CaptureStoreRecord {
    /// Twelve boxes of save records.
    pub boxes: Vec<Vec<MonRecord>>,
    /// 1..=12.
    pub current_box: i64,
    pub pokedex: Pokedex,
    pub met_bill: bool,
    pub ot_name: String,
    pub ot_id: u16,
    pub game: GameInfo,
}

fn fail(code: CheckpointCode, message: impl Into<String>) -> CheckpointFailure {
    CheckpointFailure {
        code,
        message: message.into(),
    }
}

/// Reference `BattleSafety` step 5 on a live battle: `Some(battle_phase_busy)` unless the
/// player is at the menu between rounds with nothing queued, nobody fainting and no locked
/// action; link battles are refused first.
pub(crate) fn boundary_refusal(session: &BattleSession) -> Option<CheckpointCode> {
    let b = &session.battle;
    if b.link_rules {
        return Some(CheckpointCode::LinkBattleUnsupported);
    }
    let busy = b.phase != Phase::Round
        || b.pending.is_some()
        || !b.rows.is_empty()
        || b.result.is_some()
        || b.caught.is_some()
        || b.sides.iter().any(|s| s.faint_queued || s.mon().hp == 0)
        || b.locked(crate::battle::Side::Player);
    busy.then_some(CheckpointCode::BattlePhaseBusy)
}

#[cfg(test)]
mod tests {
    use pallet_api::reasons::CheckpointCode;
    use pallet_api::Runtime;

    use super::boundary_refusal;
    use crate::battle::{Action, Battle, BattleKind};
    use crate::data::gen1;
    use crate::game::BattleSession;
    use crate::pokemon::{Dvs, Pokemon};
    use crate::rng::Rng;

    fn session() -> BattleSession {
        let data = gen1();
        let mon = |name: &str, level| {
            Pokemon::new(
                data,
                data.species_by_name(name).unwrap(),
                level,
                Dvs::uniform(8),
            )
        };
        let mut battle = Battle::new(
            data,
            BattleKind::Wild,
            vec![mon("CHARMANDER", 20)],
            vec![mon("RATTATA", 30)],
            Rng::new(3),
        );
        battle.clear_rows();
        BattleSession {
            battle,
            trainer_key: None,
            prize: 0,
        }
    }

    #[test]
    fn queued_rows_and_link_rules_are_not_a_boundary() {
        let mut s = session();
        assert_eq!(boundary_refusal(&s), None);
        // A round whose rows a front end has not drained yet (still being shown).
        s.battle
            .submit(&Runtime::new(), Action::Move(0), Action::Move(0))
            .unwrap();
        assert_eq!(s.battle.result(), None, "the first round decides nothing");
        assert!(!s.battle.peek_rows().is_empty());
        assert_eq!(boundary_refusal(&s), Some(CheckpointCode::BattlePhaseBusy));
        s.battle.clear_rows();
        assert_eq!(boundary_refusal(&s), None);
        let mut s = session();
        s.battle.set_link_rules(true);
        assert_eq!(
            boundary_refusal(&s),
            Some(CheckpointCode::LinkBattleUnsupported)
        );
    }
}
