//! Runtime map objects mods place (`world.spawn_npc` / `world.remove_npc`): NPCs on the live
//! map only, never saved (a map reload puts the definition back). Each toggle emits
//! `world.object_toggled` (guarded).

use super::map::NpcDef;
use super::types::Direction;
use super::{sites_flow, Overworld, WorldCtx};

impl Overworld {
    /// Place `name` at cell `(x, y)` of the active map. Refused for a name already on the map
    /// or a cell outside it or occupied by the player or another NPC.
    pub fn spawn_npc(
        &mut self,
        name: &str,
        (x, y): (u32, u32),
        facing: Direction,
        text: &str,
        ctx: &mut WorldCtx<'_>,
    ) -> Result<(), &'static str> {
        let def = self.map.def();
        if def.npcs.iter().any(|n| n.name == name) {
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
            name: name.to_owned(),
            x,
            y,
            facing,
            text: text.to_owned(),
        });
        sites_flow::object_toggled(ctx.rt, self.map.id(), name, true);
        Ok(())
    }

    /// Remove the NPC `name` from the active map.
    pub fn remove_npc(&mut self, name: &str, ctx: &mut WorldCtx<'_>) -> Result<(), &'static str> {
        if !self.map.remove_npc(name) {
            return Err("unknown npc");
        }
        sites_flow::object_toggled(ctx.rt, self.map.id(), name, false);
        Ok(())
    }
}
