//! Compile the merged `pokemon`, `moves`, `items` and `type_chart` registries into one
//! `'static` [`Dataset`] the battle loop reads like the embedded one.
//!
//! Numbering is the cartridge's: base records keep their index (species `dex - 1`, move
//! `num - 1`, item numbers), new records are appended in lexical id order (a new item takes its
//! `num` when free, else the first free number). A removed base species or move keeps its
//! number (saves and tables are numbered) but no name reaches it any more, so nothing can
//! create, learn or reference it; a removed item leaves the table. References the base data
//! still makes to a removed record are blamed on the remover ([`super::removed`]). Every
//! cross-reference is checked: learnset and
//! start moves name moves, evolutions name species, types exist in the generation, effects are
//! effects the engine implements.

use std::collections::{BTreeMap, BTreeSet};

use pallet_api::content::{Content, Registry};
use pallet_api::Value;

use super::problems::Problems;
use crate::data::{
    normalize_name, Dataset, DatasetParts, Evolution, EvolutionTrigger, GrowthRate, ItemData,
    ItemKind, MoveData, MoveEffect, MoveId, SpeciesData, Type,
};
use crate::datasets::records::{effect_id, growth_id, item_kind};

fn leak(s: &str) -> &'static str {
    Box::leak(s.to_owned().into_boxed_str())
}

fn int(rec: &Value, key: &str) -> Option<i64> {
    rec.get(key).and_then(Value::as_exact_int)
}

fn text<'a>(rec: &'a Value, key: &str) -> Option<&'a str> {
    rec.get(key).and_then(Value::as_str)
}

/// Which registries differ from the base (only those are recompiled).
pub fn dataset_modified(content: &Content) -> bool {
    ["pokemon", "moves", "items", "type_chart"]
        .iter()
        .any(|r| content.registry(r).is_some_and(Registry::is_modified))
}

/// Base ids in table order (a removed one too: it keeps its number), then the ids only the
/// merged view has, lexical.
fn ordered_ids<'a>(reg: &'a Registry, base_order: &[&'a str]) -> Vec<&'a str> {
    let mut out = base_order.to_vec();
    for id in reg.ids() {
        if !base_order.contains(&id) {
            out.push(id);
        }
    }
    out
}

fn gen_type(reg: &Registry, id: &str, t: &str, path: &str, problems: &mut Problems) -> Type {
    match Type::from_id(t).filter(|ty| Type::GEN1.contains(ty)) {
        Some(ty) => ty,
        None => {
            problems.blame(
                reg,
                id,
                format!("{path}: {t:?} is not a type of generation 1"),
            );
            Type::Normal
        }
    }
}

fn growth(s: &str) -> Option<GrowthRate> {
    [
        GrowthRate::MediumFast,
        GrowthRate::SlightlyFast,
        GrowthRate::SlightlySlow,
        GrowthRate::MediumSlow,
        GrowthRate::Fast,
        GrowthRate::Slow,
    ]
    .into_iter()
    .find(|g| growth_id(*g) == s)
}

/// An index `(normalized key, id)` sorted by key: the base entries first (aliases kept), then
/// the id and display name of every record, first key wins; `removed` ids answer to no name.
fn name_index(
    base: &'static [(&'static str, u16)],
    names: impl Iterator<Item = (String, u16)>,
    removed: &BTreeSet<u16>,
) -> Vec<(&'static str, u16)> {
    let mut map: BTreeMap<Vec<u8>, (&'static str, u16)> = BTreeMap::new();
    for &(k, id) in base.iter().filter(|(_, id)| !removed.contains(id)) {
        map.entry(k.as_bytes().to_vec()).or_insert((k, id));
    }
    for (k, id) in names.filter(|(_, id)| !removed.contains(id)) {
        let key = normalize_name(&k);
        if key.is_empty() {
            continue;
        }
        // A renamed base record answers to its new name too; an existing key stays its owner's.
        map.entry(key.as_bytes().to_vec())
            .or_insert_with(|| (leak(&key), id));
    }
    map.into_values().collect()
}

/// Compile the four dataset registries on top of `base` (Gen 1).
pub fn compile_dataset(
    base: &'static Dataset,
    content: &Content,
    problems: &mut Problems,
) -> &'static Dataset {
    let (Some(preg), Some(mreg), Some(ireg), Some(treg)) = (
        content.registry("pokemon"),
        content.registry("moves"),
        content.registry("items"),
        content.registry("type_chart"),
    ) else {
        return base;
    };
    let (base_species_names, base_move_names, base_item_names) = base.name_indexes();

    // ----- moves -----
    let move_order: Vec<&str> = base.moves.iter().map(|m| m.id).collect();
    let move_ids = ordered_ids(mreg, &move_order);
    let mut removed_moves: BTreeSet<u16> = BTreeSet::new();
    let effects: BTreeMap<String, MoveEffect> = base
        .moves
        .iter()
        .map(|m| (effect_id(m.effect), m.effect))
        .collect();
    let mut moves = Vec::with_capacity(move_ids.len());
    let mut move_index: BTreeMap<&str, MoveId> = BTreeMap::new();
    for (i, id) in move_ids.iter().enumerate() {
        let num = (i + 1) as u16;
        let base_rec = base.moves.get(i).filter(|m| m.id == *id);
        let rec = match (base_rec, mreg.get(id)) {
            (Some(b), _) if !mreg.is_touched(id) => {
                move_index.insert(id, MoveId(num));
                moves.push(*b);
                continue;
            }
            // Removed: the number stays taken, no name reaches it.
            (Some(b), None) => {
                removed_moves.insert(num);
                moves.push(*b);
                continue;
            }
            (_, Some(rec)) => rec,
            (None, None) => continue,
        };
        move_index.insert(id, MoveId(num));
        let effect = match text(rec, "effect") {
            Some(e) => effects.get(e).copied().unwrap_or_else(|| {
                problems.blame(
                    mreg,
                    id,
                    format!("moves.{id}.effect: {e:?} is not an effect the engine implements"),
                );
                MoveEffect::NoAdditionalEffect
            }),
            None => base_rec.map_or(MoveEffect::NoAdditionalEffect, |m| m.effect),
        };
        let ty = gen_type(
            mreg,
            id,
            text(rec, "type").unwrap_or(""),
            &format!("moves.{id}.type"),
            problems,
        );
        moves.push(MoveData {
            id: base_rec.map_or_else(|| leak(id), |m| m.id),
            name: match (base_rec, text(rec, "name")) {
                (Some(m), Some(n)) if m.name == n => m.name,
                (_, Some(n)) => leak(n),
                (Some(m), None) => m.name,
                (None, None) => leak(id),
            },
            num,
            effect,
            power: int(rec, "power").unwrap_or(0).clamp(0, 255) as u8,
            ty,
            accuracy: int(rec, "accuracy").unwrap_or(100).clamp(0, 100) as u8,
            pp: int(rec, "pp").unwrap_or(1).clamp(1, 64) as u8,
            effect_chance: 0,
        });
    }
    let find_move = |reg: &Registry, owner_id: &str, m: &Value, path: &str, p: &mut Problems| {
        let name = m.as_str().unwrap_or("");
        match move_index.get(name) {
            Some(id) => Some(*id),
            None => {
                p.blame(
                    reg,
                    owner_id,
                    format!("{path}: {name:?} is not a move (no such id in moves)"),
                );
                None
            }
        }
    };

    // ----- pokemon -----
    let species_order: Vec<&str> = base.species.iter().map(|s| s.id).collect();
    let species_ids = ordered_ids(preg, &species_order);
    let mut removed_species: BTreeSet<u16> = BTreeSet::new();
    let mut species = Vec::with_capacity(species_ids.len());
    for (i, id) in species_ids.iter().enumerate() {
        let base_rec = base.species.get(i).filter(|s| s.id == *id);
        let rec = match (base_rec, preg.get(id)) {
            // An untouched base species is the embedded record (its move ids keep their
            // numbers).
            (Some(b), _) if !preg.is_touched(id) => {
                species.push(*b);
                continue;
            }
            // Removed: the dex number stays taken, no name reaches it.
            (Some(b), None) => {
                removed_species.insert(i as u16);
                species.push(*b);
                continue;
            }
            (_, Some(rec)) => rec,
            (None, None) => continue,
        };
        let stats = rec.get("baseStats");
        let stat = |k: &str| {
            stats
                .and_then(|s| s.get(k))
                .and_then(Value::as_exact_int)
                .unwrap_or(1)
                .clamp(1, 255) as u8
        };
        let types: Vec<Type> = rec
            .get("types")
            .and_then(Value::as_list)
            .unwrap_or(&[])
            .iter()
            .enumerate()
            .map(|(n, t)| {
                gen_type(
                    preg,
                    id,
                    t.as_str().unwrap_or(""),
                    &format!("pokemon.{id}.types[{}]", n + 1),
                    problems,
                )
            })
            .collect();
        let t0 = types.first().copied().unwrap_or(Type::Normal);
        let t1 = types.get(1).copied().unwrap_or(t0);
        let start_moves: Vec<MoveId> = rec
            .get("startMoves")
            .and_then(Value::as_list)
            .unwrap_or(&[])
            .iter()
            .enumerate()
            .filter_map(|(n, m)| {
                find_move(
                    preg,
                    id,
                    m,
                    &format!("pokemon.{id}.startMoves[{}]", n + 1),
                    problems,
                )
            })
            .collect();
        let learnset: Vec<(u8, MoveId)> = rec
            .get("learnset")
            .and_then(Value::as_list)
            .unwrap_or(&[])
            .iter()
            .enumerate()
            .filter_map(|(n, row)| {
                let level = int(row, "level").unwrap_or(1).clamp(1, 100) as u8;
                let mv = find_move(
                    preg,
                    id,
                    row.get("move").unwrap_or(&Value::Nil),
                    &format!("pokemon.{id}.learnset[{}].move", n + 1),
                    problems,
                )?;
                Some((level, mv))
            })
            .collect();
        let mut evolutions = Vec::new();
        for (n, ev) in rec
            .get("evolutions")
            .and_then(Value::as_list)
            .unwrap_or(&[])
            .iter()
            .enumerate()
        {
            let into = text(ev, "into").unwrap_or("");
            if !preg.contains(into) {
                problems.blame(
                    preg,
                    id,
                    format!(
                        "pokemon.{id}.evolutions[{}].into: {into:?} is not a species",
                        n + 1
                    ),
                );
                continue;
            }
            let trigger = if let Some(l) = int(ev, "level") {
                EvolutionTrigger::Level(l.clamp(1, 100) as u8)
            } else if let Some(item) = text(ev, "item") {
                if !ireg.contains(item) {
                    problems.blame(
                        preg,
                        id,
                        format!(
                            "pokemon.{id}.evolutions[{}].item: {item:?} is not an item",
                            n + 1
                        ),
                    );
                }
                EvolutionTrigger::Item(leak(item))
            } else {
                EvolutionTrigger::Trade
            };
            let into = species_order
                .iter()
                .find(|s| **s == into)
                .copied()
                .unwrap_or_else(|| leak(into));
            evolutions.push(Evolution { trigger, into });
        }
        let growth_rate = text(rec, "growthRate")
            .and_then(growth)
            .or(base_rec.map(|s| s.growth))
            .unwrap_or(GrowthRate::MediumFast);
        species.push(SpeciesData {
            id: base_rec.map_or_else(|| leak(id), |s| s.id),
            name: match (base_rec, text(rec, "name")) {
                (Some(s), Some(n)) if s.name == n => s.name,
                (_, Some(n)) => leak(n),
                (Some(s), None) => s.name,
                (None, None) => leak(id),
            },
            dex: (i + 1) as u16,
            hp: stat("hp"),
            atk: stat("attack"),
            def: stat("defense"),
            spe: stat("speed"),
            spc: stat("special"),
            spd: stat("special"),
            types: [t0, t1],
            catch_rate: int(rec, "catchRate").unwrap_or(45).clamp(0, 255) as u8,
            base_exp: int(rec, "baseExp").unwrap_or(64).clamp(0, 255) as u8,
            growth: growth_rate,
            start_moves: Box::leak(start_moves.into_boxed_slice()),
            learnset: Box::leak(learnset.into_boxed_slice()),
            evolutions: Box::leak(evolutions.into_boxed_slice()),
        });
    }

    // ----- items -----
    let item_order: Vec<&str> = base.items.iter().map(|i| i.id).collect();
    let item_ids = ordered_ids(ireg, &item_order);
    let mut used = [false; 256];
    used[0] = true;
    for it in base.items {
        used[usize::from(it.num).min(255)] = true;
    }
    let mut items = Vec::with_capacity(item_ids.len());
    let mut slots = [u8::MAX; 256];
    for (i, id) in item_ids.iter().enumerate() {
        let Some(rec) = ireg.get(id) else { continue };
        let base_rec = base.items.get(i).filter(|it| it.id == *id);
        let num = match base_rec {
            Some(b) => b.num,
            None => {
                let wanted = int(rec, "num")
                    .filter(|n| (1..=255).contains(n) && !used[*n as usize])
                    .map(|n| n as usize);
                match wanted.or_else(|| (1..=255).find(|n| !used[*n])) {
                    Some(n) => {
                        used[n] = true;
                        n as u16
                    }
                    None => {
                        problems.blame(ireg, id, format!("items.{id}: no free item number"));
                        continue;
                    }
                }
            }
        };
        let kind_name = text(rec, "kind").unwrap_or("other");
        let base_kind = base_rec.map(|b| b.kind);
        let kind = match (kind_name, base_kind) {
            (k, Some(b)) if item_kind(b) == k => match b {
                ItemKind::Heal { hp } => ItemKind::Heal {
                    hp: int(rec, "hp").map_or(hp, |h| h.clamp(1, 65535) as u16),
                },
                other => other,
            },
            ("ball", _) => ItemKind::Ball { modifier: 12 },
            ("heal", _) => ItemKind::Heal {
                hp: int(rec, "hp").unwrap_or(20).clamp(1, 65535) as u16,
            },
            ("full_restore", _) => ItemKind::FullRestore,
            ("status_heal", _) => ItemKind::StatusHeal {
                cures: leak(text(rec, "cures").unwrap_or("ALL")),
            },
            ("revive", _) => ItemKind::Revive {
                full: rec.get("full").and_then(Value::as_bool).unwrap_or(false),
            },
            ("battle", _) => ItemKind::Battle,
            ("evolution", _) => ItemKind::Evolution,
            ("key", _) => ItemKind::Key,
            _ => ItemKind::Other,
        };
        if slots[usize::from(num)] == u8::MAX && items.len() < 255 {
            slots[usize::from(num)] = items.len() as u8;
        }
        items.push(ItemData {
            id: base_rec.map_or_else(|| leak(id), |b| b.id),
            name: match (base_rec, text(rec, "name")) {
                (Some(b), Some(n)) if b.name == n => b.name,
                (_, Some(n)) => leak(n),
                (Some(b), None) => b.name,
                (None, None) => leak(id),
            },
            num,
            price: int(rec, "price").unwrap_or(0).clamp(0, 9_999_999) as u32,
            kind,
        });
    }

    // ----- type chart -----
    let (type_chart, matchups) = compile_type_chart(base, treg, problems);

    let species_names = name_index(
        base_species_names,
        species
            .iter()
            .enumerate()
            .flat_map(|(i, s)| [(s.id.to_owned(), i as u16), (s.name.to_owned(), i as u16)]),
        &removed_species,
    );
    let move_names = name_index(
        base_move_names,
        moves
            .iter()
            .flat_map(|m| [(m.id.to_owned(), m.num), (m.name.to_owned(), m.num)]),
        &removed_moves,
    );
    // A removed item is not in `items`; its base names must not reach its number either.
    let removed_items: BTreeSet<u16> = base
        .items
        .iter()
        .filter(|it| !ireg.contains(it.id))
        .map(|it| it.num)
        .collect();
    let item_names = name_index(
        base_item_names,
        items
            .iter()
            .flat_map(|it| [(it.id.to_owned(), it.num), (it.name.to_owned(), it.num)]),
        &removed_items,
    );
    Dataset::leak_from(DatasetParts {
        generation: base.generation,
        species,
        moves,
        items,
        types: base.types,
        type_chart,
        matchups,
        species_names,
        move_names,
        item_names,
        item_slots: slots,
    })
}

/// Tenths of a multiplier (`0.5` → 5); `None` unless a whole number of tenths in 0..=255.
fn tenths(v: &Value) -> Option<u8> {
    let f = match v {
        Value::Int(i) => *i as f64,
        Value::Float(f) => *f,
        _ => return None,
    };
    let t = f * 10.0;
    (t.fract().abs() < 1e-9 && (0.0..=255.0).contains(&t)).then_some(t.round() as u8)
}

/// A compiled chart (tenths) and its matchup rows.
type CompiledChart = ([[u8; 17]; 17], Vec<(Type, Type, u8)>);

/// The chart and the cartridge-ordered rows: base rows keep their order (a row whose merged
/// value is neutral is dropped), new non-neutral pairs are appended in lexical order.
fn compile_type_chart(
    base: &'static Dataset,
    treg: &Registry,
    problems: &mut Problems,
) -> CompiledChart {
    let mut chart = [[10u8; 17]; 17];
    let mut value_of: BTreeMap<(Type, Type), u8> = BTreeMap::new();
    for (atk_id, rec) in treg.each() {
        let atk = gen_type(
            treg,
            atk_id,
            atk_id,
            &format!("type_chart.{atk_id}"),
            problems,
        );
        for (def_id, m) in rec.as_map().into_iter().flatten() {
            let path = format!("type_chart.{atk_id}.{def_id}");
            let def = gen_type(treg, atk_id, def_id, &path, problems);
            match tenths(m) {
                Some(t) => {
                    value_of.insert((atk, def), t);
                }
                None => problems.blame(
                    treg,
                    atk_id,
                    format!("{path}: {m:?} is not a multiplier in tenths (0, 0.5, 1, 2, …)"),
                ),
            }
        }
    }
    let mut rows = Vec::new();
    for &(a, d, _) in base.type_matchups() {
        if let Some(t) = value_of.remove(&(a, d)) {
            if t != 10 {
                rows.push((a, d, t));
            }
        }
    }
    for ((a, d), t) in value_of {
        if t != 10 {
            rows.push((a, d, t));
        }
    }
    for &(a, d, t) in &rows {
        chart[a as usize][d as usize] = t;
    }
    (chart, rows)
}
