//! Map objects that appear and disappear.
//!
//! - **Saved toggles** (the Lua engine's `toggleObject(mapId, objName, visible)`): a map
//!   object of the map data, named by its `name`, is shown or hidden in the save's
//!   `objectToggles[map][obj]`; `world.object_toggled` fires, then the map reloads if it is
//!   active (`map.reloaded`, reason `"toggle_object"`). Every map load applies the toggles
//!   ([`super::active_map::ActiveMap::apply_toggles`]). Reached from the `toggle_object` script
//!   row and the `world.toggle_object` facade method.
//! - **Runtime objects** mods place (`world.spawn_npc` / `world.remove_npc`): NPCs on the live
//!   map only, never saved (a map reload puts the definition back); they emit nothing (the
//!   reference raises `world.object_toggled` from `toggleObject` only).

use pallet_api::suggest::did_you_mean;

use super::map::NpcDef;
use super::types::Direction;
use super::{sites_flow, MapSet, Overworld, WorldCtx};

/// `map.reloaded`'s reason after a toggle reloaded the active map.
pub const RELOAD_REASON: &str = "toggle_object";

/// Why a toggle was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ToggleError {
    /// No such map (message carries a did-you-mean).
    UnknownMap(String),
    /// The map data has no object of that name (message carries a did-you-mean).
    UnknownObject(String),
}

impl std::fmt::Display for ToggleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ToggleError::UnknownMap(m) | ToggleError::UnknownObject(m) => f.write_str(m),
        }
    }
}

/// `name`, or the first of `name#2`, `name#3`, … that `taken` does not hold.
pub fn npc_id_free_of(name: &str, taken: impl Fn(&str) -> bool) -> String {
    if !taken(name) {
        return name.to_owned();
    }
    (2u32..)
        .map(|n| format!("{name}#{n}"))
        .find(|id| !taken(id))
        .unwrap_or_else(|| name.to_owned())
}

/// Check that `map` exists and its data defines an object named `obj`.
pub fn check_toggle(maps: &MapSet, map: &str, obj: &str) -> Result<(), ToggleError> {
    let Some(def) = maps.get(map) else {
        return Err(ToggleError::UnknownMap(format!(
            "unknown map {map:?}{}",
            did_you_mean(map, maps.maps.keys())
        )));
    };
    if !def.npcs.iter().any(|n| n.name == obj) {
        return Err(ToggleError::UnknownObject(format!(
            "map {map} has no object {obj:?}{}",
            did_you_mean(obj, def.npcs.iter().map(|n| n.name.as_str()))
        )));
    }
    Ok(())
}

impl Overworld {
    /// Place an NPC called `name` at cell `(x, y)` of the active map and return its id: `name`,
    /// or `name#2`, `name#3`, … when that is taken ([`npc_id_free_of`]; a mod may place several
    /// NPCs of one name, as the Lua engine's runtime objects allow). Refused for a cell outside
    /// the map or occupied by the player or another NPC.
    pub fn spawn_npc(
        &mut self,
        name: &str,
        at: (u32, u32),
        facing: Direction,
        text: &str,
    ) -> Result<String, &'static str> {
        let npcs = &self.map.def().npcs;
        let id = npc_id_free_of(name, |id| npcs.iter().any(|n| n.name == id));
        self.place_npc(&id, at, facing, text)?;
        Ok(id)
    }

    /// Place NPC `id` (exactly that id) at cell `(x, y)` of the active map.
    pub fn place_npc(
        &mut self,
        id: &str,
        (x, y): (u32, u32),
        facing: Direction,
        text: &str,
    ) -> Result<(), &'static str> {
        let def = self.map.def();
        if def.npcs.iter().any(|n| n.name == id) {
            return Err("npc already exists");
        }
        if x >= def.cell_width() || y >= def.cell_height() {
            return Err("npc position out of bounds");
        }
        let taken = def.npcs.iter().any(|n| (n.x, n.y) == (x, y))
            || (self.player.x, self.player.y) == (x, y);
        if taken {
            return Err("npc position is occupied");
        }
        self.map.add_npc(NpcDef {
            name: id.to_owned(),
            x,
            y,
            facing,
            text: text.to_owned(),
            hidden: false,
        });
        Ok(())
    }

    /// Remove the NPC `name` from the active map.
    pub fn remove_npc(&mut self, name: &str) -> Result<(), &'static str> {
        if !self.map.remove_npc(name) {
            return Err("unknown npc");
        }
        Ok(())
    }

    /// `toggleObject(map, obj, visible)`: write the save's toggle, emit
    /// `world.object_toggled`, then reload `map` if it is the active map (`map.reloaded`). The
    /// reload rebuilds the map from its data with the toggles applied (runtime NPCs are
    /// dropped, moved NPCs go back) and keeps the blocks replaced since it was entered.
    pub fn toggle_object(
        &mut self,
        map: &str,
        obj: &str,
        visible: bool,
        ctx: &mut WorldCtx<'_>,
    ) -> Result<(), ToggleError> {
        check_toggle(&self.maps, map, obj)?;
        ctx.object_toggles
            .entry(map.to_owned())
            .or_default()
            .insert(obj.to_owned(), visible);
        sites_flow::object_toggled(ctx.rt, map, obj, visible);
        if self.map.id() == map {
            let replaced = self.map.replaced().clone();
            match Self::instantiate(&self.maps, map, ctx.object_toggles) {
                Ok(mut fresh) => {
                    for ((bx, by), block) in replaced {
                        let _ = fresh.set_block(bx, by, block);
                    }
                    self.map = fresh;
                    sites_flow::map_reloaded(ctx.rt, map, RELOAD_REASON);
                }
                Err(e) => self.diagnostic(format!("toggle_object: reload {map}: {e}")),
            }
        }
        Ok(())
    }
}
