//! One loaded Lua mod ([`LuaMod`]: its state, services and per-mod tables) and what every mod
//! of one host shares ([`HostShared`]). A leaf under the modules that act on a mod (`link`,
//! `modapi`, `storage`, `datasets`, `map_handlers`, `rawcall`); `host` builds both.

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, BTreeSet};
use std::rc::{Rc, Weak};

use mlua::{Function, Lua};
use pallet_api::budget::DispatchBudget;
use pallet_api::catalog::common::GameVersion;
use pallet_api::facades::DatasetsApi;
use pallet_api::services::{ModContent, ModLog, ModOptions, SaveBucket};
use pallet_api::{Runtime, Value};

use crate::clock::Clock;
use crate::files::ModFiles;
use crate::sandbox::ModRng;

/// State shared by every mod of one host.
pub struct HostShared {
    pub rt: Weak<Runtime>,
    pub budget: Rc<DispatchBudget>,
    pub datasets: RefCell<Option<Rc<dyn DatasetsApi>>>,
    pub game: Cell<GameVersion>,
    pub clock: Cell<Clock>,
    pub seed: Cell<u64>,
    pub memory_limit: Cell<usize>,
    /// `mod.find`: `(version, exports)` of the Lua mods this host loaded, plus the other mods a
    /// Lua mod's manifest names as (optional) dependencies, read at its load.
    pub exports: RefCell<BTreeMap<String, (String, Value)>>,
    /// The profile folder (`mod.storage` lives in `<profile>/storage/<mod id>/`).
    pub profile: RefCell<Option<std::path::PathBuf>>,
    /// Mods with map-script function handlers ([`crate::map_handlers`]).
    pub handler_owners: RefCell<Vec<Weak<LuaMod>>>,
}

/// One loaded (or loading) Lua mod.
pub struct LuaMod {
    pub id: String,
    pub version: String,
    pub lua: Lua,
    /// The state allocator's refusal gate, lifted around the host's raw pushes
    /// ([`crate::charged_alloc::Gate`]).
    pub gate: crate::charged_alloc::Gate,
    pub host: Rc<HostShared>,
    pub files: ModFiles,
    pub log: ModLog,
    pub save: SaveBucket,
    pub options: ModOptions,
    pub content: ModContent,
    pub rng: Rc<ModRng>,
    /// Static strings interned for the raw stack pushes ([`crate::stack`]).
    pub keys: Rc<crate::stack::KeyCache>,
    /// The state's own `string.format` (captured before the mod runs) for printf-style logs.
    pub format: Function,
    /// One-time warnings already given (unknown hooks, registries).
    pub warned: RefCell<BTreeSet<String>>,
    pub instructions: Rc<Cell<u64>>,
    /// The state's string-table guard: once flooded (`lua.max_string_collisions`) the mod's
    /// code is never run again.
    pub flood: Rc<crate::string_flood::FloodGuard>,
    /// Manifest priority (map-script contributions).
    pub priority: i32,
    /// Map-script handlers given as functions, by (map id, trigger) ([`crate::map_handlers`]).
    pub map_handlers: RefCell<BTreeMap<(String, String), Function>>,
    /// Item effects' `use` functions, by effect id ([`crate::item_effects`]).
    pub item_effects: RefCell<BTreeMap<String, Function>>,
}

impl LuaMod {
    /// Log `message` as a warning once per key.
    pub fn warn_once(&self, key: &str, message: &str) {
        if self.warned.borrow_mut().insert(key.to_owned()) {
            self.log.warn(message);
        }
    }
}
