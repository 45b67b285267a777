//! The `pallet` command line: the argument parser (clap), exit codes (0 ok, 1 findings, 2 bad
//! usage) and one module per verb, over the Rhai host (`crate::host`). See `README.md` for the
//! module table.

pub mod battle_log;
pub mod calc_names;
pub mod calc_report;
pub mod cmd_battle;
pub mod cmd_calc;
pub mod cmd_checkpoint;
pub mod cmd_import;
pub mod cmd_mods;
pub mod cmd_play;
pub mod cmd_run;
pub mod cmd_shell;
pub mod play;
pub mod progress;
pub mod scenario_battle;
pub mod style;

use clap::{CommandFactory, Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(
    name = "pallet",
    version,
    about = "Pallet: a Gen 1 game engine core with Rhai and legacy Lua mods"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Boot the embedded default game and play the built-in scenario, printing a transcript.
    Run(RunArgs),
    /// Mod tools: `check DIR...` (manifests and scripts), `defs OUT_DIR` (editor definitions).
    Mods(crate::cli::cmd_mods::ModsArgs),
    /// Write a version's dataset cache (red, blue, yellow, gold, silver) for `datasets.open`.
    Import(crate::cli::cmd_import::ImportArgs),
    /// Headless random battles (random teams of six, or Showdown team files), with totals.
    Battle(crate::cli::cmd_battle::BattleArgs),
    /// Gen 1 damage of one move for every random factor 217..=255.
    Calc(crate::cli::cmd_calc::CalcArgs),
    /// RFC 0004/0005 demo: capture an overworld and a battle checkpoint, play on, restore, recapture.
    Checkpoint(crate::cli::cmd_checkpoint::CheckpointArgs),
    /// The game in a terminal, with mods loaded (arrows walk, Enter = A, Backspace = B).
    Play(crate::cli::cmd_play::PlayArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell) on stdout.
    Completions(crate::cli::cmd_shell::CompletionsArgs),
    /// Print the man page (roff) on stdout, or write one page per command with `--out DIR`.
    Man(crate::cli::cmd_shell::ManArgs),
}

#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// RNG seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Game version: red, blue or yellow.
    #[arg(long, default_value = "red", value_parser = ["red", "blue", "yellow"])]
    pub version: String,
    /// Write the final save here (atomically: `.tmp`, then rename; the previous file kept as `.bak`).
    #[arg(long, value_name = "PATH")]
    pub save: Option<std::path::PathBuf>,
    /// Load mods from DIR (a mod folder or a folder of mods); repeatable.
    #[arg(long = "mods", value_name = "DIR")]
    pub mods: Vec<std::path::PathBuf>,
    /// Do not load the bundled example mods.
    #[arg(long)]
    pub no_default_mods: bool,
    /// Print each hook call of the mods' chains with its arguments and result.
    #[arg(long)]
    pub trace: bool,
    /// Dataset cache root read by `datasets.open` (default: the platform cache directory, as
    /// for `pallet import`).
    #[arg(long, value_name = "DIR")]
    pub cache: Option<std::path::PathBuf>,
    /// Play this scenario file instead of the built-in one (same commands; e.g.
    /// `examples/scenarios/quicksave.scn` with `--mods examples/mods/quicksave`).
    #[arg(long, value_name = "PATH")]
    pub scenario: Option<std::path::PathBuf>,
    /// Replay a `pallet play --record` key log headless (version, seed, mods and save come
    /// from its header) and print the session's transcript.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["scenario", "mods", "no_default_mods", "strict", "json", "options", "load", "profile"])]
    pub keys: Option<std::path::PathBuf>,
    /// Stop with exit 1 at the first `expect` that does not hold (by default a mod may change
    /// what the scenario expects: the difference is reported and the run goes on).
    #[arg(long)]
    pub strict: bool,
    /// Print the run summary (mods with state and reason, expectations, end state, the
    /// transcript as lines) as one JSON document.
    #[arg(long)]
    pub json: bool,
    /// Set a mod option before the mods load: MOD.KEY=VALUE (true/false, a number, else a
    /// string); repeatable. Unknown mods, keys and illegal values are errors.
    #[arg(long = "option", value_name = "MOD.KEY=VALUE")]
    pub options: Vec<String>,
    /// Continue from this save (its version, position, party and mods' `save` data) instead
    /// of a new game.
    #[arg(long, value_name = "SAVE")]
    pub load: Option<std::path::PathBuf>,
    /// Profile folder: per-mod option values from DIR/options/<MOD>.json (a JSON object
    /// `{"key": value}`; `--option` overrides them) and Lua mods' `mod.storage` in
    /// DIR/storage/<MOD>/.
    #[arg(long, value_name = "DIR")]
    pub profile: Option<std::path::PathBuf>,
}

/// Entry point; returns the process exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            use clap::error::ErrorKind;
            return match e.kind() {
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
                    let _ = e.print();
                    0
                }
                _ => {
                    // clap's whole message: the error, its tip (a similar argument or
                    // subcommand) and the possible values; then the usage line.
                    eprint!("{}", e.render());
                    2
                }
            };
        }
    };
    match cli.command {
        Command::Run(a) if a.keys.is_some() => {
            let keys = a.keys.as_deref().unwrap_or(std::path::Path::new(""));
            crate::cli::cmd_play::replay_keys(keys, a.save.as_deref(), a.trace)
        }
        Command::Run(a) => {
            let Some(version) = pallet_engine::world::GameVersion::parse(&a.version) else {
                eprintln!("invalid value '{}' for '--version <VERSION>'", a.version);
                return 2;
            };
            let mods = crate::host::ModsOptions {
                dirs: a.mods,
                no_default_mods: a.no_default_mods,
                trace: a.trace,
                cache: a.cache,
            };
            crate::cli::cmd_run::run(&crate::cli::cmd_run::RunOptions {
                version,
                seed: a.seed,
                save: a.save,
                mods,
                scenario: a.scenario,
                strict: a.strict,
                json: a.json,
                options: a.options,
                load: a.load,
                profile: a.profile,
            })
        }
        Command::Mods(a) => crate::cli::cmd_mods::run(a),
        Command::Import(a) => crate::cli::cmd_import::run(a),
        Command::Battle(a) => crate::cli::cmd_battle::run(a),
        Command::Calc(a) => crate::cli::cmd_calc::run(a),
        Command::Checkpoint(a) => crate::cli::cmd_checkpoint::run(a),
        Command::Play(a) => crate::cli::cmd_play::run(a),
        Command::Completions(a) => crate::cli::cmd_shell::completions(a, Cli::command()),
        Command::Man(a) => crate::cli::cmd_shell::man(a, Cli::command()),
    }
}
