//! Where the RFC 0015 dataset cache lives: `--cache DIR` or the platform default. The session
//! opens `datasets.open` there; `pallet import`, `run --cache` and `mods check --cache` share it.

use std::path::{Path, PathBuf};

/// The platform's default cache root for Pallet, from the environment: `XDG_CACHE_HOME`
/// (when absolute) or `~/.cache` on Linux and other Unixes, `~/Library/Caches` on macOS,
/// `%LOCALAPPDATA%` on Windows. `None` when no home directory is known.
pub fn default_cache_dir() -> Option<PathBuf> {
    let env = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if cfg!(windows) {
        return env("LOCALAPPDATA").map(|p| p.join("pallet").join("cache"));
    }
    if cfg!(target_os = "macos") {
        return env("HOME").map(|h| h.join("Library").join("Caches").join("pallet"));
    }
    if let Some(xdg) = env("XDG_CACHE_HOME").filter(|p| p.is_absolute()) {
        return Some(xdg.join("pallet"));
    }
    env("HOME").map(|h| h.join(".cache").join("pallet"))
}

/// `--cache DIR` if given, else the platform default. Shared by every verb that reads or
/// writes the dataset cache.
pub fn cache_dir(option: Option<&Path>) -> Result<PathBuf, String> {
    match option {
        Some(p) => Ok(p.to_owned()),
        None => default_cache_dir().ok_or_else(|| {
            "no cache directory: set HOME (or XDG_CACHE_HOME), or pass --cache DIR".to_owned()
        }),
    }
}
