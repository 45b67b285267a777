//! The raw Lua C API half of a hook link's hot path (issue 10's `lua_link` bench): the
//! wrapper is called with `lua_pcall` on registry references, and the `next` it receives is a
//! plain C closure ([`next_trampoline`]) instead of an mlua callback.
//!
//! Per link, made once at `wrap` time ([`LinkRefs::new`]) and held in the registry:
//!
//! * the wrapper function;
//! * a **message handler** ([`message_handler`]) for the protected call (turns a non-string
//!   error object into its `tostring`, as mlua's own handler does; the feed keeps only the first
//!   line, so no traceback is built);
//! * the link's **shared block** ([`LinkShared`]: the `next` frames, the host, the key cache),
//!   a userdata owning an `Rc` (its `__gc` drops it), which is upvalue 1 of every `next`;
//! * the mlua `next` for `next(a, …)` (replacement arguments go through `Value` as before),
//!   kept in the shared block's metatable (so a `next` kept past its link still finds it).
//!
//! Per call the only allocation besides the arguments is the `next` closure itself (upvalue 2
//! is the invocation's generation: a `next` kept past its call is refused, which needs a fresh
//! closure per invocation).
//!
//! # Safety
//!
//! Every function here requires the mlua lock to be held (the link runs inside
//! `Lua::exec_raw_lua`, the `next` inside a Lua call the link made). [`next_trampoline`] is a
//! `lua_CFunction`: it raises Lua errors with `lua_error` (a `longjmp`) only from its own frame,
//! after every Rust value with a destructor is dropped, and catches panics before they reach the
//! Lua C frames (they are resumed by the link after its protected call) — the scheme mlua's own
//! callbacks use. Allocations made from Rust frames run with the allocator's gate lifted
//! ([`crate::charged_alloc::Gate`], or [`Unlimited`] around mlua API calls), so no memory error
//! can `longjmp` across them.

use crate::capi;
use std::any::Any;
use std::cell::RefCell;
use std::os::raw::{c_char, c_int};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::rc::Rc;

use mlua::{Function, Lua, WeakLua};
use pallet_api::budget::BUDGET_EXHAUSTED;
use pallet_api::catalog::HookInfo;
use pallet_api::hooks::Next;
use pallet_api::script::ScriptHook;
use pallet_api::Value;

use crate::mod_state::HostShared;
use crate::next_frames::NextSlot;
use crate::sandbox::{budget_stopped, Unlimited};
use crate::stack::{self, KeyCache};

/// What every `next` of one link shares (upvalue 1 of the closure, inside a userdata).
pub(crate) struct LinkShared {
    pub slot: NextSlot,
    pub host: Rc<HostShared>,
    pub keys: Rc<KeyCache>,
    /// The state allocator's refusal gate ([`crate::charged_alloc::Gate`]).
    pub gate: crate::charged_alloc::Gate,
    pub info: &'static HookInfo,
    /// A panic caught in a `next`, resumed by the link once its protected call returns.
    pub panic: RefCell<Option<Box<dyn Any + Send>>>,
}

impl LinkShared {
    /// Push `message` as a Lua string (memory limit lifted).
    ///
    /// # Safety
    /// mlua lock held; one free stack slot.
    unsafe fn push_message(&self, state: *mut capi::lua_State, message: &str) {
        let _lift = self.gate.lift();
        capi::lua_pushlstring(state, message.as_ptr() as *const c_char, message.len());
    }
}

/// The registry references of one link (released when the link is dropped).
pub(crate) struct LinkRefs {
    lua: WeakLua,
    /// The wrapper function.
    pub func: c_int,
    /// [`message_handler`].
    pub handler: c_int,
    /// The userdata holding the `Rc<LinkShared>`.
    pub shared: c_int,
}

/// `__gc` of the shared-block userdata: drop the `Rc` it holds.
unsafe extern "C-unwind" fn drop_shared(state: *mut capi::lua_State) -> c_int {
    let p = capi::lua_touserdata(state, 1) as *mut Rc<LinkShared>;
    if !p.is_null() {
        // SAFETY: the userdata was initialised with `ptr::write` in `LinkRefs::new` and Lua 5.1
        // runs a userdata's `__gc` once. A panic in a drop must not cross the C frames.
        let _ = catch_unwind(AssertUnwindSafe(|| std::ptr::drop_in_place(p)));
    }
    0
}

/// The protected call's message handler: strings and userdata (mlua's wrapped errors) stay as
/// they are; any other error object becomes its `tostring` (as with mlua's handler).
unsafe extern "C-unwind" fn message_handler(state: *mut capi::lua_State) -> c_int {
    let t = capi::lua_type(state, -1);
    if t != capi::LUA_TSTRING && t != capi::LUA_TUSERDATA && capi::lua_checkstack(state, 2) != 0 {
        capi::luaL_tolstring(state, -1, std::ptr::null_mut());
    }
    1
}

impl LinkRefs {
    /// Reference `func`, a new message handler and the shared block (whose metatable keeps
    /// `slow_next`, the mlua `next` taking `(generation, args…)`).
    pub fn new(
        lua: &Lua,
        limit: usize,
        func: &Function,
        shared: Rc<LinkShared>,
        slow_next: &Function,
    ) -> mlua::Result<LinkRefs> {
        let _unlimited = Unlimited::new(lua, limit);
        lua.exec_raw_lua(|raw| {
            let state = raw.state();
            // SAFETY: lock held (exec_raw_lua), limit lifted (no allocation raises), stack space
            // checked; every push is balanced by a `luaL_ref` pop.
            unsafe {
                if capi::lua_checkstack(state, 4) == 0 {
                    return Err(mlua::Error::runtime("Lua stack overflow"));
                }
                raw.push(func)?;
                let func = capi::luaL_ref(state, capi::LUA_REGISTRYINDEX);
                capi::lua_pushcclosure(state, message_handler, 0);
                let handler = capi::luaL_ref(state, capi::LUA_REGISTRYINDEX);
                let p = capi::lua_newuserdata(state, std::mem::size_of::<Rc<LinkShared>>())
                    as *mut Rc<LinkShared>;
                std::ptr::write(p, shared);
                capi::lua_createtable(state, 0, 2);
                capi::lua_pushcclosure(state, drop_shared, 0);
                capi::lua_setfield(state, -2, c"__gc".as_ptr());
                capi::lua_pushboolean(state, 0);
                capi::lua_setfield(state, -2, c"__metatable".as_ptr());
                raw.push(slow_next)?;
                capi::lua_setfield(state, -2, c"next".as_ptr());
                capi::lua_setmetatable(state, -2);
                let shared = capi::luaL_ref(state, capi::LUA_REGISTRYINDEX);
                Ok(LinkRefs {
                    lua: lua.weak(),
                    func,
                    handler,
                    shared,
                })
            }
        })
    }
}

impl Drop for LinkRefs {
    fn drop(&mut self) {
        if let Some(lua) = self.lua.try_upgrade() {
            lua.exec_raw_lua(|raw| {
                // SAFETY: lock held; `luaL_unref` of this link's own references.
                unsafe {
                    for r in [self.func, self.handler, self.shared] {
                        capi::luaL_unref(raw.state(), capi::LUA_REGISTRYINDEX, r);
                    }
                }
            });
        }
    }
}

/// Push the `next` of invocation `gen`: [`next_trampoline`] over the shared block and `gen`.
///
/// # Safety
/// mlua lock held, memory limit lifted, three free stack slots.
pub(crate) unsafe fn push_next<H: ScriptHook>(
    state: *mut capi::lua_State,
    refs: &LinkRefs,
    gen: u64,
) {
    capi::lua_rawgeti(state, capi::LUA_REGISTRYINDEX, refs.shared as _);
    capi::lua_pushnumber(state, gen as f64);
    capi::lua_pushcclosure(state, next_trampoline::<H>, 2);
}

/// The Lua `next` of a link on hook `H` (a `lua_CFunction`; upvalues: the shared block, the
/// invocation's generation). `next()` runs here; `next(a, …)` is handed to the mlua `next`
/// (with the generation prepended).
unsafe extern "C-unwind" fn next_trampoline<H: ScriptHook>(state: *mut capi::lua_State) -> c_int {
    let p = capi::lua_touserdata(state, capi::lua_upvalueindex(1)) as *const Rc<LinkShared>;
    if p.is_null() {
        capi::lua_pushstring(state, c"next has lost its link".as_ptr());
        capi::lua_error(state);
    }
    // SAFETY: upvalue 1 is the shared-block userdata (only `push_next` makes these closures),
    // alive while this closure is.
    let shared: &LinkShared = &*p;
    let nargs = capi::lua_gettop(state);
    if nargs > 0 {
        // `next(a, …)`: the mlua `next` with `(generation, a, …)`; its errors are raised by
        // mlua and pass through this frame, which holds nothing to drop.
        if capi::lua_getmetatable(state, capi::lua_upvalueindex(1)) == 0 {
            capi::lua_pushstring(state, c"next has lost its link".as_ptr());
            capi::lua_error(state);
        }
        capi::lua_getfield(state, -1, c"next".as_ptr());
        capi::lua_replace(state, -2);
        capi::lua_insert(state, 1);
        capi::lua_pushvalue(state, capi::lua_upvalueindex(2));
        capi::lua_insert(state, 2);
        capi::lua_call(state, nargs + 1, capi::LUA_MULTRET);
        return capi::lua_gettop(state);
    }
    match catch_unwind(AssertUnwindSafe(|| next_call::<H>(state, shared))) {
        Ok(Ok(n)) => return n,
        Ok(Err(message)) => {
            shared.push_message(state, &message);
            drop(message);
        }
        Err(panic) => {
            *shared.panic.borrow_mut() = Some(panic);
            shared.push_message(state, "a host function panicked");
        }
    }
    // Nothing with a destructor is alive in this frame.
    capi::lua_error(state)
}

/// `next()`: run downstream with the current arguments and push its answer.
unsafe fn next_call<H: ScriptHook>(
    state: *mut capi::lua_State,
    shared: &LinkShared,
) -> Result<c_int, String> {
    let up = capi::lua_upvalueindex(2);
    let gen = if capi::lua_type(state, up) == capi::LUA_TNUMBER {
        capi::lua_tonumber(state, up)
    } else {
        f64::NAN
    };
    let (ptr, busy) = shared.slot.enter(gen).map_err(|e| e.to_owned())?;
    // SAFETY: see `NextSlot`: the frame is live (its invocation is running and lends us its
    // `Next` for as long as we run), and `busy` rules out a second borrow.
    let next = &mut *(ptr as *mut Next<'_, H>);
    let out = next.call();
    drop(busy);
    if budget_stopped(&shared.host.budget) {
        return Err(BUDGET_EXHAUSTED.to_owned());
    }
    let info = shared.info;
    let value = H::out_to_value(&out).map_err(|e| {
        format!(
            "next of hook {}: result conversion: {e} (callback signature {})",
            info.name, info.signature
        )
    })?;
    if H::OUT_ARITY <= 1 && push_scalar(state, &value) {
        return Ok(1);
    }
    let _lift = shared.gate.lift();
    push_answer(state, &shared.keys, &value, H::OUT_ARITY).map_err(|e| e.0)
}

/// Push `value` if it is a scalar that needs no allocation (nil, a boolean, a finite number):
/// a C function has `LUA_MINSTACK` free slots, and these pushes cannot raise.
///
/// # Safety
/// mlua lock held; one free stack slot.
unsafe fn push_scalar(state: *mut capi::lua_State, value: &Value) -> bool {
    match *value {
        Value::Nil => capi::lua_pushnil(state),
        Value::Bool(b) => capi::lua_pushboolean(state, c_int::from(b)),
        Value::Int(i) => capi::lua_pushnumber(state, i as f64),
        Value::Float(f) if f.is_finite() => capi::lua_pushnumber(state, f),
        _ => return false,
    }
    true
}

/// Push downstream's answer (spread for multi-value hooks); returns how many values.
///
/// # Safety
/// mlua lock held, memory limit lifted.
pub(crate) unsafe fn push_answer(
    state: *mut capi::lua_State,
    keys: &KeyCache,
    value: &Value,
    arity: usize,
) -> Result<c_int, stack::PushError> {
    match value {
        Value::List(items) if arity > 1 => {
            if capi::lua_checkstack(state, items.len() as c_int + 2) == 0 {
                return Err(stack::PushError("Lua stack overflow".into()));
            }
            for item in items {
                stack::push(state, keys, item)?;
            }
            Ok(items.len() as c_int)
        }
        other => {
            stack::push(state, keys, other)?;
            Ok(1)
        }
    }
}

#[cfg(test)]
mod tests;
