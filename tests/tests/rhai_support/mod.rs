//! Shared helpers of the `rhai_*` integration tests: load fixture mods through the api
//! crate's loader with a `RhaiHost`, and drive hooks through the real runtime.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use pallet_api::catalog::common::GameVersion;
use pallet_api::catalog::hooks::{ExpGain, ExpGainArgs, ExpGainContext};
use pallet_api::content::Content;
use pallet_api::loader::{EnableState, LoadStatus, Loader, ModCandidate, ModState};
use pallet_api::{Runtime, Value};
use pallet_script_host::host::{HostMonitor, RhaiHost};

pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/mods")
        .join(name)
}

pub fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/mods")
}

pub struct Env {
    pub rt: Rc<Runtime>,
    pub loader: Loader,
    pub monitor: HostMonitor,
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
}

/// Load mod folders (on disk) plus in-memory mods `(id, manifest json, main.rhai)`.
pub fn load(dirs: &[PathBuf], memory: &[(&str, &str, &str)]) -> Env {
    let rt = Rc::new(Runtime::new());
    let mut host = RhaiHost::new(&rt);
    let mut candidates: Vec<ModCandidate> =
        dirs.iter().map(|d| ModCandidate::from_dir(d)).collect();
    for (id, manifest, main) in memory {
        let mut files = BTreeMap::new();
        files.insert("main.rhai".to_owned(), (*main).to_owned());
        host.add_embedded(id, files);
        candidates.push(ModCandidate::from_manifest_text(id, manifest, true));
    }
    let monitor = host.monitor();
    let mut loader = Loader::new(GameVersion::Red, "0.1.0", Content::new());
    loader.add_host(Box::new(host));
    loader.load(&rt, &candidates, &EnableState::default());
    Env {
        rt,
        loader,
        monitor,
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
