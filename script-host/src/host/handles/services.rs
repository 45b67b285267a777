//! Per-mod services: `log`, `save`, `options`, `content`, `mod_info`.
//!
//! * `log.info(x)` / `log.warn(x)` / `log.error(x)` — lines `[<mod id>] <text>` in the
//!   runtime's feed (the `pallet run` transcript). `print(x)` and `debug(x)` go there too.
//! * `save.get(key)` / `save.get(key, default)` / `save.set(key, value)` / `save.remove(key)` —
//!   the mod's bucket in the save's `modData` (lives on the host side; travels with saves).
//! * `options.get(key)` / `options.define(rows)`.
//! * `content.register|override|patch(registry, id, record)`, `content.remove(registry, id)`,
//!   `content.get(registry, id)`, `content.has(registry, id)`, `content.ids(registry)`,
//!   `content.each(registry)` (a map id → record, lexical order). Writes are legal while the
//!   mod's entry runs; content is frozen after load.
//! * `mod_info.id`, `.name`, `.version`, `.api`.

use pallet_api::content::{ContentError, ContentErrorKind};
use pallet_api::services::{ModContent, ModLog, ModOptions, SaveBucket};
use pallet_api::Value;
use rhai::{Array, Dynamic, Engine, EvalAltResult, FnPtr, Map, INT};

use crate::host::convert::{from_dynamic, to_dynamic};
use crate::host::error::{api_error, codes};
use crate::host::vm::cut;

/// Longest `save` key.
pub const MAX_SAVE_KEY: usize = 128;

#[derive(Clone)]
pub struct Log(pub(crate) ModLog);

#[derive(Clone)]
pub struct Save(pub(crate) SaveBucket);

#[derive(Clone)]
pub struct Options(pub(crate) ModOptions);

#[derive(Clone)]
pub struct ContentHandle(
    pub(crate) ModContent,
    /// The mod (map-script handlers given as function pointers are kept for it).
    pub(crate) std::rc::Weak<crate::host::vm::ModVm>,
);

/// `mod_info`: the mod's identity (read-only).
#[derive(Clone, Debug)]
pub struct ModInfo {
    pub id: String,
    pub name: String,
    pub version: String,
    pub api: INT,
}

fn text(d: &Dynamic) -> String {
    cut(&d.to_string())
}

/// An `item_effects` record's `use` pointer, taken out of `record` (issue 18 item 8); `None`
/// for other registries.
fn item_effect_use(
    ctx: &rhai::NativeCallContext,
    c: &ContentHandle,
    op: &str,
    registry: &str,
    id: &str,
    record: &mut Dynamic,
) -> Result<Option<(FnPtr, crate::host::vm::Origin)>, Box<EvalAltResult>> {
    if pallet_api::content::canonical_registry(registry) != Some("item_effects") {
        return Ok(None);
    }
    let f = crate::host::item_effects::split(op, id, record)
        .map_err(|e| api_error(codes::INVALID_VALUE, e))?;
    let Some(f) = f else {
        return Ok(None);
    };
    let vm =
        c.1.upgrade()
            .ok_or_else(|| api_error(codes::NO_RUNTIME, "the mod is unloaded"))?;
    Ok(Some((f, crate::host::vm::Origin::of(ctx, &vm))))
}

fn keep_item_effect(
    c: &ContentHandle,
    id: &str,
    effect: Option<(FnPtr, crate::host::vm::Origin)>,
) -> Result<(), Box<EvalAltResult>> {
    if let Some((f, origin)) = effect {
        let vm =
            c.1.upgrade()
                .ok_or_else(|| api_error(codes::NO_RUNTIME, "the mod is unloaded"))?;
        crate::host::item_effects::keep(&vm, id, f, &origin);
    }
    Ok(())
}

fn data(d: &Dynamic, what: &str) -> Result<Value, Box<EvalAltResult>> {
    from_dynamic(d).map_err(|e| api_error(codes::INVALID_VALUE, format!("{what}: {e}")))
}

fn key_ok(key: &str) -> Result<(), Box<EvalAltResult>> {
    if key.is_empty() || key.len() > MAX_SAVE_KEY || key.chars().any(char::is_control) {
        return Err(api_error(
            codes::INVALID_KEY,
            format!("save keys are 1..={MAX_SAVE_KEY} bytes without control characters"),
        ));
    }
    Ok(())
}

/// The `code` of a refused content write.
pub fn content_code(e: &ContentError) -> &'static str {
    match e.kind {
        ContentErrorKind::Exists => "exists",
        ContentErrorKind::Missing => "missing",
        ContentErrorKind::Frozen => "frozen",
        ContentErrorKind::BadId => "invalid_id",
        ContentErrorKind::UnknownRegistry => "unknown_registry",
        ContentErrorKind::Unsupported => "unsupported",
        ContentErrorKind::Schema(_) => "schema",
        ContentErrorKind::Merge { .. } => "invalid_patch",
    }
}

fn content_result(r: Result<(), ContentError>) -> Result<(), Box<EvalAltResult>> {
    r.map_err(|e| api_error(content_code(&e), e.to_string()))
}

pub fn register(engine: &mut Engine) {
    engine.register_type_with_name::<Log>("Log");
    engine.register_fn("info", |l: &mut Log, x: Dynamic| l.0.info(&text(&x)));
    engine.register_fn("warn", |l: &mut Log, x: Dynamic| l.0.warn(&text(&x)));
    engine.register_fn("error", |l: &mut Log, x: Dynamic| l.0.error(&text(&x)));

    engine.register_type_with_name::<Save>("Save");
    engine.register_fn(
        "get",
        |s: &mut Save, key: &str| -> Result<Dynamic, Box<EvalAltResult>> {
            key_ok(key)?;
            Ok(to_dynamic(&s.0.get(key, Value::Nil)))
        },
    );
    engine.register_fn(
        "get",
        |s: &mut Save, key: &str, default: Dynamic| -> Result<Dynamic, Box<EvalAltResult>> {
            key_ok(key)?;
            let default = data(&default, "default")?;
            Ok(to_dynamic(&s.0.get(key, default)))
        },
    );
    engine.register_fn(
        "set",
        |s: &mut Save, key: &str, value: Dynamic| -> Result<(), Box<EvalAltResult>> {
            key_ok(key)?;
            let value = data(&value, "save value")?;
            s.0.set(key, value)
                .map_err(|e| api_error(codes::INVALID_VALUE, e.to_string()))
        },
    );
    engine.register_fn(
        "remove",
        |s: &mut Save, key: &str| -> Result<(), Box<EvalAltResult>> {
            key_ok(key)?;
            s.0.set(key, Value::Nil)
                .map_err(|e| api_error(codes::INVALID_VALUE, e.to_string()))
        },
    );

    engine.register_type_with_name::<Options>("Options");
    engine.register_fn("get", |o: &mut Options, key: &str| {
        to_dynamic(&o.0.get(key))
    });
    engine.register_fn(
        "define",
        |o: &mut Options, rows: Dynamic| -> Result<(), Box<EvalAltResult>> {
            let rows = data(&rows, "option rows")?;
            o.0.define(rows)
                .map_err(|e| api_error(codes::INVALID_VALUE, e.to_string()))
        },
    );

    engine.register_type_with_name::<ContentHandle>("Content");
    engine.register_fn(
        "register",
        |ctx: rhai::NativeCallContext,
         c: &mut ContentHandle,
         registry: &str,
         id: &str,
         mut record: Dynamic|
         -> Result<(), Box<EvalAltResult>> {
            // Function pointers of a map script stay with the mod (issue 18 item 6).
            let handlers =
                if pallet_api::content::canonical_registry(registry) == Some("map_scripts") {
                    crate::host::map_handlers::split(&mut record)
                } else {
                    Vec::new()
                };
            let effect = item_effect_use(&ctx, c, "register", registry, id, &mut record)?;
            let record = data(&record, "record")?;
            content_result(c.0.register(registry, id, record))?;
            keep_item_effect(c, id, effect)?;
            if !handlers.is_empty() {
                let vm =
                    c.1.upgrade()
                        .ok_or_else(|| api_error(codes::NO_RUNTIME, "the mod is unloaded"))?;
                let origin = crate::host::vm::Origin::of(&ctx, &vm);
                crate::host::map_handlers::keep(&vm, id, handlers, &origin);
            }
            Ok(())
        },
    );
    engine.register_fn(
        "override",
        |ctx: rhai::NativeCallContext,
         c: &mut ContentHandle,
         registry: &str,
         id: &str,
         mut record: Dynamic|
         -> Result<(), Box<EvalAltResult>> {
            let effect = item_effect_use(&ctx, c, "override", registry, id, &mut record)?;
            let record = data(&record, "record")?;
            content_result(c.0.override_record(registry, id, record))?;
            keep_item_effect(c, id, effect)
        },
    );
    engine.register_fn(
        "patch",
        |ctx: rhai::NativeCallContext,
         c: &mut ContentHandle,
         registry: &str,
         id: &str,
         mut patch: Dynamic|
         -> Result<(), Box<EvalAltResult>> {
            let effect = item_effect_use(&ctx, c, "patch", registry, id, &mut patch)?;
            let patch = data(&patch, "patch")?;
            content_result(c.0.patch(registry, id, patch))?;
            keep_item_effect(c, id, effect)
        },
    );
    engine.register_fn(
        "remove",
        |c: &mut ContentHandle, registry: &str, id: &str| -> Result<(), Box<EvalAltResult>> {
            content_result(c.0.remove(registry, id))
        },
    );
    // `content.DELETE`: the patch sentinel that unsets a key (Lua's `mod.DELETE`).
    engine.register_get("DELETE", |_: &mut ContentHandle| {
        to_dynamic(&pallet_api::content::merge::delete())
    });
    engine.register_fn("get", |c: &mut ContentHandle, registry: &str, id: &str| {
        c.0.get(registry, id)
            .map_or(Dynamic::UNIT, |v| to_dynamic(&v))
    });
    engine.register_fn("has", |c: &mut ContentHandle, registry: &str, id: &str| {
        c.0.get(registry, id).is_some()
    });
    engine.register_fn("ids", |c: &mut ContentHandle, registry: &str| {
        c.0.ids(registry)
            .into_iter()
            .map(Dynamic::from)
            .collect::<Array>()
    });
    engine.register_fn("each", |c: &mut ContentHandle, registry: &str| {
        c.0.each(registry)
            .iter()
            .map(|(id, v)| (id.as_str().into(), to_dynamic(v)))
            .collect::<Map>()
    });

    engine.register_type_with_name::<ModInfo>("ModInfo");
    engine.register_get("id", |m: &mut ModInfo| m.id.clone());
    engine.register_get("name", |m: &mut ModInfo| m.name.clone());
    engine.register_get("version", |m: &mut ModInfo| m.version.clone());
    engine.register_get("api", |m: &mut ModInfo| m.api);
}
