//! `mod.checkpoints` (RFC 0004): `inspect(game)`, `capture(game)`, `restore(game, checkpoint)`
//! with the Lua engine's returns — a capability table; a detached checkpoint table or
//! `nil, code, message`; `true` or `false, code, message`. The `game` argument is accepted as
//! the legacy API passes it; the game acted on is the one the engine lends at safe points
//! (`pallet_engine::checkpoint::lend`). Outside a lending scope (mid-tick hook dispatch) every
//! call answers `script_busy` — `battle_phase_busy` (kind `battle`) inside a battle round —
//! exactly as the Rhai handle does.

use mlua::{MultiValue, UserData, UserDataMethods, Value as LuaValue};
use pallet_api::facades::{Capability, CheckpointFailure};
use pallet_api::reasons::CheckpointCode;
use pallet_api::Value;
use pallet_engine::checkpoint::lend::{refusal_outside_loan, with_lent};

use crate::convert::{from_lua, to_lua};

/// Outside an engine lending scope the runtime is not settled.
const NOT_LENT: &str =
    "checkpoints are only available at safe points where the engine lends the game (e.g. game.ready)";

pub struct Checkpoints;

/// The refusal outside a lending scope (`battle_phase_busy` inside a battle round).
fn not_lent() -> CheckpointFailure {
    refusal_outside_loan(NOT_LENT)
        .refusal
        .unwrap_or(CheckpointFailure {
            code: CheckpointCode::ScriptBusy,
            message: NOT_LENT.to_owned(),
        })
}

fn failure(lua: &mlua::Lua, first: LuaValue, f: CheckpointFailure) -> mlua::Result<MultiValue> {
    Ok(MultiValue::from_iter([
        first,
        LuaValue::String(lua.create_string(f.code.as_str())?),
        LuaValue::String(lua.create_string(f.message)?),
    ]))
}

fn capability_value(cap: Capability) -> Value {
    let mut pairs = vec![
        ("canCapture", Value::Bool(cap.can_capture)),
        ("canRestore", Value::Bool(cap.can_restore)),
        ("kind", Value::from(cap.kind.as_str())),
    ];
    if let Some(r) = cap.refusal {
        pairs.push(("reason", Value::from(r.code.as_str())));
        pairs.push(("message", Value::Str(r.message)));
    }
    Value::map(pairs)
}

impl UserData for Checkpoints {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method("inspect", |lua, _, _game: MultiValue| {
            let cap = with_lent(|lent| match lent {
                Some(mut l) => l.inspect(),
                None => refusal_outside_loan(NOT_LENT),
            });
            to_lua(lua, &capability_value(cap))
        });
        methods.add_method("capture", |lua, _, _game: MultiValue| {
            let out = with_lent(|lent| match lent {
                Some(mut l) => l.capture(),
                None => Err(not_lent()),
            });
            match out {
                Ok(cp) => Ok(MultiValue::from_iter([to_lua(
                    lua,
                    &crate::spelling::checkpoint_to_lua(cp),
                )?])),
                Err(f) => failure(lua, LuaValue::Nil, f),
            }
        });
        // The later engine's save-state anchor: an ordinary save for this playthrough exists
        // after the call (`true`), else `nil, code, message`.
        methods.add_method("ensureNormalSave", |lua, _, _args: MultiValue| {
            match pallet_engine::save_request::ensure_written() {
                Ok(()) => Ok(MultiValue::from_iter([LuaValue::Boolean(true)])),
                Err((code, message)) => Ok(MultiValue::from_iter([
                    LuaValue::Nil,
                    LuaValue::String(lua.create_string(code)?),
                    LuaValue::String(lua.create_string(message)?),
                ])),
            }
        });
        methods.add_method("restore", |lua, _, (_game, cp): (LuaValue, LuaValue)| {
            let cp = match from_lua(&cp) {
                Ok(v) => crate::spelling::checkpoint_from_lua(v),
                Err(e) => {
                    return failure(
                        lua,
                        LuaValue::Boolean(false),
                        CheckpointFailure {
                            code: CheckpointCode::InvalidCheckpoint,
                            message: format!("not data: {e}"),
                        },
                    )
                }
            };
            let out = with_lent(|lent| match lent {
                Some(mut l) => l.restore(&cp),
                None => Err(not_lent()),
            });
            match out {
                Ok(()) => Ok(MultiValue::from_iter([LuaValue::Boolean(true)])),
                Err(f) => failure(lua, LuaValue::Boolean(false), f),
            }
        });
    }
}
