//! The context shapes of `pallet mods defs`: every hook parameter's and every event payload's
//! fields with their Rhai types, from the gate samples serialized the way scripts see them,
//! written as a table into `script-host/src/host/context_shapes.rs` (which `defs.rs` renders
//! into `hooks.d.rhai` / `events.d.rhai`). The test fails when that file and the catalog
//! drift; `PALLET_BLESS=1 cargo test -p pallet-tests --test defs_shapes` rewrites it.

#[path = "common/samples.rs"]
mod samples;

use std::collections::BTreeMap;
use std::path::Path;

use pallet_api::catalog::{self, events, hooks};
use pallet_api::script::{ScriptEvent, ScriptHook};
use pallet_api::Value;

/// `#{a: int, b: #{c: string}, d: [#{e: int}]}`: a value's Rhai shape, fully nested (a list
/// shows its first element's shape; an empty list is `array`).
fn shape(v: &Value) -> String {
    match v {
        Value::Nil => "()".to_owned(),
        Value::Bool(_) => "bool".to_owned(),
        Value::Int(_) => "int".to_owned(),
        Value::Float(_) => "float".to_owned(),
        Value::Str(_) => "string".to_owned(),
        Value::List(items) => match items.first() {
            Some(first) => format!("[{}]", shape(first)),
            None => "array".to_owned(),
        },
        Value::Map(m) if m.is_empty() => "map".to_owned(),
        Value::Map(m) => format!(
            "#{{{}}}",
            m.iter()
                .map(|(k, v)| format!("{k}: {}", shape(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

fn hook_row<H: ScriptHook>(args: H::Args) -> (String, Vec<(String, String)>) {
    let values = H::args_to_values(&args).expect("sample args convert");
    let names = <H::Args as pallet_api::script::ArgList>::NAMES;
    let params = names
        .iter()
        .zip(values.iter())
        .map(|(n, v)| ((*n).to_owned(), shape(v)))
        .collect();
    (H::NAME.to_owned(), params)
}

fn event_row<E: ScriptEvent>(payload: E::Payload) -> (String, String) {
    let v = E::payload_to_value(&payload).expect("sample payload converts");
    (E::NAME.to_owned(), shape(&v))
}

macro_rules! hook_rows {
    ($($ty:ident => $sample:ident),+ $(,)?) => {
        vec![$(hook_row::<hooks::$ty>(samples::$sample().0)),+]
    };
}

macro_rules! event_rows {
    ($($ty:ident => $sample:ident),+ $(,)?) => {
        vec![$(event_row::<events::$ty>(samples::$sample())),+]
    };
}

fn render() -> String {
    let hook_ctx: BTreeMap<String, Vec<(String, String)>> = hook_rows![
        MapOccupancyAllowed => occupancy, BattleFieldResidual => field_residual,
        CatchPartyFull => party_full, ExpGain => exp_gain, EncounterRoll => encounter_roll,
        CatchRate => catch_rate, BattleDamage => damage, BattleAccuracy => accuracy,
        BattleCrit => crit, TrainerParty => trainer_party, EvolutionCheck => evolution,
        BattleExpAward => exp_award, SaveWrite => save_write, MovementCollision => collision,
        WarpDestination => warp, BattleTurnOrder => turn_order, BattleRun => run,
        BattleEnemyAction => enemy_action, BattleStyle => style,
        BattleChargeRequired => charge_required, EncounterSpecies => encounter_species,
        ScriptCommand => script_command, WorldTalk => world_talk,
        TrainerBeforeBattle => before_battle, PokemonGive => give, CoreUpdate => core_update,
        MovementSpeed => movement_speed, BattleCatchExp => catch_exp,
        CatchNickname => nickname, EncounterTable => encounter_table, SaveNewGame => new_game,
    ]
    .into_iter()
    .collect();
    let event_ctx: BTreeMap<String, String> = event_rows![
        GameReady => game_ready, MapEntered => map_entered, MapExited => map_exited,
        WorldStepped => world_stepped, WorldBlockReplaced => block_replaced,
        BattleStarted => battle_started, BattleTurnEnded => turn_ended, BattleFainted => fainted,
        BattleEnded => battle_ended, PokemonCaught => caught, PokemonLevelUp => level_up,
        SaveCreated => save_created, SaveLoaded => save_loaded,
        CheckpointRestored => checkpoint_restored, ModsLoaded => mods_loaded,
        BattleTurnStarted => turn_started, BattleMoveUsed => move_used,
        BattleDamageDealt => damage_dealt, BattleStatusInflicted => status_inflicted,
        BattleBattlerSwitched => battler_switched, BattleBallThrown => ball_thrown,
        BattleExpGained => exp_gained, PokemonEvolved => evolved,
        PokemonMoveLearned => move_learned, PokemonBeforeGive => before_give,
        PokemonReceived => received, WorldInteracted => interacted,
        WorldTrainerEngaged => trainer_engaged, WorldObjectToggled => object_toggled,
        WorldBlackedOut => blacked_out, MapReloaded => map_reloaded,
        PlayerWarped => player_warped, FlagChanged => flag_changed,
        ScriptStarted => script_started, ScriptEnded => script_ended,
        SaveWriting => save_writing, SaveLoading => save_loading,
        ModOptionsChanged => options_changed, SoundPlayed => sound_played,
        MusicStarted => music_started, MusicStopped => music_stopped,
    ]
    .into_iter()
    .collect();
    let mut out = String::from(
        "//! generated by tests/tests/defs_shapes.rs from pallet_api::catalog and the gate samples — do not edit\n\
         //! (`PALLET_BLESS=1 cargo test -p pallet-tests --test defs_shapes` rewrites it).\n\
         //!\n\
         //! The context shape of every hook parameter and event payload, as a script sees it\n\
         //! (fields absent when nil are not listed), in catalog order.\n\n\
         /// `(hook, [(parameter, shape)])`.\n\
         #[rustfmt::skip]\n\
         pub const HOOK_SHAPES: &[(&str, &[(&str, &str)])] = &[\n",
    );
    for h in catalog::HOOKS {
        let params = hook_ctx
            .get(h.name)
            .unwrap_or_else(|| panic!("{}: no sample in defs_shapes.rs", h.name));
        out.push_str(&format!("    (\n        {:?},\n        &[\n", h.name));
        for (p, s) in params {
            out.push_str(&format!("            ({p:?}, {s:?}),\n"));
        }
        out.push_str("        ],\n    ),\n");
    }
    out.push_str("];\n\n/// `(event, payload shape)`.\n#[rustfmt::skip]\npub const EVENT_SHAPES: &[(&str, &str)] = &[\n");
    for e in catalog::EVENTS {
        let s = event_ctx
            .get(e.name)
            .unwrap_or_else(|| panic!("{}: no sample in defs_shapes.rs", e.name));
        out.push_str(&format!("    ({:?}, {s:?}),\n", e.name));
    }
    out.push_str("];\n");
    out
}

#[test]
fn context_shapes_match_the_catalog() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../script-host/src/host/context_shapes.rs");
    let fresh = render();
    if std::env::var_os("PALLET_BLESS").is_some() {
        std::fs::write(&path, &fresh).expect("write context_shapes.rs");
        return;
    }
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        current == fresh,
        "script-host/src/host/context_shapes.rs drifted from the catalog; run \
         PALLET_BLESS=1 cargo test -p pallet-tests --test defs_shapes"
    );
}
