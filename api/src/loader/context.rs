//! What a mod's entry receives ([`ModContext`]) and the [`ModHost`] trait script hosts (Rhai,
//! the Lua shim) and native Rust mods implement.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::event_bus::ListenerHandle;
use crate::events::{Event, ListenerResult};
use crate::hook_bus::HookHandle;
use crate::hooks::{Hook, LinkResult, Next};
use crate::manifest::{Capability, Manifest};
use crate::reasons::EmitError;
use crate::runtime::Runtime;
use crate::services::{ModContent, ModLog, ModOptions, SaveBucket};
use crate::value::Value;

/// Runs mod entries of one kind (by entry extension, or one native mod by id).
pub trait ModHost {
    /// Host name for status rows (`"rhai"`, `"lua"`, `"native"`).
    fn name(&self) -> &str;
    /// Does this host run `manifest`'s entry?
    fn handles(&self, manifest: &Manifest) -> bool;
    /// Run the entry. An `Err` fails the mod and rolls back everything it registered.
    fn run_entry(&mut self, ctx: &mut ModContext<'_>) -> Result<(), String>;
    /// Every entry ran and content is frozen; `mods.loaded` is emitted right after. Called only
    /// when something listens to `mods.loaded` (the Lua shim keeps what its `ev.loader` view
    /// needs, and only when one of its mods listens). Default: nothing.
    fn mods_loaded(&mut self, _mods: &LoadedMods<'_>) {}
}

/// What the loader tells its hosts before `mods.loaded` ([`ModHost::mods_loaded`]): the
/// loaded mods in load order and the failed ones, borrowed (nothing is copied for a host that
/// keeps nothing).
pub struct LoadedMods<'a> {
    pub loaded: Vec<LoadedMod<'a>>,
    /// `(id, error)` of every mod that failed, by id.
    pub failed: Vec<(&'a str, &'a str)>,
}

/// One loaded mod of [`LoadedMods`].
pub struct LoadedMod<'a> {
    pub manifest: &'a Manifest,
    /// Its folder, when it lives on disk.
    pub root: Option<&'a Path>,
    /// Its published exports (data).
    pub exports: Option<&'a Value>,
    /// The host that ran it (`"lua"`, `"rhai"`, `"native"`).
    pub host: &'a str,
}

/// A native Rust mod: handles the manifest whose id is `id`, running `entry`.
pub struct NativeMod<F: FnMut(&mut ModContext<'_>) -> Result<(), String>> {
    pub id: String,
    pub entry: F,
}

impl<F: FnMut(&mut ModContext<'_>) -> Result<(), String>> NativeMod<F> {
    pub fn new(id: &str, entry: F) -> Self {
        NativeMod {
            id: id.to_owned(),
            entry,
        }
    }
}

impl<F: FnMut(&mut ModContext<'_>) -> Result<(), String>> ModHost for NativeMod<F> {
    fn name(&self) -> &str {
        "native"
    }
    fn handles(&self, manifest: &Manifest) -> bool {
        manifest.id == self.id
    }
    fn run_entry(&mut self, ctx: &mut ModContext<'_>) -> Result<(), String> {
        (self.entry)(ctx)
    }
}

/// The `mod` object of one mod during its entry: identity, services, and owner-forced access
/// to the buses (every link and listener it installs is owned by its id).
pub struct ModContext<'a> {
    pub manifest: &'a Manifest,
    pub root: Option<&'a Path>,
    pub runtime: &'a Runtime,
    pub content: ModContent,
    pub save: SaveBucket,
    pub log: ModLog,
    pub options: ModOptions,
    pub capabilities: BTreeSet<Capability>,
    pub(crate) exports: &'a mut BTreeMap<String, (String, Value)>,
}

impl ModContext<'_> {
    pub fn id(&self) -> &str {
        &self.manifest.id
    }

    /// `Ok` when the mod holds `cap`; otherwise the load-time error naming it.
    pub fn require(&self, cap: Capability) -> Result<(), String> {
        if self.capabilities.contains(&cap) {
            Ok(())
        } else {
            Err(format!(
                "[{}] the \"{}\" capability is not granted; add it to \"capabilities\" in manifest.json",
                self.manifest.id,
                cap.as_str()
            ))
        }
    }

    /// `mod.hooks:wrap` — owner forced to this mod.
    pub fn wrap<H, F>(&self, priority: i32, link: F) -> Result<HookHandle, String>
    where
        H: Hook,
        F: Fn(&mut Next<'_, H>, &H::Args) -> LinkResult<H::Out> + 'static,
    {
        self.require(Capability::Hooks)?;
        Ok(self.runtime.wrap::<H, F>(&self.manifest.id, priority, link))
    }

    /// `mod.events:on` — owner forced to this mod.
    pub fn on<E, F>(&self, priority: i32, listener: F) -> Result<ListenerHandle, String>
    where
        E: Event,
        F: Fn(&E::Payload) -> ListenerResult + 'static,
    {
        self.require(Capability::Events)?;
        Ok(self
            .runtime
            .on::<E, F>(&self.manifest.id, priority, listener))
    }

    /// `mod.events:emit` — only `mod.<id>.*`.
    pub fn emit(&self, name: &str, payload: &Value) -> Result<(), EmitError> {
        self.runtime.emit_mod(&self.manifest.id, name, payload)
    }

    /// Publish this mod's exports (`mod.exports`).
    pub fn set_exports(&mut self, exports: Value) {
        self.exports.insert(
            self.manifest.id.clone(),
            (self.manifest.version.clone(), exports),
        );
    }

    /// `mod.find(id)`: `(version, exports)` of a loaded mod (or of one loading earlier).
    pub fn find(&self, id: &str) -> Option<(String, Value)> {
        self.exports.get(id).cloned()
    }
}
