//! The plain-data value that crosses into scripts and checkpoints: no functions, no handles,
//! no cycles. Maps are sorted (`BTreeMap`) so encodings are deterministic.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

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
