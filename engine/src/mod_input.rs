//! Buttons mods press (`mod.input` in Lua, the `input` handle in Rhai): the state the game
//! keeps for them, a leaf below [`crate::game`] (the facade that reaches it through the loan
//! is [`crate::input_facade`]).
//!
//! A mod **taps** a button (pressed for one tick) or **presses** one (held until it releases
//! the token it got). The game keeps the taps in a queue and the holds in press order, never
//! in saves or checkpoints, both bounded ([`MAX_HELD`], [`MAX_TAPS`]). Each tick the input
//! the tick runs with is the driver's when it pressed something, else the oldest queued tap
//! (one per tick), else the most recently pressed held button ([`ModInput::resolve`]). An
//! unloaded mod's holds and taps go with it ([`ModInput::release_owner`]). Nothing is
//! allocated until a mod presses something; with nothing queued or held the tick pays one
//! length test.

use std::collections::VecDeque;

use pallet_api::facades::WorldFailure;

use crate::types::Input;

/// The buttons a mod may press, by the name mods give them.
pub const BUTTONS: &[(&str, Input)] = &[
    ("a", Input::A),
    ("b", Input::B),
    ("start", Input::Start),
    ("up", Input::Up),
    ("down", Input::Down),
    ("left", Input::Left),
    ("right", Input::Right),
];

/// Held buttons a game keeps at once (all mods together).
pub const MAX_HELD: usize = 8;
/// Taps waiting for their tick (all mods together).
pub const MAX_TAPS: usize = 16;

pub const UNKNOWN_BUTTON: &str = "unknown button";
pub const UNKNOWN_TOKEN: &str = "unknown token";
pub const TOO_MANY_HELD: &str = "too many held buttons";
pub const TOO_MANY_TAPS: &str = "too many queued taps";

#[derive(Clone, Debug, PartialEq, Eq)]
struct Held {
    token: i64,
    owner: Option<String>,
    button: Input,
}

/// The taps and holds mods asked for (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct ModInput {
    held: Vec<Held>,
    taps: VecDeque<(Option<String>, Input)>,
    /// The last token handed out (tokens count from 1 and are never reused in a game).
    last_token: i64,
}

/// The button named `name` (`"a"`, `"up"`, …; case-insensitive).
pub fn button(name: &str) -> Result<Input, WorldFailure> {
    let lower = name.to_ascii_lowercase();
    BUTTONS
        .iter()
        .find(|(n, _)| *n == lower)
        .map(|(_, b)| *b)
        .ok_or_else(|| {
            let names = BUTTONS.iter().map(|(n, _)| *n);
            let hint = pallet_api::suggest::did_you_mean(&lower, names);
            WorldFailure::new(
                UNKNOWN_BUTTON,
                format!(
                    "unknown button {name:?}{hint}; a mod may press a, b, start, up, down, left \
                     or right (select is not a Pallet button)"
                ),
            )
        })
}

impl ModInput {
    /// Nothing queued or held.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.held.is_empty() && self.taps.is_empty()
    }

    /// Queue `button` for one tick.
    pub fn tap(&mut self, owner: Option<&str>, button: Input) -> Result<(), WorldFailure> {
        if self.taps.len() >= MAX_TAPS {
            return Err(WorldFailure::new(
                TOO_MANY_TAPS,
                format!("{MAX_TAPS} taps are already waiting (one is used per tick)"),
            ));
        }
        self.taps.push_back((owner.map(str::to_owned), button));
        Ok(())
    }

    /// Hold `button` until the returned token is released.
    pub fn press(&mut self, owner: Option<&str>, button: Input) -> Result<i64, WorldFailure> {
        if self.held.len() >= MAX_HELD {
            return Err(WorldFailure::new(
                TOO_MANY_HELD,
                format!("{MAX_HELD} buttons are already held; release one first"),
            ));
        }
        self.last_token += 1;
        self.held.push(Held {
            token: self.last_token,
            owner: owner.map(str::to_owned),
            button,
        });
        Ok(self.last_token)
    }

    /// Release the hold `token` of `owner` (another mod's token is unknown to it).
    pub fn release(&mut self, owner: Option<&str>, token: i64) -> Result<(), WorldFailure> {
        let at = self
            .held
            .iter()
            .position(|h| h.token == token && h.owner.as_deref() == owner);
        match at {
            Some(i) => {
                self.held.remove(i);
                Ok(())
            }
            None => Err(WorldFailure::new(
                UNKNOWN_TOKEN,
                format!("token {token} is not a button this mod holds (released already?)"),
            )),
        }
    }

    /// Drop every hold and tap of `owner` (owner cleanup); how many went.
    pub fn release_owner(&mut self, owner: &str) -> usize {
        let before = self.held.len() + self.taps.len();
        self.held.retain(|h| h.owner.as_deref() != Some(owner));
        self.taps.retain(|(o, _)| o.as_deref() != Some(owner));
        before - self.held.len() - self.taps.len()
    }

    /// The buttons held now, oldest first.
    pub fn held(&self) -> impl Iterator<Item = Input> + '_ {
        self.held.iter().map(|h| h.button)
    }

    /// Taps waiting.
    pub fn queued_taps(&self) -> usize {
        self.taps.len()
    }

    /// The input a tick runs with: `driver` when it is a button, else the oldest tap (taken),
    /// else the most recently pressed hold.
    #[inline]
    pub fn resolve(&mut self, driver: Input) -> Input {
        if driver != Input::None || self.is_empty() {
            return driver;
        }
        if let Some((_, tap)) = self.taps.pop_front() {
            return tap;
        }
        self.held.last().map_or(Input::None, |h| h.button)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_driver_wins_then_one_tap_per_tick_then_the_newest_hold() {
        let mut m = ModInput::default();
        assert_eq!(m.resolve(Input::None), Input::None);
        let up = m.press(Some("x"), Input::Up).unwrap();
        let left = m.press(Some("y"), Input::Left).unwrap();
        assert_ne!(up, left);
        m.tap(Some("x"), Input::A).unwrap();
        m.tap(Some("x"), Input::B).unwrap();
        assert_eq!(
            m.resolve(Input::Down),
            Input::Down,
            "the driver's input first"
        );
        assert_eq!(m.resolve(Input::None), Input::A);
        assert_eq!(m.resolve(Input::None), Input::B);
        assert_eq!(m.resolve(Input::None), Input::Left, "the newest hold");
        m.release(Some("y"), left).unwrap();
        assert_eq!(m.resolve(Input::None), Input::Up);
        let again = m.release(Some("y"), left).unwrap_err();
        assert_eq!(again.reason, UNKNOWN_TOKEN);
        let foreign = m.release(Some("y"), up).unwrap_err();
        assert_eq!(foreign.reason, UNKNOWN_TOKEN, "another mod's token");
        assert_eq!(m.release_owner("x"), 1);
        assert!(m.is_empty());
    }

    #[test]
    fn holds_and_taps_are_capped() {
        let mut m = ModInput::default();
        for _ in 0..MAX_HELD {
            m.press(None, Input::Up).unwrap();
        }
        assert_eq!(m.press(None, Input::Up).unwrap_err().reason, TOO_MANY_HELD);
        for _ in 0..MAX_TAPS {
            m.tap(None, Input::A).unwrap();
        }
        assert_eq!(m.tap(None, Input::A).unwrap_err().reason, TOO_MANY_TAPS);
    }

    #[test]
    fn buttons_by_name() {
        assert_eq!(button("A").unwrap(), Input::A);
        assert_eq!(button("right").unwrap(), Input::Right);
        let select = button("select").unwrap_err();
        assert_eq!(select.reason, UNKNOWN_BUTTON);
        assert!(
            select.message.contains("select is not"),
            "{}",
            select.message
        );
        assert!(button("strat").unwrap_err().message.contains("start"));
    }
}
