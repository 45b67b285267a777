//! The `mod.datasets` facade: [`Datasets`] (the lazily allocated handle every mod shares) and
//! [`View`] (one independent, read-only facade per `open`).
//!
//! Nothing here can change the active game: a view holds only the shared service and its
//! version; records cross as detached copies; there are no write verbs; asset access is a
//! cache-prefixed virtual path and `{type, size}` metadata, never bytes or host paths.

use std::cell::OnceCell;
use std::path::PathBuf;
use std::rc::Rc;

use pallet_api::catalog::common::GameVersion;
use pallet_api::content::{registry_and_alias_names, REGISTRIES};
use pallet_api::facades::{AssetInfo, DatasetView, DatasetsApi};
use pallet_api::reasons::DatasetError;
use pallet_api::{LogFeed, Value};

use super::contract;
use super::fs::{CacheFs, DiskFs};
use super::service::{DatasetService, DatasetStats};

/// The public registries of `pallet_api::content` (aliases excluded).
pub fn registry_names() -> impl Iterator<Item = &'static str> {
    REGISTRIES.iter().map(|(name, _, _)| *name)
}

/// Every name a view exposes under `content`: each public registry, then each alias of
/// `pallet_api::content::REGISTRY_ALIASES` (an alias serves exactly its target's records).
pub fn content_names() -> impl Iterator<Item = &'static str> {
    registry_and_alias_names()
}

enum Source {
    Disk(PathBuf),
    Custom(std::cell::RefCell<Option<Box<dyn CacheFs>>>),
}

struct Lazy {
    source: Source,
    log: std::cell::RefCell<Option<LogFeed>>,
    service: OnceCell<Rc<DatasetService>>,
}

/// The `mod.datasets` capability: cheap to create and clone; the service behind it is
/// allocated on the first [`DatasetsApi::open`] only (no-mod parity: a game whose mods never
/// open a view never allocates it and never touches the cache).
#[derive(Clone)]
pub struct Datasets(Rc<Lazy>);

impl Datasets {
    /// Views over the cache rooted at `cache_root` (`<cache_root>/<version>/…`).
    pub fn new(cache_root: impl Into<PathBuf>) -> Datasets {
        Datasets(Rc::new(Lazy {
            source: Source::Disk(cache_root.into()),
            log: Default::default(),
            service: OnceCell::new(),
        }))
    }

    /// Views over an injected cache filesystem (tests, in-memory caches).
    pub fn with_fs(fs: Box<dyn CacheFs>) -> Datasets {
        Datasets(Rc::new(Lazy {
            source: Source::Custom(std::cell::RefCell::new(Some(fs))),
            log: Default::default(),
            service: OnceCell::new(),
        }))
    }

    /// Send actionable details (why a view was invalidated or evicted) to `log`. Applies to a
    /// service allocated after this call.
    pub fn set_log(&self, log: LogFeed) {
        *self.0.log.borrow_mut() = Some(log);
    }

    /// Has the service been allocated (has any mod called `open`)?
    pub fn is_allocated(&self) -> bool {
        self.0.service.get().is_some()
    }

    /// Counters; all zero while unallocated.
    pub fn stats(&self) -> DatasetStats {
        self.0.service.get().map(|s| s.stats()).unwrap_or_default()
    }

    /// Engine-log details recorded by the service (empty while unallocated).
    pub fn details(&self) -> Vec<String> {
        self.0
            .service
            .get()
            .map(|s| s.details())
            .unwrap_or_default()
    }

    fn service(&self) -> Rc<DatasetService> {
        self.0
            .service
            .get_or_init(|| {
                let fs: Box<dyn CacheFs> = match &self.0.source {
                    Source::Disk(root) => Box::new(DiskFs::new(root.clone())),
                    Source::Custom(cell) => cell
                        .borrow_mut()
                        .take()
                        .unwrap_or_else(|| Box::new(DiskFs::new(PathBuf::new()))),
                };
                Rc::new(DatasetService::new(fs, self.0.log.borrow().clone()))
            })
            .clone()
    }

    /// [`DatasetsApi::open`] with the concrete facade type.
    pub fn open_view(&self, version: &str) -> Result<View, DatasetError> {
        let service = self.service();
        let version = service.open(version)?;
        Ok(View { service, version })
    }
}

impl DatasetsApi for Datasets {
    fn open(&self, version: &str) -> Result<Box<dyn DatasetView>, DatasetError> {
        self.open_view(version)
            .map(|v| Box::new(v) as Box<dyn DatasetView>)
    }
}

/// One read-only view facade (`{version, generation, content, assets}`). Independent of every
/// other facade: it owns nothing but the version and a handle on the shared service.
#[derive(Clone)]
pub struct View {
    service: Rc<DatasetService>,
    version: GameVersion,
}

impl View {
    /// Record ids of `registry` in lexical order (no copies of the records).
    pub fn ids(&self, registry: &str) -> Vec<String> {
        self.service
            .records(self.version, registry)
            .map(|r| r.keys().cloned().collect())
            .unwrap_or_default()
    }
}

impl DatasetView for View {
    fn version(&self) -> GameVersion {
        self.version
    }

    fn generation(&self) -> u8 {
        self.version.generation()
    }

    fn get(&self, registry: &str, id: &str) -> Option<Value> {
        if id.is_empty() {
            return None;
        }
        self.service
            .records(self.version, registry)?
            .get(id)
            .cloned()
    }

    fn has(&self, registry: &str, id: &str) -> bool {
        !id.is_empty()
            && self
                .service
                .records(self.version, registry)
                .is_some_and(|r| r.contains_key(id))
    }

    fn each(&self, registry: &str) -> Vec<(String, Value)> {
        self.service
            .records(self.version, registry)
            .map(|r| r.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
            .unwrap_or_default()
    }

    fn asset_path(&self, relative: &str) -> Option<String> {
        if !contract::is_generated_asset_path(relative) || !self.service.can_serve(self.version) {
            return None;
        }
        Some(contract::cache_path(self.version, relative))
    }

    fn asset_info(&self, relative: &str) -> Option<AssetInfo> {
        if !contract::is_generated_asset_path(relative) {
            return None;
        }
        self.service.asset_info(self.version, relative)
    }
}
