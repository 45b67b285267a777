//! Pallet's mod contract. See `README.md` for the module table.

pub mod access;
mod bitset;
pub mod budget;
pub mod catalog;
pub mod content;
mod diagnostics;
mod event_bus;
#[cfg(test)]
mod event_bus_tests;
pub use event_bus::MAX_LISTENERS_PER_MOD;
pub use hook_bus::MAX_LINKS_PER_MOD;
pub mod events;
pub mod facades;
pub mod failure_tally;
mod hook_bus;
pub mod hooks;
pub mod host_cost;
pub mod loader;
pub mod manifest;
mod owners;
pub mod reasons;
pub mod runtime;
pub mod script;
pub mod script_rng;
pub mod semver;
pub mod services;
pub mod site_set;
pub mod suggest;
pub mod value;

pub use bitset::GUARD_CAPACITY;
pub use diagnostics::{
    cut_at, cut_message, display_cut, Diagnostic, Level, LogFeed, MAX_ERROR_MESSAGE_BYTES,
    MAX_LOG_BYTES_PER_TICK,
};
pub use event_bus::ListenerHandle;
pub use events::{Event, EventId, ListenerError, ListenerResult};
pub use hook_bus::HookHandle;
pub use hooks::{Hook, HookId, LinkError, LinkResult, Next};
pub use runtime::Runtime;
pub use site_set::SiteSet;
pub use value::Value;
