//! `mod.ui`, the legacy shared ModUI facade (a plain table of functions, called with `.`):
//!
//! * `insertBefore(items, anchorLabel, item)` / `insertAfter(items, anchorLabel, item)` put
//!   `item` before / after the first entry of the list `items` whose `label` is `anchorLabel`
//!   (a missing anchor appends, so the entry stays reachable), and return `items`;
//! * `removeLabel(items, label)` removes every entry with that label and returns `items`;
//! * `push(game, screenId, …)` raises a stable error: Pallet has no screen stack, so a mod's
//!   screen is never shown (a mod that pushes a screen from a hook gets the error reported for
//!   it, and the game goes on).
//!
//! The widget classes (`ListMenu`, `TextBox`, `Font`, `Theme`, …) are not provided: they draw
//! with LÖVE, which Pallet does not run; a mod that only keeps references to them loads.
//! Menu lists are walked in Rust with a length bound, so a hostile list costs bounded work.

use mlua::{Lua, Table, Value as LuaValue};

/// The longest menu list the helpers walk (a start menu has about ten entries).
pub const MAX_MENU_ITEMS: usize = 4096;

/// The error `mod.ui.push` raises.
pub fn push_refusal(screen: &str) -> String {
    format!("mod.ui.push({screen:?}): Pallet has no screen stack; mod screens are not shown")
}

fn label_of(v: &LuaValue) -> Option<LuaValue> {
    match v {
        LuaValue::Table(t) => t.raw_get::<LuaValue>("label").ok(),
        _ => None,
    }
}

fn same(a: &LuaValue, b: &LuaValue) -> bool {
    match (a, b) {
        (LuaValue::String(x), LuaValue::String(y)) => x.as_bytes() == y.as_bytes(),
        (LuaValue::Integer(x), LuaValue::Integer(y)) => x == y,
        (LuaValue::Number(x), LuaValue::Number(y)) => x == y,
        (LuaValue::Integer(x), LuaValue::Number(y))
        | (LuaValue::Number(y), LuaValue::Integer(x)) => (*x as f64) == *y,
        (LuaValue::Boolean(x), LuaValue::Boolean(y)) => x == y,
        _ => false,
    }
}

fn bounded(items: &Table, what: &str) -> mlua::Result<usize> {
    let len = items.raw_len();
    if len > MAX_MENU_ITEMS {
        return Err(mlua::Error::runtime(format!(
            "mod.ui.{what}: a menu list of {len} entries (at most {MAX_MENU_ITEMS})"
        )));
    }
    Ok(len)
}

/// 1-based index of the first entry labelled `anchor`.
fn index_of(items: &Table, len: usize, anchor: &LuaValue) -> mlua::Result<Option<usize>> {
    for i in 1..=len {
        let v: LuaValue = items.raw_get(i)?;
        if label_of(&v).is_some_and(|l| same(&l, anchor)) {
            return Ok(Some(i));
        }
    }
    Ok(None)
}

fn insert(items: &Table, at: usize, len: usize, item: LuaValue) -> mlua::Result<()> {
    for i in (at..=len).rev() {
        let v: LuaValue = items.raw_get(i)?;
        items.raw_set(i + 1, v)?;
    }
    items.raw_set(at, item)
}

fn insert_near(items: Table, anchor: LuaValue, item: LuaValue, after: bool) -> mlua::Result<Table> {
    let what = if after { "insertAfter" } else { "insertBefore" };
    let len = bounded(&items, what)?;
    let at = match index_of(&items, len, &anchor)? {
        Some(i) if after => i + 1,
        Some(i) => i,
        None => len + 1,
    };
    insert(&items, at, len, item)?;
    Ok(items)
}

/// The `mod.ui` table of one mod.
pub fn ui_table(lua: &Lua) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    t.raw_set(
        "insertBefore",
        lua.create_function(|_, (items, anchor, item): (Table, LuaValue, LuaValue)| {
            insert_near(items, anchor, item, false)
        })?,
    )?;
    t.raw_set(
        "insertAfter",
        lua.create_function(|_, (items, anchor, item): (Table, LuaValue, LuaValue)| {
            insert_near(items, anchor, item, true)
        })?,
    )?;
    t.raw_set(
        "removeLabel",
        lua.create_function(|_, (items, label): (Table, LuaValue)| {
            let len = bounded(&items, "removeLabel")?;
            let mut kept = Vec::with_capacity(len);
            for i in 1..=len {
                let v: LuaValue = items.raw_get(i)?;
                if !label_of(&v).is_some_and(|l| same(&l, &label)) {
                    kept.push(v);
                }
            }
            for i in 1..=len {
                items.raw_set(i, kept.get(i - 1).cloned().unwrap_or(LuaValue::Nil))?;
            }
            Ok(items)
        })?,
    )?;
    t.raw_set(
        "push",
        lua.create_function(
            |_, (_game, screen): (LuaValue, LuaValue)| -> mlua::Result<()> {
                let name = match &screen {
                    LuaValue::String(s) => s.to_string_lossy(),
                    other => format!("{other:?}"),
                };
                Err(mlua::Error::runtime(push_refusal(&name)))
            },
        )?,
    )?;
    Ok(t)
}
