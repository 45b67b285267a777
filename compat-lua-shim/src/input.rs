//! `mod.input`, the Lua engine's button facade: `tap(game, button)`, `press(game, button)` →
//! token, `release(token)`, over `pallet_engine::input_facade` (one implementation for both
//! hosts). The `game` argument is the one the safe point's link received; the buttons act on
//! the game the engine lends there. A refusal (outside a safe point, a button Pallet does not
//! have such as `select`, a released or foreign token, a full queue) is `nil, reason,
//! message`.

use crate::errors::nil_reason_message;
use std::rc::Rc;

use mlua::{MultiValue, UserData, UserDataMethods};
use pallet_api::Value;

use crate::convert::{from_lua, to_lua};

/// `mod.input`, carrying its mod's id (the owner of its holds).
pub struct Input(pub(crate) Rc<str>);

/// The methods of `mod.input`.
pub const METHODS: &[&str] = &["tap", "press", "release"];

impl UserData for Input {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        for &name in METHODS {
            methods.add_method(name, move |lua, this, args: MultiValue| {
                // `tap(game, button)` / `press(game, button)`: the button is the last
                // argument (a call without the game is accepted too); `release(token)`.
                let arg = match args.len() {
                    0 => Value::Nil,
                    n => from_lua(&args[n - 1]).unwrap_or(Value::Nil),
                };
                match pallet_engine::input_facade::call_lent_by(Some(&this.0), name, &[arg]) {
                    Ok(v) => Ok(MultiValue::from_iter([to_lua(lua, &v)?])),
                    Err(f) => nil_reason_message(lua, f.reason, &f.message),
                }
            });
        }
    }
}
