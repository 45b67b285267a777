//! The freeze-time compile: the merged content registries → the typed tables the game reads
//! ([`GameContent`]). A registry no mod wrote is not compiled: its embedded table is used as is.
//! Every problem (a dangling reference, blocks that do not fill a map, a warp to a missing map,
//! a species no table has) is one [`ContentProblem`] blamed on the mod that last wrote the
//! record, so the loader can roll that mod back and compile again.

use std::collections::BTreeMap;
use std::sync::Arc;

use pallet_api::content::{Content, Registry, BASE_OWNER};
use pallet_api::value::from_value;
use pallet_api::Value;

pub use super::problems::{ContentProblem, Problems};
use super::tables::{compile_dataset, dataset_modified};
use super::trainers::{TrainerDef, TRAINERS};
use crate::data::{gen1, Dataset};
use crate::world::map::{EncounterSlot, EncounterTable, MapDef};
use crate::world::{store, GameVersion, MapSet};

/// The tables a game plays: the embedded ones, or what the content mods made of them.
#[derive(Clone, Debug)]
pub struct GameContent {
    /// Species, moves, items, type chart (`'static`: the battle loop reads it like `gen1()`).
    pub data: &'static Dataset,
    pub maps: MapSet,
    pub trainers: &'static [TrainerDef],
    /// The map scripts with every data contribution (`None`: the engine's base handlers).
    pub scripts: Option<std::rc::Rc<crate::world::map_scripts::MapScriptRegistry>>,
    /// `(mod id, version)` of every mod whose content shaped these tables (saves record it).
    pub mods: Vec<(String, String)>,
    /// What loaded but never plays, said once (never silent): map scripts of a cartridge map
    /// the embedded world does not have.
    pub notes: Vec<ContentProblem>,
}

impl GameContent {
    /// The embedded tables of `version` (no content mod: nothing is compiled or copied).
    pub fn embedded(version: GameVersion) -> Result<GameContent, String> {
        Ok(GameContent {
            data: gen1(),
            maps: store::embedded(version)?.clone(),
            trainers: TRAINERS,
            scripts: None,
            mods: Vec::new(),
            notes: Vec::new(),
        })
    }

    /// Is this the embedded data (no content mod)?
    pub fn is_embedded(&self) -> bool {
        std::ptr::eq(self.data, gen1()) && self.mods.is_empty()
    }
}

fn modified(content: &Content, registry: &str) -> bool {
    content
        .registry(registry)
        .is_some_and(Registry::is_modified)
}

fn leak(s: &str) -> &'static str {
    Box::leak(s.to_owned().into_boxed_str())
}

/// Compile the merged view of `content` for `version`. `Err` lists every problem found.
pub fn compile(
    version: GameVersion,
    content: &Content,
) -> Result<GameContent, Vec<ContentProblem>> {
    let mut out = GameContent::embedded(version).map_err(|m| {
        vec![ContentProblem {
            owner: BASE_OWNER.into(),
            registry: "maps".into(),
            id: String::new(),
            message: m,
        }]
    })?;
    if !content.is_modified() {
        return Ok(out);
    }
    let mut problems = Problems::default();
    if dataset_modified(content) {
        out.data = compile_dataset(gen1(), content, &mut problems);
        super::removed::check_removed(content, &mut problems);
    }
    if modified(content, "maps") || modified(content, "encounters") {
        if let Some(maps) = compile_maps(&out.maps, out.data, content, &mut problems) {
            out.maps = maps;
        }
    } else if dataset_modified(content) {
        check_encounter_species(out.data, content, &mut problems);
    }
    if modified(content, "trainers") || dataset_modified(content) {
        out.trainers = compile_trainers(out.data, content, &mut problems);
    }
    if modified(content, "text") || modified(content, "strings") {
        super::texts::apply(&mut out.maps, content);
    }
    if modified(content, "map_scripts") {
        out.scripts = Some(std::rc::Rc::new(super::scripts::compile_map_scripts(
            content,
            out.data,
            &out.maps,
            &mut problems,
            &mut out.notes,
        )));
    }
    if problems.0.is_empty() {
        Ok(out)
    } else {
        Err(problems.0)
    }
}

const MAP_FIELDS: &[&str] = &[
    "name", "tileset", "width", "height", "blocks", "outdoor", "music", "warps", "signs", "npcs",
    "trainers",
];

fn encounter_table(
    data: &Dataset,
    reg: &Registry,
    map_id: &str,
    rec: &Value,
    problems: &mut Problems,
) -> Option<EncounterTable> {
    let grass = rec.get("grass")?;
    let rate = grass.get("rate").and_then(Value::as_exact_int).unwrap_or(0);
    let mut slots = Vec::new();
    for (n, s) in grass
        .get("slots")
        .and_then(Value::as_list)
        .unwrap_or(&[])
        .iter()
        .enumerate()
    {
        let species = s.get("species").and_then(Value::as_str).unwrap_or("");
        if data.species_by_name(species).is_none() {
            problems.blame(
                reg,
                map_id,
                format!(
                    "encounters.{map_id}.grass.slots[{}].species: {species:?} is not a species",
                    n + 1
                ),
            );
        }
        let level = s.get("level").and_then(Value::as_exact_int).unwrap_or(1);
        slots.push(EncounterSlot {
            species: species.to_owned(),
            level: level.clamp(1, 100) as u8,
        });
    }
    Some(EncounterTable {
        grass_rate: rate.clamp(0, 255) as u8,
        grass: slots,
    })
}

fn check_encounter_species(data: &Dataset, content: &Content, problems: &mut Problems) {
    let Some(reg) = content.registry("encounters") else {
        return;
    };
    for (id, rec) in reg.each() {
        encounter_table(data, reg, id, rec, problems);
    }
}

fn compile_maps(
    base: &MapSet,
    data: &Dataset,
    content: &Content,
    problems: &mut Problems,
) -> Option<MapSet> {
    let mreg = content.registry("maps")?;
    let ereg = content.registry("encounters")?;
    let before = problems.0.len();
    let mut defs: BTreeMap<String, MapDef> = BTreeMap::new();
    // Texts a map brings along (`texts = {CONST = "literal"}`) join the text table.
    let mut texts = (*base.texts).clone();
    for (id, rec) in mreg.each() {
        for (k, v) in rec
            .get("texts")
            .and_then(Value::as_map)
            .into_iter()
            .flatten()
        {
            match v.as_str() {
                Some(t) if crate::world::map::is_text_name(k) => {
                    texts.insert(k.clone(), t.to_owned());
                }
                _ => problems.blame(
                    mreg,
                    id,
                    format!("maps.{id}.texts.{k}: a text constant maps to a string"),
                ),
            }
        }
    }
    // A text constant a data map script answers (talk) needs no text of its own.
    if let Some(sreg) = content.registry("map_scripts") {
        for (_, list) in sreg.each() {
            for c in list.as_list().unwrap_or(&[]) {
                for k in c
                    .get("talk")
                    .and_then(Value::as_map)
                    .into_iter()
                    .flatten()
                    .map(|(k, _)| k)
                {
                    if crate::world::map::is_text_name(k) {
                        texts.entry(k.clone()).or_insert_with(|| k.clone());
                    }
                }
            }
        }
    }
    for (id, rec) in mreg.each() {
        let mut fields: BTreeMap<String, Value> = rec
            .as_map()
            .into_iter()
            .flatten()
            .filter(|(k, _)| MAP_FIELDS.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        fields.insert("id".into(), Value::from(id));
        fields
            .entry("name".into())
            .or_insert_with(|| Value::from(id));
        fields
            .entry("tileset".into())
            .or_insert_with(|| Value::from(""));
        fields
            .entry("blocks".into())
            .or_insert_with(|| Value::List(Vec::new()));
        if let Some(objects) = rec.get("objects").and_then(Value::as_list) {
            let npcs = fields
                .entry("npcs".into())
                .or_insert_with(|| Value::List(Vec::new()));
            if let Value::List(npcs) = npcs {
                npcs.extend(objects.iter().enumerate().map(|(n, o)| object_npc(n, o)));
            }
        }
        if let Some(Value::List(warps)) = fields.get_mut("warps") {
            for (n, w) in warps.iter_mut().enumerate() {
                if let Err(m) = normalize_warp(mreg, id, w) {
                    problems.blame(mreg, id, format!("maps.{id}.warps[{}]: {m}", n + 1));
                }
            }
        }
        match from_value::<MapDef>(Value::Map(fields)) {
            Ok(def) => {
                defs.insert(id.to_owned(), def);
            }
            Err(e) => problems.blame(mreg, id, format!("maps.{id}: {e}")),
        }
    }
    for (id, rec) in ereg.each() {
        let table = encounter_table(data, ereg, id, rec, problems);
        match defs.get_mut(id) {
            Some(def) => def.encounters = table,
            None => problems.blame(
                ereg,
                id,
                format!("encounters.{id}: no map {id} (an encounter table needs its map)"),
            ),
        }
    }
    for def in defs.values() {
        if let Err(m) = def.check_local(&base.tilesets, &texts) {
            blame_map(mreg, ereg, &def.id, m, problems);
        }
    }
    // Links are checked once every map is sound on its own (no echo of a local problem).
    let locally_sound = problems.0.len() == before;
    for def in defs.values().filter(|_| locally_sound) {
        if let Err(m) = def.check_links(&defs, &base.tilesets) {
            blame_map(mreg, ereg, &def.id, m, problems);
        }
    }
    if problems.0.len() > before {
        return None;
    }
    let mut set = base.clone();
    set.texts = Arc::new(texts);
    set.maps = defs.into_iter().map(|(k, v)| (k, Arc::new(v))).collect();
    if let Err(m) = set.check_start() {
        problems.blame(mreg, &set.start.map.clone(), m);
        return None;
    }
    Some(set)
}

/// A map object in the Lua engine's shape (`{index, name, sprite, text, movement, range, x,
/// y}`) as an npc of the engine (`{name, x, y, facing, text}`): the name is the object's (else
/// `object<index>`), the facing its `facing`, else a standing object's `range` direction
/// (`UP`/`DOWN`/`LEFT`/`RIGHT`), else `down`. Sprite and movement are presentation Pallet
/// does not model; a wrong field type fails the map's check, naming it.
fn object_npc(n: usize, o: &Value) -> Value {
    let name = o
        .get("name")
        .and_then(Value::as_str)
        .map(str::to_owned)
        .unwrap_or_else(|| {
            let index = o
                .get("index")
                .and_then(Value::as_exact_int)
                .unwrap_or(n as i64 + 1);
            format!("object{index}")
        });
    let dir = |v: Option<&Value>| {
        v.and_then(Value::as_str)
            .map(str::to_ascii_lowercase)
            .filter(|d| matches!(d.as_str(), "up" | "down" | "left" | "right"))
    };
    let facing = dir(o.get("facing"))
        .or_else(|| dir(o.get("range")))
        .unwrap_or_else(|| "down".to_owned());
    let mut m = BTreeMap::new();
    m.insert("name".to_owned(), Value::from(name));
    for k in ["x", "y", "text"] {
        m.insert(k.to_owned(), o.get(k).cloned().unwrap_or(Value::Nil));
    }
    m.insert("facing".to_owned(), Value::from(facing));
    Value::Map(m)
}

/// A warp in the engine's shape: `to` from `destMap` when absent; `toX`/`toY` from the target
/// map's warp number `destWarp` when absent (1-based, as the cartridge's `warp_event` and the
/// Lua engine number warps; absent means 1); `facing` defaults to `down`.
fn normalize_warp(mreg: &Registry, map_id: &str, w: &mut Value) -> Result<(), String> {
    let Value::Map(m) = w else {
        return Err("a warp must be a record".into());
    };
    if !m.contains_key("to") {
        let dest = m
            .get("destMap")
            .cloned()
            .ok_or("needs `to` (or `destMap`)")?;
        m.insert("to".into(), dest);
    }
    let to = m.get("to").and_then(Value::as_str).unwrap_or("").to_owned();
    if to == LAST_MAP {
        // Back where the player came from, decided at run time (see `world::last_map`); the
        // map needs some map with a warp into it (the fallback when nothing was recorded).
        let warps_in = mreg.each().any(|(other, rec)| {
            other != map_id
                && rec
                    .get("warps")
                    .and_then(Value::as_list)
                    .into_iter()
                    .flatten()
                    .any(|w| {
                        w.get("to")
                            .or_else(|| w.get("destMap"))
                            .and_then(Value::as_str)
                            == Some(map_id)
                    })
        });
        if !warps_in {
            return Err(format!("LAST_MAP: no map has a warp into {map_id}"));
        }
        m.entry("toX".to_owned()).or_insert(Value::Int(0));
        m.entry("toY".to_owned()).or_insert(Value::Int(0));
    }
    if !m.contains_key("toX") || !m.contains_key("toY") {
        let k = m.get("destWarp").and_then(Value::as_exact_int).unwrap_or(1);
        let target = mreg
            .get(&to)
            .and_then(|t| t.get("warps"))
            .and_then(Value::as_list)
            .and_then(|l| l.get(usize::try_from(k.checked_sub(1)?).ok()?))
            .cloned()
            .ok_or_else(|| {
                format!("needs `toX`/`toY`, or a warp {k} on {to} (`destWarp` counts from 1)")
            })?;
        for (from, key) in [("x", "toX"), ("y", "toY")] {
            let v = target.get(from).cloned().unwrap_or(Value::Int(0));
            m.entry(key.to_owned()).or_insert(v);
        }
    }
    m.entry("facing".to_owned())
        .or_insert_with(|| Value::from("down"));
    m.remove("destMap");
    m.remove("destWarp");
    Ok(())
}

/// A warp target meaning "the outdoor map the player came from" (resolved at run time).
pub use crate::world::last_map::LAST_MAP;

/// A map problem goes to whoever last wrote the map, else its encounter table.
fn blame_map(mreg: &Registry, ereg: &Registry, id: &str, m: String, problems: &mut Problems) {
    if mreg.last_owner(id).is_none() && ereg.last_owner(id).is_some() {
        problems.blame(ereg, id, m);
    } else {
        problems.blame(mreg, id, m);
    }
}

fn compile_trainers(
    data: &Dataset,
    content: &Content,
    problems: &mut Problems,
) -> &'static [TrainerDef] {
    let Some(reg) = content.registry("trainers") else {
        return TRAINERS;
    };
    let mut out = Vec::new();
    for (class, rec) in reg.each() {
        let name = rec.get("name").and_then(Value::as_str).unwrap_or(class);
        let map = rec.get("map").and_then(Value::as_str).unwrap_or("");
        let base_money = rec
            .get("baseMoney")
            .and_then(Value::as_exact_int)
            .unwrap_or(0)
            .clamp(0, 9999) as u32;
        let (class, name, map) = (leak(class), leak(name), leak(map));
        let parties = rec.get("parties").and_then(Value::as_list).unwrap_or(&[]);
        for (index, party) in parties.iter().enumerate() {
            let mut mons = Vec::new();
            let mut moves: Vec<&'static [&'static str]> = Vec::new();
            for (n, m) in party.as_list().unwrap_or(&[]).iter().enumerate() {
                let species = m.get("species").and_then(Value::as_str).unwrap_or("");
                if data.species_by_name(species).is_none() {
                    problems.blame(
                        reg,
                        class,
                        format!(
                            "trainers.{class}.parties[{}][{}].species: {species:?} is not a species",
                            index + 1,
                            n + 1
                        ),
                    );
                    continue;
                }
                let level = m.get("level").and_then(Value::as_exact_int).unwrap_or(1);
                mons.push((leak(species), level.clamp(1, 100) as u8));
                moves.push(trainer_moves(data, reg, class, (index, n), m, problems));
            }
            // Parties without explicit moves keep the table empty (default moves throughout).
            if moves.iter().all(|m| m.is_empty()) {
                moves.clear();
            }
            out.push(TrainerDef {
                class,
                index: index as u16,
                name,
                map,
                party: Box::leak(mons.into_boxed_slice()),
                moves: Box::leak(moves.into_boxed_slice()),
                base_money,
            });
        }
    }
    Box::leak(out.into_boxed_slice())
}

/// A party mon's explicit `moves` (at most four, each a move of `data`); empty: the default
/// moves for its level.
fn trainer_moves(
    data: &Dataset,
    reg: &Registry,
    class: &str,
    (index, n): (usize, usize),
    mon: &Value,
    problems: &mut Problems,
) -> &'static [&'static str] {
    let list = mon.get("moves").and_then(Value::as_list).unwrap_or(&[]);
    let path = format!("trainers.{class}.parties[{}][{}].moves", index + 1, n + 1);
    if list.len() > crate::pokemon::MOVE_SLOTS {
        problems.blame(
            reg,
            class,
            format!("{path}: at most {} moves", crate::pokemon::MOVE_SLOTS),
        );
    }
    let mut out = Vec::new();
    for (k, mv) in list.iter().take(crate::pokemon::MOVE_SLOTS).enumerate() {
        let name = mv.as_str().unwrap_or("");
        match data.move_by_name(name) {
            Some(id) => out.push(data.move_data(id).id),
            None => problems.blame(
                reg,
                class,
                format!(
                    "{path}[{}]: {name:?} is not a move (no such id in moves)",
                    k + 1
                ),
            ),
        }
    }
    Box::leak(out.into_boxed_slice())
}

/// The engine game of an api version (`None`: not an active game, e.g. Gold).
pub fn engine_version(v: pallet_api::catalog::common::GameVersion) -> Option<GameVersion> {
    use pallet_api::catalog::common::GameVersion as Api;
    match v {
        Api::Red => Some(GameVersion::Red),
        Api::Blue => Some(GameVersion::Blue),
        Api::Yellow => Some(GameVersion::Yellow),
        _ => None,
    }
}

/// What the loader's freeze-time check compiled (shared between the check and its caller).
pub type CompiledSlot = std::rc::Rc<std::cell::RefCell<Option<GameContent>>>;

/// The loader's content check for `version`: compiles the merged view (only when some mod
/// wrote content), keeps the result in the returned slot, and reports every problem blamed on
/// its mod (the loader rolls it back and asks again).
pub fn loader_check(version: GameVersion) -> (pallet_api::loader::ContentCheck, CompiledSlot) {
    let slot: CompiledSlot = Default::default();
    let out = slot.clone();
    let check = Box::new(move |content: &Content| match compile(version, content) {
        Ok(c) => {
            *slot.borrow_mut() = Some(c);
            Vec::new()
        }
        Err(problems) => {
            *slot.borrow_mut() = None;
            problems
                .into_iter()
                // The loader frames these as `content: …` in the mod's row.
                .map(|p| (p.owner, p.message))
                .collect()
        }
    });
    (check, out)
}
