//! One-line messages for Lua failures (the chain's diagnostics feed wants one line per failure;
//! mlua errors carry tracebacks and wrapped causes).

use mlua::{Error, Lua, MultiValue, Value as LuaValue};
use pallet_api::budget::BUDGET_EXHAUSTED;

/// A `next` called while its own downstream runs.
pub const NEXT_REENTRANT: &str =
    "next cannot be called re-entrantly (from inside its own downstream)";
/// A `next` kept past its link's call.
pub const NEXT_STALE: &str =
    "next can only be called while its link runs (this one was kept past its call)";

/// What a budget stop reads as in the feed.
pub const BUDGET_MESSAGE: &str =
    "operation budget exhausted (the per-dispatch limit covers the whole chain)";

fn first_line(s: &str) -> String {
    pallet_api::cut_message(s.lines().next().unwrap_or("").trim_end())
}

/// The innermost cause of `e`, on one line. Budget stops and memory errors read as such.
pub fn short(e: &Error) -> String {
    let text = match e {
        Error::CallbackError { cause, .. } => return short(cause),
        Error::WithContext { cause, .. } => return short(cause),
        Error::RuntimeError(m) => first_line(m),
        Error::SyntaxError { message, .. } => first_line(message),
        Error::MemoryError(_) => format!(
            "memory limit exceeded ({} MiB per mod)",
            crate::limits::MEMORY_LIMIT / (1024 * 1024)
        ),
        Error::RecursiveMutCallback => NEXT_REENTRANT.to_owned(),
        Error::CallbackDestructed => NEXT_STALE.to_owned(),
        other => first_line(&other.to_string()),
    };
    if text.contains(BUDGET_EXHAUSTED) {
        BUDGET_MESSAGE.to_owned()
    } else {
        text
    }
}

/// Lua's own out-of-memory message (what a raw `pcall` returns for `LUA_ERRMEM`).
const LUA_MEMERRMSG: &str = "not enough memory";

/// What a memory error re-raised past a `pcall` carries.
pub const MEMORY_STOP: &str = "memory limit exceeded (re-raised past pcall)";

/// Is a value caught by a raw `pcall` a memory error?
pub fn is_memory_error(v: Option<&mlua::Value>) -> bool {
    match v {
        Some(mlua::Value::String(s)) => s.as_bytes().as_ref() == LUA_MEMERRMSG.as_bytes(),
        Some(mlua::Value::Error(e)) => is_memory(e),
        _ => false,
    }
}

fn is_memory(e: &Error) -> bool {
    match e {
        Error::CallbackError { cause, .. } | Error::WithContext { cause, .. } => is_memory(cause),
        Error::MemoryError(_) => true,
        _ => false,
    }
}

/// A failure no mod code may swallow: a budget stop or a memory error.
pub fn is_stop(e: &Error) -> bool {
    is_memory(e) || short(e) == BUDGET_MESSAGE
}

/// `nil, reason` as the Lua engine's APIs return a refusal.
pub(crate) fn nil_reason(lua: &Lua, reason: &str) -> mlua::Result<MultiValue> {
    Ok(MultiValue::from_iter([
        LuaValue::Nil,
        LuaValue::String(lua.create_string(reason)?),
    ]))
}

/// `nil, reason, message`: a refusal with its stable reason and a readable message (the
/// `world` and `input` facades).
pub(crate) fn nil_reason_message(
    lua: &Lua,
    reason: &str,
    message: &str,
) -> mlua::Result<MultiValue> {
    Ok(MultiValue::from_iter([
        LuaValue::Nil,
        LuaValue::String(lua.create_string(reason)?),
        LuaValue::String(lua.create_string(message)?),
    ]))
}
