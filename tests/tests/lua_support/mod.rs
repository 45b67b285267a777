//! Shared helpers of the `lua_*` integration tests: load Lua (and Rhai) mods through the api
//! crate's loader with a `LuaHost` and a `RhaiHost` on one runtime, and drive hooks through it.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use pallet_api::catalog::common::GameVersion;
use pallet_api::catalog::hooks::{ExpGain, ExpGainArgs, ExpGainContext};
use pallet_api::content::Content;
use pallet_api::loader::{EnableState, LoadStatus, Loader, ModCandidate, ModState};
use pallet_api::{Runtime, Value};
use pallet_compat_lua::{LuaHost, LuaMonitor};
use pallet_script_host::host::{HostMonitor, RhaiHost};

pub fn lua_fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/lua_mods")
        .join(name)
}

pub fn rhai_fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/mods")
        .join(name)
}

pub struct Env {
    pub rt: Rc<Runtime>,
    pub loader: Loader,
    pub lua: LuaMonitor,
    pub rhai: HostMonitor,
}

impl Env {
    pub fn status(&self) -> &LoadStatus {
        self.loader.status()
    }

    pub fn state(&self, id: &str) -> ModState {
        self.status()
            .get(id)
            .map(|m| m.state)
            .unwrap_or(ModState::Pending)
    }

    pub fn error(&self, id: &str) -> String {
        self.status()
            .get(id)
            .and_then(|m| m.error.clone())
            .unwrap_or_default()
    }

    /// Every feed line so far (mod log lines, failures), drained.
    pub fn feed(&self) -> Vec<String> {
        self.rt
            .drain_diagnostics()
            .into_iter()
            .map(|d| d.message)
            .collect()
    }

    pub fn assert_loaded(&self, id: &str) {
        assert_eq!(self.state(id), ModState::Loaded, "{id}: {}", self.error(id));
    }
}

/// An in-memory mod: id, manifest JSON, files (`main.lua` / `main.rhai` …).
pub struct Mem<'a> {
    pub id: &'a str,
    pub manifest: String,
    pub files: Vec<(&'a str, String)>,
}

/// A Lua mod with only `main.lua`.
pub fn lua_mod<'a>(id: &'a str, main: &str) -> Mem<'a> {
    Mem {
        id,
        manifest: lua_manifest(id, ""),
        files: vec![("main.lua", main.to_owned())],
    }
}

/// A Rhai mod with only `main.rhai` and the `hooks` capability.
pub fn rhai_mod<'a>(id: &'a str, main: &str) -> Mem<'a> {
    Mem {
        id,
        manifest: format!(
            r#"{{"id": "{id}", "name": "{id}", "version": "1.0.0", "api": 2, "entry": "main.rhai", "capabilities": ["hooks", "content", "world"]}}"#
        ),
        files: vec![("main.rhai", main.to_owned())],
    }
}

/// An empty folder `<tmp>/pallet-<name>-<pid>` (removed first if a previous run left it). Use
/// a distinct `name` per test: the tests of one file run in parallel in one process.
pub fn fresh_temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pallet-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A legacy manifest (api 2, as the survey's mods ship them) plus `extra` JSON fields.
pub fn lua_manifest(id: &str, extra: &str) -> String {
    format!(
        r#"{{"id": "{id}", "name": "{id}", "version": "1.2.0", "api": 2, "entry": "main.lua", "category": "TWEAK", "priority": 100, "permissions": ["engine_internals"], "games": ["gen1"], "conflicts": [], "dependencies": []{extra}}}"#
    )
}

pub struct Setup {
    pub content: Content,
    pub options: Vec<(String, String, Value)>,
}

impl Default for Setup {
    fn default() -> Self {
        Setup {
            content: Content::new(),
            options: Vec::new(),
        }
    }
}

/// Load mod folders (on disk) plus in-memory mods, Lua and Rhai hosts on one runtime.
pub fn load_with(dirs: &[PathBuf], memory: Vec<Mem<'_>>, setup: Setup) -> Env {
    let rt = Rc::new(Runtime::new());
    let mut lua = LuaHost::new(&rt);
    let mut rhai = RhaiHost::new(&rt);
    let mut candidates: Vec<ModCandidate> =
        dirs.iter().map(|d| ModCandidate::from_dir(d)).collect();
    for m in memory {
        let files: BTreeMap<String, String> = m
            .files
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.clone()))
            .collect();
        if files.contains_key("main.lua") {
            lua.add_embedded(m.id, files);
        } else {
            rhai.add_embedded(m.id, files);
        }
        candidates.push(ModCandidate::from_manifest_text(m.id, &m.manifest, true));
    }
    let (lua_monitor, rhai_monitor) = (lua.monitor(), rhai.monitor());
    let mut loader = Loader::new(GameVersion::Red, "0.1.0", setup.content);
    for (id, key, v) in setup.options {
        loader.options.set_user_value(&id, &key, v);
    }
    loader.add_host(Box::new(lua));
    loader.add_host(Box::new(rhai));
    loader.load(&rt, &candidates, &EnableState::default());
    Env {
        rt,
        loader,
        lua: lua_monitor,
        rhai: rhai_monitor,
    }
}

pub fn load(dirs: &[PathBuf], memory: Vec<Mem<'_>>) -> Env {
    load_with(dirs, memory, Setup::default())
}

pub fn exp_args(level: u8) -> ExpGainArgs {
    ExpGainArgs {
        ctx: ExpGainContext {
            defeated_def: Value::map([("name", Value::from("PIDGEY"))]),
            level,
            is_trainer: false,
            participants: 1,
            traded: false,
            mon: Value::Nil,
        },
    }
}

/// `exp.gain` through the bus with a vanilla answer of `vanilla`; counts vanilla runs.
pub fn exp_gain(rt: &Runtime, vanilla: u32) -> (u32, u32) {
    let runs = std::cell::Cell::new(0);
    let out = if rt.wants_hook::<ExpGain>() {
        rt.call::<ExpGain>(exp_args(5), |_| {
            runs.set(runs.get() + 1);
            vanilla
        })
    } else {
        runs.set(1);
        vanilla
    };
    (out, runs.get())
}

/// Feed lines with the `[id] ` prefix removed (to compare a Lua mod with its Rhai twin).
pub fn unprefixed(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .map(|l| match l.split_once("] ") {
            Some((head, rest)) if head.starts_with('[') => rest.to_owned(),
            _ => l.clone(),
        })
        .collect()
}

/// A mod that adds 1 to every `exp.gain`, after (below) any hostile link: the proof the rest
/// of the game still runs while a hostile mod is contained.
pub fn bystander() -> Mem<'static> {
    lua_mod(
        "bystander",
        r#"return function(mod)
            mod.hooks:wrap("exp.gain", function(next, ctx) return next() + 1 end, -100)
          end"#,
    )
}

/// The process's peak resident set (`VmHWM`), in bytes; `None` off Linux.
pub fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// The loose memory bound of the hostile tests: the test process never grew past 2 GiB (a
/// hostile mod that escaped its limits reaches 4–6 GB before the kernel stops it).
pub fn assert_peak_rss_bounded(what: &str) {
    if let Some(peak) = peak_rss() {
        assert!(peak < 2 << 30, "{what}: peak RSS {peak} bytes");
    }
}

/// With `id` and the bystander loaded in `env`: three `exp.gain` dispatches, each within
/// `bound`, each skipping the hostile link with a failure line containing `expect`, while the
/// bystander still adds its 1.
pub fn assert_contained(env: &Env, id: &str, expect: &str, bound: std::time::Duration) {
    env.assert_loaded(id);
    env.assert_loaded("bystander");
    env.feed();
    for round in 0..3 {
        let began = std::time::Instant::now();
        let (out, runs) = exp_gain(&env.rt, 100);
        let took = began.elapsed();
        assert!(took < bound, "{id} round {round}: {took:?}");
        assert_eq!((out, runs), (101, 1), "{id}: the hostile link is skipped");
        let feed = env.feed();
        assert!(
            feed.iter()
                .any(|l| l.starts_with(&format!("[{id}] hook exp.gain failed"))
                    && l.contains(expect)),
            "{id}: expected {expect:?} in {feed:?}"
        );
    }
    assert_peak_rss_bounded(id);
}

/// `pallet run` of `scenario` (Red, seed 7) with only the mods in `dirs`; a failed run panics
/// with its message and transcript.
pub fn run_mods(
    dirs: Vec<PathBuf>,
    scenario: &str,
) -> pallet_script_host::cli::cmd_run::RunOutcome {
    let opts = pallet_script_host::host::ModsOptions {
        dirs,
        no_default_mods: true,
        ..Default::default()
    };
    let version = pallet_engine::world::GameVersion::Red;
    match pallet_script_host::cli::cmd_run::play_with_mods(version, 7, scenario, Some(&opts)) {
        Ok(o) => o,
        Err(f) => panic!("{}\n---\n{}", f.message, f.transcript),
    }
}

/// [`run_mods`] with in-memory mods, each written to its own fresh folder (`mem-<id>`).
pub fn run_mods_mem(
    memory: Vec<Mem<'_>>,
    scenario: &str,
) -> pallet_script_host::cli::cmd_run::RunOutcome {
    let dirs = memory
        .iter()
        .map(|m| {
            let dir = fresh_temp_dir(&format!("mem-{}", m.id));
            std::fs::write(dir.join("manifest.json"), &m.manifest).unwrap();
            for (name, text) in &m.files {
                std::fs::write(dir.join(name), text).unwrap();
            }
            dir
        })
        .collect();
    run_mods(dirs, scenario)
}

/// A strict `pallet run` (Red, seed 7; every `expect` an assertion) of `scenario` with the
/// mod folders `dirs` only, on a new game or on `save`; `Err` is the failure and transcript.
pub fn play_strict(
    dirs: Vec<PathBuf>,
    scenario: &str,
    save: Option<pallet_engine::save::SaveData>,
) -> Result<pallet_script_host::cli::cmd_run::RunOutcome, String> {
    play_strict_with_options(dirs, scenario, save, Vec::new())
}

/// [`play_strict`] with mod option values `(mod, key, value)` set before the mods load (as
/// `--option MOD.KEY=VALUE` does).
pub fn play_strict_with_options(
    dirs: Vec<PathBuf>,
    scenario: &str,
    save: Option<pallet_engine::save::SaveData>,
    options: Vec<(String, String, Value)>,
) -> Result<pallet_script_host::cli::cmd_run::RunOutcome, String> {
    let mods = pallet_script_host::host::ModsOptions {
        dirs,
        no_default_mods: true,
        ..Default::default()
    };
    let opts = pallet_script_host::cli::cmd_run::PlayOptions {
        version: pallet_engine::world::GameVersion::Red,
        seed: 7,
        scenario,
        mods: Some(&mods),
        strict: true,
        extras: pallet_script_host::host::session::LoadExtras {
            options,
            ..Default::default()
        },
        save,
    };
    pallet_script_host::cli::cmd_run::play_opts(&opts)
        .map_err(|f| format!("{}\n---\n{}", f.message, f.transcript))
}
