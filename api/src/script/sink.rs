//! Typed values straight into a host's own value type: [`ValueSink`] (an object-safe builder a
//! script host implements for its values — Rhai `Dynamic`, Lua tables) and [`to_sink`], a serde
//! `Serializer` that drives it.
//!
//! The stream a sink receives describes exactly the tree [`to_value`](crate::value::to_value)
//! would build, without building it: the same field names, integers as `i64` (out of range is an
//! error), finite floats only (non-finite is an error), `None`/unit as nil, enums as in
//! `to_value` (unit variant → its name; newtype/tuple/struct variant → a one-entry map), and a
//! nil struct field or map value is an *absent* entry (as in a Lua table: the key is never sent).
//! Hosts convert a hook's arguments once per link call this way instead of going through a
//! [`Value`] tree and then converting that tree (two allocations per node).
//!
//! [`ValueBuilder`] is the reference sink: it builds the `Value` itself (parity tests compare it
//! with `to_value`).

use std::collections::BTreeMap;

use serde::ser::{self, Serialize};

use crate::value::{Value, ValueError};

/// A builder of one host value, fed by [`to_sink`].
///
/// The stream is a value: a scalar call, or `begin_list` … `end` / `begin_map` … `end` around
/// nested values. Inside a map every value is preceded by exactly one [`key`](Self::key) (keys
/// are unique within one map unless the serialized type itself repeats them, in which case the
/// later value replaces the earlier). Nil (`unit`) only reaches a map through an enum variant's
/// payload; absent fields are simply not sent. Length hints are exact for lists and structs and
/// may be 0 for maps of unknown size.
pub trait ValueSink {
    fn unit(&mut self);
    fn bool(&mut self, v: bool);
    fn int(&mut self, v: i64);
    fn float(&mut self, v: f64);
    fn str(&mut self, v: &str);
    fn begin_list(&mut self, len_hint: usize);
    fn begin_map(&mut self, len_hint: usize);
    /// The key of the next value in the innermost open map.
    fn key(&mut self, key: &str);
    /// Close the innermost open list or map.
    fn end(&mut self);
}

/// Serialize `value` into `sink`. On `Err` the sink holds a partial value the caller discards.
pub fn to_sink<T: Serialize + ?Sized>(
    value: &T,
    sink: &mut dyn ValueSink,
) -> Result<(), ValueError> {
    value.serialize(SinkSerializer { sink, key: None })
}

/// The reference [`ValueSink`]: builds [`Value`]s (one per complete top-level value).
#[derive(Default)]
pub struct ValueBuilder {
    stack: Vec<Frame>,
    done: Vec<Value>,
}

enum Frame {
    List(Vec<Value>),
    Map(BTreeMap<String, Value>, Option<String>),
}

impl ValueBuilder {
    pub fn new() -> Self {
        Self::default()
    }

    /// The one finished value (`None` if the stream was incomplete or held several values).
    pub fn finish(self) -> Option<Value> {
        match self.into_values() {
            Some(mut values) if values.len() == 1 => values.pop(),
            _ => None,
        }
    }

    /// Every finished top-level value, in order (`None` if the stream was incomplete) — e.g.
    /// a hook's positional arguments from [`ArgList::write_args`](super::ArgList::write_args).
    pub fn into_values(self) -> Option<Vec<Value>> {
        self.stack.is_empty().then_some(self.done)
    }

    fn put(&mut self, v: Value) {
        match self.stack.last_mut() {
            Some(Frame::List(items)) => items.push(v),
            Some(Frame::Map(map, key)) => {
                if let Some(k) = key.take() {
                    map.insert(k, v);
                }
            }
            None => self.done.push(v),
        }
    }
}

impl ValueSink for ValueBuilder {
    fn unit(&mut self) {
        self.put(Value::Nil);
    }
    fn bool(&mut self, v: bool) {
        self.put(Value::Bool(v));
    }
    fn int(&mut self, v: i64) {
        self.put(Value::Int(v));
    }
    fn float(&mut self, v: f64) {
        self.put(Value::Float(v));
    }
    fn str(&mut self, v: &str) {
        self.put(Value::Str(v.to_owned()));
    }
    fn begin_list(&mut self, len_hint: usize) {
        self.stack
            .push(Frame::List(Vec::with_capacity(len_hint.min(4096))));
    }
    fn begin_map(&mut self, _len_hint: usize) {
        self.stack.push(Frame::Map(BTreeMap::new(), None));
    }
    fn key(&mut self, key: &str) {
        if let Some(Frame::Map(_, pending)) = self.stack.last_mut() {
            *pending = Some(key.to_owned());
        }
    }
    fn end(&mut self) {
        let v = match self.stack.pop() {
            Some(Frame::List(items)) => Value::List(items),
            Some(Frame::Map(map, _)) => Value::Map(map),
            None => return,
        };
        self.put(v);
    }
}

// ------------------------------------------------------------------------------------------
// The serializer
// ------------------------------------------------------------------------------------------

/// Serializes one value into the sink. `key` is the map key this value is filed under, sent
/// only once the value turns out not to be nil (a nil field is an absent field).
struct SinkSerializer<'s, 'k> {
    sink: &'s mut dyn ValueSink,
    key: Option<&'k str>,
}

impl SinkSerializer<'_, '_> {
    #[inline]
    fn open(&mut self) {
        if let Some(k) = self.key {
            self.sink.key(k);
        }
    }
    #[inline]
    fn nil(self) -> Result<(), ValueError> {
        if self.key.is_none() {
            self.sink.unit();
        }
        Ok(())
    }
    #[inline]
    fn int(mut self, v: i64) -> Result<(), ValueError> {
        self.open();
        self.sink.int(v);
        Ok(())
    }
    fn int_in_range<I: TryInto<i64>>(self, v: I) -> Result<(), ValueError> {
        match v.try_into() {
            Ok(i) => self.int(i),
            Err(_) => Err(ValueError::new("integer out of range")),
        }
    }
    fn float(mut self, v: f64) -> Result<(), ValueError> {
        if !v.is_finite() {
            return Err(ValueError::new("non-finite number is not data"));
        }
        self.open();
        self.sink.float(v);
        Ok(())
    }
    /// Open a `{variant: …}` wrapper map (enum variants with a payload).
    fn open_variant(&mut self, variant: &str) {
        self.open();
        self.sink.begin_map(1);
        self.sink.key(variant);
    }
}

impl<'s> ser::Serializer for SinkSerializer<'s, '_> {
    type Ok = ();
    type Error = ValueError;
    type SerializeSeq = SinkSeq<'s>;
    type SerializeTuple = SinkSeq<'s>;
    type SerializeTupleStruct = SinkSeq<'s>;
    type SerializeTupleVariant = SinkSeq<'s>;
    type SerializeMap = SinkMap<'s>;
    type SerializeStruct = SinkMap<'s>;
    type SerializeStructVariant = SinkMap<'s>;

    fn serialize_bool(mut self, v: bool) -> Result<(), ValueError> {
        self.open();
        self.sink.bool(v);
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result<(), ValueError> {
        self.int(v.into())
    }
    fn serialize_i16(self, v: i16) -> Result<(), ValueError> {
        self.int(v.into())
    }
    fn serialize_i32(self, v: i32) -> Result<(), ValueError> {
        self.int(v.into())
    }
    fn serialize_i64(self, v: i64) -> Result<(), ValueError> {
        self.int(v)
    }
    fn serialize_i128(self, v: i128) -> Result<(), ValueError> {
        self.int_in_range(v)
    }
    fn serialize_u8(self, v: u8) -> Result<(), ValueError> {
        self.int(v.into())
    }
    fn serialize_u16(self, v: u16) -> Result<(), ValueError> {
        self.int(v.into())
    }
    fn serialize_u32(self, v: u32) -> Result<(), ValueError> {
        self.int(v.into())
    }
    fn serialize_u64(self, v: u64) -> Result<(), ValueError> {
        self.int_in_range(v)
    }
    fn serialize_u128(self, v: u128) -> Result<(), ValueError> {
        self.int_in_range(v)
    }
    fn serialize_f32(self, v: f32) -> Result<(), ValueError> {
        self.float(v.into())
    }
    fn serialize_f64(self, v: f64) -> Result<(), ValueError> {
        self.float(v)
    }
    fn serialize_char(mut self, v: char) -> Result<(), ValueError> {
        self.open();
        self.sink.str(v.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    fn serialize_str(mut self, v: &str) -> Result<(), ValueError> {
        self.open();
        self.sink.str(v);
        Ok(())
    }
    fn serialize_bytes(mut self, v: &[u8]) -> Result<(), ValueError> {
        self.open();
        self.sink.begin_list(v.len());
        for b in v {
            self.sink.int((*b).into());
        }
        self.sink.end();
        Ok(())
    }
    fn serialize_none(self) -> Result<(), ValueError> {
        self.nil()
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), ValueError> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), ValueError> {
        self.nil()
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), ValueError> {
        self.nil()
    }
    fn serialize_unit_variant(
        mut self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<(), ValueError> {
        self.open();
        self.sink.str(variant);
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), ValueError> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        mut self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), ValueError> {
        self.open_variant(variant);
        // The payload is kept even when nil (`to_value` builds `{variant: nil}`).
        value.serialize(SinkSerializer {
            sink: &mut *self.sink,
            key: None,
        })?;
        self.sink.end();
        Ok(())
    }
    fn serialize_seq(mut self, len: Option<usize>) -> Result<SinkSeq<'s>, ValueError> {
        self.open();
        self.sink.begin_list(len.unwrap_or(0));
        Ok(SinkSeq {
            sink: self.sink,
            variant: false,
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<SinkSeq<'s>, ValueError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        len: usize,
    ) -> Result<SinkSeq<'s>, ValueError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        mut self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<SinkSeq<'s>, ValueError> {
        self.open_variant(variant);
        self.sink.begin_list(len);
        Ok(SinkSeq {
            sink: self.sink,
            variant: true,
        })
    }
    fn serialize_map(mut self, len: Option<usize>) -> Result<SinkMap<'s>, ValueError> {
        self.open();
        self.sink.begin_map(len.unwrap_or(0));
        Ok(SinkMap {
            sink: self.sink,
            key: String::new(),
            has_key: false,
            variant: false,
        })
    }
    fn serialize_struct(mut self, _: &'static str, len: usize) -> Result<SinkMap<'s>, ValueError> {
        self.open();
        self.sink.begin_map(len);
        Ok(SinkMap {
            sink: self.sink,
            key: String::new(),
            has_key: false,
            variant: false,
        })
    }
    fn serialize_struct_variant(
        mut self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<SinkMap<'s>, ValueError> {
        self.open_variant(variant);
        self.sink.begin_map(len);
        Ok(SinkMap {
            sink: self.sink,
            key: String::new(),
            has_key: false,
            variant: true,
        })
    }
}

/// An open list (or a tuple variant's list inside its `{variant: …}` map).
struct SinkSeq<'s> {
    sink: &'s mut dyn ValueSink,
    variant: bool,
}

impl SinkSeq<'_> {
    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), ValueError> {
        value.serialize(SinkSerializer {
            sink: &mut *self.sink,
            key: None,
        })
    }
    fn finish(self) -> Result<(), ValueError> {
        self.sink.end();
        if self.variant {
            self.sink.end();
        }
        Ok(())
    }
}

macro_rules! seq_impl {
    ($($tr:ident :: $method:ident),+) => {$(
        impl ser::$tr for SinkSeq<'_> {
            type Ok = ();
            type Error = ValueError;
            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), ValueError> {
                self.element(value)
            }
            fn end(self) -> Result<(), ValueError> {
                self.finish()
            }
        }
    )+};
}
seq_impl!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

/// An open map or struct (or a struct variant's map inside its `{variant: …}` map).
struct SinkMap<'s> {
    sink: &'s mut dyn ValueSink,
    /// The pending key of a `serialize_key` / `serialize_value` pair (a buffer reused across
    /// the map's entries) and whether one is pending.
    key: String,
    has_key: bool,
    variant: bool,
}

impl SinkMap<'_> {
    fn field<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> Result<(), ValueError> {
        value.serialize(SinkSerializer {
            sink: &mut *self.sink,
            key: Some(key),
        })
    }
    fn finish(self) -> Result<(), ValueError> {
        self.sink.end();
        if self.variant {
            self.sink.end();
        }
        Ok(())
    }
}

impl ser::SerializeMap for SinkMap<'_> {
    type Ok = ();
    type Error = ValueError;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), ValueError> {
        self.key.clear();
        match key.serialize(KeySerializer(&mut self.key)) {
            Ok(()) => {
                self.has_key = true;
                Ok(())
            }
            Err(e) if e.message() == NOT_A_KEY => Err(key_error(key)),
            Err(e) => Err(e),
        }
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), ValueError> {
        if !std::mem::take(&mut self.has_key) {
            return Err(ValueError::new("map value without key"));
        }
        value.serialize(SinkSerializer {
            sink: &mut *self.sink,
            key: Some(&self.key),
        })
    }
    fn end(self) -> Result<(), ValueError> {
        self.finish()
    }
}

const NOT_A_KEY: &str = "\u{0}not a key";

/// The error `to_value` gives for a key that is not a string, integer or boolean.
#[cold]
fn key_error<T: Serialize + ?Sized>(key: &T) -> ValueError {
    match crate::value::to_value(key) {
        Ok(other) => ValueError::new(format!(
            "map key must be a string or integer, got {}",
            other.type_name()
        )),
        Err(e) => e,
    }
}

/// Writes a map key's text (the `to_value` key rule: strings as they are, integers and booleans
/// as text) into a reused buffer; anything else answers [`NOT_A_KEY`].
struct KeySerializer<'b>(&'b mut String);

impl KeySerializer<'_> {
    fn int<I: TryInto<i64>>(self, v: I) -> Result<(), ValueError> {
        use std::fmt::Write;
        match v.try_into() {
            Ok(i) => {
                let _ = write!(self.0, "{i}");
                Ok(())
            }
            Err(_) => Err(ValueError::new("integer out of range")),
        }
    }
}

fn not_a_key<T>() -> Result<T, ValueError> {
    Err(ValueError::new(NOT_A_KEY))
}

impl ser::Serializer for KeySerializer<'_> {
    type Ok = ();
    type Error = ValueError;
    type SerializeSeq = ser::Impossible<(), ValueError>;
    type SerializeTuple = ser::Impossible<(), ValueError>;
    type SerializeTupleStruct = ser::Impossible<(), ValueError>;
    type SerializeTupleVariant = ser::Impossible<(), ValueError>;
    type SerializeMap = ser::Impossible<(), ValueError>;
    type SerializeStruct = ser::Impossible<(), ValueError>;
    type SerializeStructVariant = ser::Impossible<(), ValueError>;

    fn serialize_bool(self, v: bool) -> Result<(), ValueError> {
        self.0.push_str(if v { "true" } else { "false" });
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result<(), ValueError> {
        self.int(v)
    }
    fn serialize_i16(self, v: i16) -> Result<(), ValueError> {
        self.int(v)
    }
    fn serialize_i32(self, v: i32) -> Result<(), ValueError> {
        self.int(v)
    }
    fn serialize_i64(self, v: i64) -> Result<(), ValueError> {
        self.int(v)
    }
    fn serialize_i128(self, v: i128) -> Result<(), ValueError> {
        self.int(v)
    }
    fn serialize_u8(self, v: u8) -> Result<(), ValueError> {
        self.int(v)
    }
    fn serialize_u16(self, v: u16) -> Result<(), ValueError> {
        self.int(v)
    }
    fn serialize_u32(self, v: u32) -> Result<(), ValueError> {
        self.int(v)
    }
    fn serialize_u64(self, v: u64) -> Result<(), ValueError> {
        self.int(v)
    }
    fn serialize_u128(self, v: u128) -> Result<(), ValueError> {
        self.int(v)
    }
    fn serialize_f32(self, _: f32) -> Result<(), ValueError> {
        not_a_key()
    }
    fn serialize_f64(self, _: f64) -> Result<(), ValueError> {
        not_a_key()
    }
    fn serialize_char(self, v: char) -> Result<(), ValueError> {
        self.0.push(v);
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result<(), ValueError> {
        self.0.push_str(v);
        Ok(())
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<(), ValueError> {
        not_a_key()
    }
    fn serialize_none(self) -> Result<(), ValueError> {
        not_a_key()
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), ValueError> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), ValueError> {
        not_a_key()
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), ValueError> {
        not_a_key()
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<(), ValueError> {
        self.0.push_str(variant);
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), ValueError> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), ValueError> {
        not_a_key()
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, ValueError> {
        not_a_key()
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, ValueError> {
        not_a_key()
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, ValueError> {
        not_a_key()
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, ValueError> {
        not_a_key()
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, ValueError> {
        not_a_key()
    }
    fn serialize_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStruct, ValueError> {
        not_a_key()
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, ValueError> {
        not_a_key()
    }
}

impl ser::SerializeStruct for SinkMap<'_> {
    type Ok = ();
    type Error = ValueError;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), ValueError> {
        self.field(key, value)
    }
    fn end(self) -> Result<(), ValueError> {
        self.finish()
    }
}

impl ser::SerializeStructVariant for SinkMap<'_> {
    type Ok = ();
    type Error = ValueError;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), ValueError> {
        self.field(key, value)
    }
    fn end(self) -> Result<(), ValueError> {
        self.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Serialize;

    fn via_sink<T: Serialize + ?Sized>(v: &T) -> Result<Value, ValueError> {
        let mut b = ValueBuilder::new();
        to_sink(v, &mut b)?;
        Ok(b.finish().expect("a complete value"))
    }

    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Shape {
        map_id: String,
        absent: Option<u8>,
        present: Option<u8>,
        nil_record: Value,
        nested: Vec<Option<i32>>,
        side: Side,
        wrapped: Wrapped,
        tuple: (u8, char),
        keyed: BTreeMap<u32, bool>,
    }
    #[derive(Serialize)]
    #[serde(rename_all = "lowercase")]
    enum Side {
        Player,
    }
    #[derive(Serialize)]
    enum Wrapped {
        Newtype(Option<u8>),
        #[allow(dead_code)]
        Tuple(u8, u8),
        #[allow(dead_code)]
        Struct {
            a: u8,
        },
    }

    #[test]
    fn matches_to_value_on_every_serde_shape() {
        let shape = Shape {
            map_id: "VERMILION_DOCK".into(),
            absent: None,
            present: Some(3),
            nil_record: Value::Nil,
            nested: vec![Some(1), None, Some(-2)],
            side: Side::Player,
            wrapped: Wrapped::Newtype(None),
            tuple: (7, 'x'),
            keyed: [(2, true), (10, false)].into_iter().collect(),
        };
        assert_eq!(
            via_sink(&shape).unwrap(),
            crate::value::to_value(&shape).unwrap()
        );
        for w in [Wrapped::Tuple(1, 2), Wrapped::Struct { a: 9 }] {
            assert_eq!(via_sink(&w).unwrap(), crate::value::to_value(&w).unwrap());
        }
        let record = Value::map([
            ("a", Value::List(vec![Value::Nil, Value::Float(1.5)])),
            ("b", Value::Nil),
            ("c", Value::map([("d", Value::from("e"))])),
        ]);
        assert_eq!(
            via_sink(&record).unwrap(),
            crate::value::to_value(&record).unwrap()
        );
    }

    fn value() -> impl proptest::strategy::Strategy<Value = Value> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just(Value::Nil),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::Int),
            (-1.0e6f64..1.0e6).prop_map(Value::Float),
            "[a-zA-Z_]{0,8}".prop_map(Value::Str),
        ];
        leaf.prop_recursive(4, 48, 6, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::List),
                proptest::collection::btree_map("[a-z]{0,4}", inner, 0..6).prop_map(Value::Map),
            ]
        })
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]
        #[test]
        fn any_value_streams_to_what_to_value_builds(v in value()) {
            proptest::prop_assert_eq!(via_sink(&v).unwrap(), crate::value::to_value(&v).unwrap());
        }
    }

    #[test]
    fn errors_match_to_value() {
        for bad in [f64::NAN, f64::INFINITY] {
            assert_eq!(via_sink(&bad), crate::value::to_value(&bad));
        }
        assert_eq!(via_sink(&u64::MAX), crate::value::to_value(&u64::MAX));
        let float_keys: BTreeMap<String, f64> = [("x".into(), f64::NAN)].into_iter().collect();
        assert!(via_sink(&float_keys).is_err());
    }
}
