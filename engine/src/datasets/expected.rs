//! What this engine build expects of a cache: the completion marker computed from the embedded
//! source ([`super::generate`]) and the readiness check against it. Kept apart from
//! [`super::contract`] (the layout rules), which the generator itself follows.

use std::sync::OnceLock;

use super::contract::{content_hash, inspect_against, marker_text, CacheProblem, Ready};
use super::fs::CacheFs;
use pallet_api::catalog::common::GameVersion;

/// The marker this engine build writes for `version` (computed once per process from the
/// embedded source; see [`super::generate`]).
pub fn expected_marker(version: GameVersion) -> &'static str {
    static MARKERS: [OnceLock<String>; 5] = [
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
    ];
    let slot = &MARKERS[version as usize];
    slot.get_or_init(|| match super::generate::generate(version) {
        Ok(files) => marker_text(
            version,
            content_hash(files.iter().map(|f| (f.path, f.bytes.as_slice()))),
        ),
        // Nothing can be imported then, and no file on disk matches this text.
        Err(e) => format!("\u{0}unavailable: {e}"),
    })
}

/// Readiness of `version` under `fs` (reference `CacheContract.inspect`): the version directory
/// is a real directory, the marker equals [`expected_marker`], every required file is a
/// non-empty regular file reached without links, and the size preflight holds (each module
/// ≤ 8 MiB, modules together ≤ 48 MiB; a violation is `invalid_cache`). Reads the marker and
/// sizes only.
pub fn inspect(fs: &dyn CacheFs, version: GameVersion) -> Result<Ready, CacheProblem> {
    inspect_against(fs, version, expected_marker(version))
}
