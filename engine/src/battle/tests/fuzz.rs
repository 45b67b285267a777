//! Random battles with random teams and random (but legal) choices: no panic, always finishes,
//! every row renders, and the same seed gives the same rows and final state.

use smallvec::SmallVec;

use crate::rng::Rng;

use super::*;

fn random_mon(r: &mut Rng, all_moves: bool) -> Pokemon {
    let species = SpeciesId(r.below(151) as u16);
    let level = 5 + r.below(96) as u8;
    let dvs = Dvs::from_bytes([r.byte(), r.byte()]);
    let mut m = Pokemon::new(data(), species, level, dvs);
    if all_moves {
        for slot in 0..4 {
            let id = MoveId(1 + r.below(165) as u16);
            m.moves[slot] = Some(id);
            m.pp[slot] = data().move_data(id).pp;
        }
    }
    m
}

fn team(r: &mut Rng, n: usize, all_moves: bool) -> Vec<Pokemon> {
    (0..n).map(|_| random_mon(r, all_moves)).collect()
}

fn pick(v: &SmallVec<[Action; 12]>, r: &mut Rng) -> Action {
    v[r.below(v.len() as u32) as usize]
}

/// Play to the end; returns (rows rendered, turns).
fn play(
    seed: u64,
    kind: BattleKind,
    link: bool,
    all_moves: bool,
) -> (Vec<String>, u32, Option<BattleResult>, u64) {
    let mut r = Rng::new(seed);
    let n1 = 1 + r.below(6) as usize;
    let n2 = if kind.is_wild() {
        1
    } else {
        1 + r.below(6) as usize
    };
    let p = team(&mut r, n1, all_moves);
    let e = team(&mut r, n2, all_moves);
    let mut b = Battle::new(data(), kind, p, e, Rng::new(seed ^ 0xABCD));
    b.set_link_rules(link);
    b.set_turn_limit(Some(3000));
    let rt = Runtime::default();
    let mut out = Vec::new();
    let mut pa: SmallVec<[Action; 12]> = SmallVec::new();
    let mut ea: SmallVec<[Action; 12]> = SmallVec::new();
    let mut steps = 0;
    while b.needs_choice() != NeedsChoice::Finished {
        steps += 1;
        assert!(steps < 20_000, "seed {seed}: battle does not end");
        b.legal_actions(Side::Player, &mut pa);
        b.legal_actions(Side::Enemy, &mut ea);
        assert!(
            !pa.is_empty() && !ea.is_empty(),
            "seed {seed}: no legal action ({:?})",
            b.needs_choice()
        );
        // The mask listing of a round matches the plain listing, and the random player's
        // draw over the masks is the draw over the list (same value, same RNG use).
        if b.needs_choice() == NeedsChoice::Round {
            for (s, list) in [(Side::Player, &pa), (Side::Enemy, &ea)] {
                assert_eq!(
                    list.as_slice(),
                    reference_round_actions(&b, s).as_slice(),
                    "seed {seed}"
                );
            }
        }
        for (s, list) in [(Side::Player, &pa), (Side::Enemy, &ea)] {
            let (mut r1, mut r2) = (r.clone(), r.clone());
            let want = if list.len() == 1 {
                list[0]
            } else {
                pick(list, &mut r1)
            };
            let got = crate::battle::random::random_choice(&b, s, &mut r2);
            assert_eq!((got, r2.state()), (want, r1.state()), "seed {seed}");
        }
        let x = pick(&pa, &mut r);
        let y = pick(&ea, &mut r);
        b.submit(&rt, x, y)
            .unwrap_or_else(|err| panic!("seed {seed}: {err}"));
        let rows: Vec<Row> = b.rows().collect();
        for row in &rows {
            if let Some(t) = row.render(&b) {
                out.push(t);
            }
        }
        for s in [Side::Player, Side::Enemy] {
            let st = b.side(s);
            for m in &st.party {
                assert!(m.hp <= m.stats.max_hp, "seed {seed}: hp over max");
            }
        }
    }
    assert!(b.result().is_some());
    (out, b.turn(), b.result(), b.rng().state())
}

/// The round listing as a plain loop (the form before the masks): moves (or Struggle /
/// Continue), switches, Run.
fn reference_round_actions(b: &Battle<Rng>, side: Side) -> Vec<Action> {
    let mut out = Vec::new();
    if b.locked(side) {
        return vec![Action::Continue];
    }
    if b.no_move_choice(side) {
        out.push(Action::Continue);
    } else {
        let bt = b.battler(side);
        let check_pp = b.pp_tracked(side);
        for slot in 0..4 {
            if bt.moves[slot].is_some() && !bt.is_disabled(slot) && (!check_pp || bt.pp[slot] > 0) {
                out.push(Action::Move(slot as u8));
            }
        }
        if out.is_empty() {
            out.push(Action::Struggle);
        }
    }
    if side == Side::Player || !b.kind().is_wild() {
        let s = b.side(side);
        for (i, m) in s.party.iter().enumerate() {
            if m.hp > 0 && i != s.active as usize {
                out.push(Action::Switch(i as u8));
            }
        }
    }
    if side == Side::Player && b.kind().is_wild() {
        out.push(Action::Run);
    }
    out
}

#[test]
fn random_battles_finish_without_panics() {
    for seed in 0..150u64 {
        let kind = if seed % 3 == 0 {
            BattleKind::Wild
        } else {
            trainer_kind()
        };
        play(seed, kind, seed % 2 == 0, true);
    }
}

#[test]
fn random_battles_with_learnset_moves() {
    for seed in 1000..1060u64 {
        play(seed, trainer_kind(), seed % 2 == 0, false);
    }
}

#[test]
fn same_seed_same_rows_and_state() {
    for seed in [7u64, 99, 1234] {
        let a = play(seed, trainer_kind(), true, true);
        let b = play(seed, trainer_kind(), true, true);
        assert_eq!(a, b);
    }
}

/// Throughput probe (release builds): `cargo test --release -p pallet-engine perf_probe --
/// --ignored --nocapture`. The criterion bench in `benches/` is the measurement of record.
#[test]
#[ignore]
fn perf_probe() {
    let mut r = Rng::new(1);
    let teams: Vec<(Vec<Pokemon>, Vec<Pokemon>)> = (0..256)
        .map(|_| (team(&mut r, 6, false), team(&mut r, 6, false)))
        .collect();
    let rt = Runtime::default();
    // On a shared machine wall time mostly measures waiting; the thread's own CPU time
    // (Linux `/proc/thread-self/schedstat`) is reported too.
    let cpu_ns = || -> Option<u64> {
        std::fs::read_to_string("/proc/thread-self/schedstat")
            .ok()?
            .split_whitespace()
            .next()?
            .parse()
            .ok()
    };
    let cpu0 = cpu_ns();
    let start = std::time::Instant::now();
    let mut turns = 0u64;
    let n = 20_000;
    let mut pa: SmallVec<[Action; 12]> = SmallVec::new();
    let mut ea: SmallVec<[Action; 12]> = SmallVec::new();
    for i in 0..n {
        let (p, e) = teams[i % teams.len()].clone();
        let mut b = Battle::new(data(), trainer_kind(), p, e, Rng::new(i as u64));
        b.set_record_rows(false);
        b.set_link_rules(true);
        b.set_style(BattleStyle::Set);
        b.set_turn_limit(Some(1000));
        while b.needs_choice() != NeedsChoice::Finished {
            b.legal_actions(Side::Player, &mut pa);
            b.legal_actions(Side::Enemy, &mut ea);
            let x = pick(&pa, &mut r);
            let y = pick(&ea, &mut r);
            let _ = b.submit(&rt, x, y);
        }
        turns += u64::from(b.turn());
    }
    let dt = start.elapsed().as_secs_f64();
    eprintln!(
        "{n} battles in {dt:.3}s wall: {:.0} battles/s, {:.1} turns/battle, {:.0} ns/turn",
        n as f64 / dt,
        turns as f64 / n as f64,
        dt * 1e9 / turns as f64
    );
    if let (Some(a), Some(b)) = (cpu0, cpu_ns()) {
        let cpu = (b - a) as f64 / 1e9;
        eprintln!(
            "  on-CPU {cpu:.3}s: {:.0} battles/s, {:.0} ns/turn",
            n as f64 / cpu,
            cpu * 1e9 / turns as f64
        );
    }
}

#[test]
fn turns_allocate_nothing_without_subscribers() {
    let rt = Runtime::default();
    let mut r = Rng::new(42);
    let mut pa: SmallVec<[Action; 12]> = SmallVec::new();
    let mut ea: SmallVec<[Action; 12]> = SmallVec::new();
    let mut turns = 0;
    for (seed, link) in [(1u64, true), (2, false), (3, true), (4, false)] {
        let p = team(&mut r, 6, true);
        let e = team(&mut r, 6, true);
        let kind = if link {
            trainer_kind()
        } else {
            BattleKind::Wild
        };
        let mut b = Battle::new(data(), kind, p, e, Rng::new(seed));
        b.set_record_rows(false);
        b.set_link_rules(link);
        b.set_turn_limit(Some(2000));
        b.start(&rt);
        let before = super::allocations();
        while b.needs_choice() != NeedsChoice::Finished {
            b.legal_actions(Side::Player, &mut pa);
            b.legal_actions(Side::Enemy, &mut ea);
            let x = pick(&pa, &mut r);
            let y = pick(&ea, &mut r);
            b.submit(&rt, x, y).unwrap();
            turns += 1;
        }
        assert_eq!(
            super::allocations(),
            before,
            "seed {seed}: a battle step allocated"
        );
    }
    assert!(turns > 50);
    // The counter does count.
    let c = super::allocations();
    let v = std::hint::black_box(vec![1u8; 10]);
    assert!(super::allocations() > c);
    drop(v);
}
