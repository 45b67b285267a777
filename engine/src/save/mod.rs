//! Progress saves: the canonical struct, its deterministic encoding, atomic files with recovery,
//! and the validator.
//!
//! - [`data`]: [`SaveData`] (the Lua engine's save keys) and `new_game`.
//! - [`record`]: [`MonRecord`], mons keyed by string ids, and conversion to/from [`Pokemon`](crate::pokemon::Pokemon).
//! - [`codec`]: `PALLET-SAVE 1` header + canonical JSON; `encode`/`decode`.
//! - [`file`]: atomic write (`.tmp`, fsync, `.bak`, rename) and recovering load.
//! - [`script_view`]: the save as a script reads it (`game.save`).
//! - [`validate`]: the load's validation step (quarantine, reclaim, repair, remap) and its report.

pub mod codec;
pub mod data;
pub mod file;
pub mod record;
pub mod script_view;
pub mod validate;

pub use codec::{decode, encode, DecodeError, EncodeError};
pub use data::{
    ItemStack, MapPoint, Meta, ModStamp, ObjectToggles, OrphanItem, OrphanMon, Orphaned,
    OutdoorPoint, PlayerState, Pokedex, SaveData, Spawn, SAVE_FORMAT,
};
pub use file::{
    load_save, write_save, LoadError, Loaded, Recovered, RecoverySource, SaveFileError,
};
pub use record::{MonRecord, RecordError};
pub use validate::{
    validate, validate_with_content, MissingContentMod, ValidateEnv, ValidationReport,
};

#[cfg(test)]
mod tests;
