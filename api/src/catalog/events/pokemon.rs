//! Pokémon events: `pokemon.caught`, `pokemon.level_up`, `pokemon.evolved`, `pokemon.move_learned`,
//! `pokemon.before_give`, `pokemon.received`.

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

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PokemonEvolvedPayload {
    /// The mon after evolving.
    #[serde(default)]
    pub mon: Record,
    pub from_species: String,
    pub to_species: String,
    /// `"level"`, `"item"` or `"trade"`.
    pub via: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PokemonMoveLearnedPayload {
    #[serde(default)]
    pub mon: Record,
    pub move_id: String,
    /// The move it replaced, when the mon already knew four.
    pub forgot: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PokemonBeforeGivePayload {
    /// The mon about to be given (detached; changing it changes nothing — wrap `pokemon.give`).
    #[serde(default)]
    pub mon: Record,
    pub species: String,
    pub level: u8,
    pub game: GameInfo,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PokemonReceivedPayload {
    #[serde(default)]
    pub mon: Record,
    /// `"gift"` for a script or mod gift, `"trade"` for a trade.
    pub from: String,
    /// The trading partner's name, for trades.
    pub peer_name: Option<String>,
    /// `"party"` or `"box"`.
    pub destination: CatchDestination,
}

event!(
    /// A mon evolved.
    PokemonEvolved, "pokemon.evolved", 22, PokemonEvolvedPayload
);
event!(
    /// A mon learned a move (level-up learnset).
    PokemonMoveLearned, "pokemon.move_learned", 23, PokemonMoveLearnedPayload
);
event!(
    /// A gift mon is about to be given (kept from the Lua engine; `pokemon.give` supersedes it).
    PokemonBeforeGive, "pokemon.before_give", 24, PokemonBeforeGivePayload
);
event!(
    /// A mon joined the player (a gift or a trade), after it was stored.
    PokemonReceived, "pokemon.received", 25, PokemonReceivedPayload
);
