//! How the world's state reads to a mod, shared by the `world` facade ([`crate::world_facade`],
//! on the lent game) and the mid-tick read view ([`crate::world_reads`], on published copies):
//! the `current()` and `map_overview()` records, flag-name validation, and the reasons of the
//! reads' failures.

use pallet_api::facades::WorldFailure;
use pallet_api::Value;

use crate::world::{Direction, Overworld};

pub const NO_OVERWORLD: &str = "no overworld";
pub const INVALID_FLAG: &str = "invalid flag name";

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
    let rows = (0..h)
        .map(|y| {
            let row: String = (0..w)
                .map(|x| {
                    if def.warp_at(x, y).is_some() {
                        '+'
                    } else {
                        match map.cell_kind(x.into(), y.into()) {
                            Some(k) if k.is_water() => '~',
                            Some(k) if k.walkable() => '.',
                            _ => ' ',
                        }
                    }
                })
                .collect();
            Value::Str(row)
        })
        .collect();
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
        ("rows", Value::List(rows)),
        ("markers", Value::List(markers)),
    ])
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
