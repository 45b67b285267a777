//! Battle hooks: `battle.field_residual`, `battle.damage`, `battle.accuracy`, `battle.crit`,
//! `battle.exp_award`, `trainer.party`.

use serde::{Deserialize, Serialize};

use super::{int_in, rows_lenient};
use crate::arg_list;
use crate::catalog::common::{BattleInfo, BattlerSnapshot, Battlers, MoveInfo, Side};
use crate::hooks::{Hook, HookId};
use crate::script::ScriptHook;
use crate::value::{Value, ValueError};

// ----- battle.field_residual (RFC 0016) ------------------------------------------------------

/// `context` of `battle.field_residual`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FieldResidualContext {
    /// Detached data-only `{weather, tokens}` projection of the battle field (no `sides`).
    #[serde(default)]
    pub field: Value,
    pub battlers: Battlers,
    /// The Gen 1 turn counter.
    pub turn: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BattleFieldResidualArgs {
    pub context: FieldResidualContext,
}
arg_list!(BattleFieldResidualArgs { context });

/// One residual descriptor: damage the engine applies (clamped to current HP).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResidualRow {
    pub side: Side,
    /// Strictly positive.
    pub amount: u32,
    pub message: Option<String>,
}

impl ResidualRow {
    /// The RFC 0016 row rule: the row is a table, `side` exactly "player"|"enemy", `amount` a
    /// positive finite integer number (an integer, or a float with no fractional part — Lua
    /// numbers are floats; never a numeric string, zero, a negative, a fraction, NaN or an
    /// infinity), `message` absent or a string. Anything else ignores the row. Amounts past
    /// `u32::MAX` saturate (the engine clamps damage to the current HP anyway).
    pub fn from_value(row: &Value) -> Option<ResidualRow> {
        let side = match row.get("side")?.as_str()? {
            "player" => Side::Player,
            "enemy" => Side::Enemy,
            _ => return None,
        };
        let amount = match *row.get("amount")? {
            Value::Int(i) if i > 0 => u32::try_from(i).unwrap_or(u32::MAX),
            Value::Float(f) if f.is_finite() && f.fract() == 0.0 && f >= 1.0 => {
                if f >= f64::from(u32::MAX) {
                    u32::MAX
                } else {
                    f as u32
                }
            }
            _ => return None,
        };
        let message = match row.get("message") {
            None | Some(Value::Nil) => None,
            Some(Value::Str(s)) => Some(s.clone()),
            Some(_) => return None,
        };
        Some(ResidualRow {
            side,
            amount,
            message,
        })
    }
}

/// `battle.field_residual` — end-of-round field damage descriptors. Vanilla returns no rows.
pub struct BattleFieldResidual;

impl Hook for BattleFieldResidual {
    const NAME: &'static str = "battle.field_residual";
    const ID: HookId = HookId(1);
    type Args = BattleFieldResidualArgs;
    type Out = Vec<ResidualRow>;
}

impl ScriptHook for BattleFieldResidual {
    const SIGNATURE: &'static str = "(next, context) -> rows";
    const RESULT_RULE: &'static str =
        "a list of {side = \"player\"|\"enemy\", amount = positive integer, \
         message = optional string}; malformed rows are ignored, a non-list ignores everything";
    fn out_from_value(value: Value) -> Result<Vec<ResidualRow>, ValueError> {
        Ok(rows_lenient(value, ResidualRow::from_value))
    }
}

// ----- battle.damage / battle.accuracy / battle.crit -----------------------------------------

/// `ctx` of `battle.damage`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DamageContext {
    pub battle: BattleInfo,
    pub user: BattlerSnapshot,
    pub target: BattlerSnapshot,
    #[serde(rename = "move")]
    pub move_info: MoveInfo,
    /// The crit roll already made for this hit.
    pub critical: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BattleDamageArgs {
    pub ctx: DamageContext,
}
arg_list!(BattleDamageArgs { ctx });

/// `battle.damage` — the damage of one hit. Vanilla is the Gen 1 formula (with its random
/// roll, drawn from the battle RNG only when vanilla runs).
pub struct BattleDamage;

impl Hook for BattleDamage {
    const NAME: &'static str = "battle.damage";
    const ID: HookId = HookId(6);
    type Args = BattleDamageArgs;
    type Out = u16;
}

impl ScriptHook for BattleDamage {
    const SIGNATURE: &'static str = "(next, ctx) -> damage";
    const RESULT_RULE: &'static str = "an integer 0..65535; anything else fails the link";
    fn out_from_value(value: Value) -> Result<u16, ValueError> {
        int_in(&value, 0, u16::MAX.into(), "damage").map(|d| d as u16)
    }
}

/// `ctx` of `battle.accuracy`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AccuracyContext {
    pub battle: BattleInfo,
    pub user: BattlerSnapshot,
    pub target: BattlerSnapshot,
    #[serde(rename = "move")]
    pub move_info: MoveInfo,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BattleAccuracyArgs {
    pub ctx: AccuracyContext,
}
arg_list!(BattleAccuracyArgs { ctx });

/// `battle.accuracy` — does the move hit (MoveHitTest)? Vanilla rolls against accuracy.
pub struct BattleAccuracy;

impl Hook for BattleAccuracy {
    const NAME: &'static str = "battle.accuracy";
    const ID: HookId = HookId(7);
    type Args = BattleAccuracyArgs;
    type Out = bool;
}

impl ScriptHook for BattleAccuracy {
    const SIGNATURE: &'static str = "(next, ctx) -> hit";
    const RESULT_RULE: &'static str = "truthy hits, falsy misses";
    fn out_from_value(value: Value) -> Result<bool, ValueError> {
        Ok(value.truthy())
    }
}

/// `ctx` of `battle.crit`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CritContext {
    pub battle: BattleInfo,
    pub user: BattlerSnapshot,
    #[serde(rename = "move")]
    pub move_info: MoveInfo,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BattleCritArgs {
    pub ctx: CritContext,
}
arg_list!(BattleCritArgs { ctx });

/// `battle.crit` — is this hit critical? Vanilla is the Gen 1 speed-based roll.
pub struct BattleCrit;

impl Hook for BattleCrit {
    const NAME: &'static str = "battle.crit";
    const ID: HookId = HookId(8);
    type Args = BattleCritArgs;
    type Out = bool;
}

impl ScriptHook for BattleCrit {
    const SIGNATURE: &'static str = "(next, ctx) -> critical";
    const RESULT_RULE: &'static str = "truthy is a critical hit";
    fn out_from_value(value: Value) -> Result<bool, ValueError> {
        Ok(value.truthy())
    }
}

// ----- battle.exp_award ----------------------------------------------------------------------

/// `ctx` of `battle.exp_award`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExpAwardContext {
    pub battle: BattleInfo,
    /// How many party members took part (≥ 1).
    pub participants: u8,
    /// Party slots (0-based) of the living participants.
    pub alive: Vec<u8>,
    /// The player's party as the battle has it, by slot (detached mon records: `species`,
    /// `name`, `level`, `exp`, `hp`, `maxHp`, `status`, `moves`): who a share may go to.
    /// The Lua view spells it as the Lua engine does (`ctx.battle.game.save.party`, with
    /// `ctx.alive` holding those same mon tables).
    #[serde(default)]
    pub party: Vec<Value>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BattleExpAwardArgs {
    pub ctx: ExpAwardContext,
}
arg_list!(BattleExpAwardArgs { ctx });

/// One share of the defeated mon's EXP: the engine divides the award by `split` and gives it
/// to party slot `slot` (the data form of the Lua engine's `applyShare(mon, split, announce)`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExpShare {
    pub slot: u8,
    /// Divisor, ≥ 1.
    pub split: u8,
    /// Show the "gained N EXP" line.
    pub announce: bool,
}

/// `battle.exp_award` — who gets EXP for a faint. Vanilla splits among participants (EXP.ALL
/// rules included); the engine applies the returned shares in order.
pub struct BattleExpAward;

impl Hook for BattleExpAward {
    const NAME: &'static str = "battle.exp_award";
    const ID: HookId = HookId(11);
    type Args = BattleExpAwardArgs;
    type Out = Vec<ExpShare>;
}

impl ScriptHook for BattleExpAward {
    const SIGNATURE: &'static str = "(next, ctx) -> shares";
    const RESULT_RULE: &'static str =
        "a list of {slot = 0..5, split >= 1, announce = boolean}; anything else fails the link";
    fn out_from_value(value: Value) -> Result<Vec<ExpShare>, ValueError> {
        let Value::List(items) = value else {
            return Err(ValueError::new("exp shares must be a list"));
        };
        items
            .iter()
            .map(|row| {
                Ok(ExpShare {
                    slot: int_in(row.get("slot").unwrap_or(&Value::Nil), 0, 5, "slot")? as u8,
                    split: int_in(row.get("split").unwrap_or(&Value::Nil), 1, 255, "split")? as u8,
                    announce: row.get("announce").is_some_and(Value::truthy),
                })
            })
            .collect()
    }
}

// ----- trainer.party -------------------------------------------------------------------------

/// One trainer party member.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PartyMember {
    pub species: String,
    pub level: u8,
    /// Explicit moves (otherwise the level-up learnset decides).
    pub moves: Option<Vec<String>>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TrainerPartyArgs {
    /// The class as the Lua engine spells it (`OPP_BUG_CATCHER`; a mod's own class as
    /// registered).
    pub class_id: String,
    /// The party within the class, counting from 1.
    pub index: u16,
    pub party: Vec<PartyMember>,
}
arg_list!(TrainerPartyArgs {
    class_id as "classId",
    index,
    party
});

/// `trainer.party` — the roster a trainer sends out. Vanilla returns the data's party.
pub struct TrainerParty;

impl Hook for TrainerParty {
    const NAME: &'static str = "trainer.party";
    const ID: HookId = HookId(9);
    type Args = TrainerPartyArgs;
    type Out = Vec<PartyMember>;
}

impl ScriptHook for TrainerParty {
    const SIGNATURE: &'static str = "(next, classId, index, party) -> party";
    const RESULT_RULE: &'static str =
        "a list of 1..6 {species, level = 1..100, moves?}; anything else fails the link";
    fn out_from_value(value: Value) -> Result<Vec<PartyMember>, ValueError> {
        let party: Vec<PartyMember> = crate::value::from_value(value)?;
        if party.is_empty() || party.len() > 6 {
            return Err(ValueError::new("a trainer party holds 1 to 6 mons"));
        }
        if party
            .iter()
            .any(|m| m.level == 0 || m.level > 100 || m.species.is_empty())
        {
            return Err(ValueError::new(
                "party member needs a species and a level 1..100",
            ));
        }
        Ok(party)
    }
}
