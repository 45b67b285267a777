//! Map-script handlers given as Rhai **function pointers** (issue 18 item 6), the twin of the
//! Lua shim's `map_handlers`: `content.register("map_scripts", MAP, #{ onEnter: |game, ow| …,
//! talk: #{ TEXT: Fn("greet") } })`.
//!
//! Function pointers never cross into the engine's data. `register` splits them out
//! ([`split`]): the data part (script-op lists, anything else) goes to the `map_scripts`
//! registry as before; each function pointer goes to the host's handler table with its mod
//! (weakly), map id and trigger (`onEnter` or `talk:<TEXT>`). [`install`] contributes one
//! [`Handler::Dyn`] per handler to a booted game's map-script registry under the mod's id and
//! manifest priority. A handler whose mod is gone (its entry failed and was rolled back, or it
//! was unloaded) does nothing; nothing of it is in game state, saves or checkpoints. Each run
//! is one call under the dispatch budget; an error is reported for the mod and returned to the
//! engine, which reports it and never stops the game.
//!
//! Arguments: `game` = `#{mapId}`, `ow` = `#{mapId, player: #{cellX, cellY}}` (data copies).

use std::collections::BTreeMap;
use std::rc::{Rc, Weak};

use pallet_engine::world::map_scripts::{self, Contribution, Handler, MapScriptRegistry};
use pallet_engine::world::map_step_handlers::{self, StepHandler};
use rhai::{Dynamic, FnPtr, Map};

use super::limits::LIMITS;
use super::vm::{HostShared, ModVm, Origin, RhaiMapHandler};
use crate::host::convert::to_dynamic;

/// Take the function pointers out of a `map_scripts` record: `onEnter` and the values of
/// `talk`. Returns the `(trigger, fn)` pairs; the record keeps only data.
pub fn split(record: &mut Dynamic) -> Vec<(String, FnPtr)> {
    let mut out = Vec::new();
    let Some(mut map) = record.read_lock::<Map>().map(|m| m.clone()) else {
        return out;
    };
    for trigger in ["onEnter", "onStep", "onInteract"] {
        if map.get(trigger).is_some_and(Dynamic::is_fnptr) {
            if let Some(f) = map.remove(trigger).and_then(|d| d.try_cast::<FnPtr>()) {
                out.push((trigger.to_owned(), f));
            }
        }
    }
    if let Some(talk) = map
        .get("talk")
        .and_then(|t| t.read_lock::<Map>().map(|m| m.clone()))
    {
        let mut data = Map::new();
        for (text, v) in talk {
            if v.is_fnptr() {
                if let Some(f) = v.try_cast::<FnPtr>() {
                    out.push((format!("talk:{text}"), f));
                }
            } else {
                data.insert(text, v);
            }
        }
        map.insert("talk".into(), Dynamic::from_map(data));
    }
    if !out.is_empty() {
        *record = Dynamic::from_map(map);
    }
    out
}

/// Record `vm`'s handlers for `map` (a later registration of the same trigger replaces the
/// earlier one).
pub fn keep(vm: &Rc<ModVm>, map: &str, handlers: Vec<(String, FnPtr)>, origin: &Origin) {
    let mut table = vm.host.map_handlers.borrow_mut();
    for (trigger, f) in handlers {
        let same = |h: &RhaiMapHandler| {
            h.vm.ptr_eq(&Rc::downgrade(vm)) && h.map == map && h.trigger == trigger
        };
        for h in table.iter().filter(|h| same(h)) {
            if let Some(slot) = h.held_slot {
                vm.held.release(slot);
            }
        }
        table.retain(|h| !same(h));
        // Over the quota the mod is stopped (its handlers and links refused when they run).
        let held_slot = vm.held.register(&f).ok();
        table.push(RhaiMapHandler {
            vm: Rc::downgrade(vm),
            map: map.to_owned(),
            trigger,
            f,
            origin: origin.clone(),
            held_slot,
        });
    }
}

/// Where a handler runs: its mod, function and origin, its map and trigger.
struct Site {
    vm: Weak<ModVm>,
    f: FnPtr,
    origin: Origin,
    map: String,
    trigger: String,
    held_slot: Option<usize>,
}

fn run(site: &Site, ow: &pallet_engine::world::Overworld) -> Result<(), String> {
    let Site {
        f,
        origin,
        map,
        trigger,
        ..
    } = site;
    let Some(vm) = site.vm.upgrade() else {
        return Ok(());
    };
    // A mod stopped by `rhai.max_held_bytes` runs no more.
    vm.held
        .check()
        .map_err(|e| format!("{map}.{trigger}: {e}"))?;
    let (game, view) = map_scripts::handler_args(ow);
    let outcome = vm
        .call(
            f,
            vec![to_dynamic(&game), to_dynamic(&view)],
            LIMITS.dispatch_budget,
            origin,
        )
        .and_then(|d| match site.held_slot {
            Some(slot) => vm
                .held
                .after_call(slot, f)
                .map(|()| d)
                .map_err(|e| vm.plain_error(&e)),
            None => Ok(d),
        });
    match outcome {
        Ok(_) => Ok(()),
        Err(diag) => {
            let short = diag.short();
            vm.host.report(diag);
            Err(format!("{map}.{trigger}: {short}"))
        }
    }
}

/// Run `onStep`/`onInteract` for cell `(x, y)`: `f(game, ow, x, y)` with the data copies of
/// [`map_step_handlers::step_args`]. The answer: `true` consumes the event; an op list (an
/// array of rows) is queued as a script and consumes it; `false` or `()` does not.
#[allow(clippy::too_many_arguments)]
fn run_step(
    vm: &Weak<ModVm>,
    f: &FnPtr,
    origin: &Origin,
    map: &str,
    trigger: &str,
    ow: &mut pallet_engine::world::Overworld,
    ctx: &mut pallet_engine::world::WorldCtx<'_>,
    x: i64,
    y: i64,
) -> Result<bool, String> {
    let Some(vm) = vm.upgrade() else {
        return Ok(false);
    };
    let at = |e: String| format!("{map}.{trigger}: {e}");
    let (game, view) = map_step_handlers::step_args(ow, ctx);
    let answer = match vm.call(
        f,
        vec![
            to_dynamic(&game),
            to_dynamic(&view),
            Dynamic::from_int(x),
            Dynamic::from_int(y),
        ],
        LIMITS.dispatch_budget,
        origin,
    ) {
        Ok(a) => a,
        Err(diag) => {
            let short = diag.short();
            vm.host.report(diag);
            return Err(at(short));
        }
    };
    if let Some(b) = answer.clone().try_cast::<bool>() {
        return Ok(b);
    }
    if answer.is_unit() {
        return Ok(false);
    }
    if answer.is_array() {
        let rows = crate::host::convert::from_dynamic(&answer).map_err(at)?;
        let source = format!("{map}.{trigger}");
        map_step_handlers::queue_rows(ow, ctx, &source, &rows).map_err(at)?;
        return Ok(true);
    }
    Err(at(format!(
        "a step handler answers true, false or an op list, got {}",
        answer.type_name()
    )))
}

/// The seam: contribute every live Rhai mod's function-pointer handlers to `registry` (call
/// once, before the game enters the overworld). Returns how many were installed.
pub fn install(host: &HostShared, registry: &mut MapScriptRegistry) -> usize {
    let mut by_owner: BTreeMap<(String, String), Contribution> = BTreeMap::new();
    let mut count = 0;
    for h in host.map_handlers.borrow().iter() {
        let Some(vm) = h.vm.upgrade() else {
            continue;
        };
        let site = Site {
            vm: h.vm.clone(),
            f: h.f.clone(),
            origin: h.origin.clone(),
            map: h.map.clone(),
            trigger: h.trigger.clone(),
            held_slot: h.held_slot,
        };
        let handler = Handler::Dyn(Rc::new(move |ow, _ctx| run(&site, ow)));
        let c = by_owner.entry((vm.id.clone(), h.map.clone())).or_default();
        match (h.trigger.strip_prefix("talk:"), h.trigger.as_str()) {
            (Some(text), _) => {
                c.talk.insert(text.to_owned(), handler);
            }
            (None, "onStep" | "onInteract") => {
                let (w, f, origin) = (h.vm.clone(), h.f.clone(), h.origin.clone());
                let (map, trigger) = (h.map.clone(), h.trigger.clone());
                let step = StepHandler(Rc::new(move |ow, ctx, x, y| {
                    run_step(&w, &f, &origin, &map, &trigger, ow, ctx, x, y)
                }));
                if h.trigger == "onStep" {
                    c.on_step = Some(step);
                } else {
                    c.on_interact = Some(step);
                }
            }
            (None, _) => c.on_enter = Some(handler),
        }
        count += 1;
    }
    let priorities = host.priorities.borrow();
    for ((owner, map), c) in by_owner {
        let priority = priorities.get(&owner).copied().unwrap_or(100);
        registry.contribute(&map, &owner, priority, c);
    }
    count
}
