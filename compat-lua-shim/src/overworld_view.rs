//! `mod.world:overworld()` as the Lua engine's mods read it: the engine's record
//! (`pallet_engine::world_values::overworld_of`: `{map, player, entities}`, a copy) with
//!
//! * `map:isGrassCell(x, y)`, `map:isWaterCell(x, y)` and `map:isWalkable(x, y)` (methods on a
//!   shared metatable, reading the record's `rows`; a cell outside the map, or a coordinate
//!   that is not a whole number, is `false`);
//! * one **player table per state**: `overworld().player` is always the same table (its fields
//!   refreshed on each call), and `movement.collision`'s `ctx.mover` is that table when the
//!   player moves, so `ctx.mover == ow.player` holds as in the Lua engine.

use mlua::{Lua, Table, Value as LuaValue};
use pallet_api::Value;

use crate::convert::to_lua;

/// The named-registry slot of the state's player table.
const PLAYER: &str = "pallet.overworld.player";
/// The named-registry slot of the map tables' metatable.
const MAP_META: &str = "pallet.overworld.map_meta";

/// The `overworld()` record `v` as a Lua table.
pub(crate) fn to_lua_view(lua: &Lua, v: &Value) -> mlua::Result<LuaValue> {
    let out = to_lua(lua, v)?;
    let LuaValue::Table(t) = &out else {
        return Ok(out);
    };
    if let LuaValue::Table(map) = t.raw_get::<LuaValue>("map")? {
        map.set_metatable(Some(map_meta(lua)?))?;
    }
    if let LuaValue::Table(fresh) = t.raw_get::<LuaValue>("player")? {
        let player = player_table(lua)?;
        refresh(&player, &fresh)?;
        t.raw_set("player", player)?;
    }
    Ok(out)
}

/// `ctx` of a `movement.collision` link: a player mover becomes the state's player table.
pub(crate) fn collision_mover(lua: &Lua, ctx: &Table) -> mlua::Result<()> {
    let LuaValue::Table(mover) = ctx.raw_get::<LuaValue>("mover")? else {
        return Ok(());
    };
    let is_player = matches!(
        mover.raw_get::<LuaValue>("kind")?,
        LuaValue::String(s) if s.as_bytes() == b"player"
    );
    if is_player {
        let player = player_table(lua)?;
        player.raw_set("kind", "player")?;
        ctx.raw_set("mover", player)?;
    }
    Ok(())
}

/// The state's one player table (created on first use).
fn player_table(lua: &Lua) -> mlua::Result<Table> {
    crate::handles::registry_table(lua, PLAYER, || {
        let t = lua.create_table()?;
        Ok(t)
    })
}

/// Make `player` hold exactly `fresh`'s fields.
fn refresh(player: &Table, fresh: &Table) -> mlua::Result<()> {
    let old: Vec<LuaValue> = player
        .clone()
        .pairs::<LuaValue, LuaValue>()
        .map(|kv| kv.map(|(k, _)| k))
        .collect::<mlua::Result<_>>()?;
    for k in old {
        player.raw_set(k, LuaValue::Nil)?;
    }
    for kv in fresh.clone().pairs::<LuaValue, LuaValue>() {
        let (k, v) = kv?;
        player.raw_set(k, v)?;
    }
    Ok(())
}

/// The cell character at `(x, y)` of `map.rows` (`None` outside the map or for a coordinate
/// that is not a whole number).
fn cell_at(map: &Table, x: &LuaValue, y: &LuaValue) -> mlua::Result<Option<u8>> {
    let whole = |v: &LuaValue| match v {
        LuaValue::Integer(i) => usize::try_from(*i).ok(),
        LuaValue::Number(n) if n.fract() == 0.0 && *n >= 0.0 && *n < 1e9 => Some(*n as usize),
        _ => None,
    };
    let (Some(x), Some(y)) = (whole(x), whole(y)) else {
        return Ok(None);
    };
    let LuaValue::Table(rows) = map.raw_get::<LuaValue>("rows")? else {
        return Ok(None);
    };
    match rows.raw_get::<LuaValue>(y + 1)? {
        LuaValue::String(row) => Ok(row.as_bytes().get(x).copied()),
        _ => Ok(None),
    }
}

fn map_meta(lua: &Lua) -> mlua::Result<Table> {
    crate::handles::registry_table(lua, MAP_META, || {
        let methods = lua.create_table()?;
        let cell_test = |wanted: &'static [u8]| {
            lua.create_function(move |_, (map, x, y): (Table, LuaValue, LuaValue)| {
                Ok(cell_at(&map, &x, &y)?.is_some_and(|c| wanted.contains(&c)))
            })
        };
        methods.raw_set("isGrassCell", cell_test(b",")?)?;
        methods.raw_set("isWaterCell", cell_test(b"~")?)?;
        methods.raw_set("isWalkable", cell_test(b".,+")?)?;
        let meta = lua.create_table()?;
        meta.raw_set("__index", methods)?;
        meta.raw_set("__metatable", false)?;
        Ok(meta)
    })
}
