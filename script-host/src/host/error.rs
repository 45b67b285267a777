//! The one failure convention of the Rhai API: a failing API call throws a catchable error
//! whose value is a map `#{ code: <reason>, message: <text> }`. `code` is the RFC reason string
//! where an RFC defines one (`"map is not active"`, `"not_imported"`, …) and one of the host
//! codes below otherwise.
//!
//! ```rhai
//! try { world.active_block_at("VERMILION_DOCK", 7, 1) }
//! catch (e) { if e.code == "map is not active" { /* … */ } }
//! ```

use rhai::{Dynamic, EvalAltResult, Map, Position};

/// Host codes (no RFC defines these).
pub mod codes {
    /// `hooks.wrap` of a name that is not in the hook catalog.
    pub const UNKNOWN_HOOK: &str = "unknown_hook";
    /// `events.on`/`once` of a name that is neither a catalog event nor `mod.<id>.*`.
    pub const UNKNOWN_EVENT: &str = "unknown_event";
    /// `events.emit` outside the mod's own `mod.<id>.*` namespace.
    pub const FORBIDDEN_EVENT: &str = "forbidden_event";
    /// `next.call(...)` with the wrong arity or argument types.
    pub const BAD_NEXT_ARGUMENTS: &str = "bad_next_arguments";
    /// `next.call(...)` outside its link (stored and called later, or re-entered).
    pub const NEXT_UNAVAILABLE: &str = "next_unavailable";
    /// A value that is not data (a handle, a function) or not valid for the call.
    pub const INVALID_VALUE: &str = "invalid_value";
    /// A facade that this build does not provide yet (checkpoints; datasets without a
    /// dataset service).
    pub const NOT_AVAILABLE: &str = "not_available";
    /// The engine's runtime is gone (the game was dropped).
    pub const NO_RUNTIME: &str = "no_runtime";
    /// A `save` key that is empty or too long.
    pub const INVALID_KEY: &str = "invalid_key";
    /// A per-mod quota is full (the message names the limit, e.g. `events.max_listeners`).
    pub const LIMIT: &str = "limit_exceeded";
}

/// The thrown error value `#{code, message}`.
pub fn error_map(code: &str, message: impl Into<String>) -> Dynamic {
    let mut m = Map::new();
    m.insert("code".into(), Dynamic::from(code.to_owned()));
    m.insert("message".into(), Dynamic::from(message.into()));
    Dynamic::from_map(m)
}

/// A catchable API error.
pub fn api_error(code: &str, message: impl Into<String>) -> Box<EvalAltResult> {
    Box::new(EvalAltResult::ErrorRuntime(
        error_map(code, message),
        Position::NONE,
    ))
}

/// `(code, message)` of a thrown API error value, if `d` is one.
pub fn read_error_map(d: &Dynamic) -> Option<(String, String)> {
    let m = d.read_lock::<Map>()?;
    let code = m.get("code")?.clone().into_string().ok()?;
    let message = m
        .get("message")
        .and_then(|v| v.clone().into_string().ok())
        .unwrap_or_default();
    Some((code, message))
}
