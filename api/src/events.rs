//! Typed events: the [`Event`] trait and the listener types.
//!
//! # Bus rules
//!
//! * Listeners run in priority order (higher first; ties by owner load rank, then registration
//!   order — the same rule as hook chains).
//! * `emit` walks a **snapshot** of the listener list: listeners may subscribe or unsubscribe
//!   themselves or siblings during dispatch without anyone being skipped or run twice.
//! * A failing listener is contained: it is reported as `"[owner] event <name>: <err>"` and its
//!   siblings still run. Listeners cannot change the engine's result.
//! * With no listener, `wants_event` is a bit test and `emit` builds nothing.
//! * Mods may emit only `mod.<id>.*` events (see [`Runtime::emit_mod`](crate::Runtime::emit_mod)).

use crate::hooks::LinkError;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EventId(pub u16);

/// An event: its stable name, catalog index and payload type.
pub trait Event: 'static {
    const NAME: &'static str;
    const ID: EventId;
    type Payload: 'static;
}

/// Why a listener failed (same shape as a link failure).
pub type ListenerError = LinkError;

/// What a listener returns.
pub type ListenerResult = Result<(), ListenerError>;

/// The signature of a listener on payload `P`.
pub type ListenerFn<P> = dyn Fn(&P) -> ListenerResult + 'static;
