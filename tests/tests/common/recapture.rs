//! The comparison the checkpoint corruption property tests make after a restore that was
//! accepted: the restored game, captured again, must equal the checkpoint it was restored from.

use pallet_engine::checkpoint::{self, Checkpoint};
use pallet_engine::game::Game;

/// A recapture of `game` for comparison with the restored `cp`: `identity.engineVersion` is
/// metadata that restore accepts whatever it says (RFC 0004), so it is taken from `cp`.
pub fn recapture_as(game: &mut Game, cp: &Checkpoint) -> Checkpoint {
    let mut again = checkpoint::capture(game).unwrap();
    again.identity.engine_version = cp.identity.engine_version.clone();
    again
}
