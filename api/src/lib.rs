//! Pallet's mod contract. See `README.md` for the module table.

pub mod events;
pub mod hooks;
pub mod runtime;
pub mod value;

pub use events::{Event, EventId};
pub use hooks::{Hook, HookId};
pub use runtime::Runtime;
pub use value::Value;
