//! Overworld and lifecycle hooks of the Lua engine's catalog (issue 17): `encounter.species`,
//! `script.command`, `world.talk`, `trainer.before_battle`, `pokemon.give`, `core.update`,
//! `input.step`, `movement.speed`.

use serde::{Deserialize, Serialize};

use super::int_in;
use crate::arg_list;
use crate::catalog::common::{Direction, GameInfo, Record};
use crate::hooks::{Hook, HookId};
use crate::script::ScriptHook;
use crate::value::{Value, ValueError};

// ----- encounter.species ---------------------------------------------------------------------

/// `ctx` of `encounter.species`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EncounterSpeciesContext {
    pub map_id: String,
    /// The rolled level.
    pub level: u8,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EncounterSpeciesArgs {
    /// The rolled species id.
    pub species: String,
    pub ctx: EncounterSpeciesContext,
}
arg_list!(EncounterSpeciesArgs { species, ctx });

/// `encounter.species` — replace the species of a rolled wild encounter. Vanilla returns the
/// rolled species; an id the dataset does not know is refused at the site (reported).
pub struct EncounterSpecies;

impl Hook for EncounterSpecies {
    const NAME: &'static str = "encounter.species";
    const ID: HookId = HookId(20);
    type Args = EncounterSpeciesArgs;
    type Out = String;
}

impl ScriptHook for EncounterSpecies {
    const SIGNATURE: &'static str = "(next, species, ctx) -> species";
    const RESULT_RULE: &'static str =
        "a species id string; anything else fails the link, an unknown id is refused at the site";
}

// ----- script.command ------------------------------------------------------------------------

/// `ctx` of `script.command`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScriptCommandContext {
    pub map_id: String,
    /// The running script's source.
    pub source: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScriptCommandArgs {
    pub ctx: ScriptCommandContext,
    /// The command name, e.g. `"text"`, `"set_flag"`.
    pub name: String,
    /// The command's fields without its name (data).
    #[serde(default)]
    pub args: Record,
    /// The whole row (data).
    #[serde(default)]
    pub cmd: Record,
}
arg_list!(ScriptCommandArgs {
    ctx,
    name,
    args,
    cmd
});

/// `script.command` — one script row about to run. Vanilla runs it; a link that returns
/// without calling `next` skips the row. The return value is not used.
pub struct ScriptCommand;

impl Hook for ScriptCommand {
    const NAME: &'static str = "script.command";
    const ID: HookId = HookId(21);
    type Args = ScriptCommandArgs;
    type Out = bool;
}

impl ScriptHook for ScriptCommand {
    const SIGNATURE: &'static str = "(next, ctx, name, args, cmd)";
    const RESULT_RULE: &'static str =
        "the row runs only if `next` is called; the return value is ignored";
    fn out_from_value(_value: Value) -> Result<bool, ValueError> {
        Ok(true)
    }
}

// ----- world.talk (RFC 0014) -----------------------------------------------------------------

/// `ctx` of `world.talk`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TalkContext {
    pub map_id: String,
    /// The text constant being talked to.
    pub text: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WorldTalkArgs {
    pub game: GameInfo,
    pub ctx: TalkContext,
}
arg_list!(WorldTalkArgs { game, ctx });

/// `world.talk` — the player talks to an NPC or a sign. Vanilla runs the winning map-script
/// handler, else opens the text; a link that returns without calling `next` replaces it.
pub struct WorldTalk;

impl Hook for WorldTalk {
    const NAME: &'static str = "world.talk";
    const ID: HookId = HookId(22);
    type Args = WorldTalkArgs;
    type Out = bool;
}

impl ScriptHook for WorldTalk {
    const SIGNATURE: &'static str = "(next, game, ctx)";
    const RESULT_RULE: &'static str =
        "the vanilla talk runs only if `next` is called; the return value is ignored";
    fn out_from_value(_value: Value) -> Result<bool, ValueError> {
        Ok(true)
    }
}

// ----- trainer.before_battle (RFC 0010) ------------------------------------------------------

/// `ctx` of `trainer.before_battle`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TrainerBattleContext {
    /// The class as the Lua engine spells it (`OPP_BUG_CATCHER`; a mod's own class as
    /// registered).
    pub trainer_class: String,
    /// The party within the class, counting from 1.
    pub party_index: u16,
    pub map_id: String,
    pub name: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrainerBeforeBattleArgs {
    pub game: GameInfo,
    pub ctx: TrainerBattleContext,
}
arg_list!(TrainerBeforeBattleArgs { game, ctx });

/// `trainer.before_battle` — may this trainer battle start? Vanilla answers `true`; exactly
/// `false` skips the battle (nothing is recorded, no prize).
pub struct TrainerBeforeBattle;

impl Hook for TrainerBeforeBattle {
    const NAME: &'static str = "trainer.before_battle";
    const ID: HookId = HookId(23);
    type Args = TrainerBeforeBattleArgs;
    type Out = bool;
}

impl ScriptHook for TrainerBeforeBattle {
    const SIGNATURE: &'static str = "(next, game, ctx) -> boolean";
    const RESULT_RULE: &'static str =
        "exactly `false` skips the battle; anything else fights (fail closed to vanilla)";
    fn out_from_value(value: Value) -> Result<bool, ValueError> {
        Ok(!matches!(value, Value::Bool(false)))
    }
}

// ----- pokemon.give --------------------------------------------------------------------------

/// A gift as `pokemon.give` sees and answers it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Gift {
    pub species: String,
    pub level: u8,
}

/// `ctx` of `pokemon.give`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GiveContext {
    /// Party size before the gift.
    pub party_size: u8,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PokemonGiveArgs {
    pub game: GameInfo,
    pub mon: Gift,
    pub ctx: GiveContext,
}
arg_list!(PokemonGiveArgs { game, mon, ctx });

/// `pokemon.give` — a gift mon about to be built (supersedes the `pokemon.before_give`
/// event). Vanilla returns the gift; `nil` cancels it; `{species, level}` replaces it.
pub struct PokemonGive;

impl Hook for PokemonGive {
    const NAME: &'static str = "pokemon.give";
    const ID: HookId = HookId(24);
    type Args = PokemonGiveArgs;
    type Out = Option<Gift>;
}

impl ScriptHook for PokemonGive {
    const SIGNATURE: &'static str = "(next, game, mon, ctx) -> {species, level} | nil";
    const RESULT_RULE: &'static str = "nil cancels the gift; otherwise {species = id, level = \
         1..100}; anything else fails the link, an unknown species is refused at the site";
    fn out_from_value(value: Value) -> Result<Option<Gift>, ValueError> {
        if value.is_nil() {
            return Ok(None);
        }
        let species = match value.get("species") {
            Some(Value::Str(s)) if !s.is_empty() => s.clone(),
            _ => return Err(ValueError::new("a gift needs a species id")),
        };
        let level = int_in(value.get("level").unwrap_or(&Value::Nil), 1, 100, "level")? as u8;
        Ok(Some(Gift { species, level }))
    }
}

// ----- core.update ---------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CoreUpdateArgs {
    pub game: GameInfo,
    /// Seconds this update advances: always [`TICK_SECONDS`], as `input.step`'s `dt` (mods
    /// accumulate it into timers measured in seconds).
    pub dt: f64,
}
arg_list!(CoreUpdateArgs { game, dt });

/// `core.update` — one game tick (called once per [`Game::step`]-style tick). Vanilla runs
/// the tick; a link that returns without calling `next` holds the game still for this tick.
pub struct CoreUpdate;

impl Hook for CoreUpdate {
    const NAME: &'static str = "core.update";
    const ID: HookId = HookId(25);
    type Args = CoreUpdateArgs;
    type Out = bool;
}

impl ScriptHook for CoreUpdate {
    const SIGNATURE: &'static str = "(next, game, dt)";
    const RESULT_RULE: &'static str =
        "the tick runs only if `next` is called; the return value is ignored";
    fn out_from_value(_value: Value) -> Result<bool, ValueError> {
        Ok(true)
    }
}

// ----- input.step ----------------------------------------------------------------------------

/// The fixed duration of one engine tick in seconds, the `dt` of `input.step` (the Lua
/// engine's fixed 60 Hz logic step; a constant, never the wall clock).
pub const TICK_SECONDS: f64 = 1.0 / 60.0;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InputStepArgs {
    pub game: GameInfo,
    /// Seconds this tick advances: always [`TICK_SECONDS`].
    pub dt: f64,
}
arg_list!(InputStepArgs { game, dt });

/// `input.step` — the tick's input step, raised every tick before the tick's game logic (and
/// before `core.update`). Vanilla reads the tick's input (the pressed buttons); a link that
/// returns without calling `next` swallows it: the tick still runs, with no button pressed.
pub struct InputStep;

impl Hook for InputStep {
    const NAME: &'static str = "input.step";
    const ID: HookId = HookId(31);
    type Args = InputStepArgs;
    type Out = bool;
}

impl ScriptHook for InputStep {
    const SIGNATURE: &'static str = "(next, game, dt)";
    const RESULT_RULE: &'static str = "the tick's input is read only if `next` is called (else \
         the tick runs with no button pressed); the return value is ignored";
    fn out_from_value(_value: Value) -> Result<bool, ValueError> {
        Ok(true)
    }
}

// ----- movement.speed ------------------------------------------------------------------------

/// `ctx` of `movement.speed`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SpeedContext {
    pub map_id: String,
    pub dir: Direction,
    pub surfing: bool,
    /// The step is part of a script's movement.
    pub scripted: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MovementSpeedArgs {
    /// Ticks the step takes (vanilla: the walking step).
    pub frames: u32,
    pub ctx: SpeedContext,
}
arg_list!(MovementSpeedArgs { frames, ctx });

/// `movement.speed` — how many ticks the player's next step takes. Vanilla returns `frames`.
pub struct MovementSpeed;

impl Hook for MovementSpeed {
    const NAME: &'static str = "movement.speed";
    const ID: HookId = HookId(26);
    type Args = MovementSpeedArgs;
    type Out = u32;
}

impl ScriptHook for MovementSpeed {
    const SIGNATURE: &'static str = "(next, frames, ctx) -> frames";
    const RESULT_RULE: &'static str =
        "an integer number of ticks in 1..=64; anything else fails the link";
    fn out_from_value(value: Value) -> Result<u32, ValueError> {
        Ok(int_in(&value, 1, 64, "frames")? as u32)
    }
}
