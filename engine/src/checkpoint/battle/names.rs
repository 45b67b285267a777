//! Names the battle model uses: volatile bits by name, strict id lookups for moves, species,
//! types and move effects, and party-index bit sets.

use crate::battle::state::flag;
use crate::data::{Dataset, MoveEffect, MoveId, SpeciesId, Type};

// ----- names ---------------------------------------------------------------------------------

/// Volatile status bits by name, in bit order.
pub(super) const VOLATILE: [(u32, &str); 17] = [
    (flag::STORING_ENERGY, "storingEnergy"),
    (flag::THRASHING, "thrashing"),
    (flag::MULTI_HIT, "multiHit"),
    (flag::FLINCHED, "flinched"),
    (flag::CHARGING, "charging"),
    (flag::TRAPPING, "trapping"),
    (flag::INVULNERABLE, "invulnerable"),
    (flag::CONFUSED, "confused"),
    (flag::X_ACCURACY, "xAccuracy"),
    (flag::MIST, "mist"),
    (flag::FOCUS_ENERGY, "focusEnergy"),
    (flag::SUBSTITUTE, "substitute"),
    (flag::RECHARGE, "recharge"),
    (flag::RAGE, "rage"),
    (flag::SEEDED, "seeded"),
    (flag::TOXIC, "toxic"),
    (flag::TRANSFORMED, "transformed"),
];

pub(super) fn move_name(data: &Dataset, id: MoveId) -> Option<String> {
    if id.0 == 0 {
        return Some(String::new());
    }
    data.get_move(id).map(|m| m.id.to_owned())
}

/// Strict: only the canonical id (`""` is move 0).
pub(super) fn move_by_id(data: &Dataset, s: &str) -> Option<MoveId> {
    if s.is_empty() {
        return Some(MoveId(0));
    }
    data.move_by_name(s)
        .filter(|id| data.get_move(*id).is_some_and(|m| m.id == s))
}

pub(super) fn species_by_id(data: &Dataset, s: &str) -> Option<SpeciesId> {
    data.species_by_name(s)
        .filter(|id| data.get_species(*id).is_some_and(|sp| sp.id == s))
}

pub(super) fn type_by_id(s: &str) -> Option<Type> {
    Type::GEN1.iter().copied().find(|t| t.id() == s)
}

pub(super) fn effect_name(e: MoveEffect) -> Option<String> {
    match e {
        MoveEffect::Gen2(_) => None,
        e => Some(format!("{e:?}")),
    }
}

/// Effects a battler's loaded move can carry: those of the dataset's moves, and the cleared one.
pub(super) fn effect_by_name(data: &Dataset, s: &str) -> Option<MoveEffect> {
    if s == "NoAdditionalEffect" {
        return Some(MoveEffect::NoAdditionalEffect);
    }
    (1..=u16::MAX)
        .map_while(|i| data.get_move(MoveId(i)))
        .map(|m| m.effect)
        .find(|e| effect_name(*e).as_deref() == Some(s))
}

pub(super) fn bits_to_indices(bits: u8) -> Vec<u8> {
    (0..8).filter(|i| bits & (1 << i) != 0).collect()
}

/// Ascending, unique indices below `len` → bits; `None` otherwise.
pub(super) fn indices_to_bits(list: &[u8], len: usize) -> Option<u8> {
    let mut bits = 0u8;
    let mut last: Option<u8> = None;
    for &i in list {
        if usize::from(i) >= len || i >= 8 || last.is_some_and(|l| l >= i) {
            return None;
        }
        bits |= 1 << i;
        last = Some(i);
    }
    Some(bits)
}
