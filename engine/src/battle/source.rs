//! Random sources for battles: the seeded [`Rng`] (monomorphized, fast) and a [`ScriptedRng`]
//! that replays a fixed queue of bytes, so tests can assert that every roll was consumed.

use crate::rng::Rng;

/// What the battle engine draws from: one byte at a time, like the cartridge's `BattleRandom`.
pub trait BattleRng {
    /// The next random byte, 0..=255.
    fn byte(&mut self) -> u8;

    /// The damage random factor, 217..=255: the cartridge draws bytes, rotates each right by
    /// one and keeps the first that is at least 217 (39 equally likely values). This default
    /// does exactly that.
    #[inline]
    fn damage_factor(&mut self) -> u8 {
        loop {
            let r = self.byte().rotate_right(1);
            if r >= 217 {
                return r;
            }
        }
    }
}

impl BattleRng for Rng {
    #[inline(always)]
    fn byte(&mut self) -> u8 {
        Rng::byte(self)
    }

    /// The same uniform distribution over 217..=255 in one draw instead of ~6.6 rejected bytes
    /// on average (the seeded stream differs from the byte-by-byte loop; determinism holds).
    #[inline(always)]
    fn damage_factor(&mut self) -> u8 {
        217 + self.below(39) as u8
    }
}

/// A queue of bytes replayed in order. Running dry does not panic: it counts the overrun (which
/// [`ScriptedRng::check_drained`] reports) and yields 0, 1, 2, … so that every rejection loop of
/// the cartridge (damage factor, sleep counter, Metronome…) still terminates.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScriptedRng {
    bytes: Vec<u8>,
    pos: usize,
    overrun: usize,
}

impl ScriptedRng {
    pub fn new(bytes: &[u8]) -> ScriptedRng {
        ScriptedRng {
            bytes: bytes.to_vec(),
            pos: 0,
            overrun: 0,
        }
    }

    /// Append more bytes to the end of the queue.
    pub fn push(&mut self, bytes: &[u8]) {
        self.bytes.extend_from_slice(bytes);
    }

    /// Bytes not consumed yet.
    pub fn remaining(&self) -> &[u8] {
        &self.bytes[self.pos.min(self.bytes.len())..]
    }

    /// Number of draws made after the queue was empty.
    pub fn overrun(&self) -> usize {
        self.overrun
    }

    /// Number of bytes consumed so far.
    pub fn consumed(&self) -> usize {
        self.pos
    }

    /// `Ok` when every byte was consumed and no draw went past the end.
    pub fn check_drained(&self) -> Result<(), String> {
        if self.overrun > 0 {
            return Err(format!(
                "{} roll(s) past the end of the script",
                self.overrun
            ));
        }
        if !self.remaining().is_empty() {
            return Err(format!(
                "{} roll(s) left over: {:?}",
                self.remaining().len(),
                self.remaining()
            ));
        }
        Ok(())
    }
}

impl BattleRng for ScriptedRng {
    fn byte(&mut self) -> u8 {
        match self.bytes.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                b
            }
            None => {
                let b = self.overrun as u8;
                self.overrun += 1;
                b
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripted_replays_and_reports() {
        let mut s = ScriptedRng::new(&[1, 2]);
        assert_eq!(s.byte(), 1);
        assert!(s.check_drained().is_err());
        assert_eq!(s.byte(), 2);
        assert!(s.check_drained().is_ok());
        assert_eq!(s.byte(), 0);
        assert_eq!(s.byte(), 1);
        assert_eq!(s.overrun(), 2);
        assert!(s.check_drained().is_err());
    }
}
