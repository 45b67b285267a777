//! A constant set of hook and event ids: one guard for a group of sites.
//!
//! An engine routine that raises several sites can ask once, at its start, whether any of
//! them has a subscriber ([`crate::Runtime::wants_any`]). When none has, no mod code can run
//! inside the routine, so no subscription can change before it returns, and the routine may
//! run a copy of itself with those sites compiled out. The set must name every site the copy
//! skips; a site left out of it would go unraised while subscribed.

use crate::bitset::WORDS;
use crate::events::EventId;
use crate::hooks::HookId;

/// Hook and event ids as two constant masks (built in `const` context).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SiteSet {
    pub(crate) hooks: [u64; WORDS],
    pub(crate) events: [u64; WORDS],
}

impl SiteSet {
    /// The empty set.
    pub const EMPTY: SiteSet = SiteSet {
        hooks: [0; WORDS],
        events: [0; WORDS],
    };

    /// This set plus hook `id`.
    pub const fn hook(mut self, id: HookId) -> SiteSet {
        let i = id.0 as usize;
        self.hooks[i / 64] |= 1u64 << (i % 64);
        self
    }

    /// This set plus event `id`.
    pub const fn event(mut self, id: EventId) -> SiteSet {
        let i = id.0 as usize;
        self.events[i / 64] |= 1u64 << (i % 64);
        self
    }

    /// Does the set hold hook `id`?
    pub const fn has_hook(&self, id: HookId) -> bool {
        let i = id.0 as usize;
        self.hooks[i / 64] & (1u64 << (i % 64)) != 0
    }

    /// Does the set hold event `id`?
    pub const fn has_event(&self, id: EventId) -> bool {
        let i = id.0 as usize;
        self.events[i / 64] & (1u64 << (i % 64)) != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::{events, hooks};
    use crate::{Event, Hook, Runtime};

    const SET: SiteSet = SiteSet::EMPTY
        .hook(hooks::BattleCrit::ID)
        .event(events::BattleMoveUsed::ID);

    #[test]
    fn membership() {
        assert!(SET.has_hook(hooks::BattleCrit::ID));
        assert!(!SET.has_hook(hooks::BattleAccuracy::ID));
        assert!(SET.has_event(events::BattleMoveUsed::ID));
        assert!(!SET.has_event(events::BattleTurnStarted::ID));
    }

    #[test]
    fn wants_any_follows_the_subscriptions_of_its_members_only() {
        let rt = Runtime::default();
        assert!(!rt.wants_any(&SET));
        let h = rt.on::<events::BattleTurnStarted, _>("m", 0, |_| Ok(()));
        assert!(!rt.wants_any(&SET), "a non-member subscription");
        rt.unsubscribe_event(&h);
        let h = rt.on::<events::BattleMoveUsed, _>("m", 0, |_| Ok(()));
        assert!(rt.wants_any(&SET));
        rt.unsubscribe_event(&h);
        assert!(!rt.wants_any(&SET));
    }
}
