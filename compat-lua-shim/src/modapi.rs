//! The legacy `mod` object (docs/modding-lua.md, "The `mod` object"), over Pallet's buses,
//! services and facades.
//!
//! `mod` is a plain table (legacy mods keep their own fields on it); its services are
//! **handle tables** ([`crate::handles`]: `type(mod.hooks) == "table"`, methods called with `:`)
//! whose metatables are protected (`getmetatable` returns `false`, `setmetatable`, field writes
//! and `rawset` refuse them) and whose capability lives in Rust closures, so no metatable game
//! can swap a handle's methods or forge one.
//!
//! | member | what it is |
//! |---|---|
//! | `id`, `version`, `path`, `manifest`, `generation`, `developer` | identity (`manifest` is a deep copy of `manifest.json`; `path` is `mods/<id>`) |
//! | `hooks:wrap(name, fn, priority)` | a link on the shared chain; returns an unsubscribe function. A name the engine never raises is accepted with a one-time warning (the wrapper never runs), as on the Lua engine's name-keyed bus, and listed as a dormant link in `mods.loaded`'s `ev.loader.hooks.chains` |
//! | `events:on/once(name, fn, priority)`, `events:emit(name, payload)` | listeners (unsubscribe function returned); emit only `mod.<id>.*`; a `mods.loaded` listener's payload also reads `loader` ([`crate::loader_view`]) |
//! | `log:info/warn/error(fmt, …)` | printf-style (`string.format`), prefixed `[id]` |
//! | `save:get(key, default)`, `save:set(key, value)` | the mod's bucket in the save's `modData` |
//! | `options:define(rows)`, `options:get(key)` | option rows and live values |
//! | `find(id)` / `mod:find(id)` | `{id, version, exports}` or nil |
//! | `exports` | a table; its data (functions left out) is published after the entry |
//! | `content.<registry>:register/override/patch/remove/get/each` | the content registries; `DELETE` is the patch sentinel, `__append`/`__prepend` extend lists; a registry Pallet does not have drops writes with a one-time warning |
//! | `world:activeBlockAt(mapId, bx, by)` | RFC 0013: block id or `nil, reason` |
//! | `datasets:open(version)` | RFC 0015 view or `nil, reason` |
//! | `mod:read(rel)`, `mod:list(prefix)` | the mod's own files (`nil, err` on failure) |
//! | `checkpoints:inspect(game)`, `:capture(game)`, `:restore(game, cp)`, `:ensureNormalSave(game, cp)` | RFC 0004: capability table; checkpoint or `nil, code, message`; `true` or `false, code, message` (the engine lends the game at safe points; elsewhere `script_busy`); `ensureNormalSave`: `true` once the run's save file exists (written now if not), else `nil, code, message` |
//! | `storage:context/write/read/list/delete`, `assets:path/info/list` | [`crate::storage`]: a mod-private key/value store in the profile folder; the mod's own files by name (no bytes) |
//! | `game` | a read-only view: `game.save` (a copy of the save, re-read each time) and `game.data` (the merged content registries), see `crate::game_view` |
//! | `input:tap(game, button)`, `:press(game, button)`, `:release(token)` | [`crate::input`]: buttons pressed at a safe point (`true`, a token, `true`; else `nil, reason, message`) |
//! | `ui`, `commands`, `migrations`, … | **nil**: the engine does not provide them (yet), so feature probes take their fallback |

use std::rc::{Rc, Weak};

use mlua::{
    AnyUserData, Function, Lua, MultiValue, Table, UserData, UserDataMethods, Value as LuaValue,
};
use pallet_api::access::current_world;
use pallet_api::budget::BUDGET_EXHAUSTED;
use pallet_api::catalog::{event_info, hook_info};
use pallet_api::content::canonical_registry;
use pallet_api::manifest::Manifest;
use pallet_api::reasons::BlockReadError;
use pallet_api::Value;

use crate::convert::{from_lua, rows_iterator, to_lua};
use crate::errors::{nil_reason, nil_reason_message};
use crate::link::LuaListener;
use crate::mod_state::LuaMod;

fn gone() -> mlua::Error {
    mlua::Error::runtime("the mod is unloaded")
}

fn upgrade(m: &Weak<LuaMod>) -> mlua::Result<Rc<LuaMod>> {
    m.upgrade().ok_or_else(gone)
}

fn data(v: &LuaValue, what: &str) -> mlua::Result<Value> {
    from_lua(v).map_err(|e| mlua::Error::runtime(format!("{what}: {e}")))
}

/// A Lua priority number as a chain priority (fractions floored, clamped to 32 bits).
fn priority(p: Option<f64>) -> i32 {
    match p {
        Some(p) if p.is_finite() => {
            p.floor().clamp(f64::from(i32::MIN), f64::from(i32::MAX)) as i32
        }
        _ => 0,
    }
}

// ----- hooks ---------------------------------------------------------------------------------

struct Hooks(Weak<LuaMod>);

impl UserData for Hooks {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method(
            "wrap",
            |lua, this, (name, f, prio): (String, Function, Option<f64>)| {
                let m = upgrade(&this.0)?;
                let rt = m.host.rt.upgrade().ok_or_else(gone)?;
                let Some(info) = hook_info(&name) else {
                    m.warn_once(
                        &format!("hook:{name}"),
                        &format!(
                            "hook {name} is not raised by Pallet; this wrapper never runs (see docs/modding-lua.md)"
                        ),
                    );
                    return dormant(lua, &m, name, priority(prio));
                };
                let handle = crate::link::wrap(&rt, &m, info, f, priority(prio))?;
                let weak_rt = Rc::downgrade(&rt);
                lua.create_function(move |_, ()| {
                    Ok(weak_rt
                        .upgrade()
                        .is_some_and(|rt| rt.unsubscribe_hook(handle)))
                })
            },
        );
    }
}

/// A wrapper of a hook Pallet never raises: listed (the loader view's `hooks.chains`), never
/// run; the unsubscribe function returned takes it off the list.
fn dormant(lua: &Lua, m: &Rc<LuaMod>, hook: String, priority: i32) -> mlua::Result<Function> {
    let host = &m.host;
    let mut list = host.dormant.borrow_mut();
    if list.iter().filter(|d| d.owner == m.id).count() >= crate::mod_state::MAX_DORMANT_PER_MOD {
        drop(list);
        m.warn_once(
            "hook:dormant-cap",
            &format!(
                "lua.max_dormant_wraps: more than {} wrappers of hooks Pallet does not raise; \
                 the rest are not listed in ev.loader.hooks.chains",
                crate::mod_state::MAX_DORMANT_PER_MOD
            ),
        );
        return lua.create_function(|_, ()| Ok(false));
    }
    let seq = host.dormant_seq.get();
    host.dormant_seq.set(seq + 1);
    list.push(crate::mod_state::DormantLink {
        hook,
        owner: m.id.clone(),
        priority,
        seq,
    });
    let weak = Rc::downgrade(m);
    lua.create_function(move |_, ()| {
        let Some(m) = weak.upgrade() else {
            return Ok(false);
        };
        let mut list = m.host.dormant.borrow_mut();
        let before = list.len();
        list.retain(|d| d.seq != seq);
        Ok(list.len() < before)
    })
}

// ----- events --------------------------------------------------------------------------------

struct Events(Weak<LuaMod>);

fn subscribe(
    lua: &Lua,
    this: &Events,
    name: String,
    f: Function,
    prio: Option<f64>,
    once: bool,
) -> mlua::Result<Function> {
    let m = upgrade(&this.0)?;
    let rt = m.host.rt.upgrade().ok_or_else(gone)?;
    rt.check_listener_quota(&m.id)
        .map_err(mlua::Error::runtime)?;
    // A `mods.loaded` listener gets the Lua engine's `ev.loader` ([`crate::loader_view`]).
    let loader = name == "mods.loaded";
    if loader {
        m.host.wants_loader.set(true);
    }
    let listener = Rc::new(LuaListener {
        f,
        m: m.clone(),
        loader,
        battle_started: name == "battle.started",
    });
    let handle = match event_info(&name) {
        Some(info) => (info.on_script)(&rt, &m.id, priority(prio), once, listener),
        None => {
            use pallet_api::script::ScriptListener;
            rt.on_named(&name, &m.id, priority(prio), once, move |payload| {
                listener.call(payload)
            })
        }
    };
    let weak_rt = Rc::downgrade(&rt);
    lua.create_function(move |_, ()| {
        Ok(weak_rt
            .upgrade()
            .is_some_and(|rt| rt.unsubscribe_event(&handle)))
    })
}

impl UserData for Events {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method(
            "on",
            |lua, this, (name, f, prio): (String, Function, Option<f64>)| {
                subscribe(lua, this, name, f, prio, false)
            },
        );
        methods.add_method(
            "once",
            |lua, this, (name, f, prio): (String, Function, Option<f64>)| {
                subscribe(lua, this, name, f, prio, true)
            },
        );
        methods.add_method("emit", |_, this, (name, payload): (String, LuaValue)| {
            let m = upgrade(&this.0)?;
            let rt = m.host.rt.upgrade().ok_or_else(gone)?;
            let payload = data(&payload, "events:emit payload")?;
            // One emit is host work (a payload copy per listener, nested dispatch): charged, so
            // a listener re-emitting its own event spends the budget, not the log (issue 21).
            let units = pallet_api::host_cost::emit_units(&payload);
            if pallet_api::host_cost::charge_host(&m.host.budget, units) {
                return Err(mlua::Error::runtime(BUDGET_EXHAUSTED));
            }
            rt.emit_mod(&m.id, &name, &payload)
                .map_err(|e| mlua::Error::runtime(e.to_string()))
        });
    }
}

// ----- log -----------------------------------------------------------------------------------

struct Log(Weak<LuaMod>);

/// The log line for `args`. A budget stop or memory error inside `tostring`/`format` (a
/// mod's `__tostring`) is passed on, never swallowed into the line.
fn printf(m: &LuaMod, lua: &Lua, args: MultiValue) -> mlua::Result<String> {
    let tostring = |v: &LuaValue| -> mlua::Result<String> {
        match lua
            .globals()
            .get::<Function>("tostring")
            .and_then(|f| f.call::<String>(v.clone()))
        {
            Ok(s) => Ok(s),
            Err(e) if crate::errors::is_stop(&e) => Err(e),
            Err(_) => Ok(format!("<{}>", v.type_name())),
        }
    };
    if args.len() <= 1 {
        return args.front().map(tostring).unwrap_or(Ok(String::new()));
    }
    match m.format.call::<String>(args.clone()) {
        Ok(s) => Ok(s),
        Err(e) if crate::errors::is_stop(&e) => Err(e),
        Err(e) => {
            let parts = args
                .iter()
                .map(tostring)
                .collect::<mlua::Result<Vec<_>>>()?;
            Ok(format!(
                "{} (bad format: {})",
                parts.join(" "),
                crate::errors::short(&e)
            ))
        }
    }
}

impl UserData for Log {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        for level in ["info", "warn", "error"] {
            methods.add_method(level, move |lua, this, args: MultiValue| {
                let m = upgrade(&this.0)?;
                let text = crate::sandbox::cut(&printf(&m, lua, args)?);
                match level {
                    "info" => m.log.info(&text),
                    "warn" => m.log.warn(&text),
                    _ => m.log.error(&text),
                }
                Ok(())
            });
        }
    }
}

// ----- save, options -------------------------------------------------------------------------

struct Save(Weak<LuaMod>);

impl UserData for Save {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method("get", |lua, this, (key, default): (String, LuaValue)| {
            let m = upgrade(&this.0)?;
            let default = data(&default, "save:get default")?;
            to_lua(lua, &m.save.get(&key, default))
        });
        methods.add_method("set", |_, this, (key, value): (String, LuaValue)| {
            let m = upgrade(&this.0)?;
            let value = data(&value, "save:set")?;
            m.save
                .set(&key, value)
                .map_err(|e| mlua::Error::runtime(format!("save:set: {e}")))
        });
    }
}

struct Options(Weak<LuaMod>);

impl UserData for Options {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method("define", |_, this, rows: LuaValue| {
            let m = upgrade(&this.0)?;
            let rows = data(&rows, "options:define")?;
            m.options
                .define(rows)
                .map_err(|e| mlua::Error::runtime(format!("options:define: {e}")))
        });
        methods.add_method("get", |lua, this, key: String| {
            let m = upgrade(&this.0)?;
            to_lua(lua, &m.options.get(&key))
        });
    }
}

// ----- content -------------------------------------------------------------------------------

struct RegistryHandle {
    m: Weak<LuaMod>,
    name: String,
    known: bool,
}

impl RegistryHandle {
    fn write(&self, op: &str, id: &str, value: Option<&LuaValue>) -> mlua::Result<()> {
        let m = upgrade(&self.m)?;
        if !self.known {
            m.warn_once(
                &format!("registry:{}", self.name),
                &format!(
                    "content.{} is not a Pallet registry; {op}({id}) and later writes to it are dropped",
                    self.name
                ),
            );
            return Ok(());
        }
        let value = match value {
            Some(v) => {
                let at = format!("content.{}:{op}({id})", self.name);
                let v = data(v, &at)?;
                crate::spelling::record_in(&self.name, id, v)
                    .map_err(|e| mlua::Error::runtime(format!("{at}: {e}")))?
            }
            None => Value::Nil,
        };
        let c = &m.content;
        let r = match op {
            "register" => c.register(&self.name, id, value),
            "override" => c.override_record(&self.name, id, value),
            "patch" => c.patch(&self.name, id, value),
            _ => c.remove(&self.name, id),
        };
        r.map_err(|e| mlua::Error::runtime(e.to_string()))
    }
}

impl UserData for RegistryHandle {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        for op in ["register", "override", "patch"] {
            methods.add_method(op, move |lua, this, (id, v): (String, LuaValue)| {
                if op == "register" && canonical_registry(&this.name) == Some("map_scripts") {
                    // Handlers given as functions stay with the mod (`crate::map_handlers`).
                    let (data, handlers) = crate::map_handlers::split(lua, &v)?;
                    this.write(op, &id, Some(&data))?;
                    crate::map_handlers::keep(&upgrade(&this.m)?, &id, handlers);
                    return Ok(());
                }
                if canonical_registry(&this.name) == Some(crate::item_effects::REGISTRY) {
                    // `use` stays with the mod (`crate::item_effects`).
                    let (data, f) = crate::item_effects::split(lua, op, &id, &v)?;
                    this.write(op, &id, Some(&data))?;
                    if let Some(f) = f {
                        crate::item_effects::keep(&upgrade(&this.m)?, &id, f);
                    }
                    return Ok(());
                }
                this.write(op, &id, Some(&v))
            });
        }
        methods.add_method("remove", |_, this, id: String| {
            this.write("remove", &id, None)
        });
        methods.add_method("get", |lua, this, id: String| {
            let m = upgrade(&this.m)?;
            match m.content.get(&this.name, &id) {
                Some(v) => to_lua(lua, &crate::spelling::record_out(&this.name, v)),
                None => Ok(LuaValue::Nil),
            }
        });
        // `for id, record in content.X:each() do … end` (ids in lexical order, copies).
        methods.add_method("each", |lua, this, ()| {
            let m = upgrade(&this.m)?;
            let rows = m.content.each(&this.name);
            if m.content.stopped() {
                return Err(mlua::Error::runtime(BUDGET_EXHAUSTED));
            }
            let rows = rows
                .into_iter()
                .map(|(id, v)| (id, crate::spelling::record_out(&this.name, v)))
                .collect();
            rows_iterator(lua, rows)
        });
    }
}

/// `mod.content`: a handle whose fields are the registry handles (`mod.content.pokemon`, …;
/// names and aliases such as `species` → `pokemon`).
fn content_table(lua: &Lua, m: Weak<LuaMod>) -> mlua::Result<Table> {
    crate::handles::table_with_index(lua, "mod.content", move |lua, name| {
        let handle = RegistryHandle {
            m: m.clone(),
            known: canonical_registry(name).is_some(),
            name: name.to_owned(),
        };
        Ok(LuaValue::Table(crate::handles::table_of(
            lua,
            handle,
            &["register", "override", "patch", "remove", "get", "each"],
            "a mod.content registry",
        )?))
    })
}

// ----- world ---------------------------------------------------------------------------------

/// `mod.world`, carrying its mod's id (a mid-tick action deferred to the end of the tick
/// reports a refusal on that mod's log).
struct World(Rc<str>);

impl UserData for World {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        // RFC 0013: `activeBlockAt(mapId, blockX, blockY) -> blockId | nil, reason`.
        methods.add_method(
            "activeBlockAt",
            |lua, _, (map_id, bx, by): (LuaValue, LuaValue, LuaValue)| {
                let map_id = match &map_id {
                    LuaValue::String(s) => s.to_str().map(|s| s.to_string()).unwrap_or_default(),
                    _ => String::new(),
                };
                let bx = from_lua(&bx).unwrap_or(Value::Nil);
                let by = from_lua(&by).unwrap_or(Value::Nil);
                let read = current_world(|w| match w {
                    None => Err(BlockReadError::NoOverworld),
                    Some(w) => w.active_block_at(&map_id, &bx, &by),
                });
                match read {
                    Ok(block) => Ok(MultiValue::from_iter([LuaValue::Number(f64::from(block))])),
                    Err(reason) => nil_reason(lua, reason.as_str()),
                }
            },
        );
        // The `world` facade (issue 17) under the Lua engine's names: one implementation in
        // `pallet_engine::world_facade`; a refusal is `nil, reason, message`.
        for &(name, lua_name) in pallet_api::facades::WORLD_METHODS {
            methods.add_method(lua_name, move |lua, this, args: MultiValue| {
                let mut values = Vec::with_capacity(args.len());
                for a in args.iter() {
                    match from_lua(a) {
                        Ok(v) => values.push(v),
                        Err(e) => {
                            return nil_reason_message(lua, "invalid argument", &e.to_string())
                        }
                    }
                }
                // `startWildBattle(species, level, dvs)`: DVs in the Lua engine's spelling.
                if name == "start_wild_battle" && values.len() > 2 {
                    values[2] = crate::spelling::dvs_from_lua(std::mem::take(&mut values[2]));
                }
                match pallet_engine::world_facade::call_lent_by(Some(&this.0), name, &values) {
                    Ok(v) if name == "overworld" => {
                        Ok(MultiValue::from_iter([crate::overworld_view::to_lua_view(
                            lua, &v,
                        )?]))
                    }
                    Ok(v) => Ok(MultiValue::from_iter([to_lua(lua, &v)?])),
                    Err(f) => nil_reason_message(lua, f.reason, &f.message),
                }
            });
        }
    }
}

// ----- identity, files, find ----------------------------------------------------------------

fn json_to_value(j: &serde_json::Value) -> Value {
    match j {
        serde_json::Value::Null => Value::Nil,
        serde_json::Value::Bool(b) => Value::Bool(*b),
        serde_json::Value::Number(n) => match n.as_i64() {
            Some(i) => Value::Int(i),
            None => Value::Float(n.as_f64().unwrap_or(0.0)),
        },
        serde_json::Value::String(s) => Value::Str(s.clone()),
        serde_json::Value::Array(a) => Value::List(a.iter().map(json_to_value).collect()),
        serde_json::Value::Object(o) => Value::Map(
            o.iter()
                .map(|(k, v)| (k.clone(), json_to_value(v)))
                .collect(),
        ),
    }
}

/// `f(x)` and `obj:f(x)` both accepted: drop a leading table (the `mod` object).
fn method_arg(args: MultiValue) -> LuaValue {
    let mut it = args.into_iter();
    match it.next() {
        Some(LuaValue::Table(_)) => it.next().unwrap_or(LuaValue::Nil),
        Some(v) => v,
        None => LuaValue::Nil,
    }
}

fn install_files(lua: &Lua, api: &Table, m: &Rc<LuaMod>) -> mlua::Result<()> {
    let weak = Rc::downgrade(m);
    api.raw_set(
        "read",
        lua.create_function(move |lua, args: MultiValue| {
            let m = upgrade(&weak)?;
            let rel = match method_arg(args) {
                LuaValue::String(s) => s.to_string_lossy(),
                _ => return nil_reason(lua, "read: a relative file path is required"),
            };
            match m.files.read(&rel) {
                Ok(text) => {
                    // Charged by its size (issue 21): a loop of big reads stops at the budget.
                    let units = pallet_api::host_cost::read_units(text.len());
                    if pallet_api::host_cost::charge_host(&m.host.budget, units) {
                        return Err(mlua::Error::runtime(BUDGET_EXHAUSTED));
                    }
                    Ok(MultiValue::from_iter([LuaValue::String(
                        lua.create_string(text)?,
                    )]))
                }
                Err(e) => nil_reason(lua, &e),
            }
        })?,
    )?;
    let weak = Rc::downgrade(m);
    api.raw_set(
        "list",
        lua.create_function(move |lua, args: MultiValue| {
            let m = upgrade(&weak)?;
            let prefix = match method_arg(args) {
                LuaValue::String(s) => s.to_string_lossy(),
                _ => String::new(),
            };
            match m.files.list(&prefix) {
                Ok(paths) => {
                    let v = Value::List(paths.into_iter().map(Value::Str).collect());
                    Ok(MultiValue::from_iter([to_lua(lua, &v)?]))
                }
                Err(e) => nil_reason(lua, &e),
            }
        })?,
    )?;
    let weak = Rc::downgrade(m);
    api.raw_set(
        "find",
        lua.create_function(move |lua, args: MultiValue| {
            let m = upgrade(&weak)?;
            let id = match method_arg(args) {
                LuaValue::String(s) => s.to_string_lossy(),
                _ => return Ok(LuaValue::Nil),
            };
            let found = m.host.exports.borrow().get(&id).cloned();
            match found {
                Some((version, exports)) => to_lua(
                    lua,
                    &Value::map([
                        ("id", Value::Str(id)),
                        ("version", Value::Str(version)),
                        ("exports", exports),
                    ]),
                ),
                None => Ok(LuaValue::Nil),
            }
        })?,
    )?;
    Ok(())
}

/// Build the `mod` object for `m`.
pub fn build(m: &Rc<LuaMod>, manifest: &Manifest, path: &str) -> mlua::Result<Table> {
    let lua = &m.lua;
    let weak = Rc::downgrade(m);
    let api = lua.create_table()?;
    api.raw_set("id", manifest.id.as_str())?;
    api.raw_set("version", manifest.version.as_str())?;
    api.raw_set("path", path)?;
    api.raw_set("generation", f64::from(m.host.game.get().generation()))?;
    api.raw_set("developer", false)?;
    api.raw_set("manifest", to_lua(lua, &json_to_value(&manifest.raw))?)?;
    // The patch sentinel (immutable userdata; crosses as the api's delete marker).
    api.raw_set("DELETE", crate::convert::DeleteSentinel)?;
    api.raw_set("exports", lua.create_table()?)?;
    api.raw_set("game", crate::game_view::mod_game(m)?)?;
    use crate::handles::table_of;
    api.raw_set(
        "hooks",
        table_of(lua, Hooks(weak.clone()), &["wrap"], "mod.hooks")?,
    )?;
    api.raw_set(
        "events",
        table_of(
            lua,
            Events(weak.clone()),
            &["on", "once", "emit"],
            "mod.events",
        )?,
    )?;
    api.raw_set(
        "log",
        table_of(
            lua,
            Log(weak.clone()),
            &["info", "warn", "error"],
            "mod.log",
        )?,
    )?;
    api.raw_set(
        "save",
        table_of(lua, Save(weak.clone()), &["get", "set"], "mod.save")?,
    )?;
    api.raw_set(
        "options",
        table_of(
            lua,
            Options(weak.clone()),
            &["define", "get"],
            "mod.options",
        )?,
    )?;
    api.raw_set("content", content_table(lua, weak.clone())?)?;
    api.raw_set("ui", crate::ui::ui_table(lua)?)?;
    let world_methods: Vec<&str> = std::iter::once("activeBlockAt")
        .chain(pallet_api::facades::WORLD_METHODS.iter().map(|m| m.1))
        .collect();
    api.raw_set(
        "world",
        table_of(
            lua,
            World(manifest.id.as_str().into()),
            &world_methods,
            "mod.world",
        )?,
    )?;
    api.raw_set(
        "input",
        table_of(
            lua,
            crate::input::Input(manifest.id.as_str().into()),
            crate::input::METHODS,
            "mod.input",
        )?,
    )?;
    api.raw_set(
        "checkpoints",
        table_of(
            lua,
            crate::checkpoints::Checkpoints,
            &["inspect", "capture", "restore", "ensureNormalSave"],
            "mod.checkpoints",
        )?,
    )?;
    api.raw_set(
        "datasets",
        table_of(
            lua,
            crate::datasets::Datasets(weak),
            &["open"],
            "mod.datasets",
        )?,
    )?;
    api.raw_set(
        "storage",
        table_of(
            lua,
            crate::storage::Storage(Rc::downgrade(m)),
            &["context", "write", "read", "list", "delete"],
            "mod.storage",
        )?,
    )?;
    api.raw_set(
        "assets",
        table_of(
            lua,
            crate::storage::Assets(Rc::downgrade(m)),
            &["path", "info", "list"],
            "mod.assets",
        )?,
    )?;
    crate::handles::guard_rawset(lua)?;
    install_files(lua, &api, m)?;
    Ok(api)
}

/// Is `v` one of the shim's handles? (Tests and diagnostics.)
pub fn is_handle(v: &AnyUserData) -> bool {
    v.is::<Hooks>()
        || v.is::<Events>()
        || v.is::<Log>()
        || v.is::<Save>()
        || v.is::<Options>()
        || v.is::<RegistryHandle>()
        || v.is::<World>()
        || v.is::<crate::input::Input>()
        || v.is::<crate::checkpoints::Checkpoints>()
}
