//! Overworld events: `map.entered`, `map.exited`, `world.stepped`, `world.block_replaced`.

use serde::{Deserialize, Serialize};

use super::event;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MapEnteredPayload {
    pub map_id: String,
    pub from_map_id: Option<String>,
    /// How the player arrived: `"warp"`, `"connection"`, `"fly"`, `"load"`, …
    pub via: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MapExitedPayload {
    pub map_id: String,
    pub to_map_id: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WorldSteppedPayload {
    pub map_id: String,
    pub x: i32,
    pub y: i32,
    /// Tile id under the player, when known.
    pub tile: Option<u16>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WorldBlockReplacedPayload {
    pub map_id: String,
    pub bx: i32,
    pub by: i32,
    pub block: u8,
}

event!(
    /// The player entered a map (not emitted on checkpoint restores).
    MapEntered, "map.entered", 1, MapEnteredPayload
);
event!(
    /// The player left a map.
    MapExited, "map.exited", 2, MapExitedPayload
);
event!(
    /// The player finished a step onto a cell.
    WorldStepped, "world.stepped", 3, WorldSteppedPayload
);
event!(
    /// A block of the active map was replaced.
    WorldBlockReplaced, "world.block_replaced", 4, WorldBlockReplacedPayload
);
