//! The overworld and game event sites of the Lua engine's catalog (issue 17):
//! `world.interacted`, `player.warped`, `flag.changed`, `script.started`, `script.ended`,
//! `sound.played`, `music.started`, `music.stopped`, `map.reloaded`, `world.trainer_engaged`,
//! `world.blacked_out`, `pokemon.before_give`, `pokemon.received`.
//!
//! Every site is guarded (`wants_event`): with no listener nothing is built or allocated.
//! Compiled out entirely without the `hook-sites` feature.

#[cfg(feature = "hook-sites")]
use pallet_api::catalog::events;
use pallet_api::Runtime;

use super::types::Direction;

#[cfg(feature = "hook-sites")]
use super::sites::{api_dir, coord};

/// `world.interacted`: A pressed at an NPC (`kind = "npc"`) or a sign, before its handler.
pub fn interacted(rt: &Runtime, map_id: &str, x: i64, y: i64, kind: &str, text: &str) {
    #[cfg(feature = "hook-sites")]
    if rt.wants_event::<events::WorldInteracted>() {
        rt.emit::<events::WorldInteracted>(events::WorldInteractedPayload {
            map_id: map_id.to_owned(),
            x: i32::try_from(x).unwrap_or(i32::MAX),
            y: i32::try_from(y).unwrap_or(i32::MAX),
            kind: kind.to_owned(),
            text: text.to_owned(),
        });
    }
    let _ = (rt, map_id, x, y, kind, text);
}

/// `player.warped`: the player now stands on the warp's destination.
pub fn player_warped(rt: &Runtime, from: &str, map_id: &str, x: u32, y: u32, facing: Direction) {
    #[cfg(feature = "hook-sites")]
    if rt.wants_event::<events::PlayerWarped>() {
        rt.emit::<events::PlayerWarped>(events::PlayerWarpedPayload {
            from_map_id: from.to_owned(),
            map_id: map_id.to_owned(),
            x: coord(x),
            y: coord(y),
            facing: api_dir(facing),
        });
    }
    let _ = (rt, from, map_id, x, y, facing);
}

/// `flag.changed`: only on a real change of value.
pub fn flag_changed(rt: &Runtime, name: &str, value: bool) {
    #[cfg(feature = "hook-sites")]
    if rt.wants_event::<events::FlagChanged>() {
        rt.emit::<events::FlagChanged>(events::FlagChangedPayload {
            name: name.to_owned(),
            value,
        });
    }
    let _ = (rt, name, value);
}

/// `world.object_toggled`: a map object appeared or disappeared (a mod's runtime NPC).
pub fn object_toggled(rt: &Runtime, map_id: &str, obj_name: &str, visible: bool) {
    #[cfg(feature = "hook-sites")]
    if rt.wants_event::<events::WorldObjectToggled>() {
        rt.emit::<events::WorldObjectToggled>(events::WorldObjectToggledPayload {
            map_id: map_id.to_owned(),
            obj_name: obj_name.to_owned(),
            visible,
        });
    }
    let _ = (rt, map_id, obj_name, visible);
}

#[cfg(feature = "hook-sites")]
fn script_ctx(source: &str, map_id: &str) -> events::ScriptRunContext {
    events::ScriptRunContext {
        source: source.to_owned(),
        map_id: map_id.to_owned(),
    }
}

/// `script.started`: the runner takes a queued script.
pub fn script_started(rt: &Runtime, source: &str, map_id: &str) {
    #[cfg(feature = "hook-sites")]
    if rt.wants_event::<events::ScriptStarted>() {
        rt.emit::<events::ScriptStarted>(events::ScriptStartedPayload {
            ctx: script_ctx(source, map_id),
        });
    }
    let _ = (rt, source, map_id);
}

/// `script.ended`: the runner finished (`completed`) or dropped a script.
pub fn script_ended(rt: &Runtime, source: &str, map_id: &str, completed: bool) {
    #[cfg(feature = "hook-sites")]
    if rt.wants_event::<events::ScriptEnded>() {
        rt.emit::<events::ScriptEnded>(events::ScriptEndedPayload {
            ctx: script_ctx(source, map_id),
            completed,
        });
    }
    let _ = (rt, source, map_id, completed);
}

/// `sound.played`.
pub fn sound_played(rt: &Runtime, id: &str, map_id: &str) {
    #[cfg(feature = "hook-sites")]
    if rt.wants_event::<events::SoundPlayed>() {
        rt.emit::<events::SoundPlayed>(events::SoundPlayedPayload {
            id: id.to_owned(),
            map_id: map_id.to_owned(),
        });
    }
    let _ = (rt, id, map_id);
}

/// `music.started`.
pub fn music_started(rt: &Runtime, id: &str, map_id: &str) {
    #[cfg(feature = "hook-sites")]
    if rt.wants_event::<events::MusicStarted>() {
        rt.emit::<events::MusicStarted>(events::MusicStartedPayload {
            id: id.to_owned(),
            map_id: map_id.to_owned(),
        });
    }
    let _ = (rt, id, map_id);
}

/// `music.stopped`.
pub fn music_stopped(rt: &Runtime, map_id: &str) {
    #[cfg(feature = "hook-sites")]
    if rt.wants_event::<events::MusicStopped>() {
        rt.emit::<events::MusicStopped>(events::MusicStoppedPayload {
            map_id: map_id.to_owned(),
        });
    }
    let _ = (rt, map_id);
}

/// `map.reloaded`: the active map was rebuilt in place (`reason`, e.g. `"checkpoint"`).
pub fn map_reloaded(rt: &Runtime, map_id: &str, reason: &str) {
    #[cfg(feature = "hook-sites")]
    if rt.wants_event::<events::MapReloaded>() {
        rt.emit::<events::MapReloaded>(events::MapReloadedPayload {
            map_id: map_id.to_owned(),
            reason: reason.to_owned(),
        });
    }
    let _ = (rt, map_id, reason);
}

/// `world.trainer_engaged`: a trainer battle is about to start.
pub fn trainer_engaged(rt: &Runtime, map_id: &str, class_id: &str, index: u16, name: &str) {
    #[cfg(feature = "hook-sites")]
    if rt.wants_event::<events::WorldTrainerEngaged>() {
        rt.emit::<events::WorldTrainerEngaged>(events::WorldTrainerEngagedPayload {
            map_id: map_id.to_owned(),
            trainer_class: crate::public_records::public_trainer_class(class_id),
            party_index: crate::public_records::public_party_index(index),
            name: name.to_owned(),
        });
    }
    let _ = (rt, map_id, class_id, index, name);
}

/// `world.blacked_out` (`save` is built only for a listener).
pub fn blacked_out(
    rt: &Runtime,
    save: impl FnOnce() -> pallet_api::Value,
    map_id: &str,
    x: u32,
    y: u32,
) {
    #[cfg(feature = "hook-sites")]
    if rt.wants_event::<events::WorldBlackedOut>() {
        rt.emit::<events::WorldBlackedOut>(events::WorldBlackedOutPayload {
            save: save(),
            heal_target: events::HealTarget {
                map_id: map_id.to_owned(),
                x: coord(x),
                y: coord(y),
            },
        });
        return;
    }
    let _ = (rt, save, map_id, x, y);
}

/// A detached `{species, name, level, exp, hp, maxHp}` record of a mon outside a battle.
#[cfg(feature = "hook-sites")]
pub(crate) fn mon_record(
    data: &crate::data::Dataset,
    mon: &crate::pokemon::Pokemon,
) -> pallet_api::Value {
    use pallet_api::Value;
    let species = data.get_species(mon.species).map(|s| s.id).unwrap_or("");
    Value::map([
        ("species", Value::from(species)),
        ("name", Value::from(mon.display_name(data))),
        ("level", Value::from(i64::from(mon.level))),
        ("exp", Value::from(i64::from(mon.exp))),
        ("hp", Value::from(i64::from(mon.hp))),
        ("maxHp", Value::from(i64::from(mon.stats.max_hp))),
    ])
}

/// `pokemon.before_give`: a gift mon is built and about to be stored.
pub fn before_give(
    rt: &Runtime,
    game: impl FnOnce() -> pallet_api::catalog::common::GameInfo,
    data: &crate::data::Dataset,
    mon: &crate::pokemon::Pokemon,
) {
    #[cfg(feature = "hook-sites")]
    if rt.wants_event::<events::PokemonBeforeGive>() {
        rt.emit::<events::PokemonBeforeGive>(events::PokemonBeforeGivePayload {
            mon: mon_record(data, mon),
            species: data
                .get_species(mon.species)
                .map(|s| s.id.to_owned())
                .unwrap_or_default(),
            level: mon.level,
            game: game(),
        });
        return;
    }
    let _ = (rt, game, data, mon);
}

/// What `pokemon.received` reports after the gift is stored: a copy taken only for a listener.
pub fn received_watch(
    rt: &Runtime,
    mon: &crate::pokemon::Pokemon,
) -> Option<crate::pokemon::Pokemon> {
    #[cfg(feature = "hook-sites")]
    if rt.wants_event::<events::PokemonReceived>() {
        return Some(mon.clone());
    }
    let _ = (rt, mon);
    None
}

/// `pokemon.received` (`destination`: `"party"` or `"box"`).
pub fn received(
    rt: &Runtime,
    data: &crate::data::Dataset,
    gift: Option<crate::pokemon::Pokemon>,
    destination: &str,
) {
    #[cfg(feature = "hook-sites")]
    if let Some(mon) = &gift {
        use pallet_api::catalog::events::CatchDestination;
        rt.emit::<events::PokemonReceived>(events::PokemonReceivedPayload {
            mon: mon_record(data, mon),
            from: "gift".to_owned(),
            peer_name: None,
            destination: if destination == "box" {
                CatchDestination::Box
            } else {
                CatchDestination::Party
            },
        });
    }
    let _ = (rt, data, gift, destination);
}
