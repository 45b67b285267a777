//! The canonical progress save: one struct holding everything a game writes to disk
//! (the Lua engine's `game.save` keys this engine has). Options are not part of it.
//!
//! Field order here is the on-disk order; every map and set is sorted (`BTreeMap`/`BTreeSet`), so
//! the same save always encodes to the same bytes (see [`super::codec`]).

use std::collections::{BTreeMap, BTreeSet};

use pallet_api::Value;
use serde::{Deserialize, Serialize};

use crate::data::Dataset;
use crate::pokemon::{Boxes, Party, Pokemon};
use crate::types::{Direction, GameVersion};

use super::record::{MonRecord, RecordError};

/// Version of the save's content layout (`meta.format`); bumped with a migration when the
/// shape changes.
pub const SAVE_FORMAT: u32 = 1;
/// Mod API generation stamped into `meta.mods[].api` by default.
pub const MOD_API: u32 = 2;
/// Money a new game starts with (cartridge: ¥3000).
pub const START_MONEY: u32 = 3000;
/// Most money the cartridge can hold.
pub const MAX_MONEY: u32 = 999_999;
/// Distinct item kinds the bag holds.
pub const BAG_CAPACITY: usize = 20;
/// Distinct item kinds Bill's PC item storage holds.
pub const PC_ITEM_CAPACITY: usize = 50;
/// Largest stack of one item.
pub const MAX_ITEM_COUNT: u32 = 99;

/// `save.objectToggles`: map id → object name → visible (sorted, so bytes are stable).
pub type ObjectToggles = BTreeMap<String, BTreeMap<String, bool>>;

/// Most Game Corner coins the coin case holds.
pub const MAX_COINS: u32 = 9999;

fn is_zero(n: &u32) -> bool {
    *n == 0
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SaveData {
    pub meta: Meta,
    pub version: GameVersion,
    pub player: PlayerState,
    /// Event flags that are set (`EVENT_GOT_HM01`, …).
    pub flags: BTreeSet<String>,
    /// The bag, in bag order.
    pub inventory: Vec<ItemStack>,
    /// Bill's PC item storage, in list order.
    pub pc_items: Vec<ItemStack>,
    pub party: Vec<MonRecord>,
    /// Twelve boxes (index 0 is box 1).
    pub boxes: Vec<Vec<MonRecord>>,
    /// 1..=12.
    pub current_box: i64,
    pub money: u32,
    /// Game Corner coins (the cartridge's `wPlayerCoins`, 0..=9999); omitted when zero, so
    /// saves without coins keep their bytes.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub coins: u32,
    /// Defeated trainers by id (map-qualified, e.g. `"ROUTE_3:TRAINER_1"`).
    pub defeated_trainers: BTreeSet<String>,
    pub pokedex: Pokedex,
    pub last_heal: MapPoint,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_outdoor: Option<OutdoorPoint>,
    pub repel_steps: u32,
    /// Map objects a script or mod showed or hid (`toggleObject`): map id → object name →
    /// visible. Applied whenever the map is loaded; omitted when empty.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub object_toggles: ObjectToggles,
    /// Per-mod buckets (`mod.save`), plain data only.
    pub mod_data: BTreeMap<String, Value>,
    /// Quarantine of content the active dataset does not know; omitted when empty.
    #[serde(default, skip_serializing_if = "Orphaned::is_empty")]
    pub orphaned: Orphaned,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Meta {
    /// [`SAVE_FORMAT`] of the writer.
    pub format: u32,
    /// Engine name and version of the writer (`"pallet 0.1.0"`). No wall-clock time is stored:
    /// the same progress always encodes to the same bytes.
    pub engine: String,
    /// Identity of this playthrough (checkpoints compare it); created lazily.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub playthrough_id: Option<String>,
    /// Mods active when the save was written.
    pub mods: Vec<ModStamp>,
    /// Content mods whose registry writes shaped the tables this save was played on (ids and
    /// versions, sorted; empty without content mods and then not written). Loading the save
    /// without one of them is reported by the validator.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub content_mods: Vec<ContentModRef>,
}

/// A content mod a save depends on.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContentModRef {
    pub id: String,
    pub version: String,
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModStamp {
    pub id: String,
    pub version: String,
    pub api: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PlayerState {
    pub map: String,
    pub x: u16,
    pub y: u16,
    pub facing: Direction,
    #[serde(default, skip_serializing_if = "is_false")]
    pub surfing: bool,
    pub name: String,
    pub rival: String,
    /// Trainer id (OT id stamped on caught mons).
    pub id: u16,
}

fn is_false(b: &bool) -> bool {
    !*b
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ItemStack {
    pub id: String,
    pub count: u32,
}

/// Flags as the Lua engine's `{FLAG = true}` map (what mods read as `save.flags`).
pub fn flag_map(flags: impl IntoIterator<Item = String>) -> Value {
    Value::Map(flags.into_iter().map(|f| (f, Value::Bool(true))).collect())
}

/// Item stacks as the Lua engine's `{ITEM = count}` map (`save.inventory`, `save.pcItems`).
pub fn item_map(stacks: &[ItemStack]) -> Value {
    let mut m = BTreeMap::new();
    for s in stacks {
        let n = m.entry(s.id.clone()).or_insert(Value::Int(0));
        if let Value::Int(n) = n {
            *n += i64::from(s.count);
        }
    }
    Value::Map(m)
}

#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pokedex {
    pub seen: BTreeSet<String>,
    pub owned: BTreeSet<String>,
}

/// A map position (`lastHeal`, spawn points).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapPoint {
    pub map: String,
    pub x: u16,
    pub y: u16,
}

/// The last outdoor map the player stood on (Dig/Escape Rope/Fly return point).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutdoorPoint {
    pub id: String,
    pub x: u16,
    pub y: u16,
}

/// The quarantine.
#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Orphaned {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mons: Vec<OrphanMon>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<OrphanItem>,
}

impl Orphaned {
    pub fn is_empty(&self) -> bool {
        self.mons.is_empty() && self.items.is_empty()
    }
}

/// A quarantined mon and where it was (`"party"`, `"box 3"`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OrphanMon {
    pub from: String,
    pub mon: MonRecord,
}

/// A quarantined item stack and where it was (`"bag"` or `"pc"`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OrphanItem {
    pub id: String,
    pub count: u32,
    pub from: String,
}

/// Where a new game starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spawn {
    pub map: String,
    pub x: u16,
    pub y: u16,
    pub facing: Direction,
}

impl Spawn {
    pub fn point(&self) -> MapPoint {
        MapPoint {
            map: self.map.clone(),
            x: self.x,
            y: self.y,
        }
    }
}

impl SaveData {
    /// The skeleton of a new game (reference `SaveData.newGame`): the player at `spawn`, which is
    /// also the first heal point; ¥3000; one Potion in the PC; empty party, bag, boxes and dex.
    pub fn new_game(
        version: GameVersion,
        player_name: &str,
        rival_name: &str,
        player_id: u16,
        spawn: &Spawn,
    ) -> SaveData {
        SaveData {
            meta: Meta {
                format: SAVE_FORMAT,
                engine: engine_stamp(),
                playthrough_id: None,
                mods: Vec::new(),
                content_mods: Vec::new(),
            },
            version,
            player: PlayerState {
                map: spawn.map.clone(),
                x: spawn.x,
                y: spawn.y,
                facing: spawn.facing,
                surfing: false,
                name: player_name.to_string(),
                rival: rival_name.to_string(),
                id: player_id,
            },
            flags: BTreeSet::new(),
            inventory: Vec::new(),
            pc_items: vec![ItemStack {
                id: "POTION".to_string(),
                count: 1,
            }],
            party: Vec::new(),
            boxes: vec![Vec::new(); crate::pokemon::BOX_COUNT],
            current_box: 1,
            money: START_MONEY,
            coins: 0,
            defeated_trainers: BTreeSet::new(),
            pokedex: Pokedex::default(),
            last_heal: spawn.point(),
            last_outdoor: None,
            repel_steps: 0,
            object_toggles: ObjectToggles::new(),
            mod_data: BTreeMap::new(),
            orphaned: Orphaned::default(),
        }
    }

    /// The party as live mons. Fails on records the dataset cannot represent (validate first).
    pub fn party_mons(&self, data: &Dataset) -> Result<Party<Pokemon>, RecordError> {
        let mons = self
            .party
            .iter()
            .map(|r| r.to_pokemon(data))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Party::from_vec(mons).0)
    }

    /// Store a live party.
    pub fn set_party(&mut self, party: &Party<Pokemon>, data: &Dataset) -> Result<(), RecordError> {
        self.party = party
            .iter()
            .map(|m| MonRecord::from_pokemon(m, data))
            .collect::<Result<_, _>>()?;
        Ok(())
    }

    /// The boxes as live mons (with the current box). Fails on records the dataset cannot
    /// represent (validate first).
    pub fn box_mons(&self, data: &Dataset) -> Result<Boxes<Pokemon>, RecordError> {
        self.record_boxes().try_map(|r| r.to_pokemon(data))
    }

    /// Store live boxes and the current box.
    pub fn set_boxes(&mut self, boxes: &Boxes<Pokemon>, data: &Dataset) -> Result<(), RecordError> {
        let records = boxes.try_map(|m| MonRecord::from_pokemon(m, data))?;
        self.current_box = records.current_box() as i64;
        self.boxes = records.into_lists();
        Ok(())
    }

    /// The stored boxes as a [`Boxes`] of records. Mons that do not fit the 12×20 layout are
    /// left out here; [`super::validate`] moves them and reports it.
    pub fn record_boxes(&self) -> Boxes<MonRecord> {
        Boxes::ensure(self.boxes.clone(), Vec::new(), self.current_box).0
    }

    /// Add money, capped at ¥999,999.
    pub fn add_money(&mut self, amount: u32) {
        self.money = self.money.saturating_add(amount).min(MAX_MONEY);
    }

    /// Whether event flag `flag` is set.
    pub fn flag(&self, flag: &str) -> bool {
        self.flags.contains(flag)
    }

    /// Set or clear event flag `flag`.
    pub fn set_flag(&mut self, flag: &str, on: bool) {
        if on {
            self.flags.insert(flag.to_string());
        } else {
            self.flags.remove(flag);
        }
    }
}

/// `"pallet <crate version>"`.
pub fn engine_stamp() -> String {
    format!("pallet {}", env!("CARGO_PKG_VERSION"))
}
