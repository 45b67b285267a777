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
