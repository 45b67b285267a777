//! A small declarative schema for registry records, with errors that point at the field
//! (`pokemon.PIKACHU.baseStats.hp: expected an integer in 1..=255, got string`).
//!
//! Unknown fields are tolerated (mods attach their own data to records); known fields are
//! checked; required fields must be present.

use std::fmt;

use crate::value::Value;

/// The shape a value must have.
#[derive(Debug)]
pub enum Shape {
    /// Anything (data-only by construction).
    Any,
    Bool,
    /// An exact integer (an integral float counts) within `min..=max`.
    Int {
        min: i64,
        max: i64,
    },
    /// Any finite number.
    Number,
    /// A non-empty string.
    Str,
    /// One of these strings.
    OneOf(&'static [&'static str]),
    /// A list of `item`s with `min..=max` entries.
    List {
        item: &'static Shape,
        min: usize,
        max: usize,
    },
    /// A map with arbitrary keys whose values are `value`s.
    MapOf(&'static Shape),
    /// A record with known fields.
    Record(&'static [Field]),
}

/// One known field of a record.
#[derive(Debug)]
pub struct Field {
    pub name: &'static str,
    pub shape: &'static Shape,
    pub required: bool,
}

impl Field {
    pub const fn req(name: &'static str, shape: &'static Shape) -> Field {
        Field {
            name,
            shape,
            required: true,
        }
    }
    pub const fn opt(name: &'static str, shape: &'static Shape) -> Field {
        Field {
            name,
            shape,
            required: false,
        }
    }
}

/// A schema violation at `path`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemaError {
    pub path: String,
    pub message: String,
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

impl std::error::Error for SchemaError {}

fn describe(shape: &Shape) -> String {
    match shape {
        Shape::Any => "any value".into(),
        Shape::Bool => "a boolean".into(),
        Shape::Int { min, max } => format!("an integer in {min}..={max}"),
        Shape::Number => "a finite number".into(),
        Shape::Str => "a non-empty string".into(),
        Shape::OneOf(options) => format!("one of {}", options.join("|")),
        Shape::List { min, max, .. } => format!("a list of {min}..={max} entries"),
        Shape::MapOf(_) => "a map".into(),
        Shape::Record(_) => "a record (map)".into(),
    }
}

fn got(value: &Value) -> String {
    match value {
        Value::Str(s) => format!("string {s:?}"),
        Value::Int(i) => format!("integer {i}"),
        Value::Float(f) => format!("number {f}"),
        other => other.type_name().to_owned(),
    }
}

/// Check `value` against `shape`; the first violation wins (deterministic: fields in
/// declaration order, map keys in sorted order).
pub fn check(shape: &Shape, value: &Value, path: &str) -> Result<(), SchemaError> {
    let fail = || SchemaError {
        path: path.to_owned(),
        message: format!("expected {}, got {}", describe(shape), got(value)),
    };
    match shape {
        Shape::Any => Ok(()),
        Shape::Bool => value.as_bool().map(|_| ()).ok_or_else(fail),
        Shape::Int { min, max } => match value.as_exact_int() {
            Some(i) if (*min..=*max).contains(&i) => Ok(()),
            _ => Err(fail()),
        },
        Shape::Number => match value {
            Value::Int(_) => Ok(()),
            Value::Float(f) if f.is_finite() => Ok(()),
            _ => Err(fail()),
        },
        Shape::Str => match value {
            Value::Str(s) if !s.is_empty() => Ok(()),
            _ => Err(fail()),
        },
        Shape::OneOf(options) => match value {
            Value::Str(s) if options.contains(&s.as_str()) => Ok(()),
            _ => Err(fail()),
        },
        Shape::List { item, min, max } => {
            let items = value.as_list().ok_or_else(fail)?;
            if items.len() < *min || items.len() > *max {
                return Err(fail());
            }
            for (i, v) in items.iter().enumerate() {
                check(item, v, &format!("{path}[{}]", i + 1))?;
            }
            Ok(())
        }
        Shape::MapOf(inner) => {
            let map = value.as_map().ok_or_else(fail)?;
            for (k, v) in map {
                check(inner, v, &format!("{path}.{k}"))?;
            }
            Ok(())
        }
        Shape::Record(fields) => {
            let map = value.as_map().ok_or_else(fail)?;
            for field in fields.iter() {
                let field_path = format!("{path}.{}", field.name);
                match map.get(field.name) {
                    None | Some(Value::Nil) if field.required => {
                        return Err(SchemaError {
                            path: field_path,
                            message: format!(
                                "required field missing (expected {})",
                                describe(field.shape)
                            ),
                        })
                    }
                    None | Some(Value::Nil) => {}
                    Some(v) => check(field.shape, v, &field_path)?,
                }
            }
            Ok(())
        }
    }
}

/// Read every empty table in `value` as whatever `shape` expects at that place (issue 18): a
/// Lua `{}` crosses as an empty list, so an empty list where a map or record is expected
/// becomes an empty map, and an empty map where a list is expected an empty list. Known record
/// fields, list items and map values are followed; nothing else changes.
pub fn conform(shape: &Shape, value: &mut Value) {
    match (shape, &mut *value) {
        (Shape::MapOf(_) | Shape::Record(_), Value::List(l)) if l.is_empty() => {
            *value = Value::Map(Default::default());
        }
        (Shape::List { .. }, Value::Map(m)) if m.is_empty() => *value = Value::List(Vec::new()),
        (Shape::List { item, .. }, Value::List(items)) => {
            for v in items {
                conform(item, v);
            }
        }
        (Shape::MapOf(inner), Value::Map(m)) => {
            for v in m.values_mut() {
                conform(inner, v);
            }
        }
        (Shape::Record(fields), Value::Map(m)) => {
            for field in fields.iter() {
                if let Some(v) = m.get_mut(field.name) {
                    conform(field.shape, v);
                }
            }
        }
        _ => {}
    }
}
