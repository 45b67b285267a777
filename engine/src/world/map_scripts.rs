//! Map scripts: per-map handlers (`onEnter`, talk by text constant) contributed by owners with
//! a priority. The engine's own handlers are the `base` contribution (see
//! [`super::base_scripts`]); mods add theirs through the same registry later.
//!
//! Order (the Lua engine's): priority descending; at equal priority the later registration comes
//! first, so base (priority 0, registered first) sits behind every default-priority mod.
//! A contribution with `replaces_base` drops the base handlers of its map.
//! * `onEnter`: every handler runs, in order.
//! * talk: one winner, the first contribution in order that has the text constant;
//!   [`Handler::Suppress`] wins by doing nothing.

use std::collections::BTreeMap;
use std::fmt;
use std::rc::Rc;

use super::script::ScriptRow;
use super::{Overworld, WorldCtx};

/// Owner name of the engine's own contributions.
pub const BASE_OWNER: &str = "base";

/// A native handler: engine code.
pub type NativeFn = fn(&mut Overworld, &mut WorldCtx<'_>);
/// A host handler (a mod's callback wrapped by its host); errors are reported, never fatal.
pub type DynFn = dyn Fn(&mut Overworld, &mut WorldCtx<'_>) -> Result<(), String>;

#[derive(Clone)]
pub enum Handler {
    Native(NativeFn),
    Dyn(Rc<DynFn>),
    /// Queue these rows as a script.
    Rows(Vec<ScriptRow>),
    /// Do nothing (a mod switching a base talk off).
    Suppress,
}

impl fmt::Debug for Handler {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Handler::Native(_) => f.write_str("Native"),
            Handler::Dyn(_) => f.write_str("Dyn"),
            Handler::Rows(r) => write!(f, "Rows({})", r.len()),
            Handler::Suppress => f.write_str("Suppress"),
        }
    }
}

/// One owner's handlers for one map.
#[derive(Clone, Debug, Default)]
pub struct Contribution {
    pub on_enter: Option<Handler>,
    /// `onStep` / `onInteract` (mods' callbacks; the first truthy return consumes the event,
    /// see [`super::map_step_handlers`]).
    pub on_step: Option<super::map_step_handlers::StepHandler>,
    pub on_interact: Option<super::map_step_handlers::StepHandler>,
    pub talk: BTreeMap<String, Handler>,
    pub replaces_base: bool,
}

#[derive(Clone, Debug)]
struct Entry {
    owner: String,
    priority: i32,
    seq: u64,
    contribution: Contribution,
}

/// Every map's contributions.
#[derive(Clone, Debug, Default)]
pub struct MapScriptRegistry {
    by_map: BTreeMap<String, Vec<Entry>>,
    next_seq: u64,
}

impl MapScriptRegistry {
    pub fn new() -> Self {
        Self::default()
    }

    /// Add `owner`'s contribution to `map` at `priority`.
    pub fn contribute(
        &mut self,
        map: &str,
        owner: &str,
        priority: i32,
        contribution: Contribution,
    ) {
        let seq = self.next_seq;
        self.next_seq += 1;
        let list = self.by_map.entry(map.to_owned()).or_default();
        list.push(Entry {
            owner: owner.to_owned(),
            priority,
            seq,
            contribution,
        });
        // Priority descending, later registration first at equal priority.
        list.sort_by(|a, b| b.priority.cmp(&a.priority).then(b.seq.cmp(&a.seq)));
    }

    /// Remove every contribution of `owner` (owner cleanup).
    pub fn remove_owner(&mut self, owner: &str) {
        for list in self.by_map.values_mut() {
            list.retain(|e| e.owner != owner);
        }
        self.by_map.retain(|_, l| !l.is_empty());
    }

    fn active(&self, map: &str) -> impl Iterator<Item = &Entry> {
        let list = self.by_map.get(map).map(Vec::as_slice).unwrap_or(&[]);
        let base_dropped = list
            .iter()
            .any(|e| e.contribution.replaces_base && e.owner != BASE_OWNER);
        list.iter()
            .filter(move |e| !(base_dropped && e.owner == BASE_OWNER))
    }

    /// `onEnter` handlers of `map`, in dispatch order, with their owners.
    pub fn on_enter(&self, map: &str) -> Vec<(String, Handler)> {
        self.active(map)
            .filter_map(|e| {
                e.contribution
                    .on_enter
                    .clone()
                    .map(|h| (e.owner.clone(), h))
            })
            .collect()
    }

    /// The winning talk handler for `text` on `map`, with its owner. A contribution's key is
    /// the NPC's text label (`_PalletTownGirlText`) or pokered's text constant for it
    /// (`TEXT_PALLETTOWN_GIRL`, the Lua engine's talk keys): see [`same_text`].
    pub fn talk(&self, map: &str, text: &str) -> Option<(String, Handler)> {
        self.active(map).find_map(|e| {
            let talk = &e.contribution.talk;
            talk.get(text)
                .or_else(|| {
                    talk.iter()
                        .find(|(k, _)| same_text(k, text))
                        .map(|(_, h)| h)
                })
                .map(|h| (e.owner.clone(), h.clone()))
        })
    }

    /// `onStep` or `onInteract` handlers of `map`, in dispatch order, with their owners.
    pub fn step_handlers(
        &self,
        map: &str,
        kind: super::map_step_handlers::StepKind,
    ) -> Vec<(String, super::map_step_handlers::StepHandler)> {
        use super::map_step_handlers::StepKind;
        self.active(map)
            .filter_map(|e| {
                let h = match kind {
                    StepKind::Step => e.contribution.on_step.clone(),
                    StepKind::Interact => e.contribution.on_interact.clone(),
                };
                h.map(|h| (e.owner.clone(), h))
            })
            .collect()
    }

    /// Owners contributing to `map`, in dispatch order.
    pub fn owners(&self, map: &str) -> Vec<String> {
        self.active(map).map(|e| e.owner.clone()).collect()
    }
}

/// Does talk key `key`, a pokered text constant (`TEXT_VERMILIONCITY_SAILOR1`), name the NPC
/// whose text label is `label` (`_VermilionCitySailor1Text`)? Both spell the map and the
/// object's name: compared upper-cased without the `TEXT_` / `_`…`Text` affixes and
/// underscores (`VERMILIONCITYSAILOR1`).
pub fn same_text(key: &str, label: &str) -> bool {
    let (Some(k), Some(l)) = (
        key.strip_prefix("TEXT_"),
        label.strip_prefix('_').and_then(|l| l.strip_suffix("Text")),
    ) else {
        return false;
    };
    let k = k.bytes().filter(|b| *b != b'_');
    let l = l
        .bytes()
        .filter(|b| *b != b'_')
        .map(|b| b.to_ascii_uppercase());
    l.clone().next().is_some() && k.eq(l)
}

/// The two arguments a mod's function map handler is called with, the same in every host:
/// `game` (`{mapId}`) and `view` (`{mapId, player = {cellX, cellY}}`).
pub fn handler_args(ow: &Overworld) -> (pallet_api::Value, pallet_api::Value) {
    use pallet_api::Value;
    let player = ow.player();
    let game = Value::map([("mapId", Value::from(ow.map_id()))]);
    let view = Value::map([
        ("mapId", Value::from(ow.map_id())),
        (
            "player",
            Value::map([
                ("cellX", Value::Int(i64::from(player.x))),
                ("cellY", Value::Int(i64::from(player.y))),
            ]),
        ),
    ]);
    (game, view)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn talk(rows: usize) -> Contribution {
        let mut c = Contribution::default();
        c.talk
            .insert("_T".into(), Handler::Rows(vec![ScriptRow::StopMusic; rows]));
        c
    }

    #[test]
    fn pokered_text_constants_name_the_npc_labels() {
        assert!(same_text("TEXT_PALLETTOWN_GIRL", "_PalletTownGirlText"));
        assert!(same_text(
            "TEXT_VERMILIONCITY_SAILOR1",
            "_VermilionCitySailor1Text"
        ));
        assert!(!same_text("TEXT_PALLETTOWN_GIRL", "_PalletTownFisherText"));
        assert!(!same_text("TEXT_PALLETTOWN_GIRL", "PalletTownGirl"));
        assert!(!same_text("TEXT_", "_Text"));
        let mut r = MapScriptRegistry::new();
        let mut c = Contribution::default();
        c.talk.insert(
            "TEXT_PALLETTOWN_GIRL".into(),
            Handler::Rows(vec![ScriptRow::StopMusic]),
        );
        r.contribute("PALLET_TOWN", "quests", 0, c);
        assert_eq!(
            r.talk("PALLET_TOWN", "_PalletTownGirlText").unwrap().0,
            "quests"
        );
        assert!(r.talk("PALLET_TOWN", "_PalletTownFisherText").is_none());
    }

    #[test]
    fn priority_then_later_registration_first() {
        let mut r = MapScriptRegistry::new();
        r.contribute("M", BASE_OWNER, 0, talk(1));
        r.contribute("M", "a", 0, talk(2));
        r.contribute("M", "b", 5, talk(3));
        r.contribute("M", "c", 0, talk(4));
        assert_eq!(r.owners("M"), vec!["b", "c", "a", "base"]);
        let (owner, h) = r.talk("M", "_T").unwrap();
        assert_eq!(owner, "b");
        assert!(matches!(h, Handler::Rows(v) if v.len() == 3));
        r.remove_owner("b");
        assert_eq!(r.talk("M", "_T").unwrap().0, "c");
        assert!(r.talk("M", "_Other").is_none());
        assert!(r.talk("N", "_T").is_none());
    }

    #[test]
    fn replaces_base_drops_base_only() {
        let mut r = MapScriptRegistry::new();
        r.contribute(
            "M",
            BASE_OWNER,
            0,
            Contribution {
                on_enter: Some(Handler::Suppress),
                ..talk(1)
            },
        );
        r.contribute(
            "M",
            "m",
            -1,
            Contribution {
                replaces_base: true,
                on_enter: Some(Handler::Suppress),
                ..Default::default()
            },
        );
        assert_eq!(r.on_enter("M").len(), 1);
        assert_eq!(r.on_enter("M")[0].0, "m");
        assert!(r.talk("M", "_T").is_none());
    }
}
