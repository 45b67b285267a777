//! The `pallet` command line.

use clap::{Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(name = "pallet", version, about = "Pallet: a Gen 1 game engine core with Rhai and legacy Lua mods")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Boot the embedded default game and play the built-in scenario, printing a transcript.
    Run(RunArgs),
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
                    let msg = e.to_string();
                    let first = msg.lines().next().unwrap_or("bad arguments");
                    eprintln!("{first}");
                    2
                }
            };
        }
    };
    match cli.command {
        Command::Run(a) => {
            let Some(version) = pallet_engine::world::GameVersion::parse(&a.version) else {
                eprintln!("invalid value '{}' for '--version <VERSION>'", a.version);
                return 2;
            };
            crate::cmd_run::run(&crate::cmd_run::RunOptions { version, seed: a.seed, save: a.save })
        }
    }
}
