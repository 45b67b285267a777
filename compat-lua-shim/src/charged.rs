//! C library functions charged to the operation budget by their work.
//!
//! Lua 5.1's count hook sees VM instructions only: one `string.rep("", 2^31-1)` or
//! `table.concat` of a huge table is a single instruction. The functions below wrap the C
//! originals, charge the shared per-dispatch budget (`pallet_api::budget`) by the work a call
//! will do (or, where only the result tells, did), and refuse a call whose result could not fit
//! the state's memory limit before any of it is built.
//!
//! Cost model (units are VM instructions, the count hook's unit): one unit per
//! [`BYTES_PER_UNIT`] bytes produced, one per `table.concat` element, one per
//! [`SUBJECT_BYTES_PER_UNIT`] bytes of a pattern function's subject (its start positions), one
//! per [`REP_COPIES_PER_UNIT`] copies of `string.rep`.
//!
//! Not covered: the backtracking inside one pattern match (Lua's matcher has no step counter;
//! the scan is charged per start position, the inner backtracking is not), and the interning
//! cost of many long strings whose sampled hash collides (inside the VM's string table).

use std::rc::Rc;

use mlua::{Function, Lua, MultiValue, Table, Value as LuaValue};
use pallet_api::budget::{DispatchBudget, BUDGET_EXHAUSTED};

/// Bytes of string work one budget unit pays for.
pub const BYTES_PER_UNIT: u64 = 1024;
/// `string.rep` copies one budget unit pays for (each copy is a short `memcpy`).
///
/// Calibrated so a full 500 000-unit dispatch budget of C work stays well under a second.
pub const REP_COPIES_PER_UNIT: u64 = 256;
/// Subject bytes (start positions tried) of a pattern function one budget unit pays for.
pub const SUBJECT_BYTES_PER_UNIT: u64 = 8;

fn charge(budget: &DispatchBudget, units: u64) -> mlua::Result<()> {
    if budget.depth() > 0 && budget.charge(units) {
        Err(mlua::Error::runtime(BUDGET_EXHAUSTED))
    } else {
        Ok(())
    }
}

fn bytes_units(n: u64) -> u64 {
    n / BYTES_PER_UNIT
}

fn str_len(v: Option<&LuaValue>) -> u64 {
    match v {
        Some(LuaValue::String(s)) => s.as_bytes().len() as u64,
        Some(LuaValue::Integer(_) | LuaValue::Number(_)) => 24,
        _ => 0,
    }
}

fn num(v: Option<&LuaValue>) -> Option<f64> {
    match v {
        Some(LuaValue::Integer(i)) => Some(*i as f64),
        Some(LuaValue::Number(n)) => Some(*n),
        Some(LuaValue::String(s)) => s.to_str().ok()?.trim().parse().ok(),
        _ => None,
    }
}

/// Install the charged wrappers over `string` and `table` (before the mod's code runs).
pub fn install(
    lua: &Lua,
    g: &Table,
    budget: Rc<DispatchBudget>,
    memory_limit: usize,
) -> mlua::Result<()> {
    let string: Table = g.get("string")?;
    let table: Table = g.get("table")?;

    // string.rep(s, n): n copies of s, refused before building past the memory limit.
    let rep: Function = string.get("rep")?;
    let b = budget.clone();
    string.set(
        "rep",
        lua.create_function(move |_, args: MultiValue| {
            let len = str_len(args.front());
            let n = num(args.get(1)).unwrap_or(0.0);
            if n >= 1.0 {
                let n = if n.is_finite() { n as u64 } else { u64::MAX };
                let total = len.saturating_mul(n);
                if memory_limit > 0 && total > memory_limit as u64 {
                    return Err(mlua::Error::MemoryError(format!(
                        "string.rep: a {total}-byte result is over the memory limit"
                    )));
                }
                charge(&b, 1 + n / REP_COPIES_PER_UNIT + bytes_units(total))?;
            }
            rep.call::<MultiValue>(args)
        })?,
    )?;

    // Pattern functions: charged per byte of the subject (every start position) before the
    // call, and per byte of what they produced after it.
    for name in ["find", "match", "gsub"] {
        let orig: Function = string.get(name)?;
        let b = budget.clone();
        string.set(
            name,
            lua.create_function(move |_, args: MultiValue| {
                let subject = str_len(args.front());
                let pattern = str_len(args.get(1));
                charge(&b, 1 + (subject + pattern) / SUBJECT_BYTES_PER_UNIT)?;
                let out = orig.call::<MultiValue>(args)?;
                let produced: u64 = out.iter().map(|v| str_len(Some(v))).sum();
                charge(&b, bytes_units(produced))?;
                Ok(out)
            })?,
        )?;
    }
    // gmatch: the subject is scanned across the iterator's calls; charged once up front.
    let gmatch: Function = string.get("gmatch")?;
    let b = budget.clone();
    string.set(
        "gmatch",
        lua.create_function(move |_, args: MultiValue| {
            let scanned = str_len(args.front()) + str_len(args.get(1));
            charge(&b, 1 + scanned / SUBJECT_BYTES_PER_UNIT)?;
            gmatch.call::<MultiValue>(args)
        })?,
    )?;

    // table.concat(t, sep, i, j): one unit per element before the call (a huge range is
    // refused unbuilt), the bytes after.
    let concat: Function = table.get("concat")?;
    let b = budget;
    table.set(
        "concat",
        lua.create_function(move |_, args: MultiValue| {
            let n = match args.front() {
                Some(LuaValue::Table(t)) => {
                    let i = num(args.get(2)).unwrap_or(1.0);
                    let j = num(args.get(3)).unwrap_or(t.raw_len() as f64);
                    if j >= i {
                        (j - i + 1.0).min(u64::MAX as f64) as u64
                    } else {
                        0
                    }
                }
                _ => 0,
            };
            charge(&b, 1 + n)?;
            let out = concat.call::<MultiValue>(args)?;
            charge(&b, bytes_units(str_len(out.front())))?;
            Ok(out)
        })?,
    )?;
    Ok(())
}
