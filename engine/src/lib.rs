//! Pallet's game engine. See `README.md` for the module table.

pub mod data;
pub mod rng;
pub mod world;
