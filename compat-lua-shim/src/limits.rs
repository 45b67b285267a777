//! Numbers several modules share, in a leaf so none of them imports another for them: each
//! state's memory cap (`sandbox` applies it, `errors` names it) and the budget units C-library
//! work is charged in, with the charging helpers (`charged`, `charged_patterns`).

use mlua::Value as LuaValue;
use pallet_api::budget::{DispatchBudget, BUDGET_EXHAUSTED};

/// Bytes one mod's Lua state may allocate.
pub const MEMORY_LIMIT: usize = 64 * 1024 * 1024;

/// Bytes of string work one budget unit pays for.
pub const BYTES_PER_UNIT: u64 = 1024;
/// `string.rep` copies one budget unit pays for (each copy is a short `memcpy`).
///
/// Calibrated so a full 500 000-unit dispatch budget of C work stays well under a second.
pub const REP_COPIES_PER_UNIT: u64 = 256;
/// Elements one budget unit pays for when `table.insert`/`table.remove` shift them or
/// `table.sort`/`table.maxn` visit them.
pub const ELEMENTS_PER_UNIT: u64 = 1;

pub(crate) fn charge(budget: &DispatchBudget, units: u64) -> mlua::Result<()> {
    if budget.depth() > 0 && budget.charge(units) {
        Err(mlua::Error::runtime(BUDGET_EXHAUSTED))
    } else {
        Ok(())
    }
}

pub(crate) fn bytes_units(n: u64) -> u64 {
    n / BYTES_PER_UNIT
}

pub(crate) fn str_len(v: Option<&LuaValue>) -> u64 {
    match v {
        Some(LuaValue::String(s)) => s.as_bytes().len() as u64,
        Some(LuaValue::Integer(_) | LuaValue::Number(_)) => 24,
        _ => 0,
    }
}

pub(crate) fn num(v: Option<&LuaValue>) -> Option<f64> {
    match v {
        Some(LuaValue::Integer(i)) => Some(*i as f64),
        Some(LuaValue::Number(n)) => Some(*n),
        Some(LuaValue::String(s)) => s.to_str().ok()?.trim().parse().ok(),
        _ => None,
    }
}
