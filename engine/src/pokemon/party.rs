//! The party: up to six mons in order.
//!
//! Generic over the mon type so the same rules serve live [`Pokemon`](super::Pokemon) and the
//! string-keyed records inside a save.

use serde::{Deserialize, Serialize};

/// Party capacity.
pub const PARTY_CAPACITY: usize = 6;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Party<M> {
    mons: Vec<M>,
}

impl<M> Default for Party<M> {
    fn default() -> Self {
        Party { mons: Vec::new() }
    }
}

impl<M> Party<M> {
    pub fn new() -> Self {
        Self::default()
    }

    /// Build from a list; mons beyond the capacity are returned in the second value.
    pub fn from_vec(mut mons: Vec<M>) -> (Self, Vec<M>) {
        let overflow = if mons.len() > PARTY_CAPACITY {
            mons.split_off(PARTY_CAPACITY)
        } else {
            Vec::new()
        };
        (Party { mons }, overflow)
    }

    /// Append at the end. A full party hands the mon back.
    pub fn add(&mut self, mon: M) -> Result<usize, M> {
        if self.is_full() {
            return Err(mon);
        }
        self.mons.push(mon);
        Ok(self.mons.len() - 1)
    }

    /// Remove the mon at `index`, shifting later ones up.
    pub fn remove(&mut self, index: usize) -> Option<M> {
        (index < self.mons.len()).then(|| self.mons.remove(index))
    }

    /// Swap two slots (the party menu's SWITCH). Out-of-range indices do nothing and return false.
    pub fn swap(&mut self, a: usize, b: usize) -> bool {
        if a < self.mons.len() && b < self.mons.len() {
            self.mons.swap(a, b);
            true
        } else {
            false
        }
    }

    pub fn len(&self) -> usize {
        self.mons.len()
    }

    pub fn is_empty(&self) -> bool {
        self.mons.is_empty()
    }

    pub fn is_full(&self) -> bool {
        self.mons.len() >= PARTY_CAPACITY
    }

    pub fn get(&self, index: usize) -> Option<&M> {
        self.mons.get(index)
    }

    pub fn get_mut(&mut self, index: usize) -> Option<&mut M> {
        self.mons.get_mut(index)
    }

    pub fn iter(&self) -> std::slice::Iter<'_, M> {
        self.mons.iter()
    }

    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, M> {
        self.mons.iter_mut()
    }

    pub fn as_slice(&self) -> &[M] {
        &self.mons
    }

    /// Keep only the mons for which `keep` returns true (in order).
    pub fn retain(&mut self, keep: impl FnMut(&M) -> bool) {
        self.mons.retain(keep);
    }

    /// Apply `f` to every mon, producing a party of another mon type (same order).
    pub fn try_map<N, E>(&self, f: impl FnMut(&M) -> Result<N, E>) -> Result<Party<N>, E> {
        Ok(Party {
            mons: self.mons.iter().map(f).collect::<Result<_, _>>()?,
        })
    }

    pub fn into_vec(self) -> Vec<M> {
        self.mons
    }
}

impl<'a, M> IntoIterator for &'a Party<M> {
    type Item = &'a M;
    type IntoIter = std::slice::Iter<'a, M>;
    fn into_iter(self) -> Self::IntoIter {
        self.mons.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capacity_is_six() {
        let mut p = Party::new();
        for i in 0..6 {
            assert_eq!(p.add(i), Ok(i as usize));
        }
        assert!(p.is_full());
        assert_eq!(p.add(99), Err(99));
        assert_eq!(p.len(), 6);
    }

    #[test]
    fn remove_and_swap() {
        let (mut p, overflow) = Party::from_vec(vec![1, 2, 3, 4, 5, 6, 7, 8]);
        assert_eq!(overflow, vec![7, 8]);
        assert_eq!(p.remove(1), Some(2));
        assert_eq!(p.as_slice(), &[1, 3, 4, 5, 6]);
        assert_eq!(p.remove(10), None);
        assert!(p.swap(0, 4));
        assert_eq!(p.as_slice(), &[6, 3, 4, 5, 1]);
        assert!(!p.swap(0, 5));
    }
}
