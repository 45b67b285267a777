//! Event types, one per catalog event, with their payloads (detached data snapshots — the Lua
//! engine handed live tables). Engine sites spell them `events::<Name>`.

mod battle;
mod lifecycle;
mod pokemon;
mod presentation;
mod world;

pub use battle::*;
pub use lifecycle::*;
pub use pokemon::*;
pub use presentation::*;
pub use world::*;

/// Declare an event type: `event!(/** docs */ Name, "mod.visible.name", id, PayloadType);`
/// expands to `pub struct Name;` with `impl Event` and `impl ScriptEvent`.
macro_rules! event {
    ($(#[$meta:meta])* $ty:ident, $name:literal, $id:literal, $payload:ty) => {
        $(#[$meta])*
        pub struct $ty;

        impl $crate::events::Event for $ty {
            const NAME: &'static str = $name;
            const ID: $crate::events::EventId = $crate::events::EventId($id);
            type Payload = $payload;
        }

        impl $crate::script::ScriptEvent for $ty {}
    };
}
pub(crate) use event;
