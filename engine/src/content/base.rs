//! Base records of every content registry from the active version's embedded data. Field
//! names are the public ones (the dataset views' `pokemon`/`moves`/`items`/`type_chart`
//! records come from the same source, so ids and shapes match them):
//!
//! * `pokemon`, `moves`, `items`, `type_chart` — the Gen 1 dataset (Yellow learnsets for
//!   Yellow), the same records [`crate::datasets::hydrate::embedded_records`] serves (a test
//!   holds them equal) built one at a time from the static tables;
//! * `maps` — every map of the version's embedded map set, in the engine's map shape
//!   (`width`, `height`, `tileset`, `blocks`, `warps` `{x, y, to, toX, toY, facing}`, `signs`,
//!   `npcs`, `outdoor`, `music`); a map's wild encounters live in the `encounters` registry;
//! * `encounters` — per map id, `{grass = {rate, slots = [{species, level}…]}}`;
//! * `trainers` — per trainer class, `{name, baseMoney, map, parties = [[{species, level,
//!   moves?}…]…]}`;
//! * `items` also holds the cartridge's floor, TM/HM and unnamed item slots, `trainers` every
//!   Gen 1 class ([`crate::public_records`]);
//! * `text` — the map texts and the battle message labels, `strings` — the source strings
//!   Pallet shows ([`super::texts`]);
//! * `map_scripts` — empty: the engine's base map scripts are engine code, not data (they stay
//!   in the map-script registry; a data contribution composes with them).
//!
//! Records are built per id on first read (see [`content_for`]): reading one Pikachu builds
//! one record, not the 151-species registry.

use std::collections::BTreeMap;
use std::rc::Rc;

use pallet_api::content::{BaseSource, Content};
use pallet_api::value::to_value;
use pallet_api::Value;

use super::trainers::TRAINERS;
use crate::datasets::hydrate::{conform, shape_of};
use crate::datasets::records::{dataset, item_record, move_record, species_source};
use crate::world::sites::api_version;
use crate::world::{store, GameVersion};

/// Registries whose base records come from `version`'s embedded data, built lazily: a
/// registry's ids on its first use, each record on its first read (straight from the static
/// tables, no whole-registry build).
pub fn content_for(version: GameVersion) -> Content {
    Content::with_sources(|registry| {
        let registry = Base::of(registry)?;
        Some(Rc::new(Source::new(version, registry)) as Rc<dyn BaseSource>)
    })
}

/// The base records of `registry` for `version` (empty for an unknown registry): every record
/// of its lazy source, built at once.
pub fn base_records(version: GameVersion, registry: &str) -> BTreeMap<String, Value> {
    let Some(registry) = Base::of(registry) else {
        return BTreeMap::new();
    };
    let src = Source::new(version, registry);
    src.ids()
        .into_iter()
        .filter_map(|id| Some((id.clone(), src.record(&id)?)))
        .collect()
}

/// The registries that have base records.
#[derive(Clone, Copy)]
enum Base {
    Pokemon,
    Moves,
    Items,
    TypeChart,
    Maps,
    Encounters,
    Trainers,
    Text,
    Strings,
}

impl Base {
    fn of(registry: &str) -> Option<Base> {
        Some(match registry {
            "pokemon" => Base::Pokemon,
            "moves" => Base::Moves,
            "items" => Base::Items,
            "type_chart" => Base::TypeChart,
            "maps" => Base::Maps,
            "encounters" => Base::Encounters,
            "trainers" => Base::Trainers,
            "text" => Base::Text,
            "strings" => Base::Strings,
            _ => return None,
        })
    }
}

/// One registry's base records from the embedded data of one version.
struct Source {
    version: GameVersion,
    registry: Base,
    /// The `text`/`strings` records, built once (they come from whole-table generators).
    texts: std::cell::OnceCell<BTreeMap<String, Value>>,
}

impl Source {
    fn new(version: GameVersion, registry: Base) -> Source {
        Source {
            version,
            registry,
            texts: std::cell::OnceCell::new(),
        }
    }

    fn texts(&self) -> &BTreeMap<String, Value> {
        self.texts.get_or_init(|| match self.registry {
            Base::Text => super::texts::base_text_records(self.version),
            Base::Strings => super::texts::base_string_records(),
            _ => BTreeMap::new(),
        })
    }
}

/// `rec` in the public shape of `registry` (empty tables as the schema expects them).
fn public(registry: &str, mut rec: Value) -> Value {
    if let Some(shape) = shape_of(registry) {
        conform(shape, &mut rec);
    }
    rec
}

impl BaseSource for Source {
    fn ids(&self) -> Vec<String> {
        let ds = dataset(api_version(self.version));
        match self.registry {
            Base::Pokemon => ds.species.iter().map(|s| s.id.to_owned()).collect(),
            Base::Moves => ds.moves.iter().map(|m| m.id.to_owned()).collect(),
            Base::Items => {
                let mut ids: Vec<String> = ds.items.iter().map(|i| i.id.to_owned()).collect();
                for id in crate::public_records::extra_items().into_keys() {
                    if !ids.contains(&id) {
                        ids.push(id);
                    }
                }
                ids
            }
            Base::TypeChart => ds.types.iter().map(|t| t.id().to_owned()).collect(),
            Base::Maps => store::embedded(self.version)
                .map(|set| set.maps.keys().cloned().collect())
                .unwrap_or_default(),
            Base::Encounters => store::embedded(self.version)
                .map(|set| {
                    set.maps
                        .iter()
                        .filter(|(_, d)| d.encounters.is_some())
                        .map(|(id, _)| id.clone())
                        .collect()
                })
                .unwrap_or_default(),
            Base::Trainers => {
                let mut ids: Vec<String> = TRAINERS.iter().map(|t| t.class.to_owned()).collect();
                ids.extend(
                    crate::public_records::TRAINER_CLASSES
                        .iter()
                        .map(|(class, _)| (*class).to_owned()),
                );
                ids.sort();
                ids.dedup();
                ids
            }
            Base::Text | Base::Strings => self.texts().keys().cloned().collect(),
        }
    }

    fn record(&self, id: &str) -> Option<Value> {
        let api = api_version(self.version);
        let ds = dataset(api);
        match self.registry {
            Base::Pokemon => {
                let sp = ds.species.iter().find(|s| s.id == id)?;
                let mut rec = species_source(ds, sp, api);
                // The cartridge pair of a single-typed species is one public type.
                if let Value::Map(m) = &mut rec {
                    if let Some(Value::List(types)) = m.get_mut("types") {
                        if types.len() == 2 && types[0] == types[1] {
                            types.truncate(1);
                        }
                    }
                }
                Some(public("pokemon", rec))
            }
            Base::Moves => {
                let mv = ds.moves.iter().find(|m| m.id == id)?;
                Some(public("moves", move_record(ds, mv)))
            }
            Base::Items => match ds.items.iter().find(|i| i.id == id) {
                Some(it) => Some(public("items", item_record(it))),
                None => crate::public_records::extra_items().remove(id),
            },
            Base::TypeChart => {
                let atk = ds.types.iter().find(|t| t.id() == id)?;
                let row: BTreeMap<String, Value> = ds
                    .type_matchups()
                    .iter()
                    .filter(|(a, _, _)| a == atk)
                    .map(|&(_, d, t)| (d.id().to_owned(), Value::Float(f64::from(t) / 10.0)))
                    .collect();
                Some(Value::Map(row))
            }
            Base::Maps => map_record(self.version, id),
            Base::Encounters => encounter_record(self.version, id),
            Base::Trainers => trainer_records().remove(id).or_else(|| {
                crate::public_records::TRAINER_CLASSES
                    .iter()
                    .find(|(class, _)| *class == id)
                    .map(|(_, name)| crate::public_records::class_record(name))
            }),
            Base::Text | Base::Strings => self.texts().get(id).cloned(),
        }
    }
}

fn map_record(version: GameVersion, id: &str) -> Option<Value> {
    let def = store::embedded(version).ok()?.maps.get(id)?;
    let mut v = to_value(&**def).ok()?;
    if let Value::Map(m) = &mut v {
        m.remove("id");
        m.remove("encounters");
    }
    Some(v)
}

/// One encounter slot record.
pub fn slot_record(species: &str, level: u8) -> Value {
    Value::map([
        ("species", Value::from(species)),
        ("level", Value::Int(level.into())),
    ])
}

fn encounter_record(version: GameVersion, id: &str) -> Option<Value> {
    let def = store::embedded(version).ok()?.maps.get(id)?;
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
    Some(Value::map([("grass", grass)]))
}

fn trainer_records() -> BTreeMap<String, Value> {
    let mut out: BTreeMap<String, Value> = BTreeMap::new();
    for t in TRAINERS {
        let party = Value::List(
            t.party
                .iter()
                .enumerate()
                .map(|(n, &(species, level))| {
                    let mut rec = slot_record(species, level);
                    match (t.moves.get(n), &mut rec) {
                        (Some(moves), Value::Map(m)) if !moves.is_empty() => {
                            let list = moves.iter().map(|&mv| Value::from(mv)).collect();
                            m.insert("moves".into(), Value::List(list));
                        }
                        _ => {}
                    }
                    rec
                })
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
