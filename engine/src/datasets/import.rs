//! The importer behind `pallet import VERSION`: generate the version's files, stage them in a
//! private directory next to the cache, check the inventory, write the completion marker last,
//! then publish the staged directory with a rename.
//!
//! An import that stops anywhere before the marker leaves no marker (and a half-written staging
//! directory is never at `<cache>/<version>`); the published directory is replaced in two
//! renames (old out of the way, new into place), so a reader sees either a complete cache or
//! none. Leftover `.staging-*`/`.old-*` directories of the version are removed by the next
//! import.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use pallet_api::catalog::common::GameVersion;

use super::contract::{self, MARKER_FILE};
use super::fs::DiskFs;
use super::generate::generate;

/// What an import did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportReport {
    pub version: GameVersion,
    /// The published directory (`<cache>/<version>`).
    pub dir: PathBuf,
    /// Files written, marker excluded.
    pub files: usize,
    pub bytes: u64,
    pub marker: String,
}

/// Why an import failed.
#[derive(Debug)]
pub enum ImportError {
    /// The embedded data could not be generated (an engine bug).
    Generate(String),
    Io {
        path: PathBuf,
        source: io::Error,
    },
    /// The contract's publish check found a required file missing after staging.
    Incomplete(&'static str),
    /// Stopped by [`ImportOptions::interrupt_after`] (tests: a process killed mid-import).
    Interrupted {
        staged: usize,
    },
}

impl std::fmt::Display for ImportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ImportError::Generate(e) => write!(f, "cannot generate the dataset: {e}"),
            ImportError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            ImportError::Incomplete(p) => write!(f, "cache is incomplete; missing {p}"),
            ImportError::Interrupted { staged } => {
                write!(f, "import interrupted after {staged} files")
            }
        }
    }
}

impl std::error::Error for ImportError {}

/// Progress of one import: `(files done, files total, path just written)`.
pub type Progress<'a> = &'a mut dyn FnMut(usize, usize, &str);

/// Import knobs.
#[derive(Default)]
pub struct ImportOptions<'a> {
    /// Called after each staged file (and once more after the marker, with `done == total`).
    pub progress: Option<Progress<'a>>,
    /// Stop like a killed process after staging this many files: no cleanup, no marker, no
    /// publish.
    pub interrupt_after: Option<usize>,
}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> ImportError + '_ {
    move |source| ImportError::Io {
        path: path.to_owned(),
        source,
    }
}

fn write_synced(path: &Path, bytes: &[u8]) -> Result<(), ImportError> {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).map_err(io_err(parent))?;
    }
    let mut f = fs::File::create(path).map_err(io_err(path))?;
    f.write_all(bytes).map_err(io_err(path))?;
    f.sync_all().map_err(io_err(path))
}

/// Best-effort: flush a directory entry change (rename) to disk.
fn sync_dir(dir: &Path) {
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
}

fn unique_name(kind: &str, version: GameVersion) -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    format!(
        ".{kind}-{}-{}-{}",
        version.as_str(),
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    )
}

/// Remove `.staging-<version>-*` and `.old-<version>-*` left by interrupted imports.
fn remove_leftovers(cache_root: &Path, version: GameVersion) {
    let Ok(entries) = fs::read_dir(cache_root) else {
        return;
    };
    let staging = format!(".staging-{}-", version.as_str());
    let old = format!(".old-{}-", version.as_str());
    for e in entries.flatten() {
        let name = e.file_name();
        let name = name.to_string_lossy();
        if name.starts_with(&staging) || name.starts_with(&old) {
            let _ = fs::remove_dir_all(e.path());
        }
    }
}

/// Import `version` into `cache_root` (created if missing).
pub fn import(
    cache_root: &Path,
    version: GameVersion,
    mut opts: ImportOptions<'_>,
) -> Result<ImportReport, ImportError> {
    let files = generate(version).map_err(ImportError::Generate)?;
    fs::create_dir_all(cache_root).map_err(io_err(cache_root))?;
    remove_leftovers(cache_root, version);

    let staging_name = unique_name("staging", version);
    let staging = cache_root.join(&staging_name);
    fs::create_dir(&staging).map_err(io_err(&staging))?;
    let result = stage_and_publish(cache_root, version, &files, &staging_name, &mut opts);
    if let Err(e) = &result {
        if !matches!(e, ImportError::Interrupted { .. }) {
            let _ = fs::remove_dir_all(&staging);
        }
    }
    result
}

fn stage_and_publish(
    cache_root: &Path,
    version: GameVersion,
    files: &[super::generate::GeneratedFile],
    staging_name: &str,
    opts: &mut ImportOptions<'_>,
) -> Result<ImportReport, ImportError> {
    let staging = cache_root.join(staging_name);
    let total = files.len() + 1;
    let mut bytes = 0u64;
    for (i, file) in files.iter().enumerate() {
        if opts.interrupt_after == Some(i) {
            return Err(ImportError::Interrupted { staged: i });
        }
        write_synced(&staging.join(file.path), &file.bytes)?;
        bytes += file.bytes.len() as u64;
        if let Some(p) = opts.progress.as_mut() {
            p(i + 1, total, file.path);
        }
    }
    if opts.interrupt_after == Some(files.len()) {
        return Err(ImportError::Interrupted {
            staged: files.len(),
        });
    }
    // The contract's publish rule: every required file staged before the marker.
    let disk = DiskFs::new(cache_root);
    if let Some(missing) = contract::first_unstaged(&disk, staging_name, version) {
        return Err(ImportError::Incomplete(missing));
    }
    let marker = contract::marker_text(
        version,
        contract::content_hash(files.iter().map(|f| (f.path, f.bytes.as_slice()))),
    );
    write_synced(&staging.join(MARKER_FILE), marker.as_bytes())?;
    sync_dir(&staging);
    if let Some(p) = opts.progress.as_mut() {
        p(total, total, MARKER_FILE);
    }

    // Publish: move any previous cache out of the way, then the staged one into place.
    let dir = cache_root.join(contract::version_dir(version));
    let old = cache_root.join(unique_name("old", version));
    let had_old = match fs::symlink_metadata(&dir) {
        Ok(_) => {
            fs::rename(&dir, &old).map_err(io_err(&dir))?;
            true
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => false,
        Err(e) => return Err(io_err(&dir)(e)),
    };
    if let Err(e) = fs::rename(&staging, &dir) {
        if had_old {
            let _ = fs::rename(&old, &dir);
        }
        return Err(io_err(&dir)(e));
    }
    sync_dir(cache_root);
    if had_old {
        let _ = fs::remove_dir_all(&old).or_else(|_| fs::remove_file(&old));
    }
    Ok(ImportReport {
        version,
        dir,
        files: files.len(),
        bytes,
        marker,
    })
}
