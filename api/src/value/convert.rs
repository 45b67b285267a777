//! serde bridges: a `Serializer` producing [`Value`] and a `Deserializer` reading one.

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, IntoDeserializer, Visitor};
use serde::ser::{self, Serialize};

use super::Value;

/// A conversion to or from [`Value`] failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueError(String);

impl ValueError {
    pub fn new(message: impl Into<String>) -> Self {
        ValueError(message.into())
    }
    pub fn message(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for ValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ValueError {}

impl ser::Error for ValueError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        ValueError(msg.to_string())
    }
}

impl de::Error for ValueError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        ValueError(msg.to_string())
    }
}

// ------------------------------------------------------------------------------------------
// Serializer
// ------------------------------------------------------------------------------------------

pub(crate) struct ValueSerializer;

fn float(f: f64) -> Result<Value, ValueError> {
    if f.is_finite() {
        Ok(Value::Float(f))
    } else {
        Err(ValueError::new("non-finite number is not data"))
    }
}

fn variant_map(variant: &str, inner: Value) -> Value {
    let mut m = BTreeMap::new();
    m.insert(variant.to_owned(), inner);
    Value::Map(m)
}

impl ser::Serializer for ValueSerializer {
    type Ok = Value;
    type Error = ValueError;
    type SerializeSeq = SeqBuilder;
    type SerializeTuple = SeqBuilder;
    type SerializeTupleStruct = SeqBuilder;
    type SerializeTupleVariant = SeqBuilder;
    type SerializeMap = MapBuilder;
    type SerializeStruct = MapBuilder;
    type SerializeStructVariant = MapBuilder;

    fn serialize_bool(self, v: bool) -> Result<Value, ValueError> {
        Ok(Value::Bool(v))
    }
    fn serialize_i8(self, v: i8) -> Result<Value, ValueError> {
        Ok(Value::Int(v.into()))
    }
    fn serialize_i16(self, v: i16) -> Result<Value, ValueError> {
        Ok(Value::Int(v.into()))
    }
    fn serialize_i32(self, v: i32) -> Result<Value, ValueError> {
        Ok(Value::Int(v.into()))
    }
    fn serialize_i64(self, v: i64) -> Result<Value, ValueError> {
        Ok(Value::Int(v))
    }
    fn serialize_i128(self, v: i128) -> Result<Value, ValueError> {
        i64::try_from(v)
            .map(Value::Int)
            .map_err(|_| ValueError::new("integer out of range"))
    }
    fn serialize_u8(self, v: u8) -> Result<Value, ValueError> {
        Ok(Value::Int(v.into()))
    }
    fn serialize_u16(self, v: u16) -> Result<Value, ValueError> {
        Ok(Value::Int(v.into()))
    }
    fn serialize_u32(self, v: u32) -> Result<Value, ValueError> {
        Ok(Value::Int(v.into()))
    }
    fn serialize_u64(self, v: u64) -> Result<Value, ValueError> {
        i64::try_from(v)
            .map(Value::Int)
            .map_err(|_| ValueError::new("integer out of range"))
    }
    fn serialize_u128(self, v: u128) -> Result<Value, ValueError> {
        i64::try_from(v)
            .map(Value::Int)
            .map_err(|_| ValueError::new("integer out of range"))
    }
    fn serialize_f32(self, v: f32) -> Result<Value, ValueError> {
        float(v.into())
    }
    fn serialize_f64(self, v: f64) -> Result<Value, ValueError> {
        float(v)
    }
    fn serialize_char(self, v: char) -> Result<Value, ValueError> {
        Ok(Value::Str(v.to_string()))
    }
    fn serialize_str(self, v: &str) -> Result<Value, ValueError> {
        Ok(Value::Str(v.to_owned()))
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<Value, ValueError> {
        Ok(Value::List(
            v.iter().map(|b| Value::Int((*b).into())).collect(),
        ))
    }
    fn serialize_none(self) -> Result<Value, ValueError> {
        Ok(Value::Nil)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Value, ValueError> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<Value, ValueError> {
        Ok(Value::Nil)
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<Value, ValueError> {
        Ok(Value::Nil)
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<Value, ValueError> {
        Ok(Value::Str(variant.to_owned()))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<Value, ValueError> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<Value, ValueError> {
        Ok(variant_map(variant, value.serialize(self)?))
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<SeqBuilder, ValueError> {
        Ok(SeqBuilder {
            items: Vec::with_capacity(len.unwrap_or(0).min(4096)),
            variant: None,
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<SeqBuilder, ValueError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<SeqBuilder, ValueError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<SeqBuilder, ValueError> {
        Ok(SeqBuilder {
            items: Vec::with_capacity(len.min(4096)),
            variant: Some(variant),
        })
    }
    fn serialize_map(self, _: Option<usize>) -> Result<MapBuilder, ValueError> {
        Ok(MapBuilder {
            map: BTreeMap::new(),
            key: None,
            variant: None,
        })
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<MapBuilder, ValueError> {
        self.serialize_map(None)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<MapBuilder, ValueError> {
        Ok(MapBuilder {
            map: BTreeMap::new(),
            key: None,
            variant: Some(variant),
        })
    }
}

pub(crate) struct SeqBuilder {
    items: Vec<Value>,
    variant: Option<&'static str>,
}

impl SeqBuilder {
    fn push<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), ValueError> {
        self.items.push(value.serialize(ValueSerializer)?);
        Ok(())
    }
    fn finish(self) -> Value {
        match self.variant {
            Some(v) => variant_map(v, Value::List(self.items)),
            None => Value::List(self.items),
        }
    }
}

impl ser::SerializeSeq for SeqBuilder {
    type Ok = Value;
    type Error = ValueError;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), ValueError> {
        self.push(value)
    }
    fn end(self) -> Result<Value, ValueError> {
        Ok(self.finish())
    }
}
impl ser::SerializeTuple for SeqBuilder {
    type Ok = Value;
    type Error = ValueError;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), ValueError> {
        self.push(value)
    }
    fn end(self) -> Result<Value, ValueError> {
        Ok(self.finish())
    }
}
impl ser::SerializeTupleStruct for SeqBuilder {
    type Ok = Value;
    type Error = ValueError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), ValueError> {
        self.push(value)
    }
    fn end(self) -> Result<Value, ValueError> {
        Ok(self.finish())
    }
}
impl ser::SerializeTupleVariant for SeqBuilder {
    type Ok = Value;
    type Error = ValueError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), ValueError> {
        self.push(value)
    }
    fn end(self) -> Result<Value, ValueError> {
        Ok(self.finish())
    }
}

pub(crate) struct MapBuilder {
    map: BTreeMap<String, Value>,
    key: Option<String>,
    variant: Option<&'static str>,
}

impl MapBuilder {
    /// A `nil` field is an absent field (as in a Lua table).
    fn put(&mut self, key: String, value: Value) {
        if !value.is_nil() {
            self.map.insert(key, value);
        }
    }
    fn finish(self) -> Value {
        match self.variant {
            Some(v) => variant_map(v, Value::Map(self.map)),
            None => Value::Map(self.map),
        }
    }
}

impl ser::SerializeMap for MapBuilder {
    type Ok = Value;
    type Error = ValueError;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), ValueError> {
        let key = match key.serialize(ValueSerializer)? {
            Value::Str(s) => s,
            Value::Int(i) => i.to_string(),
            Value::Bool(b) => b.to_string(),
            other => {
                return Err(ValueError::new(format!(
                    "map key must be a string or integer, got {}",
                    other.type_name()
                )))
            }
        };
        self.key = Some(key);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), ValueError> {
        let key = self
            .key
            .take()
            .ok_or_else(|| ValueError::new("map value without key"))?;
        let value = value.serialize(ValueSerializer)?;
        self.put(key, value);
        Ok(())
    }
    fn end(self) -> Result<Value, ValueError> {
        Ok(self.finish())
    }
}
impl ser::SerializeStruct for MapBuilder {
    type Ok = Value;
    type Error = ValueError;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), ValueError> {
        let value = value.serialize(ValueSerializer)?;
        self.put(key.to_owned(), value);
        Ok(())
    }
    fn end(self) -> Result<Value, ValueError> {
        Ok(self.finish())
    }
}
impl ser::SerializeStructVariant for MapBuilder {
    type Ok = Value;
    type Error = ValueError;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), ValueError> {
        let value = value.serialize(ValueSerializer)?;
        self.put(key.to_owned(), value);
        Ok(())
    }
    fn end(self) -> Result<Value, ValueError> {
        Ok(self.finish())
    }
}

// ------------------------------------------------------------------------------------------
// Deserializer
// ------------------------------------------------------------------------------------------

impl<'de> IntoDeserializer<'de, ValueError> for Value {
    type Deserializer = Value;
    fn into_deserializer(self) -> Value {
        self
    }
}

macro_rules! int_method {
    ($($method:ident),*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ValueError> {
            match self.as_exact_int() {
                Some(i) => visitor.visit_i64(i),
                None => self.deserialize_any(visitor),
            }
        }
    )*};
}

impl<'de> de::Deserializer<'de> for Value {
    type Error = ValueError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ValueError> {
        match self {
            Value::Nil => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(b),
            Value::Int(i) => visitor.visit_i64(i),
            Value::Float(f) => visitor.visit_f64(f),
            Value::Str(s) => visitor.visit_string(s),
            Value::List(l) => {
                let mut seq = de::value::SeqDeserializer::new(l.into_iter());
                let out = visitor.visit_seq(&mut seq)?;
                seq.end()?;
                Ok(out)
            }
            Value::Map(m) => {
                let mut map = de::value::MapDeserializer::new(m.into_iter());
                let out = visitor.visit_map(&mut map)?;
                map.end()?;
                Ok(out)
            }
        }
    }

    int_method!(
        deserialize_i8,
        deserialize_i16,
        deserialize_i32,
        deserialize_i64,
        deserialize_u8,
        deserialize_u16,
        deserialize_u32,
        deserialize_u64
    );

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ValueError> {
        match self {
            Value::Nil => visitor.visit_none(),
            other => visitor.visit_some(other),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value, ValueError> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, ValueError> {
        match self {
            Value::Str(s) => visitor.visit_enum(s.into_deserializer()),
            Value::Map(m) if m.len() == 1 => {
                let Some((variant, inner)) = m.into_iter().next() else {
                    return Err(ValueError::new("empty enum map"));
                };
                visitor.visit_enum(EnumAccess { variant, inner })
            }
            other => Err(ValueError::new(format!(
                "expected a variant name or a one-entry map, got {}",
                other.type_name()
            ))),
        }
    }

    // A Lua table with no entries crosses as an empty list (Lua cannot tell `{}` the map from
    // `{}` the array): where a map or a record is expected, an empty list reads as an empty
    // map, and where a sequence is expected an empty map reads as an empty sequence.
    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ValueError> {
        match self {
            Value::List(l) if l.is_empty() => Value::Map(BTreeMap::new()).deserialize_any(visitor),
            other => other.deserialize_any(visitor),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, ValueError> {
        self.deserialize_map(visitor)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ValueError> {
        match self {
            Value::Map(m) if m.is_empty() => Value::List(Vec::new()).deserialize_any(visitor),
            other => other.deserialize_any(visitor),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i128 u128 f32 f64 char str string bytes byte_buf unit unit_struct tuple
        tuple_struct identifier ignored_any
    }
}

struct EnumAccess {
    variant: String,
    inner: Value,
}

impl<'de> de::EnumAccess<'de> for EnumAccess {
    type Error = ValueError;
    type Variant = VariantAccess;
    fn variant_seed<S: de::DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<(S::Value, VariantAccess), ValueError> {
        let name = seed.deserialize(self.variant.into_deserializer())?;
        Ok((name, VariantAccess(self.inner)))
    }
}

struct VariantAccess(Value);

impl<'de> de::VariantAccess<'de> for VariantAccess {
    type Error = ValueError;
    fn unit_variant(self) -> Result<(), ValueError> {
        match self.0 {
            Value::Nil => Ok(()),
            other => Err(ValueError::new(format!(
                "unit variant carries a {}",
                other.type_name()
            ))),
        }
    }
    fn newtype_variant_seed<S: de::DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<S::Value, ValueError> {
        seed.deserialize(self.0)
    }
    fn tuple_variant<V: Visitor<'de>>(self, _: usize, visitor: V) -> Result<V::Value, ValueError> {
        de::Deserializer::deserialize_any(self.0, visitor)
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, ValueError> {
        de::Deserializer::deserialize_any(self.0, visitor)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{from_value, to_value, Value};
    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
    #[serde(rename_all = "camelCase")]
    struct Ctx {
        map_id: String,
        max_hp: u16,
        note: Option<String>,
        kind: Kind,
        list: Vec<i32>,
    }

    #[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
    #[serde(rename_all = "lowercase")]
    enum Kind {
        Wild,
        Trainer,
    }

    #[test]
    fn struct_round_trip_uses_camel_case_and_omits_nil() {
        let c = Ctx {
            map_id: "PALLET_TOWN".into(),
            max_hp: 39,
            note: None,
            kind: Kind::Trainer,
            list: vec![1, 2],
        };
        let v = to_value(&c).unwrap();
        assert_eq!(v.get("mapId"), Some(&Value::from("PALLET_TOWN")));
        assert_eq!(v.get("maxHp"), Some(&Value::Int(39)));
        assert_eq!(v.get("note"), None);
        assert_eq!(v.get("kind"), Some(&Value::from("trainer")));
        assert_eq!(from_value::<Ctx>(v).unwrap(), c);
    }

    #[test]
    fn integral_floats_read_as_integers_but_fractions_do_not() {
        assert_eq!(from_value::<u8>(Value::Float(7.0)).unwrap(), 7);
        assert!(from_value::<u8>(Value::Float(7.5)).is_err());
        assert!(from_value::<u8>(Value::Str("7".into())).is_err());
        assert!(from_value::<u8>(Value::Int(300)).is_err());
        assert_eq!(from_value::<f64>(Value::Int(3)).unwrap(), 3.0);
    }

    #[test]
    fn an_empty_table_reads_as_an_empty_map_or_an_empty_list() {
        use std::collections::BTreeMap;
        let empty_list = Value::List(Vec::new());
        let empty_map = Value::Map(BTreeMap::new());
        let m: BTreeMap<String, Value> = from_value(empty_list.clone()).unwrap();
        assert!(m.is_empty());
        let l: Vec<i32> = from_value(empty_map.clone()).unwrap();
        assert!(l.is_empty());
        #[derive(Deserialize, Debug, PartialEq)]
        struct AllOptional {
            note: Option<String>,
        }
        assert_eq!(
            from_value::<AllOptional>(empty_list).unwrap(),
            AllOptional { note: None }
        );
        // Non-empty shapes stay strict.
        assert!(from_value::<Vec<i32>>(Value::map([("a", Value::Int(1))])).is_err());
        assert!(from_value::<BTreeMap<String, i32>>(Value::List(vec![Value::Int(1)])).is_err());
        // `Value` itself keeps what it was given.
        assert_eq!(from_value::<Value>(empty_map.clone()).unwrap(), empty_map);
    }

    #[test]
    fn non_finite_numbers_are_not_data() {
        assert!(to_value(&f64::NAN).is_err());
        assert!(to_value(&f64::INFINITY).is_err());
    }
}
