//! The hook bus: per-hook chains behind a bitset guard.
//!
//! Chains are immutable snapshots (`Rc`) rebuilt copy-on-write on every wrap/unsubscribe, so a
//! call in progress keeps the chain it started with while links subscribe or unsubscribe
//! re-entrantly. An emptied chain is removed and its guard bit cleared.

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

use crate::bitset::Bitset;
use crate::diagnostics::{Diagnostics, Level};
use crate::hooks::{dispatch, Bottom, Hook, HookId, LinkEntry, LinkError, LinkFn};

/// Unsubscribe token returned by `wrap`. Unsubscribing twice is a no-op.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HookHandle {
    pub(crate) hook: HookId,
    pub(crate) seq: u64,
}

impl HookHandle {
    pub fn hook(&self) -> HookId {
        self.hook
    }
}

/// A chain with its hook type erased, so the bus can store every hook in one table.
trait ErasedChain {
    fn as_any(&self) -> &dyn Any;
    fn len(&self) -> usize;
    fn without_seq(&self, seq: u64) -> Option<Rc<dyn ErasedChain>>;
    fn without_owner(&self, owner: &str) -> Option<Rc<dyn ErasedChain>>;
    fn owners(&self) -> Vec<(Rc<str>, i32)>;
}

struct Chain<H: Hook> {
    links: Vec<LinkEntry<H>>,
}

impl<H: Hook> ErasedChain for Chain<H> {
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn len(&self) -> usize {
        self.links.len()
    }
    fn without_seq(&self, seq: u64) -> Option<Rc<dyn ErasedChain>> {
        if !self.links.iter().any(|l| l.seq == seq) {
            return None;
        }
        let links = self
            .links
            .iter()
            .filter(|l| l.seq != seq)
            .cloned()
            .collect();
        Some(Rc::new(Chain::<H> { links }))
    }
    fn without_owner(&self, owner: &str) -> Option<Rc<dyn ErasedChain>> {
        if !self.links.iter().any(|l| &*l.owner == owner) {
            return None;
        }
        let links = self
            .links
            .iter()
            .filter(|l| &*l.owner != owner)
            .cloned()
            .collect();
        Some(Rc::new(Chain::<H> { links }))
    }
    fn owners(&self) -> Vec<(Rc<str>, i32)> {
        self.links
            .iter()
            .map(|l| (l.owner.clone(), l.priority))
            .collect()
    }
}

#[derive(Default)]
pub(crate) struct HookBus {
    bits: Bitset,
    chains: RefCell<Vec<Option<Rc<dyn ErasedChain>>>>,
    seq: Cell<u64>,
}

impl HookBus {
    #[inline(always)]
    pub(crate) fn wants(&self, id: HookId) -> bool {
        self.bits.get(id.0 as usize)
    }

    pub(crate) fn chain_count(&self) -> u32 {
        self.bits.count()
    }

    pub(crate) fn has_chain(&self, id: HookId) -> bool {
        matches!(self.chains.borrow().get(id.0 as usize), Some(Some(_)))
    }

    fn snapshot<H: Hook>(&self) -> Option<Rc<dyn ErasedChain>> {
        self.chains
            .borrow()
            .get(H::ID.0 as usize)
            .cloned()
            .flatten()
    }

    fn store(&self, id: HookId, chain: Option<Rc<dyn ErasedChain>>) {
        let index = id.0 as usize;
        let mut chains = self.chains.borrow_mut();
        if chains.len() <= index {
            if chain.is_none() {
                return;
            }
            chains.resize_with(index + 1, || None);
        }
        let live = chain.as_ref().is_some_and(|c| c.len() > 0);
        chains[index] = if live { chain } else { None };
        self.bits.set(index, live);
    }

    pub(crate) fn wrap<H: Hook>(
        &self,
        owner: Rc<str>,
        rank: u32,
        priority: i32,
        f: Rc<LinkFn<H>>,
    ) -> HookHandle {
        let seq = self.seq.get();
        self.seq.set(seq + 1);
        let mut links: Vec<LinkEntry<H>> = match self.snapshot::<H>() {
            Some(chain) => match chain.as_any().downcast_ref::<Chain<H>>() {
                Some(c) => c.links.clone(),
                None => Vec::new(),
            },
            None => Vec::new(),
        };
        links.push(LinkEntry {
            f,
            priority,
            rank,
            seq,
            owner,
        });
        // Stable total order: priority descending, then load rank, then registration order.
        links.sort_by(|a, b| {
            b.priority
                .cmp(&a.priority)
                .then(a.rank.cmp(&b.rank))
                .then(a.seq.cmp(&b.seq))
        });
        self.store(H::ID, Some(Rc::new(Chain::<H> { links })));
        HookHandle { hook: H::ID, seq }
    }

    /// Remove the link behind `handle`. Returns whether a link was removed.
    pub(crate) fn unsubscribe(&self, handle: HookHandle) -> bool {
        let current = self
            .chains
            .borrow()
            .get(handle.hook.0 as usize)
            .cloned()
            .flatten();
        match current.and_then(|c| c.without_seq(handle.seq)) {
            Some(next) => {
                self.store(handle.hook, Some(next));
                true
            }
            None => false,
        }
    }

    /// Drop every link `owner` installed; emptied chains are removed. Returns the count removed.
    pub(crate) fn remove_owner(&self, owner: &str) -> usize {
        let len = self.chains.borrow().len();
        let mut removed = 0;
        for index in 0..len {
            let current = self.chains.borrow().get(index).cloned().flatten();
            if let Some(chain) = current {
                if let Some(next) = chain.without_owner(owner) {
                    removed += chain.len() - next.len();
                    self.store(HookId(index as u16), Some(next));
                }
            }
        }
        removed
    }

    /// `(owner, priority)` of each link of hook `id`, outermost first.
    pub(crate) fn describe(&self, id: HookId) -> Vec<(String, i32)> {
        let chain = self.chains.borrow().get(id.0 as usize).cloned().flatten();
        chain
            .map(|c| {
                c.owners()
                    .into_iter()
                    .map(|(o, p)| (o.to_string(), p))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Run the chain for `H` around `vanilla` (the subscribed path; the guard is inlined at
    /// the call site by `Runtime::call`).
    #[inline(never)]
    pub(crate) fn call_chain<H: Hook, F: FnOnce(H::Args) -> H::Out>(
        &self,
        diagnostics: &Diagnostics,
        args: H::Args,
        vanilla: F,
    ) -> H::Out {
        let Some(chain) = self.snapshot::<H>() else {
            return vanilla(args);
        };
        let Some(chain) = chain.as_any().downcast_ref::<Chain<H>>() else {
            // A chain stored under H's id always has H's type; a mismatch would mean two
            // hook types share an id, which the catalog's const checks rule out.
            return vanilla(args);
        };
        let mut bottom = CallBottom::<H, F> {
            name: H::NAME,
            vanilla: Some(vanilla),
            ran: None,
            diagnostics,
        };
        dispatch(&chain.links, &args, &mut bottom)
    }
}

struct CallBottom<'d, H: Hook, F> {
    name: &'static str,
    vanilla: Option<F>,
    ran: Option<H::Out>,
    diagnostics: &'d Diagnostics,
}

impl<H: Hook, F: FnOnce(H::Args) -> H::Out> Bottom<H> for CallBottom<'_, H, F> {
    fn vanilla(&mut self, args: &H::Args) -> H::Out {
        if let Some(out) = &self.ran {
            return out.clone();
        }
        match self.vanilla.take() {
            Some(f) => {
                let out = f(args.clone());
                self.ran = Some(out.clone());
                out
            }
            // `vanilla` is only taken in the arm above, which sets `ran` before returning; the
            // sole way to get here is re-entry while vanilla itself runs, and vanilla has no
            // access to this chain's `Next`. Unreachable by construction.
            None => unreachable!("vanilla re-entered its own chain"),
        }
    }

    fn report(&mut self, owner: &str, error: &LinkError, after_next: bool) {
        let message = if after_next {
            format!(
                "[{owner}] hook {} failed after next: {error} -- downstream result kept",
                self.name
            )
        } else {
            format!(
                "[{owner}] hook {} failed: {error} -- link skipped",
                self.name
            )
        };
        self.diagnostics.push(Level::Error, Some(owner), message);
    }
}
