//! Map definitions as stored in `engine/data/maps/**.json`, and their schema check.
//!
//! A map is a grid of `width × height` blocks (row-major `blocks`); each block is 2×2 cells whose
//! kinds come from the map's tileset. Player positions, warps, signs and NPCs are in cells.
//! Maps are plain serde data so content registries can register and patch them later.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::tileset::{CellKind, TilesetTable};
use super::types::Direction;

/// Largest accepted map side, in blocks (Gen 1's largest maps are well below this).
pub const MAX_MAP_SIDE: u32 = 128;
/// Gen 1 has ten wild slots per table.
pub const ENCOUNTER_SLOTS: usize = 10;

/// One map.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MapDef {
    /// RFC spelling: `PALLET_TOWN`, `VERMILION_DOCK`, …
    pub id: String,
    /// Display name (`"PALLET TOWN"`).
    pub name: String,
    pub tileset: String,
    /// Size in blocks.
    pub width: u32,
    pub height: u32,
    /// Row-major block ids, `width * height` of them.
    pub blocks: Vec<u32>,
    #[serde(default)]
    pub outdoor: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub music: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warps: Vec<WarpDef>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub signs: Vec<SignDef>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub npcs: Vec<NpcDef>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encounters: Option<EncounterTable>,
    /// Trainer headers: which NPCs are trainers that engage by line of sight.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trainers: Vec<MapTrainerDef>,
}

/// A warp: standing-on cell → target map, target cell, facing on arrival.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WarpDef {
    pub x: u32,
    pub y: u32,
    pub to: String,
    pub to_x: u32,
    pub to_y: u32,
    pub facing: Direction,
}

/// A sign: a solid cell that shows a text constant when the player faces it and presses A.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SignDef {
    pub x: u32,
    pub y: u32,
    pub text: String,
}

/// A standing NPC: blocks its cell; talking to it dispatches its text constant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NpcDef {
    pub name: String,
    pub x: u32,
    pub y: u32,
    pub facing: Direction,
    pub text: String,
    /// Hidden until a `toggle_object` shows it (the cartridge's objects hidden by default).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hidden: bool,
}

/// A trainer header (the cartridge's per-map trainer table): the NPC named `npc` is trainer
/// `class`/`index` of the trainers registry; it sees `sight` cells straight ahead, and when the
/// player steps into that line it shows "!", walks up, says `battle_text` and battles.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MapTrainerDef {
    pub npc: String,
    pub class: String,
    #[serde(default)]
    pub index: u16,
    /// Cells the trainer sees ahead (the cartridge's sight ranges are 0..=15 cells).
    pub sight: u8,
    /// Text constant shown before the battle.
    pub battle_text: String,
}

/// Longest accepted sight range (the cartridge stores it in a nibble).
pub const MAX_SIGHT: u8 = 15;

/// A grass encounter table: the per-step rate byte and ten `(species, level)` slots, weighted
/// by the Gen 1 slot chances (see [`super::encounters`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EncounterTable {
    pub grass_rate: u8,
    pub grass: Vec<EncounterSlot>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EncounterSlot {
    /// Upper-case species id (`"PIDGEY"`).
    pub species: String,
    pub level: u8,
}

/// Is `s` an upper-case constant name (`[A-Z0-9_]+`)?
pub fn is_const_name(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
}

/// Is `s` a text constant (`_CamelCase…Text`-style: ASCII alphanumerics and `_`)?
pub fn is_text_name(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

impl MapDef {
    /// Width in cells.
    pub fn cell_width(&self) -> u32 {
        self.width.saturating_mul(2)
    }

    /// Height in cells.
    pub fn cell_height(&self) -> u32 {
        self.height.saturating_mul(2)
    }

    /// Block id at block coordinates, `None` outside or for malformed storage.
    pub fn block_at(&self, bx: u32, by: u32) -> Option<u32> {
        if bx >= self.width || by >= self.height {
            return None;
        }
        let i = (by as usize)
            .checked_mul(self.width as usize)?
            .checked_add(bx as usize)?;
        self.blocks.get(i).copied()
    }

    pub fn warp_at(&self, x: u32, y: u32) -> Option<&WarpDef> {
        self.warps.iter().find(|w| w.x == x && w.y == y)
    }

    /// Check everything that does not need the other maps: dimensions, block ids, object
    /// positions, text constants, the encounter table.
    pub fn check_local(
        &self,
        tilesets: &TilesetTable,
        texts: &BTreeMap<String, String>,
    ) -> Result<(), String> {
        let id = &self.id;
        if !is_const_name(id) {
            return Err(format!("map id {id:?} must be an upper-case constant name"));
        }
        if self.width == 0
            || self.height == 0
            || self.width > MAX_MAP_SIDE
            || self.height > MAX_MAP_SIDE
        {
            return Err(format!(
                "map {id}: size {}x{} outside 1..={MAX_MAP_SIDE}",
                self.width, self.height
            ));
        }
        let want = (self.width * self.height) as usize;
        if self.blocks.len() != want {
            return Err(format!(
                "map {id}: {} blocks for a {}x{} map (want {want})",
                self.blocks.len(),
                self.width,
                self.height
            ));
        }
        let tileset = tilesets
            .get(&self.tileset)
            .ok_or_else(|| format!("map {id}: unknown tileset {:?}", self.tileset))?;
        if let Some((i, b)) = self
            .blocks
            .iter()
            .enumerate()
            .find(|(_, &b)| b as usize >= tileset.block_count())
        {
            return Err(format!(
                "map {id}: block {b} at ({}, {}) not in tileset {} ({} blocks)",
                i as u32 % self.width,
                i as u32 / self.width,
                self.tileset,
                tileset.block_count()
            ));
        }
        let cell = |x: u32, y: u32| -> Option<CellKind> {
            let b = self.block_at(x / 2, y / 2)?;
            tileset.cell(b, x % 2, y % 2)
        };
        let mut taken = BTreeSet::new();
        for w in &self.warps {
            match cell(w.x, w.y) {
                Some(k) if k.walkable() => {}
                Some(_) => {
                    return Err(format!(
                        "map {id}: warp at ({}, {}) is not on a walkable cell",
                        w.x, w.y
                    ))
                }
                None => {
                    return Err(format!(
                        "map {id}: warp at ({}, {}) outside the map",
                        w.x, w.y
                    ))
                }
            }
            if !taken.insert((w.x, w.y)) {
                return Err(format!("map {id}: two warps at ({}, {})", w.x, w.y));
            }
        }
        for s in &self.signs {
            if cell(s.x, s.y).is_none() {
                return Err(format!(
                    "map {id}: sign at ({}, {}) outside the map",
                    s.x, s.y
                ));
            }
            if !texts.contains_key(&s.text) {
                return Err(format!(
                    "map {id}: sign text {:?} not in the text table",
                    s.text
                ));
            }
        }
        let mut npc_names = BTreeSet::new();
        for n in &self.npcs {
            // As on the cartridge, an object may stand on any cell of the map (BLUES_HOUSE's
            // town map lies on a table cell of the HOUSE tileset); only outside is refused.
            if cell(n.x, n.y).is_none() {
                return Err(format!(
                    "map {id}: npc {} at ({}, {}) is outside the map",
                    n.name, n.x, n.y
                ));
            }
            if self.warp_at(n.x, n.y).is_some() {
                return Err(format!("map {id}: npc {} stands on a warp", n.name));
            }
            if !npc_names.insert(n.name.as_str()) {
                return Err(format!("map {id}: two npcs named {}", n.name));
            }
            if !texts.contains_key(&n.text) {
                return Err(format!(
                    "map {id}: npc text {:?} not in the text table",
                    n.text
                ));
            }
        }
        let mut trainer_npcs = BTreeSet::new();
        for t in &self.trainers {
            if !npc_names.contains(t.npc.as_str()) {
                return Err(format!(
                    "map {id}: trainer {} is not an npc of the map",
                    t.npc
                ));
            }
            if !trainer_npcs.insert(t.npc.as_str()) {
                return Err(format!("map {id}: two trainer headers for npc {}", t.npc));
            }
            if !is_const_name(&t.class) {
                return Err(format!("map {id}: bad trainer class {:?}", t.class));
            }
            if t.sight > MAX_SIGHT {
                return Err(format!(
                    "map {id}: trainer {} sight {} outside 0..={MAX_SIGHT}",
                    t.npc, t.sight
                ));
            }
            if !texts.contains_key(&t.battle_text) {
                return Err(format!(
                    "map {id}: trainer battle text {:?} not in the text table",
                    t.battle_text
                ));
            }
        }
        if let Some(enc) = &self.encounters {
            if enc.grass.len() != ENCOUNTER_SLOTS {
                return Err(format!(
                    "map {id}: encounter table has {} slots, want {ENCOUNTER_SLOTS}",
                    enc.grass.len()
                ));
            }
            for slot in &enc.grass {
                if !is_const_name(&slot.species) {
                    return Err(format!("map {id}: bad species id {:?}", slot.species));
                }
                if !(1..=100).contains(&slot.level) {
                    return Err(format!(
                        "map {id}: encounter level {} outside 1..=100",
                        slot.level
                    ));
                }
            }
            let has_grass = (0..self.cell_height()).any(|y| {
                (0..self.cell_width()).any(|x| cell(x, y).is_some_and(CellKind::is_grass))
            });
            if enc.grass_rate > 0 && !has_grass {
                return Err(format!(
                    "map {id}: grass encounter rate without any grass cell"
                ));
            }
        }
        Ok(())
    }

    /// Check the warps' targets against the other maps of the set.
    pub fn check_links(
        &self,
        maps: &BTreeMap<String, MapDef>,
        tilesets: &TilesetTable,
    ) -> Result<(), String> {
        for w in &self.warps {
            if w.to == LAST_MAP {
                // Decided at run time; the fallback (a map warping here) must exist.
                if fallback(maps.values(), &self.id).is_none() {
                    return Err(format!(
                        "map {}: warp at ({}, {}) leads to LAST_MAP, but no map has a warp into {}",
                        self.id, w.x, w.y, self.id
                    ));
                }
                continue;
            }
            let target = maps.get(&w.to).ok_or_else(|| {
                format!(
                    "map {}: warp at ({}, {}) leads to unknown map {}",
                    self.id, w.x, w.y, w.to
                )
            })?;
            let kind = tilesets.get(&target.tileset).and_then(|t| {
                t.cell(
                    target.block_at(w.to_x / 2, w.to_y / 2)?,
                    w.to_x % 2,
                    w.to_y % 2,
                )
            });
            if !kind.is_some_and(CellKind::walkable) {
                return Err(format!(
                    "map {}: warp at ({}, {}) lands on ({}, {}) of {}, which is not a walkable cell",
                    self.id, w.x, w.y, w.to_x, w.to_y, w.to
                ));
            }
        }
        Ok(())
    }
}

// ----- `LAST_MAP` warps (run time: `super::last_map`) -----

/// A warp target meaning "back to the outdoor map the player came from".
pub const LAST_MAP: &str = "LAST_MAP";

/// The first warp (maps in id order) of another map leading into `id`: `(map, x, y)`.
pub fn fallback<'a>(
    maps: impl IntoIterator<Item = &'a MapDef>,
    id: &str,
) -> Option<(&'a str, u32, u32)> {
    maps.into_iter().filter(|m| m.id != id).find_map(|m| {
        m.warps
            .iter()
            .find(|w| w.to == id)
            .map(|w| (m.id.as_str(), w.x, w.y))
    })
}
