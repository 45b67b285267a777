//! `pallet import` (through the function behind the CLI: exit codes, output, the progress bar
//! only on a terminal) and `pallet run --cache` with the `gold_steel_moves` example.

use std::fs;
use std::path::{Path, PathBuf};

use pallet_engine::datasets::expected;
use pallet_engine::world::GameVersion;
use pallet_script_host::cli::cmd_import::{cache_dir, execute, ImportArgs};
use pallet_script_host::cli::cmd_run::{play_with_mods, MAIN_SCENARIO};
use pallet_script_host::cli::progress::{Captured, Draw};
use pallet_script_host::host::ModsOptions;

struct Root(PathBuf);
impl Drop for Root {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}
fn root(tag: &str) -> Root {
    let p = std::env::temp_dir().join(format!("pallet-dataset-cli-{tag}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&p);
    Root(p)
}

fn import(version: &str, cache: &Path, check: bool, draw: Draw) -> (i32, String, String) {
    let args = ImportArgs {
        version: version.to_owned(),
        cache: Some(cache.to_owned()),
        check,
    };
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = execute(&args, draw, &mut out, &mut err);
    (
        code,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

#[test]
fn import_check_and_progress() {
    let r = root("import");
    let (code, out, _) = import("gold", &r.0, true, Draw::Hidden);
    assert_eq!(code, 1);
    assert!(out.starts_with("gold: not_imported ("), "{out}");
    // Not a terminal: no progress bar at all.
    let (code, out, err) = import("gold", &r.0, false, Draw::Hidden);
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "{err:?}");
    assert!(out.starts_with("imported gold: 7 files, "), "{out}");
    let marker = expected::expected_marker(pallet_api::catalog::common::GameVersion::Gold);
    assert!(out.contains(&format!("marker {marker}")), "{out}");
    let (code, out, _) = import("gold", &r.0, true, Draw::Hidden);
    assert_eq!(code, 0);
    assert_eq!(out, format!("gold: ready (7 files, marker {marker})\n"));
    // On a terminal: one indicatif bar over the staged files and the marker, finished at 8/8
    // with the rate and the ETA; nothing of it reaches the error stream.
    let drawn = Captured::default();
    let (code, _, err) = import("yellow", &r.0, false, Draw::Capture(drawn.clone()));
    assert_eq!(code, 0);
    assert!(err.is_empty(), "{err:?}");
    let bar = drawn.text();
    assert!(bar.contains("8/8 files"), "{bar:?}");
    assert!(bar.contains("dataset.complete"), "{bar:?}");
    assert!(bar.contains("ETA"), "{bar:?}");
    // A cache root that cannot be created fails with exit code 1.
    let file = r.0.join("not-a-dir");
    fs::write(&file, b"x").unwrap();
    let (code, _, err) = import("red", &file, false, Draw::Hidden);
    assert_eq!(code, 1);
    assert!(err.starts_with("pallet import red: "), "{err}");
    assert_eq!(import("crystal", &r.0, false, Draw::Hidden).0, 2);
    assert_eq!(cache_dir(Some(Path::new("/x"))), Ok(PathBuf::from("/x")));
}

#[test]
fn run_reads_gold_while_red_is_active() {
    let r = root("run");
    assert_eq!(import("gold", &r.0, false, Draw::Hidden).0, 0);
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/mods/gold_steel_moves");
    let opts = ModsOptions {
        dirs: vec![example],
        no_default_mods: true,
        trace: false,
        cache: Some(r.0.clone()),
    };
    let outcome = match play_with_mods(GameVersion::Red, 1, MAIN_SCENARIO, Some(&opts)) {
        Ok(o) => o,
        Err(f) => panic!("{}\n{}", f.message, f.transcript),
    };
    let t = &outcome.transcript;
    assert!(
        t.contains("[gold_steel_moves] red is active; gold (generation 2) has 3 Steel-type moves"),
        "{t}"
    );
    // The same run without a cache: the mod reports it, the game is unaffected.
    let empty = root("run-empty");
    let opts = ModsOptions {
        cache: Some(empty.0.clone()),
        ..opts
    };
    let without = play_with_mods(GameVersion::Red, 1, MAIN_SCENARIO, Some(&opts)).unwrap();
    assert!(
        without
            .transcript
            .contains("gold dataset unavailable: not_imported"),
        "{}",
        without.transcript
    );
    let plain = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| {
                !l.contains("gold") && !l.contains("[datasets]") && !l.contains("MAGNEMITE")
            })
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(
        plain(t),
        plain(&without.transcript),
        "the game itself is identical"
    );
}
