//! RFC 0004/0005 checkpoints on a mid-game save (party of six, three full boxes, a bag, flags,
//! money, mod save data, on Vermilion City): capture (the record; the record plus its portable
//! bytes) and a full verified restore (detached validation, rollback capture, rebuild,
//! recapture, byte compare), for the overworld kind and for the battle kind (a wild battle one
//! round in).
//!
//! `cargo bench -p pallet-benches --bench checkpoint`

use std::hint::black_box;
use std::rc::Rc;

use criterion::{criterion_group, criterion_main, Criterion};
use pallet_api::{Runtime, Value};
use pallet_engine::battle::Action;
use pallet_engine::checkpoint;
use pallet_engine::data::gen1;
use pallet_engine::game::Game;
use pallet_engine::pokemon::{Dvs, Pokemon};
use pallet_engine::save::{ItemStack, MonRecord};
use pallet_engine::world::{Direction, GameVersion, Input, ScriptRow};

fn mon(name: &str, level: u8) -> MonRecord {
    let data = gen1();
    let species = data.species_by_name(name).expect("species");
    MonRecord::from_pokemon(&Pokemon::new(data, species, level, Dvs::uniform(10)), data)
        .expect("record")
}

fn settle(game: &mut Game) {
    for _ in 0..10_000 {
        match game.busy().map(|b| b.as_str()) {
            None => return,
            Some("screen_busy") => game.step(Input::A),
            Some(_) => game.step(Input::None),
        }
    }
}

/// Six party mons, three boxes of twenty, a full-ish bag, flags, money, mod data; Vermilion.
fn mid_game() -> Game {
    let mut game = Game::new_game(GameVersion::Red, 21, Rc::new(Runtime::new())).expect("game");
    settle(&mut game);
    for (i, name) in [
        "PIKACHU",
        "PIDGEOTTO",
        "BUTTERFREE",
        "NIDORINO",
        "GEODUDE",
        "ODDISH",
    ]
    .iter()
    .enumerate()
    {
        game.save.party.push(mon(name, 18 + i as u8));
    }
    for b in 0..3 {
        for i in 0..20u8 {
            game.save.boxes[b].push(mon("RATTATA", 3 + i));
        }
    }
    for item in ["POTION", "POKE_BALL", "ANTIDOTE", "REPEL", "ESCAPE_ROPE"] {
        game.save.inventory.push(ItemStack {
            id: item.into(),
            count: 5,
        });
    }
    for f in ["EVENT_GOT_HM01", "EVENT_SS_ANNE_LEFT", "EVENT_BEAT_BROCK"] {
        game.set_flag(f, true);
    }
    game.save.money = 12_345;
    game.save.mod_data.insert(
        "bench".into(),
        Value::Map([("visits".to_owned(), Value::Int(7))].into()),
    );
    game.queue_script(
        "bench",
        vec![ScriptRow::Warp {
            map: "VERMILION_CITY".into(),
            x: 18,
            y: 30,
            facing: Direction::Down,
        }],
    )
    .expect("warp");
    settle(&mut game);
    game
}

fn bench(c: &mut Criterion) {
    overworld(c);
    battle(c);
}

fn overworld(c: &mut Criterion) {
    let mut game = mid_game();
    let a = checkpoint::capture(&mut game).expect("capture");
    let bytes = a.to_bytes().expect("bytes");
    eprintln!("checkpoint bytes: {}", bytes.len());
    c.bench_function("checkpoint/capture", |b| {
        b.iter(|| black_box(checkpoint::capture(black_box(&mut game)).expect("capture")))
    });
    c.bench_function("checkpoint/capture_bytes", |b| {
        b.iter(|| {
            let cp = checkpoint::capture(black_box(&mut game)).expect("capture");
            black_box(cp.to_bytes().expect("bytes"))
        })
    });
    c.bench_function("checkpoint/restore", |b| {
        b.iter(|| checkpoint::restore(black_box(&mut game), black_box(&a)).expect("restore"))
    });
}

/// The same save one round into a wild battle.
fn battle(c: &mut Criterion) {
    let mut game = mid_game();
    game.start_wild_battle("RATTATA", 12).expect("battle");
    game.battle_choose(Action::Move(0)).expect("a round");
    game.drain_feed();
    let a = checkpoint::capture(&mut game).expect("battle capture");
    assert_eq!(a.kind, "battle");
    let bytes = a.to_bytes().expect("bytes");
    eprintln!("battle checkpoint bytes: {}", bytes.len());
    c.bench_function("checkpoint/battle_capture", |b| {
        b.iter(|| black_box(checkpoint::capture(black_box(&mut game)).expect("capture")))
    });
    c.bench_function("checkpoint/battle_restore", |b| {
        b.iter(|| checkpoint::restore(black_box(&mut game), black_box(&a)).expect("restore"))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).warm_up_time(std::time::Duration::from_secs(1)).measurement_time(std::time::Duration::from_secs(3));
    targets = bench
}
criterion_main!(benches);
