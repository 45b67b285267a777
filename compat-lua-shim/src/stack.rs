//! The Lua stack as a [`ValueSink`]: the hot-path conversion of typed hook arguments (and of
//! `next`'s answers) into Lua values, without the intermediate [`Value`](pallet_api::Value) tree
//! and without one mlua registry reference per table.
//!
//! What crosses (and every error text) is the api's one serializer
//! ([`pallet_api::script::sink`]); this module only writes its stream onto the stack: scalars as
//! Lua values (every number a Lua number), lists as sequence tables `1..n`, maps and structs as
//! tables with string keys, static keys and variant names from the per-state [`KeyCache`]. The
//! produced values are exactly what `convert::to_lua(to_value(x))` builds (`stack_tests.rs` and
//! `tests/tests/lua_shim.rs` compare the two for every catalog hook). The shim's limit: values
//! nested deeper than [`MAX_STACK_DEPTH`] are refused.
//!
//! # Safety
//!
//! This module pushes through the raw Lua C API ([`crate::capi`], whose safety argument it
//! follows). Every function here requires:
//!
//! 1. the caller holds the state's mlua lock (it runs inside mlua's `IntoLuaMulti` /
//!    `FromLuaMulti` stack hooks, which mlua calls with the lock held and a stack guard in place
//!    that restores the stack top if an error is returned midway);
//! 2. **the state allocator's gate is lifted** ([`crate::charged_alloc::Gate`], or
//!    [`crate::sandbox::Unlimited`]) for the whole push, so no allocation made here can fail with
//!    a Lua memory error (a Lua error would `longjmp` across these Rust frames). A real
//!    out-of-memory of the process aborts, as everywhere in Rust;
//! 3. stack space: every container checks `lua_checkstack` before it grows the stack.
//!
//! No Lua code runs during a push: the calls used here (create table, push scalar/string,
//! raw set) invoke no metamethods; a garbage-collection step they may trigger can only run
//! mlua's userdata finalizers (mods cannot attach `__gc` in Lua 5.1: `setmetatable` takes tables
//! only and `newproxy` is removed).

use crate::capi;
use std::cell::Cell;
use std::fmt;
use std::os::raw::{c_char, c_int};

use pallet_api::script::{to_sink_with, write_fields, Crossing, Params, ReadPaths, ValueSink};
use pallet_api::value::ValueError;
use serde::ser::{self, Serialize};

/// Containers nested deeper than this are refused (engine data is shallow; this bounds the Lua
/// stack a push may use).
pub const MAX_STACK_DEPTH: usize = 64;

/// Why a value could not be pushed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PushError(pub String);

impl fmt::Display for PushError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PushError {}

impl ser::Error for PushError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        PushError(msg.to_string())
    }
}

impl From<ValueError> for PushError {
    fn from(e: ValueError) -> Self {
        PushError(e.message().to_owned())
    }
}

impl From<PushError> for mlua::Error {
    fn from(e: PushError) -> Self {
        mlua::Error::runtime(e.0)
    }
}

/// Static strings (struct field names, unit variant names) this state has interned, as
/// registry references: pushing one is a registry read instead of hashing the text into Lua's
/// string table, and a referenced string is never collected (and re-created) by the GC.
///
/// A direct-mapped table keyed by the string's address: a slot is claimed by the first string
/// that lands in it and never evicted (a string whose slot is taken is pushed as text), so the
/// registry holds at most [`KEY_SLOTS`] references per state and nothing thrashes.
pub struct KeyCache {
    slots: Box<[Cell<(usize, usize, c_int)>]>,
}

/// Slots of a [`KeyCache`] (a power of two).
pub const KEY_SLOTS: usize = 1024;

impl Default for KeyCache {
    fn default() -> Self {
        KeyCache {
            slots: (0..KEY_SLOTS).map(|_| Cell::new((0, 0, 0))).collect(),
        }
    }
}

impl KeyCache {
    fn slot(&self, s: &'static str) -> &Cell<(usize, usize, c_int)> {
        let key = (s.as_ptr() as u64) ^ ((s.len() as u64) << 48);
        let index =
            (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - KEY_SLOTS.trailing_zeros())) as usize;
        &self.slots[index & (KEY_SLOTS - 1)]
    }

    /// Push the static string `s`.
    ///
    /// # Safety
    /// Module contract (lock held, limit lifted, one free stack slot plus one for the ref).
    unsafe fn push(&self, state: *mut capi::lua_State, s: &'static str) {
        let slot = self.slot(s);
        let (ptr, len, r) = slot.get();
        if r > 0 && ptr == s.as_ptr() as usize && len == s.len() {
            capi::lua_rawgeti_(state, capi::LUA_REGISTRYINDEX, r);
            return;
        }
        capi::lua_pushlstring_(state, s.as_ptr() as *const c_char, s.len());
        if r <= 0 {
            capi::lua_pushvalue(state, -1);
            let r = capi::luaL_ref(state, capi::LUA_REGISTRYINDEX);
            if r > 0 {
                slot.set((s.as_ptr() as usize, s.len(), r));
            }
        }
    }
}

/// Push `value` as one Lua value.
///
/// # Safety
/// See the module documentation: mlua lock held, memory limit lifted.
pub unsafe fn push<T: Serialize + ?Sized>(
    state: *mut capi::lua_State,
    keys: &KeyCache,
    value: &T,
) -> Result<(), PushError> {
    // SAFETY: one slot for the value itself; containers check their own needs.
    if capi::lua_checkstack(state, 3) == 0 {
        return Err(PushError("Lua stack overflow".into()));
    }
    let mut sink = StackSink::new(state, keys);
    let crossing = Crossing {
        max_depth: MAX_STACK_DEPTH,
        paths: None,
    };
    Ok(to_sink_with(value, &mut sink, crossing)?)
}

/// Push the fields of a hook's argument struct as separate values (the callback's positional
/// parameters), checking that they arrive in `names` order. Returns how many were pushed.
/// A struct whose fields do not match `names` exactly (a skipped field, another order, not a
/// struct) is refused with [`PushError`], and the caller falls back to the `Value` path.
///
/// A field whose bit in `read` is clear (bit `i` for field `i`, bit 63 for every field from 63
/// up) is pushed as `nil` without being serialized: the wrapper never reads it
/// ([`crate::reads`]). The field order is checked all the same. Catalog hook arguments cannot
/// fail a push for their values (integers of at most 32 bits, no floats, no maps, no skipped
/// fields), so skipping a value hides no error.
///
/// A field listed in `only` as `(index, paths)` is a struct of which only the fields (and
/// sub-fields) on `paths` are pushed (the wrapper reads nothing else of it: [`crate::reads`]).
///
/// # Safety
/// See the module documentation: mlua lock held, memory limit lifted, and `names.len() + 1`
/// free stack slots.
pub unsafe fn push_fields<T: Serialize + ?Sized>(
    state: *mut capi::lua_State,
    keys: &KeyCache,
    names: &'static [&'static str],
    read: u64,
    only: &[(usize, ReadPaths)],
    value: &T,
) -> Result<usize, PushError> {
    let mut sink = StackSink::new(state, keys);
    let params = Params {
        names,
        read,
        only,
        max_depth: MAX_STACK_DEPTH,
    };
    Ok(write_fields(value, &mut sink, params)?)
}

/// The Lua stack as a sink: each complete top-level value is left on the stack; a value inside
/// a container is stored into it as soon as it is complete.
pub struct StackSink<'k> {
    state: *mut capi::lua_State,
    keys: &'k KeyCache,
    /// Open containers.
    depth: usize,
    /// Per open container: `0` for a table with keys, else the next sequence index.
    frames: [u32; MAX_STACK_DEPTH + 1],
}

impl<'k> StackSink<'k> {
    /// A sink onto `state` (module contract for every use).
    pub(crate) fn new(state: *mut capi::lua_State, keys: &'k KeyCache) -> Self {
        StackSink {
            state,
            keys,
            depth: 0,
            frames: [0; MAX_STACK_DEPTH + 1],
        }
    }

    /// The value on top of the stack is complete: store it into the open container, if any
    /// (`… t key value` → `t[key] = value`; `… t value` → `t[n] = value`).
    #[inline]
    fn put(&mut self) {
        let Some(frame) = self.depth.checked_sub(1).map(|d| &mut self.frames[d]) else {
            return;
        };
        // SAFETY: module contract; the stack holds the table, (its key) and the value.
        unsafe {
            if *frame == 0 {
                capi::lua_rawset(self.state, -3);
            } else {
                capi::lua_rawseti_(self.state, -2, *frame as c_int);
                *frame += 1;
            }
        }
    }

    fn open(&mut self, narr: usize, nrec: usize, frame: u32) -> Result<(), ValueError> {
        if self.depth >= self.frames.len() {
            return Err(ValueError::new(format!(
                "value nested deeper than {MAX_STACK_DEPTH} levels"
            )));
        }
        // SAFETY: module contract; a container needs its table, a key and a value slot, plus
        // the slots of the (checked) level below.
        unsafe {
            if capi::lua_checkstack(self.state, 5) == 0 {
                return Err(ValueError::new("Lua stack overflow"));
            }
            capi::lua_createtable(self.state, narr.min(4096) as c_int, nrec.min(4096) as c_int);
        }
        self.frames[self.depth] = frame;
        self.depth += 1;
        Ok(())
    }
}

impl ValueSink for StackSink<'_> {
    #[inline]
    fn unit(&mut self) {
        if self.depth > 0 && self.frames[self.depth - 1] == 0 {
            // `t[key] = nil` leaves the key absent: drop the key.
            // SAFETY: module contract; the key is on top.
            unsafe { capi::lua_settop(self.state, -2) };
            return;
        }
        // SAFETY: module contract.
        unsafe { capi::lua_pushnil(self.state) };
        self.put();
    }
    #[inline]
    fn bool(&mut self, v: bool) {
        // SAFETY: module contract.
        unsafe { capi::lua_pushboolean(self.state, c_int::from(v)) };
        self.put();
    }
    #[inline]
    fn int(&mut self, v: i64) {
        // SAFETY: module contract.
        unsafe { capi::lua_pushnumber(self.state, v as f64) };
        self.put();
    }
    #[inline]
    fn float(&mut self, v: f64) {
        // SAFETY: module contract.
        unsafe { capi::lua_pushnumber(self.state, v) };
        self.put();
    }
    #[inline]
    fn str(&mut self, v: &str) {
        // SAFETY: module contract; a string push allocates at most the string itself.
        unsafe { capi::lua_pushlstring_(self.state, v.as_ptr() as *const c_char, v.len()) };
        self.put();
    }
    #[inline]
    fn static_str(&mut self, v: &'static str) {
        // SAFETY: module contract (containers reserve a slot beyond key and value).
        unsafe { self.keys.push(self.state, v) };
        self.put();
    }
    #[inline]
    fn begin_list(&mut self, len_hint: usize) -> Result<(), ValueError> {
        if len_hint > i32::MAX as usize {
            return Err(ValueError::new("sequence too long"));
        }
        self.open(len_hint, 0, 1)
    }
    #[inline]
    fn begin_map(&mut self, len_hint: usize) -> Result<(), ValueError> {
        self.open(0, len_hint, 0)
    }
    #[inline]
    fn key(&mut self, key: &str) {
        // SAFETY: module contract.
        unsafe { capi::lua_pushlstring_(self.state, key.as_ptr() as *const c_char, key.len()) };
    }
    #[inline]
    fn static_key(&mut self, key: &'static str) {
        // SAFETY: module contract.
        unsafe { self.keys.push(self.state, key) };
    }
    #[inline]
    fn end(&mut self) {
        self.depth -= 1;
        self.put();
    }
}

#[cfg(test)]
mod tests;
