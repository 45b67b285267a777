//! Pallet's mod contract. See `README.md` for the module table.

mod bitset;
pub mod catalog;
pub mod content;
mod diagnostics;
mod event_bus;
pub mod events;
mod hook_bus;
pub mod hooks;
mod owners;
pub mod reasons;
pub mod runtime;
pub mod script;
pub mod value;

pub use bitset::GUARD_CAPACITY;
pub use diagnostics::{Diagnostic, Level};
pub use event_bus::ListenerHandle;
pub use events::{Event, EventId, ListenerError, ListenerResult};
pub use hook_bus::HookHandle;
pub use hooks::{Hook, HookId, LinkError, LinkResult, Next};
pub use runtime::Runtime;
pub use value::Value;
