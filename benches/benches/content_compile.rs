//! Issue 16: the content registries' cost. The base records are built lazily: a registry's
//! ids on its first use, each record on its first read. `base_ids`: every registry's ids and
//! length (what `ids`/`len`/`has` pay); `base_get_one`: one record read from every registry
//! (`content.get("pokemon", "PIKACHU")` and friends); `base_each_all`: every record of every
//! registry built (a mod that walks them all with `each`); `base_eager_hydrate`: the previous
//! eager path for comparison (the four dataset registries through the RFC 0015 hydrate with its
//! schema check, plus maps/encounters/trainers built whole). A boot with no content mod builds
//! none of it. `compile_bundled`: the bundled examples' content writes (berry-items'
//! two items) compiled into the game's tables at freeze. `compile_all_species`: a mod that
//! patches all 151 species.
//!
//! The compile leaks its `'static` tables by design (once per game); keep runs short:
//! `cargo bench -p pallet-benches --bench content_compile -- --warm-up-time 1 --measurement-time 2`

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use pallet_api::content::{Content, OpKind, REGISTRIES};
use pallet_api::Value;
use pallet_engine::content::{base_records, compile, content_for};
use pallet_engine::world::GameVersion;

fn bundled() -> Content {
    let mut c = content_for(GameVersion::Red);
    for (id, name, kind) in [
        ("ORAN_BERRY", "ORAN BERRY", "heal"),
        ("PECHA_BERRY", "PECHA BERRY", "status_heal"),
    ] {
        let rec = Value::map([
            ("name", Value::from(name)),
            ("price", Value::Int(20)),
            ("kind", Value::from(kind)),
        ]);
        c.apply("items", "berry-items", OpKind::Register, id, rec, true)
            .expect("register");
    }
    c
}

fn all_species() -> Content {
    let mut c = content_for(GameVersion::Red);
    let ids: Vec<String> = c
        .registry("pokemon")
        .expect("pokemon")
        .ids()
        .map(str::to_owned)
        .collect();
    for id in ids {
        let patch = Value::map([("baseStats", Value::map([("speed", Value::Int(100))]))]);
        c.apply("pokemon", "fast", OpKind::Patch, &id, patch, true)
            .expect("patch");
    }
    c
}

fn benches(c: &mut Criterion) {
    let mut g = c.benchmark_group("content_compile");
    g.sample_size(10);
    g.bench_function("base_ids", |b| {
        b.iter(|| {
            let content = content_for(GameVersion::Red);
            let n: usize = REGISTRIES
                .iter()
                .map(|(name, _, _)| content.registry(name).map_or(0, |r| r.len()))
                .sum();
            black_box(n)
        })
    });
    g.bench_function("base_get_one", |b| {
        b.iter(|| {
            let content = content_for(GameVersion::Red);
            let n = [
                ("pokemon", "PIKACHU"),
                ("moves", "TACKLE"),
                ("items", "POTION"),
                ("type_chart", "FIRE"),
                ("maps", "PALLET_TOWN"),
                ("encounters", "ROUTE_1"),
                ("trainers", "BUG_CATCHER"),
            ]
            .iter()
            .filter(|(r, id)| content.get(r, id).is_some())
            .count();
            black_box(n)
        })
    });
    g.bench_function("base_each_all", |b| {
        b.iter(|| {
            let content = content_for(GameVersion::Red);
            let n: usize = REGISTRIES
                .iter()
                .map(|(name, _, _)| content.registry(name).map_or(0, |r| r.each().count()))
                .sum();
            black_box(n)
        })
    });
    g.bench_function("base_eager_hydrate", |b| {
        use pallet_engine::datasets::hydrate::embedded_records;
        b.iter(|| {
            let api = pallet_api::catalog::common::GameVersion::Red;
            let mut n = 0;
            for r in ["pokemon", "moves", "items", "type_chart"] {
                n += embedded_records(api, r).map_or(0, |x| x.map_or(0, |m| m.len()));
            }
            for r in ["maps", "encounters", "trainers"] {
                n += base_records(GameVersion::Red, r).len();
            }
            black_box(n)
        })
    });
    g.bench_function("compile_bundled", |b| {
        let content = bundled();
        b.iter(|| black_box(compile(GameVersion::Red, &content).expect("compiles").data))
    });
    g.bench_function("compile_all_species", |b| {
        let content = all_species();
        b.iter(|| black_box(compile(GameVersion::Red, &content).expect("compiles").data))
    });
    g.finish();
}

criterion_group!(content_compile, benches);
criterion_main!(content_compile);
