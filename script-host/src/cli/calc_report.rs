//! `pallet calc`'s report, as players read @smogon/calc: the damage range of the move (all hits
//! of a multi-hit move), its share of the defender's HP, the KO chance, and the one-line
//! description (`Tauros Body Slam vs. Chansey: 251-295 (35.7 - 41.9%) -- guaranteed 3HKO`).
//!
//! The rolls come from the battle engine's own damage path ([`damage_rolls`]); this module only
//! presents them. The text follows @smogon/calc's conventions: percentages are rounded down to
//! a tenth, the KO chance is exact for one to four hits (independent rolls) and, from five to
//! nine hits, "guaranteed" when the lowest roll suffices and "possible" when only the highest
//! does; a Gen 1 multi-hit move deals the first hit's damage on every hit, so its total is the
//! per-hit roll times the hit count (no independent rolls).

use pallet_engine::battle::calc::{damage_rolls, hit_range, is_fixed_damage, CalcError, CalcInput};
use pallet_engine::data::{Dataset, MoveId, SpeciesId};
use pallet_engine::pokemon::Status;
use serde::Serialize;

use crate::cli::calc_names;

/// Showdown's display name of a species (`Mr. Mime`, `Nidoran-F`); the dataset id otherwise.
pub fn species_name(data: &Dataset, id: SpeciesId) -> String {
    calc_names::SPECIES
        .iter()
        .find(|n| data.species_by_name(n) == Some(id))
        .map(|n| n.to_string())
        .unwrap_or_else(|| data.get_species(id).map_or("?", |s| s.name).to_string())
}

/// Showdown's display name of a move (`Double-Edge`, `Thunder Shock`).
pub fn move_name(data: &Dataset, id: MoveId) -> String {
    calc_names::MOVES
        .iter()
        .find(|n| data.move_by_name(n) == Some(id))
        .map(|n| n.to_string())
        .unwrap_or_else(|| data.get_move(id).map_or("?", |m| m.name).to_string())
}

/// One side as reported.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SideReport {
    pub species: String,
    pub level: u8,
    /// Atk, Def, Spe, Spc, HP.
    pub dvs: [u8; 5],
    /// HP, Atk, Def, Spe, Spc.
    pub stat_exp: [u16; 5],
    /// HP, Atk, Def, Spe, Spc (party stats, before stages).
    pub stats: [u16; 5],
    /// Atk, Def, Spe, Spc, Accuracy, Evasion.
    pub stages: [i8; 6],
    pub burned: bool,
}

/// The KO chance as @smogon/calc states it.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct KoChance {
    /// 0..=1; `None` for a "possible" KO (five or more hits, not guaranteed).
    pub chance: Option<f64>,
    /// Hits (turns) to KO; 0 when no KO within nine.
    pub n: u8,
    pub text: String,
}

/// Everything `pallet calc --json` prints.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct CalcReport {
    pub mode: &'static str,
    pub attacker: SideReport,
    pub defender: SideReport,
    #[serde(rename = "move")]
    pub mv: String,
    pub move_type: String,
    pub power: u8,
    pub category: &'static str,
    pub fixed_damage: bool,
    /// Fewest and most hits of the move; `hits` is the count the totals use.
    pub hit_range: [u8; 2],
    pub hits: u8,
    pub crit: bool,
    pub reflect: bool,
    pub light_screen: bool,
    /// One hit's damage for each random factor 217..=255, without and with a critical hit.
    pub rolls: Vec<u16>,
    pub crit_rolls: Vec<u16>,
    /// Total damage (all hits) of the described case (`crit` picks the rolls).
    pub min: u32,
    pub max: u32,
    pub defender_hp: u16,
    /// Share of the defender's HP, rounded down to a tenth of a percent.
    pub min_percent: f64,
    pub max_percent: f64,
    pub ko: KoChance,
    pub desc: String,
}

/// Compute the report; `hits` picks the count for a 2-to-5 move (clamped into its range; the
/// default 3 is @smogon/calc's).
pub fn report(
    data: &'static Dataset,
    input: &CalcInput,
    hits: Option<u8>,
) -> Result<CalcReport, CalcError> {
    let mut plain = input.clone();
    plain.crit = false;
    let mut critical = input.clone();
    critical.crit = true;
    let rolls = damage_rolls(data, &plain)?;
    let crit_rolls = damage_rolls(data, &critical)?;
    let md = data.move_data(input.mv);
    let (lo, hi) = hit_range(data, input.mv);
    let hits = hits.unwrap_or(if hi > 2 { 3 } else { hi }).clamp(lo, hi);
    let fixed = is_fixed_damage(data, input.mv);
    let physical = md.ty.is_physical();
    let used = if input.crit { &crit_rolls } else { &rolls };
    let totals: Vec<u32> = used
        .iter()
        .map(|&d| u32::from(d) * u32::from(hits))
        .collect();
    let min = totals.first().copied().unwrap_or(0);
    let max = totals.last().copied().unwrap_or(0);
    let hp = input.defender.mon.stats.max_hp;
    let ko = if max == 0 {
        KoChance {
            chance: Some(0.0),
            n: 0,
            text: String::new(),
        }
    } else {
        ko_chance(&totals, u32::from(hp))
    };
    let side = |s: &pallet_engine::battle::calc::CalcSide| {
        let m = &s.mon;
        SideReport {
            species: species_name(data, m.species),
            level: m.level,
            dvs: [m.dvs.atk, m.dvs.def, m.dvs.spe, m.dvs.spc, m.dvs.hp()],
            stat_exp: [
                m.stat_exp.hp,
                m.stat_exp.atk,
                m.stat_exp.def,
                m.stat_exp.spe,
                m.stat_exp.spc,
            ],
            stats: [
                m.stats.max_hp,
                m.stats.atk,
                m.stats.def,
                m.stats.spe,
                m.stats.spc,
            ],
            stages: s.stages,
            burned: matches!(m.status, Status::Burn),
        }
    };
    let attacker = side(&input.attacker);
    let defender = side(&input.defender);
    let mut r = CalcReport {
        mode: input.mode.as_str(),
        mv: move_name(data, input.mv),
        move_type: format!("{:?}", md.ty),
        power: md.power,
        category: if physical { "physical" } else { "special" },
        fixed_damage: fixed,
        hit_range: [lo, hi],
        hits,
        crit: input.crit,
        reflect: input.reflect,
        light_screen: input.light_screen,
        rolls,
        crit_rolls,
        min,
        max,
        defender_hp: hp,
        min_percent: tenths(min, hp) as f64 / 10.0,
        max_percent: tenths(max, hp) as f64 / 10.0,
        ko,
        desc: String::new(),
        attacker,
        defender,
    };
    r.desc = describe(&r);
    Ok(r)
}

/// `damage * 1000 / hp` rounded down (tenths of a percent).
fn tenths(damage: u32, hp: u16) -> u64 {
    u64::from(damage) * 1000 / u64::from(hp.max(1))
}

/// A tenth-of-a-percent figure as JavaScript prints the number (`35.7`, `11`).
fn show_tenths(t: u64) -> String {
    if t % 10 == 0 {
        format!("{}", t / 10)
    } else {
        format!("{}.{}", t / 10, t % 10)
    }
}

/// A probability as @smogon/calc rounds it: tenths of a percent, within 0.1..=99.9.
fn show_chance(c: f64) -> String {
    let t = ((c * 1000.0 + 0.5).floor()).clamp(1.0, 999.0) as u64;
    show_tenths(t)
}

/// The chance that `hits` independent draws from `damage` (sorted, equally likely) total at
/// least `hp` — @smogon/calc's recursion, kept in its order so the float result is the same.
fn chance_to_ko(damage: &[u32], hp: i64, hits: u32) -> f64 {
    let n = damage.len();
    if hits == 1 {
        for (i, &d) in damage.iter().enumerate() {
            if i64::from(damage[n - 1]) < hp {
                return 0.0;
            }
            if i64::from(d) >= hp {
                return (n - i) as f64 / n as f64;
            }
        }
    }
    let mut sum = 0.0;
    let mut last = 0.0;
    for i in 0..n {
        let c = if i == 0 || damage[i] != damage[i - 1] {
            chance_to_ko(damage, hp - i64::from(damage[i]), hits - 1)
        } else {
            last
        };
        if c == 1.0 {
            sum += (n - i) as f64;
            break;
        }
        sum += c;
        last = c;
    }
    sum / n as f64
}

/// @smogon/calc's KO statement for a move used repeatedly (no hazards or end-of-turn damage).
pub fn ko_chance(damage: &[u32], hp: u32) -> KoChance {
    let hp_i = i64::from(hp);
    let label = |n: u8| {
        if n == 1 {
            "OHKO".to_string()
        } else {
            format!("{n}HKO")
        }
    };
    if damage.is_empty() {
        return KoChance {
            chance: Some(0.0),
            n: 0,
            text: String::new(),
        };
    }
    if damage[0] >= hp {
        return KoChance {
            chance: Some(1.0),
            n: 1,
            text: "guaranteed OHKO".to_string(),
        };
    }
    for n in 1..=4u8 {
        let c = chance_to_ko(damage, hp_i, u32::from(n));
        if c > 0.0 {
            let text = if c == 1.0 {
                format!("guaranteed {}", label(n))
            } else {
                format!("{}% chance to {}", show_chance(c), label(n))
            };
            return KoChance {
                chance: Some(c),
                n,
                text,
            };
        }
    }
    let (lo, hi) = (damage[0], damage[damage.len() - 1]);
    for n in 5..=9u8 {
        if u64::from(lo) * u64::from(n) >= u64::from(hp) {
            return KoChance {
                chance: Some(1.0),
                n,
                text: format!("guaranteed {}", label(n)),
            };
        }
        if u64::from(hi) * u64::from(n) >= u64::from(hp) {
            return KoChance {
                chance: None,
                n,
                text: format!("possible {}", label(n)),
            };
        }
    }
    KoChance {
        chance: Some(0.0),
        n: 0,
        text: String::new(),
    }
}

/// The one-line description, in @smogon/calc's words.
pub fn describe(r: &CalcReport) -> String {
    let (a, d) = (&r.attacker, &r.defender);
    let (alv, dlv) = if a.level != d.level {
        (
            (a.level != 100).then(|| format!("Lvl {}", a.level)),
            (d.level != 100).then(|| format!("Lvl {}", d.level)),
        )
    } else {
        let l = (![100, 50, 5].contains(&a.level)).then(|| format!("Lvl {}", a.level));
        (l.clone(), l)
    };
    let physical = r.category == "physical";
    // Modifiers are described only when they counted: not on a crit, not for fixed damage.
    let mods = !r.crit && !r.fixed_damage;
    let stage = |s: i8| -> Option<String> {
        match s {
            0 => None,
            s if s > 0 => Some(format!("+{s}")),
            s => Some(format!("{s}")),
        }
    };
    let mut out = String::new();
    let word = |out: &mut String, w: Option<String>| {
        if let Some(w) = w {
            out.push_str(&w);
            out.push(' ');
        }
    };
    if mods {
        word(
            &mut out,
            stage(if physical { a.stages[0] } else { a.stages[3] }),
        );
    }
    word(&mut out, alv);
    if mods && physical && a.burned {
        word(&mut out, Some("burned".to_string()));
    }
    word(&mut out, Some(a.species.clone()));
    word(&mut out, Some(r.mv.clone()));
    if r.hits > 1 {
        word(&mut out, Some(format!("({} hits)", r.hits)));
    }
    out.push_str("vs. ");
    if mods {
        word(
            &mut out,
            stage(if physical { d.stages[1] } else { d.stages[3] }),
        );
    }
    word(&mut out, dlv);
    out.push_str(&d.species);
    if mods && physical && r.reflect {
        out.push_str(" through Reflect");
    } else if mods && !physical && r.light_screen {
        out.push_str(" through Light Screen");
    }
    if r.crit && !r.fixed_damage {
        out.push_str(" on a critical hit");
    }
    let hp = r.defender_hp;
    out.push_str(&format!(
        ": {}-{} ({} - {}%)",
        r.min,
        r.max,
        show_tenths(tenths(r.min, hp)),
        show_tenths(tenths(r.max, hp))
    ));
    if !r.ko.text.is_empty() {
        out.push_str(" -- ");
        out.push_str(&r.ko.text);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ko_statements() {
        assert_eq!(ko_chance(&[100, 120], 90).text, "guaranteed OHKO");
        assert_eq!(ko_chance(&[80, 100], 90).text, "50% chance to OHKO");
        assert_eq!(ko_chance(&[50, 60], 100).text, "guaranteed 2HKO");
        assert_eq!(ko_chance(&[45, 50, 55], 100).text, "66.7% chance to 2HKO");
        assert_eq!(ko_chance(&[20, 21], 100).text, "guaranteed 5HKO");
        assert_eq!(ko_chance(&[19, 21], 100).text, "possible 5HKO");
        assert_eq!(ko_chance(&[1, 2], 100).text, "");
        assert_eq!(show_tenths(357), "35.7");
        assert_eq!(show_tenths(110), "11");
        assert_eq!(show_chance(0.0001), "0.1");
        assert_eq!(show_chance(0.99999), "99.9");
    }
}
