//! Map-script handlers given as Lua **functions** (issue 18 item 6): `content.map_scripts:
//! register(map, { onEnter = function(game, ow) … end, talk = { [TEXT] = function … } })`.
//!
//! Functions never cross into the engine's data. `register` splits them out: the data part
//! (script-op lists, anything else) goes to the `map_scripts` registry as before, and each
//! function goes to its mod's own handler table, keyed by map id and trigger (`onEnter` or
//! `talk:<TEXT>`). The engine reaches them through one narrow seam, [`install`], which
//! contributes a [`Handler::Dyn`] per handler to the game's map-script registry under the mod's
//! id and manifest priority. The handler holds only a weak reference to its mod: when the mod
//! is unloaded (or its entry failed and was rolled back) the table is gone and the handler does
//! nothing. Nothing of it is in game state, saves or checkpoints. Each run is charged to the
//! shared dispatch budget like a hook call; an error (or the budget stop) is reported by the
//! engine for the owner and never stops the game.
//!
//! Arguments: `game` = `{mapId}`, `ow` = `{mapId, player = {cellX, cellY}}` (data copies).

use std::rc::{Rc, Weak};

use mlua::{Function, Table, Value as LuaValue};
use pallet_api::budget::DISPATCH_LIMIT;
use pallet_engine::world::map_scripts::{self, Contribution, Handler, MapScriptRegistry};
use pallet_engine::world::map_step_handlers::{self, StepHandler};

use crate::convert::to_lua;
use crate::mod_state::LuaMod;
use crate::sandbox::budget_stopped;

/// The trigger key of a talk handler for text constant `text`.
pub fn talk_key(text: &str) -> String {
    format!("talk:{text}")
}

/// Split the functions out of a `map_scripts` record table: returns the data-only copy to
/// register and the `(trigger, function)` pairs. Only `onEnter` and `talk` entries may be
/// functions, and `onStep`/`onInteract` (anything else stays and is refused as before, naming
/// the field).
pub fn split(
    lua: &mlua::Lua,
    record: &LuaValue,
) -> mlua::Result<(LuaValue, Vec<(String, Function)>)> {
    let LuaValue::Table(t) = record else {
        return Ok((record.clone(), Vec::new()));
    };
    let mut handlers = Vec::new();
    let copy: Table = lua.create_table()?;
    for pair in t.pairs::<LuaValue, LuaValue>() {
        let (k, v) = pair?;
        let key = match &k {
            LuaValue::String(s) => s.to_string_lossy(),
            _ => String::new(),
        };
        match (key.as_str(), v) {
            ("onEnter", LuaValue::Function(f)) => handlers.push(("onEnter".to_owned(), f)),
            (trigger @ ("onStep" | "onInteract"), LuaValue::Function(f)) => {
                handlers.push((trigger.to_owned(), f))
            }
            ("talk", LuaValue::Table(talk)) => {
                let data = lua.create_table()?;
                for pair in talk.pairs::<LuaValue, LuaValue>() {
                    let (tk, tv) = pair?;
                    match (&tk, tv) {
                        (LuaValue::String(s), LuaValue::Function(f)) => {
                            handlers.push((talk_key(&s.to_string_lossy()), f))
                        }
                        (_, tv) => data.raw_set(tk, tv)?,
                    }
                }
                copy.raw_set(k, data)?;
            }
            (_, v) => copy.raw_set(k, v)?,
        }
    }
    Ok((LuaValue::Table(copy), handlers))
}

/// Record `m`'s function handlers for `map` (a later registration of the same trigger
/// replaces the earlier one).
pub fn keep(m: &Rc<LuaMod>, map: &str, handlers: Vec<(String, Function)>) {
    if handlers.is_empty() {
        return;
    }
    let mut table = m.map_handlers.borrow_mut();
    for (trigger, f) in handlers {
        table.insert((map.to_owned(), trigger), f);
    }
    let mut owners = m.host.handler_owners.borrow_mut();
    if !owners.iter().any(|w| w.ptr_eq(&Rc::downgrade(m))) {
        owners.push(Rc::downgrade(m));
    }
}

fn run(
    m: &Weak<LuaMod>,
    map: &str,
    trigger: &str,
    ow: &pallet_engine::world::Overworld,
) -> Result<(), String> {
    let Some(m) = m.upgrade() else {
        return Ok(());
    };
    let Some(f) = m
        .map_handlers
        .borrow()
        .get(&(map.to_owned(), trigger.to_owned()))
        .cloned()
    else {
        return Ok(());
    };
    if m.flood.flooded.get() {
        return Err(format!(
            "{map}.{trigger}: {}",
            crate::string_flood::FLOOD_MESSAGE
        ));
    }
    let budget = m.host.budget.clone();
    let _frame = budget.enter(DISPATCH_LIMIT);
    let (game, view) = map_scripts::handler_args(ow);
    let lua = &m.lua;
    let args = (
        to_lua(lua, &game).map_err(|e| e.to_string())?,
        to_lua(lua, &view).map_err(|e| e.to_string())?,
    );
    match f.call::<()>(args) {
        Ok(()) => Ok(()),
        Err(_) if budget_stopped(&budget) => Err(format!(
            "{map}.{trigger}: {}",
            crate::errors::BUDGET_MESSAGE
        )),
        Err(e) => Err(format!("{map}.{trigger}: {}", crate::errors::short(&e))),
    }
}

/// Run `onStep`/`onInteract` for cell `(x, y)`: `f(game, ow, x, y)` with the data copies of
/// [`map_step_handlers::step_args`] and `ow:queueScript(rows)` (rows queued after the call, in
/// order). Returns whether the handler consumed the event (a truthy return).
fn run_step(
    m: &Weak<LuaMod>,
    map: &str,
    trigger: &str,
    ow: &mut pallet_engine::world::Overworld,
    ctx: &mut pallet_engine::world::WorldCtx<'_>,
    x: i64,
    y: i64,
) -> Result<bool, String> {
    let Some(m) = m.upgrade() else {
        return Ok(false);
    };
    let Some(f) = m
        .map_handlers
        .borrow()
        .get(&(map.to_owned(), trigger.to_owned()))
        .cloned()
    else {
        return Ok(false);
    };
    let at = |e: String| format!("{map}.{trigger}: {e}");
    if m.flood.flooded.get() {
        return Err(at(crate::string_flood::FLOOD_MESSAGE.to_owned()));
    }
    let budget = m.host.budget.clone();
    let _frame = budget.enter(DISPATCH_LIMIT);
    let (mut game, view) = map_step_handlers::step_args(ow, ctx);
    // `game.save.party` in the Lua engine's spelling (`crate::spelling`; never written back).
    if let pallet_api::Value::Map(g) = &mut game {
        if let Some(save) = g.remove("save") {
            g.insert("save".to_owned(), crate::spelling::save_to_lua(save));
        }
    }
    let lua = &m.lua;
    let queued: Rc<std::cell::RefCell<Vec<pallet_api::Value>>> = Rc::default();
    let game_table = to_lua(lua, &game).map_err(|e| at(e.to_string()))?;
    let call = || -> mlua::Result<LuaValue> {
        let game = game_table.clone();
        let view = to_lua(lua, &view)?;
        if let LuaValue::Table(t) = &view {
            let q = Rc::clone(&queued);
            let queue = lua.create_function(move |_, (_this, rows): (LuaValue, LuaValue)| {
                let rows = crate::convert::from_lua(&rows)
                    .map_err(|e| mlua::Error::runtime(format!("queueScript: {e}")))?;
                q.borrow_mut().push(rows);
                Ok(())
            })?;
            t.raw_set("queueScript", queue)?;
        }
        f.call::<LuaValue>((game, view, x, y))
    };
    let answer = match call() {
        Ok(v) => v,
        Err(_) if budget_stopped(&budget) => {
            return Err(at(crate::errors::BUDGET_MESSAGE.to_owned()))
        }
        Err(e) => return Err(at(crate::errors::short(&e))),
    };
    // What the handler wrote into `game.save.flags` / `inventory` (data copies) is applied.
    let save_after = match &game_table {
        LuaValue::Table(t) => match t.raw_get::<LuaValue>("save") {
            Ok(v) => crate::convert::from_lua(&v).map_err(|e| at(format!("game.save: {e}")))?,
            Err(e) => return Err(at(e.to_string())),
        },
        _ => pallet_api::Value::Nil,
    };
    let save_before = game.get("save").cloned().unwrap_or_default();
    map_step_handlers::write_back(ow, ctx, &save_before, &save_after).map_err(at)?;
    let source = format!("{map}.{trigger}");
    for rows in queued.borrow().iter() {
        map_step_handlers::queue_rows(ow, ctx, &source, rows).map_err(at)?;
    }
    Ok(!matches!(answer, LuaValue::Nil | LuaValue::Boolean(false)))
}

/// The seam: contribute every live Lua mod's function handlers of `host` to `registry` as
/// [`Handler::Dyn`] (call once, before the game starts). Returns how many were installed.
pub fn install(host: &crate::mod_state::HostShared, registry: &mut MapScriptRegistry) -> usize {
    let mut count = 0;
    for weak in host.handler_owners.borrow().iter() {
        let Some(m) = weak.upgrade() else {
            continue;
        };
        let mut by_map: std::collections::BTreeMap<String, Contribution> = Default::default();
        for (map, trigger) in m.map_handlers.borrow().keys() {
            let (w, map_id, trig) = (Rc::downgrade(&m), map.clone(), trigger.clone());
            let handler = Handler::Dyn(Rc::new(move |ow, _ctx| run(&w, &map_id, &trig, ow)));
            let c = by_map.entry(map.clone()).or_default();
            match (trigger.strip_prefix("talk:"), trigger.as_str()) {
                (Some(text), _) => {
                    c.talk.insert(text.to_owned(), handler);
                }
                (None, "onStep" | "onInteract") => {
                    let (w, map_id, trig) = (Rc::downgrade(&m), map.clone(), trigger.clone());
                    let step = StepHandler(Rc::new(move |ow, ctx, x, y| {
                        run_step(&w, &map_id, &trig, ow, ctx, x, y)
                    }));
                    if trigger == "onStep" {
                        c.on_step = Some(step);
                    } else {
                        c.on_interact = Some(step);
                    }
                }
                (None, _) => c.on_enter = Some(handler),
            }
            count += 1;
        }
        for (map, c) in by_map {
            registry.contribute(&map, &m.id, m.priority, c);
        }
    }
    count
}
