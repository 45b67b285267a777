//! Gen 1 wild encounters in grass: after each completed step onto a grass cell, one random
//! byte below the map's rate starts an encounter; a second byte picks one of ten slots with
//! the cartridge's weights 51, 51, 39, 25, 25, 25, 13, 13, 11, 3 (out of 256).

use serde::{Deserialize, Serialize};

use super::map::EncounterTable;
use crate::rng::Rng;

/// Cumulative slot thresholds: slot `i` is chosen when `byte <= SLOT_LIMITS[i]`.
pub const SLOT_LIMITS: [u8; 10] = [50, 101, 140, 165, 190, 215, 228, 241, 252, 255];

/// A wild encounter the overworld hands to the game (which starts the battle).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WildEncounter {
    pub species: String,
    pub level: u8,
    /// The table slot that was rolled (`None` when a mod's `encounter.roll` chose).
    pub slot: Option<u8>,
}

/// Slot index for a random byte.
pub fn slot_for(byte: u8) -> usize {
    SLOT_LIMITS
        .iter()
        .position(|&limit| byte <= limit)
        .unwrap_or(SLOT_LIMITS.len() - 1)
}

/// Roll for an encounter on a grass step. Draws two bytes when the first one hits.
pub fn roll_grass(table: &EncounterTable, rng: &mut Rng) -> Option<WildEncounter> {
    if table.grass_rate == 0 || table.grass.is_empty() {
        return None;
    }
    if rng.byte() >= table.grass_rate {
        return None;
    }
    let slot = slot_for(rng.byte()).min(table.grass.len() - 1);
    let entry = &table.grass[slot];
    Some(WildEncounter {
        species: entry.species.clone(),
        level: entry.level,
        slot: Some(slot as u8),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::map::EncounterSlot;

    #[test]
    fn slot_weights_match_the_cartridge() {
        let mut counts = [0u32; 10];
        for b in 0..=255u8 {
            counts[slot_for(b)] += 1;
        }
        assert_eq!(counts, [51, 51, 39, 25, 25, 25, 13, 13, 11, 3]);
    }

    #[test]
    fn rate_controls_frequency() {
        let table = EncounterTable {
            grass_rate: 25,
            grass: (0..10)
                .map(|i| EncounterSlot {
                    species: format!("S{i}"),
                    level: 2 + i as u8,
                })
                .collect(),
        };
        let mut rng = Rng::new(3);
        let hits = (0..25_600)
            .filter(|_| roll_grass(&table, &mut rng).is_some())
            .count();
        // Expected 2500 (25/256); allow generous slack.
        assert!((2200..2800).contains(&hits), "{hits}");
        let never = EncounterTable {
            grass_rate: 0,
            ..table.clone()
        };
        assert!((0..1000).all(|_| roll_grass(&never, &mut rng).is_none()));
    }
}
