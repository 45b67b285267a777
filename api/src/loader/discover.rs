//! Finding mods: one directory level, `mods/<dir>/manifest.json`, in sorted directory order.

use std::path::{Path, PathBuf};

use crate::manifest::{parse_manifest, ManifestError, ParsedManifest};

/// A mod found on disk (or built in memory by tests and tools).
#[derive(Clone, Debug)]
pub struct ModCandidate {
    /// The folder name (used as the id in error rows when the manifest is unreadable).
    pub dir_name: String,
    /// The mod folder, when it lives on disk.
    pub root: Option<PathBuf>,
    pub manifest: Result<ParsedManifest, ManifestError>,
    /// Does the manifest's `entry` file exist?
    pub entry_exists: bool,
}

impl ModCandidate {
    /// A candidate from manifest text (in-memory fixtures). `entry_exists` stands in for the
    /// file check.
    pub fn from_manifest_text(dir_name: &str, manifest_json: &str, entry_exists: bool) -> Self {
        ModCandidate {
            dir_name: dir_name.to_owned(),
            root: None,
            manifest: parse_manifest(manifest_json),
            entry_exists,
        }
    }

    /// Read one mod folder.
    pub fn from_dir(dir: &Path) -> Self {
        let dir_name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let manifest = match std::fs::read_to_string(dir.join("manifest.json")) {
            Ok(text) => parse_manifest(&text),
            Err(e) => Err(ManifestError {
                field: String::new(),
                message: format!("cannot read manifest.json: {e}"),
            }),
        };
        let entry_exists = manifest
            .as_ref()
            .map(|m| dir.join(&m.manifest.entry).is_file())
            .unwrap_or(false);
        ModCandidate {
            dir_name,
            root: Some(dir.to_owned()),
            manifest,
            entry_exists,
        }
    }
}

/// Every sub-folder of `mods_dir` holding a `manifest.json`, sorted by folder name. A missing
/// mods folder is an empty list.
pub fn discover(mods_dir: &Path) -> std::io::Result<Vec<ModCandidate>> {
    let entries = match std::fs::read_dir(mods_dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let mut dirs: Vec<PathBuf> = Vec::new();
    for entry in entries {
        let path = entry?.path();
        if path.is_dir() && path.join("manifest.json").is_file() {
            dirs.push(path);
        }
    }
    dirs.sort();
    Ok(dirs.iter().map(|d| ModCandidate::from_dir(d)).collect())
}
