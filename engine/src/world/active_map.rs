//! The active map at run time: the definition it was loaded from, the live block storage
//! (which scripts and mods mutate, e.g. the dock's ship erasure), and a layered accessor
//! (definition + replaced blocks) that must always agree with the storage. RFC 0013's block
//! read cross-checks the two.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::map::MapDef;
use super::tileset::{CellKind, Tileset};

#[derive(Clone, Debug)]
pub struct ActiveMap {
    def: Arc<MapDef>,
    tileset: Tileset,
    /// Live row-major block storage (`def.width * def.height` ids).
    blocks: Vec<u32>,
    /// Blocks replaced since load, by `(bx, by)`; the accessor's overlay over `def.blocks`.
    replaced: BTreeMap<(u32, u32), u32>,
}

impl ActiveMap {
    pub fn new(def: Arc<MapDef>, tileset: Tileset) -> ActiveMap {
        let blocks = def.blocks.clone();
        ActiveMap {
            def,
            tileset,
            blocks,
            replaced: BTreeMap::new(),
        }
    }

    pub fn id(&self) -> &str {
        &self.def.id
    }

    pub fn def(&self) -> &MapDef {
        &self.def
    }

    pub fn def_arc(&self) -> &Arc<MapDef> {
        &self.def
    }

    pub fn tileset(&self) -> &Tileset {
        &self.tileset
    }

    /// Width and height in blocks, as the definition states them.
    pub fn dims(&self) -> (u32, u32) {
        (self.def.width, self.def.height)
    }

    /// The live block storage (the "block slot" RFC 0013 reads).
    pub fn storage(&self) -> &[u32] {
        &self.blocks
    }

    /// The map accessor: the replaced block if any, else the definition's block.
    pub fn block_at(&self, bx: u32, by: u32) -> Option<u32> {
        if bx >= self.def.width || by >= self.def.height {
            return None;
        }
        match self.replaced.get(&(bx, by)) {
            Some(&b) => Some(b),
            None => self.def.block_at(bx, by),
        }
    }

    /// Replace one block (storage and accessor together). Refuses coordinates outside the map
    /// and ids the tileset does not have. Returns the previous block id.
    pub fn set_block(&mut self, bx: u32, by: u32, block: u32) -> Result<u32, String> {
        if bx >= self.def.width || by >= self.def.height {
            return Err(format!("block ({bx}, {by}) outside {}", self.def.id));
        }
        if block as usize >= self.tileset.block_count() {
            return Err(format!(
                "block id {block} not in tileset {}",
                self.def.tileset
            ));
        }
        let i = (by * self.def.width + bx) as usize;
        let slot = self
            .blocks
            .get_mut(i)
            .ok_or_else(|| format!("block storage of {} is short", self.def.id))?;
        let old = std::mem::replace(slot, block);
        self.replaced.insert((bx, by), block);
        Ok(old)
    }

    /// Blocks replaced since the map was loaded.
    pub fn replaced(&self) -> &BTreeMap<(u32, u32), u32> {
        &self.replaced
    }

    /// Kind of cell `(x, y)`; `None` outside the map.
    pub fn cell_kind(&self, x: i64, y: i64) -> Option<CellKind> {
        let (x, y) = (u32::try_from(x).ok()?, u32::try_from(y).ok()?);
        if x >= self.def.cell_width() || y >= self.def.cell_height() {
            return None;
        }
        let block = *self
            .blocks
            .get(((y / 2) * self.def.width + x / 2) as usize)?;
        self.tileset.cell(block, x % 2, y % 2)
    }

    /// Drop the objects that are hidden on this map: those `toggles` (the save's
    /// `objectToggles[map]`) marks invisible, and those hidden by default that it does not
    /// show. A hidden object is neither drawn, solid nor talked to, because it is not there.
    pub(super) fn apply_toggles(&mut self, toggles: Option<&BTreeMap<String, bool>>) {
        let visible = |n: &super::map::NpcDef| match toggles.and_then(|t| t.get(&n.name)) {
            Some(&v) => v,
            None => !n.hidden,
        };
        if self.def.npcs.iter().all(visible) {
            return;
        }
        Arc::make_mut(&mut self.def).npcs.retain(visible);
    }

    /// Move NPC `index` of the live map to `(x, y)` (a trainer walking up to the player); the
    /// definition the map was loaded from is untouched (a reload puts it back).
    pub fn move_npc(&mut self, index: usize, x: u32, y: u32) -> bool {
        match Arc::make_mut(&mut self.def).npcs.get_mut(index) {
            Some(n) => {
                n.x = x;
                n.y = y;
                true
            }
            None => false,
        }
    }

    /// Turn NPC `index` of the live map to `facing`.
    pub fn turn_npc(&mut self, index: usize, facing: super::types::Direction) {
        if let Some(n) = Arc::make_mut(&mut self.def).npcs.get_mut(index) {
            n.facing = facing;
        }
    }

    /// Add an NPC to the live map only (a mod's runtime object: a reload drops it).
    pub(super) fn add_npc(&mut self, npc: super::map::NpcDef) {
        Arc::make_mut(&mut self.def).npcs.push(npc);
    }

    /// Remove the live map's NPC named `name` (the definition it was loaded from is untouched).
    pub(super) fn remove_npc(&mut self, name: &str) -> bool {
        let npcs = &mut Arc::make_mut(&mut self.def).npcs;
        match npcs.iter().position(|n| n.name == name) {
            Some(i) => {
                npcs.remove(i);
                true
            }
            None => false,
        }
    }

    #[cfg(test)]
    pub(crate) fn corrupt_storage_for_test(&mut self, f: impl FnOnce(&mut Vec<u32>)) {
        f(&mut self.blocks);
    }

    #[cfg(test)]
    pub(crate) fn corrupt_def_for_test(&mut self, f: impl FnOnce(&mut MapDef)) {
        f(Arc::make_mut(&mut self.def));
    }
}
