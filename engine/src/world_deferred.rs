//! World actions a mod asks for **mid-tick**, applied at the end of the tick.
//!
//! From a hook or event dispatched inside a tick (`movement.collision`, `encounter.roll`,
//! `map.entered`, …) no game is lent, so the `world` facade cannot act at once. The Lua
//! engine's mods still ask for a few actions there: place NPCs when a map is entered, remove
//! the NPC the player bumped and start a wild battle with it, set a flag. Those few methods ([`DEFERRABLE`]) are **accepted** mid-tick:
//! their arguments are checked now against the engine's published copies (a bad one is
//! refused now, with the method's reason; a spawned NPC's id is reserved and answered now), the
//! action is queued here in call order, and the game applies the queue when the tick ends
//! ([`crate::game::Game::step`]), each action with the same checks the facade makes at a safe
//! point. An action refused then is reported on the asking mod's log (warn), never dropped
//! silently. Everything else stays refused mid-tick (`"world is busy"`): its answer (a count,
//! a record) needs the game.
//!
//! The queue is bounded ([`MAX_DEFERRED`] per tick; past it `"too many deferred world
//! actions"`) and thread-local, like the loan. Inside a battle round nothing is deferred (the
//! facade refuses with `"a battle is already running"` there). Nothing here allocates until a
//! mod defers something; with no deferred action the tick's drain is one thread-local test.

use std::cell::RefCell;

use pallet_api::facades::WorldFailure;

use crate::types::Direction;

/// The facade methods (snake_case) a mid-tick call may defer.
pub const DEFERRABLE: &[&str] = &[
    "spawn_npc",
    "remove_npc",
    "start_wild_battle",
    "set_flag",
    "try_run",
];

/// Deferred actions accepted per tick; the next one is refused with [`TOO_MANY`].
pub const MAX_DEFERRED: usize = 64;

pub const TOO_MANY: &str = "too many deferred world actions";

/// One accepted action (arguments already checked for shape).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// NPC `id` (reserved when asked: the answer the mod got) on `map`, the map active then.
    SpawnNpc {
        map: String,
        id: String,
        at: (u32, u32),
        facing: Direction,
        text: String,
    },
    /// `map`: the active map when asked (`None`: none was published); an NPC whose map was
    /// left before the tick ended is gone already.
    RemoveNpc {
        map: Option<String>,
        id: String,
    },
    StartWildBattle {
        species: String,
        level: u8,
        /// The wild mon's DVs (`None`: rolled, as a grass encounter's).
        dvs: Option<crate::pokemon::Dvs>,
    },
    /// Run from the current wild battle (through `battle.run`). Also accepted inside a
    /// battle's opening (`battle.started`), where nothing else is deferred.
    TryRun,
    SetFlag {
        name: String,
        on: bool,
    },
}

impl Action {
    /// The facade method that asked for it (snake_case).
    pub fn method(&self) -> &'static str {
        match self {
            Action::SpawnNpc { .. } => "spawn_npc",
            Action::RemoveNpc { .. } => "remove_npc",
            Action::StartWildBattle { .. } => "start_wild_battle",
            Action::SetFlag { .. } => "set_flag",
            Action::TryRun => "try_run",
        }
    }
}

/// An action and the mod that asked for it (for the report when it is refused).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deferred {
    pub owner: Option<String>,
    pub action: Action,
}

thread_local! {
    static QUEUE: RefCell<Vec<Deferred>> = const { RefCell::new(Vec::new()) };
}

/// Queue `action` for the end of the tick; refused past [`MAX_DEFERRED`].
pub(crate) fn push(owner: Option<&str>, action: Action) -> Result<(), WorldFailure> {
    QUEUE.with(|q| {
        let mut q = q.borrow_mut();
        if q.len() >= MAX_DEFERRED {
            return Err(WorldFailure::new(
                TOO_MANY,
                format!(
                    "{} deferred world actions are already waiting for the end of this tick",
                    MAX_DEFERRED
                ),
            ));
        }
        q.push(Deferred {
            owner: owner.map(str::to_owned),
            action,
        });
        Ok(())
    })
}

/// Take the queued actions, in call order (empty, without allocating, when none is queued).
#[inline]
pub(crate) fn take() -> Vec<Deferred> {
    QUEUE.with(|q| {
        let mut q = q.borrow_mut();
        if q.is_empty() {
            Vec::new()
        } else {
            std::mem::take(&mut *q)
        }
    })
}

/// The NPC ids queued spawns on `map` reserved (a later spawn of the same name gets another).
pub(crate) fn reserved_npc_ids(map: &str) -> Vec<String> {
    QUEUE.with(|q| {
        q.borrow()
            .iter()
            .filter_map(|d| match &d.action {
                Action::SpawnNpc { map: m, id, .. } if m == map => Some(id.clone()),
                _ => None,
            })
            .collect()
    })
}

/// The cells queued spawns on `map` will take.
pub(crate) fn reserved_cells(map: &str) -> Vec<(u32, u32)> {
    QUEUE.with(|q| {
        q.borrow()
            .iter()
            .filter_map(|d| match &d.action {
                Action::SpawnNpc { map: m, at, .. } if m == map => Some(*at),
                _ => None,
            })
            .collect()
    })
}

/// How many actions wait (tests and diagnostics).
pub fn pending() -> usize {
    QUEUE.with(|q| q.borrow().len())
}

/// Forget the queue (a test that starts another game on this thread may call it).
pub fn clear() {
    QUEUE.with(|q| q.borrow_mut().clear());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_queue_keeps_call_order_and_is_bounded() {
        clear();
        assert!(take().is_empty());
        for i in 0..MAX_DEFERRED {
            let id = format!("N{i}");
            push(Some("m"), Action::RemoveNpc { map: None, id }).unwrap();
        }
        let late = Action::RemoveNpc {
            map: None,
            id: "late".into(),
        };
        let refused = push(None, late.clone()).unwrap_err();
        assert_eq!(refused.reason, TOO_MANY);
        let taken = take();
        assert_eq!(taken.len(), MAX_DEFERRED);
        let first = Action::RemoveNpc {
            map: None,
            id: "N0".into(),
        };
        assert_eq!(taken[0].action, first);
        assert_eq!(taken[0].owner.as_deref(), Some("m"));
        assert_eq!(pending(), 0, "taking empties the queue");
        push(None, late).unwrap();
        clear();
        assert_eq!(pending(), 0);
    }
}
