//! The cache filesystem seam: the contract and the dataset service see the cache only through
//! [`CacheFs`], addressed by relative `/`-separated virtual paths (`gold/data/generated/…`).
//! [`DiskFs`] is the real one; it refuses to cross a symbolic link at any component below the
//! cache root, so nothing outside `<cache>/<version>/` can be reached through the cache (the
//! source/cache boundary).

use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// What a path names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryKind {
    File,
    Dir,
    /// A symbolic link (at the path or any parent below the root), a device, a socket…:
    /// never followed, never served.
    Other,
}

/// `stat` result: kind and size in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stat {
    pub kind: EntryKind,
    pub size: u64,
}

/// Why a read failed.
#[derive(Debug)]
pub enum ReadError {
    /// Missing, not a regular file, or behind a symbolic link.
    NotAFile,
    /// Larger than the caller's bound (nothing beyond the bound was read).
    TooLarge,
    Io(io::Error),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::NotAFile => f.write_str("not a regular file inside the cache"),
            ReadError::TooLarge => f.write_str("file exceeds the size limit"),
            ReadError::Io(e) => write!(f, "{e}"),
        }
    }
}

/// Read access to a cache root.
pub trait CacheFs {
    /// Metadata of `rel` without following symbolic links; `None` when it does not exist or
    /// cannot be inspected.
    fn stat(&self, rel: &str) -> Option<Stat>;
    /// The bytes of regular file `rel`, refusing files over `max` bytes.
    fn read(&self, rel: &str, max: u64) -> Result<Vec<u8>, ReadError>;
}

/// Is `rel` a clean relative virtual path: non-empty segments separated by `/`, none of them
/// `.` or `..`, no backslash, no control character, no leading `/`, no drive prefix?
pub fn is_clean_relative(rel: &str) -> bool {
    !rel.is_empty()
        && rel.len() <= 1024
        && !rel.starts_with('/')
        && !rel.contains('\\')
        && !rel.contains(':')
        && !rel.chars().any(char::is_control)
        && rel
            .split('/')
            .all(|seg| !seg.is_empty() && seg != "." && seg != "..")
}

/// The real cache on disk under `root`.
#[derive(Clone, Debug)]
pub struct DiskFs {
    root: PathBuf,
}

impl DiskFs {
    pub fn new(root: impl Into<PathBuf>) -> Self {
        DiskFs { root: root.into() }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Walk `rel` one component at a time with `symlink_metadata` (never following a link).
    /// `None`: missing or unclean; `Some(None)`: reachable only through a link or a
    /// non-directory parent; `Some(Some((meta, path)))`: the leaf itself.
    fn walk(&self, rel: &str) -> Option<Option<(fs::Metadata, PathBuf)>> {
        if !is_clean_relative(rel) {
            return None;
        }
        let mut path = self.root.clone();
        let mut segments = rel.split('/').peekable();
        while let Some(seg) = segments.next() {
            path.push(seg);
            let meta = fs::symlink_metadata(&path).ok()?;
            if segments.peek().is_none() {
                return Some(Some((meta, path)));
            }
            if !meta.file_type().is_dir() {
                return Some(None);
            }
        }
        None
    }
}

fn kind_of(meta: &fs::Metadata) -> EntryKind {
    let t = meta.file_type();
    if t.is_symlink() {
        EntryKind::Other
    } else if t.is_file() {
        EntryKind::File
    } else if t.is_dir() {
        EntryKind::Dir
    } else {
        EntryKind::Other
    }
}

impl CacheFs for DiskFs {
    fn stat(&self, rel: &str) -> Option<Stat> {
        Some(match self.walk(rel)? {
            Some((meta, _)) => Stat {
                kind: kind_of(&meta),
                size: meta.len(),
            },
            None => Stat {
                kind: EntryKind::Other,
                size: 0,
            },
        })
    }

    fn read(&self, rel: &str, max: u64) -> Result<Vec<u8>, ReadError> {
        let Some(Some((meta, path))) = self.walk(rel) else {
            return Err(ReadError::NotAFile);
        };
        if kind_of(&meta) != EntryKind::File {
            return Err(ReadError::NotAFile);
        }
        if meta.len() > max {
            return Err(ReadError::TooLarge);
        }
        let file = fs::File::open(&path).map_err(ReadError::Io)?;
        let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
        // Bounded even if the file grows between the stat and the read.
        file.take(max.saturating_add(1))
            .read_to_end(&mut bytes)
            .map_err(ReadError::Io)?;
        if bytes.len() as u64 > max {
            return Err(ReadError::TooLarge);
        }
        Ok(bytes)
    }
}
