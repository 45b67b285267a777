//! Facade traits the engine implements and hosts expose to mods (`mod.world`,
//! `mod.checkpoints`, `mod.datasets`). Signatures only: api holds no game logic.
//!
//! Failure values are the stable enums of [`crate::reasons`]; hosts render them per language
//! (Lua: `nil, reason` / `false, code, message`; Rhai: a thrown `{code, message}` value).

use crate::catalog::common::GameVersion;
use crate::reasons::{BlockReadError, CheckpointCode, DatasetError};
use crate::value::Value;

/// A block coordinate as a script passed it: only exact, finite, integral numbers are
/// coordinates (`Int`, or an integral `Float`); anything else is
/// [`BlockReadError::InvalidBlockCoordinates`]. Range is the facade's business.
pub fn block_coordinate(v: &Value) -> Result<i64, BlockReadError> {
    v.as_exact_int()
        .ok_or(BlockReadError::InvalidBlockCoordinates)
}

/// `mod.world` (Gen 1).
pub trait WorldApi {
    /// RFC 0013 `activeBlockAt(mapId, blockX, blockY)`: the block id at zero-based block
    /// coordinates of the **active** map, copied out. Checks in order: an active overworld
    /// (`no overworld`), `map_id` equals the active map (`map is not active`; a non-string map
    /// id from a script is passed as `""`), coordinates are exact integers
    /// (`invalid block coordinates`, see [`block_coordinate`]), in bounds
    /// (`block coordinates out of bounds`), and the block slot and the map accessor agree on a
    /// valid non-negative integer (`block unavailable`). Never mutates map or save state.
    fn active_block_at(
        &self,
        map_id: &str,
        block_x: &Value,
        block_y: &Value,
    ) -> Result<u8, BlockReadError>;
}

/// What a checkpoint records (or refuses to).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CheckpointKindTag {
    Unknown,
    Overworld,
    Battle,
}

impl CheckpointKindTag {
    pub fn as_str(self) -> &'static str {
        match self {
            CheckpointKindTag::Unknown => "unknown",
            CheckpointKindTag::Overworld => "overworld",
            CheckpointKindTag::Battle => "battle",
        }
    }
}

/// `inspect` result: `{canCapture, canRestore, kind}` plus `reason`/`message` on refusal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Capability {
    pub can_capture: bool,
    pub can_restore: bool,
    pub kind: CheckpointKindTag,
    /// Set exactly when both booleans are false.
    pub refusal: Option<CheckpointFailure>,
}

/// A checkpoint failure: stable code plus a player-readable message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckpointFailure {
    pub code: CheckpointCode,
    pub message: String,
}

/// `mod.checkpoints` (RFC 0004/0005).
pub trait CheckpointsApi {
    fn inspect(&self) -> Capability;
    /// A detached data-only checkpoint record (`{format, kind, identity, save, runtime, …}`).
    fn capture(&self) -> Result<Value, CheckpointFailure>;
    /// Validate, apply, verify by recapture; emits `checkpoint.restored` only on success.
    fn restore(&mut self, checkpoint: &Value) -> Result<(), CheckpointFailure>;
}

/// `assets:info` result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AssetInfo {
    /// Always `"file"` today.
    pub kind: String,
    pub size: Option<u64>,
}

/// A read-only view of an imported dataset (RFC 0015-views).
pub trait DatasetView {
    fn version(&self) -> GameVersion;
    fn generation(&self) -> u8;
    /// A detached copy of record `id` of `registry`, or `None`.
    fn get(&self, registry: &str, id: &str) -> Option<Value>;
    fn has(&self, registry: &str, id: &str) -> bool;
    /// Every record of `registry` in lexical id order (detached).
    fn each(&self, registry: &str) -> Vec<(String, Value)>;
    /// The cache-prefixed path of a generated asset; `None` for paths outside
    /// `assets/generated/` or with traversal, backslashes, control characters.
    fn asset_path(&self, relative: &str) -> Option<String>;
    fn asset_info(&self, relative: &str) -> Option<AssetInfo>;
}

/// `mod.datasets` (RFC 0015-views): needs no capability grant.
pub trait DatasetsApi {
    /// `unknown_version` for names that are not versions, `not_imported` for a missing, partial
    /// or stale cache, `invalid_cache` for a cache that failed validation earlier.
    fn open(&self, version: &str) -> Result<Box<dyn DatasetView>, DatasetError>;
}

/// The `world` facade's methods: `(Rhai name, Lua name)`. One implementation
/// (`pallet_engine::world_facade`) serves both hosts by the Rhai (snake_case) name.
pub const WORLD_METHODS: &[(&str, &str)] = &[
    ("current", "current"),
    ("map_overview", "mapOverview"),
    ("overworld", "overworld"),
    ("replace_block", "replaceBlock"),
    ("queue_script", "queueScript"),
    ("get_flag", "getFlag"),
    ("set_flag", "setFlag"),
    ("effective_encounters", "effectiveEncounters"),
    ("spawn_npc", "spawnNpc"),
    ("remove_npc", "removeNpc"),
    ("toggle_object", "toggleObject"),
    ("start_wild_battle", "startWildBattle"),
    ("give_item", "giveItem"),
    ("give_pokemon", "givePokemon"),
    ("try_run", "tryRun"),
];

/// A refused `world` action: a stable reason string (the Lua engine's wording where it has
/// one, e.g. `"a battle is already running"`, `"world is busy"`) and a readable message (with
/// a did-you-mean for unknown ids). Lua renders `nil, reason`; Rhai throws `#{code, message}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorldFailure {
    pub reason: &'static str,
    pub message: String,
}

impl WorldFailure {
    pub fn new(reason: &'static str, message: impl Into<String>) -> WorldFailure {
        WorldFailure {
            reason,
            message: message.into(),
        }
    }
}
