//! Deterministic on-disk encoding of [`SaveData`].
//!
//! Layout: one header line `PALLET-SAVE 1\n`, then the save as pretty-printed JSON (two-space
//! indent) and a final newline. Struct fields are written in declaration order and every map or
//! set is a sorted `BTreeMap`/`BTreeSet`, so equal saves give byte-identical files. Floats inside
//! mod data round-trip exactly (serde_json's `float_roundtrip`); non-finite floats are refused at
//! encode time because JSON cannot represent them.
//!
//! Decoding never panics: any byte string yields a save or a [`DecodeError`].

use pallet_api::Value;

use super::data::{SaveData, SAVE_FORMAT};

/// First line of every save file, without the newline.
pub const HEADER_PREFIX: &str = "PALLET-SAVE ";
/// Encoding generation written after [`HEADER_PREFIX`].
pub const ENCODING_VERSION: u32 = 1;
/// Deepest nesting of a mod-data value (counting the value itself). Keeps the whole document
/// under serde_json's recursion limit of 128, so anything encoded can be decoded again.
pub const MAX_VALUE_DEPTH: usize = 100;
/// Largest save file this engine writes or reads (`save.max_bytes`). Files above it are refused
/// by size before any byte is read, so a huge or sparse file never has to be read whole.
pub const MAX_SAVE_BYTES: u64 = 64 * 1024 * 1024;

#[derive(Debug, thiserror::Error)]
pub enum EncodeError {
    #[error("modData.{path}: {what} cannot be saved (non-finite numbers are not data)")]
    NonFinite { path: String, what: &'static str },
    #[error("modData.{path}: nested deeper than {MAX_VALUE_DEPTH} levels")]
    TooDeep { path: String },
    #[error("could not serialize the save: {0}")]
    Json(#[from] serde_json::Error),
    #[error(
        "save.max_bytes: the encoded save is {size} bytes, over the limit of {MAX_SAVE_BYTES}"
    )]
    TooLarge { size: u64 },
}

#[derive(Debug, thiserror::Error)]
pub enum DecodeError {
    #[error("not a Pallet save (missing the `PALLET-SAVE <n>` header line)")]
    NotASave,
    #[error("save encoding {0} is not supported (this engine reads encoding {ENCODING_VERSION})")]
    UnsupportedEncoding(String),
    #[error("save content format {found} is newer than this engine's {SAVE_FORMAT}")]
    UnsupportedFormat { found: u32 },
    #[error("save is not valid UTF-8 at byte {0}")]
    NotUtf8(usize),
    #[error("save content is malformed: {0}")]
    Json(#[from] serde_json::Error),
    #[error("save.max_bytes: the file is {size} bytes, over the limit of {MAX_SAVE_BYTES}")]
    TooLarge { size: u64 },
}

/// Encode a save to its canonical bytes.
pub fn encode(save: &SaveData) -> Result<Vec<u8>, EncodeError> {
    for (id, v) in &save.mod_data {
        check_value(v, id, 1)?;
    }
    let mut out = Vec::with_capacity(4096);
    out.extend_from_slice(HEADER_PREFIX.as_bytes());
    out.extend_from_slice(ENCODING_VERSION.to_string().as_bytes());
    out.push(b'\n');
    serde_json::to_writer_pretty(&mut out, save)?;
    out.push(b'\n');
    if out.len() as u64 > MAX_SAVE_BYTES {
        return Err(EncodeError::TooLarge {
            size: out.len() as u64,
        });
    }
    Ok(out)
}

/// Decode canonical bytes (or any bytes: garbage yields an error, never a panic).
pub fn decode(bytes: &[u8]) -> Result<SaveData, DecodeError> {
    if bytes.len() as u64 > MAX_SAVE_BYTES {
        return Err(DecodeError::TooLarge {
            size: bytes.len() as u64,
        });
    }
    let newline = bytes
        .iter()
        .position(|&b| b == b'\n')
        .ok_or(DecodeError::NotASave)?;
    let header = std::str::from_utf8(&bytes[..newline]).map_err(|_| DecodeError::NotASave)?;
    let version = header
        .strip_prefix(HEADER_PREFIX)
        .ok_or(DecodeError::NotASave)?
        .trim_end_matches('\r');
    if version.parse::<u32>().ok() != Some(ENCODING_VERSION) {
        let shown: String = version.chars().take(16).collect();
        return Err(DecodeError::UnsupportedEncoding(shown));
    }
    let body = &bytes[newline + 1..];
    if let Err(e) = std::str::from_utf8(body) {
        return Err(DecodeError::NotUtf8(newline + 1 + e.valid_up_to()));
    }
    // Read `meta.format` leniently first so a newer save reports the format, not a field error.
    #[derive(serde::Deserialize)]
    struct Probe {
        meta: ProbeMeta,
    }
    #[derive(serde::Deserialize)]
    struct ProbeMeta {
        format: u32,
    }
    if let Ok(p) = serde_json::from_slice::<Probe>(body) {
        if p.meta.format > SAVE_FORMAT {
            return Err(DecodeError::UnsupportedFormat {
                found: p.meta.format,
            });
        }
    }
    Ok(serde_json::from_slice(body)?)
}

/// Refuse values JSON cannot carry back exactly. The path is only built on failure.
fn check_value(v: &Value, path: &str, depth: usize) -> Result<(), EncodeError> {
    check(v, depth).map_err(|(mut segments, problem)| {
        segments.reverse();
        let path = format!("{path}{}", segments.concat());
        match problem {
            Problem::TooDeep => EncodeError::TooDeep { path },
            Problem::NonFinite(what) => EncodeError::NonFinite { path, what },
        }
    })
}

enum Problem {
    TooDeep,
    NonFinite(&'static str),
}

fn check(v: &Value, depth: usize) -> Result<(), (Vec<String>, Problem)> {
    if depth > MAX_VALUE_DEPTH {
        return Err((Vec::new(), Problem::TooDeep));
    }
    match v {
        Value::Float(f) if f.is_nan() => Err((Vec::new(), Problem::NonFinite("NaN"))),
        Value::Float(f) if f.is_infinite() => Err((Vec::new(), Problem::NonFinite("infinity"))),
        Value::List(items) => {
            for (i, item) in items.iter().enumerate() {
                check(item, depth + 1).map_err(|(mut p, e)| {
                    p.push(format!("[{i}]"));
                    (p, e)
                })?;
            }
            Ok(())
        }
        Value::Map(map) => {
            for (k, item) in map {
                check(item, depth + 1).map_err(|(mut p, e)| {
                    p.push(format!(".{k}"));
                    (p, e)
                })?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}
