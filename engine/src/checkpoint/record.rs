//! The format-1 checkpoint record, its portable bytes, and the first-difference path.
//!
//! A checkpoint is plain data: `{format, kind, identity, save, runtime, rng}`. Field names
//! follow the RFC (camelCase). Bytes are a versioned header line followed by MessagePack
//! (`rmp-serde`, named fields), so the same record always encodes to the same bytes
//! (struct fields in declaration order, maps sorted).

use pallet_api::value::{from_value, to_value};
use pallet_api::Value;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::rng::Rng;
use crate::save::SaveData;
use crate::world::Direction;

use super::battle::BattleModel;

/// The only checkpoint format this engine writes and reads.
pub const FORMAT: u32 = 1;

/// First bytes of a portable checkpoint: the magic and the byte-layout version.
pub const HEADER: &[u8] = b"PALLET-CHECKPOINT 1\n";

/// `kind` of an overworld checkpoint.
pub const KIND_OVERWORLD: &str = "overworld";
/// `kind` of a battle checkpoint (RFC 0005; see [`super::battle`]).
pub const KIND_BATTLE: &str = "battle";

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Checkpoint {
    pub format: u32,
    pub kind: String,
    pub identity: Identity,
    /// Canonical dynamic progress. Global options are not part of [`SaveData`], so they are
    /// never captured or rewound.
    pub save: SaveData,
    pub runtime: RuntimeState,
    /// `{state = "<16 lower-case hex digits>"}`: a string, because script numbers are `i64`
    /// and the generator's state is a full `u64`.
    #[serde(with = "crate::rng::hex")]
    pub rng: Rng,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Identity {
    /// Metadata only: restore never rejects an engine version mismatch.
    pub engine_version: String,
    /// `red`, `blue`, `yellow`.
    pub game_version: String,
    pub playthrough_id: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RuntimeState {
    pub overworld: OverworldState,
    /// The battle model of a `kind = "battle"` record; absent in overworld records.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub battle: Option<BattleModel>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OverworldState {
    pub map: String,
    pub x: u32,
    pub y: u32,
    pub facing: Direction,
    pub surfing: bool,
}

#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum BytesError {
    #[error("not a checkpoint (missing `PALLET-CHECKPOINT 1` header)")]
    Header,
    #[error("checkpoint body: {0}")]
    Body(String),
    #[error("checkpoint has trailing bytes")]
    Trailing,
}

impl Checkpoint {
    /// Portable bytes: [`HEADER`] + MessagePack with named fields.
    pub fn to_bytes(&self) -> Result<Vec<u8>, BytesError> {
        let mut out = HEADER.to_vec();
        rmp_serde::encode::write_named(&mut out, self)
            .map_err(|e| BytesError::Body(e.to_string()))?;
        Ok(out)
    }

    /// Parse portable bytes (header checked, whole body consumed).
    pub fn from_bytes(bytes: &[u8]) -> Result<Checkpoint, BytesError> {
        let body = bytes.strip_prefix(HEADER).ok_or(BytesError::Header)?;
        let mut cursor = std::io::Cursor::new(body);
        let cp: Checkpoint =
            rmp_serde::from_read(&mut cursor).map_err(|e| BytesError::Body(e.to_string()))?;
        if usize::try_from(cursor.position()).ok() != Some(body.len()) {
            return Err(BytesError::Trailing);
        }
        Ok(cp)
    }

    /// The record as a script value (`{format, kind, identity, save, runtime, rng}`).
    pub fn to_value(&self) -> Result<Value, String> {
        to_value(self).map_err(|e| e.message().to_owned())
    }

    /// Read a script value back; any shape error is reported as text.
    pub fn from_value(v: Value) -> Result<Checkpoint, String> {
        from_value(v).map_err(|e| e.message().to_owned())
    }
}

/// The first path at which two values differ, Lua style (`$.save.party.1.hp`; list indices
/// are 1-based), with ` (missing)` when one side lacks it. `None` when equal.
pub fn first_difference(a: &Value, b: &Value) -> Option<String> {
    let mut path = String::from("$");
    diff_at(a, b, &mut path).then_some(path)
}

fn diff_at(a: &Value, b: &Value, path: &mut String) -> bool {
    match (a, b) {
        (Value::Map(ma), Value::Map(mb)) => {
            let keys: std::collections::BTreeSet<&String> = ma.keys().chain(mb.keys()).collect();
            keys.into_iter()
                .any(|k| child_differs(k, ma.get(k), mb.get(k), path))
        }
        (Value::List(la), Value::List(lb)) => (0..la.len().max(lb.len()))
            .any(|i| child_differs(&(i + 1).to_string(), la.get(i), lb.get(i), path)),
        _ => a != b,
    }
}

/// One step of [`diff_at`] into the child `seg`: on a difference `path` is left pointing at it
/// (with ` (missing)` when one side lacks the child), otherwise it is restored.
fn child_differs(seg: &str, x: Option<&Value>, y: Option<&Value>, path: &mut String) -> bool {
    let len = path.len();
    path.push('.');
    path.push_str(seg);
    let differs = match (x, y) {
        (Some(x), Some(y)) => diff_at(x, y, path),
        _ => {
            path.push_str(" (missing)");
            true
        }
    };
    if !differs {
        path.truncate(len);
    }
    differs
}

#[cfg(test)]
mod tests {
    use super::first_difference;
    use pallet_api::Value;

    #[test]
    fn first_difference_names_the_path_lua_style() {
        let rec = |hp: i64, extra: bool| {
            let mut party = vec![Value::map([("hp", Value::Int(hp))])];
            if extra {
                party.push(Value::Int(0));
            }
            Value::map([("save", Value::map([("party", Value::List(party))]))])
        };
        assert_eq!(first_difference(&rec(5, false), &rec(5, false)), None);
        assert_eq!(
            first_difference(&rec(5, false), &rec(6, false)).as_deref(),
            Some("$.save.party.1.hp")
        );
        assert_eq!(
            first_difference(&rec(5, false), &rec(5, true)).as_deref(),
            Some("$.save.party.2 (missing)")
        );
        let a = Value::map([("a", Value::Int(1))]);
        let b = Value::map([("a", Value::Int(1)), ("b", Value::Int(2))]);
        assert_eq!(first_difference(&a, &b).as_deref(), Some("$.b (missing)"));
    }
}
