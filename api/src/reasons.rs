//! Stable reason and error codes. Each enum's `as_str()` is the exact RFC string — a contract
//! identical in Rust, Rhai and Lua. `ALL` lists every variant (docs and tests iterate it);
//! `parse` is the inverse of `as_str`.

use std::fmt;

macro_rules! reason_enum {
    ($(#[$meta:meta])* pub enum $name:ident { $($(#[$vmeta:meta])* $variant:ident => $text:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name { $($(#[$vmeta])* $variant),+ }

        impl $name {
            /// Every variant, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The exact contract string.
            pub const fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }

            /// The variant whose `as_str()` is `text`.
            pub fn parse(text: &str) -> Option<Self> {
                match text { $($text => Some($name::$variant),)+ _ => None }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl std::error::Error for $name {}

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let text = <String as serde::Deserialize>::deserialize(d)?;
                $name::parse(&text).ok_or_else(|| {
                    <D::Error as serde::de::Error>::custom(format!(
                        concat!("unknown ", stringify!($name), " {:?}"),
                        text
                    ))
                })
            }
        }
    };
}

reason_enum! {
    /// `WorldApi::active_block_at` failures (RFC 0013).
    pub enum BlockReadError {
        /// No active overworld map.
        NoOverworld => "no overworld",
        /// `mapId` differs from the active map.
        MapNotActive => "map is not active",
        /// A coordinate has the wrong type, is non-finite, or is fractional.
        InvalidBlockCoordinates => "invalid block coordinates",
        /// A coordinate is negative or outside the active map.
        BlockCoordinatesOutOfBounds => "block coordinates out of bounds",
        /// Active block data is absent or malformed.
        BlockUnavailable => "block unavailable",
    }
}

reason_enum! {
    /// Stable `reason` keys in the `map.occupancy_allowed` context (RFC 0013).
    pub enum OccupancyReason {
        /// The post-departure `VERMILION_DOCK` script.
        SsAnneDeparted => "ss_anne_departed",
    }
}

reason_enum! {
    /// Checkpoint refusal reasons and failure codes (RFC 0004/0005).
    pub enum CheckpointCode {
        NotInPlaythrough => "not_in_playthrough",
        NotOverworld => "not_overworld",
        ScreenBusy => "screen_busy",
        TransitionBusy => "transition_busy",
        ScriptBusy => "script_busy",
        AnimationBusy => "animation_busy",
        MovementBusy => "movement_busy",
        BattlePhaseBusy => "battle_phase_busy",
        CaptureFailed => "capture_failed",
        InvalidCheckpoint => "invalid_checkpoint",
        InvalidContent => "invalid_content",
        UnsupportedFormat => "unsupported_format",
        UnsupportedRuntimeKind => "unsupported_runtime_kind",
        WrongGame => "wrong_game",
        WrongPlaythrough => "wrong_playthrough",
        InvalidMap => "invalid_map",
        InvalidPosition => "invalid_position",
        RestoreFailed => "restore_failed",
        RollbackFailed => "rollback_failed",
        BattleExtensionUnsafe => "battle_extension_unsafe",
        BattleStateInvalid => "battle_state_invalid",
        BattleOriginUnsupported => "battle_origin_unsupported",
        RngStateUnavailable => "rng_state_unavailable",
        LinkBattleUnsupported => "link_battle_unsupported",
    }
}

impl CheckpointCode {
    /// Is this one of the capability refusals `inspect` reports (as opposed to a
    /// capture/restore failure)?
    pub fn is_refusal(self) -> bool {
        matches!(
            self,
            CheckpointCode::NotInPlaythrough
                | CheckpointCode::NotOverworld
                | CheckpointCode::ScreenBusy
                | CheckpointCode::TransitionBusy
                | CheckpointCode::ScriptBusy
                | CheckpointCode::AnimationBusy
                | CheckpointCode::MovementBusy
                | CheckpointCode::BattlePhaseBusy
                | CheckpointCode::LinkBattleUnsupported
        )
    }
}

reason_enum! {
    /// `DatasetsApi::open` failures (RFC 0015-views).
    pub enum DatasetError {
        UnknownVersion => "unknown_version",
        NotImported => "not_imported",
        InvalidCache => "invalid_cache",
    }
}

reason_enum! {
    /// `mod.storage` codes (the Lua engine's), kept for the storage facade.
    pub enum StorageCode {
        NotInPlaythrough => "not_in_playthrough",
        InvalidKey => "invalid_key",
        NotFound => "not_found",
        EncodeFailed => "encode_failed",
        WriteFailed => "write_failed",
        VerifyFailed => "verify_failed",
        StorageUnavailable => "storage_unavailable",
    }
}

/// A mod tried to emit an event outside its `mod.<id>.*` namespace.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EmitError {
    #[error("[{mod_id}] mods may only emit mod.{mod_id}.* events")]
    ForeignName { mod_id: String },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_round_trip_and_match_the_rfcs() {
        assert_eq!(BlockReadError::MapNotActive.as_str(), "map is not active");
        assert_eq!(BlockReadError::NoOverworld.as_str(), "no overworld");
        assert_eq!(
            BlockReadError::InvalidBlockCoordinates.as_str(),
            "invalid block coordinates"
        );
        assert_eq!(
            BlockReadError::BlockCoordinatesOutOfBounds.as_str(),
            "block coordinates out of bounds"
        );
        assert_eq!(
            BlockReadError::BlockUnavailable.as_str(),
            "block unavailable"
        );
        assert_eq!(DatasetError::InvalidCache.to_string(), "invalid_cache");
        for c in CheckpointCode::ALL {
            assert_eq!(CheckpointCode::parse(c.as_str()), Some(*c));
        }
        for c in BlockReadError::ALL {
            assert_eq!(BlockReadError::parse(c.as_str()), Some(*c));
        }
        assert!(CheckpointCode::ScriptBusy.is_refusal());
        assert!(!CheckpointCode::WrongGame.is_refusal());
    }

    #[test]
    fn emit_error_text_matches_the_lua_engine() {
        let e = EmitError::ForeignName {
            mod_id: "clock".into(),
        };
        assert_eq!(
            e.to_string(),
            "[clock] mods may only emit mod.clock.* events"
        );
    }
}
