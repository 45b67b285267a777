//! `ev.loader` of `mods.loaded` (issue 18): the Lua engine's loader object as a Lua listener of
//! `mods.loaded` reads it (developer tools such as hook inspectors enumerate mods through it).
//!
//! The payload Pallet emits is `{order, failed}`; a Lua listener's payload table also answers
//! `loader`, built on first read (one raw `setmetatable` per delivery otherwise, and the host
//! keeps the mods' rows only when some Lua mod listens to `mods.loaded`):
//!
//! * `mods[id]` — `{id, name, version, path, description, priority, profile}` of each loaded
//!   mod (`path` is `mods/<id>`, as `mod.path`);
//! * `status()` / `loader:status()` — `{loaded = {rows in load order}, failed = {{id, error}}}`;
//! * `exports[id]` — each mod's exports as data; a key that held a function in the other mod's
//!   state is a function here that raises [`cross_state_message`] (each mod has its own Lua
//!   state). The viewer's own id gives its live `mod.exports` table;
//! * `hooks.chains[name]` — re-read on each access from the runtime's bus: for every hook with
//!   links, `{owner, priority}` in call order (outermost first), Lua and Rhai links alike;
//!   wrappers of names Pallet never raises are listed with `dormant = true` (they never run);
//! * `fs.getDirectoryItems(dir)`, `fs.getInfo(path)` (`{type, size}`), `fs.read(path)` — read
//!   only, confined to `mods/<id>/…` of the loaded mods (the shim's confined, symlink-safe
//!   reader, [`crate::files`]); any other path answers `nil, reason`; reads are charged to the
//!   dispatch budget by size and bounded by `mod:read`'s limit;
//! * `events.emit(self, name, payload)` — the viewer's own `mod.events:emit` (so only
//!   `mod.<viewer>.*`); `events` is the viewer's own table, so it may replace `emit`.
//!
//! Every table is the viewer's own copy: changing one changes nothing outside its state.

use std::rc::{Rc, Weak};

use mlua::{Function, Lua, MultiValue, Table, Value as LuaValue};
use pallet_api::budget::BUDGET_EXHAUSTED;
use pallet_api::host_cost::{charge_host, read_units};

use crate::convert::to_lua;
use crate::errors::nil_reason;
use crate::files::{Kind, ModFiles};
use crate::mod_state::{LoadedRow, LoadedSnapshot, LuaMod};

/// Named-registry slot of the mod's `mod` table (set by the host when it builds it).
pub const MOD_TABLE: &str = "pallet.loader_view.mod";
/// Named-registry slot of the mod's `mod.events` handle (set with [`MOD_TABLE`]).
pub const EVENTS_HANDLE: &str = "pallet.loader_view.events";
/// Named-registry slot of this state's `mods.loaded` payload metatable.
const META: &str = "pallet.loader_view.meta";

/// The error an export function of another mod raises when called here.
pub fn cross_state_message(id: &str, key: &str) -> String {
    format!(
        "loader.exports[\"{id}\"].{key} is a function of another mod: each Pallet mod runs in \
         its own Lua state, so cross-state calls are not supported"
    )
}

fn runtime_err(message: impl Into<String>) -> mlua::Error {
    mlua::Error::runtime(message.into())
}

/// Give a `mods.loaded` payload table `payload` its on-demand `loader` field.
pub(crate) fn attach(m: &Rc<LuaMod>, payload: &Table) -> mlua::Result<()> {
    payload.set_metatable(Some(meta(m)?))?;
    Ok(())
}

fn meta(m: &Rc<LuaMod>) -> mlua::Result<Table> {
    let lua = &m.lua;
    crate::handles::registry_table(lua, META, || {
        let weak: Weak<LuaMod> = Rc::downgrade(m);
        let meta = lua.create_table()?;
        meta.raw_set(
            "__index",
            lua.create_function(move |_, (payload, key): (Table, LuaValue)| {
                let is_loader = key.as_string().is_some_and(|s| s.as_bytes() == b"loader");
                let Some(m) = weak.upgrade().filter(|_| is_loader) else {
                    return Ok(LuaValue::Nil);
                };
                let Some(snapshot) = m.host.loaded.borrow().clone() else {
                    return Ok(LuaValue::Nil);
                };
                let view = build(&m, &snapshot)?;
                payload.raw_set("loader", &view)?;
                Ok(LuaValue::Table(view))
            })?,
        )?;
        // Not protected: the payload is the listener's own table (it may set its own metatable).
        Ok(meta)
    })
}

/// The loader view for mod `m` over `snapshot`.
fn build(m: &Rc<LuaMod>, snapshot: &Rc<LoadedSnapshot>) -> mlua::Result<Table> {
    let lua = &m.lua;
    let loader = lua.create_table()?;
    let mods = lua.create_table()?;
    for row in &snapshot.loaded {
        mods.raw_set(row.id.as_str(), manifest_row(lua, row)?)?;
    }
    loader.raw_set("mods", mods)?;
    let snap = snapshot.clone();
    loader.raw_set(
        "status",
        lua.create_function(move |lua, _: MultiValue| status(lua, &snap))?,
    )?;
    loader.raw_set("exports", exports(m, snapshot)?)?;
    loader.raw_set("hooks", hooks(m, snapshot)?)?;
    loader.raw_set("fs", fs(m, snapshot)?)?;
    loader.raw_set("events", events(lua)?)?;
    Ok(loader)
}

fn manifest_row(lua: &Lua, row: &LoadedRow) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    t.raw_set("id", row.id.as_str())?;
    t.raw_set("name", row.name.as_str())?;
    t.raw_set("version", row.version.as_str())?;
    t.raw_set("path", format!("mods/{}", row.id))?;
    t.raw_set("description", row.description.as_deref())?;
    t.raw_set("priority", row.priority)?;
    t.raw_set("profile", row.profile)?;
    Ok(t)
}

fn status(lua: &Lua, snapshot: &LoadedSnapshot) -> mlua::Result<Table> {
    let loaded = lua.create_table()?;
    for (i, row) in snapshot.loaded.iter().enumerate() {
        loaded.raw_set(i + 1, manifest_row(lua, row)?)?;
    }
    let failed = lua.create_table()?;
    for (i, (id, error)) in snapshot.failed.iter().enumerate() {
        let t = lua.create_table()?;
        t.raw_set("id", id.as_str())?;
        t.raw_set("error", error.as_str())?;
        failed.raw_set(i + 1, t)?;
    }
    let t = lua.create_table()?;
    t.raw_set("loaded", loaded)?;
    t.raw_set("failed", failed)?;
    Ok(t)
}

fn exports(m: &Rc<LuaMod>, snapshot: &LoadedSnapshot) -> mlua::Result<Table> {
    let lua = &m.lua;
    let out = lua.create_table()?;
    for row in &snapshot.loaded {
        if row.id == m.id {
            let own = lua
                .named_registry_value::<Option<Table>>(MOD_TABLE)?
                .map(|api| api.raw_get::<LuaValue>("exports"))
                .transpose()?;
            if let Some(own @ LuaValue::Table(_)) = own {
                out.raw_set(row.id.as_str(), own)?;
                continue;
            }
        }
        let t = match to_lua(lua, &row.exports)? {
            LuaValue::Table(t) => t,
            _ => lua.create_table()?,
        };
        for key in &row.functions {
            let message = cross_state_message(&row.id, key);
            t.raw_set(
                key.as_str(),
                lua.create_function(move |_, _: MultiValue| -> mlua::Result<()> {
                    Err(runtime_err(message.clone()))
                })?,
            )?;
        }
        out.raw_set(row.id.as_str(), t)?;
    }
    Ok(out)
}

/// `loader.hooks`: `chains` answered fresh on each read; writes raise.
fn hooks(m: &Rc<LuaMod>, snapshot: &Rc<LoadedSnapshot>) -> mlua::Result<Table> {
    let lua = &m.lua;
    let weak = Rc::downgrade(m);
    let snap = snapshot.clone();
    let meta = lua.create_table()?;
    meta.raw_set(
        "__index",
        lua.create_function(move |lua, (_, key): (LuaValue, LuaValue)| {
            let Some(m) = weak.upgrade() else {
                return Ok(LuaValue::Nil);
            };
            match key.as_string().map(|s| s.to_string_lossy()).as_deref() {
                Some("chains") => chains(lua, &m, &snap).map(LuaValue::Table),
                _ => Ok(LuaValue::Nil),
            }
        })?,
    )?;
    meta.raw_set(
        "__newindex",
        lua.create_function(|_, _: MultiValue| -> mlua::Result<()> {
            Err(runtime_err(
                "loader.hooks is read-only in Pallet (wrap hooks with mod.hooks:wrap)",
            ))
        })?,
    )?;
    meta.raw_set("__metatable", false)?;
    let t = lua.create_table()?;
    t.set_metatable(Some(meta))?;
    Ok(t)
}

fn link_row(lua: &Lua, owner: &str, priority: i32, dormant: bool) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    t.raw_set("owner", owner)?;
    t.raw_set("priority", f64::from(priority))?;
    if dormant {
        t.raw_set("dormant", true)?;
    }
    Ok(t)
}

/// The chains now: the bus's links of every catalog hook (a copy, call order), then the
/// dormant wrappers of loaded mods by name, in the bus's order (priority, load rank,
/// registration).
fn chains(lua: &Lua, m: &Rc<LuaMod>, snapshot: &LoadedSnapshot) -> mlua::Result<Table> {
    let rt = m
        .host
        .rt
        .upgrade()
        .ok_or_else(|| runtime_err("the runtime is gone"))?;
    let out = lua.create_table()?;
    let mut links = 0u64;
    for info in pallet_api::catalog::HOOKS {
        let chain = rt.hook_chain(info.id);
        if chain.is_empty() {
            continue;
        }
        let list = lua.create_table_with_capacity(chain.len(), 0)?;
        for (i, (owner, priority)) in chain.iter().enumerate() {
            list.raw_set(i + 1, link_row(lua, owner, *priority, false)?)?;
        }
        links += chain.len() as u64;
        out.raw_set(info.name, list)?;
    }
    let rank = |owner: &str| snapshot.loaded.iter().position(|r| r.id == owner);
    let mut dormant: Vec<_> = m
        .host
        .dormant
        .borrow()
        .iter()
        .filter_map(|d| rank(&d.owner).map(|r| (d.clone(), r)))
        .collect();
    dormant.sort_by(|(a, ra), (b, rb)| {
        a.hook
            .cmp(&b.hook)
            .then(b.priority.cmp(&a.priority))
            .then(ra.cmp(rb))
            .then(a.seq.cmp(&b.seq))
    });
    for (d, _) in &dormant {
        let list = match out.raw_get::<LuaValue>(d.hook.as_str())? {
            LuaValue::Table(t) => t,
            _ => {
                let t = lua.create_table()?;
                out.raw_set(d.hook.as_str(), &t)?;
                t
            }
        };
        list.raw_set(
            list.raw_len() + 1,
            link_row(lua, &d.owner, d.priority, true)?,
        )?;
    }
    links += dormant.len() as u64;
    if charge_host(&m.host.budget, 1 + links) {
        return Err(runtime_err(BUDGET_EXHAUSTED));
    }
    Ok(out)
}

/// Where an `fs` path leads: the `mods` folder itself, or a path inside one loaded mod.
enum Target<'a> {
    Mods,
    In(&'a ModFiles, &'a str, &'a str),
}

fn target<'a>(snapshot: &'a LoadedSnapshot, path: &'a str) -> Result<Target<'a>, String> {
    let trimmed = path.trim_end_matches('/');
    if trimmed == "mods" {
        return Ok(Target::Mods);
    }
    let outside = || {
        format!(
            "{path}: outside the loaded mods' folders (loader.fs reads mods/<id>/… of loaded \
             mods only)"
        )
    };
    let rest = trimmed.strip_prefix("mods/").ok_or_else(outside)?;
    let (id, rel) = rest.split_once('/').unwrap_or((rest, ""));
    let row = snapshot
        .loaded
        .iter()
        .find(|r| r.id == id)
        .ok_or_else(outside)?;
    let files = row
        .files
        .as_ref()
        .ok_or_else(|| format!("{path}: mod {id} has no folder Pallet can read"))?;
    Ok(Target::In(files, id, rel))
}

/// The path argument of an `fs` function (`fs.f(path)` or `fs:f(path)`).
fn path_arg(args: MultiValue) -> Option<String> {
    let mut it = args
        .into_iter()
        .skip_while(|v| matches!(v, LuaValue::Table(_)));
    match it.next() {
        Some(LuaValue::String(s)) => s.to_str().ok().map(|s| s.to_string()),
        _ => None,
    }
}

fn charge(m: &LuaMod, units: u64) -> mlua::Result<()> {
    if charge_host(&m.host.budget, units) {
        Err(runtime_err(BUDGET_EXHAUSTED))
    } else {
        Ok(())
    }
}

type FsFn = fn(&Lua, &LuaMod, &LoadedSnapshot, &str) -> mlua::Result<MultiValue>;

fn fs(m: &Rc<LuaMod>, snapshot: &Rc<LoadedSnapshot>) -> mlua::Result<Table> {
    let lua = &m.lua;
    let t = lua.create_table()?;
    let functions: [(&str, FsFn); 3] = [
        ("getDirectoryItems", fs_items),
        ("getInfo", fs_info),
        ("read", fs_read),
    ];
    for (name, f) in functions {
        let weak = Rc::downgrade(m);
        let snap = snapshot.clone();
        t.raw_set(
            name,
            lua.create_function(move |lua, args: MultiValue| {
                let m = weak
                    .upgrade()
                    .ok_or_else(|| runtime_err("the mod is unloaded"))?;
                let Some(path) = path_arg(args) else {
                    return nil_reason(lua, &format!("fs.{name}: a path string is required"));
                };
                f(lua, &m, &snap, &path)
            })?,
        )?;
    }
    Ok(t)
}

fn fs_items(lua: &Lua, m: &LuaMod, snap: &LoadedSnapshot, path: &str) -> mlua::Result<MultiValue> {
    let names = match target(snap, path) {
        Ok(Target::Mods) => Ok(snap
            .loaded
            .iter()
            .filter(|r| r.files.is_some())
            .map(|r| r.id.clone())
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect()),
        Ok(Target::In(files, id, rel)) => {
            files.dir_items(rel).map_err(|e| format!("mods/{id}/{e}"))
        }
        Err(e) => Err(e),
    };
    match names {
        Ok(names) => {
            charge(m, read_units(names.iter().map(String::len).sum()))?;
            let t = lua.create_table_with_capacity(names.len(), 0)?;
            for (i, n) in names.iter().enumerate() {
                t.raw_set(i + 1, n.as_str())?;
            }
            Ok(MultiValue::from_iter([LuaValue::Table(t)]))
        }
        Err(e) => nil_reason(lua, &e),
    }
}

fn fs_info(lua: &Lua, m: &LuaMod, snap: &LoadedSnapshot, path: &str) -> mlua::Result<MultiValue> {
    charge(m, 1)?;
    let kind = match target(snap, path) {
        Ok(Target::Mods) => Some(Kind::Directory),
        Ok(Target::In(files, _, rel)) => files.kind(rel),
        Err(e) => return nil_reason(lua, &e),
    };
    let t = lua.create_table()?;
    match kind {
        Some(Kind::Directory) => t.raw_set("type", "directory")?,
        Some(Kind::File(size)) => {
            t.raw_set("type", "file")?;
            t.raw_set("size", size as f64)?;
        }
        None => return nil_reason(lua, &format!("{path}: no such file or folder")),
    }
    Ok(MultiValue::from_iter([LuaValue::Table(t)]))
}

fn fs_read(lua: &Lua, m: &LuaMod, snap: &LoadedSnapshot, path: &str) -> mlua::Result<MultiValue> {
    let text = match target(snap, path) {
        Ok(Target::Mods) => Err(format!("{path}: a folder, not a file")),
        Ok(Target::In(files, id, rel)) => files.read(rel).map_err(|e| format!("mods/{id}/{e}")),
        Err(e) => Err(e),
    };
    match text {
        Ok(text) => {
            // Charged by its size, as `mod:read`: a loop of big reads stops at the budget.
            charge(m, read_units(text.len()))?;
            let size = text.len() as f64;
            Ok(MultiValue::from_iter([
                LuaValue::String(lua.create_string(text)?),
                LuaValue::Number(size),
            ]))
        }
        Err(e) => nil_reason(lua, &e),
    }
}

/// `loader.events`: a plain table (the viewer's own) whose `emit` is its `mod.events:emit`.
fn events(lua: &Lua) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    let emit: Function = lua.create_function(|lua, args: MultiValue| {
        let handle: Table = lua
            .named_registry_value::<Option<Table>>(EVENTS_HANDLE)?
            .ok_or_else(|| runtime_err("loader.events.emit: the mod has no events"))?;
        let emit: Function = handle.get("emit")?;
        let mut rest = args.into_iter().peekable();
        if matches!(rest.peek(), Some(LuaValue::Table(_))) {
            rest.next();
        }
        let mut call = MultiValue::new();
        call.push_back(LuaValue::Table(handle));
        call.extend(rest);
        emit.call::<MultiValue>(call)
    })?;
    t.raw_set("emit", emit)?;
    Ok(t)
}
