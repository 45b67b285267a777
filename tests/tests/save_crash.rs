//! Crash test for the atomic save write (issue 21): a child process writes saves in a loop and
//! is killed (SIGKILL) at a random point, then a second child is killed the same way on the
//! same files, 200 times over. After every double kill the save must load, and it must be at
//! least as new as the last save a child reported as written: no main file and no usable
//! `.bak`/`.tmp` would be a lost save, and so would an older one.
//!
//! The child is this test binary re-run with `--ignored --exact save_crash_child` and
//! `PALLET_SAVE_CRASH_DIR` set; it prints each generation after `write_save` returns.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::rc::Rc;
use std::time::{Duration, Instant};

use pallet_api::Runtime;
use pallet_engine::game::Game;
use pallet_engine::save::file::{bak_path, tmp_path};
use pallet_engine::save::{load_save, write_save};
use pallet_engine::world::GameVersion;

const ENV_DIR: &str = "PALLET_SAVE_CRASH_DIR";
const ENV_START: &str = "PALLET_SAVE_CRASH_START";
const ROUNDS: usize = 200;

fn save_path(dir: &Path) -> PathBuf {
    dir.join("save_red.json")
}

/// The child: write generation after generation (the generation is the money) until killed.
#[test]
#[ignore = "child process of kill_a_saving_process_twice_in_a_row_loses_nothing"]
fn save_crash_child() {
    let Some(dir) = std::env::var_os(ENV_DIR) else {
        return;
    };
    let start: u32 = std::env::var(ENV_START).unwrap().parse().unwrap();
    let mut save = Game::new_game(GameVersion::Red, 1, Rc::new(Runtime::new()))
        .unwrap()
        .save;
    let path = save_path(Path::new(&dir));
    let mut out = std::io::stdout().lock();
    for generation in start.. {
        save.money = generation;
        write_save(&path, &save).expect("write");
        // Written to the pipe right away: the parent reads it after the kill.
        writeln!(out, "{generation}").unwrap();
        out.flush().unwrap();
    }
}

/// xorshift64*: the kill points are random but reproducible from the printed seed.
struct Xs(u64);
impl Xs {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

/// Run one child from `start`, kill it after `delay`; the last generation it reported.
fn run_and_kill(dir: &Path, start: u32, delay: Duration) -> Option<u32> {
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["--ignored", "--exact", "save_crash_child", "--nocapture"])
        .args(["--test-threads", "1", "-q"])
        .env(ENV_DIR, dir)
        .env(ENV_START, start.to_string())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn the saving child");
    std::thread::sleep(delay);
    let _ = child.kill();
    let _ = child.wait();
    let mut text = String::new();
    child.stdout.take().unwrap().read_to_string(&mut text).ok();
    text.lines()
        .filter_map(|l| l.trim().parse::<u32>().ok())
        .max()
}

#[test]
fn kill_a_saving_process_twice_in_a_row_loses_nothing() {
    let dir = std::env::temp_dir().join(format!("pallet-save-crash-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let seed = 0x5eed_0021_u64 ^ u64::from(std::process::id());
    let mut rng = Xs(seed | 1);
    let began = Instant::now();
    // The first good save, so "lost" is well defined from round one.
    let base = Game::new_game(GameVersion::Red, 1, Rc::new(Runtime::new()))
        .unwrap()
        .save;
    let path = save_path(&dir);
    let mut committed = 1u32;
    let mut s = base.clone();
    s.money = committed;
    write_save(&path, &s).unwrap();
    let mut next = 2u32;
    let (mut tmp_left, mut main_missing, mut from_backup) = (0usize, 0usize, 0usize);
    for round in 0..ROUNDS {
        for _kill in 0..2 {
            // 0–30 ms: before the child's first write, mid-write, or after several writes.
            let delay = Duration::from_micros(rng.next() % 30_000);
            if let Some(g) = run_and_kill(&dir, next, delay) {
                committed = committed.max(g);
            }
            next += 100_000;
            tmp_left += usize::from(tmp_path(&path).exists());
            main_missing += usize::from(!path.exists());
        }
        let loaded = load_save(&path).unwrap_or_else(|e| {
            panic!("round {round} (seed {seed:#x}): the save is lost: {e}");
        });
        from_backup += usize::from(loaded.recovered.is_some());
        assert!(
            loaded.save.money >= committed,
            "round {round} (seed {seed:#x}): loaded generation {} is older than the written {committed}",
            loaded.save.money
        );
        // The recovered save is the one the next round builds on.
        committed = loaded.save.money;
        assert_eq!(loaded.save.player, base.player, "the save is intact");
    }
    let elapsed = began.elapsed();
    eprintln!(
        "{} kills in {elapsed:?}: .tmp left {tmp_left}, main missing {main_missing}, loads recovered {from_backup}, bak exists {}",
        ROUNDS * 2,
        bak_path(&path).exists()
    );
    // The kills did land mid-write (otherwise this test would prove nothing).
    assert!(tmp_left > 0, "no kill interrupted a write");
    assert!(elapsed < Duration::from_secs(120), "took {elapsed:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
