//! A link's arguments written over the previous call's values in place ([`PatchSink`]).
//!
//! A hook's context has the same shape on every call (the same keys, mostly the same strings),
//! so instead of building a fresh `Dynamic` tree per call (an allocation per map, per string,
//! per map node, and the same again to drop the previous tree) the direct call path keeps the
//! previous call's argument values in the closure's scope and overwrites them: a scalar replaces
//! the old value, an unchanged string is kept, a map or array that is still the plain value the
//! host wrote is updated key by key / element by element.
//!
//! The result is always exactly the tree a fresh build gives (the [`DynamicSink`] values):
//!
//! * only a container that is plain data is patched: not shared (a script's closure captured
//!   it), not read-only, no tag (`.tag` set by a script), and, for a map, exactly the keys
//!   written this time (a key the script added, or a field absent this time, fails the patch);
//! * anything else (another type, or no previous value) is built fresh at that position;
//! * a failed patch is reported by [`PatchSink::finish`]; the caller then writes all arguments
//!   again with [`PatchSink::fresh`], which builds every container anew.
//!
//! [`DynamicSink`]: super::convert::DynamicSink

use pallet_api::script::ValueSink;
use pallet_api::value::ValueError;
use rhai::{Array, Dynamic, FnPtr, Identifier, ImmutableString, Map};

use super::reads::{Filter, ReadPaths};

/// Where the top-level values go: argument `i` of the closure (0 is `next`).
pub trait ArgSlots {
    fn slot(&mut self, i: usize) -> Option<&mut Dynamic>;
    /// Can the closure observe argument `i`? An argument it never names is not written (the
    /// direct path does not even serialize it: `ScriptArgs::write_read`).
    fn used(&self, _i: usize) -> bool {
        true
    }
    /// The parts of argument `i` the closure reads, when it reads only some (`None`: all of
    /// it). Entries of a map outside them are not written ([`super::reads`]).
    fn paths(&self, _i: usize) -> Option<&ReadPaths> {
        None
    }
}

/// An open container.
enum Frame {
    /// A previous map updated in place: the value (taken out of its parent), the key of the
    /// value being written (a byte range of the sink's key text), keys written so far.
    PatchMap(Dynamic, (usize, usize), usize),
    /// A previous array updated in place, and the index of the next element.
    PatchList(Dynamic, usize),
    /// A map built fresh, and the key of the value being written.
    Map(Map, Identifier),
    /// An array built fresh.
    List(Array),
}

/// The sink's container stack and key text, kept across calls for their capacity.
#[derive(Default)]
pub struct Buffers {
    stack: Vec<Frame>,
    /// What each open container writes (parallel to `stack`).
    filters: Vec<Filter>,
    /// The keys of patched maps (looked up as slices: no key string is built per entry).
    text: String,
}

/// The outcome of [`PatchSink::finish`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finish {
    /// Every argument is written.
    Complete,
    /// The previous values did not fit: write the arguments again with [`PatchSink::fresh`].
    Retry,
    /// The stream left a container open, or wrote another number of arguments.
    Incomplete,
}

/// The [`ValueSink`] writing a link's arguments (after `next`) over the previous ones.
pub struct PatchSink<'a, S: ArgSlots> {
    slots: &'a mut S,
    /// The next top-level argument (1: the first after `next`).
    top: usize,
    stack: &'a mut Vec<Frame>,
    filters: &'a mut Vec<Filter>,
    text: &'a mut String,
    /// Build every container anew (the retry after a failed patch).
    fresh: bool,
    failed: bool,
    /// Open containers of a value that is not written (an unused argument, or a map entry the
    /// closure cannot read).
    skipping: usize,
    /// Whether the value being skipped is a whole (top-level) argument.
    skipping_argument: bool,
    /// The next value is a map entry the closure cannot read: not written.
    skip_next: bool,
    /// What the next value in a filtered map writes (set by its key).
    pending: Filter,
}

/// Is `d` a value exactly as the host writes it (so patching it in place, or keeping it,
/// gives what a fresh build gives)?
fn plain(d: &Dynamic) -> bool {
    !d.is_shared() && !d.is_read_only() && d.tag() == 0
}

/// Put the script-visible `next` into argument 0, reusing the previous `next`'s allocation
/// when it is a plain function pointer.
pub fn put_next(slots: &mut impl ArgSlots, next: &FnPtr) {
    if !slots.used(0) {
        return;
    }
    let Some(slot) = slots.slot(0) else { return };
    if plain(slot) {
        if let Some(mut f) = slot.write_lock::<FnPtr>() {
            f.clone_from(next);
            return;
        }
    }
    *slot = Dynamic::from(next.clone());
}

impl<'a, S: ArgSlots> PatchSink<'a, S> {
    /// Patch the previous values in place where they allow it.
    pub fn new(slots: &'a mut S, buf: &'a mut Buffers) -> Self {
        buf.stack.clear();
        buf.filters.clear();
        buf.text.clear();
        PatchSink {
            slots,
            top: 1,
            stack: &mut buf.stack,
            filters: &mut buf.filters,
            text: &mut buf.text,
            fresh: false,
            failed: false,
            skipping: 0,
            skipping_argument: false,
            skip_next: false,
            pending: Filter::Whole,
        }
    }

    /// Build every container anew (after a failed patch).
    pub fn fresh(slots: &'a mut S, buf: &'a mut Buffers) -> Self {
        PatchSink {
            fresh: true,
            ..Self::new(slots, buf)
        }
    }

    /// How the stream went, for arguments after `next` (`count` of them).
    pub fn finish(self, count: usize) -> Finish {
        let complete = self.stack.is_empty() && self.skipping == 0 && self.top == count + 1;
        self.stack.clear();
        self.filters.clear();
        match (complete, self.failed) {
            (true, false) => Finish::Complete,
            (_, true) if !self.fresh => Finish::Retry,
            _ => Finish::Incomplete,
        }
    }

    /// Write a value: `set` gets the slot (the previous value, or unit for a new one).
    fn put(&mut self, set: impl FnOnce(&mut Dynamic)) {
        self.pending = Filter::Whole;
        if std::mem::take(&mut self.skip_next) {
            return;
        }
        match self.stack.last_mut() {
            None if !self.slots.used(self.top) => self.top += 1,
            None => {
                match self.slots.slot(self.top) {
                    Some(slot) => set(slot),
                    None => self.failed = true,
                }
                self.top += 1;
            }
            Some(Frame::PatchMap(map, (a, b), written)) => {
                let Some(mut map) = map.write_lock::<Map>() else {
                    self.failed = true;
                    return;
                };
                *written += 1;
                match map.get_mut(&self.text[*a..*b]) {
                    Some(slot) => set(slot),
                    // A field the previous call did not have: the merge check fails the patch.
                    None => self.failed = true,
                }
            }
            Some(Frame::PatchList(list, index)) => {
                let Some(mut list) = list.write_lock::<Array>() else {
                    self.failed = true;
                    return;
                };
                match list.get_mut(*index) {
                    Some(slot) => set(slot),
                    None => {
                        let mut slot = Dynamic::UNIT;
                        set(&mut slot);
                        list.push(slot);
                    }
                }
                *index += 1;
            }
            Some(Frame::Map(map, key)) => {
                let mut slot = Dynamic::UNIT;
                set(&mut slot);
                map.insert(std::mem::take(key), slot);
            }
            Some(Frame::List(items)) => {
                let mut slot = Dynamic::UNIT;
                set(&mut slot);
                items.push(slot);
            }
        }
    }

    /// Take the previous value at the position the next value goes to (unit if none).
    fn take_previous(&mut self) -> Dynamic {
        if self.fresh {
            return Dynamic::UNIT;
        }
        match self.stack.last_mut() {
            None => self.slots.slot(self.top).map(Dynamic::take),
            Some(Frame::PatchMap(map, (a, b), _)) => map
                .write_lock::<Map>()
                .and_then(|mut m| m.get_mut(&self.text[*a..*b]).map(Dynamic::take)),
            Some(Frame::PatchList(list, index)) => list
                .write_lock::<Array>()
                .and_then(|mut l| l.get_mut(*index).map(Dynamic::take)),
            Some(Frame::Map(..) | Frame::List(..)) => None,
        }
        .unwrap_or(Dynamic::UNIT)
    }
}

impl<S: ArgSlots> PatchSink<'_, S> {
    /// Open a container: `false` when it is not written (an unused argument, or a map entry
    /// the closure cannot read).
    fn open(&mut self) -> bool {
        if self.skipping > 0 {
            self.skipping += 1;
            return false;
        }
        let unused_argument = self.stack.is_empty() && !self.slots.used(self.top);
        if unused_argument || std::mem::take(&mut self.skip_next) {
            self.skipping = 1;
            self.skipping_argument = unused_argument;
            return false;
        }
        true
    }

    /// What the container being opened writes: the argument's read paths at the top level,
    /// whole inside a list or a whole value, else what its key selected.
    fn take_filter(&mut self) -> Filter {
        let pending = std::mem::replace(&mut self.pending, Filter::Whole);
        match self.filters.last() {
            None => self
                .slots
                .paths(self.top)
                .map_or(Filter::Whole, ReadPaths::root),
            Some(Filter::Whole) => Filter::Whole,
            Some(Filter::Keys(_)) => pending,
        }
    }
}

impl<S: ArgSlots> ValueSink for PatchSink<'_, S> {
    fn unit(&mut self) {
        if self.skipping == 0 {
            self.put(|slot| *slot = Dynamic::UNIT);
        }
    }
    fn bool(&mut self, v: bool) {
        if self.skipping == 0 {
            self.put(|slot| *slot = Dynamic::from_bool(v));
        }
    }
    fn int(&mut self, v: i64) {
        if self.skipping == 0 {
            self.put(|slot| *slot = Dynamic::from_int(v));
        }
    }
    fn float(&mut self, v: f64) {
        if self.skipping == 0 {
            self.put(|slot| *slot = Dynamic::from_float(v));
        }
    }
    fn str(&mut self, v: &str) {
        if self.skipping > 0 {
            return;
        }
        self.put(|slot| {
            // An unchanged string keeps its allocation.
            let same = plain(slot)
                && slot
                    .read_lock::<ImmutableString>()
                    .is_some_and(|s| s.as_str() == v);
            if !same {
                *slot = Dynamic::from(ImmutableString::from(v));
            }
        });
    }
    fn begin_list(&mut self, len_hint: usize) -> Result<(), ValueError> {
        if !self.open() {
            return Ok(());
        }
        // A list is written whole (a property chain cannot select its elements).
        self.take_filter();
        let previous = self.take_previous();
        let frame = if plain(&previous) && previous.is_array() {
            Frame::PatchList(previous, 0)
        } else {
            Frame::List(Array::with_capacity(len_hint.min(4096)))
        };
        self.stack.push(frame);
        self.filters.push(Filter::Whole);
        Ok(())
    }
    fn begin_map(&mut self, _len_hint: usize) -> Result<(), ValueError> {
        if !self.open() {
            return Ok(());
        }
        let filter = self.take_filter();
        let previous = self.take_previous();
        let frame = if plain(&previous) && previous.is_map() {
            Frame::PatchMap(previous, (0, 0), 0)
        } else {
            Frame::Map(Map::new(), Identifier::new())
        };
        self.stack.push(frame);
        self.filters.push(filter);
        Ok(())
    }
    fn key(&mut self, key: &str) {
        if self.skipping > 0 {
            return;
        }
        if let Some(&Filter::Keys(node)) = self.filters.last() {
            match self.slots.paths(self.top).and_then(|p| p.child(node, key)) {
                Some(filter) => self.pending = filter,
                None => {
                    // An entry the closure cannot read: its value is streamed, not written.
                    self.skip_next = true;
                    return;
                }
            }
        }
        match self.stack.last_mut() {
            Some(Frame::PatchMap(_, pending, _)) => {
                let start = self.text.len();
                self.text.push_str(key);
                *pending = (start, self.text.len());
            }
            Some(Frame::Map(_, pending)) => *pending = key.into(),
            _ => self.failed = true,
        }
    }
    fn end(&mut self) {
        if self.skipping > 0 {
            self.skipping -= 1;
            if self.skipping == 0 && self.skipping_argument {
                // The unused argument is complete.
                self.top += 1;
            }
            return;
        }
        self.filters.pop();
        let value = match self.stack.pop() {
            Some(Frame::PatchMap(map, _, written)) => {
                if map.read_lock::<Map>().is_none_or(|m| m.len() != written) {
                    // A key the script added, or a field absent this time.
                    self.failed = true;
                }
                map
            }
            Some(Frame::PatchList(mut list, index)) => {
                if let Some(mut l) = list.write_lock::<Array>() {
                    l.truncate(index);
                }
                list
            }
            Some(Frame::Map(map, _)) => Dynamic::from_map(map),
            Some(Frame::List(items)) => Dynamic::from_array(items),
            None => {
                self.failed = true;
                return;
            }
        };
        self.put(|slot| *slot = value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::convert::DynamicSink;

    struct Slots(Vec<Dynamic>);
    impl ArgSlots for Slots {
        fn slot(&mut self, i: usize) -> Option<&mut Dynamic> {
            self.0.get_mut(i)
        }
    }

    /// Write `v` (one argument after `next`) over `slots` as the direct path does: patch, or
    /// on failure, fresh.
    fn write<T: serde::Serialize>(slots: &mut Slots, v: &T) {
        let mut buf = Buffers::default();
        let mut sink = PatchSink::new(slots, &mut buf);
        pallet_api::script::to_sink(v, &mut sink).unwrap();
        let done = sink.finish(1);
        assert_ne!(done, Finish::Incomplete);
        if done == Finish::Retry {
            let mut sink = PatchSink::fresh(slots, &mut buf);
            pallet_api::script::to_sink(v, &mut sink).unwrap();
            assert_eq!(sink.finish(1), Finish::Complete);
        }
    }

    fn built<T: serde::Serialize>(v: &T) -> String {
        let mut sink = DynamicSink::new(Dynamic::UNIT, Vec::new());
        pallet_api::script::to_sink(v, &mut sink).unwrap();
        let (args, _) = sink.finish();
        format!("{:?}", args.unwrap()[1])
    }

    #[test]
    fn patched_arguments_are_what_a_fresh_build_gives() {
        use pallet_api::Value;
        let a = Value::map([
            ("name", Value::from("PIKACHU")),
            ("hp", Value::Int(35)),
            ("types", Value::List(vec![Value::from("ELECTRIC")])),
            (
                "user",
                Value::map([("x", Value::Float(1.5)), ("ok", Value::Bool(true))]),
            ),
        ]);
        let b = Value::map([
            ("name", Value::from("RAICHU")),
            ("hp", Value::Int(0)),
            (
                "types",
                Value::List(vec![Value::from("ELECTRIC"), Value::from("FLYING")]),
            ),
            ("user", Value::Int(3)),
        ]);
        let c = Value::map([("name", Value::from("RAICHU"))]);
        let mut slots = Slots(vec![Dynamic::UNIT, Dynamic::UNIT]);
        for v in [&a, &a, &b, &a, &c, &a, &b, &b] {
            write(&mut slots, v);
            assert_eq!(format!("{:?}", slots.0[1]), built(v));
        }
        // A script added a key, tagged or shared a value: still exactly the fresh tree.
        slots.0[1]
            .as_map_mut()
            .unwrap()
            .insert("extra".into(), Dynamic::from_int(1));
        write(&mut slots, &a);
        assert_eq!(format!("{:?}", slots.0[1]), built(&a));
        slots.0[1]
            .as_map_mut()
            .unwrap()
            .get_mut("user")
            .unwrap()
            .set_tag(7);
        write(&mut slots, &a);
        assert_eq!(slots.0[1].as_map_ref().unwrap()["user"].tag(), 0);
        let shared = slots.0[1].clone().into_shared();
        slots.0[1] = shared.clone();
        write(&mut slots, &b);
        assert_eq!(format!("{:?}", slots.0[1]), built(&b));
        assert!(!slots.0[1].is_shared());
        assert_eq!(
            format!("{:?}", shared.flatten_clone()),
            built(&a),
            "not written through"
        );
    }

    /// Slots whose argument 1 is read only through `paths`.
    struct Filtered(Vec<Dynamic>, ReadPaths);
    impl ArgSlots for Filtered {
        fn slot(&mut self, i: usize) -> Option<&mut Dynamic> {
            self.0.get_mut(i)
        }
        fn paths(&self, i: usize) -> Option<&ReadPaths> {
            (i == 1).then_some(&self.1)
        }
    }

    #[test]
    fn a_filtered_argument_gets_exactly_the_read_paths() {
        use pallet_api::Value;
        let ctx = |name: &str, hp: i64, types: &[&str], turn: Option<i64>| {
            Value::map([
                (
                    "user",
                    Value::map([
                        ("name", Value::from(name)),
                        ("hp", Value::Int(hp)),
                        (
                            "types",
                            Value::List(types.iter().map(|t| Value::from(*t)).collect()),
                        ),
                    ]),
                ),
                (
                    "battle",
                    match turn {
                        Some(t) => Value::map([("turn", Value::Int(t))]),
                        None => Value::map([("kind", Value::from("wild"))]),
                    },
                ),
                ("critical", Value::Bool(hp > 10)),
            ])
        };
        let expected = |v: &Value| {
            // What the closure may see: user.hp, user.types (whole), battle.turn.
            let Value::Map(m) = v else { unreachable!() };
            let Value::Map(user) = &m["user"] else {
                unreachable!()
            };
            let Value::Map(battle) = &m["battle"] else {
                unreachable!()
            };
            let mut u = vec![("hp", user["hp"].clone()), ("types", user["types"].clone())];
            u.retain(|(_, v)| *v != Value::Nil);
            let mut b = Vec::new();
            if let Some(t) = battle.get("turn") {
                b.push(("turn", t.clone()));
            }
            built(&Value::map([
                ("user", Value::map(u)),
                ("battle", Value::map(b)),
            ]))
        };
        let paths =
            ReadPaths::from_paths(&[&["user", "hp"], &["user", "types"], &["battle", "turn"]]);
        let mut slots = Filtered(vec![Dynamic::UNIT, Dynamic::UNIT], paths);
        let a = ctx("PIKACHU", 35, &["ELECTRIC"], Some(3));
        let b = ctx("PIDGEY", 7, &["NORMAL", "FLYING"], None);
        let c = ctx("RAICHU", 60, &[], Some(9));
        for v in [&a, &a, &b, &c, &a, &b, &b] {
            let mut buf = Buffers::default();
            let mut sink = PatchSink::new(&mut slots, &mut buf);
            pallet_api::script::to_sink(v, &mut sink).unwrap();
            let mut done = sink.finish(1);
            if done == Finish::Retry {
                let mut sink = PatchSink::fresh(&mut slots, &mut buf);
                pallet_api::script::to_sink(v, &mut sink).unwrap();
                done = sink.finish(1);
            }
            assert_eq!(done, Finish::Complete);
            assert_eq!(format!("{:?}", slots.0[1]), expected(v));
        }
    }

    #[test]
    fn next_reuses_a_plain_pointer_and_replaces_anything_else() {
        let next = FnPtr::new("next").unwrap();
        let mut slots = Slots(vec![Dynamic::from_int(1)]);
        put_next(&mut slots, &next);
        assert_eq!(slots.0[0].type_name(), "Fn");
        let other = FnPtr::new("other").unwrap();
        slots.0[0] = Dynamic::from(other).into_shared();
        let held = slots.0[0].clone();
        put_next(&mut slots, &next);
        assert!(!slots.0[0].is_shared());
        assert_eq!(slots.0[0].to_string(), "Fn(next)");
        assert_eq!(
            held.read_lock::<FnPtr>().unwrap().fn_name(),
            "other",
            "a shared value is replaced, not written"
        );
    }
}
