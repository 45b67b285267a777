//! Overworld hooks: `map.occupancy_allowed`, `movement.collision`, `warp.destination`,
//! `encounter.roll`, `encounter.table`.

use serde::{Deserialize, Serialize};

use super::int_in;
use crate::arg_list;
use crate::catalog::common::{Direction, GameInfo, GameVersion, Record};
use crate::hooks::{Hook, HookId};
use crate::reasons::OccupancyReason;
use crate::script::ScriptHook;
use crate::value::{Value, ValueError};

// ----- map.occupancy_allowed (RFC 0013) ------------------------------------------------------

/// `ctx` of `map.occupancy_allowed`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OccupancyContext {
    /// `"VERMILION_DOCK"` at the RFC 0013 site.
    pub map_id: String,
    /// Stable reason key, e.g. `"ss_anne_departed"`.
    pub reason: OccupancyReason,
    /// Active save version, when present.
    pub game_version: Option<GameVersion>,
    /// Player cell coordinates, when present.
    pub x: Option<i32>,
    pub y: Option<i32>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MapOccupancyAllowedArgs {
    pub game: GameInfo,
    pub ctx: OccupancyContext,
}
arg_list!(MapOccupancyAllowedArgs { game, ctx });

impl MapOccupancyAllowedArgs {
    /// The RFC 0013 site: the departed `VERMILION_DOCK`.
    pub fn at_dock(game: GameInfo, x: Option<i32>, y: Option<i32>) -> Self {
        let game_version = Some(game.version);
        MapOccupancyAllowedArgs {
            game,
            ctx: OccupancyContext {
                map_id: "VERMILION_DOCK".to_owned(),
                reason: OccupancyReason::SsAnneDeparted,
                game_version,
                x,
                y,
            },
        }
    }
}

/// `map.occupancy_allowed` — may the player stay on a map the script would eject them from?
/// Vanilla answers `false`; only an exact `true` permits.
pub struct MapOccupancyAllowed;

impl Hook for MapOccupancyAllowed {
    const NAME: &'static str = "map.occupancy_allowed";
    const ID: HookId = HookId(0);
    type Args = MapOccupancyAllowedArgs;
    type Out = bool;
}

impl ScriptHook for MapOccupancyAllowed {
    const SIGNATURE: &'static str = "(next, game, ctx) -> boolean";
    const RESULT_RULE: &'static str =
        "only exactly `true` permits; nil, false and anything malformed deny (fail closed)";
    fn out_from_value(value: Value) -> Result<bool, ValueError> {
        Ok(matches!(value, Value::Bool(true)))
    }
}

// ----- movement.collision --------------------------------------------------------------------

/// Who is moving.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Mover {
    /// `"player"` or `"npc"`.
    pub kind: String,
    /// NPC object name, when an NPC moves.
    pub id: Option<String>,
}

/// `ctx` of `movement.collision`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CollisionContext {
    pub map_id: String,
    pub mover: Mover,
    pub dir: Direction,
    pub from_x: i32,
    pub from_y: i32,
    pub to_x: i32,
    pub to_y: i32,
    /// Why vanilla refused (`"tile"`, `"entity"`, `"bounds"`), absent when it allowed.
    pub reason: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MovementCollisionArgs {
    /// Vanilla's verdict.
    pub allowed: bool,
    pub ctx: CollisionContext,
}
arg_list!(MovementCollisionArgs { allowed, ctx });

/// `movement.collision` — may this step happen? Vanilla passes `allowed` through.
pub struct MovementCollision;

impl Hook for MovementCollision {
    const NAME: &'static str = "movement.collision";
    const ID: HookId = HookId(13);
    type Args = MovementCollisionArgs;
    type Out = bool;
}

impl ScriptHook for MovementCollision {
    const SIGNATURE: &'static str = "(next, allowed, ctx) -> boolean";
    const RESULT_RULE: &'static str = "truthy allows the step, falsy blocks it";
    fn out_from_value(value: Value) -> Result<bool, ValueError> {
        Ok(value.truthy())
    }
}

// ----- warp.destination ----------------------------------------------------------------------

/// `ctx` of `warp.destination`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WarpContext {
    /// The warp record that was taken (data).
    #[serde(default)]
    pub warp: Record,
    /// The remembered outdoor map the resolution used, if any.
    pub last_map: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WarpDestinationArgs {
    pub map_id: String,
    pub x: i32,
    pub y: i32,
    pub ctx: WarpContext,
}
arg_list!(WarpDestinationArgs { map_id as "mapId", x, y, ctx });

/// Where a warp lands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WarpTarget {
    pub map_id: String,
    pub x: i32,
    pub y: i32,
}

/// `warp.destination` — reroute a resolved warp. Vanilla returns the resolved destination.
pub struct WarpDestination;

impl Hook for WarpDestination {
    const NAME: &'static str = "warp.destination";
    const ID: HookId = HookId(14);
    type Args = WarpDestinationArgs;
    type Out = WarpTarget;
}

impl ScriptHook for WarpDestination {
    const SIGNATURE: &'static str = "(next, mapId, x, y, ctx) -> mapId, x, y";
    const RESULT_RULE: &'static str =
        "three values: a non-empty map id and integer cell coordinates; anything else fails the link";
    const OUT_ARITY: usize = 3;
    fn out_to_value(out: &WarpTarget) -> Result<Value, ValueError> {
        Ok(Value::List(vec![
            Value::Str(out.map_id.clone()),
            Value::Int(out.x.into()),
            Value::Int(out.y.into()),
        ]))
    }
    fn out_from_value(value: Value) -> Result<WarpTarget, ValueError> {
        let items = value.as_list().unwrap_or(&[]);
        let map_id = match items.first() {
            Some(Value::Str(s)) if !s.is_empty() => s.clone(),
            _ => {
                return Err(ValueError::new(
                    "warp.destination must return a map id first",
                ))
            }
        };
        let coord = |i: usize| {
            int_in(
                items.get(i).unwrap_or(&Value::Nil),
                i32::MIN.into(),
                i32::MAX.into(),
                "coordinate",
            )
            .map(|v| v as i32)
        };
        Ok(WarpTarget {
            map_id,
            x: coord(1)?,
            y: coord(2)?,
        })
    }
}

// ----- encounter.roll ------------------------------------------------------------------------

/// `ctx` of `encounter.roll`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EncounterRollContext {
    pub map_id: String,
    /// `"grass"`, `"water"` or `"cave"`.
    pub terrain: String,
    /// `ctx.rng`: the engine-supplied random source of this roll (seeded from the game RNG
    /// without advancing it; see [`crate::script_rng`]). Absent → a fixed default seed.
    #[serde(default)]
    pub rng: crate::script_rng::ScriptRng,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EncounterRollArgs {
    /// The map's encounter table (data).
    #[serde(default)]
    pub enc_def: Record,
    pub ctx: EncounterRollContext,
}
arg_list!(EncounterRollArgs { enc_def as "encDef", ctx });

/// A wild encounter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Encounter {
    pub species: String,
    pub level: u8,
}

/// `encounter.roll` — does this step start a wild battle, and with what? Vanilla rolls the
/// encounter rate and slot; `nil` means no encounter.
pub struct EncounterRoll;

impl Hook for EncounterRoll {
    const NAME: &'static str = "encounter.roll";
    const ID: HookId = HookId(4);
    type Args = EncounterRollArgs;
    type Out = Option<Encounter>;
}

impl ScriptHook for EncounterRoll {
    const SIGNATURE: &'static str = "(next, encDef, ctx) -> {species, level} | nil";
    const CTX_RNG: bool = true;
    const RESULT_RULE: &'static str =
        "nil means no encounter; otherwise {species = id, level = 1..100}; anything else fails the link";
    fn out_from_value(value: Value) -> Result<Option<Encounter>, ValueError> {
        if value.is_nil() {
            return Ok(None);
        }
        let species = match value.get("species") {
            Some(Value::Str(s)) if !s.is_empty() => s.clone(),
            _ => return Err(ValueError::new("encounter needs a species id")),
        };
        let level = int_in(value.get("level").unwrap_or(&Value::Nil), 1, 100, "level")? as u8;
        Ok(Some(Encounter { species, level }))
    }
}

// ----- encounter.table -----------------------------------------------------------------------

/// One slot of a wild encounter table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EncounterSlotDef {
    pub species: String,
    pub level: u8,
}

/// A wild encounter table as `encounter.table` sees and answers it (the `encDef` shape of
/// `encounter.roll`): the rate out of 256 and up to ten weighted slots.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EncounterTableDef {
    pub grass_rate: u8,
    pub grass: Vec<EncounterSlotDef>,
}

/// Most slots a Gen 1 table has.
pub const ENCOUNTER_SLOTS: usize = 10;

/// `ctx` of `encounter.table`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EncounterTableContext {
    pub map_id: String,
    /// `"grass"` (the engine's only terrain with encounters).
    pub terrain: String,
    /// Player cell coordinates.
    pub x: i32,
    pub y: i32,
    /// `true` when the table is only previewed (no roll follows).
    pub preview: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EncounterTableArgs {
    /// The map's table (a map without one: rate 0, no slots).
    pub table: EncounterTableDef,
    pub ctx: EncounterTableContext,
}
arg_list!(EncounterTableArgs { table, ctx });

/// `encounter.table` — the wild table the roll of this step uses. Vanilla returns the map's
/// table; the answer is validated (species unknown to the dataset are refused at the site).
pub struct EncounterTable;

impl Hook for EncounterTable {
    const NAME: &'static str = "encounter.table";
    const ID: HookId = HookId(29);
    type Args = EncounterTableArgs;
    type Out = EncounterTableDef;
}

impl ScriptHook for EncounterTable {
    const SIGNATURE: &'static str = "(next, table, ctx) -> table";
    const RESULT_RULE: &'static str = "{grassRate = 0..255, grass = up to 10 {species = id, \
         level = 1..100}}; anything else fails the link, an unknown species is refused at the site";
    fn out_from_value(value: Value) -> Result<EncounterTableDef, ValueError> {
        let grass_rate = int_in(
            value.get("grassRate").unwrap_or(&Value::Nil),
            0,
            255,
            "grassRate",
        )? as u8;
        let rows = match value.get("grass") {
            Some(Value::List(rows)) => rows.as_slice(),
            Some(Value::Map(m)) if m.is_empty() => &[],
            _ => return Err(ValueError::new("encounter table needs a grass slot list")),
        };
        if rows.len() > ENCOUNTER_SLOTS {
            return Err(ValueError::new(format!(
                "encounter table has {} slots, at most {ENCOUNTER_SLOTS}",
                rows.len()
            )));
        }
        let mut grass = Vec::with_capacity(rows.len());
        for row in rows {
            let species = match row.get("species") {
                Some(Value::Str(s)) if !s.is_empty() => s.clone(),
                _ => return Err(ValueError::new("encounter slot needs a species id")),
            };
            let level = int_in(row.get("level").unwrap_or(&Value::Nil), 1, 100, "level")? as u8;
            grass.push(EncounterSlotDef { species, level });
        }
        Ok(EncounterTableDef { grass_rate, grass })
    }
}
