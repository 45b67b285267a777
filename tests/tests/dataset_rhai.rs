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
    log.info(`has ${view.content.pokemon.has("STEELIX")} ${view.content.pokemon.has("")} ${view.content.species == ()}`);
    log.info(`odd ids ${view.content.pokemon.has(42)} ${view.content.pokemon.get(()) == ()} ${view.content.moves.get(["TACKLE"]) == ()}`);
    log.info(`get ${view.content.type_chart.get("FIRE").STEEL} ${view.content.moves.get("NOPE") == ()}`);
    log.info(`flat ${view.get("moves", "STEEL_WING").type} ${view.has("items", "POTION")}`);
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
        "pairs DatasetRecords 251 first ABSORB map",
        "lexical true 251",
        "chart 17 BUG WATER",
        "walked every species up to ZUBAT",
        "has true false true",
        "odd ids false true true",
        "get 2.0 true",
        "flat STEEL false",
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
