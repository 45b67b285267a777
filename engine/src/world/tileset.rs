//! Tilesets: every block id of a tileset names the kinds of its 2×2 cells.
//!
//! In the data file a block is a 4-character string, cells in reading order (top-left,
//! top-right, bottom-left, bottom-right):
//!
//! | char | cell kind | walkable | notes |
//! |---|---|---|---|
//! | `.` | floor | yes | |
//! | `,` | grass | yes | wild encounters |
//! | `+` | door | yes | a warp tile; the map's warp list says where it leads |
//! | `~` | water | only surfing | |
//! | `#` | solid | no | walls, trees, roofs, signs, hull |

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// What one cell is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CellKind {
    Floor,
    Grass,
    Door,
    Water,
    Solid,
}

impl CellKind {
    pub fn from_char(c: char) -> Option<CellKind> {
        Some(match c {
            '.' => CellKind::Floor,
            ',' => CellKind::Grass,
            '+' => CellKind::Door,
            '~' => CellKind::Water,
            '#' => CellKind::Solid,
            _ => return None,
        })
    }

    pub fn to_char(self) -> char {
        match self {
            CellKind::Floor => '.',
            CellKind::Grass => ',',
            CellKind::Door => '+',
            CellKind::Water => '~',
            CellKind::Solid => '#',
        }
    }

    /// Can the player stand here on foot?
    pub fn walkable(self) -> bool {
        matches!(self, CellKind::Floor | CellKind::Grass | CellKind::Door)
    }

    pub fn is_water(self) -> bool {
        self == CellKind::Water
    }

    pub fn is_grass(self) -> bool {
        self == CellKind::Grass
    }
}

/// One tileset as stored: `blocks[id]` is the block's 4-character cell string.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TilesetDef {
    pub blocks: Vec<String>,
}

/// A checked tileset: `cells[id]` = the four cell kinds of block `id`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tileset {
    cells: Vec<[CellKind; 4]>,
}

impl Tileset {
    /// Check a stored tileset: every block exactly four known cell characters.
    pub fn from_def(name: &str, def: &TilesetDef) -> Result<Tileset, String> {
        if def.blocks.is_empty() {
            return Err(format!("tileset {name}: no blocks"));
        }
        let mut cells = Vec::with_capacity(def.blocks.len());
        for (id, s) in def.blocks.iter().enumerate() {
            let chars: Vec<char> = s.chars().collect();
            if chars.len() != 4 {
                return Err(format!(
                    "tileset {name}: block {id} must have 4 cells, has {}",
                    chars.len()
                ));
            }
            let mut kinds = [CellKind::Solid; 4];
            for (slot, c) in chars.into_iter().enumerate() {
                kinds[slot] = CellKind::from_char(c).ok_or_else(|| {
                    format!("tileset {name}: block {id} has unknown cell kind {c:?}")
                })?;
            }
            cells.push(kinds);
        }
        Ok(Tileset { cells })
    }

    pub fn block_count(&self) -> usize {
        self.cells.len()
    }

    /// Kind of sub-cell `(sx, sy)` (each 0 or 1) of `block`; `None` for an unknown block id.
    pub fn cell(&self, block: u32, sx: u32, sy: u32) -> Option<CellKind> {
        let kinds = self.cells.get(usize::try_from(block).ok()?)?;
        kinds.get((sy.min(1) * 2 + sx.min(1)) as usize).copied()
    }
}

/// Every tileset of a map set, by name.
pub type TilesetTable = BTreeMap<String, Tileset>;

/// Parse and check the stored tileset file (`{"name": {"blocks": [...]}, ...}`).
pub fn parse_tilesets(json: &str) -> Result<TilesetTable, String> {
    let defs: BTreeMap<String, TilesetDef> =
        serde_json::from_str(json).map_err(|e| format!("tilesets: {e}"))?;
    defs.iter()
        .map(|(name, def)| Ok((name.clone(), Tileset::from_def(name, def)?)))
        .collect()
}

/// The generated file of the cartridge's tilesets by their public ids
/// (`{"generated": "…", "tilesets": {"HOUSE": {"blocks": […]}, …}}`, written by
/// `tools/gen-data/tilesets.mjs` from pret's blocksets and collision tables).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PublicTilesetFile {
    #[allow(dead_code)]
    generated: String,
    tilesets: BTreeMap<String, TilesetDef>,
}

/// Parse and check the public tileset file, adding its tilesets to `table`. A public id is the
/// cartridge's constant (upper case), so it never collides with the embedded world's own
/// lower-case tilesets; a collision is an error all the same.
pub fn add_public_tilesets(table: &mut TilesetTable, json: &str) -> Result<(), String> {
    let file: PublicTilesetFile =
        serde_json::from_str(json).map_err(|e| format!("public tilesets: {e}"))?;
    for (name, def) in &file.tilesets {
        if table.contains_key(name) {
            return Err(format!("public tilesets: {name} is already a tileset"));
        }
        table.insert(name.clone(), Tileset::from_def(name, def)?);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_reads_cells() {
        let t = parse_tilesets(r##"{"t": {"blocks": ["....", "#+~,"]}}"##).unwrap();
        let t = &t["t"];
        assert_eq!(t.cell(1, 0, 0), Some(CellKind::Solid));
        assert_eq!(t.cell(1, 1, 0), Some(CellKind::Door));
        assert_eq!(t.cell(1, 0, 1), Some(CellKind::Water));
        assert_eq!(t.cell(1, 1, 1), Some(CellKind::Grass));
        assert_eq!(t.cell(2, 0, 0), None);
    }

    #[test]
    fn rejects_bad_blocks() {
        assert!(parse_tilesets(r#"{"t": {"blocks": ["..."]}}"#).is_err());
        assert!(parse_tilesets(r#"{"t": {"blocks": ["..x."]}}"#).is_err());
        assert!(parse_tilesets(r#"{"t": {"blocks": []}}"#).is_err());
        assert!(parse_tilesets(r#"{"t": {"blocks": ["...."], "extra": 1}}"#).is_err());
    }
}
