//! The battle hot loop: random teams of six, both sides choosing uniformly among their legal
//! actions, played to completion with presentation rows off and no subscriber on the runtime —
//! what `pallet battle` does per battle.
//!
//! Throughput is reported per battle (criterion `Elements`, i.e. battles/s). Before measuring,
//! the bench plays a fixed sample and prints the average number of turns per battle, so ns/turn
//! is the per-battle time divided by that figure (also printed from a timed pass).
//!
//! Run it twice: `cargo bench -p pallet-benches --bench battle_hot_loop` (hook sites compiled
//! in, the default) and with `--no-default-features` (sites compiled out).
//!
//! `pkmn_teams` plays teams built the way pkmn/engine's benchmark builds them
//! (`battle::random::pkmn_team`: random species, four random moves of the 164 that are not
//! Struggle, level 100, DV 15, max stat exp), so its ns/turn compares with that engine. The
//! timed pass uses the default teams unless `BATTLE_HOT_LOOP_TEAMS=pkmn`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use pallet_api::Runtime;
use pallet_engine::battle::random::{
    headless_battle, pkmn_team, play_random, random_team, stream_seed, MAX_TURNS,
};
use pallet_engine::data::{self, Dataset};
use pallet_engine::rng::Rng;

/// Battles per criterion iteration (teams are built outside the timed part).
const BATCH: u64 = 64;

struct Prepared {
    p1: Vec<pallet_engine::pokemon::Pokemon>,
    p2: Vec<pallet_engine::pokemon::Pokemon>,
    seed: u64,
}

fn prepare(data: &Dataset, start: u64) -> Vec<Prepared> {
    (start..start + BATCH)
        .map(|i| {
            let seed = stream_seed(0xBE7C, i);
            let mut r = Rng::new(seed);
            let p1 = random_team(data, &mut r, 6);
            let p2 = random_team(data, &mut r, 6);
            Prepared { p1, p2, seed }
        })
        .collect()
}

/// [`prepare`] with pkmn/engine-style teams.
fn prepare_pkmn(data: &Dataset, start: u64) -> Vec<Prepared> {
    (start..start + BATCH)
        .map(|i| {
            let seed = stream_seed(0x9E3B, i);
            let mut r = Rng::new(seed);
            let p1 = pkmn_team(data, &mut r, 6);
            let p2 = pkmn_team(data, &mut r, 6);
            Prepared { p1, p2, seed }
        })
        .collect()
}

/// Play one prepared batch; returns the total number of turns.
fn play_batch(data: &'static Dataset, rt: &Runtime, batch: Vec<Prepared>) -> u64 {
    let mut turns = 0u64;
    for p in batch {
        let mut b = headless_battle(data, p.p1, p.p2, Rng::new(p.seed ^ 1));
        let mut chooser = Rng::new(p.seed ^ 2);
        turns += u64::from(play_random(&mut b, rt, &mut chooser, MAX_TURNS).turns);
    }
    turns
}

fn bench(c: &mut Criterion) {
    let data = data::gen1();
    let rt = Runtime::new();
    let sites = if cfg!(feature = "hook-sites") {
        "sites compiled in"
    } else {
        "sites compiled out"
    };

    // A timed pass over 20 batches for the ns/turn figure (and the turns-per-battle average).
    // On a shared machine wall time includes waiting for a core, so the thread's own CPU time
    // (Linux `/proc/thread-self/schedstat`, when readable) is reported too.
    let pkmn = std::env::var("BATTLE_HOT_LOOP_TEAMS").is_ok_and(|v| v == "pkmn");
    let teams = if pkmn { "pkmn teams" } else { "random teams" };
    let mut turns = 0u64;
    let mut elapsed = Duration::ZERO;
    let mut cpu = Some(0u64);
    for k in 0..20 {
        let batch = if pkmn {
            prepare_pkmn(data, 1_000_000 + k * BATCH)
        } else {
            prepare(data, 1_000_000 + k * BATCH)
        };
        let c0 = thread_cpu_ns();
        let t = Instant::now();
        turns += play_batch(data, &rt, batch);
        elapsed += t.elapsed();
        cpu = match (cpu, c0, thread_cpu_ns()) {
            (Some(acc), Some(a), Some(b)) => Some(acc + b.saturating_sub(a)),
            _ => None,
        };
    }
    let battles = 20 * BATCH;
    let per = |ns: f64| (ns / turns as f64, battles as f64 / (ns / 1e9));
    let (wall_turn, wall_rate) = per(elapsed.as_nanos() as f64);
    eprintln!(
        "battle_hot_loop ({sites}, {teams}): {battles} battles, {:.1} turns/battle; wall: \
         {wall_turn:.0} ns/turn, {wall_rate:.0} battles/s",
        turns as f64 / battles as f64
    );
    if let Some(cpu) = cpu {
        let (cpu_turn, cpu_rate) = per(cpu as f64);
        eprintln!(
            "battle_hot_loop ({sites}, {teams}): thread CPU: {cpu_turn:.0} ns/turn, \
             {cpu_rate:.0} battles/s"
        );
    }

    let mut group = c.benchmark_group("battle_hot_loop");
    group.throughput(Throughput::Elements(BATCH));
    group.warm_up_time(Duration::from_secs(2));
    group.measurement_time(Duration::from_secs(10));
    group.sample_size(30);
    // Sixteen fixed batches in rotation, so every sample plays the same mix of battles.
    let mut next = 0u64;
    group.bench_function("random_battles", |b| {
        b.iter_batched(
            || {
                next = (next + 1) % 16;
                prepare(data, next * BATCH)
            },
            |batch| black_box(play_batch(data, &rt, batch)),
            criterion::BatchSize::SmallInput,
        )
    });
    let mut next = 0u64;
    group.bench_function("pkmn_teams", |b| {
        b.iter_batched(
            || {
                next = (next + 1) % 16;
                prepare_pkmn(data, next * BATCH)
            },
            |batch| black_box(play_batch(data, &rt, batch)),
            criterion::BatchSize::SmallInput,
        )
    });
    group.finish();
}

/// CPU time this thread has run, in ns (Linux); `None` elsewhere.
fn thread_cpu_ns() -> Option<u64> {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

criterion_group!(benches, bench);
criterion_main!(benches);
