//! The overworld: fixture maps (data files embedded at build time), the tick-driven simulation
//! (movement, collision, warps, text boxes, the script runner), map scripts with base
//! contributions, and the RFC 0013 block read.
//!
//! | module | concern |
//! |---|---|
//! | [`tileset`] | block id → 2×2 cell kinds (walkable, water, grass, door) |
//! | [`map`] | serde map definitions (`MapDef`, warps, signs, NPCs, encounter tables) and their schema check |
//! | [`store`] | the embedded map sets of `red`, `blue`, `yellow`, parsed once |
//! | [`active_map`] | the runtime copy of the active map (block storage + layered accessor) |
//! | [`block_read`] | `active_block_at` (RFC 0013) and its failure reasons |
//! | [`encounters`] | Gen 1 grass encounter roll (rate byte, ten weighted slots) |
//! | [`last_map`] | `LAST_MAP` warps: back to the outdoor map the player came from, recorded at run time in the save |
//! | [`script`] | script rows and the runner's per-row state |
//! | [`map_scripts`] | per-map handler registry (`onEnter`, talk), priority order |
//! | [`map_step_handlers`] | `onStep`/`onInteract` mod handlers: first truthy return consumes; `queueScript` rows |
//! | [`dock`] | Vermilion Dock's map facts (ship blocks, their water, the gangway row) |
//! | [`base_scripts`] | the engine's base contributions (Vermilion Dock, the captain, …) |
//! | [`presentation`] | rows of what the player sees, formatted lazily |
//! | [`overworld`] | the simulation state and `step(input)`; its children run scripts (`runner`, `script_items`), raise the hook sites of steps and rows (`sites_hooks`) and answer the block read (`world_api`) |
//! | `objects` | saved object toggles (`toggle_object`, `world.object_toggled` then `map.reloaded`) and runtime NPCs mods place and remove (`world.spawn_npc`/`remove_npc`) |
//! | [`sites`] | hook/event call sites of the overworld (guarded, zero cost when unused) |
//! | [`trainer_sight`] | trainers that see the player: line of sight, the engagement rows ("!", walk up, battle text, battle) |

pub mod active_map;
pub mod base_scripts;
pub mod block_read;
pub mod dock;
pub mod encounters;
pub mod last_map;
pub mod map;
pub mod map_scripts;
pub mod map_step_handlers;
pub mod objects;
pub mod overworld;
pub mod presentation;
pub mod script;
pub mod sites;
pub mod sites_flow;
pub mod store;
pub mod tileset;
pub mod trainer_sight;
pub mod translations;

pub use active_map::ActiveMap;
pub use block_read::BlockReadError;
pub use map::{MapDef, WarpDef};
pub(crate) use overworld::encounter_table;
pub use overworld::{BusyState, ChangeObserver, Overworld, WorldCtx};
pub use presentation::PresentationRow;
pub use script::ScriptRow;
pub use store::MapSet;
// The shared enums live in `crate::types` (the save reads them too); `world::types` keeps
// their overworld path.
pub use crate::types;
pub use crate::types::{Direction, GameVersion, Input};

#[cfg(test)]
mod tests;
