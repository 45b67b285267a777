//! `Value` ↔ Lua values. Everything crossing is a detached copy: tables are copied both ways,
//! functions, userdata and threads never cross into the engine.
//!
//! * Into Lua: `nil`, booleans, numbers (Lua 5.1 has one number type: integers become doubles),
//!   strings, lists → sequence tables (`1..n`), maps → tables with string keys.
//! * Out of Lua: `nil`, booleans, numbers (an integral number within ±2^53 reads as an integer;
//!   NaN and infinities are not data and are refused), UTF-8 strings, tables. A table whose keys
//!   are exactly `1..n` (n ≥ 1) is a list; any other table is a map whose number keys are written
//!   as decimal strings. **An empty table reads as an empty list**: Lua cannot tell `{}`-the-list
//!   from `{}`-the-map, and the engine's list-typed results (`battle.field_residual` rows, EXP
//!   shares, option rows) are where mods hand back empty tables.
//! * Bounds: nesting deeper than [`MAX_DEPTH`] and more than [`MAX_NODES`] values in one
//!   conversion are refused (cycles end at the depth bound).

use std::collections::BTreeMap;

use mlua::{Lua, Table, UserData, Value as LuaValue};
use pallet_api::content::merge;
use pallet_api::script_rng::ScriptRng;
use pallet_api::Value;

use crate::sandbox::RngHandle;

/// `mod.DELETE`: the patch sentinel, a userdata (immutable from Lua) that crosses into the
/// engine as the api's delete marker `{__delete = true}`.
pub struct DeleteSentinel;

impl UserData for DeleteSentinel {}

/// Deepest nesting that crosses the boundary (matches the Rhai host's value depth).
pub const MAX_DEPTH: usize = 32;
/// Most values one conversion may produce.
pub const MAX_NODES: usize = 200_000;
/// `lua.max_value_bytes`: most string bytes one conversion may copy. Lua shares one string
/// among every table slot holding it; the engine's copy does not, so 100,000 slots of one
/// long string would otherwise copy gigabytes.
pub const MAX_VALUE_BYTES: usize = 16 * 1024 * 1024;

/// Why a Lua value cannot cross into the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrossError(pub String);

impl std::fmt::Display for CrossError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<CrossError> for mlua::Error {
    fn from(e: CrossError) -> Self {
        mlua::Error::runtime(e.0)
    }
}

thread_local! {
    /// The host callables alive right now (by function identity): left out of data (the
    /// `ctx.applyShare` of a running `battle.exp_award`, `crate::share`).
    static HOST_CALLABLES: std::cell::RefCell<std::collections::BTreeSet<usize>> =
        const { std::cell::RefCell::new(std::collections::BTreeSet::new()) };
}

/// Mark `f` as a host callable: a table holding it converts without it.
pub(crate) fn mark_host_callable(f: &mlua::Function) {
    HOST_CALLABLES.with(|l| l.borrow_mut().insert(f.to_pointer() as usize));
}

/// `f` is no longer a host callable (its call ended).
pub(crate) fn forget_host_callable(f: &mlua::Function) {
    HOST_CALLABLES.with(|l| l.borrow_mut().remove(&(f.to_pointer() as usize)));
}

/// Is `f` a live host callable?
pub fn is_host_callable(f: &mlua::Function) -> bool {
    let p = f.to_pointer() as usize;
    HOST_CALLABLES.with(|l| l.borrow().contains(&p))
}

/// A Lua value for `v` (a fresh copy).
pub fn to_lua(lua: &Lua, v: &Value) -> mlua::Result<LuaValue> {
    Ok(match v {
        Value::Nil => LuaValue::Nil,
        Value::Bool(b) => LuaValue::Boolean(*b),
        Value::Int(i) => LuaValue::Number(*i as f64),
        Value::Float(f) => LuaValue::Number(*f),
        Value::Str(s) => LuaValue::String(lua.create_string(s)?),
        Value::List(items) => {
            let t = lua.create_table_with_capacity(items.len(), 0)?;
            for (i, item) in items.iter().enumerate() {
                t.raw_set(i + 1, to_lua(lua, item)?)?;
            }
            LuaValue::Table(t)
        }
        Value::Map(m) => {
            let t = lua.create_table_with_capacity(0, m.len())?;
            for (k, item) in m {
                t.raw_set(k.as_str(), to_lua(lua, item)?)?;
            }
            LuaValue::Table(t)
        }
    })
}

/// A Lua iterator over `(id, record)` rows, for `for id, record in x:each() do … end`: each
/// step yields the next id and a fresh copy of its record, then nothing.
pub fn rows_iterator(lua: &Lua, rows: Vec<(String, Value)>) -> mlua::Result<mlua::Function> {
    let mut index = 0usize;
    lua.create_function_mut(move |lua, _: mlua::MultiValue| {
        let Some((id, v)) = rows.get(index) else {
            return Ok(mlua::MultiValue::new());
        };
        index += 1;
        Ok(mlua::MultiValue::from_iter([
            LuaValue::String(lua.create_string(id)?),
            to_lua(lua, v)?,
        ]))
    })
}

/// An engine value for the Lua value `v`. Errors name what could not cross.
pub fn from_lua(v: &LuaValue) -> Result<Value, CrossError> {
    let mut nodes = Tally::default();
    convert(v, 0, &mut nodes, Functions::Refuse)
}

/// Like [`from_lua`], but functions (and other non-data values) inside tables are left out
/// instead of refusing the whole value (`mod.exports`, which legacy mods fill with functions).
pub fn from_lua_data_only(v: &LuaValue) -> Result<Value, CrossError> {
    let mut nodes = Tally::default();
    convert(v, 0, &mut nodes, Functions::Skip)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Functions {
    Refuse,
    Skip,
}

fn is_code(v: &LuaValue) -> bool {
    if let LuaValue::UserData(ud) = v {
        if ud.is::<DeleteSentinel>() || ud.is::<RngHandle>() {
            return false;
        }
    }
    matches!(
        v,
        LuaValue::Function(_)
            | LuaValue::Thread(_)
            | LuaValue::UserData(_)
            | LuaValue::LightUserData(_)
    )
}

/// A Lua number as an engine number.
pub fn number(n: f64) -> Result<Value, CrossError> {
    if !n.is_finite() {
        return Err(CrossError(
            "a non-finite number (NaN or infinity) is not data".to_owned(),
        ));
    }
    if n.fract() == 0.0 && n.abs() < 9.007_199_254_740_992e15 {
        Ok(Value::Int(n as i64))
    } else {
        Ok(Value::Float(n))
    }
}

fn too_many_bytes() -> CrossError {
    CrossError(format!(
        "lua.max_value_bytes: value holds more than {MAX_VALUE_BYTES} bytes of strings"
    ))
}

/// What one conversion has produced so far.
#[derive(Default)]
struct Tally {
    nodes: usize,
    bytes: usize,
}

fn convert(
    v: &LuaValue,
    depth: usize,
    nodes: &mut Tally,
    functions: Functions,
) -> Result<Value, CrossError> {
    nodes.nodes += 1;
    if nodes.nodes > MAX_NODES {
        return Err(CrossError(format!(
            "value has more than {MAX_NODES} elements"
        )));
    }
    match v {
        LuaValue::Nil => Ok(Value::Nil),
        LuaValue::Boolean(b) => Ok(Value::Bool(*b)),
        LuaValue::Integer(i) => Ok(Value::Int(*i)),
        LuaValue::Number(n) => number(*n),
        LuaValue::String(s) => match s.to_str() {
            Ok(s) => {
                nodes.bytes += s.len();
                if nodes.bytes > MAX_VALUE_BYTES {
                    return Err(too_many_bytes());
                }
                Ok(Value::Str(s.to_string()))
            }
            Err(_) => Err(CrossError(
                "a string that is not UTF-8 cannot cross into the engine".to_owned(),
            )),
        },
        LuaValue::Table(t) => {
            if depth >= MAX_DEPTH {
                return Err(CrossError(format!(
                    "value nested deeper than {MAX_DEPTH} levels (a table that contains itself?)"
                )));
            }
            table(t, depth, nodes, functions)
        }
        LuaValue::UserData(ud) if ud.is::<DeleteSentinel>() => Ok(merge::delete()),
        // `ctx.rng` crosses back as its data form, with the state where the mod left it.
        LuaValue::UserData(ud) if ud.is::<RngHandle>() => {
            let state = ud
                .borrow::<RngHandle>()
                .map(|h| h.0.get().state())
                .unwrap_or_default();
            Ok(Value::map([(ScriptRng::MARKER, Value::Int(state))]))
        }
        // `ctx.applyShare` handed back inside `ctx`: the host's own callable, left out.
        LuaValue::Function(f) if is_host_callable(f) => Ok(Value::Nil),
        other => Err(CrossError(format!(
            "a {} cannot cross into the engine (only data: nil, booleans, numbers, strings, tables)",
            other.type_name()
        ))),
    }
}

fn table(
    t: &Table,
    depth: usize,
    nodes: &mut Tally,
    functions: Functions,
) -> Result<Value, CrossError> {
    let len = t.raw_len();
    let mut entries: Vec<(LuaValue, LuaValue)> = Vec::new();
    // String bytes this table's slots will copy, checked while collecting: one shared long
    // string in many slots is refused before the slots are held.
    let mut pending = nodes.bytes;
    for pair in t.pairs::<LuaValue, LuaValue>() {
        let (k, v) = pair.map_err(|e| CrossError(e.to_string()))?;
        if functions == Functions::Skip && is_code(&v) {
            continue;
        }
        if let LuaValue::String(s) = &v {
            pending += s.as_bytes().len();
            if pending > MAX_VALUE_BYTES {
                return Err(too_many_bytes());
            }
        }
        entries.push((k, v));
        if entries.len() > MAX_NODES {
            return Err(CrossError(format!(
                "value has more than {MAX_NODES} elements"
            )));
        }
    }
    let is_list = entries.len() == len
        && entries.iter().all(|(k, _)| match k {
            LuaValue::Integer(i) => *i >= 1 && (*i as usize) <= len,
            LuaValue::Number(n) => n.fract() == 0.0 && *n >= 1.0 && *n <= len as f64,
            _ => false,
        });
    if is_list {
        let mut items = vec![Value::Nil; len];
        for (k, v) in &entries {
            let index = match k {
                LuaValue::Integer(i) => *i as usize,
                LuaValue::Number(n) => *n as usize,
                _ => continue,
            };
            items[index - 1] = convert(v, depth + 1, nodes, functions)?;
        }
        return Ok(Value::List(items));
    }
    let mut map = BTreeMap::new();
    for (k, v) in &entries {
        let key = match k {
            LuaValue::String(s) => match s.to_str() {
                Ok(s) => s.to_string(),
                Err(_) => {
                    return Err(CrossError(
                        "a table key that is not UTF-8 cannot cross into the engine".to_owned(),
                    ))
                }
            },
            LuaValue::Integer(i) => i.to_string(),
            LuaValue::Number(n) => match number(*n)? {
                Value::Int(i) => i.to_string(),
                _ => n.to_string(),
            },
            other => {
                return Err(CrossError(format!(
                "a table key of type {} cannot cross into the engine (keys are strings or numbers)",
                other.type_name()
            )))
            }
        };
        map.insert(key, convert(v, depth + 1, nodes, functions)?);
    }
    Ok(Value::Map(map))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_shapes() {
        let lua = Lua::new();
        let v = Value::map([
            (
                "list",
                Value::List(vec![Value::Int(1), Value::Nil, Value::from("x")]),
            ),
            ("n", Value::Float(1.5)),
            ("i", Value::Int(7)),
        ]);
        let back = from_lua(&to_lua(&lua, &v).unwrap()).unwrap();
        // A nil hole at the end of a sequence is not representable in a Lua table; a hole in
        // the middle makes the table a map — both are Lua's semantics, not ours to paper over.
        assert_eq!(back.get("n"), Some(&Value::Float(1.5)));
        assert_eq!(back.get("i"), Some(&Value::Int(7)));
        let t: LuaValue = lua.load("return {1, 2, 3}").eval().unwrap();
        assert_eq!(
            from_lua(&t).unwrap(),
            Value::List(vec![Value::Int(1), Value::Int(2), Value::Int(3)])
        );
        let t: LuaValue = lua.load("return {}").eval().unwrap();
        assert_eq!(from_lua(&t).unwrap(), Value::List(vec![]));
        let t: LuaValue = lua.load("return {[2] = 'b', a = 1}").eval().unwrap();
        assert_eq!(
            from_lua(&t).unwrap(),
            Value::map([("2", Value::from("b")), ("a", Value::Int(1))])
        );
    }

    #[test]
    fn refuses_code_cycles_and_non_finite() {
        let lua = Lua::new();
        let f: LuaValue = lua.load("return {f = function() end}").eval().unwrap();
        assert!(from_lua(&f).unwrap_err().0.contains("function"));
        assert_eq!(from_lua_data_only(&f).unwrap(), Value::List(vec![]));
        let c: LuaValue = lua.load("local t = {} t.t = t return t").eval().unwrap();
        assert!(from_lua(&c).unwrap_err().0.contains("deeper"));
        let n: LuaValue = lua.load("return 0/0").eval().unwrap();
        assert!(from_lua(&n).is_err());
    }
}
