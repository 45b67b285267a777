//! Gen 1 stat and experience arithmetic, following the cartridge's `CalcStat` routine.
//!
//! Every function here is pure integer arithmetic on plain numbers, so the battle engine can call
//! them on hot paths without allocating.

use crate::data::GrowthRate;

/// Highest value any stat can reach; `CalcStat` caps its result here.
pub const MAX_STAT_VALUE: u16 = 999;
/// Highest level a Pokémon can reach.
pub const MAX_LEVEL: u8 = 100;
/// Lowest level a Pokémon can have.
pub const MIN_LEVEL: u8 = 1;
/// Highest determinant value (DVs are 4-bit).
pub const MAX_DV: u8 = 15;

/// Which of the five Gen 1 stats is being computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatKind {
    Hp,
    Atk,
    Def,
    Spe,
    Spc,
}

/// The stat-experience bonus before the division by four: the cartridge's `ceil(sqrt(statExp))`.
///
/// `CalcStat` searches for the smallest `b >= 1` with `b * b >= statExp`, stopping at 255 without
/// testing it. The observable consequences are kept exactly: a stat exp of 0 yields 1 (not 0), and
/// every stat exp above `254 * 254` yields 255 (so 65535 gives 255, not 256).
#[inline]
pub fn stat_exp_root(stat_exp: u16) -> u8 {
    let target = u32::from(stat_exp);
    // Smallest b with b*b >= target, by integer square root plus a correction step.
    let mut b = integer_sqrt(target);
    if b * b < target {
        b += 1;
    }
    b.clamp(1, 255) as u8
}

/// Floor of the square root of `n` (exact for all `u32`).
#[inline]
fn integer_sqrt(n: u32) -> u32 {
    if n < 2 {
        return n;
    }
    // Newton's method on integers; starts above the root and decreases monotonically.
    let mut x = n;
    let mut y = x.div_ceil(2);
    while y < x {
        x = y;
        y = (x + n / x) / 2;
    }
    x
}

/// One stat by the cartridge formula:
/// `((base + dv) * 2 + stat_exp_root / 4) * level / 100 + 5`, or `+ level + 10` for HP,
/// capped at 999.
#[inline]
pub fn calc_stat(kind: StatKind, base: u8, dv: u8, stat_exp: u16, level: u8) -> u16 {
    let core = (u32::from(base) + u32::from(dv)) * 2 + u32::from(stat_exp_root(stat_exp) / 4);
    let level = u32::from(level);
    let scaled = core * level / 100;
    let value = match kind {
        StatKind::Hp => scaled + level + 10,
        _ => scaled + 5,
    };
    value.min(u32::from(MAX_STAT_VALUE)) as u16
}

/// The HP determinant, derived from the low bit of each of the other four DVs
/// (Attack → bit 3, Defense → bit 2, Speed → bit 1, Special → bit 0).
#[inline]
pub fn hp_dv(atk: u8, def: u8, spe: u8, spc: u8) -> u8 {
    ((atk & 1) << 3) | ((def & 1) << 2) | ((spe & 1) << 1) | (spc & 1)
}

/// Total experience needed to be at `level` on `growth` (level clamped to 1..=100).
#[inline]
pub fn exp_for_level(growth: GrowthRate, level: u8) -> u32 {
    growth.exp_for_level(level.clamp(MIN_LEVEL, MAX_LEVEL))
}

/// The level a Pokémon with `exp` total experience has on `growth`: the highest level whose
/// threshold is at most `exp` (1 when below every threshold, 100 at most).
pub fn level_for_exp(growth: GrowthRate, exp: u32) -> u8 {
    // Thresholds are monotonic in level; binary search over 1..=100.
    let (mut lo, mut hi) = (MIN_LEVEL, MAX_LEVEL);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if exp_for_level(growth, mid) <= exp {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo
}

/// Experience still needed to reach the next level (0 at level 100).
pub fn exp_to_next_level(growth: GrowthRate, level: u8, exp: u32) -> u32 {
    if level >= MAX_LEVEL {
        return 0;
    }
    exp_for_level(growth, level + 1).saturating_sub(exp)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_exp_root_matches_cartridge_search() {
        // Reference implementation: literally the cartridge's loop.
        fn cart(stat_exp: u16) -> u8 {
            let mut b: u32 = 0;
            loop {
                b += 1;
                if b == 255 {
                    return 255;
                }
                if b * b >= u32::from(stat_exp) {
                    return b as u8;
                }
            }
        }
        for s in 0..=u16::MAX {
            assert_eq!(stat_exp_root(s), cart(s), "stat exp {s}");
        }
        assert_eq!(stat_exp_root(0), 1);
        assert_eq!(stat_exp_root(1), 1);
        assert_eq!(stat_exp_root(2), 2);
        assert_eq!(stat_exp_root(64516), 254);
        assert_eq!(stat_exp_root(64517), 255);
        assert_eq!(stat_exp_root(65535), 255);
    }

    #[test]
    fn mewtwo_level_100_max_dvs_max_stat_exp() {
        // Mewtwo base stats 106/110/90/130/154; well-known RBY maxima 415/318/278/358/406.
        let l = 100;
        assert_eq!(calc_stat(StatKind::Hp, 106, 15, 65535, l), 415);
        assert_eq!(calc_stat(StatKind::Atk, 110, 15, 65535, l), 318);
        assert_eq!(calc_stat(StatKind::Def, 90, 15, 65535, l), 278);
        assert_eq!(calc_stat(StatKind::Spe, 130, 15, 65535, l), 358);
        assert_eq!(calc_stat(StatKind::Spc, 154, 15, 65535, l), 406);
    }

    #[test]
    fn low_level_hand_computed() {
        // Pidgey (40/45/40/56/35) L5, DVs 8/9/10/11 -> HP DV 0b0101 = 5, no stat exp.
        // HP: (45*2 + 0) * 5 / 100 + 5 + 10 = 90*5/100 = 4 -> 19
        assert_eq!(hp_dv(8, 9, 10, 11), 0b0101);
        assert_eq!(calc_stat(StatKind::Hp, 40, 5, 0, 5), 19);
        // Atk: (53*2) * 5 / 100 + 5 = 530/100 = 5 -> 10
        assert_eq!(calc_stat(StatKind::Atk, 45, 8, 0, 5), 10);
        // Spe: (66*2) * 5 / 100 + 5 = 660/100 = 6 -> 11
        assert_eq!(calc_stat(StatKind::Spe, 56, 10, 0, 5), 11);
        // Stat exp 100 -> root 10 -> +2: (53*2+2)*50/100+5 = 108*50/100 = 54 -> 59
        assert_eq!(calc_stat(StatKind::Atk, 45, 8, 100, 50), 59);
    }

    #[test]
    fn stats_cap_at_999() {
        // Base 255 at L100 peaks at 713 HP / 608 others; only glitch levels above 100 reach the cap.
        assert_eq!(calc_stat(StatKind::Hp, 255, 15, 65535, 100), 713);
        assert_eq!(calc_stat(StatKind::Atk, 255, 15, 65535, 100), 608);
        assert_eq!(calc_stat(StatKind::Atk, 255, 15, 65535, 255), 999);
        assert_eq!(calc_stat(StatKind::Hp, 200, 15, 65535, 200), 999);
    }

    #[test]
    fn hp_dv_bits() {
        assert_eq!(hp_dv(15, 15, 15, 15), 15);
        assert_eq!(hp_dv(0, 0, 0, 0), 0);
        assert_eq!(hp_dv(1, 0, 0, 0), 8);
        assert_eq!(hp_dv(0, 1, 0, 0), 4);
        assert_eq!(hp_dv(0, 0, 1, 0), 2);
        assert_eq!(hp_dv(0, 0, 0, 1), 1);
        assert_eq!(hp_dv(14, 14, 14, 14), 0);
    }

    #[test]
    fn level_and_exp_round_trip() {
        for growth in [
            GrowthRate::MediumFast,
            GrowthRate::SlightlyFast,
            GrowthRate::SlightlySlow,
            GrowthRate::MediumSlow,
            GrowthRate::Fast,
            GrowthRate::Slow,
        ] {
            for level in 2..=100u8 {
                let e = exp_for_level(growth, level);
                assert_eq!(level_for_exp(growth, e), level, "{growth:?} L{level}");
                assert_eq!(
                    level_for_exp(growth, e.saturating_sub(1)),
                    level - 1,
                    "{growth:?} L{level}-1"
                );
            }
            assert_eq!(level_for_exp(growth, u32::MAX), 100);
            assert_eq!(level_for_exp(growth, 0), 1);
        }
        // Hand values: Medium Fast L100 = 1,000,000; Slow L100 = 1,250,000; Medium Slow L100 = 1,059,860.
        assert_eq!(exp_for_level(GrowthRate::MediumFast, 100), 1_000_000);
        assert_eq!(exp_for_level(GrowthRate::Slow, 100), 1_250_000);
        assert_eq!(exp_for_level(GrowthRate::MediumSlow, 100), 1_059_860);
        assert_eq!(exp_for_level(GrowthRate::MediumSlow, 5), 135);
        assert_eq!(exp_to_next_level(GrowthRate::MediumFast, 5, 125), 216 - 125);
        assert_eq!(exp_to_next_level(GrowthRate::MediumFast, 100, 1_000_000), 0);
    }
}
