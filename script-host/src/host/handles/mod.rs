//! Capability handles: registered custom types with methods and **no script-visible
//! constructor**. A mod receives the handles its capabilities grant as read-only global
//! variables; a handle that is not granted does not exist in its engine. Copying a handle
//! (`let h = hooks;`) copies the same capability — there is no operation that turns one handle
//! type into another, and handles cannot cross the data boundary (events, `save`, `next`).
//!
//! | handle | capability | type |
//! |---|---|---|
//! | `hooks` | `hooks` | `Hooks` |
//! | `events` | `events` (default) | `Events` |
//! | `log` | `log` (default) | `Log` |
//! | `save` | `save` (default) | `Save` |
//! | `options` | `options` (default) | `Options` |
//! | `content` | `content` | `Content` |
//! | `world` | `world` | `World` |
//! | `input` | `input` | `Input` |
//! | `checkpoints` | `checkpoints` | `Checkpoints` |
//! | `datasets` | `datasets` (default) | `Datasets` |
//! | `mod_info` | always | `ModInfo` |

pub mod datasets;
pub mod events;
pub mod facades;
pub mod hooks;
pub mod input;
pub mod next;
pub mod services;

use std::collections::BTreeSet;
use std::rc::Weak;

use pallet_api::manifest::Capability;
use rhai::{Dynamic, Engine};

use super::vm::{HostShared, ModVm};

/// Every handle name and the capability that grants it (`None`: always present).
pub const HANDLES: &[(&str, Option<Capability>)] = &[
    ("hooks", Some(Capability::Hooks)),
    ("events", Some(Capability::Events)),
    ("log", Some(Capability::Log)),
    ("save", Some(Capability::Save)),
    ("options", Some(Capability::Options)),
    ("content", Some(Capability::Content)),
    ("world", Some(Capability::World)),
    ("input", Some(Capability::Input)),
    ("checkpoints", Some(Capability::Checkpoints)),
    ("datasets", Some(Capability::Datasets)),
    ("mod_info", None),
];

/// The capability behind handle `name`, if `name` is a handle.
pub fn capability_of(name: &str) -> Option<Option<Capability>> {
    HANDLES.iter().find(|(n, _)| *n == name).map(|(_, c)| *c)
}

/// The handle names a grant puts in scope.
pub fn granted_names(granted: &BTreeSet<Capability>) -> Vec<&'static str> {
    HANDLES
        .iter()
        .filter(|(_, cap)| cap.is_none_or(|c| granted.contains(&c)))
        .map(|(n, _)| *n)
        .collect()
}

/// Register every handle type and method on `engine` (types without constructors).
pub fn register_all(engine: &mut Engine) {
    register_types(engine);
    super::suggest::learn_methods(register_types);
}

fn register_types(engine: &mut Engine) {
    hooks::register(engine);
    events::register(engine);
    services::register(engine);
    facades::register(engine);
    input::register(engine);
    datasets::register(engine);
    super::script_rng::register(engine);
}

/// What a mod's handles are built from.
pub struct HandleServices {
    pub vm: Weak<ModVm>,
    pub host: Weak<HostShared>,
    pub info: services::ModInfo,
    pub log: pallet_api::services::ModLog,
    pub save: pallet_api::services::SaveBucket,
    pub options: pallet_api::services::ModOptions,
    pub content: pallet_api::services::ModContent,
}

/// The handle values of the granted names.
pub fn values(names: &[&'static str], s: &HandleServices) -> Vec<(&'static str, Dynamic)> {
    names
        .iter()
        .filter_map(|name| {
            let value = match *name {
                "hooks" => Dynamic::from(hooks::Hooks { vm: s.vm.clone() }),
                "events" => Dynamic::from(events::Events { vm: s.vm.clone() }),
                "log" => Dynamic::from(services::Log(s.log.clone())),
                "save" => Dynamic::from(services::Save(s.save.clone())),
                "options" => Dynamic::from(services::Options(s.options.clone())),
                "content" => {
                    Dynamic::from(services::ContentHandle(s.content.clone(), s.vm.clone()))
                }
                "world" => Dynamic::from(facades::World {
                    owner: s.info.id.as_str().into(),
                }),
                "input" => Dynamic::from(input::Input {
                    owner: s.info.id.as_str().into(),
                }),
                "checkpoints" => Dynamic::from(facades::Checkpoints),
                "datasets" => Dynamic::from(datasets::Datasets {
                    host: s.host.clone(),
                }),
                "mod_info" => Dynamic::from(s.info.clone()),
                _ => return None,
            };
            Some((*name, value))
        })
        .collect()
}

/// A placeholder of every handle (for `mods defs`: definitions need a value per name).
pub fn placeholders(services: &HandleServices) -> Vec<(&'static str, Dynamic)> {
    let all: Vec<&'static str> = HANDLES.iter().map(|(n, _)| *n).collect();
    values(&all, services)
}
