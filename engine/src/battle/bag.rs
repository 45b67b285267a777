//! Bag items used as the player's action in a game battle (never in link battles: their
//! players have no bag). Poké Balls go to the capture path; medicine (Potions, Full Restore,
//! status heals, Revive) acts on the party mon [`Battle::set_item_target`] chose, with the
//! cartridge's texts; Full Restore on the active mon also ends confusion, and a cured
//! active mon loses Toxic's counter. The rest is refused before the round by the game
//! ("This isn't the time to use that!"), so the round only sees usable items.

use pallet_api::Runtime;

use super::rows::{ItemText, Msg, Row, Who};
use super::state::flag;
use super::{Battle, BattleRng, Side};
use crate::items::{self, ItemEffect, ItemMsg};

impl<R: BattleRng> Battle<R> {
    /// The party slot the next bag item acts on (the menu's choice).
    pub fn set_item_target(&mut self, slot: u8) {
        self.item_target = slot;
    }

    /// What `item` would do to the player's party mon `slot` now, without changing anything
    /// (the game refuses a use that has no effect before the round).
    pub fn item_preview(&self, item: crate::data::ItemId, slot: u8) -> ItemMsg {
        let Some(data) = self.data.get_item(item) else {
            return ItemMsg::NoEffect;
        };
        let effect = ItemEffect::of(data);
        if !effect.battle_usable() {
            return ItemMsg::NotNow;
        }
        match self.sides[0].party.get(usize::from(slot)) {
            Some(mon) => items::apply_medicine(&mut mon.clone(), effect),
            None => ItemMsg::NoEffect,
        }
    }

    /// A medicine used as the player's action on the chosen party slot.
    pub(crate) fn use_medicine(&mut self, effect: ItemEffect) {
        let slot = self.item_target;
        let active = self.sides[0].active == slot;
        let Some(mon) = self.sides[0].party.get_mut(usize::from(slot)) else {
            self.text(Msg::ItemNoEffect);
            return;
        };
        let from = mon.hp;
        let msg = items::apply_medicine(mon, effect);
        let (to, max) = (mon.hp, mon.stats.max_hp);
        if active && msg.used() {
            if to != from {
                self.push(Row::HpDrain {
                    side: Side::Player,
                    from,
                    to,
                    max,
                });
            }
            let b = self.bat_mut(Side::Player);
            if matches!(effect, ItemEffect::FullRestore) {
                b.clear(flag::CONFUSED);
                b.confusion_turns = 0;
            }
            if self.sides[0].party[usize::from(slot)].status.is_none() {
                let b = self.bat_mut(Side::Player);
                b.clear(flag::TOXIC);
                b.toxic_counter = 0;
            }
        }
        self.text(Msg::Item(ItemText {
            mon: Who {
                side: Side::Player,
                slot,
            },
            msg,
        }));
    }

    /// The bag item action of the round (see [`Battle::use_item`]).
    pub(crate) fn use_bag_item(&mut self, _rt: &Runtime, effect: ItemEffect) {
        if effect.battle_usable() {
            self.use_medicine(effect);
        } else {
            self.text(Msg::ItemNoEffect);
        }
    }
}
