//! Lifecycle events: `game.ready`, `save.created`, `save.loaded`, `checkpoint.restored`,
//! `mods.loaded`, `save.writing`, `save.loading`, `mod.options_changed`.

use serde::{Deserialize, Serialize};

use super::event;
use crate::catalog::common::{GameInfo, Record};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameReadyPayload {
    pub game: GameInfo,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SaveCreatedPayload {
    /// The new save (detached).
    #[serde(default)]
    pub save: Record,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SaveLoadedPayload {
    #[serde(default)]
    pub save: Record,
    #[serde(default)]
    pub meta: Record,
    /// `{added, removed, changed}` against the save's recorded mod list.
    #[serde(default)]
    pub mods_diff: Record,
}

/// What a checkpoint captured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CheckpointKind {
    Overworld,
    Battle,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckpointRestoredPayload {
    pub game: GameInfo,
    pub kind: CheckpointKind,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModsLoadedPayload {
    /// Loaded mod ids, in load order.
    pub order: Vec<String>,
    /// Mods that failed to load.
    pub failed: Vec<String>,
}

event!(
    /// The game finished booting (or a hot reload finished).
    GameReady, "game.ready", 0, GameReadyPayload
);
event!(
    /// A new game's save was created.
    SaveCreated, "save.created", 11, SaveCreatedPayload
);
event!(
    /// A save finished loading (after validation).
    SaveLoaded, "save.loaded", 12, SaveLoadedPayload
);
event!(
    /// A checkpoint restore succeeded and was verified (RFC 0004).
    CheckpointRestored, "checkpoint.restored", 13, CheckpointRestoredPayload
);
event!(
    /// Every mod entry ran; content is frozen.
    ModsLoaded, "mods.loaded", 14, ModsLoadedPayload
);

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SaveWritingPayload {
    /// The save about to be written (detached; after `save.write` allowed it).
    #[serde(default)]
    pub save: Record,
    #[serde(default)]
    pub meta: Record,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SaveLoadingPayload {
    /// The decoded save document before validation (detached data).
    #[serde(default)]
    pub raw: Record,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ModOptionsChangedPayload {
    /// The mod whose options changed (`payload.mod`, as the public Lua mods read it).
    #[serde(rename = "mod")]
    pub mod_id: String,
    /// The option key.
    pub key: String,
    pub value: Record,
}

event!(
    /// A save is about to be written.
    SaveWriting, "save.writing", 35, SaveWritingPayload
);
event!(
    /// A save document was read and is about to be validated.
    SaveLoading, "save.loading", 36, SaveLoadingPayload
);
event!(
    /// A mod's option changed (the Lua engine's one engine event in the `mod.` namespace).
    ModOptionsChanged, "mod.options_changed", 37, ModOptionsChangedPayload
);
