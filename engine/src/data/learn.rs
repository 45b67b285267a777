//! Gen 1 move legality: whether a species at a level can know a move, the way Pokémon
//! Showdown's Gen 1 validator decides it (no Gen 2 tradebacks).
//!
//! A move is legal when the species or one of its pre-evolutions learns it by level-up at or
//! below the Pokémon's level (Red/Blue or Yellow), by TM/HM, by tutor, or at a Gen 1 event at or
//! below its level. The sources are the generated `gen1_learnsets` table (from `@pkmn/dex`) plus
//! the dataset's own start moves and level-up learnset, so a dataset whose learnset differs
//! from the cartridge's still accepts its own moves. A species the Gen 1 table does not know
//! (not Gen 1, or not a cartridge species) is checked against the dataset's learnsets only.
//! An evolved species is also at least the level it evolves at, unless it is met lower in the
//! wild, in a trade or at an event (`MET_MIN_LEVELS`, from `@pkmn/dex`'s Gen 1 encounters).

use super::dataset::Dataset;
use super::generated::gen1_learnsets::{LEARNSETS, MET_MIN_LEVELS};
use super::types::{EvolutionTrigger, LearnSource, MoveId, SpeciesData, SpeciesId};

/// Why a move is not legal on a species at a level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LearnProblem {
    /// No source at any level.
    Never,
    /// Only sources above the Pokémon's level; the lowest level that would do.
    TooLow { min_level: u8 },
}

/// The species and its pre-evolutions, nearest first (cycles in a modded dataset end the walk).
fn chain(data: &Dataset, species: SpeciesId) -> Vec<&'static SpeciesData> {
    let mut out = vec![data.species(species)];
    while out.len() <= data.species.len() {
        let cur = out[out.len() - 1].id;
        let prevo = data
            .species
            .iter()
            .find(|s| s.evolutions.iter().any(|e| e.into == cur));
        match prevo {
            Some(p) if !out.iter().any(|s| s.id == p.id) => out.push(p),
            _ => break,
        }
    }
    out
}

/// `sp`'s index in the generated Gen 1 tables, when `data` is Gen 1 and `sp` a cartridge species.
fn cartridge_index(data: &Dataset, sp: &SpeciesData) -> Option<usize> {
    let idx = usize::from(sp.dex).checked_sub(1)?;
    let base = super::gen1().species.get(idx)?;
    (data.generation == 1 && base.id == sp.id && idx < LEARNSETS.len()).then_some(idx)
}

/// The generated Gen 1 sources of `sp` (none for a species the table does not know).
fn table_sources(data: &Dataset, sp: &SpeciesData) -> &'static [(MoveId, LearnSource)] {
    cartridge_index(data, sp).map_or(&[], |i| LEARNSETS[i])
}

/// The lowest level at which `sp` itself can know `mv` (`None`: never).
fn own_min_level(data: &Dataset, sp: &SpeciesData, mv: MoveId) -> Option<u8> {
    let table = table_sources(data, sp)
        .iter()
        .filter(|(m, _)| *m == mv)
        .map(|(_, src)| match *src {
            LearnSource::Level(l) | LearnSource::Event(l) => l,
            LearnSource::Machine | LearnSource::Tutor => 1,
        });
    let start = sp.start_moves.iter().filter(|m| **m == mv).map(|_| 1u8);
    let levels = sp
        .learnset
        .iter()
        .filter(|(_, m)| *m == mv)
        .map(|(l, _)| *l);
    table.chain(start).chain(levels).min()
}

/// Whether `species` at `level` can know `mv` in Gen 1.
pub fn check_move(
    data: &Dataset,
    species: SpeciesId,
    mv: MoveId,
    level: u8,
) -> Result<(), LearnProblem> {
    let min = chain(data, species)
        .iter()
        .filter_map(|sp| own_min_level(data, sp, mv))
        .min();
    match min {
        None => Err(LearnProblem::Never),
        Some(l) if l > level => Err(LearnProblem::TooLow { min_level: l }),
        Some(_) => Ok(()),
    }
}

/// The lowest level a species can have in Gen 1 (there is no breeding: every Pokémon is met
/// at some level, or evolved from one).
#[derive(Clone, Copy, Debug)]
pub struct MinLevel {
    pub level: u8,
    /// The pre-evolution, when the minimum comes from evolving one (else it is the lowest level
    /// the species itself is met at).
    pub evolves_from: Option<&'static SpeciesData>,
}

/// The lowest level `species` can have: the lowest level it is met at in Gen 1, or the lowest
/// at which its pre-evolution can evolve into it, whichever is lower (`None`: any level, e.g. a
/// species the Gen 1 tables do not know).
pub fn min_level(data: &Dataset, species: SpeciesId) -> Option<MinLevel> {
    // Walk from the line's base up, carrying the minimum.
    let chain = chain(data, species);
    let mut best: Option<MinLevel> = None;
    for (k, sp) in chain.iter().enumerate().rev() {
        // Evolved from the next species down the line: at its minimum, or at the evolution
        // level if that is higher (the base's minimum is 1 when it is met at no known level).
        let mut here = chain.get(k + 1).and_then(|prevo| {
            let from = best.map_or(1, |b| b.level);
            let level = prevo
                .evolutions
                .iter()
                .filter(|e| e.into == sp.id)
                .map(|e| match e.trigger {
                    EvolutionTrigger::Level(l) => l.max(from),
                    _ => from,
                })
                .min()?;
            (level > 1).then_some(MinLevel {
                level,
                evolves_from: Some(*prevo),
            })
        });
        let met = cartridge_index(data, sp).map_or(0, |i| MET_MIN_LEVELS[i]);
        if met > 0 && here.is_none_or(|h| met < h.level) {
            here = Some(MinLevel {
                level: met,
                evolves_from: None,
            });
        }
        best = here;
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::gen1;

    fn ids(species: &str, mv: &str) -> (SpeciesId, MoveId) {
        let d = gen1();
        (
            d.species_by_name(species).unwrap(),
            d.move_by_name(mv).unwrap(),
        )
    }

    fn check(species: &str, mv: &str, level: u8) -> Result<(), LearnProblem> {
        let (s, m) = ids(species, mv);
        check_move(gen1(), s, m, level)
    }

    #[test]
    fn tm_hm_level_up_prevo_and_event_sources() {
        // TM (Body Slam, TM08) and HM (Surf, HM03).
        assert_eq!(check("Snorlax", "Body Slam", 5), Ok(()));
        assert_eq!(check("Lapras", "Surf", 5), Ok(()));
        assert_eq!(check("Charizard", "Surf", 100), Err(LearnProblem::Never));
        // Level-up: the earliest in the line counts (Charmander's Flamethrower at 38, not
        // Charizard's own 46; Charmander's Slash at 30).
        assert_eq!(
            check("Charizard", "Flamethrower", 30),
            Err(LearnProblem::TooLow { min_level: 38 })
        );
        assert_eq!(check("Charizard", "Slash", 30), Ok(()));
        // Pre-evolution only: Raichu learns nothing by level-up; Thunder Shock is Pikachu's.
        assert_eq!(check("Raichu", "Thunder Shock", 50), Ok(()));
        assert_eq!(
            check("Raichu", "Flamethrower", 100),
            Err(LearnProblem::Never)
        );
        // Event and tutor: Surf Pikachu (level 5), and Raichu through it; Fly Pikachu was a
        // Japan-only event, which an international cartridge cannot receive.
        assert_eq!(check("Pikachu", "Surf", 5), Ok(()));
        assert_eq!(check("Raichu", "Surf", 5), Ok(()));
        assert_eq!(check("Pikachu", "Fly", 50), Err(LearnProblem::Never));
        // Level-1 start moves (cartridge facts, e.g. Mewtwo's Confusion) always count.
        assert_eq!(check("Mewtwo", "Confusion", 70), Ok(()));
        assert_eq!(check("Mewtwo", "Tackle", 100), Err(LearnProblem::Never));
    }

    #[test]
    fn species_have_a_minimum_level() {
        let d = gen1();
        let lvl = |n: &str| {
            min_level(d, d.species_by_name(n).unwrap())
                .map(|m| (m.level, m.evolves_from.map(|p| p.id)))
        };
        assert_eq!(lvl("Charizard"), Some((36, Some("CHARMELEON"))));
        assert_eq!(lvl("Charmeleon"), Some((16, Some("CHARMANDER"))));
        // Met as a gift at level 5; Articuno in the wild at 50.
        assert_eq!(lvl("Charmander"), Some((5, None)));
        assert_eq!(lvl("Articuno"), Some((50, None)));
        // Met lower in the wild than it evolves: Raticate from level 15 (it evolves at 20).
        assert_eq!(lvl("Raticate"), Some((15, None)));
    }

    #[test]
    fn every_cartridge_level_up_and_start_move_is_legal_at_100() {
        let d = gen1();
        for (i, sp) in d.species.iter().enumerate() {
            let id = SpeciesId(i as u16);
            for m in sp
                .start_moves
                .iter()
                .chain(sp.learnset.iter().map(|(_, m)| m))
            {
                assert_eq!(check_move(d, id, *m, 100), Ok(()), "{} {:?}", sp.id, m);
            }
        }
    }
}
