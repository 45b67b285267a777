//! The dataset-view service (the Lua engine's `DatasetViews`): one per game, shared by every
//! view facade, allocated on the first `open`.
//!
//! * `open` runs the contract's readiness check (marker + sizes) and decodes nothing. If an
//!   earlier view was invalidated by a bad module whose bytes are still the same, it answers
//!   `invalid_cache`.
//! * Every later operation rechecks readiness and rereads the bytes of each cached root: an
//!   unchanged root is not decoded again; a changed one is dropped and decoded on next use; a
//!   vanished, stale or reimported cache evicts the internal view.
//! * A root is read, size-checked against the aggregate limit, decoded with the bounded
//!   decoder, hydrated and schema-checked once, then cached. Any failure invalidates the whole
//!   view (the detail goes to the engine log, never to the mod).

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::rc::Rc;

use pallet_api::catalog::common::GameVersion;
use pallet_api::content::canonical_registry;
use pallet_api::facades::AssetInfo;
use pallet_api::reasons::DatasetError;
use pallet_api::{Level, LogFeed, Value};

use super::contract::{self, Fnv, MAX_AGGREGATE_BYTES, MAX_MODULE_BYTES};
use super::expected;
use super::fs::{CacheFs, EntryKind, ReadError, Stat};
use super::hydrate::{hydrate, shape_of};
use super::literal::{decode, Limits};

/// Counters for the lazy-validation tests and for tooling.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DatasetStats {
    /// `open` calls.
    pub opens: u64,
    /// Contract readiness checks (one per `open` and per view operation).
    pub readiness_checks: u64,
    /// Metadata lookups through the cache filesystem.
    pub stats: u64,
    /// File reads of any kind (markers included).
    pub reads: u64,
    /// Reads of semantic modules (first loads, rereads of cached roots, invalid-source checks).
    pub semantic_reads: u64,
    /// Decoder runs.
    pub decodes: u64,
    /// Views invalidated by a bad root.
    pub invalidations: u64,
}

/// Content fingerprint of a module's bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Fingerprint {
    len: u64,
    hash: u64,
}

impl Fingerprint {
    fn of(bytes: &[u8]) -> Fingerprint {
        let mut h = Fnv::new();
        h.write(bytes);
        Fingerprint {
            len: bytes.len() as u64,
            hash: h.finish(),
        }
    }
}

struct CachedRoot {
    fingerprint: Fingerprint,
    records: Rc<BTreeMap<String, Value>>,
}

/// The internal view of one version: tied to the marker it was built under.
struct ViewState {
    marker: String,
    roots: BTreeMap<&'static str, CachedRoot>,
    /// The module whose bytes invalidated this view, and their fingerprint.
    invalid: Option<(&'static str, Fingerprint)>,
}

impl ViewState {
    fn new(marker: String) -> ViewState {
        ViewState {
            marker,
            roots: BTreeMap::new(),
            invalid: None,
        }
    }
}

/// The shared service behind every view facade.
pub struct DatasetService {
    fs: Box<dyn CacheFs>,
    stats: Cell<DatasetStats>,
    states: RefCell<BTreeMap<GameVersion, ViewState>>,
    log: Option<LogFeed>,
    details: RefCell<Vec<String>>,
}

/// `CacheFs` adapter that counts every access into the service's stats.
struct Counting<'a> {
    inner: &'a dyn CacheFs,
    stats: &'a Cell<DatasetStats>,
}

impl CacheFs for Counting<'_> {
    fn stat(&self, rel: &str) -> Option<Stat> {
        let mut s = self.stats.get();
        s.stats += 1;
        self.stats.set(s);
        self.inner.stat(rel)
    }
    fn read(&self, rel: &str, max: u64) -> Result<Vec<u8>, ReadError> {
        let mut s = self.stats.get();
        s.reads += 1;
        self.stats.set(s);
        self.inner.read(rel, max)
    }
}

/// Most engine-log details kept for inspection.
const MAX_DETAILS: usize = 64;

impl DatasetService {
    pub fn new(fs: Box<dyn CacheFs>, log: Option<LogFeed>) -> DatasetService {
        DatasetService {
            fs,
            stats: Cell::new(DatasetStats::default()),
            states: RefCell::new(BTreeMap::new()),
            log,
            details: RefCell::new(Vec::new()),
        }
    }

    pub fn stats(&self) -> DatasetStats {
        self.stats.get()
    }

    /// Engine-log details recorded so far (oldest first, at most 64).
    pub fn details(&self) -> Vec<String> {
        self.details.borrow().clone()
    }

    fn bump(&self, f: impl FnOnce(&mut DatasetStats)) {
        let mut s = self.stats.get();
        f(&mut s);
        self.stats.set(s);
    }

    fn fs(&self) -> Counting<'_> {
        Counting {
            inner: self.fs.as_ref(),
            stats: &self.stats,
        }
    }

    fn note(&self, level: Level, message: String) {
        if let Some(log) = &self.log {
            log.push(level, None, format!("[datasets] {message}"));
        }
        let mut d = self.details.borrow_mut();
        if d.len() >= MAX_DETAILS {
            d.remove(0);
        }
        d.push(message);
    }

    fn read_module(&self, version: GameVersion, path: &str) -> Result<Vec<u8>, ReadError> {
        self.bump(|s| s.semantic_reads += 1);
        self.fs()
            .read(&contract::cache_path(version, path), MAX_MODULE_BYTES)
    }

    /// `mod.datasets:open(version)`: the version, or the stable failure reason.
    pub fn open(&self, version: &str) -> Result<GameVersion, DatasetError> {
        self.bump(|s| s.opens += 1);
        let version = GameVersion::parse(version).ok_or(DatasetError::UnknownVersion)?;
        self.bump(|s| s.readiness_checks += 1);
        let ready = match expected::inspect(&self.fs(), version) {
            Ok(r) => r,
            Err(problem) => {
                self.states.borrow_mut().remove(&version);
                self.note(
                    Level::Info,
                    format!("{}: {}", version.as_str(), problem.detail),
                );
                return Err(problem.reason);
            }
        };
        let invalid = {
            let mut states = self.states.borrow_mut();
            let state = states
                .entry(version)
                .or_insert_with(|| ViewState::new(ready.marker.clone()));
            if state.marker != ready.marker {
                *state = ViewState::new(ready.marker.clone());
            }
            state.invalid
        };
        if let Some((path, fingerprint)) = invalid {
            let unchanged = matches!(
                self.read_module(version, path),
                Ok(bytes) if Fingerprint::of(&bytes) == fingerprint
            );
            if unchanged {
                return Err(DatasetError::InvalidCache);
            }
            // The bad source changed: start over.
            self.states
                .borrow_mut()
                .insert(version, ViewState::new(ready.marker));
        }
        Ok(version)
    }

    /// Recheck readiness before serving `version`; rereads cached roots and drops changed
    /// ones. `false`: the view cannot serve (not ready, or invalidated).
    fn ready(&self, version: GameVersion) -> bool {
        self.bump(|s| s.readiness_checks += 1);
        let ready = match expected::inspect(&self.fs(), version) {
            Ok(r) => r,
            Err(problem) => {
                if self.states.borrow_mut().remove(&version).is_some() {
                    self.note(
                        Level::Warn,
                        format!("{}: view evicted: {}", version.as_str(), problem.detail),
                    );
                }
                return false;
            }
        };
        let cached: Vec<(&'static str, Fingerprint)> = {
            let mut states = self.states.borrow_mut();
            let state = states
                .entry(version)
                .or_insert_with(|| ViewState::new(ready.marker.clone()));
            if state.marker != ready.marker {
                // Reimported (or otherwise republished): the old semantic view goes.
                *state = ViewState::new(ready.marker.clone());
            }
            if state.invalid.is_some() {
                return false;
            }
            state
                .roots
                .iter()
                .map(|(reg, root)| (*reg, root.fingerprint))
                .collect()
        };
        for (registry, fingerprint) in cached {
            let Some(module) = contract::module_for(version, registry) else {
                continue;
            };
            match self.read_module(version, module.path) {
                Ok(bytes) if Fingerprint::of(&bytes) == fingerprint => {}
                Ok(_) => {
                    if let Some(state) = self.states.borrow_mut().get_mut(&version) {
                        state.roots.remove(registry);
                    }
                }
                Err(e) => {
                    self.states.borrow_mut().remove(&version);
                    self.note(
                        Level::Warn,
                        format!("{}: view evicted: {}: {e}", version.as_str(), module.path),
                    );
                    return false;
                }
            }
        }
        true
    }

    fn invalidate(
        &self,
        version: GameVersion,
        path: &'static str,
        fp: Fingerprint,
        detail: String,
    ) {
        self.bump(|s| s.invalidations += 1);
        if let Some(state) = self.states.borrow_mut().get_mut(&version) {
            state.roots.clear();
            state.invalid = Some((path, fp));
        }
        self.note(
            Level::Warn,
            format!("{}: view invalidated: {path}: {detail}", version.as_str()),
        );
    }

    /// The public records of `registry` (a registry name or an alias) in `version`, decoded on
    /// first use. `None` when the name is not a public registry or alias (nothing is read then),
    /// or the view cannot serve.
    pub fn records(
        &self,
        version: GameVersion,
        registry: &str,
    ) -> Option<Rc<BTreeMap<String, Value>>> {
        let registry = canonical_registry(registry)?;
        shape_of(registry)?;
        if !self.ready(version) {
            return None;
        }
        let Some(module) = contract::module_for(version, registry) else {
            // A public registry this version has no data for: empty, nothing to read.
            return Some(Rc::new(BTreeMap::new()));
        };
        let (cached, aggregate) = {
            let states = self.states.borrow();
            let state = states.get(&version)?;
            let aggregate: u64 = state.roots.values().map(|r| r.fingerprint.len).sum();
            (
                state.roots.get(module.registry).map(|r| r.records.clone()),
                aggregate,
            )
        };
        if let Some(records) = cached {
            return Some(records);
        }
        let bytes = match self.read_module(version, module.path) {
            Ok(b) => b,
            Err(ReadError::TooLarge) => {
                self.invalidate(
                    version,
                    module.path,
                    Fingerprint {
                        len: u64::MAX,
                        hash: 0,
                    },
                    "module exceeds 8 MiB".into(),
                );
                return None;
            }
            Err(e) => {
                self.states.borrow_mut().remove(&version);
                self.note(
                    Level::Warn,
                    format!("{}: view evicted: {}: {e}", version.as_str(), module.path),
                );
                return None;
            }
        };
        let fingerprint = Fingerprint::of(&bytes);
        if aggregate.saturating_add(fingerprint.len) > MAX_AGGREGATE_BYTES {
            self.invalidate(
                version,
                module.path,
                fingerprint,
                "modules exceed 48 MiB together".into(),
            );
            return None;
        }
        self.bump(|s| s.decodes += 1);
        let root = match decode(&bytes, &Limits::GENERATED) {
            Ok(v) => v,
            Err(e) => {
                self.invalidate(version, module.path, fingerprint, e.to_string());
                return None;
            }
        };
        let records = match hydrate(version, module, root) {
            Ok(r) => Rc::new(r),
            Err(detail) => {
                self.invalidate(version, module.path, fingerprint, detail);
                return None;
            }
        };
        if let Some(state) = self.states.borrow_mut().get_mut(&version) {
            state.roots.insert(
                module.registry,
                CachedRoot {
                    fingerprint,
                    records: records.clone(),
                },
            );
        }
        Some(records)
    }

    /// `assets:info(rel)` (the path already validated).
    pub fn asset_info(&self, version: GameVersion, rel: &str) -> Option<AssetInfo> {
        if !self.ready(version) {
            return None;
        }
        match self.fs().stat(&contract::cache_path(version, rel)) {
            Some(s) if s.kind == EntryKind::File => Some(AssetInfo {
                kind: "file".into(),
                size: Some(s.size),
            }),
            _ => None,
        }
    }

    /// Can `version` serve right now (used by `assets:path`)?
    pub fn can_serve(&self, version: GameVersion) -> bool {
        self.ready(version)
    }
}
