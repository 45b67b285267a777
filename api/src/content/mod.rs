//! Content registries: `pokemon`, `moves`, `items`, `type_chart`, `maps`, `map_scripts`,
//! `trainers`, `encounters`, `item_effects` (mod item uses), and the translation registries `strings` and `text` ([`open`]).
//!
//! Each registry holds the engine's base records (as [`Value`]s) and an owner-tagged log of
//! `register` / `override` / `patch` / `remove` writes, folded into a merged view that `get`
//! and `each` (lexical id order) read. Patches deep-merge ([`merge`]); records are checked
//! against the registry's schema with field-pointing errors ([`schema`]); `rollback_owner`
//! undoes a failed mod's writes; `freeze` makes content immutable after load.

pub mod merge;
pub mod open;
pub mod public_ids;
mod registry;
pub mod schema;
pub mod schemas;

use std::collections::BTreeMap;
use std::rc::Rc;

pub use registry::{
    BaseProvider, BaseSource, ContentError, ContentErrorKind, OpKind, Registry, Warnings,
    BASE_OWNER,
};

use crate::value::Value;

/// `(name, record schema, compose)` of every registry.
pub const REGISTRIES: &[(&str, &schema::Shape, bool)] = &[
    ("pokemon", &schemas::POKEMON, false),
    ("moves", &schemas::MOVES, false),
    ("items", &schemas::ITEMS, false),
    ("item_effects", &schemas::ITEM_EFFECTS, false),
    ("type_chart", &schemas::TYPE_CHART, false),
    ("maps", &schemas::MAPS, false),
    ("map_scripts", &schemas::MAP_SCRIPTS, true),
    ("trainers", &schemas::TRAINERS, false),
    ("encounters", &schemas::ENCOUNTERS, false),
    ("strings", &open::STRINGS, false),
    ("text", &open::TEXT, false),
];

/// Alternative names for registries: `(alias, registry)`. An alias reaches exactly the same
/// registry everywhere a registry name is accepted (mod content reads and writes, dataset
/// views); it is not a registry of its own, so it never appears in [`Content::names`] or
/// [`REGISTRIES`]. Kept small: names mods commonly guess for a registry whose public name
/// differs (see docs/decisions.md, "Registry aliases").
pub const REGISTRY_ALIASES: &[(&str, &str)] = &[
    ("species", "pokemon"),
    ("types", "type_chart"),
    ("typeChart", "type_chart"),
    ("mapScripts", "map_scripts"),
];

/// The public registry `name` designates: itself when it is a registry, its target when it is
/// an alias, `None` otherwise. Exact and case-sensitive.
pub fn canonical_registry(name: &str) -> Option<&'static str> {
    REGISTRIES
        .iter()
        .map(|(n, _, _)| *n)
        .find(|n| *n == name)
        .or_else(|| {
            REGISTRY_ALIASES
                .iter()
                .find(|(alias, _)| *alias == name)
                .map(|(_, target)| *target)
        })
}

/// Every name a registry can be reached by: the registries in [`REGISTRIES`] order, then the
/// aliases in [`REGISTRY_ALIASES`] order.
pub fn registry_and_alias_names() -> impl Iterator<Item = &'static str> {
    REGISTRIES
        .iter()
        .map(|(n, _, _)| *n)
        .chain(REGISTRY_ALIASES.iter().map(|(alias, _)| *alias))
}

/// Builds the base records of the registry it is given (see [`Content::with_base`]).
pub type ContentBaseProvider = Rc<dyn Fn(&str) -> BTreeMap<String, Value>>;

/// Every registry, by name.
pub struct Content {
    registries: BTreeMap<&'static str, Registry>,
}

impl Default for Content {
    fn default() -> Self {
        Content {
            registries: REGISTRIES
                .iter()
                .map(|(name, shape, compose)| (*name, Registry::new(name, shape, *compose)))
                .collect(),
        }
    }
}

impl Content {
    /// Empty registries (no base records).
    pub fn new() -> Self {
        Self::default()
    }

    /// Registries whose base records `provider(registry)` builds on first use of each registry
    /// (the engine's embedded data of the active version; see `pallet_engine::content`). A
    /// registry nobody reads or writes never builds its base.
    pub fn with_base(provider: ContentBaseProvider) -> Self {
        let mut c = Content::default();
        for (name, r) in c.registries.iter_mut() {
            let (p, name) = (provider.clone(), *name);
            r.set_provider(Rc::new(move || p(name)));
        }
        c
    }

    /// Registries whose base is `source(registry)` (`None`: no base), each built lazily: the
    /// ids on the registry's first use, each record on its first read.
    pub fn with_sources(source: impl Fn(&str) -> Option<Rc<dyn BaseSource>>) -> Self {
        let mut c = Content::default();
        for (name, r) in c.registries.iter_mut() {
            if let Some(s) = source(name) {
                r.set_source(s);
            }
        }
        c
    }

    /// Did any mod write to any registry (is the merged view the base)?
    pub fn is_modified(&self) -> bool {
        self.registries.values().any(Registry::is_modified)
    }

    /// Every owner that wrote content, sorted (base excluded).
    pub fn owners(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .registries
            .values()
            .flat_map(|r| r.touched_ids().flat_map(|id| r.owners_of(id)))
            .filter(|o| *o != BASE_OWNER)
            .map(str::to_owned)
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// Install base records for `registry` (the engine's data as values).
    pub fn set_base(
        &mut self,
        registry: &str,
        records: BTreeMap<String, Value>,
    ) -> Result<(), ContentError> {
        self.registry_mut(registry, OpKind::Register)?
            .set_base(records);
        Ok(())
    }

    /// The registry `name` designates (a registry name or an alias).
    pub fn registry(&self, name: &str) -> Option<&Registry> {
        self.registries.get(canonical_registry(name)?)
    }

    fn registry_mut(&mut self, name: &str, op: OpKind) -> Result<&mut Registry, ContentError> {
        canonical_registry(name)
            .and_then(|n| self.registries.get_mut(n))
            .ok_or_else(|| ContentError {
                registry: name.to_owned(),
                id: String::new(),
                op,
                kind: ContentErrorKind::UnknownRegistry,
            })
    }

    /// Apply a write to `registry`.
    pub fn apply(
        &mut self,
        registry: &str,
        owner: &str,
        op: OpKind,
        id: &str,
        value: Value,
        strict: bool,
    ) -> Result<Warnings, ContentError> {
        let reg = self.registry_mut(registry, op)?;
        let id = public_ids::resolve(reg, id);
        reg.apply(owner, op, &id, value, strict)
    }

    /// The merged record `id` of `registry` (a registry name or an alias); an id spelled as the
    /// Lua engine spells it ([`public_ids`]) reaches the same record.
    pub fn get(&self, registry: &str, id: &str) -> Option<&Value> {
        let reg = self.registry(registry)?;
        reg.get(id)
            .or_else(|| reg.get(&public_ids::resolve(reg, id)))
    }

    /// Undo every write of `owner` in every registry.
    pub fn rollback_owner(&mut self, owner: &str) -> usize {
        self.registries
            .values_mut()
            .map(|r| r.rollback_owner(owner))
            .sum()
    }

    /// Freeze every registry (after load).
    pub fn freeze(&mut self) {
        for r in self.registries.values_mut() {
            r.freeze();
        }
    }

    pub fn is_frozen(&self) -> bool {
        self.registries.values().all(Registry::is_frozen)
    }

    /// Registry names, sorted.
    pub fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.registries.keys().copied()
    }
}
