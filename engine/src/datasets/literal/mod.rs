//! The restricted literal grammar of generated dataset modules: a Lua-style table literal
//! behind `return`, written by [`encode_module`] and read by the bounded [`decode`] (which
//! never executes anything).
//!
//! Tables map to [`Value`]: string keys give a `Map`, keys exactly `1..n` (positional or
//! `[i] =`) give a `List`. `{}` reads as an empty `Map` (Lua cannot tell an empty list from an
//! empty map); [`canonical_empty`] is the normalization round-trips are compared under.

mod decode;
mod encode;

pub use decode::{decode, DecodeError, DecodeErrorKind, Limits};
pub use encode::{encode_module, is_bare_key, write_string, EncodeError, MAX_ENCODE_DEPTH};

use pallet_api::Value;

/// `value` with every empty list turned into an empty map (what a decode of its encoding
/// gives), and `nil` map entries dropped (the writer skips them).
pub fn canonical_empty(value: Value) -> Value {
    match value {
        Value::List(l) if l.is_empty() => Value::Map(Default::default()),
        Value::List(l) => Value::List(l.into_iter().map(canonical_empty).collect()),
        Value::Map(m) => Value::Map(
            m.into_iter()
                .filter(|(_, v)| !v.is_nil())
                .map(|(k, v)| (k, canonical_empty(v)))
                .collect(),
        ),
        other => other,
    }
}

#[cfg(test)]
mod tests;
