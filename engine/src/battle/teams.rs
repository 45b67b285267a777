//! Pokémon Showdown team import ("export format") for Gen 1 battles.
//!
//! The text format is the one Showdown's teambuilder exports:
//!
//! ```text
//! Nickname (Species) @ Item
//! Level: 50
//! EVs: 252 HP / 252 Atk / 4 Spe
//! IVs: 30 Atk / 28 Def
//! - Move One
//! - Move Two
//! ```
//!
//! Sets are separated by blank lines; `=== [format] Name ===` team headers are accepted (one team
//! per file). Mapping to Gen 1 follows Showdown's own Gen 1 conversion:
//!
//! * **IVs → DVs:** `DV = IV / 2` (Showdown stores Gen 1/2 DVs doubled). An `IVs:` line starts from
//!   31 everywhere, like Showdown's importer. The HP DV is derived from the other four; an HP IV
//!   that disagrees is an error (Showdown's validator rejects it too). Special comes from `SpA`;
//!   `SpD` is ignored, as Showdown overwrites it with `SpA` in Gen 1.
//! * **EVs → stat experience:** Showdown's Gen 1/2 EVs (0..=255 each, no total cap) stand for
//!   `ceil(sqrt(stat exp))`, so `stat exp = EV²` reproduces every stat exactly. With no `EVs:` line
//!   every EV is 252 (Showdown's Gen 1/2 default); an `EVs:` line starts from 0.
//! * **PP:** Showdown plays every move with three PP Ups, so imported moves get three.
//! * Level defaults to 100. Lines that mean nothing in Gen 1 (`Ability:`, `Shiny:`, `Happiness:`,
//!   `Tera Type:`, `… Nature`, gender markers) are accepted and ignored.
//!
//! Every error names its 1-based line.

use std::fmt;

use crate::data::{Dataset, MoveId, SpeciesId};
use crate::pokemon::{Dvs, Pokemon, StatExp, MOVE_SLOTS};

/// Largest team the format accepts (a Gen 1 party).
pub const MAX_TEAM_SIZE: usize = 6;
/// Cartridge nickname limit.
pub const MAX_NICKNAME_LEN: usize = 10;
/// Showdown's default Gen 1/2 EV when no `EVs:` line is given.
pub const DEFAULT_EV: u8 = 252;
/// Showdown's default IV.
pub const DEFAULT_IV: u8 = 31;

/// A team-file error with its 1-based line number (0 when it concerns the whole file).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TeamError {
    pub line: usize,
    pub message: String,
}

impl TeamError {
    fn at(line: usize, message: impl Into<String>) -> TeamError {
        TeamError {
            line,
            message: message.into(),
        }
    }
}

impl fmt::Display for TeamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.message)
        } else {
            write!(f, "line {}: {}", self.line, self.message)
        }
    }
}

impl std::error::Error for TeamError {}

/// Showdown's six stat slots, in its order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ShowdownStat {
    Hp,
    Atk,
    Def,
    Spa,
    Spd,
    Spe,
}

impl ShowdownStat {
    fn parse(name: &str) -> Option<ShowdownStat> {
        Some(match name_key(name).as_str() {
            "hp" => ShowdownStat::Hp,
            "atk" | "attack" => ShowdownStat::Atk,
            "def" | "defense" => ShowdownStat::Def,
            "spa" | "spatk" | "specialattack" | "spc" | "special" => ShowdownStat::Spa,
            "spd" | "spdef" | "specialdefense" => ShowdownStat::Spd,
            "spe" | "speed" => ShowdownStat::Spe,
            _ => return None,
        })
    }

    fn index(self) -> usize {
        self as usize
    }

    fn label(self) -> &'static str {
        ["HP", "Atk", "Def", "SpA", "SpD", "Spe"][self.index()]
    }
}

/// One set as written in the file, before names are resolved against a dataset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetSpec {
    /// Line of the species line.
    pub line: usize,
    pub nickname: Option<String>,
    pub species: String,
    pub item: Option<String>,
    pub level: u8,
    /// Line of the `Level:` entry (for error messages), 0 if absent.
    pub level_line: usize,
    /// HP, Atk, Def, SpA, SpD, Spe.
    pub evs: [u8; 6],
    pub ivs: [u8; 6],
    /// Whether the HP IV was written explicitly (and where).
    pub hp_iv_line: Option<usize>,
    pub ivs_line: usize,
    /// Move names with their lines.
    pub moves: Vec<(usize, String)>,
}

impl SetSpec {
    fn new(
        line: usize,
        nickname: Option<String>,
        species: String,
        item: Option<String>,
    ) -> SetSpec {
        SetSpec {
            line,
            nickname,
            species,
            item,
            level: 100,
            level_line: 0,
            evs: [DEFAULT_EV; 6],
            ivs: [DEFAULT_IV; 6],
            hp_iv_line: None,
            ivs_line: 0,
            moves: Vec::new(),
        }
    }

    /// DVs by Showdown's Gen 1 rule (`IV / 2`, Special from SpA).
    pub fn dvs(&self) -> Dvs {
        Dvs {
            atk: self.ivs[ShowdownStat::Atk.index()] / 2,
            def: self.ivs[ShowdownStat::Def.index()] / 2,
            spe: self.ivs[ShowdownStat::Spe.index()] / 2,
            spc: self.ivs[ShowdownStat::Spa.index()] / 2,
        }
    }

    /// Stat experience: `EV²` (Special from SpA).
    pub fn stat_exp(&self) -> StatExp {
        let se = |s: ShowdownStat| {
            let ev = u16::from(self.evs[s.index()]);
            ev * ev
        };
        StatExp {
            hp: se(ShowdownStat::Hp),
            atk: se(ShowdownStat::Atk),
            def: se(ShowdownStat::Def),
            spe: se(ShowdownStat::Spe),
            spc: se(ShowdownStat::Spa),
        }
    }
}

/// Field and stat keys compare case- and punctuation-insensitively (`Sp. Atk` = `spatk`).
fn name_key(s: &str) -> String {
    s.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// Parse the text into sets without looking names up.
pub fn parse_team(text: &str) -> Result<Vec<SetSpec>, TeamError> {
    let mut sets: Vec<SetSpec> = Vec::new();
    let mut current: Option<SetSpec> = None;
    let mut headers = 0usize;
    for (idx, raw) in text.lines().enumerate() {
        let line_no = idx + 1;
        let line = raw.trim();
        if line.is_empty() {
            if let Some(set) = current.take() {
                sets.push(set);
            }
            continue;
        }
        if line.starts_with("===") {
            headers += 1;
            if headers > 1 || !sets.is_empty() || current.is_some() {
                return Err(TeamError::at(
                    line_no,
                    "a team file holds one team; found a second team header",
                ));
            }
            continue;
        }
        match current.as_mut() {
            None => current = Some(parse_species_line(line, line_no)?),
            Some(set) => parse_detail_line(set, line, line_no)?,
        }
    }
    if let Some(set) = current.take() {
        sets.push(set);
    }
    if sets.is_empty() {
        return Err(TeamError::at(0, "the team file holds no Pokémon"));
    }
    if sets.len() > MAX_TEAM_SIZE {
        return Err(TeamError::at(
            sets[MAX_TEAM_SIZE].line,
            format!(
                "a team holds at most {MAX_TEAM_SIZE} Pokémon; this is the {}th",
                MAX_TEAM_SIZE + 1
            ),
        ));
    }
    for set in &sets {
        if set.moves.is_empty() {
            return Err(TeamError::at(
                set.line,
                format!("{} has no moves (add `- Move` lines)", set.species),
            ));
        }
    }
    Ok(sets)
}

/// `Nickname (Species) (M) @ Item`, with every part but the species optional.
fn parse_species_line(line: &str, line_no: usize) -> Result<SetSpec, TeamError> {
    if line.starts_with('-') || line.contains(':') {
        return Err(TeamError::at(
            line_no,
            format!("expected a species line, found `{line}`"),
        ));
    }
    let (name_part, item) = match line.split_once('@') {
        Some((n, i)) => {
            let i = i.trim();
            if i.is_empty() {
                return Err(TeamError::at(
                    line_no,
                    "`@` must be followed by an item name",
                ));
            }
            (n.trim(), Some(i.to_string()))
        }
        None => (line, None),
    };
    // Strip a trailing gender marker `(M)` / `(F)`.
    let mut name_part = name_part.trim();
    for g in ["(M)", "(F)", "(m)", "(f)"] {
        if let Some(rest) = name_part.strip_suffix(g) {
            name_part = rest.trim_end();
            break;
        }
    }
    let (nickname, species) = match (name_part.rfind('('), name_part.ends_with(')')) {
        (Some(open), true) => {
            let species = name_part[open + 1..name_part.len() - 1].trim();
            let nick = name_part[..open].trim();
            if species.is_empty() {
                return Err(TeamError::at(line_no, "empty species name in parentheses"));
            }
            if nick.is_empty() {
                (None, species.to_string())
            } else {
                (Some(nick.to_string()), species.to_string())
            }
        }
        (None, false) => (None, name_part.to_string()),
        _ => {
            return Err(TeamError::at(
                line_no,
                format!("unbalanced parentheses in `{name_part}`"),
            ))
        }
    };
    if species.is_empty() {
        return Err(TeamError::at(line_no, "missing species name"));
    }
    if let Some(n) = &nickname {
        if n.chars().count() > MAX_NICKNAME_LEN {
            return Err(TeamError::at(
                line_no,
                format!("nickname `{n}` is longer than {MAX_NICKNAME_LEN} characters"),
            ));
        }
    }
    Ok(SetSpec::new(line_no, nickname, species, item))
}

fn parse_detail_line(set: &mut SetSpec, line: &str, line_no: usize) -> Result<(), TeamError> {
    if let Some(mv) = line.strip_prefix('-') {
        let mv = mv.trim();
        if mv.is_empty() {
            return Err(TeamError::at(line_no, "empty move name"));
        }
        if set.moves.len() >= MOVE_SLOTS {
            return Err(TeamError::at(
                line_no,
                format!("{} has more than {MOVE_SLOTS} moves", set.species),
            ));
        }
        set.moves.push((line_no, mv.to_string()));
        return Ok(());
    }
    if line.ends_with(" Nature") {
        return Ok(());
    }
    let Some((key, value)) = line.split_once(':') else {
        return Err(TeamError::at(
            line_no,
            format!("unrecognised line `{line}` (a blank line must separate Pokémon)"),
        ));
    };
    let value = value.trim();
    match name_key(key).as_str() {
        "level" => {
            let level: u8 = value
                .parse()
                .ok()
                .filter(|l| (1..=100).contains(l))
                .ok_or_else(|| {
                    TeamError::at(
                        line_no,
                        format!("level must be a number from 1 to 100, found `{value}`"),
                    )
                })?;
            set.level = level;
            set.level_line = line_no;
        }
        "evs" => {
            set.evs = [0; 6];
            for (stat, v) in parse_stat_list(value, line_no, "EV")? {
                if v > 255 {
                    return Err(TeamError::at(
                        line_no,
                        format!(
                            "EV {v} for {} is above 255 (the Gen 1 maximum)",
                            stat.label()
                        ),
                    ));
                }
                set.evs[stat.index()] = v as u8;
            }
        }
        "ivs" => {
            set.ivs = [DEFAULT_IV; 6];
            set.ivs_line = line_no;
            for (stat, v) in parse_stat_list(value, line_no, "IV")? {
                if v > 31 {
                    return Err(TeamError::at(
                        line_no,
                        format!("IV {v} for {} is above 31", stat.label()),
                    ));
                }
                set.ivs[stat.index()] = v as u8;
                if stat == ShowdownStat::Hp {
                    set.hp_iv_line = Some(line_no);
                }
            }
        }
        // Meaningless in Gen 1; Showdown writes them for other generations.
        "ability" | "shiny" | "happiness" | "teratype" | "gender" | "pokeball" | "hiddenpower"
        | "gigantamax" | "dynamaxlevel" => {}
        _ => {
            return Err(TeamError::at(
                line_no,
                format!("unknown field `{}`", key.trim()),
            ))
        }
    }
    Ok(())
}

/// `252 HP / 4 Atk` → [(Hp, 252), (Atk, 4)].
fn parse_stat_list(
    value: &str,
    line_no: usize,
    what: &str,
) -> Result<Vec<(ShowdownStat, u16)>, TeamError> {
    let mut out = Vec::new();
    for part in value.split('/') {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        let mut words = part.split_whitespace();
        let (Some(num), Some(stat), None) = (words.next(), words.next(), words.next()) else {
            return Err(TeamError::at(
                line_no,
                format!("expected `<number> <stat>` in {what}s, found `{part}`"),
            ));
        };
        let v: u16 = num
            .parse()
            .map_err(|_| TeamError::at(line_no, format!("{what} value `{num}` is not a number")))?;
        let stat = ShowdownStat::parse(stat)
            .ok_or_else(|| TeamError::at(line_no, format!("unknown stat `{stat}` in {what}s")))?;
        if out.iter().any(|(s, _)| *s == stat) {
            return Err(TeamError::at(
                line_no,
                format!("{} appears twice in {what}s", stat.label()),
            ));
        }
        out.push((stat, v));
    }
    Ok(out)
}

/// Parse and resolve a team against `data`, building the Pokémon.
pub fn import_team(data: &Dataset, text: &str) -> Result<Vec<Pokemon>, TeamError> {
    parse_team(text)?
        .iter()
        .map(|set| build_mon(data, set))
        .collect()
}

/// Resolve one parsed set.
pub fn build_mon(data: &Dataset, set: &SetSpec) -> Result<Pokemon, TeamError> {
    let species = resolve_species(data, &set.species)
        .ok_or_else(|| TeamError::at(set.line, format!("unknown species `{}`", set.species)))?;
    if let Some(item) = &set.item {
        if data.item_by_name(item).is_none() {
            return Err(TeamError::at(
                set.line,
                format!("unknown item `{item}` (Gen 1 has no held items; remove `@ {item}`)"),
            ));
        }
    }
    let dvs = set.dvs();
    let expected_hp = dvs.hp();
    if let Some(line) = set.hp_iv_line {
        let hp_dv = set.ivs[ShowdownStat::Hp.index()] / 2;
        if hp_dv != expected_hp {
            return Err(TeamError::at(
                line,
                format!(
                    "{} has an HP DV of {hp_dv}, but its Atk, Def, Spe, and Spc DVs give it an HP DV of {expected_hp}",
                    set.species
                ),
            ));
        }
    }
    let mut moves: [Option<MoveId>; MOVE_SLOTS] = [None; MOVE_SLOTS];
    for (slot, (line, name)) in set.moves.iter().enumerate() {
        let m = resolve_move(data, name)
            .ok_or_else(|| TeamError::at(*line, format!("unknown move `{name}`")))?;
        if moves.contains(&Some(m)) {
            return Err(TeamError::at(
                *line,
                format!("{} knows `{name}` twice", set.species),
            ));
        }
        moves[slot] = Some(m);
    }
    let mut mon = Pokemon::try_new(data, species, set.level, dvs)
        .map_err(|e| TeamError::at(set.line, e.to_string()))?;
    mon.nickname = set.nickname.clone();
    mon.stat_exp = set.stat_exp();
    mon.moves = moves;
    mon.pp_ups = [3; MOVE_SLOTS];
    for slot in 0..MOVE_SLOTS {
        mon.pp[slot] = mon.max_pp(data, slot).unwrap_or(0);
    }
    mon.recompute_stats(data);
    mon.hp = mon.stats.max_hp;
    Ok(mon)
}

/// Species by name, case- and punctuation-insensitive (`Mr. Mime`, `MR_MIME`, `mrmime`).
pub fn resolve_species(data: &Dataset, name: &str) -> Option<SpeciesId> {
    data.species_by_name(name)
}

/// Move by name, case- and punctuation-insensitive; the dataset also knows Showdown's modern
/// spellings (`High Jump Kick`, `Vise Grip`).
pub fn resolve_move(data: &Dataset, name: &str) -> Option<MoveId> {
    data.move_by_name(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEAM: &str = "=== [gen1ou] Test ===\n\
\n\
Zappy (Jolteon) @ Leftovers\n\
Level: 50\n\
EVs: 252 HP / 100 Atk / 4 Spe\n\
IVs: 30 Atk / 29 Def\n\
- Thunderbolt\n\
- Double Kick\n\
\n\
Mr. Mime (M)\n\
Ability: No Ability\n\
- Psychic\n\
";

    #[test]
    fn parses_a_valid_team() {
        let sets = parse_team(TEAM).unwrap();
        assert_eq!(sets.len(), 2);
        let a = &sets[0];
        assert_eq!(a.line, 3);
        assert_eq!(a.nickname.as_deref(), Some("Zappy"));
        assert_eq!(a.species, "Jolteon");
        assert_eq!(a.item.as_deref(), Some("Leftovers"));
        assert_eq!(a.level, 50);
        assert_eq!(a.evs, [252, 100, 0, 0, 0, 4]);
        assert_eq!(a.ivs, [31, 30, 29, 31, 31, 31]);
        assert_eq!(
            a.dvs(),
            Dvs {
                atk: 15,
                def: 14,
                spe: 15,
                spc: 15
            }
        );
        assert_eq!(
            a.stat_exp(),
            StatExp {
                hp: 63504,
                atk: 10000,
                def: 0,
                spe: 16,
                spc: 0
            }
        );
        assert_eq!(
            a.moves,
            vec![
                (7, "Thunderbolt".to_string()),
                (8, "Double Kick".to_string())
            ]
        );
        let b = &sets[1];
        assert_eq!(b.nickname, None);
        assert_eq!(b.species, "Mr. Mime");
        assert_eq!(b.level, 100);
        assert_eq!(b.evs, [DEFAULT_EV; 6]);
        assert_eq!(b.dvs(), Dvs::MAX);
        assert_eq!(b.stat_exp().atk, 252 * 252);
    }

    fn err(text: &str) -> TeamError {
        parse_team(text).unwrap_err()
    }

    #[test]
    fn each_parse_error_names_its_line() {
        assert_eq!(err("").line, 0);
        assert_eq!(err("\n\n").message, "the team file holds no Pokémon");
        let e = err("Pikachu\nLevel: 101\n- Thunderbolt\n");
        assert_eq!(
            (e.line, e.message.as_str()),
            (2, "level must be a number from 1 to 100, found `101`")
        );
        assert_eq!(err("Pikachu\nLevel: x\n- Surf\n").line, 2);
        let e = err("Pikachu\n- Surf\nEVs: 256 HP\n");
        assert_eq!(e.line, 3);
        assert!(e.message.contains("above 255"), "{e}");
        assert!(err("Pikachu\nIVs: 32 Atk\n- Surf\n")
            .message
            .contains("above 31"));
        assert!(err("Pikachu\nIVs: 3 Luck\n- Surf\n")
            .message
            .contains("unknown stat `Luck`"));
        assert!(err("Pikachu\nEVs: 4 HP / 8 HP\n- Surf\n")
            .message
            .contains("twice"));
        assert!(err("Pikachu\nEVs: lots HP\n- Surf\n")
            .message
            .contains("not a number"));
        assert!(err("Pikachu\nEVs: 4\n- Surf\n")
            .message
            .contains("expected `<number> <stat>`"));
        let e = err("Pikachu\n- A\n- B\n- C\n- D\n- E\n");
        assert_eq!(e.line, 6);
        assert!(e.message.contains("more than 4 moves"));
        assert_eq!(err("Pikachu\n-\n").message, "empty move name");
        let e = err("Pikachu\nLevel: 5\n");
        assert_eq!((e.line, e.message.contains("no moves")), (1, true));
        assert!(err("Pikachu\nColour: yellow\n- Surf\n")
            .message
            .contains("unknown field `Colour`"));
        assert!(err("Pikachu\njust words\n- Surf\n")
            .message
            .contains("unrecognised line"));
        assert!(err("Level: 5\n")
            .message
            .contains("expected a species line"));
        assert!(err("Sparky (Pikachu\n- Surf\n")
            .message
            .contains("unbalanced"));
        assert!(err("Pikachu @ \n- Surf\n").message.contains("item name"));
        assert!(err("Averyverylongname (Pikachu)\n- Surf\n")
            .message
            .contains("longer than 10"));
        let seven = "Pikachu\n- Surf\n\n".repeat(7);
        let e = err(&seven);
        assert_eq!(e.line, 19);
        let e = err("=== a ===\nPikachu\n- Surf\n\n=== b ===\n");
        assert_eq!(e.line, 5);
    }

    #[test]
    fn display_has_line_prefix() {
        assert_eq!(TeamError::at(4, "bad").to_string(), "line 4: bad");
        assert_eq!(TeamError::at(0, "bad").to_string(), "bad");
    }

    #[test]
    fn imports_a_team_against_the_dataset() {
        let data = crate::data::gen1();
        let text = "Sparky (Pikachu)\nLevel: 50\nEVs: 100 Atk\nIVs: 29 Atk / 30 Spe\n- Thunder Shock\n- Hi Jump Kick\n\n\
                    MR_MIME\n- psychic\n";
        let mons = import_team(data, text).unwrap();
        assert_eq!(mons.len(), 2);
        let p = &mons[0];
        assert_eq!(p.species, data.species_by_name("PIKACHU").unwrap());
        assert_eq!(p.nickname.as_deref(), Some("Sparky"));
        assert_eq!(p.level, 50);
        // IV 29 -> DV 14, IV 30 -> DV 15; HP DV = (14&1)<<3 | (15&1)<<2 | (15&1)<<1 | (15&1) = 7.
        assert_eq!(
            p.dvs,
            Dvs {
                atk: 14,
                def: 15,
                spe: 15,
                spc: 15
            }
        );
        assert_eq!(
            p.stat_exp,
            StatExp {
                hp: 0,
                atk: 10_000,
                def: 0,
                spe: 0,
                spc: 0
            }
        );
        // Pikachu base 35/55/30/90/50, L50.
        // HP: (35+7)*2*50/100 + 60 = 102; Atk: ((55+14)*2 + 100/4)*50/100 + 5 = 163*50/100+5 = 86.
        assert_eq!(p.stats.max_hp, 102);
        assert_eq!(p.hp, 102);
        assert_eq!(p.stats.atk, 86);
        assert_eq!(p.moves[0], data.move_by_name("THUNDERSHOCK"));
        assert_eq!(p.moves[1], data.move_by_name("HI_JUMP_KICK"));
        assert_eq!((p.moves[2], p.moves[3]), (None, None));
        // Three PP Ups: Thunder Shock 30 -> 30 + 3*6 = 48.
        assert_eq!(p.pp[0], 48);
        let m = &mons[1];
        assert_eq!(m.species, data.species_by_name("Mr. Mime").unwrap());
        assert_eq!(m.level, 100);
        assert_eq!(m.stat_exp.spc, 252 * 252);
        assert_eq!(m.moves[0], data.move_by_name("PSYCHIC_M"));
    }

    #[test]
    fn resolution_errors_name_their_line() {
        let data = crate::data::gen1();
        let e = import_team(data, "Pikachu\n- Surf\n\nAgumon\n- Tackle\n").unwrap_err();
        assert_eq!(
            (e.line, e.message.as_str()),
            (4, "unknown species `Agumon`")
        );
        let e = import_team(data, "Pikachu\n- Surf\n- Spin Dash\n").unwrap_err();
        assert_eq!(
            (e.line, e.message.as_str()),
            (3, "unknown move `Spin Dash`")
        );
        let e = import_team(data, "Pikachu\n- Surf\n- SURF\n").unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.message.contains("twice"), "{e}");
        let e = import_team(data, "Pikachu @ Leftovers\n- Surf\n").unwrap_err();
        assert_eq!(e.line, 1);
        assert!(e.message.contains("unknown item `Leftovers`"), "{e}");
        // IVs 31 everywhere except Atk 28 (DV 14): the derived HP DV is 7, so an HP IV of 31
        // (DV 15) contradicts it.
        let e = import_team(data, "Pikachu\nIVs: 31 HP / 28 Atk\n- Surf\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(
            e.message
                .contains("HP DV of 15, but its Atk, Def, Spe, and Spc DVs give it an HP DV of 7"),
            "{e}"
        );
        assert!(import_team(data, "Pikachu\nIVs: 14 HP / 28 Atk\n- Surf\n").is_ok());
        // A Gen 1 item is accepted (and has no battle effect).
        assert!(import_team(data, "Pikachu @ Poke Ball\n- Surf\n").is_ok());
    }

    #[test]
    fn keys_ignore_case_and_punctuation() {
        assert_eq!(name_key("Sp. Atk"), "spatk");
        assert_eq!(name_key("Tera Type"), "teratype");
    }
}
