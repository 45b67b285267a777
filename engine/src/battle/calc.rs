//! Damage calculator (`pallet calc`): runs the battle's own damage path —
//! `Battle::calculate_damage` (damage vars with crit and scaling, the formula, STAB, type
//! matchups, the random factor) and, for fixed-damage moves, `Battle::apply_attack` — once per
//! random factor 217..=255, by feeding the factor byte through a scripted random source. No
//! second formula lives here. The presentation (% of HP, KO chance, the one-line description)
//! is `pallet calc`'s (`script-host/src/cli/calc_report.rs`).

use std::fmt;

use pallet_api::Runtime;

use crate::data::{Dataset, MoveEffect, MoveId, SpeciesId};
use crate::pokemon::{Dvs, Pokemon, StatExp, Status};

use super::source::ScriptedRng;
use super::state::{CurMove, STAGE_RATIOS};
use super::{Battle, BattleKind, BattleMode, Side};

/// The random factors, in order.
pub const FACTORS: std::ops::RangeInclusive<u8> = 217..=255;

/// One side of a calculation: the mon (species, level, DVs, stat experience, status — a burn
/// halves the attacker's Attack) and its stat stages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CalcSide {
    pub mon: Pokemon,
    /// Attack, Defense, Speed, Special, Accuracy, Evasion stages, -6..=6 (0 neutral).
    pub stages: [i8; 6],
}

impl CalcSide {
    /// A mon with uniform DVs and stat experience, full HP, no stages.
    pub fn new(data: &Dataset, species: SpeciesId, level: u8, dv: u8, stat_exp: u16) -> CalcSide {
        CalcSide {
            mon: build_mon(data, species, level, dv, stat_exp),
            stages: [0; 6],
        }
    }

    /// The side's mon as given (e.g. from a Showdown set), at full HP, no stages.
    pub fn from_mon(data: &Dataset, mut mon: Pokemon) -> CalcSide {
        mon.recompute_stats(data);
        mon.hp = mon.stats.max_hp;
        CalcSide {
            mon,
            stages: [0; 6],
        }
    }
}

/// One calculation's inputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CalcInput {
    pub attacker: CalcSide,
    pub defender: CalcSide,
    pub mv: MoveId,
    pub crit: bool,
    /// Reflect / Light Screen up on the defender's side.
    pub reflect: bool,
    pub light_screen: bool,
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

/// A mon with uniform DVs and stat experience at full HP.
pub fn build_mon(data: &Dataset, species: SpeciesId, level: u8, dv: u8, stat_exp: u16) -> Pokemon {
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

/// How many times the move hits: `(fewest, most)`; `(1, 1)` for single-hit moves. Every hit
/// of a Gen 1 multi-hit move deals the damage of the first.
pub fn hit_range(data: &Dataset, mv: MoveId) -> (u8, u8) {
    match data.get_move(mv).map(|m| m.effect) {
        Some(MoveEffect::TwoToFiveAttacks) => (2, 5),
        Some(MoveEffect::AttackTwice | MoveEffect::Twineedle) => (2, 2),
        _ => (1, 1),
    }
}

/// Does the move deal a fixed amount (Seismic Toss, Night Shade, Sonic Boom, Dragon Rage, Super
/// Fang) rather than a formula roll?
pub fn is_fixed_damage(data: &Dataset, mv: MoveId) -> bool {
    data.get_move(mv).is_some_and(|md| {
        md.effect == MoveEffect::SuperFang
            || (md.effect == MoveEffect::SpecialDamage && matches!(md.num, 69 | 101 | 49 | 82))
    })
}

/// The damage of one hit for every random factor 217..=255 in order; `[0]` when the move does
/// no damage (no power, or the defender is immune). The attacker is side 1 and the defender
/// side 2 of a battle in `input.mode` (in game mode the cartridge's side-specific crit quirk
/// applies: the defender's crit stat is recomputed without stat experience). Stages are applied
/// as the stat-stage effects apply them (ratio, 1..=999), then the burn's halved Attack; a crit
/// ignores stages, burn and screens, as on the cartridge. Fixed-damage moves (Seismic Toss,
/// Night Shade, Sonic Boom, Dragon Rage, Super Fang) give their fixed amount for every factor;
/// moves with no formula roll at all (Psywave, one-hit KOs, Counter, Bide) are an error.
pub fn damage_rolls(data: &'static Dataset, input: &CalcInput) -> Result<Vec<u16>, CalcError> {
    let md = data
        .get_move(input.mv)
        .ok_or_else(|| CalcError(format!("unknown move id {}", input.mv.0)))?;
    if data.get_species(input.attacker.mon.species).is_none()
        || data.get_species(input.defender.mon.species).is_none()
    {
        return Err(CalcError("unknown species".to_string()));
    }
    let fixed = is_fixed_damage(data, input.mv);
    match md.effect {
        MoveEffect::SpecialDamage if !fixed => {
            return Err(CalcError(format!(
                "{} deals a random amount, not a damage-formula roll",
                md.name
            )))
        }
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
        _ => {}
    }
    let mut base = Battle::new(
        data,
        BattleKind::Wild,
        vec![input.attacker.mon.clone()],
        vec![input.defender.mon.clone()],
        ScriptedRng::new(&[]),
    );
    base.set_record_rows(false);
    base.set_mode(input.mode);
    for (side, cs) in [
        (Side::Player, &input.attacker),
        (Side::Enemy, &input.defender),
    ] {
        let b = base.bat_mut(side);
        for (i, &st) in cs.stages.iter().enumerate() {
            b.stages[i] = (7 + st.clamp(-6, 6)) as u8;
        }
        for i in 0..4 {
            let (n, d) = STAGE_RATIOS[usize::from(b.stages[i] - 1)];
            b.stats[i] = (u32::from(b.unmod[i]) * u32::from(n) / u32::from(d)).clamp(1, 999) as u16;
        }
        if matches!(cs.mon.status, Status::Burn) {
            b.stats[0] = (b.stats[0] >> 1).max(1);
        }
    }
    base.sides[Side::Enemy.idx()].screens.reflect = input.reflect;
    base.sides[Side::Enemy.idx()].screens.light_screen = input.light_screen;
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
        if fixed {
            // As in battle (`Stage::CalcDamage`): no crit, no formula, no type matchup; the
            // amount comes from `apply_attack`.
            b.crit = false;
            if md.effect == MoveEffect::SpecialDamage {
                // Read the fixed amount before it is clamped to the defender's HP.
                b.sides[Side::Enemy.idx()].mon_mut().hp = u16::MAX;
            }
            b.apply_attack(Side::Player);
            rolls.push(b.last_damage);
            continue;
        }
        if !b.calculate_damage(&rt, Side::Player) || b.move_missed {
            return Ok(vec![0]);
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
            attacker: CalcSide::new(data, data.species_by_name(a).unwrap(), level, 15, 0),
            defender: CalcSide::new(data, data.species_by_name(d).unwrap(), level, 15, 0),
            mv: data.move_by_name(mv).unwrap(),
            crit,
            reflect: false,
            light_screen: false,
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
        // Fixed damage ignores type immunity (Night Shade on a Normal, Sonic Boom on a Ghost).
        assert_eq!(
            damage_rolls(data, &input("GASTLY", "RATTATA", "NIGHT_SHADE", 20, false)).unwrap(),
            [20; 39]
        );
        assert_eq!(
            damage_rolls(data, &input("VOLTORB", "GASTLY", "SONICBOOM", 20, true)).unwrap(),
            [20; 39]
        );
        assert!(damage_rolls(data, &input("ABRA", "PIDGEY", "PSYWAVE", 5, false)).is_err());
        assert!(damage_rolls(data, &input("TAUROS", "PIDGEY", "HORN_DRILL", 5, false)).is_err());
    }

    #[test]
    fn stages_burn_and_screens() {
        let data = gen1();
        let plain =
            damage_rolls(data, &input("TAUROS", "CHANSEY", "BODY_SLAM", 100, false)).unwrap();
        let mut i = input("TAUROS", "CHANSEY", "BODY_SLAM", 100, false);
        i.attacker.stages[0] = 2;
        let boosted = damage_rolls(data, &i).unwrap();
        assert!(boosted[0] > plain[0] * 3 / 2);
        i.attacker.mon.status = Status::Burn;
        let burned = damage_rolls(data, &i).unwrap();
        assert!(burned[0] < boosted[0] * 2 / 3);
        // A crit ignores stages, burn and Reflect.
        i.crit = true;
        i.reflect = true;
        let crit = damage_rolls(data, &i).unwrap();
        let mut c = input("TAUROS", "CHANSEY", "BODY_SLAM", 100, true);
        assert_eq!(crit, damage_rolls(data, &c).unwrap());
        c.crit = false;
        c.reflect = true;
        assert!(damage_rolls(data, &c).unwrap()[0] < plain[0] * 2 / 3);
        assert_eq!(
            hit_range(data, data.move_by_name("DOUBLE_KICK").unwrap()),
            (2, 2)
        );
        assert_eq!(
            hit_range(data, data.move_by_name("SPIKE_CANNON").unwrap()),
            (2, 5)
        );
    }
}
