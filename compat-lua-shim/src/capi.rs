//! The shim's one door to the raw Lua 5.1 C API (`mlua::ffi`): every C API function, type and
//! constant another module uses is named here, and nowhere else imports `mlua::ffi`. The safety
//! argument for calling them is this module's; each caller states which of its conditions it
//! meets.
//!
//! # Safety
//!
//! Every function here is `unsafe` and requires, besides valid stack indices:
//!
//! 1. **the state's mlua lock is held** — the caller runs inside `Lua::exec_raw_lua`, inside an
//!    mlua stack hook (`IntoLuaMulti::push_into_stack_multi`, `FromLuaMulti`), or inside a C
//!    function Lua called (the link's `next` trampoline, the message handler, a `__gc`);
//! 2. **stack space**: a push is preceded by a [`lua_checkstack`] that covers it, or stays within
//!    the `LUA_MINSTACK` slots a C function is given;
//! 3. for the calls in the **allocating** group, **the allocator's gate is lifted**
//!    ([`crate::charged_alloc::Gate`], or [`crate::sandbox::Unlimited`]) when called from a
//!    Rust frame: a refused allocation raises a Lua memory error, a `longjmp` that must never
//!    cross a Rust frame holding values with destructors. Called from a Lua-called C function's
//!    own frame after every such value is dropped (the trampoline's `lua_error` path), a raised
//!    error is the intended outcome;
//! 4. for [`lua_error`], [`lua_call`] and [`lua_pcall`]: `lua_error` only from a C function's
//!    own frame with nothing left to drop; `lua_call` only where a raised error is caught by an
//!    enclosing protected call with no Rust frame between; `lua_pcall` runs Lua code, so the
//!    gate is down (mod code runs under its limits) and no Rust borrow of Lua values spans it.
//!
//! Reads (`lua_type`, `lua_tonumber`, …) allocate nothing and never raise, except
//! [`lua_tolstring`] / [`luaL_tolstring`] on a number or a value with `__tostring`, which are in
//! the allocating group. Allocator access (`lua_getallocf`/`lua_setallocf`) swaps no memory and
//! is used only by `charged_alloc` with no Lua code running.
//!
//! The wrappers are `#[inline(always)]` forwarders: the hot paths cost what the direct calls
//! cost.

use std::os::raw::{c_char, c_int, c_void};

use mlua::ffi;

pub(crate) use mlua::ffi::{
    lua_Alloc, lua_CFunction, lua_State, lua_Writer, lua_upvalueindex, LUA_ERRMEM, LUA_GCCOUNT,
    LUA_GCCOUNTB, LUA_GCSETPAUSE, LUA_MULTRET, LUA_REGISTRYINDEX, LUA_TBOOLEAN, LUA_TNIL,
    LUA_TNONE, LUA_TNUMBER, LUA_TSTRING, LUA_TTABLE, LUA_TUSERDATA,
};

/// Forwarders with the C API's own names and signatures.
macro_rules! forward {
    ($( $(#[$m:meta])* fn $name:ident($($a:ident: $t:ty),* $(,)?) $(-> $r:ty)?; )*) => {
        $(
            $(#[$m])*
            #[inline(always)]
            #[allow(non_snake_case, clippy::missing_safety_doc)]
            pub(crate) unsafe fn $name($($a: $t),*) $(-> $r)? {
                // SAFETY: the module's conditions, which the caller meets.
                unsafe { ffi::$name($($a),*) }
            }
        )*
    };
}

// ----- reads and stack moves (no allocation, never raise) ------------------------------------
forward! {
    fn lua_type(l: *mut lua_State, idx: c_int) -> c_int;
    fn lua_gettop(l: *mut lua_State) -> c_int;
    fn lua_settop(l: *mut lua_State, idx: c_int);
    fn lua_pushvalue(l: *mut lua_State, idx: c_int);
    fn lua_insert(l: *mut lua_State, idx: c_int);
    fn lua_replace(l: *mut lua_State, idx: c_int);
    fn lua_tonumber(l: *mut lua_State, idx: c_int) -> f64;
    fn lua_toboolean(l: *mut lua_State, idx: c_int) -> c_int;
    fn lua_touserdata(l: *mut lua_State, idx: c_int) -> *mut c_void;
    fn lua_iscfunction(l: *mut lua_State, idx: c_int) -> c_int;
    fn lua_getmetatable(l: *mut lua_State, objindex: c_int) -> c_int;
    fn lua_rawget(l: *mut lua_State, idx: c_int) -> c_int;
    fn lua_rawgeti(l: *mut lua_State, idx: c_int, n: ffi::lua_Integer) -> c_int;
    fn lua_rawgeti_(l: *mut lua_State, idx: c_int, n: c_int);
    fn lua_pushnil(l: *mut lua_State);
    fn lua_pushnumber(l: *mut lua_State, n: f64);
    fn lua_pushboolean(l: *mut lua_State, b: c_int);
    fn luaL_unref(l: *mut lua_State, t: c_int, r: c_int);
    fn lua_gc(l: *mut lua_State, what: c_int, data: c_int) -> c_int;
    fn lua_getallocf(l: *mut lua_State, ud: *mut *mut c_void) -> lua_Alloc;
    fn lua_setallocf(l: *mut lua_State, f: lua_Alloc, ud: *mut c_void);
}

// ----- allocating (gate lifted from Rust frames; condition 3) ---------------------------------
forward! {
    /// Grows the stack: allocates.
    fn lua_checkstack(l: *mut lua_State, sz: c_int) -> c_int;
    fn lua_pushlstring_(l: *mut lua_State, s: *const c_char, len: usize);
    fn lua_pushlstring(l: *mut lua_State, s: *const c_char, len: usize) -> *const c_char;
    fn lua_pushstring(l: *mut lua_State, s: *const c_char) -> *const c_char;
    fn lua_pushcclosure(l: *mut lua_State, f: lua_CFunction, n: c_int);
    fn lua_createtable(l: *mut lua_State, narr: c_int, nrec: c_int);
    fn lua_newuserdata(l: *mut lua_State, sz: usize) -> *mut c_void;
    fn lua_setmetatable(l: *mut lua_State, objindex: c_int) -> c_int;
    fn lua_rawset(l: *mut lua_State, idx: c_int);
    fn lua_rawseti_(l: *mut lua_State, idx: c_int, n: c_int);
    fn lua_setfield(l: *mut lua_State, idx: c_int, k: *const c_char);
    fn lua_getfield(l: *mut lua_State, idx: c_int, k: *const c_char) -> c_int;
    fn luaL_ref(l: *mut lua_State, t: c_int) -> c_int;
    /// Converts a number in place (allocates).
    fn lua_tolstring(l: *mut lua_State, idx: c_int, len: *mut usize) -> *const c_char;
    /// May call `__tostring` (runs Lua code) and allocates.
    fn luaL_tolstring(l: *mut lua_State, idx: c_int, len: *mut usize) -> *const c_char;
    /// Writes the function's bytecode through `writer` (Lua 5.1 allocates nothing here).
    fn lua_dump(l: *mut lua_State, writer: lua_Writer, data: *mut c_void, strip: c_int) -> c_int;
}

// ----- calls and errors (condition 4) ---------------------------------------------------------
forward! {
    fn lua_call(l: *mut lua_State, nargs: c_int, nresults: c_int);
    fn lua_pcall(l: *mut lua_State, nargs: c_int, nresults: c_int, errfunc: c_int) -> c_int;
}

/// Raise the error on top of the stack (never returns).
///
/// # Safety
/// Condition 4: from a C function's own frame, with nothing left to drop.
#[inline(always)]
pub(crate) unsafe fn lua_error(l: *mut lua_State) -> ! {
    // SAFETY: the caller meets condition 4.
    unsafe { ffi::lua_error(l) }
}
