//! The Lua engine's spelling of data where Pallet's own differs, for the Lua view only (Rhai
//! keeps Pallet's documented spelling; `docs/decisions.md`, "Evolution rows in the Lua
//! view").
//!
//! **Evolution rows** (`pokemon` records' `evolutions`, `evolution.check`'s `evo`). Pallet
//! spells a row by its trigger's field — `{into, level}`, `{into, item}`, `{into, trade =
//! true}`; the Lua engine names the method and the target species, as the cartridge data does
//! (`pokered` `EV_LEVEL`/`EV_ITEM`/`EV_TRADE`, whose item and trade rows carry a level of 1):
//!
//! | Pallet | Lua view |
//! |---|---|
//! | `{into = S, level = L}` | `{method = "LEVEL", level = L, species = S}` |
//! | `{into = S, item = I}` | `{method = "ITEM", item = I, level = 1, species = S}` |
//! | `{into = S, trade = true}` | `{method = "TRADE", level = 1, species = S}` |
//!
//! Rows Pallet spells otherwise (Gen 2's `condition` rows, trades with a held item) are shown
//! as they are. Writes (`register`/`override`/`patch`, `__append`/`__prepend` lists, and
//! `next(…, evo, …)`) take either spelling: a row with a `method` is read as the Lua engine's
//! (`LEVEL` needs a `level`; the `level` of an `ITEM` or `TRADE` row is dropped, as that
//! engine's checks ignore it), any other row is passed on as Pallet's. An unknown method or a
//! missing `species` is refused, naming the row.
//!
//! **`evolution.check`'s `trigger`** is the Lua engine's table `{kind = "levelup" | "item" |
//! "trade", item = I}` (Pallet's `"level"`/`"item"`/`"trade"`; `item` is the stone in use).
//!
//! **Saved mons** (`game.save.party`, `game.save.boxes`, a checkpoint's `save`): the Lua
//! engine names a mon's stat blocks in full — `dvs = {attack, defense, speed, special}`,
//! `stats = {hp, attack, defense, speed, special}`, `statExp = {hp, attack, …}` — where the
//! save file spells `atk`/`def`/`spe`/`spc` and `stats.maxHp`. The renames are one-to-one, so
//! a checkpoint read in the Lua spelling restores after [`checkpoint_from_lua`].

use std::collections::BTreeMap;

use mlua::{Lua, Value as LuaValue};
use pallet_api::content::canonical_registry;
use pallet_api::Value;

use crate::convert::{from_lua_data_only, to_lua};

fn text<'a>(m: &'a BTreeMap<String, Value>, key: &str) -> Option<&'a str> {
    match m.get(key) {
        Some(Value::Str(s)) => Some(s.as_str()),
        _ => None,
    }
}

/// One Pallet evolution row in the Lua engine's spelling (rows without one unchanged).
pub fn row_to_lua(row: &Value) -> Value {
    let Value::Map(m) = row else {
        return row.clone();
    };
    let Some(into) = text(m, "into") else {
        return row.clone();
    };
    let trade = matches!(m.get("trade"), Some(Value::Bool(true)));
    let keys: Vec<&str> = m.keys().map(String::as_str).collect();
    let species = ("species", Value::from(into));
    match (keys.as_slice(), trade) {
        (["into", "level"], false) => Value::map([
            ("method", Value::from("LEVEL")),
            ("level", m["level"].clone()),
            species,
        ]),
        (["into", "item"], false) => Value::map([
            ("method", Value::from("ITEM")),
            ("item", m["item"].clone()),
            ("level", Value::Int(1)),
            species,
        ]),
        (["into", "trade"], true) => Value::map([
            ("method", Value::from("TRADE")),
            ("level", Value::Int(1)),
            species,
        ]),
        _ => row.clone(),
    }
}

/// One row a Lua mod wrote, in Pallet's spelling (`at` names it in errors).
pub fn row_from_lua(row: Value, at: &str) -> Result<Value, String> {
    let Value::Map(mut m) = row else {
        return Ok(row);
    };
    let Some(method) = m.remove("method") else {
        return Ok(Value::Map(m));
    };
    let Some(Value::Str(species)) = m.remove("species") else {
        return Err(format!(
            "{at}.species: a row with a method needs the species it evolves into"
        ));
    };
    let level = m.remove("level");
    let item = m.remove("item");
    m.insert("into".to_owned(), Value::Str(species));
    match method {
        Value::Str(s) if s == "LEVEL" => match level {
            Some(l @ (Value::Int(_) | Value::Float(_))) => {
                m.insert("level".to_owned(), l);
            }
            _ => return Err(format!("{at}.level: a LEVEL row needs a level")),
        },
        Value::Str(s) if s == "ITEM" => match item {
            Some(i @ Value::Str(_)) => {
                m.insert("item".to_owned(), i);
            }
            _ => return Err(format!("{at}.item: an ITEM row needs an item")),
        },
        Value::Str(s) if s == "TRADE" => {
            m.insert("trade".to_owned(), Value::Bool(true));
        }
        other => {
            let shown = match &other {
                Value::Str(s) => format!("{s:?}"),
                v => format!("a {}", v.type_name()),
            };
            return Err(format!(
                "{at}.method: {shown} is not one of \"LEVEL\", \"ITEM\", \"TRADE\""
            ));
        }
    }
    Ok(Value::Map(m))
}

fn is_pokemon(registry: &str) -> bool {
    canonical_registry(registry) == Some("pokemon")
}

/// A record of `registry` as a Lua mod reads it.
pub fn record_out(registry: &str, mut record: Value) -> Value {
    if !is_pokemon(registry) {
        return record;
    }
    if let Value::Map(m) = &mut record {
        if let Some(Value::List(rows)) = m.get_mut("evolutions") {
            for row in rows.iter_mut() {
                *row = row_to_lua(row);
            }
        }
    }
    record
}

fn rows_from_lua(rows: Vec<Value>, at: &str) -> Result<Vec<Value>, String> {
    rows.into_iter()
        .enumerate()
        .map(|(n, row)| row_from_lua(row, &format!("{at}[{}]", n + 1)))
        .collect()
}

/// Record data a Lua mod wrote to `registry` (`register`/`override`/`patch` of `id`), in
/// Pallet's spelling.
pub fn record_in(registry: &str, id: &str, mut record: Value) -> Result<Value, String> {
    if !is_pokemon(registry) {
        return Ok(record);
    }
    let at = format!("pokemon.{id}.evolutions");
    if let Value::Map(m) = &mut record {
        match m.remove("evolutions") {
            Some(Value::List(rows)) => {
                m.insert(
                    "evolutions".to_owned(),
                    Value::List(rows_from_lua(rows, &at)?),
                );
            }
            Some(Value::Map(mut ops)) => {
                for key in ["__append", "__prepend"] {
                    if let Some(Value::List(rows)) = ops.remove(key) {
                        let at = format!("{at}.{key}");
                        ops.insert(key.to_owned(), Value::List(rows_from_lua(rows, &at)?));
                    }
                }
                m.insert("evolutions".to_owned(), Value::Map(ops));
            }
            Some(other) => {
                m.insert("evolutions".to_owned(), other);
            }
            None => {}
        }
    }
    Ok(record)
}

/// `evolution.check`'s `evo` and `trigger` as a Lua link receives them (`trigger` from the
/// engine's string; `item` is the stone of an item row).
pub fn check_args_to_lua(
    lua: &Lua,
    evo: LuaValue,
    trigger: LuaValue,
) -> mlua::Result<(LuaValue, LuaValue)> {
    let evo_v = match &evo {
        LuaValue::Table(_) => from_lua_data_only(&evo).map_err(|e| mlua::Error::runtime(e.0))?,
        _ => return Ok((evo, trigger_table(lua, &trigger, None)?)),
    };
    let item = match &evo_v {
        Value::Map(m) => text(m, "item").map(str::to_owned),
        _ => None,
    };
    let evo = to_lua(lua, &row_to_lua(&evo_v))?;
    Ok((evo, trigger_table(lua, &trigger, item)?))
}

fn trigger_table(lua: &Lua, trigger: &LuaValue, item: Option<String>) -> mlua::Result<LuaValue> {
    let LuaValue::String(s) = trigger else {
        return Ok(trigger.clone());
    };
    let kind = match s.to_str()?.as_ref() {
        "level" => "levelup".to_owned(),
        other => other.to_owned(),
    };
    let t = lua.create_table()?;
    t.raw_set("kind", kind.as_str())?;
    if kind == "item" {
        if let Some(item) = item {
            t.raw_set("item", item)?;
        }
    }
    Ok(LuaValue::Table(t))
}

/// `evo` handed to `next(…)`, in Pallet's spelling.
pub fn evo_back(evo: &LuaValue) -> Result<Value, String> {
    let v = from_lua_data_only(evo).map_err(|e| e.0)?;
    row_from_lua(v, "evo")
}

/// `trigger` handed to `next(…)`, as the engine's string (`{kind = "levelup"}` is `"level"`;
/// a string is taken as it is).
pub fn trigger_back(trigger: &LuaValue) -> Result<Value, String> {
    match trigger {
        LuaValue::String(s) => Ok(Value::Str(
            s.to_str().map_err(|e| e.to_string())?.to_owned(),
        )),
        LuaValue::Table(t) => match t.raw_get::<LuaValue>("kind").map_err(|e| e.to_string())? {
            LuaValue::String(k) => {
                let k = k.to_str().map_err(|e| e.to_string())?;
                Ok(Value::from(if &*k == "levelup" { "level" } else { &*k }))
            }
            _ => Err("trigger.kind must be a string (\"levelup\", \"item\", \"trade\")".into()),
        },
        _ => Err("trigger must be {kind = ...} or a string".into()),
    }
}

/// The save file's stat-block keys and the Lua engine's, per block.
const STAT_KEYS: &[(&str, &[(&str, &str)])] = &[
    (
        "dvs",
        &[
            ("atk", "attack"),
            ("def", "defense"),
            ("spe", "speed"),
            ("spc", "special"),
        ],
    ),
    (
        "stats",
        &[
            ("maxHp", "hp"),
            ("atk", "attack"),
            ("def", "defense"),
            ("spe", "speed"),
            ("spc", "special"),
        ],
    ),
    (
        "statExp",
        &[
            ("atk", "attack"),
            ("def", "defense"),
            ("spe", "speed"),
            ("spc", "special"),
        ],
    ),
];

/// Rename one mon's stat-block keys (`to_lua`: save file → Lua engine, else back).
fn mon_keys(mon: &mut Value, to_lua: bool) {
    let Value::Map(m) = mon else { return };
    for (block, pairs) in STAT_KEYS {
        if let Some(Value::Map(b)) = m.get_mut(*block) {
            let mut out = BTreeMap::new();
            for (k, v) in std::mem::take(b) {
                let renamed = pairs.iter().find_map(|(file, lua)| {
                    let (from, to) = if to_lua { (file, lua) } else { (lua, file) };
                    (k == *from).then(|| (*to).to_owned())
                });
                out.insert(renamed.unwrap_or(k), v);
            }
            *b = out;
        }
    }
}

/// Every mon of a save value (`party`, and each box of `boxes`).
fn save_mons(save: &mut Value, to_lua: bool) {
    let Value::Map(m) = save else { return };
    if let Some(Value::List(party)) = m.get_mut("party") {
        party.iter_mut().for_each(|mon| mon_keys(mon, to_lua));
    }
    if let Some(Value::List(boxes)) = m.get_mut("boxes") {
        for b in boxes.iter_mut() {
            if let Value::List(mons) = b {
                mons.iter_mut().for_each(|mon| mon_keys(mon, to_lua));
            }
        }
    }
}

/// `battle.started`'s payload as a Lua mod reads it: the wild mon's `battle.enemy.mon.dvs` as
/// `{attack, defense, speed, special}`.
pub fn battle_started_to_lua(mut payload: Value) -> Value {
    let mon = payload
        .as_map_mut()
        .and_then(|p| p.get_mut("battle"))
        .and_then(Value::as_map_mut)
        .and_then(|b| b.get_mut("enemy"))
        .and_then(Value::as_map_mut)
        .and_then(|e| e.get_mut("mon"));
    if let Some(mon) = mon {
        mon_keys(mon, true);
    }
    payload
}

/// DVs a Lua mod gives (`startWildBattle`'s third argument) in the engine's spelling: the Lua
/// engine's `{attack, defense, speed, special}` renamed, anything else unchanged.
pub fn dvs_from_lua(dvs: Value) -> Value {
    let mut mon = Value::map([("dvs", dvs)]);
    mon_keys(&mut mon, false);
    match mon {
        Value::Map(mut m) => m.remove("dvs").unwrap_or_default(),
        other => other,
    }
}

/// A save value (`game.save`) as a Lua mod reads it.
pub fn save_to_lua(mut save: Value) -> Value {
    save_mons(&mut save, true);
    save
}

/// A checkpoint record (`{…, save, …}`) as a Lua mod reads it.
pub fn checkpoint_to_lua(mut cp: Value) -> Value {
    if let Value::Map(m) = &mut cp {
        if let Some(save) = m.get_mut("save") {
            save_mons(save, true);
        }
    }
    cp
}

/// A checkpoint a Lua mod hands back, in the engine's spelling.
pub fn checkpoint_from_lua(mut cp: Value) -> Value {
    if let Value::Map(m) = &mut cp {
        if let Some(save) = m.get_mut("save") {
            save_mons(save, false);
        }
    }
    cp
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(pairs: &[(&str, Value)]) -> Value {
        Value::map(pairs.iter().cloned())
    }

    #[test]
    fn rows_round_trip_between_the_two_spellings() {
        let pallet = [
            row(&[("into", "IVYSAUR".into()), ("level", Value::Int(16))]),
            row(&[("into", "NIDOQUEEN".into()), ("item", "MOON_STONE".into())]),
            row(&[("into", "ALAKAZAM".into()), ("trade", Value::Bool(true))]),
        ];
        let lua = [
            row(&[
                ("method", "LEVEL".into()),
                ("level", Value::Int(16)),
                ("species", "IVYSAUR".into()),
            ]),
            row(&[
                ("method", "ITEM".into()),
                ("item", "MOON_STONE".into()),
                ("level", Value::Int(1)),
                ("species", "NIDOQUEEN".into()),
            ]),
            row(&[
                ("method", "TRADE".into()),
                ("level", Value::Int(1)),
                ("species", "ALAKAZAM".into()),
            ]),
        ];
        for (p, l) in pallet.iter().zip(&lua) {
            assert_eq!(&row_to_lua(p), l);
            assert_eq!(&row_from_lua(l.clone(), "r").unwrap(), p);
            // Pallet's spelling is accepted on writes as well.
            assert_eq!(&row_from_lua(p.clone(), "r").unwrap(), p);
        }
        // Rows Pallet spells otherwise are shown unchanged.
        let other = row(&[("into", "X".into()), ("condition", "HAPPINESS".into())]);
        assert_eq!(row_to_lua(&other), other);
    }

    #[test]
    fn bad_rows_are_refused_naming_the_row() {
        let e = row_from_lua(
            row(&[("method", "LINK".into()), ("species", "X".into())]),
            "pokemon.A.evolutions[2]",
        )
        .unwrap_err();
        assert!(e.starts_with("pokemon.A.evolutions[2].method"), "{e}");
        let e = row_from_lua(row(&[("method", "LEVEL".into())]), "r").unwrap_err();
        assert!(e.contains("r.species"), "{e}");
        let e = row_from_lua(
            row(&[("method", "LEVEL".into()), ("species", "X".into())]),
            "r",
        )
        .unwrap_err();
        assert!(e.contains("r.level"), "{e}");
    }

    #[test]
    fn patches_translate_lists_and_list_operations() {
        let lvl = row(&[
            ("method", "LEVEL".into()),
            ("level", Value::Int(37)),
            ("species", "ALAKAZAM".into()),
        ]);
        let want = row(&[("into", "ALAKAZAM".into()), ("level", Value::Int(37))]);
        let patch = Value::map([("evolutions", Value::List(vec![lvl.clone()]))]);
        assert_eq!(
            record_in("pokemon", "KADABRA", patch).unwrap(),
            Value::map([("evolutions", Value::List(vec![want.clone()]))])
        );
        let append = Value::map([(
            "evolutions",
            Value::map([("__append", Value::List(vec![lvl.clone()]))]),
        )]);
        assert_eq!(
            record_in("species", "KADABRA", append).unwrap(),
            Value::map([(
                "evolutions",
                Value::map([("__append", Value::List(vec![want]))])
            )])
        );
        // Other registries are untouched.
        let items = Value::map([("evolutions", Value::List(vec![lvl.clone()]))]);
        assert_eq!(record_in("items", "X", items.clone()).unwrap(), items);
    }

    #[test]
    fn saved_mons_read_the_lua_engines_stat_names_and_go_back() {
        let stats =
            |pairs: &[(&str, i64)]| Value::map(pairs.iter().map(|(k, v)| (*k, Value::Int(*v))));
        let mon = Value::map([
            ("species", Value::from("PIDGEY")),
            (
                "dvs",
                stats(&[("atk", 3), ("def", 8), ("spe", 6), ("spc", 13)]),
            ),
            (
                "stats",
                stats(&[
                    ("maxHp", 19),
                    ("atk", 9),
                    ("def", 9),
                    ("spe", 11),
                    ("spc", 9),
                ]),
            ),
            (
                "statExp",
                stats(&[("hp", 1), ("atk", 2), ("def", 3), ("spe", 4), ("spc", 5)]),
            ),
        ]);
        let save = Value::map([
            ("party", Value::List(vec![mon.clone()])),
            ("boxes", Value::List(vec![Value::List(vec![mon.clone()])])),
        ]);
        let lua = save_to_lua(save.clone());
        let p = &lua.get("party").unwrap().as_list().unwrap()[0];
        assert_eq!(p.get("dvs").unwrap().get("attack"), Some(&Value::Int(3)));
        assert_eq!(p.get("dvs").unwrap().get("special"), Some(&Value::Int(13)));
        assert_eq!(p.get("stats").unwrap().get("hp"), Some(&Value::Int(19)));
        assert_eq!(p.get("stats").unwrap().get("maxHp"), None);
        assert_eq!(p.get("statExp").unwrap().get("speed"), Some(&Value::Int(4)));
        let boxed = &lua.get("boxes").unwrap().as_list().unwrap()[0];
        assert_eq!(boxed.as_list().unwrap()[0], p.clone());
        // A checkpoint goes back to exactly what it was.
        let cp = Value::map([("format", Value::Int(1)), ("save", save)]);
        assert_eq!(checkpoint_from_lua(checkpoint_to_lua(cp.clone())), cp);
    }

    #[test]
    fn triggers_go_both_ways() {
        let lua = Lua::new();
        let t = trigger_table(
            &lua,
            &LuaValue::String(lua.create_string("level").unwrap()),
            None,
        )
        .unwrap();
        let LuaValue::Table(tt) = &t else { panic!() };
        assert_eq!(tt.raw_get::<String>("kind").unwrap(), "levelup");
        assert_eq!(trigger_back(&t).unwrap(), Value::from("level"));
        let t = trigger_table(
            &lua,
            &LuaValue::String(lua.create_string("item").unwrap()),
            Some("MOON_STONE".into()),
        )
        .unwrap();
        let LuaValue::Table(tt) = &t else { panic!() };
        assert_eq!(tt.raw_get::<String>("item").unwrap(), "MOON_STONE");
        assert_eq!(trigger_back(&t).unwrap(), Value::from("item"));
    }
}
