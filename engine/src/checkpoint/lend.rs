//! What a script handle does with the game lent to it (`inspect`, `capture`, `restore`, with
//! the mods' `mod.save` store kept in step) and the refusals it answers outside a loan. The
//! lending slot itself ([`lend`], [`with_lent`], [`unsettled`]) is the game's
//! (`crate::game::lend`), re-exported here: the game opens loans at its own safe points.

use pallet_api::facades::{Capability, CheckpointFailure, CheckpointKindTag};
use pallet_api::reasons::CheckpointCode;
use pallet_api::Value;

use super::ops;
pub use crate::game::lend::{
    attach_mod_data, attached_mod_data, game_is_lent, lend, unsettled, unsettled_scope, with_lent,
    Lent,
};

/// The refusal of the innermost [`unsettled`] scope, when a handle runs inside one (and no
/// game is lent), with the reference's player-readable message.
pub fn unsettled_refusal() -> Option<Capability> {
    if game_is_lent() {
        return None;
    }
    unsettled_scope().map(|(kind, code)| Capability {
        can_capture: false,
        can_restore: false,
        kind,
        refusal: Some(CheckpointFailure {
            code,
            message: ops::refusal_message(code).to_owned(),
        }),
    })
}

/// What a script handle answers when no game is lent to it: the innermost [`unsettled`]
/// scope's refusal (a battle round: `{kind = "battle", reason = "battle_phase_busy"}`), else
/// `script_busy` with kind `unknown` and the handle's `message`.
pub fn refusal_outside_loan(message: &str) -> Capability {
    unsettled_refusal().unwrap_or_else(|| Capability {
        can_capture: false,
        can_restore: false,
        kind: CheckpointKindTag::Unknown,
        refusal: Some(CheckpointFailure {
            code: CheckpointCode::ScriptBusy,
            message: message.to_owned(),
        }),
    })
}

impl Lent<'_> {
    /// Copy the live `mod.save` buckets into the save (the store is authoritative in play).
    fn sync_in(&mut self) {
        if let Some(store) = &self.mod_data {
            if let Value::Map(m) = store.to_value() {
                self.game.save.mod_data = m;
            }
        }
    }

    pub fn inspect(&mut self) -> Capability {
        ops::inspect(self.game)
    }

    pub fn capture(&mut self) -> Result<Value, CheckpointFailure> {
        if ops::inspect(self.game).refusal.is_none() {
            self.sync_in();
        }
        let cp = ops::capture(self.game)?;
        cp.to_value().map_err(|e| CheckpointFailure {
            code: pallet_api::reasons::CheckpointCode::CaptureFailed,
            message: e,
        })
    }

    /// Restore; on success the `mod.save` store is rewound to the checkpoint's buckets.
    pub fn restore(&mut self, v: &Value) -> Result<(), CheckpointFailure> {
        if ops::inspect(self.game).refusal.is_none() {
            self.sync_in();
        }
        let store = self.mod_data.clone();
        ops::restore_value_then(self.game, v, &mut |game| {
            if let Some(store) = &store {
                store.load(&Value::Map(game.save.mod_data.clone()));
            }
        })
    }
}
