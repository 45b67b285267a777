//! Typed events and the event bus.

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EventId(pub u16);

/// An event: its stable name, catalog index and payload type.
pub trait Event: 'static {
    const NAME: &'static str;
    const ID: EventId;
    type Payload: 'static;
}
