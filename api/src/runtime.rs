//! The runtime facade engine call sites use: guards (`wants_hook`, `wants_event`), dispatch
//! (`call`, `emit`), and the subscription API hosts and the loader use (`wrap`, `on`, `once`,
//! `unsubscribe_*`, `remove_owner`, `emit_mod`).
//!
//! Engine sites follow one idiom (the catalog drift test scans for it):
//!
//! ```
//! # use pallet_api::{Runtime, catalog::hooks};
//! # let rt = Runtime::default();
//! # let (x, y) = (3, 4);
//! let allowed = if rt.wants_hook::<hooks::MapOccupancyAllowed>() {
//!     let args = hooks::MapOccupancyAllowedArgs::at_dock(Default::default(), Some(x), Some(y));
//!     rt.call::<hooks::MapOccupancyAllowed>(args, |_| false)
//! } else {
//!     false
//! };
//! # assert!(!allowed);
//! ```

use std::cell::OnceCell;
use std::rc::Rc;

use crate::budget::DispatchBudget;
use crate::diagnostics::{Diagnostic, Level, LogFeed};
use crate::event_bus::{EventBus, ListenerHandle, Subscription};
use crate::events::{Event, ListenerResult};
use crate::hook_bus::{HookBus, HookHandle, PassedArgs};
use crate::hooks::{Hook, HookId, LinkResult, Next, MAX_LINKS};
use crate::owners::Owners;
use crate::reasons::EmitError;
use crate::site_set::SiteSet;
use crate::value::Value;

/// Holds the live hook and event buses. `Runtime::default()` is the "null" runtime: no
/// subscriber anywhere, every guard false. Construction makes one small allocation (the
/// shared diagnostics feed); guards and unsubscribed dispatch never allocate.
///
/// The runtime is single-threaded (`!Send`): script VMs behind links are not thread-safe.
#[derive(Default)]
pub struct Runtime {
    hooks: HookBus,
    events: EventBus,
    owners: Owners,
    diagnostics: LogFeed,
    /// The per-dispatch script budget every host of this runtime shares (allocated on first
    /// use, so a runtime without script hosts allocates nothing for it).
    budget: OnceCell<Rc<DispatchBudget>>,
}

impl Runtime {
    /// A runtime with no subscriber (same as `default()`).
    pub fn new() -> Self {
        Self::default()
    }

    // ----- engine-facing: guards and dispatch ------------------------------------------------

    /// Constant-time: is anything subscribed to hook `H`?
    #[inline(always)]
    pub fn wants_hook<H: Hook>(&self) -> bool {
        self.hooks.wants(H::ID)
    }

    /// Run the chain for `H` around `vanilla`. With no subscriber this is `vanilla(&args)`.
    /// Vanilla borrows the arguments in force at the bottom of the chain (the site's, or a
    /// link's replacement) and runs at most once; see [`crate::hooks`] for the chain rules.
    #[inline(always)]
    pub fn call<H: Hook>(&self, args: H::Args, vanilla: impl FnOnce(&H::Args) -> H::Out) -> H::Out {
        if !self.hooks.wants(H::ID) {
            return vanilla(&args);
        }
        self.hooks
            .call_chain::<H, _>(&self.diagnostics.0, PassedArgs::new(args), vanilla)
    }

    /// Constant-time: is anything listening to event `E`?
    #[inline(always)]
    pub fn wants_event<E: Event>(&self) -> bool {
        self.events.wants(E::ID)
    }

    /// Is anything subscribed to any hook or event of `set`? With a constant set this is one
    /// load and test per guard word the set touches.
    #[inline(always)]
    pub fn wants_any(&self, set: &SiteSet) -> bool {
        self.hooks.wants_any(&set.hooks) || self.events.wants_any(&set.events)
    }

    /// Is anything subscribed to any hook or event at all? Four words per bus, no
    /// allocation: the gate for work done only so that script code can run (the engine's
    /// mid-tick read view of the world).
    #[inline(always)]
    pub fn wants_anything(&self) -> bool {
        const ALL: [u64; crate::bitset::WORDS] = [u64::MAX; crate::bitset::WORDS];
        self.hooks.wants_any(&ALL) || self.events.wants_any(&ALL)
    }

    /// Deliver `payload` to the listeners of `E`.
    #[inline(always)]
    pub fn emit<E: Event>(&self, payload: E::Payload) {
        if self.events.wants(E::ID) {
            self.events.emit::<E>(&self.diagnostics.0, &payload);
        }
    }

    // ----- hooks: subscription -----------------------------------------------------------------

    /// Install a native link on hook `H` for `owner`. See [`crate::hooks`] for the chain rules
    /// (a hook already holding [`MAX_LINKS`] links refuses the link: reported, inert handle).
    pub fn wrap<H, F>(&self, owner: &str, priority: i32, link: F) -> HookHandle
    where
        H: Hook,
        F: Fn(&mut Next<'_, H>, &H::Args) -> LinkResult<H::Out> + 'static,
    {
        let (owner, rank) = self.owners.resolve(owner);
        if let Err(e) = self.hooks.check_quota(&owner) {
            self.diagnostics.push(
                Level::Error,
                Some(&owner),
                format!("[{owner}] hook {}: link not installed: {e}", H::NAME),
            );
            return self.hooks.inert_handle(H::ID);
        }
        if self.hooks.chain_len(H::ID) >= MAX_LINKS {
            self.diagnostics.push(
                Level::Error,
                Some(&owner),
                format!(
                    "[{owner}] hook {}: link not installed: the hook already has {MAX_LINKS} links",
                    H::NAME
                ),
            );
            return self.hooks.inert_handle(H::ID);
        }
        let f = crate::hooks::erase::<H, F>(owner.clone(), link);
        self.hooks.wrap::<H>(owner, rank, priority, f)
    }

    /// Remove one link. Returns whether it was still installed. An emptied chain is dropped, so
    /// `wants_hook` is false again.
    pub fn unsubscribe_hook(&self, handle: HookHandle) -> bool {
        self.hooks.unsubscribe(handle)
    }

    /// Is there a chain (at least one link) for hook `H`? Same answer as `wants_hook`, read
    /// from the chain table instead of the guard bits (the parity gates compare both).
    pub fn has_chain<H: Hook>(&self) -> bool {
        self.hooks.has_chain(H::ID)
    }

    /// `(owner, priority)` of every link of hook `id`, outermost first.
    pub fn hook_chain(&self, id: HookId) -> Vec<(String, i32)> {
        self.hooks.describe(id)
    }

    /// How many hooks currently have a chain.
    pub fn hook_chain_count(&self) -> u32 {
        self.hooks.chain_count()
    }

    // ----- events: subscription ----------------------------------------------------------------

    /// Listen to event `E`.
    pub fn on<E, F>(&self, owner: &str, priority: i32, listener: F) -> ListenerHandle
    where
        E: Event,
        F: Fn(&E::Payload) -> ListenerResult + 'static,
    {
        let sub = self.subscription(owner, priority, false);
        self.events.on::<E>(sub, Rc::new(listener))
    }

    /// Listen to the next `E` only.
    pub fn once<E, F>(&self, owner: &str, priority: i32, listener: F) -> ListenerHandle
    where
        E: Event,
        F: Fn(&E::Payload) -> ListenerResult + 'static,
    {
        let sub = self.subscription(owner, priority, true);
        self.events.on::<E>(sub, Rc::new(listener))
    }

    /// Listen to a name-keyed event (`mod.<id>.*`, or a name the engine never raises — such a
    /// listener simply never fires). Script hosts route catalog names through the typed
    /// adapters in [`crate::script`] instead.
    pub fn on_named<F>(
        &self,
        name: &str,
        owner: &str,
        priority: i32,
        once: bool,
        listener: F,
    ) -> ListenerHandle
    where
        F: Fn(&Value) -> ListenerResult + 'static,
    {
        let sub = self.subscription(owner, priority, once);
        self.events.on_named(name, sub, Rc::new(listener))
    }

    /// `Err(message naming events.max_listeners)` when `owner` already holds the most event
    /// listeners a mod may ([`crate::MAX_LISTENERS_PER_MOD`]); script hosts check it
    /// before `on`/`once`.
    pub fn check_listener_quota(&self, owner: &str) -> Result<(), String> {
        self.events.check_quota(owner)
    }

    /// `Err(message naming hooks.max_links)` when `owner` already holds the most hook links a
    /// mod may ([`crate::MAX_LINKS_PER_MOD`]); script hosts check it before `wrap` (so the
    /// mod's call throws), and [`Runtime::wrap`] refuses past it too (reported, inert handle).
    pub fn check_link_quota(&self, owner: &str) -> Result<(), String> {
        self.hooks.check_quota(owner)
    }

    /// Hook links `owner` holds.
    pub fn link_count(&self, owner: &str) -> usize {
        self.hooks.owner_count(owner)
    }

    /// Event listeners `owner` holds.
    pub fn listener_count(&self, owner: &str) -> usize {
        self.events.owner_count(owner)
    }

    /// Remove one listener. Returns whether it was still subscribed; an emptied list is dropped.
    pub fn unsubscribe_event(&self, handle: &ListenerHandle) -> bool {
        self.events.unsubscribe(handle)
    }

    /// Is there a listener list for event `E`?
    pub fn has_listeners<E: Event>(&self) -> bool {
        self.events.has_list(E::ID)
    }

    /// Is anything listening to the name-keyed event `name`?
    pub fn wants_named_event(&self, name: &str) -> bool {
        self.events.wants_named(name)
    }

    /// How many event lists (typed and name-keyed) exist.
    pub fn event_list_count(&self) -> usize {
        self.events.list_count()
    }

    /// A mod emits `name` with `payload`. Only `mod.<mod_id>.*` names are allowed, so a mod can
    /// never forge an engine event.
    pub fn emit_mod(&self, mod_id: &str, name: &str, payload: &Value) -> Result<(), EmitError> {
        let allowed = name
            .strip_prefix("mod.")
            .and_then(|rest| rest.strip_prefix(mod_id))
            .and_then(|rest| rest.strip_prefix('.'))
            .is_some_and(|tail| !tail.is_empty());
        if !allowed || mod_id.is_empty() {
            return Err(EmitError::ForeignName {
                mod_id: mod_id.to_owned(),
            });
        }
        if self.events.wants_named(name) {
            self.events.emit_named(&self.diagnostics.0, name, payload);
        }
        Ok(())
    }

    // ----- owners and lifecycle ----------------------------------------------------------------

    /// Rank owners by load order (position in `order`); call before running mod entries.
    pub fn set_load_order<'a>(&self, order: impl IntoIterator<Item = &'a str>) {
        self.owners.set_order(order);
    }

    /// Drop every hook link and listener `owner` registered (entry rollback). Emptied chains and
    /// lists are removed. Returns how many subscriptions were removed.
    pub fn remove_owner(&self, owner: &str) -> usize {
        self.hooks.remove_owner(owner) + self.events.remove_owner(owner)
    }

    fn subscription(&self, owner: &str, priority: i32, once: bool) -> Subscription {
        let (owner, rank) = self.owners.resolve(owner);
        Subscription {
            owner,
            rank,
            priority,
            once,
        }
    }

    // ----- script budget -----------------------------------------------------------------------

    /// The per-dispatch operation budget shared by every script host of this runtime (Rhai and
    /// Lua links charge one counter per dispatch; see [`crate::budget`]).
    pub fn dispatch_budget(&self) -> Rc<DispatchBudget> {
        self.budget.get_or_init(Rc::default).clone()
    }

    // ----- diagnostics -------------------------------------------------------------------------

    /// Append `"<mod_id>: <message>"` to the error feed (ignored for owner `"base"`).
    pub fn report_error(&self, mod_id: &str, message: &str) {
        if mod_id == "base" {
            return;
        }
        self.diagnostics
            .push(Level::Error, Some(mod_id), format!("{mod_id}: {message}"));
    }

    /// Append a line to the feed.
    pub fn log(&self, level: Level, owner: Option<&str>, message: String) {
        self.diagnostics.push(level, owner, message);
    }

    /// Every diagnostic so far, in order.
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        self.diagnostics.0.snapshot()
    }

    /// Take the diagnostics (the front end drains them).
    pub fn drain_diagnostics(&self) -> Vec<Diagnostic> {
        self.diagnostics.0.drain()
    }

    /// A handle on the diagnostics feed (for services that log after load).
    pub fn log_feed(&self) -> LogFeed {
        self.diagnostics.clone()
    }
}
