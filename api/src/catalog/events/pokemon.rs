//! Pokémon events: `pokemon.caught`, `pokemon.level_up`.

use serde::{Deserialize, Serialize};

use super::event;
use crate::catalog::common::{BattleInfo, GameInfo, Record};

/// Where a caught mon went.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CatchDestination {
    Party,
    Box,
    /// A `catch.party_full` link took custody (RFC 0018).
    Mod,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PokemonCaughtPayload {
    pub battle: BattleInfo,
    #[serde(default)]
    pub mon: Record,
    pub species: String,
    pub is_new: bool,
    pub ball: String,
    pub destination: CatchDestination,
    pub game: GameInfo,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PokemonLevelUpPayload {
    #[serde(default)]
    pub mon: Record,
    pub level: u8,
    pub prev_level: u8,
    /// Move ids learnable at the new level.
    pub learnable: Vec<String>,
}

event!(
    /// A wild mon was caught.
    PokemonCaught, "pokemon.caught", 9, PokemonCaughtPayload
);
event!(
    /// A mon gained a level.
    PokemonLevelUp, "pokemon.level_up", 10, PokemonLevelUpPayload
);
