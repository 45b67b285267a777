//! Lazily materialized context tables: a hook argument that is a struct (`ctx`, `game`, …)
//! reaches the wrapper as an **empty table with a private metatable**; the first touch of a
//! level builds that whole level (its scalar fields, its lists, and its struct fields as further
//! lazy tables) and removes the metatable, so from then on it is an ordinary table — the one an
//! eager conversion would have built. A wrapper that never reads `ctx` (the common
//! `return next()`) never pays for converting it.
//!
//! What a mod observes is the eager table's behaviour:
//!
//! * reads (`ctx.user.hp`), writes (`ctx.x = 1`, `ctx.user = nil`) and method calls go through
//!   `__index` / `__newindex`, which materialize first;
//! * `pairs`, `next`, `rawget`, `rawset`, `setmetatable` and `table.foreach` are the sandbox's
//!   (lua 5.1 has no `__pairs`): they materialize their table argument, then run the original
//!   C function in the same frame (so error messages name the same function); `getmetatable`
//!   hides the private metatable (an eager table has none);
//! * `#`, `ipairs`, `unpack`, `table.insert/concat/sort/maxn` read integer keys only, which a
//!   struct level never has, so lazy and eager agree without materializing;
//! * the engine side (`convert`: `next(ctx)`, a returned table, `mod.save:set(k, ctx)`, …)
//!   materializes before reading ([`materialize_for_host`]);
//! * a table kept past its call still materializes later: each root owns a **clone** of the
//!   hook's arguments (a userdata; its `__gc` drops it).
//!
//! Bookkeeping: every lazy table of one call shares that call's metatable, which holds the
//! `__index`/`__newindex` functions and, under a key no mod can make (a light userdata), the
//! root userdata ([`LazyRoot`]: the clone, and the path — field indices from the argument list —
//! of every lazy table it made). A root is recognised by its own metatable, so a mod's
//! metatable can never pass for one. Hooks whose `ctx` carries `rng` stay eager, and so do
//! arguments too small to be worth it ([`worth_it`]).
//!
//! # Safety
//! As [`crate::stack`] and [`crate::rawcall`]: the mlua lock is held; Rust frames that allocate
//! run with the memory limit lifted; Lua errors are raised only from the C functions' own frames
//! after their Rust values are dropped; panics are caught and turned into Lua errors.

use std::cell::Cell;
use std::os::raw::{c_char, c_int};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::rc::Rc;

use mlua::{ffi, Lua, Table, WeakLua};
use serde::ser::{self, Serialize};

use crate::host::HostShared;
use crate::sandbox::Unlimited;
use crate::stack::{not_positional, KeyCache, PushError, StackSer};

/// Deepest lazy level (deeper structs are built eagerly with their parent).
const MAX_PATH: usize = 8;
/// Lazy tables one root can make (further struct fields are built eagerly with their parent).
const MAX_TABLES: usize = 12;

/// Field indices from the argument list down to one struct level.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
struct Path {
    len: u8,
    idx: [u16; MAX_PATH],
}

impl Path {
    fn child(self, i: usize) -> Option<Path> {
        let len = self.len as usize;
        if len >= MAX_PATH || i > u16::MAX as usize {
            return None;
        }
        let mut p = self;
        p.idx[len] = i as u16;
        p.len += 1;
        Some(p)
    }
}

/// A clone of a hook's arguments that can fill one struct level.
trait LazyData {
    /// Fill the table at absolute stack index `table` with the struct level at `path`.
    fn fill(&self, maker: &mut Maker<'_>, path: Path, table: c_int) -> Result<(), PushError>;
}

impl<T: Serialize> LazyData for T {
    fn fill(&self, maker: &mut Maker<'_>, path: Path, table: c_int) -> Result<(), PushError> {
        self.serialize(PathSer {
            maker,
            path,
            depth: 0,
            table,
        })
    }
}

/// One root: the arguments' clone and the lazy tables made from it (inside a userdata).
pub(crate) struct LazyRoot {
    data: Box<dyn LazyData>,
    tables: [Cell<(usize, Path)>; MAX_TABLES],
    used: Cell<usize>,
    keys: Rc<KeyCache>,
    host: Rc<HostShared>,
    lua: WeakLua,
}

impl LazyRoot {
    fn path_of(&self, table: usize) -> Option<Path> {
        self.tables[..self.used.get()]
            .iter()
            .map(Cell::get)
            .find(|(t, _)| *t == table)
            .map(|(_, p)| p)
    }

    fn record(&self, table: usize, path: Path) -> bool {
        // A slot whose table died may be reused by a new table at the same address: replace.
        for slot in &self.tables[..self.used.get()] {
            if slot.get().0 == table {
                slot.set((table, path));
                return true;
            }
        }
        let used = self.used.get();
        if used == MAX_TABLES {
            return false;
        }
        self.tables[used].set((table, path));
        self.used.set(used + 1);
        true
    }
}

/// Registry references of one state's lazy machinery (made once per state).
#[derive(Clone, Copy)]
pub struct LazyRefs {
    /// `__index` and `__newindex` of lazy tables.
    index: c_int,
    newindex: c_int,
    /// The metatable of root userdata (`__gc`).
    root_meta: c_int,
}

/// The key of the root userdata in a lazy table's metatable (its address, as a light userdata).
static ROOT_KEY: u8 = 0;

fn root_key() -> *mut std::ffi::c_void {
    &ROOT_KEY as *const u8 as *mut std::ffi::c_void
}

/// What a level fill needs: the state, the key cache, the root and the Lua objects by absolute
/// stack index.
struct Maker<'a> {
    state: *mut ffi::lua_State,
    keys: &'a KeyCache,
    root: &'a LazyRoot,
    /// Absolute stack index of the call's metatable of lazy tables.
    meta_index: c_int,
}

impl Maker<'_> {
    /// Push a new lazy table for the struct level at `path` (or `false`: no slot left, build
    /// eagerly).
    ///
    /// # Safety
    /// Module contract; four free stack slots.
    unsafe fn push_lazy(&mut self, path: Path) -> bool {
        let state = self.state;
        ffi::lua_createtable(state, 0, 0);
        let address = ffi::lua_topointer(state, -1) as usize;
        if !self.root.record(address, path) {
            ffi::lua_settop(state, -2);
            return false;
        }
        ffi::lua_pushvalue(state, self.meta_index);
        ffi::lua_setmetatable(state, -2);
        true
    }
}

// ----- the path serializer -------------------------------------------------------------------

fn not_struct() -> PushError {
    PushError("lazy context: the path does not lead to a struct".into())
}

/// Walks from the argument list down `path`, then fills `table` with that level.
struct PathSer<'m, 'a> {
    maker: &'m mut Maker<'a>,
    path: Path,
    depth: usize,
    table: c_int,
}

/// The fields of a struct on the way down (`Walk`) or of the target level (`Fill`).
struct PathStruct<'m, 'a> {
    ser: PathSer<'m, 'a>,
    index: usize,
}

impl ser::SerializeStruct for PathStruct<'_, '_> {
    type Ok = ();
    type Error = PushError;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), PushError> {
        let i = self.index;
        self.index += 1;
        let ser = &mut self.ser;
        if ser.depth < ser.path.len as usize {
            if ser.path.idx[ser.depth] as usize == i {
                value.serialize(PathSer {
                    maker: &mut *ser.maker,
                    path: ser.path,
                    depth: ser.depth + 1,
                    table: ser.table,
                })?;
            }
            return Ok(());
        }
        // The target level: `table[key] = value` (structs below become lazy tables).
        let state = ser.maker.state;
        // SAFETY: module contract; the fill checked stack space for a key, a value and a
        // container's own needs.
        unsafe {
            if ffi::lua_checkstack(state, 8) == 0 {
                return Err(PushError("Lua stack overflow".into()));
            }
            let top = ffi::lua_gettop(state);
            StackSer::new(state, ser.maker.keys).push_static(key);
            value.serialize(FieldSer {
                maker: &mut *ser.maker,
                path: ser.path.child(i),
            })?;
            if ffi::lua_type(state, -1) == ffi::LUA_TNIL {
                ffi::lua_settop(state, top);
            } else {
                ffi::lua_rawset(state, ser.table);
            }
        }
        Ok(())
    }
    fn end(self) -> Result<(), PushError> {
        Ok(())
    }
}

impl<'m, 'a> ser::Serializer for PathSer<'m, 'a> {
    type Ok = ();
    type Error = PushError;
    type SerializeSeq = ser::Impossible<(), PushError>;
    type SerializeTuple = ser::Impossible<(), PushError>;
    type SerializeTupleStruct = ser::Impossible<(), PushError>;
    type SerializeTupleVariant = ser::Impossible<(), PushError>;
    type SerializeMap = ser::Impossible<(), PushError>;
    type SerializeStruct = PathStruct<'m, 'a>;
    type SerializeStructVariant = ser::Impossible<(), PushError>;

    fn serialize_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStruct, PushError> {
        Ok(PathStruct {
            ser: self,
            index: 0,
        })
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), PushError> {
        value.serialize(self)
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
        Err(not_struct())
    }
    refuse_other_methods!(not_struct());
}

// ----- one field of a level: a lazy table for a struct, the eager value otherwise ------------

/// Pushes exactly one value: a struct as a new lazy table (when `path` has room), anything
/// else as [`StackSer`] would.
struct FieldSer<'m, 'a> {
    maker: &'m mut Maker<'a>,
    path: Option<Path>,
}

/// A struct already pushed as a lazy table: its fields are not visited.
struct Skip;

impl ser::SerializeStruct for Skip {
    type Ok = ();
    type Error = PushError;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        _: &'static str,
        _: &T,
    ) -> Result<(), PushError> {
        Ok(())
    }
    fn end(self) -> Result<(), PushError> {
        Ok(())
    }
}

/// A struct pushed eagerly (no lazy slot left).
enum FieldStruct<'k> {
    Lazy(Skip),
    Eager(<StackSer<'k> as ser::Serializer>::SerializeStruct),
}

impl ser::SerializeStruct for FieldStruct<'_> {
    type Ok = ();
    type Error = PushError;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), PushError> {
        match self {
            FieldStruct::Lazy(s) => s.serialize_field(key, value),
            FieldStruct::Eager(c) => ser::SerializeStruct::serialize_field(c, key, value),
        }
    }
    fn end(self) -> Result<(), PushError> {
        match self {
            FieldStruct::Lazy(s) => ser::SerializeStruct::end(s),
            FieldStruct::Eager(c) => ser::SerializeStruct::end(c),
        }
    }
}

impl<'m, 'a: 'm> ser::Serializer for FieldSer<'m, 'a> {
    type Ok = ();
    type Error = PushError;
    type SerializeSeq = <StackSer<'a> as ser::Serializer>::SerializeSeq;
    type SerializeTuple = <StackSer<'a> as ser::Serializer>::SerializeTuple;
    type SerializeTupleStruct = <StackSer<'a> as ser::Serializer>::SerializeTupleStruct;
    type SerializeTupleVariant = <StackSer<'a> as ser::Serializer>::SerializeTupleVariant;
    type SerializeMap = <StackSer<'a> as ser::Serializer>::SerializeMap;
    type SerializeStruct = FieldStruct<'a>;
    type SerializeStructVariant = <StackSer<'a> as ser::Serializer>::SerializeStructVariant;

    fn serialize_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<FieldStruct<'a>, PushError> {
        if let Some(path) = self.path {
            // SAFETY: module contract; the caller checked stack space.
            if unsafe { self.maker.push_lazy(path) } {
                return Ok(FieldStruct::Lazy(Skip));
            }
        }
        let keys: &'a KeyCache = self.maker.keys;
        ser::Serializer::serialize_struct(StackSer::new(self.maker.state, keys), name, len)
            .map(FieldStruct::Eager)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), PushError> {
        value.serialize(self)
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
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), PushError> {
        ser::Serializer::serialize_newtype_variant(
            StackSer::new(self.maker.state, self.maker.keys),
            name,
            index,
            variant,
            value,
        )
    }
    forward_other_methods!(s => StackSer::new(s.maker.state, s.maker.keys));
}

/// The positional arguments: each pushed by [`FieldSer`] (so struct arguments are lazy).
struct ArgsSer<'m, 'a> {
    maker: &'m mut Maker<'a>,
    names: &'static [&'static str],
}

struct ArgsStruct<'m, 'a> {
    maker: &'m mut Maker<'a>,
    names: &'static [&'static str],
    pushed: usize,
}

impl ser::SerializeStruct for ArgsStruct<'_, '_> {
    type Ok = ();
    type Error = PushError;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), PushError> {
        if self.names.get(self.pushed) != Some(&key) {
            return Err(not_positional());
        }
        let path = Path::default().child(self.pushed);
        value.serialize(FieldSer {
            maker: &mut *self.maker,
            path,
        })?;
        self.pushed += 1;
        Ok(())
    }
    fn end(self) -> Result<(), PushError> {
        if self.pushed == self.names.len() {
            Ok(())
        } else {
            Err(not_positional())
        }
    }
}

impl<'m, 'a> ser::Serializer for ArgsSer<'m, 'a> {
    type Ok = ();
    type Error = PushError;
    type SerializeSeq = ser::Impossible<(), PushError>;
    type SerializeTuple = ser::Impossible<(), PushError>;
    type SerializeTupleStruct = ser::Impossible<(), PushError>;
    type SerializeTupleVariant = ser::Impossible<(), PushError>;
    type SerializeMap = ser::Impossible<(), PushError>;
    type SerializeStruct = ArgsStruct<'m, 'a>;
    type SerializeStructVariant = ser::Impossible<(), PushError>;

    fn serialize_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStruct, PushError> {
        Ok(ArgsStruct {
            maker: self.maker,
            names: self.names,
            pushed: 0,
        })
    }
    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<(), PushError> {
        Err(not_positional())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: &T,
    ) -> Result<(), PushError> {
        Err(not_positional())
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), PushError> {
        Err(not_positional())
    }
    refuse_other_methods!(not_struct());
}

// ----- the state's machinery ----------------------------------------------------------------

/// `__gc` of a root userdata: drop the [`LazyRoot`] it holds.
unsafe extern "C-unwind" fn drop_root(state: *mut ffi::lua_State) -> c_int {
    let p = ffi::lua_touserdata(state, 1) as *mut LazyRoot;
    if !p.is_null() {
        // SAFETY: initialised with `ptr::write` in `push_args`; Lua 5.1 runs `__gc` once.
        let _ = catch_unwind(AssertUnwindSafe(|| std::ptr::drop_in_place(p)));
    }
    0
}

/// The root of the metatable at absolute index `mt`, if it is a lazy table's (its root key
/// holds a userdata whose metatable is the roots' one, at absolute index `root_meta`). Leaves
/// the root userdata pushed when it returns one.
///
/// # Safety
/// Module contract; three free stack slots.
unsafe fn root_of(
    state: *mut ffi::lua_State,
    mt: c_int,
    root_meta: c_int,
) -> Option<*const LazyRoot> {
    ffi::lua_pushlightuserdata(state, root_key());
    ffi::lua_rawget(state, mt);
    if ffi::lua_type(state, -1) == ffi::LUA_TUSERDATA && ffi::lua_getmetatable(state, -1) != 0 {
        let ours = ffi::lua_rawequal(state, -1, root_meta) != 0;
        ffi::lua_settop(state, -2);
        if ours {
            return Some(ffi::lua_touserdata(state, -1) as *const LazyRoot);
        }
    }
    ffi::lua_settop(state, -2);
    None
}

/// Fill the lazy table at absolute index `t` if it is one (the roots' metatable at upvalue
/// `root_meta_up`). Pushes nothing net.
///
/// # Safety
/// Module contract; called from a C function of this module (so the upvalue exists).
unsafe fn fill(state: *mut ffi::lua_State, t: c_int, root_meta_up: c_int) -> Result<(), String> {
    if ffi::lua_type(state, t) != ffi::LUA_TTABLE {
        return Ok(());
    }
    // Up to the lift below this uses three slots of the `LUA_MINSTACK` a C function is given
    // (growing the stack could raise a memory error while the limit is set).
    let base = ffi::lua_gettop(state);
    if ffi::lua_getmetatable(state, t) == 0 {
        return Ok(());
    }
    let Some(p) = root_of(state, base + 1, root_meta_up) else {
        ffi::lua_settop(state, base);
        return Ok(());
    };
    // SAFETY: a userdata with the roots' metatable holds a `LazyRoot` (`push_args`), and it
    // stays on the stack (base + 2) while the reference is used.
    let root: &LazyRoot = &*p;
    let Some(path) = root.path_of(ffi::lua_topointer(state, t) as usize) else {
        ffi::lua_settop(state, base);
        return Err("lazy context: unknown table".into());
    };
    let lua = root.lua.try_upgrade();
    let _unlimited = lua
        .as_ref()
        .map(|lua| Unlimited::new(lua, root.host.memory_limit.get()));
    if ffi::lua_checkstack(state, 12) == 0 {
        ffi::lua_settop(state, base);
        return Err("Lua stack overflow".into());
    }
    let mut maker = Maker {
        state,
        keys: &root.keys,
        root,
        meta_index: base + 1,
    };
    let filled = root.data.fill(&mut maker, path, t);
    ffi::lua_settop(state, base);
    filled.map_err(|e| format!("context conversion: {e}"))?;
    ffi::lua_pushnil(state);
    ffi::lua_setmetatable(state, t);
    Ok(())
}

/// Run `body` (which may fill) in a C function's frame; raise its error from this frame.
///
/// # Safety
/// Called as the whole body of a `lua_CFunction`.
unsafe fn c_body(
    state: *mut ffi::lua_State,
    body: impl FnOnce() -> Result<c_int, String>,
) -> c_int {
    let message = match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(n)) => return n,
        Ok(Err(message)) => message,
        Err(_) => "a host function panicked".to_owned(),
    };
    ffi::lua_pushlstring(state, message.as_ptr() as *const c_char, message.len());
    drop(message);
    ffi::lua_error(state)
}

/// `__index(t, k)`: fill `t`, then `rawget(t, k)`. Upvalue: the roots' metatable.
unsafe extern "C-unwind" fn lazy_index(state: *mut ffi::lua_State) -> c_int {
    c_body(state, || {
        fill(state, 1, ffi::lua_upvalueindex(1))?;
        ffi::lua_settop(state, 2);
        ffi::lua_rawget(state, 1);
        Ok(1)
    })
}

/// `__newindex(t, k, v)`: fill `t`, then `rawset(t, k, v)`.
unsafe extern "C-unwind" fn lazy_newindex(state: *mut ffi::lua_State) -> c_int {
    c_body(state, || {
        fill(state, 1, ffi::lua_upvalueindex(1))?;
        ffi::lua_settop(state, 3);
        ffi::lua_rawset(state, 1);
        Ok(0)
    })
}

/// The original C function an override wraps (upvalue 3).
unsafe fn original(state: *mut ffi::lua_State) -> Option<ffi::lua_CFunction> {
    let f = ffi::lua_touserdata(state, ffi::lua_upvalueindex(3)) as *const ffi::lua_CFunction;
    if f.is_null() {
        None
    } else {
        Some(*f)
    }
}

/// `next`, `rawget`, `rawset`, `setmetatable`, `table.foreach`: fill argument 1, then the
/// original function in this frame. Upvalues: the roots' metatable, nil, the original (a
/// userdata holding its pointer).
unsafe extern "C-unwind" fn fill_then_original(state: *mut ffi::lua_State) -> c_int {
    let Some(f) = original(state) else {
        return 0;
    };
    let filled = c_body(state, || {
        fill(state, 1, ffi::lua_upvalueindex(1)).map(|()| 0)
    });
    let _ = filled;
    f(state)
}

/// `pairs`: like [`fill_then_original`], with upvalue 1 the `next` that 5.1's `pairs` returns
/// (its upvalue 1) and the roots' metatable at upvalue 2.
unsafe extern "C-unwind" fn fill_then_pairs(state: *mut ffi::lua_State) -> c_int {
    let Some(f) = original(state) else {
        return 0;
    };
    let _ = c_body(state, || {
        fill(state, 1, ffi::lua_upvalueindex(2)).map(|()| 0)
    });
    f(state)
}

/// `getmetatable`: the original, with a lazy table's metatable reported as none. Upvalue 1:
/// the roots' metatable.
unsafe extern "C-unwind" fn hide_meta(state: *mut ffi::lua_State) -> c_int {
    let Some(f) = original(state) else {
        return 0;
    };
    let n = f(state);
    if n == 1 && ffi::lua_type(state, -1) == ffi::LUA_TTABLE && ffi::lua_checkstack(state, 3) != 0 {
        let mt = ffi::lua_gettop(state);
        if root_of(state, mt, ffi::lua_upvalueindex(1)).is_some() {
            ffi::lua_settop(state, mt - 1);
            ffi::lua_pushnil(state);
        }
    }
    n
}

impl LazyRefs {
    /// Make the state's machinery and install the sandbox overrides (before any mod code).
    pub fn install(lua: &Lua) -> mlua::Result<LazyRefs> {
        lua.exec_raw_lua(|raw| {
            let state = raw.state();
            // SAFETY: lock held; called at state construction with no memory limit set yet
            // (allocations cannot raise); stack space checked; balanced pushes and pops.
            unsafe {
                if ffi::lua_checkstack(state, 10) == 0 {
                    return Err(mlua::Error::runtime("Lua stack overflow"));
                }
                let base = ffi::lua_gettop(state);
                // base+1: the roots' metatable.
                ffi::lua_createtable(state, 0, 2);
                ffi::lua_pushcclosure(state, drop_root, 0);
                ffi::lua_setfield(state, -2, c"__gc".as_ptr());
                ffi::lua_pushboolean(state, 0);
                ffi::lua_setfield(state, -2, c"__metatable".as_ptr());
                let mut refs = [0; 2];
                for (slot, f) in refs
                    .iter_mut()
                    .zip([lazy_index as ffi::lua_CFunction, lazy_newindex])
                {
                    ffi::lua_pushvalue(state, base + 1);
                    ffi::lua_pushcclosure(state, f, 1);
                    *slot = ffi::luaL_ref(state, ffi::LUA_REGISTRYINDEX);
                }
                // Overrides of the base functions (globals) and `table.foreach`.
                ffi::lua_pushvalue(state, ffi::LUA_GLOBALSINDEX);
                let globals = ffi::lua_gettop(state);
                ffi::lua_getfield(state, globals, c"table".as_ptr());
                let table = ffi::lua_gettop(state);
                for (holder, name, f) in [
                    (globals, c"next", fill_then_original as ffi::lua_CFunction),
                    (globals, c"rawget", fill_then_original),
                    (globals, c"rawset", fill_then_original),
                    (globals, c"setmetatable", fill_then_original),
                    (table, c"foreach", fill_then_original),
                    (globals, c"getmetatable", hide_meta),
                ] {
                    if push_original(state, holder, name) {
                        ffi::lua_pushvalue(state, base + 1);
                        ffi::lua_insert(state, -2);
                        ffi::lua_pushnil(state);
                        ffi::lua_insert(state, -2);
                        ffi::lua_pushcclosure(state, f, 3);
                        ffi::lua_setfield(state, holder, name.as_ptr());
                    }
                }
                // `pairs` returns (its upvalue 1, t, nil): our `next`.
                if push_original(state, globals, c"pairs") {
                    ffi::lua_getfield(state, globals, c"next".as_ptr());
                    ffi::lua_insert(state, -2);
                    ffi::lua_pushvalue(state, base + 1);
                    ffi::lua_insert(state, -2);
                    ffi::lua_pushcclosure(state, fill_then_pairs, 3);
                    ffi::lua_setfield(state, globals, c"pairs".as_ptr());
                }
                ffi::lua_settop(state, base + 1);
                let root_meta = ffi::luaL_ref(state, ffi::LUA_REGISTRYINDEX);
                ffi::lua_settop(state, base);
                Ok(LazyRefs {
                    index: refs[0],
                    newindex: refs[1],
                    root_meta,
                })
            }
        })
    }
}

/// Push a userdata holding the C function `holder[name]`, if it is Lua's own (a C function
/// with exactly the base library's upvalues: one for `pairs`, none otherwise — an mlua
/// callback reads its data from upvalue 1 and cannot be called from another closure).
///
/// # Safety
/// Module contract; three free stack slots.
unsafe fn push_original(state: *mut ffi::lua_State, holder: c_int, name: &std::ffi::CStr) -> bool {
    ffi::lua_getfield(state, holder, name.as_ptr());
    let upvalues = if name == c"pairs" { 1 } else { 0 };
    let mut f = ffi::lua_tocfunction(state, -1);
    for n in 1..=upvalues + 1 {
        let has = !ffi::lua_getupvalue(state, -1, n).is_null();
        if has {
            ffi::lua_settop(state, -2);
        }
        if has != (n <= upvalues) {
            f = None;
        }
    }
    ffi::lua_settop(state, -2);
    let Some(f) = f else {
        return false;
    };
    let p = ffi::lua_newuserdata(state, std::mem::size_of::<ffi::lua_CFunction>())
        as *mut ffi::lua_CFunction;
    std::ptr::write(p, f);
    true
}

/// Push the hook's positional arguments with struct arguments as lazy tables (a clone of
/// `args` is the root's data).
///
/// # Safety
/// mlua lock held, memory limit lifted, `names.len() + 8` free stack slots.
pub(crate) unsafe fn push_args<T: Serialize + Clone + 'static>(
    state: *mut ffi::lua_State,
    refs: LazyRefs,
    keys: &Rc<KeyCache>,
    host: &Rc<HostShared>,
    lua: &Lua,
    names: &'static [&'static str],
    args: &T,
) -> Result<(), PushError> {
    let p = ffi::lua_newuserdata(state, std::mem::size_of::<LazyRoot>()) as *mut LazyRoot;
    std::ptr::write(
        p,
        LazyRoot {
            data: Box::new(args.clone()),
            tables: Default::default(),
            used: Cell::new(0),
            keys: keys.clone(),
            host: host.clone(),
            lua: lua.weak(),
        },
    );
    ffi::lua_rawgeti(state, ffi::LUA_REGISTRYINDEX, refs.root_meta as _);
    ffi::lua_setmetatable(state, -2);
    // The call's metatable of lazy tables: `__index`, `__newindex`, the root.
    ffi::lua_createtable(state, 0, 3);
    let meta_index = ffi::lua_gettop(state);
    ffi::lua_pushlightuserdata(state, root_key());
    ffi::lua_pushvalue(state, meta_index - 1);
    ffi::lua_rawset(state, meta_index);
    let ser = StackSer::new(state, keys);
    ser.push_static("__index");
    ffi::lua_rawgeti(state, ffi::LUA_REGISTRYINDEX, refs.index as _);
    ffi::lua_rawset(state, meta_index);
    ser.push_static("__newindex");
    ffi::lua_rawgeti(state, ffi::LUA_REGISTRYINDEX, refs.newindex as _);
    ffi::lua_rawset(state, meta_index);
    let mut maker = Maker {
        state,
        keys,
        root: &*p,
        meta_index,
    };
    args.serialize(ArgsSer {
        maker: &mut maker,
        names,
    })?;
    // Move the arguments down over the root and the metatable.
    ffi::lua_remove(state, meta_index);
    ffi::lua_remove(state, meta_index - 1);
    Ok(())
}

/// Materialize `t` if it is a lazy table, before the engine reads it raw (`convert`).
pub fn materialize_for_host(t: &Table) -> mlua::Result<()> {
    if let Some(meta) = t.metatable() {
        let key = mlua::LightUserData(root_key());
        if matches!(
            meta.raw_get::<mlua::Value>(key),
            Ok(mlua::Value::UserData(_))
        ) {
            // Any absent key runs `__index`, which fills the whole level.
            let _: mlua::Value = t.get(mlua::Value::Boolean(false))?;
        }
    }
    Ok(())
}

/// When hook arguments reach wrappers as lazy tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LazyMode {
    /// Every argument table is built eagerly.
    Off,
    /// Lazy for arguments with at least [`LAZY_MIN_LEVELS`] struct levels, while the wrapper
    /// leaves them untouched (a link whose wrapper touched one builds eagerly for a while).
    Adaptive,
    /// Lazy for every struct argument, always (tests).
    Always,
}

/// Struct levels below which lazy tables do not pay (a root, a clone of the arguments and a
/// metatable cost more than building one or two small tables): `battle.crit`'s context has
/// four (`ctx`, `battle`, `user`, `move`), `save.write`'s `game` and `exp.gain`'s `ctx` one.
pub const LAZY_MIN_LEVELS: usize = 3;

/// Whether hook `H`'s arguments are worth lazy tables: at least [`LAZY_MIN_LEVELS`] maps.
pub fn worth_it<H: pallet_api::script::ScriptHook>(args: &H::Args) -> bool {
    struct Levels(usize);
    impl pallet_api::script::ValueSink for Levels {
        fn unit(&mut self) {}
        fn bool(&mut self, _: bool) {}
        fn int(&mut self, _: i64) {}
        fn float(&mut self, _: f64) {}
        fn str(&mut self, _: &str) {}
        fn begin_list(&mut self, _: usize) {}
        fn begin_map(&mut self, _: usize) {
            self.0 += 1;
        }
        fn key(&mut self, _: &str) {}
        fn end(&mut self) {}
    }
    let mut levels = Levels(0);
    H::args_to_sink(args, &mut levels).is_ok() && levels.0 >= LAZY_MIN_LEVELS
}
