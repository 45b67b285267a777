//! The `game` a Lua link reads (legacy-lua-mods.md §4): `game.save` and `game.data` on the
//! `game` argument of hooks (`core.update`, `trainer.before_battle`, …), on the `game` field
//! of event payloads (`game.ready {game}`, …) and as `mod.game`.
//!
//! The `game` table a link receives is the engine's detached summary (`version`,
//! `playthroughId`, `mapId`) with a shared metatable whose `__index` answers two more keys,
//! **each time they are read** (the reference's `game` is live, and mods keep `ev.game` from
//! `game.ready` to read it in later hooks):
//! * `save` — a fresh copy of the save ([`pallet_engine::game_view::save_view`]: the lent game
//!   at a safe point, else the copy of the current tick's start), as a read-only table;
//! * `stack` — `top()`, the Lua engine's duck-typed top screen (`{isOverworld}`: free roam
//!   at a safe point) and `writeSave` — `game:writeSave()`, the normal save to the front
//!   end's file (`pallet run --save`), at a safe point ([`pallet_engine::save_request`]);
//! * `data` — the merged content registries (`game.data.pokemon`, `.moves`, `.trainers`,
//!   `.maps`, …, each built on first read from `mod.content` and kept: content is frozen in
//!   play), as a read-only table.
//!
//! At a safe point (`game.ready`, an `input.step` or `core.update` link, a signal) a link may
//! assign `game.save.coins` (0..9999) and `game.save.money` (0..999999): validated and applied
//! to the game at once by the engine's `game_view::write_save_field`; any other field of
//! `game.save`, a value out of range, or a write mid-tick raises, naming the field.
//!
//! Nothing is built unless a link reads one of those keys: the metatable is attached (one raw
//! `setmetatable`, no allocation) only to a `game` argument the wrapper may read
//! ([`crate::reads`]), and to event payloads that carry a `game`. Writes fail closed:
//! assigning a field of `game` or `game.data` (or of `game.save` beyond the writable fields
//! above) raises `"… is read-only …"`;
//! the tables below them are the mod's own copies, so changing them changes nothing in the
//! game (a mod changes the game through `mod.world`, `mod.save` or a hook's answer).

use std::rc::{Rc, Weak};

use mlua::{Lua, Table, Value as LuaValue};

use crate::convert::to_lua;
use crate::mod_state::LuaMod;

/// The named-registry slot of this state's `game` metatable.
const META: &str = "pallet.game_view.meta";
/// The named-registry slot of the state's `game.data` table (built registries kept).
const DATA: &str = "pallet.game_view.data";

fn read_only(what: &'static str) -> impl Fn(&Lua, (Table, LuaValue, LuaValue)) -> mlua::Result<()> {
    move |_, (_, key, _)| {
        let key = match &key {
            LuaValue::String(s) => s.to_string_lossy(),
            other => other.type_name().to_owned(),
        };
        Err(mlua::Error::runtime(format!(
            "{what} is read-only in Pallet: cannot set {what}.{key} (change the game through \
             mod.world, mod.save or a hook's answer)"
        )))
    }
}

/// A read-only view of `inner`: an empty table whose reads go to `inner` and whose writes
/// raise.
fn proxy(lua: &Lua, inner: Table, what: &'static str) -> mlua::Result<Table> {
    let meta = lua.create_table()?;
    meta.raw_set("__index", inner)?;
    meta.raw_set("__newindex", lua.create_function(read_only(what))?)?;
    meta.raw_set("__metatable", false)?;
    let t = lua.create_table()?;
    t.set_metatable(Some(meta))?;
    Ok(t)
}

/// This state's `game` metatable (made on first use; one per mod state).
pub(crate) fn meta(m: &Rc<LuaMod>) -> mlua::Result<Table> {
    let lua = &m.lua;
    crate::handles::registry_table(lua, META, || {
        let weak: Weak<LuaMod> = Rc::downgrade(m);
        let meta = lua.create_table()?;
        meta.raw_set(
            "__index",
            lua.create_function(move |lua, (_, key): (LuaValue, LuaValue)| {
                let Some(m) = weak.upgrade() else {
                    return Ok(LuaValue::Nil);
                };
                match key.as_string().map(|s| s.to_string_lossy()).as_deref() {
                    Some("save") => save(lua),
                    Some("data") => data(lua, &m).map(LuaValue::Table),
                    Some("stack") => stack(lua).map(LuaValue::Table),
                    Some("writeSave") => write_save(lua).map(LuaValue::Function),
                    _ => Ok(LuaValue::Nil),
                }
            })?,
        )?;
        meta.raw_set("__newindex", lua.create_function(read_only("game"))?)?;
        meta.raw_set("__metatable", false)?;
        Ok(meta)
    })
}

/// `game.stack`: `top()` (also `:top()`) answers the engine's duck-typed top screen
/// ([`pallet_engine::save_request::stack_top`], `{isOverworld}`), read when called.
fn stack(lua: &Lua) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    t.raw_set(
        "top",
        lua.create_function(|lua, _: mlua::MultiValue| {
            to_lua(lua, &pallet_engine::save_request::stack_top())
        })?,
    )?;
    proxy(lua, t, "game.stack")
}

/// `game:writeSave()`: the normal save, through the engine
/// ([`pallet_engine::save_request::write_now`]); `true` when written, `false` when a
/// `save.write` link vetoed it; refusals raise.
fn write_save(lua: &Lua) -> mlua::Result<mlua::Function> {
    lua.create_function(|_, _: mlua::MultiValue| {
        pallet_engine::save_request::write_now().map_err(mlua::Error::runtime)
    })
}

fn save(lua: &Lua) -> mlua::Result<LuaValue> {
    let v = pallet_engine::game_view::save_view().map_err(mlua::Error::runtime)?;
    let v = crate::spelling::save_to_lua(v);
    match to_lua(lua, &v)? {
        LuaValue::Table(t) => Ok(LuaValue::Table(save_proxy(lua, t)?)),
        other => Ok(other),
    }
}

/// `game.save`: reads go to the copy `inner`; an assignment goes to the engine's
/// [`pallet_engine::game_view::write_save_field`] (at a safe point, a writable field, a value
/// in range — else it raises, naming the field) and, once applied, into the copy, so the link
/// reads back what it wrote.
fn save_proxy(lua: &Lua, inner: Table) -> mlua::Result<Table> {
    let meta = lua.create_table()?;
    meta.raw_set("__index", &inner)?;
    meta.raw_set(
        "__newindex",
        lua.create_function(move |_, (_, key, value): (Table, LuaValue, LuaValue)| {
            let name = match &key {
                LuaValue::String(s) => s.to_string_lossy(),
                other => other.type_name().to_owned(),
            };
            let v = crate::convert::from_lua(&value)
                .map_err(|e| mlua::Error::runtime(format!("game.save.{name}: {e}")))?;
            pallet_engine::game_view::write_save_field(&name, &v).map_err(mlua::Error::runtime)?;
            inner.raw_set(key, value)
        })?,
    )?;
    meta.raw_set("__metatable", false)?;
    let t = lua.create_table()?;
    t.set_metatable(Some(meta))?;
    Ok(t)
}

fn data(lua: &Lua, m: &Rc<LuaMod>) -> mlua::Result<Table> {
    crate::handles::registry_table(lua, DATA, || {
        let built = lua.create_table()?;
        let weak = Rc::downgrade(m);
        let cache = built.clone();
        let meta = lua.create_table()?;
        meta.raw_set(
            "__index",
            lua.create_function(move |lua, (_, key): (LuaValue, LuaValue)| {
                let (Some(m), Some(name)) = (weak.upgrade(), key.as_string()) else {
                    return Ok(LuaValue::Nil);
                };
                let name = name.to_string_lossy();
                let rows = m.content.each(&name);
                if rows.is_empty() {
                    return Ok(LuaValue::Nil);
                }
                let t = lua.create_table()?;
                for (id, v) in rows {
                    let v = crate::spelling::record_out(&name, v);
                    t.raw_set(id.as_str(), to_lua(lua, &v)?)?;
                }
                cache.raw_set(name.as_str(), &t)?;
                Ok(LuaValue::Table(t))
            })?,
        )?;
        built.set_metatable(Some(meta))?;
        let view = proxy(lua, built, "game.data")?;
        Ok(view)
    })
}

/// Give `t` (a `game` table just converted) the `game` metatable.
pub(crate) fn attach(m: &Rc<LuaMod>, t: &Table) -> mlua::Result<()> {
    t.set_metatable(Some(meta(m)?))?;
    Ok(())
}

/// A `game` whose `save.party` is the list `party` itself (the mon tables a hook's context
/// also holds, so a mod can match them by identity: `battle.exp_award`'s `ctx.alive`); every
/// other key of `save` reads the live view on demand, as `game.save` does, and `game.data`
/// is the one above. Writes to `game` and `game.save` raise.
pub(crate) fn with_party(m: &Rc<LuaMod>, party: &Table) -> mlua::Result<Table> {
    let lua = &m.lua;
    let inner = lua.create_table()?;
    inner.raw_set("party", party)?;
    let rest = lua.create_table()?;
    rest.raw_set(
        "__index",
        lua.create_function(
            |lua, (_, key): (LuaValue, LuaValue)| match self::save(lua)? {
                LuaValue::Table(full) => full.get::<LuaValue>(key),
                _ => Ok(LuaValue::Nil),
            },
        )?,
    )?;
    inner.set_metatable(Some(rest))?;
    let save = proxy(lua, inner, "game.save")?;
    let inner_game = lua.create_table()?;
    inner_game.raw_set("save", save)?;
    attach(m, &inner_game)?;
    proxy(lua, inner_game, "game")
}

/// `mod.game`: a `game` table with nothing of its own (reads `save` / `data` as above).
pub(crate) fn mod_game(m: &Rc<LuaMod>) -> mlua::Result<Table> {
    let t = m.lua.create_table()?;
    attach(m, &t)?;
    Ok(t)
}
