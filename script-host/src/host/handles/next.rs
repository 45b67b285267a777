//! The typed `next` a Rhai link receives: a native function pointer, so scripts call it with
//! `next.call(game, ctx)` (replace the arguments downstream) or `next.call()` (continue with
//! the current ones). Arity and types are checked against the hook: a mismatch throws
//! `#{code: "bad_next_arguments", message}` naming the hook and its signature.
//!
//! # The lending slot (the one `unsafe` of the host)
//!
//! The bus hands a link `&mut dyn ValueNext` that lives only while the link runs, but the
//! script-visible `next` is a `'static` Rhai value. [`NextSlot`] bridges the two: for the
//! duration of the link call ([`NextSlot::lend`]) it holds a lifetime-erased pointer to the
//! `ValueNext`, and `next.call(..)` dereferences it. Soundness:
//!
//! 1. The pointer is stored only inside `lend`, whose guard puts the previous value back on
//!    drop (normal return and unwind), before the `&mut` borrow it came from ends.
//! 2. A call **takes** the pointer out of the slot while it uses it and puts it back after, so
//!    at most one `&mut` derived from it exists at any time: a re-entrant call (a script that
//!    stashed `next` in a shared variable and calls it again from a link downstream) finds the
//!    slot empty and gets the `next_unavailable` error instead of an aliasing `&mut`.
//! 3. A `next` kept past its link (stored in a captured variable, called from a later
//!    dispatch) finds the slot empty as well.
//! 4. Everything is single-threaded (`Rc`, `Cell`); Rhai is built without `sync`.

use std::cell::Cell;
use std::ptr::NonNull;
use std::rc::Rc;

use pallet_api::catalog::HookInfo;
use pallet_api::script::ValueNext;
use rhai::{Dynamic, EvalAltResult, FnPtr};

type RhaiResult = Result<Dynamic, Box<EvalAltResult>>;

use crate::host::convert::{from_dynamic, into_dynamic};
use crate::host::error::{api_error, codes};
use crate::host::vm::HostShared;

type Erased = NonNull<dyn ValueNext + 'static>;

/// Where a link's `next` lives while the link runs.
pub struct NextSlot {
    ptr: Cell<Option<Erased>>,
    hook: &'static HookInfo,
    /// Where the calling script's Rhai call level is recorded for the links downstream.
    host: Rc<HostShared>,
}

/// Puts the previous slot value back on drop.
pub struct Lend<'a> {
    slot: &'a NextSlot,
    previous: Option<Erased>,
}

impl Drop for Lend<'_> {
    fn drop(&mut self) {
        self.slot.ptr.set(self.previous);
    }
}

impl NextSlot {
    pub fn new(hook: &'static HookInfo, host: Rc<HostShared>) -> Rc<NextSlot> {
        Rc::new(NextSlot {
            ptr: Cell::new(None),
            hook,
            host,
        })
    }

    /// Make `next` callable through this slot until the returned guard drops.
    pub fn lend<'a>(&'a self, next: &'a mut (dyn ValueNext + 'a)) -> Lend<'a> {
        let ptr: NonNull<dyn ValueNext + 'a> = NonNull::from(next);
        // SAFETY: only the trait-object lifetime bound changes ('a → 'static); the pointer is
        // removed from the slot by the guard before 'a ends (module docs, point 1).
        let erased: Erased =
            unsafe { std::mem::transmute::<NonNull<dyn ValueNext + 'a>, Erased>(ptr) };
        let previous = self.ptr.replace(Some(erased));
        Lend {
            slot: self,
            previous,
        }
    }

    fn signature_help(&self) -> String {
        format!(
            "hook {} expects next.call() or next.call({}); callback signature {}",
            self.hook.name,
            self.hook.params.join(", "),
            self.hook.signature
        )
    }

    /// `next.call(args…)` from a script running at Rhai call level `level`.
    pub fn invoke(&self, level: usize, args: &mut [&mut Dynamic]) -> RhaiResult {
        let Some(mut ptr) = self.ptr.take() else {
            return Err(api_error(
                codes::NEXT_UNAVAILABLE,
                format!(
                    "next of hook {} can only be called while its link runs, and not re-entrantly",
                    self.hook.name
                ),
            ));
        };
        struct PutBack<'s>(&'s NextSlot, Erased);
        impl Drop for PutBack<'_> {
            fn drop(&mut self) {
                self.0.ptr.set(Some(self.1));
            }
        }
        let _put_back = PutBack(self, ptr);

        let values = if args.is_empty() {
            None
        } else if args.len() != self.hook.params.len() {
            return Err(api_error(
                codes::BAD_NEXT_ARGUMENTS,
                format!("{} arguments given; {}", args.len(), self.signature_help()),
            ));
        } else {
            let mut values = Vec::with_capacity(args.len());
            for (i, a) in args.iter().enumerate() {
                let v = from_dynamic(a).map_err(|e| {
                    api_error(
                        codes::BAD_NEXT_ARGUMENTS,
                        format!(
                            "argument {} ({}): {e}; {}",
                            i + 1,
                            self.hook.params[i],
                            self.signature_help()
                        ),
                    )
                })?;
                values.push(v);
            }
            Some(values)
        };

        // SAFETY: the pointer was taken out of the slot (no other `&mut` to it can be made
        // until `_put_back` restores it), and a non-empty slot means the lending `&mut` is
        // alive (module docs, points 1–2).
        let next: &mut dyn ValueNext = unsafe { ptr.as_mut() };
        // Links downstream continue this script's call level.
        let result = self.host.with_rhai_level(level, || match values {
            None => next.call(),
            Some(values) => next.call_with(values),
        });
        match result {
            Ok(v) => Ok(into_dynamic(v)),
            Err(e) => Err(api_error(
                codes::BAD_NEXT_ARGUMENTS,
                format!("{e}; {}", self.signature_help()),
            )),
        }
    }

    /// The script-visible `next` value for this slot.
    pub fn fn_ptr(slot: &Rc<NextSlot>) -> Result<FnPtr, Box<rhai::EvalAltResult>> {
        let slot = slot.clone();
        #[allow(deprecated)] // "volatile", not deprecated: the native function-pointer API
        FnPtr::from_fn("next", move |ctx, args| {
            // The level inside this native call is one above the calling script's own.
            let level = ctx.global_runtime_state().level.saturating_sub(1);
            slot.invoke(level, args)
        })
    }
}
