//! Exclusive lending of a live [`Game`] to script handles at safe points (the slot; what a
//! handle does with the lent game, `inspect`/`capture`/`restore`, is `crate::checkpoint::lend`).
//!
//! `checkpoints.restore(cp)` mutates the whole game, so a script handle needs `&mut Game`.
//! Handles are `'static` values living in script VMs and cannot hold that borrow. The owner
//! of the game **lends** it, only where it holds no other borrow of it (between ticks, or at
//! a top-level emit such as `game.ready`): [`lend`] puts it in a thread-local slot for the
//! duration of a closure, and a handle reaches it with [`with_lent`], which *takes* it out of
//! the slot while it runs. A nested [`with_lent`] (a `checkpoint.restored` subscriber calling
//! `checkpoints.restore` again) therefore sees `None` and answers "not available here"; at most
//! one `&mut Game` derived from the loan exists at any time.
//!
//! # Soundness
//!
//! The erased raw pointer is the only `unsafe` here:
//! 1. [`lend`] holds the `&'a mut Game` for its whole call, so the lender's closure cannot touch
//!    the game; the slot is reset by a guard on return and on unwind, before `'a` ends.
//! 2. [`with_lent`] removes the pointer while it hands out `&mut Game` to a closure whose
//!    parameter is higher-ranked (the reference cannot escape), then puts it back (guard): no
//!    second mutable or shared reference can be created from the slot meanwhile.
//! 3. The slot is thread-local.

use std::cell::{Cell, RefCell};
use std::ptr::NonNull;

use pallet_api::facades::CheckpointKindTag;
use pallet_api::reasons::CheckpointCode;
use pallet_api::services::ModDataStore;

use super::Game;

type Slot = Option<(NonNull<Game>, Option<ModDataStore>)>;

thread_local! {
    static GAME: RefCell<Slot> = const { RefCell::new(None) };
    static ATTACHED: RefCell<Option<ModDataStore>> = const { RefCell::new(None) };
    static UNSETTLED: Cell<Option<(CheckpointKindTag, CheckpointCode)>> = const { Cell::new(None) };
}

struct Unsettle(Option<(CheckpointKindTag, CheckpointCode)>);

impl Drop for Unsettle {
    fn drop(&mut self) {
        UNSETTLED.with(|u| u.set(self.0));
    }
}

/// Run `f` as an **unsettled** part of the game (a battle round being resolved, a battle
/// opening): a script handle called from a hook or event inside it is answered with this
/// refusal (`{kind, reason}`) instead of the generic "not lent here". No game is lent inside.
pub fn unsettled<R>(kind: CheckpointKindTag, code: CheckpointCode, f: impl FnOnce() -> R) -> R {
    let previous = UNSETTLED.with(|u| u.replace(Some((kind, code))));
    let _restore = Unsettle(previous);
    f()
}

/// The `(kind, reason)` of the innermost [`unsettled`] scope this thread runs in, if any.
pub fn unsettled_scope() -> Option<(CheckpointKindTag, CheckpointCode)> {
    UNSETTLED.with(Cell::get)
}

/// Attach the session's `mod.save` store (the loader's [`ModDataStore`]) on this thread, so
/// engine-opened lending scopes (`game.ready`) carry it without the game owning the loader.
/// `None` detaches.
pub fn attach_mod_data(store: Option<ModDataStore>) {
    ATTACHED.with(|a| *a.borrow_mut() = store);
}

/// The session's attached `mod.save` store, if any ([`attach_mod_data`]).
pub fn attached_mod_data() -> Option<ModDataStore> {
    ATTACHED.with(|a| a.borrow().clone())
}

struct Put(Slot);

impl Drop for Put {
    fn drop(&mut self) {
        let v = self.0.take();
        GAME.with(|slot| *slot.borrow_mut() = v);
    }
}

/// Lend `game` exclusively to script handles for the duration of `f`, with the mods'
/// `mod.save` store (the live copy of `save.modData`) when there is one. The world actions
/// deferred since the last safe point are applied first ([`crate::world_deferred`]), and a
/// dispatch that starts inside gets the safe-point budget
/// ([`pallet_api::budget::SAFE_POINT_LIMIT`]).
pub fn lend<R>(game: &mut Game, mod_data: Option<&ModDataStore>, f: impl FnOnce() -> R) -> R {
    // A safe point: what mods deferred since the last one is applied before anything runs here.
    game.apply_deferred();
    let budget = game.rt.dispatch_budget();
    let ptr = NonNull::from(game);
    let store = mod_data
        .cloned()
        .or_else(|| ATTACHED.with(|a| a.borrow().clone()));
    let previous = GAME.with(|slot| slot.replace(Some((ptr, store))));
    let _restore = Put(previous);
    // Dispatches that start here may spend the safe-point budget (a save state, a restore).
    budget.with_floor(pallet_api::budget::SAFE_POINT_LIMIT, f)
}

/// The lent game and its mod data store.
pub struct Lent<'r> {
    pub game: &'r mut Game,
    pub mod_data: Option<ModDataStore>,
}

/// Run `f` with the lent game (taken out of the slot while `f` runs), or `None` outside any
/// lending scope or inside another `with_lent`.
pub fn with_lent<R>(f: impl for<'r> FnOnce(Option<Lent<'r>>) -> R) -> R {
    let taken = GAME.with(|slot| slot.borrow_mut().take());
    let lent = taken.as_ref().map(|(p, store)| Lent {
        // SAFETY: a pointer in the slot was put there by `lend`, whose `&mut Game` is alive
        // for this whole call; it was taken out, so this is the only reference derived from
        // it until the guard puts it back after `f` returns; `f` cannot keep the reference.
        game: unsafe { &mut *p.as_ptr() },
        mod_data: store.clone(),
    });
    let _restore = Put(taken);
    match lent {
        // The game is out of the loan while `f` runs (vanilla's tick under `core.update`, a
        // facade call): a dispatch that starts in there is mid-tick, not at the safe point.
        Some(l) => {
            let budget = l.game.rt.dispatch_budget();
            budget.with_floor(0, || f(Some(l)))
        }
        None => f(None),
    }
}

/// Is a game lent (and not currently taken) right now?
pub fn game_is_lent() -> bool {
    GAME.with(|slot| slot.borrow().is_some())
}
