//! The `input` facade both script hosts call (Lua `mod.input:tap/press/release`, Rhai
//! `input.tap/press/release`): the buttons mods press ([`crate::mod_input`]) on the game lent
//! at a safe point (`input.step`, `core.update`, `game.ready`, a signal). Elsewhere — a hook
//! or event dispatched mid-tick, a battle round — there is no game to press on and the call
//! is refused with [`NOT_AT_SAFE_POINT`]. Failures carry a stable reason.

use pallet_api::facades::WorldFailure;
use pallet_api::Value;

use crate::game::lend::with_lent;
use crate::game::Game;
use crate::mod_input::{button, UNKNOWN_BUTTON, UNKNOWN_TOKEN};

pub const NOT_AT_SAFE_POINT: &str = "input only at a safe point";
pub const UNKNOWN_METHOD: &str = "unknown method";

/// The facade's methods (the same names in both hosts).
pub const METHODS: &[&str] = &["tap", "press", "release"];

/// Call `method` for mod `owner` on the game lent right now; refused outside a safe point.
pub fn call_lent_by(
    owner: Option<&str>,
    method: &str,
    args: &[Value],
) -> Result<Value, WorldFailure> {
    with_lent(|lent| match lent {
        Some(l) => call(l.game, owner, method, args),
        None => Err(WorldFailure::new(
            NOT_AT_SAFE_POINT,
            format!(
                "input.{method}: mods press buttons only at safe points (input.step, \
                 core.update, game.ready, a signal between ticks), not from a hook or event \
                 dispatched inside a tick"
            ),
        )),
    })
}

/// Call `method` for `owner` on `game`.
pub fn call(
    game: &mut Game,
    owner: Option<&str>,
    method: &str,
    args: &[Value],
) -> Result<Value, WorldFailure> {
    let arg = args.first().unwrap_or(&Value::Nil);
    match method {
        "tap" => {
            let b = button_arg(arg)?;
            game.mod_input_mut().tap(owner, b)?;
            Ok(Value::Bool(true))
        }
        "press" => {
            let b = button_arg(arg)?;
            game.mod_input_mut().press(owner, b).map(Value::Int)
        }
        "release" => {
            let token = token_arg(arg)?;
            game.mod_input_mut().release(owner, token)?;
            Ok(Value::Bool(true))
        }
        other => Err(WorldFailure::new(
            UNKNOWN_METHOD,
            format!("input has no method {other:?} (tap, press, release)"),
        )),
    }
}

fn button_arg(v: &Value) -> Result<crate::types::Input, WorldFailure> {
    match v {
        Value::Str(s) => button(s),
        other => Err(WorldFailure::new(
            UNKNOWN_BUTTON,
            format!("a button is a name (\"a\", \"up\", …), not {}", kind(other)),
        )),
    }
}

fn token_arg(v: &Value) -> Result<i64, WorldFailure> {
    match v {
        Value::Int(i) => Ok(*i),
        Value::Float(f) if f.fract() == 0.0 && f.is_finite() => Ok(*f as i64),
        other => Err(WorldFailure::new(
            UNKNOWN_TOKEN,
            format!("a token is the number press answered, not {}", kind(other)),
        )),
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Nil => "nothing",
        Value::Bool(_) => "a boolean",
        Value::Int(_) | Value::Float(_) => "a number",
        Value::Str(_) => "a string",
        Value::List(_) => "a list",
        Value::Map(_) => "a map",
    }
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use pallet_api::Runtime;

    use super::*;
    use crate::game::lend::lend;
    use crate::types::{GameVersion, Input};

    fn at_safe_point(g: &mut Game, method: &str, arg: Value) -> Result<Value, WorldFailure> {
        lend(g, None, || call_lent_by(Some("m"), method, &[arg]))
    }

    #[test]
    fn a_hold_walks_the_player_and_a_release_stops_it() {
        let mut g = Game::new_game(GameVersion::Red, 7, Rc::new(Runtime::new())).unwrap();
        let token = at_safe_point(&mut g, "press", Value::from("down")).unwrap();
        for _ in 0..8 {
            g.step(Input::None);
        }
        assert_eq!((g.save.player.x, g.save.player.y), (3, 5));
        assert_eq!(
            at_safe_point(&mut g, "release", token.clone()),
            Ok(Value::Bool(true))
        );
        for _ in 0..16 {
            g.step(Input::None);
        }
        assert_eq!((g.save.player.x, g.save.player.y), (3, 5), "released");
        let again = at_safe_point(&mut g, "release", token).unwrap_err();
        assert_eq!(again.reason, UNKNOWN_TOKEN);
        let bad = at_safe_point(&mut g, "release", Value::from("x")).unwrap_err();
        assert_eq!(bad.reason, UNKNOWN_TOKEN);
    }

    #[test]
    fn refused_outside_a_safe_point_and_for_bad_buttons() {
        let mut g = Game::new_game(GameVersion::Red, 7, Rc::new(Runtime::new())).unwrap();
        let outside = call_lent_by(Some("m"), "tap", &[Value::from("a")]).unwrap_err();
        assert_eq!(outside.reason, NOT_AT_SAFE_POINT);
        let select = at_safe_point(&mut g, "tap", Value::from("select")).unwrap_err();
        assert_eq!(select.reason, UNKNOWN_BUTTON);
        let number = at_safe_point(&mut g, "press", Value::Int(1)).unwrap_err();
        assert_eq!(number.reason, UNKNOWN_BUTTON);
        assert!(g.mod_input().is_empty(), "nothing refused was kept");
        assert_eq!(
            at_safe_point(&mut g, "tap", Value::from("a")),
            Ok(Value::Bool(true))
        );
        assert_eq!(g.mod_input().queued_taps(), 1);
        g.step(Input::None);
        assert_eq!(g.mod_input().queued_taps(), 0, "one tap per tick");
    }
}
