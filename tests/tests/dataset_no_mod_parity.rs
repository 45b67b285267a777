//! RFC 0015 no-mod parity: a game whose mods never call `datasets.open` never allocates the
//! dataset service and never touches the cache (zero stats, zero reads) — with no mods at all,
//! and with Rhai mods that have the (default-granted) `datasets` handle but do not use it.

use std::cell::Cell;
use std::collections::BTreeMap;
use std::rc::Rc;

use pallet_api::catalog::common::GameVersion;
use pallet_api::content::Content;
use pallet_api::loader::{EnableState, Loader, ModCandidate, ModState};
use pallet_api::Runtime;
use pallet_engine::datasets::fs::{CacheFs, ReadError, Stat};
use pallet_engine::datasets::{DatasetStats, Datasets};
use pallet_engine::game::Game;
use pallet_engine::world::{GameVersion as Active, Input};
use pallet_script_host::host::RhaiHost;

/// A cache filesystem that counts every access (any access is a parity failure).
struct Tripwire(Rc<Cell<u32>>);

impl CacheFs for Tripwire {
    fn stat(&self, _rel: &str) -> Option<Stat> {
        self.0.set(self.0.get() + 1);
        None
    }
    fn read(&self, _rel: &str, _max: u64) -> Result<Vec<u8>, ReadError> {
        self.0.set(self.0.get() + 1);
        Err(ReadError::NotAFile)
    }
}

fn play(rt: Rc<Runtime>) {
    let mut game = Game::new_game(Active::Red, 3, rt).unwrap();
    for input in [Input::Down, Input::Left, Input::A, Input::Up, Input::Right]
        .iter()
        .cycle()
        .take(200)
    {
        game.step(*input);
    }
}

#[test]
fn no_mods_never_allocate_the_service() {
    let touched = Rc::new(Cell::new(0));
    let datasets = Datasets::with_fs(Box::new(Tripwire(touched.clone())));
    play(Rc::new(Runtime::new()));
    assert!(!datasets.is_allocated());
    assert_eq!(datasets.stats(), DatasetStats::default());
    assert_eq!(touched.get(), 0);
}

#[test]
fn mods_that_do_not_open_views_never_allocate_it() {
    let touched = Rc::new(Cell::new(0));
    let datasets = Datasets::with_fs(Box::new(Tripwire(touched.clone())));
    let rt = Rc::new(Runtime::new());
    let mut host = RhaiHost::new(&rt);
    host.set_datasets(Rc::new(datasets.clone()));
    let main = r#"
        events.on("game.ready", |payload| { log.info(`ready on ${payload.game.version}`); });
        let handle_exists = type_of(datasets);
        log.info(`datasets handle: ${handle_exists}`);
    "#;
    let mut files = BTreeMap::new();
    files.insert("main.rhai".to_owned(), main.to_owned());
    host.add_embedded("quiet", files);
    let manifest =
        r#"{"id": "quiet", "name": "Quiet", "version": "1.0.0", "api": 2, "entry": "main.rhai"}"#;
    let candidates = vec![ModCandidate::from_manifest_text("quiet", manifest, true)];
    let mut loader = Loader::new(GameVersion::Red, "0.1.0", Content::new());
    loader.add_host(Box::new(host));
    loader.load(&rt, &candidates, &EnableState::default());
    assert_eq!(
        loader.status().get("quiet").map(|m| m.state),
        Some(ModState::Loaded)
    );
    play(rt.clone());
    let feed: Vec<String> = rt
        .drain_diagnostics()
        .into_iter()
        .map(|d| d.message)
        .collect();
    assert!(feed.iter().any(|l| l.contains("ready on red")), "{feed:?}");
    assert!(
        feed.iter().any(|l| l.contains("datasets handle: Datasets")),
        "{feed:?}"
    );
    assert!(
        !datasets.is_allocated(),
        "the handle exists but the service was never allocated"
    );
    assert_eq!(datasets.stats(), DatasetStats::default());
    assert_eq!(touched.get(), 0, "zero cache reads");
}
