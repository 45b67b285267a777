//! One content registry: base records plus an owner-tagged op log, folded into a merged view.

use std::cell::OnceCell;
use std::collections::BTreeMap;
use std::fmt;
use std::rc::Rc;

use super::merge::{merge, resolve_record};
use super::schema::{check, conform, SchemaError, Shape};
use crate::value::Value;

/// The owner of base records.
pub const BASE_OWNER: &str = "base";

/// A registry write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpKind {
    Register,
    Override,
    Patch,
    Remove,
}

impl OpKind {
    pub fn as_str(self) -> &'static str {
        match self {
            OpKind::Register => "register",
            OpKind::Override => "override",
            OpKind::Patch => "patch",
            OpKind::Remove => "remove",
        }
    }
}

#[derive(Clone, Debug)]
struct Op {
    id: String,
    owner: String,
    kind: OpKind,
    value: Value,
}

/// Why a registry write was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ContentErrorKind {
    /// `register` of an id that exists (use `override`).
    Exists,
    /// `override`/`patch`/`remove` of an id that does not exist.
    Missing,
    /// Content is frozen after load.
    Frozen,
    /// The id is empty or has characters outside `[A-Za-z0-9_.-]`.
    BadId,
    /// No registry of that name.
    UnknownRegistry,
    /// The operation does not apply to this registry (e.g. `patch` on a compose registry).
    Unsupported,
    /// The record (or the patched result) violates the schema.
    Schema(SchemaError),
    /// The patch itself is malformed (bad `__append`, non-map patch).
    Merge { path: String, message: String },
}

/// A refused registry write, naming registry, id and operation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContentError {
    pub registry: String,
    pub id: String,
    pub op: OpKind,
    pub kind: ContentErrorKind,
}

impl fmt::Display for ContentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (r, id, op) = (&self.registry, &self.id, self.op.as_str());
        match &self.kind {
            ContentErrorKind::Exists => {
                write!(f, "{r}:{op}({id}): id already exists; use override")
            }
            ContentErrorKind::Missing => write!(f, "{r}:{op}({id}): no such id"),
            ContentErrorKind::Frozen => write!(f, "{r}:{op}({id}): content is frozen after load"),
            ContentErrorKind::BadId => write!(f, "{r}:{op}({id:?}): invalid id"),
            ContentErrorKind::UnknownRegistry => write!(f, "unknown registry {r:?}"),
            ContentErrorKind::Unsupported => {
                write!(f, "{r}:{op}({id}): not supported by this registry")
            }
            ContentErrorKind::Schema(e) => write!(f, "{r}:{op}({id}): {e}"),
            ContentErrorKind::Merge { path, message } => {
                write!(f, "{r}:{op}({id}): {path}: {message}")
            }
        }
    }
}

impl std::error::Error for ContentError {}

/// What a successful write reports: schema warnings (non-strict writers only).
pub type Warnings = Vec<SchemaError>;

/// Builds a registry's base records on first use (the engine's embedded data as values).
pub type BaseProvider = Rc<dyn Fn() -> BTreeMap<String, Value>>;

/// A registry's base records, built lazily: the id list on the registry's first use, each
/// record on its first read (so `get` of one record builds one record).
pub trait BaseSource {
    /// Every base id.
    fn ids(&self) -> Vec<String>;
    /// The base record `id` (`None`: none, read as nil).
    fn record(&self, id: &str) -> Option<Value>;
}

/// A [`BaseProvider`] as a [`BaseSource`]: everything is built on first use.
struct AllAtOnce {
    build: BaseProvider,
    records: OnceCell<BTreeMap<String, Value>>,
}

impl AllAtOnce {
    fn records(&self) -> &BTreeMap<String, Value> {
        self.records.get_or_init(|| (self.build)())
    }
}

impl BaseSource for AllAtOnce {
    fn ids(&self) -> Vec<String> {
        self.records().keys().cloned().collect()
    }
    fn record(&self, id: &str) -> Option<Value> {
        self.records().get(id).cloned()
    }
}

/// The base view: every base id, each record built on first read.
type BaseView = BTreeMap<String, OnceCell<Value>>;

/// Where a merged record is.
enum Merged<'a> {
    Base(&'a OnceCell<Value>),
    Overlay(&'a Value),
}

/// A content registry. Non-compose registries map id → record; a *compose* registry
/// (`map_scripts`) maps id → the ordered list of contributions (`owner` field added; base first,
/// dropped when a contribution sets `replacesBase`).
///
/// The base records are built lazily from the [`BaseSource`] (the ids on the first read or
/// write of the registry, each record on its first read); the merged view is the base plus an *overlay* holding only the ids some
/// op touched, so a registry nobody writes costs nothing beyond its base.
pub struct Registry {
    name: &'static str,
    shape: &'static Shape,
    compose: bool,
    source: Option<Rc<dyn BaseSource>>,
    /// The base view (compose registries: records wrapped as one-contribution lists).
    base: OnceCell<BaseView>,
    ops: Vec<Op>,
    /// Merged value of every id an op touched (`None`: removed).
    overlay: BTreeMap<String, Option<Value>>,
    frozen: bool,
}

fn valid_id(name: &str, id: &str) -> bool {
    if super::open::is_open(name) {
        return super::open::valid_open_id(id);
    }
    !id.is_empty()
        && id.len() <= 128
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

impl Registry {
    pub fn new(name: &'static str, shape: &'static Shape, compose: bool) -> Self {
        Registry {
            name,
            shape,
            compose,
            source: None,
            base: OnceCell::new(),
            ops: Vec::new(),
            overlay: BTreeMap::new(),
            frozen: false,
        }
    }

    /// Build the base records with `provider` on first use (replaces any base not built yet).
    pub fn set_provider(&mut self, provider: BaseProvider) {
        self.set_source(Rc::new(AllAtOnce {
            build: provider,
            records: OnceCell::new(),
        }));
    }

    /// Build the base lazily from `source` (replaces any base not built yet).
    pub fn set_source(&mut self, source: Rc<dyn BaseSource>) {
        self.source = Some(source);
        self.base = OnceCell::new();
        self.recompute_all();
    }

    /// Replace the base records (the engine's data). Clears nothing else; recomputes the view.
    pub fn set_base(&mut self, records: BTreeMap<String, Value>) {
        self.source = None;
        let view: BaseView = records
            .into_iter()
            .map(|(id, record)| (id, OnceCell::from(self.wrap_base(record))))
            .collect();
        self.base = OnceCell::from(view);
        self.recompute_all();
    }

    /// A base record as the view holds it (compose registries: a one-contribution list).
    fn wrap_base(&self, record: Value) -> Value {
        if !self.compose {
            return record;
        }
        let mut m = match record {
            Value::Map(m) => m,
            _ => BTreeMap::new(),
        };
        m.insert("owner".into(), Value::from(BASE_OWNER));
        Value::List(vec![Value::Map(m)])
    }

    /// The base ids, listed on first use (records are built on first read).
    fn base(&self) -> &BaseView {
        self.base.get_or_init(|| match &self.source {
            Some(s) => s
                .ids()
                .into_iter()
                .map(|id| (id, OnceCell::new()))
                .collect(),
            None => BTreeMap::new(),
        })
    }

    /// The base record in `cell` (of `id`), built on first read.
    fn base_value<'a>(&'a self, id: &str, cell: &'a OnceCell<Value>) -> &'a Value {
        cell.get_or_init(|| {
            let record = self.source.as_ref().and_then(|s| s.record(id));
            self.wrap_base(record.unwrap_or(Value::Nil))
        })
    }

    fn base_get(&self, id: &str) -> Option<&Value> {
        let cell = self.base().get(id)?;
        Some(self.base_value(id, cell))
    }

    /// Has the base id list been built (tests: laziness)?
    pub fn base_built(&self) -> bool {
        self.base.get().is_some()
    }

    /// How many base records have been built so far (tests: laziness per record).
    pub fn base_records_built(&self) -> usize {
        self.base
            .get()
            .map_or(0, |b| b.values().filter(|c| c.get().is_some()).count())
    }

    /// Is `id` a base record (whatever mods did to it)?
    pub fn is_base(&self, id: &str) -> bool {
        self.base().contains_key(id)
    }

    /// The base record `id` (before any mod), if the registry has one.
    pub fn base_record(&self, id: &str) -> Option<&Value> {
        self.base_get(id)
    }

    /// Did any op touch the registry (is the merged view different from the base)?
    pub fn is_modified(&self) -> bool {
        !self.ops.is_empty()
    }

    /// Did some op touch `id` (its merged record may differ from the base)?
    pub fn is_touched(&self, id: &str) -> bool {
        self.overlay.contains_key(id)
    }

    /// Ids some op touched, sorted.
    pub fn touched_ids(&self) -> impl Iterator<Item = &str> {
        self.overlay.keys().map(String::as_str)
    }

    /// The owner of the last op on `id` (`None`: only base data).
    pub fn last_owner(&self, id: &str) -> Option<&str> {
        self.ops
            .iter()
            .rev()
            .find(|o| o.id == id)
            .map(|o| o.owner.as_str())
    }

    pub fn name(&self) -> &'static str {
        self.name
    }
    pub fn is_compose(&self) -> bool {
        self.compose
    }
    pub fn is_frozen(&self) -> bool {
        self.frozen
    }
    pub fn freeze(&mut self) {
        self.frozen = true;
    }

    /// The merged record (or, for compose registries, the contribution list).
    pub fn get(&self, id: &str) -> Option<&Value> {
        match self.overlay.get(id) {
            Some(v) => v.as_ref(),
            None => self.base_get(id),
        }
    }

    /// Does the merged view hold `id` (builds no record)?
    pub fn contains(&self, id: &str) -> bool {
        match self.overlay.get(id) {
            Some(v) => v.is_some(),
            None => self.base().contains_key(id),
        }
    }

    /// Every merged id with where its record is (a base cell not built yet, or the overlay),
    /// in lexical id order; builds no record.
    fn merged(&self) -> impl Iterator<Item = (&str, Merged<'_>)> {
        let base = self.base();
        let overlay = &self.overlay;
        let mut b = base.iter().peekable();
        let mut o = overlay.iter().peekable();
        std::iter::from_fn(move || loop {
            let take_base = match (b.peek(), o.peek()) {
                (None, None) => return None,
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (Some((bk, _)), Some((ok, _))) => bk < ok,
            };
            if take_base {
                let (k, cell) = b.next()?;
                return Some((k.as_str(), Merged::Base(cell)));
            }
            let (k, v) = o.next()?;
            if b.peek().is_some_and(|(bk, _)| *bk == k) {
                b.next();
            }
            if let Some(v) = v {
                return Some((k.as_str(), Merged::Overlay(v)));
            }
        })
    }

    /// Every merged record, in lexical id order.
    pub fn each(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.merged().map(|(k, m)| match m {
            Merged::Base(cell) => (k, self.base_value(k, cell)),
            Merged::Overlay(v) => (k, v),
        })
    }

    /// Merged ids, in lexical order (builds no record).
    pub fn ids(&self) -> impl Iterator<Item = &str> {
        self.merged().map(|(k, _)| k)
    }

    pub fn len(&self) -> usize {
        self.merged().count()
    }
    pub fn is_empty(&self) -> bool {
        self.merged().next().is_none()
    }

    /// Which owners wrote to `id`, in op order.
    pub fn owners_of(&self, id: &str) -> Vec<&str> {
        self.ops
            .iter()
            .filter(|o| o.id == id)
            .map(|o| o.owner.as_str())
            .collect()
    }

    fn err(&self, id: &str, op: OpKind, kind: ContentErrorKind) -> ContentError {
        ContentError {
            registry: self.name.to_owned(),
            id: id.to_owned(),
            op,
            kind,
        }
    }

    /// Apply one write. `strict` (api 2) turns schema violations into errors; otherwise they
    /// are returned as warnings and the write goes through.
    pub fn apply(
        &mut self,
        owner: &str,
        kind: OpKind,
        id: &str,
        value: Value,
        strict: bool,
    ) -> Result<Warnings, ContentError> {
        if self.frozen {
            return Err(self.err(id, kind, ContentErrorKind::Frozen));
        }
        if !valid_id(self.name, id) {
            return Err(self.err(id, kind, ContentErrorKind::BadId));
        }
        let current = self.get(id).cloned();
        let (next, warnings) = self.step(owner, kind, id, current, &value, strict)?;
        self.overlay.insert(id.to_owned(), next);
        self.ops.push(Op {
            id: id.to_owned(),
            owner: owner.to_owned(),
            kind,
            value,
        });
        Ok(warnings)
    }

    /// The merged value after one op on `current`.
    fn step(
        &self,
        owner: &str,
        kind: OpKind,
        id: &str,
        current: Option<Value>,
        value: &Value,
        strict: bool,
    ) -> Result<(Option<Value>, Warnings), ContentError> {
        let path = format!("{}.{id}", self.name);
        let mut warnings = Vec::new();
        let checked = |v: &Value, warnings: &mut Warnings| -> Result<(), ContentError> {
            match check(self.shape, v, &path) {
                Ok(()) => Ok(()),
                Err(e) if strict => Err(self.err(id, kind, ContentErrorKind::Schema(e))),
                Err(e) => {
                    warnings.push(e);
                    Ok(())
                }
            }
        };
        let resolve = |v: &Value| {
            resolve_record(v).map_err(|message| {
                self.err(
                    id,
                    kind,
                    ContentErrorKind::Merge {
                        path: path.clone(),
                        message,
                    },
                )
            })
        };
        if self.compose {
            let mut list = match current {
                Some(Value::List(l)) => l,
                _ => Vec::new(),
            };
            return match kind {
                OpKind::Register => {
                    let mut record = resolve(value)?;
                    conform(self.shape, &mut record);
                    checked(&record, &mut warnings)?;
                    let mut record = match record {
                        Value::Map(m) => m,
                        _ => BTreeMap::new(),
                    };
                    let replaces = record.get("replacesBase") == Some(&Value::Bool(true));
                    record.insert("owner".into(), Value::from(owner));
                    if replaces {
                        list.retain(|c| c.get("owner") != Some(&Value::from(BASE_OWNER)));
                    }
                    list.push(Value::Map(record));
                    Ok((Some(Value::List(list)), warnings))
                }
                OpKind::Remove => {
                    let before = list.len();
                    list.retain(|c| c.get("owner") != Some(&Value::from(owner)));
                    if list.len() == before {
                        return Err(self.err(id, kind, ContentErrorKind::Missing));
                    }
                    Ok(((!list.is_empty()).then_some(Value::List(list)), warnings))
                }
                OpKind::Override | OpKind::Patch => {
                    Err(self.err(id, kind, ContentErrorKind::Unsupported))
                }
            };
        }
        match (kind, current) {
            (OpKind::Register, Some(_)) => Err(self.err(id, kind, ContentErrorKind::Exists)),
            (OpKind::Register, None) | (OpKind::Override, Some(_)) => {
                let mut record = resolve(value)?;
                conform(self.shape, &mut record);
                checked(&record, &mut warnings)?;
                Ok((Some(record), warnings))
            }
            (OpKind::Patch, Some(_)) if super::open::is_open(self.name) => {
                // A translation record is one string: a patch replaces it.
                let mut record = resolve(value)?;
                conform(self.shape, &mut record);
                checked(&record, &mut warnings)?;
                Ok((Some(record), warnings))
            }
            (OpKind::Patch, Some(mut record)) => {
                let mut patch = value.clone();
                conform(self.shape, &mut patch);
                merge(&mut record, &patch, &path).map_err(|e| {
                    self.err(
                        id,
                        kind,
                        ContentErrorKind::Merge {
                            path: e.path,
                            message: e.message,
                        },
                    )
                })?;
                checked(&record, &mut warnings)?;
                Ok((Some(record), warnings))
            }
            (OpKind::Remove, Some(_)) => Ok((None, warnings)),
            (OpKind::Override, None) if super::open::is_open(self.name) => {
                let mut record = resolve(value)?;
                conform(self.shape, &mut record);
                checked(&record, &mut warnings)?;
                Ok((Some(record), warnings))
            }
            (OpKind::Override | OpKind::Patch | OpKind::Remove, None) => {
                Err(self.err(id, kind, ContentErrorKind::Missing))
            }
        }
    }

    fn base_view(&self, id: &str) -> Option<Value> {
        self.base_get(id).cloned()
    }

    fn recompute(&mut self, id: &str) {
        if !self.ops.iter().any(|o| o.id == id) {
            self.overlay.remove(id);
            return;
        }
        let mut current = self.base_view(id);
        for op in self.ops.iter().filter(|o| o.id == id) {
            // Ops replay leniently: they were validated when applied.
            if let Ok((next, _)) =
                self.step(&op.owner, op.kind, id, current.clone(), &op.value, false)
            {
                current = next;
            }
        }
        self.overlay.insert(id.to_owned(), current);
    }

    fn recompute_all(&mut self) {
        let mut ids: Vec<String> = self.ops.iter().map(|o| o.id.clone()).collect();
        ids.sort();
        ids.dedup();
        self.overlay.clear();
        for id in ids {
            self.recompute(&id);
        }
    }

    /// Undo every write `owner` made (entry rollback). Returns how many ops were dropped.
    pub fn rollback_owner(&mut self, owner: &str) -> usize {
        let mut touched: Vec<String> = self
            .ops
            .iter()
            .filter(|o| o.owner == owner)
            .map(|o| o.id.clone())
            .collect();
        let before = self.ops.len();
        self.ops.retain(|o| o.owner != owner);
        touched.sort();
        touched.dedup();
        for id in &touched {
            self.recompute(id);
        }
        before - self.ops.len()
    }
}
