//! The cache contract shared by the importer and the dataset service (RFC 0015): where a
//! version's cache lives, which files it must hold, what its completion marker says, and when
//! it is ready. Pure: every filesystem access goes through the injected [`CacheFs`], and
//! readiness reads the small marker file and file *sizes* only — never a semantic module.
//!
//! Layout under a cache root (`pallet import --cache DIR`):
//!
//! ```text
//! <cache>/<version>/data/generated/<registry>.lua   semantic modules (restricted literal grammar)
//! <cache>/<version>/assets/generated/…              generated assets (no ROM-derived bytes)
//! <cache>/<version>/dataset.complete                completion marker, written last
//! ```
//!
//! **Source/cache boundary.** The *source* is the embedded dataset compiled into the engine
//! (`crate::data`); only the importer reads it. The *cache* is the directory above; the
//! dataset service reads only the cache, never falls back to the source, and reaches files only
//! through [`CacheFs`], which refuses symbolic links at any component, so nothing outside
//! `<cache>/<version>/` is ever served. The marker ties a cache to the source it was generated
//! from: it carries the version's format string and a hash of every generated file, and a
//! marker that does not equal what this engine build would write is *stale*.

use std::collections::BTreeMap;

use pallet_api::catalog::common::GameVersion;
use pallet_api::reasons::DatasetError;

use super::fs::{CacheFs, EntryKind};

/// The completion marker, relative to the version directory.
pub const MARKER_FILE: &str = "dataset.complete";
/// Largest marker the contract reads.
pub const MAX_MARKER_BYTES: u64 = 256;
/// `format` field of every semantic module.
pub const MODULE_FORMAT: &str = "pallet-dataset-v1";
/// Per-module and aggregate size limits (the Lua engine's values: 8 MiB a module, 48 MiB in all).
pub const MAX_MODULE_BYTES: u64 = 8 * 1024 * 1024;
pub const MAX_AGGREGATE_BYTES: u64 = 48 * 1024 * 1024;
/// Generated assets live below this relative prefix.
pub const ASSETS_PREFIX: &str = "assets/generated/";

/// One semantic module: the public registry it feeds and its path in the version directory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Module {
    pub registry: &'static str,
    pub path: &'static str,
}

const fn module(registry: &'static str, path: &'static str) -> Module {
    Module { registry, path }
}

const GEN1_MODULES: &[Module] = &[
    module("pokemon", "data/generated/pokemon.lua"),
    module("moves", "data/generated/moves.lua"),
    module("items", "data/generated/items.lua"),
    module("type_chart", "data/generated/type_chart.lua"),
    module("encounters", "data/generated/encounters.lua"),
];

/// Gold/Silver: the same registries (the items are the Gold/Silver table of `crate::data::gen2`).
const GEN2_MODULES: &[Module] = &[
    module("pokemon", "data/generated/pokemon.lua"),
    module("moves", "data/generated/moves.lua"),
    module("items", "data/generated/items.lua"),
    module("type_chart", "data/generated/type_chart.lua"),
    module("encounters", "data/generated/encounters.lua"),
];

const ASSETS: &[&str] = &[
    "assets/generated/dataset.json",
    "assets/generated/type_chart.pgm",
];

/// The semantic modules of `version`, in inventory order.
pub fn modules(version: GameVersion) -> &'static [Module] {
    match version.generation() {
        1 => GEN1_MODULES,
        _ => GEN2_MODULES,
    }
}

/// The module feeding `registry` in `version`, if any.
pub fn module_for(version: GameVersion, registry: &str) -> Option<&'static Module> {
    modules(version).iter().find(|m| m.registry == registry)
}

/// The generated assets of `version`.
pub fn assets(_version: GameVersion) -> &'static [&'static str] {
    ASSETS
}

/// The exact required-file inventory of `version`: semantic modules, then assets (no
/// duplicates; the marker is not part of it).
pub fn required_files(version: GameVersion) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = modules(version).iter().map(|m| m.path).collect();
    for a in assets(version) {
        if !out.contains(a) {
            out.push(a);
        }
    }
    out
}

/// The version's directory name under the cache root (also its virtual path prefix).
pub fn version_dir(version: GameVersion) -> &'static str {
    version.as_str()
}

/// `<version>/<rel>`: the cache-prefixed virtual path.
pub fn cache_path(version: GameVersion, rel: &str) -> String {
    format!("{}/{rel}", version_dir(version))
}

/// The marker's format string (it changes whenever the module layout or grammar changes, so
/// caches written by an older engine read as stale).
pub fn marker_format(version: GameVersion) -> &'static str {
    match version {
        GameVersion::Red | GameVersion::Blue => "pallet-cache-v1-gen1:",
        GameVersion::Yellow => "pallet-cache-v1-yellow1:",
        GameVersion::Gold | GameVersion::Silver => "pallet-cache-v1-gen2:",
    }
}

/// FNV-1a (64-bit) over every file's path, length and bytes, in inventory order. A content
/// fingerprint for staleness, not a cryptographic digest.
pub fn content_hash<'a>(files: impl IntoIterator<Item = (&'a str, &'a [u8])>) -> u64 {
    let mut h = Fnv::new();
    for (path, bytes) in files {
        h.write(path.as_bytes());
        h.write(&[0]);
        h.write(&(bytes.len() as u64).to_le_bytes());
        h.write(bytes);
    }
    h.finish()
}

/// The marker text for a cache of `version` whose files hash to `hash`.
pub fn marker_text(version: GameVersion, hash: u64) -> String {
    format!("{}{hash:016x}", marker_format(version))
}

/// A small, dependency-free FNV-1a hasher (also used to fingerprint module sources).
#[derive(Clone, Copy)]
pub struct Fnv(u64);

impl Fnv {
    pub fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    pub fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    pub fn finish(self) -> u64 {
        self.0
    }
}

impl Default for Fnv {
    fn default() -> Self {
        Fnv::new()
    }
}

/// A cache that is ready to serve: its marker and the size of every required file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ready {
    pub marker: String,
    pub sizes: BTreeMap<&'static str, u64>,
}

/// Why a cache is not ready: the stable reason (`not_imported` or `invalid_cache`) and an
/// actionable detail for the engine log (never shown to mods).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CacheProblem {
    pub reason: DatasetError,
    pub detail: String,
}

fn not_imported(detail: impl Into<String>) -> CacheProblem {
    CacheProblem {
        reason: DatasetError::NotImported,
        detail: detail.into(),
    }
}

/// Readiness against an explicit expected marker (`super::expected::inspect` passes this
/// build's; tests and the importer's self-check pass their own).
pub fn inspect_against(
    fs: &dyn CacheFs,
    version: GameVersion,
    expected: &str,
) -> Result<Ready, CacheProblem> {
    let dir = version_dir(version);
    match fs.stat(dir) {
        Some(s) if s.kind == EntryKind::Dir => {}
        Some(_) => return Err(not_imported(format!("{dir} is not a plain directory"))),
        None => return Err(not_imported(format!("no cache for {dir}"))),
    }
    let marker_path = cache_path(version, MARKER_FILE);
    let marker = match fs.read(&marker_path, MAX_MARKER_BYTES) {
        Ok(bytes) => bytes,
        Err(_) => return Err(not_imported("completion marker is missing or stale")),
    };
    if marker != expected.as_bytes() {
        return Err(not_imported("completion marker is missing or stale"));
    }
    let mut sizes = BTreeMap::new();
    for rel in required_files(version) {
        let path = cache_path(version, rel);
        match fs.stat(&path) {
            Some(s) if s.kind == EntryKind::File && s.size > 0 => {
                sizes.insert(rel, s.size);
            }
            Some(s) if s.kind == EntryKind::File => {
                return Err(not_imported(format!(
                    "required cache file is empty: {path}"
                )))
            }
            Some(_) => {
                return Err(not_imported(format!(
                    "required cache file is not a regular file inside the cache: {path}"
                )))
            }
            None => {
                return Err(not_imported(format!(
                    "required cache file is missing: {path}"
                )))
            }
        }
    }
    let mut aggregate = 0u64;
    for m in modules(version) {
        let size = sizes.get(m.path).copied().unwrap_or(0);
        if size > MAX_MODULE_BYTES {
            return Err(CacheProblem {
                reason: DatasetError::InvalidCache,
                detail: format!("{} is {size} bytes (limit {MAX_MODULE_BYTES})", m.path),
            });
        }
        aggregate = aggregate.saturating_add(size);
    }
    if aggregate > MAX_AGGREGATE_BYTES {
        return Err(CacheProblem {
            reason: DatasetError::InvalidCache,
            detail: format!("modules total {aggregate} bytes (limit {MAX_AGGREGATE_BYTES})"),
        });
    }
    Ok(Ready {
        marker: String::from_utf8_lossy(&marker).into_owned(),
        sizes,
    })
}

/// Importer-side publish check (reference `CacheContract.publish`): the first required file
/// missing or empty in the staged directory `staged_dir` (a path relative to `fs`'s root), or
/// `None` when the marker may be written.
pub fn first_unstaged(
    fs: &dyn CacheFs,
    staged_dir: &str,
    version: GameVersion,
) -> Option<&'static str> {
    required_files(version).into_iter().find(|rel| {
        !matches!(
            fs.stat(&format!("{staged_dir}/{rel}")),
            Some(s) if s.kind == EntryKind::File && s.size > 0
        )
    })
}

/// Is `rel` an acceptable generated-asset path: below `assets/generated/`, relative, no
/// backslash, no control character, no empty, `.` or `..` segment?
pub fn is_generated_asset_path(rel: &str) -> bool {
    rel.starts_with(ASSETS_PREFIX)
        && rel.len() > ASSETS_PREFIX.len()
        && super::fs::is_clean_relative(rel)
}
