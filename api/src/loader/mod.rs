//! The mod loader: discover → enable state → game gating → validation → dependencies,
//! conflicts and cycles → order → run each entry through its [`ModHost`] → roll back a failed
//! mod → freeze content → `mods.loaded`.
//!
//! Order is topological over dependencies (hard and optional), then `priority` ascending, then
//! id. The same order ranks owners on the buses (`Runtime::set_load_order`), so equal-priority
//! hook links and listeners of different mods run in load order.

mod context;
mod discover;
mod options_site;
mod resolve;

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

pub use context::{LoadedMod, LoadedMods, ModContext, ModHost, NativeMod};
pub use discover::{discover, ModCandidate};

use crate::catalog::common::GameVersion;
use crate::catalog::events::{ModsLoaded, ModsLoadedPayload};
use crate::content::Content;
use crate::diagnostics::Level;
use crate::manifest::Manifest;
use crate::runtime::Runtime;
use crate::semver::{Range, Version};
use crate::services::{ModContent, ModDataStore, ModLog, OptionsStore};
use crate::value::Value;
use resolve::Node;

/// Where a mod ended up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ModState {
    Pending,
    Loaded,
    Failed,
    Disabled,
    /// Not for this game (a skip is not an error).
    Skipped,
}

impl ModState {
    pub fn as_str(self) -> &'static str {
        match self {
            ModState::Pending => "pending",
            ModState::Loaded => "loaded",
            ModState::Failed => "failed",
            ModState::Disabled => "disabled",
            ModState::Skipped => "skipped",
        }
    }
}

/// One row of [`Loader::status`].
#[derive(Clone, Debug, PartialEq)]
pub struct ModStatus {
    pub id: String,
    pub name: String,
    pub version: String,
    pub dir_name: String,
    pub enabled: bool,
    pub state: ModState,
    /// Why it failed.
    pub error: Option<String>,
    /// Why it was skipped or disabled.
    pub note: Option<String>,
    /// Which host ran it.
    pub host: Option<String>,
}

/// `status()`: every mod (by id), the load order, and the error feed of the load.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LoadStatus {
    pub mods: Vec<ModStatus>,
    pub order: Vec<String>,
    pub errors: Vec<String>,
}

impl LoadStatus {
    pub fn get(&self, id: &str) -> Option<&ModStatus> {
        self.mods.iter().find(|m| m.id == id)
    }
    pub fn loaded(&self) -> impl Iterator<Item = &ModStatus> {
        self.mods.iter().filter(|m| m.state == ModState::Loaded)
    }
}

/// Persisted enable flags (the Lua engine's `options.mods`, `options.modsByVersion`) plus safe
/// mode and the `force_enable_env` variables that are set.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EnableState {
    pub mods: BTreeMap<String, bool>,
    pub by_version: BTreeMap<GameVersion, BTreeMap<String, bool>>,
    pub safe_mode: bool,
    /// Environment variable names that are set (the loader reads no environment itself).
    pub env_set: BTreeSet<String>,
}

impl EnableState {
    /// Is `m` enabled for `game`? Safe mode disables everything; a per-version flag beats the
    /// global flag; experimental mods default to off; `force_enable_env` re-enables.
    pub fn enabled(&self, m: &Manifest, game: GameVersion) -> (bool, Option<&'static str>) {
        if self.safe_mode {
            return (false, Some("safe mode"));
        }
        if m.force_enable_env
            .as_ref()
            .is_some_and(|v| self.env_set.contains(v))
        {
            return (true, None);
        }
        let flag = self
            .by_version
            .get(&game)
            .and_then(|f| f.get(&m.id))
            .or_else(|| self.mods.get(&m.id))
            .copied();
        match flag {
            Some(true) => (true, None),
            Some(false) => (false, Some("disabled")),
            None if m.experimental => (false, Some("experimental mods are off by default")),
            None => (true, None),
        }
    }
}

fn title(game: &str) -> String {
    let mut c = game.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// The Lua-engine API level Pallet implements: the version a legacy Lua manifest's
/// `game_version` range is checked against (a Rhai manifest's range is checked against
/// Pallet's own version). Pallet implements the Lua engine's public mod API as the RFCs and the
/// survey of public mods describe it, at the 0.2.4 line (the `strings` registry translation
/// mods for 0.2.4 override exists): every range the public-API mods state accepts it
/// (`">=0.1.98 <1.0.0"`, `">=0.2.4 <1.0.0"`, `">=0.0.0-0 <2.0.0"`,
/// `"0.0.0-dev || >=0.1.0 <2.0.0"`); a mod asking for another line (`">=0.1.96 <0.2.0"`,
/// `">=1.0.0"`) is refused with the reason. As in the Lua engine, a development build
/// (`engine_version` `0.0.0-dev`) skips every `game_version` check.
pub const LUA_ENGINE_API_LEVEL: &str = "0.2.4";

/// Is `m` a legacy Lua manifest (a `.lua` entry under api 1 or 2), whose `game_version` states
/// Lua-engine versions?
pub fn is_legacy_manifest(m: &Manifest) -> bool {
    m.entry.ends_with(".lua") && m.api <= 2
}

/// The loader. Owns content and the per-mod stores; borrows the runtime during `load`.
pub struct Loader {
    pub game: GameVersion,
    /// The engine version `game_version` ranges are checked against (`0.0.0-dev` skips the
    /// check).
    pub engine_version: String,
    pub content: Rc<RefCell<Content>>,
    pub mod_data: ModDataStore,
    pub options: OptionsStore,
    hosts: Vec<Box<dyn ModHost>>,
    status: LoadStatus,
    exports: BTreeMap<String, (String, Value)>,
    content_check: Option<ContentCheck>,
}

/// The freeze-time check of the merged content (the engine compiling it into its tables): every
/// problem names the mod it is blamed on and a message. Called only when some mod wrote
/// content; each blamed mod is rolled back like a failed entry and the check runs again.
pub type ContentCheck = Box<dyn FnMut(&Content) -> Vec<(String, String)>>;

impl Loader {
    pub fn new(game: GameVersion, engine_version: &str, content: Content) -> Self {
        Loader {
            game,
            engine_version: engine_version.to_owned(),
            content: Rc::new(RefCell::new(content)),
            mod_data: ModDataStore::new(),
            options: OptionsStore::new(),
            hosts: Vec::new(),
            status: LoadStatus::default(),
            exports: BTreeMap::new(),
            content_check: None,
        }
    }

    /// Install the freeze-time content check (see [`ContentCheck`]).
    pub fn set_content_check(&mut self, check: ContentCheck) {
        self.content_check = Some(check);
    }

    /// Register a host. The first host that `handles` a manifest runs it.
    pub fn add_host(&mut self, host: Box<dyn ModHost>) {
        self.hosts.push(host);
    }

    /// The last load's status.
    pub fn status(&self) -> &LoadStatus {
        &self.status
    }

    /// `mod.find(id)` after load: `(version, exports)`.
    pub fn find(&self, id: &str) -> Option<(String, Value)> {
        self.exports.get(id).cloned()
    }

    /// Run the whole pipeline over `candidates`.
    pub fn load(
        &mut self,
        rt: &Runtime,
        candidates: &[ModCandidate],
        enable: &EnableState,
    ) -> &LoadStatus {
        let mut errors: Vec<String> = Vec::new();
        let mut rows: BTreeMap<String, ModStatus> = BTreeMap::new();
        let mut manifests: BTreeMap<String, &Manifest> = BTreeMap::new();
        let mut dirs: BTreeMap<String, &ModCandidate> = BTreeMap::new();

        // 1. Manifests and duplicate ids.
        for cand in candidates {
            match &cand.manifest {
                Err(e) => {
                    let key = format!("{} (folder)", cand.dir_name);
                    errors.push(format!("{}: {e}", cand.dir_name));
                    rows.insert(
                        key.clone(),
                        ModStatus {
                            id: key,
                            name: cand.dir_name.clone(),
                            version: String::new(),
                            dir_name: cand.dir_name.clone(),
                            enabled: false,
                            state: ModState::Failed,
                            error: Some(e.to_string()),
                            note: None,
                            host: None,
                        },
                    );
                }
                Ok(parsed) => {
                    let m = &parsed.manifest;
                    if let Some(first) = dirs.get(&m.id) {
                        let msg = format!(
                            "duplicate mod id {} (folders {} and {})",
                            m.id, first.dir_name, cand.dir_name
                        );
                        errors.push(msg.clone());
                        let key = format!("{} (folder {})", m.id, cand.dir_name);
                        rows.insert(
                            key.clone(),
                            ModStatus {
                                id: key,
                                name: m.name.clone(),
                                version: m.version.clone(),
                                dir_name: cand.dir_name.clone(),
                                enabled: false,
                                state: ModState::Failed,
                                error: Some(msg),
                                note: None,
                                host: None,
                            },
                        );
                        continue;
                    }
                    for w in &parsed.warnings {
                        rt.log(Level::Warn, Some(&m.id), format!("[{}] {w}", m.id));
                    }
                    dirs.insert(m.id.clone(), cand);
                    manifests.insert(m.id.clone(), m);
                    rows.insert(
                        m.id.clone(),
                        ModStatus {
                            id: m.id.clone(),
                            name: m.name.clone(),
                            version: m.version.clone(),
                            dir_name: cand.dir_name.clone(),
                            enabled: true,
                            state: ModState::Pending,
                            error: None,
                            note: None,
                            host: None,
                        },
                    );
                }
            }
        }

        // 2–4. Enable state, game gating, validation.
        let engine = Version::parse(&self.engine_version);
        let dev_engine = engine.as_ref().is_some_and(Version::is_dev);
        for (id, m) in &manifests {
            let Some(row) = rows.get_mut(id) else {
                continue;
            };
            let (enabled, why) = enable.enabled(m, self.game);
            row.enabled = enabled;
            if !enabled {
                row.state = ModState::Disabled;
                row.note = why.map(str::to_owned);
                continue;
            }
            if !m.targets(self.game) {
                let targets: Vec<String> = m.games.iter().map(|g| title(g)).collect();
                row.state = ModState::Skipped;
                row.note = Some(format!(
                    "For {}, not {}",
                    targets.join("/"),
                    title(self.game.as_str())
                ));
                continue;
            }
            if !dirs.get(id).is_some_and(|c| c.entry_exists) {
                row.state = ModState::Failed;
                row.error = Some(format!("entry file not found: {}", m.entry));
                continue;
            }
            if let (Some(range), false) = (&m.game_version, dev_engine) {
                // A legacy Lua manifest states versions of the Lua engine; a Rhai manifest
                // states Pallet's own version.
                let legacy = is_legacy_manifest(m);
                let against = if legacy {
                    Version::parse(LUA_ENGINE_API_LEVEL)
                } else {
                    engine.clone()
                };
                let ok = match (Range::parse(range), &against) {
                    (Some(r), Some(v)) => r.matches(v),
                    _ => false,
                };
                if !ok {
                    row.state = ModState::Failed;
                    row.error = Some(if legacy {
                        format!(
                            "requires game version {range}; legacy Lua manifests are checked against the Lua-engine API level Pallet implements, {LUA_ENGINE_API_LEVEL} (manifest field game_version)"
                        )
                    } else {
                        format!(
                            "requires game version {range}; this engine is {}",
                            self.engine_version
                        )
                    });
                }
            }
        }

        // 5. Dependencies, conflicts, cycles.
        let mut nodes: BTreeMap<String, Node<'_>> = manifests
            .iter()
            .map(|(id, m)| {
                let row = &rows[id];
                (
                    id.clone(),
                    Node {
                        manifest: m,
                        state: row.state,
                        error: row.error.clone(),
                    },
                )
            })
            .collect();
        resolve::enforce(&mut nodes, self.game);
        let cycles = resolve::fail_cycles(&mut nodes, self.game);
        if !cycles.is_empty() {
            resolve::enforce(&mut nodes, self.game);
        }
        let (order, order_warnings) = resolve::order(&nodes, self.game);
        for w in order_warnings {
            rt.log(Level::Warn, None, w);
        }
        for (id, node) in &nodes {
            if let Some(row) = rows.get_mut(id) {
                row.state = node.state;
                row.error = node.error.clone();
            }
        }

        // 6. Entries, in order.
        rt.set_load_order(order.iter().map(String::as_str));
        let mut hosts = std::mem::take(&mut self.hosts);
        let mut loaded_order = Vec::new();
        for id in &order {
            let Some(m) = manifests.get(id).copied() else {
                continue;
            };
            // A dependency that failed during this load fails its dependents.
            let failed_dep = m.dependencies.iter().find(|d| {
                d.games
                    .as_ref()
                    .is_none_or(|g| g.contains(self.game.as_str()))
                    && rows.get(&d.id).is_none_or(|r| r.state != ModState::Loaded)
            });
            if let Some(dep) = failed_dep {
                if let Some(row) = rows.get_mut(id) {
                    row.state = ModState::Failed;
                    row.error = Some(format!("dependency {} failed", dep.id));
                }
                continue;
            }
            let Some(host) = hosts.iter_mut().find(|h| h.handles(m)) else {
                if let Some(row) = rows.get_mut(id) {
                    row.state = ModState::Failed;
                    row.error = Some(format!("no host runs entry {}", m.entry));
                }
                continue;
            };
            let host_name = host.name().to_owned();
            let bucket_before = self.mod_data.snapshot_bucket(id);
            let feed = rt.log_feed();
            let mut ctx = ModContext {
                manifest: m,
                root: dirs.get(id).and_then(|c| c.root.as_deref()),
                runtime: rt,
                content: ModContent::new(id, m.strict, self.content.clone(), feed.clone())
                    .charged(rt.dispatch_budget()),
                save: self.mod_data.bucket(id).charged(rt.dispatch_budget()),
                log: ModLog::new(id, feed),
                options: self.options.for_mod(id),
                capabilities: m.granted_capabilities(),
                exports: &mut self.exports,
            };
            let outcome = host.run_entry(&mut ctx);
            let row = rows.get_mut(id);
            match outcome {
                Ok(()) => {
                    self.exports
                        .entry(id.clone())
                        .or_insert_with(|| (m.version.clone(), Value::Map(BTreeMap::new())));
                    if let Some(row) = row {
                        row.state = ModState::Loaded;
                        row.host = Some(host_name);
                    }
                    loaded_order.push(id.clone());
                }
                Err(e) => {
                    // Roll back everything the entry registered.
                    rt.remove_owner(id);
                    self.content.borrow_mut().rollback_owner(id);
                    self.mod_data.restore_bucket(id, bucket_before);
                    self.options.remove_schema(id);
                    self.exports.remove(id);
                    rt.report_error(id, &e);
                    if let Some(row) = row {
                        row.state = ModState::Failed;
                        row.error = Some(e);
                        row.host = Some(host_name);
                    }
                }
            }
        }
        self.hosts = hosts;

        // 7. Check the merged content (cross-references, the engine's tables); a blamed mod is
        // rolled back and fails, then the rest is checked again. Freeze content; announce.
        if let Some(check) = self.content_check.as_mut() {
            for _ in 0..=order.len() {
                if !self.content.borrow().is_modified() {
                    break;
                }
                let problems = check(&self.content.borrow());
                let mut blamed: BTreeMap<String, Vec<String>> = BTreeMap::new();
                for (owner, message) in problems {
                    blamed.entry(owner).or_default().push(message);
                }
                // Only a loaded mod can be rolled back; anything else cannot be fixed here.
                blamed.retain(|id, _| loaded_order.contains(id));
                if blamed.is_empty() {
                    break;
                }
                for (id, messages) in blamed {
                    for m in &messages {
                        rt.report_error(&id, m);
                    }
                    rt.remove_owner(&id);
                    self.content.borrow_mut().rollback_owner(&id);
                    self.options.remove_schema(&id);
                    self.exports.remove(&id);
                    loaded_order.retain(|o| *o != id);
                    if let Some(row) = rows.get_mut(&id) {
                        row.state = ModState::Failed;
                        row.error = Some(format!("content: {}", messages.join("; ")));
                    }
                }
            }
        }
        self.content.borrow_mut().freeze();
        for row in rows.values() {
            if row.state == ModState::Failed {
                if let Some(e) = &row.error {
                    let line = format!("{}: {e}", row.id);
                    if !errors.contains(&line) {
                        errors.push(line);
                    }
                }
            }
        }
        let failed: Vec<String> = rows
            .values()
            .filter(|r| r.state == ModState::Failed)
            .map(|r| r.id.clone())
            .collect();
        if rt.wants_event::<ModsLoaded>() {
            let view = LoadedMods {
                loaded: loaded_order
                    .iter()
                    .filter_map(|id| {
                        let row = rows.get(id)?;
                        Some(LoadedMod {
                            manifest: manifests.get(id).copied()?,
                            root: dirs.get(id).and_then(|c| c.root.as_deref()),
                            exports: self.exports.get(id).map(|(_, v)| v),
                            host: row.host.as_deref().unwrap_or(""),
                        })
                    })
                    .collect(),
                failed: rows
                    .values()
                    .filter(|r| r.state == ModState::Failed)
                    .map(|r| (r.id.as_str(), r.error.as_deref().unwrap_or("")))
                    .collect(),
            };
            for host in &mut self.hosts {
                host.mods_loaded(&view);
            }
        }
        self.status = LoadStatus {
            mods: rows.into_values().collect(),
            order: loaded_order.clone(),
            errors,
        };
        if rt.wants_event::<ModsLoaded>() {
            rt.emit::<ModsLoaded>(ModsLoadedPayload {
                order: loaded_order,
                failed,
            });
        }
        &self.status
    }
}
