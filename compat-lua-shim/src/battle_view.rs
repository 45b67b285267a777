//! `battle.started`'s `ev.battle` as the Lua engine's mods use it: `ev.battle:tryRun()` asks
//! to run from the current wild battle. The run is the `world` facade's `try_run`, deferred
//! from inside the battle's opening to the end of the tick (or applied at once at a safe
//! point), and goes through `battle.run`, so a mod's wrapper there can force it. It answers
//! `true` once accepted, else `nil, reason, message`; a refusal when applied (a trainer
//! battle: `"cannot run from a trainer battle"`) is written to the mod's log.

use std::rc::Rc;

use mlua::{Function, MultiValue, Table, Value as LuaValue};

use crate::mod_state::LuaMod;

const KEY: &str = "pallet.battle_try_run";

/// Put `tryRun` on the payload's `battle` table (absent or not a table: nothing to do).
pub(crate) fn attach(m: &Rc<LuaMod>, payload: &Table) -> mlua::Result<()> {
    let LuaValue::Table(battle) = payload.raw_get::<LuaValue>("battle")? else {
        return Ok(());
    };
    battle.raw_set("tryRun", try_run(m)?)
}

/// The mod's one `tryRun` function (built on first use).
fn try_run(m: &Rc<LuaMod>) -> mlua::Result<Function> {
    let lua = &m.lua;
    if let Some(f) = lua.named_registry_value::<Option<Function>>(KEY)? {
        return Ok(f);
    }
    let owner: Rc<str> = m.id.as_str().into();
    let f = lua.create_function(move |lua, _: MultiValue| {
        match pallet_engine::world_facade::call_lent_by(Some(&owner), "try_run", &[]) {
            Ok(_) => Ok(MultiValue::from_iter([LuaValue::Boolean(true)])),
            Err(f) => Ok(MultiValue::from_iter([
                LuaValue::Nil,
                LuaValue::String(lua.create_string(f.reason)?),
                LuaValue::String(lua.create_string(&f.message)?),
            ])),
        }
    })?;
    lua.set_named_registry_value(KEY, &f)?;
    Ok(f)
}
