//! RFC 0015 lazy validation: `open` decodes nothing and reads no semantic module, unused roots
//! are never read, an unchanged cached root is never decoded twice (its bytes are reread and
//! compared), a changed root is decoded again, and every operation rechecks readiness.
//! Counted through the service's counters and a recording cache filesystem.

use std::cell::RefCell;
use std::fs;
use std::path::PathBuf;
use std::rc::Rc;

use pallet_api::catalog::common::GameVersion;
use pallet_api::facades::DatasetsApi;
use pallet_engine::datasets::fs::{CacheFs, DiskFs, ReadError, Stat};
use pallet_engine::datasets::{import, DatasetStats, Datasets, ImportOptions};

/// A disk cache that records every path it is asked to read.
struct Recording {
    disk: DiskFs,
    reads: Rc<RefCell<Vec<String>>>,
}

impl CacheFs for Recording {
    fn stat(&self, rel: &str) -> Option<Stat> {
        self.disk.stat(rel)
    }
    fn read(&self, rel: &str, max: u64) -> Result<Vec<u8>, ReadError> {
        self.reads.borrow_mut().push(rel.to_owned());
        self.disk.read(rel, max)
    }
}

fn setup(tag: &str) -> (PathBuf, Datasets, Rc<RefCell<Vec<String>>>) {
    let root =
        std::env::temp_dir().join(format!("pallet-dataset-lazy-{tag}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&root);
    import(&root, GameVersion::Gold, ImportOptions::default()).unwrap();
    let reads = Rc::new(RefCell::new(Vec::new()));
    let d = Datasets::with_fs(Box::new(Recording {
        disk: DiskFs::new(&root),
        reads: reads.clone(),
    }));
    (root, d, reads)
}

fn module_reads(reads: &RefCell<Vec<String>>) -> Vec<String> {
    reads
        .borrow()
        .iter()
        .filter(|p| p.contains("/data/generated/"))
        .cloned()
        .collect()
}

#[test]
fn open_decodes_nothing_and_reads_no_semantic_module() {
    let (root, d, reads) = setup("open");
    assert!(!d.is_allocated());
    for _ in 0..3 {
        let view = d.open("gold").unwrap();
        assert_eq!(view.generation(), 2);
    }
    let s = d.stats();
    assert_eq!((s.opens, s.decodes, s.semantic_reads), (3, 0, 0));
    assert_eq!(s.readiness_checks, 3);
    assert!(module_reads(&reads).is_empty(), "{:?}", reads.borrow());
    // Only markers were read.
    assert!(reads.borrow().iter().all(|p| p == "gold/dataset.complete"));
    let _ = fs::remove_dir_all(root);
}

#[test]
fn unused_roots_stay_unread_and_cached_roots_decode_once() {
    let (root, d, reads) = setup("once");
    let view = d.open("gold").unwrap();
    assert!(view.has("moves", "STEEL_WING"));
    let after_first = d.stats();
    assert_eq!(after_first.decodes, 1);
    assert_eq!(module_reads(&reads), ["gold/data/generated/moves.lua"]);
    // Repeated access: readiness rechecked and the cached root's bytes reread every time,
    // but never decoded again.
    for _ in 0..5 {
        assert!(view.get("moves", "IRON_TAIL").is_some());
        assert_eq!(view.each("moves").len(), 251);
    }
    let s = d.stats();
    assert_eq!(s.decodes, 1, "no re-decode of an unchanged root");
    assert_eq!(s.readiness_checks, after_first.readiness_checks + 10);
    assert_eq!(
        s.semantic_reads,
        after_first.semantic_reads + 10,
        "one reread per operation"
    );
    // Other views share the cache: still one decode.
    assert!(d.open("gold").unwrap().has("moves", "METAL_CLAW"));
    assert_eq!(d.stats().decodes, 1);
    // Unused roots were never read: pokemon, type_chart and encounters stay on disk only.
    for unused in ["pokemon.lua", "type_chart.lua", "encounters.lua"] {
        assert!(
            !reads.borrow().iter().any(|p| p.ends_with(unused)),
            "{unused} read"
        );
    }
    // Asset metadata reads no module and no asset bytes.
    let before = reads.borrow().len();
    let info = view.asset_info("assets/generated/dataset.json").unwrap();
    assert!(info.size.unwrap() > 0);
    let new: Vec<String> = reads.borrow()[before..].to_vec();
    assert!(
        new.iter()
            .all(|p| p == "gold/dataset.complete" || p.ends_with("moves.lua")),
        "{new:?}"
    );
    // A second root decodes once too.
    assert_eq!(view.each("type_chart").len(), 17);
    assert_eq!(d.stats().decodes, 2);
    // An alias is its target's registry: same cached root, no new decode; an unknown name
    // reads nothing at all.
    assert_eq!(view.each("types").len(), 17);
    assert_eq!(view.each("typeChart").len(), 17);
    assert_eq!(d.stats().decodes, 2);
    let before = (d.stats(), reads.borrow().len());
    assert!(view.each("screens").is_empty() && !view.has("Species", "MEW"));
    assert_eq!((d.stats(), reads.borrow().len()), before);
    let _ = fs::remove_dir_all(root);
}

#[test]
fn a_changed_root_is_decoded_again() {
    let (root, d, _reads) = setup("changed");
    let view = d.open("gold").unwrap();
    assert_eq!(
        view.get("moves", "TACKLE")
            .and_then(|t| t.get("power").cloned()),
        Some(35.into())
    );
    assert_eq!(d.stats().decodes, 1);
    // Rewrite the module with different (valid) bytes of the same size class.
    let path = root.join("gold/data/generated/moves.lua");
    let text: String = fs::read_to_string(&path)
        .unwrap()
        .lines()
        .map(|l| {
            let l = if l.trim_start().starts_with("TACKLE = {") {
                l.replace("power = 35", "power = 36")
            } else {
                l.to_owned()
            };
            l + "\n"
        })
        .collect();
    fs::write(&path, text).unwrap();
    assert_eq!(
        view.get("moves", "TACKLE")
            .and_then(|t| t.get("power").cloned()),
        Some(36.into())
    );
    assert_eq!(d.stats().decodes, 2);
    assert_eq!(
        view.get("moves", "TACKLE")
            .and_then(|t| t.get("power").cloned()),
        Some(36.into())
    );
    assert_eq!(d.stats().decodes, 2);
    let _ = fs::remove_dir_all(root);
}

#[test]
fn counters_stay_zero_until_open() {
    let (root, d, reads) = setup("zero");
    assert_eq!(d.stats(), DatasetStats::default());
    assert!(!d.is_allocated());
    assert!(reads.borrow().is_empty());
    let _ = fs::remove_dir_all(root);
}
