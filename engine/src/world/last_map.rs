//! `LAST_MAP` warps (the cartridge's `wLastMap`): a warp whose `to` is [`LAST_MAP`] returns
//! the player to the outdoor map they came from, on the cell of the warp they took into this
//! map. The point is recorded at run time in the save (`lastOutdoor`) when the player warps
//! out of an outdoor map into a map that has a `LAST_MAP` warp, so it survives a save and a
//! checkpoint; maps without such a warp (the whole base game) record nothing, and vanilla saves
//! stay byte-identical.
//!
//! With nothing recorded (a save made before the mod was added), the warp falls back to the
//! first map in id order with a warp into this one, landing on that warp's cell.

pub use super::map::{fallback, LAST_MAP};
use super::map::{MapDef, WarpDef};
use super::store::MapSet;
use crate::save::OutdoorPoint;

/// Does `def` have a `LAST_MAP` warp?
pub fn has_last_map_warp(def: &MapDef) -> bool {
    def.warps.iter().any(|w| w.to == LAST_MAP)
}

/// The concrete warp a `LAST_MAP` warp `w` of map `here` takes: the recorded outdoor point
/// when it names a map of the set and a cell inside it, else the [`fallback`]. `None`: nowhere
/// to go (no recorded point, no map warps here).
pub fn resolve(
    maps: &MapSet,
    here: &str,
    w: &WarpDef,
    recorded: Option<&OutdoorPoint>,
) -> Option<WarpDef> {
    let point = recorded
        .filter(|p| {
            maps.get(&p.id).is_some_and(|m| {
                u32::from(p.x) < m.cell_width() && u32::from(p.y) < m.cell_height()
            })
        })
        .map(|p| (p.id.clone(), u32::from(p.x), u32::from(p.y)))
        .or_else(|| {
            fallback(maps.maps.values().map(|m| &**m), here).map(|(id, x, y)| (id.to_owned(), x, y))
        })?;
    Some(WarpDef {
        x: w.x,
        y: w.y,
        to: point.0,
        to_x: point.1,
        to_y: point.2,
        facing: w.facing,
    })
}

/// Record `from`'s warp cell as the last outdoor point when warping out of an outdoor map
/// into a map with a `LAST_MAP` warp (nothing is written otherwise).
pub fn record(
    maps: &MapSet,
    from: &MapDef,
    w: &WarpDef,
    to: &str,
    slot: &mut Option<OutdoorPoint>,
) {
    if !from.outdoor || !maps.get(to).is_some_and(|m| has_last_map_warp(m)) {
        return;
    }
    let (Ok(x), Ok(y)) = (u16::try_from(w.x), u16::try_from(w.y)) else {
        return;
    };
    let point = OutdoorPoint {
        id: from.id.clone(),
        x,
        y,
    };
    if slot.as_ref() != Some(&point) {
        *slot = Some(point);
    }
}
