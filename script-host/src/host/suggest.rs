//! The hosts' names to suggest from (hooks, events, registries, handle methods) and hook
//! closure signatures; the did-you-mean itself is [`pallet_api::suggest`], shared with the
//! engine.

pub use pallet_api::suggest::{closest, did_you_mean};

/// Every catalog hook name.
pub fn hook_names() -> impl Iterator<Item = &'static str> {
    pallet_api::catalog::HOOKS.iter().map(|h| h.name)
}

/// Every catalog event name.
pub fn event_names() -> impl Iterator<Item = &'static str> {
    pallet_api::catalog::EVENTS.iter().map(|e| e.name)
}

/// The parameters a hook's closure takes: `(next, <the hook's parameters>)`.
pub fn closure_signature(info: &pallet_api::catalog::HookInfo) -> String {
    let params: Vec<&str> = std::iter::once("next")
        .chain(info.params.iter().copied())
        .collect();
    format!("({})", params.join(", "))
}

/// The handle variables and the Rhai type each one has.
pub const HANDLE_TYPES: &[(&str, &str)] = &[
    ("hooks", "Hooks"),
    ("events", "Events"),
    ("log", "Log"),
    ("save", "Save"),
    ("options", "Options"),
    ("content", "Content"),
    ("world", "World"),
    ("input", "Input"),
    ("checkpoints", "Checkpoints"),
    ("datasets", "Datasets"),
    ("mod_info", "ModInfo"),
];

type MethodTable = std::collections::BTreeMap<
    String,
    std::collections::BTreeMap<String, std::collections::BTreeSet<usize>>,
>;

thread_local! {
    /// Method names (and their arities, `this` excluded) of every registered host type,
    /// read from the engine's own function metadata (never a hand-kept list). Learned the
    /// first time a mod engine's handles are registered on this thread ([`learn_methods`]).
    static METHODS: std::cell::OnceCell<MethodTable> = const { std::cell::OnceCell::new() };
}

/// Learn the host types' methods from `register` (the handles' registration, run once per
/// thread into a bare engine). The handles call it; this module never names them.
pub fn learn_methods(register: fn(&mut rhai::Engine)) {
    METHODS.with(|m| {
        m.get_or_init(|| {
            let mut engine = rhai::Engine::new_raw();
            register(&mut engine);
            let mut out = MethodTable::default();
            for sig in engine.gen_fn_signatures(false) {
                if let Some((ty, name, arity)) = parse_signature(&sig) {
                    out.entry(ty)
                        .or_default()
                        .entry(name)
                        .or_default()
                        .insert(arity);
                }
            }
            out
        });
    });
}

/// `(this type, method name, arity without this)` of a `name(_: &mut Type, …) -> R` signature.
fn parse_signature(sig: &str) -> Option<(String, String, usize)> {
    let (name, rest) = sig.split_once('(')?;
    if name.contains('$') {
        return None;
    }
    let params = rest.rsplit_once(')')?.0;
    let list: Vec<&str> = if params.trim().is_empty() {
        Vec::new()
    } else {
        params.split(", ").collect()
    };
    let first = list.first()?;
    let ty = first.split_once(':').map_or(*first, |(_, t)| t).trim();
    let ty = ty
        .trim_start_matches("&mut ")
        .trim_start_matches('&')
        .trim();
    let ty = ty.rsplit("::").next().unwrap_or(ty).to_owned();
    Some((ty, name.trim().to_owned(), list.len() - 1))
}

/// The methods of the host type `type_name` with their arities (empty for unknown types).
pub fn methods_of(
    type_name: &str,
) -> std::collections::BTreeMap<String, std::collections::BTreeSet<usize>> {
    METHODS.with(|m| {
        m.get()
            .and_then(|t| t.get(type_name))
            .cloned()
            .unwrap_or_default()
    })
}

/// The Rhai type of handle variable `handle`.
pub fn handle_type(handle: &str) -> Option<&'static str> {
    HANDLE_TYPES
        .iter()
        .find(|(h, _)| *h == handle)
        .map(|(_, t)| *t)
}

/// The handle variable of Rhai type `type_name`.
pub fn handle_of_type(type_name: &str) -> Option<&'static str> {
    HANDLE_TYPES
        .iter()
        .find(|(_, t)| *t == type_name)
        .map(|(h, _)| *h)
}

/// The message for `handle.method(…)` with `args` arguments that the host does not provide
/// (`None` when it does).
pub fn unknown_method(handle: &str, method: &str, args: usize) -> Option<String> {
    let ty = handle_type(handle)?;
    let methods = methods_of(ty);
    match methods.get(method) {
        Some(arities) if arities.contains(&args) => None,
        Some(arities) => {
            let forms: Vec<String> = arities.iter().map(usize::to_string).collect();
            Some(format!(
                "{handle}.{method} takes {} argument(s), not {args}",
                forms.join(" or ")
            ))
        }
        None => {
            let mut names: Vec<&String> = methods.keys().collect();
            names.dedup();
            Some(format!(
                "`{handle}` has no method `{method}`{}; its methods: {}",
                did_you_mean(method, names.iter().map(|s| s.as_str())),
                names
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        }
    }
}

/// Every content registry name.
pub fn registry_names() -> impl Iterator<Item = &'static str> {
    pallet_api::content::REGISTRIES.iter().map(|r| r.0)
}

/// The members of a legacy Lua mod's `mod` object (the Lua engine's loader API as the survey
/// of public mods lists it, docs in `docs/modding-lua.md`), for did-you-mean on `mod.*` typos.
pub const LUA_MOD_MEMBERS: &[&str] = &[
    "id",
    "version",
    "path",
    "manifest",
    "content",
    "exports",
    "DELETE",
    "events",
    "hooks",
    "input",
    "ui",
    "save",
    "storage",
    "checkpoints",
    "options",
    "commands",
    "migrations",
    "log",
    "find",
    "assets",
    "read",
    "world",
    "datasets",
    "game",
];

/// A did-you-mean suffix for a Lua load error or checker note: `attempt to index field 'X' (a
/// nil value)` near a `mod` member, or `hook "X"` / `event "X"` near a catalog name. Empty when
/// nothing is close.
pub fn lua_hint(message: &str) -> String {
    let quoted = |prefix: &str, quote: char| -> Option<String> {
        let at = message.find(prefix)? + prefix.len();
        let rest = &message[at..];
        let end = rest.find(quote)?;
        Some(rest[..end].to_owned())
    };
    if let Some(field) = quoted("attempt to index field '", '\'') {
        if !LUA_MOD_MEMBERS.contains(&field.as_str()) {
            if let Some(c) = closest(&field, LUA_MOD_MEMBERS.iter().copied()) {
                return format!(" (if this is a `mod` member: did you mean `mod.{c}`?)");
            }
        }
    }
    if let Some(name) = quoted("hook \"", '"') {
        if pallet_api::catalog::hook_info(&name).is_none() {
            return did_you_mean(&name, hook_names());
        }
    }
    if let Some(name) = quoted("event \"", '"') {
        if pallet_api::catalog::event_info(&name).is_none() {
            return did_you_mean(&name, event_names());
        }
    }
    String::new()
}

/// A did-you-mean suffix for an `unknown species X` / `unknown item X` / `unknown move X`
/// message, over the Gen 1 data's ids and display names.
pub fn data_hint(message: &str) -> String {
    let data = pallet_engine::data::gen1();
    let word = |prefix: &str| -> Option<String> {
        let at = message.find(prefix)? + prefix.len();
        message[at..]
            .split(|c: char| c.is_whitespace() || c == '`' || c == ',')
            .find(|w| !w.is_empty())
            .map(str::to_owned)
    };
    if let Some(name) = word("unknown species ") {
        return did_you_mean(&name, data.species.iter().map(|s| s.id));
    }
    if let Some(name) = word("unknown item ") {
        return did_you_mean(&name, data.items.iter().map(|s| s.id));
    }
    if let Some(name) = word("unknown move ") {
        return did_you_mean(&name, data.moves.iter().map(|s| s.id));
    }
    String::new()
}
