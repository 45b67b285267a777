//! Map-script op lists compiled into rows of the script runner ([`super::ScriptRow`]), for
//! data contributions (`crate::content::scripts`) and step handlers' answers
//! (`crate::world::map_step_handlers`).
//!
//! Ops are records `{op = "<name>", …}` (`cmd` is accepted for `op`): `show_text {text}` (a
//! text constant of the text table, else literal text), `give_item {item, count = 1}`,
//! `give_pokemon {species, level}`, `check_flag {flag}`, `set_flag {flag}`,
//! `clear_flag {flag}`, `jump {label}`, `jump_if_true {label}`, `jump_if_false {label}`,
//! `label {name}`, `end`, `toggle_object {map, object, visible}` (the map and its object are
//! checked against the world). Jumps go forward to a label of the same list (checked here).
//!
//! The Lua engine's positional rows (`{"show_text", text}`, `{"give_item", item, count}`,
//! `{"check_flag", flag}`, `{"jump_if_true", label}`, `{"label", name}`, …) are read as the
//! same records ([`positional_op`]); a jump to `"end"` with no `end` label ends the script, as
//! in the Lua engine's runner.

use std::collections::BTreeMap;

use pallet_api::Value;

use super::ScriptRow;
use crate::data::Dataset;

fn field<'a>(op: &'a Value, key: &str) -> Result<&'a str, String> {
    op.get(key)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .ok_or_else(|| format!("needs a string `{key}`"))
}

/// The argument names of a positional row `{name, arg1, arg2, …}`, per op.
fn positional_args(name: &str) -> Option<&'static [&'static str]> {
    Some(match name {
        "show_text" => &["text"],
        "give_item" => &["item", "count"],
        "give_pokemon" => &["species", "level"],
        "check_flag" | "set_flag" | "clear_flag" => &["flag"],
        "jump" | "jump_if_true" | "jump_if_false" => &["label"],
        "label" => &["name"],
        "toggle_object" => &["map", "object", "visible"],
        "end" => &[],
        "choice" => &["options"],
        "check_item" | "take_item" => &["item", "count"],
        "give_money" => &["amount"],
        "start_battle" => &["kind", "trainer", "index"],
        "emote" => &["target", "emote", "frames"],
        "move_player" => &["dir", "n"],
        "face_player_dir" => &["dir"],
        "face_player" => &[],
        "play_cry" => &["species"],
        "check_battle_result" => &["result"],
        _ => return None,
    })
}

fn direction(op: &Value) -> Result<crate::world::Direction, String> {
    op.get("dir")
        .and_then(Value::as_str)
        .and_then(crate::world::Direction::parse)
        .ok_or_else(|| "needs a direction `dir` (up, down, left, right)".to_owned())
}

/// `start_battle` with kind `"wild"`: `{"start_battle", "wild", species, level}` (positional:
/// the second and third arguments) or the record `{op, kind, species, level}`.
fn wild_battle(op: &Value) -> Result<ScriptRow, String> {
    let species = op
        .get("species")
        .or_else(|| op.get("trainer"))
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .ok_or("start_battle: a wild battle names its species (kind, species, level)")?;
    let level = op
        .get("level")
        .or_else(|| op.get("index"))
        .and_then(Value::as_exact_int)
        .filter(|n| (1..=100).contains(n))
        .ok_or("start_battle: level must be a whole number 1..100")?;
    Ok(ScriptRow::StartWildBattle {
        species: species.to_owned(),
        level: level as u8,
    })
}

/// A positional row `{name, args…}` as the op record `{op = name, <arg> = …}` (None when `op`
/// is not a positional row). Arguments past the op's own are ignored, as the Lua engine's
/// runner ignores them (`give_item`'s silent flag); an op Pallet does not run keeps only its
/// name, so the error names it.
pub fn positional_op(op: &Value) -> Option<Value> {
    let list = op.as_list()?;
    let name = list.first()?.as_str()?;
    let mut pairs = vec![("op".to_owned(), Value::from(name))];
    if let Some(args) = positional_args(name) {
        for (k, v) in args.iter().zip(list.iter().skip(1)) {
            pairs.push(((*k).to_owned(), v.clone()));
        }
    }
    Some(Value::map(pairs))
}

/// A `choice` op's options: a list of 1..=8 strings; none given reads as YES/NO.
fn choice_options(op: &Value) -> Result<Vec<String>, String> {
    let Some(v) = op.get("options") else {
        return Ok(vec!["YES".into(), "NO".into()]);
    };
    let list = v
        .as_list()
        .ok_or("choice: options must be a list of strings")?;
    if list.is_empty() || list.len() > 8 {
        return Err("choice: 1 to 8 options".into());
    }
    list.iter()
        .map(|o| {
            o.as_str()
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .ok_or_else(|| "choice: options must be non-empty strings".to_owned())
        })
        .collect()
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
        let named = positional_op(op);
        let op = named.as_ref().unwrap_or(op);
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
            "toggle_object" => ScriptRow::ToggleObject {
                map: field(op, "map").map_err(at)?.into(),
                object: field(op, "object").map_err(at)?.into(),
                visible: op
                    .get("visible")
                    .and_then(Value::as_bool)
                    .ok_or_else(|| at("needs a boolean `visible`".into()))?,
            },
            "end" => ScriptRow::End,
            "choice" => ScriptRow::Choice {
                options: choice_options(op).map_err(at)?,
            },
            "check_item" | "take_item" => {
                let item = field(op, "item").map_err(at)?;
                if data.item_by_name(item).is_none() {
                    return Err(at(format!("{name}: {item:?} is not an item")));
                }
                let count = match op.get("count") {
                    None => 1,
                    Some(v) => match v.as_exact_int() {
                        Some(n) if (1..=99).contains(&n) => n as u32,
                        _ => return Err(at(format!("{name}: count must be an integer 1..99"))),
                    },
                };
                let item = item.to_owned();
                if name == "check_item" {
                    ScriptRow::CheckItem { item, count }
                } else {
                    ScriptRow::TakeItem { item, count }
                }
            }
            "give_money" => match op.get("amount").and_then(Value::as_exact_int) {
                Some(n) if (1..=i64::from(crate::save::data::MAX_MONEY)).contains(&n) => {
                    ScriptRow::GiveMoney { amount: n as u32 }
                }
                _ => {
                    return Err(at(format!(
                        "give_money: amount must be an integer 1..{}",
                        crate::save::data::MAX_MONEY
                    )))
                }
            },
            "start_battle" if op.get("kind").and_then(Value::as_str) == Some("wild") => {
                wild_battle(op).map_err(at)?
            }
            "start_battle" => {
                if op.get("kind").and_then(Value::as_str) != Some("trainer") {
                    return Err(at(
                        "start_battle: kind must be \"trainer\" (kind, trainer, index) or \"wild\" (kind, species, level)".into(),
                    ));
                }
                let class = field(op, "trainer").map_err(at)?;
                let index = match op.get("index") {
                    None => 0,
                    Some(v) => match v.as_exact_int() {
                        // 1-based, as the Lua engine numbers a trainer's `parties`.
                        Some(n) if (1..=i64::from(u16::MAX)).contains(&n) => (n - 1) as u16,
                        _ => {
                            return Err(at("start_battle: index must be an integer from 1".into()))
                        }
                    },
                };
                ScriptRow::StartBattle {
                    class: class.into(),
                    index,
                }
            }
            "move_player" => ScriptRow::MovePlayer {
                dir: direction(op).map_err(at)?,
                n: match op.get("n") {
                    None => 1,
                    Some(v) => match v.as_exact_int() {
                        Some(n) if (1..=255).contains(&n) => n as u32,
                        _ => return Err(at("move_player: n must be a whole number 1..255".into())),
                    },
                },
            },
            "face_player_dir" => ScriptRow::FacePlayer {
                dir: direction(op).map_err(at)?,
            },
            // The talking NPC turns to the player: Pallet's NPCs keep no facing, so the row
            // changes nothing (accepted so quest scripts written for the Lua engine run).
            "face_player" => ScriptRow::Wait { ticks: 0 },
            "play_cry" => ScriptRow::PlaySound {
                sound: format!("Cry_{}", field(op, "species").map_err(at)?),
            },
            "check_battle_result" => ScriptRow::CheckBattleResult {
                result: field(op, "result").map_err(at)?.into(),
            },
            "emote" => ScriptRow::Emote {
                npc: field(op, "target").map_err(at)?.into(),
                emote: field(op, "emote").map_err(at)?.into(),
            },
            other => return Err(at(format!("unknown op {other:?}"))),
        };
        rows.push(row);
    }
    // A jump to `end` with no `end` label ends the script (the Lua engine's runner).
    if jumps.iter().any(|(_, l)| l == "end") && !labels.iter().any(|(_, l)| l == "end") {
        labels.push((rows.len(), "end".to_owned()));
        rows.push(ScriptRow::Label { name: "end".into() });
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
