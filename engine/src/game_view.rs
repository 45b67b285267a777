//! The **save view** legacy Lua links read as `game.save` (legacy-lua-mods.md §4): a copy of
//! the save in the reference's shape, never a handle on the live game.
//!
//! Where the game is lent (a safe point: `game.ready`, a `core.update` link, a signal) the
//! copy is taken from the live game at the moment of the read. Mid-tick there is no game to
//! read, so the engine keeps a copy published at each tick start (by [`crate::world_reads`]) — but only once some link has asked for the view on this thread
//! (a sticky flag set by [`save_view`]), and rebuilt only when the save differs from the one
//! it was built from. With no script reading `game.save` nothing is copied, ever.
//!
//! Shape: the save as the save file spells it (`version`, `meta`, `player`, `party`,
//! `inventory`, `pcItems`, `money`, `pokedex`, `boxes`, `defeatedTrainers`, …), except that
//! `flags` is a set-like map `{NAME = true}` (the reference's `Flags` table), `inventory` and
//! `pcItems` are `{ITEM = count}` maps (the reference's bag; `bagOrder` lists the bag's ids in
//! order) and `modData` is the live `mod.save` buckets when a session store is attached.
//!
//! **Writes** ([`write_save_field`]): at a safe point a link may assign the fields of
//! [`WRITABLE`] (`coins`, `money`), validated and applied at once to the lent game; any other
//! field, a value out of range, or a write outside a safe point is refused, naming the field.

use pallet_api::Value;

use crate::game::lend::{attached_mod_data, with_lent};
use crate::save::data::{MAX_COINS, MAX_MONEY};
use crate::save::script_view::save_value;

/// Why no save view can be given here.
pub const NOT_AVAILABLE: &str =
    "game.save is not available here: no game is running yet on this thread";

/// The stable reasons of a refused save-view read or write (what a Rhai mod's `code` says;
/// Lua raises the message).
pub const UNAVAILABLE: &str = "save view unavailable";
pub const READ_ONLY_FIELD: &str = "read-only field";
pub const BAD_VALUE: &str = "bad value";
pub const NOT_AT_SAFE_POINT: &str = "world is busy";

/// `game.save` now: from the lent game at a safe point, else the copy published at this
/// tick's start. Marks the view wanted, so later ticks publish it.
pub fn save_view() -> Result<Value, &'static str> {
    crate::world_reads::want_save();
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
    let mut v = crate::world_reads::save_copy().ok_or(NOT_AVAILABLE)?;
    if let (Some(store), Value::Map(m)) = (&store, &mut v) {
        m.insert("modData".to_owned(), store.to_value());
    }
    Ok(v)
}

/// The `game.save` fields a link may assign at a safe point, with their largest value (whole
/// numbers from 0): the Game Corner coins and the purse (the fields the Lua engine's mods
/// write live, `save.coins = 9999`).
pub const WRITABLE: &[(&str, u32)] = &[("coins", MAX_COINS), ("money", MAX_MONEY)];

/// The writable fields as a sentence, for refusals: `coins (0..9999), money (0..999999)`.
fn writable_list() -> String {
    WRITABLE
        .iter()
        .map(|(k, max)| format!("{k} (0..{max})"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `game.save.<key> = value` from a link. Applied at once to the lent game, at a safe point
/// only (`game.ready`, an `input.step` or `core.update` link, a signal); only a field of
/// [`WRITABLE`], a whole number in its range. Anything else is refused with a message naming
/// the field, and the game is unchanged.
pub fn write_save_field(key: &str, value: &Value) -> Result<(), String> {
    write_save_field_why(key, value).map_err(|(_, message)| message)
}

/// [`write_save_field`] with the refusal's stable reason ([`READ_ONLY_FIELD`], [`BAD_VALUE`],
/// [`NOT_AT_SAFE_POINT`]) beside its message.
pub fn write_save_field_why(key: &str, value: &Value) -> Result<(), (&'static str, String)> {
    let Some(&(_, max)) = WRITABLE.iter().find(|(k, _)| *k == key) else {
        return Err((
            READ_ONLY_FIELD,
            format!(
                "game.save.{key} is read-only in Pallet: a link may set only {} (change the rest \
             through mod.world, mod.save or a hook's answer)",
                writable_list()
            ),
        ));
    };
    let n = match value {
        Value::Int(n) => Some(*n),
        Value::Float(f) if f.fract() == 0.0 && f.abs() < 1e15 => Some(*f as i64),
        _ => None,
    };
    let n = match n.and_then(|n| u32::try_from(n).ok()).filter(|n| *n <= max) {
        Some(n) => n,
        None => {
            let got = match value {
                Value::Int(n) => n.to_string(),
                Value::Float(f) => f.to_string(),
                other => other.type_name().to_owned(),
            };
            return Err((
                BAD_VALUE,
                format!("game.save.{key} must be a whole number in 0..{max}, got {got}"),
            ));
        }
    };
    with_lent(|lent| match lent {
        Some(l) => {
            let save = &mut l.game.save;
            match key {
                "coins" => save.coins = n,
                _ => save.money = n,
            }
            Ok(())
        }
        None => Err((
            NOT_AT_SAFE_POINT,
            format!(
                "game.save is read-only mid-tick in Pallet: cannot set game.save.{key} here; \
                 it can be set only at a safe point (game.ready, input.step, core.update, a \
                 signal between ticks)"
            ),
        )),
    })
}

/// Forget the view and its wish (tests that start another session on this thread).
pub fn clear() {
    crate::world_reads::clear_save_copy();
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use pallet_api::catalog::events;
    use pallet_api::Runtime;

    use super::*;
    use crate::game::lend::lend;
    use crate::game::Game;
    use crate::world::{GameVersion, Input};

    fn published() -> bool {
        crate::world_reads::save_copy().is_some()
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
