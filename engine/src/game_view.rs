//! The **save view** legacy Lua links read as `game.save` (legacy-lua-mods.md §4): a copy of
//! the save in the reference's shape, never a handle on the live game.
//!
//! Where the game is lent (a safe point: `game.ready`, a `core.update` link, a signal) the
//! copy is taken from the live game at the moment of the read. Mid-tick there is no game to
//! read, so the engine keeps a copy published at each tick start ([`publish`], called from
//! [`crate::world_reads`]) — but only once some link has asked for the view on this thread
//! (a sticky flag set by [`save_view`]), and rebuilt only when the save differs from the one
//! it was built from. With no script reading `game.save` nothing is copied, ever.
//!
//! Shape: the save as the save file spells it (`version`, `meta`, `player`, `party`,
//! `inventory`, `pcItems`, `money`, `pokedex`, `boxes`, `defeatedTrainers`, …), except that
//! `flags` is a set-like map `{NAME = true}` (the reference's `Flags` table) and `modData` is
//! the live `mod.save` buckets when a session store is attached.

use std::cell::{Cell, RefCell};

use pallet_api::Value;

use crate::checkpoint::lend::{attached_mod_data, with_lent};
use crate::game::Game;
use crate::save::SaveData;

thread_local! {
    static WANTED: Cell<bool> = const { Cell::new(false) };
    /// The save the copy was built from, and the copy.
    static COPY: RefCell<Option<(SaveData, Value)>> = const { RefCell::new(None) };
}

/// Why no save view can be given here.
pub const NOT_AVAILABLE: &str =
    "game.save is not available here: no game is running yet on this thread";

/// `game.save` now: from the lent game at a safe point, else the copy published at this
/// tick's start. Marks the view wanted, so later ticks publish it.
pub fn save_view() -> Result<Value, &'static str> {
    WANTED.with(|w| w.set(true));
    let store = attached_mod_data();
    let live = with_lent(|lent| {
        lent.map(|l| {
            let store = l.mod_data.or(store.clone());
            save_value(&l.game.save, store.as_ref())
        })
    });
    if let Some(v) = live {
        return Ok(v);
    }
    COPY.with(|c| {
        let c = c.borrow();
        let (_, v) = c.as_ref().ok_or(NOT_AVAILABLE)?;
        let mut v = v.clone();
        if let (Some(store), Value::Map(m)) = (&store, &mut v) {
            m.insert("modData".to_owned(), store.to_value());
        }
        Ok(v)
    })
}

/// Refresh the mid-tick copy from `game` (a tick start), when the view is wanted and the save
/// changed since the copy was built.
pub(crate) fn publish(game: &Game) {
    if !WANTED.with(Cell::get) {
        return;
    }
    COPY.with(|c| {
        let mut c = c.borrow_mut();
        if c.as_ref().is_some_and(|(s, _)| *s == game.save) {
            return;
        }
        *c = Some((game.save.clone(), save_value(&game.save, None)));
    });
}

/// Forget the view and its wish (tests that start another session on this thread).
pub fn clear() {
    WANTED.with(|w| w.set(false));
    COPY.with(|c| *c.borrow_mut() = None);
}

fn save_value(save: &SaveData, store: Option<&pallet_api::services::ModDataStore>) -> Value {
    let mut v = pallet_api::value::to_value(save).unwrap_or_default();
    if let Value::Map(m) = &mut v {
        let flags = save
            .flags
            .iter()
            .map(|f| (f.clone(), Value::Bool(true)))
            .collect();
        m.insert("flags".to_owned(), Value::Map(flags));
        if let Some(store) = store {
            m.insert("modData".to_owned(), store.to_value());
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use pallet_api::catalog::events;
    use pallet_api::Runtime;

    use super::*;
    use crate::checkpoint::lend::lend;
    use crate::world::{GameVersion, Input};

    fn published() -> bool {
        COPY.with(|c| c.borrow().is_some())
    }

    #[test]
    fn nothing_is_copied_until_a_link_asks() {
        clear();
        let rt = Rc::new(Runtime::default());
        rt.on::<events::WorldStepped, _>("t", 0, |_| Ok(()));
        let mut game = Game::new_game(GameVersion::Red, 1, Rc::clone(&rt)).unwrap();
        for _ in 0..5 {
            game.step(Input::None);
        }
        assert!(!published(), "no reader: no copy");
        // A read at a safe point answers live and wants the view from now on.
        game.save.money = 1234;
        let v = lend(&mut game, None, || save_view().unwrap());
        assert_eq!(v.get("money"), Some(&Value::Int(1234)));
        game.step(Input::None);
        assert!(published());
        // Mid-tick (no loan): the copy of the tick start.
        let v = save_view().unwrap();
        assert_eq!(v.get("money"), Some(&Value::Int(1234)));
        assert_eq!(v.get("version"), Some(&Value::from("red")));
        game.set_flag("EVENT_SEEN", true);
        game.step(Input::None);
        let v = save_view().unwrap();
        let flags = v.get("flags").unwrap();
        assert_eq!(flags.get("EVENT_SEEN"), Some(&Value::Bool(true)));
        clear();
    }
}
