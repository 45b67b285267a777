//! Live-game facades: `world` (RFC 0013), `checkpoints` (RFC 0004), `datasets` (RFC 0015).
//!
//! * `world.active_block_at(mapId, bx, by)` — the block id (an integer) of the active map, read
//!   from the world the engine lends for the current dispatch (`pallet_api::access`). Failures
//!   throw `#{code, message}` with the RFC reasons: `"no overworld"` (also outside any lending
//!   scope), `"map is not active"`, `"invalid block coordinates"`,
//!   `"block coordinates out of bounds"`, `"block unavailable"`.
//! * `checkpoints.inspect()` / `.capture()` / `.restore(cp)` (RFC 0004) — against the game the
//!   engine lends at a safe point (`pallet_engine::checkpoint::lend`). `inspect` returns the
//!   capability record; `capture` a detached record; `restore` `true`. Failures throw
//!   `#{code, message}` with the RFC codes; outside a lending scope they answer `script_busy`
//!   (inside a battle round: `battle_phase_busy`, kind `battle`).
//! * `datasets.open(version)` — a read-only view (`view.version`, `view.generation`,
//!   `view.get(registry, id)`, `view.has(registry, id)`, `view.each(registry)`,
//!   `view.asset_path(rel)`, `view.asset_info(rel)`); failures throw `"unknown_version"`,
//!   `"not_imported"`, `"invalid_cache"`. Without a dataset service (until issue 9 wires one)
//!   it throws `#{code: "not_available"}`.

use std::rc::{Rc, Weak};

use pallet_api::access::current_world;
use pallet_api::facades::{CheckpointFailure, DatasetView};
use pallet_api::reasons::BlockReadError;
use pallet_api::reasons::CheckpointCode;
use pallet_api::Value;
use pallet_engine::checkpoint::lend::{refusal_outside_loan, with_lent};
use rhai::{Dynamic, Engine, EvalAltResult, Map, INT};

use crate::host::convert::{from_dynamic, to_dynamic};
use crate::host::error::{api_error, codes};
use crate::host::vm::HostShared;

#[derive(Clone)]
pub struct World;

#[derive(Clone)]
pub struct Checkpoints;

#[derive(Clone)]
pub struct Datasets {
    pub(crate) host: Weak<HostShared>,
}

/// An open dataset view.
#[derive(Clone)]
pub struct DatasetViewHandle(Rc<dyn DatasetView>);

/// `view.content.<registry>`: `get(id)`, `has(id)`, `each()` (an array of `[id, record]`
/// pairs in lexical id order). Records are detached copies.
#[derive(Clone)]
pub struct DatasetRegistryHandle {
    view: Rc<dyn DatasetView>,
    registry: &'static str,
}

/// What `view.content.<registry>.each()` returns: the registry's `[id, record]` pairs in lexical
/// id order, as a detached snapshot. Iterable (`for pair in ...`), with `len()` and `pairs[i]`.
/// Each pair is converted when it is reached, so a registry larger than the sandbox's
/// per-value limits (2 000 nested elements/properties) can still be walked.
#[derive(Clone)]
pub struct DatasetRecords(Rc<Vec<(String, Value)>>);

impl DatasetRecords {
    fn pair(&self, i: usize) -> Option<Dynamic> {
        self.0
            .get(i)
            .map(|(id, rec)| Dynamic::from_array(vec![id.as_str().into(), to_dynamic(rec)]))
    }
}

/// Iterator over [`DatasetRecords`].
pub struct DatasetRecordsIter {
    records: DatasetRecords,
    next: usize,
}

impl Iterator for DatasetRecordsIter {
    type Item = Dynamic;
    fn next(&mut self) -> Option<Dynamic> {
        let item = self.records.pair(self.next)?;
        self.next += 1;
        Some(item)
    }
}

impl IntoIterator for DatasetRecords {
    type Item = Dynamic;
    type IntoIter = DatasetRecordsIter;
    fn into_iter(self) -> DatasetRecordsIter {
        DatasetRecordsIter {
            records: self,
            next: 0,
        }
    }
}

/// `view.assets`: `path(rel)` (the cache-prefixed virtual path) and `info(rel)`
/// (`#{type, size}` or `()`); no byte reader.
#[derive(Clone)]
pub struct DatasetAssetsHandle(Rc<dyn DatasetView>);

fn block_message(e: BlockReadError) -> &'static str {
    match e {
        BlockReadError::NoOverworld => "there is no active overworld map right now",
        BlockReadError::MapNotActive => "the map id is not the active map",
        BlockReadError::InvalidBlockCoordinates => "block coordinates must be finite integers",
        BlockReadError::BlockCoordinatesOutOfBounds => "the block is outside the active map",
        BlockReadError::BlockUnavailable => "the active block data is absent or inconsistent",
    }
}

/// `world.active_block_at` against whatever world is lent right now.
pub fn active_block_at(
    map_id: &Dynamic,
    bx: &Dynamic,
    by: &Dynamic,
) -> Result<INT, Box<EvalAltResult>> {
    let map_id = map_id.clone().into_string().unwrap_or_default();
    let bx = from_dynamic(bx).unwrap_or(Value::Nil);
    let by = from_dynamic(by).unwrap_or(Value::Nil);
    current_world(|w| match w {
        None => Err(BlockReadError::NoOverworld),
        Some(w) => w.active_block_at(&map_id, &bx, &by),
    })
    .map(INT::from)
    .map_err(|e| api_error(e.as_str(), block_message(e)))
}

/// Outside an engine lending scope (mid-tick hook dispatch) the runtime is not settled.
const NOT_LENT: &str = "checkpoints are only available at safe points where the engine lends the game (e.g. game.ready)";

fn checkpoint_error(f: CheckpointFailure) -> Box<EvalAltResult> {
    api_error(f.code.as_str(), f.message)
}

/// `checkpoints.inspect()` → `#{canCapture, canRestore, kind[, reason, message]}`.
pub fn checkpoints_inspect() -> Dynamic {
    let cap = with_lent(|lent| match lent {
        Some(mut l) => l.inspect(),
        None => refusal_outside_loan(NOT_LENT),
    });
    let mut m = Map::new();
    m.insert("canCapture".into(), Dynamic::from_bool(cap.can_capture));
    m.insert("canRestore".into(), Dynamic::from_bool(cap.can_restore));
    m.insert("kind".into(), Dynamic::from(cap.kind.as_str().to_owned()));
    if let Some(r) = cap.refusal {
        m.insert("reason".into(), Dynamic::from(r.code.as_str().to_owned()));
        m.insert("message".into(), Dynamic::from(r.message));
    }
    Dynamic::from_map(m)
}

/// The refusal outside a lending scope (`battle_phase_busy` inside a battle round).
fn not_lent() -> Box<EvalAltResult> {
    match refusal_outside_loan(NOT_LENT).refusal {
        Some(f) => checkpoint_error(f),
        None => api_error(CheckpointCode::ScriptBusy.as_str(), NOT_LENT),
    }
}

pub fn register(engine: &mut Engine) {
    engine.register_type_with_name::<World>("World");
    engine.register_fn(
        "active_block_at",
        |_: &mut World, m: Dynamic, x: Dynamic, y: Dynamic| active_block_at(&m, &x, &y),
    );

    engine.register_type_with_name::<Checkpoints>("Checkpoints");
    engine.register_fn("inspect", |_: &mut Checkpoints| checkpoints_inspect());
    engine.register_fn(
        "capture",
        |_: &mut Checkpoints| -> Result<Dynamic, Box<EvalAltResult>> {
            with_lent(|lent| match lent {
                Some(mut l) => l
                    .capture()
                    .map(|v| to_dynamic(&v))
                    .map_err(checkpoint_error),
                None => Err(not_lent()),
            })
        },
    );
    engine.register_fn(
        "restore",
        |_: &mut Checkpoints, cp: Dynamic| -> Result<bool, Box<EvalAltResult>> {
            let v = from_dynamic(&cp).map_err(|e| {
                api_error(
                    CheckpointCode::InvalidCheckpoint.as_str(),
                    format!("not data: {e}"),
                )
            })?;
            with_lent(|lent| match lent {
                Some(mut l) => l.restore(&v).map(|()| true).map_err(checkpoint_error),
                None => Err(not_lent()),
            })
        },
    );

    engine.register_type_with_name::<Datasets>("Datasets");
    engine.register_fn("open", |d: &mut Datasets, version: &str| -> Result<DatasetViewHandle, Box<EvalAltResult>> {
        let service = d.host.upgrade().and_then(|h| h.datasets.borrow().clone());
        let Some(service) = service else {
            return Err(api_error(
                codes::NOT_AVAILABLE,
                "datasets.open needs the dataset service, which this build does not provide yet (RFC 0015 lands with issue 9)",
            ));
        };
        service
            .open(version)
            .map(|v| DatasetViewHandle(Rc::from(v)))
            .map_err(|e| api_error(e.as_str(), format!("datasets.open({version:?}) failed")))
    });

    engine.register_type_with_name::<DatasetViewHandle>("DatasetView");
    engine.register_get("version", |v: &mut DatasetViewHandle| {
        v.0.version().as_str().to_owned()
    });
    engine.register_get("generation", |v: &mut DatasetViewHandle| {
        INT::from(v.0.generation())
    });
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
            .iter()
            .map(|(id, r)| (id.as_str().into(), to_dynamic(r)))
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
        v.0.asset_info(rel).map_or(Dynamic::UNIT, |info| {
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
    });

    // RFC 0015 shape: `view.content.<registry>.get/has/each` and `view.assets.path/info`
    // (issue 9), next to the flat `view.get(registry, id)` calls above.
    engine.register_get("content", |v: &mut DatasetViewHandle| {
        pallet_engine::datasets::registry_names()
            .map(|registry| {
                let handle = DatasetRegistryHandle {
                    view: v.0.clone(),
                    registry,
                };
                (registry.into(), Dynamic::from(handle))
            })
            .collect::<Map>()
    });
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
        DatasetRecords(Rc::new(r.view.each(r.registry)))
    });
    engine.register_type_with_name::<DatasetRecords>("DatasetRecords");
    engine.register_iterator::<DatasetRecords>();
    engine.register_fn("len", |r: &mut DatasetRecords| {
        INT::try_from(r.0.len()).unwrap_or(INT::MAX)
    });
    engine.register_indexer_get(
        |r: &mut DatasetRecords, i: INT| -> Result<Dynamic, Box<EvalAltResult>> {
            usize::try_from(i)
                .ok()
                .and_then(|i| r.pair(i))
                .ok_or_else(|| api_error(codes::INVALID_VALUE, format!("no pair at index {i}")))
        },
    );

    engine.register_get("assets", |v: &mut DatasetViewHandle| {
        DatasetAssetsHandle(v.0.clone())
    });
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
        a.0.asset_info(rel).map_or(Dynamic::UNIT, |info| {
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
    });
}
