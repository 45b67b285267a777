//! `pallet mods check DIR...` and `pallet mods defs OUT_DIR`.
//!
//! Exit codes: 0 clean, 1 findings, 2 bad usage (a path that is not a folder, no mod found,
//! an unwritable output folder).

use std::path::PathBuf;

use crate::host::check::check_paths;
use crate::host::defs::write_defs;

#[derive(clap::Subcommand, Debug)]
pub enum ModsCommand {
    /// Validate manifests and compile scripts (no mod code runs). DIR is a mod folder or a
    /// folder of mods.
    Check {
        #[arg(required = true, value_name = "DIR")]
        dirs: Vec<PathBuf>,
        /// Also report which dataset versions `datasets.open` can serve from this cache root
        /// (readiness only: marker and file sizes; nothing is decoded).
        #[arg(long, value_name = "DIR")]
        cache: Option<PathBuf>,
    },
    /// Write Rhai definition files (`.d.rhai`) of the mod API for editor completion.
    Defs {
        #[arg(value_name = "OUT_DIR")]
        out_dir: PathBuf,
    },
}

#[derive(clap::Args, Debug)]
pub struct ModsArgs {
    #[command(subcommand)]
    pub command: ModsCommand,
}

/// Entry point; returns the exit code.
pub fn run(args: ModsArgs) -> i32 {
    match args.command {
        ModsCommand::Check { dirs, cache } => {
            let code = check(&dirs);
            if let Some(root) = cache {
                crate::cmd_import::print_readiness(&root);
            }
            code
        }
        ModsCommand::Defs { out_dir } => match write_defs(&out_dir) {
            Ok(files) => {
                for f in files {
                    println!("wrote {}", out_dir.join(f).display());
                }
                0
            }
            Err(e) => {
                eprintln!("pallet mods defs: {}: {e}", out_dir.display());
                2
            }
        },
    }
}

fn check(dirs: &[PathBuf]) -> i32 {
    let reports = match check_paths(dirs) {
        Ok(r) => r,
        Err(p) => {
            eprintln!("pallet mods check: {} is not a folder", p.display());
            return 2;
        }
    };
    if reports.is_empty() {
        eprintln!("pallet mods check: no mod (folder with manifest.json) found");
        return 2;
    }
    let mut findings = 0;
    for r in &reports {
        let name = r.id.clone().unwrap_or_else(|| r.dir.display().to_string());
        for note in &r.notes {
            println!("note: {note}");
        }
        if r.findings.is_empty() {
            println!("ok: {name} ({})", r.dir.display());
            continue;
        }
        for f in &r.findings {
            findings += 1;
            println!("{}", f.rendered);
        }
    }
    println!("{} mod(s) checked, {findings} finding(s)", reports.len());
    i32::from(findings > 0)
}
