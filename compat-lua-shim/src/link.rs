//! Lua functions on the buses: typed hook links (a `hooks:wrap` wrapper) and [`LuaListener`]
//! (an `events:on` listener), so Lua and Rhai links sit in one chain ordered by the one rule.
//!
//! **`next` (the Lua engine's rules).** The wrapper is called as
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
//! * the wrapper is called with a raw `lua_pcall` on registry references, and its `next` is a
//!   plain C closure ([`crate::rawcall`]) whose upvalues are the link's shared block and the
//!   invocation's generation; `next()` runs downstream straight from it and pushes a scalar
//!   answer without touching the memory limit. The link's current `Next` is lent to it through
//!   the link's [`NextSlot`](crate::next_frames::NextSlot), a stack of frames (one per running invocation of this link, so
//!   re-entrant dispatch and nested `next` across Lua ↔ Rhai work). Per call the only Lua
//!   object made besides the arguments is that closure; a `next` kept past its call carries a
//!   generation no running frame has, and is refused;
//! * the wrapper's answer is read off the stack (scalars directly, no `LuaValue` in between).
//! * a parameter the wrapper never reads (a scan of its bytecode at `wrap` time,
//!   [`crate::reads`]) is passed as `nil` without being converted, and a wrapper that never
//!   reads its `next` gets `nil` instead of a fresh closure (mods cannot observe an unread
//!   register: see [`crate::reads`]); a struct parameter that is only indexed by constant keys
//!   is pushed with just the fields on those key paths (`ctx.user.hp`: `ctx.user` with only
//!   its `hp`).
//!
//! Everything else (table answers, `next(a, …)` arguments, listeners) goes through `Value`
//! ([`crate::convert`]) under the hooks' own result rules.

use crate::capi;
use std::cell::RefCell;
use std::marker::PhantomData;
use std::os::raw::c_int;
use std::rc::Rc;

use mlua::state::RawLua;
use mlua::{
    FromLua, FromLuaMulti, Function, IntoLuaMulti, Lua, MultiValue, Table, Value as LuaValue,
};
use pallet_api::budget::{BUDGET_EXHAUSTED, DISPATCH_LIMIT};
use pallet_api::catalog::hooks;
use pallet_api::catalog::HookInfo;
use pallet_api::events::ListenerResult;
use pallet_api::hooks::{Hook, LinkResult, Next};
use pallet_api::script::{ArgList, ReadPaths, ScriptHook, ScriptListener};
use pallet_api::script_rng::ScriptRng;
use pallet_api::{HookHandle, LinkError, Runtime, Value};
use serde::Serialize;

use crate::convert::{from_lua, from_lua_data_only, to_lua};
use crate::errors::{short, BUDGET_MESSAGE};
use crate::mod_state::LuaMod;
use crate::next_frames::NextSlot;
use crate::rawcall::{self, LinkRefs, LinkShared};
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
    rt.check_link_quota(&m.id).map_err(mlua::Error::runtime)?;
    match TYPED.iter().find(|(name, _)| *name == info.name) {
        Some((_, install)) => install(rt, m, info, f, priority),
        None => Err(mlua::Error::runtime(format!(
            "hook {} has no Lua binding in this build",
            info.name
        ))),
    }
}

// ----- a typed link --------------------------------------------------------------------------

/// One Lua function installed as a link on hook `H`.
struct TypedLink<H> {
    /// The wrapper, its message handler and the shared block, in the registry.
    refs: LinkRefs,
    shared: Rc<LinkShared>,
    m: Rc<LuaMod>,
    /// The hook parameters the wrapper may read (bit `j` for parameter `j`, from
    /// [`crate::reads`]); an unread one is passed as `nil`, unconverted.
    params_read: u64,
    /// Parameters (by index) of which the wrapper reads only some fields by constant keys,
    /// with those key paths: only they are pushed.
    params_only: Vec<(usize, ReadPaths)>,
    /// The wrapper may read its `next` (one that never does gets `nil`: no closure made).
    next_read: bool,
    /// `ctx.applyShare` of the running `battle.exp_award` call and the party tables it
    /// matches mons with ([`crate::share`]).
    share_fn: RefCell<Option<(Function, crate::share::PartyTables)>>,
    /// The `game` metatable ([`crate::game_view`]) and the `game` parameter's index, when the
    /// hook has one and the wrapper may read it.
    game_meta: Option<(Table, usize)>,
    _hook: PhantomData<fn() -> H>,
}

/// Does hook `H` hand its wrappers `ctx.applyShare` (`battle.exp_award`)?
fn has_apply_share<H: Hook>() -> bool {
    H::ID == <hooks::BattleExpAward as Hook>::ID
}

/// Is `H` `evolution.check` (whose `evo` and `trigger` Lua reads in the Lua engine's spelling,
/// [`crate::spelling`])?
fn is_evolution_check<H: Hook>() -> bool {
    H::ID == <hooks::EvolutionCheck as Hook>::ID
}

/// Is `H` `movement.collision` (whose `ctx.mover` is the state's player table when the player
/// moves, [`crate::overworld_view`])?
fn is_movement_collision<H: Hook>() -> bool {
    H::ID == <hooks::MovementCollision as Hook>::ID
}

/// Parameters of `H` the shim rewrites after the push, so they are pushed whole (never cut
/// to the fields the wrapper reads: the fields it reads are the rewritten ones).
fn rewritten_params<H: Hook>() -> &'static [&'static str] {
    if has_apply_share::<H>() || is_movement_collision::<H>() {
        &["ctx"]
    } else if is_evolution_check::<H>() {
        &["evo", "trigger"]
    } else {
        &[]
    }
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
    let shared = Rc::new(LinkShared {
        slot: NextSlot::default(),
        host: m.host.clone(),
        keys: m.keys.clone(),
        gate: m.gate.clone(),
        info,
        panic: RefCell::new(None),
    });
    let slow_next = persistent_next::<H>(&m.lua, shared.clone())?;
    let reads = crate::reads::of_function(&m.lua, m.host.memory_limit.get(), &f);
    let n = <H::Args as ArgList>::NAMES.len();
    let params_read = reads.hook_params(n);
    let names = <H::Args as ArgList>::NAMES;
    let params_only: Vec<(usize, ReadPaths)> = (0..n)
        .filter(|&j| !rewritten_params::<H>().contains(&names[j]))
        .filter_map(|j| {
            let mut paths = reads.keys(j + 1)?.clone();
            // `ctx.rng` is replaced by a userdata after the push when its marker is found
            // (`rng_marker`): never filter it, so the marker is always there.
            if H::CTX_RNG && names.get(j) == Some(&"ctx") {
                paths.widen("rng");
            }
            Some((j, paths))
        })
        .collect();
    let refs = LinkRefs::new(
        &m.lua,
        m.host.memory_limit.get(),
        &f,
        shared.clone(),
        &slow_next,
    )?;
    let game_meta = match names.iter().position(|n| *n == "game") {
        Some(j) if params_read & (1u64 << j.min(63)) != 0 => Some((crate::game_view::meta(m)?, j)),
        _ => None,
    };
    let link = TypedLink::<H> {
        refs,
        shared,
        m: m.clone(),
        params_read,
        params_only,
        next_read: reads.reads(0),
        share_fn: RefCell::new(None),
        game_meta,
        _hook: PhantomData,
    };
    Ok(rt.wrap::<H, _>(&m.id, priority, move |next, args| link.call(next, args)))
}

/// How a wrapper call ended.
enum Outcome {
    /// The wrapper's answer (a list of `OUT_ARITY` values for multi-value hooks).
    Answer(Value),
    /// The wrapper returned something that is not data.
    NotData(String),
    Failed(mlua::Error),
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
        let shares = if has_apply_share::<H>() {
            let shares = crate::share::new(&m.lua).map_err(|e| m.failure(&e))?;
            *self.share_fn.borrow_mut() = Some((shares.f.clone(), shares.party.clone()));
            Some(shares)
        } else {
            None
        };
        let (gen, frame) = self.shared.slot.push(next as *mut Next<'_, H> as *mut ());
        // SAFETY: `invoke`'s contract: the lock is held by `exec_raw_lua`.
        let outcome = m
            .lua
            .exec_raw_lua(|raw| unsafe { self.invoke(raw, gen, args) });
        drop(frame);
        if shares.is_some() {
            self.share_fn.borrow_mut().take();
        }
        if let Some(panic) = self.shared.panic.borrow_mut().take() {
            std::panic::resume_unwind(panic);
        }
        match outcome {
            Outcome::Answer(value) => {
                let value = match &shares {
                    Some(shares) => crate::share::answer(shares, value),
                    None => value,
                };
                H::out_from_value(value).map_err(|e| LinkError::from(format!("bad result: {e}")))
            }
            Outcome::NotData(e) => Err(LinkError::from(format!(
                "returned a value that cannot cross into the engine: {e}"
            ))),
            Outcome::Failed(e) => Err(m.failure(&e)),
        }
    }

    /// Call the wrapper as `f(next, a1, …, an)` under `lua_pcall` and read its answer.
    ///
    /// # Safety
    /// The mlua lock is held (`raw`). The stack is restored to where it was on every path.
    unsafe fn invoke(&self, raw: &RawLua, gen: u64, args: &H::Args) -> Outcome {
        let state = raw.state();
        let base = capi::lua_gettop(state);
        let outcome = self.invoke_at(raw, state, base, gen, args);
        capi::lua_settop(state, base);
        outcome
    }

    unsafe fn invoke_at(
        &self,
        raw: &RawLua,
        state: *mut capi::lua_State,
        base: c_int,
        gen: u64,
        args: &H::Args,
    ) -> Outcome {
        let m = &*self.m;
        let names = <H::Args as ArgList>::NAMES;
        let nargs = names.len() as c_int + 1;
        let arity = H::OUT_ARITY.max(1) as c_int;
        {
            // The allocator's gate is lifted for the pushes (see `crate::stack`), and for
            // growing the stack (which could otherwise raise a memory error outside any
            // protected call).
            let _lift = m.gate.lift();
            if capi::lua_checkstack(state, nargs.max(arity) + 8) == 0 {
                return Outcome::Failed(mlua::Error::runtime("Lua stack overflow"));
            }
            capi::lua_rawgeti(state, capi::LUA_REGISTRYINDEX, self.refs.handler as _);
            capi::lua_rawgeti(state, capi::LUA_REGISTRYINDEX, self.refs.func as _);
            if self.next_read {
                rawcall::push_next::<H>(state, &self.refs, gen);
            } else {
                capi::lua_pushnil(state);
            }
            if let Err(e) = self.push_args(raw, state, base + 3, args) {
                return Outcome::Failed(e);
            }
        }
        let status = capi::lua_pcall(state, nargs, arity, base + 1);
        if status != 0 {
            // A number error converts in place (allocates): lifted, it cannot raise.
            let _lift = m.gate.lift();
            return Outcome::Failed(pop_error(raw, state, status));
        }
        let first = capi::lua_gettop(state) - arity + 1;
        if H::OUT_ARITY > 1 {
            let mut items = Vec::with_capacity(H::OUT_ARITY);
            for i in 0..arity {
                match answer_at(raw, state, first + i) {
                    Ok(v) => items.push(v),
                    Err(e) => return Outcome::NotData(e),
                }
            }
            Outcome::Answer(Value::List(items))
        } else {
            match answer_at(raw, state, first) {
                Ok(v) => Outcome::Answer(v),
                Err(e) => Outcome::NotData(e),
            }
        }
    }

    /// Push the hook's parameters (positional, nil holes kept) above `next` at `next_index`.
    ///
    /// # Safety
    /// Lock held, limit lifted, `names.len() + 4` free stack slots.
    unsafe fn push_args(
        &self,
        raw: &RawLua,
        state: *mut capi::lua_State,
        next_index: c_int,
        args: &H::Args,
    ) -> mlua::Result<()> {
        let m = &*self.m;
        let names = <H::Args as ArgList>::NAMES;
        let pushed = stack::push_fields(
            state,
            &m.keys,
            names,
            self.params_read,
            &self.params_only,
            args,
        )
        .is_ok();
        if !pushed {
            // Not positional as serialized (or not data): the `Value` path, which also names
            // what failed.
            capi::lua_settop(state, next_index);
            let values = H::args_to_values(args)
                .map_err(|e| mlua::Error::runtime(format!("argument conversion: {e}")))?;
            for v in &values {
                stack::push(state, &m.keys, v)?;
            }
        }
        if H::CTX_RNG {
            if let Some(pos) = names.iter().position(|n| *n == "ctx") {
                let index = next_index + 1 + pos as c_int;
                if let Some(rng) = rng_marker(state, index) {
                    // mlua's API: unprotected (fast) under `Unlimited`.
                    let handle = {
                        let _unlimited = Unlimited::new(&m.lua, m.host.memory_limit.get());
                        m.lua.create_userdata(RngHandle::new(rng))?
                    };
                    capi::lua_pushlstring_(state, c"rng".as_ptr(), 3);
                    raw.push(&handle)?;
                    capi::lua_rawset(state, index);
                }
            }
        }
        if let Some((meta, pos)) = &self.game_meta {
            let index = next_index + 1 + *pos as c_int;
            if capi::lua_type(state, index) == capi::LUA_TTABLE {
                raw.push(meta)?;
                capi::lua_setmetatable(state, index);
            }
        }
        if has_apply_share::<H>() {
            let share = self.share_fn.borrow();
            if let (Some((f, party)), Some(pos)) = (&*share, names.iter().position(|n| *n == "ctx"))
            {
                let index = next_index + 1 + pos as c_int;
                if capi::lua_type(state, index) == capi::LUA_TTABLE {
                    capi::lua_pushlstring_(state, c"applyShare".as_ptr(), 10);
                    raw.push(f)?;
                    capi::lua_rawset(state, index);
                    if let LuaValue::Table(ctx) = LuaValue::from_stack(index, raw)? {
                        *party.borrow_mut() = crate::share::lua_view(&self.m, &ctx)?;
                    }
                }
            }
        }
        if is_movement_collision::<H>() {
            if let Some(pos) = names.iter().position(|n| *n == "ctx") {
                let index = next_index + 1 + pos as c_int;
                if let LuaValue::Table(ctx) = LuaValue::from_stack(index, raw)? {
                    crate::overworld_view::collision_mover(&m.lua, &ctx)?;
                }
            }
        }
        if is_evolution_check::<H>() {
            let at = |n: &str| names.iter().position(|x| *x == n);
            if let (Some(e), Some(t)) = (at("evo"), at("trigger")) {
                let (ei, ti) = (next_index + 1 + e as c_int, next_index + 1 + t as c_int);
                let (evo, trigger) = crate::spelling::check_args_to_lua(
                    &m.lua,
                    LuaValue::from_stack(ei, raw)?,
                    LuaValue::from_stack(ti, raw)?,
                )?;
                raw.push(&evo)?;
                capi::lua_replace(state, ei);
                raw.push(&trigger)?;
                capi::lua_replace(state, ti);
            }
        }
        Ok(())
    }
}

/// The wrapper's answer at stack `index` as an engine value (scalars read directly).
///
/// # Safety
/// Lock held; `index` is a valid stack index of `raw`'s state.
unsafe fn answer_at(
    raw: &RawLua,
    state: *mut capi::lua_State,
    index: c_int,
) -> Result<Value, String> {
    match capi::lua_type(state, index) {
        capi::LUA_TNIL | capi::LUA_TNONE => Ok(Value::Nil),
        capi::LUA_TBOOLEAN => Ok(Value::Bool(capi::lua_toboolean(state, index) != 0)),
        capi::LUA_TNUMBER => {
            crate::convert::number(capi::lua_tonumber(state, index)).map_err(|e| e.0)
        }
        _ => {
            let v = LuaValue::from_stack(index, raw).map_err(|e| e.to_string())?;
            from_lua(&v).map_err(|e| e.0)
        }
    }
}

/// The error object a failed `lua_pcall` left on the stack, as an mlua error (mlua's wrapped
/// errors keep their structure; a memory error is named as such).
///
/// # Safety
/// Lock held; the error object is at the top of the stack.
unsafe fn pop_error(raw: &RawLua, state: *mut capi::lua_State, status: c_int) -> mlua::Error {
    let text = match capi::lua_type(state, -1) {
        capi::LUA_TSTRING | capi::LUA_TNUMBER => {
            let mut len = 0usize;
            let p = capi::lua_tolstring(state, -1, &mut len);
            let bytes = std::slice::from_raw_parts(p as *const u8, len);
            String::from_utf8_lossy(bytes).into_owned()
        }
        _ => match raw.pop_value() {
            LuaValue::Error(e) => return *e,
            other => format!("{}: {:p}", other.type_name(), other.to_pointer()),
        },
    };
    if status == capi::LUA_ERRMEM {
        mlua::Error::MemoryError(text)
    } else {
        mlua::Error::RuntimeError(text)
    }
}

/// The [`ScriptRng`] in `t.rng.__rng` of the table at stack `index`, if there is one.
///
/// # Safety
/// As in [`crate::stack`]: mlua lock held, limit lifted, two free stack slots; raw reads only
/// (no metamethods), and the stack is left as it was.
unsafe fn rng_marker(state: *mut capi::lua_State, index: c_int) -> Option<ScriptRng> {
    if capi::lua_type(state, index) != capi::LUA_TTABLE {
        return None;
    }
    let top = capi::lua_gettop(state);
    capi::lua_pushlstring_(state, c"rng".as_ptr(), 3);
    capi::lua_rawget(state, index);
    let mut found = None;
    if capi::lua_type(state, -1) == capi::LUA_TTABLE {
        let marker = ScriptRng::MARKER;
        capi::lua_pushlstring_(
            state,
            marker.as_ptr() as *const std::os::raw::c_char,
            marker.len(),
        );
        capi::lua_rawget(state, -2);
        if capi::lua_type(state, -1) == capi::LUA_TNUMBER {
            found = Some(ScriptRng::from_state(capi::lua_tonumber(state, -1) as i64));
        }
    }
    capi::lua_settop(state, top);
    found
}

// ----- `next(a, …)` --------------------------------------------------------------------------

/// What the slow Lua `next` was called with: the invocation's generation (prepended by
/// [`rawcall`]'s trampoline, which alone calls this function) and the replacement arguments.
struct NextArgs {
    gen: f64,
    replace: Vec<LuaValue>,
}

impl FromLuaMulti for NextArgs {
    fn from_lua_multi(values: MultiValue, _: &Lua) -> mlua::Result<Self> {
        let mut it = values.into_iter();
        let gen = match it.next() {
            Some(LuaValue::Number(n)) => n,
            _ => f64::NAN,
        };
        Ok(NextArgs {
            gen,
            replace: it.collect(),
        })
    }

    unsafe fn from_stack_args(
        nargs: c_int,
        _: usize,
        _: Option<&str>,
        raw: &RawLua,
    ) -> mlua::Result<Self> {
        let state = raw.state();
        if nargs <= 0 {
            return Ok(NextArgs {
                gen: f64::NAN,
                replace: Vec::new(),
            });
        }
        let first = -nargs;
        let gen = if capi::lua_type(state, first) == capi::LUA_TNUMBER {
            capi::lua_tonumber(state, first)
        } else {
            f64::NAN
        };
        let mut values = Vec::with_capacity(nargs as usize - 1);
        for i in 1..nargs {
            values.push(LuaValue::from_stack(first + i, raw)?);
        }
        Ok(NextArgs {
            gen,
            replace: values,
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
        // SAFETY: the limit is lifted by `self`; mlua holds the lock.
        Ok(rawcall::push_answer(
            raw.state(),
            &self.keys,
            &self.value,
            self.arity,
        )?)
    }
}

/// The mlua `next` behind `next(a, …)`: called by the trampoline as `(generation, a, …)`.
fn persistent_next<H>(lua: &Lua, shared: Rc<LinkShared>) -> mlua::Result<Function>
where
    H: ScriptHook,
{
    lua.create_function(move |lua, call: NextArgs| -> mlua::Result<NextOut> {
        let info = shared.info;
        let host = &shared.host;
        let (ptr, busy) = shared.slot.enter(call.gen).map_err(mlua::Error::runtime)?;
        // SAFETY: see `NextSlot`: the frame is live (its invocation is running and lends us its
        // `Next` for as long as we run), and `busy` rules out a second borrow.
        let next = unsafe { &mut *(ptr as *mut Next<'_, H>) };
        let mut args = Vec::with_capacity(call.replace.len());
        for (i, a) in call.replace.iter().enumerate() {
            let param = info.params.get(i).copied().unwrap_or("extra");
            let bad = |e: String| {
                mlua::Error::runtime(format!(
                    "bad argument #{} to next of hook {} ({param}): {e}",
                    i + 1,
                    info.name,
                ))
            };
            // The Lua engine's spellings back into the engine's (`crate::share`,
            // `crate::spelling`).
            let back = match (a, param) {
                (LuaValue::Table(ctx), "ctx") if has_apply_share::<H>() => {
                    Some(crate::share::ctx_back(ctx).map_err(|e| bad(e.to_string()))?)
                }
                (_, "evo") if is_evolution_check::<H>() => {
                    Some(crate::spelling::evo_back(a).map_err(bad)?)
                }
                (_, "trigger") if is_evolution_check::<H>() => {
                    Some(crate::spelling::trigger_back(a).map_err(bad)?)
                }
                _ => None,
            };
            // Data only (functions a mod left in a table are dropped); `ctx.rng` crosses
            // back as `{__rng = state}`.
            args.push(match back {
                Some(v) => v,
                None => from_lua_data_only(a).map_err(|e| bad(e.0))?,
            });
        }
        // Fewer arguments than the hook has: the missing trailing ones are this link's own.
        // A mod written for the Lua engine passes what that engine's hook had (`next(battle)`
        // of `battle.enemy_action`); a parameter Pallet adds (`ctx`) must not break it.
        if args.len() < info.params.len() {
            let own = H::args_to_values(next.args())
                .map_err(|e| mlua::Error::runtime(format!("next of hook {}: {e}", info.name)))?;
            args.extend(own.into_iter().skip(args.len()));
        }
        let args = H::args_from_values(args).map_err(|e| {
            mlua::Error::runtime(format!(
                "next of hook {}: bad arguments to next: {e} (callback signature {})",
                info.name, info.signature
            ))
        })?;
        let out = next.call_with(args);
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
            keys: shared.keys.clone(),
            _unlimited: Unlimited::new(lua, host.memory_limit.get()),
        })
    })
}

// ----- listeners -----------------------------------------------------------------------------

/// One Lua function installed as an event listener.
pub struct LuaListener {
    pub(crate) f: Function,
    pub(crate) m: Rc<LuaMod>,
    /// A `mods.loaded` listener: its payload reads `loader` on demand ([`crate::loader_view`]).
    pub(crate) loader: bool,
    /// A `battle.started` listener: its payload's `battle` is spelled as the Lua engine's
    /// (`enemy.mon.dvs.attack`, …) and has `battle:tryRun()` ([`crate::battle_view`]).
    pub(crate) battle_started: bool,
}

impl ScriptListener for LuaListener {
    fn call(&self, payload: &Value) -> ListenerResult {
        let payload_value = payload;
        let m = &*self.m;
        too_deep(m)?;
        let _frame = m.host.budget.enter(DISPATCH_LIMIT);
        let spelled;
        let payload = if self.battle_started {
            spelled = crate::spelling::battle_started_to_lua(payload.clone());
            &spelled
        } else {
            payload
        };
        let payload = {
            let _unlimited = Unlimited::new(&m.lua, m.host.memory_limit.get());
            to_lua(&m.lua, payload)
        };
        // A payload's `game` reads `save` / `data` on demand (`crate::game_view`).
        let payload = payload.and_then(|p| {
            if let (LuaValue::Table(t), Some(Value::Map(_))) = (&p, payload_game(payload_value)) {
                if let Ok(LuaValue::Table(game)) = t.raw_get::<LuaValue>("game") {
                    crate::game_view::attach(&self.m, &game)?;
                }
            }
            if let (true, LuaValue::Table(t)) = (self.loader, &p) {
                crate::loader_view::attach(&self.m, t)?;
            }
            if let (true, LuaValue::Table(t)) = (self.battle_started, &p) {
                crate::battle_view::attach(&self.m, t)?;
            }
            Ok(p)
        });
        let outcome = payload.and_then(|p| self.f.call::<()>(p));
        outcome.map_err(|e| m.failure(&e))
    }
}

/// The `game` field of an event payload, if it has one.
fn payload_game(payload: &Value) -> Option<&Value> {
    payload.as_map().and_then(|m| m.get("game"))
}

/// Refuse a call nested deeper than [`pallet_api::budget::MAX_NESTING`] script frames.
/// A call made while the dispatch's budget is already spent is refused outright.
fn too_deep(m: &LuaMod) -> Result<(), LinkError> {
    if m.flood.flooded.get() {
        return Err(LinkError::from(crate::string_flood::FLOOD_MESSAGE));
    }
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
