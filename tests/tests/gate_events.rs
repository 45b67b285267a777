//! Parity gate for events (the Rust form of the Lua engine's `gate_events.lua`).
//!
//! For every event in `catalog::EVENTS`:
//! * a null emit is swallowed: `wants_event` is false, nothing is allocated, no list appears;
//! * the same on a live bus where every *other* event has listeners;
//! * after `on`, emit, unsubscribe, the list is drained (`wants_event` false again);
//! * `remove_owner` leaves zero lists;
//! * a failing listener is contained and its siblings still run.
//!
//! A catalog event without a sample in `common/samples.rs` fails the gate.

#[path = "common/alloc.rs"]
mod alloc;
#[path = "common/samples.rs"]
mod samples;

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::rc::Rc;

use pallet_api::catalog::{self, events, EventInfo};
use pallet_api::script::{ScriptEvent, ScriptListener};
use pallet_api::{LinkError, ListenerResult, Runtime, Value};

struct Quiet;
impl ScriptListener for Quiet {
    fn call(&self, _: &Value) -> ListenerResult {
        Ok(())
    }
}

fn busy_runtime_except(skip: &EventInfo) -> Runtime {
    let rt = Runtime::new();
    for info in catalog::EVENTS {
        if info.name != skip.name {
            (info.on_script)(&rt, "other_mod", 0, false, Rc::new(Quiet));
        }
    }
    rt
}

fn check_silent<E: ScriptEvent>(rt: &Runtime, payload: &E::Payload, bus: &str)
where
    E::Payload: Clone,
{
    assert!(!rt.wants_event::<E>(), "{} ({bus}): wants_event", E::NAME);
    let payload = payload.clone();
    let ((), allocations) = alloc::count(|| {
        if rt.wants_event::<E>() {
            rt.emit::<E>(payload);
        } else {
            // The guarded site builds nothing; an unguarded emit must be free as well.
            rt.emit::<E>(payload);
        }
    });
    assert_eq!(
        allocations,
        0,
        "{} ({bus}): allocations during emit",
        E::NAME
    );
    assert!(
        !rt.has_listeners::<E>(),
        "{} ({bus}): a list appeared",
        E::NAME
    );
}

fn gate<E: ScriptEvent>(payload: E::Payload) -> &'static str
where
    E::Payload: Clone,
{
    let info =
        catalog::event_info(E::NAME).unwrap_or_else(|| panic!("{} not in the catalog", E::NAME));
    check_silent::<E>(&Runtime::new(), &payload, "null bus");
    let rt = busy_runtime_except(info);
    check_silent::<E>(&rt, &payload, "live bus");

    // on -> emit -> unsubscribe: delivered once, then drained.
    let got = Rc::new(RefCell::new(Vec::new()));
    let g = got.clone();
    let handle = rt.on::<E, _>("m", 0, move |_| {
        g.borrow_mut().push("typed");
        Ok(())
    });
    rt.emit::<E>(payload.clone());
    assert_eq!(*got.borrow(), vec!["typed"], "{}", E::NAME);
    assert!(rt.unsubscribe_event(&handle));
    check_silent::<E>(&rt, &payload, "after unsubscribe");

    // A failing listener is contained; siblings (typed and script) still run.
    rt.on::<E, _>("broken", 10, |_| Err(LinkError::new("listener exploded")));
    let g = got.clone();
    rt.on::<E, _>("sibling", 0, move |_| {
        g.borrow_mut().push("sibling");
        Ok(())
    });
    (info.on_script)(&rt, "sibling", 0, false, Rc::new(Quiet));
    rt.drain_diagnostics();
    rt.emit::<E>(payload.clone());
    assert_eq!(got.borrow().last(), Some(&"sibling"), "{}", E::NAME);
    let diags = rt.drain_diagnostics();
    assert_eq!(diags.len(), 1, "{}", E::NAME);
    assert_eq!(
        diags[0].message,
        format!("[broken] event {}: listener exploded", E::NAME)
    );

    // remove_owner drains.
    rt.remove_owner("broken");
    rt.remove_owner("sibling");
    check_silent::<E>(&rt, &payload, "after remove_owner");
    rt.remove_owner("other_mod");
    assert_eq!(rt.event_list_count(), 0, "{}: lists left", E::NAME);
    E::NAME
}

#[test]
fn every_catalog_event_is_free_without_listeners_and_contained_with_them() {
    let gated: BTreeSet<&str> = [
        gate::<events::GameReady>(samples::game_ready()),
        gate::<events::MapEntered>(samples::map_entered()),
        gate::<events::MapExited>(samples::map_exited()),
        gate::<events::WorldStepped>(samples::world_stepped()),
        gate::<events::WorldBlockReplaced>(samples::block_replaced()),
        gate::<events::BattleStarted>(samples::battle_started()),
        gate::<events::BattleTurnEnded>(samples::turn_ended()),
        gate::<events::BattleFainted>(samples::fainted()),
        gate::<events::BattleEnded>(samples::battle_ended()),
        gate::<events::PokemonCaught>(samples::caught()),
        gate::<events::PokemonLevelUp>(samples::level_up()),
        gate::<events::SaveCreated>(samples::save_created()),
        gate::<events::SaveLoaded>(samples::save_loaded()),
        gate::<events::CheckpointRestored>(samples::checkpoint_restored()),
        gate::<events::ModsLoaded>(samples::mods_loaded()),
        gate::<events::BattleTurnStarted>(samples::turn_started()),
        gate::<events::BattleMoveUsed>(samples::move_used()),
        gate::<events::BattleDamageDealt>(samples::damage_dealt()),
        gate::<events::BattleStatusInflicted>(samples::status_inflicted()),
        gate::<events::BattleBattlerSwitched>(samples::battler_switched()),
        gate::<events::BattleBallThrown>(samples::ball_thrown()),
        gate::<events::BattleExpGained>(samples::exp_gained()),
        gate::<events::PokemonEvolved>(samples::evolved()),
        gate::<events::PokemonMoveLearned>(samples::move_learned()),
        gate::<events::PokemonBeforeGive>(samples::before_give()),
        gate::<events::PokemonReceived>(samples::received()),
        gate::<events::WorldInteracted>(samples::interacted()),
        gate::<events::WorldTrainerEngaged>(samples::trainer_engaged()),
        gate::<events::WorldObjectToggled>(samples::object_toggled()),
        gate::<events::WorldBlackedOut>(samples::blacked_out()),
        gate::<events::MapReloaded>(samples::map_reloaded()),
        gate::<events::PlayerWarped>(samples::player_warped()),
        gate::<events::FlagChanged>(samples::flag_changed()),
        gate::<events::ScriptStarted>(samples::script_started()),
        gate::<events::ScriptEnded>(samples::script_ended()),
        gate::<events::SaveWriting>(samples::save_writing()),
        gate::<events::SaveLoading>(samples::save_loading()),
        gate::<events::ModOptionsChanged>(samples::options_changed()),
        gate::<events::SoundPlayed>(samples::sound_played()),
        gate::<events::MusicStarted>(samples::music_started()),
        gate::<events::MusicStopped>(samples::music_stopped()),
    ]
    .into_iter()
    .collect();
    let catalog_names: BTreeSet<&str> = catalog::EVENTS.iter().map(|e| e.name).collect();
    let missing: Vec<_> = catalog_names.difference(&gated).collect();
    assert!(
        missing.is_empty(),
        "catalog events without a gate sample: {missing:?}"
    );
}

#[test]
fn mod_events_stay_in_their_namespace() {
    let rt = Runtime::new();
    for info in catalog::EVENTS {
        assert!(
            rt.emit_mod("forger", info.name, &Value::Nil).is_err(),
            "{}",
            info.name
        );
    }
    assert!(rt.emit_mod("forger", "mod.forger.ok", &Value::Nil).is_ok());
    assert_eq!(rt.event_list_count(), 0);
}
