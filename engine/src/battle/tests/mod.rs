//! Battle tests. Mechanics tests drive a [`ScriptedRng`]: every test lists the exact bytes the
//! cartridge routines draw, in order, and ends by checking that all were consumed and nothing
//! more was drawn.

use smallvec::SmallVec;

use pallet_api::Runtime;

use crate::data::{gen1, Dataset, MoveId, SpeciesId};
use crate::pokemon::{Dvs, Pokemon, Status};

use super::*;

mod ai;
mod damage;
mod faint;
#[cfg(feature = "hook-sites")]
mod field_residual;
mod fuzz;
mod moves;
mod prompt;
mod status;
mod turns;

pub(crate) fn data() -> &'static Dataset {
    gen1()
}

pub(crate) fn sp(name: &str) -> SpeciesId {
    data()
        .species_by_name(name)
        .unwrap_or_else(|| panic!("species {name}"))
}

pub(crate) fn mv(name: &str) -> MoveId {
    data()
        .move_by_name(name)
        .unwrap_or_else(|| panic!("move {name}"))
}

/// A mon with the given moves (full PP) and DVs 15.
pub(crate) fn mon(species: &str, level: u8, moves: &[&str]) -> Pokemon {
    let mut m = Pokemon::new(data(), sp(species), level, Dvs::MAX);
    m.moves = [None; 4];
    m.pp = [0; 4];
    for (i, name) in moves.iter().enumerate() {
        let id = mv(name);
        m.moves[i] = Some(id);
        m.pp[i] = data().move_data(id).pp;
    }
    m
}

/// Byte that `RandomizeDamage` turns into the factor `f` (217..=255).
pub(crate) fn factor(f: u8) -> u8 {
    f.rotate_left(1)
}

/// A crit roll that never crits / always crits (for a non-zero rate).
pub(crate) const NO_CRIT: u8 = 0xFF;
pub(crate) const CRIT: u8 = 0x00;
/// Accuracy rolls.
pub(crate) const HIT: u8 = 0x00;
pub(crate) const MISS: u8 = 0xFF;

pub(crate) fn battle(
    kind: BattleKind,
    p: Vec<Pokemon>,
    e: Vec<Pokemon>,
    bytes: &[u8],
) -> Battle<ScriptedRng> {
    let mut b = Battle::new(data(), kind, p, e, ScriptedRng::new(bytes));
    b.clear_rows();
    b
}

pub(crate) fn wild(p: Vec<Pokemon>, e: Vec<Pokemon>, bytes: &[u8]) -> Battle<ScriptedRng> {
    battle(BattleKind::Wild, p, e, bytes)
}

pub(crate) fn trainer_kind() -> BattleKind {
    BattleKind::Trainer {
        class: "BUG_CATCHER".into(),
        index: 0,
        name: "BUG CATCHER".into(),
    }
}

pub(crate) fn rt() -> Runtime {
    Runtime::default()
}

/// Assert every scripted byte was consumed and nothing more was drawn.
#[track_caller]
pub(crate) fn drained(b: &Battle<ScriptedRng>) {
    if let Err(e) = b.rng().check_drained() {
        panic!("scripted RNG: {e}");
    }
}

/// All text rows rendered.
pub(crate) fn texts(b: &mut Battle<ScriptedRng>) -> Vec<String> {
    let rows: Vec<Row> = b.rows().collect();
    rows.iter().filter_map(|r| r.render(b)).collect()
}

#[allow(dead_code)]
pub(crate) fn msgs(b: &mut Battle<ScriptedRng>) -> Vec<Msg> {
    b.rows()
        .filter_map(|r| match r {
            Row::Text(m) => Some(m),
            _ => None,
        })
        .collect()
}

pub(crate) fn legal(b: &Battle<ScriptedRng>, s: Side) -> Vec<Action> {
    let mut v: SmallVec<[Action; 12]> = SmallVec::new();
    b.legal_actions(s, &mut v);
    v.to_vec()
}

pub(crate) fn set_stats(m: &mut Pokemon, hp: u16, atk: u16, def: u16, spe: u16, spc: u16) {
    m.stats.max_hp = hp;
    m.hp = hp;
    m.stats.atk = atk;
    m.stats.def = def;
    m.stats.spe = spe;
    m.stats.spc = spc;
}

#[allow(dead_code)]
pub(crate) fn status_of(b: &Battle<ScriptedRng>, s: Side) -> Status {
    b.active(s).status
}

/// Counts heap allocations made by the current thread, so a test can assert that battle turns
/// allocate nothing.
mod alloc_count {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::cell::Cell;

    thread_local! {
        static ALLOCS: Cell<u64> = const { Cell::new(0) };
    }

    pub(crate) struct Counting;

    // SAFETY: a pass-through to the system allocator; the only addition is a thread-local
    // counter (const-initialized, no destructor, so touching it never allocates or panics).
    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            let _ = ALLOCS.try_with(|c| c.set(c.get() + 1));
            // SAFETY: same contract as the caller's.
            unsafe { System.alloc(layout) }
        }
        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            // SAFETY: `ptr` came from `System.alloc` above with this layout.
            unsafe { System.dealloc(ptr, layout) }
        }
        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            let _ = ALLOCS.try_with(|c| c.set(c.get() + 1));
            // SAFETY: same contract as the caller's.
            unsafe { System.realloc(ptr, layout, new_size) }
        }
    }

    #[global_allocator]
    static GLOBAL: Counting = Counting;

    /// Allocations made by this thread so far.
    pub(crate) fn count() -> u64 {
        ALLOCS.try_with(Cell::get).unwrap_or(0)
    }
}

pub(crate) use alloc_count::count as allocations;
