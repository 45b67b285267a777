//! Gen 1 item effects (pret/pokered `ItemUseMedicine`, `ItemUseRepel`, `ItemUseEvoStone`,
//! `ItemUseEscapeRope` as facts): which effect an item record has, and the medicine effects on
//! one mon with the cartridge's texts. The field ([`crate::game`]) and the battle
//! ([`crate::battle`]) both apply them; neither consumes an item whose use was refused.
//!
//! An item's effect comes from its record's kind (`heal`, `full_restore`, `status_heal`,
//! `revive`, `evolution`, `ball`), so a mod-registered item of a known kind works like the base
//! ones; the `other` kind holds the base items the record shape cannot tell apart (Repel's
//! three strengths, Rare Candy, Escape Rope), known by id.

use std::fmt::Write as _;

use crate::data::{Dataset, ItemData, ItemKind};
use crate::pokemon::{Pokemon, Status};

/// Highest level a mon reaches (Rare Candy has no effect there).
pub const MAX_LEVEL: u8 = 100;

/// What a status heal cures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cure {
    Poison,
    Burn,
    Freeze,
    Sleep,
    Paralysis,
    All,
}

impl Cure {
    /// The record's `cures` code (`"PSN"`, `"BRN"`, `"FRZ"`, `"SLP"`, `"PAR"`, `"ALL"`).
    pub fn from_code(code: &str) -> Option<Cure> {
        Some(match code {
            "PSN" => Cure::Poison,
            "BRN" => Cure::Burn,
            "FRZ" => Cure::Freeze,
            "SLP" => Cure::Sleep,
            "PAR" => Cure::Paralysis,
            "ALL" => Cure::All,
            _ => return None,
        })
    }

    fn cures(self, s: Status) -> bool {
        matches!(
            (self, s),
            (Cure::Poison, Status::Poison)
                | (Cure::Burn, Status::Burn)
                | (Cure::Freeze, Status::Freeze)
                | (Cure::Sleep, Status::Sleep(_))
                | (Cure::Paralysis, Status::Paralysis)
        ) || (self == Cure::All && !s.is_none())
    }
}

/// The effect of using an item.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ItemEffect {
    /// Poké Balls (the battle's capture path).
    Ball,
    /// Restore up to `hp` HP (`u16::MAX`: all of it, Max Potion).
    Heal {
        hp: u16,
    },
    /// All HP and status (in battle also confusion).
    FullRestore,
    Cure(Cure),
    /// A fainted mon back with half its HP (`full`: all of it).
    Revive {
        full: bool,
    },
    /// No wild mon below the lead's level for `steps` steps.
    Repel {
        steps: u32,
    },
    /// One level (field only).
    RareCandy,
    /// Evolves the species whose evolution names this item (field only).
    Stone,
    /// Back to the last Pokémon Center from a dungeon (field only).
    EscapeRope,
    /// Nothing this engine knows how to use (key items, battle items, unknown ids).
    None,
}

impl ItemEffect {
    /// The effect of `item`'s record.
    pub fn of(item: &ItemData) -> ItemEffect {
        match item.kind {
            ItemKind::Ball { .. } => ItemEffect::Ball,
            ItemKind::Heal { hp } => ItemEffect::Heal { hp },
            ItemKind::FullRestore => ItemEffect::FullRestore,
            ItemKind::StatusHeal { cures } => {
                Cure::from_code(cures).map_or(ItemEffect::None, ItemEffect::Cure)
            }
            ItemKind::Revive { full } => ItemEffect::Revive { full },
            ItemKind::Evolution => ItemEffect::Stone,
            ItemKind::Other => match item.id {
                "REPEL" => ItemEffect::Repel { steps: 100 },
                "SUPER_REPEL" => ItemEffect::Repel { steps: 200 },
                "MAX_REPEL" => ItemEffect::Repel { steps: 250 },
                "RARE_CANDY" => ItemEffect::RareCandy,
                "ESCAPE_ROPE" => ItemEffect::EscapeRope,
                _ => ItemEffect::None,
            },
            ItemKind::Battle | ItemKind::Key => ItemEffect::None,
        }
    }

    /// Usable on a party mon in battle (the rest: "This isn't the time to use that!").
    pub fn battle_usable(self) -> bool {
        matches!(
            self,
            ItemEffect::Heal { .. }
                | ItemEffect::FullRestore
                | ItemEffect::Cure(_)
                | ItemEffect::Revive { .. }
        )
    }

    /// Used on one party mon (the menu asks which).
    pub fn needs_target(self) -> bool {
        matches!(
            self,
            ItemEffect::Heal { .. }
                | ItemEffect::FullRestore
                | ItemEffect::Cure(_)
                | ItemEffect::Revive { .. }
                | ItemEffect::RareCandy
                | ItemEffect::Stone
        )
    }
}

/// The texts of item use (the cartridge's party-menu item messages), rendered with the mon's
/// name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ItemMsg {
    /// "X recovered by N!"
    Recovered {
        amount: u16,
    },
    CuredPoison,
    CuredBurn,
    Defrosted,
    WokeUp,
    CuredParalysis,
    /// "X's health returned!" (Full Heal; Full Restore at full HP).
    HealthReturned,
    /// "X is revitalized!"
    Revitalized,
    /// "X grew to level N!"
    GrewTo {
        level: u8,
    },
    /// "It won't have any effect." (the item is kept).
    NoEffect,
    /// "OAK: RED! This isn't the time to use that!" (the item is kept).
    NotNow,
    /// Repel while one still works (the item is kept).
    RepelStillActive,
    /// A Repel was used (no text on the cartridge: a sound).
    RepelUsed,
    /// An evolution stone was used (the evolution's texts follow).
    StoneUsed,
    /// An Escape Rope was used (the warp follows).
    EscapeRopeUsed,
    /// A mod's item effect spent the item (its own messages are shown; see
    /// [`crate::game::item_effects`]).
    ModUsed,
    /// A mod's item effect kept the item.
    ModKept,
}

impl ItemMsg {
    /// Whether the item was used (and is spent).
    pub fn used(self) -> bool {
        !matches!(
            self,
            ItemMsg::NoEffect | ItemMsg::NotNow | ItemMsg::RepelStillActive | ItemMsg::ModKept
        )
    }

    /// The text, with `mon` the target's name and `player` the player's.
    pub fn render(self, mon: &str, player: &str) -> String {
        let mut s = String::new();
        // `write!` into a String cannot fail.
        let _ = match self {
            ItemMsg::Recovered { amount } => write!(s, "{mon} recovered by {amount}!"),
            ItemMsg::CuredPoison => write!(s, "{mon} was cured of poison!"),
            ItemMsg::CuredBurn => write!(s, "{mon}'s burn was healed!"),
            ItemMsg::Defrosted => write!(s, "{mon} was defrosted!"),
            ItemMsg::WokeUp => write!(s, "{mon} woke up!"),
            ItemMsg::CuredParalysis => write!(s, "{mon}'s rid of paralysis!"),
            ItemMsg::HealthReturned => write!(s, "{mon}'s health returned!"),
            ItemMsg::Revitalized => write!(s, "{mon} is revitalized!"),
            ItemMsg::GrewTo { level } => write!(s, "{mon} grew to level {level}!"),
            ItemMsg::NoEffect => write!(s, "It won't have any effect."),
            ItemMsg::NotNow => write!(s, "OAK: {player}! This isn't the time to use that!"),
            ItemMsg::RepelStillActive => write!(s, "The REPEL used earlier is still in effect."),
            ItemMsg::RepelUsed => write!(s, "{player} used the REPEL."),
            ItemMsg::StoneUsed => write!(s, "{player} used the stone on {mon}."),
            ItemMsg::EscapeRopeUsed => write!(s, "{player} used an ESCAPE ROPE."),
            // The mod's messages are its own.
            ItemMsg::ModUsed | ItemMsg::ModKept => Ok(()),
        };
        s
    }
}

fn cure_msg(s: Status) -> ItemMsg {
    match s {
        Status::Poison => ItemMsg::CuredPoison,
        Status::Burn => ItemMsg::CuredBurn,
        Status::Freeze => ItemMsg::Defrosted,
        Status::Sleep(_) => ItemMsg::WokeUp,
        Status::Paralysis => ItemMsg::CuredParalysis,
        Status::None => ItemMsg::NoEffect,
    }
}

/// Apply a medicine (`Heal`, `FullRestore`, `Cure`, `Revive`) to `mon`. Returns the text; a
/// refused use ([`ItemMsg::NoEffect`]) changes nothing. Other effects are not medicine:
/// [`ItemMsg::NoEffect`].
pub fn apply_medicine(mon: &mut Pokemon, effect: ItemEffect) -> ItemMsg {
    let max = mon.stats.max_hp;
    match effect {
        ItemEffect::Heal { hp } => {
            if mon.hp == 0 || mon.hp >= max {
                return ItemMsg::NoEffect;
            }
            let amount = hp.min(max - mon.hp);
            mon.hp += amount;
            ItemMsg::Recovered { amount }
        }
        ItemEffect::FullRestore => {
            if mon.hp == 0 || (mon.hp >= max && mon.status.is_none()) {
                return ItemMsg::NoEffect;
            }
            let amount = max - mon.hp.min(max);
            mon.hp = max;
            mon.status = Status::None;
            if amount > 0 {
                ItemMsg::Recovered { amount }
            } else {
                ItemMsg::HealthReturned
            }
        }
        ItemEffect::Cure(c) => {
            if mon.hp == 0 || !c.cures(mon.status) {
                return ItemMsg::NoEffect;
            }
            let was = mon.status;
            mon.status = Status::None;
            if c == Cure::All {
                ItemMsg::HealthReturned
            } else {
                cure_msg(was)
            }
        }
        ItemEffect::Revive { full } => {
            if mon.hp != 0 {
                return ItemMsg::NoEffect;
            }
            mon.hp = if full { max } else { (max / 2).max(1) };
            mon.status = Status::None;
            ItemMsg::Revitalized
        }
        _ => ItemMsg::NoEffect,
    }
}

/// Rare Candy: one level (experience set to the level's minimum, stats recomputed, current HP
/// raised by the max-HP gain — a fainted mon too, as on the cartridge). Moves and evolution
/// are the caller's (they need the game). `None` at level 100.
pub fn rare_candy(data: &Dataset, mon: &mut Pokemon) -> Option<ItemMsg> {
    if mon.level >= MAX_LEVEL {
        return None;
    }
    let level = mon.level + 1;
    let old_max = mon.stats.max_hp;
    let hp = mon.hp;
    mon.set_level(data, level);
    // The cartridge adds the gain even to 0 HP.
    let gained = mon.stats.max_hp.saturating_sub(old_max);
    mon.hp = hp.saturating_add(gained).min(mon.stats.max_hp);
    if let Some(sp) = data.get_species(mon.species) {
        mon.exp = sp.growth.exp_for_level(level);
    }
    Some(ItemMsg::GrewTo { level })
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
            Dvs::from_bytes([0xAA, 0xAA]),
        )
    }

    fn effect(id: &str) -> ItemEffect {
        let d = gen1();
        ItemEffect::of(d.item(d.item_by_name(id).unwrap()))
    }

    #[test]
    fn every_gen1_usable_item_has_its_effect() {
        assert_eq!(effect("POTION"), ItemEffect::Heal { hp: 20 });
        assert_eq!(effect("SUPER_POTION"), ItemEffect::Heal { hp: 50 });
        assert_eq!(effect("HYPER_POTION"), ItemEffect::Heal { hp: 200 });
        assert_eq!(effect("MAX_POTION"), ItemEffect::Heal { hp: u16::MAX });
        assert_eq!(effect("FULL_RESTORE"), ItemEffect::FullRestore);
        assert_eq!(effect("ANTIDOTE"), ItemEffect::Cure(Cure::Poison));
        assert_eq!(effect("BURN_HEAL"), ItemEffect::Cure(Cure::Burn));
        assert_eq!(effect("ICE_HEAL"), ItemEffect::Cure(Cure::Freeze));
        assert_eq!(effect("AWAKENING"), ItemEffect::Cure(Cure::Sleep));
        assert_eq!(effect("PARLYZ_HEAL"), ItemEffect::Cure(Cure::Paralysis));
        assert_eq!(effect("FULL_HEAL"), ItemEffect::Cure(Cure::All));
        assert_eq!(effect("REVIVE"), ItemEffect::Revive { full: false });
        assert_eq!(effect("MAX_REVIVE"), ItemEffect::Revive { full: true });
        assert_eq!(effect("REPEL"), ItemEffect::Repel { steps: 100 });
        assert_eq!(effect("SUPER_REPEL"), ItemEffect::Repel { steps: 200 });
        assert_eq!(effect("MAX_REPEL"), ItemEffect::Repel { steps: 250 });
        assert_eq!(effect("RARE_CANDY"), ItemEffect::RareCandy);
        assert_eq!(effect("ESCAPE_ROPE"), ItemEffect::EscapeRope);
        for stone in [
            "MOON_STONE",
            "FIRE_STONE",
            "THUNDER_STONE",
            "WATER_STONE",
            "LEAF_STONE",
        ] {
            assert_eq!(effect(stone), ItemEffect::Stone, "{stone}");
        }
        assert_eq!(effect("POKE_BALL"), ItemEffect::Ball);
        assert_eq!(effect("BICYCLE"), ItemEffect::None);
    }

    #[test]
    fn potions_heal_up_to_the_maximum_and_refuse_full_or_fainted() {
        let mut m = mon("PIDGEY", 20);
        let max = m.stats.max_hp;
        assert_eq!(apply_medicine(&mut m, effect("POTION")), ItemMsg::NoEffect);
        m.hp = max - 30;
        assert_eq!(
            apply_medicine(&mut m, effect("POTION")),
            ItemMsg::Recovered { amount: 20 }
        );
        assert_eq!(
            apply_medicine(&mut m, effect("SUPER_POTION")),
            ItemMsg::Recovered { amount: 10 }
        );
        assert_eq!(m.hp, max);
        m.hp = 1;
        assert_eq!(
            apply_medicine(&mut m, effect("MAX_POTION")),
            ItemMsg::Recovered { amount: max - 1 }
        );
        m.hp = 0;
        let before = m.clone();
        assert_eq!(
            apply_medicine(&mut m, effect("HYPER_POTION")),
            ItemMsg::NoEffect
        );
        assert_eq!(
            apply_medicine(&mut m, effect("FULL_RESTORE")),
            ItemMsg::NoEffect
        );
        assert_eq!(
            apply_medicine(&mut m, effect("FULL_HEAL")),
            ItemMsg::NoEffect
        );
        assert_eq!(m, before, "a refused use changes nothing");
        assert_eq!(
            ItemMsg::Recovered { amount: 20 }.render("PIDGEY", "RED"),
            "PIDGEY recovered by 20!"
        );
    }

    #[test]
    fn status_heals_cure_only_their_status() {
        let mut m = mon("RATTATA", 10);
        m.status = Status::Poison;
        assert_eq!(
            apply_medicine(&mut m, effect("BURN_HEAL")),
            ItemMsg::NoEffect
        );
        assert_eq!(
            apply_medicine(&mut m, effect("ANTIDOTE")),
            ItemMsg::CuredPoison
        );
        assert!(m.status.is_none());
        for (status, item, msg) in [
            (Status::Burn, "BURN_HEAL", ItemMsg::CuredBurn),
            (Status::Freeze, "ICE_HEAL", ItemMsg::Defrosted),
            (Status::Sleep(3), "AWAKENING", ItemMsg::WokeUp),
            (Status::Paralysis, "PARLYZ_HEAL", ItemMsg::CuredParalysis),
            (Status::Sleep(1), "FULL_HEAL", ItemMsg::HealthReturned),
        ] {
            m.status = status;
            assert_eq!(apply_medicine(&mut m, effect(item)), msg, "{item}");
            assert!(m.status.is_none());
        }
        assert_eq!(
            apply_medicine(&mut m, effect("FULL_HEAL")),
            ItemMsg::NoEffect
        );
        m.status = Status::Paralysis;
        assert_eq!(
            apply_medicine(&mut m, effect("FULL_RESTORE")),
            ItemMsg::HealthReturned
        );
        m.hp -= 5;
        m.status = Status::Burn;
        assert_eq!(
            apply_medicine(&mut m, effect("FULL_RESTORE")),
            ItemMsg::Recovered { amount: 5 }
        );
        assert!(m.status.is_none());
    }

    #[test]
    fn revives_only_fainted_mons() {
        let mut m = mon("ODDISH", 12);
        let max = m.stats.max_hp;
        assert_eq!(apply_medicine(&mut m, effect("REVIVE")), ItemMsg::NoEffect);
        m.hp = 0;
        m.status = Status::Poison;
        assert_eq!(
            apply_medicine(&mut m, effect("REVIVE")),
            ItemMsg::Revitalized
        );
        assert_eq!((m.hp, m.status), (max / 2, Status::None));
        m.hp = 0;
        assert_eq!(
            apply_medicine(&mut m, effect("MAX_REVIVE")),
            ItemMsg::Revitalized
        );
        assert_eq!(m.hp, max);
    }

    #[test]
    fn rare_candy_grows_one_level_and_refuses_100() {
        let d = gen1();
        let mut m = mon("CATERPIE", 6);
        m.hp = 0;
        let old_max = m.stats.max_hp;
        assert_eq!(rare_candy(d, &mut m), Some(ItemMsg::GrewTo { level: 7 }));
        assert_eq!(m.level, 7);
        assert_eq!(m.exp, d.species(m.species).growth.exp_for_level(7));
        assert_eq!(m.hp, m.stats.max_hp - old_max, "the gain even at 0 HP");
        let mut top = mon("MEW", 100);
        assert_eq!(rare_candy(d, &mut top), None);
    }
}
