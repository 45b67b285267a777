//! Hook dispatch cost: an unsubscribed guarded site, an unguarded `call` with no chain, and
//! chains of 1 and 3 native links. The measured hook has scalar arguments so the figures are
//! the bus's own cost (links and vanilla borrow the arguments, so a catalog hook's larger
//! arguments add no copy to a subscribed call, only what its site spends building them).

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, Criterion};
use pallet_api::catalog::common::MoveInfo;
use pallet_api::catalog::hooks;
use pallet_api::{Hook, HookId, Runtime};
use pallet_benches::count_requested;

/// A scalar hook outside the catalog range (args: attacker speed, threshold; out: crit?).
struct Probe;
impl Hook for Probe {
    const NAME: &'static str = "bench.probe";
    const ID: HookId = HookId(250);
    type Args = (u32, u32);
    type Out = u32;
}

fn vanilla(&(a, b): &(u32, u32)) -> u32 {
    a.wrapping_mul(31) ^ b
}

/// This bench's `battle.crit` arguments.
fn crit_args() -> hooks::BattleCritArgs {
    pallet_benches::crit_args(MoveInfo::default())
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("hook_dispatch");

    // Calibration on a shared machine: the vanilla function alone.
    group.bench_function("baseline_vanilla", |b| {
        b.iter(|| vanilla(&black_box((7, 9))))
    });

    let rt = Runtime::new();
    // The engine's site idiom: guard, and only build the context when someone listens.
    group.bench_function("unsubscribed_site", |b| {
        b.iter(|| {
            let rt = black_box(&rt);
            let speed = black_box(90u32);
            if rt.wants_hook::<hooks::BattleCrit>() {
                rt.call::<hooks::BattleCrit>(crit_args(), |_| speed > 64)
            } else {
                speed > 64
            }
        })
    });
    group.bench_function("unsubscribed_call", |b| {
        b.iter(|| black_box(&rt).call::<Probe>(black_box((7, 9)), vanilla))
    });

    let one = Runtime::new();
    one.wrap::<Probe, _>("a", 0, |next, _| Ok(next.call() + 1));
    group.bench_function("native_links_1", |b| {
        b.iter(|| black_box(&one).call::<Probe>(black_box((7, 9)), vanilla))
    });

    let three = Runtime::new();
    three.wrap::<Probe, _>("a", 2, |next, _| Ok(next.call() + 1));
    three.wrap::<Probe, _>(
        "b",
        1,
        |next, args| Ok(next.call_with((args.0 + 1, args.1))),
    );
    three.wrap::<Probe, _>("c", 0, |next, _| Ok(next.call() ^ 3));
    group.bench_function("native_links_3", |b| {
        b.iter(|| black_box(&three).call::<Probe>(black_box((7, 9)), vanilla))
    });
    group.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(50)
}

criterion_group! {
    name = benches;
    config = config();
    targets = bench
}

/// `HOOK_DISPATCH_COUNT=N HOOK_DISPATCH_CASE=none|one|three|site`: run one case N times
/// without criterion and exit, for load-independent instruction counts under
/// `valgrind --tool=callgrind` (per call = difference between two N, divided by their gap).
fn count_mode(n: u64) {
    let case = std::env::var("HOOK_DISPATCH_CASE").unwrap_or_default();
    let rt = Runtime::new();
    match case.as_str() {
        "one" => {
            rt.wrap::<Probe, _>("a", 0, |next, _| Ok(next.call() + 1));
        }
        "three" => {
            rt.wrap::<Probe, _>("a", 2, |next, _| Ok(next.call() + 1));
            rt.wrap::<Probe, _>(
                "b",
                1,
                |next, args| Ok(next.call_with((args.0 + 1, args.1))),
            );
            rt.wrap::<Probe, _>("c", 0, |next, _| Ok(next.call() ^ 3));
        }
        _ => {}
    }
    let mut acc = 0u32;
    for _ in 0..n {
        if case == "site" {
            let rt = black_box(&rt);
            let speed = black_box(90u32);
            let crit = if rt.wants_hook::<hooks::BattleCrit>() {
                rt.call::<hooks::BattleCrit>(crit_args(), |_| speed > 64)
            } else {
                speed > 64
            };
            acc ^= u32::from(crit);
        } else {
            acc ^= black_box(&rt).call::<Probe>(black_box((7, 9)), vanilla);
        }
    }
    black_box(acc);
}

fn main() {
    if let Some(n) = count_requested("HOOK_DISPATCH_COUNT") {
        count_mode(n);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
