//! [`ScriptRng`]: an engine-supplied random source handed to scripts inside a hook context —
//! `ctx.rng` of `encounter.roll`, where the Lua engine handed mods its RNG.
//!
//! The engine seeds it from its own game RNG **without advancing that RNG** (a hash of the
//! current state), so a subscribed hook never changes the game's random sequence and a run
//! stays byte-identical for the same seed and mods. Draws advance only the script generator:
//! a 52-bit LCG (full period) whose output is mixed by splitmix64. 52 bits, so the state is
//! exact in a Lua number (a double) as well as a Rhai integer.
//!
//! **At the script boundary** it is data: `{ __rng = <state> }` ([`ScriptRng::MARKER`]). Hosts
//! turn it into an object — Lua: a userdata callable as `ctx.rng(m, n)` and
//! `ctx.rng:random(m, n)`; Rhai: `ctx.rng.random(m, n)` — and back into the marker (with the
//! state where the script left it) when a script hands the context to `next(…)`. Both hosts
//! draw through [`ScriptRng::random`], so a Lua mod and its Rhai twin draw the same numbers.

use serde::{Deserialize, Serialize};

const MASK: u64 = (1 << 52) - 1;
const LCG_A: u64 = 0x5_DEEC_E66D;
const LCG_C: u64 = 0xB;

fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The script-visible random source of one hook call.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScriptRng {
    #[serde(rename = "__rng")]
    state: i64,
}

impl ScriptRng {
    /// The marker key of the data form.
    pub const MARKER: &'static str = "__rng";

    /// Seeded from an engine RNG state (hashed; the engine RNG itself is not advanced).
    pub fn seeded(engine_state: u64) -> Self {
        ScriptRng {
            state: (splitmix(engine_state) & MASK) as i64,
        }
    }

    /// From a state read back from a script (any integer: reduced to 52 bits).
    pub fn from_state(state: i64) -> Self {
        ScriptRng {
            state: (state as u64 & MASK) as i64,
        }
    }

    /// The current state (0 ≤ state < 2^52).
    pub fn state(&self) -> i64 {
        self.state
    }

    /// Advance and return a float in `[0, 1)`.
    pub fn float(&mut self) -> f64 {
        let s = (self.state as u64 & MASK)
            .wrapping_mul(LCG_A)
            .wrapping_add(LCG_C)
            & MASK;
        self.state = s as i64;
        (splitmix(s) >> 11) as f64 / (1u64 << 53) as f64
    }

    /// `math.random` semantics (Lua 5.1): `()` → a float in `[0, 1)`; `(m)` → an integer in
    /// `[1, m]`; `(m, n)` → an integer in `[m, n]` (bounds floored). An empty interval is an
    /// error and draws nothing.
    pub fn random(&mut self, m: Option<f64>, n: Option<f64>) -> Result<f64, String> {
        let (lo, hi) = match (m, n) {
            (None, _) => return Ok(self.float()),
            (Some(m), None) => (1.0, m.floor()),
            (Some(m), Some(n)) => (m.floor(), n.floor()),
        };
        if !lo.is_finite() || !hi.is_finite() || lo > hi {
            return Err("bad argument to 'random' (interval is empty)".to_owned());
        }
        Ok((self.float() * (hi - lo + 1.0)).floor() + lo)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::{from_value, to_value, Value};

    #[test]
    fn deterministic_in_range_and_crosses_as_the_marker() {
        let mut a = ScriptRng::seeded(42);
        let mut b = ScriptRng::seeded(42);
        let draws: Vec<f64> = (0..1000)
            .map(|_| a.random(Some(1.0), Some(100.0)).unwrap())
            .collect();
        assert_eq!(
            draws,
            (0..1000)
                .map(|_| b.random(Some(1.0), Some(100.0)).unwrap())
                .collect::<Vec<_>>()
        );
        assert!(draws
            .iter()
            .all(|d| (1.0..=100.0).contains(d) && d.fract() == 0.0));
        let low = draws.iter().filter(|d| **d <= 30.0).count();
        assert!((230..=370).contains(&low), "{low}");
        assert_ne!(ScriptRng::seeded(43), ScriptRng::seeded(42));
        assert!(a.random(Some(5.0), Some(4.0)).is_err());
        let v = to_value(&a).unwrap();
        assert_eq!(v, Value::map([("__rng", Value::Int(a.state()))]));
        assert_eq!(from_value::<ScriptRng>(v).unwrap(), a);
        assert!(ScriptRng::from_state(-1).state() >= 0);
        assert!(ScriptRng::seeded(u64::MAX).state() < 1 << 52);
    }
}
