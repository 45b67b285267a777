//! A struct argument pushed with only some of its fields: the fields a wrapper reads by
//! constant key (`ctx.user`), when that is all it does with the argument ([`crate::reads`]).
//! Everything but the argument's own top-level struct is pushed whole by [`StackSer`].

use serde::ser::{self, Serialize};

use crate::stack::{Container, PushError, StackSer};

/// Serializes one value like [`StackSer`], except that a struct keeps only the fields named
/// in `only` (nested values are whole).
pub(crate) struct OnlySer<'k, 'o> {
    pub ser: StackSer<'k>,
    pub only: &'o [String],
}

/// A struct being filled with the fields of `only`.
pub(crate) struct OnlyStruct<'k, 'o> {
    inner: Container<'k>,
    only: &'o [String],
}

impl ser::SerializeStruct for OnlyStruct<'_, '_> {
    type Ok = ();
    type Error = PushError;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), PushError> {
        if self.only.iter().any(|k| k == key) {
            ser::SerializeStruct::serialize_field(&mut self.inner, key, value)
        } else {
            Ok(())
        }
    }
    fn end(self) -> Result<(), PushError> {
        ser::SerializeStruct::end(self.inner)
    }
}

impl<'k, 'o> ser::Serializer for OnlySer<'k, 'o> {
    type Ok = ();
    type Error = PushError;
    type SerializeSeq = Container<'k>;
    type SerializeTuple = Container<'k>;
    type SerializeTupleStruct = Container<'k>;
    type SerializeTupleVariant = Container<'k>;
    type SerializeMap = Container<'k>;
    type SerializeStruct = OnlyStruct<'k, 'o>;
    type SerializeStructVariant = Container<'k>;

    fn serialize_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStruct, PushError> {
        let inner = ser::Serializer::serialize_struct(self.ser, name, len.min(self.only.len()))?;
        Ok(OnlyStruct {
            inner,
            only: self.only,
        })
    }

    forward_other_methods!(s => s.ser);

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), PushError> {
        value.serialize(self)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), PushError> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), PushError> {
        ser::Serializer::serialize_newtype_variant(self.ser, name, index, variant, value)
    }
}
