//! The hook bus: per-hook chains behind a bitset guard.
//!
//! Chains are immutable snapshots (`Rc<Chain<H>>`) rebuilt copy-on-write on every
//! wrap/unsubscribe, so a call in progress keeps the chain it started with while links subscribe
//! or unsubscribe re-entrantly. An emptied chain is removed and its guard bit cleared.
//!
//! # The subscribed path (see `docs/decisions.md`, "Hook dispatch: one value in, function-pointer links, a typed chain hold")
//!
//! [`HookBus::call_chain`] receives the arguments as one opaque value ([`PassedArgs`]), reads
//! the hook's slot, recovers the typed chain by comparing the `TypeId` stored beside the
//! snapshot with a constant (no virtual call) and takes one typed `Rc` reference to it for the
//! duration of the call ([`Snapshot::hold`]: the only refcount traffic of a dispatch, it is what
//! keeps the links alive when one of them unsubscribes mid-call, and dropping it needs no
//! vtable), then runs [`dispatch`] with a stack-allocated bottom. Each link's wrapper receives
//! the rest of the chain, the arguments and the bottom in registers and builds the author's
//! `Next` in its own frame (`crate::hooks`); a link entry holds its wrapper's call function and
//! address, so reaching the next link is one indirect call through the entry. Nothing is boxed
//! or allocated per call. The slots are `UnsafeCell`s read only by cloning out or holding the
//! typed chain and written only by swapping in (`Slot`), so a dispatch pays no borrow flag.

use std::any::TypeId;
use std::cell::{Cell, OnceCell, UnsafeCell};
use std::mem::ManuallyDrop;
use std::rc::Rc;

use crate::bitset::{Bitset, GUARD_CAPACITY};
use crate::diagnostics::{Diagnostics, Level};
use crate::hooks::{dispatch, Bottom, Hook, HookId, LinkEntry, LinkError, SharedLink};

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

/// A chain with its hook type erased, so the bus can store every hook in one table. The typed
/// chain is recovered through the `TypeId` its [`Snapshot`] carries.
trait ErasedChain {
    fn len(&self) -> usize;
    fn without_seq(&self, seq: u64) -> Option<Snapshot>;
    fn without_owner(&self, owner: &str) -> Option<Snapshot>;
    fn owners(&self) -> Vec<(Rc<str>, i32)>;
    fn owner_of(&self, seq: u64) -> Option<Rc<str>>;
}

struct Chain<H: Hook> {
    links: Box<[LinkEntry<H>]>,
}

impl<H: Hook> Chain<H> {
    fn filtered(&self, keep: impl Fn(&LinkEntry<H>) -> bool) -> Option<Snapshot> {
        if self.links.iter().all(&keep) {
            return None;
        }
        let links = self.links.iter().filter(|l| keep(l)).cloned().collect();
        Some(Snapshot::new(Chain::<H> { links }))
    }
}

impl<H: Hook> ErasedChain for Chain<H> {
    fn len(&self) -> usize {
        self.links.len()
    }
    fn without_seq(&self, seq: u64) -> Option<Snapshot> {
        self.filtered(|l| l.seq != seq)
    }
    fn without_owner(&self, owner: &str) -> Option<Snapshot> {
        self.filtered(|l| &*l.owner != owner)
    }
    fn owners(&self) -> Vec<(Rc<str>, i32)> {
        self.links
            .iter()
            .map(|l| (l.owner.clone(), l.priority))
            .collect()
    }
    fn owner_of(&self, seq: u64) -> Option<Rc<str>> {
        self.links
            .iter()
            .find(|l| l.seq == seq)
            .map(|l| l.owner.clone())
    }
}

/// A chain snapshot: the chain, owned type-erased (for the bus's bookkeeping and the final
/// drop), with the `TypeId` of its concrete `Chain<H>` and the chain's address as
/// `Rc::into_raw` gave it, so a dispatch recovers the typed chain with one comparison against a
/// constant and holds it as a typed `Rc` (no virtual call, no vtable kept for the drop).
#[derive(Clone)]
struct Snapshot {
    chain: Rc<dyn ErasedChain>,
    type_id: TypeId,
    /// `Rc::into_raw` of the `Rc<Chain<H>>` that `chain` was made from.
    raw: *const (),
}

impl Snapshot {
    fn new<H: Hook>(chain: Chain<H>) -> Snapshot {
        let raw = Rc::into_raw(Rc::new(chain));
        // SAFETY: `raw` was returned by `Rc::into_raw` just above; this takes its count back.
        let typed: Rc<Chain<H>> = unsafe { Rc::from_raw(raw) };
        Snapshot {
            chain: typed,
            type_id: TypeId::of::<Chain<H>>(),
            raw: raw.cast(),
        }
    }

    /// One more strong reference to the chain as a typed `Rc`, if this snapshot holds a
    /// `Chain<H>`.
    #[inline(always)]
    fn hold<H: Hook>(&self) -> Option<Rc<Chain<H>>> {
        if self.type_id != TypeId::of::<Chain<H>>() {
            return None;
        }
        let raw = self.raw.cast::<Chain<H>>();
        // SAFETY: `raw` is what `Rc::into_raw` returned for an `Rc<Chain<H>>` (set in `new`,
        // the only constructor, whose `type_id` is that of `Chain<H>`: checked above), and
        // `self.chain` holds a strong count on that allocation while `self` is borrowed, so
        // adding a count and taking it back as an `Rc` is sound.
        unsafe {
            Rc::increment_strong_count(raw);
            Some(Rc::from_raw(raw))
        }
    }
}

/// One hook's current chain snapshot (`None`: no subscriber).
///
/// Read by cloning the snapshot out ([`Slot::get`]) or taking a typed reference to its chain
/// ([`Slot::hold`], the dispatch path), and written by swapping a new one in
/// ([`Slot::replace`]); none lets a reference into the cell outlive it nor runs foreign code
/// while it is borrowed (`Rc` clones, a `TypeId` comparison and a `mem::replace`; the replaced
/// value is dropped by the caller), and the bus is single-threaded (`UnsafeCell` makes it
/// `!Sync`), so the cell needs no borrow flag on the dispatch path.
#[derive(Default)]
struct Slot(UnsafeCell<Option<Snapshot>>);

impl Slot {
    #[inline(always)]
    fn get(&self) -> Option<Snapshot> {
        // SAFETY: see the type's docs: no other reference into the cell exists while this
        // shared one is alive, because every access is confined to one of these methods.
        unsafe { (*self.0.get()).clone() }
    }

    /// The chain as a typed `Rc` of its own, if there is one and it is a `Chain<H>`.
    #[inline(always)]
    fn hold<H: Hook>(&self) -> Option<Rc<Chain<H>>> {
        // SAFETY: as in `get`.
        unsafe { (*self.0.get()).as_ref()?.hold::<H>() }
    }

    fn replace(&self, snapshot: Option<Snapshot>) -> Option<Snapshot> {
        // SAFETY: as in `get`; the exclusive reference ends with the `replace`.
        unsafe { std::mem::replace(&mut *self.0.get(), snapshot) }
    }
}

#[derive(Default)]
pub(crate) struct HookBus {
    bits: Bitset,
    /// Chain snapshots by hook id, allocated on the first `wrap` (a runtime nobody subscribes
    /// to allocates nothing). Fixed size, so no borrow of the table outlives a slot access.
    chains: OnceCell<Box<[Slot; GUARD_CAPACITY]>>,
    seq: Cell<u64>,
    /// Links per owner, for [`MAX_LINKS_PER_MOD`].
    owners: crate::owners::OwnerCounts,
}

/// `hooks.max_links`: hook links one mod may hold at once, over all hooks (each hook also holds
/// at most [`crate::hooks::MAX_LINKS`] links of all mods).
pub const MAX_LINKS_PER_MOD: usize = 1_000;

impl HookBus {
    #[inline(always)]
    pub(crate) fn wants_any(&self, mask: &[u64; crate::bitset::WORDS]) -> bool {
        self.bits.any(mask)
    }

    #[inline(always)]
    pub(crate) fn wants(&self, id: HookId) -> bool {
        self.bits.get(id.0 as usize)
    }

    pub(crate) fn chain_count(&self) -> u32 {
        self.bits.count()
    }

    pub(crate) fn has_chain(&self, id: HookId) -> bool {
        self.snapshot(id).is_some()
    }

    /// How many links hook `id` has.
    pub(crate) fn chain_len(&self, id: HookId) -> usize {
        self.snapshot(id).map_or(0, |c| c.chain.len())
    }

    /// Links `owner` holds.
    pub(crate) fn owner_count(&self, owner: &str) -> usize {
        self.owners.get(owner)
    }

    /// `Err` (naming `hooks.max_links`) when `owner` already holds [`MAX_LINKS_PER_MOD`] links.
    pub(crate) fn check_quota(&self, owner: &str) -> Result<(), String> {
        self.owners
            .check(owner, MAX_LINKS_PER_MOD, "hooks.max_links", "hook links")
    }

    /// A handle for a link that was not installed: it removes nothing.
    pub(crate) fn inert_handle(&self, id: HookId) -> HookHandle {
        let seq = self.seq.get();
        self.seq.set(seq + 1);
        HookHandle { hook: id, seq }
    }

    #[inline(always)]
    fn slot(&self, id: HookId) -> Option<&Slot> {
        self.chains.get()?.get(id.0 as usize)
    }

    /// A reference to the current snapshot of hook `id` (the slot keeps its own).
    #[inline(always)]
    fn snapshot(&self, id: HookId) -> Option<Snapshot> {
        self.slot(id)?.get()
    }

    fn store(&self, id: HookId, snapshot: Option<Snapshot>) {
        let live = snapshot.as_ref().is_some_and(|s| s.chain.len() > 0);
        let chains = self
            .chains
            .get_or_init(|| Box::new(std::array::from_fn(|_| Slot::default())));
        let Some(slot) = chains.get(id.0 as usize) else {
            // Outside the guard range nothing can be dispatched either; the bit stays clear.
            return;
        };
        // The replaced snapshot is dropped after the slot access ended (dropping links may
        // run arbitrary destructors); a call in progress holds its own reference.
        let replaced = slot.replace(if live { snapshot } else { None });
        drop(replaced);
        self.bits.set(id.0 as usize, live);
    }

    pub(crate) fn wrap<H: Hook>(
        &self,
        owner: Rc<str>,
        rank: u32,
        priority: i32,
        f: SharedLink<H>,
    ) -> HookHandle {
        let seq = self.seq.get();
        self.seq.set(seq + 1);
        self.owners.add(&owner);
        let current = self.snapshot(H::ID);
        let mut links: Vec<LinkEntry<H>> = current
            .as_ref()
            .and_then(Snapshot::hold::<H>)
            .map(|c| c.links.to_vec())
            .unwrap_or_default();
        links.push(LinkEntry {
            link: f,
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
        let chain = Snapshot::new(Chain::<H> {
            links: links.into_boxed_slice(),
        });
        self.store(H::ID, Some(chain));
        HookHandle { hook: H::ID, seq }
    }

    /// Remove the link behind `handle`. Returns whether a link was removed.
    pub(crate) fn unsubscribe(&self, handle: HookHandle) -> bool {
        let Some(current) = self.snapshot(handle.hook) else {
            return false;
        };
        match current.chain.without_seq(handle.seq) {
            Some(next) => {
                if let Some(owner) = current.chain.owner_of(handle.seq) {
                    self.owners.sub(&owner);
                }
                self.store(handle.hook, Some(next));
                true
            }
            None => false,
        }
    }

    /// Drop every link `owner` installed; emptied chains are removed. Returns the count removed.
    pub(crate) fn remove_owner(&self, owner: &str) -> usize {
        self.owners.clear(owner);
        let mut removed = 0;
        for index in 0..GUARD_CAPACITY {
            let id = HookId(index as u16);
            if let Some(current) = self.snapshot(id) {
                if let Some(next) = current.chain.without_owner(owner) {
                    removed += current.chain.len() - next.chain.len();
                    self.store(id, Some(next));
                }
            }
        }
        removed
    }

    /// `(owner, priority)` of each link of hook `id`, outermost first.
    pub(crate) fn describe(&self, id: HookId) -> Vec<(String, i32)> {
        self.snapshot(id)
            .map(|c| {
                c.chain
                    .owners()
                    .into_iter()
                    .map(|(o, p)| (o.to_string(), p))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Run the chain for `H` around `vanilla` (the subscribed path; the guard is inlined at
    /// the call site by `Runtime::call`).
    #[inline(never)]
    pub(crate) fn call_chain<H: Hook, F: FnOnce(&H::Args) -> H::Out>(
        &self,
        diagnostics: &Diagnostics,
        args: PassedArgs<H::Args>,
        vanilla: F,
    ) -> H::Out {
        // Held until the call returns: links that unsubscribe mid-call stay alive. `None` for a
        // chain of another type: a chain stored under H's id always has H's type, and a mismatch
        // would mean two hook types share an id, which the catalog's const checks rule out.
        let Some(chain) = self.slot(H::ID).and_then(Slot::hold::<H>) else {
            return vanilla(args.get());
        };
        let mut bottom = CallBottom::<H, F> {
            vanilla: Some(vanilla),
            ran: None,
            diagnostics,
        };
        dispatch(&chain.links, args.get(), &mut bottom)
    }
}

/// A hook's arguments on their way into [`HookBus::call_chain`], as one opaque value.
///
/// A `repr(C)` union has no scalar or scalar-pair ABI, so arguments that fit in registers cross
/// the call as whole words and the one copy the links then read by reference is written with
/// one store per word; larger arguments cross by address as before (the links read the
/// caller's copy). Passed as a plain tuple of two scalars, the same arguments arrived as two
/// registers and were stored in two halves, and a link reading them with one wide load (as
/// the compiler does for `(args.0 + 1, args.1)`) stalled on store forwarding — about 2.4 ns,
/// a quarter of a three-link dispatch (`docs/performance.md`, hook_dispatch, session 4).
#[repr(C)]
pub(crate) union PassedArgs<A> {
    args: ManuallyDrop<A>,
}

impl<A> PassedArgs<A> {
    #[inline(always)]
    pub(crate) fn new(args: A) -> Self {
        PassedArgs {
            args: ManuallyDrop::new(args),
        }
    }

    #[inline(always)]
    fn get(&self) -> &A {
        // SAFETY: the union's only field is always initialized (`new`), and it is dropped only
        // by `Drop`, after which no borrow can exist.
        unsafe { &self.args }
    }
}

impl<A> Drop for PassedArgs<A> {
    fn drop(&mut self) {
        // SAFETY: the field is initialized (`new`) and nothing else drops or moves it out, so
        // it is dropped exactly once.
        unsafe { ManuallyDrop::drop(&mut self.args) }
    }
}

struct CallBottom<'d, H: Hook, F> {
    vanilla: Option<F>,
    ran: Option<H::Out>,
    diagnostics: &'d Diagnostics,
}

impl<H: Hook, F: FnOnce(&H::Args) -> H::Out> Bottom<H> for CallBottom<'_, H, F> {
    fn vanilla(&mut self, args: &H::Args) -> H::Out {
        if let Some(out) = &self.ran {
            return out.clone();
        }
        match self.vanilla.take() {
            Some(f) => {
                let out = f(args);
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
                H::NAME
            )
        } else {
            format!("[{owner}] hook {} failed: {error} -- link skipped", H::NAME)
        };
        self.diagnostics.push(Level::Error, Some(owner), message);
    }
}
