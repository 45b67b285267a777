//! Pallet's game engine. See `README.md` for the module table.

pub mod battle;
pub mod checkpoint;
pub mod content;
pub mod data;
pub mod datasets;
pub mod game;
pub mod game_view;
pub mod input_facade;
pub mod items;
pub mod mod_input;
pub mod pokemon;
pub mod public_records;
pub mod rng;
pub mod save;
pub mod save_request;
pub mod types;
pub mod world;
pub mod world_deferred;
pub mod world_facade;
pub mod world_reads;
pub mod world_values;
