//! Deterministic, seedable random numbers. No wall clock anywhere in the simulation.

use serde::{Deserialize, Serialize};

/// A small, fast, seedable generator (xoshiro-style 64-bit state mixed with splitmix64).
/// Its whole state is plain data, so checkpoints can capture and restore it exactly.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rng {
    state: u64,
}

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng {
            state: seed ^ 0x9E37_79B9_7F4A_7C15,
        }
    }

    pub fn state(&self) -> u64 {
        self.state
    }

    pub fn from_state(state: u64) -> Self {
        Rng { state }
    }

    /// Next 64 random bits (splitmix64).
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A random byte, 0..=255, as the cartridge's `Random` routine yields.
    #[inline]
    pub fn byte(&mut self) -> u8 {
        (self.next_u64() >> 56) as u8
    }

    /// Uniform in `0..n` (n > 0), without modulo bias.
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        debug_assert!(n > 0);
        (((self.next_u64() >> 32) * n as u64) >> 32) as u32
    }
}

/// The checkpoint form of an [`Rng`]: `{state = "<16 lower-case hex digits>"}` (a string, as
/// script numbers are `i64` and the state is a full `u64`), for `#[serde(with = "…")]`.
pub(crate) mod hex {
    use serde::{de::Error, Deserialize, Deserializer, Serialize, Serializer};

    use super::Rng;

    #[derive(Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct RngRecord {
        state: String,
    }

    pub fn serialize<S: Serializer>(rng: &Rng, s: S) -> Result<S::Ok, S::Error> {
        RngRecord {
            state: format!("{:016x}", rng.state()),
        }
        .serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Rng, D::Error> {
        let r = RngRecord::deserialize(d)?;
        let canonical = r.state.len() == 16
            && r.state
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        if !canonical {
            return Err(D::Error::custom(
                "rng.state must be 16 lower-case hex digits",
            ));
        }
        u64::from_str_radix(&r.state, 16)
            .map(Rng::from_state)
            .map_err(D::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        for _ in 0..100 {
            assert_eq!(a.byte(), b.byte());
        }
        let mut c = Rng::new(8);
        let sa: Vec<u8> = (0..16).map(|_| a.byte()).collect();
        let sc: Vec<u8> = (0..16).map(|_| c.byte()).collect();
        assert_ne!(sa, sc);
    }

    #[test]
    fn below_stays_in_range() {
        let mut r = Rng::new(1);
        for n in 1..50 {
            for _ in 0..50 {
                assert!(r.below(n) < n);
            }
        }
    }
}
