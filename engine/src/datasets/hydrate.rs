//! Canonical selected-version normalization of a decoded module root into public records,
//! and the schema gate every record passes before it can cross a view.
//!
//! 1. The extractor metadata beside the payload (`format`, `version`, `generation`,
//!    `registry`) must name this module exactly; it never becomes a record.
//! 2. Structured sources are shaped into the registry's public form: the type chart's matchup
//!    rows (and Gen 2's separate Foresight rows) become one record per attacking type
//!    (`{DEFENDER = multiplier}`), the same ids the active `mod.content.type_chart` uses; a
//!    species' cartridge type pair (`{"FIRE", "FIRE"}`) becomes its public type list.
//! 3. Empty tables take the shape the schema expects (Lua cannot tell `{}` lists from maps).
//! 4. Every record is checked with the registry's public schema from `pallet_api::content`
//!    (no dataset-specific duplicate) plus the generation's routing: types must exist in the
//!    selected generation, Gen 2 species carry Special Defense. Any failure rejects the root.

use std::collections::BTreeMap;

use pallet_api::catalog::common::GameVersion;
use pallet_api::content::schema::{check, Shape};
use pallet_api::content::REGISTRIES;
use pallet_api::Value;

use super::contract::{Module, MODULE_FORMAT};
use super::records::dataset;
use crate::data::Type;

/// The public schema of `registry`.
pub fn shape_of(registry: &str) -> Option<&'static Shape> {
    REGISTRIES
        .iter()
        .find(|(name, _, _)| *name == registry)
        .map(|(_, shape, _)| *shape)
}

/// Registry ids: what `pallet_api::content::Registry` accepts.
fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 128
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
}

/// Turn empty maps into empty lists wherever `shape` expects a list (in place).
pub fn conform(shape: &Shape, value: &mut Value) {
    match (shape, value) {
        (Shape::List { .. }, v @ Value::Map(_)) if v.as_map().is_some_and(|m| m.is_empty()) => {
            *v = Value::List(Vec::new());
        }
        (Shape::List { item, .. }, Value::List(items)) => {
            for it in items {
                conform(item, it);
            }
        }
        (Shape::MapOf(inner), Value::Map(m)) => {
            for v in m.values_mut() {
                conform(inner, v);
            }
        }
        (Shape::Record(fields), Value::Map(m)) => {
            for f in fields.iter() {
                if let Some(v) = m.get_mut(f.name) {
                    conform(f.shape, v);
                }
            }
        }
        _ => {}
    }
}

fn has_type(version: GameVersion, id: &str) -> bool {
    Type::from_id(id).is_some_and(|t| id == t.id() && dataset(version).has_type(t))
}

fn meta_matches(
    root: &BTreeMap<String, Value>,
    version: GameVersion,
    module: &Module,
) -> Result<(), String> {
    let field = |k: &str| root.get(k);
    if field("format").and_then(Value::as_str) != Some(MODULE_FORMAT) {
        return Err(format!("format is not {MODULE_FORMAT:?}"));
    }
    if field("version").and_then(Value::as_str) != Some(version.as_str()) {
        return Err(format!("module is not for version {}", version.as_str()));
    }
    if field("generation").and_then(Value::as_exact_int) != Some(version.generation().into()) {
        return Err(format!("module is not generation {}", version.generation()));
    }
    if field("registry").and_then(Value::as_str) != Some(module.registry) {
        return Err(format!("module is not the {} registry", module.registry));
    }
    Ok(())
}

fn type_chart_records(
    root: &BTreeMap<String, Value>,
    version: GameVersion,
) -> Result<BTreeMap<String, Value>, String> {
    let types = root
        .get("types")
        .and_then(Value::as_list)
        .ok_or("type_chart: `types` must be a list")?;
    let mut out: BTreeMap<String, Value> = BTreeMap::new();
    for t in types {
        let id = t.as_str().filter(|id| has_type(version, id));
        let id = id.ok_or_else(|| format!("type_chart: {t:?} is not a type of this generation"))?;
        out.insert(id.to_owned(), Value::Map(BTreeMap::new()));
    }
    let mut rows: Vec<&Value> = Vec::new();
    for key in ["matchups", "foresight"] {
        match root.get(key) {
            None if key == "foresight" && version.generation() == 1 => {}
            None => return Err(format!("type_chart: `{key}` is missing")),
            Some(Value::Map(m)) if m.is_empty() => {}
            Some(Value::List(l)) => rows.extend(l.iter()),
            Some(_) => return Err(format!("type_chart: `{key}` must be a list of rows")),
        }
    }
    for row in rows {
        let (atk, def, mult) = match row.as_list() {
            Some([Value::Str(a), Value::Str(d), m]) => (a, d, m),
            _ => return Err(format!("type_chart: malformed row {row:?}")),
        };
        let record = out
            .get_mut(atk.as_str())
            .and_then(|r| match r {
                Value::Map(m) => Some(m),
                _ => None,
            })
            .ok_or_else(|| format!("type_chart: unknown attacking type {atk:?}"))?;
        if record.insert(def.clone(), mult.clone()).is_some() {
            return Err(format!("type_chart: duplicate matchup {atk} -> {def}"));
        }
    }
    Ok(out)
}

/// A species' cartridge type pair as its public type list (`{"FIRE", "FIRE"}` → `{"FIRE"}`).
fn normalize_species(rec: &mut Value) {
    if let Some(Value::List(types)) = rec_field(rec, "types") {
        if types.len() == 2 && types[0] == types[1] {
            types.truncate(1);
        }
    }
}

fn rec_field<'a>(rec: &'a mut Value, key: &str) -> Option<&'a mut Value> {
    match rec {
        Value::Map(m) => m.get_mut(key),
        _ => None,
    }
}

/// The generation's routing on top of the public schema.
fn generation_check(
    version: GameVersion,
    registry: &str,
    id: &str,
    rec: &Value,
) -> Result<(), String> {
    let bad_type = |t: &str| {
        format!(
            "{registry}.{id}: {t:?} is not a type of generation {}",
            version.generation()
        )
    };
    match registry {
        "pokemon" => {
            for t in rec.get("types").and_then(Value::as_list).unwrap_or(&[]) {
                let t = t.as_str().unwrap_or("");
                if !has_type(version, t) {
                    return Err(bad_type(t));
                }
            }
            let spd = rec.get("baseStats").and_then(|s| s.get("specialDefense"));
            if version.generation() >= 2 && spd.is_none() {
                return Err(format!(
                    "{registry}.{id}.baseStats.specialDefense: required in generation 2"
                ));
            }
        }
        "moves" => {
            let t = rec.get("type").and_then(Value::as_str).unwrap_or("");
            if !has_type(version, t) {
                return Err(bad_type(t));
            }
        }
        "encounters" => {
            let ds = dataset(version);
            for table in rec.as_map().map(|m| m.values()).into_iter().flatten() {
                for slot in table.get("slots").and_then(Value::as_list).unwrap_or(&[]) {
                    let sp = slot.get("species").and_then(Value::as_str).unwrap_or("");
                    if !ds.species.iter().any(|s| s.id == sp) {
                        return Err(format!(
                            "{registry}.{id}: {sp:?} is not a species of generation {}",
                            version.generation()
                        ));
                    }
                }
            }
        }
        "type_chart" => {
            if !has_type(version, id) {
                return Err(bad_type(id));
            }
            for def in rec.as_map().map(|m| m.keys()).into_iter().flatten() {
                if !has_type(version, def) {
                    return Err(bad_type(def));
                }
            }
        }
        _ => {}
    }
    Ok(())
}

/// Normalize and validate one decoded module root into the public records of its registry.
/// An `Err` carries an engine-log detail naming the first failing field.
pub fn hydrate(
    version: GameVersion,
    module: &Module,
    root: Value,
) -> Result<BTreeMap<String, Value>, String> {
    let Value::Map(root) = root else {
        return Err("the root is not a record table".into());
    };
    meta_matches(&root, version, module)?;
    let shape = shape_of(module.registry)
        .ok_or_else(|| format!("{} is not a public registry", module.registry))?;
    let mut records = if module.registry == "type_chart" {
        type_chart_records(&root, version)?
    } else {
        match root.get("records") {
            Some(Value::Map(m)) => m.clone(),
            _ => return Err("`records` must be a table keyed by id".into()),
        }
    };
    for (id, rec) in records.iter_mut() {
        if !valid_id(id) {
            return Err(format!("{}: invalid record id {id:?}", module.registry));
        }
        if module.registry == "pokemon" {
            normalize_species(rec);
        }
        conform(shape, rec);
        check(shape, rec, &format!("{}.{id}", module.registry)).map_err(|e| e.to_string())?;
        generation_check(version, module.registry, id, rec)?;
    }
    Ok(records)
}

/// The public records of `registry` for `version` straight from the embedded source (what a
/// view of a fresh import serves). Shared with anything that needs the registry form of the
/// embedded data.
pub fn embedded_records(
    version: GameVersion,
    registry: &str,
) -> Option<Result<BTreeMap<String, Value>, String>> {
    let module = super::contract::module_for(version, registry)?;
    Some(hydrate(
        version,
        module,
        super::generate::module_root(version, module),
    ))
}
