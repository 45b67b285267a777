//! Item effects given as Lua **functions** (issue 18 item 8): `content.item_effects:register(
//! id, { field = true, battle = false, use = function(ctx) … return "failed", { "text" } end })`
//! with `content.items:patch(ITEM, { effect = id })`.
//!
//! As for map-script handlers ([`crate::map_handlers`]), the function never crosses into the
//! engine's data: [`split`] takes `use` out, the flags go to the `item_effects` registry, and
//! the function stays in its mod's own table, keyed by effect id. A record given to `register`
//! or `override` without a `use` function is refused with a stable error. The engine reaches the
//! functions through [`effect_fn`], which wraps one as a [`ItemEffectFn`] holding its mod
//! weakly: once the mod is unloaded (or its entry failed and was rolled back) the effect answers
//! an error and the item is kept.
//!
//! The call: `use(ctx)` with the context of [`pallet_engine::game::item_effects::use_context`]
//! (a fresh table); the answer record is `{result = <1st return>, messages = <2nd return>, save =
//! <ctx.save after the call>}`, so a mod that writes `ctx.save.coins = 9999` is heard. Each call
//! is charged to the shared dispatch budget like a hook call.

use std::rc::{Rc, Weak};

use mlua::{Function, MultiValue, Table, Value as LuaValue};
use pallet_api::budget::DISPATCH_LIMIT;
use pallet_api::Value;
use pallet_engine::game::item_effects::ItemEffectFn;

use crate::convert::{from_lua, to_lua};
use crate::mod_state::LuaMod;
use crate::sandbox::budget_stopped;

/// The registry name.
pub const REGISTRY: &str = "item_effects";

/// Take `use` out of an `item_effects` record for `op` (`register`, `override`, `patch`).
/// Returns the data-only copy and the function. `register`/`override` need a function; a `use`
/// that is not a function is refused for every op.
pub fn split(
    lua: &mlua::Lua,
    op: &str,
    id: &str,
    record: &LuaValue,
) -> mlua::Result<(LuaValue, Option<Function>)> {
    let what = format!("content.item_effects:{op}({id})");
    let LuaValue::Table(t) = record else {
        return Err(mlua::Error::runtime(format!(
            "{what}: the record must be a table, got {}",
            record.type_name()
        )));
    };
    let copy: Table = lua.create_table()?;
    let mut f = None;
    for pair in t.pairs::<LuaValue, LuaValue>() {
        let (k, v) = pair?;
        let is_use = matches!(&k, LuaValue::String(s) if s.as_bytes() == b"use");
        match (is_use, v) {
            (true, LuaValue::Function(func)) => f = Some(func),
            (true, other) => {
                return Err(mlua::Error::runtime(format!(
                    "{what}: use must be a function, got {}",
                    other.type_name()
                )))
            }
            (false, v) => copy.raw_set(k, v)?,
        }
    }
    if f.is_none() && op != "patch" {
        return Err(mlua::Error::runtime(format!(
            "{what}: use must be a function, got nil"
        )));
    }
    Ok((LuaValue::Table(copy), f))
}

/// Keep `m`'s function for effect `id` (a later one replaces it), after the registry took the
/// data part.
pub fn keep(m: &Rc<LuaMod>, id: &str, f: Function) {
    m.item_effects.borrow_mut().insert(id.to_owned(), f);
    let mut owners = m.host.handler_owners.borrow_mut();
    if !owners.iter().any(|w| w.ptr_eq(&Rc::downgrade(m))) {
        owners.push(Rc::downgrade(m));
    }
}

fn call(m: &Weak<LuaMod>, effect: &str, ctx: &Value) -> Result<Value, String> {
    let Some(m) = m.upgrade() else {
        return Err("the mod is unloaded".to_owned());
    };
    let Some(f) = m.item_effects.borrow().get(effect).cloned() else {
        return Err("the mod is unloaded".to_owned());
    };
    if m.flood.flooded.get() {
        return Err(crate::string_flood::FLOOD_MESSAGE.to_owned());
    }
    let budget = m.host.budget.clone();
    let _frame = budget.enter(DISPATCH_LIMIT);
    let lua = &m.lua;
    let arg = to_lua(lua, ctx).map_err(|e| e.to_string())?;
    let out = match f.call::<MultiValue>(arg.clone()) {
        Ok(out) => out,
        Err(_) if budget_stopped(&budget) => return Err(crate::errors::BUDGET_MESSAGE.to_owned()),
        Err(e) => return Err(crate::errors::short(&e)),
    };
    let mut out = out.into_iter();
    let cross = |v: Option<LuaValue>, what: &str| -> Result<Value, String> {
        match v {
            None => Ok(Value::Nil),
            Some(v) => from_lua(&v).map_err(|e| format!("{what}: {e}")),
        }
    };
    let result = cross(out.next(), "result")?;
    let messages = cross(out.next(), "messages")?;
    let save = match &arg {
        LuaValue::Table(t) => cross(t.raw_get::<LuaValue>("save").ok(), "ctx.save")?,
        _ => Value::Nil,
    };
    Ok(Value::map([
        ("result", result),
        ("messages", messages),
        ("save", save),
    ]))
}

/// The function a live Lua mod of `host` keeps for effect `effect`, wrapped for the engine, and
/// its mod's id. `None` when no Lua mod has it.
pub fn effect_fn(
    host: &crate::mod_state::HostShared,
    effect: &str,
) -> Option<(String, Rc<ItemEffectFn>)> {
    let owners = host.handler_owners.borrow();
    // The last mod to keep a function for the effect wins (load order).
    owners.iter().rev().find_map(|w| {
        let m = w.upgrade()?;
        if !m.item_effects.borrow().contains_key(effect) {
            return None;
        }
        let (weak, effect) = (w.clone(), effect.to_owned());
        let run: Rc<ItemEffectFn> = Rc::new(move |ctx: &Value| call(&weak, &effect, ctx));
        Some((m.id.clone(), run))
    })
}
