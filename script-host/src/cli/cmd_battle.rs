//! `pallet battle`: headless random battles.
//!
//! Battle `i` of a run seeded with `S` draws everything (random teams, the battle's own rolls,
//! both sides' choices) from streams seeded by `stream_seed(S, i)`, so a battle does not depend
//! on which thread ran it: `--jobs N` gives the same totals and checksum for every `N`. The
//! checksum is a wrapping sum over battles of a hash of (index, final battle RNG state, final
//! choice RNG state) — order-independent, so per-thread partial sums combine exactly.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use pallet_api::Runtime;
use pallet_engine::battle::random::{
    headless_battle_in, play_random, random_team, stream_seed, MAX_TURNS,
};
use pallet_engine::battle::team_check::check_team;
use pallet_engine::battle::{Battle, BattleMode, BattleResult};
use pallet_engine::data::{self, Dataset};
use pallet_engine::pokemon::Pokemon;
use pallet_engine::rng::Rng;
use serde::Serialize;

/// Battles a worker claims at a time.
const CHUNK: u64 = 64;

#[derive(clap::Args, Debug)]
pub struct BattleArgs {
    /// RNG seed of the run.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Number of battles.
    #[arg(long, default_value_t = 1)]
    pub count: u64,
    /// Side 1's team (Pokémon Showdown export format); random teams of six when absent.
    #[arg(long, value_name = "FILE")]
    pub p1: Option<PathBuf>,
    /// Side 2's team (Pokémon Showdown export format); random teams of six when absent.
    #[arg(long, value_name = "FILE")]
    pub p2: Option<PathBuf>,
    /// Print one JSON object: battles, turns, p1_wins, p2_wins, draws, checksum.
    #[arg(long)]
    pub json: bool,
    /// Worker threads (results are identical for any value).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub jobs: u64,
    /// Rounds after which a battle is called a draw.
    #[arg(long, default_value_t = MAX_TURNS, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_turns: u32,
    /// Rule set: `link` (both sides are link players, symmetric in every rule; a simultaneous
    /// last faint is a draw) or `game` (the cartridge's single-player rules: p1 is the player,
    /// p2 the in-game enemy).
    #[arg(long, value_enum, default_value_t = ModeArg::Link)]
    pub mode: ModeArg,
    /// Write battle 0 of the run (the first) as a Pokémon Showdown protocol log to FILE.
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
    /// Load battle mods from DIR (a mod folder or a folder of mods; repeatable), e.g. a
    /// `battle.field_residual` rule. The bundled example mods are not loaded. With mods the
    /// battles run on one thread (`--jobs` is ignored; the totals are the same for any value).
    #[arg(long = "mods", value_name = "DIR")]
    pub mods: Vec<PathBuf>,
}

/// `--mode` values.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ModeArg {
    #[default]
    Link,
    Game,
}

impl From<ModeArg> for BattleMode {
    fn from(m: ModeArg) -> BattleMode {
        match m {
            ModeArg::Link => BattleMode::Link,
            ModeArg::Game => BattleMode::Game,
        }
    }
}

/// Totals of a run (also the `--json` object, keys in this order).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Totals {
    pub battles: u64,
    pub turns: u64,
    pub p1_wins: u64,
    pub p2_wins: u64,
    pub draws: u64,
    #[serde(serialize_with = "hex")]
    pub checksum: u64,
}

fn hex<S: serde::Serializer>(v: &u64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&format!("{v:016x}"))
}

impl Totals {
    fn merge(&mut self, o: &Totals) {
        self.battles += o.battles;
        self.turns += o.turns;
        self.p1_wins += o.p1_wins;
        self.p2_wins += o.p2_wins;
        self.draws += o.draws;
        self.checksum = self.checksum.wrapping_add(o.checksum);
    }
}

/// The fixed teams of a run (`None` = random per battle).
struct Teams {
    p1: Option<Vec<Pokemon>>,
    p2: Option<Vec<Pokemon>>,
}

/// Read and check a team file: every problem at once (one line each), warnings for what Gen 1
/// does not have (printed to stderr, the team is still used).
fn load_team(data: &Dataset, path: &PathBuf) -> Result<Vec<Pokemon>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let check = check_team(data, &text);
    for w in &check.warnings {
        eprintln!("pallet battle: warning: {}: {w}", path.display());
    }
    match check.team {
        Some(team) => Ok(team),
        None => Err(check
            .errors
            .iter()
            .map(|e| format!("{}: {e}", path.display()))
            .collect::<Vec<_>>()
            .join("\npallet battle: ")),
    }
}

/// Battle `index` of the run seeded `seed` and its choice stream, ready to play.
fn setup(
    data: &'static Dataset,
    teams: &Teams,
    seed: u64,
    index: u64,
    mode: BattleMode,
) -> (Battle<Rng>, Rng) {
    let s = stream_seed(seed, index);
    let mut team_rng = Rng::new(s);
    let p1 = teams
        .p1
        .clone()
        .unwrap_or_else(|| random_team(data, &mut team_rng, 6));
    let p2 = teams
        .p2
        .clone()
        .unwrap_or_else(|| random_team(data, &mut team_rng, 6));
    let battle = headless_battle_in(data, p1, p2, Rng::new(s ^ 0xB477_1E00_0000_0001), mode);
    (battle, Rng::new(s ^ 0xC400_5E00_0000_0002))
}

/// Battle 0 of the run as a Showdown protocol log (see [`crate::cli::battle_log`]).
pub fn battle_log(
    data: &'static Dataset,
    p1: Option<Vec<Pokemon>>,
    p2: Option<Vec<Pokemon>>,
    seed: u64,
    mode: BattleMode,
    max_turns: u32,
) -> String {
    battle_log_with(data, &Runtime::default(), p1, p2, seed, mode, max_turns)
}

/// [`battle_log`] with the mods loaded into `rt`.
fn battle_log_with(
    data: &'static Dataset,
    rt: &Runtime,
    p1: Option<Vec<Pokemon>>,
    p2: Option<Vec<Pokemon>>,
    seed: u64,
    mode: BattleMode,
    max_turns: u32,
) -> String {
    let teams = Teams { p1, p2 };
    let (mut battle, mut chooser) = setup(data, &teams, seed, 0, mode);
    crate::cli::battle_log::play_logged(data, &mut battle, rt, &mut chooser, max_turns).0
}

/// The batch on the calling thread with `rt` (a runtime holding mods is not shared across
/// threads); the same totals as [`run_batch`] for the same battles.
fn run_batch_with(data: &'static Dataset, rt: &Runtime, batch: Batch) -> Totals {
    let teams = Teams {
        p1: batch.p1,
        p2: batch.p2,
    };
    let mut total = Totals::default();
    for i in 0..batch.count {
        total.merge(&run_one(
            data,
            rt,
            &teams,
            batch.seed,
            i,
            batch.max_turns,
            batch.mode,
        ));
    }
    total
}

/// Load `--mods` into a fresh runtime; every mod that fails is reported (exit 1).
fn load_mods(dirs: &[PathBuf]) -> Result<(std::rc::Rc<Runtime>, crate::host::ModSession), ()> {
    let rt = std::rc::Rc::new(Runtime::new());
    let opts = crate::host::ModsOptions {
        dirs: dirs.to_vec(),
        no_default_mods: true,
        trace: false,
        cache: None,
    };
    let api = pallet_engine::world::sites::api_version(pallet_engine::world::GameVersion::Red);
    let session = match crate::host::ModSession::load_with(&rt, api, &opts, &Default::default()) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("pallet battle: {e}");
            return Err(());
        }
    };
    let failures = session.failure_lines();
    if !session.failed_ids().is_empty() {
        for l in failures {
            eprintln!("pallet battle: {l}");
        }
        return Err(());
    }
    Ok((rt, session))
}

/// Run battle `index` of the run seeded `seed`; returns its contribution to the totals.
fn run_one(
    data: &'static Dataset,
    rt: &Runtime,
    teams: &Teams,
    seed: u64,
    index: u64,
    max_turns: u32,
    mode: BattleMode,
) -> Totals {
    let (mut battle, mut chooser) = setup(data, teams, seed, index, mode);
    let out = play_random(&mut battle, rt, &mut chooser, max_turns);
    let mut t = Totals {
        battles: 1,
        turns: u64::from(out.turns),
        ..Totals::default()
    };
    match out.result {
        BattleResult::Win => t.p1_wins = 1,
        BattleResult::Lose => t.p2_wins = 1,
        _ => t.draws = 1,
    }
    t.checksum = stream_seed(index ^ battle.rng().state(), chooser.state());
    t
}

/// One batch of battles.
pub struct Batch {
    pub seed: u64,
    pub count: u64,
    pub jobs: u64,
    pub max_turns: u32,
    pub mode: BattleMode,
    /// Fixed teams (`None` = a random team of six per battle).
    pub p1: Option<Vec<Pokemon>>,
    pub p2: Option<Vec<Pokemon>>,
}

/// Run the whole batch over `batch.jobs` threads; `progress` counts finished battles.
pub fn run_batch(data: &'static Dataset, batch: Batch, progress: &AtomicU64) -> Totals {
    let Batch {
        seed,
        count,
        jobs,
        max_turns,
        mode,
        p1,
        p2,
    } = batch;
    let teams = Teams { p1, p2 };
    let next = AtomicU64::new(0);
    let jobs = jobs.clamp(1, 256).min(count.div_ceil(CHUNK).max(1));
    let mut total = Totals::default();
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..jobs)
            .map(|_| {
                scope.spawn(|| {
                    let rt = Runtime::default();
                    let mut local = Totals::default();
                    loop {
                        let start = next.fetch_add(CHUNK, Ordering::Relaxed);
                        if start >= count {
                            break;
                        }
                        let end = (start + CHUNK).min(count);
                        for i in start..end {
                            local.merge(&run_one(data, &rt, &teams, seed, i, max_turns, mode));
                        }
                        progress.fetch_add(end - start, Ordering::Relaxed);
                    }
                    local
                })
            })
            .collect();
        for w in workers {
            // A worker only panics on an engine bug; report it as a failed battle count rather
            // than aborting the run silently.
            match w.join() {
                Ok(t) => total.merge(&t),
                Err(_) => eprintln!("pallet battle: a worker thread panicked"),
            }
        }
    });
    total
}

/// Entry point; returns the exit code.
pub fn run(args: BattleArgs) -> i32 {
    let data = data::gen1();
    let p1 = match args.p1.as_ref().map(|p| load_team(data, p)).transpose() {
        Ok(t) => t,
        Err(e) => {
            eprintln!("pallet battle: {e}");
            return 2;
        }
    };
    let p2 = match args.p2.as_ref().map(|p| load_team(data, p)).transpose() {
        Ok(t) => t,
        Err(e) => {
            eprintln!("pallet battle: {e}");
            return 2;
        }
    };
    let mods = if args.mods.is_empty() {
        None
    } else {
        match load_mods(&args.mods) {
            Ok(m) => Some(m),
            Err(()) => return 1,
        }
    };
    if let Some(path) = &args.log {
        let default_rt = Runtime::default();
        let rt = mods.as_ref().map_or(&default_rt, |(rt, _)| &**rt);
        let log = battle_log_with(
            data,
            rt,
            p1.clone(),
            p2.clone(),
            args.seed,
            args.mode.into(),
            args.max_turns,
        );
        if let Err(e) = std::fs::write(path, log) {
            eprintln!("pallet battle: {}: {e}", path.display());
            return 1;
        }
    }
    let progress = AtomicU64::new(0);
    let show = std::io::stderr().is_terminal() && args.count > 0;
    let batch = Batch {
        seed: args.seed,
        count: args.count,
        jobs: args.jobs,
        max_turns: args.max_turns,
        mode: args.mode.into(),
        p1,
        p2,
    };
    let totals = if let Some((rt, session)) = &mods {
        let t = run_batch_with(data, rt, batch);
        for line in session.drain_lines() {
            eprintln!("{line}");
        }
        Ok(t)
    } else {
        run_threads(data, batch, &progress, show, args.count)
    };
    report(totals, args.json)
}

/// The batch on worker threads with a progress bar on a terminal.
fn run_threads(
    data: &'static Dataset,
    batch: Batch,
    progress: &AtomicU64,
    show: bool,
    count: u64,
) -> std::thread::Result<Totals> {
    std::thread::scope(|scope| {
        let worker = scope.spawn(|| run_batch(data, batch, progress));
        if show {
            let bar = crate::cli::progress::bar(count, "battles");
            while !worker.is_finished() {
                bar.set_position(progress.load(Ordering::Relaxed));
                std::thread::sleep(Duration::from_millis(100));
            }
            bar.finish_and_clear();
        }
        worker.join()
    })
}

/// Print the totals (text or `--json`); returns the exit code.
fn report(totals: std::thread::Result<Totals>, json: bool) -> i32 {
    let Ok(totals) = totals else {
        eprintln!("pallet battle: the run failed");
        return 1;
    };
    if json {
        match serde_json::to_string(&totals) {
            Ok(s) => println!("{s}"),
            Err(e) => {
                eprintln!("pallet battle: {e}");
                return 1;
            }
        }
    } else {
        println!("battles   {}", totals.battles);
        println!("turns     {}", totals.turns);
        println!("p1 wins   {}", totals.p1_wins);
        println!("p2 wins   {}", totals.p2_wins);
        println!("draws     {}", totals.draws);
        println!("checksum  {:016x}", totals.checksum);
    }
    0
}
