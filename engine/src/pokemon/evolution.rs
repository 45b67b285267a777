//! Evolution (pret/pokered `EvolutionAfterBattle`, `EvolveMon` as facts): which evolution of
//! the species' data applies, and the change itself (new species, stats recomputed, current
//! HP raised by the max-HP gain, moves of the new species at the current level learned into
//! free slots).

use crate::data::{Dataset, Evolution, EvolutionTrigger, MoveId, SpeciesId};

use super::mon::{species_data, Pokemon, MOVE_SLOTS};

/// What set an evolution off (the `via` / `trigger` strings of the Lua engine's API).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Via {
    Level,
    Item,
}

impl Via {
    pub fn as_str(self) -> &'static str {
        match self {
            Via::Level => "level",
            Via::Item => "item",
        }
    }
}

/// The first evolution of `mon`'s species that `via` satisfies now (a level evolution at or
/// below the mon's level; an item evolution naming `item`), with the species it leads to.
pub fn find(
    data: &Dataset,
    mon: &Pokemon,
    via: Via,
    item: Option<&str>,
) -> Option<(&'static Evolution, SpeciesId)> {
    let sp = species_data(data, mon.species).ok()?;
    let evos: &'static [Evolution] = sp.evolutions;
    evos.iter().find_map(|e| {
        let ok = match (via, e.trigger) {
            (Via::Level, EvolutionTrigger::Level(l)) => mon.level >= l,
            (Via::Item, EvolutionTrigger::Item(i)) => item == Some(i),
            _ => false,
        };
        if !ok {
            return None;
        }
        data.species_by_name(e.into).map(|into| (e, into))
    })
}

/// Evolve `mon` into `into`: species, stats (HP raised by the max-HP gain; a fainted mon stays
/// at 0), then the new species' moves at the current level go into free slots. Returns the
/// moves learned and the first one that found no free slot (the player would be asked).
pub fn evolve(data: &Dataset, mon: &mut Pokemon, into: SpeciesId) -> (Vec<MoveId>, Option<MoveId>) {
    let old_max = mon.stats.max_hp;
    mon.species = into;
    mon.recompute_stats(data);
    if mon.hp > 0 {
        let gained = mon.stats.max_hp.saturating_sub(old_max);
        mon.hp = mon.hp.saturating_add(gained).min(mon.stats.max_hp);
    }
    learn_level_moves(data, mon)
}

/// The moves `mon`'s species learns at its current level, into free slots (known moves are
/// skipped). Returns the learned moves and the first that did not fit.
pub fn learn_level_moves(data: &Dataset, mon: &mut Pokemon) -> (Vec<MoveId>, Option<MoveId>) {
    let mut learned = Vec::new();
    let mut blocked = None;
    let level = mon.level;
    let moves: Vec<MoveId> = mon.learnset_moves_at(data, level).collect();
    for mv in moves {
        if mon.moves.contains(&Some(mv)) {
            continue;
        }
        match mon.moves.iter().position(Option::is_none) {
            Some(slot) if slot < MOVE_SLOTS => {
                mon.moves[slot] = Some(mv);
                mon.pp[slot] = mon.max_pp(data, slot).unwrap_or(0);
                learned.push(mv);
            }
            _ => {
                blocked.get_or_insert(mv);
            }
        }
    }
    (learned, blocked)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::gen1;
    use crate::pokemon::Dvs;

    fn mon(species: &str, level: u8) -> Pokemon {
        let d = gen1();
        Pokemon::new(
            d,
            d.species_by_name(species).unwrap(),
            level,
            Dvs::from_bytes([0x99, 0x99]),
        )
    }

    #[test]
    fn level_and_stone_evolutions_follow_the_data() {
        let d = gen1();
        let sp = |id: &str| d.species_by_name(id).unwrap();
        assert_eq!(find(d, &mon("CATERPIE", 6), Via::Level, None), None);
        let (e, into) = find(d, &mon("CATERPIE", 7), Via::Level, None).unwrap();
        assert_eq!((e.into, into), ("METAPOD", sp("METAPOD")));
        assert!(find(d, &mon("CHARMANDER", 40), Via::Level, None).is_some());
        // Stones: only the named stone, never by level.
        let vulpix = mon("VULPIX", 20);
        assert_eq!(find(d, &vulpix, Via::Level, None), None);
        assert_eq!(find(d, &vulpix, Via::Item, Some("WATER_STONE")), None);
        let (_, into) = find(d, &vulpix, Via::Item, Some("FIRE_STONE")).unwrap();
        assert_eq!(into, sp("NINETALES"));
        // Eevee picks by stone.
        let eevee = mon("EEVEE", 20);
        assert_eq!(
            find(d, &eevee, Via::Item, Some("THUNDER_STONE")).map(|x| x.1),
            Some(sp("JOLTEON"))
        );
        // Trade evolutions never happen here.
        assert_eq!(find(d, &mon("KADABRA", 60), Via::Level, None), None);
    }

    #[test]
    fn evolving_raises_hp_by_the_gain_and_learns_into_free_slots() {
        let d = gen1();
        let mut m = mon("CATERPIE", 7);
        m.hp -= 3;
        let (old_max, old_hp) = (m.stats.max_hp, m.hp);
        let metapod = d.species_by_name("METAPOD").unwrap();
        let (learned, blocked) = evolve(d, &mut m, metapod);
        assert_eq!(m.species, metapod);
        assert_eq!(m.hp, old_hp + (m.stats.max_hp - old_max));
        // Metapod learns Harden at level 7 (its level-1 move set is the learnset's).
        assert!(blocked.is_none());
        let harden = d.move_by_name("HARDEN").unwrap();
        assert!(learned.is_empty() || learned == vec![harden], "{learned:?}");
        let mut fainted = mon("PIDGEY", 18);
        fainted.hp = 0;
        evolve(d, &mut fainted, d.species_by_name("PIDGEOTTO").unwrap());
        assert_eq!(fainted.hp, 0);
    }
}
