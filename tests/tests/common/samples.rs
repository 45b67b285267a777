//! One realistic argument/result sample per catalog hook and one payload per catalog event,
//! for the parity gates. A catalog entry without a sample fails the gates (see
//! `gate_hooks.rs` / `gate_events.rs`), so a new hook or event must add one here.

#![allow(dead_code)]

use pallet_api::catalog::common::*;
use pallet_api::catalog::{events, hooks};
use pallet_api::reasons::OccupancyReason;
use pallet_api::Value;

pub fn game() -> GameInfo {
    GameInfo {
        version: GameVersion::Yellow,
        playthrough_id: Some("pt-1".into()),
        map_id: Some("PALLET_TOWN".into()),
    }
}

pub fn battle() -> BattleInfo {
    BattleInfo {
        kind: BattleKind::Trainer,
        opp_class: Some("OPP_BROCK".into()),
        party_index: Some(1),
        turn: 3,
    }
}

pub fn battler(side: Side) -> BattlerSnapshot {
    BattlerSnapshot {
        side,
        name: if side == Side::Player {
            "PIKACHU"
        } else {
            "ONIX"
        }
        .into(),
        hp: 21,
        max_hp: 35,
        types: vec!["ELECTRIC".into()],
        vanished: false,
    }
}

pub fn mv() -> MoveInfo {
    MoveInfo {
        id: "THUNDERSHOCK".into(),
        move_type: "ELECTRIC".into(),
        power: 40,
        accuracy: 255,
    }
}

pub fn mon() -> Value {
    Value::map([("species", Value::from("PIDGEY")), ("level", Value::Int(9))])
}

pub fn occupancy() -> (hooks::MapOccupancyAllowedArgs, bool) {
    let mut args = hooks::MapOccupancyAllowedArgs::at_dock(game(), Some(14), Some(2));
    args.ctx.reason = OccupancyReason::SsAnneDeparted;
    (args, false)
}

pub fn field_residual() -> (hooks::BattleFieldResidualArgs, Vec<hooks::ResidualRow>) {
    (
        hooks::BattleFieldResidualArgs {
            context: hooks::FieldResidualContext {
                field: Value::map([
                    ("weather", Value::from("SANDSTORM")),
                    ("tokens", Value::List(vec![])),
                ]),
                battlers: Battlers {
                    player: battler(Side::Player),
                    enemy: battler(Side::Enemy),
                },
                turn: 3,
            },
        },
        vec![hooks::ResidualRow {
            side: Side::Enemy,
            amount: 1,
            message: Some("sentinel".into()),
        }],
    )
}

pub fn party_full() -> (hooks::CatchPartyFullArgs, bool) {
    (
        hooks::CatchPartyFullArgs {
            ctx: hooks::PartyFullContext {
                battle: battle(),
                mon: mon(),
                name: "PIDGEY".into(),
                game: game(),
            },
        },
        false,
    )
}

pub fn exp_gain() -> (hooks::ExpGainArgs, u32) {
    (
        hooks::ExpGainArgs {
            ctx: hooks::ExpGainContext {
                defeated_def: Value::map([("baseExp", Value::Int(108))]),
                level: 12,
                is_trainer: true,
                participants: 1,
                traded: false,
                mon: mon(),
            },
        },
        277,
    )
}

pub fn encounter_roll() -> (hooks::EncounterRollArgs, Option<hooks::Encounter>) {
    (
        hooks::EncounterRollArgs {
            enc_def: Value::map([("rate", Value::Int(25))]),
            ctx: hooks::EncounterRollContext {
                map_id: "ROUTE_1".into(),
                terrain: "grass".into(),
                rng: pallet_api::script_rng::ScriptRng::seeded(7),
            },
        },
        Some(hooks::Encounter {
            species: "RATTATA".into(),
            level: 3,
        }),
    )
}

pub fn catch_rate() -> (hooks::CatchRateArgs, hooks::CatchOutcome) {
    (
        hooks::CatchRateArgs {
            ball: "POKE_BALL".into(),
            mon: mon(),
            def: Value::map([("catchRate", Value::Int(255))]),
            opts: hooks::CatchOptions {
                battle: battle(),
                rate_override: None,
            },
        },
        hooks::CatchOutcome {
            caught: false,
            shakes: 2,
        },
    )
}

pub fn damage() -> (hooks::BattleDamageArgs, u16) {
    (
        hooks::BattleDamageArgs {
            ctx: hooks::DamageContext {
                battle: battle(),
                user: battler(Side::Player),
                target: battler(Side::Enemy),
                move_info: mv(),
                critical: false,
            },
        },
        17,
    )
}

pub fn accuracy() -> (hooks::BattleAccuracyArgs, bool) {
    (
        hooks::BattleAccuracyArgs {
            ctx: hooks::AccuracyContext {
                battle: battle(),
                user: battler(Side::Player),
                target: battler(Side::Enemy),
                move_info: mv(),
            },
        },
        true,
    )
}

pub fn crit() -> (hooks::BattleCritArgs, bool) {
    (
        hooks::BattleCritArgs {
            ctx: hooks::CritContext {
                battle: battle(),
                user: battler(Side::Player),
                move_info: mv(),
            },
        },
        false,
    )
}

pub fn trainer_party() -> (hooks::TrainerPartyArgs, Vec<hooks::PartyMember>) {
    let party = vec![
        hooks::PartyMember {
            species: "GEODUDE".into(),
            level: 12,
            moves: None,
        },
        hooks::PartyMember {
            species: "ONIX".into(),
            level: 14,
            moves: Some(vec!["TACKLE".into(), "SCREECH".into(), "BIDE".into()]),
        },
    ];
    (
        hooks::TrainerPartyArgs {
            class_id: "OPP_BROCK".into(),
            index: 1,
            party: party.clone(),
        },
        party,
    )
}

pub fn evolution() -> (hooks::EvolutionCheckArgs, bool) {
    (
        hooks::EvolutionCheckArgs {
            game: game(),
            mon: mon(),
            evo: Value::map([
                ("into", Value::from("PIDGEOTTO")),
                ("level", Value::Int(18)),
            ]),
            trigger: "level".into(),
        },
        false,
    )
}

pub fn exp_award() -> (hooks::BattleExpAwardArgs, Vec<hooks::ExpShare>) {
    (
        hooks::BattleExpAwardArgs {
            ctx: hooks::ExpAwardContext {
                battle: battle(),
                participants: 2,
                alive: vec![0, 2],
                party: vec![mon(), mon(), mon()],
            },
        },
        vec![
            hooks::ExpShare {
                slot: 0,
                split: 2,
                announce: true,
            },
            hooks::ExpShare {
                slot: 2,
                split: 2,
                announce: true,
            },
        ],
    )
}

pub fn save_write() -> (hooks::SaveWriteArgs, bool) {
    (hooks::SaveWriteArgs { game: game() }, true)
}

pub fn collision() -> (hooks::MovementCollisionArgs, bool) {
    (
        hooks::MovementCollisionArgs {
            allowed: false,
            ctx: hooks::CollisionContext {
                map_id: "PALLET_TOWN".into(),
                mover: hooks::Mover {
                    kind: "player".into(),
                    id: None,
                },
                dir: Direction::Up,
                from_x: 5,
                from_y: 6,
                to_x: 5,
                to_y: 5,
                reason: Some("tile".into()),
            },
        },
        false,
    )
}

pub fn warp() -> (hooks::WarpDestinationArgs, hooks::WarpTarget) {
    (
        hooks::WarpDestinationArgs {
            map_id: "REDS_HOUSE_1F".into(),
            x: 3,
            y: 7,
            ctx: hooks::WarpContext {
                warp: Value::map([("destWarp", Value::Int(1))]),
                last_map: Some("PALLET_TOWN".into()),
            },
        },
        hooks::WarpTarget {
            map_id: "REDS_HOUSE_1F".into(),
            x: 3,
            y: 7,
        },
    )
}

// ----- events --------------------------------------------------------------------------------

pub fn game_ready() -> events::GameReadyPayload {
    events::GameReadyPayload { game: game() }
}
pub fn map_entered() -> events::MapEnteredPayload {
    events::MapEnteredPayload {
        map_id: "ROUTE_1".into(),
        from_map_id: Some("PALLET_TOWN".into()),
        via: Some("connection".into()),
    }
}
pub fn map_exited() -> events::MapExitedPayload {
    events::MapExitedPayload {
        map_id: "PALLET_TOWN".into(),
        to_map_id: Some("ROUTE_1".into()),
    }
}
pub fn world_stepped() -> events::WorldSteppedPayload {
    events::WorldSteppedPayload {
        map_id: "ROUTE_1".into(),
        x: 4,
        y: 30,
        tile: Some(0x2c),
    }
}
pub fn block_replaced() -> events::WorldBlockReplacedPayload {
    events::WorldBlockReplacedPayload {
        map_id: "VERMILION_DOCK".into(),
        bx: 7,
        by: 2,
        block: 0x0d,
    }
}
pub fn battle_started() -> events::BattleStartedPayload {
    events::BattleStartedPayload {
        battle: events::StartedBattle::new(battle(), None),
        kind: BattleKind::Trainer,
        trainer_id: Some("OPP_BROCK".into()),
        species: None,
    }
}
pub fn turn_ended() -> events::BattleTurnEndedPayload {
    events::BattleTurnEndedPayload {
        battle: battle(),
        turn: 3,
    }
}
pub fn fainted() -> events::BattleFaintedPayload {
    events::BattleFaintedPayload {
        battle: battle(),
        battler: battler(Side::Enemy),
    }
}
pub fn battle_ended() -> events::BattleEndedPayload {
    events::BattleEndedPayload {
        battle: battle(),
        result: events::BattleResult::Win,
        skipped: None,
    }
}
pub fn caught() -> events::PokemonCaughtPayload {
    events::PokemonCaughtPayload {
        battle: battle(),
        mon: mon(),
        species: "PIDGEY".into(),
        is_new: true,
        ball: "POKE_BALL".into(),
        destination: events::CatchDestination::Box,
        game: game(),
    }
}
pub fn level_up() -> events::PokemonLevelUpPayload {
    events::PokemonLevelUpPayload {
        mon: mon(),
        level: 10,
        prev_level: 9,
        learnable: vec!["QUICK_ATTACK".into()],
    }
}
pub fn save_created() -> events::SaveCreatedPayload {
    events::SaveCreatedPayload {
        save: Value::map([("version", Value::from("red"))]),
    }
}
pub fn save_loaded() -> events::SaveLoadedPayload {
    events::SaveLoadedPayload {
        save: Value::map([("version", Value::from("red"))]),
        meta: Value::map([("format", Value::Int(4))]),
        mods_diff: Value::map([("added", Value::List(vec![]))]),
    }
}
pub fn checkpoint_restored() -> events::CheckpointRestoredPayload {
    events::CheckpointRestoredPayload {
        game: game(),
        kind: events::CheckpointKind::Overworld,
    }
}
pub fn mods_loaded() -> events::ModsLoadedPayload {
    events::ModsLoadedPayload {
        order: vec!["a".into(), "b".into()],
        failed: vec![],
    }
}

// ----- the Lua engine's flow events (issue 17) -------------------------------------------------

pub fn turn_started() -> events::BattleTurnStartedPayload {
    events::BattleTurnStartedPayload {
        battle: battle(),
        turn: 3,
    }
}
pub fn move_used() -> events::BattleMoveUsedPayload {
    events::BattleMoveUsedPayload {
        battle: battle(),
        user: battler(Side::Player),
        move_info: mv(),
        move_id: "THUNDERSHOCK".into(),
        is_called: false,
    }
}
pub fn damage_dealt() -> events::BattleDamageDealtPayload {
    events::BattleDamageDealtPayload {
        battle: battle(),
        attacker: battler(Side::Player),
        target: battler(Side::Enemy),
        amount: 14,
        critical: false,
        move_id: "THUNDERSHOCK".into(),
        substitute: false,
    }
}
pub fn status_inflicted() -> events::BattleStatusInflictedPayload {
    events::BattleStatusInflictedPayload {
        battle: battle(),
        target: battler(Side::Enemy),
        status: "PAR".into(),
    }
}
pub fn battler_switched() -> events::BattleBattlerSwitchedPayload {
    events::BattleBattlerSwitchedPayload {
        battle: battle(),
        side: Side::Enemy,
        battler: battler(Side::Enemy),
        slot: 1,
        from_slot: None,
    }
}
pub fn ball_thrown() -> events::BattleBallThrownPayload {
    events::BattleBallThrownPayload {
        battle: battle(),
        ball: "GREAT_BALL".into(),
        caught: false,
        shakes: 2,
    }
}
pub fn exp_gained() -> events::BattleExpGainedPayload {
    events::BattleExpGainedPayload {
        battle: battle(),
        mon: mon(),
        slot: 0,
        amount: 120,
    }
}
pub fn evolved() -> events::PokemonEvolvedPayload {
    events::PokemonEvolvedPayload {
        mon: mon(),
        from_species: "PIDGEY".into(),
        to_species: "PIDGEOTTO".into(),
        via: "level".into(),
    }
}
pub fn move_learned() -> events::PokemonMoveLearnedPayload {
    events::PokemonMoveLearnedPayload {
        mon: mon(),
        move_id: "QUICK_ATTACK".into(),
        forgot: None,
    }
}
pub fn before_give() -> events::PokemonBeforeGivePayload {
    events::PokemonBeforeGivePayload {
        mon: mon(),
        species: "PIDGEY".into(),
        level: 9,
        game: game(),
    }
}
pub fn received() -> events::PokemonReceivedPayload {
    events::PokemonReceivedPayload {
        mon: mon(),
        from: "gift".into(),
        peer_name: None,
        destination: events::CatchDestination::Party,
    }
}
pub fn interacted() -> events::WorldInteractedPayload {
    events::WorldInteractedPayload {
        map_id: "ROUTE_1".into(),
        x: 8,
        y: 10,
        kind: "sign".into(),
        text: "_Route1SignText".into(),
    }
}
pub fn trainer_engaged() -> events::WorldTrainerEngagedPayload {
    events::WorldTrainerEngagedPayload {
        map_id: "ROUTE_1".into(),
        trainer_class: "OPP_BUG_CATCHER".into(),
        party_index: 1,
        name: "BUG CATCHER".into(),
    }
}
pub fn object_toggled() -> events::WorldObjectToggledPayload {
    events::WorldObjectToggledPayload {
        map_id: "PALLET_TOWN".into(),
        obj_name: "oak".into(),
        visible: false,
    }
}
pub fn blacked_out() -> events::WorldBlackedOutPayload {
    events::WorldBlackedOutPayload {
        save: Value::map([("money", Value::Int(1500))]),
        heal_target: events::HealTarget {
            map_id: "PALLET_TOWN".into(),
            x: 5,
            y: 6,
        },
    }
}
pub fn map_reloaded() -> events::MapReloadedPayload {
    events::MapReloadedPayload {
        map_id: "PALLET_TOWN".into(),
        reason: "checkpoint".into(),
    }
}
pub fn player_warped() -> events::PlayerWarpedPayload {
    events::PlayerWarpedPayload {
        from_map_id: "PALLET_TOWN".into(),
        map_id: "REDS_HOUSE_1F".into(),
        x: 2,
        y: 7,
        facing: Direction::Up,
    }
}
pub fn flag_changed() -> events::FlagChangedPayload {
    events::FlagChangedPayload {
        name: "EVENT_GOT_HM01".into(),
        value: true,
    }
}
pub fn script_ctx() -> events::ScriptRunContext {
    events::ScriptRunContext {
        source: "VERMILION_DOCK.onEnter".into(),
        map_id: "VERMILION_DOCK".into(),
    }
}
pub fn script_started() -> events::ScriptStartedPayload {
    events::ScriptStartedPayload { ctx: script_ctx() }
}
pub fn script_ended() -> events::ScriptEndedPayload {
    events::ScriptEndedPayload {
        ctx: script_ctx(),
        completed: true,
    }
}
pub fn save_writing() -> events::SaveWritingPayload {
    events::SaveWritingPayload {
        save: Value::map([("version", Value::from("red"))]),
        meta: Value::map([("format", Value::Int(4))]),
    }
}
pub fn save_loading() -> events::SaveLoadingPayload {
    events::SaveLoadingPayload {
        raw: Value::map([("version", Value::from("red"))]),
    }
}
pub fn options_changed() -> events::ModOptionsChangedPayload {
    events::ModOptionsChangedPayload {
        mod_id: "m".into(),
        key: "rate".into(),
        value: Value::Int(2),
    }
}
pub fn sound_played() -> events::SoundPlayedPayload {
    events::SoundPlayedPayload {
        id: "SFX_SS_ANNE_HORN".into(),
        map_id: "VERMILION_DOCK".into(),
    }
}
pub fn music_started() -> events::MusicStartedPayload {
    events::MusicStartedPayload {
        id: "Music_Surfing".into(),
        map_id: "ROUTE_1".into(),
    }
}
pub fn music_stopped() -> events::MusicStoppedPayload {
    events::MusicStoppedPayload {
        map_id: "VERMILION_DOCK".into(),
    }
}

// ----- the Lua engine's rule and flow hooks (issue 17) -----------------------------------------

pub fn turn_order() -> (hooks::BattleTurnOrderArgs, Side) {
    (
        hooks::BattleTurnOrderArgs {
            player: battler(Side::Player),
            player_move: Some(mv()),
            enemy: battler(Side::Enemy),
            enemy_move: None,
            ctx: hooks::TurnOrderContext { battle: battle() },
        },
        Side::Enemy,
    )
}
pub fn run() -> (hooks::BattleRunArgs, bool) {
    (
        hooks::BattleRunArgs {
            ctx: hooks::RunContext {
                battle: battle(),
                attempts: 2,
                player_speed: 30,
                enemy_speed: 90,
            },
        },
        false,
    )
}
pub fn enemy_action() -> (hooks::BattleEnemyActionArgs, hooks::EnemyAction) {
    let act = |kind: &str, slot| hooks::EnemyAction {
        kind: kind.into(),
        slot,
    };
    (
        hooks::BattleEnemyActionArgs {
            battle: battle(),
            ctx: hooks::EnemyActionContext {
                enemy: battler(Side::Enemy),
                player: battler(Side::Player),
                moves: vec!["TACKLE".into(), "".into(), "".into(), "".into()],
                legal: vec![act("move", 0), act("switch", 1)],
            },
        },
        act("move", 0),
    )
}
pub fn style() -> (hooks::BattleStyleArgs, hooks::BattleStyleName) {
    (
        hooks::BattleStyleArgs { battle: battle() },
        hooks::BattleStyleName::Shift,
    )
}
pub fn charge_required() -> (hooks::BattleChargeRequiredArgs, bool) {
    (
        hooks::BattleChargeRequiredArgs {
            battle: battle(),
            ctx: hooks::ChargeContext {
                user: battler(Side::Player),
                move_info: mv(),
            },
        },
        true,
    )
}
pub fn encounter_species() -> (hooks::EncounterSpeciesArgs, String) {
    (
        hooks::EncounterSpeciesArgs {
            species: "PIDGEY".into(),
            ctx: hooks::EncounterSpeciesContext {
                map_id: "ROUTE_1".into(),
                level: 3,
            },
        },
        "PIDGEY".into(),
    )
}
pub fn script_command() -> (hooks::ScriptCommandArgs, bool) {
    (
        hooks::ScriptCommandArgs {
            ctx: hooks::ScriptCommandContext {
                map_id: "VERMILION_DOCK".into(),
                source: "VERMILION_DOCK.onEnter".into(),
            },
            name: "set_flag".into(),
            args: Value::map([("flag", Value::from("EVENT_X"))]),
            cmd: Value::map([
                ("cmd", Value::from("set_flag")),
                ("flag", Value::from("EVENT_X")),
            ]),
        },
        true,
    )
}
pub fn world_talk() -> (hooks::WorldTalkArgs, bool) {
    (
        hooks::WorldTalkArgs {
            game: game(),
            ctx: hooks::TalkContext {
                map_id: "ROUTE_1".into(),
                text: "_Route1SignText".into(),
            },
        },
        true,
    )
}
pub fn before_battle() -> (hooks::TrainerBeforeBattleArgs, bool) {
    (
        hooks::TrainerBeforeBattleArgs {
            game: game(),
            ctx: hooks::TrainerBattleContext {
                trainer_class: "OPP_BUG_CATCHER".into(),
                party_index: 1,
                map_id: "ROUTE_1".into(),
                name: "BUG CATCHER".into(),
            },
        },
        true,
    )
}
pub fn give() -> (hooks::PokemonGiveArgs, Option<hooks::Gift>) {
    let gift = hooks::Gift {
        species: "PIKACHU".into(),
        level: 5,
    };
    (
        hooks::PokemonGiveArgs {
            game: game(),
            mon: gift.clone(),
            ctx: hooks::GiveContext { party_size: 1 },
        },
        Some(gift),
    )
}
pub fn core_update() -> (hooks::CoreUpdateArgs, bool) {
    (
        hooks::CoreUpdateArgs {
            game: game(),
            dt: hooks::TICK_SECONDS,
        },
        true,
    )
}
pub fn input_step() -> (hooks::InputStepArgs, bool) {
    (
        hooks::InputStepArgs {
            game: game(),
            dt: hooks::TICK_SECONDS,
        },
        true,
    )
}
pub fn movement_speed() -> (hooks::MovementSpeedArgs, u32) {
    (
        hooks::MovementSpeedArgs {
            frames: 8,
            ctx: hooks::SpeedContext {
                map_id: "ROUTE_1".into(),
                dir: Direction::Up,
                surfing: false,
                scripted: false,
            },
        },
        8,
    )
}
pub fn catch_exp() -> (hooks::BattleCatchExpArgs, bool) {
    (
        hooks::BattleCatchExpArgs {
            ctx: hooks::CatchExpContext {
                battle: BattleInfo {
                    kind: BattleKind::Wild,
                    opp_class: None,
                    party_index: None,
                    turn: 2,
                },
                mon: mon(),
            },
        },
        false,
    )
}
pub fn nickname() -> (hooks::CatchNicknameArgs, hooks::NicknameChoice) {
    (
        hooks::CatchNicknameArgs {
            mon: mon(),
            ctx: hooks::NicknameContext {
                battle: battle(),
                name: "PIDGEY".into(),
                game: game(),
            },
        },
        hooks::NicknameChoice::Prompt(true),
    )
}
pub fn encounter_table() -> (hooks::EncounterTableArgs, hooks::EncounterTableDef) {
    let table = hooks::EncounterTableDef {
        grass_rate: 25,
        grass: vec![
            hooks::EncounterSlotDef {
                species: "PIDGEY".into(),
                level: 3,
            },
            hooks::EncounterSlotDef {
                species: "RATTATA".into(),
                level: 3,
            },
        ],
    };
    (
        hooks::EncounterTableArgs {
            table: table.clone(),
            ctx: hooks::EncounterTableContext {
                map_id: "ROUTE_1".into(),
                terrain: "grass".into(),
                x: 10,
                y: 20,
                preview: false,
            },
        },
        table,
    )
}
pub fn new_game() -> (hooks::SaveNewGameArgs, hooks::NewGameState) {
    let state = hooks::NewGameState {
        money: 3000,
        inventory: vec![],
        pc_items: vec![hooks::ItemCount {
            id: "POTION".into(),
            count: 1,
        }],
        player: hooks::StartPosition {
            map: "REDS_HOUSE_2F".into(),
            x: 3,
            y: 6,
            facing: Direction::Up,
        },
        flags: vec![],
    };
    (
        hooks::SaveNewGameArgs {
            game: game(),
            save: state.clone(),
        },
        state,
    )
}

/// Every catalog hook with its sample function, and every catalog event with its payload
/// function, handed to the macro `$cb` as `hooks [Type => sample, …] events [Type => sample, …]`.
/// The one list the docs, definitions and argument-sink tests walk (the gates check that the
/// catalog has nothing this list lacks).
#[allow(unused_macros)] // not every test that includes the samples walks the whole list
macro_rules! with_catalog_samples {
    ($cb:ident) => {
        $cb! {
            hooks [
                MapOccupancyAllowed => occupancy, BattleFieldResidual => field_residual,
                CatchPartyFull => party_full, ExpGain => exp_gain, EncounterRoll => encounter_roll,
                CatchRate => catch_rate, BattleDamage => damage, BattleAccuracy => accuracy,
                BattleCrit => crit, TrainerParty => trainer_party, EvolutionCheck => evolution,
                BattleExpAward => exp_award, SaveWrite => save_write,
                MovementCollision => collision, WarpDestination => warp,
                BattleTurnOrder => turn_order, BattleRun => run,
                BattleEnemyAction => enemy_action, BattleStyle => style,
                BattleChargeRequired => charge_required, EncounterSpecies => encounter_species,
                ScriptCommand => script_command, WorldTalk => world_talk,
                TrainerBeforeBattle => before_battle, PokemonGive => give,
                CoreUpdate => core_update, MovementSpeed => movement_speed,
                BattleCatchExp => catch_exp, CatchNickname => nickname,
                EncounterTable => encounter_table, SaveNewGame => new_game,
                InputStep => input_step,
            ]
            events [
                GameReady => game_ready, MapEntered => map_entered, MapExited => map_exited,
                WorldStepped => world_stepped, WorldBlockReplaced => block_replaced,
                BattleStarted => battle_started, BattleTurnEnded => turn_ended,
                BattleFainted => fainted, BattleEnded => battle_ended, PokemonCaught => caught,
                PokemonLevelUp => level_up, SaveCreated => save_created,
                SaveLoaded => save_loaded, CheckpointRestored => checkpoint_restored,
                ModsLoaded => mods_loaded, BattleTurnStarted => turn_started,
                BattleMoveUsed => move_used, BattleDamageDealt => damage_dealt,
                BattleStatusInflicted => status_inflicted,
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
        }
    };
}
