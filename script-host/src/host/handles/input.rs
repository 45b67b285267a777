//! `input` (capability `input`): buttons a mod presses at a safe point —
//! `input.tap(button)`, `input.press(button)` → token, `input.release(token)` — over
//! `pallet_engine::input_facade` (the same implementation as Lua's `mod.input`). A refusal
//! throws `#{code, message}`: `"input only at a safe point"`, `"unknown button"`,
//! `"unknown token"`, `"too many held buttons"`, `"too many queued taps"`.

use rhai::{Dynamic, Engine, EvalAltResult};

use crate::host::convert::{from_dynamic, to_dynamic};
use crate::host::error::api_error;

/// `input`, carrying its mod's id (the owner of its holds).
#[derive(Clone)]
pub struct Input {
    pub owner: std::rc::Rc<str>,
}

type R = Result<Dynamic, Box<EvalAltResult>>;

fn input_call(i: &Input, method: &str, arg: Dynamic) -> R {
    let value = from_dynamic(&arg).map_err(|e| api_error("invalid argument", e.to_string()))?;
    pallet_engine::input_facade::call_lent_by(Some(&i.owner), method, &[value])
        .map(|v| to_dynamic(&v))
        .map_err(|f| api_error(f.reason, f.message))
}

pub fn register(engine: &mut Engine) {
    engine.register_type_with_name::<Input>("Input");
    engine.register_fn("tap", |i: &mut Input, b: Dynamic| -> R {
        input_call(i, "tap", b)
    });
    engine.register_fn("press", |i: &mut Input, b: Dynamic| -> R {
        input_call(i, "press", b)
    });
    engine.register_fn("release", |i: &mut Input, t: Dynamic| -> R {
        input_call(i, "release", t)
    });
}
