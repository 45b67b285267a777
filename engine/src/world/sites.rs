//! The overworld's hook and event sites. Every site is guarded: with no subscriber nothing is
//! built or allocated and the vanilla branch runs exactly as without mods.
//! Compiled out entirely without the `hook-sites` feature.

use pallet_api::catalog::common::GameVersion as ApiVersion;
#[cfg(feature = "hook-sites")]
use pallet_api::catalog::{common::GameInfo, events, hooks};
use pallet_api::Runtime;

use super::types::GameVersion;

pub fn api_version(v: GameVersion) -> ApiVersion {
    match v {
        GameVersion::Red => ApiVersion::Red,
        GameVersion::Blue => ApiVersion::Blue,
        GameVersion::Yellow => ApiVersion::Yellow,
    }
}

#[cfg(feature = "hook-sites")]
fn coord(v: u32) -> i32 {
    i32::try_from(v).unwrap_or(i32::MAX)
}

/// `map.occupancy_allowed` at the departed Vermilion Dock (RFC 0013). Vanilla is `false`;
/// only an exact `true` from the chain permits (the catalog's result rule converts script
/// answers; a native link returns the `bool` itself).
#[inline]
pub fn dock_occupancy_allowed(
    rt: &Runtime,
    version: GameVersion,
    map_id: &str,
    x: u32,
    y: u32,
) -> bool {
    #[cfg(feature = "hook-sites")]
    if rt.wants_hook::<hooks::MapOccupancyAllowed>() {
        let game = GameInfo {
            version: api_version(version),
            playthrough_id: None,
            map_id: Some(map_id.to_owned()),
        };
        let args = hooks::MapOccupancyAllowedArgs::at_dock(game, Some(coord(x)), Some(coord(y)));
        return rt.call::<hooks::MapOccupancyAllowed>(args, |_| false);
    }
    let _ = (rt, version, map_id, x, y);
    false
}

#[inline]
pub fn map_entered(rt: &Runtime, map_id: &str, from: Option<&str>, via: &str) {
    #[cfg(feature = "hook-sites")]
    if rt.wants_event::<events::MapEntered>() {
        rt.emit::<events::MapEntered>(events::MapEnteredPayload {
            map_id: map_id.to_owned(),
            from_map_id: from.map(str::to_owned),
            via: Some(via.to_owned()),
        });
    }
    let _ = (rt, map_id, from, via);
}

#[inline]
pub fn map_exited(rt: &Runtime, map_id: &str, to: &str) {
    #[cfg(feature = "hook-sites")]
    if rt.wants_event::<events::MapExited>() {
        rt.emit::<events::MapExited>(events::MapExitedPayload {
            map_id: map_id.to_owned(),
            to_map_id: Some(to.to_owned()),
        });
    }
    let _ = (rt, map_id, to);
}

#[inline]
pub fn world_stepped(rt: &Runtime, map_id: &str, x: u32, y: u32) {
    #[cfg(feature = "hook-sites")]
    if rt.wants_event::<events::WorldStepped>() {
        rt.emit::<events::WorldStepped>(events::WorldSteppedPayload {
            map_id: map_id.to_owned(),
            x: coord(x),
            y: coord(y),
            tile: None,
        });
    }
    let _ = (rt, map_id, x, y);
}

#[inline]
pub fn block_replaced(rt: &Runtime, map_id: &str, bx: u32, by: u32, block: u32) {
    #[cfg(feature = "hook-sites")]
    if rt.wants_event::<events::WorldBlockReplaced>() {
        rt.emit::<events::WorldBlockReplaced>(events::WorldBlockReplacedPayload {
            map_id: map_id.to_owned(),
            bx: coord(bx),
            by: coord(by),
            block: u8::try_from(block).unwrap_or(u8::MAX),
        });
    }
    let _ = (rt, map_id, bx, by, block);
}

#[inline]
pub fn game_ready(rt: &Runtime, version: GameVersion, map_id: Option<&str>) {
    #[cfg(feature = "hook-sites")]
    if rt.wants_event::<events::GameReady>() {
        rt.emit::<events::GameReady>(events::GameReadyPayload {
            game: GameInfo {
                version: api_version(version),
                playthrough_id: None,
                map_id: map_id.map(str::to_owned),
            },
        });
    }
    let _ = (rt, version, map_id);
}
