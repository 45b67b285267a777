//! Content registries: `pokemon`, `moves`, `items`, `type_chart`, `maps`, `map_scripts`,
//! `trainers`, `encounters`.
//!
//! Each registry holds the engine's base records (as [`Value`]s) and an owner-tagged log of
//! `register` / `override` / `patch` / `remove` writes, folded into a merged view that `get`
//! and `each` (lexical id order) read. Patches deep-merge ([`merge`]); records are checked
//! against the registry's schema with field-pointing errors ([`schema`]); `rollback_owner`
//! undoes a failed mod's writes; `freeze` makes content immutable after load.

pub mod merge;
mod registry;
pub mod schema;
pub mod schemas;

use std::collections::BTreeMap;

pub use registry::{ContentError, ContentErrorKind, OpKind, Registry, Warnings, BASE_OWNER};

use crate::value::Value;

/// `(name, record schema, compose)` of every registry.
pub const REGISTRIES: &[(&str, &schema::Shape, bool)] = &[
    ("pokemon", &schemas::POKEMON, false),
    ("moves", &schemas::MOVES, false),
    ("items", &schemas::ITEMS, false),
    ("type_chart", &schemas::TYPE_CHART, false),
    ("maps", &schemas::MAPS, false),
    ("map_scripts", &schemas::MAP_SCRIPTS, true),
    ("trainers", &schemas::TRAINERS, false),
    ("encounters", &schemas::ENCOUNTERS, false),
];

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

    pub fn registry(&self, name: &str) -> Option<&Registry> {
        self.registries.get(name)
    }

    fn registry_mut(&mut self, name: &str, op: OpKind) -> Result<&mut Registry, ContentError> {
        self.registries.get_mut(name).ok_or_else(|| ContentError {
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
        self.registry_mut(registry, op)?
            .apply(owner, op, id, value, strict)
    }

    /// The merged record `id` of `registry`.
    pub fn get(&self, registry: &str, id: &str) -> Option<&Value> {
        self.registries.get(registry)?.get(id)
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
