//! `pallet calc`: the Gen 1 damage of one move as players read @smogon/calc — the description
//! line, % of the defender's HP, the KO chance, non-crit and crit rolls — computed by the battle
//! engine's own damage path (`pallet_engine::battle::calc`; the presentation is
//! [`crate::cli::calc_report`]).

use std::path::Path;

use pallet_engine::battle::calc::{CalcInput, CalcSide};
use pallet_engine::battle::teams::{build_mon, parse_team};
use pallet_engine::data::{self, Dataset};
use pallet_engine::pokemon::stats::{MAX_DV, MAX_LEVEL, MIN_LEVEL};
use pallet_engine::pokemon::{Dvs, StatExp, Status};

use crate::cli::calc_report::report;
use crate::cli::cmd_battle::ModeArg;

fn level_arg() -> clap::builder::RangedI64ValueParser<u8> {
    clap::value_parser!(u8).range(i64::from(MIN_LEVEL)..=i64::from(MAX_LEVEL))
}

fn dv_arg() -> clap::builder::RangedI64ValueParser<u8> {
    clap::value_parser!(u8).range(0..=i64::from(MAX_DV))
}

#[derive(clap::Args, Debug)]
pub struct CalcArgs {
    /// Attacking species (case and punctuation ignored: `Mr. Mime`, `MR_MIME`, `mrmime`), or
    /// `@FILE`: a Pokémon Showdown set (the first set of the file; its level, IVs and EVs).
    pub attacker: String,
    /// Defending species, or `@FILE` (a Showdown set).
    pub defender: String,
    /// The move.
    #[arg(value_name = "MOVE")]
    pub mv: String,
    /// Attacker's level (default 100, or the set's).
    #[arg(long, value_parser = level_arg())]
    pub attacker_level: Option<u8>,
    /// Defender's level (default 100, or the set's).
    #[arg(long, value_parser = level_arg())]
    pub defender_level: Option<u8>,
    /// Describe a critical hit (both roll lists are always printed).
    #[arg(long)]
    pub crit: bool,
    /// Every DV of both mons (0..=15; the HP DV follows from the others); a set's IVs win.
    #[arg(long, default_value_t = MAX_DV, value_parser = dv_arg())]
    pub dv: u8,
    /// Every DV of the attacker (overrides `--dv` and a set).
    #[arg(long, value_parser = dv_arg())]
    pub attacker_dv: Option<u8>,
    /// Every DV of the defender (overrides `--dv` and a set).
    #[arg(long, value_parser = dv_arg())]
    pub defender_dv: Option<u8>,
    /// Every stat experience value of both mons (0..=65535; Showdown's default EVs match
    /// 63504 = 252², the same stats as 65535); a set's EVs win.
    #[arg(long, default_value_t = u16::MAX)]
    pub statexp: u16,
    /// The attacker's stat experience (overrides `--statexp` and a set).
    #[arg(long)]
    pub attacker_statexp: Option<u16>,
    /// The defender's stat experience (overrides `--statexp` and a set).
    #[arg(long)]
    pub defender_statexp: Option<u16>,
    /// The attacker's stat stages, e.g. `atk=+2,spc=-1` (atk, def, spe, spc, acc, eva; -6..=6).
    #[arg(long, value_name = "STAGES")]
    pub attacker_stages: Option<String>,
    /// The defender's stat stages, e.g. `def=-1`.
    #[arg(long, value_name = "STAGES")]
    pub defender_stages: Option<String>,
    /// The attacker is burned (its Attack is halved; a crit ignores it).
    #[arg(long)]
    pub burned: bool,
    /// Reflect is up on the defender's side.
    #[arg(long)]
    pub reflect: bool,
    /// Light Screen is up on the defender's side.
    #[arg(long)]
    pub light_screen: bool,
    /// Hits of a 2-to-5 move (default 3, as @smogon/calc).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=5))]
    pub hits: Option<u8>,
    /// Rule set: `link` (crits read both sides' full stats) or `game` (the attacker is the
    /// player, the defender the in-game enemy whose crit stats lose their stat experience).
    #[arg(long, value_enum, default_value_t = ModeArg::Link)]
    pub mode: ModeArg,
    /// Print one JSON object with every field of the report.
    #[arg(long)]
    pub json: bool,
}

/// Stages like `atk=+2,spc=-1` (Showdown's `spa`/`spd` mean Special).
pub fn parse_stages(text: &str) -> Result<[i8; 6], String> {
    let mut out = [0i8; 6];
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (k, v) = part
            .split_once('=')
            .or_else(|| part.split_once(':'))
            .ok_or_else(|| format!("stage `{part}`: expected STAT=N, e.g. atk=+2"))?;
        let i = match k.trim().to_ascii_lowercase().as_str() {
            "atk" | "attack" => 0,
            "def" | "defense" => 1,
            "spe" | "speed" => 2,
            "spc" | "special" | "spa" | "spd" => 3,
            "acc" | "accuracy" => 4,
            "eva" | "evasion" => 5,
            other => {
                return Err(format!(
                    "stage `{part}`: unknown stat `{other}` (atk, def, spe, spc, acc, eva)"
                ))
            }
        };
        let n: i8 = v
            .trim()
            .trim_start_matches('+')
            .parse()
            .map_err(|_| format!("stage `{part}`: `{}` is not a number", v.trim()))?;
        if !(-6..=6).contains(&n) {
            return Err(format!("stage `{part}`: stages go from -6 to +6"));
        }
        out[i] = n;
    }
    Ok(out)
}

/// Per-side overrides from the command line.
struct SideArgs<'a> {
    name: &'a str,
    level: Option<u8>,
    dv: Option<u8>,
    statexp: Option<u16>,
    stages: Option<&'a str>,
}

fn side(
    data: &'static Dataset,
    a: SideArgs<'_>,
    dv: u8,
    statexp: u16,
) -> Result<CalcSide, (i32, String)> {
    let mut cs = if let Some(path) = a.name.strip_prefix('@') {
        let text =
            std::fs::read_to_string(Path::new(path)).map_err(|e| (2, format!("{path}: {e}")))?;
        let sets = parse_team(&text).map_err(|e| (2, format!("{path}: {e}")))?;
        let set = sets
            .first()
            .ok_or_else(|| (2, format!("{path}: no set in the file")))?;
        let mon = build_mon(data, set).map_err(|e| (2, format!("{path}: {e}")))?;
        CalcSide::from_mon(data, mon)
    } else {
        let species = data
            .species_by_name(a.name)
            .ok_or_else(|| (2, format!("unknown species `{}`", a.name)))?;
        CalcSide::new(data, species, 100, dv, statexp)
    };
    let mon = &mut cs.mon;
    if let Some(l) = a.level {
        mon.level = l;
    }
    if let Some(d) = a.dv {
        mon.dvs = Dvs::uniform(d);
    }
    if let Some(s) = a.statexp {
        mon.stat_exp = StatExp {
            hp: s,
            atk: s,
            def: s,
            spe: s,
            spc: s,
        };
    }
    mon.recompute_stats(data);
    mon.hp = mon.stats.max_hp;
    if let Some(st) = a.stages {
        cs.stages = parse_stages(st).map_err(|e| (2, e))?;
    }
    Ok(cs)
}

/// Entry point; returns the exit code (2 for bad input, 1 for a move with no damage roll).
pub fn run(args: CalcArgs) -> i32 {
    match run_inner(&args) {
        Ok(()) => 0,
        Err((code, msg)) => {
            eprintln!("pallet calc: {msg}");
            code
        }
    }
}

fn run_inner(args: &CalcArgs) -> Result<(), (i32, String)> {
    let data = data::gen1();
    let mut attacker = side(
        data,
        SideArgs {
            name: &args.attacker,
            level: args.attacker_level,
            dv: args.attacker_dv,
            statexp: args.attacker_statexp,
            stages: args.attacker_stages.as_deref(),
        },
        args.dv,
        args.statexp,
    )?;
    let defender = side(
        data,
        SideArgs {
            name: &args.defender,
            level: args.defender_level,
            dv: args.defender_dv,
            statexp: args.defender_statexp,
            stages: args.defender_stages.as_deref(),
        },
        args.dv,
        args.statexp,
    )?;
    if args.burned {
        attacker.mon.status = Status::Burn;
    }
    let mv = data
        .move_by_name(&args.mv)
        .ok_or_else(|| (2, format!("unknown move `{}`", args.mv)))?;
    let input = CalcInput {
        attacker,
        defender,
        mv,
        crit: args.crit,
        reflect: args.reflect,
        light_screen: args.light_screen,
        mode: args.mode.into(),
    };
    let r = report(data, &input, args.hits).map_err(|e| (1, e.to_string()))?;
    if args.json {
        let s = serde_json::to_string(&r).map_err(|e| (1, e.to_string()))?;
        println!("{s}");
    } else {
        let join = |v: &[u16]| v.iter().map(u16::to_string).collect::<Vec<_>>().join(" ");
        println!("{}", r.desc);
        println!("rolls       {}", join(&r.rolls));
        println!("crit rolls  {}", join(&r.crit_rolls));
        if r.hits > 1 {
            println!(
                "hits        {} (per-hit rolls; totals are rolls x hits)",
                r.hits
            );
        }
    }
    Ok(())
}
