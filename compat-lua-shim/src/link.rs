//! Lua functions on the buses: typed hook links (a `hooks:wrap` wrapper) and [`LuaListener`]
//! (an `events:on` listener), so Lua and Rhai links sit in one chain ordered by the one rule.
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
//! # The hot path (issue 10's `lua_link` bench)
//!
//! Each link is installed on the typed bus directly (`Runtime::wrap::<H>`, through the
//! [`TYPED`] table of catalog hooks), not through the api's value-level glue, so that:
//!
//! * the typed arguments are serialized **straight onto the Lua stack** ([`crate::stack`]) —
//!   no `Value` tree, no registry reference per table;
//! * `next` is a **persistent** Rust function created once per link (at `wrap` time). The
//!   link's current `Next` is lent to it through the link's [`NextSlot`], a stack of frames
//!   (one per running invocation of this link, so re-entrant dispatch and nested `next` across
//!   Lua ↔ Rhai work). Per call the only Lua object made besides the arguments is the `next`
//!   the wrapper receives: a C closure over the same callback with one more upvalue, its
//!   invocation's generation (see [`next_closure`]). A `next` kept past its call carries a
//!   generation no running frame has, and is refused.
//!
//! Everything else (answers, `next(a, …)` arguments, listeners) goes through `Value`
//! ([`crate::convert`]) under the hooks' own result rules.

use std::cell::{Cell, RefCell};
use std::marker::PhantomData;
use std::os::raw::c_int;
use std::rc::Rc;

use mlua::state::RawLua;
use mlua::{
    ffi, FromLua, FromLuaMulti, Function, IntoLuaMulti, Lua, MultiValue, Value as LuaValue,
};
use pallet_api::budget::{BUDGET_EXHAUSTED, DISPATCH_LIMIT};
use pallet_api::catalog::hooks;
use pallet_api::catalog::HookInfo;
use pallet_api::events::ListenerResult;
use pallet_api::hooks::{Hook, LinkResult, Next};
use pallet_api::script::{ArgList, ScriptHook, ScriptListener};
use pallet_api::script_rng::ScriptRng;
use pallet_api::{HookHandle, LinkError, Runtime, Value};
use serde::Serialize;

use crate::convert::{from_lua, from_lua_data_only, to_lua};
use crate::errors::{short, BUDGET_MESSAGE, NEXT_REENTRANT, NEXT_STALE};
use crate::host::{HostShared, LuaMod};
use crate::sandbox::{budget_stopped, RngHandle, Unlimited};
use crate::stack::{self, KeyCache};

/// Installs a Lua link for one catalog hook type.
type WrapFn =
    fn(&Runtime, &Rc<LuaMod>, &'static HookInfo, Function, i32) -> mlua::Result<HookHandle>;

macro_rules! typed_hooks {
    ($($ty:ident),+ $(,)?) => {
        /// Every catalog hook a Lua wrapper can go on, with its typed installer, generated from
        /// the catalog's own list (`pallet_api::with_catalog_hooks!`). A test checks it lists
        /// exactly the catalog's hooks (`pallet_api::catalog::HOOKS`).
        pub const TYPED: &[(&str, WrapFn)] = &[
            $((<hooks::$ty as Hook>::NAME, wrap_typed::<hooks::$ty> as WrapFn)),+
        ];
    };
}

pallet_api::with_catalog_hooks!(typed_hooks);

/// Install Lua function `f` of mod `m` as a link on the catalog hook `info`.
pub fn wrap(
    rt: &Runtime,
    m: &Rc<LuaMod>,
    info: &'static HookInfo,
    f: Function,
    priority: i32,
) -> mlua::Result<HookHandle> {
    match TYPED.iter().find(|(name, _)| *name == info.name) {
        Some((_, install)) => install(rt, m, info, f, priority),
        None => Err(mlua::Error::runtime(format!(
            "hook {} has no Lua binding in this build",
            info.name
        ))),
    }
}

// ----- the frames behind the persistent `next` -----------------------------------------------

/// One running invocation of a link: the `Next` it lends to its Lua `next`.
#[derive(Clone, Copy)]
struct Frame {
    /// `*mut Next<'_, H>` of the invocation, type- and lifetime-erased (see [`NextSlot`]).
    next: *mut (),
    gen: u64,
    /// The invocation's `next` is running (its downstream is executing).
    busy: bool,
}

/// The frames of one link's running invocations, innermost last.
///
/// Safety argument for the one raw pointer: a frame is pushed by [`TypedLink::call`] right
/// before it calls into Lua and popped (by [`FrameGuard`], also on unwind) right after, while
/// that call holds the exclusive `&mut Next` the pointer came from and does not touch it in
/// Rust. The Lua `next` dereferences the pointer only when its generation matches the
/// innermost frame and that frame is not `busy` (so there is never a second `&mut` to the same
/// `Next`), and only for the duration of its own call.
#[derive(Default)]
pub(crate) struct NextSlot {
    frames: RefCell<Vec<Frame>>,
    gen: Cell<u64>,
}

struct FrameGuard<'a> {
    slot: &'a NextSlot,
    depth: usize,
}

impl Drop for FrameGuard<'_> {
    fn drop(&mut self) {
        self.slot.frames.borrow_mut().truncate(self.depth);
    }
}

struct BusyGuard<'a> {
    slot: &'a NextSlot,
    index: usize,
}

impl Drop for BusyGuard<'_> {
    fn drop(&mut self) {
        if let Some(frame) = self.slot.frames.borrow_mut().get_mut(self.index) {
            frame.busy = false;
        }
    }
}

impl NextSlot {
    fn push(&self, next: *mut ()) -> (u64, FrameGuard<'_>) {
        let gen = self.gen.get() + 1;
        self.gen.set(gen);
        let mut frames = self.frames.borrow_mut();
        let depth = frames.len();
        frames.push(Frame {
            next,
            gen,
            busy: false,
        });
        (gen, FrameGuard { slot: self, depth })
    }

    /// The `Next` of the running invocation tagged `gen`, marked busy until the guard drops.
    fn enter(&self, gen: f64) -> mlua::Result<(*mut (), BusyGuard<'_>)> {
        let mut frames = self.frames.borrow_mut();
        let index = frames.len().wrapping_sub(1);
        if let Some(top) = frames.get_mut(index).filter(|top| top.gen as f64 == gen) {
            if top.busy {
                return Err(mlua::Error::runtime(NEXT_REENTRANT));
            }
            top.busy = true;
            return Ok((top.next, BusyGuard { slot: self, index }));
        }
        if frames.iter().any(|f| f.gen as f64 == gen) {
            Err(mlua::Error::runtime(NEXT_REENTRANT))
        } else {
            Err(mlua::Error::runtime(NEXT_STALE))
        }
    }
}

// ----- a typed link --------------------------------------------------------------------------

/// One Lua function installed as a link on hook `H`.
struct TypedLink<H> {
    /// The mod's wrapper.
    f: Function,
    /// The persistent `next` callback (each call hands the wrapper a tagged copy).
    raw_next: Function,
    m: Rc<LuaMod>,
    slot: Rc<NextSlot>,
    _hook: PhantomData<fn() -> H>,
}

fn wrap_typed<H>(
    rt: &Runtime,
    m: &Rc<LuaMod>,
    info: &'static HookInfo,
    f: Function,
    priority: i32,
) -> mlua::Result<HookHandle>
where
    H: ScriptHook,
    H::Args: Serialize,
{
    let slot = Rc::new(NextSlot::default());
    let raw_next =
        persistent_next::<H>(&m.lua, slot.clone(), m.host.clone(), m.keys.clone(), info)?;
    let link = TypedLink::<H> {
        f,
        raw_next,
        m: m.clone(),
        slot,
        _hook: PhantomData,
    };
    Ok(rt.wrap::<H, _>(&m.id, priority, move |next, args| link.call(next, args)))
}

impl<H> TypedLink<H>
where
    H: ScriptHook,
    H::Args: Serialize,
{
    fn call(&self, next: &mut Next<'_, H>, args: &H::Args) -> LinkResult<H::Out> {
        let m = &*self.m;
        too_deep(m)?;
        let _budget = m.host.budget.enter(DISPATCH_LIMIT);
        let (gen, frame) = self.slot.push(next as *mut Next<'_, H> as *mut ());
        let push = CallArgs::<H> {
            lua: &m.lua,
            next: &self.raw_next,
            keys: &m.keys,
            limit: m.host.memory_limit.get(),
            gen,
            args,
            rng: H::CTX_RNG,
        };
        let outcome = if H::OUT_ARITY > 1 {
            self.f
                .call::<MultiValue>(push)
                .map(|values| answer_many(values, H::OUT_ARITY))
        } else {
            self.f
                .call::<LuaValue>(push)
                .map(|value| from_lua(&value).map_err(|e| e.0))
        };
        drop(frame);
        match outcome {
            Ok(Ok(value)) => {
                H::out_from_value(value).map_err(|e| LinkError::from(format!("bad result: {e}")))
            }
            Ok(Err(e)) => Err(LinkError::from(format!(
                "returned a value that cannot cross into the engine: {e}"
            ))),
            Err(e) => Err(m.failure(&e)),
        }
    }
}

/// A wrapper's return values as one hook answer of `arity` values.
fn answer_many(values: MultiValue, arity: usize) -> Result<Value, String> {
    let mut items = Vec::with_capacity(arity);
    let mut it = values.into_iter();
    for _ in 0..arity {
        items.push(from_lua(&it.next().unwrap_or(LuaValue::Nil)).map_err(|e| e.0)?);
    }
    Ok(Value::List(items))
}

/// The arguments of one wrapper call — `next`, then the hook's parameters — pushed straight
/// onto the Lua stack.
struct CallArgs<'a, H: Hook> {
    lua: &'a Lua,
    /// The persistent `next` callback.
    next: &'a Function,
    keys: &'a KeyCache,
    limit: usize,
    gen: u64,
    args: &'a H::Args,
    /// Turn `ctx.rng` into an [`RngHandle`].
    rng: bool,
}

impl<H> CallArgs<'_, H>
where
    H: ScriptHook,
    H::Args: Serialize,
{
    fn ctx_position() -> Option<usize> {
        <H::Args as ArgList>::NAMES.iter().position(|n| *n == "ctx")
    }

    fn values(&self) -> mlua::Result<Vec<Value>> {
        H::args_to_values(self.args)
            .map_err(|e| mlua::Error::runtime(format!("argument conversion: {e}")))
    }
}

impl<H> IntoLuaMulti for CallArgs<'_, H>
where
    H: ScriptHook,
    H::Args: Serialize,
{
    /// Only [`Self::push_into_stack_multi`] is used (mlua's `Function::call` pushes through
    /// it): the tagged `next` can only be made on the stack.
    fn into_lua_multi(self, _: &Lua) -> mlua::Result<MultiValue> {
        Err(mlua::Error::runtime(
            "hook arguments are pushed onto the Lua stack only",
        ))
    }

    unsafe fn push_into_stack_multi(self, raw: &RawLua) -> mlua::Result<c_int> {
        let state = raw.state();
        let names = <H::Args as ArgList>::NAMES;
        let count = names.len() as c_int + 1;
        // SAFETY (this block): mlua calls this with the state locked and a stack guard that
        // restores the top on error; the memory limit is lifted (`_unlimited`) for every push,
        // as `crate::stack` requires; stack space is checked first.
        if ffi::lua_checkstack(state, count + 4) == 0 {
            return Err(mlua::Error::runtime("Lua stack overflow"));
        }
        let _unlimited = Unlimited::new(self.lua, self.limit);
        let base = ffi::lua_gettop(state);
        next_closure(raw, self.next, self.gen)?;
        if stack::push_fields(state, self.keys, names, self.args).is_err() {
            // Not positional as serialized (or not data): the `Value` path, which also names
            // what failed.
            ffi::lua_settop(state, base + 1);
            for v in &self.values()? {
                stack::push(state, self.keys, v)?;
            }
        }
        if let (true, Some(pos)) = (self.rng, Self::ctx_position()) {
            let index = base + 2 + pos as c_int;
            if let Some(rng) = rng_marker(state, index) {
                let handle = self.lua.create_userdata(RngHandle::new(rng))?;
                ffi::lua_pushlstring_(state, c"rng".as_ptr(), 3);
                raw.push(&handle)?;
                ffi::lua_rawset(state, index);
            }
        }
        Ok(count)
    }
}

/// Push the `next` of invocation `gen`: a C closure with the persistent callback's function and
/// upvalue (mlua's callback data), plus `gen` as a second upvalue, which [`NextArgs`] reads.
///
/// # Safety
/// mlua lock held, limit lifted, three free stack slots. `next` must be a function made by
/// `Lua::create_function` (a C closure whose first upvalue is mlua's callback data: mlua's
/// callback trampoline reads upvalue 1 only, so a copy with more upvalues calls the same Rust
/// closure).
unsafe fn next_closure(raw: &RawLua, next: &Function, gen: u64) -> mlua::Result<()> {
    let state = raw.state();
    raw.push(next)?;
    let Some(cfunction) = ffi::lua_tocfunction(state, -1) else {
        return Err(mlua::Error::runtime("next is not a host function"));
    };
    if ffi::lua_getupvalue(state, -1, 1).is_null() {
        return Err(mlua::Error::runtime("next has no callback data"));
    }
    ffi::lua_remove(state, -2);
    ffi::lua_pushnumber(state, gen as f64);
    ffi::lua_pushcclosure(state, cfunction, 2);
    Ok(())
}

/// The [`ScriptRng`] in `t.rng.__rng` of the table at stack `index`, if there is one.
///
/// # Safety
/// As in [`crate::stack`]: mlua lock held, limit lifted, two free stack slots; raw reads only
/// (no metamethods), and the stack is left as it was.
unsafe fn rng_marker(state: *mut ffi::lua_State, index: c_int) -> Option<ScriptRng> {
    if ffi::lua_type(state, index) != ffi::LUA_TTABLE {
        return None;
    }
    let top = ffi::lua_gettop(state);
    ffi::lua_pushlstring_(state, c"rng".as_ptr(), 3);
    ffi::lua_rawget(state, index);
    let mut found = None;
    if ffi::lua_type(state, -1) == ffi::LUA_TTABLE {
        let marker = ScriptRng::MARKER;
        ffi::lua_pushlstring_(
            state,
            marker.as_ptr() as *const std::os::raw::c_char,
            marker.len(),
        );
        ffi::lua_rawget(state, -2);
        if ffi::lua_type(state, -1) == ffi::LUA_TNUMBER {
            found = Some(ScriptRng::from_state(ffi::lua_tonumber(state, -1) as i64));
        }
    }
    ffi::lua_settop(state, top);
    found
}

// ----- the persistent `next` -----------------------------------------------------------------

/// What the Lua `next` was called with: its invocation's generation (the closure's second
/// upvalue, see [`next_closure`]), and the replacement arguments when there were any
/// (`next()` → `None`).
struct NextArgs {
    gen: f64,
    replace: Option<Vec<LuaValue>>,
}

impl FromLuaMulti for NextArgs {
    /// Not used by mlua for callbacks (they read the stack); without the closure's upvalue the
    /// generation is unknown, which reads as a stale `next`.
    fn from_lua_multi(values: MultiValue, _: &Lua) -> mlua::Result<Self> {
        Ok(NextArgs {
            gen: f64::NAN,
            replace: (!values.is_empty()).then(|| values.into_iter().collect()),
        })
    }

    unsafe fn from_stack_args(
        nargs: c_int,
        _: usize,
        _: Option<&str>,
        raw: &RawLua,
    ) -> mlua::Result<Self> {
        let state = raw.state();
        // SAFETY: mlua runs the callback on the calling thread's state (its arguments at the
        // top of the stack) inside the C closure that was called, so the upvalue pseudo-index
        // names that closure's upvalues.
        let upvalue = ffi::lua_upvalueindex(2);
        let gen = if ffi::lua_type(state, upvalue) == ffi::LUA_TNUMBER {
            ffi::lua_tonumber(state, upvalue)
        } else {
            f64::NAN
        };
        if nargs <= 0 {
            return Ok(NextArgs { gen, replace: None });
        }
        let mut values = Vec::with_capacity(nargs as usize);
        for i in 0..nargs {
            values.push(LuaValue::from_stack(-nargs + i, raw)?);
        }
        Ok(NextArgs {
            gen,
            replace: Some(values),
        })
    }
}

/// Downstream's answer on its way back into Lua (spread for multi-value hooks).
struct NextOut {
    value: Value,
    arity: usize,
    keys: Rc<KeyCache>,
    /// The memory limit stays lifted until the answer is pushed.
    _unlimited: Unlimited,
}

impl IntoLuaMulti for NextOut {
    fn into_lua_multi(self, lua: &Lua) -> mlua::Result<MultiValue> {
        match &self.value {
            Value::List(items) if self.arity > 1 => {
                items.iter().map(|item| to_lua(lua, item)).collect()
            }
            other => Ok(MultiValue::from_iter([to_lua(lua, other)?])),
        }
    }

    unsafe fn push_into_stack_multi(self, raw: &RawLua) -> mlua::Result<c_int> {
        let state = raw.state();
        // SAFETY: as in `CallArgs::push_into_stack_multi`; the limit is lifted by `self`.
        match &self.value {
            Value::List(items) if self.arity > 1 => {
                if ffi::lua_checkstack(state, items.len() as c_int + 2) == 0 {
                    return Err(mlua::Error::runtime("Lua stack overflow"));
                }
                for item in items {
                    stack::push(state, &self.keys, item)?;
                }
                Ok(items.len() as c_int)
            }
            other => {
                stack::push(state, &self.keys, other)?;
                Ok(1)
            }
        }
    }
}

fn persistent_next<H>(
    lua: &Lua,
    slot: Rc<NextSlot>,
    host: Rc<HostShared>,
    keys: Rc<KeyCache>,
    info: &'static HookInfo,
) -> mlua::Result<Function>
where
    H: ScriptHook,
{
    lua.create_function(move |lua, call: NextArgs| -> mlua::Result<NextOut> {
        let (ptr, busy) = slot.enter(call.gen)?;
        // SAFETY: see `NextSlot`: the frame is live (its invocation is running and lends us its
        // `Next` for as long as we run), and `busy` rules out a second borrow.
        let next = unsafe { &mut *(ptr as *mut Next<'_, H>) };
        let out = match call.replace {
            None => next.call(),
            Some(values) => {
                let mut args = Vec::with_capacity(values.len());
                for (i, a) in values.iter().enumerate() {
                    // Data only (functions a mod left in a table are dropped); `ctx.rng` crosses
                    // back as `{__rng = state}`.
                    args.push(from_lua_data_only(a).map_err(|e| {
                        mlua::Error::runtime(format!(
                            "bad argument #{} to next of hook {} ({}): {e}",
                            i + 1,
                            info.name,
                            info.params.get(i).copied().unwrap_or("extra")
                        ))
                    })?);
                }
                let args = H::args_from_values(args).map_err(|e| {
                    mlua::Error::runtime(format!(
                        "next of hook {}: bad arguments to next: {e} (callback signature {})",
                        info.name, info.signature
                    ))
                })?;
                next.call_with(args)
            }
        };
        drop(busy);
        if budget_stopped(&host.budget) {
            return Err(mlua::Error::runtime(BUDGET_EXHAUSTED));
        }
        let value = H::out_to_value(&out).map_err(|e| {
            mlua::Error::runtime(format!(
                "next of hook {}: result conversion: {e} (callback signature {})",
                info.name, info.signature
            ))
        })?;
        Ok(NextOut {
            value,
            arity: H::OUT_ARITY,
            keys: keys.clone(),
            _unlimited: Unlimited::new(lua, host.memory_limit.get()),
        })
    })
}

// ----- listeners -----------------------------------------------------------------------------

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

/// Refuse a call nested deeper than [`pallet_api::budget::MAX_NESTING`] script frames.
/// A call made while the dispatch's budget is already spent is refused outright.
fn too_deep(m: &LuaMod) -> Result<(), LinkError> {
    if budget_stopped(&m.host.budget) {
        return Err(LinkError::from(BUDGET_MESSAGE));
    }
    m.host.budget.check_nesting().map_err(LinkError::from)
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn every_catalog_hook_has_a_typed_lua_binding() {
        let typed: BTreeSet<&str> = TYPED.iter().map(|(n, _)| *n).collect();
        let catalog: BTreeSet<&str> = pallet_api::catalog::HOOKS.iter().map(|h| h.name).collect();
        assert_eq!(typed, catalog);
        assert_eq!(typed.len(), TYPED.len());
    }
}
