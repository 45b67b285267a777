//! The `world` facade's **mid-tick read view**: what `current()`, `map_overview()`,
//! `overworld()` and `get_flag()` answer from a hook or event link dispatched inside a tick, where no game is
//! lent (see [`crate::checkpoint::lend`]) and every write stays refused.
//!
//! The view is a set of copies the engine publishes where the world changes — at the start of
//! a tick, when the player arrives on a cell, when a warp swaps the map, when a block is
//! replaced, when a flag changes — and **only while some script subscribes to anything**
//! ([`pallet_api::Runtime::wants_anything`]): with no subscriber every publishing point is one
//! guard test and builds nothing. The map overview is rebuilt only when the map (or one of its
//! blocks) changes; the flags are copied only when they differ from the last copy. A read
//! answers from the copies, never from live state, so nothing a link does mid-tick can reach
//! the game through it.
//!
//! The view is thread-local, like the loan: the game that last published on this thread is
//! the one a mid-tick read describes (one game per thread in play, `pallet run` and tests).
//!
//! It also keeps the mid-tick copy of the save a script reads as `game.save`
//! ([`crate::game_view`]): published at each tick start only once some link has asked for it on
//! this thread (`want_save`, sticky), rebuilt only when the save differs from the one it was
//! built from.
//!
//! This module is a store below the game: the game publishes into it (`publish`) and hands
//! the overworld its `OBSERVER`; it reads only the world's and the save's types.

use std::cell::{Cell, RefCell};
use std::collections::BTreeSet;

use pallet_api::facades::WorldFailure;
use pallet_api::{Runtime, Value};

use crate::save::SaveData;
use crate::world::{ChangeObserver, Direction, Overworld};
use crate::world_values::{
    flag_name, overview_of, overworld_entities_of, overworld_map_of, overworld_value,
    player_record, position_value, NO_OVERWORLD,
};

#[derive(Default)]
struct View {
    /// The overworld's position (`None`: no overworld when last published).
    at: Option<Position>,
    /// The overview of `at`'s map, rebuilt when the map or its blocks change.
    overview: Option<Value>,
    /// `overworld().map` of `at`'s map, rebuilt with the overview, and the map's size in cells.
    cells: Option<Value>,
    size: (u32, u32),
    /// The NPCs as last copied (compared without allocating; `entities` rebuilt on a change).
    npcs: Vec<(String, u32, u32, Direction)>,
    /// `overworld().entities`.
    entities: Option<Value>,
    flags: BTreeSet<String>,
}

struct Position {
    map_id: String,
    x: u32,
    y: u32,
    facing: Direction,
    surfing: bool,
    /// The cell a step in progress goes to.
    target: Option<(u32, u32)>,
}

thread_local! {
    static VIEW: RefCell<Option<View>> = const { RefCell::new(None) };
    /// Some link asked for `game.save` on this thread.
    static SAVE_WANTED: Cell<bool> = const { Cell::new(false) };
    /// The save the copy was built from, and the copy.
    static SAVE_COPY: RefCell<Option<(SaveData, Value)>> = const { RefCell::new(None) };
}

/// What the game hands the overworld ([`crate::world::WorldCtx::observer`]).
pub(crate) const OBSERVER: ChangeObserver = ChangeObserver {
    moved: overworld_changed,
    flag: flag_changed,
};

/// Publish the whole view from the game's `save` and overworld (a tick boundary). Nothing
/// without a subscriber.
#[inline]
pub(crate) fn publish(rt: &Runtime, save: &SaveData, ow: Option<&Overworld>) {
    if !rt.wants_anything() {
        return;
    }
    publish_all(save, ow);
}

#[cold]
fn publish_all(save: &SaveData, ow: Option<&Overworld>) {
    publish_save(save);
    VIEW.with(|v| {
        let mut v = v.borrow_mut();
        let view = v.get_or_insert_with(View::default);
        if view.flags != save.flags {
            view.flags.clone_from(&save.flags);
        }
        match ow {
            Some(ow) => place(view, ow, false),
            None => {
                view.at = None;
                view.overview = None;
                view.cells = None;
                view.entities = None;
                view.npcs.clear();
            }
        }
    });
}

/// Copy the player's position; rebuild the overview when the map changed (or `rebuilt`).
fn place(view: &mut View, ow: &Overworld, rebuilt: bool) {
    let p = ow.player();
    let target = ow.movement().map(|m| (m.to_x, m.to_y));
    let same_map = view.at.as_ref().is_some_and(|at| at.map_id == ow.map_id());
    match view.at.as_mut() {
        Some(at) if same_map => {
            at.x = p.x;
            at.y = p.y;
            at.facing = p.facing;
            at.surfing = p.surfing;
            at.target = target;
        }
        _ => {
            view.at = Some(Position {
                map_id: ow.map_id().to_owned(),
                x: p.x,
                y: p.y,
                facing: p.facing,
                surfing: p.surfing,
                target,
            });
        }
    }
    if !same_map || rebuilt || view.overview.is_none() {
        view.overview = Some(overview_of(ow));
        view.cells = Some(overworld_map_of(ow));
        let def = ow.map().def();
        view.size = (def.cell_width(), def.cell_height());
    }
    let npcs = &ow.map().def().npcs;
    let unchanged = view.entities.is_some()
        && view.npcs.len() == npcs.len()
        && view
            .npcs
            .iter()
            .zip(npcs)
            .all(|(a, n)| a.0 == n.name && (a.1, a.2, a.3) == (n.x, n.y, n.facing));
    if !unchanged {
        view.npcs = npcs
            .iter()
            .map(|n| (n.name.clone(), n.x, n.y, n.facing))
            .collect();
        view.entities = Some(overworld_entities_of(ow));
    }
}

/// The overworld moved the player (a step arrived, a warp swapped the map), or `rebuilt` its
/// map (a replaced block). Called only while some script subscribes ([`ChangeObserver`]).
fn overworld_changed(ow: &Overworld, rebuilt: bool) {
    VIEW.with(|v| {
        if let Some(view) = v.borrow_mut().as_mut() {
            place(view, ow, rebuilt);
        }
    });
}

/// A flag changed. Called only while some script subscribes ([`ChangeObserver`]).
fn flag_changed(name: &str, on: bool) {
    VIEW.with(|v| {
        if let Some(view) = v.borrow_mut().as_mut() {
            if on {
                view.flags.insert(name.to_owned());
            } else {
                view.flags.remove(name);
            }
        }
    });
}

/// Answer a read (`current`, `map_overview`, `get_flag`) from the view; `None` for any other
/// method, or when nothing was published on this thread yet.
pub(crate) fn read(method: &str, args: &[Value]) -> Option<Result<Value, WorldFailure>> {
    if !matches!(
        method,
        "current" | "map_overview" | "overworld" | "get_flag"
    ) {
        return None;
    }
    VIEW.with(|v| {
        let v = v.borrow();
        let view = v.as_ref()?;
        let no_overworld = || WorldFailure::new(NO_OVERWORLD, "there is no overworld right now");
        Some(match method {
            "current" => match &view.at {
                Some(at) => Ok(position_value(
                    &at.map_id, at.x, at.y, at.facing, at.surfing,
                )),
                None => Err(no_overworld()),
            },
            "map_overview" => view.overview.clone().ok_or_else(no_overworld),
            "overworld" => match (&view.at, &view.cells, &view.entities) {
                (Some(at), Some(cells), Some(entities)) => Ok(overworld_value(
                    cells.clone(),
                    player_record(at.x, at.y, at.facing, at.surfing, at.target),
                    entities.clone(),
                )),
                _ => Err(no_overworld()),
            },
            _ => flag_name(args.first().unwrap_or(&Value::Nil))
                .map(|name| Value::Bool(view.flags.contains(name))),
        })
    })
}

/// The published overworld, as a mid-tick spawn is checked against it.
pub(crate) struct Published<'v> {
    pub map_id: &'v str,
    /// The map's size in cells.
    pub size: (u32, u32),
    /// The player's cell and the cell a step in progress goes to.
    pub player: [(u32, u32); 2],
    /// The NPCs: id and cell.
    pub npcs: &'v [(String, u32, u32, Direction)],
}

/// Run `f` with the published overworld (`None`: none was published, or no overworld then).
pub(crate) fn with_published<R>(f: impl FnOnce(Option<Published<'_>>) -> R) -> R {
    VIEW.with(|v| {
        let v = v.borrow();
        let published = v.as_ref().and_then(|view| {
            let at = view.at.as_ref()?;
            view.entities.as_ref()?;
            Some(Published {
                map_id: &at.map_id,
                size: view.size,
                player: [(at.x, at.y), at.target.unwrap_or((at.x, at.y))],
                npcs: &view.npcs,
            })
        });
        f(published)
    })
}

/// Forget the view (a test that starts another game on this thread may call it).
pub fn clear() {
    VIEW.with(|v| *v.borrow_mut() = None);
}

/// A link asked for `game.save`: publish the save's copy from now on.
pub(crate) fn want_save() {
    SAVE_WANTED.with(|w| w.set(true));
}

/// The save's mid-tick copy (as a script reads it), if one was published.
pub(crate) fn save_copy() -> Option<Value> {
    SAVE_COPY.with(|c| c.borrow().as_ref().map(|(_, v)| v.clone()))
}

/// Forget the save's copy and the wish for it.
pub(crate) fn clear_save_copy() {
    SAVE_WANTED.with(|w| w.set(false));
    SAVE_COPY.with(|c| *c.borrow_mut() = None);
}

/// Refresh the save's copy, when it is wanted and the save changed since it was built.
fn publish_save(save: &SaveData) {
    if !SAVE_WANTED.with(Cell::get) {
        return;
    }
    SAVE_COPY.with(|c| {
        let mut c = c.borrow_mut();
        if c.as_ref().is_some_and(|(s, _)| s == save) {
            return;
        }
        *c = Some((
            save.clone(),
            crate::save::script_view::save_value(save, None),
        ));
    });
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use pallet_api::catalog::events;
    use pallet_api::Runtime;

    use super::*;
    use crate::game::Game;
    use crate::world::{GameVersion, Input};

    fn published() -> bool {
        VIEW.with(|v| v.borrow().is_some())
    }

    fn walk(game: &mut Game) {
        for input in [Input::Down, Input::None, Input::Right, Input::None] {
            for _ in 0..10 {
                game.step(input);
            }
        }
    }

    /// With no subscriber no publishing point builds anything (ticks, steps, flags).
    #[test]
    fn nothing_is_published_without_a_subscriber() {
        clear();
        let mut game = Game::new_game(GameVersion::Red, 1, Rc::new(Runtime::default())).unwrap();
        walk(&mut game);
        game.set_flag("EVENT_X", true);
        assert!(!published());
        assert!(
            read("current", &[]).is_none(),
            "no view: the caller refuses"
        );
    }

    /// With one, a read answers the live position and flags as of the last change.
    #[test]
    fn a_subscriber_gets_copies_that_follow_the_game() {
        clear();
        let rt = Rc::new(Runtime::default());
        rt.on::<events::WorldStepped, _>("t", 0, |_| Ok(()));
        let mut game = Game::new_game(GameVersion::Red, 1, Rc::clone(&rt)).unwrap();
        walk(&mut game);
        assert!(published());
        let p = game.overworld().unwrap().player();
        let want = position_value(
            game.overworld().unwrap().map_id(),
            p.x,
            p.y,
            p.facing,
            p.surfing,
        );
        assert_eq!(read("current", &[]).unwrap().unwrap(), want);
        game.set_flag("EVENT_X", true);
        let flag = Value::from("EVENT_X");
        assert_eq!(
            read("get_flag", &[flag]).unwrap().unwrap(),
            Value::Bool(true)
        );
        assert!(read("give_item", &[]).is_none(), "a write is not a read");
        assert_eq!(
            read("get_flag", &[Value::Int(1)])
                .unwrap()
                .unwrap_err()
                .reason,
            crate::world_values::INVALID_FLAG
        );
        clear();
    }
}
