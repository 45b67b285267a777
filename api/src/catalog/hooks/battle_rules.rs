//! Battle rule hooks of the Lua engine's catalog (issue 17): `battle.turn_order`,
//! `battle.run`, `battle.enemy_action`, `battle.style`, `battle.charge_required`.

use serde::{Deserialize, Serialize};

use crate::arg_list;
use crate::catalog::common::{BattleInfo, BattlerSnapshot, MoveInfo, Side};
use crate::hooks::{Hook, HookId};
use crate::script::ScriptHook;
use crate::value::{Value, ValueError};

// ----- battle.turn_order ---------------------------------------------------------------------

/// `ctx` of `battle.turn_order`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TurnOrderContext {
    pub battle: BattleInfo,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BattleTurnOrderArgs {
    pub player: BattlerSnapshot,
    /// The player's selected move, absent when none (a switch, an item, a run).
    pub player_move: Option<MoveInfo>,
    pub enemy: BattlerSnapshot,
    pub enemy_move: Option<MoveInfo>,
    pub ctx: TurnOrderContext,
}
arg_list!(BattleTurnOrderArgs { player, player_move as "playerMove", enemy, enemy_move as "enemyMove", ctx });

/// `battle.turn_order` — which side moves first this round. Vanilla is the cartridge's rule
/// (Quick Attack, then Counter last, then Speed, then a coin flip from the battle RNG, drawn
/// only when vanilla runs).
pub struct BattleTurnOrder;

impl Hook for BattleTurnOrder {
    const NAME: &'static str = "battle.turn_order";
    const ID: HookId = HookId(15);
    type Args = BattleTurnOrderArgs;
    type Out = Side;
}

impl ScriptHook for BattleTurnOrder {
    const SIGNATURE: &'static str =
        "(next, player, playerMove, enemy, enemyMove, ctx) -> \"player\" | \"enemy\"";
    const RESULT_RULE: &'static str =
        "exactly \"player\" or \"enemy\" (who moves first); anything else fails the link";
}

// ----- battle.run ----------------------------------------------------------------------------

/// `ctx` of `battle.run`, the hook's one argument (the Lua engine calls `battle.run` links as
/// `(next, ctx)`; the public mods wrap it so).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunContext {
    /// The battle being fled.
    pub battle: BattleInfo,
    /// Escape attempts this battle, this one included.
    pub attempts: u8,
    /// The Speed the cartridge compares (the active battler's, or the first party mon's on
    /// the "Use next POKéMON? NO" path).
    pub player_speed: u16,
    pub enemy_speed: u16,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BattleRunArgs {
    pub ctx: RunContext,
}
arg_list!(BattleRunArgs { ctx });

/// `battle.run` — does this escape attempt from a wild battle succeed? Vanilla is the
/// cartridge's `TryRunningFromBattle` formula (its random byte drawn only when vanilla runs).
/// Trainer battles refuse before the hook ("No! There's no running…").
pub struct BattleRun;

impl Hook for BattleRun {
    const NAME: &'static str = "battle.run";
    const ID: HookId = HookId(16);
    type Args = BattleRunArgs;
    type Out = bool;
}

impl ScriptHook for BattleRun {
    const SIGNATURE: &'static str = "(next, ctx) -> boolean";
    const RESULT_RULE: &'static str =
        "a boolean: true escapes, false stays; anything else fails the link";
}

// ----- battle.enemy_action -------------------------------------------------------------------

/// An enemy action as hooks see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EnemyAction {
    /// `"move"` (slot 0..=3), `"switch"` (party slot), `"struggle"` or `"continue"`.
    pub kind: String,
    #[serde(default)]
    pub slot: u8,
}

/// `ctx` of `battle.enemy_action`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EnemyActionContext {
    pub enemy: BattlerSnapshot,
    pub player: BattlerSnapshot,
    /// Move ids of the enemy's four slots (`""` for an empty slot).
    pub moves: Vec<String>,
    /// Every action the enemy may legally take now.
    pub legal: Vec<EnemyAction>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BattleEnemyActionArgs {
    pub battle: BattleInfo,
    pub ctx: EnemyActionContext,
}
arg_list!(BattleEnemyActionArgs { battle, ctx });

/// `battle.enemy_action` — what the enemy does this round. Vanilla is the cartridge's choice
/// (a random usable slot narrowed by the trainer AI layers). An answer not in `ctx.legal` is
/// refused at the site (reported) and vanilla's choice stands.
pub struct BattleEnemyAction;

impl Hook for BattleEnemyAction {
    const NAME: &'static str = "battle.enemy_action";
    const ID: HookId = HookId(17);
    type Args = BattleEnemyActionArgs;
    type Out = EnemyAction;
}

impl ScriptHook for BattleEnemyAction {
    const SIGNATURE: &'static str = "(next, battle, ctx) -> {kind, slot}";
    const RESULT_RULE: &'static str =
        "{kind = \"move\"|\"switch\"|\"struggle\"|\"continue\", slot = integer}; a malformed \
         answer fails the link, an illegal one is refused at the site (vanilla's choice stands)";
}

// ----- battle.style (RFC 0015 rule hooks) ----------------------------------------------------

/// SHIFT or SET.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BattleStyleName {
    Set,
    Shift,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BattleStyleArgs {
    pub battle: BattleInfo,
}
arg_list!(BattleStyleArgs { battle });

/// `battle.style` — is the SHIFT prompt offered when a trainer sends out its next mon?
/// Vanilla is the battle's configured style.
pub struct BattleStyle;

impl Hook for BattleStyle {
    const NAME: &'static str = "battle.style";
    const ID: HookId = HookId(18);
    type Args = BattleStyleArgs;
    type Out = BattleStyleName;
}

impl ScriptHook for BattleStyle {
    const SIGNATURE: &'static str = "(next, battle) -> \"set\" | \"shift\"";
    const RESULT_RULE: &'static str =
        "only exactly \"set\" or \"shift\"; anything else fails the link (reads as vanilla)";
}

// ----- battle.charge_required (RFC 0011) -----------------------------------------------------

/// `ctx` of `battle.charge_required`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChargeContext {
    pub user: BattlerSnapshot,
    #[serde(rename = "move")]
    pub move_info: MoveInfo,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BattleChargeRequiredArgs {
    pub battle: BattleInfo,
    pub ctx: ChargeContext,
}
arg_list!(BattleChargeRequiredArgs { battle, ctx });

/// `battle.charge_required` — must this two-turn move (Razor Wind, Solar Beam, Skull Bash,
/// Sky Attack, Fly, Dig) spend a turn charging? Vanilla answers `true`.
pub struct BattleChargeRequired;

impl Hook for BattleChargeRequired {
    const NAME: &'static str = "battle.charge_required";
    const ID: HookId = HookId(19);
    type Args = BattleChargeRequiredArgs;
    type Out = bool;
}

impl ScriptHook for BattleChargeRequired {
    const SIGNATURE: &'static str = "(next, battle, ctx) -> boolean";
    const RESULT_RULE: &'static str =
        "only exactly `false` skips the charging turn; anything else charges (fail closed)";
    fn out_from_value(value: Value) -> Result<bool, ValueError> {
        Ok(!matches!(value, Value::Bool(false)))
    }
}
