//! Bill's PC boxes: 12 boxes of 20, one of them current.
//!
//! Generic over the mon type so the same rules serve live [`Pokemon`](super::Pokemon) and the
//! string-keyed records inside a save. Box numbers in this API are 1-based, as players and the
//! reference engine count them (`currentBox` 1..=12).

use super::party::Party;

/// Number of boxes.
pub const BOX_COUNT: usize = 12;
/// Mons per box.
pub const BOX_CAPACITY: usize = 20;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Boxes<M> {
    boxes: Vec<Vec<M>>,
    /// 0-based index of the current box (always < BOX_COUNT).
    current: usize,
}

/// Why a PC operation did not happen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoxError {
    #[error("box {0} does not exist (boxes are numbered 1 to 12)")]
    NoSuchBox(usize),
    #[error("there is no Pokémon in slot {slot} of box {box_no}")]
    NoSuchMon { box_no: usize, slot: usize },
    #[error("box {0} is full")]
    BoxFull(usize),
    #[error("the party is full")]
    PartyFull,
    #[error("there is no Pokémon in party slot {0}")]
    NoSuchPartyMon(usize),
    #[error("the last Pokémon cannot leave the party")]
    LastPartyMon,
}

impl<M> Default for Boxes<M> {
    fn default() -> Self {
        Boxes {
            boxes: (0..BOX_COUNT).map(|_| Vec::new()).collect(),
            current: 0,
        }
    }
}

impl<M> Boxes<M> {
    pub fn new() -> Self {
        Self::default()
    }

    /// Reference `Boxes.ensure`: build the 12 boxes from whatever a save holds. Missing boxes
    /// are created; `legacy` (an old single `box` list) is moved into box 1; the current box
    /// is clamped to 1..=12. Mons that do not fit (a box over 20, boxes beyond 12, a legacy
    /// list that overflows box 1) are placed with [`Boxes::deposit`] where there is room, and
    /// the rest are returned with the box number they came from.
    pub fn ensure(
        stored: Vec<Vec<M>>,
        legacy: Vec<M>,
        current_box: i64,
    ) -> (Self, Vec<(usize, M)>) {
        let mut boxes = Boxes::new();
        boxes.current = (current_box.clamp(1, BOX_COUNT as i64) - 1) as usize;
        let mut pending: Vec<(usize, M)> = Vec::new();
        for (i, list) in stored.into_iter().enumerate() {
            for mon in list {
                match boxes.boxes.get_mut(i) {
                    Some(b) if b.len() < BOX_CAPACITY => b.push(mon),
                    _ => pending.push((i + 1, mon)),
                }
            }
        }
        for mon in legacy {
            if boxes.boxes[0].len() < BOX_CAPACITY {
                boxes.boxes[0].push(mon);
            } else {
                pending.push((1, mon));
            }
        }
        let mut left = Vec::new();
        for (from, mon) in pending {
            if let Err(mon) = boxes.deposit(mon) {
                left.push((from, mon));
            }
        }
        (boxes, left)
    }

    /// Current box number, 1..=12.
    pub fn current_box(&self) -> usize {
        self.current + 1
    }

    /// Change the current box (the PC's CHANGE BOX).
    pub fn set_current_box(&mut self, box_no: usize) -> Result<(), BoxError> {
        self.check_box(box_no)?;
        self.current = box_no - 1;
        Ok(())
    }

    /// Reference `Boxes.active`: the mons of the current box.
    pub fn active(&self) -> &[M] {
        &self.boxes[self.current]
    }

    /// The mons of box `box_no` (1-based).
    pub fn get_box(&self, box_no: usize) -> Option<&[M]> {
        box_no
            .checked_sub(1)
            .and_then(|i| self.boxes.get(i))
            .map(Vec::as_slice)
    }

    /// Mutable access to the mons of box `box_no` (1-based) for in-place edits.
    pub fn get_box_mut(&mut self, box_no: usize) -> Option<&mut [M]> {
        box_no
            .checked_sub(1)
            .and_then(|i| self.boxes.get_mut(i))
            .map(Vec::as_mut_slice)
    }

    /// All boxes in order (index 0 is box 1).
    pub fn all(&self) -> impl Iterator<Item = &[M]> {
        self.boxes.iter().map(Vec::as_slice)
    }

    /// Total number of boxed mons.
    pub fn total(&self) -> usize {
        self.boxes.iter().map(Vec::len).sum()
    }

    /// Reference `Boxes.deposit` (the capture path): try the current box first, then the
    /// following boxes, wrapping around; the mon goes into the first box with room and that box
    /// number (1-based) is returned. When all twelve are full the mon is handed back.
    ///
    /// Divergence from the cartridge, kept on purpose from the reference engine: the cartridge
    /// only ever uses the current box and refuses the catch when it is full.
    pub fn deposit(&mut self, mon: M) -> Result<usize, M> {
        for k in 0..BOX_COUNT {
            let i = (self.current + k) % BOX_COUNT;
            if self.boxes[i].len() < BOX_CAPACITY {
                self.boxes[i].push(mon);
                return Ok(i + 1);
            }
        }
        Err(mon)
    }

    /// The PC's DEPOSIT (cartridge rule): move party mon `party_index` into the current box,
    /// which must have room; the party's last mon cannot be deposited.
    pub fn store_from_party(
        &mut self,
        party: &mut Party<M>,
        party_index: usize,
    ) -> Result<usize, BoxError> {
        if party_index >= party.len() {
            return Err(BoxError::NoSuchPartyMon(party_index));
        }
        if party.len() <= 1 {
            return Err(BoxError::LastPartyMon);
        }
        if self.boxes[self.current].len() >= BOX_CAPACITY {
            return Err(BoxError::BoxFull(self.current_box()));
        }
        let mon = party
            .remove(party_index)
            .ok_or(BoxError::NoSuchPartyMon(party_index))?;
        self.boxes[self.current].push(mon);
        Ok(self.current_box())
    }

    /// The PC's WITHDRAW: move the mon at `slot` of box `box_no` to the end of the party.
    pub fn withdraw(
        &mut self,
        box_no: usize,
        slot: usize,
        party: &mut Party<M>,
    ) -> Result<usize, BoxError> {
        self.check_slot(box_no, slot)?;
        if party.is_full() {
            return Err(BoxError::PartyFull);
        }
        let mon = self.boxes[box_no - 1].remove(slot);
        match party.add(mon) {
            Ok(i) => Ok(i),
            // Unreachable after the is_full check, but never lose the mon: put it back.
            Err(mon) => {
                self.boxes[box_no - 1].insert(slot, mon);
                Err(BoxError::PartyFull)
            }
        }
    }

    /// The PC's RELEASE: remove the mon at `slot` of box `box_no` and return it (the caller
    /// drops it, or hands it to a mod).
    pub fn release(&mut self, box_no: usize, slot: usize) -> Result<M, BoxError> {
        self.check_slot(box_no, slot)?;
        Ok(self.boxes[box_no - 1].remove(slot))
    }

    /// Keep only the mons for which `keep(box_no, mon)` returns true.
    pub fn retain(&mut self, mut keep: impl FnMut(usize, &M) -> bool) {
        for (i, b) in self.boxes.iter_mut().enumerate() {
            b.retain(|m| keep(i + 1, m));
        }
    }

    /// Apply `f` to every mon, producing boxes of another mon type (same layout and current box).
    pub fn try_map<N, E>(&self, mut f: impl FnMut(&M) -> Result<N, E>) -> Result<Boxes<N>, E> {
        let mut boxes = Vec::with_capacity(BOX_COUNT);
        for b in &self.boxes {
            boxes.push(b.iter().map(&mut f).collect::<Result<Vec<N>, E>>()?);
        }
        Ok(Boxes {
            boxes,
            current: self.current,
        })
    }

    /// The twelve box lists, in order (for serialization).
    pub fn into_lists(self) -> Vec<Vec<M>> {
        self.boxes
    }

    fn check_box(&self, box_no: usize) -> Result<(), BoxError> {
        if (1..=BOX_COUNT).contains(&box_no) {
            Ok(())
        } else {
            Err(BoxError::NoSuchBox(box_no))
        }
    }

    fn check_slot(&self, box_no: usize, slot: usize) -> Result<(), BoxError> {
        self.check_box(box_no)?;
        if slot < self.boxes[box_no - 1].len() {
            Ok(())
        } else {
            Err(BoxError::NoSuchMon { box_no, slot })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filled(counts: [usize; BOX_COUNT], current: i64) -> Boxes<u32> {
        let lists = counts
            .iter()
            .enumerate()
            .map(|(b, &n)| (0..n).map(|k| (b * 100 + k) as u32).collect())
            .collect();
        let (boxes, left) = Boxes::ensure(lists, Vec::new(), current);
        assert!(left.is_empty());
        boxes
    }

    #[test]
    fn deposit_goes_to_current_box_when_it_has_room() {
        let mut b = filled([0; BOX_COUNT], 5);
        assert_eq!(b.deposit(1), Ok(5));
        assert_eq!(b.active(), &[1]);
        assert_eq!(b.total(), 1);
    }

    #[test]
    fn deposit_skips_full_current_box_to_the_next() {
        let mut counts = [0; BOX_COUNT];
        counts[4] = BOX_CAPACITY;
        let mut b = filled(counts, 5);
        assert_eq!(b.deposit(7), Ok(6));
        assert_eq!(b.get_box(6), Some(&[7][..]));
        assert_eq!(
            b.current_box(),
            5,
            "depositing never changes the current box"
        );
    }

    #[test]
    fn deposit_wraps_around_past_box_12() {
        let mut counts = [BOX_CAPACITY; BOX_COUNT];
        counts[2] = 19; // box 3 has one free slot
        let mut b = filled(counts, 11);
        assert_eq!(b.deposit(1), Ok(3));
        // Now everything is full.
        assert_eq!(b.deposit(2), Err(2));
        assert_eq!(b.total(), BOX_COUNT * BOX_CAPACITY);
    }

    #[test]
    fn deposit_from_box_12_wraps_to_box_1() {
        let mut counts = [0; BOX_COUNT];
        counts[11] = BOX_CAPACITY;
        let mut b = filled(counts, 12);
        assert_eq!(b.deposit(9), Ok(1));
    }

    #[test]
    fn deposit_all_full_returns_the_mon() {
        let mut b = filled([BOX_CAPACITY; BOX_COUNT], 1);
        assert_eq!(b.deposit(42), Err(42));
    }

    #[test]
    fn ensure_clamps_current_box_and_migrates_legacy() {
        let (b, left) = Boxes::<u32>::ensure(vec![], vec![1, 2], 0);
        assert!(left.is_empty());
        assert_eq!(b.current_box(), 1);
        assert_eq!(b.get_box(1), Some(&[1, 2][..]));
        let (b, _) = Boxes::<u32>::ensure(vec![], vec![], 99);
        assert_eq!(b.current_box(), 12);
        let (b, _) = Boxes::<u32>::ensure(vec![], vec![], -3);
        assert_eq!(b.current_box(), 1);
        assert_eq!(b.all().count(), BOX_COUNT);
    }

    #[test]
    fn ensure_redistributes_overfull_boxes_and_reports_the_rest() {
        // Box 1 holds 25 (5 too many): they overflow into box 2.
        let (b, left) = Boxes::ensure(vec![(0..25).collect::<Vec<u32>>()], vec![], 1);
        assert!(left.is_empty());
        assert_eq!(b.get_box(1).map(<[u32]>::len), Some(20));
        assert_eq!(b.get_box(2), Some(&[20, 21, 22, 23, 24][..]));
        // All full plus a 13th box: its mons come back with their origin.
        let mut lists: Vec<Vec<u32>> = (0..BOX_COUNT).map(|_| vec![0; BOX_CAPACITY]).collect();
        lists.push(vec![7, 8]);
        let (b, left) = Boxes::ensure(lists, vec![], 1);
        assert_eq!(b.total(), BOX_COUNT * BOX_CAPACITY);
        assert_eq!(left, vec![(13, 7), (13, 8)]);
    }

    #[test]
    fn withdraw_store_release() {
        let mut b = Boxes::new();
        let (mut party, _) = Party::from_vec(vec![1u32, 2, 3, 4, 5, 6]);
        assert_eq!(
            b.store_from_party(&mut party, 9),
            Err(BoxError::NoSuchPartyMon(9))
        );
        assert_eq!(b.store_from_party(&mut party, 0), Ok(1));
        assert_eq!(b.active(), &[1]);
        b.deposit(10).unwrap();
        assert_eq!(
            b.withdraw(1, 5, &mut party),
            Err(BoxError::NoSuchMon { box_no: 1, slot: 5 })
        );
        assert_eq!(b.withdraw(13, 0, &mut party), Err(BoxError::NoSuchBox(13)));
        assert_eq!(b.withdraw(1, 1, &mut party), Ok(5));
        assert_eq!(party.as_slice(), &[2, 3, 4, 5, 6, 10]);
        assert_eq!(b.withdraw(1, 0, &mut party), Err(BoxError::PartyFull));
        assert_eq!(b.release(1, 0), Ok(1));
        assert_eq!(b.total(), 0);
        assert_eq!(
            b.release(1, 0),
            Err(BoxError::NoSuchMon { box_no: 1, slot: 0 })
        );
        // The last party mon cannot be stored.
        let (mut solo, _) = Party::from_vec(vec![1u32]);
        assert_eq!(
            b.store_from_party(&mut solo, 0),
            Err(BoxError::LastPartyMon)
        );
        // A full current box refuses the PC deposit (no wrap-around there).
        let mut full = filled([BOX_CAPACITY; BOX_COUNT], 1);
        let (mut p2, _) = Party::from_vec(vec![1u32, 2]);
        assert_eq!(full.store_from_party(&mut p2, 0), Err(BoxError::BoxFull(1)));
        assert_eq!(p2.len(), 2);
        assert_eq!(full.set_current_box(0), Err(BoxError::NoSuchBox(0)));
        assert_eq!(full.set_current_box(12), Ok(()));
        assert_eq!(full.current_box(), 12);
    }
}
