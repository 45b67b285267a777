//! `pallet play` rendering: fixed screens drawn with ratatui's test backend and compared with
//! committed buffers (`tests/play/*.screen`, one text line per terminal row, trailing spaces
//! trimmed), and a recorded key log replayed headless to its committed transcript.
//!
//! Regenerate the expected screens after an intended change with
//! `PALLET_BLESS=1 cargo test -p pallet-script-host --test play_screens` and review the diff.
//! Re-record the terminal key log with `tools/play-tmux.sh target/debug/pallet OUT` (tmux),
//! then copy `OUT/run.keys` and `OUT/run.transcript` to `tests/play/tmux.keys|.transcript`.

use std::path::{Path, PathBuf};

use pallet_engine::game::Mode;
use pallet_engine::world::{Direction, GameVersion};
use pallet_script_host::cli::play::keys::{Boot, Key, KeyLog};
use pallet_script_host::cli::play::render;
use pallet_script_host::cli::play::screen::ScreenModel;
use pallet_script_host::cli::play::session::{replay, Session, Ui};
use ratatui::backend::TestBackend;
use ratatui::Terminal;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn expected(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/play")
        .join(name)
}

/// Compare with the committed file, or write it under `PALLET_BLESS=1`.
fn check(name: &str, got: &str) {
    let path = expected(name);
    if std::env::var_os("PALLET_BLESS").is_some() {
        std::fs::write(&path, got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (PALLET_BLESS=1 writes it)", path.display()));
    assert!(
        want == got,
        "{name} differs from {}\n--- got ---\n{got}\n--- want ---\n{want}",
        path.display()
    );
}

fn draw(session: &Session, w: u16, h: u16) -> String {
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    let model = ScreenModel::of(session, "quicksave");
    term.draw(|f| render::draw(f, &model)).unwrap();
    render::buffer_text(term.backend().buffer())
}

/// A new red game, seed 3, with only the event-logger example mod (its log lines fill the
/// side pane; the bundled set may change without touching these screens).
fn session() -> Session {
    let mut boot = Boot::new_game(GameVersion::Red, 3);
    boot.no_default_mods = true;
    boot.mods = vec![repo().join("examples/mods/event-logger")];
    Session::boot(&boot, false).unwrap()
}

fn press(s: &mut Session, keys: &[Key]) {
    for k in keys {
        s.press(k.clone());
    }
}

fn dirs(d: Direction, n: usize) -> Vec<Key> {
    vec![Key::Dir(d); n]
}

/// Out of the house, six cells east of its door (the sign is up and to the north).
fn to_pallet_town(s: &mut Session) {
    press(s, &dirs(Direction::Left, 1));
    press(s, &dirs(Direction::Down, 4));
    press(s, &dirs(Direction::Right, 6));
    assert_eq!(s.game.save.player.map, "PALLET_TOWN");
}

#[test]
fn overworld_screen() {
    let mut s = session();
    to_pallet_town(&mut s);
    check("overworld.screen", &draw(&s, 80, 24));
}

#[test]
fn text_box_screen() {
    let mut s = session();
    to_pallet_town(&mut s);
    press(&mut s, &[Key::Dir(Direction::Up), Key::A]);
    let screen = draw(&s, 80, 24);
    assert!(screen.contains("PALLET TOWN"), "{screen}");
    check("text_box.screen", &screen);
}

#[test]
fn bag_screen() {
    let mut s = session();
    to_pallet_town(&mut s);
    press(&mut s, &[Key::Start, Key::Dir(Direction::Down), Key::A]);
    assert_eq!(s.ui(), &Ui::Bag(0));
    check("bag.screen", &draw(&s, 80, 24));
    // B goes back to the menu, B again closes it.
    press(&mut s, &[Key::B, Key::B]);
    assert_eq!(s.ui(), &Ui::World);
}

/// Walk north into Route 1's first tall grass, then up and down in it until a wild battle.
fn to_battle(s: &mut Session) {
    to_pallet_town(s);
    press(s, &[Key::Dir(Direction::Right), Key::Dir(Direction::Right)]);
    for _ in 0..40 {
        let p = &s.game.save.player;
        if p.map == "ROUTE_1" && p.y <= 30 {
            break;
        }
        s.press(Key::Dir(Direction::Up));
    }
    for i in 0..400 {
        if s.game.mode == Mode::Battle {
            return;
        }
        let d = if i % 2 == 0 {
            Direction::Up
        } else {
            Direction::Down
        };
        s.press(Key::Dir(d));
    }
    panic!("no wild battle in the grass");
}

#[test]
fn battle_menu_screens() {
    let mut s = session();
    to_battle(&mut s);
    check("battle_menu.screen", &draw(&s, 80, 24));
    s.press(Key::A);
    check("battle_fight.screen", &draw(&s, 80, 24));
    // A move is chosen: the round is fought, the menu is back at FIGHT.
    let before = s.battle_log().len();
    s.press(Key::A);
    assert!(s.battle_log().len() > before);
    if s.game.mode == Mode::Battle {
        assert!(matches!(s.ui(), Ui::Battle(..)));
    }
}

#[test]
fn a_small_terminal_gets_a_message() {
    let s = session();
    let screen = draw(&s, 40, 10);
    assert!(screen.contains("too small (40x10)"), "{screen}");
    assert!(!screen.contains("RED'S HOUSE"), "{screen}");
}

/// The key log recorded in a real terminal (`pallet play --record`) replays headless to the
/// transcript that session wrote on quit (`--transcript`), in-process and through the CLI.
#[test]
fn a_recorded_key_log_replays_to_its_transcript() {
    let text = std::fs::read_to_string(expected("tmux.keys")).unwrap();
    let want = std::fs::read_to_string(expected("tmux.transcript")).unwrap();
    let mut log = KeyLog::parse(&text).unwrap();
    for m in &mut log.boot.mods {
        *m = repo().join(&*m);
    }
    let s = replay(&log.boot, &log.keys, false).unwrap();
    assert_eq!(s.final_transcript(), want);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pallet"))
        .current_dir(repo())
        .args(["run", "--keys"])
        .arg(expected("tmux.keys"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), want);
}

#[test]
fn run_keys_refuses_a_bad_log() {
    let dir = std::env::temp_dir().join(format!("pallet-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.keys");
    std::fs::write(
        &bad,
        "# pallet play key log v1\nversion red\nseed 1\nstarter none\nkeys\njump\n",
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pallet"))
        .args(["run", "--keys"])
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("key log line 6: unknown key \"jump\""));
    let _ = std::fs::remove_dir_all(&dir);
}

/// SAVE from the start menu, then `--load` resumes there (same map, cell, party, bag).
#[test]
fn a_saved_session_loads_where_it_was() {
    let mut s = session();
    to_pallet_town(&mut s);
    press(
        &mut s,
        &[
            Key::Start,
            Key::Dir(Direction::Down),
            Key::Dir(Direction::Down),
            Key::A,
        ],
    );
    assert!(s.take_save_request());
    assert!(!s.take_save_request(), "one request per SAVE");
    assert!(s.transcript().contains("save requested: PALLET_TOWN (8,8)"));
    let dir = std::env::temp_dir().join(format!("pallet-play-save-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("play.sav");
    pallet_engine::save::write_save(&path, &s.save_data()).unwrap();
    let mut boot = Boot::new_game(GameVersion::Blue, 9);
    boot.no_default_mods = true;
    boot.load = Some(path.clone());
    boot.starter = None;
    boot.bag.clear();
    let resumed = Session::boot(&boot, false).unwrap();
    assert_eq!(
        resumed.boot.version,
        GameVersion::Red,
        "the save's version wins"
    );
    let p = &resumed.game.save.player;
    assert_eq!((p.map.as_str(), p.x, p.y), ("PALLET_TOWN", 8, 8));
    assert_eq!(resumed.game.save.party, s.game.save.party);
    assert_eq!(resumed.game.save.inventory, s.game.save.inventory);
    boot.load = Some(dir.join("missing.sav"));
    assert!(Session::boot(&boot, false)
        .err()
        .unwrap()
        .contains("--load"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A signal to a mod that is not loaded changes nothing and says so.
#[test]
fn a_signal_to_a_missing_mod_is_reported() {
    let mut s = session();
    let before = s.game.save.clone();
    s.press(Key::Signal {
        mod_id: "quicksave".into(),
        name: "save".into(),
    });
    assert_eq!(s.message(), Some("quicksave is not loaded"));
    assert!(s
        .transcript()
        .contains("signal mod.quicksave.save: quicksave is not loaded"));
    assert_eq!(s.game.save, before);
}

/// ITEM in battle: the ball is taken from the bag and thrown (the engine decides the catch).
#[test]
fn a_ball_from_the_battle_bag() {
    let mut s = session();
    to_battle(&mut s);
    press(&mut s, &[Key::Dir(Direction::Right), Key::A]);
    assert!(
        matches!(s.ui(), Ui::Battle(m, 0) if *m == pallet_script_host::cli::play::session::BattleMenu::Item)
    );
    let balls = |s: &Session| {
        s.game
            .save
            .inventory
            .iter()
            .find(|i| i.id == "POKE_BALL")
            .map_or(0, |i| i.count)
    };
    assert_eq!(balls(&s), 5);
    s.press(Key::A);
    assert_eq!(balls(&s), 4);
    assert!(
        s.transcript().contains("ball wobbles") || s.transcript().contains("caught"),
        "{}",
        s.transcript()
    );
}
