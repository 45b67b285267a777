//! The `serde::Serializer` methods the shim's argument serializers do not treat specially,
//! written once. Each serializer hand-writes `serialize_struct`, `serialize_some` and the two
//! newtype methods (where the argument shapes differ) and takes the other 26 from one of:
//!
//! * [`forward_other_methods!`]`(s => inner)`: hand each call on to the serializer `inner`
//!   (an expression of `s`, the serializer by value), whose associated types must be this
//!   serializer's;
//! * [`refuse_other_methods!`]`(error)`: fail with `Err(error)`.

/// The methods both macros write: name, parameters, and the associated type of the answer.
macro_rules! with_other_methods {
    ($emit:ident!($($head:tt)*)) => {
        $emit!($($head)*;
            serialize_bool(v: bool) -> Ok;
            serialize_i8(v: i8) -> Ok;
            serialize_i16(v: i16) -> Ok;
            serialize_i32(v: i32) -> Ok;
            serialize_i64(v: i64) -> Ok;
            serialize_i128(v: i128) -> Ok;
            serialize_u8(v: u8) -> Ok;
            serialize_u16(v: u16) -> Ok;
            serialize_u32(v: u32) -> Ok;
            serialize_u64(v: u64) -> Ok;
            serialize_u128(v: u128) -> Ok;
            serialize_f32(v: f32) -> Ok;
            serialize_f64(v: f64) -> Ok;
            serialize_char(v: char) -> Ok;
            serialize_str(v: &str) -> Ok;
            serialize_bytes(v: &[u8]) -> Ok;
            serialize_none() -> Ok;
            serialize_unit() -> Ok;
            serialize_unit_struct(name: &'static str) -> Ok;
            serialize_unit_variant(name: &'static str, index: u32, variant: &'static str) -> Ok;
            serialize_seq(len: Option<usize>) -> SerializeSeq;
            serialize_tuple(len: usize) -> SerializeTuple;
            serialize_tuple_struct(name: &'static str, len: usize) -> SerializeTupleStruct;
            serialize_tuple_variant(name: &'static str, index: u32, variant: &'static str, len: usize) -> SerializeTupleVariant;
            serialize_map(len: Option<usize>) -> SerializeMap;
            serialize_struct_variant(name: &'static str, index: u32, variant: &'static str, len: usize) -> SerializeStructVariant;
        );
    };
}

macro_rules! forward_methods {
    ($s:ident => $inner:expr; $($method:ident($($arg:ident: $ty:ty),*) -> $ret:ident;)*) => {$(
        fn $method(self, $($arg: $ty),*) -> Result<Self::$ret, Self::Error> {
            let $s = self;
            serde::ser::Serializer::$method($inner, $($arg),*)
        }
    )*};
}

macro_rules! refuse_methods {
    ($err:expr; $($method:ident($($arg:ident: $ty:ty),*) -> $ret:ident;)*) => {$(
        fn $method(self, $(_: $ty),*) -> Result<Self::$ret, Self::Error> {
            Err($err)
        }
    )*};
}

/// Every method but `serialize_struct`, `serialize_some` and the newtype ones, handed on to
/// `$inner` (an expression of `$s`, this serializer by value).
macro_rules! forward_other_methods {
    ($s:ident => $inner:expr) => {
        with_other_methods!(forward_methods!($s => $inner));
    };
}

/// Every method but `serialize_struct`, `serialize_some` and the newtype ones, failing with
/// `Err($err)`.
macro_rules! refuse_other_methods {
    ($err:expr) => {
        with_other_methods!(refuse_methods!($err));
    };
}
