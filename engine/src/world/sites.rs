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

/// A cell coordinate as hooks see it (saturating).
#[cfg(feature = "hook-sites")]
pub(super) fn coord(v: u32) -> i32 {
    i32::try_from(v).unwrap_or(i32::MAX)
}

/// A facing as hooks see it.
#[cfg(feature = "hook-sites")]
pub(crate) fn api_dir(d: super::types::Direction) -> pallet_api::catalog::common::Direction {
    use super::types::Direction;
    use pallet_api::catalog::common::Direction as D;
    match d {
        Direction::Up => D::Up,
        Direction::Down => D::Down,
        Direction::Left => D::Left,
        Direction::Right => D::Right,
    }
}

/// A hook's facing back in the engine's terms (the inverse of [`api_dir`]).
#[cfg(feature = "hook-sites")]
pub(crate) fn engine_dir(d: pallet_api::catalog::common::Direction) -> super::types::Direction {
    use super::types::Direction;
    use pallet_api::catalog::common::Direction as D;
    match d {
        D::Up => Direction::Up,
        D::Down => Direction::Down,
        D::Left => Direction::Left,
        D::Right => Direction::Right,
    }
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

/// Why vanilla refused a step (`movement.collision` ctx `reason`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CollisionReason {
    Tile,
    Entity,
    Bounds,
}

impl CollisionReason {
    pub fn as_str(self) -> &'static str {
        match self {
            CollisionReason::Tile => "tile",
            CollisionReason::Entity => "entity",
            CollisionReason::Bounds => "bounds",
        }
    }
}

/// `movement.collision` for a player step: vanilla passes its verdict through. Returns the
/// chain's answer; the caller still refuses cells outside the map.
#[inline]
#[allow(clippy::too_many_arguments)]
pub fn movement_collision(
    rt: &Runtime,
    map_id: &str,
    dir: super::types::Direction,
    from: (u32, u32),
    to: (i64, i64),
    refused: Option<CollisionReason>,
) -> bool {
    #[cfg(feature = "hook-sites")]
    if rt.wants_hook::<hooks::MovementCollision>() {
        let dir = api_dir(dir);
        let clamp = |v: i64| i32::try_from(v).unwrap_or(if v < 0 { i32::MIN } else { i32::MAX });
        let args = hooks::MovementCollisionArgs {
            allowed: refused.is_none(),
            ctx: hooks::CollisionContext {
                map_id: map_id.to_owned(),
                mover: hooks::Mover {
                    kind: "player".to_owned(),
                    id: None,
                },
                dir,
                from_x: coord(from.0),
                from_y: coord(from.1),
                to_x: clamp(to.0),
                to_y: clamp(to.1),
                reason: refused.map(|r| r.as_str().to_owned()),
            },
        };
        return rt.call::<hooks::MovementCollision>(args, |a| a.allowed);
    }
    let _ = (rt, map_id, dir, from, to);
    refused.is_none()
}

/// `warp.destination` for a map warp: vanilla returns the warp's own target.
#[inline]
pub fn warp_destination(rt: &Runtime, warp: &super::map::WarpDef) -> (String, u32, u32) {
    #[cfg(feature = "hook-sites")]
    if rt.wants_hook::<hooks::WarpDestination>() {
        let args = hooks::WarpDestinationArgs {
            map_id: warp.to.clone(),
            x: coord(warp.to_x),
            y: coord(warp.to_y),
            ctx: hooks::WarpContext {
                warp: pallet_api::value::to_value(warp).unwrap_or_default(),
                last_map: None,
            },
        };
        let out = rt.call::<hooks::WarpDestination>(args, |a| hooks::WarpTarget {
            map_id: a.map_id.clone(),
            x: a.x,
            y: a.y,
        });
        // Negative coordinates cannot name a cell: keep the vanilla target.
        return match (u32::try_from(out.x), u32::try_from(out.y)) {
            (Ok(x), Ok(y)) => (out.map_id, x, y),
            _ => (warp.to.clone(), warp.to_x, warp.to_y),
        };
    }
    let _ = rt;
    (warp.to.clone(), warp.to_x, warp.to_y)
}

/// `encounter.roll` for a grass step: vanilla is the Gen 1 roll (see [`super::encounters`]).
#[inline]
pub fn encounter_roll(
    rt: &Runtime,
    map_id: &str,
    table: &super::map::EncounterTable,
    rng: &mut crate::rng::Rng,
) -> Option<super::encounters::WildEncounter> {
    #[cfg(feature = "hook-sites")]
    if rt.wants_hook::<hooks::EncounterRoll>() {
        let args = hooks::EncounterRollArgs {
            enc_def: pallet_api::value::to_value(table).unwrap_or_default(),
            ctx: hooks::EncounterRollContext {
                map_id: map_id.to_owned(),
                terrain: "grass".to_owned(),
                // Seeded from the game RNG's state; the game RNG is not advanced.
                rng: pallet_api::script_rng::ScriptRng::seeded(rng.state()),
            },
        };
        let vanilla_ran = std::cell::Cell::new(false);
        let out = rt.call::<hooks::EncounterRoll>(args, |_| {
            vanilla_ran.set(true);
            super::encounters::roll_grass(table, rng).map(|e| hooks::Encounter {
                species: e.species,
                level: e.level,
            })
        });
        // A chain that answered without vanilla (a thinner suppressing this step) consumed no
        // game randomness: draw once for the roll it replaced, so the next step's `ctx.rng`
        // is seeded afresh (else it repeats this step's draws and a 50% thinner keeps none).
        // A pass-through chain leaves the game's random sequence exactly as without mods.
        if !vanilla_ran.get() {
            rng.next_u64();
        }
        return out.map(|e| super::encounters::WildEncounter {
            species: e.species,
            level: e.level,
            slot: None,
        });
    }
    let _ = (rt, map_id);
    super::encounters::roll_grass(table, rng)
}
