//! Core data-model types for the embedded datasets (Gen 1 active data, Gen 2 import data).
//!
//! The tables themselves are generated into `engine/src/data/generated/` by `tools/gen-data`;
//! this module only defines their shape.

use serde::{Deserialize, Serialize};

/// A Pokémon type. Gen 1 uses the first 15; Gen 2 adds `Dark` and `Steel`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[repr(u8)]
pub enum Type {
    Normal,
    Fighting,
    Flying,
    Poison,
    Ground,
    Rock,
    Bug,
    Ghost,
    Fire,
    Water,
    Grass,
    Electric,
    Psychic,
    Ice,
    Dragon,
    Dark,
    Steel,
}

impl Type {
    pub const GEN1: [Type; 15] = [
        Type::Normal,
        Type::Fighting,
        Type::Flying,
        Type::Poison,
        Type::Ground,
        Type::Rock,
        Type::Bug,
        Type::Ghost,
        Type::Fire,
        Type::Water,
        Type::Grass,
        Type::Electric,
        Type::Psychic,
        Type::Ice,
        Type::Dragon,
    ];

    /// Upper-case id as mods see it (`"FIRE"`).
    pub fn id(self) -> &'static str {
        match self {
            Type::Normal => "NORMAL",
            Type::Fighting => "FIGHTING",
            Type::Flying => "FLYING",
            Type::Poison => "POISON",
            Type::Ground => "GROUND",
            Type::Rock => "ROCK",
            Type::Bug => "BUG",
            Type::Ghost => "GHOST",
            Type::Fire => "FIRE",
            Type::Water => "WATER",
            Type::Grass => "GRASS",
            Type::Electric => "ELECTRIC",
            Type::Psychic => "PSYCHIC",
            Type::Ice => "ICE",
            Type::Dragon => "DRAGON",
            Type::Dark => "DARK",
            Type::Steel => "STEEL",
        }
    }

    /// Physical in Gen 1–3 terms (uses Attack/Defense rather than Special).
    pub fn is_physical(self) -> bool {
        (self as u8) <= (Type::Ghost as u8) || self == Type::Steel
    }

    pub fn from_id(s: &str) -> Option<Type> {
        ALL_TYPES
            .iter()
            .copied()
            .find(|t| t.id().eq_ignore_ascii_case(s))
    }
}

pub const ALL_TYPES: [Type; 17] = [
    Type::Normal,
    Type::Fighting,
    Type::Flying,
    Type::Poison,
    Type::Ground,
    Type::Rock,
    Type::Bug,
    Type::Ghost,
    Type::Fire,
    Type::Water,
    Type::Grass,
    Type::Electric,
    Type::Psychic,
    Type::Ice,
    Type::Dragon,
    Type::Dark,
    Type::Steel,
];

/// Experience growth curve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GrowthRate {
    MediumFast,
    SlightlyFast,
    SlightlySlow,
    MediumSlow,
    Fast,
    Slow,
}

impl GrowthRate {
    /// Total EXP needed to be at `level` (1..=100), cartridge formulas.
    pub fn exp_for_level(self, level: u8) -> u32 {
        let n = level.clamp(1, 100) as i64;
        let n2 = n * n;
        let n3 = n2 * n;
        let v = match self {
            GrowthRate::MediumFast => n3,
            GrowthRate::SlightlyFast => 3 * n3 / 4 + 10 * n2 - 30,
            GrowthRate::SlightlySlow => 3 * n3 / 4 + 20 * n2 - 70,
            GrowthRate::MediumSlow => 6 * n3 / 5 - 15 * n2 + 100 * n - 140,
            GrowthRate::Fast => 4 * n3 / 5,
            GrowthRate::Slow => 5 * n3 / 4,
        };
        v.max(0) as u32
    }
}

/// Index into the species table of a generation (0-based; `dex - 1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct SpeciesId(pub u16);

/// Move number as in the cartridge move table (1-based; Gen 1: 1..=165, Gen 2: 1..=251).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct MoveId(pub u16);

/// Cartridge item number (`POKE_BALL` = 4); `Dataset::item` maps it to the record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct ItemId(pub u16);

/// One way a species learns a move in Gen 1 (the generated `gen1_learnsets` table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LearnSource {
    /// Level-up at this level (Red/Blue or Yellow).
    Level(u8),
    /// A TM or HM.
    Machine,
    /// A move tutor (Stadium's Surf Pikachu).
    Tutor,
    /// A distribution event; the Pokémon is at least this level.
    Event(u8),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvolutionTrigger {
    Level(u8),
    Item(&'static str),
    Trade,
    /// Gen 2 only, kept as text: `"HAPPINESS"`, `"HAPPINESS DAY"`, `"HAPPINESS NIGHT"`,
    /// `"TRADE <ITEM_ID>"` (trade while holding), `"STAT <level> ATK_GT_DEF|ATK_LT_DEF|ATK_EQ_DEF"`.
    Other(&'static str),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Evolution {
    pub trigger: EvolutionTrigger,
    /// Species id string of the evolved form (`"IVYSAUR"`).
    pub into: &'static str,
}

/// One species record.
#[derive(Clone, Copy, Debug)]
pub struct SpeciesData {
    /// Stable upper-case id (`"BULBASAUR"`, `"MR_MIME"`, `"NIDORAN_F"`).
    pub id: &'static str,
    /// In-game display name (`"BULBASAUR"`, `"MR.MIME"`, `"NIDORAN♀"`).
    pub name: &'static str,
    pub dex: u16,
    /// Base HP, Attack, Defense, Speed, Special (Gen 2: Special Attack).
    pub hp: u8,
    pub atk: u8,
    pub def: u8,
    pub spe: u8,
    pub spc: u8,
    /// Gen 2 only: Special Defense (Gen 1 tables repeat `spc`).
    pub spd: u8,
    /// Second type equals the first for single-typed species, as on the cartridge.
    pub types: [Type; 2],
    pub catch_rate: u8,
    pub base_exp: u8,
    pub growth: GrowthRate,
    /// Moves known at level 1 (cartridge base-stats "start moves"; Gen 2: level-1 learnset).
    pub start_moves: &'static [MoveId],
    /// Level-up learnset (level, move), in cartridge order.
    pub learnset: &'static [(u8, MoveId)],
    pub evolutions: &'static [Evolution],
}

/// Move effect, one per cartridge effect routine (pret `constants/move_effect_constants.asm` names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveEffect {
    NoAdditionalEffect,
    PoisonSideEffect1,
    DrainHp,
    BurnSideEffect1,
    FreezeSideEffect,
    ParalyzeSideEffect1,
    Explode,
    DreamEater,
    MirrorMove,
    AttackUp1,
    DefenseUp1,
    SpeedUp1,
    SpecialUp1,
    AccuracyUp1,
    EvasionUp1,
    PayDay,
    Swift,
    AttackDown1,
    DefenseDown1,
    SpeedDown1,
    SpecialDown1,
    AccuracyDown1,
    EvasionDown1,
    Conversion,
    Haze,
    Bide,
    ThrashPetalDance,
    SwitchAndTeleport,
    TwoToFiveAttacks,
    FlinchSideEffect1,
    Sleep,
    PoisonSideEffect2,
    BurnSideEffect2,
    ParalyzeSideEffect2,
    FlinchSideEffect2,
    Ohko,
    Charge,
    SuperFang,
    SpecialDamage,
    Trapping,
    Fly,
    AttackTwice,
    JumpKick,
    Mist,
    FocusEnergy,
    Recoil,
    Confusion,
    AttackUp2,
    DefenseUp2,
    SpeedUp2,
    SpecialUp2,
    AccuracyUp2,
    EvasionUp2,
    Heal,
    Transform,
    AttackDown2,
    DefenseDown2,
    SpeedDown2,
    SpecialDown2,
    AccuracyDown2,
    EvasionDown2,
    LightScreen,
    Reflect,
    Poison,
    Paralyze,
    AttackDownSideEffect,
    DefenseDownSideEffect,
    SpeedDownSideEffect,
    SpecialDownSideEffect,
    ConfusionSideEffect,
    Twineedle,
    Substitute,
    HyperBeam,
    Rage,
    Mimic,
    Metronome,
    LeechSeed,
    Splash,
    Disable,
    /// Every Gen 2 move carries its pret/pokecrystal effect constant by name
    /// (`"EFFECT_NORMAL_HIT"`); the Gen 1 variants above are used by the Gen 1 dataset only.
    Gen2(&'static str),
}

/// One move record.
#[derive(Clone, Copy, Debug)]
pub struct MoveData {
    /// Stable upper-case id (pret constant name: `"TACKLE"`, `"PSYCHIC_M"`, `"THUNDERSHOCK"`).
    pub id: &'static str,
    /// Display name as shown in battle (`"TACKLE"`, `"PSYCHIC"`).
    pub name: &'static str,
    pub num: u16,
    pub effect: MoveEffect,
    pub power: u8,
    pub ty: Type,
    /// Accuracy in percent as listed in the cartridge table (the engine converts to /256).
    pub accuracy: u8,
    pub pp: u8,
    /// Gen 2 only: chance of the secondary effect in percent, as in the cartridge table
    /// (Gen 1 tables have no such column: side-effect chances are fixed per effect; 0 there).
    pub effect_chance: u8,
}

/// Item categories the engine cares about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemKind {
    /// Gen 1: the catch formula's ball factor (8 Great Ball, 12 otherwise, 0 Master Ball).
    /// Gen 2: the catch-rate multiplier in tenths (20 Ultra, 15 Great/Park, 10 otherwise, 0
    /// Master Ball); the Apricorn balls' conditional bonuses are not encoded.
    Ball {
        modifier: u8,
    },
    Heal {
        hp: u16,
    },
    FullRestore,
    StatusHeal {
        cures: &'static str,
    },
    Revive {
        full: bool,
    },
    Battle,
    Evolution,
    Key,
    Other,
}

#[derive(Clone, Copy, Debug)]
pub struct ItemData {
    pub id: &'static str,
    pub name: &'static str,
    pub num: u16,
    pub price: u32,
    pub kind: ItemKind,
}
