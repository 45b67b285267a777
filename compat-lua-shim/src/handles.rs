//! Capability handles as Lua **tables** (issue 18 item 4): legacy mods probe their services with
//! `type(mod.checkpoints) == "table"` and call them as `mod.checkpoints:capture(game)`.
//!
//! A handle is an empty proxy table whose protected metatable (`__metatable = false`) indexes a
//! hidden table of methods; `__newindex` refuses every write and the state's `rawset` refuses a
//! handle too, so a mod cannot swap a method or add a field. The capability itself lives in a
//! Rust value captured by each method closure — never reachable from Lua — so a table a mod
//! builds with the same method names is just a table: handles stay unforgeable. Both call
//! styles are accepted (`h:m(x)` and `h.m(x)`); a method called on a *different* handle
//! (`mod.hooks.wrap(mod.events, …)`) is refused.

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::rc::Rc;

use mlua::{
    AnyUserData, Function, Lua, MultiValue, ObjectLike, Table, UserData, Value as LuaValue,
};

/// A table kept in the state's named registry under `slot`: made by `build` on first use, the
/// same table on every later call (per-state metatables and views).
pub(crate) fn registry_table(
    lua: &Lua,
    slot: &str,
    build: impl FnOnce() -> mlua::Result<Table>,
) -> mlua::Result<Table> {
    if let Some(t) = lua.named_registry_value::<Option<Table>>(slot)? {
        return Ok(t);
    }
    let t = build()?;
    lua.set_named_registry_value(slot, &t)?;
    Ok(t)
}

/// The proxy tables of one state that are handles (by table identity).
#[derive(Default)]
struct HandleSet(RefCell<BTreeSet<usize>>);

fn handle_set(lua: &Lua) -> Rc<HandleSet> {
    if let Some(set) = lua.app_data_ref::<Rc<HandleSet>>() {
        return set.clone();
    }
    let set = Rc::new(HandleSet::default());
    lua.set_app_data(set.clone());
    set
}

/// Is `v` one of the state's handle tables?
pub fn is_handle_table(lua: &Lua, v: &LuaValue) -> bool {
    match v {
        LuaValue::Table(t) => handle_set(lua)
            .0
            .borrow()
            .contains(&(t.to_pointer() as usize)),
        _ => false,
    }
}

/// The protected metatable of a handle proxy over `methods`.
fn protect(lua: &Lua, proxy: &Table, index: LuaValue, what: &'static str) -> mlua::Result<()> {
    let meta = lua.create_table()?;
    meta.raw_set("__index", index)?;
    meta.raw_set(
        "__newindex",
        lua.create_function(move |_, _: MultiValue| -> mlua::Result<()> {
            Err(mlua::Error::runtime(format!(
                "{what} is a read-only handle: its fields cannot be written"
            )))
        })?,
    )?;
    meta.raw_set("__metatable", false)?;
    meta.raw_set(
        "__tostring",
        lua.create_function(move |_, _: MultiValue| Ok(what))?,
    )?;
    proxy.set_metatable(Some(meta))?;
    handle_set(lua)
        .0
        .borrow_mut()
        .insert(proxy.to_pointer() as usize);
    Ok(())
}

/// Receiver handling shared by every handle method: `h:m(…)` (the proxy first) and `h.m(…)`
/// (no receiver) both reach the userdata method with the userdata first.
fn receiver(
    lua: &Lua,
    proxy: usize,
    ud: &AnyUserData,
    mut args: MultiValue,
    what: &str,
) -> mlua::Result<MultiValue> {
    match args.front() {
        Some(LuaValue::Table(t)) if t.to_pointer() as usize == proxy => {
            args.pop_front();
        }
        Some(v @ LuaValue::Table(_)) if is_handle_table(lua, v) => {
            return Err(mlua::Error::runtime(format!(
                "a method of {what} was called on another handle"
            )));
        }
        _ => {}
    }
    args.push_front(LuaValue::UserData(ud.clone()));
    Ok(args)
}

/// A handle table over `value` exposing `methods` (each a method of `value`'s `UserData`).
pub fn table_of<T: UserData + 'static>(
    lua: &Lua,
    value: T,
    methods: &[&'static str],
    what: &'static str,
) -> mlua::Result<Table> {
    let ud = lua.create_userdata(value)?;
    let proxy = lua.create_table()?;
    let id = proxy.to_pointer() as usize;
    let index = lua.create_table()?;
    for &name in methods {
        let f: Function = ud.get(name)?;
        let ud = ud.clone();
        index.raw_set(
            name,
            lua.create_function(move |lua, args: MultiValue| {
                let args = receiver(lua, id, &ud, args, what)?;
                f.call::<MultiValue>(args)
            })?,
        )?;
    }
    protect(lua, &proxy, LuaValue::Table(index), what)?;
    Ok(proxy)
}

/// A handle table whose fields are computed by `get(lua, key)` on first read and then kept
/// (`mod.content.<registry>`).
pub fn table_with_index<F>(lua: &Lua, what: &'static str, get: F) -> mlua::Result<Table>
where
    F: Fn(&Lua, &str) -> mlua::Result<LuaValue> + 'static,
{
    let proxy = lua.create_table()?;
    let cache = lua.create_table()?;
    let index = lua.create_function(move |lua, (_, key): (LuaValue, LuaValue)| {
        let LuaValue::String(k) = &key else {
            return Ok(LuaValue::Nil);
        };
        let found: LuaValue = cache.raw_get(k.clone())?;
        if !found.is_nil() {
            return Ok(found);
        }
        let v = get(lua, &k.to_string_lossy())?;
        cache.raw_set(k.clone(), v.clone())?;
        Ok(v)
    })?;
    protect(lua, &proxy, LuaValue::Function(index), what)?;
    Ok(proxy)
}

/// Make the state's `rawset` refuse handle tables (the proxies are empty; a raw write would add
/// a field `__index` never shadows, but a mod must not be able to dress a handle up either).
pub fn guard_rawset(lua: &Lua) -> mlua::Result<()> {
    let g = lua.globals();
    let original: LuaValue = g.raw_get("rawset")?;
    let LuaValue::Function(original) = original else {
        return Ok(());
    };
    g.raw_set(
        "rawset",
        lua.create_function(move |lua, args: MultiValue| {
            if args.front().is_some_and(|t| is_handle_table(lua, t)) {
                return Err(mlua::Error::runtime(
                    "rawset: a handle of the mod object cannot be written",
                ));
            }
            original.call::<MultiValue>(args)
        })?,
    )
}
