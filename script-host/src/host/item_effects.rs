//! Item effects given as Rhai **function pointers** (issue 18 item 8), the twin of the Lua
//! shim's `item_effects`: `content.register("item_effects", ID, #{ field: true, use: |ctx| …
//! })` with `content.patch("items", ITEM, #{ effect: ID })`.
//!
//! [`split`] takes `use` out of the record (the flags go to the `item_effects` registry); a
//! `register`/`override` record without a `use` function pointer is refused, naming the field.
//! [`effect_fn`] wraps the kept pointer for the engine
//! ([`pallet_engine::game::item_effects::ItemEffectFn`]), holding its mod weakly. The callback
//! gets the context map and answers with a map `#{result, messages, save}` (or just the result
//! string); each run is one call under the dispatch budget, an error is reported for the mod.

use std::rc::{Rc, Weak};

use pallet_api::Value;
use pallet_engine::game::item_effects::ItemEffectFn;
use rhai::{Dynamic, FnPtr, Map};

use super::limits::LIMITS;
use super::vm::{HostShared, ModVm, Origin, RhaiItemEffect};
use crate::host::convert::{from_dynamic, to_dynamic};

/// Take `use` out of an `item_effects` record for `op`; `Err` names what is wrong.
pub fn split(op: &str, id: &str, record: &mut Dynamic) -> Result<Option<FnPtr>, String> {
    let what = format!("content.{op}(\"item_effects\", \"{id}\")");
    let Some(mut map) = record.read_lock::<Map>().map(|m| m.clone()) else {
        return Err(format!("{what}: the record must be a map"));
    };
    let f = match map.remove("use") {
        Some(d) if d.is_fnptr() => d.try_cast::<FnPtr>(),
        Some(d) => {
            return Err(format!(
                "{what}: use must be a function pointer, got {}",
                d.type_name()
            ))
        }
        None => None,
    };
    if f.is_none() && op != "patch" {
        return Err(format!("{what}: use must be a function pointer, got ()"));
    }
    *record = Dynamic::from_map(map);
    Ok(f)
}

/// Keep `vm`'s pointer for `effect` (a later one of the same mod replaces it).
pub fn keep(vm: &Rc<ModVm>, effect: &str, f: FnPtr, origin: &Origin) {
    let mut table = vm.host.item_effects.borrow_mut();
    table.retain(|h| !(h.vm.ptr_eq(&Rc::downgrade(vm)) && h.effect == effect));
    table.push(RhaiItemEffect {
        vm: Rc::downgrade(vm),
        effect: effect.to_owned(),
        f,
        origin: origin.clone(),
    });
}

fn call(vm: &Weak<ModVm>, f: &FnPtr, origin: &Origin, ctx: &Value) -> Result<Value, String> {
    let Some(vm) = vm.upgrade() else {
        return Err("the mod is unloaded".to_owned());
    };
    match vm.call(f, vec![to_dynamic(ctx)], LIMITS.dispatch_budget, origin) {
        Ok(answer) => {
            let v = from_dynamic(&answer)?;
            // A bare result string is the result alone.
            Ok(match v {
                Value::Str(_) | Value::Nil => Value::map([("result", v)]),
                other => other,
            })
        }
        Err(diag) => {
            let short = diag.short();
            vm.host.report(diag);
            Err(short)
        }
    }
}

/// The pointer a live Rhai mod of `host` keeps for `effect`, wrapped for the engine, and its
/// mod's id (the last one kept wins).
pub fn effect_fn(host: &HostShared, effect: &str) -> Option<(String, Rc<ItemEffectFn>)> {
    let table = host.item_effects.borrow();
    table.iter().rev().find_map(|h| {
        let vm = h.vm.upgrade()?;
        if h.effect != effect {
            return None;
        }
        let (w, f, origin) = (h.vm.clone(), h.f.clone(), h.origin.clone());
        let run: Rc<ItemEffectFn> = Rc::new(move |ctx: &Value| call(&w, &f, &origin, ctx));
        Some((vm.id.clone(), run))
    })
}
