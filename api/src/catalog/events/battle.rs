//! Battle events: `battle.started`, `battle.turn_ended`, `battle.fainted`, `battle.ended`.

use serde::{Deserialize, Serialize};

use super::event;
use crate::catalog::common::{BattleInfo, BattleKind, BattlerSnapshot};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BattleStartedPayload {
    pub battle: BattleInfo,
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
