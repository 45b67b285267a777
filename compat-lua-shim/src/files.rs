//! A mod's own files for `mod:read(rel)` / `mod:list(prefix)` and the entry: a folder on disk or
//! an in-memory map (tests, embedded mods). Every path is relative, checked with the api's
//! `safe_relative_path` (no absolute paths, `..`, backslashes, drive letters, control
//! characters), and on disk resolved through `canonicalize` so a symlink cannot lead outside the
//! mod folder.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::rc::Rc;

use pallet_api::manifest::safe_relative_path;

/// Largest file `mod:read` returns.
pub const MAX_READ_BYTES: usize = 16 * 1024 * 1024;
/// Most paths `mod:list` returns.
pub const MAX_LIST: usize = 4_096;

/// What a path of a mod's folder is ([`ModFiles::kind`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    File(u64),
    Directory,
}

#[derive(Clone)]
pub enum ModFiles {
    Dir(PathBuf),
    Embedded(Rc<BTreeMap<String, String>>),
}

impl ModFiles {
    /// Read `rel` as text.
    pub fn read(&self, rel: &str) -> Result<String, String> {
        if !safe_relative_path(rel) {
            return Err(format!("{rel}: not a relative path inside the mod folder"));
        }
        match self {
            ModFiles::Embedded(files) => files
                .get(rel)
                .cloned()
                .ok_or_else(|| format!("{rel}: no such file")),
            ModFiles::Dir(root) => {
                let root = root
                    .canonicalize()
                    .map_err(|e| format!("mod folder unreadable: {e}"))?;
                let path = root
                    .join(rel)
                    .canonicalize()
                    .map_err(|_| format!("{rel}: no such file"))?;
                if !path.starts_with(&root) {
                    return Err(format!("{rel}: leads outside the mod folder"));
                }
                let meta = std::fs::metadata(&path).map_err(|e| format!("{rel}: {e}"))?;
                if !meta.is_file() {
                    return Err(format!("{rel}: not a file"));
                }
                if meta.len() > MAX_READ_BYTES as u64 {
                    return Err(format!("{rel}: larger than {MAX_READ_BYTES} bytes"));
                }
                let bytes = std::fs::read(&path).map_err(|e| format!("{rel}: {e}"))?;
                String::from_utf8(bytes).map_err(|_| format!("{rel}: not UTF-8 text"))
            }
        }
    }

    /// The size of file `rel` when it is one of the mod's files (`assets:info`).
    pub fn info(&self, rel: &str) -> Option<i64> {
        if !safe_relative_path(rel) {
            return None;
        }
        match self {
            ModFiles::Embedded(files) => files.get(rel).map(|t| t.len() as i64),
            ModFiles::Dir(root) => {
                let root = root.canonicalize().ok()?;
                let path = root.join(rel).canonicalize().ok()?;
                let meta = std::fs::metadata(&path).ok()?;
                (path.starts_with(&root) && meta.is_file()).then_some(meta.len() as i64)
            }
        }
    }

    /// The folder `rel` inside the mod folder (`""`: the folder itself), resolved and confined.
    fn dir_path(root: &std::path::Path, rel: &str) -> Result<(PathBuf, PathBuf), String> {
        let root = root
            .canonicalize()
            .map_err(|e| format!("mod folder unreadable: {e}"))?;
        if rel.is_empty() {
            return Ok((root.clone(), root));
        }
        if !safe_relative_path(rel) {
            return Err(format!("{rel}: not a relative path inside the mod folder"));
        }
        let path = root
            .join(rel)
            .canonicalize()
            .map_err(|_| format!("{rel}: no such file or folder"))?;
        if !path.starts_with(&root) {
            return Err(format!("{rel}: leads outside the mod folder"));
        }
        Ok((root, path))
    }

    /// What `rel` is (`""`: the mod folder): a file with its size, a folder, or nothing
    /// (absent, unsafe, or leading outside the folder).
    pub fn kind(&self, rel: &str) -> Option<Kind> {
        match self {
            ModFiles::Embedded(files) => {
                if let Some(text) = files.get(rel) {
                    return Some(Kind::File(text.len() as u64));
                }
                let prefix = format!("{rel}/");
                (rel.is_empty()
                    || (safe_relative_path(rel) && files.keys().any(|k| k.starts_with(&prefix))))
                .then_some(Kind::Directory)
            }
            ModFiles::Dir(root) => {
                let (_, path) = Self::dir_path(root, rel).ok()?;
                let meta = std::fs::metadata(&path).ok()?;
                if meta.is_dir() {
                    Some(Kind::Directory)
                } else if meta.is_file() {
                    Some(Kind::File(meta.len()))
                } else {
                    None
                }
            }
        }
    }

    /// The names directly in folder `rel` (`""`: the mod folder), sorted; at most [`MAX_LIST`].
    /// On disk, symlinks are left out (they could lead outside the folder).
    pub fn dir_items(&self, rel: &str) -> Result<Vec<String>, String> {
        let mut out: Vec<String> = match self {
            ModFiles::Embedded(files) => {
                if self.kind(rel) != Some(Kind::Directory) {
                    return Err(format!("{rel}: not a folder of the mod"));
                }
                let prefix = if rel.is_empty() {
                    String::new()
                } else {
                    format!("{rel}/")
                };
                let names: std::collections::BTreeSet<String> = files
                    .keys()
                    .filter_map(|k| k.strip_prefix(&prefix))
                    .filter_map(|rest| rest.split('/').next())
                    .filter(|n| !n.is_empty())
                    .map(str::to_owned)
                    .collect();
                names.into_iter().collect()
            }
            ModFiles::Dir(root) => {
                let (_, dir) = Self::dir_path(root, rel)?;
                let entries = std::fs::read_dir(&dir)
                    .map_err(|_| format!("{rel}: not a folder of the mod"))?;
                let mut names = Vec::new();
                for entry in entries.flatten() {
                    let Ok(kind) = entry.file_type() else {
                        continue;
                    };
                    if kind.is_symlink() || !(kind.is_dir() || kind.is_file()) {
                        continue;
                    }
                    let Ok(name) = entry.file_name().into_string() else {
                        continue;
                    };
                    names.push(name);
                    if names.len() > MAX_LIST {
                        return Err(format!("{rel}: more than {MAX_LIST} entries"));
                    }
                }
                names
            }
        };
        out.sort();
        Ok(out)
    }

    /// Every file path (relative, `/`-separated, sorted) starting with `prefix`.
    pub fn list(&self, prefix: &str) -> Result<Vec<String>, String> {
        if prefix.contains("..") || prefix.starts_with('/') || prefix.contains('\\') {
            return Err(format!(
                "{prefix}: not a relative path inside the mod folder"
            ));
        }
        let mut out = Vec::new();
        match self {
            ModFiles::Embedded(files) => {
                out.extend(files.keys().filter(|k| k.starts_with(prefix)).cloned());
            }
            ModFiles::Dir(root) => {
                let root = root
                    .canonicalize()
                    .map_err(|e| format!("mod folder unreadable: {e}"))?;
                let mut stack = vec![(root.clone(), String::new(), 0usize)];
                while let Some((dir, rel, depth)) = stack.pop() {
                    let Ok(entries) = std::fs::read_dir(&dir) else {
                        continue;
                    };
                    for entry in entries.flatten() {
                        let name = entry.file_name().to_string_lossy().into_owned();
                        let child_rel = if rel.is_empty() {
                            name
                        } else {
                            format!("{rel}/{name}")
                        };
                        // Symlinks are not followed (they could lead outside the folder).
                        let Ok(kind) = entry.file_type() else {
                            continue;
                        };
                        if kind.is_dir() && depth < 16 {
                            stack.push((entry.path(), child_rel, depth + 1));
                        } else if kind.is_file() && child_rel.starts_with(prefix) {
                            out.push(child_rel);
                        }
                        if out.len() > MAX_LIST {
                            return Err(format!("more than {MAX_LIST} files"));
                        }
                    }
                }
                out.sort();
            }
        }
        out.truncate(MAX_LIST);
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_folders_list_their_names_and_kinds() {
        let files: BTreeMap<String, String> = [
            ("main.lua", "x"),
            ("lib/a.lua", "ab"),
            ("lib/deep/b.lua", ""),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
        let f = ModFiles::Embedded(Rc::new(files));
        assert_eq!(f.dir_items("").unwrap(), ["lib", "main.lua"]);
        assert_eq!(f.dir_items("lib").unwrap(), ["a.lua", "deep"]);
        assert_eq!(f.kind(""), Some(Kind::Directory));
        assert_eq!(f.kind("lib/deep"), Some(Kind::Directory));
        assert_eq!(f.kind("lib/a.lua"), Some(Kind::File(2)));
        assert_eq!(f.kind("li"), None);
        assert_eq!(f.kind("../lib"), None);
        assert!(f.dir_items("main.lua").is_err());
        assert!(f.dir_items("../x").is_err());
    }
}
