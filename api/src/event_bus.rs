//! The event bus: typed listener lists behind a bitset guard, plus name-keyed lists for
//! `mod.<id>.*` events and names outside the catalog (payload [`Value`]).

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::rc::Rc;

use crate::bitset::Bitset;
use crate::diagnostics::Diagnostics;
use crate::events::{Event, EventId, ListenerFn};
use crate::value::Value;

/// Unsubscribe token returned by `on`/`once`. Unsubscribing twice is a no-op.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ListenerHandle {
    pub(crate) key: ListKey,
    pub(crate) seq: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum ListKey {
    Typed(EventId),
    Named(Rc<str>),
}

struct Listener<P: 'static> {
    f: Rc<ListenerFn<P>>,
    priority: i32,
    rank: u32,
    seq: u64,
    once: bool,
    owner: Rc<str>,
}

impl<P: 'static> Clone for Listener<P> {
    fn clone(&self) -> Self {
        Listener {
            f: self.f.clone(),
            priority: self.priority,
            rank: self.rank,
            seq: self.seq,
            once: self.once,
            owner: self.owner.clone(),
        }
    }
}

/// Where a listener sits in dispatch order: priority (high first), then its owner's rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Slot(std::cmp::Reverse<i32>, u32);

/// One event's listeners in dispatch order: buckets by (priority, rank), each in registration
/// order. Registering is a bucket lookup (`O(log buckets)`) and an append (amortized `O(1)`),
/// never a shift of the listeners after it.
struct List<P: 'static> {
    buckets: BTreeMap<Slot, Vec<Listener<P>>>,
    len: usize,
}

impl<P: 'static> Default for List<P> {
    fn default() -> Self {
        List {
            buckets: BTreeMap::new(),
            len: 0,
        }
    }
}

impl<P: 'static> Clone for List<P> {
    fn clone(&self) -> Self {
        List {
            buckets: self.buckets.clone(),
            len: self.len,
        }
    }
}

impl<P: 'static> List<P> {
    /// Every listener in dispatch order (priority high first, then rank, then registration).
    fn iter(&self) -> impl Iterator<Item = &Listener<P>> {
        self.buckets.values().flatten()
    }

    /// Append `listener` after every listener that sorts before or equal to it.
    fn push(&mut self, listener: Listener<P>) {
        self.buckets
            .entry(Slot(std::cmp::Reverse(listener.priority), listener.rank))
            .or_default()
            .push(listener);
        self.len += 1;
    }
}

trait ErasedList {
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
    fn owner_of(&self, seq: u64) -> Option<Rc<str>>;
    fn len(&self) -> usize;
    fn without(&self, pred: &dyn Fn(&str, u64) -> bool) -> Option<Rc<dyn ErasedList>>;
}

impl<P: 'static> ErasedList for List<P> {
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
    fn owner_of(&self, seq: u64) -> Option<Rc<str>> {
        self.iter().find(|l| l.seq == seq).map(|l| l.owner.clone())
    }
    fn len(&self) -> usize {
        self.len
    }
    fn without(&self, pred: &dyn Fn(&str, u64) -> bool) -> Option<Rc<dyn ErasedList>> {
        if !self.iter().any(|l| pred(&l.owner, l.seq)) {
            return None;
        }
        let mut kept = List::<P>::default();
        for l in self.iter().filter(|l| !pred(&l.owner, l.seq)) {
            kept.push(l.clone());
        }
        Some(Rc::new(kept))
    }
}

/// Registration details for a listener.
pub(crate) struct Subscription {
    pub(crate) owner: Rc<str>,
    pub(crate) rank: u32,
    pub(crate) priority: i32,
    pub(crate) once: bool,
}

#[derive(Default)]
pub(crate) struct EventBus {
    bits: Bitset,
    typed: RefCell<Vec<Option<Rc<dyn ErasedList>>>>,
    named: RefCell<BTreeMap<Rc<str>, Rc<dyn ErasedList>>>,
    seq: Cell<u64>,
    /// Listeners per owner, for [`MAX_LISTENERS_PER_MOD`].
    owners: crate::owners::OwnerCounts,
    /// Listener failures logged once per dispatch with a count.
    failures: crate::failure_tally::FailureTally,
}

/// `events.max_listeners`: event listeners one mod may hold at once (script hosts refuse the
/// next `on`/`once` with [`EventBus::check_quota`]'s message).
pub const MAX_LISTENERS_PER_MOD: usize = 1_000;

impl EventBus {
    #[inline(always)]
    pub(crate) fn wants_any(&self, mask: &[u64; crate::bitset::WORDS]) -> bool {
        self.bits.any(mask)
    }

    #[inline(always)]
    pub(crate) fn wants(&self, id: EventId) -> bool {
        self.bits.get(id.0 as usize)
    }

    pub(crate) fn wants_named(&self, name: &str) -> bool {
        self.named.borrow().contains_key(name)
    }

    pub(crate) fn list_count(&self) -> usize {
        self.bits.count() as usize + self.named.borrow().len()
    }

    pub(crate) fn has_list(&self, id: EventId) -> bool {
        matches!(self.typed.borrow().get(id.0 as usize), Some(Some(_)))
    }

    /// Listeners `owner` holds.
    pub(crate) fn owner_count(&self, owner: &str) -> usize {
        self.owners.get(owner)
    }

    /// `Err` when `owner` already holds [`MAX_LISTENERS_PER_MOD`] listeners.
    pub(crate) fn check_quota(&self, owner: &str) -> Result<(), String> {
        self.owners.check(
            owner,
            MAX_LISTENERS_PER_MOD,
            "events.max_listeners",
            "event listeners",
        )
    }

    /// Take a list out of the store (so it can be edited in place when no dispatch holds it).
    fn take(&self, key: &ListKey) -> Option<Rc<dyn ErasedList>> {
        match key {
            ListKey::Typed(id) => self
                .typed
                .borrow_mut()
                .get_mut(id.0 as usize)
                .and_then(Option::take),
            ListKey::Named(name) => self.named.borrow_mut().remove(name),
        }
    }

    fn get(&self, key: &ListKey) -> Option<Rc<dyn ErasedList>> {
        match key {
            ListKey::Typed(id) => self.typed.borrow().get(id.0 as usize).cloned().flatten(),
            ListKey::Named(name) => self.named.borrow().get(name).cloned(),
        }
    }

    fn store(&self, key: &ListKey, list: Rc<dyn ErasedList>) {
        let live = list.len() > 0;
        match key {
            ListKey::Typed(id) => {
                let index = id.0 as usize;
                let mut typed = self.typed.borrow_mut();
                if typed.len() <= index {
                    if !live {
                        return;
                    }
                    typed.resize_with(index + 1, || None);
                }
                typed[index] = if live { Some(list) } else { None };
                self.bits.set(index, live);
            }
            ListKey::Named(name) => {
                let mut named = self.named.borrow_mut();
                if live {
                    named.insert(name.clone(), list);
                } else {
                    named.remove(name);
                }
            }
        }
    }

    fn add<P: 'static>(
        &self,
        key: ListKey,
        sub: Subscription,
        f: Rc<ListenerFn<P>>,
    ) -> ListenerHandle {
        let seq = self.seq.get();
        self.seq.set(seq + 1);
        self.owners.add(&sub.owner);
        let listener = Listener {
            f,
            priority: sub.priority,
            rank: sub.rank,
            seq,
            once: sub.once,
            owner: sub.owner,
        };
        let mut list = self.take(&key);
        // In place when no dispatch holds a snapshot of the list (an append to its bucket);
        // copied otherwise, so a running dispatch keeps the list it started with.
        if let Some(edit) = list
            .as_mut()
            .and_then(Rc::get_mut)
            .and_then(|l| l.as_any_mut().downcast_mut::<List<P>>())
        {
            edit.push(listener);
        } else {
            let mut copy: List<P> = list
                .as_ref()
                .and_then(|l| l.as_any().downcast_ref::<List<P>>().cloned())
                .unwrap_or_default();
            copy.push(listener);
            list = Some(Rc::new(copy));
        }
        if let Some(list) = list {
            self.store(&key, list);
        }
        ListenerHandle { key, seq }
    }

    pub(crate) fn on<E: Event>(
        &self,
        sub: Subscription,
        f: Rc<ListenerFn<E::Payload>>,
    ) -> ListenerHandle {
        self.add::<E::Payload>(ListKey::Typed(E::ID), sub, f)
    }

    pub(crate) fn on_named(
        &self,
        name: &str,
        sub: Subscription,
        f: Rc<ListenerFn<Value>>,
    ) -> ListenerHandle {
        self.add::<Value>(ListKey::Named(Rc::from(name)), sub, f)
    }

    pub(crate) fn unsubscribe(&self, handle: &ListenerHandle) -> bool {
        let seq = handle.seq;
        let Some(list) = self.get(&handle.key) else {
            return false;
        };
        match list.without(&|_, s| s == seq) {
            Some(next) => {
                if let Some(owner) = list.owner_of(seq) {
                    self.owners.sub(&owner);
                }
                self.store(&handle.key, next);
                true
            }
            None => false,
        }
    }

    pub(crate) fn remove_owner(&self, owner: &str) -> usize {
        let mut keys: Vec<ListKey> = Vec::new();
        for (i, l) in self.typed.borrow().iter().enumerate() {
            if l.is_some() {
                keys.push(ListKey::Typed(EventId(i as u16)));
            }
        }
        for name in self.named.borrow().keys() {
            keys.push(ListKey::Named(name.clone()));
        }
        self.owners.clear(owner);
        let mut removed = 0;
        for key in keys {
            if let Some(list) = self.get(&key) {
                if let Some(next) = list.without(&|o, _| o == owner) {
                    removed += list.len() - next.len();
                    self.store(&key, next);
                }
            }
        }
        removed
    }

    fn deliver<P: 'static>(
        &self,
        diagnostics: &Diagnostics,
        name: &str,
        key: &ListKey,
        payload: &P,
    ) {
        let Some(list) = self.get(key) else { return };
        let Some(list) = list.as_any().downcast_ref::<List<P>>() else {
            return;
        };
        let _tally = self.failures.enter(diagnostics);
        for listener in list.iter() {
            if listener.once {
                let handle = ListenerHandle {
                    key: key.clone(),
                    seq: listener.seq,
                };
                // Already-fired once-listeners are gone from the live list; a snapshot may
                // still hold them, so only the one that actually removes itself runs.
                if !self.unsubscribe(&handle) {
                    continue;
                }
            }
            if let Err(error) = (listener.f)(payload) {
                self.failures.failed(
                    diagnostics,
                    &listener.owner,
                    format!("[{}] event {name}: {error}", listener.owner),
                );
            }
        }
    }

    #[inline(never)]
    pub(crate) fn emit<E: Event>(&self, diagnostics: &Diagnostics, payload: &E::Payload) {
        self.deliver::<E::Payload>(diagnostics, E::NAME, &ListKey::Typed(E::ID), payload);
    }

    pub(crate) fn emit_named(&self, diagnostics: &Diagnostics, name: &str, payload: &Value) {
        let key = ListKey::Named(Rc::from(name));
        self.deliver::<Value>(diagnostics, name, &key, payload);
    }
}

#[cfg(test)]
mod tests;
