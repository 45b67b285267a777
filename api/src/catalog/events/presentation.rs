//! Presentation events the Lua engine raised from its audio rows: `sound.played`,
//! `music.started`, `music.stopped`. Emitted as the overworld queues the row.

use serde::{Deserialize, Serialize};

use super::event;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SoundPlayedPayload {
    /// Sound id, e.g. `"SFX_SS_ANNE_HORN"`.
    pub id: String,
    pub map_id: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MusicStartedPayload {
    /// Music id, e.g. `"Music_PalletTown"`.
    pub id: String,
    pub map_id: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MusicStoppedPayload {
    pub map_id: String,
}

event!(
    /// A sound effect was played.
    SoundPlayed, "sound.played", 38, SoundPlayedPayload
);
event!(
    /// A music track started.
    MusicStarted, "music.started", 39, MusicStartedPayload
);
event!(
    /// The music stopped.
    MusicStopped, "music.stopped", 40, MusicStoppedPayload
);
