//! A struct argument pushed with only some of its fields: the paths a wrapper reads by
//! constant keys (`ctx.user`, `ctx.user.hp`), when that is all it does with the argument
//! ([`crate::reads`]). A field at the end of a path is pushed whole by [`StackSer`]; a field
//! the paths go through is itself a struct filtered the same way, with the keys below it.
//! Only structs are filtered: any other value on a path (a map, a list, an enum variant, a
//! scalar) is pushed whole.

use serde::ser::{self, Serialize};

use crate::reads::KeyPaths;
use crate::stack::{Container, PushError, StackSer};

/// The fields of a struct to push, in the link's per-call form of [`KeyPaths`]: each named
/// field whole (`None`) or filtered in turn (`Some`). A short slice: the fields of a struct
/// are few, and a linear scan beats a map lookup at these sizes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Only(pub Box<[(String, Option<Only>)]>);

impl From<&KeyPaths> for Only {
    fn from(paths: &KeyPaths) -> Self {
        Only(
            paths
                .0
                .iter()
                .map(|(k, sub)| (k.clone(), sub.as_ref().map(Only::from)))
                .collect(),
        )
    }
}

/// Push hook parameter `index`, `value`: filtered when `only` lists it, whole otherwise.
pub(crate) fn push_param<T: Serialize + ?Sized>(
    ser: StackSer<'_>,
    only: &[(usize, Only)],
    index: usize,
    value: &T,
) -> Result<(), PushError> {
    match only.iter().find(|(i, _)| *i == index) {
        Some((_, only)) => value.serialize(OnlySer { ser, only }),
        None => value.serialize(ser),
    }
}

/// Serializes one value like [`StackSer`], except that a struct keeps only the fields named
/// in `only` (each whole or filtered by its own sub-list).
pub(crate) struct OnlySer<'k, 'o> {
    pub ser: StackSer<'k>,
    pub only: &'o Only,
}

/// A struct being filled with the fields of `only`.
pub(crate) struct OnlyStruct<'k, 'o> {
    inner: Container<'k>,
    only: &'o Only,
}

impl ser::SerializeStruct for OnlyStruct<'_, '_> {
    type Ok = ();
    type Error = PushError;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), PushError> {
        match self.only.0.iter().find(|(k, _)| k == key) {
            None => Ok(()),
            Some((_, None)) => ser::SerializeStruct::serialize_field(&mut self.inner, key, value),
            Some((_, Some(sub))) => self
                .inner
                .field_with(key, |ser| value.serialize(OnlySer { ser, only: sub })),
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
        let inner = ser::Serializer::serialize_struct(self.ser, name, len.min(self.only.0.len()))?;
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
