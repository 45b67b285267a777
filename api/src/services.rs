//! Per-mod services: `save` (a bucket in the save's `modData`, travels with saves and is
//! rewound by checkpoints), `log` (info/warn/error prefixed `[id]`), `options`
//! (define/get; not rewound), and the `content` facade (writes owned by the mod).
//!
//! The stores are shared (`Rc`) so script hosts can keep service handles after load.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use crate::content::{Content, ContentError, OpKind, Warnings};
use crate::diagnostics::{Level, LogFeed};
use crate::value::{from_value, Value, ValueError};

// ----- save: modData buckets ----------------------------------------------------------------

/// The save's `modData`: one bucket (key → value) per mod id. The engine writes
/// [`ModDataStore::to_value`] into the save and [`ModDataStore::load`]s it back (saves and
/// checkpoint restores), so buckets travel with the save.
#[derive(Clone, Default)]
pub struct ModDataStore(
    Rc<RefCell<BTreeMap<String, BTreeMap<String, Value>>>>,
    /// Cached [`value_bytes`] total per bucket (filled on a bucket's first `set`, dropped by
    /// every other write), so a `set` costs the size of its value, not of the bucket.
    Rc<RefCell<BTreeMap<String, usize>>>,
);

/// `save.max_bucket_bytes`: what one mod may keep in its `mod.save` bucket (keys and values,
/// as [`value_bytes`] counts them).
pub const MAX_BUCKET_BYTES: usize = 1024 * 1024;

/// The size a value is charged in a save bucket: string bytes, 8 per scalar or container.
pub fn value_bytes(v: &Value) -> usize {
    match v {
        Value::Str(s) => 8 + s.len(),
        Value::List(l) => 8 + l.iter().map(value_bytes).sum::<usize>(),
        Value::Map(m) => {
            8 + m
                .iter()
                .map(|(k, v)| k.len() + value_bytes(v))
                .sum::<usize>()
        }
        _ => 8,
    }
}

impl ModDataStore {
    pub fn new() -> Self {
        Self::default()
    }

    /// The bucket service for `mod_id`.
    pub fn bucket(&self, mod_id: &str) -> SaveBucket {
        SaveBucket {
            mod_id: mod_id.to_owned(),
            store: self.clone(),
            budget: None,
        }
    }

    /// `modData` as a value (`{ [modId] = { key = value } }`); empty buckets are omitted so a
    /// save with no mod data re-encodes identically.
    pub fn to_value(&self) -> Value {
        Value::Map(
            self.0
                .borrow()
                .iter()
                .filter(|(_, b)| !b.is_empty())
                .map(|(k, b)| (k.clone(), Value::Map(b.clone())))
                .collect(),
        )
    }

    /// Replace every bucket from a save's `modData` value. Non-map buckets are dropped.
    pub fn load(&self, mod_data: &Value) {
        self.1.borrow_mut().clear();
        let mut all = BTreeMap::new();
        if let Some(map) = mod_data.as_map() {
            for (id, bucket) in map {
                if let Some(b) = bucket.as_map() {
                    all.insert(id.clone(), b.clone());
                }
            }
        }
        *self.0.borrow_mut() = all;
    }

    /// A copy of one mod's bucket (entry rollback restores it).
    pub(crate) fn snapshot_bucket(&self, mod_id: &str) -> Option<BTreeMap<String, Value>> {
        self.0.borrow().get(mod_id).cloned()
    }

    pub(crate) fn restore_bucket(&self, mod_id: &str, bucket: Option<BTreeMap<String, Value>>) {
        self.1.borrow_mut().remove(mod_id);
        let mut all = self.0.borrow_mut();
        match bucket {
            Some(b) => all.insert(mod_id.to_owned(), b),
            None => all.remove(mod_id),
        };
    }
}

/// `mod.save`: `get(key, default)` / `set(key, value)` on the mod's own bucket.
#[derive(Clone)]
pub struct SaveBucket {
    mod_id: String,
    store: ModDataStore,
    /// Charged by what `get` copies out and `set` copies in (issue 21), when set.
    budget: Option<Rc<crate::budget::DispatchBudget>>,
}

impl SaveBucket {
    /// Charge `get`/`set` to `budget` by the size of the value they copy
    /// (`crate::host_cost::value_units`; only while script code runs).
    pub fn charged(mut self, budget: Rc<crate::budget::DispatchBudget>) -> Self {
        self.budget = Some(budget);
        self
    }

    fn charge(&self, v: &Value) {
        if let Some(b) = self.budget.as_ref().filter(|b| b.depth() > 0) {
            b.charge(1 + crate::host_cost::value_units(v));
        }
    }

    /// The stored value, or `default` when absent.
    pub fn get(&self, key: &str, default: Value) -> Value {
        let v = self
            .store
            .0
            .borrow()
            .get(&self.mod_id)
            .and_then(|b| b.get(key))
            .cloned()
            .unwrap_or(default);
        self.charge(&v);
        v
    }

    /// Store `value` (`nil` deletes the key). Non-finite numbers are refused (not data).
    pub fn set(&self, key: &str, value: Value) -> Result<(), ValueError> {
        self.charge(&value);
        if !finite(&value) {
            return Err(ValueError::new("mod.save values must be finite data"));
        }
        let mut all = self.store.0.borrow_mut();
        let bucket = all.entry(self.mod_id.clone()).or_default();
        let mut sizes = self.store.1.borrow_mut();
        let total = *sizes
            .entry(self.mod_id.clone())
            .or_insert_with(|| bucket.iter().map(|(k, v)| k.len() + value_bytes(v)).sum());
        let old = bucket.get(key).map_or(0, |v| key.len() + value_bytes(v));
        if value.is_nil() {
            bucket.remove(key);
            sizes.insert(self.mod_id.clone(), total - old);
            return Ok(());
        }
        let new = key.len() + value_bytes(&value);
        let after = total - old + new;
        if after > MAX_BUCKET_BYTES {
            return Err(ValueError::new(format!(
                "save.max_bucket_bytes: this set would make the mod's save bucket {after} bytes, over the limit of {MAX_BUCKET_BYTES}"
            )));
        }
        bucket.insert(key.to_owned(), value);
        sizes.insert(self.mod_id.clone(), after);
        Ok(())
    }
}

fn finite(v: &Value) -> bool {
    match v {
        Value::Float(f) => f.is_finite(),
        Value::List(l) => l.iter().all(finite),
        Value::Map(m) => m.values().all(finite),
        _ => true,
    }
}

// ----- log -----------------------------------------------------------------------------------

/// `mod.log`: lines go to the runtime's diagnostics feed as `"[id] message"`. (Lua's
/// printf-style arguments are formatted by the shim before they get here.)
#[derive(Clone)]
pub struct ModLog {
    mod_id: String,
    feed: LogFeed,
}

impl ModLog {
    pub fn new(mod_id: &str, feed: LogFeed) -> Self {
        ModLog {
            mod_id: mod_id.to_owned(),
            feed,
        }
    }
    pub fn info(&self, message: &str) {
        self.line(Level::Info, message);
    }
    pub fn warn(&self, message: &str) {
        self.line(Level::Warn, message);
    }
    pub fn error(&self, message: &str) {
        self.line(Level::Error, message);
    }
    /// One line of the mod's own log (under `log.max_bytes_per_tick`).
    pub fn line(&self, level: Level, message: &str) {
        self.feed
            .push_mod_line(level, &self.mod_id, format!("[{}] {message}", self.mod_id));
    }
}

// ----- options -------------------------------------------------------------------------------

/// The kind of an option row.
#[derive(Clone, Debug, PartialEq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OptionKind {
    Choice,
    Toggle,
    Number,
}

/// One `{label, value}` of a choice row.
#[derive(Clone, Debug, PartialEq, serde::Deserialize)]
pub struct OptionChoice {
    pub label: String,
    pub value: Value,
}

/// One row of `mod.options:define(rows)`.
#[derive(Clone, Debug, PartialEq, serde::Deserialize)]
pub struct OptionRow {
    pub key: String,
    pub label: String,
    #[serde(rename = "type")]
    pub kind: OptionKind,
    #[serde(default)]
    pub default: Value,
    #[serde(default)]
    pub choices: Vec<OptionChoice>,
    pub min: Option<f64>,
    pub max: Option<f64>,
    pub step: Option<f64>,
}

impl OptionRow {
    /// Is `v` a legal value for this row?
    fn accepts(&self, v: &Value) -> bool {
        match self.kind {
            OptionKind::Toggle => v.as_bool().is_some(),
            OptionKind::Choice => self.choices.iter().any(|c| &c.value == v),
            OptionKind::Number => {
                let n = match v {
                    Value::Int(i) => *i as f64,
                    Value::Float(f) if f.is_finite() => *f,
                    _ => return false,
                };
                self.min.is_none_or(|m| n >= m) && self.max.is_none_or(|m| n <= m)
            }
        }
    }
}

/// User-chosen option values for every mod (the mod manager writes them; not rewound by
/// checkpoints).
#[derive(Clone, Default)]
pub struct OptionsStore(Rc<RefCell<OptionsInner>>);

#[derive(Default)]
struct OptionsInner {
    values: BTreeMap<String, BTreeMap<String, Value>>,
    schemas: BTreeMap<String, Vec<OptionRow>>,
}

impl OptionsStore {
    pub fn new() -> Self {
        Self::default()
    }

    /// Set a user value (mod manager / options file). Validated when read.
    pub fn set_user_value(&self, mod_id: &str, key: &str, value: Value) {
        self.0
            .borrow_mut()
            .values
            .entry(mod_id.to_owned())
            .or_default()
            .insert(key.to_owned(), value);
    }

    /// The options service for `mod_id`.
    pub fn for_mod(&self, mod_id: &str) -> ModOptions {
        ModOptions {
            mod_id: mod_id.to_owned(),
            store: self.clone(),
        }
    }

    /// A mod's defined rows (for the mod manager UI).
    pub fn schema(&self, mod_id: &str) -> Vec<OptionRow> {
        self.0
            .borrow()
            .schemas
            .get(mod_id)
            .cloned()
            .unwrap_or_default()
    }

    pub(crate) fn remove_schema(&self, mod_id: &str) {
        self.0.borrow_mut().schemas.remove(mod_id);
    }

    /// User values from the profile folder: `<profile>/options/<mod id>.json`, each a JSON
    /// object of `key: value` (issue 18). Returns one message per file that could not be read;
    /// a missing `options` folder is no error. Values are validated when read, like every user
    /// value.
    pub fn load_profile(&self, profile: &std::path::Path) -> Vec<String> {
        let dir = profile.join("options");
        let mut errors = Vec::new();
        let Ok(entries) = std::fs::read_dir(&dir) else {
            return errors;
        };
        let mut files: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        files.sort();
        for path in files {
            let (Some(id), Some("json")) = (
                path.file_stem().and_then(|s| s.to_str()),
                path.extension().and_then(|s| s.to_str()),
            ) else {
                continue;
            };
            let text = match std::fs::read_to_string(&path) {
                Ok(t) => t,
                Err(e) => {
                    errors.push(format!("{}: {e}", path.display()));
                    continue;
                }
            };
            match serde_json::from_str::<Value>(&text) {
                Ok(Value::Map(values)) => {
                    for (key, value) in values {
                        self.set_user_value(id, &key, value);
                    }
                }
                Ok(_) => errors.push(format!(
                    "{}: expected a JSON object of option values",
                    path.display()
                )),
                Err(e) => errors.push(format!("{}: {e}", path.display())),
            }
        }
        errors
    }

    /// Apply user overrides per mod id (`pallet run --option MOD.KEY=VALUE`), after the
    /// profile file so the command line wins.
    pub fn apply_overrides(&self, overrides: &BTreeMap<String, BTreeMap<String, Value>>) {
        for (id, values) in overrides {
            for (key, value) in values {
                self.set_user_value(id, key, value.clone());
            }
        }
    }

    /// Change an option at run time (the mod manager): the value must be legal for a defined
    /// row. When the live value changes, `mod.options_changed` is emitted on `rt` with
    /// `{mod, key, value}` (the Lua engine's payload). Returns whether it changed.
    pub fn set_live(
        &self,
        rt: &crate::Runtime,
        mod_id: &str,
        key: &str,
        value: Value,
    ) -> Result<bool, String> {
        let live = self.for_mod(mod_id);
        {
            let inner = self.0.borrow();
            let row = inner
                .schemas
                .get(mod_id)
                .and_then(|rows| rows.iter().find(|r| r.key == key))
                .ok_or_else(|| format!("{mod_id} defines no option {key:?}"))?;
            if !row.accepts(&value) {
                return Err(format!("{mod_id}.{key}: not a legal value for this option"));
            }
        }
        let before = live.get(key);
        self.set_user_value(mod_id, key, value.clone());
        if before == value {
            return Ok(false);
        }
        use crate::catalog::events::{ModOptionsChanged, ModOptionsChangedPayload};
        if rt.wants_event::<ModOptionsChanged>() {
            rt.emit::<ModOptionsChanged>(ModOptionsChangedPayload {
                mod_id: mod_id.to_owned(),
                key: key.to_owned(),
                value,
            });
        }
        Ok(true)
    }
}

/// `mod.options`: `define(rows)` and `get(key)`.
#[derive(Clone)]
pub struct ModOptions {
    mod_id: String,
    store: OptionsStore,
}

impl ModOptions {
    /// Define the option rows (replaces an earlier definition). Each row is
    /// `{key, label, type = "choice"|"toggle"|"number", default, choices, min, max, step}`.
    pub fn define(&self, rows: Value) -> Result<(), ValueError> {
        let rows: Vec<OptionRow> = from_value(rows)?;
        let mut seen = std::collections::BTreeSet::new();
        for (i, row) in rows.iter().enumerate() {
            let at = |m: &str| ValueError::new(format!("options[{}] ({}): {m}", i + 1, row.key));
            if row.key.is_empty() || !seen.insert(row.key.clone()) {
                return Err(at("key must be non-empty and unique"));
            }
            if row.kind == OptionKind::Choice && row.choices.is_empty() {
                return Err(at("a choice row needs choices"));
            }
            if !row.default.is_nil() && !row.accepts(&row.default) {
                return Err(at("default is not a legal value"));
            }
        }
        self.store
            .0
            .borrow_mut()
            .schemas
            .insert(self.mod_id.clone(), rows);
        Ok(())
    }

    /// The live value: the user's choice when it is legal for the row, else the row default;
    /// `nil` for an undefined key.
    pub fn get(&self, key: &str) -> Value {
        let inner = self.store.0.borrow();
        let Some(row) = inner
            .schemas
            .get(&self.mod_id)
            .and_then(|rows| rows.iter().find(|r| r.key == key))
        else {
            return Value::Nil;
        };
        match inner.values.get(&self.mod_id).and_then(|v| v.get(key)) {
            Some(v) if row.accepts(v) => v.clone(),
            _ => row.default.clone(),
        }
    }
}

// ----- content facade ------------------------------------------------------------------------

/// `mod.content.<registry>:<op>`: writes owned by the mod, schema strictness from its api.
#[derive(Clone)]
pub struct ModContent {
    mod_id: String,
    strict: bool,
    content: Rc<RefCell<Content>>,
    feed: LogFeed,
    /// Charged by `get`/`each` (`crate::host_cost`); `None`: uncharged (tests, tools).
    budget: Option<Rc<crate::budget::DispatchBudget>>,
}

impl ModContent {
    pub fn new(mod_id: &str, strict: bool, content: Rc<RefCell<Content>>, feed: LogFeed) -> Self {
        ModContent {
            mod_id: mod_id.to_owned(),
            strict,
            content,
            feed,
            budget: None,
        }
    }

    /// Charge reads (`get`, `each`) to `budget` by the size of what they copy.
    pub fn charged(mut self, budget: Rc<crate::budget::DispatchBudget>) -> Self {
        self.budget = Some(budget);
        self
    }

    /// Is the charged budget exhausted inside a dispatch (the host should stop the script)?
    pub fn stopped(&self) -> bool {
        self.budget
            .as_ref()
            .is_some_and(|b| b.depth() > 0 && b.exhausted())
    }

    /// Charge what `units` computes (only when script code is running).
    fn charge(&self, units: impl FnOnce() -> u64) {
        if let Some(b) = self.budget.as_ref().filter(|b| b.depth() > 0) {
            b.charge(units());
        }
    }

    fn write(
        &self,
        registry: &str,
        op: OpKind,
        id: &str,
        value: Value,
    ) -> Result<(), ContentError> {
        let warnings: Warnings =
            self.content
                .borrow_mut()
                .apply(registry, &self.mod_id, op, id, value, self.strict)?;
        for w in warnings {
            self.feed.push(
                Level::Warn,
                Some(&self.mod_id),
                format!("[{}] {registry}:{}({id}): {w}", self.mod_id, op.as_str()),
            );
        }
        Ok(())
    }

    pub fn register(&self, registry: &str, id: &str, record: Value) -> Result<(), ContentError> {
        self.write(registry, OpKind::Register, id, record)
    }
    pub fn override_record(
        &self,
        registry: &str,
        id: &str,
        record: Value,
    ) -> Result<(), ContentError> {
        self.write(registry, OpKind::Override, id, record)
    }
    pub fn patch(&self, registry: &str, id: &str, patch: Value) -> Result<(), ContentError> {
        self.write(registry, OpKind::Patch, id, patch)
    }
    pub fn remove(&self, registry: &str, id: &str) -> Result<(), ContentError> {
        self.write(registry, OpKind::Remove, id, Value::Nil)
    }
    /// A copy of the merged record (base plus every write so far in load order).
    pub fn get(&self, registry: &str, id: &str) -> Option<Value> {
        let v = self.content.borrow().get(registry, id).cloned();
        self.charge(|| 1 + v.as_ref().map_or(0, crate::host_cost::value_units));
        v
    }
    /// The merged ids, in lexical order.
    pub fn ids(&self, registry: &str) -> Vec<String> {
        let ids: Vec<String> = self
            .content
            .borrow()
            .registry(registry)
            .map(|r| r.ids().map(str::to_owned).collect())
            .unwrap_or_default();
        self.charge(|| 1 + ids.len() as u64 * crate::host_cost::NODE_UNITS);
        ids
    }
    /// Copies of every merged record, in lexical id order.
    pub fn each(&self, registry: &str) -> Vec<(String, Value)> {
        let rows: Vec<(String, Value)> = self
            .content
            .borrow()
            .registry(registry)
            .map(|r| r.each().map(|(k, v)| (k.to_owned(), v.clone())).collect())
            .unwrap_or_default();
        self.charge(|| crate::host_cost::rows_units(&rows));
        rows
    }
}
