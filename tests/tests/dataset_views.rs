//! RFC 0015 dataset views through the public facade (`DatasetsApi` / `DatasetView`):
//! every version independently, normalization, deterministic iteration, detached records,
//! independent read-only facades, asset paths, stable reasons, the cache lifecycle
//! (missing / empty / partial / stale / remove / reimport), hostile sources and malformed
//! records, and the active game left untouched while Gold is read.

use std::fs;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use pallet_api::catalog::common::GameVersion;
use pallet_api::facades::{DatasetView, DatasetsApi};
use pallet_api::reasons::DatasetError;
use pallet_api::{Runtime, Value};
use pallet_engine::datasets::{
    contract, expected, import, registry_names, Datasets, ImportOptions,
};

/// A unique cache root under the system temp dir, removed on drop.
struct TempCache(PathBuf);

impl TempCache {
    fn new(tag: &str) -> TempCache {
        use std::sync::atomic::{AtomicU64, Ordering};
        static N: AtomicU64 = AtomicU64::new(0);
        let p = std::env::temp_dir().join(format!(
            "pallet-dataset-views-{tag}-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = fs::remove_dir_all(&p);
        TempCache(p)
    }
    fn path(&self) -> &Path {
        &self.0
    }
    fn import(&self, v: GameVersion) {
        import(&self.0, v, ImportOptions::default()).expect("import");
    }
    fn file(&self, v: GameVersion, rel: &str) -> PathBuf {
        self.0.join(v.as_str()).join(rel)
    }
}

impl Drop for TempCache {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn open(d: &Datasets, v: &str) -> Result<Box<dyn DatasetView>, DatasetError> {
    d.open(v)
}

const MOVES: &str = "data/generated/moves.lua";

#[test]
fn all_five_versions_open_independently() {
    // (version, generation, species, moves, types, items)
    let expect = [
        (GameVersion::Red, 1, 151, 165, 15, 80),
        (GameVersion::Blue, 1, 151, 165, 15, 80),
        (GameVersion::Yellow, 1, 151, 165, 15, 80),
        (GameVersion::Gold, 2, 251, 251, 17, 161),
        (GameVersion::Silver, 2, 251, 251, 17, 161),
    ];
    for (v, generation, species, moves, types, items) in expect {
        let cache = TempCache::new("five");
        cache.import(v);
        let d = Datasets::new(cache.path());
        let view = open(&d, v.as_str()).unwrap();
        assert_eq!(view.version(), v);
        assert_eq!(view.generation(), generation);
        assert_eq!(view.each("pokemon").len(), species, "{v:?}");
        assert_eq!(view.each("moves").len(), moves, "{v:?}");
        assert_eq!(view.each("type_chart").len(), types, "{v:?}");
        assert_eq!(view.each("items").len(), items, "{v:?}");
        assert!(!view.each("encounters").is_empty(), "{v:?}");
        for other in GameVersion::ALL.into_iter().filter(|o| *o != v) {
            assert_eq!(
                open(&d, other.as_str()).err(),
                Some(DatasetError::NotImported),
                "{v:?} imported alone; {other:?} is not"
            );
        }
    }
}

#[test]
fn versions_differ_where_the_games_do() {
    let cache = TempCache::new("differ");
    for v in GameVersion::ALL {
        cache.import(v);
    }
    let d = Datasets::new(cache.path());
    let view = |v: &str| open(&d, v).unwrap();
    let route4 = |v: &dyn DatasetView| -> Vec<String> {
        v.get("encounters", "ROUTE_4")
            .and_then(|r| r.get("grass").cloned())
            .and_then(|g| g.get("slots").cloned())
            .and_then(|s| s.as_list().map(<[Value]>::to_vec))
            .unwrap_or_default()
            .iter()
            .filter_map(|s| s.get("species").and_then(Value::as_str).map(str::to_owned))
            .collect()
    };
    let (red, blue, yellow) = (view("red"), view("blue"), view("yellow"));
    assert!(route4(&*red).contains(&"EKANS".to_owned()));
    assert!(
        route4(&*blue).contains(&"SANDSHREW".to_owned())
            && !route4(&*blue).contains(&"EKANS".to_owned())
    );
    assert!(route4(&*yellow).contains(&"MANKEY".to_owned()));
    // Yellow's corrections: Pikachu learns Thunderbolt at 26 only in Yellow.
    let thunderbolt = |v: &dyn DatasetView| {
        v.get("pokemon", "PIKACHU")
            .and_then(|p| p.get("learnset").cloned())
            .and_then(|l| l.as_list().map(<[Value]>::to_vec))
            .unwrap_or_default()
            .iter()
            .any(|row| row.get("move").and_then(Value::as_str) == Some("THUNDERBOLT"))
    };
    assert!(thunderbolt(&*yellow));
    assert!(!thunderbolt(&*red) && !thunderbolt(&*blue));
    assert_eq!(red.each("moves"), blue.each("moves"));
    assert_ne!(red.each("pokemon"), yellow.each("pokemon"));
    let (gold, silver) = (view("gold"), view("silver"));
    assert_ne!(gold.each("encounters"), silver.each("encounters"));
    assert_eq!(gold.each("pokemon"), silver.each("pokemon"));
}

#[test]
fn registries_are_normalized_to_the_public_shape() {
    let cache = TempCache::new("norm");
    cache.import(GameVersion::Gold);
    cache.import(GameVersion::Red);
    let d = Datasets::new(cache.path());
    let gold = open(&d, "gold").unwrap();
    // Every public registry is reachable; ones without data are empty, unknown ones answer
    // nothing (and read nothing).
    let names: Vec<&str> = registry_names().collect();
    assert_eq!(
        names,
        [
            "pokemon",
            "moves",
            "items",
            "item_effects",
            "type_chart",
            "maps",
            "map_scripts",
            "trainers",
            "encounters",
            "strings",
            "text"
        ]
    );
    for name in ["maps", "map_scripts", "trainers"] {
        assert!(gold.each(name).is_empty(), "{name}");
    }
    // Gold/Silver items: the Gen 2 table with Gen 2 numbers and prices.
    let great = gold.get("items", "GREAT_BALL").unwrap();
    assert_eq!(great.get("num"), Some(&Value::Int(4)));
    assert_eq!(great.get("kind"), Some(&Value::from("ball")));
    assert_eq!(
        gold.get("items", "KINGS_ROCK")
            .and_then(|r| r.get("name").cloned()),
        Some(Value::from("KING'S ROCK"))
    );
    assert!(!gold.has("items", "GS_BALL"), "Crystal-only");
    assert!(!gold.has("items", "SAFARI_BALL"), "Gen 1 only");
    // Aliases serve exactly their target registry; unknown names serve nothing.
    for (alias, target) in pallet_api::content::REGISTRY_ALIASES {
        assert_eq!(gold.each(alias), gold.each(target), "{alias}");
    }
    assert_eq!(gold.each("species").len(), 251);
    assert_eq!(
        gold.get("species", "MAGNEMITE"),
        gold.get("pokemon", "MAGNEMITE")
    );
    assert!(gold.has("species", "MAGNEMITE"));
    assert_eq!(gold.get("types", "FIRE"), gold.get("type_chart", "FIRE"));
    assert!(gold.each("Species").is_empty() && gold.each("screens").is_empty());
    assert!(!gold.has("Species", "MAGNEMITE"));
    // Type matchups keep the public ids of the active type_chart: attacker -> defender.
    let normal = gold.get("type_chart", "NORMAL").unwrap();
    assert_eq!(
        normal.get("GHOST"),
        Some(&Value::Float(0.0)),
        "Foresight rows merged"
    );
    assert_eq!(normal.get("STEEL"), Some(&Value::Float(0.5)));
    let red = open(&d, "red").unwrap();
    assert_eq!(
        red.get("type_chart", "GHOST")
            .and_then(|g| g.get("PSYCHIC").cloned()),
        Some(Value::Float(0.0)),
        "the Gen 1 cartridge's Ghost/Psychic quirk survives"
    );
    assert!(red.get("type_chart", "STEEL").is_none());
    // Species: the cartridge type pair becomes the public list; Gen 2 has Special Defense.
    let charmander = gold.get("pokemon", "CHARMANDER").unwrap();
    assert_eq!(
        charmander.get("types"),
        Some(&Value::List(vec!["FIRE".into()]))
    );
    assert!(charmander
        .get("baseStats")
        .and_then(|s| s.get("specialDefense"))
        .is_some());
    assert!(red
        .get("pokemon", "CHARMANDER")
        .and_then(|c| c.get("baseStats").cloned())
        .is_some_and(|s| s.get("specialDefense").is_none()));
    // Extractor metadata beside the records is not a record.
    for meta in [
        "format",
        "version",
        "generation",
        "registry",
        "records",
        "matchups",
        "foresight",
    ] {
        assert!(
            !gold.has("moves", meta) && !gold.has("type_chart", meta),
            "{meta}"
        );
    }
    // Every record crosses in the registry's public schema.
    for name in registry_names() {
        let (_, shape, _) = pallet_api::content::REGISTRIES
            .iter()
            .find(|(n, _, _)| *n == name)
            .unwrap();
        for (id, rec) in gold.each(name) {
            pallet_api::content::schema::check(shape, &rec, &format!("{name}.{id}")).unwrap();
        }
    }
    // Ids are exact: empty and differently spelled ids are absent.
    assert!(gold.get("pokemon", "").is_none());
    assert!(!gold.has("pokemon", ""));
    assert!(gold.get("pokemon", "magnemite").is_none());
    assert!(gold.has("pokemon", "MAGNEMITE"));
}

#[test]
fn iteration_is_lexical_and_deterministic() {
    let cache = TempCache::new("order");
    cache.import(GameVersion::Silver);
    let a = Datasets::new(cache.path());
    let b = Datasets::new(cache.path());
    for reg in ["pokemon", "moves", "type_chart", "encounters"] {
        let first = open(&a, "silver").unwrap().each(reg);
        let ids: Vec<&String> = first.iter().map(|(id, _)| id).collect();
        let mut sorted = ids.clone();
        sorted.sort();
        assert_eq!(ids, sorted, "{reg} in lexical order");
        assert_eq!(
            first,
            open(&b, "silver").unwrap().each(reg),
            "{reg}: same on another service"
        );
        assert_eq!(
            first,
            open(&a, "silver").unwrap().each(reg),
            "{reg}: same again"
        );
    }
    // A reimport writes byte-identical files.
    let before = fs::read(cache.file(GameVersion::Silver, "data/generated/pokemon.lua")).unwrap();
    cache.import(GameVersion::Silver);
    assert_eq!(
        before,
        fs::read(cache.file(GameVersion::Silver, "data/generated/pokemon.lua")).unwrap()
    );
}

#[test]
fn records_are_detached_and_facades_independent() {
    let cache = TempCache::new("detached");
    cache.import(GameVersion::Gold);
    let d = Datasets::new(cache.path());
    // Two mods, two independent facades over the one cached internal dataset.
    let mod_a = open(&d, "gold").unwrap();
    let mod_b = open(&d, "gold").unwrap();
    let mut tackle = mod_a.get("moves", "TACKLE").unwrap();
    if let Value::Map(m) = &mut tackle {
        m.insert("power".into(), Value::Int(250));
        m.insert("type".into(), "STEEL".into());
    }
    let mut all = mod_a.each("moves");
    all.clear();
    assert_eq!(
        mod_a
            .get("moves", "TACKLE")
            .and_then(|t| t.get("power").cloned()),
        Some(Value::Int(35))
    );
    assert_eq!(
        mod_b
            .get("moves", "TACKLE")
            .and_then(|t| t.get("type").cloned()),
        Some(Value::from("NORMAL"))
    );
    assert_eq!(mod_b.each("moves").len(), 251);
    // A separate service (another game) sees the same data through its own state.
    let other = Datasets::new(cache.path());
    assert_eq!(
        open(&other, "gold").unwrap().each("moves"),
        mod_b.each("moves")
    );
}

#[test]
fn asset_paths_are_prefixed_and_traversal_is_rejected() {
    let cache = TempCache::new("assets");
    cache.import(GameVersion::Gold);
    cache.import(GameVersion::Yellow);
    let d = Datasets::new(cache.path());
    let gold = open(&d, "gold").unwrap();
    let yellow = open(&d, "yellow").unwrap();
    let rel = "assets/generated/type_chart.pgm";
    assert_eq!(
        gold.asset_path(rel).as_deref(),
        Some("gold/assets/generated/type_chart.pgm")
    );
    assert_eq!(
        yellow.asset_path(rel).as_deref(),
        Some("yellow/assets/generated/type_chart.pgm")
    );
    let size = fs::metadata(cache.file(GameVersion::Gold, rel))
        .unwrap()
        .len();
    let info = gold.asset_info(rel).unwrap();
    assert_eq!((info.kind.as_str(), info.size), ("file", Some(size)));
    assert_ne!(
        yellow.asset_info(rel),
        Some(info),
        "15 vs 17 types: different images"
    );
    assert!(gold.asset_info("assets/generated/missing.png").is_none());
    assert_eq!(
        gold.asset_path("assets/generated/sprites/front/steelix.png")
            .as_deref(),
        Some("gold/assets/generated/sprites/front/steelix.png"),
        "a well-formed path maps even if the file does not exist; info says whether it does"
    );
    let outside = cache.path().join("secret.txt");
    fs::write(&outside, b"not for mods").unwrap();
    for bad in [
        "assets/generated/../../secret.txt",
        "assets/generated/../../../etc/passwd",
        "../secret.txt",
        "/etc/passwd",
        "assets\\generated\\type_chart.pgm",
        "assets/generated/./type_chart.pgm",
        "assets/generated//type_chart.pgm",
        "assets/generated/type_chart.pgm\n",
        "assets/generated/\u{7}x",
        "assets/generated/",
        "data/generated/moves.lua",
        "dataset.complete",
        "assets/other/x",
        "",
    ] {
        assert_eq!(gold.asset_path(bad), None, "{bad:?}");
        assert_eq!(gold.asset_info(bad), None, "{bad:?}");
    }
}

#[test]
fn stable_reasons() {
    let cache = TempCache::new("reasons");
    let d = Datasets::new(cache.path());
    for unknown in [
        "crystal", "", "Gold", "GOLD", " gold", "../gold", "gold/", "red\0",
    ] {
        assert_eq!(
            open(&d, unknown).err(),
            Some(DatasetError::UnknownVersion),
            "{unknown:?}"
        );
    }
    assert_eq!(open(&d, "gold").err(), Some(DatasetError::NotImported));
    assert_eq!(DatasetError::UnknownVersion.as_str(), "unknown_version");
    assert_eq!(DatasetError::NotImported.as_str(), "not_imported");
    assert_eq!(DatasetError::InvalidCache.as_str(), "invalid_cache");
    cache.import(GameVersion::Gold);
    fs::write(cache.file(GameVersion::Gold, MOVES), "return 42\n").unwrap();
    let view = open(&d, "gold").unwrap();
    assert!(view.get("moves", "TACKLE").is_none());
    assert_eq!(open(&d, "gold").err(), Some(DatasetError::InvalidCache));
}

#[test]
fn stale_markers_are_rejected() {
    let cache = TempCache::new("stale");
    cache.import(GameVersion::Red);
    let d = Datasets::new(cache.path());
    let marker = cache.file(GameVersion::Red, contract::MARKER_FILE);
    let good = fs::read_to_string(&marker).unwrap();
    assert_eq!(good, expected::expected_marker(GameVersion::Red));
    let view = open(&d, "red").unwrap();
    assert!(view.has("moves", "TACKLE"));
    for stale in [
        // An older format, another version's format, another build's content hash, garbage.
        good.replace("pallet-cache-v1-", "pallet-cache-v0-"),
        good.replace("gen1", "yellow1"),
        format!(
            "{}0000000000000000",
            contract::marker_format(GameVersion::Red)
        ),
        String::from("complete"),
        format!("{good}\n"),
    ] {
        fs::write(&marker, &stale).unwrap();
        assert_eq!(
            open(&d, "red").err(),
            Some(DatasetError::NotImported),
            "{stale:?}"
        );
        assert!(
            !view.has("moves", "TACKLE"),
            "an open view stops serving: {stale:?}"
        );
    }
    // A Red cache copied under another version's name is not that version's cache.
    fs::write(&marker, &good).unwrap();
    let copy = cache.path().join("blue");
    fs::create_dir_all(&copy).unwrap();
    copy_dir(&cache.path().join("red"), &copy);
    assert_eq!(open(&d, "blue").err(), Some(DatasetError::NotImported));
    assert!(view.has("moves", "TACKLE"), "red serves again");
}

fn copy_dir(from: &Path, to: &Path) {
    for e in fs::read_dir(from).unwrap().flatten() {
        let dest = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            fs::create_dir_all(&dest).unwrap();
            copy_dir(&e.path(), &dest);
        } else {
            fs::copy(e.path(), dest).unwrap();
        }
    }
}

#[test]
fn missing_empty_partial_stale_remove_reimport() {
    let cache = TempCache::new("lifecycle");
    let d = Datasets::new(cache.path());
    let v = GameVersion::Yellow;
    // Missing: no cache root at all.
    assert_eq!(open(&d, "yellow").err(), Some(DatasetError::NotImported));
    // Empty: the version directory exists but holds nothing.
    fs::create_dir_all(cache.path().join("yellow")).unwrap();
    assert_eq!(open(&d, "yellow").err(), Some(DatasetError::NotImported));
    // Partial: an interrupted import leaves no marker and nothing published.
    let err = import(
        cache.path(),
        v,
        ImportOptions {
            interrupt_after: Some(3),
            ..Default::default()
        },
    );
    assert!(err.is_err());
    assert_eq!(open(&d, "yellow").err(), Some(DatasetError::NotImported));
    // Partial: a complete-looking cache missing one required file (asset or module).
    cache.import(v);
    let view = open(&d, "yellow").unwrap();
    assert!(view.has("pokemon", "PIKACHU"));
    for rel in contract::required_files(v) {
        let path = cache.file(v, rel);
        let bytes = fs::read(&path).unwrap();
        fs::remove_file(&path).unwrap();
        assert_eq!(
            open(&d, "yellow").err(),
            Some(DatasetError::NotImported),
            "{rel} missing"
        );
        assert!(
            !view.has("pokemon", "PIKACHU"),
            "{rel} missing: the live view stops serving"
        );
        fs::write(&path, b"").unwrap();
        assert_eq!(
            open(&d, "yellow").err(),
            Some(DatasetError::NotImported),
            "{rel} empty"
        );
        fs::write(&path, &bytes).unwrap();
        assert!(view.has("pokemon", "PIKACHU"), "{rel} restored");
    }
    // Stale: covered in detail by `stale_markers_are_rejected`.
    // Remove: the whole cache goes away under a live view.
    fs::remove_dir_all(cache.path().join("yellow")).unwrap();
    assert!(view.get("pokemon", "PIKACHU").is_none());
    assert!(view.each("moves").is_empty());
    assert_eq!(view.asset_path("assets/generated/dataset.json"), None);
    assert_eq!(view.asset_info("assets/generated/dataset.json"), None);
    assert_eq!(open(&d, "yellow").err(), Some(DatasetError::NotImported));
    // Reimport: the same facade and new ones serve the fresh cache.
    cache.import(v);
    assert!(view.has("pokemon", "PIKACHU"));
    assert_eq!(open(&d, "yellow").unwrap().each("pokemon").len(), 151);
    // Reimport over a cache with a tampered module replaces it wholesale.
    fs::write(cache.file(v, MOVES), "return {}").unwrap();
    assert!(view.each("moves").is_empty());
    assert_eq!(open(&d, "yellow").err(), Some(DatasetError::InvalidCache));
    cache.import(v);
    assert_eq!(open(&d, "yellow").unwrap().each("moves").len(), 165);
}

/// Sources that must be rejected by the decoder (never executed) and invalidate the view.
fn hostile_sources() -> Vec<(&'static str, Vec<u8>)> {
    let header = "-- generated by pallet import from the embedded gen1 dataset — do not edit\n";
    let mut out: Vec<(&'static str, Vec<u8>)> = vec![
        (
            "statement",
            format!("{header}os.execute('touch /tmp/pwned')\nreturn {{}}").into_bytes(),
        ),
        (
            "infinite loop",
            format!("{header}while true do end\nreturn {{}}").into_bytes(),
        ),
        (
            "function literal",
            format!("{header}return {{ records = function() while true do end end }}").into_bytes(),
        ),
        ("function root", b"return function() return {} end".to_vec()),
        ("assignment", b"records = {}\nreturn records".to_vec()),
        ("trailing statement", b"return {} os.exit(1)".to_vec()),
        ("second return", b"return {}\nreturn {}".to_vec()),
        (
            "binary chunk",
            b"\x1bLuaQ\x00\x01\x04\x08\x04\x08\x00".to_vec(),
        ),
        ("non-table root", b"return \"moves\"".to_vec()),
        ("global read", b"return { records = _G }".to_vec()),
        (
            "metatable",
            b"return setmetatable({}, {__index = function() end})".to_vec(),
        ),
        ("long string", b"return { x = [[long]] }".to_vec()),
        ("unterminated", b"return { x = 'open".to_vec()),
        ("garbage", vec![0xff, 0xfe, 0x00, 0x41]),
    ];
    out.push((
        "too deep",
        format!("return {}{}", "{".repeat(65), "}".repeat(65)).into_bytes(),
    ));
    out.push((
        "deeper",
        format!("return {}", "{".repeat(200_000)).into_bytes(),
    ));
    out.push((
        "long string",
        format!("return {{ x = \"{}\" }}", "a".repeat(2 * 1024 * 1024 + 1)).into_bytes(),
    ));
    out.push((
        "too many entries",
        format!("return {{{}}}", "0,".repeat(250_001)).into_bytes(),
    ));
    out
}

#[test]
fn hostile_generated_source_is_rejected_not_executed() {
    let cache = TempCache::new("hostile");
    cache.import(GameVersion::Red);
    let path = cache.file(GameVersion::Red, MOVES);
    let good = fs::read(&path).unwrap();
    for (what, bytes) in hostile_sources() {
        let d = Datasets::new(cache.path());
        fs::write(&path, &bytes).unwrap();
        // `open` checks sizes only, so it cannot see the problem yet.
        let view = open(&d, "red").unwrap_or_else(|e| panic!("{what}: open said {e}"));
        let started = std::time::Instant::now();
        assert!(view.get("moves", "TACKLE").is_none(), "{what}");
        assert!(
            started.elapsed().as_secs() < 5,
            "{what}: rejected without running"
        );
        assert!(
            !view.has("pokemon", "PIKACHU"),
            "{what}: the whole view is invalidated"
        );
        assert!(view.each("type_chart").is_empty(), "{what}");
        assert_eq!(
            open(&d, "red").err(),
            Some(DatasetError::InvalidCache),
            "{what}"
        );
        assert!(!Path::new("/tmp/pwned").exists());
        assert!(
            d.details().iter().any(|l| l.contains("invalidated")),
            "{what}: engine-logged"
        );
        // Fixing the source makes the same service serve again.
        fs::write(&path, &good).unwrap();
        assert!(
            open(&d, "red").unwrap().has("moves", "TACKLE"),
            "{what}: recovered"
        );
    }
}

/// `text` with `from` replaced by `to` on the line starting with `line`.
fn on_line(text: &str, line: &str, from: &str, to: &str) -> String {
    text.lines()
        .map(|l| {
            let l = if l.trim_start().starts_with(line) {
                l.replace(from, to)
            } else {
                l.to_owned()
            };
            l + "\n"
        })
        .collect()
}

#[test]
fn malformed_records_are_rejected() {
    let cache = TempCache::new("malformed");
    cache.import(GameVersion::Red);
    let path = cache.file(GameVersion::Red, MOVES);
    let good = fs::read_to_string(&path).unwrap();
    let cases: Vec<(&str, String)> = vec![
        (
            "power out of range",
            on_line(&good, "TACKLE = {", "power = 35", "power = 999"),
        ),
        (
            "Gen 2 type in Gen 1",
            good.replacen("type = \"NORMAL\"", "type = \"STEEL\"", 1),
        ),
        ("missing required field", good.replacen("pp = 35, ", "", 1)),
        (
            "wrong field type",
            good.replacen("accuracy = 100", "accuracy = \"always\"", 1),
        ),
        (
            "wrong version metadata",
            good.replacen("version = \"red\"", "version = \"blue\"", 1),
        ),
        (
            "wrong registry metadata",
            good.replacen("registry = \"moves\"", "registry = \"items\"", 1),
        ),
        (
            "records not a map",
            good.replacen("records = {", "records = {{}, ", 1),
        ),
        (
            "bad id",
            good.replacen("TACKLE = {", "[\"TACK LE\"] = {", 1),
        ),
        (
            "duplicate id",
            good.replacen("TACKLE = {", "TAIL_WHIP = {}, TACKLE = {", 1),
        ),
    ];
    for (what, text) in cases {
        assert_ne!(text, good, "{what}: the fixture edit applied");
        let d = Datasets::new(cache.path());
        fs::write(&path, &text).unwrap();
        let view = open(&d, "red").unwrap();
        assert!(view.each("moves").is_empty(), "{what}");
        assert!(view.get("moves", "TACKLE").is_none(), "{what}");
        assert_eq!(
            open(&d, "red").err(),
            Some(DatasetError::InvalidCache),
            "{what}"
        );
    }
    fs::write(&path, &good).unwrap();
    assert!(open(&Datasets::new(cache.path()), "red")
        .unwrap()
        .has("moves", "TACKLE"));
}

#[test]
fn active_red_blue_yellow_are_untouched_while_reading_gold() {
    use pallet_engine::game::Game;
    use pallet_engine::world::{GameVersion as Active, Input};
    let cache = TempCache::new("active");
    cache.import(GameVersion::Gold);
    let d = Datasets::new(cache.path());
    let inputs = [
        Input::Down,
        Input::Down,
        Input::Left,
        Input::A,
        Input::Up,
        Input::Right,
    ];
    for active in Active::ALL {
        let run = |read_gold: bool| {
            let mut game = Game::new_game(active, 7, Rc::new(Runtime::new())).unwrap();
            for (i, input) in inputs.iter().cycle().take(120).enumerate() {
                if read_gold && i % 10 == 0 {
                    let gold = open(&d, "gold").unwrap();
                    assert!(gold.has("moves", "STEEL_WING"));
                    assert_eq!(gold.each("type_chart").len(), 17);
                    let _ = gold.asset_info("assets/generated/type_chart.pgm");
                }
                game.step(*input);
            }
            let save = pallet_engine::save::codec::encode(&game.save).unwrap();
            (game.version(), save, game.tick)
        };
        let plain = run(false);
        let reading = run(true);
        assert_eq!(plain.0, active);
        assert_eq!(
            reading, plain,
            "{active:?}: same game, same save bytes with Gold being read"
        );
    }
    // The active data tables are the Gen 1 ones, untouched by Gen 2 views.
    let gen1 = pallet_engine::data::gen1();
    assert_eq!(gen1.types.len(), 15);
    assert!(gen1.move_by_name("STEEL_WING").is_none());
    assert_eq!(gen1.species.len(), 151);
}
