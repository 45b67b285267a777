//! `pallet calc`: the Gen 1 damage of one move for every random factor 217..=255, computed by
//! the battle engine's own damage path (`pallet_engine::battle::calc`).

use pallet_engine::battle::calc::{damage_rolls, CalcInput};
use pallet_engine::data;
use pallet_engine::pokemon::stats::{MAX_DV, MAX_LEVEL, MIN_LEVEL};

#[derive(clap::Args, Debug)]
pub struct CalcArgs {
    /// Attacking species (case and punctuation ignored: `Mr. Mime`, `MR_MIME`, `mrmime`).
    pub attacker: String,
    /// Defending species.
    pub defender: String,
    /// The move.
    #[arg(value_name = "MOVE")]
    pub mv: String,
    /// Attacker's level.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u8).range(i64::from(MIN_LEVEL)..=i64::from(MAX_LEVEL)))]
    pub attacker_level: u8,
    /// Defender's level.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u8).range(i64::from(MIN_LEVEL)..=i64::from(MAX_LEVEL)))]
    pub defender_level: u8,
    /// A critical hit.
    #[arg(long)]
    pub crit: bool,
    /// Every DV of both mons (0..=15; the HP DV follows from the others).
    #[arg(long, default_value_t = MAX_DV, value_parser = clap::value_parser!(u8).range(0..=i64::from(MAX_DV)))]
    pub dv: u8,
    /// Every stat experience value of both mons (0..=65535; Showdown's default EVs match 65535).
    #[arg(long, default_value_t = u16::MAX)]
    pub statexp: u16,
    /// Rule set: `link` (crits read both sides' full stats) or `game` (the attacker is the
    /// player, the defender the in-game enemy whose crit stats lose their stat experience).
    #[arg(long, value_enum, default_value_t = crate::cmd_battle::ModeArg::Link)]
    pub mode: crate::cmd_battle::ModeArg,
    /// Print `{"rolls":[…]}`.
    #[arg(long)]
    pub json: bool,
}

/// Entry point; returns the exit code (2 for unknown names).
pub fn run(args: CalcArgs) -> i32 {
    let data = data::gen1();
    let Some(attacker) = data.species_by_name(&args.attacker) else {
        eprintln!("pallet calc: unknown species `{}`", args.attacker);
        return 2;
    };
    let Some(defender) = data.species_by_name(&args.defender) else {
        eprintln!("pallet calc: unknown species `{}`", args.defender);
        return 2;
    };
    let Some(mv) = data.move_by_name(&args.mv) else {
        eprintln!("pallet calc: unknown move `{}`", args.mv);
        return 2;
    };
    let input = CalcInput {
        attacker,
        defender,
        mv,
        attacker_level: args.attacker_level,
        defender_level: args.defender_level,
        crit: args.crit,
        dv: args.dv,
        stat_exp: args.statexp,
        mode: args.mode.into(),
    };
    let rolls = match damage_rolls(data, &input) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("pallet calc: {e}");
            return 1;
        }
    };
    if args.json {
        match serde_json::to_string(&serde_json::json!({ "rolls": rolls })) {
            Ok(s) => println!("{s}"),
            Err(e) => {
                eprintln!("pallet calc: {e}");
                return 1;
            }
        }
    } else {
        let text: Vec<String> = rolls.iter().map(u16::to_string).collect();
        println!("{}", text.join(" "));
    }
    0
}
