//! The catalog: every hook and event the engine raises, as types.
//!
//! # The pattern (read this before adding a hook or event)
//!
//! **A hook** lives in `hooks/<domain>.rs` and is four items:
//!
//! 1. `pub struct <Name>Args { … }` — plain data, `#[derive(Clone, Debug, Serialize,
//!    Deserialize)]`, `#[serde(rename_all = "camelCase")]` on nested context structs so mods see
//!    the Lua engine's field names (`mapId`, `maxHp`). Never an engine type: api knows nothing of
//!    the engine. Records too rich to mirror are [`Value`](crate::Value)s (`mon`, species defs).
//! 2. `arg_list!(<Name>Args { a, b });` — the script callback's positional parameters after
//!    `next`, in the Lua engine's order.
//! 3. `pub struct <Name>;` with `impl Hook` (`NAME` = the mod-visible name, `ID` = the next free
//!    index, `Args`, `Out`) and `impl ScriptHook` (`SIGNATURE`, `RESULT_RULE`, and an
//!    `out_from_value` override when the rule is not "strict conversion", e.g. "only exactly
//!    `true` permits").
//! 4. A line in [`HOOKS`] below (`HookInfo::of::<hooks::<Name>>("<Name>")`), at position `ID`.
//!    A const check fails the build if a position and an `ID` disagree.
//!
//! **An event** is the same in `events/<domain>.rs`: a `<Name>Payload` struct, `pub struct
//! <Name>;` with `impl Event` + `impl ScriptEvent`, and a line in [`EVENTS`].
//!
//! **A site** in the engine is written exactly as
//! `if rt.wants_hook::<hooks::<Name>>() { …; rt.call::<hooks::<Name>>(args, vanilla) }` /
//! `if rt.wants_event::<events::<Name>>() { rt.emit::<events::<Name>>(payload) }` — the
//! `call::<hooks::X>` / `emit::<events::X>` spelling is what the drift test
//! (`tests/tests/gate_meta_coverage.rs`) scans engine sources for.

pub mod common;
pub mod events;
pub mod hooks;

use crate::events::{Event, EventId};
use crate::hooks::{Hook, HookId};
use crate::script::{ArgList, ScriptEvent, ScriptHook, ScriptLink, ScriptListener};
use crate::{HookHandle, ListenerHandle as EventHandle, Runtime};
use std::rc::Rc;

/// A catalog hook, by name, with what hosts need to wrap it without knowing its Rust type.
#[derive(Clone, Copy)]
pub struct HookInfo {
    pub name: &'static str,
    pub id: HookId,
    /// The Rust type name under `catalog::hooks` (what engine sites spell).
    pub type_name: &'static str,
    pub signature: &'static str,
    pub result_rule: &'static str,
    pub params: &'static [&'static str],
    pub out_arity: usize,
    /// Install a script link on this hook.
    pub wrap_script: fn(&Runtime, &str, i32, Rc<dyn ScriptLink>) -> HookHandle,
}

impl HookInfo {
    pub const fn of<H: ScriptHook>(type_name: &'static str) -> HookInfo {
        HookInfo {
            name: H::NAME,
            id: H::ID,
            type_name,
            signature: H::SIGNATURE,
            result_rule: H::RESULT_RULE,
            params: <H::Args as ArgList>::NAMES,
            out_arity: H::OUT_ARITY,
            wrap_script: crate::script::wrap_script::<H>,
        }
    }
}

impl std::fmt::Debug for HookInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HookInfo")
            .field("name", &self.name)
            .field("id", &self.id)
            .finish()
    }
}

/// A catalog event, by name.
#[derive(Clone, Copy)]
pub struct EventInfo {
    pub name: &'static str,
    pub id: EventId,
    pub type_name: &'static str,
    /// Subscribe a script listener (`once` = fire once).
    pub on_script: fn(&Runtime, &str, i32, bool, Rc<dyn ScriptListener>) -> EventHandle,
}

impl EventInfo {
    pub const fn of<E: ScriptEvent>(type_name: &'static str) -> EventInfo {
        EventInfo {
            name: E::NAME,
            id: E::ID,
            type_name,
            on_script: crate::script::on_script::<E>,
        }
    }
}

impl std::fmt::Debug for EventInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EventInfo")
            .field("name", &self.name)
            .field("id", &self.id)
            .finish()
    }
}

macro_rules! hook_table {
    ($($ty:ident),+ $(,)?) => {
        /// Every catalog hook, at index = its `ID`.
        pub const HOOKS: &[HookInfo] = &[$(HookInfo::of::<hooks::$ty>(stringify!($ty))),+];
        const _: () = {
            let mut i: u16 = 0;
            $(
                assert!(<hooks::$ty as Hook>::ID.0 == i, concat!("hook id out of place: ", stringify!($ty)));
                i += 1;
            )+
            assert!((i as usize) <= crate::bitset::GUARD_CAPACITY);
        };
    };
}

macro_rules! event_table {
    ($($ty:ident),+ $(,)?) => {
        /// Every catalog event, at index = its `ID`.
        pub const EVENTS: &[EventInfo] = &[$(EventInfo::of::<events::$ty>(stringify!($ty))),+];
        const _: () = {
            let mut i: u16 = 0;
            $(
                assert!(<events::$ty as Event>::ID.0 == i, concat!("event id out of place: ", stringify!($ty)));
                i += 1;
            )+
            assert!((i as usize) <= crate::bitset::GUARD_CAPACITY);
        };
    };
}

/// Calls `$callback![Hook, …]` with the type name of every catalog hook, in `ID` order: the one
/// list every per-hook table is generated from (the catalog's `HOOKS` here; a script host's
/// table of typed installers, e.g. the Lua shim's), so no second list can drift from it.
#[macro_export]
macro_rules! with_catalog_hooks {
    ($callback:ident) => {
        $callback![
            MapOccupancyAllowed,
            BattleFieldResidual,
            CatchPartyFull,
            ExpGain,
            EncounterRoll,
            CatchRate,
            BattleDamage,
            BattleAccuracy,
            BattleCrit,
            TrainerParty,
            EvolutionCheck,
            BattleExpAward,
            SaveWrite,
            MovementCollision,
            WarpDestination,
            BattleTurnOrder,
            BattleRun,
            BattleEnemyAction,
            BattleStyle,
            BattleChargeRequired,
            EncounterSpecies,
            ScriptCommand,
            WorldTalk,
            TrainerBeforeBattle,
            PokemonGive,
            CoreUpdate,
            MovementSpeed,
            BattleCatchExp,
            CatchNickname,
            EncounterTable,
            SaveNewGame,
            InputStep,
        ];
    };
}

with_catalog_hooks!(hook_table);

event_table![
    GameReady,
    MapEntered,
    MapExited,
    WorldStepped,
    WorldBlockReplaced,
    BattleStarted,
    BattleTurnEnded,
    BattleFainted,
    BattleEnded,
    PokemonCaught,
    PokemonLevelUp,
    SaveCreated,
    SaveLoaded,
    CheckpointRestored,
    ModsLoaded,
    BattleTurnStarted,
    BattleMoveUsed,
    BattleDamageDealt,
    BattleStatusInflicted,
    BattleBattlerSwitched,
    BattleBallThrown,
    BattleExpGained,
    PokemonEvolved,
    PokemonMoveLearned,
    PokemonBeforeGive,
    PokemonReceived,
    WorldInteracted,
    WorldTrainerEngaged,
    WorldObjectToggled,
    WorldBlackedOut,
    MapReloaded,
    PlayerWarped,
    FlagChanged,
    ScriptStarted,
    ScriptEnded,
    SaveWriting,
    SaveLoading,
    ModOptionsChanged,
    SoundPlayed,
    MusicStarted,
    MusicStopped,
];

/// The catalog hook named `name` (mod-visible name, e.g. `"map.occupancy_allowed"`).
pub fn hook_info(name: &str) -> Option<&'static HookInfo> {
    HOOKS.iter().find(|h| h.name == name)
}

/// The catalog event named `name`.
pub fn event_info(name: &str) -> Option<&'static EventInfo> {
    EVENTS.iter().find(|e| e.name == name)
}

/// The catalog hook whose Rust type is `catalog::hooks::<type_name>`.
pub fn hook_by_type(type_name: &str) -> Option<&'static HookInfo> {
    HOOKS.iter().find(|h| h.type_name == type_name)
}

/// The catalog event whose Rust type is `catalog::events::<type_name>`.
pub fn event_by_type(type_name: &str) -> Option<&'static EventInfo> {
    EVENTS.iter().find(|e| e.type_name == type_name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn names_are_unique_and_well_formed() {
        let hook_names: BTreeSet<_> = HOOKS.iter().map(|h| h.name).collect();
        assert_eq!(hook_names.len(), HOOKS.len());
        let event_names: BTreeSet<_> = EVENTS.iter().map(|e| e.name).collect();
        assert_eq!(event_names.len(), EVENTS.len());
        for name in hook_names.iter().chain(event_names.iter()) {
            assert!(name.contains('.'), "{name}");
            assert!(
                name.chars()
                    .all(|c| c.is_ascii_lowercase() || c == '.' || c == '_'),
                "{name}"
            );
            // `mod.options_changed` is the Lua engine's one engine event in the `mod.`
            // namespace; mods still cannot emit it (it is a catalog name).
            assert!(
                !name.starts_with("mod.") || *name == "mod.options_changed",
                "{name} is in the mod namespace"
            );
        }
        assert_eq!(
            hook_info("catch.party_full").map(|h| h.type_name),
            Some("CatchPartyFull")
        );
        assert_eq!(
            event_by_type("PokemonCaught").map(|e| e.name),
            Some("pokemon.caught")
        );
    }
}
