//! Save files on disk: atomic write with a rolling backup, and a load that recovers.
//!
//! Write (`write_save`):
//! 0. settle a leftover `<path>.tmp`: if the main file is missing or bad and the `.tmp` is a
//!    complete save (a write died between its renames), it is renamed to `<path>` — never
//!    truncated; otherwise it is unlinked (a symlink there is removed, never followed);
//! 1. encode; create `<path>.tmp` fresh and exclusive (`create_new`: `O_EXCL`, no symlink
//!    following), write it and fsync it;
//! 2. if `<path>` is a good save, rename it to `<path>.bak` (a corrupt main file never
//!    replaces a good backup; a file over [`MAX_SAVE_BYTES`] is judged by size, unread);
//! 3. rename `<path>.tmp` to `<path>`; fsync the directory (best effort).
//!
//! Every crash point leaves a loadable file: before 3 the previous main (or, between 2 and 3,
//! the complete `.tmp`), after 3 the new main; a second interrupted write starts from step 0,
//! so two crashes in a row lose nothing either (`tests/tests/save_crash.rs`).
//!
//! Load (`load_save`): `<path>`; if it is missing or does not decode, the staged `<path>.tmp`,
//! then `<path>.bak`. A load from either reports [`Recovered`].

use std::ffi::OsString;
use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use super::codec::{self, DecodeError, EncodeError, MAX_SAVE_BYTES};
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

fn io_err(p: &Path) -> impl FnOnce(io::Error) -> SaveFileError {
    let p = p.to_path_buf();
    move |source| SaveFileError::Io { path: p, source }
}

/// The atomic write sequence for already-encoded bytes.
pub fn write_bytes_atomic(path: &Path, bytes: &[u8]) -> Result<(), SaveFileError> {
    let tmp = tmp_path(path);
    let bak = bak_path(path);
    settle_leftover_tmp(path, &tmp)?;
    stage(&tmp, bytes)?;
    if is_good_save(path) {
        fs::rename(path, &bak).map_err(io_err(&bak))?;
    }
    fs::rename(&tmp, path).map_err(io_err(path))?;
    sync_parent(path);
    Ok(())
}

/// Step 0: a `<path>.tmp` left by an interrupted write. When the main file is not a good save
/// and the staged file is a complete one (the write died between its two renames), the staged
/// file *is* the newest save: it becomes the main file instead of being truncated. Anything
/// else there (a partial file, a symlink, a stale copy beside a good main) is unlinked; a
/// symlink is removed itself, its target never opened.
fn settle_leftover_tmp(path: &Path, tmp: &Path) -> Result<(), SaveFileError> {
    let meta = match fs::symlink_metadata(tmp) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(io_err(tmp)(e)),
    };
    if meta.file_type().is_file() && !is_good_save(path) && is_good_save(tmp) {
        fs::rename(tmp, path).map_err(io_err(path))?;
        sync_parent(path);
        return Ok(());
    }
    fs::remove_file(tmp).map_err(io_err(tmp))
}

/// Step 1: a fresh, exclusive staged file (`create_new` is `O_CREAT | O_EXCL`, which never
/// follows a symlink), written and synced. A failed write removes what it staged.
fn stage(tmp: &Path, bytes: &[u8]) -> Result<(), SaveFileError> {
    let mut f = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(tmp)
        .map_err(io_err(tmp))?;
    let written = f.write_all(bytes).and_then(|()| f.sync_all());
    if let Err(e) = written {
        drop(f);
        let _ = fs::remove_file(tmp);
        return Err(io_err(tmp)(e));
    }
    Ok(())
}

/// Does `path` hold a save that decodes? Decided by size first: a file over
/// [`MAX_SAVE_BYTES`] is not read at all.
fn is_good_save(path: &Path) -> bool {
    matches!(read_capped(path), Ok(Ok(bytes)) if codec::decode(&bytes).is_ok())
}

/// Read at most [`MAX_SAVE_BYTES`]; a bigger file is `TooLarge` without being read.
fn read_capped(path: &Path) -> io::Result<Result<Vec<u8>, DecodeError>> {
    let f = fs::File::open(path)?;
    let meta = f.metadata()?;
    if !meta.is_file() {
        return Err(io::Error::other("not a regular file"));
    }
    if meta.len() > MAX_SAVE_BYTES {
        return Ok(Err(DecodeError::TooLarge { size: meta.len() }));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    f.take(MAX_SAVE_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_SAVE_BYTES {
        return Ok(Err(DecodeError::TooLarge {
            size: bytes.len() as u64,
        }));
    }
    Ok(Ok(bytes))
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
    match read_capped(path) {
        Ok(read) => {
            any_found = true;
            match read.and_then(|bytes| codec::decode(&bytes)) {
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
        // An unreadable staged or backup file is skipped like a missing one, and so is a
        // symlink (never followed: it was not written by this engine).
        match fs::symlink_metadata(&candidate) {
            Ok(m) if m.file_type().is_file() => {}
            _ => continue,
        }
        let Ok(read) = read_capped(&candidate) else {
            continue;
        };
        any_found = true;
        match read.and_then(|bytes| codec::decode(&bytes)) {
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
