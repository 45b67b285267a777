//! The restricted-literal decoder on the largest generated dataset module (Gold/Silver
//! `data/generated/pokemon.lua`), side by side with a real Lua 5.1 VM (mlua, vendored) on the
//! same text: compiling only (`load`, what a Lua engine would do before running the chunk) and
//! compiling plus running it to build the table (the work our decoder does in one pass).
//! Throughput is reported in bytes per second of module source.
//! Wall time: on a shared machine, run it when the load average is below the core count.

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::Measurement;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use pallet_api::catalog::common::GameVersion;
use pallet_engine::datasets::generate::generate;
use pallet_engine::datasets::literal::{decode, Limits};

/// `(name, text)` of the largest semantic module across every version.
fn largest_module() -> (String, String) {
    let mut best = (String::new(), String::new());
    for v in GameVersion::ALL {
        for f in generate(v).expect("generate") {
            if f.path.ends_with(".lua") && f.bytes.len() > best.1.len() {
                best = (
                    format!("{}/{}", v.as_str(), f.path),
                    String::from_utf8(f.bytes).expect("utf-8"),
                );
            }
        }
    }
    best
}

fn bench(c: &mut Criterion) {
    run_group(c, "decoder");
}

fn run_group<M: Measurement>(c: &mut Criterion<M>, group: &str) {
    let (name, text) = largest_module();
    eprintln!("{group} bench input: {name}, {} bytes", text.len());
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Bytes(text.len() as u64));
    // Each decoded tree is dropped inside the timed loop, as Lua's incremental GC frees earlier
    // tables while `lua51_compile_and_run` allocates new ones. (Keeping every output alive until
    // the end of a batch mostly measures page faults on fresh memory.)
    g.bench_function("pallet_decode", |b| {
        b.iter(|| decode(black_box(text.as_bytes()), &Limits::GENERATED).expect("decodes"))
    });
    let lua = mlua::Lua::new();
    g.bench_function("lua51_compile", |b| {
        b.iter(|| {
            lua.load(black_box(text.as_str()))
                .set_name("pokemon.lua")
                .into_function()
                .expect("compiles")
        })
    });
    g.bench_function("lua51_compile_and_run", |b| {
        b.iter(|| {
            let t: mlua::Table = lua
                .load(black_box(text.as_str()))
                .set_name("pokemon.lua")
                .eval()
                .expect("runs");
            t
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(30)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    targets = bench
}
criterion_main!(benches);
