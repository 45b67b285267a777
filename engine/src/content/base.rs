//! Base records of every content registry from the active version's embedded data. Field
//! names are the public ones (the dataset views' `pokemon`/`moves`/`items`/`type_chart`
//! records come from the same source, so ids and shapes match them):
//!
//! * `pokemon`, `moves`, `items`, `type_chart` — the Gen 1 dataset (Yellow learnsets for
//!   Yellow), through [`crate::datasets::hydrate::embedded_records`];
//! * `maps` — every map of the version's embedded map set, in the engine's map shape
//!   (`width`, `height`, `tileset`, `blocks`, `warps` `{x, y, to, toX, toY, facing}`, `signs`,
//!   `npcs`, `outdoor`, `music`); a map's wild encounters live in the `encounters` registry;
//! * `encounters` — per map id, `{grass = {rate, slots = [{species, level}…]}}`;
//! * `trainers` — per trainer class, `{name, baseMoney, map, parties = [[{species, level}…]…]}`;
//! * `items` also holds the cartridge's floor, TM/HM and unnamed item slots, `trainers` every
//!   Gen 1 class ([`super::public_records`]);
//! * `text` — the map texts and the battle message labels, `strings` — the source strings
//!   Pallet shows ([`super::texts`]);
//! * `map_scripts` — empty: the engine's base map scripts are engine code, not data (they stay
//!   in the map-script registry; a data contribution composes with them).

use std::collections::BTreeMap;
use std::rc::Rc;

use pallet_api::content::Content;
use pallet_api::value::to_value;
use pallet_api::Value;

use crate::datasets::hydrate::embedded_records;
use crate::game::TRAINERS;
use crate::world::sites::api_version;
use crate::world::{store, GameVersion};

/// Registries whose base records are built lazily from `version`'s embedded data on first use.
pub fn content_for(version: GameVersion) -> Content {
    Content::with_base(Rc::new(move |registry| base_records(version, registry)))
}

/// The base records of `registry` for `version` (empty for an unknown registry).
pub fn base_records(version: GameVersion, registry: &str) -> BTreeMap<String, Value> {
    match registry {
        "pokemon" | "moves" | "items" | "type_chart" => {
            let mut records = match embedded_records(api_version(version), registry) {
                Some(Ok(records)) => records,
                _ => BTreeMap::new(),
            };
            if registry == "items" {
                for (id, rec) in super::public_records::extra_items() {
                    records.entry(id).or_insert(rec);
                }
            }
            records
        }
        "maps" => map_records(version),
        "encounters" => encounter_records(version),
        "trainers" => {
            let mut records = trainer_records();
            for (class, name) in super::public_records::TRAINER_CLASSES {
                records
                    .entry((*class).to_owned())
                    .or_insert_with(|| super::public_records::class_record(name));
            }
            records
        }
        "text" => super::texts::base_text_records(version),
        "strings" => super::texts::base_string_records(),
        _ => BTreeMap::new(),
    }
}

fn map_records(version: GameVersion) -> BTreeMap<String, Value> {
    let Ok(set) = store::embedded(version) else {
        return BTreeMap::new();
    };
    set.maps
        .iter()
        .filter_map(|(id, def)| {
            let mut v = to_value(&**def).ok()?;
            if let Value::Map(m) = &mut v {
                m.remove("id");
                m.remove("encounters");
            }
            Some((id.clone(), v))
        })
        .collect()
}

/// One encounter slot record.
pub fn slot_record(species: &str, level: u8) -> Value {
    Value::map([
        ("species", Value::from(species)),
        ("level", Value::Int(level.into())),
    ])
}

fn encounter_records(version: GameVersion) -> BTreeMap<String, Value> {
    let Ok(set) = store::embedded(version) else {
        return BTreeMap::new();
    };
    set.maps
        .iter()
        .filter_map(|(id, def)| {
            let enc = def.encounters.as_ref()?;
            let slots = enc
                .grass
                .iter()
                .map(|s| slot_record(&s.species, s.level))
                .collect();
            let grass = Value::map([
                ("rate", Value::Int(enc.grass_rate.into())),
                ("slots", Value::List(slots)),
            ]);
            Some((id.clone(), Value::map([("grass", grass)])))
        })
        .collect()
}

fn trainer_records() -> BTreeMap<String, Value> {
    let mut out: BTreeMap<String, Value> = BTreeMap::new();
    for t in TRAINERS {
        let party = Value::List(
            t.party
                .iter()
                .map(|&(species, level)| slot_record(species, level))
                .collect(),
        );
        let rec = out.entry(t.class.to_owned()).or_insert_with(|| {
            Value::map([
                ("name", Value::from(t.name)),
                ("baseMoney", Value::Int(t.base_money.into())),
                ("map", Value::from(t.map)),
                ("parties", Value::List(Vec::new())),
            ])
        });
        if let Value::Map(m) = rec {
            if let Some(Value::List(parties)) = m.get_mut("parties") {
                let i = usize::from(t.index);
                if parties.len() <= i {
                    parties.resize(i + 1, Value::List(Vec::new()));
                }
                parties[i] = party;
            }
        }
    }
    out
}
