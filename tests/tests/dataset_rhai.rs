//! RFC 0015 through the Rhai host: the bundled example `gold_steel_moves` lists Gold's
//! Steel-type moves while Red is active; fixture mods show the Rhai shape
//! (`view.content.<registry>.get/has/each`, `each()` as `[id, record]` pairs,
//! `view.assets.path/info`), thrown reason codes, read-only facades (no write verbs) and
//! cross-mod isolation.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use pallet_api::catalog::common::GameVersion;
use pallet_api::content::Content;
use pallet_api::loader::{EnableState, Loader, ModCandidate, ModState};
use pallet_api::Runtime;
use pallet_engine::datasets::{import, Datasets, ImportOptions};
use pallet_engine::game::Game;
use pallet_engine::world::GameVersion as Active;
use pallet_script_host::host::RhaiHost;

struct Env {
    rt: Rc<Runtime>,
    loader: Loader,
    root: PathBuf,
}

impl Drop for Env {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.root);
    }
}

fn manifest(id: &str) -> String {
    format!(
        r#"{{"id": "{id}", "name": "{id}", "version": "1.0.0", "api": 2, "entry": "main.rhai"}}"#
    )
}

/// Import `versions` into a fresh cache, then load `dirs` and in-memory `(id, main.rhai)` mods.
fn load(tag: &str, versions: &[GameVersion], dirs: &[PathBuf], memory: &[(&str, &str)]) -> Env {
    let root =
        std::env::temp_dir().join(format!("pallet-dataset-rhai-{tag}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&root);
    for v in versions {
        import(&root, *v, ImportOptions::default()).unwrap();
    }
    let rt = Rc::new(Runtime::new());
    let mut host = RhaiHost::new(&rt);
    host.set_datasets(Rc::new(Datasets::new(&root)));
    let mut candidates: Vec<ModCandidate> =
        dirs.iter().map(|d| ModCandidate::from_dir(d)).collect();
    for (id, main) in memory {
        let mut files = BTreeMap::new();
        files.insert("main.rhai".to_owned(), (*main).to_owned());
        host.add_embedded(id, files);
        candidates.push(ModCandidate::from_manifest_text(id, &manifest(id), true));
    }
    let mut loader = Loader::new(GameVersion::Red, "0.1.0", Content::new());
    loader.add_host(Box::new(host));
    loader.load(&rt, &candidates, &EnableState::default());
    Env { rt, loader, root }
}

impl Env {
    fn feed(&self) -> Vec<String> {
        self.rt
            .drain_diagnostics()
            .into_iter()
            .map(|d| d.message)
            .collect()
    }
    fn loaded(&self, id: &str) {
        let st = self
            .loader
            .status()
            .get(id)
            .map(|m| (m.state, m.error.clone()));
        assert_eq!(
            st.as_ref().map(|s| s.0),
            Some(ModState::Loaded),
            "{id}: {st:?}"
        );
    }
}

fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/mods/gold_steel_moves")
}

#[test]
fn example_lists_gold_steel_moves_while_red_is_active() {
    let env = load("example", &[GameVersion::Gold], &[example()], &[]);
    env.loaded("gold_steel_moves");
    let game = Game::new_game(Active::Red, 1, env.rt.clone()).unwrap();
    let feed = env.feed();
    let line = feed
        .iter()
        .find(|l| l.contains("Steel-type moves"))
        .unwrap_or_else(|| panic!("{feed:?}"));
    assert!(
        line.contains("red is active; gold (generation 2) has 3 Steel-type moves"),
        "{line}"
    );
    for mv in ["IRON_TAIL", "METAL_CLAW", "STEEL_WING"] {
        assert!(line.contains(mv), "{line}");
    }
    assert!(
        feed.iter()
            .any(|l| l.contains(r#"MAGNEMITE is ["ELECTRIC", "STEEL"]"#)),
        "{feed:?}"
    );
    assert!(
        feed.iter()
            .any(|l| l.contains("gold item METAL COAT: item number 143, price 100")),
        "{feed:?}"
    );
    assert!(
        feed.iter()
            .any(|l| l.contains("gold type chart image: gold/assets/generated/type_chart.pgm (")),
        "{feed:?}"
    );
    assert_eq!(game.version(), Active::Red);
}

#[test]
fn example_reports_not_imported_without_a_cache() {
    let env = load("example-missing", &[], &[example()], &[]);
    let _game = Game::new_game(Active::Blue, 1, env.rt.clone()).unwrap();
    let feed = env.feed();
    assert!(
        feed.iter()
            .any(|l| l.contains("gold dataset unavailable: not_imported")),
        "{feed:?}"
    );
}

const SHAPE: &str = r#"
    let view = datasets.open("gold");
    let pairs = view.content.moves.each();
    log.info(`pairs ${type_of(pairs)} ${pairs.len()} first ${pairs[0][0]} ${type_of(pairs[0][1])}`);
    let ids = [];
    for pair in pairs { ids.push(pair[0]); }
    let sorted = ids; sorted.sort();
    log.info(`lexical ${ids == sorted} ${ids.len()}`);
    let chart = view.content.type_chart.each();
    log.info(`chart ${chart.len()} ${chart[0][0]} ${chart[16][0]}`);
    let last = ();
    for pair in view.content.pokemon.each() { last = pair[0]; }
    log.info(`walked every species up to ${last}`);
    log.info(`has ${view.content.pokemon.has("STEELIX")} ${view.content.pokemon.has("")} ${view.content.Species == ()} ${view.content.bogus == ()}`);
    log.info(`odd ids ${view.content.pokemon.has(42)} ${view.content.pokemon.get(()) == ()} ${view.content.moves.get(["TACKLE"]) == ()}`);
    log.info(`get ${view.content.type_chart.get("FIRE").STEEL} ${view.content.moves.get("NOPE") == ()} ${type_of(view.content.moves.get("TACKLE"))}`);
    log.info(`flat ${view.get("moves", "STEEL_WING").type} ${view.has("items", "SAFARI_BALL")} ${view.has("items", "BERRY")} ${type_of(view.each("pokemon").MEW)}`);
    log.info(`assets ${view.assets.path("assets/generated/dataset.json")} ${view.assets.info("assets/generated/nope.png") == ()}`);
    try { view.assets.path("assets/generated/../../../etc/passwd"); log.info("traversal allowed"); }
    catch (e) { log.info(`traversal ${e.code}`); }
    for v in ["crystal", "silver"] {
        try { datasets.open(v); } catch (e) { log.info(`open ${v}: ${e.code}`); }
    }
    try { view.content.moves.register("HACK", #{}); log.info("register worked"); }
    catch (e) { log.info("no register verb"); }
    try { view.content.moves.patch("TACKLE", #{ power: 1 }); log.info("patch worked"); }
    catch (e) { log.info("no patch verb"); }
"#;

#[test]
fn rhai_view_shape_reasons_and_read_only() {
    let env = load("shape", &[GameVersion::Gold], &[], &[("shape", SHAPE)]);
    env.loaded("shape");
    let feed = env.feed().join("\n");
    for want in [
        "pairs array 251 first ABSORB DatasetRecord",
        "lexical true 251",
        "chart 17 BUG WATER",
        "walked every species up to ZUBAT",
        "has true false true true",
        "odd ids false true true",
        "get 2.0 true map",
        "flat STEEL false true DatasetRecord",
        "assets gold/assets/generated/dataset.json true",
        "traversal invalid_value",
        "open crystal: unknown_version",
        "open silver: not_imported",
        "no register verb",
        "no patch verb",
    ] {
        assert!(feed.contains(want), "missing {want:?} in\n{feed}");
    }
}

const RECORD: &str = r#"
    let view = datasets.open("gold");
    let pair = view.content.pokemon.each().filter(|p| p[0] == "STEELIX")[0];
    let rec = pair[1];
    log.info(`prop ${rec.name} ${rec["dex"]} ${rec.types} ${rec.baseStats.specialDefense} ${type_of(rec.baseStats)}`);
    log.info(`missing ${rec.nope == ()} ${rec["nope"] == ()}`);
    log.info(`keys ${rec.keys()} ${rec.len()}`);
    log.info(`contains ${rec.contains("name")} ${rec.has("nope")} ${"dex" in rec} ${"nope" in rec}`);
    let m = rec.to_map();
    log.info(`to_map ${type_of(m)} ${m == view.content.pokemon.get("STEELIX")} ${m.name}`);
    m.name = "CHANGED";
    log.info(`detached ${rec.name} ${view.content.species.each().filter(|p| p[0] == "STEELIX")[0][1].name}`);
    log.info(`eq ${rec == view.content.species.each().filter(|p| p[0] == "STEELIX")[0][1]} ${rec != pair[1]}`);
    try { rec.name = "X"; log.info("set worked"); } catch (e) { log.info("no property set"); }
    try { rec["name"] = "X"; log.info("index set worked"); } catch (e) { log.info("no index set"); }
    log.info(`print ${rec}`.sub_string(0, 40));
    // Aliases are the same registries.
    log.info(`alias ${view.content.species.get("MEW") == view.content.pokemon.get("MEW")} ${view.content.species.get("MEW").name} ${view.content.types.get("FIRE") == view.content.type_chart.get("FIRE")} ${view.content.typeChart.has("STEEL")} ${view.content.mapScripts.each().len()}`);
    log.info(`items ${view.content.items.get("KINGS_ROCK").name} ${view.content.items.each().len()} ${view.content.items.has("GS_BALL")}`);
    let names = view.content.keys(); names.sort();
    log.info(`names ${names}`);
"#;

#[test]
fn each_records_read_like_maps_and_aliases_match() {
    let env = load("record", &[GameVersion::Gold], &[], &[("record", RECORD)]);
    env.loaded("record");
    let feed = env.feed().join("\n");
    for want in [
        r#"prop STEELIX 208 ["STEEL", "GROUND"] 65 map"#,
        "missing true true",
        r#"keys ["baseExp", "baseStats", "catchRate", "dex", "evolutions", "growthRate", "learnset", "name", "startMoves", "types"] 10"#,
        "contains true false true false",
        "to_map map true STEELIX",
        "detached STEELIX STEELIX",
        "eq true false",
        "no property set",
        "no index set",
        "print #{",
        "alias true MEW true true 0",
        "items KING'S ROCK 161 false",
        r#"names ["encounters", "item_effects", "items", "mapScripts", "map_scripts", "maps", "moves", "pokemon", "species", "strings", "text", "trainers", "typeChart", "type_chart", "types"]"#,
    ] {
        assert!(feed.contains(want), "missing {want:?} in\n{feed}");
    }
}

/// Why `each()` records are not plain maps: the same registry as one array of maps is over the
/// sandbox's value limits, and a data-size error is not catchable — it fails the mod.
const PLAIN_MAPS: &str = r#"
    let view = datasets.open("gold");
    try { let all = view.content.pokemon.each().map(|p| p[1].to_map()); log.info(`all maps ${all.len()}`); }
    catch (e) { log.info("caught"); }
"#;

#[test]
fn a_registry_of_plain_maps_would_exceed_the_limits() {
    let env = load("plain", &[GameVersion::Gold], &[], &[("plain", PLAIN_MAPS)]);
    let st = env
        .loader
        .status()
        .get("plain")
        .map(|m| (m.state, m.error.clone()));
    let (state, error) = st.unwrap();
    assert_eq!(state, ModState::Failed);
    assert!(
        error.as_deref().unwrap_or("").contains("too large"),
        "{error:?}"
    );
}

/// Every registry and alias of every version fits the sandbox's value limits as `each()`.
const EVERY: &str = r#"
    for v in ["red", "blue", "yellow", "gold", "silver"] {
        let view = datasets.open(v);
        let content = view.content;
        let counts = [];
        for name in content.keys() {
            let pairs = content[name].each();
            let n = 0;
            for p in pairs { if type_of(p[0]) == "string" && type_of(p[1]) == "DatasetRecord" { n += 1; } }
            counts.push(`${name}=${n}`);
        }
        counts.sort();
        log.info(`${v} ${counts}`);
    }
"#;

#[test]
fn every_registry_of_every_version_fits_the_sandbox_limits() {
    let versions = [
        GameVersion::Red,
        GameVersion::Blue,
        GameVersion::Yellow,
        GameVersion::Gold,
        GameVersion::Silver,
    ];
    let env = load("every", &versions, &[], &[("every", EVERY)]);
    env.loaded("every");
    let feed = env.feed().join("\n");
    for (v, species, moves, items, types) in [
        ("red", 151, 165, 80, 15),
        ("blue", 151, 165, 80, 15),
        ("yellow", 151, 165, 80, 15),
        ("gold", 251, 251, 161, 17),
        ("silver", 251, 251, 161, 17),
    ] {
        let line = feed
            .lines()
            .find(|l| l.contains(&format!("] {v} [")))
            .unwrap_or_else(|| panic!("no line for {v} in\n{feed}"));
        for want in [
            format!("\"pokemon={species}\""),
            format!("\"species={species}\""),
            format!("\"moves={moves}\""),
            format!("\"items={items}\""),
            format!("\"type_chart={types}\""),
            format!("\"types={types}\""),
            format!("\"typeChart={types}\""),
            "\"maps=0\"".to_owned(),
        ] {
            assert!(line.contains(&want), "{want} missing in {line}");
        }
        assert!(!line.contains("\"encounters=0\""), "{line}");
    }
}

const MOD_A: &str = r#"
    let view = datasets.open("gold");
    let tackle = view.content.moves.get("TACKLE");
    tackle.power = 250;
    let content = view.content;
    content.moves = ();
    log.info(`a sees ${view.content.moves.get("TACKLE").power} and ${tackle.power}`);
"#;
const MOD_B: &str = r#"
    let view = datasets.open("gold");
    let n = 0;
    for pair in view.content.moves.each() { n += 1; }
    log.info(`b sees ${view.content.moves.get("TACKLE").power} of ${n}`);
"#;

#[test]
fn mods_get_independent_facades() {
    let env = load(
        "isolation",
        &[GameVersion::Gold],
        &[],
        &[("mod_a", MOD_A), ("mod_b", MOD_B)],
    );
    env.loaded("mod_a");
    env.loaded("mod_b");
    let feed = env.feed().join("\n");
    assert!(feed.contains("a sees 35 and 250"), "{feed}");
    assert!(feed.contains("b sees 35 of 251"), "{feed}");
}

#[test]
fn editor_definitions_declare_the_record_type() {
    let dir = std::env::temp_dir().join(format!("pallet-dataset-defs-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    let (code, out, err) = pallet_script_host::cli::cmd_mods::defs(&dir);
    assert_eq!(code, 0, "{out}{err}");
    let mut text = String::new();
    for entry in fs::read_dir(&dir).unwrap() {
        text.push_str(&fs::read_to_string(entry.unwrap().path()).unwrap());
    }
    let _ = fs::remove_dir_all(&dir);
    for want in ["DatasetRecord", "DatasetRegistry", "fn to_map(", "fn keys("] {
        assert!(text.contains(want), "{want} missing from the definitions");
    }
}
