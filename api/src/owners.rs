//! Owner identities and load ranks, shared by the hook and event buses.
//!
//! The loader calls [`Runtime::set_load_order`](crate::Runtime::set_load_order) before it runs
//! any entry; each mod id gets its position as rank. An owner the loader never ranked (the
//! engine's own `"base"` links, test owners) is ranked after every loaded mod, in order of first
//! appearance. Ranks are captured when a link or listener is registered.

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::rc::Rc;

const UNRANKED_BASE: u32 = 1 << 24;

#[derive(Default)]
pub(crate) struct Owners {
    ranks: RefCell<BTreeMap<Rc<str>, u32>>,
    next_unranked: Cell<u32>,
}

impl Owners {
    /// Rank mods by their position in `order` (earlier = lower rank = outer among equals).
    pub(crate) fn set_order<'a>(&self, order: impl IntoIterator<Item = &'a str>) {
        let mut ranks = self.ranks.borrow_mut();
        for (i, id) in order.into_iter().enumerate() {
            let rank = u32::try_from(i)
                .unwrap_or(UNRANKED_BASE - 1)
                .min(UNRANKED_BASE - 1);
            ranks.insert(Rc::from(id), rank);
        }
    }

    /// The interned owner name and its rank, registering unknown owners as unranked.
    pub(crate) fn resolve(&self, owner: &str) -> (Rc<str>, u32) {
        let mut ranks = self.ranks.borrow_mut();
        if let Some((name, rank)) = ranks.get_key_value(owner) {
            return (name.clone(), *rank);
        }
        let n = self.next_unranked.get();
        self.next_unranked.set(n.saturating_add(1));
        let rank = UNRANKED_BASE.saturating_add(n);
        let name: Rc<str> = Rc::from(owner);
        ranks.insert(name.clone(), rank);
        (name, rank)
    }
}

/// How many links or listeners each owner holds: the per-mod quotas `hooks.max_links` and
/// `events.max_listeners` of the two buses.
#[derive(Default)]
pub(crate) struct OwnerCounts(RefCell<BTreeMap<Rc<str>, usize>>);

impl OwnerCounts {
    /// What `owner` holds.
    pub(crate) fn get(&self, owner: &str) -> usize {
        self.0.borrow().get(owner).copied().unwrap_or(0)
    }

    /// `owner` registered one more.
    pub(crate) fn add(&self, owner: &Rc<str>) {
        *self.0.borrow_mut().entry(owner.clone()).or_insert(0) += 1;
    }

    /// `owner` removed one.
    pub(crate) fn sub(&self, owner: &str) {
        if let Some(n) = self.0.borrow_mut().get_mut(owner) {
            *n = n.saturating_sub(1);
        }
    }

    /// `owner` removed all of its own.
    pub(crate) fn clear(&self, owner: &str) {
        self.0.borrow_mut().remove(owner);
    }

    /// `Err("{limit}: a mod may hold at most {max} {what}")` when `owner` already holds `max`.
    pub(crate) fn check(
        &self,
        owner: &str,
        max: usize,
        limit: &str,
        what: &str,
    ) -> Result<(), String> {
        if self.get(owner) >= max {
            return Err(format!("{limit}: a mod may hold at most {max} {what}"));
        }
        Ok(())
    }
}
