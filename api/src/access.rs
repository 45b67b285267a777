//! Scoped lending of live-game facades to script handles.
//!
//! A Rhai (or Lua) closure running inside a hook dispatch may call `world.active_block_at`,
//! which must read the *live* game while the engine is in the middle of a call and holds its
//! state borrowed. Handles are `'static` values stored in script VMs, so they cannot hold a
//! borrow of the game. Instead the engine **lends** the facade for exactly the duration of the
//! dispatch:
//!
//! ```
//! # use pallet_api::access::{with_world, current_world};
//! # use pallet_api::facades::WorldApi;
//! # use pallet_api::reasons::BlockReadError;
//! # use pallet_api::Value;
//! struct Map;
//! impl WorldApi for Map {
//!     fn active_block_at(&self, _: &str, _: &Value, _: &Value) -> Result<u8, BlockReadError> {
//!         Ok(7)
//!     }
//! }
//! let read = || current_world(|w| match w {
//!     Some(w) => w.active_block_at("PALLET_TOWN", &Value::Int(0), &Value::Int(0)),
//!     None => Err(BlockReadError::NoOverworld),
//! });
//! assert_eq!(read(), Err(BlockReadError::NoOverworld)); // outside any lending scope
//! assert_eq!(with_world(&Map, read), Ok(7));             // inside: the lent world answers
//! assert_eq!(read(), Err(BlockReadError::NoOverworld)); // restored on exit
//! ```
//!
//! Engine sites that raise hooks or events while the world is readable wrap the dispatch in
//! [`with_world`]; handles read it with [`current_world`]. Outside a lending scope a handle gets
//! `None` and answers with the "no overworld" reason.
//!
//! # Soundness
//!
//! The slot is a thread-local `Cell` holding a raw pointer to the lent `dyn WorldApi` with its
//! lifetime erased. That erasure is the only `unsafe` here, and it is sound because:
//!
//! 1. **The pointer is only set while the borrow is alive.** [`with_world`] takes
//!    `&'a dyn WorldApi`, stores it, runs `f`, and restores the previous value before it
//!    returns. The restore lives in a guard's `Drop`, so it also runs when `f` unwinds. No code
//!    path leaves the pointer in the slot after `with_world` has returned.
//! 2. **Readers cannot keep it.** [`current_world`] hands the reference to a closure whose
//!    parameter is higher-ranked (`for<'r> FnOnce(Option<&'r dyn WorldApi>)`), so the borrow
//!    cannot escape the call; and it runs strictly inside the enclosing `with_world` (the slot
//!    is only non-null there).
//! 3. **Shared access only.** The lent reference is `&`, never `&mut`: nested lending and
//!    re-entrant reads (a hook inside a hook) only create more shared borrows of a value the
//!    engine has itself borrowed shared for the duration, so the borrow checker on the engine
//!    side already rules out mutation while it is lent.
//! 4. **No cross-thread use.** The slot is thread-local; a pointer lent on one thread is never
//!    visible on another.
//!
//! Nested `with_world` calls stack (the innermost lender wins, the outer one is restored).

use std::cell::Cell;
use std::ptr::NonNull;

use crate::facades::WorldApi;

type Erased = NonNull<dyn WorldApi + 'static>;

thread_local! {
    static WORLD: Cell<Option<Erased>> = const { Cell::new(None) };
}

/// Restores the previous slot value on drop (normal exit and unwind alike).
struct Restore(Option<Erased>);

impl Drop for Restore {
    fn drop(&mut self) {
        WORLD.with(|slot| slot.set(self.0));
    }
}

/// Lend `world` to script handles for the duration of `f`.
pub fn with_world<'a, R>(world: &'a (dyn WorldApi + 'a), f: impl FnOnce() -> R) -> R {
    let ptr: NonNull<dyn WorldApi + 'a> = NonNull::from(world);
    // SAFETY: only the trait object's lifetime bound is changed ('a → 'static); layout and
    // vtable are identical. The erased pointer is dereferenced only by `current_world`, which
    // runs inside this call (see the module docs: the guard below removes it before `'a` can
    // end, on return and on unwind).
    let erased: Erased = unsafe { std::mem::transmute::<NonNull<dyn WorldApi + 'a>, Erased>(ptr) };
    let previous = WORLD.with(|slot| slot.replace(Some(erased)));
    let _restore = Restore(previous);
    f()
}

/// Run `f` with the world lent by the innermost enclosing [`with_world`], or `None` outside any
/// lending scope.
pub fn current_world<R>(f: impl for<'r> FnOnce(Option<&'r dyn WorldApi>) -> R) -> R {
    let ptr = WORLD.with(Cell::get);
    // SAFETY: a non-null slot means we are inside `with_world`, whose `&'a dyn WorldApi` is
    // alive for at least as long as this call; the reference given to `f` cannot outlive `f`.
    let world = ptr.map(|p| unsafe { &*p.as_ptr() as &dyn WorldApi });
    f(world)
}

/// Is a world lent right now?
pub fn world_is_lent() -> bool {
    WORLD.with(|slot| slot.get().is_some())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reasons::BlockReadError;
    use crate::value::Value;

    struct Fixed(u8);
    impl WorldApi for Fixed {
        fn active_block_at(
            &self,
            map_id: &str,
            _: &Value,
            _: &Value,
        ) -> Result<u8, BlockReadError> {
            if map_id == "A" {
                Ok(self.0)
            } else {
                Err(BlockReadError::MapNotActive)
            }
        }
    }

    fn read() -> Result<u8, BlockReadError> {
        current_world(|w| {
            w.ok_or(BlockReadError::NoOverworld)?
                .active_block_at("A", &Value::Nil, &Value::Nil)
        })
    }

    #[test]
    fn nested_lending_restores_the_outer_world() {
        assert_eq!(read(), Err(BlockReadError::NoOverworld));
        with_world(&Fixed(1), || {
            assert_eq!(read(), Ok(1));
            with_world(&Fixed(2), || assert_eq!(read(), Ok(2)));
            assert_eq!(read(), Ok(1));
        });
        assert!(!world_is_lent());
    }

    #[test]
    fn unwinding_restores_the_slot() {
        let caught = std::panic::catch_unwind(|| {
            with_world(&Fixed(3), || {
                assert_eq!(read(), Ok(3));
                panic!("boom");
            })
        });
        assert!(caught.is_err());
        assert_eq!(read(), Err(BlockReadError::NoOverworld));
    }
}
