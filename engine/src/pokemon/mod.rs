//! Pokémon, party and PC boxes (Gen 1 rules).
//!
//! - [`stats`]: the cartridge's `CalcStat` arithmetic, HP DV, experience/level helpers.
//! - [`mon`]: [`Pokemon`] with DVs, stat experience, moves and PP, status, derived stats.
//! - [`party`]: [`Party`] of up to six.
//! - [`boxes`]: [`Boxes`], 12 boxes of 20 with the reference engine's deposit rule.

pub mod boxes;
pub mod evolution;
pub mod mon;
pub mod party;
pub mod stats;

pub use boxes::{BoxError, Boxes, BOX_CAPACITY, BOX_COUNT};
pub use mon::{Dvs, MonError, Pokemon, StatExp, Stats, Status, MOVE_SLOTS};
pub use party::{Party, PARTY_CAPACITY};
