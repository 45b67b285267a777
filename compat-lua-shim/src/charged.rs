//! C library functions charged to the operation budget by their work.
//!
//! Lua 5.1's count hook sees VM instructions only: one `string.rep("", 2^31-1)` or
//! `table.concat` of a huge table is a single instruction. The functions below wrap the C
//! originals, charge the shared per-dispatch budget (`pallet_api::budget`) by the work a call
//! will do (or, where only the result tells, did), and refuse a call whose result could not fit
//! the state's memory limit before any of it is built.
//!
//! Cost model (units are VM instructions, the count hook's unit): one unit per
//! [`BYTES_PER_UNIT`] bytes produced or copied (`string.rep`, `sub`, `upper`, `lower`,
//! `reverse`, `format`, `char`, `table.concat`), one per `table.concat` element, one per
//! [`REP_COPIES_PER_UNIT`] copies of `string.rep`, one per element `table.insert`/`remove`
//! shift and `table.maxn` visits, `n·log2(n)` for `table.sort` (its comparator's calls are VM
//! code, counted by the hook). The pattern functions are charged by their matcher steps
//! (`charged_patterns`).
//!
//! Not covered: the interning cost of many long strings whose sampled Lua 5.1 hash collides
//! (inside the VM's string table, created by the `..` instruction).

use std::rc::Rc;

use mlua::{Function, Lua, MultiValue, Table, Value as LuaValue};
use pallet_api::budget::DispatchBudget;

use crate::limits::{bytes_units, charge, num, str_len};
pub use crate::limits::{BYTES_PER_UNIT, ELEMENTS_PER_UNIT, REP_COPIES_PER_UNIT};

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
        lua.create_function(move |lua, args: MultiValue| {
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
            let out = rep.call::<MultiValue>(args);
            crate::charged_alloc::after_c_call(lua);
            out
        })?,
    )?;

    crate::charged_patterns::install(lua, &string, budget.clone())?;
    install_bytes(lua, &string, &budget)?;
    install_table(lua, &table, &budget)?;

    // table.concat(t, sep, i, j): one unit per element before the call (a huge range is
    // refused unbuilt), the bytes after.
    let concat: Function = table.get("concat")?;
    let b = budget;
    table.set(
        "concat",
        lua.create_function(move |lua, args: MultiValue| {
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
            let out = concat.call::<MultiValue>(args);
            crate::charged_alloc::after_c_call(lua);
            let out = out?;
            charge(&b, bytes_units(str_len(out.front())))?;
            Ok(out)
        })?,
    )?;
    Ok(())
}

/// String functions whose work is the bytes they read or produce.
fn install_bytes(lua: &Lua, string: &Table, budget: &Rc<DispatchBudget>) -> mlua::Result<()> {
    // Charged by the subject before the call (the result is as long).
    for name in ["upper", "lower", "reverse"] {
        let orig: Function = string.get(name)?;
        let b = budget.clone();
        string.set(
            name,
            lua.create_function(move |lua, args: MultiValue| {
                charge(&b, 1 + bytes_units(str_len(args.front())))?;
                let out = orig.call::<MultiValue>(args);
                crate::charged_alloc::after_c_call(lua);
                out
            })?,
        )?;
    }
    // Charged by the result after the call (its length is only known then).
    for name in ["sub", "format", "char"] {
        let orig: Function = string.get(name)?;
        let b = budget.clone();
        string.set(
            name,
            lua.create_function(move |lua, args: MultiValue| {
                let out = orig.call::<MultiValue>(args);
                crate::charged_alloc::after_c_call(lua);
                let out = out?;
                charge(&b, 1 + bytes_units(str_len(out.front())))?;
                Ok(out)
            })?,
        )?;
    }
    Ok(())
}

fn table_len(v: Option<&LuaValue>) -> u64 {
    match v {
        Some(LuaValue::Table(t)) => t.raw_len() as u64,
        _ => 0,
    }
}

/// `table.insert`/`remove` (elements shifted), `sort` (`n·log2(n)` comparisons) and `maxn`
/// (every key visited), charged before the call.
fn install_table(lua: &Lua, table: &Table, budget: &Rc<DispatchBudget>) -> mlua::Result<()> {
    let wrap = |name: &str, cost: fn(&MultiValue) -> u64| -> mlua::Result<()> {
        let orig: Function = table.get(name)?;
        let b = budget.clone();
        table.set(
            name,
            lua.create_function(move |_, args: MultiValue| {
                charge(&b, 1 + cost(&args) / ELEMENTS_PER_UNIT)?;
                orig.call::<MultiValue>(args)
            })?,
        )
    };
    // insert(t, pos, v) shifts n - pos + 1 elements; insert(t, v) none.
    wrap("insert", |args| {
        let n = table_len(args.front());
        match (args.len(), num(args.get(1))) {
            (3, Some(pos)) if pos >= 1.0 => n.saturating_sub(pos as u64 - 1),
            _ => 0,
        }
    })?;
    wrap("remove", |args| {
        let n = table_len(args.front());
        match num(args.get(1)) {
            Some(pos) if pos >= 1.0 => n.saturating_sub(pos as u64),
            _ => 0,
        }
    })?;
    wrap("sort", |args| {
        let n = table_len(args.front());
        n * u64::from(64 - n.leading_zeros())
    })?;
    // maxn visits every key (the hash part too): reimplemented to charge as it goes.
    let b = budget.clone();
    table.set(
        "maxn",
        lua.create_function(move |_, t: Table| {
            let mut max = 0.0f64;
            for (seen, pair) in t.pairs::<LuaValue, LuaValue>().enumerate() {
                if seen % 1024 == 1023 {
                    charge(&b, 1024 / ELEMENTS_PER_UNIT)?;
                }
                match pair?.0 {
                    LuaValue::Integer(k) => max = max.max(k as f64),
                    LuaValue::Number(k) => max = max.max(k),
                    _ => {}
                }
            }
            charge(&b, 1)?;
            Ok(max)
        })?,
    )?;
    Ok(())
}
