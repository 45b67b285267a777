//! The content registries as the game: the base records every registry starts from (the
//! active version's embedded data), and the freeze-time compile of the merged view into the
//! typed tables the battle loop and the overworld read.
//!
//! | module | concern |
//! |---|---|
//! | [`base`] | base records per registry, built lazily on first use ([`base::content_for`]) |
//! | [`compile`] | merged view → [`GameContent`] (dataset tables, maps, trainers), with cross-reference checks |
//! | [`removed`] | removing a base record: what the base data still names is blamed on the remover |
//! | [`scripts`] | `map_scripts` op lists → script rows, composed with the base handlers |
//! | [`tables`] | the species/move/item/type-chart compile into a leaked `'static` [`crate::data::Dataset`] |
//!
//! With no content mod nothing is compiled: [`GameContent::embedded`] uses the embedded tables
//! (`data::gen1()`, the embedded map set, [`crate::game::TRAINERS`]) directly, so the battle
//! loop is byte-for-byte the one without mods.

pub mod base;
pub mod compile;
pub mod public_records;
pub mod removed;
pub mod scripts;
pub mod tables;
pub mod texts;

pub use base::{base_records, content_for};
pub use compile::{
    compile, engine_version, loader_check, CompiledSlot, ContentProblem, GameContent,
};

#[cfg(test)]
mod tests;
