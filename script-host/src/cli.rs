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
    #[arg(long, default_value = "red")]
    pub version: String,
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
            println!("pallet run: seed {} version {} (scenario lands with the overworld)", a.seed, a.version);
            0
        }
    }
}
