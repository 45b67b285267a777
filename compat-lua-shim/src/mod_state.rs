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
    /// Some Lua mod of this host listens to `mods.loaded` (only then is [`Self::loaded`] kept).
    pub wants_loader: Cell<bool>,
    /// What the `ev.loader` view of `mods.loaded` shows ([`crate::loader_view`]), kept at the
    /// last load when [`Self::wants_loader`].
    pub loaded: RefCell<Option<Rc<LoadedSnapshot>>>,
    /// The top-level keys of each Lua mod's `mod.exports` whose values were functions (they
    /// do not cross as data; the loader view shows them as uncallable functions).
    pub export_functions: RefCell<BTreeMap<String, BTreeSet<String>>>,
    /// Wrappers of hook names Pallet never raises (accepted, never run), listed in the loader
    /// view's `hooks.chains` as the Lua engine's name-keyed bus would hold them.
    pub dormant: RefCell<Vec<DormantLink>>,
    /// Sequence numbers of [`Self::dormant`] links (registration order).
    pub dormant_seq: Cell<u64>,
}

/// Most dormant wrappers one mod may have listed ([`HostShared::dormant`]); further ones are
/// accepted (they never run either) but not listed, with a one-time warning.
pub const MAX_DORMANT_PER_MOD: usize = 256;

/// A wrapper of a hook name Pallet never raises.
#[derive(Clone, Debug)]
pub struct DormantLink {
    pub hook: String,
    pub owner: String,
    pub priority: i32,
    pub seq: u64,
}

/// The mods a `mods.loaded` loader view shows: copied once per load from the loader's
/// [`pallet_api::loader::LoadedMods`], read by every view built from it.
pub struct LoadedSnapshot {
    /// Loaded mods, in load order.
    pub loaded: Vec<LoadedRow>,
    /// `(id, error)` of the mods that failed, by id.
    pub failed: Vec<(String, String)>,
}

/// One loaded mod in a [`LoadedSnapshot`].
pub struct LoadedRow {
    pub id: String,
    pub name: String,
    pub version: String,
    pub description: Option<String>,
    pub priority: f64,
    pub profile: &'static str,
    /// Its files (its folder, or the in-memory files of an embedded Lua mod).
    pub files: Option<ModFiles>,
    /// Its exports as data.
    pub exports: Value,
    /// Which top-level export keys were functions (Lua mods of this host).
    pub functions: BTreeSet<String>,
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
