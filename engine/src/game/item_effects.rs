//! Item effects given by mods (the `item_effects` registry, issue 18): an item whose record
//! names an `effect` that a mod registered runs the mod's `use` callback when it is used from
//! the bag, instead of the item's built-in effect.
//!
//! The callbacks never enter game state: a host (Rhai or Lua) wraps each one as an
//! [`ItemEffectFn`] that holds its mod weakly, and installs it here by item id before the game
//! starts ([`crate::game::Game::item_effects_mut`]). Nothing of it is saved or checkpointed.
//!
//! **The call.** The callback gets a data context ([`use_context`]):
//! `{item, effect, target?, mapId, field = true, save = {coins, money}}` and answers with
//! `{result, messages?, save?}` (the Lua host folds the callback's multiple returns and the
//! context's `save` table after the call into that record; a Rhai callback returns the map).
//!
//! * `result` `"used"` spends one item; `"failed"` (or nil) keeps it.
//! * `messages`: a list of strings, each shown in a text box in order.
//! * `save.coins` (0..=9999) and `save.money` (0..=999999), whole numbers, are written back.
//!
//! **Fail closed.** Any other answer (an unknown result, a message that is not a string, an
//! out-of-range or fractional amount), or an error in the callback, changes nothing: the item is
//! kept, the mod's error is reported on the runtime's error feed as `"<mod>: item_effects.<id>:
//! …"`, and the use returns an error. An effect registered with `field = false` answers the
//! cartridge's "This isn't the time to use that!" without calling the mod. Items with a mod
//! effect are used from the field only: in a battle they are refused before the round.

use std::collections::BTreeMap;
use std::rc::Rc;

use pallet_api::Value;

use crate::game::GameError;
use crate::items::ItemMsg;
use crate::save::data::MAX_COINS;

/// Most money the purse holds (the cartridge's three BCD bytes).
pub const MAX_MONEY: u32 = 999_999;

/// A host-wrapped `use` callback: the context record in, the answer record out.
pub type ItemEffectFn = dyn Fn(&Value) -> Result<Value, String>;

/// One installed effect: the registering mod, the effect id, where it may be used, the callback.
#[derive(Clone)]
pub struct ModItemEffect {
    pub owner: String,
    pub effect: String,
    pub field: bool,
    pub battle: bool,
    pub run: Rc<ItemEffectFn>,
}

impl std::fmt::Debug for ModItemEffect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ModItemEffect")
            .field("owner", &self.owner)
            .field("effect", &self.effect)
            .field("field", &self.field)
            .field("battle", &self.battle)
            .finish_non_exhaustive()
    }
}

/// The game's installed mod item effects, by item id.
#[derive(Clone, Debug, Default)]
pub struct ModItemEffects {
    by_item: BTreeMap<String, ModItemEffect>,
}

impl ModItemEffects {
    /// Install `effect` for `item` (a later install for the same item replaces it).
    pub fn insert(&mut self, item: &str, effect: ModItemEffect) {
        self.by_item.insert(item.to_owned(), effect);
    }

    pub fn get(&self, item: &str) -> Option<&ModItemEffect> {
        self.by_item.get(item)
    }

    pub fn len(&self) -> usize {
        self.by_item.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_item.is_empty()
    }
}

/// What a well-formed answer asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ItemUseOutcome {
    pub used: bool,
    pub messages: Vec<String>,
    pub coins: Option<u32>,
    pub money: Option<u32>,
}

/// The context record a callback gets.
pub fn use_context(
    item: &str,
    effect: &str,
    target: Option<u8>,
    map_id: &str,
    coins: u32,
    money: u32,
) -> Value {
    let mut pairs = vec![
        ("item", Value::Str(item.to_owned())),
        ("effect", Value::Str(effect.to_owned())),
        ("mapId", Value::Str(map_id.to_owned())),
        ("field", Value::Bool(true)),
        (
            "save",
            Value::map([
                ("coins", Value::Int(i64::from(coins))),
                ("money", Value::Int(i64::from(money))),
            ]),
        ),
    ];
    if let Some(t) = target {
        pairs.push(("target", Value::Int(i64::from(t) + 1)));
    }
    Value::map(pairs)
}

fn amount(save: &Value, key: &str, max: u32) -> Result<Option<u32>, String> {
    match save.get(key) {
        None | Some(Value::Nil) => Ok(None),
        Some(v) => v
            .as_exact_int()
            .and_then(|n| u32::try_from(n).ok())
            .filter(|n| *n <= max)
            .map(Some)
            .ok_or_else(|| format!("save.{key} must be a whole number 0..{max}")),
    }
}

/// Read a callback's answer (see the module docs); errors name what is wrong.
pub fn parse_answer(answer: &Value) -> Result<ItemUseOutcome, String> {
    if !matches!(answer, Value::Map(_)) {
        return Err(format!(
            "use must answer a record, got {}",
            answer.type_name()
        ));
    }
    let used = match answer.get("result") {
        None | Some(Value::Nil) => false,
        Some(Value::Str(s)) if s == "used" => true,
        Some(Value::Str(s)) if s == "failed" => false,
        Some(other) => {
            return Err(format!(
                "use returned {} (want \"used\" or \"failed\")",
                describe(other)
            ))
        }
    };
    let messages = match answer.get("messages") {
        None | Some(Value::Nil) => Vec::new(),
        // An empty Lua table arrives as a map: no messages.
        Some(Value::Map(m)) if m.is_empty() => Vec::new(),
        Some(Value::List(rows)) => rows
            .iter()
            .enumerate()
            .map(|(i, r)| {
                r.as_str().map(str::to_owned).ok_or_else(|| {
                    format!(
                        "messages[{}] must be a string, got {}",
                        i + 1,
                        r.type_name()
                    )
                })
            })
            .collect::<Result<_, _>>()?,
        Some(other) => {
            return Err(format!(
                "messages must be a list of strings, got {}",
                other.type_name()
            ))
        }
    };
    let (coins, money) = match answer.get("save") {
        None | Some(Value::Nil) => (None, None),
        Some(save @ Value::Map(_)) => (
            amount(save, "coins", MAX_COINS)?,
            amount(save, "money", MAX_MONEY)?,
        ),
        Some(other) => return Err(format!("save must be a record, got {}", other.type_name())),
    };
    Ok(ItemUseOutcome {
        used,
        messages,
        coins,
        money,
    })
}

fn describe(v: &Value) -> String {
    match v {
        Value::Str(s) => format!("{s:?}"),
        other => other.type_name().to_owned(),
    }
}

impl crate::game::Game {
    /// Use `item` (in the bag; the caller checked mode, idleness and the bag) through the mod
    /// effect `e`. See the module docs for the answer and the refusals.
    pub(crate) fn use_mod_item(
        &mut self,
        item: &str,
        e: &ModItemEffect,
        target: Option<u8>,
    ) -> Result<ItemMsg, GameError> {
        if !e.field {
            let msg = ItemMsg::NotNow;
            let player = self.save.player.name.clone();
            self.item_text(msg.render("", &player));
            return Ok(msg);
        }
        let ctx = use_context(
            item,
            &e.effect,
            target,
            &self.save.player.map,
            self.save.coins,
            self.save.money,
        );
        let outcome = (e.run)(&ctx).and_then(|a| parse_answer(&a));
        let outcome = match outcome {
            Ok(o) => o,
            Err(msg) => {
                let msg = format!("item_effects.{}: {msg}", e.effect);
                self.rt.report_error(&e.owner, &msg);
                return Err(GameError::Overworld(format!("items: {item}: {msg}")));
            }
        };
        if let Some(c) = outcome.coins {
            self.save.coins = c;
        }
        if let Some(m) = outcome.money {
            self.save.money = m;
        }
        if outcome.used {
            crate::game::take_one_item(&mut self.save.inventory, item);
        }
        for text in outcome.messages {
            self.item_text(text);
        }
        Ok(if outcome.used {
            ItemMsg::ModUsed
        } else {
            ItemMsg::ModKept
        })
    }

    /// A mod-effect item chosen in a battle: refused before the round (no turn taken), with the
    /// cartridge's "not now" text.
    pub(crate) fn battle_mod_item(&mut self, item: &str) -> Result<bool, GameError> {
        if self.battle().is_none() {
            return Err(GameError::Overworld("no battle is running".into()));
        }
        let text = ItemMsg::NotNow.render("", &self.save.player.name);
        self.show(crate::world::presentation::PresentationRow::Note {
            text: format!("battle: {text} ({item} has a mod effect, used from the field only)"),
        });
        Ok(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(pairs: Vec<(&str, Value)>) -> Value {
        Value::map(pairs)
    }

    #[test]
    fn a_used_answer_with_messages_and_amounts() {
        let a = answer(vec![
            ("result", Value::Str("used".into())),
            ("messages", Value::List(vec![Value::Str("Hi".into())])),
            (
                "save",
                Value::map([("coins", Value::Int(9999)), ("money", Value::Int(0))]),
            ),
        ]);
        assert_eq!(
            parse_answer(&a).unwrap(),
            ItemUseOutcome {
                used: true,
                messages: vec!["Hi".into()],
                coins: Some(9999),
                money: Some(0),
            }
        );
    }

    #[test]
    fn failed_and_nil_keep_the_item_and_an_empty_table_is_no_messages() {
        let a = answer(vec![
            ("result", Value::Str("failed".into())),
            ("messages", Value::Map(BTreeMap::new())),
        ]);
        let o = parse_answer(&a).unwrap();
        assert!(!o.used && o.messages.is_empty() && o.coins.is_none());
        assert!(!parse_answer(&answer(vec![])).unwrap().used);
    }

    #[test]
    fn bad_answers_are_refused_with_what_is_wrong() {
        let cases = [
            (
                answer(vec![("result", Value::Str("eaten".into()))]),
                "use returned \"eaten\" (want \"used\" or \"failed\")",
            ),
            (
                answer(vec![("messages", Value::List(vec![Value::Int(3)]))]),
                "messages[1] must be a string, got integer",
            ),
            (
                answer(vec![("messages", Value::Str("x".into()))]),
                "messages must be a list of strings, got string",
            ),
            (
                answer(vec![("save", Value::map([("coins", Value::Int(10_000))]))]),
                "save.coins must be a whole number 0..9999",
            ),
            (
                answer(vec![("save", Value::map([("money", Value::Float(1.5))]))]),
                "save.money must be a whole number 0..999999",
            ),
            (Value::Int(1), "use must answer a record, got integer"),
        ];
        for (a, want) in cases {
            assert_eq!(parse_answer(&a).unwrap_err(), want);
        }
    }

    #[test]
    fn the_context_counts_the_target_from_one() {
        let c = use_context("COIN_CASE", "E", Some(0), "PALLET_TOWN", 5, 300);
        assert_eq!(c.get("target"), Some(&Value::Int(1)));
        assert_eq!(
            c.get("save").and_then(|s| s.get("coins")),
            Some(&Value::Int(5))
        );
        assert!(use_context("X", "E", None, "M", 0, 0)
            .get("target")
            .is_none());
    }

    mod in_a_game {
        use std::cell::RefCell;

        use pallet_api::Runtime;

        use super::super::*;
        use crate::game::Game;
        use crate::save::data::ItemStack;
        use crate::world::presentation::{PresentationRow, TextRef};
        use crate::world::GameVersion;

        fn game_with(answer: Rc<ItemEffectFn>, field: bool) -> (Game, Rc<Runtime>) {
            let rt = Rc::new(Runtime::new());
            let mut g = Game::new_game(GameVersion::Red, 3, Rc::clone(&rt)).unwrap();
            g.save.inventory.push(ItemStack {
                id: "COIN_CASE".into(),
                count: 1,
            });
            g.item_effects_mut().insert(
                "COIN_CASE",
                ModItemEffect {
                    owner: "coins_mod".into(),
                    effect: "FULL_CASE".into(),
                    field,
                    battle: false,
                    run: answer,
                },
            );
            g.drain_feed();
            (g, rt)
        }

        fn texts(g: &mut Game) -> Vec<String> {
            g.drain_feed()
                .into_iter()
                .filter_map(|r| match r.row {
                    PresentationRow::TextOpened {
                        text: TextRef::Literal(t),
                    } => Some(t),
                    _ => None,
                })
                .collect()
        }

        #[test]
        fn the_bag_use_runs_the_effect_and_writes_its_answer_back() {
            let seen: Rc<RefCell<Vec<Value>>> = Rc::default();
            let s = Rc::clone(&seen);
            let run: Rc<ItemEffectFn> = Rc::new(move |ctx: &Value| {
                s.borrow_mut().push(ctx.clone());
                Ok(Value::map([
                    ("result", Value::Str("failed".into())),
                    (
                        "messages",
                        Value::List(vec![Value::Str("Coins:\n9999".into())]),
                    ),
                    ("save", Value::map([("coins", Value::Int(9999))])),
                ]))
            });
            let (mut g, _rt) = game_with(run, true);
            assert_eq!(g.use_item("COIN_CASE", None).unwrap(), ItemMsg::ModKept);
            assert_eq!(g.save.coins, 9999);
            assert_eq!(g.save.inventory[0].count, 1, "failed keeps the item");
            assert_eq!(texts(&mut g), ["Coins:\n9999"]);
            let ctx = &seen.borrow()[0];
            assert_eq!(ctx.get("effect").and_then(Value::as_str), Some("FULL_CASE"));
            assert_eq!(ctx.get("item").and_then(Value::as_str), Some("COIN_CASE"));
        }

        #[test]
        fn used_spends_one() {
            let run: Rc<ItemEffectFn> =
                Rc::new(|_: &Value| Ok(Value::map([("result", Value::Str("used".into()))])));
            let (mut g, _rt) = game_with(run, true);
            assert_eq!(g.use_item("COIN_CASE", None).unwrap(), ItemMsg::ModUsed);
            assert!(g.save.inventory.iter().all(|s| s.id != "COIN_CASE"));
        }

        #[test]
        fn a_bad_answer_or_an_error_changes_nothing_and_is_reported() {
            for run in [
                Rc::new(|_: &Value| {
                    Ok(Value::map([
                        ("result", Value::Str("used".into())),
                        ("save", Value::map([("coins", Value::Int(-1))])),
                    ]))
                }) as Rc<ItemEffectFn>,
                Rc::new(|_: &Value| Err("main.lua:3: boom".to_owned())),
            ] {
                let (mut g, rt) = game_with(run, true);
                let before = g.save.clone();
                let err = g.use_item("COIN_CASE", None).unwrap_err().to_string();
                assert!(err.contains("item_effects.FULL_CASE: "), "{err}");
                assert_eq!(g.save, before);
                assert!(texts(&mut g).is_empty());
                let fed: Vec<String> = rt
                    .drain_diagnostics()
                    .into_iter()
                    .map(|d| d.message)
                    .collect();
                assert!(
                    fed.iter()
                        .any(|m| m.starts_with("coins_mod: item_effects.FULL_CASE: ")),
                    "{fed:?}"
                );
            }
        }

        #[test]
        fn a_battle_only_effect_is_not_for_the_field() {
            let run: Rc<ItemEffectFn> = Rc::new(|_: &Value| panic!("not called"));
            let (mut g, _rt) = game_with(run, false);
            assert_eq!(g.use_item("COIN_CASE", None).unwrap(), ItemMsg::NotNow);
            assert_eq!(g.save.inventory[0].count, 1);
        }
    }
}
