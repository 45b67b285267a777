//! Host work charged to the per-dispatch operation budget (issue 21).
//!
//! A script's VM counts its own steps, but one host call can do far more work than one step:
//! `view.content.pokemon.each()` copies every record of a registry, `mod:read` reads a file of
//! up to 16 MiB. Without a charge a loop of such calls runs for minutes inside a budget of a
//! few thousand operations. Hosts charge these calls by the size of what they hand the mod,
//! in the budget's unit (one Rhai operation / one Lua VM instruction):
//!
//! * [`NODE_UNITS`] per value node (a scalar, a list element, a map entry) plus one unit per
//!   [`BYTES_PER_UNIT`] string bytes: the copy and the conversion into the script's values;
//! * one unit per [`FILE_BYTES_PER_UNIT`] bytes of a file read;
//! * [`EMIT_UNITS`] per `events.emit` plus its payload.
//!
//! Charging never fails a host call by itself: past the limit the budget is exhausted, and the
//! script stops at its next check (Rhai: its next operation; Lua hosts check right after the
//! charge). Outside a dispatch (budget depth 0) nothing is charged.

use std::rc::Rc;

use crate::budget::DispatchBudget;
use crate::catalog::common::GameVersion;
use crate::facades::{AssetInfo, DatasetView};
use crate::value::Value;

/// Units per value node handed to a script.
pub const NODE_UNITS: u64 = 4;
/// String bytes one unit pays for.
pub const BYTES_PER_UNIT: u64 = 64;
/// File bytes one unit pays for (`mod:read`).
pub const FILE_BYTES_PER_UNIT: u64 = 256;

/// What handing `v` to a script costs.
pub fn value_units(v: &Value) -> u64 {
    // Iterative: a value's nesting is bounded elsewhere, but a cost walk must not recurse.
    let mut units = 0u64;
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        units = units.saturating_add(NODE_UNITS);
        match v {
            Value::Str(s) => units = units.saturating_add(s.len() as u64 / BYTES_PER_UNIT),
            Value::List(items) => stack.extend(items.iter()),
            Value::Map(m) => {
                for (k, v) in m {
                    units = units.saturating_add(k.len() as u64 / BYTES_PER_UNIT);
                    stack.push(v);
                }
            }
            Value::Nil | Value::Bool(_) | Value::Int(_) | Value::Float(_) => {}
        }
    }
    units
}

/// What handing `rows` (an `each()` result) to a script costs.
pub fn rows_units(rows: &[(String, Value)]) -> u64 {
    rows.iter().fold(1, |acc, (id, v)| {
        acc.saturating_add(NODE_UNITS + id.len() as u64 / BYTES_PER_UNIT)
            .saturating_add(value_units(v))
    })
}

/// Units one `events.emit` costs before its payload (the nested dispatch, a payload copy per
/// listener).
pub const EMIT_UNITS: u64 = 64;

/// What one `events.emit` of `payload` costs.
pub fn emit_units(payload: &Value) -> u64 {
    EMIT_UNITS.saturating_add(value_units(payload))
}

/// What reading a `bytes`-long file costs.
pub fn read_units(bytes: usize) -> u64 {
    1 + bytes as u64 / FILE_BYTES_PER_UNIT
}

/// Charge `units` when script code is running (depth > 0); `true` when the budget is
/// exhausted.
pub fn charge_host(budget: &DispatchBudget, units: u64) -> bool {
    budget.depth() > 0 && budget.charge(units)
}

/// A dataset view whose reads are charged to a budget (`datasets.open` hands this to mods).
pub struct ChargedView {
    inner: Box<dyn DatasetView>,
    budget: Rc<DispatchBudget>,
}

impl ChargedView {
    pub fn new(inner: Box<dyn DatasetView>, budget: Rc<DispatchBudget>) -> Self {
        ChargedView { inner, budget }
    }

    /// Is the budget exhausted inside a dispatch (the host should stop the script now)?
    pub fn stopped(&self) -> bool {
        self.budget.depth() > 0 && self.budget.exhausted()
    }
}

impl DatasetView for ChargedView {
    fn version(&self) -> GameVersion {
        self.inner.version()
    }
    fn generation(&self) -> u8 {
        self.inner.generation()
    }
    fn get(&self, registry: &str, id: &str) -> Option<Value> {
        let v = self.inner.get(registry, id);
        charge_host(&self.budget, 1 + v.as_ref().map_or(0, value_units));
        v
    }
    fn has(&self, registry: &str, id: &str) -> bool {
        charge_host(&self.budget, 1);
        self.inner.has(registry, id)
    }
    fn each(&self, registry: &str) -> Vec<(String, Value)> {
        let rows = self.inner.each(registry);
        charge_host(&self.budget, rows_units(&rows));
        rows
    }
    fn asset_path(&self, relative: &str) -> Option<String> {
        self.inner.asset_path(relative)
    }
    fn asset_info(&self, relative: &str) -> Option<AssetInfo> {
        charge_host(&self.budget, 1);
        self.inner.asset_info(relative)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_grow_with_nodes_and_bytes() {
        assert_eq!(value_units(&Value::Int(1)), NODE_UNITS);
        let list = Value::List(vec![Value::Int(1); 10]);
        assert_eq!(value_units(&list), 11 * NODE_UNITS);
        let long = Value::Str("x".repeat(6400));
        assert_eq!(value_units(&long), NODE_UNITS + 100);
        assert_eq!(read_units(16 * 1024 * 1024), 1 + 65_536);
    }

    #[test]
    fn charges_only_inside_a_dispatch() {
        let b = DispatchBudget::new();
        assert!(!charge_host(&b, u64::MAX));
        assert_eq!(b.used(), 0);
        let _frame = b.enter(10);
        assert!(!charge_host(&b, 10));
        assert!(charge_host(&b, 1));
    }
}
