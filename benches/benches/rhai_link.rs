//! One Rhai wrapper on a hot hook: the full path of a subscribed call — bus, argument
//! conversion at the link's boundary (`Args` → `Value` → Rhai `Dynamic`), the Rhai closure,
//! the typed `next` back into the bus and vanilla, and the result rule on the way out.
//! Goal: ≤ 500 ns per call (docs/performance.md records the figures).

use std::collections::BTreeMap;
use std::hint::black_box;
use std::rc::Rc;
use std::time::Duration;

use criterion::{criterion_group, Criterion};
use pallet_api::catalog::common::{GameInfo, GameVersion, MoveInfo};
use pallet_api::catalog::hooks;
use pallet_api::content::Content;
use pallet_api::loader::{EnableState, Loader, ModCandidate, ModState};
use pallet_api::Runtime;
use pallet_benches::{count_requested, exp_args};
use pallet_script_host::host::RhaiHost;

/// This bench's `battle.crit` arguments.
fn crit_args() -> hooks::BattleCritArgs {
    pallet_benches::crit_args(MoveInfo::default())
}

fn with_mod(src: &str) -> (Rc<Runtime>, Loader) {
    let rt = Rc::new(Runtime::new());
    let mut host = RhaiHost::new(&rt);
    let mut files = BTreeMap::new();
    files.insert("main.rhai".to_owned(), src.to_owned());
    host.add_embedded("bench", files);
    let manifest = r#"{"id": "bench", "name": "bench", "version": "1.0.0", "api": 2, "entry": "main.rhai", "capabilities": ["hooks"]}"#;
    let mut loader = Loader::new(GameVersion::Red, "0.1.0", Content::new());
    loader.add_host(Box::new(host));
    loader.load(
        &rt,
        &[ModCandidate::from_manifest_text("bench", manifest, true)],
        &EnableState::default(),
    );
    assert_eq!(
        loader.status().get("bench").map(|m| m.state),
        Some(ModState::Loaded)
    );
    (rt, loader)
}

fn save_args() -> hooks::SaveWriteArgs {
    hooks::SaveWriteArgs {
        game: GameInfo {
            version: GameVersion::Red,
            playthrough_id: Some("pt-1".into()),
            map_id: Some("PALLET_TOWN".into()),
        },
    }
}

const SAVE_MOD: &str = r#"hooks.wrap("save.write", |next, game| next.call());"#;

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("rhai_link");

    // exp.gain with a pass-through-and-scale wrapper (the lucky-exp example's shape).
    let (rt, _loader) = with_mod(r#"hooks.wrap("exp.gain", |next, ctx| next.call() + 1);"#);
    assert_eq!(rt.call::<hooks::ExpGain>(exp_args(), |_| 41), 42);
    group.bench_function("exp_gain_one_rhai_link", |b| {
        b.iter(|| rt.call::<hooks::ExpGain>(black_box(exp_args()), |_| black_box(41)))
    });

    // battle.crit (a per-hit battle hook with a richer context) with a wrapper that reads
    // a context field and forwards.
    let (rt, _loader2) = with_mod(
        r#"hooks.wrap("battle.crit", |next, ctx| if ctx.user.hp > 0 { next.call() } else { false });"#,
    );
    assert!(rt.call::<hooks::BattleCrit>(crit_args(), |_| true));
    group.bench_function("battle_crit_one_rhai_link", |b| {
        b.iter(|| rt.call::<hooks::BattleCrit>(black_box(crit_args()), |_| black_box(true)))
    });

    // save.write: the hook with the smallest arguments (a 3-field `game`), a pass-through.
    let (rt, _loader3) = with_mod(SAVE_MOD);
    assert!(rt.call::<hooks::SaveWrite>(save_args(), |_| true));
    group.bench_function("save_write_one_rhai_link", |b| {
        b.iter(|| rt.call::<hooks::SaveWrite>(black_box(save_args()), |_| black_box(true)))
    });

    // Reference: the same exp.gain call through one native link.
    let native = Runtime::new();
    native.wrap::<hooks::ExpGain, _>("native", 0, |next, _| Ok(next.call() + 1));
    group.bench_function("exp_gain_one_native_link", |b| {
        b.iter(|| native.call::<hooks::ExpGain>(black_box(exp_args()), |_| black_box(41)))
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(50);
    targets = bench
}
/// `RHAI_LINK_COUNT=N RHAI_LINK_CASE=exp|crit|save|none`: run one case N times without
/// criterion and exit (for instruction counts under `valgrind --tool=callgrind`, which do not
/// depend on machine load).
fn count_mode(n: u64) {
    let (rt, _l) = with_mod(r#"hooks.wrap("exp.gain", |next, ctx| next.call() + 1);"#);
    let (rt2, _l2) = with_mod(
        r#"hooks.wrap("battle.crit", |next, ctx| if ctx.user.hp > 0 { next.call() } else { false });"#,
    );
    let (rt3, _l3) = with_mod(SAVE_MOD);
    let case = std::env::var("RHAI_LINK_CASE").unwrap_or_default();
    for _ in 0..n {
        match case.as_str() {
            "crit" => {
                black_box(
                    rt2.call::<hooks::BattleCrit>(black_box(crit_args()), |_| black_box(true)),
                );
            }
            "save" => {
                black_box(
                    rt3.call::<hooks::SaveWrite>(black_box(save_args()), |_| black_box(true)),
                );
            }
            "none" => {}
            _ => {
                black_box(rt.call::<hooks::ExpGain>(black_box(exp_args()), |_| black_box(41)));
            }
        }
    }
}

fn main() {
    if let Some(n) = count_requested("RHAI_LINK_COUNT") {
        count_mode(n);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
