//! `pallet import VERSION [--cache DIR] [--check]`: write (or check) a version's dataset cache.
//!
//! The cache root defaults to the platform's cache directory (see [`default_cache_dir`]);
//! `--cache DIR` overrides it. The import itself is `pallet_engine::datasets::import`: staged,
//! marker last, published by rename. An `indicatif` bar (files, rate, ETA, current
//! path) is drawn on stderr only when stderr is a terminal.

use std::io::Write;
use std::path::{Path, PathBuf};

use pallet_api::catalog::common::GameVersion;

use crate::cli::progress::Draw;
pub use crate::host::cache_dir::{cache_dir, default_cache_dir};
use pallet_engine::datasets::{expected, fs::DiskFs, import, ImportOptions};

/// Arguments of `pallet import`.
#[derive(clap::Args, Debug)]
pub struct ImportArgs {
    /// The game whose dataset to import: red, blue, yellow, gold or silver.
    #[arg(value_parser = ["red", "blue", "yellow", "gold", "silver"])]
    pub version: String,
    /// Cache root (default: $XDG_CACHE_HOME/pallet or ~/.cache/pallet on Linux,
    /// ~/Library/Caches/pallet on macOS, %LOCALAPPDATA%\pallet\cache on Windows).
    #[arg(long, value_name = "DIR")]
    pub cache: Option<PathBuf>,
    /// Only report whether the cache of VERSION is ready; write nothing.
    #[arg(long)]
    pub check: bool,
}

/// One `note:` line per version: what `datasets.open` would answer from `root`.
pub fn print_readiness(root: &Path) {
    let fs = DiskFs::new(root);
    for v in GameVersion::ALL {
        match expected::inspect(&fs, v) {
            Ok(_) => println!(
                "note: datasets: {} is imported ({})",
                v.as_str(),
                root.display()
            ),
            Err(p) => println!(
                "note: datasets: {} is {} ({}; run `pallet import {} --cache {}`)",
                v.as_str(),
                p.reason,
                p.detail,
                v.as_str(),
                root.display()
            ),
        }
    }
}

/// Run `pallet import`; returns the exit code (0 ok, 1 failed or not ready, 2 bad usage).
pub fn run(args: ImportArgs) -> i32 {
    let (mut out, mut err) = (std::io::stdout().lock(), std::io::stderr().lock());
    execute(&args, Draw::stderr_if_terminal(), &mut out, &mut err)
}

/// `pallet import` writing to `out`/`err`; the progress bar draws where `draw` says.
pub fn execute(args: &ImportArgs, draw: Draw, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let Some(version) = GameVersion::parse(&args.version) else {
        let _ = writeln!(err, "unknown version {:?}", args.version);
        return 2;
    };
    let root = match cache_dir(args.cache.as_deref()) {
        Ok(r) => r,
        Err(e) => {
            let _ = writeln!(err, "pallet import: {e}");
            return 2;
        }
    };
    if args.check {
        return match expected::inspect(&DiskFs::new(&root), version) {
            Ok(ready) => {
                let _ = writeln!(
                    out,
                    "{}: ready ({} files, marker {})",
                    version.as_str(),
                    ready.sizes.len(),
                    ready.marker
                );
                0
            }
            Err(p) => {
                let _ = writeln!(out, "{}: {} ({})", version.as_str(), p.reason, p.detail);
                1
            }
        };
    }
    let result = {
        // One indicatif bar (rate, ETA), made when the first file tells the total; hidden
        // off a terminal so piped output stays byte-stable.
        let mut pb: Option<indicatif::ProgressBar> = None;
        let mut progress = |done: usize, total: usize, path: &str| {
            let bar = pb.get_or_insert_with(|| {
                crate::cli::progress::bar_on(total as u64, "files", draw.clone())
            });
            bar.set_position(done as u64);
            bar.set_message(path.to_string());
            if done == total {
                bar.finish();
            }
        };
        let opts = ImportOptions {
            progress: Some(&mut progress),
            ..Default::default()
        };
        import(&root, version, opts)
    };
    match result {
        Ok(report) => {
            let _ = writeln!(
                out,
                "imported {}: {} files, {} bytes -> {}",
                version.as_str(),
                report.files,
                report.bytes,
                report.dir.display()
            );
            let _ = writeln!(out, "marker {}", report.marker);
            0
        }
        Err(e) => {
            let _ = writeln!(err, "pallet import {}: {e}", version.as_str());
            1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explicit_cache_wins() {
        assert_eq!(
            cache_dir(Some(Path::new("/tmp/c"))),
            Ok(PathBuf::from("/tmp/c"))
        );
    }
}
