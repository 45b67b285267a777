//! Legacy Lua mods (written for the original Lua engine) on a real, hardened Lua VM — vendored
//! PUC Lua 5.1 through mlua, one state per mod — over the same hook and event buses as Rhai
//! mods. See `README.md` for the module table and `docs/modding-lua.md` for what loads.

pub mod battle_view;
pub mod bit;
mod capi;
pub mod charged;
pub mod charged_alloc;
pub mod charged_patterns;
pub mod check;
pub mod checkpoints;
pub mod clock;
pub mod convert;
pub mod datasets;
pub mod errors;
pub mod files;
pub mod game_view;
pub mod handles;
pub mod host;
pub mod input;
pub mod item_effects;
pub mod limits;
pub mod link;
pub mod loader_view;
pub mod map_handlers;
pub mod mod_state;
pub mod modapi;
pub mod next_frames;
mod overworld_view;
pub mod pattern_cost;
mod rawcall;
pub mod reads;
pub mod sandbox;
pub mod share;
pub mod spelling;
pub mod stack;
pub mod storage;
pub mod string_flood;
pub mod string_table;
pub mod ui;

pub use clock::Clock;
pub use host::{LuaHost, LuaMonitor};
