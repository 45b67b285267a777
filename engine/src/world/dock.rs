//! Vermilion Dock's map facts the overworld and the base scripts share: the map id, where the
//! S.S. Anne's blocks sit and the water blocks that replace them when it has left, and the
//! gangway row (pret's `VermilionDock` map and its departure script).

pub const DOCK: &str = "VERMILION_DOCK";
/// Block columns of the ship on the dock map.
pub const DOCK_SHIP_COLUMNS: [u32; 4] = [5, 6, 7, 8];
/// `(block row, water block)` the ship's rows become: row 1 → water 1, row 2 → water 13.
pub const DOCK_SHIP_ROWS: [(u32, u32); 2] = [(1, 1), (2, 13)];
/// The eight `(bx, by, water)` replacements of the ship erasure.
pub const DOCK_SHIP_BLOCKS: [(u32, u32, u32); 8] = [
    (5, 1, 1),
    (6, 1, 1),
    (7, 1, 1),
    (8, 1, 1),
    (5, 2, 13),
    (6, 2, 13),
    (7, 2, 13),
    (8, 2, 13),
];
/// Cell row of the gangway: arriving there means the player just stepped off the ship.
pub const DOCK_GANGWAY_Y: u32 = 2;
