//! The embedded map sets. `engine/data/maps/` holds:
//!
//! * `tilesets.json` — every tileset (see [`super::tileset`]);
//! * `world.json` — the new-game start point and the text table (text constant → string);
//! * `base/<MAP>.json` — maps shared by every version;
//! * `<version>/<MAP>.json` — a version's own copy of a map, replacing the base one for that
//!   version (Yellow's dock and Route 1 differ from Red/Blue's).
//!
//! Each version gets its own [`MapSet`] built from those files, so Red, Blue and Yellow answer
//! block reads from their own data (RFC 0013). The files are parsed and checked once per
//! process; a broken file is an error value, never a panic.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Serialize};

use super::map::{is_text_name, MapDef};
use super::tileset::{parse_tilesets, CellKind, TilesetTable};
use super::types::{Direction, GameVersion};

/// Where a new game puts the player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StartPoint {
    pub map: String,
    pub x: u32,
    pub y: u32,
    pub facing: Direction,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct WorldFile {
    start: StartPoint,
    texts: BTreeMap<String, String>,
}

/// Every map of one version, with its tilesets and texts.
#[derive(Clone, Debug)]
pub struct MapSet {
    pub version: GameVersion,
    pub maps: BTreeMap<String, Arc<MapDef>>,
    pub tilesets: Arc<TilesetTable>,
    pub texts: Arc<BTreeMap<String, String>>,
    pub start: StartPoint,
    /// What translation mods override (`strings`/`text`; empty without them).
    pub translations: Arc<super::translations::Translations>,
}

impl MapSet {
    pub fn get(&self, id: &str) -> Option<&Arc<MapDef>> {
        self.maps.get(id)
    }

    pub fn text(&self, key: &str) -> Option<&str> {
        self.texts.get(key).map(String::as_str)
    }

    /// Kind of cell `(x, y)` of map `def` (None outside the map or for an unknown block).
    pub fn cell_kind(&self, def: &MapDef, x: u32, y: u32) -> Option<CellKind> {
        let block = def.block_at(x / 2, y / 2)?;
        self.tilesets.get(&def.tileset)?.cell(block, x % 2, y % 2)
    }

    /// Build and check a set from parsed parts (also the entry point for content mods later).
    pub fn build(
        version: GameVersion,
        tilesets: TilesetTable,
        world_json: &str,
        maps: Vec<MapDef>,
    ) -> Result<MapSet, String> {
        let world: WorldFile =
            serde_json::from_str(world_json).map_err(|e| format!("world.json: {e}"))?;
        if let Some(bad) = world.texts.keys().find(|k| !is_text_name(k)) {
            return Err(format!("world.json: bad text constant {bad:?}"));
        }
        let mut by_id = BTreeMap::new();
        for def in maps {
            def.check_local(&tilesets, &world.texts)?;
            if by_id.insert(def.id.clone(), def).is_some() {
                return Err("two maps with one id".into());
            }
        }
        for def in by_id.values() {
            def.check_links(&by_id, &tilesets)?;
        }
        let set = MapSet {
            version,
            maps: by_id.into_iter().map(|(k, v)| (k, Arc::new(v))).collect(),
            tilesets: Arc::new(tilesets),
            texts: Arc::new(world.texts),
            start: world.start,
            translations: Arc::default(),
        };
        set.check_start()?;
        Ok(set)
    }

    /// The new-game start point exists and is walkable.
    pub fn check_start(&self) -> Result<(), String> {
        let start = &self.start;
        let def = self
            .get(&start.map)
            .ok_or_else(|| format!("world.json: start map {} unknown", start.map))?;
        if !self
            .cell_kind(def, start.x, start.y)
            .is_some_and(CellKind::walkable)
        {
            return Err(format!(
                "world.json: start cell ({}, {}) of {} is not walkable",
                start.x, start.y, start.map
            ));
        }
        Ok(())
    }
}

/// `(folder, file name, contents)` of every embedded map file.
const MAP_FILES: &[(&str, &str, &str)] = &[
    (
        "base",
        "REDS_HOUSE_1F",
        include_str!("../../data/maps/base/REDS_HOUSE_1F.json"),
    ),
    (
        "base",
        "PALLET_TOWN",
        include_str!("../../data/maps/base/PALLET_TOWN.json"),
    ),
    (
        "base",
        "ROUTE_1",
        include_str!("../../data/maps/base/ROUTE_1.json"),
    ),
    (
        "base",
        "VERMILION_CITY",
        include_str!("../../data/maps/base/VERMILION_CITY.json"),
    ),
    (
        "base",
        "VERMILION_DOCK",
        include_str!("../../data/maps/base/VERMILION_DOCK.json"),
    ),
    (
        "base",
        "SS_ANNE_1F",
        include_str!("../../data/maps/base/SS_ANNE_1F.json"),
    ),
    (
        "yellow",
        "ROUTE_1",
        include_str!("../../data/maps/yellow/ROUTE_1.json"),
    ),
    (
        "yellow",
        "VERMILION_DOCK",
        include_str!("../../data/maps/yellow/VERMILION_DOCK.json"),
    ),
];
const TILESETS: &str = include_str!("../../data/maps/tilesets.json");
const WORLD: &str = include_str!("../../data/maps/world.json");

fn parse_version(version: GameVersion) -> Result<MapSet, String> {
    let tilesets = parse_tilesets(TILESETS)?;
    let mut chosen: BTreeMap<&str, &str> = BTreeMap::new();
    for folder in ["base", version.as_str()] {
        for &(dir, name, text) in MAP_FILES {
            if dir == folder {
                chosen.insert(name, text);
            }
        }
    }
    let mut maps = Vec::with_capacity(chosen.len());
    for (name, text) in chosen {
        let def: MapDef =
            serde_json::from_str(text).map_err(|e| format!("maps/{name}.json ({version}): {e}"))?;
        if def.id != name {
            return Err(format!(
                "maps/{name}.json ({version}): id {} does not match the file name",
                def.id
            ));
        }
        maps.push(def);
    }
    MapSet::build(version, tilesets, WORLD, maps)
}

type Embedded = Result<[MapSet; 3], String>;

fn embedded_all() -> &'static Embedded {
    static SETS: OnceLock<Embedded> = OnceLock::new();
    SETS.get_or_init(|| {
        Ok([
            parse_version(GameVersion::Red)?,
            parse_version(GameVersion::Blue)?,
            parse_version(GameVersion::Yellow)?,
        ])
    })
}

/// The embedded map set of `version`, parsed and checked on first use.
pub fn embedded(version: GameVersion) -> Result<&'static MapSet, String> {
    let sets = embedded_all().as_ref().map_err(Clone::clone)?;
    Ok(&sets[version as usize])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_version_parses() {
        for v in GameVersion::ALL {
            let set = embedded(v).unwrap();
            assert_eq!(set.version, v);
            for id in ["PALLET_TOWN", "ROUTE_1", "VERMILION_CITY", "VERMILION_DOCK"] {
                assert!(set.get(id).is_some(), "{v}: {id}");
            }
        }
    }

    #[test]
    fn versions_own_their_data() {
        let red = embedded(GameVersion::Red).unwrap();
        let blue = embedded(GameVersion::Blue).unwrap();
        let yellow = embedded(GameVersion::Yellow).unwrap();
        // Separate allocations per version, and Yellow really differs.
        assert!(!Arc::ptr_eq(
            &red.maps["VERMILION_DOCK"],
            &blue.maps["VERMILION_DOCK"]
        ));
        assert_eq!(red.maps["VERMILION_DOCK"], blue.maps["VERMILION_DOCK"]);
        assert_ne!(
            red.maps["VERMILION_DOCK"].blocks,
            yellow.maps["VERMILION_DOCK"].blocks
        );
        assert_ne!(
            red.maps["ROUTE_1"].encounters,
            yellow.maps["ROUTE_1"].encounters
        );
    }

    #[test]
    fn schema_rejects_broken_maps() {
        let red = embedded(GameVersion::Red).unwrap();
        let tilesets = (*red.tilesets).clone();
        let base: Vec<MapDef> = red.maps.values().map(|m| (**m).clone()).collect();
        let rebuild = |f: &dyn Fn(&mut Vec<MapDef>)| {
            let mut maps = base.clone();
            f(&mut maps);
            MapSet::build(GameVersion::Red, tilesets.clone(), WORLD, maps)
        };
        assert!(rebuild(&|_| {}).is_ok());
        let idx = base.iter().position(|m| m.id == "ROUTE_1").unwrap();
        assert!(rebuild(&|m| {
            m[idx].blocks.pop();
        })
        .unwrap_err()
        .contains("blocks for a"));
        assert!(rebuild(&|m| m[idx].blocks[0] = 999)
            .unwrap_err()
            .contains("not in tileset"));
        assert!(rebuild(&|m| m[idx].warps[0].to = "NOWHERE".into())
            .unwrap_err()
            .contains("unknown map"));
        assert!(rebuild(&|m| m[idx].warps[0].to_x = 10_000)
            .unwrap_err()
            .contains("not a walkable"));
        assert!(rebuild(&|m| {
            if let Some(e) = m[idx].encounters.as_mut() {
                e.grass.pop();
            }
        })
        .unwrap_err()
        .contains("slots"));
        assert!(rebuild(&|m| m[idx].tileset = "nope".into())
            .unwrap_err()
            .contains("unknown tileset"));
        assert!(rebuild(&|m| m[idx].id = "route 1".into()).is_err());
        // Unknown fields are refused by the parser.
        assert!(serde_json::from_str::<MapDef>(
            r#"{"id":"X","name":"X","tileset":"t","width":1,"height":1,"blocks":[0],"bogus":1}"#
        )
        .is_err());
    }

    #[test]
    fn map_defs_round_trip_through_serde() {
        let red = embedded(GameVersion::Red).unwrap();
        for def in red.maps.values() {
            let json = serde_json::to_string(&**def).unwrap();
            let back: MapDef = serde_json::from_str(&json).unwrap();
            assert_eq!(&back, &**def);
        }
    }
}
