//! `Value` ↔ `Dynamic`: every value crossing the boundary is a detached copy.
//!
//! Into scripts: `nil` → `()`, booleans, integers (`i64`), floats (`f64`), strings, lists →
//! arrays, maps → object maps (sorted keys either way). Out of scripts: the same, plus a
//! `char` becomes a one-character string; shared (captured) values are read through. Handles,
//! function pointers and any other custom type are refused: only data crosses.
//!
//! A hook's typed arguments take the direct route: [`DynamicSink`] builds the `Dynamic`s from
//! the api's serde stream ([`pallet_api::script::ValueSink`]) with no `Value` tree in between —
//! the same values [`to_dynamic`] gives for `to_value` of the same arguments.

use pallet_api::script::ValueSink;
use pallet_api::value::ValueError;
use pallet_api::Value;
use rhai::{Array, Dynamic, FnArgsVec, Identifier, Map};

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

/// A [`ValueSink`] building Rhai values: every complete top-level value is appended to the
/// argument vector (a link call's arguments after `next`).
#[derive(Default)]
pub struct DynamicSink {
    /// Completed top-level values.
    pub args: FnArgsVec<Dynamic>,
    /// Open lists and maps, innermost last (kept across calls for its capacity).
    stack: Vec<Frame>,
}

/// An open container of a [`DynamicSink`].
pub enum Frame {
    List(Array),
    /// A map and the key of the value being built.
    Map(Map, Identifier),
}

impl DynamicSink {
    /// A sink whose argument vector starts with `first` (the link's `next`), reusing `stack`'s
    /// allocation.
    pub fn new(first: Dynamic, stack: Vec<Frame>) -> Self {
        let mut args = FnArgsVec::new();
        args.push(first);
        DynamicSink { args, stack }
    }

    /// The argument vector, and the (emptied) frame stack for reuse. `None` when the stream
    /// left a container open (a conversion that failed midway).
    pub fn finish(mut self) -> (Option<FnArgsVec<Dynamic>>, Vec<Frame>) {
        let complete = self.stack.is_empty();
        self.stack.clear();
        (complete.then_some(self.args), self.stack)
    }

    #[inline]
    fn put(&mut self, v: Dynamic) {
        match self.stack.last_mut() {
            None => self.args.push(v),
            Some(Frame::List(items)) => items.push(v),
            Some(Frame::Map(map, key)) => {
                map.insert(std::mem::take(key), v);
            }
        }
    }
}

impl ValueSink for DynamicSink {
    fn unit(&mut self) {
        self.put(Dynamic::UNIT);
    }
    fn bool(&mut self, v: bool) {
        self.put(Dynamic::from_bool(v));
    }
    fn int(&mut self, v: i64) {
        self.put(Dynamic::from_int(v));
    }
    fn float(&mut self, v: f64) {
        self.put(Dynamic::from_float(v));
    }
    fn str(&mut self, v: &str) {
        self.put(Dynamic::from(rhai::ImmutableString::from(v)));
    }
    fn begin_list(&mut self, len_hint: usize) -> Result<(), ValueError> {
        self.stack
            .push(Frame::List(Array::with_capacity(len_hint.min(4096))));
        Ok(())
    }
    fn begin_map(&mut self, _len_hint: usize) -> Result<(), ValueError> {
        self.stack.push(Frame::Map(Map::new(), Identifier::new()));
        Ok(())
    }
    fn key(&mut self, key: &str) {
        if let Some(Frame::Map(_, pending)) = self.stack.last_mut() {
            *pending = key.into();
        }
    }
    fn end(&mut self) {
        let v = match self.stack.pop() {
            Some(Frame::List(items)) => Dynamic::from_array(items),
            Some(Frame::Map(map, _)) => Dynamic::from_map(map),
            None => return,
        };
        self.put(v);
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
    fn the_direct_route_gives_the_same_values() {
        use serde::Serialize;
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Ctx {
            map_id: &'static str,
            absent: Option<u8>,
            list: Vec<Option<f64>>,
            record: Value,
        }
        let ctx = Ctx {
            map_id: "VERMILION_DOCK",
            absent: None,
            list: vec![Some(1.5), None],
            record: Value::map([("b", Value::Nil), ("a", Value::Int(1))]),
        };
        let mut sink = DynamicSink::new(Dynamic::UNIT, Vec::new());
        pallet_api::script::to_sink(&ctx, &mut sink).unwrap();
        pallet_api::script::to_sink(&7u8, &mut sink).unwrap();
        let (args, _) = sink.finish();
        let args = args.unwrap();
        assert_eq!(args.len(), 3);
        let via_value = to_dynamic(&pallet_api::value::to_value(&ctx).unwrap());
        assert_eq!(from_dynamic(&args[1]), from_dynamic(&via_value));
        assert_eq!(args[1].to_string(), via_value.to_string());
        assert_eq!(args[2].as_int(), Ok(7));
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
