//! RFC 0016 `battle.field_residual`: engine-owned end-of-round field damage (see
//! docs/modding-contracts.md, "Field residuals"). Gen 1 only.
//!
//! The site runs once per round of an undecided battle, after the status residuals and before
//! the side/field token ticks and `battle.turn_ended` (`round.rs`, `end_of_round`). With no
//! subscriber nothing is built and nothing is called. With one:
//!
//! 1. the context `{field, battlers, turn}` is built detached: `field` is the data-only
//!    projection of `{weather, tokens}` ([`project_field`]; never `sides`), `battlers` the
//!    `{side, name, hp, maxHp, types, vanished}` snapshots of both active mons, `turn` the Gen 1
//!    turn counter;
//! 2. the chain answers with rows (vanilla: none); script answers were already validated by the
//!    hook's result rule (`ResidualRow::from_value`: per-row, fail closed), and native rows with
//!    a zero amount are ignored here;
//! 3. every accepted row is applied in order — its optional message as a lazy
//!    [`Msg::ModText`] row, then the damage clamped to the current HP as an HP-drain row;
//! 4. only then are the battlers this batch brought to 0 HP scheduled, with the RFC's blackout
//!    precedence ([`Battle::resolve_faints_after_field`]).

use std::collections::BTreeMap;

use pallet_api::{Runtime, Value};

use super::rows::Msg;
use super::state::{Field, Token};
use super::{Battle, BattleRng, Phase, Side};

/// Deepest nesting kept by the field projection (deeper tables are omitted, like unsupported
/// values): a bound on the recursion whatever data a token carries.
pub const MAX_PROJECTION_DEPTH: usize = 32;

/// Most distinct mod messages one battle keeps ([`Msg::ModText`] indexes are `u16`); a message
/// past the limit is not shown (its damage still applies).
const MAX_MOD_TEXTS: usize = u16::MAX as usize;

impl<R: BattleRng> Battle<R> {
    /// The RFC 0016 site (called by `end_of_round` for an undecided battle only).
    #[inline(always)]
    pub(crate) fn field_residual_slot(&mut self, rt: &Runtime) {
        #[cfg(feature = "hook-sites")]
        if rt.wants_hook::<live::BattleFieldResidual>() {
            self.field_residual_hooked(rt);
        }
        let _ = rt;
    }

    /// The subscribed branch, out of line: the hot path is the guard alone.
    #[cfg(feature = "hook-sites")]
    #[cold]
    #[inline(never)]
    fn field_residual_hooked(&mut self, rt: &Runtime) {
        if self.result.is_some() || self.phase == Phase::Finished {
            return; // a settled battle never invokes the hook
        }
        let args = live::BattleFieldResidualArgs {
            context: self.field_residual_context(),
        };
        sentinel::called();
        let rows = rt.call::<live::BattleFieldResidual>(args, |_| Vec::new());
        self.apply_field_residuals(rt, rows);
    }

    /// The detached `{field, battlers, turn}` context.
    #[cfg(feature = "hook-sites")]
    fn field_residual_context(&self) -> live::FieldResidualContext {
        sentinel::context_built();
        live::FieldResidualContext {
            field: project_field(&self.field),
            battlers: live::Battlers {
                player: super::sites::snapshot(self, Side::Player),
                enemy: super::sites::snapshot(self, Side::Enemy),
            },
            turn: self.turn,
        }
    }

    /// Apply one hook batch: every accepted row first (message, clamped drain), then the
    /// faints of the battlers this batch brought to 0 HP.
    #[cfg_attr(not(feature = "hook-sites"), allow(dead_code))]
    pub(crate) fn apply_field_residuals(
        &mut self,
        rt: &Runtime,
        rows: impl IntoIterator<Item = pallet_api::catalog::hooks::ResidualRow>,
    ) {
        if self.result.is_some() || self.phase == Phase::Finished {
            return;
        }
        let up = [self.hp(Side::Player) > 0, self.hp(Side::Enemy) > 0];
        for row in rows {
            if row.amount == 0 {
                continue; // the rule wants a positive amount (a native link could send 0)
            }
            let side = match row.side {
                pallet_api::catalog::common::Side::Player => Side::Player,
                pallet_api::catalog::common::Side::Enemy => Side::Enemy,
            };
            if let Some(text) = row.message {
                self.mod_message(text);
            }
            let hp = self.hp(side);
            let damage = u16::try_from(row.amount).unwrap_or(u16::MAX).min(hp);
            self.change_hp(side, hp - damage);
        }
        let player_new = up[0] && self.hp(Side::Player) == 0;
        let enemy_new = up[1] && self.hp(Side::Enemy) == 0;
        if player_new || enemy_new {
            self.resolve_faints_after_field(rt, player_new, enemy_new);
        }
    }

    /// Queue a mod-supplied message as a lazy text row (stored once per distinct text).
    #[cfg_attr(not(feature = "hook-sites"), allow(dead_code))]
    fn mod_message(&mut self, text: String) {
        if !self.record_rows {
            return;
        }
        let index = match self.mod_texts.iter().rposition(|t| *t == text) {
            Some(i) => i,
            None if self.mod_texts.len() < MAX_MOD_TEXTS => {
                self.mod_texts.push(text);
                self.mod_texts.len() - 1
            }
            None => return,
        };
        if let Ok(index) = u16::try_from(index) {
            self.text(Msg::ModText { index });
        }
    }
}

/// The data-only `{weather, tokens}` view of the field that `battle.field_residual` sees (the
/// shape battle checkpoints capture): `weather` when set, and each token as a table of its data
/// with `id` and `turns` (when set) on top. Values are copied recursively; non-finite numbers,
/// nils and tables nested deeper than [`MAX_PROJECTION_DEPTH`] are omitted. Nothing in it leads
/// back to the battle (no `sides`, no handles): changing it changes nothing live.
pub fn project_field(field: &Field) -> Value {
    let mut m = BTreeMap::new();
    if let Some(w) = &field.weather {
        m.insert("weather".to_owned(), Value::Str(w.clone()));
    }
    m.insert(
        "tokens".to_owned(),
        Value::List(field.tokens.iter().map(project_token).collect()),
    );
    Value::Map(m)
}

fn project_token(t: &Token) -> Value {
    let mut m: BTreeMap<String, Value> = t
        .data
        .iter()
        .filter_map(|(k, v)| project(v, 3).map(|v| (k.clone(), v)))
        .collect();
    m.insert("id".to_owned(), Value::Str(t.id.clone()));
    match t.turns {
        Some(n) => {
            m.insert("turns".to_owned(), Value::Int(i64::from(n)));
        }
        None => {
            m.remove("turns");
        }
    }
    Value::Map(m)
}

/// A detached copy of `v` keeping finite numbers, strings, booleans and tables; `None` for what
/// the projection omits.
fn project(v: &Value, depth: usize) -> Option<Value> {
    match v {
        Value::Nil => None,
        Value::Bool(_) | Value::Int(_) | Value::Str(_) => Some(v.clone()),
        Value::Float(f) => f.is_finite().then_some(Value::Float(*f)),
        Value::List(_) | Value::Map(_) if depth >= MAX_PROJECTION_DEPTH => None,
        Value::List(l) => Some(Value::List(
            l.iter().filter_map(|x| project(x, depth + 1)).collect(),
        )),
        Value::Map(m) => Some(Value::Map(
            m.iter()
                .filter_map(|(k, x)| project(x, depth + 1).map(|x| (k.clone(), x)))
                .collect(),
        )),
    }
}

#[cfg(feature = "hook-sites")]
mod live {
    pub(super) use pallet_api::catalog::common::Battlers;
    pub(super) use pallet_api::catalog::hooks::{
        BattleFieldResidual, BattleFieldResidualArgs, FieldResidualContext,
    };
}

/// Test probes of the disabled-bus sentinel: how many contexts were built and how many bus
/// calls were made on this thread. Compiled to nothing outside the engine's own tests.
#[cfg(not(test))]
#[cfg_attr(not(feature = "hook-sites"), allow(dead_code))]
mod sentinel {
    #[inline(always)]
    pub(super) fn context_built() {}
    #[inline(always)]
    pub(super) fn called() {}
}

#[cfg(test)]
#[cfg_attr(not(feature = "hook-sites"), allow(dead_code))]
pub(crate) mod sentinel {
    use std::cell::Cell;

    thread_local! {
        static CONTEXTS: Cell<u32> = const { Cell::new(0) };
        static CALLS: Cell<u32> = const { Cell::new(0) };
    }

    pub(super) fn context_built() {
        CONTEXTS.with(|c| c.set(c.get() + 1));
    }

    pub(super) fn called() {
        CALLS.with(|c| c.set(c.get() + 1));
    }

    /// `(contexts built, bus calls)` on this thread so far.
    pub(crate) fn counts() -> (u32, u32) {
        (CONTEXTS.with(Cell::get), CALLS.with(Cell::get))
    }
}
