//! Atomic writes and recovering loads.

use std::fs;
use std::path::{Path, PathBuf};

use super::*;
use crate::save::codec::{encode, DecodeError};
use crate::save::file::{bak_path, load_save, tmp_path, write_save, LoadError, RecoverySource};

/// A fresh scratch directory per test (removed on drop).
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("pallet-save-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("scratch dir");
        Scratch(dir)
    }

    fn save_path(&self) -> PathBuf {
        self.0.join("save_red.json")
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn older_save() -> SaveData {
    let mut s = vanilla_save();
    s.money = 100;
    s
}

fn write_raw(path: &Path, bytes: &[u8]) {
    fs::write(path, bytes).expect("write fixture");
}

#[test]
fn write_then_load_and_previous_file_becomes_bak() {
    let dir = Scratch::new("write");
    let path = dir.save_path();
    write_save(&path, &older_save()).unwrap();
    assert!(
        !bak_path(&path).exists(),
        "first write has nothing to back up"
    );
    write_save(&path, &vanilla_save()).unwrap();
    assert!(!tmp_path(&path).exists(), "the staged file is renamed away");
    assert_eq!(fs::read(&path).unwrap(), encode(&vanilla_save()).unwrap());
    assert_eq!(
        fs::read(bak_path(&path)).unwrap(),
        encode(&older_save()).unwrap()
    );
    let loaded = load_save(&path).unwrap();
    assert!(loaded.recovered.is_none());
    assert_eq!(loaded.save, vanilla_save());
}

#[test]
fn truncated_main_recovers_from_bak() {
    let dir = Scratch::new("truncated");
    let path = dir.save_path();
    write_save(&path, &older_save()).unwrap();
    write_save(&path, &vanilla_save()).unwrap();
    let full = fs::read(&path).unwrap();
    write_raw(&path, &full[..full.len() / 2]);
    let loaded = load_save(&path).unwrap();
    let rec = loaded.recovered.expect("recovered");
    assert_eq!(rec.from, RecoverySource::Bak);
    assert!(matches!(rec.main_error, Some(DecodeError::Json(_))));
    assert_eq!(loaded.save, older_save());
}

#[test]
fn garbage_main_with_good_bak() {
    let dir = Scratch::new("garbage");
    let path = dir.save_path();
    write_raw(&path, b"\x00\x01garbage\xff");
    write_raw(&bak_path(&path), &encode(&older_save()).unwrap());
    let loaded = load_save(&path).unwrap();
    let rec = loaded.recovered.expect("recovered");
    assert_eq!(rec.from, RecoverySource::Bak);
    assert!(matches!(rec.main_error, Some(DecodeError::NotASave)));
    assert_eq!(loaded.save, older_save());
}

#[test]
fn missing_main_with_tmp() {
    // The crash window between "main -> .bak" and ".tmp -> main": the staged file is newest.
    let dir = Scratch::new("tmp");
    let path = dir.save_path();
    write_raw(&tmp_path(&path), &encode(&vanilla_save()).unwrap());
    write_raw(&bak_path(&path), &encode(&older_save()).unwrap());
    let loaded = load_save(&path).unwrap();
    let rec = loaded.recovered.expect("recovered");
    assert_eq!(rec.from, RecoverySource::Tmp);
    assert!(rec.main_error.is_none(), "main was missing, not corrupt");
    assert_eq!(loaded.save, vanilla_save());
}

#[test]
fn partial_tmp_falls_back_to_bak() {
    let dir = Scratch::new("partialtmp");
    let path = dir.save_path();
    let bytes = encode(&vanilla_save()).unwrap();
    write_raw(&tmp_path(&path), &bytes[..bytes.len() - 10]);
    write_raw(&bak_path(&path), &encode(&older_save()).unwrap());
    let loaded = load_save(&path).unwrap();
    assert_eq!(loaded.recovered.unwrap().from, RecoverySource::Bak);
    assert_eq!(loaded.save, older_save());
}

#[test]
fn nothing_there_and_nothing_usable_are_typed_errors() {
    let dir = Scratch::new("none");
    let path = dir.save_path();
    let err = load_save(&path).unwrap_err();
    assert!(matches!(err, LoadError::NotFound(_)));
    assert!(err.to_string().starts_with("no save at "));

    write_raw(&path, b"PALLET-SAVE 1\n{");
    write_raw(&bak_path(&path), b"junk");
    match load_save(&path).unwrap_err() {
        LoadError::Corrupt { attempts, .. } => {
            assert_eq!(attempts.len(), 2);
            assert_eq!(attempts[0].0, path);
            assert_eq!(attempts[1].0, bak_path(&path));
        }
        other => panic!("{other:?}"),
    }
    // A directory where the save should be: an I/O error, not a panic.
    let dir_path = dir.0.join("adir");
    fs::create_dir_all(&dir_path).unwrap();
    assert!(matches!(load_save(&dir_path), Err(LoadError::Io { .. })));
}

#[test]
fn writing_over_a_corrupt_main_keeps_the_good_bak() {
    let dir = Scratch::new("keepbak");
    let path = dir.save_path();
    write_raw(&path, b"corrupt");
    write_raw(&bak_path(&path), &encode(&older_save()).unwrap());
    write_save(&path, &vanilla_save()).unwrap();
    assert_eq!(
        fs::read(bak_path(&path)).unwrap(),
        encode(&older_save()).unwrap()
    );
    assert_eq!(load_save(&path).unwrap().save, vanilla_save());
}

#[test]
fn write_errors_are_typed() {
    let dir = Scratch::new("writeerr");
    let path = dir.0.join("no_such_dir").join("save.json");
    let err = write_save(&path, &vanilla_save()).unwrap_err();
    assert!(err.to_string().starts_with("cannot write "), "{err}");
    let mut s = vanilla_save();
    s.mod_data
        .insert("m".into(), pallet_api::Value::Float(f64::NAN));
    let err = write_save(&dir.save_path(), &s).unwrap_err();
    assert!(err.to_string().contains("non-finite"), "{err}");
    assert!(
        !dir.save_path().exists(),
        "nothing is written when encoding fails"
    );
}

#[cfg(unix)]
#[test]
fn a_planted_tmp_symlink_is_removed_not_followed() {
    let dir = Scratch::new("symlink");
    let path = dir.save_path();
    let victim = dir.0.join("victim.txt");
    write_raw(&victim, b"precious");
    std::os::unix::fs::symlink(&victim, tmp_path(&path)).unwrap();
    write_save(&path, &vanilla_save()).unwrap();
    assert_eq!(fs::read(&victim).unwrap(), b"precious", "target untouched");
    assert_eq!(load_save(&path).unwrap().save, vanilla_save());
    // A symlinked .tmp is never a recovery source either.
    fs::remove_file(&path).unwrap();
    let good = dir.0.join("elsewhere.json");
    write_raw(&good, &encode(&older_save()).unwrap());
    std::os::unix::fs::symlink(&good, tmp_path(&path)).unwrap();
    assert!(matches!(load_save(&path), Err(LoadError::NotFound(_))));
}

#[test]
fn a_leftover_complete_tmp_is_recovered_not_truncated() {
    // A write died between "main -> .bak" and ".tmp -> main": the .tmp is the newest save.
    let dir = Scratch::new("leftover");
    let path = dir.save_path();
    let newest = {
        let mut s = vanilla_save();
        s.money = 777;
        s
    };
    write_raw(&tmp_path(&path), &encode(&newest).unwrap());
    write_raw(&bak_path(&path), &encode(&older_save()).unwrap());
    write_save(&path, &vanilla_save()).unwrap();
    // The recovered staged save became main and then the backup of the new write.
    assert_eq!(fs::read(bak_path(&path)).unwrap(), encode(&newest).unwrap());
    assert_eq!(load_save(&path).unwrap().save, vanilla_save());
    assert!(!tmp_path(&path).exists());
}

#[test]
fn a_huge_main_file_is_judged_by_its_size_unread() {
    let dir = Scratch::new("huge");
    let path = dir.save_path();
    write_raw(&bak_path(&path), &encode(&older_save()).unwrap());
    // A 3 GB sparse file: reading it whole would take 3 GB of memory.
    let f = fs::File::create(&path).unwrap();
    f.set_len(3 << 30).unwrap();
    drop(f);
    let loaded = load_save(&path).unwrap();
    assert!(matches!(
        loaded.recovered.unwrap().main_error,
        Some(DecodeError::TooLarge { .. })
    ));
    write_save(&path, &vanilla_save()).unwrap();
    assert_eq!(
        fs::read(bak_path(&path)).unwrap(),
        encode(&older_save()).unwrap(),
        "an oversized main never replaces the good backup"
    );
    assert_eq!(load_save(&path).unwrap().save, vanilla_save());
}
