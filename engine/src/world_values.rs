//! How the world's state reads to a mod, shared by the `world` facade ([`crate::world_facade`],
//! on the lent game) and the mid-tick read view ([`crate::world_reads`], on published copies):
//! the `current()` and `map_overview()` records, flag-name validation, and the reasons of the
//! reads' failures.

use pallet_api::facades::WorldFailure;
use pallet_api::Value;

use crate::world::{Direction, Overworld};

pub const NO_OVERWORLD: &str = "no overworld";
pub const INVALID_FLAG: &str = "invalid flag name";
pub const BATTLE_RUNNING: &str = "a battle is already running";
pub const MID_WARP: &str = "the world is mid-warp";
pub const NO_HEALTHY_PARTY: &str = "no healthy party";
pub const INVALID_NPC: &str = "invalid npc";
pub const MAP_NOT_LIVE: &str = "map is not live";
pub const UNKNOWN_SPECIES: &str = "unknown species";
pub const NO_BATTLE: &str = "no battle is running";
pub const TRAINER_BATTLE: &str = "cannot run from a trainer battle";
pub const CANNOT_RUN: &str = "cannot run now";
pub const INVALID_DVS: &str = "invalid dvs";

/// The `current()` record.
pub fn position_value(map_id: &str, x: u32, y: u32, facing: Direction, surfing: bool) -> Value {
    Value::map([
        ("mapId", Value::from(map_id)),
        ("x", Value::Int(x.into())),
        ("y", Value::Int(y.into())),
        ("facing", Value::from(facing.as_str())),
        ("surfing", Value::Bool(surfing)),
    ])
}

/// The `map_overview()` record of `ow`'s active map: `{mapId, width, height, rows, markers}`,
/// one string per cell row (`+` warp, `~` water, `.` walkable, space blocked) and
/// `{kind = "warp", x, y}` markers.
pub fn overview_of(ow: &Overworld) -> Value {
    let map = ow.map();
    let def = map.def();
    let (w, h) = (def.cell_width(), def.cell_height());
    let rows = cell_rows(ow, |x, y| {
        if def.warp_at(x, y).is_some() {
            '+'
        } else {
            match map.cell_kind(x.into(), y.into()) {
                Some(k) if k.is_water() => '~',
                Some(k) if k.walkable() => '.',
                _ => ' ',
            }
        }
    });
    let markers = def
        .warps
        .iter()
        .map(|wp| {
            Value::map([
                ("kind", Value::from("warp")),
                ("x", Value::Int(wp.x.into())),
                ("y", Value::Int(wp.y.into())),
            ])
        })
        .collect();
    Value::map([
        ("mapId", Value::from(def.id.as_str())),
        ("width", Value::Int(w.into())),
        ("height", Value::Int(h.into())),
        ("rows", rows),
        ("markers", Value::List(markers)),
    ])
}

/// The active map of `ow` as one string per cell row, `cell(x, y)` giving each character.
fn cell_rows(ow: &Overworld, cell: impl Fn(u32, u32) -> char) -> Value {
    let def = ow.map().def();
    let (w, h) = (def.cell_width(), def.cell_height());
    Value::List(
        (0..h)
            .map(|y| Value::Str((0..w).map(|x| cell(x, y)).collect()))
            .collect(),
    )
}

/// A flag-name argument, validated.
pub fn flag_name(v: &Value) -> Result<&str, WorldFailure> {
    string_arg(v, INVALID_FLAG, "flag name")
}

/// A non-empty string argument, or `reason` naming `what`.
pub(crate) fn string_arg<'v>(
    v: &'v Value,
    reason: &'static str,
    what: &str,
) -> Result<&'v str, WorldFailure> {
    match v {
        Value::Str(s) if !s.is_empty() => Ok(s),
        other => Err(WorldFailure::new(
            reason,
            format!(
                "{what} must be a non-empty string, got {}",
                other.type_name()
            ),
        )),
    }
}

/// The `overworld()` record of `ow`: `{map, player, entities}` ([`overworld_map_of`],
/// [`overworld_player_of`], [`overworld_entities_of`]), a copy.
pub fn overworld_of(ow: &Overworld) -> Value {
    overworld_value(
        overworld_map_of(ow),
        overworld_player_of(ow),
        overworld_entities_of(ow),
    )
}

/// The `overworld()` record from its three parts.
pub fn overworld_value(map: Value, player: Value, entities: Value) -> Value {
    Value::map([("map", map), ("player", player), ("entities", entities)])
}

/// `overworld().map`: `{id, widthCells, heightCells, rows}`, one string per cell row with one
/// character per cell (`.` floor, `,` grass, `+` door, `~` water, `#` solid), as the map is now
/// (replaced blocks included).
pub fn overworld_map_of(ow: &Overworld) -> Value {
    let map = ow.map();
    let def = map.def();
    let (w, h) = (def.cell_width(), def.cell_height());
    let rows = cell_rows(ow, |x, y| {
        map.cell_kind(x.into(), y.into())
            .map_or('#', crate::world::tileset::CellKind::to_char)
    });
    Value::map([
        ("id", Value::from(def.id.as_str())),
        ("widthCells", Value::Int(w.into())),
        ("heightCells", Value::Int(h.into())),
        ("rows", rows),
    ])
}

/// `overworld().player` of `ow` ([`player_record`]).
pub fn overworld_player_of(ow: &Overworld) -> Value {
    let p = ow.player();
    let target = ow.movement().map(|m| (m.to_x, m.to_y));
    player_record(p.x, p.y, p.facing, p.surfing, target)
}

/// `overworld().player`: `{kind = "player", cellX, cellY, facing, surfing, moving, targetX,
/// targetY}` (the target is the cell a step in progress goes to, else the player's cell).
pub fn player_record(
    x: u32,
    y: u32,
    facing: Direction,
    surfing: bool,
    target: Option<(u32, u32)>,
) -> Value {
    let (tx, ty) = target.unwrap_or((x, y));
    Value::map([
        ("kind", Value::from("player")),
        ("cellX", Value::Int(x.into())),
        ("cellY", Value::Int(y.into())),
        ("facing", Value::from(facing.as_str())),
        ("surfing", Value::Bool(surfing)),
        ("moving", Value::Bool(target.is_some())),
        ("targetX", Value::Int(tx.into())),
        ("targetY", Value::Int(ty.into())),
    ])
}

/// `overworld().entities`: the NPCs on the active map now (map objects shown and runtime ones
/// mods placed), in map order: `{id, kind = "npc", cellX, cellY, targetX, targetY, facing}`
/// (`id` is the name `remove_npc` takes; NPCs move a whole cell at once, so the target is the
/// cell).
pub fn overworld_entities_of(ow: &Overworld) -> Value {
    Value::List(
        ow.map()
            .def()
            .npcs
            .iter()
            .map(|n| {
                Value::map([
                    ("id", Value::from(n.name.as_str())),
                    ("kind", Value::from("npc")),
                    ("cellX", Value::Int(n.x.into())),
                    ("cellY", Value::Int(n.y.into())),
                    ("targetX", Value::Int(n.x.into())),
                    ("targetY", Value::Int(n.y.into())),
                    ("facing", Value::from(n.facing.as_str())),
                ])
            })
            .collect(),
    )
}
