//! `map_scripts` as data: every mod contribution (`{talk = {TEXT = ops}, onEnter = ops,
//! replacesBase, priority}`) compiled into script rows of the runner (its op lists by
//! [`crate::world::script::ops`]), composed with the engine's base handlers in the map-script
//! registry.

use pallet_api::content::{Content, BASE_OWNER};
use pallet_api::Value;

use super::problems::Problems;
use crate::data::Dataset;
use crate::world::base_scripts::base_registry;
use crate::world::map_scripts::{Contribution, Handler, MapScriptRegistry};
use crate::world::script::ops::compile_ops;
use crate::world::script::ScriptRow;
use crate::world::MapSet;

/// Every `toggle_object` row names a map of `maps` and an object of that map.
fn check_toggles(rows: &[ScriptRow], maps: &MapSet) -> Result<Vec<ScriptRow>, String> {
    for (i, row) in rows.iter().enumerate() {
        if let ScriptRow::ToggleObject { map, object, .. } = row {
            crate::world::objects::check_toggle(maps, map, object)
                .map_err(|e| format!("[{}]: toggle_object: {e}", i + 1))?;
        }
    }
    Ok(rows.to_vec())
}

/// The base registry plus every data contribution of the merged `map_scripts` registry. A
/// contribution for a cartridge map the embedded world lacks is checked like any other and
/// reported in `notes`; one for a map that is neither fails its mod.
pub fn compile_map_scripts(
    content: &Content,
    data: &Dataset,
    maps: &MapSet,
    problems: &mut Problems,
    notes: &mut Vec<super::problems::ContentProblem>,
) -> MapScriptRegistry {
    let mut registry = base_registry();
    let Some(reg) = content.registry("map_scripts") else {
        return registry;
    };
    for (map_id, list) in reg.each() {
        if maps.get(map_id).is_none() && super::gen1_map_ids::is_cartridge_map(map_id) {
            // A map of the cartridge the embedded world lacks: its ops are still checked
            // below (a bad op fails the mod), and the scripts wait for a world that has it.
            notes.push(super::problems::ContentProblem {
                owner: reg.last_owner(map_id).unwrap_or(BASE_OWNER).to_owned(),
                registry: "map_scripts".into(),
                id: map_id.to_owned(),
                message: format!(
                    "map_scripts.{map_id}: {map_id} is a cartridge map Pallet's embedded world \
                     does not have; these scripts never run"
                ),
            });
        } else if maps.get(map_id).is_none() {
            problems.blame(
                reg,
                map_id,
                format!("map_scripts.{map_id}: no map {map_id}"),
            );
            continue;
        }
        for c in list.as_list().unwrap_or(&[]) {
            let owner = c.get("owner").and_then(Value::as_str).unwrap_or(BASE_OWNER);
            if owner == BASE_OWNER {
                continue;
            }
            let mut contribution = Contribution {
                replaces_base: c.get("replacesBase").and_then(Value::as_bool) == Some(true),
                ..Default::default()
            };
            let mut blame = |m: String| {
                problems.0.push(super::problems::ContentProblem {
                    owner: owner.to_owned(),
                    registry: "map_scripts".into(),
                    id: map_id.to_owned(),
                    message: m,
                })
            };
            let compile = |ops: &Value| {
                compile_ops(ops, data, &maps.texts).and_then(|rows| check_toggles(&rows, maps))
            };
            if let Some(ops) = c.get("onEnter") {
                match compile(ops) {
                    Ok(rows) => contribution.on_enter = Some(Handler::Rows(rows)),
                    Err(e) => blame(format!("map_scripts.{map_id}.onEnter{e}")),
                }
            }
            for (text, ops) in c.get("talk").and_then(Value::as_map).into_iter().flatten() {
                let handler = if matches!(ops, Value::Bool(false)) {
                    Ok(Handler::Suppress)
                } else {
                    compile(ops).map(Handler::Rows)
                };
                match handler {
                    Ok(h) => {
                        contribution.talk.insert(text.clone(), h);
                    }
                    Err(e) => blame(format!("map_scripts.{map_id}.talk.{text}{e}")),
                }
            }
            let priority = c
                .get("priority")
                .and_then(Value::as_exact_int)
                .unwrap_or(0)
                .clamp(-1000, 1000) as i32;
            registry.contribute(map_id, owner, priority, contribution);
        }
    }
    registry
}
