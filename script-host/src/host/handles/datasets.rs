//! The `datasets` handle (RFC 0015): read-only views of imported datasets.
//!
//! * `datasets.open(version)` → a `DatasetView`; failures throw `#{code, message}` with
//!   `"unknown_version"`, `"not_imported"`, `"invalid_cache"` (`"not_available"` when the host
//!   has no dataset service).
//! * `view.version`, `view.generation`, `view.content.<name>` for every public registry name
//!   and alias (`species` is `pokemon`, …), `view.assets.path(rel)` / `.info(rel)`, and the flat
//!   `view.get/has/each(registry, …)`, `view.asset_path/asset_info(rel)`.
//! * `view.content.<name>`: `get(id)` → a detached plain map or `()`; `has(id)`; `each()` → an
//!   `Array` of `[id, record]` pairs in lexical id order, each `record` a [`DatasetRecord`].
//!
//! **Why `each()` pairs hold a `DatasetRecord` and not a map.** Rhai checks the *cumulative*
//! size (nested array elements, map properties, string bytes) of every native function's
//! result against the sandbox limits (2 000 elements, 2 000 properties: `host::limits`), and
//! those limits also keep hostile nesting off the stack, so they stay. A registry as plain maps
//! exceeds them (251 Gen 2 species of ~20 properties each). A custom type counts zero, so a
//! pairs array of n records costs 3n elements — every registry of every version fits. A
//! `DatasetRecord` reads like a map: `rec.name`, `rec["name"]` (property access falls back to
//! the string indexer), `rec.keys()`, `rec.len()`, `rec.contains(key)` / `rec.has(key)` /
//! `key in rec`, `rec.to_map()` (a plain detached map), `==`, and it prints like a map. Nested
//! values are converted to plain Rhai values when read. It has no setter: it is read-only, and
//! detached (it shares nothing with the service's cache or other mods). Convert with
//! `to_map()` before sending one across the data boundary (events, `save`).

use std::rc::{Rc, Weak};

use pallet_api::facades::DatasetView;
use pallet_api::Value;
use rhai::{Array, Dynamic, Engine, EvalAltResult, Map, INT};

use pallet_api::host_cost::ChargedView;

use crate::host::convert::to_dynamic;
use crate::host::error::{api_error, codes};
use crate::host::vm::HostShared;

#[derive(Clone)]
pub struct Datasets {
    pub(crate) host: Weak<HostShared>,
}

/// An open dataset view.
#[derive(Clone)]
pub struct DatasetViewHandle(Rc<dyn DatasetView>);

/// `view.content.<name>`: `get(id)`, `has(id)`, `each()`. `registry` is the name the mod used
/// (a registry or an alias; the view resolves it).
#[derive(Clone)]
pub struct DatasetRegistryHandle {
    view: Rc<dyn DatasetView>,
    registry: &'static str,
}

/// `view.assets`: `path(rel)` (the cache-prefixed virtual path) and `info(rel)`
/// (`#{type, size}` or `()`); no byte reader.
#[derive(Clone)]
pub struct DatasetAssetsHandle(Rc<dyn DatasetView>);

/// One record of an `each()` pair: read-only, detached, reads like a map (see the module docs).
#[derive(Clone)]
pub struct DatasetRecord(Rc<Value>);

impl DatasetRecord {
    fn field(&self, key: &str) -> Dynamic {
        self.0.get(key).map_or(Dynamic::UNIT, to_dynamic)
    }

    fn keys(&self) -> Array {
        self.0
            .as_map()
            .map(|m| m.keys().map(|k| Dynamic::from(k.clone())).collect())
            .unwrap_or_default()
    }

    fn has(&self, key: &str) -> bool {
        self.0.as_map().is_some_and(|m| m.contains_key(key))
    }

    fn len(&self) -> INT {
        let n = self.0.as_map().map_or(0, |m| m.len());
        INT::try_from(n).unwrap_or(INT::MAX)
    }

    fn to_map(&self) -> Dynamic {
        to_dynamic(&self.0)
    }
}

/// `[id, record]` pairs of `registry`, lexical id order.
fn pairs(view: &dyn DatasetView, registry: &str) -> Array {
    view.each(registry)
        .into_iter()
        .map(|(id, rec)| {
            Dynamic::from_array(vec![
                Dynamic::from(id),
                Dynamic::from(DatasetRecord(Rc::new(rec))),
            ])
        })
        .collect()
}

fn asset_info(view: &dyn DatasetView, rel: &str) -> Dynamic {
    view.asset_info(rel).map_or(Dynamic::UNIT, |info| {
        let mut m = Map::new();
        m.insert("type".into(), Dynamic::from(info.kind));
        if let Some(size) = info.size {
            m.insert(
                "size".into(),
                Dynamic::from_int(INT::try_from(size).unwrap_or(INT::MAX)),
            );
        }
        Dynamic::from_map(m)
    })
}

pub fn register(engine: &mut Engine) {
    engine.register_type_with_name::<Datasets>("Datasets");
    engine.register_fn(
        "open",
        |d: &mut Datasets, version: &str| -> Result<DatasetViewHandle, Box<EvalAltResult>> {
            let host = d.host.upgrade();
            let service = host.as_ref().and_then(|h| h.datasets.borrow().clone());
            let (Some(service), Some(host)) = (service, host) else {
                return Err(api_error(
                    codes::NOT_AVAILABLE,
                    "datasets.open needs a dataset service, which this host was not given",
                ));
            };
            service
                .open(version)
                // Reads charged to the dispatch's budget by what they copy (issue 21).
                .map(|v| DatasetViewHandle(Rc::new(ChargedView::new(v, host.budget.counter()))))
                .map_err(|e| api_error(e.as_str(), format!("datasets.open({version:?}) failed")))
        },
    );

    register_view(engine);
    register_registry(engine);
    register_record(engine);
    register_assets(engine);
}

fn register_view(engine: &mut Engine) {
    engine.register_type_with_name::<DatasetViewHandle>("DatasetView");
    engine.register_get("version", |v: &mut DatasetViewHandle| {
        v.0.version().as_str().to_owned()
    });
    engine.register_get("generation", |v: &mut DatasetViewHandle| {
        INT::from(v.0.generation())
    });
    // RFC 0015 shape: every public registry name and alias under `content`.
    engine.register_get("content", |v: &mut DatasetViewHandle| {
        pallet_engine::datasets::content_names()
            .map(|registry| {
                let handle = DatasetRegistryHandle {
                    view: v.0.clone(),
                    registry,
                };
                (registry.into(), Dynamic::from(handle))
            })
            .collect::<Map>()
    });
    engine.register_get("assets", |v: &mut DatasetViewHandle| {
        DatasetAssetsHandle(v.0.clone())
    });

    // The flat form: `view.get(registry, id)` (a plain map), `view.has(registry, id)`,
    // `view.each(registry)` (a map id → `DatasetRecord`, for the same size reason as `each()`).
    engine.register_fn(
        "get",
        |v: &mut DatasetViewHandle, registry: &str, id: &str| {
            v.0.get(registry, id)
                .map_or(Dynamic::UNIT, |r| to_dynamic(&r))
        },
    );
    engine.register_fn(
        "has",
        |v: &mut DatasetViewHandle, registry: &str, id: &str| v.0.has(registry, id),
    );
    engine.register_fn("each", |v: &mut DatasetViewHandle, registry: &str| {
        v.0.each(registry)
            .into_iter()
            .map(|(id, r)| (id.into(), Dynamic::from(DatasetRecord(Rc::new(r)))))
            .collect::<Map>()
    });
    engine.register_fn(
        "asset_path",
        |v: &mut DatasetViewHandle, rel: &str| -> Result<String, Box<EvalAltResult>> {
            v.0.asset_path(rel).ok_or_else(|| {
                api_error(
                    codes::INVALID_VALUE,
                    format!("{rel:?} is not a path under assets/generated/"),
                )
            })
        },
    );
    engine.register_fn("asset_info", |v: &mut DatasetViewHandle, rel: &str| {
        asset_info(v.0.as_ref(), rel)
    });
}

fn register_registry(engine: &mut Engine) {
    engine.register_type_with_name::<DatasetRegistryHandle>("DatasetRegistry");
    // Ids of any type are accepted: a non-string (or empty) id is simply absent (RFC 0015).
    engine.register_fn("get", |r: &mut DatasetRegistryHandle, id: Dynamic| {
        id.into_string()
            .ok()
            .and_then(|id| r.view.get(r.registry, &id))
            .map_or(Dynamic::UNIT, |rec| to_dynamic(&rec))
    });
    engine.register_fn("has", |r: &mut DatasetRegistryHandle, id: Dynamic| {
        id.into_string().is_ok_and(|id| r.view.has(r.registry, &id))
    });
    engine.register_fn("each", |r: &mut DatasetRegistryHandle| {
        pairs(r.view.as_ref(), r.registry)
    });
}

fn register_record(engine: &mut Engine) {
    engine.register_type_with_name::<DatasetRecord>("DatasetRecord");
    // `rec["name"]`, and `rec.name` through Rhai's indexer fallback for property access. No
    // indexer setter: assignments fail.
    engine.register_indexer_get(|r: &mut DatasetRecord, key: &str| r.field(key));
    engine.register_fn("keys", |r: &mut DatasetRecord| r.keys());
    engine.register_fn("len", |r: &mut DatasetRecord| r.len());
    engine.register_fn("has", |r: &mut DatasetRecord, key: &str| r.has(key));
    // `contains` also backs `"name" in rec`.
    engine.register_fn("contains", |r: &mut DatasetRecord, key: &str| r.has(key));
    engine.register_fn("to_map", |r: &mut DatasetRecord| r.to_map());
    engine.register_fn("==", |a: &mut DatasetRecord, b: DatasetRecord| a.0 == b.0);
    engine.register_fn("!=", |a: &mut DatasetRecord, b: DatasetRecord| a.0 != b.0);
    engine.register_fn("to_string", |r: &mut DatasetRecord| r.to_map().to_string());
    engine.register_fn("to_debug", |r: &mut DatasetRecord| {
        format!("{:?}", r.to_map())
    });
}

fn register_assets(engine: &mut Engine) {
    engine.register_type_with_name::<DatasetAssetsHandle>("DatasetAssets");
    engine.register_fn(
        "path",
        |a: &mut DatasetAssetsHandle, rel: &str| -> Result<Dynamic, Box<EvalAltResult>> {
            // A malformed path throws; a well-formed one on a cache that went away gives `()`.
            if !pallet_engine::datasets::contract::is_generated_asset_path(rel) {
                return Err(api_error(
                    codes::INVALID_VALUE,
                    format!("{rel:?} is not a path under assets/generated/"),
                ));
            }
            Ok(a.0.asset_path(rel).map_or(Dynamic::UNIT, Dynamic::from))
        },
    );
    engine.register_fn("info", |a: &mut DatasetAssetsHandle, rel: &str| {
        asset_info(a.0.as_ref(), rel)
    });
}
