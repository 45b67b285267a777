//! Battle events: `battle.started`, `battle.turn_ended`, `battle.fainted`, `battle.ended`, and the
//! flow events `battle.turn_started`, `battle.move_used`, `battle.damage_dealt`,
//! `battle.status_inflicted`, `battle.battler_switched`, `battle.ball_thrown`, `battle.exp_gained`.

use serde::{Deserialize, Serialize};

use super::event;
use crate::catalog::common::{BattleInfo, BattleKind, BattlerSnapshot, MoveInfo, Record, Side};

/// The `battle` of `battle.started`: the summary every battle event carries and, in a wild
/// battle, the wild mon as it was rolled (`enemy.mon`; the Lua engine's `ev.battle.enemy.mon`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StartedBattle {
    pub kind: BattleKind,
    pub opp_class: Option<String>,
    pub party_index: Option<u16>,
    pub turn: u32,
    /// `{mon}` in wild battles (absent in trainer battles).
    pub enemy: Option<StartedEnemy>,
}

impl StartedBattle {
    /// `info` with the wild mon `enemy`.
    pub fn new(info: BattleInfo, enemy: Option<StartedEnemy>) -> StartedBattle {
        StartedBattle {
            kind: info.kind,
            opp_class: info.opp_class,
            party_index: info.party_index,
            turn: info.turn,
            enemy,
        }
    }
}

/// `battle.enemy` of `battle.started`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StartedEnemy {
    pub mon: WildMon,
}

/// A wild mon as `battle.started` shows it: species id, level and DVs (the save file's
/// spelling `{atk, def, spe, spc}`; Lua reads `{attack, defense, speed, special}`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WildMon {
    pub species: String,
    pub level: u8,
    pub dvs: MonDvs,
}

/// Four DVs (0..=15).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MonDvs {
    pub atk: u8,
    pub def: u8,
    pub spe: u8,
    pub spc: u8,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BattleStartedPayload {
    pub battle: StartedBattle,
    pub kind: BattleKind,
    /// Trainer class id for trainer battles.
    pub trainer_id: Option<String>,
    /// Wild species id for wild battles.
    pub species: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BattleTurnEndedPayload {
    pub battle: BattleInfo,
    /// `turnCount or 0`.
    pub turn: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BattleFaintedPayload {
    pub battle: BattleInfo,
    pub battler: BattlerSnapshot,
}

/// How a battle ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BattleResult {
    Win,
    Lose,
    Run,
    Caught,
    /// Neither side won (only a turn limit set by the embedder ends a Gen 1 battle this way).
    Draw,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BattleEndedPayload {
    pub battle: BattleInfo,
    pub result: BattleResult,
    /// The battle was skipped rather than fought.
    pub skipped: Option<bool>,
}

event!(
    /// A battle began.
    BattleStarted, "battle.started", 5, BattleStartedPayload
);
event!(
    /// End of a round (after residuals, the field hook and token ticks).
    BattleTurnEnded, "battle.turn_ended", 6, BattleTurnEndedPayload
);
event!(
    /// A battler fainted.
    BattleFainted, "battle.fainted", 7, BattleFaintedPayload
);
event!(
    /// A battle ended.
    BattleEnded, "battle.ended", 8, BattleEndedPayload
);

// ----- the Lua engine's battle flow events (issue 17) ------------------------------------------

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BattleTurnStartedPayload {
    pub battle: BattleInfo,
    /// The turn that starts (the Gen 1 turn counter after its increment).
    pub turn: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BattleMoveUsedPayload {
    pub battle: BattleInfo,
    pub user: BattlerSnapshot,
    #[serde(rename = "move")]
    pub move_info: MoveInfo,
    pub move_id: String,
    /// The move was picked by Metronome or Mirror Move rather than chosen.
    pub is_called: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BattleDamageDealtPayload {
    pub battle: BattleInfo,
    pub attacker: BattlerSnapshot,
    /// The target after the hit.
    pub target: BattlerSnapshot,
    /// HP actually removed (0 when a Substitute took the hit).
    pub amount: u16,
    pub critical: bool,
    pub move_id: String,
    /// A Substitute absorbed the hit.
    pub substitute: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BattleStatusInflictedPayload {
    pub battle: BattleInfo,
    pub target: BattlerSnapshot,
    /// `"SLP"`, `"PSN"`, `"BRN"`, `"FRZ"` or `"PAR"`.
    pub status: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BattleBattlerSwitchedPayload {
    pub battle: BattleInfo,
    pub side: Side,
    /// The battler now in (after the send-out).
    pub battler: BattlerSnapshot,
    /// Its party slot (0-based).
    pub slot: u8,
    /// The party slot it replaced, for a switch (absent for a send-out after a faint).
    pub from_slot: Option<u8>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BattleBallThrownPayload {
    pub battle: BattleInfo,
    /// Item id, e.g. `"POKE_BALL"`.
    pub ball: String,
    pub caught: bool,
    /// Wobbles shown (0..=3).
    pub shakes: u8,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BattleExpGainedPayload {
    pub battle: BattleInfo,
    /// The mon after the EXP was added (before any level-up).
    #[serde(default)]
    pub mon: Record,
    /// Party slot (0-based).
    pub slot: u8,
    pub amount: u32,
}

event!(
    /// A round begins (after both choices, before any action).
    BattleTurnStarted, "battle.turn_started", 15, BattleTurnStartedPayload
);
event!(
    /// A move was announced ("X used Y!"), before its damage.
    BattleMoveUsed, "battle.move_used", 16, BattleMoveUsedPayload
);
event!(
    /// A move's hit was applied to its target.
    BattleDamageDealt, "battle.damage_dealt", 17, BattleDamageDealtPayload
);
event!(
    /// A battler received a non-volatile status from a move.
    BattleStatusInflicted, "battle.status_inflicted", 18, BattleStatusInflictedPayload
);
event!(
    /// A new battler came in (a switch or a send-out after a faint).
    BattleBattlerSwitched, "battle.battler_switched", 19, BattleBattlerSwitchedPayload
);
event!(
    /// A ball was thrown (after the capture roll, before `pokemon.caught`).
    BattleBallThrown, "battle.ball_thrown", 20, BattleBallThrownPayload
);
event!(
    /// A party mon received EXP (before its level-ups).
    BattleExpGained, "battle.exp_gained", 21, BattleExpGainedPayload
);
