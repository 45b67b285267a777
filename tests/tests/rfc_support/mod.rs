//! Shared helpers of the `rfc0013_*` and `rfc0018_*` integration tests: real Rhai mods (the
//! bundled examples from `examples/mods/` on disk, or small in-memory mods) loaded by the api
//! crate's `Loader` with a `RhaiHost` for a given game version, and games driven only through
//! the public `Game` / `Battle` API.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use pallet_api::catalog::common::GameVersion as ApiVersion;
use pallet_api::content::Content;
use pallet_api::loader::{EnableState, Loader, ModCandidate, ModState};
use pallet_api::{Runtime, Value};
use pallet_engine::game::Game;
use pallet_engine::world::presentation::PresentationRow;
use pallet_engine::world::{Direction, GameVersion, Input, ScriptRow};
use pallet_script_host::host::RhaiHost;

pub const VERSIONS: [GameVersion; 3] = [GameVersion::Red, GameVersion::Blue, GameVersion::Yellow];

pub fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/mods")
        .join(name)
}

pub fn api_version(v: GameVersion) -> ApiVersion {
    pallet_engine::world::sites::api_version(v)
}

/// Loaded mods and the runtime they wrapped.
pub struct Mods {
    pub rt: Rc<Runtime>,
    pub loader: Loader,
}

impl Mods {
    /// Mod log lines (`[id] text`) and link failures since the last call.
    pub fn feed(&self) -> Vec<String> {
        self.rt
            .drain_diagnostics()
            .into_iter()
            .map(|d| d.message)
            .collect()
    }

    pub fn state(&self, id: &str) -> ModState {
        self.loader
            .status()
            .get(id)
            .map(|m| m.state)
            .unwrap_or(ModState::Pending)
    }

    /// The mod's `save` bucket key, as the save's `modData` would carry it.
    pub fn bucket(&self, id: &str, key: &str) -> Value {
        self.loader.mod_data.bucket(id).get(key, Value::Nil)
    }

    /// Assert every listed mod loaded.
    pub fn assert_loaded(&self, ids: &[&str]) {
        for id in ids {
            let st = self.loader.status().get(id);
            assert_eq!(
                st.map(|m| m.state),
                Some(ModState::Loaded),
                "{id}: {:?}",
                st.and_then(|m| m.error.clone())
            );
        }
    }
}

/// A manifest for an in-memory mod.
pub fn manifest(id: &str, caps: &[&str]) -> String {
    let caps: Vec<String> = caps.iter().map(|c| format!("\"{c}\"")).collect();
    format!(
        r#"{{"id": "{id}", "name": "{id}", "version": "1.0.0", "api": 2, "entry": "main.rhai", "capabilities": [{}]}}"#,
        caps.join(", ")
    )
}

/// Load mod folders plus in-memory mods `(id, capabilities, main.rhai)` for `version`, with
/// `enable` (use `EnableState::default()` for "everything enabled").
pub fn load_with(
    version: GameVersion,
    dirs: &[PathBuf],
    memory: &[(&str, &[&str], &str)],
    enable: &EnableState,
) -> Mods {
    let rt = Rc::new(Runtime::new());
    let mut host = RhaiHost::new(&rt);
    let mut candidates: Vec<ModCandidate> =
        dirs.iter().map(|d| ModCandidate::from_dir(d)).collect();
    for (id, caps, main) in memory {
        let mut files = BTreeMap::new();
        files.insert("main.rhai".to_owned(), (*main).to_owned());
        host.add_embedded(id, files);
        candidates.push(ModCandidate::from_manifest_text(
            id,
            &manifest(id, caps),
            true,
        ));
    }
    let mut loader = Loader::new(api_version(version), "0.1.0", Content::new());
    loader.add_host(Box::new(host));
    loader.load(&rt, &candidates, enable);
    Mods { rt, loader }
}

pub fn load(version: GameVersion, dirs: &[PathBuf], memory: &[(&str, &[&str], &str)]) -> Mods {
    let mods = load_with(version, dirs, memory, &EnableState::default());
    let mut ids: Vec<&str> = memory.iter().map(|(id, _, _)| *id).collect();
    let dir_ids: Vec<String> = dirs
        .iter()
        .map(|d| {
            d.file_name()
                .and_then(|n| n.to_str())
                .unwrap_or("")
                .to_owned()
        })
        .collect();
    ids.extend(dir_ids.iter().map(String::as_str));
    mods.assert_loaded(&ids);
    mods
}

// ----- the departed dock ------------------------------------------------------------------------

pub fn run_until(game: &mut Game, input: Input, done: impl Fn(&Game) -> bool) {
    for _ in 0..10_000 {
        if done(game) {
            return;
        }
        game.step(input);
    }
    panic!("condition never reached; busy = {:?}", game.busy());
}

pub fn pos(game: &Game) -> (String, u32, u32) {
    let ow = game.overworld().expect("overworld");
    (ow.map_id().to_owned(), ow.player().x, ow.player().y)
}

/// Walk `n` cells toward `dir` the way the scenario runner does: turn first if needed, step,
/// then wait out the step (and any warp it triggers).
pub fn walk(game: &mut Game, dir: Direction, n: u32) {
    let input = Input::from_direction(dir);
    for _ in 0..n {
        run_until(game, Input::None, |g| g.busy().is_none());
        if game.overworld().map(|o| o.player().facing) != Some(dir) {
            game.step(input);
        }
        game.step(input);
        run_until(game, Input::None, |g| g.busy().is_none());
    }
}

/// A new game of `version` standing on Vermilion City's dock gate (18,30) facing down, with
/// HM01 received and the S.S. Anne gone (flags set the way script rows set them; the player
/// moved by a queued script warp row — the public way to move the player).
pub fn at_city_gate(version: GameVersion, rt: Rc<Runtime>) -> Game {
    let mut game = Game::new_game(version, 3, rt).expect("new game");
    game.set_flag("EVENT_GOT_HM01", true);
    game.set_flag("EVENT_SS_ANNE_LEFT", true);
    game.queue_script(
        "test",
        vec![ScriptRow::Warp {
            map: "VERMILION_CITY".into(),
            x: 18,
            y: 30,
            facing: Direction::Down,
        }],
    )
    .expect("queue warp");
    run_until(&mut game, Input::None, |g| g.busy().is_none());
    assert_eq!(pos(&game), ("VERMILION_CITY".into(), 18, 30));
    game.drain_feed();
    game
}

/// What one entry into the departed dock did.
#[derive(Debug)]
pub struct DockVisit {
    /// The player is on the dock and idle: a mod kept them (no text box).
    pub stayed: bool,
    /// Feed lines (described) from the step in to the decision.
    pub lines: Vec<String>,
}

/// Step from the gate into the dock and wait until the dock decided: idle on the dock (kept)
/// or the sailor's text box open (ejecting).
pub fn enter_dock(game: &mut Game) -> DockVisit {
    game.step(Input::Down);
    run_until(game, Input::None, |g| match g.busy() {
        None => true,
        Some(b) => b.as_str() == "screen_busy",
    });
    assert_eq!(pos(game), ("VERMILION_DOCK".into(), 14, 0));
    let stayed = game.busy().is_none();
    let lines = feed_lines(game);
    DockVisit { stayed, lines }
}

/// Close the sailor's text box (A until idle) and return the feed lines of the ejection.
pub fn close_text(game: &mut Game) -> Vec<String> {
    run_until(game, Input::A, |g| g.busy().is_none());
    feed_lines(game)
}

pub fn feed_lines(game: &mut Game) -> Vec<String> {
    let rows = game.drain_feed();
    rows.iter().map(|r| r.row.describe(game.maps())).collect()
}

pub fn has_line(lines: &[String], needle: &str) -> bool {
    lines.iter().any(|l| l.contains(needle))
}

/// The eight ship cells after the erasure: `(bx, by, water block)`.
pub const ERASED: [(i64, i64, u32); 8] = [
    (5, 1, 1),
    (6, 1, 1),
    (7, 1, 1),
    (8, 1, 1),
    (5, 2, 13),
    (6, 2, 13),
    (7, 2, 13),
    (8, 2, 13),
];

/// The base handler's erasure rows are in `lines` (one per replaced block).
pub fn assert_erasure_rows(lines: &[String], what: &str) {
    for (bx, by, water) in ERASED {
        let row = format!("VERMILION DOCK block ({bx},{by}) -> {water}");
        assert!(lines.contains(&row), "{what}: {row} missing from {lines:?}");
    }
}

pub fn assert_ship_erased(game: &Game) {
    for (bx, by, water) in ERASED {
        assert_eq!(
            game.active_block_at("VERMILION_DOCK", &Value::Int(bx), &Value::Int(by)),
            Ok(water),
            "ship block ({bx},{by})"
        );
    }
}

/// Every block of the active map, row-major, read through the public block read.
pub fn all_blocks(game: &Game, map: &str) -> Vec<u32> {
    let def = game.maps().get(map).expect("map def");
    let (w, h) = (i64::from(def.width), i64::from(def.height));
    (0..h)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .map(|(x, y)| {
            game.active_block_at(map, &Value::Int(x), &Value::Int(y))
                .expect("block")
        })
        .collect()
}

pub fn save_bytes(game: &Game) -> Vec<u8> {
    pallet_engine::save::encode(&game.save).expect("encode save")
}

/// The save with the player's position taken from `like` (to compare everything else).
pub fn save_bytes_at(game: &Game, like: &Game) -> Vec<u8> {
    let mut save = game.save.clone();
    save.player = like.save.player.clone();
    pallet_engine::save::encode(&save).expect("encode save")
}

/// The ejection's text.
pub const SHIP_SET_SAIL: &str = "[text] The ship set sail.";

/// After an ejection: the text closed, warped to Vermilion City (18,29) facing up.
pub fn assert_ejected(game: &mut Game, visit: &DockVisit, what: &str) {
    assert!(!visit.stayed, "{what}: the player should be ejected");
    assert!(
        has_line(&visit.lines, SHIP_SET_SAIL),
        "{what}: {:?}",
        visit.lines
    );
    let closed = close_text(game);
    assert!(has_line(&closed, "[text closed]"), "{what}: {closed:?}");
    let ow = game.overworld().expect("overworld");
    assert_eq!(
        (
            ow.map_id(),
            ow.player().x,
            ow.player().y,
            ow.player().facing
        ),
        ("VERMILION_CITY", 18, 29, Direction::Up),
        "{what}: warped back"
    );
}

/// A kept player: idle on the dock, no text, the ship still erased.
pub fn assert_stayed(game: &Game, visit: &DockVisit, what: &str) {
    assert!(
        visit.stayed,
        "{what}: the player should stay; {:?}",
        visit.lines
    );
    assert!(
        !visit.lines.iter().any(|l| l.starts_with("[text]")),
        "{what}: {:?}",
        visit.lines
    );
    assert_ship_erased(game);
}

/// `PresentationRow` text of a described row, for completeness in messages.
pub fn describe(game: &Game, row: &PresentationRow) -> String {
    row.describe(game.maps())
}
