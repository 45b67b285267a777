//! Damage calculator (`pallet calc`): runs the battle's own damage path —
//! `Battle::calculate_damage` (damage vars with crit and scaling, the formula, STAB, type
//! matchups, the random factor) and, for fixed-damage moves, `Battle::apply_attack` — once per
//! random factor 217..=255, by feeding the factor byte through a scripted random source. No
//! second formula lives here.

use std::fmt;

use pallet_api::Runtime;

use crate::data::{Dataset, MoveEffect, MoveId, SpeciesId};
use crate::pokemon::{Dvs, Pokemon, StatExp};

use super::source::ScriptedRng;
use super::state::CurMove;
use super::{Battle, BattleKind, BattleMode, Side};

/// The random factors, in order.
pub const FACTORS: std::ops::RangeInclusive<u8> = 217..=255;

/// One calculation's inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CalcInput {
    pub attacker: SpeciesId,
    pub defender: SpeciesId,
    pub mv: MoveId,
    pub attacker_level: u8,
    pub defender_level: u8,
    pub crit: bool,
    /// Every DV of both mons.
    pub dv: u8,
    /// Every stat experience value of both mons.
    pub stat_exp: u16,
    /// Link (both sides' crits read party stats) or game rules (the attacker is the player, the
    /// defender the enemy: a crit recomputes the defender's stat without stat experience).
    pub mode: BattleMode,
}

/// A move whose damage does not come from a roll of the damage formula.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CalcError(pub String);

impl fmt::Display for CalcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CalcError {}

fn build_mon(data: &Dataset, species: SpeciesId, level: u8, dv: u8, stat_exp: u16) -> Pokemon {
    let mut mon = Pokemon::new(data, species, level, Dvs::uniform(dv));
    mon.stat_exp = StatExp {
        hp: stat_exp,
        atk: stat_exp,
        def: stat_exp,
        spe: stat_exp,
        spc: stat_exp,
    };
    mon.recompute_stats(data);
    mon.hp = mon.stats.max_hp;
    mon
}

/// The damage for every random factor 217..=255 in order; `[0]` when the move does no damage
/// (no power, or the defender is immune). The attacker is the player side and the defender the
/// enemy side of a wild battle, so the cartridge's side-specific crit quirk (the enemy's crit
/// stats are recomputed without stat experience) applies as in battle. Fixed-damage moves
/// (Seismic Toss, Night Shade, Sonic Boom, Dragon Rage, Super Fang) give their fixed amount for
/// every factor; moves with no formula roll at all (Psywave, one-hit KOs, Counter, Bide) are
/// an error.
pub fn damage_rolls(data: &'static Dataset, input: &CalcInput) -> Result<Vec<u16>, CalcError> {
    let md = data
        .get_move(input.mv)
        .ok_or_else(|| CalcError(format!("unknown move id {}", input.mv.0)))?;
    if data.get_species(input.attacker).is_none() || data.get_species(input.defender).is_none() {
        return Err(CalcError("unknown species".to_string()));
    }
    let fixed = match md.effect {
        MoveEffect::SuperFang => true,
        MoveEffect::SpecialDamage => match md.num {
            69 | 101 | 49 | 82 => true, // Seismic Toss, Night Shade, Sonic Boom, Dragon Rage
            _ => {
                return Err(CalcError(format!(
                    "{} deals a random amount, not a damage-formula roll",
                    md.name
                )))
            }
        },
        MoveEffect::Ohko | MoveEffect::Bide => {
            return Err(CalcError(format!(
                "{} does not use the damage formula",
                md.name
            )));
        }
        _ if md.num == 68 => {
            return Err(CalcError(
                "COUNTER does not use the damage formula".to_string(),
            ))
        }
        _ => false,
    };
    let attacker = build_mon(
        data,
        input.attacker,
        input.attacker_level,
        input.dv,
        input.stat_exp,
    );
    let defender = build_mon(
        data,
        input.defender,
        input.defender_level,
        input.dv,
        input.stat_exp,
    );
    let mut base = Battle::new(
        data,
        BattleKind::Wild,
        vec![attacker],
        vec![defender],
        ScriptedRng::new(&[]),
    );
    base.set_record_rows(false);
    base.set_mode(input.mode);
    base.bat_mut(Side::Player).cur = CurMove {
        id: md_id(md.num),
        effect: md.effect,
        power: md.power,
        ty: md.ty,
        accuracy: percent_to_byte(md.accuracy),
    };
    let rt = Runtime::default();
    let mut rolls = Vec::with_capacity(FACTORS.len());
    for factor in FACTORS {
        let mut b = base.clone();
        // `RandomizeDamage` rotates the byte right once; feed the byte that rotates to `factor`.
        b.rng = ScriptedRng::new(&[factor.rotate_left(1)]);
        b.crit = input.crit;
        b.move_missed = false;
        if !b.calculate_damage(&rt, Side::Player) || b.move_missed {
            return Ok(vec![0]);
        }
        if fixed {
            if md.effect == MoveEffect::SpecialDamage {
                // Read the fixed amount before it is clamped to the defender's HP.
                b.sides[Side::Enemy.idx()].mon_mut().hp = u16::MAX;
            }
            b.apply_attack(Side::Player);
        }
        rolls.push(b.last_damage);
    }
    Ok(rolls)
}

fn md_id(num: u16) -> MoveId {
    MoveId(num)
}

/// Accuracy percent as the cartridge's byte (`percent * 255 / 100`).
fn percent_to_byte(percent: u8) -> u8 {
    (u32::from(percent.min(100)) * 255 / 100) as u8
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::gen1;

    fn input(a: &str, d: &str, mv: &str, level: u8, crit: bool) -> CalcInput {
        let data = gen1();
        CalcInput {
            attacker: data.species_by_name(a).unwrap(),
            defender: data.species_by_name(d).unwrap(),
            mv: data.move_by_name(mv).unwrap(),
            attacker_level: level,
            defender_level: level,
            crit,
            dv: 15,
            stat_exp: 0,
            mode: BattleMode::Link,
        }
    }

    #[test]
    fn hand_computed_tackle() {
        // Rattata L5 (Atk ((56+15)*2)*5/100+5 = 12) tackles Pidgey L5 (Def (55*2)*5/100+5 = 10):
        // (2*5/5+2) * 35 * 12 / 10 / 50 = 3, +2 = 5, STAB 5 + 2 = 7; 7*f/255 for f in 217..=255.
        let rolls = damage_rolls(gen1(), &input("RATTATA", "PIDGEY", "TACKLE", 5, false)).unwrap();
        let mut want = vec![5, 5];
        want.extend(std::iter::repeat_n(6, 36));
        want.push(7);
        assert_eq!(rolls, want);
        // Critical hit: level doubles -> (20/5+2) * 35 * 12 / 10 / 50 = 5, +2 = 7, STAB 10.
        let rolls = damage_rolls(gen1(), &input("RATTATA", "PIDGEY", "TACKLE", 5, true)).unwrap();
        let mut want = vec![8; 13];
        want.extend(std::iter::repeat_n(9, 25));
        want.push(10);
        assert_eq!(rolls, want);
    }

    #[test]
    fn no_damage_and_fixed_damage() {
        let data = gen1();
        // Status move and type immunity: [0].
        assert_eq!(
            damage_rolls(data, &input("RATTATA", "PIDGEY", "GROWL", 5, false)).unwrap(),
            [0]
        );
        assert_eq!(
            damage_rolls(data, &input("RATTATA", "GASTLY", "TACKLE", 5, false)).unwrap(),
            [0]
        );
        // Fixed damage: Seismic Toss = level, Dragon Rage = 40 (not clamped to the HP).
        assert_eq!(
            damage_rolls(data, &input("MANKEY", "PIDGEY", "SEISMIC_TOSS", 30, false)).unwrap(),
            [30; 39]
        );
        assert_eq!(
            damage_rolls(data, &input("GYARADOS", "PIDGEY", "DRAGON_RAGE", 5, false)).unwrap(),
            [40; 39]
        );
        assert!(damage_rolls(data, &input("ABRA", "PIDGEY", "PSYWAVE", 5, false)).is_err());
        assert!(damage_rolls(data, &input("TAUROS", "PIDGEY", "HORN_DRILL", 5, false)).is_err());
    }
}
