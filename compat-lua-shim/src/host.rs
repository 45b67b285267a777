//! [`LuaHost`]: runs `.lua` entries for the api crate's loader (`ModHost`).
//!
//! Per mod: a hardened state ([`crate::sandbox`]), the legacy `mod` object
//! ([`crate::modapi`]), then the entry in both legacy forms — `return function(mod) … end`
//! (the chunk's returned function is called with `mod`) and `local mod = ...` (the chunk gets
//! `mod` as its vararg). The entry runs under the load budget. Any failure is returned to the
//! loader, which rolls back everything the mod registered (hook links, listeners, content
//! writes, save bucket, option schema, exports) and records it in its status.

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use mlua::{Function, MultiValue, Table, Value as LuaValue};
use pallet_api::budget::LOAD_LIMIT;
use pallet_api::catalog::common::GameVersion;
use pallet_api::facades::DatasetsApi;
use pallet_api::loader::{LoadedMods, ModContext, ModHost};
use pallet_api::manifest::Manifest;
use pallet_api::{Runtime, Value};

use crate::clock::Clock;
use crate::convert::from_lua_data_only;
use crate::errors::{short, BUDGET_MESSAGE};
use crate::files::ModFiles;
use crate::sandbox::{self, budget_stopped, SandboxConfig, MEMORY_LIMIT};

pub use crate::mod_state::{HostShared, LuaMod};
use crate::mod_state::{LoadedRow, LoadedSnapshot};

/// The Lua `ModHost`.
pub struct LuaHost {
    shared: Rc<HostShared>,
    embedded: BTreeMap<String, Rc<BTreeMap<String, String>>>,
    mods: Vec<Rc<LuaMod>>,
    load_errors: Vec<(String, String)>,
}

/// Runtime-side view of a [`LuaHost`] that stays usable after the loader took the host.
#[derive(Clone)]
pub struct LuaMonitor(Rc<HostShared>);

impl LuaMonitor {
    /// Units the current (or last) dispatch charged, and whether it ran out (shared with Rhai).
    pub fn last_budget(&self) -> (u64, bool) {
        (self.0.budget.used(), self.0.budget.exhausted())
    }

    /// The dataset service behind `mod.datasets:open` (RFC 0015).
    pub fn set_datasets(&self, service: Rc<dyn DatasetsApi>) {
        *self.0.datasets.borrow_mut() = Some(service);
    }

    /// Did the last load keep the rows `mods.loaded`'s `ev.loader` shows? Only when some Lua
    /// mod of this host listens to `mods.loaded` ([`crate::loader_view`]).
    pub fn keeps_loader_view(&self) -> bool {
        self.0.loaded.borrow().is_some()
    }

    /// The engine seam for map-script handlers given as functions: contribute them to the
    /// game's map-script registry (once, before the game starts). Returns how many.
    pub fn install_map_handlers(
        &self,
        registry: &mut pallet_engine::world::map_scripts::MapScriptRegistry,
    ) -> usize {
        crate::map_handlers::install(&self.0, registry)
    }

    /// The engine seam for item effects given as functions: the `use` function a live Lua mod
    /// keeps for effect `effect`, wrapped for the engine, with its mod's id.
    pub fn item_effect(
        &self,
        effect: &str,
    ) -> Option<(String, Rc<pallet_engine::game::item_effects::ItemEffectFn>)> {
        crate::item_effects::effect_fn(&self.0, effect)
    }
}

impl LuaHost {
    /// A host bound to the game's runtime (it shares the runtime's dispatch budget).
    pub fn new(rt: &Rc<Runtime>) -> Self {
        LuaHost {
            shared: Rc::new(HostShared {
                rt: Rc::downgrade(rt),
                budget: rt.dispatch_budget(),
                datasets: RefCell::new(None),
                game: Cell::new(GameVersion::Red),
                clock: Cell::new(Clock::default()),
                seed: Cell::new(0),
                memory_limit: Cell::new(MEMORY_LIMIT),
                exports: RefCell::new(BTreeMap::new()),
                profile: RefCell::new(None),
                handler_owners: RefCell::new(Vec::new()),
                wants_loader: Cell::new(false),
                loaded: RefCell::new(None),
                export_functions: RefCell::new(BTreeMap::new()),
                dormant: RefCell::new(Vec::new()),
                dormant_seq: Cell::new(0),
            }),
            embedded: BTreeMap::new(),
            mods: Vec::new(),
            load_errors: Vec::new(),
        }
    }

    /// Serve the files of mod `id` from memory (tests, embedded mods).
    pub fn add_embedded(&mut self, id: &str, files: BTreeMap<String, String>) {
        self.embedded.insert(id.to_owned(), Rc::new(files));
    }

    /// The dataset service behind `mod.datasets:open` (RFC 0015).
    pub fn set_datasets(&self, service: Rc<dyn DatasetsApi>) {
        *self.shared.datasets.borrow_mut() = Some(service);
    }

    /// The profile folder: `mod.storage` keeps each mod's store in `<profile>/storage/<id>/`
    /// (without one, storage answers `storage_unavailable`).
    pub fn set_profile(&self, dir: Option<std::path::PathBuf>) {
        *self.shared.profile.borrow_mut() = dir;
    }

    /// The active game (`mod.generation`).
    pub fn set_game(&self, game: GameVersion) {
        self.shared.game.set(game);
    }

    /// Where `os.time`/`os.clock` read time (default: the fixed, deterministic clock).
    pub fn set_clock(&self, clock: Clock) {
        self.shared.clock.set(clock);
    }

    /// The run seed mixed into every mod's `math.random` stream.
    pub fn set_seed(&self, seed: u64) {
        self.shared.seed.set(seed);
    }

    /// Bytes each mod's state may allocate (default [`MEMORY_LIMIT`]).
    pub fn set_memory_limit(&self, bytes: usize) {
        self.shared.memory_limit.set(bytes);
    }

    pub fn monitor(&self) -> LuaMonitor {
        LuaMonitor(self.shared.clone())
    }

    /// `(mod id, message)` of every entry that failed.
    pub fn load_errors(&self) -> &[(String, String)] {
        &self.load_errors
    }

    /// Ids of the mods this host loaded.
    pub fn loaded(&self) -> Vec<&str> {
        self.mods.iter().map(|m| m.id.as_str()).collect()
    }

    fn load(&mut self, ctx: &mut ModContext<'_>) -> Result<Rc<LuaMod>, String> {
        let m = ctx.manifest;
        let rt = self
            .shared
            .rt
            .upgrade()
            .ok_or("the runtime this host was made for is gone")?;
        if !std::ptr::eq(Rc::as_ptr(&rt), ctx.runtime) {
            return Err("this Lua host is bound to a different runtime".to_owned());
        }
        let files = match ctx.root {
            Some(root) => ModFiles::Dir(root.to_owned()),
            None => self
                .embedded
                .get(&m.id)
                .cloned()
                .map(ModFiles::Embedded)
                .ok_or("no files for this mod")?,
        };
        files.read(&m.entry)?;

        // `mod.find` for the mods this one names as dependencies (loaded before it).
        for dep in m.dependencies.iter().chain(&m.optional_dependencies) {
            if let Some(found) = ctx.find(&dep.id) {
                self.shared
                    .exports
                    .borrow_mut()
                    .entry(dep.id.clone())
                    .or_insert(found);
            }
        }

        let sb = sandbox::new_state(&SandboxConfig {
            mod_id: m.id.clone(),
            budget: self.shared.budget.clone(),
            clock: self.shared.clock.get(),
            seed: self.shared.seed.get(),
            log: ctx.log.clone(),
            memory_limit: self.shared.memory_limit.get(),
        })
        .map_err(|e| format!("cannot create the Lua state: {}", short(&e)))?;
        let format: Function = sb
            .lua
            .globals()
            .get::<Table>("string")
            .and_then(|s| s.get("format"))
            .map_err(|e| short(&e))?;
        let gate = crate::charged_alloc::Gate::of(&sb.lua);
        let module = Rc::new(LuaMod {
            gate,
            id: m.id.clone(),
            version: m.version.clone(),
            lua: sb.lua,
            host: self.shared.clone(),
            files,
            log: ctx.log.clone(),
            save: ctx.save.clone(),
            options: ctx.options.clone(),
            content: ctx.content.clone(),
            rng: sb.rng,
            keys: Rc::new(crate::stack::KeyCache::default()),
            format,
            warned: RefCell::new(BTreeSet::new()),
            instructions: sb.instructions,
            flood: sb.flood,
            priority: m
                .priority
                .floor()
                .clamp(f64::from(i32::MIN), f64::from(i32::MAX)) as i32,
            map_handlers: RefCell::new(BTreeMap::new()),
            item_effects: RefCell::new(BTreeMap::new()),
        });

        let outcome = run_entry(&module, m);
        match outcome {
            Ok((exports, functions)) => {
                self.shared
                    .export_functions
                    .borrow_mut()
                    .insert(m.id.clone(), functions);
                ctx.set_exports(exports.clone());
                self.shared
                    .exports
                    .borrow_mut()
                    .insert(m.id.clone(), (m.version.clone(), exports));
                Ok(module)
            }
            Err(e) => {
                self.shared.dormant.borrow_mut().retain(|d| d.owner != m.id);
                let _ = module.lua.gc_collect();
                Err(e)
            }
        }
    }

    /// Keep what the `mods.loaded` loader views show ([`crate::loader_view`]).
    fn keep_loaded(&self, mods: &LoadedMods<'_>) -> LoadedSnapshot {
        let functions = self.shared.export_functions.borrow();
        let loaded = mods
            .loaded
            .iter()
            .map(|lm| {
                let m = lm.manifest;
                let ours = self.mods.iter().find(|x| x.id == m.id && lm.host == "lua");
                let files = match ours {
                    Some(x) => Some(x.files.clone()),
                    None => lm.root.map(|r| ModFiles::Dir(r.to_owned())),
                };
                LoadedRow {
                    id: m.id.clone(),
                    name: m.name.clone(),
                    version: m.version.clone(),
                    description: m.description.clone(),
                    priority: m.priority,
                    profile: m.profile.as_str(),
                    files,
                    exports: lm
                        .exports
                        .cloned()
                        .unwrap_or_else(|| Value::Map(BTreeMap::new())),
                    functions: ours
                        .and_then(|_| functions.get(&m.id).cloned())
                        .unwrap_or_default(),
                }
            })
            .collect();
        LoadedSnapshot {
            loaded,
            failed: mods
                .failed
                .iter()
                .map(|(id, e)| ((*id).to_owned(), (*e).to_owned()))
                .collect(),
        }
    }
}

/// Run the entry (`mod.path` is `mods/<id>`: never a host path, so transcripts do not depend on
/// where the game is installed) and return the data of `mod.exports` with the keys whose
/// values were functions.
fn run_entry(module: &Rc<LuaMod>, m: &Manifest) -> Result<(Value, BTreeSet<String>), String> {
    let budget = module.host.budget.clone();
    let _frame = budget.enter(LOAD_LIMIT);
    let fail = |e: mlua::Error| {
        if budget_stopped(&budget) {
            format!("entry {}: {BUDGET_MESSAGE}", m.entry)
        } else {
            short(&e)
        }
    };
    let lua = &module.lua;
    let path = format!("mods/{}", m.id);
    let api = crate::modapi::build(module, m, &path).map_err(fail)?;
    lua.set_named_registry_value(crate::loader_view::MOD_TABLE, &api)
        .and_then(|()| api.raw_get::<LuaValue>("events"))
        .and_then(|events| lua.set_named_registry_value(crate::loader_view::EVENTS_HANDLE, events))
        .map_err(fail)?;
    let text = module.files.read(&m.entry)?;
    if text.len() > crate::sandbox::MAX_CHUNK_BYTES {
        return Err(format!(
            "{}: {}",
            m.entry,
            crate::sandbox::chunk_too_large(text.len())
        ));
    }
    if text.as_bytes().first() == Some(&0x1b) {
        return Err(format!(
            "{}: binary chunks are not accepted: mods load Lua source text only",
            m.entry
        ));
    }
    let chunk = lua
        .load(text.as_str())
        .set_name(format!("@{path}/{}", m.entry))
        .set_mode(mlua::chunk::ChunkMode::Text)
        .into_function()
        .map_err(fail)?;
    // SAFETY: the state is idle (no Lua code running).
    if unsafe { module.flood.after_compile() } {
        return Err(format!(
            "{}: {}",
            m.entry,
            crate::string_flood::FLOOD_MESSAGE
        ));
    }
    let returned: MultiValue = chunk.call(api.clone()).map_err(fail)?;
    if let Some(LuaValue::Function(f)) = returned.front() {
        f.call::<()>(api.clone()).map_err(fail)?;
    }
    let exports: LuaValue = api.get("exports").map_err(fail)?;
    let mut functions = BTreeSet::new();
    if let LuaValue::Table(t) = &exports {
        for pair in t.pairs::<LuaValue, LuaValue>() {
            if let Ok((LuaValue::String(k), LuaValue::Function(_))) = pair {
                if let Ok(k) = k.to_str() {
                    functions.insert(k.to_string());
                }
            }
        }
    }
    let data = from_lua_data_only(&exports).map_err(|e| format!("mod.exports: {e}"))?;
    Ok((data, functions))
}

impl ModHost for LuaHost {
    fn name(&self) -> &str {
        "lua"
    }

    fn handles(&self, manifest: &Manifest) -> bool {
        manifest.entry.ends_with(".lua")
    }

    fn mods_loaded(&mut self, mods: &LoadedMods<'_>) {
        let kept = if self.shared.wants_loader.get() {
            Some(Rc::new(self.keep_loaded(mods)))
        } else {
            None
        };
        *self.shared.loaded.borrow_mut() = kept;
    }

    fn run_entry(&mut self, ctx: &mut ModContext<'_>) -> Result<(), String> {
        match self.load(ctx) {
            Ok(module) => {
                self.mods.push(module);
                Ok(())
            }
            Err(e) => {
                self.load_errors.push((ctx.manifest.id.clone(), e.clone()));
                Err(e)
            }
        }
    }
}
