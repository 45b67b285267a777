//! Hook types, one per catalog hook, with their argument and result types. Engine sites spell
//! them `hooks::<Name>`; see the module docs of [`crate::catalog`] for the pattern.

mod battle;
mod battle_rules;
mod flow;
mod pokemon;
mod save;
mod world;

pub use battle::*;
pub use battle_rules::*;
pub use flow::*;
pub use pokemon::*;
pub use save::*;
pub use world::*;

use crate::value::{Value, ValueError};

/// Result rule helper: a list of rows where each malformed row is dropped and a non-list
/// answer means "no rows".
pub(crate) fn rows_lenient<T>(value: Value, row: impl Fn(&Value) -> Option<T>) -> Vec<T> {
    match value {
        Value::List(items) => items.iter().filter_map(row).collect(),
        _ => Vec::new(),
    }
}

/// Result rule helper: an exact integer within `lo..=hi`, else a link failure.
pub(crate) fn int_in(value: &Value, lo: i64, hi: i64, what: &str) -> Result<i64, ValueError> {
    match value.as_exact_int() {
        Some(i) if (lo..=hi).contains(&i) => Ok(i),
        _ => Err(ValueError::new(format!(
            "{what} must be an integer in {lo}..={hi}, got {}",
            value.type_name()
        ))),
    }
}
