//! Typed values straight into a host's own value type: [`ValueSink`] (a builder a script host
//! implements for its values — Rhai `Dynamic`, the Lua stack) and the one serializer that
//! drives it ([`to_sink`], [`to_sink_with`], [`write_fields`]). **The crossing rules are
//! implemented here once**; a host only writes a sink and passes its limits ([`Crossing`]).
//!
//! The stream a sink receives describes exactly the tree [`to_value`](crate::value::to_value)
//! would build, without building it: the same field names, integers as `i64` (out of range is
//! the error `integer out of range`), finite floats only (`non-finite number is not data`),
//! `None`/unit as nil, bytes as a list of integers, enums as in `to_value` (unit variant → its
//! name; newtype/tuple/struct variant → a one-entry map), map keys that are strings, integers
//! (as decimal text) or booleans (`true`/`false`) and nothing else (`map key must be a string
//! or integer, got …`), and a nil struct field or map value is an *absent* entry (as in a Lua
//! table: the key is never sent). Host limits: containers nested deeper than
//! [`Crossing::max_depth`] are refused (`value nested deeper than N levels`), and
//! [`Crossing::paths`] keeps only the struct fields a link reads ([`ReadPaths`]).
//!
//! The serializer is generic over the sink (hosts with a concrete sink get every call inlined);
//! `dyn ValueSink` is the adapter for object-safe paths ([`ArgList::write_args`]).
//!
//! [`ValueBuilder`] is the reference sink: it builds the `Value` itself (parity tests compare it
//! with `to_value`, which stays a separate serializer: it is the plain path the differential
//! tests compare every fast path with).
//!
//! [`ArgList::write_args`]: super::ArgList::write_args

use std::collections::BTreeMap;

use serde::ser::{self, Serialize};

use super::paths::{Filter, ReadPaths};
use crate::value::{Value, ValueError};

/// A builder of one host value, fed by the serializer.
///
/// The stream is a value: a scalar call, or `begin_list` … `end` / `begin_map` … `end` around
/// nested values. Inside a map every value is preceded by exactly one key ([`key`](Self::key)
/// or [`static_key`](Self::static_key)); keys are unique within one map unless the serialized
/// type itself repeats them, in which case the later value replaces the earlier. Nil (`unit`)
/// only reaches a map through an enum variant's payload; absent fields are simply not sent.
/// Length hints are exact for lists and structs and may be 0 for maps of unknown size.
///
/// `begin_list`/`begin_map` may refuse (a host out of room, e.g. Lua stack space): the
/// serialization stops with that error and the caller discards the partial value.
pub trait ValueSink {
    fn unit(&mut self);
    fn bool(&mut self, v: bool);
    fn int(&mut self, v: i64);
    fn float(&mut self, v: f64);
    fn str(&mut self, v: &str);
    /// A string that lives forever (a unit variant's name): hosts may intern it.
    #[inline]
    fn static_str(&mut self, v: &'static str) {
        self.str(v)
    }
    fn begin_list(&mut self, len_hint: usize) -> Result<(), ValueError>;
    fn begin_map(&mut self, len_hint: usize) -> Result<(), ValueError>;
    /// The key of the next value in the innermost open map.
    fn key(&mut self, key: &str);
    /// A key that lives forever (a struct field, a variant name): hosts may intern it.
    #[inline]
    fn static_key(&mut self, key: &'static str) {
        self.key(key)
    }
    /// Close the innermost open list or map.
    fn end(&mut self);
}

/// A host's limits on one crossing.
#[derive(Clone, Copy, Debug)]
pub struct Crossing<'p> {
    /// Containers nested deeper than this are refused.
    pub max_depth: usize,
    /// Only these struct fields of the value are written (a field on no path is not even
    /// serialized); `None` writes everything.
    pub paths: Option<&'p ReadPaths>,
}

impl Crossing<'_> {
    /// No depth limit, no filter (the `to_value` tree).
    pub const ALL: Crossing<'static> = Crossing {
        max_depth: usize::MAX,
        paths: None,
    };
}

/// Serialize `value` into `sink` with no host limit. On `Err` the sink holds a partial value
/// the caller discards.
pub fn to_sink<T: Serialize + ?Sized, S: ValueSink + ?Sized>(
    value: &T,
    sink: &mut S,
) -> Result<(), ValueError> {
    to_sink_with(value, sink, Crossing::ALL)
}

/// Serialize `value` into `sink` under the host's limits `crossing`.
#[inline]
pub fn to_sink_with<T: Serialize + ?Sized, S: ValueSink + ?Sized>(
    value: &T,
    sink: &mut S,
    crossing: Crossing<'_>,
) -> Result<(), ValueError> {
    let filter = crossing.paths.map_or(Filter::Whole, ReadPaths::root);
    value.serialize(SinkSerializer {
        sink,
        key: Key::None,
        at: At {
            depth: 0,
            max_depth: crossing.max_depth,
            paths: crossing.paths,
            filter,
        },
    })
}

/// Which parameters of a hook's argument struct [`write_fields`] writes.
#[derive(Clone, Copy, Debug)]
pub struct Params<'p> {
    /// The parameter names in callback order: the struct's fields must be exactly these.
    pub names: &'static [&'static str],
    /// Bit `i`: parameter `i` is read (bit 63 stands for every parameter from 63 up). An unread
    /// one is written as nil without being serialized.
    pub read: u64,
    /// Parameters (by index) of which only some fields are read, with those paths.
    pub only: &'p [(usize, ReadPaths)],
    pub max_depth: usize,
}

/// Write the fields of a hook's argument struct as separate top-level values (the callback's
/// positional parameters), checking that they arrive in `params.names` order; returns how many
/// were written. A value that is not such a struct (another order, a skipped field, not a
/// struct) is refused with [`NOT_POSITIONAL`] before anything is written for the field that
/// breaks the order.
pub fn write_fields<T: Serialize + ?Sized, S: ValueSink + ?Sized>(
    value: &T,
    sink: &mut S,
    params: Params<'_>,
) -> Result<usize, ValueError> {
    value.serialize(FieldsSer { sink, params })
}

/// [`write_fields`]' refusal of a value that is not an argument struct in callback order.
pub const NOT_POSITIONAL: &str = "arguments are not a struct in callback order";

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
    fn begin_list(&mut self, len_hint: usize) -> Result<(), ValueError> {
        self.stack
            .push(Frame::List(Vec::with_capacity(len_hint.min(4096))));
        Ok(())
    }
    fn begin_map(&mut self, _len_hint: usize) -> Result<(), ValueError> {
        self.stack.push(Frame::Map(BTreeMap::new(), None));
        Ok(())
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

/// The map key a value is filed under, sent only once the value turns out not to be nil (a nil
/// field is an absent field).
#[derive(Clone, Copy)]
enum Key<'k> {
    None,
    Static(&'static str),
    Dyn(&'k str),
}

/// Where a value sits: its nesting depth, the host's depth limit, and the read paths that
/// select its fields if it is a struct.
#[derive(Clone, Copy)]
struct At<'p> {
    depth: usize,
    max_depth: usize,
    paths: Option<&'p ReadPaths>,
    filter: Filter,
}

impl<'p> At<'p> {
    /// The position of a container's entries (unfiltered unless the container is a struct,
    /// see [`SinkMap::field`]); refused past the depth limit.
    #[inline]
    fn inside(self) -> Result<At<'p>, ValueError> {
        if self.depth >= self.max_depth {
            return Err(too_deep(self.max_depth));
        }
        Ok(At {
            depth: self.depth + 1,
            filter: Filter::Whole,
            ..self
        })
    }
}

#[cold]
fn too_deep(max: usize) -> ValueError {
    ValueError::new(format!("value nested deeper than {max} levels"))
}

/// Serializes one value into the sink.
struct SinkSerializer<'s, 'k, 'p, S: ?Sized> {
    sink: &'s mut S,
    key: Key<'k>,
    at: At<'p>,
}

impl<'s, 'p, S: ValueSink + ?Sized> SinkSerializer<'s, '_, 'p, S> {
    #[inline]
    fn open(&mut self) {
        match self.key {
            Key::None => {}
            Key::Static(k) => self.sink.static_key(k),
            Key::Dyn(k) => self.sink.key(k),
        }
    }
    #[inline]
    fn nil(self) -> Result<(), ValueError> {
        if let Key::None = self.key {
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
    /// Open a list one level down.
    #[inline]
    fn list(mut self, len: usize, variant: bool) -> Result<SinkSeq<'s, 'p, S>, ValueError> {
        let at = self.at.inside()?;
        self.open();
        self.sink.begin_list(len)?;
        Ok(SinkSeq {
            sink: self.sink,
            at,
            variant,
        })
    }
    /// Open a map one level down; `fields` selects a struct's fields.
    #[inline]
    fn map(
        mut self,
        len: usize,
        fields: Filter,
        variant: bool,
    ) -> Result<SinkMap<'s, 'p, S>, ValueError> {
        let at = self.at.inside()?;
        self.open();
        let len = match (fields, self.at.paths) {
            (Filter::Keys(node), Some(paths)) => len.min(paths.width(node)),
            _ => len,
        };
        self.sink.begin_map(len)?;
        Ok(SinkMap {
            sink: self.sink,
            at,
            fields,
            key: String::new(),
            has_key: false,
            variant,
        })
    }
    /// Open a `{variant: …}` wrapper map (enum variants with a payload); the payload goes one
    /// level further down.
    fn open_variant(
        mut self,
        variant: &'static str,
    ) -> Result<SinkSerializer<'s, 'static, 'p, S>, ValueError> {
        let at = self.at.inside()?;
        self.open();
        self.sink.begin_map(1)?;
        self.sink.static_key(variant);
        Ok(SinkSerializer {
            sink: self.sink,
            key: Key::None,
            at,
        })
    }
}

impl<'s, 'p, S: ValueSink + ?Sized> ser::Serializer for SinkSerializer<'s, '_, 'p, S> {
    type Ok = ();
    type Error = ValueError;
    type SerializeSeq = SinkSeq<'s, 'p, S>;
    type SerializeTuple = SinkSeq<'s, 'p, S>;
    type SerializeTupleStruct = SinkSeq<'s, 'p, S>;
    type SerializeTupleVariant = SinkSeq<'s, 'p, S>;
    type SerializeMap = SinkMap<'s, 'p, S>;
    type SerializeStruct = SinkMap<'s, 'p, S>;
    type SerializeStructVariant = SinkMap<'s, 'p, S>;

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
    fn serialize_bytes(self, v: &[u8]) -> Result<(), ValueError> {
        let seq = self.list(v.len(), false)?;
        for b in v {
            seq.sink.int((*b).into());
        }
        seq.finish()
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
        self.sink.static_str(variant);
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
        variant: &'static str,
        value: &T,
    ) -> Result<(), ValueError> {
        let mut this = self;
        let at = this.at.inside()?;
        this.open();
        this.sink.begin_map(1)?;
        this.sink.static_key(variant);
        // The payload is kept even when nil (`to_value` builds `{variant: nil}`).
        value.serialize(SinkSerializer {
            sink: &mut *this.sink,
            key: Key::None,
            at,
        })?;
        this.sink.end();
        Ok(())
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<SinkSeq<'s, 'p, S>, ValueError> {
        self.list(len.unwrap_or(0), false)
    }
    fn serialize_tuple(self, len: usize) -> Result<SinkSeq<'s, 'p, S>, ValueError> {
        self.list(len, false)
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        len: usize,
    ) -> Result<SinkSeq<'s, 'p, S>, ValueError> {
        self.list(len, false)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<SinkSeq<'s, 'p, S>, ValueError> {
        self.open_variant(variant)?.list(len, true)
    }
    fn serialize_map(self, len: Option<usize>) -> Result<SinkMap<'s, 'p, S>, ValueError> {
        self.map(len.unwrap_or(0), Filter::Whole, false)
    }
    fn serialize_struct(
        self,
        _: &'static str,
        len: usize,
    ) -> Result<SinkMap<'s, 'p, S>, ValueError> {
        let fields = self.at.filter;
        self.map(len, fields, false)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<SinkMap<'s, 'p, S>, ValueError> {
        self.open_variant(variant)?.map(len, Filter::Whole, true)
    }
}

/// An open list (or a tuple variant's list inside its `{variant: …}` map).
struct SinkSeq<'s, 'p, S: ?Sized> {
    sink: &'s mut S,
    at: At<'p>,
    variant: bool,
}

impl<S: ValueSink + ?Sized> SinkSeq<'_, '_, S> {
    #[inline]
    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), ValueError> {
        value.serialize(SinkSerializer {
            sink: &mut *self.sink,
            key: Key::None,
            at: self.at,
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
        impl<S: ValueSink + ?Sized> ser::$tr for SinkSeq<'_, '_, S> {
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
struct SinkMap<'s, 'p, S: ?Sized> {
    sink: &'s mut S,
    at: At<'p>,
    /// The fields a struct keeps (`Whole`: all of them).
    fields: Filter,
    /// The pending key of a `serialize_key` / `serialize_value` pair (a buffer reused across
    /// the map's entries) and whether one is pending.
    key: String,
    has_key: bool,
    variant: bool,
}

impl<S: ValueSink + ?Sized> SinkMap<'_, '_, S> {
    #[inline]
    fn field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), ValueError> {
        let mut at = self.at;
        if let (Filter::Keys(node), Some(paths)) = (self.fields, at.paths) {
            match paths.child(node, key) {
                None => return Ok(()),
                Some(filter) => at.filter = filter,
            }
        }
        value.serialize(SinkSerializer {
            sink: &mut *self.sink,
            key: Key::Static(key),
            at,
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

impl<S: ValueSink + ?Sized> ser::SerializeMap for SinkMap<'_, '_, S> {
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
            key: Key::Dyn(&self.key),
            at: self.at,
        })
    }
    fn end(self) -> Result<(), ValueError> {
        self.finish()
    }
}

impl<S: ValueSink + ?Sized> ser::SerializeStruct for SinkMap<'_, '_, S> {
    type Ok = ();
    type Error = ValueError;
    #[inline]
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

impl<S: ValueSink + ?Sized> ser::SerializeStructVariant for SinkMap<'_, '_, S> {
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

// ------------------------------------------------------------------------------------------
// Positional parameters
// ------------------------------------------------------------------------------------------

fn not_positional<T>() -> Result<T, ValueError> {
    Err(ValueError::new(NOT_POSITIONAL))
}

/// Accepts only a struct: its fields become the top-level values ([`write_fields`]).
struct FieldsSer<'s, 'p, S: ?Sized> {
    sink: &'s mut S,
    params: Params<'p>,
}

struct Fields<'s, 'p, S: ?Sized> {
    sink: &'s mut S,
    params: Params<'p>,
    written: usize,
}

impl<S: ValueSink + ?Sized> ser::SerializeStruct for Fields<'_, '_, S> {
    type Ok = usize;
    type Error = ValueError;
    #[inline]
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), ValueError> {
        let i = self.written;
        if self.params.names.get(i) != Some(&key) {
            return not_positional();
        }
        if self.params.read & (1 << i.min(63)) != 0 {
            let paths = match self.params.only {
                [] => None,
                only => only.iter().find(|(j, _)| *j == i).map(|(_, p)| p),
            };
            to_sink_with(
                value,
                &mut *self.sink,
                Crossing {
                    max_depth: self.params.max_depth,
                    paths,
                },
            )?;
        } else {
            self.sink.unit();
        }
        self.written += 1;
        Ok(())
    }
    fn end(self) -> Result<usize, ValueError> {
        if self.written == self.params.names.len() {
            Ok(self.written)
        } else {
            not_positional()
        }
    }
}

macro_rules! refuse {
    ($($method:ident($($ty:ty),*) -> $ret:ident;)*) => {$(
        fn $method(self, $(_: $ty),*) -> Result<Self::$ret, ValueError> {
            not_positional()
        }
    )*};
}

impl<'s, 'p, S: ValueSink + ?Sized> ser::Serializer for FieldsSer<'s, 'p, S> {
    type Ok = usize;
    type Error = ValueError;
    type SerializeSeq = ser::Impossible<usize, ValueError>;
    type SerializeTuple = ser::Impossible<usize, ValueError>;
    type SerializeTupleStruct = ser::Impossible<usize, ValueError>;
    type SerializeTupleVariant = ser::Impossible<usize, ValueError>;
    type SerializeMap = ser::Impossible<usize, ValueError>;
    type SerializeStruct = Fields<'s, 'p, S>;
    type SerializeStructVariant = ser::Impossible<usize, ValueError>;

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Fields<'s, 'p, S>, ValueError> {
        Ok(Fields {
            sink: self.sink,
            params: self.params,
            written: 0,
        })
    }

    refuse! {
        serialize_bool(bool) -> Ok;
        serialize_i8(i8) -> Ok;
        serialize_i16(i16) -> Ok;
        serialize_i32(i32) -> Ok;
        serialize_i64(i64) -> Ok;
        serialize_i128(i128) -> Ok;
        serialize_u8(u8) -> Ok;
        serialize_u16(u16) -> Ok;
        serialize_u32(u32) -> Ok;
        serialize_u64(u64) -> Ok;
        serialize_u128(u128) -> Ok;
        serialize_f32(f32) -> Ok;
        serialize_f64(f64) -> Ok;
        serialize_char(char) -> Ok;
        serialize_str(&str) -> Ok;
        serialize_bytes(&[u8]) -> Ok;
        serialize_none() -> Ok;
        serialize_unit() -> Ok;
        serialize_unit_struct(&'static str) -> Ok;
        serialize_unit_variant(&'static str, u32, &'static str) -> Ok;
        serialize_seq(Option<usize>) -> SerializeSeq;
        serialize_tuple(usize) -> SerializeTuple;
        serialize_tuple_struct(&'static str, usize) -> SerializeTupleStruct;
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> SerializeTupleVariant;
        serialize_map(Option<usize>) -> SerializeMap;
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> SerializeStructVariant;
    }

    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<usize, ValueError> {
        not_positional()
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: &T,
    ) -> Result<usize, ValueError> {
        not_positional()
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<usize, ValueError> {
        not_positional()
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

    #[test]
    fn host_limits_are_parameters() {
        let mut deep = Value::Nil;
        for _ in 0..4 {
            deep = Value::List(vec![deep]);
        }
        let within = Crossing {
            max_depth: 4,
            paths: None,
        };
        let mut b = ValueBuilder::new();
        to_sink_with(&deep, &mut b, within).unwrap();
        assert_eq!(b.finish().unwrap(), deep);
        let below = Crossing {
            max_depth: 3,
            paths: None,
        };
        let err = to_sink_with(&deep, &mut ValueBuilder::new(), below).unwrap_err();
        assert_eq!(err.message(), "value nested deeper than 3 levels");
        let bad_key: BTreeMap<(u8, u8), u8> = [((1, 2), 3)].into_iter().collect();
        let err = to_sink(&bad_key, &mut ValueBuilder::new()).unwrap_err();
        assert_eq!(err, crate::value::to_value(&bad_key).unwrap_err());
    }

    #[derive(Serialize)]
    struct Inner {
        hp: u16,
        max_hp: u16,
        list: Vec<u8>,
    }
    #[derive(Serialize)]
    struct Outer {
        user: Inner,
        other: Inner,
        map: BTreeMap<String, u8>,
    }
    #[derive(Serialize)]
    struct Args {
        game: u8,
        ctx: Outer,
    }

    fn sample() -> Args {
        let inner = || Inner {
            hp: 3,
            max_hp: 9,
            list: vec![1, 2],
        };
        Args {
            game: 7,
            ctx: Outer {
                user: inner(),
                other: inner(),
                map: [("a".to_owned(), 1)].into_iter().collect(),
            },
        }
    }

    #[test]
    fn read_paths_keep_only_the_struct_fields_on_them() {
        let paths = ReadPaths::from_paths(&[&["user", "hp"], &["map"], &["map", "a"]]);
        let mut b = ValueBuilder::new();
        let crossing = Crossing {
            max_depth: 64,
            paths: Some(&paths),
        };
        to_sink_with(&sample().ctx, &mut b, crossing).unwrap();
        let want = Value::map([
            ("user", Value::map([("hp", Value::Int(3))])),
            ("map", Value::map([("a", Value::Int(1))])),
        ]);
        assert_eq!(b.finish().unwrap(), want);
    }

    #[test]
    fn arg_lists_write_unread_parameters_as_nil_like_write_fields() {
        use crate::catalog::common::{GameInfo, GameVersion};
        use crate::catalog::hooks::CoreUpdateArgs;
        use crate::script::ArgList;
        let args = CoreUpdateArgs {
            game: GameInfo {
                version: GameVersion::Red,
                playthrough_id: Some("p".into()),
                map_id: Some("PALLET_TOWN".into()),
            },
            dt: 0.5,
        };
        let mut all = ValueBuilder::new();
        args.write_args(&mut all).unwrap();
        let all = all.into_values().unwrap();
        assert_eq!(all.len(), 2);
        assert_eq!(all[1], Value::Float(0.5));
        for read in [0u64, 0b1, 0b10, u64::MAX] {
            let mut b = ValueBuilder::new();
            args.write_args_read(&mut b, read).unwrap();
            let got = b.into_values().unwrap();
            let want: Vec<Value> = all
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    if read & (1 << i) != 0 {
                        v.clone()
                    } else {
                        Value::Nil
                    }
                })
                .collect();
            assert_eq!(got, want, "read {read:#b}");
        }
    }

    #[test]
    fn fields_are_positional_and_unread_ones_nil() {
        let names: &'static [&'static str] = &["game", "ctx"];
        let only = [(1, ReadPaths::from_paths(&[&["other", "list"]]))];
        let mut b = ValueBuilder::new();
        let params = Params {
            names,
            read: 0b10,
            only: &only,
            max_depth: 64,
        };
        assert_eq!(write_fields(&sample(), &mut b, params), Ok(2));
        let list = Value::List(vec![Value::Int(1), Value::Int(2)]);
        let want = vec![
            Value::Nil,
            Value::map([("other", Value::map([("list", list)]))]),
        ];
        assert_eq!(b.into_values().unwrap(), want);
        let wrong: &'static [&'static str] = &["ctx", "game"];
        let params = Params {
            names: wrong,
            read: u64::MAX,
            only: &[],
            max_depth: 64,
        };
        let err = write_fields(&sample(), &mut ValueBuilder::new(), params).unwrap_err();
        assert_eq!(err.message(), NOT_POSITIONAL);
        assert!(write_fields(&7u8, &mut ValueBuilder::new(), params).is_err());
    }
}
