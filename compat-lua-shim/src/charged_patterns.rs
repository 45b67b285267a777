//! `string.find`, `match`, `gmatch` and `gsub` charged by their matcher steps.
//!
//! Before the C matcher runs, [`pattern_cost::Cost`] walks the same backtracking search with
//! the dispatch's remaining budget as its step limit: a call whose search would overrun the
//! budget is stopped unrun (*operation budget exhausted*), a pattern needing more than
//! [`MAX_DEPTH`](crate::pattern_cost::MAX_DEPTH) nested matcher calls is refused
//! (`lua.max_pattern_depth`), and otherwise the steps are charged and the C function produces
//! the results. `gmatch` is charged per iteration (the wrapper keeps the iterator's position).
//! A plain search (`find` with `plain`, or a pattern without specials) is charged by its
//! subject and pattern sizes.

use std::cell::Cell;
use std::rc::Rc;

use mlua::{Function, Lua, LuaString, MultiValue, Table, Value as LuaValue};
use pallet_api::budget::{DispatchBudget, BUDGET_EXHAUSTED, DISPATCH_LIMIT};

use crate::limits::{bytes_units, charge, num, str_len};
use crate::pattern_cost::{has_specials, Cost, Stop, MAX_DEPTH};

/// Matcher steps (one matcher call or one subject byte a loop tests) one budget unit pays for.
pub const MATCH_STEPS_PER_UNIT: u64 = 4;
/// Subject bytes of a plain search one budget unit pays for.
pub const SUBJECT_BYTES_PER_UNIT: u64 = 8;

/// The error of a pattern past [`MAX_DEPTH`].
pub fn depth_error() -> mlua::Error {
    mlua::Error::runtime(format!(
        "lua.max_pattern_depth: pattern too complex (more than {MAX_DEPTH} nested matcher calls)"
    ))
}

/// Steps the current dispatch can still pay for.
fn step_allowance(budget: &DispatchBudget) -> u64 {
    let left = if budget.depth() > 0 {
        budget.limit().saturating_sub(budget.used())
    } else {
        DISPATCH_LIMIT
    };
    left.saturating_mul(MATCH_STEPS_PER_UNIT)
}

/// Charge a finished walk; `Ok(())` when the C function may run (a malformed pattern is left to
/// it, so its own error message reaches the mod).
fn settle<T>(budget: &DispatchBudget, walk: &Cost, out: Result<T, Stop>) -> mlua::Result<()> {
    let units = 1 + walk.steps / MATCH_STEPS_PER_UNIT;
    match out {
        Err(Stop::Limit) => {
            budget.charge(units.max(budget.limit().saturating_add(1)));
            Err(mlua::Error::runtime(BUDGET_EXHAUSTED))
        }
        Err(Stop::Depth) => {
            charge(budget, units)?;
            Err(depth_error())
        }
        Ok(_) | Err(Stop::Malformed) => charge(budget, units),
    }
}

fn text(lua: &Lua, v: Option<&LuaValue>) -> Option<LuaString> {
    match v {
        Some(LuaValue::String(s)) => Some(s.clone()),
        Some(v @ (LuaValue::Integer(_) | LuaValue::Number(_))) => {
            lua.coerce_string(v.clone()).ok().flatten()
        }
        _ => None,
    }
}

/// Lua 5.1's start position: 1-based `init` (negative from the end) → 0-based, clamped.
fn start(init: Option<f64>, len: usize) -> usize {
    let mut i = init.unwrap_or(1.0).trunc();
    if i < 0.0 {
        i += len as f64 + 1.0;
    }
    let i = (i.max(0.0) - 1.0).max(0.0);
    (i as usize).min(len)
}

fn truthy(v: Option<&LuaValue>) -> bool {
    !matches!(v, None | Some(LuaValue::Nil | LuaValue::Boolean(false)))
}

/// Charge a `find`/`match` call; `find` is `true` for `string.find`.
fn charge_find(
    lua: &Lua,
    budget: &DispatchBudget,
    args: &MultiValue,
    find: bool,
) -> mlua::Result<()> {
    let (Some(s), Some(p)) = (text(lua, args.front()), text(lua, args.get(1))) else {
        return charge(budget, 1);
    };
    let (s, p) = (s.as_bytes(), p.as_bytes());
    let init = start(num(args.get(2)), s.len());
    if find && (truthy(args.get(3)) || !has_specials(&p)) {
        let (n, m) = (s.len() as u64, p.len() as u64);
        return charge(
            budget,
            1 + (n + m) / SUBJECT_BYTES_PER_UNIT + (n / 1024) * (m / 8),
        );
    }
    let mut walk = Cost::new(&s, &p, step_allowance(budget));
    let out = walk.find(init);
    settle(budget, &walk, out)
}

/// Install the wrappers over `string.find`/`match`/`gmatch`/`gsub`.
pub fn install(lua: &Lua, string: &Table, budget: Rc<DispatchBudget>) -> mlua::Result<()> {
    for (name, find) in [("find", true), ("match", false)] {
        let orig: Function = string.get(name)?;
        let b = budget.clone();
        string.set(
            name,
            lua.create_function(move |lua, args: MultiValue| {
                charge_find(lua, &b, &args, find)?;
                let out = orig.call::<MultiValue>(args)?;
                let produced: u64 = out.iter().map(|v| str_len(Some(v))).sum();
                charge(&b, bytes_units(produced))?;
                Ok(out)
            })?,
        )?;
    }

    let gsub: Function = string.get("gsub")?;
    let b = budget.clone();
    string.set(
        "gsub",
        lua.create_function(move |lua, args: MultiValue| {
            match (text(lua, args.front()), text(lua, args.get(1))) {
                (Some(s), Some(p)) => {
                    let (s, p) = (s.as_bytes(), p.as_bytes());
                    let max = num(args.get(3)).map_or(u64::MAX, |n| n.max(0.0) as u64);
                    let mut walk = Cost::new(&s, &p, step_allowance(&b));
                    let out = walk.gsub(max);
                    settle(&b, &walk, out)?;
                }
                _ => charge(&b, 1)?,
            }
            let out = gsub.call::<MultiValue>(args);
            crate::charged_alloc::after_c_call(lua);
            let out = out?;
            charge(&b, bytes_units(str_len(out.front())))?;
            Ok(out)
        })?,
    )?;

    let gmatch: Function = string.get("gmatch")?;
    let b = budget;
    string.set(
        "gmatch",
        lua.create_function(move |lua, args: MultiValue| {
            charge(&b, 1)?;
            let texts = (text(lua, args.front()), text(lua, args.get(1)));
            let iter: Function = gmatch.call(args)?;
            let (Some(s), Some(p)) = texts else {
                return Ok(iter);
            };
            // The C iterator keeps its position to itself; the wrapper mirrors it to walk each
            // next match before the iterator runs it.
            let at = Cell::new(0usize);
            let b = b.clone();
            lua.create_function(move |_, args: MultiValue| {
                let (sb, pb) = (s.as_bytes(), p.as_bytes());
                if at.get() <= sb.len() {
                    let mut walk = Cost::new(&sb, &pb, step_allowance(&b));
                    let out = walk.next_match(at.get());
                    if let Ok(found) = out {
                        at.set(match found {
                            Some((st, e)) if e == st => e + 1,
                            Some((_, e)) => e,
                            None => sb.len() + 1,
                        });
                    }
                    settle(&b, &walk, out)?;
                }
                let out = iter.call::<MultiValue>(args)?;
                let produced: u64 = out.iter().map(|v| str_len(Some(v))).sum();
                charge(&b, bytes_units(produced))?;
                Ok(out)
            })
        })?,
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_positions_follow_lua_5_1() {
        assert_eq!(start(None, 5), 0);
        assert_eq!(start(Some(3.0), 5), 2);
        assert_eq!(start(Some(-2.0), 5), 3);
        assert_eq!(start(Some(-20.0), 5), 0);
        assert_eq!(start(Some(99.0), 5), 5);
        assert_eq!(start(Some(0.0), 5), 0);
    }
}
