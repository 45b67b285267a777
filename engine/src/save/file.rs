//! Save files on disk: atomic write with a rolling backup, and a load that recovers.
//!
//! Write (`write_save`):
//! 1. encode; write `<path>.tmp` and fsync it;
//! 2. if `<path>` exists and decodes, rename it to `<path>.bak` (a corrupt main file never
//!    replaces a good backup);
//! 3. rename `<path>.tmp` to `<path>`; fsync the directory (best effort).
//!
//! Every crash point leaves a loadable file: before 3 the previous main (or, between 2 and 3,
//! the complete `.tmp`), after 3 the new main.
//!
//! Load (`load_save`): `<path>`; if it is missing or does not decode, the staged `<path>.tmp`,
//! then `<path>.bak`. A load from either reports [`Recovered`].

use std::ffi::OsString;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::codec::{self, DecodeError, EncodeError};
use super::data::SaveData;

#[derive(Debug, thiserror::Error)]
pub enum SaveFileError {
    #[error("cannot encode the save: {0}")]
    Encode(#[from] EncodeError),
    #[error("cannot write {}: {source}", path.display())]
    Io { path: PathBuf, source: io::Error },
}

#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("no save at {} (nor a .tmp or .bak beside it)", .0.display())]
    NotFound(PathBuf),
    #[error("cannot read {}: {source}", path.display())]
    Io { path: PathBuf, source: io::Error },
    #[error("save {} is unreadable and no backup could be used: {}", path.display(), describe(.attempts))]
    Corrupt {
        path: PathBuf,
        attempts: Vec<(PathBuf, DecodeError)>,
    },
}

fn describe(attempts: &[(PathBuf, DecodeError)]) -> String {
    attempts
        .iter()
        .map(|(p, e)| format!("{}: {e}", p.display()))
        .collect::<Vec<_>>()
        .join("; ")
}

/// Which file a recovered save came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecoverySource {
    Tmp,
    Bak,
}

/// A load that did not come from the main file.
#[derive(Debug)]
pub struct Recovered {
    pub from: RecoverySource,
    /// Why the main file was not used (`None`: it was missing).
    pub main_error: Option<DecodeError>,
}

#[derive(Debug)]
pub struct Loaded {
    pub save: SaveData,
    /// `Some` when the main file was missing or corrupt and a staged/backup file was used.
    pub recovered: Option<Recovered>,
}

/// `<path>.tmp`.
pub fn tmp_path(path: &Path) -> PathBuf {
    with_suffix(path, ".tmp")
}

/// `<path>.bak`.
pub fn bak_path(path: &Path) -> PathBuf {
    with_suffix(path, ".bak")
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut s: OsString = path.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

/// Write `save` to `path` atomically, keeping the previous file as `<path>.bak`.
pub fn write_save(path: &Path, save: &SaveData) -> Result<(), SaveFileError> {
    let bytes = codec::encode(save)?;
    write_bytes_atomic(path, &bytes)
}

/// The atomic write sequence for already-encoded bytes.
pub fn write_bytes_atomic(path: &Path, bytes: &[u8]) -> Result<(), SaveFileError> {
    let io_err = |p: &Path| {
        let p = p.to_path_buf();
        move |source| SaveFileError::Io { path: p, source }
    };
    let tmp = tmp_path(path);
    let bak = bak_path(path);
    {
        let mut f = fs::File::create(&tmp).map_err(io_err(&tmp))?;
        f.write_all(bytes).map_err(io_err(&tmp))?;
        f.sync_all().map_err(io_err(&tmp))?;
    }
    match fs::read(path) {
        Ok(old) => {
            if codec::decode(&old).is_ok() {
                fs::rename(path, &bak).map_err(io_err(&bak))?;
            }
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => {
            return Err(SaveFileError::Io {
                path: path.to_path_buf(),
                source: e,
            })
        }
    }
    fs::rename(&tmp, path).map_err(io_err(path))?;
    sync_parent(path);
    Ok(())
}

/// Persist the renames (best effort: not every platform can open a directory).
fn sync_parent(path: &Path) {
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if let Ok(dir) = fs::File::open(parent) {
        let _ = dir.sync_all();
    }
}

/// Load the save at `path`, recovering from `<path>.tmp` or `<path>.bak` when the main file is
/// missing or corrupt.
pub fn load_save(path: &Path) -> Result<Loaded, LoadError> {
    let mut main_error: Option<DecodeError> = None;
    let mut attempts: Vec<(PathBuf, DecodeError)> = Vec::new();
    let mut any_found = false;
    match fs::read(path) {
        Ok(bytes) => {
            any_found = true;
            match codec::decode(&bytes) {
                Ok(save) => {
                    return Ok(Loaded {
                        save,
                        recovered: None,
                    })
                }
                Err(e) => main_error = Some(e),
            }
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => {
            return Err(LoadError::Io {
                path: path.to_path_buf(),
                source: e,
            })
        }
    }
    for (candidate, from) in [
        (tmp_path(path), RecoverySource::Tmp),
        (bak_path(path), RecoverySource::Bak),
    ] {
        // An unreadable staged or backup file is skipped like a missing one.
        let Ok(bytes) = fs::read(&candidate) else {
            continue;
        };
        any_found = true;
        match codec::decode(&bytes) {
            Ok(save) => {
                return Ok(Loaded {
                    save,
                    recovered: Some(Recovered { from, main_error }),
                })
            }
            Err(e) => attempts.push((candidate, e)),
        }
    }
    if !any_found {
        return Err(LoadError::NotFound(path.to_path_buf()));
    }
    if let Some(e) = main_error {
        attempts.insert(0, (path.to_path_buf(), e));
    }
    Err(LoadError::Corrupt {
        path: path.to_path_buf(),
        attempts,
    })
}
