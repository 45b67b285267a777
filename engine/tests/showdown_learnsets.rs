//! Pallet's Gen 1 team legality against Pokémon Showdown's Gen 1 team validator: every row of
//! `tests/data/showdown_learnsets.tsv` (made by `tools/showdown-fidelity/learnsets.js` with
//! `@pkmn/sim`) is one (species, level, move) set and Showdown's verdict; Pallet's
//! `data::learn` must give the same one, except for the documented deviations below.

use pallet_engine::data::learn::{check_move, min_level, LearnProblem};
use pallet_engine::data::{gen1, EvolutionTrigger};

const TABLE: &str = include_str!("data/showdown_learnsets.tsv");

/// Sets where Pallet deliberately differs from Showdown, with the reason:
/// - Start moves that pret/pokered's base-stats table gives a species but `@pkmn/dex` does not
///   list as a Gen 1 level-1 move (Showdown: "can't be transferred from Gen 2 to 1"): Pallet
///   takes the cartridge's side; a Pokémon can know them.
/// - The minimum level through a stone or trade evolution: Pallet carries the pre-evolution's
///   minimum over (a Vaporeon is at least 25, the level Eevee is met at; a Gengar at least 20,
///   the level Haunter is met at); Showdown checks only the species' own evolution level.
///   Accepted only when the move verdicts agree.
///
/// (see docs/decisions.md)
fn deviation(species: &str, mv: &str, want: &str, got: &str) -> bool {
    let d = gen1();
    let (Some(s), Some(m)) = (d.species_by_name(species), d.move_by_name(mv)) else {
        return false;
    };
    if d.species(s).start_moves.contains(&m) {
        return true;
    }
    let learn = |v: &str| v.split(" min ").next().unwrap_or("").to_string();
    let through_stone_or_trade = min_level(d, s).is_some_and(|min| {
        min.evolves_from.is_some_and(|p| {
            p.evolutions.iter().any(|e| {
                e.into == d.species(s).id && !matches!(e.trigger, EvolutionTrigger::Level(_))
            })
        })
    });
    learn(want) == learn(got) && through_stone_or_trade
}

fn pallet_verdict(species: &str, level: u8, mv: &str) -> String {
    let d = gen1();
    let s = d
        .species_by_name(species)
        .unwrap_or_else(|| panic!("species {species}"));
    let m = d.move_by_name(mv).unwrap_or_else(|| panic!("move {mv}"));
    let mut out = match check_move(d, s, m, level) {
        Ok(()) => "ok".to_string(),
        Err(LearnProblem::Never) => "never".to_string(),
        Err(LearnProblem::TooLow { min_level }) => format!("level {min_level}"),
    };
    if let Some(min) = min_level(d, s) {
        if level < min.level {
            out.push_str(&format!(" min {}", min.level));
        }
    }
    out
}

#[test]
fn team_legality_matches_showdowns_validator() {
    let mut rows = 0;
    let mut kinds = std::collections::BTreeMap::new();
    let mut bad = Vec::new();
    let mut deviations = 0;
    for line in TABLE
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f.len(), 4, "bad row {line}");
        let level: u8 = f[1].parse().unwrap();
        let want = f[3];
        let got = pallet_verdict(f[0], level, f[2]);
        rows += 1;
        *kinds.entry(want.split(' ').next().unwrap()).or_insert(0) += 1;
        if got != want && deviation(f[0], f[2], want, &got) {
            deviations += 1;
        } else if got != want {
            bad.push(format!(
                "{} L{level} {}: Showdown `{want}`, Pallet `{got}`",
                f[0], f[2]
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {rows} differ:\n{}",
        bad.len(),
        bad.join("\n")
    );
    assert!(rows >= 500, "only {rows} rows");
    // Few rows differ, each by a documented deviation.
    assert!(deviations <= 20, "{deviations} deviations");
    println!("{rows} sets, {deviations} documented deviations");
    // The table exercises every verdict.
    for k in ["ok", "never", "level"] {
        assert!(
            kinds.get(k).copied().unwrap_or(0) >= 20,
            "few `{k}` rows: {kinds:?}"
        );
    }
    assert!(TABLE.contains(" min "), "no minimum-level rows");
}
