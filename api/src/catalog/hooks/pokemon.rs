//! Pokémon hooks: `catch.party_full`, `catch.rate`, `exp.gain`, `evolution.check`,
//! `battle.catch_exp`, `catch.nickname`.

use serde::{Deserialize, Serialize};

use super::int_in;
use crate::arg_list;
use crate::catalog::common::{BattleInfo, GameInfo, Record};
use crate::hooks::{Hook, HookId};
use crate::script::ScriptHook;
use crate::value::{Value, ValueError};

// ----- catch.party_full (RFC 0018) -----------------------------------------------------------

/// `ctx` of `catch.party_full`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PartyFullContext {
    pub battle: BattleInfo,
    /// The caught mon, detached (a mod taking custody copies it from here).
    #[serde(default)]
    pub mon: Record,
    /// Display name.
    pub name: String,
    pub game: GameInfo,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CatchPartyFullArgs {
    pub ctx: PartyFullContext,
}
arg_list!(CatchPartyFullArgs { ctx });

/// `catch.party_full` — a catch the 6/6 party cannot hold: `true` = the mod takes custody
/// (destination "mod"), `false` = deposit in a box as always. Vanilla answers `false`.
pub struct CatchPartyFull;

impl Hook for CatchPartyFull {
    const NAME: &'static str = "catch.party_full";
    const ID: HookId = HookId(2);
    type Args = CatchPartyFullArgs;
    type Out = bool;
}

impl ScriptHook for CatchPartyFull {
    const SIGNATURE: &'static str = "(next, ctx) -> boolean";
    const RESULT_RULE: &'static str = "truthy claims the mon (destination \"mod\"); falsy deposits";
    fn out_from_value(value: Value) -> Result<bool, ValueError> {
        Ok(value.truthy())
    }
}

// ----- catch.rate ----------------------------------------------------------------------------

/// `opts` of `catch.rate`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CatchOptions {
    pub battle: BattleInfo,
    /// A forced catch rate (0..255) in place of the species'.
    pub rate_override: Option<u8>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CatchRateArgs {
    /// Ball item id, e.g. `"POKE_BALL"`.
    pub ball: String,
    /// The target mon (detached).
    #[serde(default)]
    pub mon: Record,
    /// Its species definition (detached).
    #[serde(default)]
    pub def: Record,
    pub opts: CatchOptions,
}
arg_list!(CatchRateArgs {
    ball,
    mon,
    def,
    opts
});

/// The outcome of a throw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CatchOutcome {
    pub caught: bool,
    /// Ball wobbles shown (0..=3).
    pub shakes: u8,
}

/// `catch.rate` — does the ball catch, and how many wobbles? Vanilla is the Gen 1 capture
/// routine.
pub struct CatchRate;

impl Hook for CatchRate {
    const NAME: &'static str = "catch.rate";
    const ID: HookId = HookId(5);
    type Args = CatchRateArgs;
    type Out = CatchOutcome;
}

impl ScriptHook for CatchRate {
    const SIGNATURE: &'static str = "(next, ball, mon, def, opts) -> caught, shakes";
    const RESULT_RULE: &'static str = "caught is truthiness; shakes an integer clamped to 0..3, \
         absent = 3 when caught else 0";
    const OUT_ARITY: usize = 2;
    fn out_to_value(out: &CatchOutcome) -> Result<Value, ValueError> {
        Ok(Value::List(vec![
            Value::Bool(out.caught),
            Value::Int(out.shakes.into()),
        ]))
    }
    fn out_from_value(value: Value) -> Result<CatchOutcome, ValueError> {
        let (first, second) = match &value {
            Value::List(items) => (
                items.first().cloned().unwrap_or_default(),
                items.get(1).cloned().unwrap_or_default(),
            ),
            other => (other.clone(), Value::Nil),
        };
        let caught = first.truthy();
        let shakes = match second.as_exact_int() {
            Some(n) => n.clamp(0, 3) as u8,
            None if caught => 3,
            None => 0,
        };
        Ok(CatchOutcome { caught, shakes })
    }
}

// ----- exp.gain ------------------------------------------------------------------------------

/// `ctx` of `exp.gain`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExpGainContext {
    /// Species definition of the defeated mon (detached).
    #[serde(default)]
    pub defeated_def: Record,
    /// Level of the defeated mon.
    pub level: u8,
    pub is_trainer: bool,
    pub participants: u8,
    /// The receiving mon is traded (1.5×).
    pub traded: bool,
    /// The receiving mon (detached).
    #[serde(default)]
    pub mon: Record,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExpGainArgs {
    pub ctx: ExpGainContext,
}
arg_list!(ExpGainArgs { ctx });

/// `exp.gain` — EXP one mon receives for a defeat. Vanilla is the Gen 1 formula.
pub struct ExpGain;

impl Hook for ExpGain {
    const NAME: &'static str = "exp.gain";
    const ID: HookId = HookId(3);
    type Args = ExpGainArgs;
    type Out = u32;
}

impl ScriptHook for ExpGain {
    const SIGNATURE: &'static str = "(next, ctx) -> number";
    const RESULT_RULE: &'static str =
        "a non-negative integer (fractions are floored); anything else fails the link";
    fn out_from_value(value: Value) -> Result<u32, ValueError> {
        let floored = match value {
            Value::Float(f) if f.is_finite() && f >= 0.0 => Value::Float(f.floor()),
            other => other,
        };
        int_in(&floored, 0, u32::MAX.into(), "exp").map(|e| e as u32)
    }
}

// ----- evolution.check -----------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvolutionCheckArgs {
    pub game: GameInfo,
    /// The mon that may evolve (detached).
    #[serde(default)]
    pub mon: Record,
    /// The evolution record under test (detached).
    #[serde(default)]
    pub evo: Record,
    /// `"level"`, `"item"` or `"trade"`.
    pub trigger: String,
}
arg_list!(EvolutionCheckArgs {
    game,
    mon,
    evo,
    trigger
});

/// `evolution.check` — does this evolution happen now? Vanilla applies the data's condition.
pub struct EvolutionCheck;

impl Hook for EvolutionCheck {
    const NAME: &'static str = "evolution.check";
    const ID: HookId = HookId(10);
    type Args = EvolutionCheckArgs;
    type Out = bool;
}

impl ScriptHook for EvolutionCheck {
    const SIGNATURE: &'static str = "(next, game, mon, evo, trigger) -> boolean";
    const RESULT_RULE: &'static str = "truthy evolves";
    fn out_from_value(value: Value) -> Result<bool, ValueError> {
        Ok(value.truthy())
    }
}

// ----- battle.catch_exp ----------------------------------------------------------------------

/// `ctx` of `battle.catch_exp`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CatchExpContext {
    pub battle: BattleInfo,
    /// The caught mon (detached).
    #[serde(default)]
    pub mon: Record,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BattleCatchExpArgs {
    pub ctx: CatchExpContext,
}
arg_list!(BattleCatchExpArgs { ctx });

/// `battle.catch_exp` — does a catch award EXP as if the mon had fainted? Gen 1 awards none:
/// vanilla answers `false`; a truthy answer runs the defeat's EXP award (shares, `exp.gain`).
pub struct BattleCatchExp;

impl Hook for BattleCatchExp {
    const NAME: &'static str = "battle.catch_exp";
    const ID: HookId = HookId(27);
    type Args = BattleCatchExpArgs;
    type Out = bool;
}

impl ScriptHook for BattleCatchExp {
    const SIGNATURE: &'static str = "(next, ctx) -> boolean";
    const RESULT_RULE: &'static str = "truthy awards the defeat's EXP to the participants; falsy \
         awards none (the cartridge)";
    fn out_from_value(value: Value) -> Result<bool, ValueError> {
        Ok(value.truthy())
    }
}

// ----- catch.nickname ------------------------------------------------------------------------

/// `ctx` of `catch.nickname`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NicknameContext {
    pub battle: BattleInfo,
    /// The display (species) name.
    pub name: String,
    pub game: GameInfo,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CatchNicknameArgs {
    /// The caught mon (detached).
    #[serde(default)]
    pub mon: Record,
    pub ctx: NicknameContext,
}
arg_list!(CatchNicknameArgs { mon, ctx });

/// Cartridge nickname limit (characters).
pub const NICKNAME_LIMIT: usize = 10;

/// What `catch.nickname` answers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum NicknameChoice {
    /// `true`: offer the nickname prompt (vanilla); `false`: no prompt, the species name stays.
    Prompt(bool),
    /// No prompt: this nickname (already cut to [`NICKNAME_LIMIT`]; empty names nothing).
    Name(String),
}

/// `catch.nickname` — after a catch, before the mon is stored: offer the nickname prompt
/// (vanilla, `true`), skip it (`false`), or name the mon (a string, cut to 10 characters).
pub struct CatchNickname;

impl Hook for CatchNickname {
    const NAME: &'static str = "catch.nickname";
    const ID: HookId = HookId(28);
    type Args = CatchNicknameArgs;
    type Out = NicknameChoice;
}

impl ScriptHook for CatchNickname {
    const SIGNATURE: &'static str = "(next, mon, ctx) -> boolean | string";
    const RESULT_RULE: &'static str = "exactly `false` skips the prompt; a string names the mon \
         (cut to 10 characters; empty names nothing); anything else offers the prompt";
    fn out_from_value(value: Value) -> Result<NicknameChoice, ValueError> {
        Ok(match value {
            Value::Bool(false) => NicknameChoice::Prompt(false),
            Value::Str(s) => NicknameChoice::Name(s.chars().take(NICKNAME_LIMIT).collect()),
            _ => NicknameChoice::Prompt(true),
        })
    }
}
