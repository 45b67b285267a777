//! Typed wrapper hooks and the hook bus.

/// Dense index of a hook in the catalog; used for the constant-time `wants_hook` bitset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HookId(pub u16);

/// A hook: its stable name, catalog index, argument and result types.
pub trait Hook: 'static {
    const NAME: &'static str;
    const ID: HookId;
    type Args: Clone + 'static;
    type Out: 'static;
}
