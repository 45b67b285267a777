//! `Value` ↔ `Dynamic`: every value crossing the boundary is a detached copy.
//!
//! Into scripts: `nil` → `()`, booleans, integers (`i64`), floats (`f64`), strings, lists →
//! arrays, maps → object maps (sorted keys either way). Out of scripts: the same, plus a
//! `char` becomes a one-character string; shared (captured) values are read through. Handles,
//! function pointers and any other custom type are refused: only data crosses.

use pallet_api::Value;
use rhai::{Array, Dynamic, Map};

use super::limits::LIMITS;

/// A detached script value for `v`.
pub fn to_dynamic(v: &Value) -> Dynamic {
    match v {
        Value::Nil => Dynamic::UNIT,
        Value::Bool(b) => Dynamic::from_bool(*b),
        Value::Int(i) => Dynamic::from_int(*i),
        Value::Float(f) => Dynamic::from_float(*f),
        Value::Str(s) => Dynamic::from(s.clone()),
        Value::List(l) => Dynamic::from_array(l.iter().map(to_dynamic).collect::<Array>()),
        Value::Map(m) => {
            // Keys arrive sorted: plain inserts (no collect-sort-dedup pass).
            let mut map = Map::new();
            for (k, v) in m {
                map.insert(k.as_str().into(), to_dynamic(v));
            }
            Dynamic::from_map(map)
        }
    }
}

/// [`to_dynamic`] consuming `v` (moves strings and map keys instead of cloning them).
pub fn into_dynamic(v: Value) -> Dynamic {
    match v {
        Value::Nil => Dynamic::UNIT,
        Value::Bool(b) => Dynamic::from_bool(b),
        Value::Int(i) => Dynamic::from_int(i),
        Value::Float(f) => Dynamic::from_float(f),
        Value::Str(s) => Dynamic::from(s),
        Value::List(l) => Dynamic::from_array(l.into_iter().map(into_dynamic).collect::<Array>()),
        Value::Map(m) => {
            let mut map = Map::new();
            for (k, v) in m {
                map.insert(k.into(), into_dynamic(v));
            }
            Dynamic::from_map(map)
        }
    }
}

/// A detached engine value for the script value `d`. Errors name what could not cross.
pub fn from_dynamic(d: &Dynamic) -> Result<Value, String> {
    convert(d, 0)
}

fn convert(d: &Dynamic, depth: usize) -> Result<Value, String> {
    if depth > LIMITS.max_value_depth {
        return Err(format!(
            "value nested deeper than {} levels",
            LIMITS.max_value_depth
        ));
    }
    if d.is_shared() {
        return convert(&d.flatten_clone(), depth);
    }
    if d.is_unit() {
        return Ok(Value::Nil);
    }
    if let Ok(b) = d.as_bool() {
        return Ok(Value::Bool(b));
    }
    if let Ok(i) = d.as_int() {
        return Ok(Value::Int(i));
    }
    if let Ok(f) = d.as_float() {
        if !f.is_finite() {
            return Err("a non-finite number is not data".to_owned());
        }
        return Ok(Value::Float(f));
    }
    if let Ok(c) = d.as_char() {
        return Ok(Value::Str(c.to_string()));
    }
    if let Some(s) = d.read_lock::<rhai::ImmutableString>() {
        return Ok(Value::Str(s.as_str().to_owned()));
    }
    if let Some(a) = d.read_lock::<Array>() {
        return a
            .iter()
            .map(|x| convert(x, depth + 1))
            .collect::<Result<Vec<_>, _>>()
            .map(Value::List);
    }
    if let Some(m) = d.read_lock::<Map>() {
        return m
            .iter()
            .map(|(k, v)| Ok((k.to_string(), convert(v, depth + 1)?)))
            .collect::<Result<_, String>>()
            .map(Value::Map);
    }
    Err(format!(
        "a value of type {} is not data (only (), bool, int, float, string, array and map cross)",
        d.type_name()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_is_identity_for_data() {
        let v = Value::map([
            (
                "a",
                Value::List(vec![Value::Int(1), Value::Float(2.5), Value::Nil]),
            ),
            ("b", Value::Str("x".into())),
            ("c", Value::Bool(true)),
            ("d", Value::map([("mapId", Value::from("VERMILION_DOCK"))])),
        ]);
        assert_eq!(from_dynamic(&to_dynamic(&v)).unwrap(), v);
        assert_eq!(from_dynamic(&into_dynamic(v.clone())).unwrap(), v);
    }

    #[test]
    fn non_data_is_refused() {
        let fp = Dynamic::from(rhai::FnPtr::new("f").unwrap());
        assert!(from_dynamic(&fp).unwrap_err().contains("not data"));
        assert!(from_dynamic(&Dynamic::from_float(f64::NAN)).is_err());
        let mut deep = Dynamic::UNIT;
        for _ in 0..100 {
            deep = Dynamic::from_array(vec![deep]);
        }
        assert!(from_dynamic(&deep).unwrap_err().contains("nested"));
    }
}
