//! Plain data shared by hook arguments and event payloads. Detached snapshots: mutating them
//! never changes live engine state. Field names as mods see them are the serde names
//! (camelCase, as in the Lua engine).

use serde::{Deserialize, Serialize};

use crate::value::Value;

/// The game versions Pallet knows (active: red/blue/yellow; importable datasets: gold/silver).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum GameVersion {
    #[default]
    Red,
    Blue,
    Yellow,
    Gold,
    Silver,
}

impl GameVersion {
    pub const ALL: [GameVersion; 5] = [
        GameVersion::Red,
        GameVersion::Blue,
        GameVersion::Yellow,
        GameVersion::Gold,
        GameVersion::Silver,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            GameVersion::Red => "red",
            GameVersion::Blue => "blue",
            GameVersion::Yellow => "yellow",
            GameVersion::Gold => "gold",
            GameVersion::Silver => "silver",
        }
    }

    pub fn parse(s: &str) -> Option<GameVersion> {
        GameVersion::ALL.into_iter().find(|v| v.as_str() == s)
    }

    pub fn generation(self) -> u8 {
        match self {
            GameVersion::Red | GameVersion::Blue | GameVersion::Yellow => 1,
            GameVersion::Gold | GameVersion::Silver => 2,
        }
    }
}

/// The `game` a hook or event hands a mod: a detached summary, never the live game.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GameInfo {
    pub version: GameVersion,
    /// Present once a playthrough identity exists.
    pub playthrough_id: Option<String>,
    /// The active map, when an overworld exists.
    pub map_id: Option<String>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BattleKind {
    #[default]
    Wild,
    Trainer,
}

/// The `battle` a hook or event hands a mod: a detached summary.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BattleInfo {
    pub kind: BattleKind,
    /// Trainer class id as the Lua engine spells it (`"OPP_RIVAL1"`; a mod's own class as it
    /// registered it) for trainer battles.
    pub opp_class: Option<String>,
    /// Party index of the trainer within its class, counting from 1.
    pub party_index: Option<u16>,
    /// The Gen 1 turn counter.
    pub turn: u32,
}

/// Which side of a battle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Player,
    Enemy,
}

impl Side {
    pub fn as_str(self) -> &'static str {
        match self {
            Side::Player => "player",
            Side::Enemy => "enemy",
        }
    }
}

/// A detached battler view `{side, name, hp, maxHp, types, vanished}` (RFC 0016).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BattlerSnapshot {
    pub side: Side,
    pub name: String,
    pub hp: u16,
    pub max_hp: u16,
    /// Type ids, e.g. `["FIRE", "FLYING"]` (one entry for single-typed mons).
    pub types: Vec<String>,
    /// Semi-invulnerable (Fly/Dig) this turn.
    pub vanished: bool,
}

/// `{player, enemy}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Battlers {
    pub player: BattlerSnapshot,
    pub enemy: BattlerSnapshot,
}

/// A move as hooks see it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MoveInfo {
    /// Move id, e.g. `"TACKLE"`.
    pub id: String,
    /// Type id, e.g. `"NORMAL"`.
    #[serde(rename = "type")]
    pub move_type: String,
    pub power: u8,
    /// Accuracy as the cartridge stores it (0..=255 scale).
    pub accuracy: u8,
}

/// Cardinal direction (overworld facing and movement).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    Up,
    Down,
    Left,
    Right,
}

/// A detached record (a mon, a species definition, a save) handed to mods as data.
pub type Record = Value;
