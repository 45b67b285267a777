//! `mod.storage` and `mod.assets` (issue 18 item 7).
//!
//! **Storage** is a mod-private key/value file store under `<profile>/storage/<mod id>/`:
//! `context(game)`, `write(game, key, value)`, `read(game, key)`, `list(game, prefix)`,
//! `delete(game, key)`, each answering `ok|value` or `nil|false, code, message` with the Lua
//! engine's codes (`invalid_key`, `not_found`, `encode_failed`, `write_failed`,
//! `storage_unavailable`). Keys are `/`-separated segments of `[A-Za-z0-9_-]` (so no path can
//! lead outside the folder); a value is data (a table, string, number, boolean) stored as
//! JSON; one value is at most [`MAX_VALUE_BYTES`] and a mod's store at most
//! [`MAX_STORE_BYTES`]. Writes are atomic (a `.tmp` file, then a rename). Without a profile
//! folder every call answers `storage_unavailable`.
//!
//! **Assets**: `assets:path(rel)` → the mod-relative name `mods/<id>/<rel>` of one of the mod's
//! own files (never a host path; the path is checked like `mod:read`'s),
//! `assets:info(rel)` → `{type = "file", size = n}` or nil, `assets:list(prefix)`. No bytes are
//! exposed.

use std::path::{Path, PathBuf};
use std::rc::Weak;

use mlua::{Lua, MultiValue, UserData, UserDataMethods, Value as LuaValue};
use pallet_api::manifest::safe_relative_path;
use pallet_api::Value;

use crate::convert::{from_lua, to_lua};
use crate::mod_state::LuaMod;

/// Largest encoded value one `write` stores.
pub const MAX_VALUE_BYTES: usize = 4 * 1024 * 1024;
/// Largest total a mod's store may hold.
pub const MAX_STORE_BYTES: u64 = 32 * 1024 * 1024;
/// Most keys one store may hold.
pub const MAX_KEYS: usize = 4_096;

pub struct Storage(pub Weak<LuaMod>);
pub struct Assets(pub Weak<LuaMod>);

fn fail(lua: &Lua, first: LuaValue, code: &str, message: &str) -> mlua::Result<MultiValue> {
    Ok(MultiValue::from_iter([
        first,
        LuaValue::String(lua.create_string(code)?),
        LuaValue::String(lua.create_string(message)?),
    ]))
}

/// Is `key` a storage key: `/`-separated non-empty segments of `[A-Za-z0-9_-]`?
pub fn valid_key(key: &str) -> bool {
    !key.is_empty()
        && key.len() <= 200
        && key.split('/').all(|seg| {
            !seg.is_empty()
                && seg
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        })
}

fn dir_size(dir: &Path, keys: &mut usize) -> u64 {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut total = 0;
    for e in entries.flatten() {
        match e.file_type() {
            Ok(t) if t.is_dir() => total += dir_size(&e.path(), keys),
            Ok(t) if t.is_file() => {
                *keys += 1;
                total += e.metadata().map(|m| m.len()).unwrap_or(0);
            }
            _ => {}
        }
    }
    total
}

fn list_keys(dir: &Path, rel: &str, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let child = if rel.is_empty() {
            name.clone()
        } else {
            format!("{rel}/{name}")
        };
        match e.file_type() {
            Ok(t) if t.is_dir() => list_keys(&e.path(), &child, out),
            Ok(t) if t.is_file() => {
                if let Some(key) = child.strip_suffix(".json") {
                    out.push(key.to_owned());
                }
            }
            _ => {}
        }
    }
}

impl Storage {
    fn root(&self) -> Result<(PathBuf, String), (&'static str, String)> {
        let m = self
            .0
            .upgrade()
            .ok_or(("storage_unavailable", "the mod is unloaded".to_owned()))?;
        let profile = m.host.profile.borrow().clone().ok_or((
            "storage_unavailable",
            "no profile folder is configured for this run".to_owned(),
        ))?;
        Ok((profile.join("storage").join(&m.id), m.id.clone()))
    }

    fn file(&self, key: &str) -> Result<PathBuf, (&'static str, String)> {
        if !valid_key(key) {
            return Err((
                "invalid_key",
                format!("{key:?}: keys are /-separated segments of letters, digits, _ and -"),
            ));
        }
        let (root, _) = self.root()?;
        Ok(root.join(format!("{key}.json")))
    }

    fn write(&self, key: &str, value: &Value) -> Result<(), (&'static str, String)> {
        let path = self.file(key)?;
        let (root, _) = self.root()?;
        let text = serde_json::to_string(value).map_err(|e| ("encode_failed", e.to_string()))?;
        if text.len() > MAX_VALUE_BYTES {
            return Err((
                "encode_failed",
                format!("the value encodes to more than {MAX_VALUE_BYTES} bytes"),
            ));
        }
        let mut keys = 0;
        let used = dir_size(&root, &mut keys);
        let old = std::fs::metadata(&path).map(|m| m.len()).ok();
        if old.is_none() && keys >= MAX_KEYS {
            return Err(("write_failed", format!("the store holds {MAX_KEYS} keys")));
        }
        if used - old.unwrap_or(0) + text.len() as u64 > MAX_STORE_BYTES {
            return Err((
                "write_failed",
                format!("the mod's store would exceed {MAX_STORE_BYTES} bytes"),
            ));
        }
        let io = |e: std::io::Error| ("write_failed", e.to_string());
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(io)?;
        }
        let tmp = path.with_extension("json.tmp");
        std::fs::write(&tmp, text.as_bytes()).map_err(io)?;
        std::fs::rename(&tmp, &path).map_err(io)
    }

    fn read(&self, key: &str) -> Result<Value, (&'static str, String)> {
        let path = self.file(key)?;
        let text = std::fs::read_to_string(&path)
            .map_err(|_| ("not_found", format!("{key}: nothing stored")))?;
        serde_json::from_str(&text).map_err(|e| ("not_found", format!("{key}: unreadable: {e}")))
    }
}

/// `storage:context(game)`: the Lua engine's scope of a store, `{engineVersion, gameVersion,
/// playthroughId}` (the identity a checkpoint of this game carries, so a save-state mod can
/// match its snapshots), plus `modId` and Pallet's `game`. `playthroughId` is absent until the
/// game has one (`checkpoints:inspect` makes it) or when no game can be read.
fn context(id: String, game: &str) -> Value {
    let playthrough = pallet_engine::game_view::save_view()
        .ok()
        .and_then(|s| s.get("meta")?.get("playthroughId").cloned())
        .filter(|v| matches!(v, Value::Str(_)));
    let mut pairs = vec![
        ("modId", Value::Str(id)),
        ("game", Value::from(game)),
        ("gameVersion", Value::from(game)),
        ("engineVersion", Value::from(env!("CARGO_PKG_VERSION"))),
    ];
    if let Some(p) = playthrough {
        pairs.push(("playthroughId", p));
    }
    Value::map(pairs)
}

impl UserData for Storage {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method("context", |lua, this, _game: LuaValue| {
            match (this.root(), this.0.upgrade()) {
                (Ok((_, id)), Some(m)) => Ok(MultiValue::from_iter([to_lua(
                    lua,
                    &context(id, m.host.game.get().as_str()),
                )?])),
                (Err((code, msg)), _) => fail(lua, LuaValue::Nil, code, &msg),
                (_, None) => fail(lua, LuaValue::Nil, "storage_unavailable", "unloaded"),
            }
        });
        methods.add_method(
            "write",
            |lua, this, (_game, key, value): (LuaValue, String, LuaValue)| {
                let value = match from_lua(&value) {
                    Ok(v) => v,
                    Err(e) => return fail(lua, LuaValue::Boolean(false), "encode_failed", &e.0),
                };
                match this.write(&key, &value) {
                    Ok(()) => Ok(MultiValue::from_iter([LuaValue::Boolean(true)])),
                    Err((code, msg)) => fail(lua, LuaValue::Boolean(false), code, &msg),
                }
            },
        );
        methods.add_method(
            "read",
            |lua, this, (_game, key): (LuaValue, String)| match this.read(&key) {
                Ok(v) => Ok(MultiValue::from_iter([to_lua(lua, &v)?])),
                Err((code, msg)) => fail(lua, LuaValue::Nil, code, &msg),
            },
        );
        methods.add_method(
            "list",
            |lua, this, (_game, prefix): (LuaValue, Option<String>)| {
                let (root, _) = match this.root() {
                    Ok(r) => r,
                    Err((code, msg)) => return fail(lua, LuaValue::Nil, code, &msg),
                };
                let mut keys = Vec::new();
                list_keys(&root, "", &mut keys);
                keys.sort();
                let prefix = prefix.unwrap_or_default();
                let v = Value::List(
                    keys.into_iter()
                        .filter(|k| k.starts_with(&prefix))
                        .map(Value::Str)
                        .collect(),
                );
                Ok(MultiValue::from_iter([to_lua(lua, &v)?]))
            },
        );
        methods.add_method("delete", |lua, this, (_game, key): (LuaValue, String)| {
            let path = match this.file(&key) {
                Ok(p) => p,
                Err((code, msg)) => return fail(lua, LuaValue::Boolean(false), code, &msg),
            };
            match std::fs::remove_file(&path) {
                Ok(()) => Ok(MultiValue::from_iter([LuaValue::Boolean(true)])),
                Err(_) => fail(
                    lua,
                    LuaValue::Boolean(false),
                    "not_found",
                    &format!("{key}: nothing stored"),
                ),
            }
        });
    }
}

impl UserData for Assets {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method("path", |_, this, rel: String| {
            let m = this
                .0
                .upgrade()
                .ok_or_else(|| mlua::Error::runtime("the mod is unloaded"))?;
            if !safe_relative_path(&rel) {
                return Err(mlua::Error::runtime(format!(
                    "assets:path: {rel:?} is not a relative path inside the mod folder"
                )));
            }
            Ok(format!("mods/{}/{rel}", m.id))
        });
        methods.add_method("info", |lua, this, rel: String| {
            let m = this
                .0
                .upgrade()
                .ok_or_else(|| mlua::Error::runtime("the mod is unloaded"))?;
            match m.files.info(&rel) {
                Some(size) => to_lua(
                    lua,
                    &Value::map([("type", Value::from("file")), ("size", Value::Int(size))]),
                ),
                None => Ok(LuaValue::Nil),
            }
        });
        methods.add_method("list", |lua, this, prefix: Option<String>| {
            let m = this
                .0
                .upgrade()
                .ok_or_else(|| mlua::Error::runtime("the mod is unloaded"))?;
            match m.files.list(&prefix.unwrap_or_default()) {
                Ok(paths) => to_lua(
                    lua,
                    &Value::List(paths.into_iter().map(Value::Str).collect()),
                ),
                Err(_) => Ok(LuaValue::Nil),
            }
        });
    }
}
