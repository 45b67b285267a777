//! `map_scripts` as data: every mod contribution (`{talk = {TEXT = ops}, onEnter = ops,
//! replacesBase, priority}`) compiled into script rows of the runner, composed with the
//! engine's base handlers in the map-script registry.
//!
//! Ops are records `{op = "<name>", …}` (`cmd` is accepted for `op`): `show_text {text}` (a
//! text constant of the text table, else literal text), `give_item {item, count = 1}`,
//! `give_pokemon {species, level}`, `check_flag {flag}`, `set_flag {flag}`,
//! `clear_flag {flag}`, `jump {label}`, `jump_if_true {label}`, `jump_if_false {label}`,
//! `label {name}`, `end`. Jumps go forward to a label of the same list (checked here).

use std::collections::BTreeMap;

use pallet_api::content::{Content, BASE_OWNER};
use pallet_api::Value;

use super::compile::Problems;
use crate::data::Dataset;
use crate::world::base_scripts::base_registry;
use crate::world::map_scripts::{Contribution, Handler, MapScriptRegistry};
use crate::world::script::ScriptRow;
use crate::world::MapSet;

fn field<'a>(op: &'a Value, key: &str) -> Result<&'a str, String> {
    op.get(key)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .ok_or_else(|| format!("needs a string `{key}`"))
}

/// One op list → rows. `Err` names the op (1-based) and what is wrong.
pub fn compile_ops(
    ops: &Value,
    data: &Dataset,
    texts: &BTreeMap<String, String>,
) -> Result<Vec<ScriptRow>, String> {
    let list = ops.as_list().ok_or("an op list must be a list")?;
    let mut rows = Vec::with_capacity(list.len());
    let mut labels: Vec<(usize, String)> = Vec::new();
    let mut jumps: Vec<(usize, String)> = Vec::new();
    for (i, op) in list.iter().enumerate() {
        let n = i + 1;
        let at = |e: String| format!("[{n}]: {e}");
        let name = op
            .get("op")
            .or_else(|| op.get("cmd"))
            .and_then(Value::as_str)
            .ok_or_else(|| at("an op needs `op`".into()))?;
        let row = match name {
            "show_text" => {
                let text = field(op, "text").map_err(at)?;
                if texts.contains_key(text) {
                    ScriptRow::Text { text: text.into() }
                } else {
                    ScriptRow::Say {
                        literal: text.into(),
                    }
                }
            }
            "give_item" => {
                let item = field(op, "item").map_err(at)?;
                if data.item_by_name(item).is_none() {
                    return Err(at(format!("give_item: {item:?} is not an item")));
                }
                let count = op.get("count").and_then(Value::as_exact_int).unwrap_or(1);
                ScriptRow::GiveItem {
                    item: item.into(),
                    count: count.clamp(1, 99) as u32,
                }
            }
            "give_pokemon" => {
                let species = field(op, "species").map_err(at)?;
                if data.species_by_name(species).is_none() {
                    return Err(at(format!("give_pokemon: {species:?} is not a species")));
                }
                let level = op.get("level").and_then(Value::as_exact_int).unwrap_or(5);
                ScriptRow::GivePokemon {
                    species: species.into(),
                    level: level.clamp(1, 100) as u8,
                }
            }
            "check_flag" => ScriptRow::CheckFlag {
                flag: field(op, "flag").map_err(at)?.into(),
            },
            "set_flag" => ScriptRow::SetFlag {
                flag: field(op, "flag").map_err(at)?.into(),
            },
            "clear_flag" => ScriptRow::ClearFlag {
                flag: field(op, "flag").map_err(at)?.into(),
            },
            "jump" | "jump_if_true" | "jump_if_false" => {
                let label = field(op, "label").map_err(at)?.to_owned();
                jumps.push((i, label.clone()));
                match name {
                    "jump" => ScriptRow::Jump { label },
                    "jump_if_true" => ScriptRow::JumpIfTrue { label },
                    _ => ScriptRow::JumpIfFalse { label },
                }
            }
            "label" => {
                let label = field(op, "name")
                    .or_else(|_| field(op, "label"))
                    .map_err(at)?
                    .to_owned();
                labels.push((i, label.clone()));
                ScriptRow::Label { name: label }
            }
            "end" => ScriptRow::End,
            other => return Err(at(format!("unknown op {other:?}"))),
        };
        rows.push(row);
    }
    for (i, label) in jumps {
        if !labels.iter().any(|(j, l)| *j > i && *l == label) {
            return Err(format!(
                "[{}]: no label {label:?} after this jump (jumps go forward)",
                i + 1
            ));
        }
    }
    Ok(rows)
}

/// The base registry plus every data contribution of the merged `map_scripts` registry.
pub fn compile_map_scripts(
    content: &Content,
    data: &Dataset,
    maps: &MapSet,
    problems: &mut Problems,
) -> MapScriptRegistry {
    let mut registry = base_registry();
    let Some(reg) = content.registry("map_scripts") else {
        return registry;
    };
    for (map_id, list) in reg.each() {
        if maps.get(map_id).is_none() {
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
                problems.0.push(super::compile::ContentProblem {
                    owner: owner.to_owned(),
                    registry: "map_scripts".into(),
                    id: map_id.to_owned(),
                    message: m,
                })
            };
            if let Some(ops) = c.get("onEnter") {
                match compile_ops(ops, data, &maps.texts) {
                    Ok(rows) => contribution.on_enter = Some(Handler::Rows(rows)),
                    Err(e) => blame(format!("map_scripts.{map_id}.onEnter{e}")),
                }
            }
            for (text, ops) in c.get("talk").and_then(Value::as_map).into_iter().flatten() {
                let handler = if matches!(ops, Value::Bool(false)) {
                    Ok(Handler::Suppress)
                } else {
                    compile_ops(ops, data, &maps.texts).map(Handler::Rows)
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
