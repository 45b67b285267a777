//! The embedded datasets and their lookup API.
//!
//! `species()`, `move_data()`, `item()` and `effectiveness()` are O(1) array reads meant for the
//! battle loop. Name lookups binary-search generated, pre-normalized indexes and never allocate.
//! The `species()` / `move_data()` / `item()` accessors index directly and panic on an id that
//! does not belong to the dataset; ids from untrusted input (saves, mods, CLI) go through the
//! checked `get_*` variants or the `*_by_name` lookups first.

use super::generated::{gen1_items, gen1_moves, gen1_species, gen1_types};
use super::generated::{gen2_items, gen2_moves, gen2_species, gen2_types};
use super::names::lookup;
use super::types::{ItemData, ItemId, MoveData, MoveId, SpeciesData, SpeciesId, Type};

/// One generation's tables (species, moves, items, type chart).
#[derive(Debug)]
pub struct Dataset {
    /// 1 for Red/Blue/Yellow, 2 for Gold/Silver.
    pub generation: u8,
    /// Indexed by `SpeciesId` (`dex - 1`).
    pub species: &'static [SpeciesData],
    /// Indexed by `MoveId - 1` (move numbers are 1-based).
    pub moves: &'static [MoveData],
    /// In cartridge item-number order; look up by number with [`Dataset::item`].
    pub items: &'static [ItemData],
    /// The types that exist in this generation.
    pub types: &'static [Type],
    /// Effectiveness in tenths, `[attacker as usize][defender as usize]`.
    pub type_chart: &'static [[u8; 17]; 17],
    matchups: &'static [(Type, Type, u8)],
    species_names: &'static [(&'static str, u16)],
    move_names: &'static [(&'static str, u16)],
    item_names: &'static [(&'static str, u16)],
    item_slots: &'static [u8; 256],
}

static GEN1: Dataset = Dataset {
    generation: 1,
    species: &gen1_species::SPECIES,
    moves: &gen1_moves::MOVES,
    items: &gen1_items::ITEMS,
    types: &gen1_types::TYPES,
    type_chart: &gen1_types::TYPE_CHART,
    matchups: &gen1_types::TYPE_MATCHUPS,
    species_names: &gen1_species::SPECIES_NAMES,
    move_names: &gen1_moves::MOVE_NAMES,
    item_names: &gen1_items::ITEM_NAMES,
    item_slots: &gen1_items::ITEM_SLOTS,
};

/// Red/Blue/Yellow data: 151 species, 165 moves, the Gen 1 items and type chart.
pub fn gen1() -> &'static Dataset {
    &GEN1
}

static GEN2: Dataset = Dataset {
    generation: 2,
    species: &gen2_species::SPECIES,
    moves: &gen2_moves::MOVES,
    items: &gen2_items::ITEMS,
    types: &gen2_types::TYPES,
    type_chart: &gen2_types::TYPE_CHART,
    matchups: &gen2_types::TYPE_MATCHUPS,
    species_names: &gen2_species::SPECIES_NAMES,
    move_names: &gen2_moves::MOVE_NAMES,
    item_names: &gen2_items::ITEM_NAMES,
    item_slots: &gen2_items::ITEM_SLOTS,
};

/// Gold/Silver data for the `gold`/`silver` dataset views: 251 species (`spc` = Special
/// Attack, `spd` = Special Defense), 251 moves (effects as pokecrystal constants, see
/// `MoveEffect::Gen2`), the Gold/Silver items (no TMs/HMs, no Crystal-only items) and the Gen 2
/// type chart with Dark and Steel.
pub fn gen2() -> &'static Dataset {
    &GEN2
}

/// A sorted `(normalized name, id)` lookup index.
pub type NameIndex = &'static [(&'static str, u16)];

/// The owned parts of a compiled dataset (content mods): leaked once into a `'static`
/// [`Dataset`] by [`Dataset::leak_from`], so the battle loop reads it exactly like an embedded one.
pub struct DatasetParts {
    pub generation: u8,
    pub species: Vec<SpeciesData>,
    pub moves: Vec<MoveData>,
    pub items: Vec<ItemData>,
    pub types: &'static [Type],
    pub type_chart: [[u8; 17]; 17],
    pub matchups: Vec<(Type, Type, u8)>,
    /// Sorted by key bytes, keys normalized, no duplicate keys.
    pub species_names: Vec<(&'static str, u16)>,
    pub move_names: Vec<(&'static str, u16)>,
    pub item_names: Vec<(&'static str, u16)>,
    pub item_slots: [u8; 256],
}

impl Dataset {
    /// Leak `parts` as a `'static` dataset (once per content compile).
    pub fn leak_from(parts: DatasetParts) -> &'static Dataset {
        fn leak<T>(v: Vec<T>) -> &'static [T] {
            Box::leak(v.into_boxed_slice())
        }
        Box::leak(Box::new(Dataset {
            generation: parts.generation,
            species: leak(parts.species),
            moves: leak(parts.moves),
            items: leak(parts.items),
            types: parts.types,
            type_chart: Box::leak(Box::new(parts.type_chart)),
            matchups: leak(parts.matchups),
            species_names: leak(parts.species_names),
            move_names: leak(parts.move_names),
            item_names: leak(parts.item_names),
            item_slots: Box::leak(Box::new(parts.item_slots)),
        }))
    }

    /// The name index entries `(normalized key, id)` of species, moves and items.
    pub fn name_indexes(&self) -> (NameIndex, NameIndex, NameIndex) {
        (self.species_names, self.move_names, self.item_names)
    }

    /// Slot of item number `num` in [`Dataset::items`] (`u8::MAX`: none).
    pub fn item_slots(&self) -> &'static [u8; 256] {
        self.item_slots
    }

    /// The species record for `id` (`SpeciesId(dex - 1)`). Panics on an id outside this dataset;
    /// use [`Dataset::get_species`] for untrusted ids.
    pub fn species(&self, id: SpeciesId) -> &'static SpeciesData {
        &self.species[usize::from(id.0)]
    }

    /// Checked variant of [`Dataset::species`].
    pub fn get_species(&self, id: SpeciesId) -> Option<&'static SpeciesData> {
        self.species.get(usize::from(id.0))
    }

    /// The species with Pokédex number `dex`, if this dataset has it.
    pub fn species_by_dex(&self, dex: u16) -> Option<SpeciesId> {
        let id = SpeciesId(dex.checked_sub(1)?);
        self.get_species(id).map(|_| id)
    }

    /// Case-, space- and punctuation-insensitive lookup by pret id, display name or common
    /// spelling: `"Mr. Mime"`, `"MR_MIME"`, `"mrmime"`, `"NIDORAN♀"`, `"Nidoran F"`.
    pub fn species_by_name(&self, name: &str) -> Option<SpeciesId> {
        lookup(self.species_names, name).map(SpeciesId)
    }

    /// The move record for `id` (1-based move number). Panics on an id outside this dataset;
    /// use [`Dataset::get_move`] for untrusted ids.
    pub fn move_data(&self, id: MoveId) -> &'static MoveData {
        &self.moves[usize::from(id.0.wrapping_sub(1))]
    }

    /// Checked variant of [`Dataset::move_data`].
    pub fn get_move(&self, id: MoveId) -> Option<&'static MoveData> {
        self.moves.get(usize::from(id.0.checked_sub(1)?))
    }

    /// Lookup by pret id, display name or modern spelling: `"Thunder Shock"`, `"THUNDERSHOCK"`,
    /// `"PSYCHIC_M"`, `"Psychic"`, `"Vise Grip"`.
    pub fn move_by_name(&self, name: &str) -> Option<MoveId> {
        lookup(self.move_names, name).map(MoveId)
    }

    /// The item with cartridge number `id`. Panics on a number this dataset does not define;
    /// use [`Dataset::get_item`] for untrusted ids.
    pub fn item(&self, id: ItemId) -> &'static ItemData {
        match self.get_item(id) {
            Some(item) => item,
            None => panic!(
                "item number {} is not in the Gen {} dataset",
                id.0, self.generation
            ),
        }
    }

    /// Checked variant of [`Dataset::item`].
    pub fn get_item(&self, id: ItemId) -> Option<&'static ItemData> {
        let slot = *self.item_slots.get(usize::from(id.0))?;
        self.items.get(usize::from(slot))
    }

    /// Lookup by pret id or display name: `"POKE_BALL"`, `"Poké Ball"`, `"S.S.TICKET"`.
    pub fn item_by_name(&self, name: &str) -> Option<ItemId> {
        lookup(self.item_names, name).map(ItemId)
    }

    /// Effectiveness of one attacking type against ONE defending type, in tenths: 0, 5, 10 or 20.
    /// Types absent from this generation (Dark/Steel in Gen 1) are neutral.
    pub fn effectiveness(&self, atk: Type, def: Type) -> u8 {
        self.type_chart[atk as usize][def as usize]
    }

    /// The raw matchup rows in cartridge table order (attacker, defender, tenths), for
    /// per-defender-type application as the cartridge does it. Pairs not listed are 10.
    pub fn type_matchups(&self) -> &'static [(Type, Type, u8)] {
        self.matchups
    }

    /// Gen 2: the rows from this index on are the immunities Foresight ignores (the cartridge
    /// table's `-2` marker). Gen 1 has no such rows: `type_matchups().len()`.
    pub fn foresight_rows_start(&self) -> usize {
        match self.generation {
            2 => gen2_types::FORESIGHT_ROWS_START,
            _ => self.matchups.len(),
        }
    }

    /// Whether `ty` exists in this generation.
    pub fn has_type(&self, ty: Type) -> bool {
        self.types.contains(&ty)
    }
}
