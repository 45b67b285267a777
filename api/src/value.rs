//! The plain-data value that crosses into scripts and checkpoints: no functions, no handles,
//! no cycles. Maps are sorted (`BTreeMap`) so encodings are deterministic.
//!
//! Any serde type converts with [`to_value`] / [`from_value`]; struct field names follow the
//! types' serde attributes (the catalog uses the Lua engine's camelCase names, e.g. `mapId`).

use std::collections::BTreeMap;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

mod convert;

pub use convert::ValueError;

#[derive(Clone, Debug, PartialEq, Default, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Value {
    #[default]
    Nil,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    List(Vec<Value>),
    Map(BTreeMap<String, Value>),
}

/// Convert any serializable value to a [`Value`]. Non-finite floats are rejected (they are not
/// data: the Lua serializer could not read them back either).
pub fn to_value<T: Serialize + ?Sized>(value: &T) -> Result<Value, ValueError> {
    value.serialize(convert::ValueSerializer)
}

/// Convert a [`Value`] into any deserializable type.
pub fn from_value<T: DeserializeOwned>(value: Value) -> Result<T, ValueError> {
    T::deserialize(value)
}

impl Value {
    /// Lua truthiness: everything except `nil` and `false` is true.
    pub fn truthy(&self) -> bool {
        !matches!(self, Value::Nil | Value::Bool(false))
    }

    pub fn is_nil(&self) -> bool {
        matches!(self, Value::Nil)
    }

    /// The value as an exact integer: an `Int`, or a finite `Float` with no fractional part
    /// (Lua numbers are floats). Strings — numeric or not — are never integers.
    pub fn as_exact_int(&self) -> Option<i64> {
        match *self {
            Value::Int(i) => Some(i),
            Value::Float(f) if f.is_finite() && f.fract() == 0.0 && f.abs() < 9.0e15 => {
                Some(f as i64)
            }
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match *self {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_list(&self) -> Option<&[Value]> {
        match self {
            Value::List(l) => Some(l),
            _ => None,
        }
    }

    pub fn as_map(&self) -> Option<&BTreeMap<String, Value>> {
        match self {
            Value::Map(m) => Some(m),
            _ => None,
        }
    }

    pub fn as_map_mut(&mut self) -> Option<&mut BTreeMap<String, Value>> {
        match self {
            Value::Map(m) => Some(m),
            _ => None,
        }
    }

    /// Field `key` of a map (`None` for non-maps and absent keys).
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.as_map().and_then(|m| m.get(key))
    }

    /// A short type name for error messages ("nil", "boolean", "integer", "number", "string",
    /// "list", "map").
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Nil => "nil",
            Value::Bool(_) => "boolean",
            Value::Int(_) => "integer",
            Value::Float(_) => "number",
            Value::Str(_) => "string",
            Value::List(_) => "list",
            Value::Map(_) => "map",
        }
    }

    /// Build a map from `(key, value)` pairs.
    pub fn map<K: Into<String>>(pairs: impl IntoIterator<Item = (K, Value)>) -> Value {
        Value::Map(pairs.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }

    /// Drop non-finite floats anywhere inside (the data-only projection rule of RFC 0016).
    pub fn without_non_finite(self) -> Value {
        match self {
            Value::Float(f) if !f.is_finite() => Value::Nil,
            Value::List(l) => Value::List(
                l.into_iter()
                    .filter(|v| !matches!(v, Value::Float(f) if !f.is_finite()))
                    .map(Value::without_non_finite)
                    .collect(),
            ),
            Value::Map(m) => Value::Map(
                m.into_iter()
                    .filter(|(_, v)| !matches!(v, Value::Float(f) if !f.is_finite()))
                    .map(|(k, v)| (k, v.without_non_finite()))
                    .collect(),
            ),
            other => other,
        }
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Self {
        Value::Bool(b)
    }
}
impl From<i64> for Value {
    fn from(i: i64) -> Self {
        Value::Int(i)
    }
}
impl From<i32> for Value {
    fn from(i: i32) -> Self {
        Value::Int(i.into())
    }
}
impl From<u32> for Value {
    fn from(i: u32) -> Self {
        Value::Int(i.into())
    }
}
impl From<f64> for Value {
    fn from(f: f64) -> Self {
        Value::Float(f)
    }
}
impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Value::Str(s.to_owned())
    }
}
impl From<String> for Value {
    fn from(s: String) -> Self {
        Value::Str(s)
    }
}
impl From<Vec<Value>> for Value {
    fn from(l: Vec<Value>) -> Self {
        Value::List(l)
    }
}
impl From<BTreeMap<String, Value>> for Value {
    fn from(m: BTreeMap<String, Value>) -> Self {
        Value::Map(m)
    }
}
