//! A fixed-size bitset of `Cell<u64>` words: the constant-time subscriber guards.

use std::cell::Cell;

/// How many hook ids (and, separately, event ids) the guards can hold.
pub const GUARD_CAPACITY: usize = 256;
pub(crate) const WORDS: usize = GUARD_CAPACITY / 64;

#[derive(Default)]
pub(crate) struct Bitset {
    words: [Cell<u64>; WORDS],
}

impl Bitset {
    #[inline(always)]
    pub(crate) fn get(&self, index: usize) -> bool {
        match self.words.get(index / 64) {
            Some(word) => word.get() & (1u64 << (index % 64)) != 0,
            None => false,
        }
    }

    pub(crate) fn set(&self, index: usize, on: bool) {
        if let Some(word) = self.words.get(index / 64) {
            let bit = 1u64 << (index % 64);
            word.set(if on {
                word.get() | bit
            } else {
                word.get() & !bit
            });
        }
    }

    /// Does any index of `mask` hold a subscriber? With a constant mask the words it does not
    /// touch fold away, so a set of sites in one word costs one load and one test.
    #[inline(always)]
    pub(crate) fn any(&self, mask: &[u64; WORDS]) -> bool {
        let mut hit = 0u64;
        for (word, m) in self.words.iter().zip(mask) {
            if *m != 0 {
                hit |= word.get() & m;
            }
        }
        hit != 0
    }

    pub(crate) fn count(&self) -> u32 {
        self.words.iter().map(|w| w.get().count_ones()).sum()
    }
}
