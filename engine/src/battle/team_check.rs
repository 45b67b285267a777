//! Team-file validation for `pallet battle --p1/--p2`: every problem of a Showdown team file
//! listed at once, with a did-you-mean for unknown species and moves (Jaro–Winkler similarity,
//! `strsim`), and the fields Gen 1 does not have reported as warnings: `Ability:`, natures,
//! held items, `Tera Type:`, `Shiny:`, `Happiness:`, `EVs:` above 255.
//!
//! Each set (a block between blank lines) is parsed on its own by [`parse_team`], so a syntax
//! error in one set does not hide the problems of the others; line numbers stay those of the
//! file. What is checked per set: the species, every move (unknown, duplicate), the HP DV
//! against the other DVs, the level, the item (a warning: Gen 1 has no held items; the set is
//! used without it), whether the species can know each move at its level in Gen 1 (level-up,
//! TM/HM, tutor, event, pre-evolution: [`crate::data::learn`]) and whether an evolved species
//! is at least the level it evolves at.

use crate::data::learn::{check_move, min_level, LearnProblem};
use crate::data::{normalize_name, Dataset};
use crate::pokemon::Pokemon;

use super::teams::{build_mon, parse_team, SetSpec, TeamError, MAX_TEAM_SIZE};

/// The outcome of checking a team file.
#[derive(Clone, Debug, Default)]
pub struct TeamCheck {
    /// Problems that stop the team from being used, in line order.
    pub errors: Vec<TeamError>,
    /// Fields Gen 1 ignores, in line order.
    pub warnings: Vec<TeamError>,
    /// The team, when there is no error.
    pub team: Option<Vec<Pokemon>>,
}

/// Check a whole team file.
pub fn check_team(data: &Dataset, text: &str) -> TeamCheck {
    let mut out = TeamCheck::default();
    let lines: Vec<&str> = text.lines().collect();
    for (i, raw) in lines.iter().enumerate() {
        if let Some(w) = gen1_warning(raw.trim()) {
            out.warnings.push(TeamError {
                line: i + 1,
                message: w,
            });
        }
    }
    // Blocks of non-blank lines, parsed one by one with the file's line numbers.
    let mut mons = Vec::new();
    let mut start = None;
    let mut blocks = Vec::new();
    for (i, raw) in lines.iter().enumerate() {
        let blank = raw.trim().is_empty();
        match (blank, start) {
            (false, None) => start = Some(i),
            (true, Some(s)) => {
                blocks.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        blocks.push((s, lines.len()));
    }
    let mut sets = 0usize;
    for (s, e) in blocks {
        let body = &lines[s..e];
        if body.len() == 1 && body[0].trim().starts_with("===") {
            continue;
        }
        let mut padded = "\n".repeat(s);
        for l in body {
            padded.push_str(l);
            padded.push('\n');
        }
        match parse_team(&padded) {
            Ok(parsed) => {
                for mut set in parsed {
                    sets += 1;
                    if sets > MAX_TEAM_SIZE {
                        out.errors.push(TeamError {
                            line: set.line,
                            message: format!(
                                "a team holds at most {MAX_TEAM_SIZE} Pokémon; this is the {sets}th"
                            ),
                        });
                        continue;
                    }
                    if let Some(item) = set.item.take() {
                        out.warnings.push(TeamError {
                            line: set.line,
                            message: format!("Gen 1 has no held items; `@ {item}` is ignored"),
                        });
                    }
                    let before = out.errors.len();
                    check_names(data, &set, &mut out.errors);
                    if out.errors.len() == before {
                        check_legality(data, &set, &mut out.errors);
                        match build_mon(data, &set) {
                            Ok(m) => mons.push(m),
                            Err(e) => out.errors.push(e),
                        }
                    }
                }
            }
            Err(e) => out.errors.push(e),
        }
    }
    if sets == 0 && out.errors.is_empty() {
        out.errors.push(TeamError {
            line: 0,
            message: "the team file holds no Pokémon".to_string(),
        });
    }
    out.errors.sort_by_key(|e| e.line);
    out.warnings.sort_by_key(|e| e.line);
    if out.errors.is_empty() {
        out.team = Some(mons);
    }
    out
}

/// Unknown species and moves (all of them), with suggestions.
fn check_names(data: &Dataset, set: &SetSpec, errors: &mut Vec<TeamError>) {
    if data.species_by_name(&set.species).is_none() {
        let names = data.species.iter().map(|s| s.name);
        errors.push(TeamError {
            line: set.line,
            message: format!(
                "unknown species `{}`{}",
                set.species,
                did_you_mean(&set.species, names)
            ),
        });
    }
    for (line, name) in &set.moves {
        if data.move_by_name(name).is_none() {
            let names = data.moves.iter().map(|m| m.name);
            errors.push(TeamError {
                line: *line,
                message: format!("unknown move `{name}`{}", did_you_mean(name, names)),
            });
        }
    }
}

/// Moves the species cannot know at its level, and an evolved species below its evolution level
/// (names already resolved by [`check_names`]).
fn check_legality(data: &Dataset, set: &SetSpec, errors: &mut Vec<TeamError>) {
    let Some(sid) = data.species_by_name(&set.species) else {
        return;
    };
    let name = title(data.species(sid).name);
    let level_line = if set.level_line == 0 {
        set.line
    } else {
        set.level_line
    };
    if let Some(min) = min_level(data, sid) {
        if set.level < min.level {
            let why = match min.evolves_from {
                Some(p) => format!(
                    "it evolves from {} at that level at the earliest",
                    title(p.name)
                ),
                None => "it is met no lower in Gen 1".to_string(),
            };
            errors.push(TeamError {
                line: level_line,
                message: format!(
                    "{name} must be at least level {} ({why}); this one is level {}",
                    min.level, set.level
                ),
            });
        }
    }
    for (line, mv) in &set.moves {
        let Some(mid) = data.move_by_name(mv) else {
            continue;
        };
        let move_name = title(data.move_data(mid).name);
        let message = match check_move(data, sid, mid, set.level) {
            Ok(()) => continue,
            Err(LearnProblem::Never) => format!(
                "{name} cannot learn `{move_name}` in Gen 1 (not by level-up, TM/HM, tutor, event or from a pre-evolution)"
            ),
            Err(LearnProblem::TooLow { min_level }) => format!(
                "{name} learns `{move_name}` at level {min_level} at the earliest; this one is level {}",
                set.level
            ),
        };
        errors.push(TeamError {
            line: *line,
            message,
        });
    }
}

/// `" (did you mean `Thunderbolt`?)"` for the closest name, or `""` if nothing is close.
pub fn did_you_mean<'a>(query: &str, names: impl Iterator<Item = &'a str>) -> String {
    let q = normalize_name(query);
    let best = names
        .map(|n| (strsim::jaro_winkler(&q, &normalize_name(n)), n))
        .max_by(|a, b| a.0.total_cmp(&b.0));
    match best {
        Some((score, name)) if score >= 0.8 => format!(" (did you mean `{}`?)", title(name)),
        _ => String::new(),
    }
}

/// `"HI JUMP KICK"` → `"Hi Jump Kick"`.
fn title(name: &str) -> String {
    name.split(' ')
        .map(|w| {
            let mut c = w.chars();
            match c.next() {
                Some(f) => f
                    .to_uppercase()
                    .chain(c.flat_map(char::to_lowercase))
                    .collect(),
                None => String::new(),
            }
        })
        .collect::<Vec<String>>()
        .join(" ")
}

/// A line naming something Gen 1 does not have.
fn gen1_warning(line: &str) -> Option<String> {
    let key = |p: &str| line.len() > p.len() && line[..p.len()].eq_ignore_ascii_case(p);
    if key("Ability:") {
        return Some(format!("Gen 1 has no abilities; `{line}` is ignored"));
    }
    if line.ends_with(" Nature") && !line.starts_with('-') {
        return Some(format!("Gen 1 has no natures; `{line}` is ignored"));
    }
    for f in [
        "Tera Type:",
        "Shiny:",
        "Happiness:",
        "Dynamax Level:",
        "Gigantamax:",
    ] {
        if key(f) {
            return Some(format!(
                "Gen 1 has no {}; `{line}` is ignored",
                &f[..f.len() - 1]
            ));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::gen1;

    #[test]
    fn lists_every_problem_with_suggestions() {
        let text =
            "Pikachu @ Light Ball\nAbility: Static\nJolly Nature\n- Thunderbolt\n- Thunderbolt\n\n\
                    Charizrd\n- Flamethrower\n\nSnorlax\n- Bodyslam\n- Hyperbeem\n- Kamehameha\n";
        let c = check_team(gen1(), text);
        let errs: Vec<String> = c.errors.iter().map(ToString::to_string).collect();
        assert_eq!(
            errs,
            [
                "line 5: Pikachu knows `Thunderbolt` twice",
                "line 7: unknown species `Charizrd` (did you mean `Charizard`?)",
                "line 12: unknown move `Hyperbeem` (did you mean `Hyper Beam`?)",
                "line 13: unknown move `Kamehameha`",
            ],
        );
        let warns: Vec<String> = c.warnings.iter().map(ToString::to_string).collect();
        assert_eq!(
            warns,
            [
                "line 1: Gen 1 has no held items; `@ Light Ball` is ignored",
                "line 2: Gen 1 has no abilities; `Ability: Static` is ignored",
                "line 3: Gen 1 has no natures; `Jolly Nature` is ignored",
            ],
        );
        assert!(c.team.is_none());
    }

    #[test]
    fn a_good_team_passes_with_warnings_only() {
        let c = check_team(
            gen1(),
            "Tauros @ Leftovers\nAbility: No Ability\n- Body Slam\n",
        );
        assert!(c.errors.is_empty(), "{:?}", c.errors);
        assert_eq!(c.warnings.len(), 2);
        assert_eq!(c.team.unwrap().len(), 1);
        // Syntax errors in two sets are both reported.
        let c = check_team(
            gen1(),
            "Tauros\nLevel: 900\n- Body Slam\n\nChansey\nEVs: lots\n- Softboiled\n",
        );
        assert_eq!(c.errors.len(), 2, "{:?}", c.errors);
        assert_eq!((c.errors[0].line, c.errors[1].line), (2, 6));
    }

    #[test]
    fn unlearnable_moves_and_levels_are_all_listed() {
        let text = "Charizard\nLevel: 20\n- Surf\n- Flamethrower\n- Ember\n- Fly\n\n\
                    Raichu\nLevel: 10\n- Thunder Shock\n- Surf\n- Psychic\n\n\
                    Raticate\nLevel: 12\n- Tackle\n\n\
                    Snorlax\n- Body Slam\n- Surf\n- Psychic\n";
        let c = check_team(gen1(), text);
        let errs: Vec<String> = c.errors.iter().map(ToString::to_string).collect();
        assert_eq!(
            errs,
            [
                "line 2: Charizard must be at least level 36 (it evolves from Charmeleon at that level at the earliest); this one is level 20",
                "line 3: Charizard cannot learn `Surf` in Gen 1 (not by level-up, TM/HM, tutor, event or from a pre-evolution)",
                "line 4: Charizard learns `Flamethrower` at level 38 at the earliest; this one is level 20",
                "line 12: Raichu cannot learn `Psychic` in Gen 1 (not by level-up, TM/HM, tutor, event or from a pre-evolution)",
                "line 15: Raticate must be at least level 15 (it is met no lower in Gen 1); this one is level 12",
            ],
        );
        assert!(c.team.is_none());
    }
}
