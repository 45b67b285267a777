//! Parity gate for hooks (the Rust form of the Lua engine's `gate_hooks.lua`).
//!
//! For every hook in `catalog::HOOKS`, with no subscriber to that hook:
//! * vanilla is called exactly once and receives the arguments unchanged;
//! * the result is vanilla's result, unchanged;
//! * the call allocates nothing (counting allocator, this thread);
//! * `wants_hook` is false and no chain exists afterwards;
//!   under three buses: the null runtime, a live runtime where every *other* catalog hook has a
//!   chain, and a live runtime where this hook's links were unsubscribed / owner-removed.
//!
//! A catalog hook without a sample in `common/samples.rs` fails the gate.

#[path = "common/alloc.rs"]
mod alloc;
#[path = "common/samples.rs"]
mod samples;

use std::cell::Cell;
use std::collections::BTreeSet;
use std::fmt::Debug;
use std::rc::Rc;

use pallet_api::catalog::{self, hooks, HookInfo};
use pallet_api::script::{ScriptHook, ScriptLink, ValueNext};
use pallet_api::{LinkError, Runtime, Value};

/// A pass-through script link (`function(next, ...) return next() end`).
struct PassThrough;
impl ScriptLink for PassThrough {
    fn call(&self, next: &mut dyn ValueNext, _: Vec<Value>) -> Result<Value, LinkError> {
        next.call()
    }
}

fn busy_runtime_except(skip: &HookInfo) -> Runtime {
    let rt = Runtime::new();
    for info in catalog::HOOKS {
        if info.name != skip.name {
            (info.wrap_script)(&rt, "other_mod", 0, Rc::new(PassThrough));
        }
    }
    rt
}

fn check_unsubscribed<H>(rt: &Runtime, args: &H::Args, out: &H::Out, bus: &str)
where
    H: ScriptHook,
    H::Args: PartialEq + Debug,
    H::Out: PartialEq + Debug,
{
    assert!(!rt.wants_hook::<H>(), "{} ({bus}): wants_hook", H::NAME);
    assert!(!rt.has_chain::<H>(), "{} ({bus}): a chain exists", H::NAME);
    let calls = Cell::new(0u32);
    // Whether vanilla saw exactly the site's arguments (compared in place: a copy would allocate).
    let received_unchanged: Cell<Option<bool>> = Cell::new(None);
    let (input, expected_out) = (args.clone(), out.clone());
    let vanilla_out = out.clone();
    let (result, allocations) = alloc::count(|| {
        rt.call::<H>(input, |a| {
            calls.set(calls.get() + 1);
            received_unchanged.set(Some(a == args));
            vanilla_out
        })
    });
    assert_eq!(calls.get(), 1, "{} ({bus}): vanilla calls", H::NAME);
    assert_eq!(
        allocations,
        0,
        "{} ({bus}): allocations during the call",
        H::NAME
    );
    assert_eq!(result, expected_out, "{} ({bus}): result", H::NAME);
    assert_eq!(
        received_unchanged.get(),
        Some(true),
        "{} ({bus}): vanilla's arguments (expected {args:?})",
        H::NAME
    );
    assert!(
        !rt.has_chain::<H>(),
        "{} ({bus}): a chain appeared",
        H::NAME
    );
}

fn gate<H>((args, out): (H::Args, H::Out)) -> &'static str
where
    H: ScriptHook,
    H::Args: PartialEq + Debug,
    H::Out: PartialEq + Debug,
{
    let info =
        catalog::hook_info(H::NAME).unwrap_or_else(|| panic!("{} not in the catalog", H::NAME));
    // 1. Null runtime.
    check_unsubscribed::<H>(&Runtime::new(), &args, &out, "null bus");
    // 2. Live bus, every other hook subscribed.
    let rt = busy_runtime_except(info);
    check_unsubscribed::<H>(&rt, &args, &out, "live bus");
    // 3. Subscribed then unsubscribed: the emptied chain is gone.
    let handle = rt.wrap::<H, _>("m", 0, |next, _| Ok(next.call()));
    assert!(rt.wants_hook::<H>());
    assert!(rt.unsubscribe_hook(handle));
    check_unsubscribed::<H>(&rt, &args, &out, "after unsubscribe");
    // 4. Owner cleanup.
    (info.wrap_script)(&rt, "gone", 5, Rc::new(PassThrough));
    rt.wrap::<H, _>("gone", 0, |_, _| Err(LinkError::new("never runs")));
    assert_eq!(rt.hook_chain(H::ID).len(), 2);
    rt.remove_owner("gone");
    check_unsubscribed::<H>(&rt, &args, &out, "after remove_owner");
    // Other chains are untouched.
    assert_eq!(rt.hook_chain_count() as usize, catalog::HOOKS.len() - 1);
    H::NAME
}

#[test]
fn every_catalog_hook_is_a_no_op_without_subscribers() {
    let gated: BTreeSet<&str> = [
        gate::<hooks::MapOccupancyAllowed>(samples::occupancy()),
        gate::<hooks::BattleFieldResidual>(samples::field_residual()),
        gate::<hooks::CatchPartyFull>(samples::party_full()),
        gate::<hooks::ExpGain>(samples::exp_gain()),
        gate::<hooks::EncounterRoll>(samples::encounter_roll()),
        gate::<hooks::CatchRate>(samples::catch_rate()),
        gate::<hooks::BattleDamage>(samples::damage()),
        gate::<hooks::BattleAccuracy>(samples::accuracy()),
        gate::<hooks::BattleCrit>(samples::crit()),
        gate::<hooks::TrainerParty>(samples::trainer_party()),
        gate::<hooks::EvolutionCheck>(samples::evolution()),
        gate::<hooks::BattleExpAward>(samples::exp_award()),
        gate::<hooks::SaveWrite>(samples::save_write()),
        gate::<hooks::MovementCollision>(samples::collision()),
        gate::<hooks::WarpDestination>(samples::warp()),
        gate::<hooks::BattleTurnOrder>(samples::turn_order()),
        gate::<hooks::BattleRun>(samples::run()),
        gate::<hooks::BattleEnemyAction>(samples::enemy_action()),
        gate::<hooks::BattleStyle>(samples::style()),
        gate::<hooks::BattleChargeRequired>(samples::charge_required()),
        gate::<hooks::EncounterSpecies>(samples::encounter_species()),
        gate::<hooks::ScriptCommand>(samples::script_command()),
        gate::<hooks::WorldTalk>(samples::world_talk()),
        gate::<hooks::TrainerBeforeBattle>(samples::before_battle()),
        gate::<hooks::PokemonGive>(samples::give()),
        gate::<hooks::CoreUpdate>(samples::core_update()),
        gate::<hooks::MovementSpeed>(samples::movement_speed()),
        gate::<hooks::BattleCatchExp>(samples::catch_exp()),
        gate::<hooks::CatchNickname>(samples::nickname()),
        gate::<hooks::EncounterTable>(samples::encounter_table()),
        gate::<hooks::SaveNewGame>(samples::new_game()),
        gate::<hooks::InputStep>(samples::input_step()),
    ]
    .into_iter()
    .collect();
    let catalog_names: BTreeSet<&str> = catalog::HOOKS.iter().map(|h| h.name).collect();
    let missing: Vec<_> = catalog_names.difference(&gated).collect();
    assert!(
        missing.is_empty(),
        "catalog hooks without a gate sample: {missing:?}"
    );
}

#[test]
fn the_guard_reads_bits_not_chains() {
    // Guards and chain tables agree for every hook, in both directions.
    let rt = Runtime::new();
    for (i, info) in catalog::HOOKS.iter().enumerate() {
        if i % 2 == 0 {
            (info.wrap_script)(&rt, "m", 0, Rc::new(PassThrough));
        }
    }
    for (i, info) in catalog::HOOKS.iter().enumerate() {
        assert_eq!(
            rt.hook_chain(info.id).is_empty(),
            i % 2 == 1,
            "{}",
            info.name
        );
    }
    assert_eq!(rt.remove_owner("m"), catalog::HOOKS.len().div_ceil(2));
    assert_eq!(rt.hook_chain_count(), 0);
}
