//! Seeded random teams for headless battles (`pallet battle`, the hot-loop bench).
//!
//! A random mon is a uniformly chosen species at a uniformly chosen level in
//! [`RANDOM_LEVELS`], with random DVs (two random bytes, as a wild mon gets them), no stat
//! experience, and up to four distinct moves drawn uniformly from everything the species knows
//! by that level (its level-1 moves plus its learnset up to the level). Everything is drawn
//! from the given [`Rng`], so a seed fixes the team.

use std::ops::RangeInclusive;

use crate::data::{Dataset, MoveId, SpeciesId};
use crate::pokemon::{Dvs, Pokemon, MOVE_SLOTS, PARTY_CAPACITY};
use crate::rng::Rng;

/// Levels random mons are drawn from.
pub const RANDOM_LEVELS: RangeInclusive<u8> = 50..=100;

/// The seed of battle number `index` in a run seeded with `seed`: a splitmix64 mix of both, so
/// neighbouring indices give unrelated streams and any split of a run over threads reproduces
/// the same battles.
pub fn stream_seed(seed: u64, index: u64) -> u64 {
    let mut z = seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17);
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A random team of `size` mons (clamped to 1..=6).
pub fn random_team(data: &Dataset, rng: &mut Rng, size: usize) -> Vec<Pokemon> {
    let size = size.clamp(1, PARTY_CAPACITY);
    (0..size).map(|_| random_mon(data, rng)).collect()
}

/// One random mon (see the module docs). An empty dataset yields a placeholder with no moves.
pub fn random_mon(data: &Dataset, rng: &mut Rng) -> Pokemon {
    let count = data.species.len().clamp(1, usize::from(u16::MAX)) as u32;
    let species = SpeciesId(rng.below(count) as u16);
    let (lo, hi) = (*RANDOM_LEVELS.start(), *RANDOM_LEVELS.end());
    let level = lo + rng.below(u32::from(hi - lo) + 1) as u8;
    let dvs = Dvs::from_bytes([rng.byte(), rng.byte()]);
    let mut mon = Pokemon::new(data, species, level, dvs);
    let mut pool = known_moves(data, species, level);
    if !pool.is_empty() {
        let picks = pool.len().min(MOVE_SLOTS);
        // Partial Fisher–Yates: the first `picks` entries become a uniform sample.
        for i in 0..picks {
            let j = i + rng.below((pool.len() - i) as u32) as usize;
            pool.swap(i, j);
        }
        mon.moves = [None; MOVE_SLOTS];
        mon.pp_ups = [0; MOVE_SLOTS];
        for (slot, m) in pool.iter().take(picks).enumerate() {
            mon.moves[slot] = Some(*m);
        }
        for slot in 0..MOVE_SLOTS {
            mon.pp[slot] = mon.max_pp(data, slot).unwrap_or(0);
        }
    }
    mon
}

/// The moves a pkmn/engine-style random mon draws from: every move but Struggle (164 in Gen 1).
pub fn pkmn_move_pool(data: &Dataset) -> Vec<MoveId> {
    const STRUGGLE: u16 = 165;
    data.moves
        .iter()
        .filter(|m| m.num != 0 && m.num != STRUGGLE)
        .map(|m| MoveId(m.num))
        .collect()
}

/// A team built the way pkmn/engine's benchmark builds one: uniformly random species, four
/// distinct moves drawn uniformly from the 164 that are not Struggle (learnsets ignored),
/// level 100, every DV 15, maximum stat experience, full HP and PP (three PP Ups, as Showdown).
pub fn pkmn_team(data: &Dataset, rng: &mut Rng, size: usize) -> Vec<Pokemon> {
    let pool = pkmn_move_pool(data);
    let count = data.species.len().clamp(1, usize::from(u16::MAX)) as u32;
    (0..size.clamp(1, PARTY_CAPACITY))
        .map(|_| {
            let species = SpeciesId(rng.below(count) as u16);
            let mut mon = Pokemon::new(data, species, 100, Dvs::uniform(15));
            let mut picks: Vec<MoveId> = Vec::with_capacity(MOVE_SLOTS);
            while picks.len() < MOVE_SLOTS.min(pool.len()) {
                let m = pool[rng.below(pool.len() as u32) as usize];
                if !picks.contains(&m) {
                    picks.push(m);
                }
            }
            mon.moves = [None; MOVE_SLOTS];
            for (slot, m) in picks.iter().enumerate() {
                mon.moves[slot] = Some(*m);
            }
            mon.pp_ups = [3; MOVE_SLOTS];
            for slot in 0..MOVE_SLOTS {
                mon.pp[slot] = mon.max_pp(data, slot).unwrap_or(0);
            }
            mon.stat_exp = crate::pokemon::StatExp {
                hp: u16::MAX,
                atk: u16::MAX,
                def: u16::MAX,
                spe: u16::MAX,
                spc: u16::MAX,
            };
            mon.recompute_stats(data);
            mon.hp = mon.stats.max_hp;
            mon
        })
        .collect()
}

/// Every move `species` knows by `level`: level-1 moves then learnset moves, without
/// duplicates, in that order.
pub fn known_moves(data: &Dataset, species: SpeciesId, level: u8) -> Vec<MoveId> {
    let mut out: Vec<MoveId> = Vec::with_capacity(16);
    if let Some(sp) = data.get_species(species) {
        let learned = sp
            .learnset
            .iter()
            .filter(|(l, _)| *l <= level)
            .map(|(_, m)| *m);
        for m in sp.start_moves.iter().copied().chain(learned) {
            if m.0 != 0 && !out.contains(&m) && data.get_move(m).is_some() {
                out.push(m);
            }
        }
    }
    out
}

// ----- random-choice play ----------------------------------------------------------------------

use pallet_api::Runtime;

use super::{Action, Battle, BattleKind, BattleMode, BattleResult, BattleStyle, Phase, Side};

/// Rounds after which a random battle is called a draw (two Ghosts that can only Struggle at
/// each other never finish).
pub const MAX_TURNS: u32 = 1000;

/// How a headless battle ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayOutcome {
    /// `Win` = side 1 (the player side) won, `Lose` = side 2 won, `Draw` for a simultaneous
    /// last faint in a link battle and battles stopped at [`MAX_TURNS`].
    pub result: BattleResult,
    pub turns: u32,
}

/// The battle kind headless battles use: a trainer battle (no running, no balls).
pub fn headless_kind() -> BattleKind {
    BattleKind::Trainer {
        class: "HEADLESS".to_string(),
        index: 0,
        name: "P2".to_string(),
    }
}

/// A headless battle between two teams: rows off, link-battle rules (both sides spend PP, no
/// EXP) and the SET style (no free switch for side 1 when side 2 sends a new mon), so the two
/// sides play by the same rules; a draw after [`MAX_TURNS`] rounds.
pub fn headless_battle(
    data: &'static Dataset,
    p1: Vec<Pokemon>,
    p2: Vec<Pokemon>,
    rng: Rng,
) -> Battle<Rng> {
    headless_battle_in(data, p1, p2, rng, BattleMode::Link)
}

/// [`headless_battle`] under `mode`'s rules ([`BattleMode::Game`]: side 1 is the player, side 2
/// the in-game enemy; both still choose uniformly at random in [`play_random`]).
pub fn headless_battle_in(
    data: &'static Dataset,
    p1: Vec<Pokemon>,
    p2: Vec<Pokemon>,
    rng: Rng,
    mode: BattleMode,
) -> Battle<Rng> {
    let mut b = Battle::new(data, headless_kind(), p1, p2, rng);
    b.set_record_rows(false);
    b.set_style(BattleStyle::Set);
    b.set_mode(mode);
    b.set_turn_limit(Some(MAX_TURNS));
    b
}

/// Play `battle` to the end with both sides choosing uniformly among their legal actions,
/// drawing choices from `chooser`. Stops at `max_turns` rounds (a draw).
pub fn play_random<R: super::BattleRng>(
    battle: &mut Battle<R>,
    rt: &Runtime,
    chooser: &mut Rng,
    max_turns: u32,
) -> PlayOutcome {
    loop {
        if battle.phase == Phase::Finished {
            break;
        }
        if battle.turn() >= max_turns {
            return PlayOutcome {
                result: BattleResult::Draw,
                turns: battle.turn(),
            };
        }
        // Uniform over the same listing as `legal_actions`, without building it in a round (bit
        // masks, the k-th entry); the picks are legal by construction, so `submit`'s check is
        // skipped.
        let a = random_choice(battle, Side::Player, chooser);
        let b = random_choice(battle, Side::Enemy, chooser);
        battle.submit_trusted(rt, a, b);
        battle.clear_rows();
    }
    PlayOutcome {
        result: battle.result().unwrap_or(BattleResult::Draw),
        turns: battle.turn(),
    }
}

/// One uniform draw among `side`'s legal actions, in listing order (no draw for one choice).
#[inline]
pub(crate) fn random_choice<R: super::BattleRng>(
    battle: &Battle<R>,
    side: Side,
    rng: &mut Rng,
) -> Action {
    if battle.phase == Phase::Round {
        let c = battle.round_choices(side);
        return match c.len() {
            0 | 1 => c.nth(0),
            n => c.nth(rng.below(n)),
        };
    }
    pick(battle.legal_buf(side).as_slice(), rng)
}

#[inline]
fn pick(actions: &[Action], rng: &mut Rng) -> Action {
    match actions.len() {
        0 => Action::Continue,
        1 => actions[0],
        n => actions[rng.below(n as u32) as usize],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::gen1;

    #[test]
    fn random_teams_are_deterministic() {
        let data = gen1();
        let a = random_team(data, &mut Rng::new(42), 6);
        let b = random_team(data, &mut Rng::new(42), 6);
        assert_eq!(a, b);
        let c = random_team(data, &mut Rng::new(43), 6);
        assert_ne!(a, c);
        assert_eq!(random_team(data, &mut Rng::new(1), 9).len(), 6);
        assert_eq!(random_team(data, &mut Rng::new(1), 0).len(), 1);
    }

    #[test]
    fn random_mons_are_legal() {
        let data = gen1();
        let mut rng = Rng::new(7);
        for _ in 0..300 {
            let m = random_mon(data, &mut rng);
            assert!(RANDOM_LEVELS.contains(&m.level));
            assert_eq!(m.hp, m.stats.max_hp);
            let pool = known_moves(data, m.species, m.level);
            let moves: Vec<MoveId> = m.moves.iter().flatten().copied().collect();
            assert_eq!(moves.len(), pool.len().min(MOVE_SLOTS));
            for (slot, mv) in moves.iter().enumerate() {
                assert!(pool.contains(mv));
                assert!(!moves[..slot].contains(mv), "duplicate move");
                assert_eq!(m.pp[slot], data.move_data(*mv).pp);
            }
        }
    }

    #[test]
    fn pkmn_teams_are_built_like_pkmn_engines() {
        let data = gen1();
        assert_eq!(pkmn_move_pool(data).len(), 164);
        let t = pkmn_team(data, &mut Rng::new(3), 6);
        assert_eq!(t.len(), 6);
        for m in &t {
            assert_eq!(m.level, 100);
            assert_eq!(m.dvs, Dvs::uniform(15));
            assert_eq!(m.stat_exp.spc, u16::MAX);
            assert_eq!(m.hp, m.stats.max_hp);
            let moves: Vec<MoveId> = m.moves.iter().flatten().copied().collect();
            assert_eq!(moves.len(), 4);
            assert!(!moves.contains(&MoveId(165)));
            for (i, mv) in moves.iter().enumerate() {
                assert!(!moves[..i].contains(mv));
                assert_eq!(m.pp[i], m.max_pp(data, i).unwrap());
            }
        }
        assert_eq!(t, pkmn_team(data, &mut Rng::new(3), 6));
    }

    #[test]
    fn stream_seeds_differ_by_index_and_seed() {
        let s: std::collections::BTreeSet<u64> = (0..1000).map(|i| stream_seed(1, i)).collect();
        assert_eq!(s.len(), 1000);
        assert_ne!(stream_seed(1, 0), stream_seed(2, 0));
    }

    #[test]
    fn random_battles_finish_and_replay() {
        let data = gen1();
        let rt = Runtime::default();
        let run = |seed: u64| {
            let mut teams = Rng::new(seed);
            let p1 = random_team(data, &mut teams, 6);
            let p2 = random_team(data, &mut teams, 6);
            let mut b = headless_battle(data, p1, p2, Rng::new(seed ^ 1));
            let mut chooser = Rng::new(seed ^ 2);
            let out = play_random(&mut b, &rt, &mut chooser, MAX_TURNS);
            (out, b.rng().state(), chooser.state())
        };
        for seed in 0..20 {
            let (out, rs, cs) = run(seed);
            assert!(out.turns <= MAX_TURNS);
            assert!(matches!(
                out.result,
                BattleResult::Win | BattleResult::Lose | BattleResult::Draw
            ));
            assert_eq!(run(seed), (out, rs, cs));
        }
    }
}
