//! The runtime facade engine call sites use: guards (`wants_hook`, `wants_event`) and dispatch.

use crate::events::Event;
use crate::hooks::Hook;

/// Holds the live hook and event buses. `Runtime::default()` is the "null" runtime: no
/// subscriber anywhere, every guard false.
#[derive(Default)]
pub struct Runtime {
    // The buses land with the API core (issue 4); until then every guard is false.
    _private: (),
}

impl Runtime {
    /// Constant-time: is anything subscribed to hook `H`?
    #[inline(always)]
    pub fn wants_hook<H: Hook>(&self) -> bool {
        false
    }

    /// Run the chain for `H` around `vanilla`. With no subscriber this is `vanilla(args)`.
    #[inline]
    pub fn call<H: Hook>(&self, args: H::Args, vanilla: impl FnOnce(H::Args) -> H::Out) -> H::Out {
        vanilla(args)
    }

    /// Constant-time: is anything listening to event `E`?
    #[inline(always)]
    pub fn wants_event<E: Event>(&self) -> bool {
        false
    }

    /// Deliver `payload` to the listeners of `E`.
    #[inline]
    pub fn emit<E: Event>(&self, payload: E::Payload) {
        let _ = payload;
    }
}
