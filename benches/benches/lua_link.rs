//! One legacy Lua wrapper on a hot hook (issue 10; goal ≤ 200 ns per call).
//!
//! * `native_link/battle.crit` — calibration: one native Rust link on the same hook.
//! * `lua_link/battle.crit` — one Lua wrapper `function(next, ctx) return next() end` on
//!   `battle.crit` (run once per move in battle): the whole subscribed path — args to values,
//!   the `ctx` table built in Lua, the scoped `next`, the call, the answer's result rule.
//! * `lua_link/save.write` — the same wrapper on the hook with the smallest arguments (a
//!   three-field `game`), which isolates the link's own overhead from argument conversion.
//! * `lua_link/battle.crit_reads_ctx` — the wrapper reads two context fields, as real mods do.
//! * `lua_link/exp.gain` — `function(next, ctx) return next() + 1 end` on `exp.gain` (a 6-field
//!   `ctx`; the same case as `rhai_link`'s `exp_gain_one_rhai_link`).
//!
//! `LUA_LINK_COUNT=N LUA_LINK_CASE=crit|save|reads|exp|native|none`: run one case N times
//! without criterion and exit, for instruction counts under `valgrind --tool=callgrind` (load
//! independent): per call = (count at N=3000 − count at N=1000) / 2000.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::rc::Rc;
use std::time::Duration;

use criterion::{criterion_group, Criterion};
use pallet_api::catalog::common::{GameInfo, MoveInfo};
use pallet_api::catalog::hooks;
use pallet_api::content::Content;
use pallet_api::loader::{EnableState, Loader, ModCandidate};
use pallet_api::Runtime;
use pallet_benches::{count_requested, exp_args};
use pallet_compat_lua::LuaHost;

const WRAPPERS: &str = r#"local mod = ...
   mod.hooks:wrap("battle.crit", function(next, ctx) return next() end)
   mod.hooks:wrap("save.write", function(next, game) return next() end)
   mod.hooks:wrap("exp.gain", function(next, ctx) return next() + 1 end)"#;

const READS_CTX: &str = r#"local mod = ...
   mod.hooks:wrap("battle.crit", function(next, ctx)
     if ctx.user.hp < ctx.user.maxHp then return true end
     return next()
   end)"#;

/// This bench's `battle.crit` arguments.
fn crit_args() -> hooks::BattleCritArgs {
    pallet_benches::crit_args(MoveInfo {
        id: "THUNDERSHOCK".into(),
        move_type: "ELECTRIC".into(),
        power: 40,
        accuracy: 255,
    })
}

/// A runtime with one Lua mod whose entry is `main`.
fn lua_runtime(main: &str) -> Rc<Runtime> {
    let rt = Rc::new(Runtime::new());
    let mut host = LuaHost::new(&rt);
    let mut files = BTreeMap::new();
    files.insert("main.lua".to_owned(), main.to_owned());
    host.add_embedded("bench", files);
    let manifest =
        r#"{"id": "bench", "name": "bench", "version": "1.0.0", "api": 2, "entry": "main.lua"}"#;
    let candidate = ModCandidate::from_manifest_text("bench", manifest, true);
    let mut loader = Loader::new(Default::default(), "0.1.0", Content::new());
    loader.add_host(Box::new(host));
    let status = loader.load(&rt, &[candidate], &EnableState::default());
    assert_eq!(
        status.order,
        vec!["bench".to_owned()],
        "{:?}",
        status.errors
    );
    rt
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("lua_link");

    let native = Runtime::new();
    native.wrap::<hooks::BattleCrit, _>("native", 0, |next, _| Ok(next.call()));
    group.bench_function("native_link/battle.crit", |b| {
        b.iter(|| black_box(&native).call::<hooks::BattleCrit>(crit_args(), |_| false))
    });

    let rt = lua_runtime(WRAPPERS);
    assert_eq!(rt.call::<hooks::ExpGain>(exp_args(), |_| 41), 42);
    group.bench_function("lua_link/battle.crit", |b| {
        b.iter(|| black_box(&*rt).call::<hooks::BattleCrit>(crit_args(), |_| false))
    });
    let game = GameInfo::default();
    group.bench_function("lua_link/save.write", |b| {
        b.iter(|| {
            black_box(&*rt)
                .call::<hooks::SaveWrite>(hooks::SaveWriteArgs { game: game.clone() }, |_| true)
        })
    });

    group.bench_function("lua_link/exp.gain", |b| {
        b.iter(|| black_box(&*rt).call::<hooks::ExpGain>(black_box(exp_args()), |_| black_box(41)))
    });

    let reads = lua_runtime(READS_CTX);
    group.bench_function("lua_link/battle.crit_reads_ctx", |b| {
        b.iter(|| black_box(&*reads).call::<hooks::BattleCrit>(crit_args(), |_| false))
    });
    group.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(30)
}

criterion_group! {
    name = benches;
    config = config();
    targets = bench
}

/// `LUA_LINK_COUNT=N`: run one case N times without criterion (see the module docs).
fn count_mode(n: u64) {
    let case = std::env::var("LUA_LINK_CASE").unwrap_or_default();
    let native = Runtime::new();
    native.wrap::<hooks::BattleCrit, _>("native", 0, |next, _| Ok(next.call()));
    let rt = lua_runtime(WRAPPERS);
    let reads = lua_runtime(READS_CTX);
    let game = GameInfo::default();
    for _ in 0..n {
        match case.as_str() {
            "crit" => {
                black_box(rt.call::<hooks::BattleCrit>(black_box(crit_args()), |_| false));
            }
            "save" => {
                let args = hooks::SaveWriteArgs { game: game.clone() };
                black_box(rt.call::<hooks::SaveWrite>(black_box(args), |_| true));
            }
            "reads" => {
                black_box(reads.call::<hooks::BattleCrit>(black_box(crit_args()), |_| false));
            }
            "exp" => {
                black_box(rt.call::<hooks::ExpGain>(black_box(exp_args()), |_| black_box(41)));
            }
            "native" => {
                black_box(native.call::<hooks::BattleCrit>(black_box(crit_args()), |_| false));
            }
            _ => {}
        }
    }
}

fn main() {
    if let Some(n) = count_requested("LUA_LINK_COUNT") {
        count_mode(n);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
