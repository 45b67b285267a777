//! `pallet mods check DIR...` and `pallet mods defs OUT_DIR`.
//!
//! Exit codes: 0 clean, 1 findings, 2 bad usage (a path that is not a folder, no mod found,
//! an unwritable output folder).

use std::path::PathBuf;

use crate::host::check::check_paths;
use crate::host::defs::write_defs;

#[derive(clap::Subcommand, Debug)]
pub enum ModsCommand {
    /// Validate manifests and scripts (static API checks with did-you-mean), then load every
    /// mod for real in a dry-run runtime, as `pallet run` would. DIR is a mod folder or a
    /// folder of mods.
    Check {
        #[arg(required = true, value_name = "DIR")]
        dirs: Vec<PathBuf>,
        /// Also report which dataset versions `datasets.open` can serve from this cache root
        /// (readiness only: marker and file sizes; nothing is decoded).
        #[arg(long, value_name = "DIR")]
        cache: Option<PathBuf>,
        /// Print the reports as one JSON document.
        #[arg(long)]
        json: bool,
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
    let (code, out, err) = match &args.command {
        ModsCommand::Check {
            dirs, json: true, ..
        } => check_json(dirs),
        ModsCommand::Check { dirs, .. } => check(dirs),
        ModsCommand::Defs { out_dir } => defs(out_dir),
    };
    let json = matches!(args.command, ModsCommand::Check { json: true, .. });
    print!(
        "{}",
        crate::cli::style::paint(&out, !json && crate::cli::style::stdout())
    );
    eprint!(
        "{}",
        crate::cli::style::paint(&err, crate::cli::style::stderr())
    );
    if let ModsCommand::Check {
        cache: Some(root),
        json: false,
        ..
    } = &args.command
    {
        crate::cli::cmd_import::print_readiness(root);
    }
    code
}

/// `pallet mods defs OUT_DIR`: `(exit code, stdout, stderr)`.
pub fn defs(out_dir: &std::path::Path) -> (i32, String, String) {
    match write_defs(out_dir) {
        Ok(files) => {
            let out: String = files
                .iter()
                .map(|f| format!("wrote {}\n", out_dir.join(f).display()))
                .collect();
            (0, out, String::new())
        }
        Err(e) => (
            2,
            String::new(),
            format!("pallet mods defs: {}: {e}\n", out_dir.display()),
        ),
    }
}

/// `pallet mods check DIR...`: `(exit code, stdout, stderr)`.
pub fn check(dirs: &[PathBuf]) -> (i32, String, String) {
    let reports = match check_paths(dirs) {
        Ok(r) => r,
        Err(p) => {
            return (
                2,
                String::new(),
                format!("pallet mods check: {} is not a folder\n", p.display()),
            )
        }
    };
    if reports.is_empty() {
        return (
            2,
            String::new(),
            "pallet mods check: no mod (folder with manifest.json) found\n".to_owned(),
        );
    }
    let mut out = String::new();
    let mut findings = 0;
    for r in &reports {
        let name = r.id.clone().unwrap_or_else(|| r.dir.display().to_string());
        for note in &r.notes {
            out.push_str(&format!("note: {note}\n"));
        }
        if r.findings.is_empty() {
            let state = match r.state.as_deref() {
                Some("loaded") | None => String::new(),
                Some(other) => format!(" [{other} for red]"),
            };
            out.push_str(&format!("ok: {name} ({}){state}\n", r.dir.display()));
            continue;
        }
        for f in &r.findings {
            findings += 1;
            out.push_str(&f.rendered);
            out.push('\n');
        }
    }
    out.push_str(&format!(
        "{} mod(s) checked, {findings} finding(s)\n",
        reports.len()
    ));
    (i32::from(findings > 0), out, String::new())
}

/// `pallet mods check --json DIR...`: `(exit code, stdout, stderr)`; the same exit codes.
pub fn check_json(dirs: &[PathBuf]) -> (i32, String, String) {
    let reports = match check_paths(dirs) {
        Ok(r) if !r.is_empty() => r,
        Ok(_) => {
            return (
                2,
                String::new(),
                "pallet mods check: no mod (folder with manifest.json) found\n".to_owned(),
            )
        }
        Err(p) => {
            return (
                2,
                String::new(),
                format!("pallet mods check: {} is not a folder\n", p.display()),
            )
        }
    };
    let findings: usize = reports.iter().map(|r| r.findings.len()).sum();
    let mods: Vec<serde_json::Value> = reports
        .iter()
        .map(|r| {
            serde_json::json!({
                "dir": r.dir.display().to_string(),
                "id": r.id,
                "ok": r.findings.is_empty(),
                "state": r.state,
                "findings": r.findings.iter().map(|f| serde_json::json!({
                    "file": f.file,
                    "line": f.line,
                    "column": f.column,
                    "message": f.message,
                    "rendered": f.rendered,
                })).collect::<Vec<_>>(),
                "notes": r.notes,
            })
        })
        .collect();
    let doc = serde_json::json!({
        "ok": findings == 0,
        "checked": reports.len(),
        "findings": findings,
        "mods": mods,
    });
    (
        i32::from(findings > 0),
        format!(
            "{}\n",
            serde_json::to_string_pretty(&doc).unwrap_or_default()
        ),
        String::new(),
    )
}
