//! Overworld events: `map.entered`, `map.exited`, `world.stepped`, `world.block_replaced`,
//! `world.interacted`, `world.trainer_engaged`, `world.object_toggled`, `world.blacked_out`,
//! `map.reloaded`, `player.warped`, `flag.changed`, `script.started`, `script.ended`.

use serde::{Deserialize, Serialize};

use super::event;
use crate::catalog::common::{Direction, Record};

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

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WorldInteractedPayload {
    pub map_id: String,
    /// The cell the player faced.
    pub x: i32,
    pub y: i32,
    /// `"npc"` or `"sign"`.
    pub kind: String,
    /// The text constant of the NPC or sign.
    pub text: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WorldTrainerEngagedPayload {
    pub map_id: String,
    /// The class as the Lua engine spells it (`OPP_BUG_CATCHER`).
    pub trainer_class: String,
    /// The party within the class, counting from 1.
    pub party_index: u16,
    /// The trainer's display name.
    pub name: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WorldObjectToggledPayload {
    pub map_id: String,
    pub obj_name: String,
    pub visible: bool,
}

/// Where a blackout sends the player.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HealTarget {
    pub map_id: String,
    pub x: i32,
    pub y: i32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WorldBlackedOutPayload {
    /// The save after the blackout's changes (detached).
    #[serde(default)]
    pub save: Record,
    pub heal_target: HealTarget,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MapReloadedPayload {
    pub map_id: String,
    /// Why the map was rebuilt, e.g. `"checkpoint"`.
    pub reason: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlayerWarpedPayload {
    pub from_map_id: String,
    pub map_id: String,
    pub x: i32,
    pub y: i32,
    pub facing: Direction,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FlagChangedPayload {
    pub name: String,
    pub value: bool,
}

/// `ctx` of `script.started` / `script.ended`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScriptRunContext {
    /// Where the script came from, e.g. `"VERMILION_DOCK.onEnter"` or a mod's queue source.
    pub source: String,
    pub map_id: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScriptStartedPayload {
    pub ctx: ScriptRunContext,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScriptEndedPayload {
    pub ctx: ScriptRunContext,
    /// Every row ran (false when the script was cut short).
    pub completed: bool,
}

event!(
    /// The player pressed A at an NPC or a sign (before its talk handler or text).
    WorldInteracted, "world.interacted", 26, WorldInteractedPayload
);
event!(
    /// A trainer engaged the player (before its battle starts).
    WorldTrainerEngaged, "world.trainer_engaged", 27, WorldTrainerEngagedPayload
);
event!(
    /// A map object was shown or hidden.
    WorldObjectToggled, "world.object_toggled", 28, WorldObjectToggledPayload
);
event!(
    /// The player blacked out (after the money loss and the heal, as the warp starts).
    WorldBlackedOut, "world.blacked_out", 29, WorldBlackedOutPayload
);
event!(
    /// The active map was rebuilt in place.
    MapReloaded, "map.reloaded", 30, MapReloadedPayload
);
event!(
    /// A warp put the player on its destination (after `map.exited`, before `map.entered`).
    PlayerWarped, "player.warped", 31, PlayerWarpedPayload
);
event!(
    /// A story flag changed value.
    FlagChanged, "flag.changed", 32, FlagChangedPayload
);
event!(
    /// A script began running its rows.
    ScriptStarted, "script.started", 33, ScriptStartedPayload
);
event!(
    /// A script finished.
    ScriptEnded, "script.ended", 34, ScriptEndedPayload
);
