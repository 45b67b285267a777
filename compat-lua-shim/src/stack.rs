//! serde straight onto the Lua stack: the hot-path conversion of typed hook arguments (and of
//! `next`'s answers) into Lua values, without the intermediate [`Value`](pallet_api::Value) tree
//! and without one mlua registry reference per table.
//!
//! The produced Lua values are exactly what `convert::to_lua(to_value(x))` builds (unit tests
//! below and `tests/tests/lua_shim.rs` compare the two for every catalog hook):
//!
//! * `nil`/unit → `nil`; booleans; every number → a Lua number (integers outside `i64` and
//!   non-finite floats are refused, as `to_value` refuses them);
//! * strings, chars and unit variants → strings; bytes → a list of numbers;
//! * sequences and tuples → sequence tables `1..n`; structs and maps → tables with string keys
//!   (map keys that are integers or booleans are written as their decimal/`true`/`false` text);
//!   a `nil` field is absent;
//! * enum variants with data → `{ Variant = data }`.
//!
//! # Safety
//!
//! This module is the shim's one use of the raw Lua C API. Every function here requires:
//!
//! 1. the caller holds the state's mlua lock (it runs inside mlua's `IntoLuaMulti` /
//!    `FromLuaMulti` stack hooks, which mlua calls with the lock held and a stack guard in place
//!    that restores the stack top if an error is returned midway);
//! 2. **the state's memory limit is lifted** ([`crate::sandbox::Unlimited`]) for the whole push,
//!    so no allocation made here can fail with a Lua memory error (a Lua error would `longjmp`
//!    across these Rust frames). This is the same condition under which mlua's own safe API
//!    skips its protected calls. A real out-of-memory of the process aborts, as everywhere in
//!    Rust;
//! 3. stack space: every container checks `lua_checkstack` before it grows the stack.
//!
//! No Lua code runs during a push: the calls used here (create table, push scalar/string,
//! raw set) invoke no metamethods; a garbage-collection step they may trigger can only run
//! mlua's userdata finalizers (mods cannot attach `__gc` in Lua 5.1: `setmetatable` takes tables
//! only and `newproxy` is removed).

use std::cell::Cell;
use std::fmt;
use std::os::raw::{c_char, c_int};

use mlua::ffi;
use serde::ser::{self, Serialize};

pub use crate::stack_only::Only;

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
    unsafe fn push(&self, state: *mut ffi::lua_State, s: &'static str) {
        let slot = self.slot(s);
        let (ptr, len, r) = slot.get();
        if r > 0 && ptr == s.as_ptr() as usize && len == s.len() {
            ffi::lua_rawgeti_(state, ffi::LUA_REGISTRYINDEX, r);
            return;
        }
        ffi::lua_pushlstring_(state, s.as_ptr() as *const c_char, s.len());
        if r <= 0 {
            ffi::lua_pushvalue(state, -1);
            let r = ffi::luaL_ref(state, ffi::LUA_REGISTRYINDEX);
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
    state: *mut ffi::lua_State,
    keys: &KeyCache,
    value: &T,
) -> Result<(), PushError> {
    // SAFETY: one slot for the value itself; containers check their own needs.
    if ffi::lua_checkstack(state, 3) == 0 {
        return Err(PushError("Lua stack overflow".into()));
    }
    value.serialize(StackSer {
        state,
        keys,
        depth: 0,
    })
}

/// A serializer that pushes exactly one value onto the stack of `state`.
#[derive(Clone, Copy)]
pub struct StackSer<'k> {
    state: *mut ffi::lua_State,
    keys: &'k KeyCache,
    depth: usize,
}

impl<'k> StackSer<'k> {
    /// A serializer pushing one value onto `state` (module contract).
    pub(crate) fn new(state: *mut ffi::lua_State, keys: &'k KeyCache) -> Self {
        StackSer {
            state,
            keys,
            depth: 0,
        }
    }

    /// Push the static string `s` from the key cache (module contract).
    pub(crate) fn push_static(self, s: &'static str) {
        self.static_str(s)
    }

    fn str(self, s: &str) {
        // SAFETY: module contract; a string push allocates at most the string itself.
        unsafe { ffi::lua_pushlstring_(self.state, s.as_ptr() as *const c_char, s.len()) }
    }

    fn static_str(self, s: &'static str) {
        // SAFETY: module contract (containers reserve a slot beyond key and value).
        unsafe { self.keys.push(self.state, s) }
    }

    fn number(self, n: f64) -> Result<(), PushError> {
        if !n.is_finite() {
            return Err(PushError("non-finite number is not data".into()));
        }
        // SAFETY: module contract.
        unsafe { ffi::lua_pushnumber(self.state, n) };
        Ok(())
    }

    fn int(self, i: i128) -> Result<(), PushError> {
        if i64::try_from(i).is_err() {
            return Err(PushError("integer out of range".into()));
        }
        // SAFETY: module contract.
        unsafe { ffi::lua_pushnumber(self.state, i as f64) };
        Ok(())
    }

    /// Push a new table for a container one level below `self`.
    fn table(self, narr: usize, nrec: usize) -> Result<StackSer<'k>, PushError> {
        let depth = self.depth + 1;
        if depth > MAX_STACK_DEPTH {
            return Err(PushError(format!(
                "value nested deeper than {MAX_STACK_DEPTH} levels"
            )));
        }
        // SAFETY: module contract; a container needs its table, a key and a value slot, plus
        // the slots of the (checked) level below.
        unsafe {
            if ffi::lua_checkstack(self.state, 5) == 0 {
                return Err(PushError("Lua stack overflow".into()));
            }
            ffi::lua_createtable(self.state, narr.min(4096) as c_int, nrec.min(4096) as c_int);
        }
        Ok(StackSer {
            state: self.state,
            keys: self.keys,
            depth,
        })
    }

    /// `{ variant = <table> }` opened: the outer table and the key are on the stack; the inner
    /// container is pushed next and [`Container::end`] stores it.
    fn variant(self, variant: &'static str) -> Result<StackSer<'k>, PushError> {
        let outer = self.table(0, 1)?;
        outer.static_str(variant);
        Ok(outer)
    }

    /// Set `t[key] = value` where the stack is `… t key value`; a nil value is dropped.
    fn set_pair(self) {
        // SAFETY: module contract; the stack holds the table, a key and a value.
        unsafe {
            if ffi::lua_type(self.state, -1) == ffi::LUA_TNIL {
                ffi::lua_settop(self.state, -3);
            } else {
                ffi::lua_rawset(self.state, -3);
            }
        }
    }
}

/// A table being filled: sequence items, struct fields or map entries.
pub struct Container<'k> {
    ser: StackSer<'k>,
    next_index: usize,
    /// An enclosing `{ Variant = … }` to close at the end.
    variant: bool,
}

impl<'k> Container<'k> {
    fn new(ser: StackSer<'k>, variant: bool) -> Self {
        Container {
            ser,
            next_index: 1,
            variant,
        }
    }

    fn item<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), PushError> {
        let i = self.next_index;
        if i > i32::MAX as usize {
            return Err(PushError("sequence too long".into()));
        }
        value.serialize(self.ser)?;
        // SAFETY: module contract; the stack holds the table and the item.
        unsafe { ffi::lua_rawseti_(self.ser.state, -2, i as c_int) };
        self.next_index += 1;
        Ok(())
    }

    /// `t[key] = value` for a static key; a nil value leaves the field absent.
    fn field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), PushError> {
        self.ser.static_str(key);
        value.serialize(self.ser)?;
        self.ser.set_pair();
        Ok(())
    }

    /// `t[key] = <the value push pushes>` with the serializer for this table's level (the
    /// filtered struct fields of [`crate::stack_only`]); a nil value leaves the field absent.
    pub(crate) fn field_with(
        &mut self,
        key: &'static str,
        push: impl FnOnce(StackSer<'k>) -> Result<(), PushError>,
    ) -> Result<(), PushError> {
        self.ser.static_str(key);
        push(self.ser)?;
        self.ser.set_pair();
        Ok(())
    }

    fn end(self) -> Result<(), PushError> {
        if self.variant {
            // `… outer key inner`: store the inner container under the variant name.
            // SAFETY: module contract.
            unsafe { ffi::lua_rawset(self.ser.state, -3) };
        }
        Ok(())
    }
}

impl<'k> ser::Serializer for StackSer<'k> {
    type Ok = ();
    type Error = PushError;
    type SerializeSeq = Container<'k>;
    type SerializeTuple = Container<'k>;
    type SerializeTupleStruct = Container<'k>;
    type SerializeTupleVariant = Container<'k>;
    type SerializeMap = Container<'k>;
    type SerializeStruct = Container<'k>;
    type SerializeStructVariant = Container<'k>;

    fn serialize_bool(self, v: bool) -> Result<(), PushError> {
        // SAFETY: module contract.
        unsafe { ffi::lua_pushboolean(self.state, c_int::from(v)) };
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result<(), PushError> {
        self.int(v.into())
    }
    fn serialize_i16(self, v: i16) -> Result<(), PushError> {
        self.int(v.into())
    }
    fn serialize_i32(self, v: i32) -> Result<(), PushError> {
        self.int(v.into())
    }
    fn serialize_i64(self, v: i64) -> Result<(), PushError> {
        self.int(v.into())
    }
    fn serialize_i128(self, v: i128) -> Result<(), PushError> {
        self.int(v)
    }
    fn serialize_u8(self, v: u8) -> Result<(), PushError> {
        self.int(v.into())
    }
    fn serialize_u16(self, v: u16) -> Result<(), PushError> {
        self.int(v.into())
    }
    fn serialize_u32(self, v: u32) -> Result<(), PushError> {
        self.int(v.into())
    }
    fn serialize_u64(self, v: u64) -> Result<(), PushError> {
        self.int(v.into())
    }
    fn serialize_u128(self, v: u128) -> Result<(), PushError> {
        match i128::try_from(v) {
            Ok(i) => self.int(i),
            Err(_) => Err(PushError("integer out of range".into())),
        }
    }
    fn serialize_f32(self, v: f32) -> Result<(), PushError> {
        self.number(v.into())
    }
    fn serialize_f64(self, v: f64) -> Result<(), PushError> {
        self.number(v)
    }
    fn serialize_char(self, v: char) -> Result<(), PushError> {
        let mut buf = [0u8; 4];
        self.str(v.encode_utf8(&mut buf));
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result<(), PushError> {
        self.str(v);
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), PushError> {
        let mut c = Container::new(self.table(v.len(), 0)?, false);
        for b in v {
            c.item(b)?;
        }
        c.end()
    }
    fn serialize_none(self) -> Result<(), PushError> {
        // SAFETY: module contract.
        unsafe { ffi::lua_pushnil(self.state) };
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), PushError> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), PushError> {
        self.serialize_none()
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), PushError> {
        self.serialize_none()
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<(), PushError> {
        self.static_str(variant);
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), PushError> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), PushError> {
        let outer = self.table(0, 1)?;
        let mut c = Container::new(outer, false);
        c.field(variant, value)?;
        c.end()
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Container<'k>, PushError> {
        Ok(Container::new(self.table(len.unwrap_or(0), 0)?, false))
    }
    fn serialize_tuple(self, len: usize) -> Result<Container<'k>, PushError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        len: usize,
    ) -> Result<Container<'k>, PushError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Container<'k>, PushError> {
        let outer = self.variant(variant)?;
        Ok(Container::new(outer.table(len, 0)?, true))
    }
    fn serialize_map(self, len: Option<usize>) -> Result<Container<'k>, PushError> {
        Ok(Container::new(self.table(0, len.unwrap_or(0))?, false))
    }
    fn serialize_struct(self, _: &'static str, len: usize) -> Result<Container<'k>, PushError> {
        Ok(Container::new(self.table(0, len)?, false))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Container<'k>, PushError> {
        let outer = self.variant(variant)?;
        Ok(Container::new(outer.table(0, len)?, true))
    }
}

/// Lists, tuples and tuple (variant) fields: each element is the next array item.
macro_rules! container_items {
    ($($tr:ident :: $method:ident),+) => {$(
        impl ser::$tr for Container<'_> {
            type Ok = ();
            type Error = PushError;
            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), PushError> {
                self.item(value)
            }
            fn end(self) -> Result<(), PushError> {
                Container::end(self)
            }
        }
    )+};
}
container_items!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

impl ser::SerializeMap for Container<'_> {
    type Ok = ();
    type Error = PushError;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), PushError> {
        key.serialize(KeySer(self.ser))
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), PushError> {
        value.serialize(self.ser)?;
        self.ser.set_pair();
        Ok(())
    }
    fn end(self) -> Result<(), PushError> {
        Container::end(self)
    }
}

impl ser::SerializeStruct for Container<'_> {
    type Ok = ();
    type Error = PushError;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), PushError> {
        self.field(key, value)
    }
    fn end(self) -> Result<(), PushError> {
        Container::end(self)
    }
}

impl ser::SerializeStructVariant for Container<'_> {
    type Ok = ();
    type Error = PushError;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), PushError> {
        self.field(key, value)
    }
    fn end(self) -> Result<(), PushError> {
        Container::end(self)
    }
}

/// Map keys: strings as they are, integers and booleans as text (the api's `Value` maps are
/// string-keyed); anything else is refused.
struct KeySer<'k>(StackSer<'k>);

fn bad_key() -> PushError {
    PushError("map key must be a string or integer".into())
}

impl KeySer<'_> {
    fn int(self, i: i128) -> Result<(), PushError> {
        if i64::try_from(i).is_err() {
            return Err(PushError("integer out of range".into()));
        }
        self.0.str(&i.to_string());
        Ok(())
    }
}

impl ser::Serializer for KeySer<'_> {
    type Ok = ();
    type Error = PushError;
    type SerializeSeq = ser::Impossible<(), PushError>;
    type SerializeTuple = ser::Impossible<(), PushError>;
    type SerializeTupleStruct = ser::Impossible<(), PushError>;
    type SerializeTupleVariant = ser::Impossible<(), PushError>;
    type SerializeMap = ser::Impossible<(), PushError>;
    type SerializeStruct = ser::Impossible<(), PushError>;
    type SerializeStructVariant = ser::Impossible<(), PushError>;

    fn serialize_bool(self, v: bool) -> Result<(), PushError> {
        self.0.str(if v { "true" } else { "false" });
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result<(), PushError> {
        self.int(v.into())
    }
    fn serialize_i16(self, v: i16) -> Result<(), PushError> {
        self.int(v.into())
    }
    fn serialize_i32(self, v: i32) -> Result<(), PushError> {
        self.int(v.into())
    }
    fn serialize_i64(self, v: i64) -> Result<(), PushError> {
        self.int(v.into())
    }
    fn serialize_i128(self, v: i128) -> Result<(), PushError> {
        self.int(v)
    }
    fn serialize_u8(self, v: u8) -> Result<(), PushError> {
        self.int(v.into())
    }
    fn serialize_u16(self, v: u16) -> Result<(), PushError> {
        self.int(v.into())
    }
    fn serialize_u32(self, v: u32) -> Result<(), PushError> {
        self.int(v.into())
    }
    fn serialize_u64(self, v: u64) -> Result<(), PushError> {
        self.int(v.into())
    }
    fn serialize_u128(self, v: u128) -> Result<(), PushError> {
        i128::try_from(v)
            .map_err(|_| PushError("integer out of range".into()))
            .and_then(|i| self.int(i))
    }
    fn serialize_f32(self, _: f32) -> Result<(), PushError> {
        Err(bad_key())
    }
    fn serialize_f64(self, _: f64) -> Result<(), PushError> {
        Err(bad_key())
    }
    fn serialize_char(self, v: char) -> Result<(), PushError> {
        self.0.serialize_char(v)
    }
    fn serialize_str(self, v: &str) -> Result<(), PushError> {
        self.0.str(v);
        Ok(())
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<(), PushError> {
        Err(bad_key())
    }
    fn serialize_none(self) -> Result<(), PushError> {
        Err(bad_key())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), PushError> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), PushError> {
        Err(bad_key())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), PushError> {
        Err(bad_key())
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<(), PushError> {
        self.0.static_str(variant);
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), PushError> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), PushError> {
        Err(bad_key())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, PushError> {
        Err(bad_key())
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, PushError> {
        Err(bad_key())
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, PushError> {
        Err(bad_key())
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, PushError> {
        Err(bad_key())
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, PushError> {
        Err(bad_key())
    }
    fn serialize_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStruct, PushError> {
        Err(bad_key())
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, PushError> {
        Err(bad_key())
    }
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
/// A field listed in `only` as `(index, fields)` is a struct of which only the fields (and
/// sub-fields) named in `fields` are pushed (the wrapper reads nothing else of it:
/// [`crate::reads`], [`crate::stack_only`]).
///
/// # Safety
/// See the module documentation: mlua lock held, memory limit lifted, and `names.len() + 1`
/// free stack slots.
pub unsafe fn push_fields<T: Serialize + ?Sized>(
    state: *mut ffi::lua_State,
    keys: &KeyCache,
    names: &'static [&'static str],
    read: u64,
    only: &[(usize, Only)],
    value: &T,
) -> Result<usize, PushError> {
    let ser = StackSer {
        state,
        keys,
        depth: 0,
    };
    // Two instantiations: the common unfiltered one carries none of the filtering code.
    if only.is_empty() {
        value.serialize(FieldsSer {
            ser,
            names,
            read,
            each: Whole,
        })
    } else {
        value.serialize(FieldsSer {
            ser,
            names,
            read,
            each: Filtered(only),
        })
    }
}

/// How [`Fields`] pushes a parameter the wrapper reads.
trait PushParam: Copy {
    /// Push parameter `index`, `value`.
    fn push<T: Serialize + ?Sized>(
        self,
        ser: StackSer<'_>,
        index: usize,
        value: &T,
    ) -> Result<(), PushError>;
}

/// Every parameter whole.
#[derive(Clone, Copy)]
struct Whole;

impl PushParam for Whole {
    #[inline]
    fn push<T: Serialize + ?Sized>(
        self,
        ser: StackSer<'_>,
        _: usize,
        value: &T,
    ) -> Result<(), PushError> {
        value.serialize(ser)
    }
}

/// The parameters listed as `(index, fields)` filtered ([`crate::stack_only`]), others whole.
#[derive(Clone, Copy)]
struct Filtered<'o>(&'o [(usize, Only)]);

impl PushParam for Filtered<'_> {
    #[inline(never)]
    fn push<T: Serialize + ?Sized>(
        self,
        ser: StackSer<'_>,
        index: usize,
        value: &T,
    ) -> Result<(), PushError> {
        crate::stack_only::push_param(ser, self.0, index, value)
    }
}

struct FieldsSer<'k, F> {
    ser: StackSer<'k>,
    names: &'static [&'static str],
    read: u64,
    each: F,
}

struct Fields<'k, F> {
    ser: StackSer<'k>,
    names: &'static [&'static str],
    read: u64,
    each: F,
    pushed: usize,
}

pub(crate) fn not_positional() -> PushError {
    PushError("arguments are not a struct in callback order".into())
}

impl<F: PushParam> ser::SerializeStruct for Fields<'_, F> {
    type Ok = usize;
    type Error = PushError;
    #[inline]
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), PushError> {
        if self.names.get(self.pushed) != Some(&key) {
            return Err(not_positional());
        }
        if self.read & (1 << self.pushed.min(63)) != 0 {
            self.each.push(self.ser, self.pushed, value)?;
        } else {
            // SAFETY: module contract (a slot per field).
            unsafe { ffi::lua_pushnil(self.ser.state) };
        }
        self.pushed += 1;
        Ok(())
    }
    fn end(self) -> Result<usize, PushError> {
        if self.pushed == self.names.len() {
            Ok(self.pushed)
        } else {
            Err(not_positional())
        }
    }
}

impl<'k, F: PushParam> ser::Serializer for FieldsSer<'k, F> {
    type Ok = usize;
    type Error = PushError;
    type SerializeSeq = ser::Impossible<usize, PushError>;
    type SerializeTuple = ser::Impossible<usize, PushError>;
    type SerializeTupleStruct = ser::Impossible<usize, PushError>;
    type SerializeTupleVariant = ser::Impossible<usize, PushError>;
    type SerializeMap = ser::Impossible<usize, PushError>;
    type SerializeStruct = Fields<'k, F>;
    type SerializeStructVariant = ser::Impossible<usize, PushError>;

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Fields<'k, F>, PushError> {
        Ok(Fields {
            ser: self.ser,
            names: self.names,
            read: self.read,
            each: self.each,
            pushed: 0,
        })
    }

    refuse_other_methods!(not_positional());

    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<usize, PushError> {
        Err(not_positional())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: &T,
    ) -> Result<usize, PushError> {
        Err(not_positional())
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<usize, PushError> {
        Err(not_positional())
    }
}
