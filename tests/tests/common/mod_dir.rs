//! A content mod written to a temp folder, for tests that load it the way `pallet run` does.

use std::path::PathBuf;

/// `<tmp>/pallet-<tag>-<pid>/<id>/` holding a manifest (`id`, `version`, api 2, the `content`
/// capability) and `main` as its entry file `entry` (`.rhai` or `.lua`).
pub fn content_mod_dir(tag: &str, id: &str, version: &str, entry: &str, main: &str) -> PathBuf {
    let root = std::env::temp_dir().join(format!("pallet-{tag}-{}-{id}", std::process::id()));
    let dir = root.join(id);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let manifest = format!(
        r#"{{"id": "{id}", "name": "{id}", "version": "{version}", "api": 2, "entry": "{entry}", "capabilities": ["content"]}}"#
    );
    std::fs::write(dir.join("manifest.json"), manifest).unwrap();
    std::fs::write(dir.join(entry), main).unwrap();
    dir
}
