//! The capture path: the Gen 1 catch roll (`ItemUseBall`), the guarded `catch.rate` site, and
//! `store_caught_mon` as the Lua engine's `storeCaughtMon` runs (party → box with the transfer
//! text → "But every BOX is full!"; new-dex text; nickname offer; `pokemon.caught`), with the
//! RFC 0018 seam [`Battle::party_full_destination`].
//!
//! The battle does not own the player's boxes or Pokédex; a front end lends them for the
//! battle with [`Battle::set_capture_store`] and takes them back with
//! [`Battle::take_capture_store`]. The player's party is the battle's own player side.
//!
//! This module holds the storage the capture path writes to; the roll, the texts and the path
//! on the battle live in the submodules.

use pallet_api::catalog::common::GameInfo;

use crate::pokemon::{Boxes, Pokemon};
use crate::save::data::Pokedex;

#[cfg(doc)]
use super::Battle;

mod path;
mod roll;

pub use super::rows::capture::{CaptureMsg, CaptureRow};
pub use roll::{roll_catch, Ball, CatchInput, CatchRoll, CatchStatus};

// ----- storage the capture path writes to -----------------------------------------------------

/// What the capture path needs from the player's save besides the party: the boxes, the
/// Pokédex, whether Bill has been met (transfer text), the OT stamp and the game summary.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CaptureStore {
    pub boxes: Boxes<Pokemon>,
    pub pokedex: Pokedex,
    /// `EVENT_MET_BILL` is set: "BILL's PC" instead of "someone's PC".
    pub met_bill: bool,
    pub ot_name: String,
    pub ot_id: u16,
    pub game: GameInfo,
}

/// Where a caught mon went (`pokemon.caught`'s `destination`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Destination {
    Party,
    Box,
    /// A `catch.party_full` link took custody (RFC 0018): in neither party nor boxes.
    Mod,
}

impl Destination {
    pub fn as_str(self) -> &'static str {
        match self {
            Destination::Party => "party",
            Destination::Box => "box",
            Destination::Mod => "mod",
        }
    }
}

/// What the last successful throw did (for front ends and tests).
#[derive(Clone, Debug, PartialEq)]
pub struct CaughtMon {
    pub mon: Pokemon,
    pub destination: Destination,
    /// Box number (1-based) for [`Destination::Box`]; `None` when every box was full.
    pub box_no: Option<usize>,
    pub is_new: bool,
}

#[cfg(test)]
mod tests;
