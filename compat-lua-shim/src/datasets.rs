//! `mod.datasets:open(version)` (RFC 0015-views): a read-only view or `nil, reason`
//! (`unknown_version`, `not_imported`, `invalid_cache`). Without a dataset service (no cache
//! configured) every version reads as `not_imported`.
//!
//! The view (`view.version`, `view.generation`, `view.content.<registry>:get/has/each`,
//! `view.assets:path/info`) is userdata: it has no write verbs and every record it returns is a
//! detached copy.

use std::rc::{Rc, Weak};

use mlua::{MetaMethod, MultiValue, UserData, UserDataFields, UserDataMethods, Value as LuaValue};
use pallet_api::content::canonical_registry;
use pallet_api::facades::DatasetView;
use pallet_api::reasons::DatasetError;
use pallet_api::Value;

use crate::convert::{rows_iterator, to_lua};
use crate::mod_state::LuaMod;

pub struct Datasets(pub Weak<LuaMod>);

struct View(Rc<dyn DatasetView>);
struct ViewContent(Rc<dyn DatasetView>);
struct ViewRegistry {
    view: Rc<dyn DatasetView>,
    name: String,
}
struct ViewAssets(Rc<dyn DatasetView>);

impl UserData for Datasets {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method("open", |lua, this, version: LuaValue| {
            let m = this
                .0
                .upgrade()
                .ok_or_else(|| mlua::Error::runtime("the mod is unloaded"))?;
            let version = match &version {
                LuaValue::String(s) => s.to_string_lossy(),
                _ => String::new(),
            };
            let service = m.host.datasets.borrow().clone();
            let opened = match service {
                Some(s) => s.open(&version),
                None if pallet_api::catalog::common::GameVersion::parse(&version).is_none() => {
                    Err(DatasetError::UnknownVersion)
                }
                None => Err(DatasetError::NotImported),
            };
            match opened {
                Ok(view) => Ok(MultiValue::from_iter([LuaValue::UserData(
                    // Reads charged to the dispatch's budget by what they copy (issue 21).
                    lua.create_userdata(View(Rc::new(pallet_api::host_cost::ChargedView::new(
                        view,
                        m.host.budget.clone(),
                    ))))?,
                )])),
                Err(reason) => Ok(MultiValue::from_iter([
                    LuaValue::Nil,
                    LuaValue::String(lua.create_string(reason.as_str())?),
                ])),
            }
        });
    }
}

impl UserData for View {
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        fields.add_field_method_get("version", |_, this| {
            Ok(this.0.version().as_str().to_owned())
        });
        fields.add_field_method_get("generation", |_, this| Ok(f64::from(this.0.generation())));
        fields.add_field_method_get("content", |_, this| Ok(ViewContent(this.0.clone())));
        fields.add_field_method_get("assets", |_, this| Ok(ViewAssets(this.0.clone())));
    }
}

impl UserData for ViewContent {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        // Every public registry name and alias (`view.content.species` is `pokemon`); any
        // other key is nil, as on a plain table.
        methods.add_meta_method(MetaMethod::Index, |_, this, name: LuaValue| {
            let name = match &name {
                LuaValue::String(s) => s.to_str().ok().map(|s| (*s).to_owned()),
                _ => None,
            };
            Ok(name
                .filter(|n| canonical_registry(n).is_some())
                .map(|name| ViewRegistry {
                    view: this.0.clone(),
                    name,
                }))
        });
    }
}

/// A Lua string id (numbers are not ids: `get(42)` is absent, not `"42"`).
fn string_id(id: &LuaValue) -> Option<String> {
    match id {
        LuaValue::String(s) => s.to_str().ok().map(|s| (*s).to_owned()),
        _ => None,
    }
}

impl UserData for ViewRegistry {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        // A non-string (or empty) id is simply absent: nil / false, as in the Lua engine.
        methods.add_method("get", |lua, this, id: LuaValue| {
            match string_id(&id).and_then(|id| this.view.get(&this.name, &id)) {
                Some(v) => to_lua(lua, &v),
                None => Ok(LuaValue::Nil),
            }
        });
        methods.add_method("has", |_, this, id: LuaValue| {
            Ok(string_id(&id).is_some_and(|id| this.view.has(&this.name, &id)))
        });
        methods.add_method("each", |lua, this, ()| {
            rows_iterator(lua, this.view.each(&this.name))
        });
    }
}

impl UserData for ViewAssets {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method("path", |_, this, rel: String| Ok(this.0.asset_path(&rel)));
        methods.add_method("info", |lua, this, rel: String| {
            match this.0.asset_info(&rel) {
                Some(info) => to_lua(
                    lua,
                    &Value::map([
                        ("type", Value::Str(info.kind)),
                        (
                            "size",
                            info.size.map_or(Value::Nil, |s| Value::Int(s as i64)),
                        ),
                    ]),
                ),
                None => Ok(LuaValue::Nil),
            }
        });
    }
}
