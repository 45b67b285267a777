//! One or more tests per move effect family, with every roll scripted. This module holds the
//! helpers the families share; each submodule is one group of families.

use super::*;

mod copying;
mod damage_effects;
mod field;
mod multi_turn;
mod stages;

fn fast(species: &str, moves: &[&str]) -> Pokemon {
    let mut m = mon(species, 50, moves);
    set_stats(&mut m, 150, 100, 100, 200, 100);
    m
}

fn slow(species: &str, moves: &[&str]) -> Pokemon {
    let mut m = mon(species, 50, moves);
    set_stats(&mut m, 160, 100, 100, 50, 100);
    m
}

fn go(b: &mut Battle<ScriptedRng>, p: Action, e: Action) {
    b.submit(&rt(), p, e).unwrap();
}

const M0: Action = Action::Move(0);
const M1: Action = Action::Move(1);
const C: Action = Action::Continue;
