//! `pallet play` (the terminal front end) and `pallet run --keys FILE` (a recorded key log
//! replayed headless to the same transcript).

use std::path::PathBuf;

use pallet_engine::world::GameVersion;

use crate::cli::play::keys::{default_starter, Boot, KeyLog};
use crate::cli::play::session::{replay, Session};
use crate::cli::play::term::{self, TermOptions};

#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// Game version: red, blue or yellow (default red; a loaded save has its own).
    #[arg(long, value_parser = ["red", "blue", "yellow"])]
    pub version: Option<String>,
    /// RNG seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Load mods from DIR (a mod folder or a folder of mods); repeatable.
    #[arg(long = "mods", value_name = "DIR")]
    pub mods: Vec<PathBuf>,
    /// Do not load the bundled example mods.
    #[arg(long)]
    pub no_default_mods: bool,
    /// Resume this save instead of starting a new game.
    #[arg(long, value_name = "SAVE")]
    pub load: Option<PathBuf>,
    /// Where SAVE writes (default: the `--load` file, else `pallet-play.sav`).
    #[arg(long, value_name = "PATH")]
    pub save: Option<PathBuf>,
    /// A new game's first mon, `SPECIES:LEVEL` or `none` (default: the version's starter at
    /// level 5; the fixture world has no OAK to hand one out).
    #[arg(long, value_name = "SPECIES:LEVEL")]
    pub starter: Option<String>,
    /// Write the key log here (replay it with `pallet run --keys FILE`).
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Write the session's transcript here on quit (what `pallet run --keys` prints).
    #[arg(long, value_name = "FILE")]
    pub transcript: Option<PathBuf>,
    /// The mod F5 / F9 ask to capture / restore (raising `mod.MOD.save` / `mod.MOD.load`
    /// between ticks, the game lent).
    #[arg(long, value_name = "MOD", default_value = "quicksave")]
    pub checkpoint_mod: String,
}

fn parse_starter(s: &str) -> Result<Option<(String, u8)>, String> {
    if s == "none" {
        return Ok(None);
    }
    let (sp, lv) = s.split_once(':').unwrap_or((s, "5"));
    let lv: u8 = lv
        .parse()
        .ok()
        .filter(|l| (1..=100).contains(l))
        .ok_or_else(|| format!("--starter {s}: the level must be 1..=100"))?;
    Ok(Some((sp.to_ascii_uppercase(), lv)))
}

/// `pallet play`: returns the exit code (2 bad usage or boot failure).
pub fn run(a: PlayArgs) -> i32 {
    let version = a
        .version
        .as_deref()
        .map(|v| GameVersion::parse(v).unwrap_or(GameVersion::Red))
        .unwrap_or(GameVersion::Red);
    let mut boot = Boot::new_game(version, a.seed);
    boot.mods = a.mods;
    boot.no_default_mods = a.no_default_mods;
    boot.load = a.load.clone();
    if boot.load.is_some() {
        boot.starter = None;
        boot.bag.clear();
    } else {
        boot.starter = match a.starter.as_deref() {
            Some(s) => match parse_starter(s) {
                Ok(st) => st,
                Err(e) => {
                    eprintln!("pallet play: {e}");
                    return 2;
                }
            },
            None => Some((default_starter(version).to_owned(), 5)),
        };
    }
    let session = match Session::boot(&boot, false) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("pallet play: {e}");
            return 2;
        }
    };
    if let (Some(want), Some(_)) = (&a.version, &a.load) {
        if want != session.boot.version.as_str() {
            eprintln!(
                "pallet play: --version {want}, but the save is a {} game",
                session.boot.version
            );
            return 2;
        }
    }
    let save_path = a
        .save
        .or(a.load)
        .unwrap_or_else(|| PathBuf::from("pallet-play.sav"));
    term::run(
        session,
        &TermOptions {
            save_path,
            record: a.record,
            transcript: a.transcript,
            checkpoint_mod: a.checkpoint_mod,
        },
    )
}

/// `pallet run --keys FILE`: boot from the key log's header, press its keys, print the
/// transcript (the session's, with the end summary). `save`: write the final save there.
pub fn replay_keys(path: &std::path::Path, save: Option<&std::path::Path>, trace: bool) -> i32 {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("pallet run: --keys {}: {e}", path.display());
            return 2;
        }
    };
    let log = match KeyLog::parse(&text) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("pallet run: --keys {}: {e}", path.display());
            return 2;
        }
    };
    let session = match replay(&log.boot, &log.keys, trace) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("pallet run: --keys {}: {e}", path.display());
            return 1;
        }
    };
    print!("{}", session.final_transcript());
    if let Some(p) = save {
        if let Err(e) = pallet_engine::save::write_save(p, &session.save_data()) {
            eprintln!("cannot write save {}: {e}", p.display());
            return 1;
        }
        println!("save written: {}", p.display());
    }
    0
}
