//! Lua functions on the buses: [`LuaLink`] (a `hooks:wrap` wrapper) and [`LuaListener`] (an
//! `events:on` listener), both implementing the api's value-level host interfaces, so Lua and
//! Rhai links sit in one chain ordered by the one rule.
//!
//! **`next` (the Lua engine's rules, reference §1.2).** The wrapper is called as
//! `fn(next, a1, …, an)` with the hook's parameters in catalog order (nil holes kept: the
//! argument count is the hook's arity). `next()` with **zero** arguments continues with the
//! current arguments; `next(…)` with one or more (explicit nils count) replaces them for
//! everything downstream. `next` returns downstream's answer — several values for multi-value
//! hooks (`catch.rate`, `warp.destination`). A wrapper's own multiple returns are kept the same
//! way. `next` is valid only while its link runs (a `next` stashed and called later raises
//! "next can only be called while its link runs"), and not re-entrantly.
//!
//! **Failure.** A Lua error in the wrapper fails the link by the chain rules (skipped before
//! `next`, downstream kept after it); the feed line carries the Lua message with its
//! `file:line`. A downstream failure never reaches the wrapper as an error: the bus has already
//! contained it. A budget stop raises inside the wrapper as soon as downstream returns.
//!
//! `next` is created per call inside `Lua::scope`, so it can borrow the bus's `&mut dyn
//! ValueNext` without any `unsafe`: mlua invalidates it when the scope ends.

use std::rc::Rc;

use mlua::{Function, Lua, MultiValue, Value as LuaValue};
use pallet_api::budget::{BUDGET_EXHAUSTED, DISPATCH_LIMIT};
use pallet_api::catalog::HookInfo;
use pallet_api::events::ListenerResult;
use pallet_api::script::{ScriptLink, ScriptListener, ValueNext};
use pallet_api::{LinkError, Value};

use crate::convert::{from_lua, from_lua_data_only, to_lua};
use crate::errors::{short, BUDGET_MESSAGE};
use crate::host::LuaMod;
use crate::sandbox::{budget_stopped, Unlimited, MAX_NESTING};

/// Hooks whose `ctx` carried the engine's RNG in the Lua engine; the shim supplies `ctx.rng`
/// there (a userdata, so it never crosses back into the engine through `next`).
const RNG_HOOKS: &[&str] = &["encounter.roll"];

/// One Lua function installed as a hook link.
pub struct LuaLink {
    pub(crate) f: Function,
    pub(crate) m: Rc<LuaMod>,
    pub(crate) info: &'static HookInfo,
}

/// Spread a hook result into Lua return values (multi-value hooks are lists of `out_arity`).
fn results(lua: &Lua, v: &Value, arity: usize) -> mlua::Result<MultiValue> {
    match v {
        Value::List(items) if arity > 1 => {
            let mut out = MultiValue::with_capacity(items.len());
            for item in items {
                out.push_back(to_lua(lua, item)?);
            }
            Ok(out)
        }
        other => Ok(MultiValue::from_iter([to_lua(lua, other)?])),
    }
}

/// A wrapper's return values as one hook answer.
fn answer(values: MultiValue, arity: usize) -> Result<Value, String> {
    if arity > 1 {
        let mut items = Vec::with_capacity(arity);
        let mut it = values.into_iter();
        for _ in 0..arity {
            items.push(from_lua(&it.next().unwrap_or(LuaValue::Nil)).map_err(|e| e.0)?);
        }
        Ok(Value::List(items))
    } else {
        from_lua(values.front().unwrap_or(&LuaValue::Nil)).map_err(|e| e.0)
    }
}

fn call_next(
    lua: &Lua,
    next: &mut dyn ValueNext,
    args: MultiValue,
    info: &HookInfo,
    m: &LuaMod,
) -> mlua::Result<MultiValue> {
    let outcome = if args.is_empty() {
        next.call()
    } else {
        let mut values = Vec::with_capacity(args.len());
        for (i, a) in args.iter().enumerate() {
            // Data only: a `ctx` handed back to `next` still carries the shim's `ctx.rng`.
            let v = from_lua_data_only(a).map_err(|e| {
                mlua::Error::runtime(format!(
                    "bad argument #{} to next of hook {} ({}): {e}",
                    i + 1,
                    info.name,
                    info.params.get(i).copied().unwrap_or("extra")
                ))
            })?;
            values.push(v);
        }
        next.call_with(values)
    };
    if budget_stopped(&m.host.budget) {
        return Err(mlua::Error::runtime(BUDGET_EXHAUSTED));
    }
    match outcome {
        Ok(v) => {
            let _unlimited = Unlimited::new(lua, m.host.memory_limit.get());
            results(lua, &v, info.out_arity)
        }
        Err(e) => Err(mlua::Error::runtime(format!(
            "next of hook {}: {e} (callback signature {})",
            info.name, info.signature
        ))),
    }
}

impl ScriptLink for LuaLink {
    fn call(&self, next: &mut dyn ValueNext, args: Vec<Value>) -> Result<Value, LinkError> {
        let m = &*self.m;
        too_deep(m)?;
        let _frame = m.host.budget.enter(DISPATCH_LIMIT);
        let lua = &m.lua;
        let info = self.info;
        let limit = m.host.memory_limit.get();
        let outcome = lua.scope(|scope| {
            let unlimited = Unlimited::new(lua, limit);
            let next_fn = scope
                .create_function_mut(|lua, a: MultiValue| call_next(lua, &mut *next, a, info, m))?;
            let mut argv = MultiValue::with_capacity(args.len() + 1);
            argv.push_back(LuaValue::Function(next_fn));
            for (i, v) in args.iter().enumerate() {
                let value = to_lua(lua, v)?;
                if let (true, LuaValue::Table(t)) = (
                    info.params.get(i) == Some(&"ctx") && RNG_HOOKS.contains(&info.name),
                    &value,
                ) {
                    t.raw_set("rng", m.rng_handle.clone())?;
                }
                argv.push_back(value);
            }
            drop(unlimited);
            self.f.call::<MultiValue>(argv)
        });
        match outcome {
            Ok(values) => answer(values, info.out_arity).map_err(|e| {
                LinkError::from(format!(
                    "returned a value that cannot cross into the engine: {e}"
                ))
            }),
            Err(e) => Err(m.failure(&e)),
        }
    }
}

/// One Lua function installed as an event listener.
pub struct LuaListener {
    pub(crate) f: Function,
    pub(crate) m: Rc<LuaMod>,
}

impl ScriptListener for LuaListener {
    fn call(&self, payload: &Value) -> ListenerResult {
        let m = &*self.m;
        too_deep(m)?;
        let _frame = m.host.budget.enter(DISPATCH_LIMIT);
        let payload = {
            let _unlimited = Unlimited::new(&m.lua, m.host.memory_limit.get());
            to_lua(&m.lua, payload)
        };
        let outcome = payload.and_then(|p| self.f.call::<()>(p));
        outcome.map_err(|e| m.failure(&e))
    }
}

/// Refuse a call nested deeper than [`MAX_NESTING`] script frames.
/// A call made while the dispatch's budget is already spent is refused outright.
fn too_deep(m: &LuaMod) -> Result<(), LinkError> {
    if budget_stopped(&m.host.budget) {
        return Err(LinkError::from(BUDGET_MESSAGE));
    }
    if m.host.budget.depth() >= MAX_NESTING {
        return Err(LinkError::from(format!(
            "script calls nested deeper than {MAX_NESTING} levels (a listener re-emitting its own event?)"
        )));
    }
    Ok(())
}

impl LuaMod {
    /// The link error for a Lua failure (budget stops and memory errors named as such). After a
    /// memory error the state collects its garbage so the next call starts clean.
    pub(crate) fn failure(&self, e: &mlua::Error) -> LinkError {
        if budget_stopped(&self.host.budget) {
            return LinkError::from(BUDGET_MESSAGE);
        }
        if matches!(root(e), mlua::Error::MemoryError(_)) {
            let _ = self.lua.gc_collect();
        }
        LinkError::from(short(e))
    }
}

fn root(e: &mlua::Error) -> &mlua::Error {
    match e {
        mlua::Error::CallbackError { cause, .. } | mlua::Error::WithContext { cause, .. } => {
            root(cause)
        }
        other => other,
    }
}
