//! The embedded data as registry records (field names as mods see them: `baseStats`,
//! `catchRate`, …). These are the *source* records the importer writes; they mirror the
//! cartridge where it is structured differently from the public registry shape (a single-typed
//! species lists its type twice; the type chart is a list of matchup rows, with Gen 2's
//! Foresight rows apart), and [`super::hydrate`] turns them into public records.

use std::collections::BTreeMap;

use pallet_api::catalog::common::GameVersion;
use pallet_api::Value;

use super::yellow;
use crate::data::{
    gen1, gen2, Dataset, EvolutionTrigger, GrowthRate, ItemData, ItemKind, MoveData, MoveEffect,
    SpeciesData,
};

/// The embedded dataset of `version`'s generation.
pub fn dataset(version: GameVersion) -> &'static Dataset {
    match version.generation() {
        1 => gen1(),
        _ => gen2(),
    }
}

/// `"medium_fast"`, … (the `growthRate` vocabulary of the pokemon schema).
pub fn growth_id(g: GrowthRate) -> &'static str {
    match g {
        GrowthRate::MediumFast => "medium_fast",
        GrowthRate::SlightlyFast => "slightly_fast",
        GrowthRate::SlightlySlow => "slightly_slow",
        GrowthRate::MediumSlow => "medium_slow",
        GrowthRate::Fast => "fast",
        GrowthRate::Slow => "slow",
    }
}

/// A move effect as an upper-case id: Gen 2 effects keep their pokecrystal constant
/// (`"EFFECT_NORMAL_HIT"`); Gen 1 effects are the engine's effect names in constant case
/// (`PoisonSideEffect1` → `"POISON_SIDE_EFFECT1"`).
pub fn effect_id(e: MoveEffect) -> String {
    if let MoveEffect::Gen2(name) = e {
        return name.to_owned();
    }
    let debug = format!("{e:?}");
    let mut out = String::with_capacity(debug.len() + 8);
    for (i, c) in debug.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_uppercase());
    }
    out
}

/// `"ball"`, `"heal"`, … (the `kind` vocabulary of the items schema).
pub fn item_kind(k: ItemKind) -> &'static str {
    match k {
        ItemKind::Ball { .. } => "ball",
        ItemKind::Heal { .. } => "heal",
        ItemKind::FullRestore => "full_restore",
        ItemKind::StatusHeal { .. } => "status_heal",
        ItemKind::Revive { .. } => "revive",
        ItemKind::Battle => "battle",
        ItemKind::Evolution => "evolution",
        ItemKind::Key => "key",
        ItemKind::Other => "other",
    }
}

fn int(i: impl Into<i64>) -> Value {
    Value::Int(i.into())
}

fn move_id(ds: &Dataset, id: crate::data::MoveId) -> Value {
    Value::from(ds.get_move(id).map(|m| m.id).unwrap_or(""))
}

pub(crate) fn evolution(ev: &crate::data::Evolution) -> Value {
    let mut m = BTreeMap::new();
    m.insert("into".to_owned(), Value::from(ev.into));
    match ev.trigger {
        EvolutionTrigger::Level(l) => {
            m.insert("level".to_owned(), int(l));
        }
        EvolutionTrigger::Item(item) => {
            m.insert("item".to_owned(), Value::from(item));
        }
        EvolutionTrigger::Trade => {
            m.insert("trade".to_owned(), Value::Bool(true));
        }
        EvolutionTrigger::Other(text) => {
            let mut words = text.split(' ');
            match (words.next(), words.next(), words.next()) {
                (Some("TRADE"), Some(item), None) => {
                    m.insert("trade".to_owned(), Value::Bool(true));
                    m.insert("item".to_owned(), Value::from(item));
                }
                (Some("STAT"), Some(level), Some(cond)) => {
                    if let Ok(l) = level.parse::<i64>() {
                        m.insert("level".to_owned(), int(l));
                    }
                    m.insert("condition".to_owned(), Value::from(cond));
                }
                _ => {
                    m.insert("condition".to_owned(), Value::from(text.replace(' ', "_")));
                }
            }
        }
    }
    Value::Map(m)
}

/// One species as the importer writes it for `version` (Yellow corrections applied).
pub fn species_source(ds: &Dataset, sp: &SpeciesData, version: GameVersion) -> Value {
    let mut stats = BTreeMap::new();
    stats.insert("hp".to_owned(), int(sp.hp));
    stats.insert("attack".to_owned(), int(sp.atk));
    stats.insert("defense".to_owned(), int(sp.def));
    stats.insert("speed".to_owned(), int(sp.spe));
    stats.insert("special".to_owned(), int(sp.spc));
    if ds.generation >= 2 {
        stats.insert("specialDefense".to_owned(), int(sp.spd));
    }
    let yellow = version == GameVersion::Yellow;
    let start_moves: Vec<Value> = match yellow.then(|| yellow::start_moves(sp.id)).flatten() {
        Some(names) => names.iter().map(|n| Value::from(*n)).collect(),
        None => sp.start_moves.iter().map(|&m| move_id(ds, m)).collect(),
    };
    let row = |level: u8, mv: Value| Value::map([("level", int(level)), ("move", mv)]);
    let learnset: Vec<Value> = match yellow.then(|| yellow::learnset(sp.id)).flatten() {
        Some(rows) => rows
            .iter()
            .map(|&(l, name)| row(l, Value::from(name)))
            .collect(),
        None => sp
            .learnset
            .iter()
            .map(|&(l, m)| row(l, move_id(ds, m)))
            .collect(),
    };
    Value::map([
        ("name", Value::from(sp.name)),
        ("dex", int(sp.dex)),
        ("baseStats", Value::Map(stats)),
        // The cartridge pair: a single-typed species repeats its type.
        (
            "types",
            Value::List(sp.types.iter().map(|t| Value::from(t.id())).collect()),
        ),
        ("catchRate", int(sp.catch_rate)),
        ("baseExp", int(sp.base_exp)),
        ("growthRate", Value::from(growth_id(sp.growth))),
        ("startMoves", Value::List(start_moves)),
        ("learnset", Value::List(learnset)),
        (
            "evolutions",
            Value::List(sp.evolutions.iter().map(evolution).collect()),
        ),
    ])
}

/// One move record.
pub fn move_record(ds: &Dataset, mv: &MoveData) -> Value {
    let mut m = Value::map([
        ("name", Value::from(mv.name)),
        ("num", int(mv.num)),
        ("type", Value::from(mv.ty.id())),
        ("power", int(mv.power)),
        ("accuracy", int(mv.accuracy)),
        ("pp", int(mv.pp)),
        ("effect", Value::from(effect_id(mv.effect))),
    ]);
    if ds.generation >= 2 {
        if let Value::Map(map) = &mut m {
            map.insert("effectChance".to_owned(), int(mv.effect_chance));
        }
    }
    m
}

/// One item record.
pub fn item_record(item: &ItemData) -> Value {
    Value::map([
        ("name", Value::from(item.name)),
        ("num", int(item.num)),
        ("price", int(item.price)),
        ("kind", Value::from(item_kind(item.kind))),
    ])
}

fn multiplier(tenths: u8) -> Value {
    Value::Float(f64::from(tenths) / 10.0)
}

/// The payload of the type-chart module: `types` (the generation's type ids), `matchups`
/// (`{attacker, defender, multiplier}` rows in cartridge order; unlisted pairs are neutral),
/// and for Gen 2 `foresight` (the immunities Foresight ignores, kept apart as on the cartridge).
pub fn type_chart_source(ds: &Dataset) -> BTreeMap<String, Value> {
    let rows = ds.type_matchups();
    let split = ds.foresight_rows_start().min(rows.len());
    let encode = |rows: &[(crate::data::Type, crate::data::Type, u8)]| {
        Value::List(
            rows.iter()
                .map(|&(a, d, t)| {
                    Value::List(vec![
                        Value::from(a.id()),
                        Value::from(d.id()),
                        multiplier(t),
                    ])
                })
                .collect(),
        )
    };
    let mut out = BTreeMap::new();
    out.insert(
        "types".to_owned(),
        Value::List(ds.types.iter().map(|t| Value::from(t.id())).collect()),
    );
    out.insert("matchups".to_owned(), encode(&rows[..split]));
    if ds.generation >= 2 {
        out.insert("foresight".to_owned(), encode(&rows[split..]));
    }
    out
}

/// The source records of `registry` for `version` (`None` for the type chart, which is not a
/// record map at the source, and for registries the dataset has no data for).
pub fn source_records(version: GameVersion, registry: &str) -> Option<BTreeMap<String, Value>> {
    let ds = dataset(version);
    let out: BTreeMap<String, Value> = match registry {
        "pokemon" => ds
            .species
            .iter()
            .map(|sp| (sp.id.to_owned(), species_source(ds, sp, version)))
            .collect(),
        "moves" => ds
            .moves
            .iter()
            .map(|m| (m.id.to_owned(), move_record(ds, m)))
            .collect(),
        "encounters" => super::encounters::records(version),
        "items" if !ds.items.is_empty() => ds
            .items
            .iter()
            .map(|i| (i.id.to_owned(), item_record(i)))
            .collect(),
        _ => return None,
    };
    Some(out)
}
