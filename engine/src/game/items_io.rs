//! Bag items and evolution in the game (a child module of `game`).
//!
//! * [`Game::use_item`]: an item from the bag in the field — medicine on a party mon, Rare
//!   Candy (a level, its moves, then a level evolution), evolution stones, Repel's steps,
//!   Escape Rope (back to the last heal point from inside). The cartridge's text opens in a
//!   text box; a use without effect keeps the item.
//! * [`Game::battle_use_item`]: medicine on a party mon as the player's battle action (the
//!   round is the battle's, see [`crate::battle::bag`]); balls are thrown.
//! * Evolution: after a battle for the mons that gained a level (the cartridge's
//!   `wCanEvolveFlags`), after Rare Candy, and by stone. Each goes through the guarded
//!   `evolution.check` hook; "What? X is evolving!" / "X evolved into Y!" show as text boxes,
//!   then the guarded `pokemon.evolved` event fires.

use crate::battle::{Action, NeedsChoice, Side};
use crate::data::{Evolution, ItemId};
use crate::items::{self, ItemEffect, ItemMsg};
use crate::pokemon::evolution::{self, Via};
use crate::pokemon::Pokemon;
use crate::world::presentation::{PresentationRow, TextRef};
use crate::world::Direction;

use super::{Game, GameError, Mode};

#[cfg(feature = "hook-sites")]
use pallet_api::catalog::{events, hooks};

fn err(msg: impl Into<String>) -> GameError {
    GameError::Overworld(msg.into())
}

impl Game {
    /// The item `name` as this game's dataset has it, and whether the bag holds one.
    fn bag_item(&self, name: &str) -> Result<(ItemId, &'static crate::data::ItemData), GameError> {
        let data = self.data;
        let id = data
            .item_by_name(name)
            .ok_or_else(|| err(format!("unknown item {name}")))?;
        let item = data
            .get_item(id)
            .ok_or_else(|| err(format!("unknown item {name}")))?;
        if !self
            .save
            .inventory
            .iter()
            .any(|s| s.id == item.id && s.count > 0)
        {
            return Err(err(format!("no {} in the bag", item.id)));
        }
        Ok((id, item))
    }

    /// Show a text box in the overworld (after a battle, at the end of the queue).
    pub(crate) fn item_text(&mut self, text: String) {
        if self
            .with_world(|ow, ctx| ow.open_text(TextRef::Literal(text.clone()), None, ctx))
            .is_none()
        {
            self.show(PresentationRow::Note { text });
        }
    }

    /// Use `name` from the bag in the field, on party slot `target` (0-based) when the item acts
    /// on a mon. Refused without effect (the item kept, the text shown): a use the cartridge
    /// refuses. Errors (nothing shown, nothing changed): not in the overworld or not idle, an
    /// unknown item, none in the bag, a missing or empty target slot.
    pub fn use_item(&mut self, name: &str, target: Option<u8>) -> Result<ItemMsg, GameError> {
        if self.mode != Mode::Overworld {
            return Err(err("items: not in the overworld"));
        }
        if let Some(b) = self.busy() {
            return Err(err(format!("items: {}", b.as_str())));
        }
        let data = self.data;
        let (_, item) = self.bag_item(name)?;
        if let Some(e) = self.item_effects().get(item.id).cloned() {
            return self.use_mod_item(item.id, &e, target);
        }
        let effect = ItemEffect::of(item);
        let mut party = self.save.party_mons(data).map_err(|e| err(e.to_string()))?;
        let slot = if effect.needs_target() {
            let t = target.ok_or_else(|| err(format!("{}: which party mon?", item.id)))?;
            if usize::from(t) >= party.len() {
                return Err(err(format!("{}: no party mon in slot {}", item.id, t + 1)));
            }
            Some(usize::from(t))
        } else {
            None
        };
        let player = self.save.player.name.clone();
        let mut evolve: Option<(usize, Via)> = None;
        let msg = match (effect, slot) {
            (
                ItemEffect::Heal { .. }
                | ItemEffect::FullRestore
                | ItemEffect::Cure(_)
                | ItemEffect::Revive { .. },
                Some(i),
            ) => {
                let msg = party
                    .get_mut(i)
                    .map_or(ItemMsg::NoEffect, |m| items::apply_medicine(m, effect));
                if msg.used() {
                    self.save
                        .set_party(&party, data)
                        .map_err(|e| err(e.to_string()))?;
                }
                msg
            }
            (ItemEffect::RareCandy, Some(i)) => {
                match party.get_mut(i).and_then(|m| items::rare_candy(data, m)) {
                    Some(msg) => {
                        self.save
                            .set_party(&party, data)
                            .map_err(|e| err(e.to_string()))?;
                        evolve = Some((i, Via::Level));
                        msg
                    }
                    None => ItemMsg::NoEffect,
                }
            }
            (ItemEffect::Stone, Some(i)) => {
                let mon = &party.as_slice()[i];
                match evolution::find(data, mon, Via::Item, Some(item.id)) {
                    Some(_) => {
                        evolve = Some((i, Via::Item));
                        ItemMsg::StoneUsed
                    }
                    None => ItemMsg::NoEffect,
                }
            }
            (ItemEffect::Repel { steps }, _) => {
                if self.save.repel_steps > 0 {
                    ItemMsg::RepelStillActive
                } else {
                    self.save.repel_steps = steps;
                    ItemMsg::RepelUsed
                }
            }
            (ItemEffect::EscapeRope, _) => self.escape_rope(),
            _ => ItemMsg::NotNow,
        };
        if let Some((i, Via::Item)) = evolve {
            // The stone is spent only when the evolution happens.
            let name = party.as_slice()[i].display_name(data).to_owned();
            if !self.try_evolve(i, Via::Item, Some(item.id)) {
                let msg = ItemMsg::NoEffect;
                self.item_text(msg.render(&name, &player));
                return Ok(msg);
            }
            take_one(&mut self.save.inventory, item.id);
            return Ok(ItemMsg::StoneUsed);
        }
        if msg.used() {
            take_one(&mut self.save.inventory, item.id);
        }
        // Repel and Escape Rope have no text on the cartridge (a sound, a warp).
        if !matches!(msg, ItemMsg::RepelUsed | ItemMsg::EscapeRopeUsed) {
            let name = slot
                .and_then(|i| party.as_slice().get(i))
                .map(|m| m.display_name(data).to_owned())
                .unwrap_or_default();
            self.item_text(msg.render(&name, &player));
        }
        if let Some((i, Via::Level)) = evolve {
            self.learn_after_level(i);
            self.try_evolve(i, Via::Level, None);
        }
        Ok(msg)
    }

    /// Escape Rope: from inside (a map that is not outdoor) back to the last heal point.
    fn escape_rope(&mut self) -> ItemMsg {
        let outdoor = self
            .overworld
            .as_ref()
            .is_none_or(|ow| ow.map().def().outdoor);
        if outdoor {
            return ItemMsg::NotNow;
        }
        let heal = self.save.last_heal.clone();
        let warped = self.with_world(|ow, ctx| {
            ow.start_warp(
                &heal.map,
                u32::from(heal.x),
                u32::from(heal.y),
                Direction::Down,
                ctx,
            )
        });
        match warped {
            Some(Ok(())) => ItemMsg::EscapeRopeUsed,
            _ => ItemMsg::NotNow,
        }
    }

    /// Rare Candy's moves: the new level's moves into free slots ("X learned Y!").
    fn learn_after_level(&mut self, slot: usize) {
        let data = self.data;
        let Ok(mut party) = self.save.party_mons(data) else {
            return;
        };
        let Some(mon) = party.get_mut(slot) else {
            return;
        };
        let (learned, blocked) = evolution::learn_level_moves(data, mon);
        let name = mon.display_name(data).to_owned();
        if learned.is_empty() && blocked.is_none() {
            return;
        }
        let _ = self.save.set_party(&party, data);
        self.moves_texts(slot, &name, &learned, blocked);
    }

    fn moves_texts(
        &mut self,
        slot: usize,
        name: &str,
        learned: &[crate::data::MoveId],
        blocked: Option<crate::data::MoveId>,
    ) {
        let data = self.data;
        let move_name = |m| data.get_move(m).map(|m| m.name).unwrap_or("?");
        for &m in learned {
            self.item_text(format!("{name} learned {}!", move_name(m)));
            self.move_learned_site(slot, m);
        }
        if let Some(m) = blocked {
            // The forget-a-move menu is the battle's (`Prompt::LearnMove`); in the field the
            // move is not learned.
            self.item_text(format!("{name} did not learn {}!", move_name(m)));
        }
    }

    /// Level evolutions after a battle for the party slots in `mask`.
    pub(super) fn evolve_after_battle(&mut self, mask: u8) {
        for slot in 0..crate::pokemon::PARTY_CAPACITY {
            if mask & (1 << slot) != 0 {
                self.try_evolve(slot, Via::Level, None);
            }
        }
    }

    /// Evolve party `slot` if its data says so now (`via`, the stone `item`) and
    /// `evolution.check` agrees. A stone's evolution happens at once (the cartridge forces
    /// it); a level evolution is queued for its animation, which B cancels
    /// ([`super::evolution_io`]). Returns whether it happens (or was queued).
    fn try_evolve(&mut self, slot: usize, via: Via, item: Option<&str>) -> bool {
        let data = self.data;
        let Ok(party) = self.save.party_mons(data) else {
            return false;
        };
        let Some(mon) = party.as_slice().get(slot) else {
            return false;
        };
        let Some((evo, into)) = evolution::find(data, mon, via, item) else {
            return false;
        };
        if !self.evolution_check_site(mon, evo, via) {
            return false;
        }
        let name = mon.display_name(data).to_owned();
        if via == Via::Level {
            self.queue_evolution(slot, into, name);
            return true;
        }
        self.item_text(format!("What? {name} is evolving!"));
        self.apply_evolution(slot, into, via)
    }

    /// The evolution itself: the change, the Pokédex, the texts, `pokemon.evolved`.
    pub(super) fn apply_evolution(
        &mut self,
        slot: usize,
        into: crate::data::SpeciesId,
        via: Via,
    ) -> bool {
        let data = self.data;
        let Ok(mut party) = self.save.party_mons(data) else {
            return false;
        };
        let Some(mon) = party.get_mut(slot) else {
            return false;
        };
        let old_name = mon.display_name(data).to_owned();
        let from = data.species(mon.species).id;
        let (learned, blocked) = evolution::evolve(data, mon, into);
        let to = data.species(into);
        let evolved = mon.clone();
        if self.save.set_party(&party, data).is_err() {
            return false;
        }
        self.save.pokedex.seen.insert(to.id.to_owned());
        self.save.pokedex.owned.insert(to.id.to_owned());
        self.item_text(format!("{old_name} evolved into {}!", to.name));
        let name = evolved.display_name(data).to_owned();
        self.moves_texts(slot, &name, &learned, blocked);
        self.evolved_site(&evolved, from, to.id, via);
        true
    }

    /// A text box on the overworld (a note without one).
    pub(super) fn evolution_text(&mut self, text: String) {
        self.item_text(text);
    }

    /// `evolution.check`: does this evolution happen now? Vanilla: yes (the data's condition
    /// already holds).
    fn evolution_check_site(&self, mon: &Pokemon, evo: &Evolution, via: Via) -> bool {
        #[cfg(feature = "hook-sites")]
        if self.rt.wants_hook::<hooks::EvolutionCheck>() {
            let args = hooks::EvolutionCheckArgs {
                game: self.item_game_info(),
                mon: crate::world::sites_flow::mon_record(self.data, mon),
                evo: crate::datasets::records::evolution(evo),
                trigger: via.as_str().to_owned(),
            };
            return self.rt.call::<hooks::EvolutionCheck>(args, |_| true);
        }
        let _ = (mon, evo, via);
        true
    }

    /// `pokemon.evolved` (the payload is built only for a listener).
    fn evolved_site(&self, mon: &Pokemon, from: &str, to: &str, via: Via) {
        #[cfg(feature = "hook-sites")]
        if self.rt.wants_event::<events::PokemonEvolved>() {
            self.rt
                .emit::<events::PokemonEvolved>(events::PokemonEvolvedPayload {
                    mon: crate::world::sites_flow::mon_record(self.data, mon),
                    from_species: from.to_owned(),
                    to_species: to.to_owned(),
                    via: via.as_str().to_owned(),
                });
        }
        let _ = (mon, from, to, via);
    }

    /// `pokemon.move_learned` for a move learned outside a battle (a free slot: nothing
    /// forgotten).
    fn move_learned_site(&self, slot: usize, mv: crate::data::MoveId) {
        #[cfg(feature = "hook-sites")]
        if self.rt.wants_event::<events::PokemonMoveLearned>() {
            let data = self.data;
            let Ok(party) = self.save.party_mons(data) else {
                return;
            };
            if let Some(mon) = party.as_slice().get(slot) {
                self.rt
                    .emit::<events::PokemonMoveLearned>(events::PokemonMoveLearnedPayload {
                        mon: crate::world::sites_flow::mon_record(data, mon),
                        move_id: data.get_move(mv).map(|m| m.id).unwrap_or("").to_owned(),
                        forgot: None,
                    });
            }
        }
        let _ = (slot, mv);
    }

    #[cfg(feature = "hook-sites")]
    fn item_game_info(&self) -> pallet_api::catalog::common::GameInfo {
        pallet_api::catalog::common::GameInfo {
            version: crate::world::sites::api_version(self.version),
            playthrough_id: self.save.meta.playthrough_id.clone(),
            map_id: Some(self.save.player.map.clone()),
        }
    }

    /// Use `name` from the bag in the running battle on party slot `target` (0-based; balls
    /// ignore it). Medicine is the player's action for the round (the enemy still moves);
    /// an item without effect or one that is not for battles is refused before the round
    /// (its text shown, the item kept, no turn taken). Returns whether a turn was taken.
    pub fn battle_use_item(&mut self, name: &str, target: u8) -> Result<bool, GameError> {
        let (id, item) = self.bag_item(name)?;
        if self.item_effects().get(item.id).is_some() {
            return self.battle_mod_item(item.id);
        }
        let effect = ItemEffect::of(item);
        let Some(session) = self.battle.as_mut() else {
            return Err(err("no battle is running"));
        };
        if effect == ItemEffect::Ball {
            self.battle_choose(Action::Item(id))?;
            return Ok(true);
        }
        if session.battle.needs_choice() != NeedsChoice::Round {
            return Err(err("battle: items are used at the start of a round"));
        }
        if usize::from(target) >= session.battle.party(Side::Player).len() {
            return Err(err(format!(
                "{}: no party mon in slot {}",
                item.id,
                target + 1
            )));
        }
        let preview = session.battle.item_preview(id, target);
        if !preview.used() {
            let b = &session.battle;
            let mon = b
                .party(Side::Player)
                .get(usize::from(target))
                .map(|m| m.display_name(b.data()).to_owned())
                .unwrap_or_default();
            let text = preview.render(&mon, &self.save.player.name);
            self.show(PresentationRow::Note {
                text: format!("battle: {text}"),
            });
            return Ok(false);
        }
        self.choose(Action::Item(id), Some(target))?;
        Ok(true)
    }
}

/// Remove one `id` from the bag.
pub(crate) fn take_one(bag: &mut Vec<crate::save::data::ItemStack>, id: &str) {
    if let Some(i) = bag.iter().position(|s| s.id == id && s.count > 0) {
        bag[i].count -= 1;
        if bag[i].count == 0 {
            bag.remove(i);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::rc::Rc;

    use pallet_api::catalog::{events, hooks};
    use pallet_api::Runtime;

    use super::*;
    use crate::save::data::ItemStack;
    use crate::world::{GameVersion, Input};

    fn game(rt: Rc<Runtime>) -> Game {
        Game::new_game(GameVersion::Red, 3, rt).unwrap()
    }

    fn bag(g: &mut Game, id: &str, count: u32) {
        g.save.inventory.push(ItemStack {
            id: id.into(),
            count,
        });
    }

    fn count(g: &Game, id: &str) -> u32 {
        g.save
            .inventory
            .iter()
            .find(|s| s.id == id)
            .map_or(0, |s| s.count)
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

    fn close_all(g: &mut Game) -> Vec<String> {
        let mut out = Vec::new();
        for _ in 0..400 {
            out.extend(texts(g));
            if g.busy().is_none() {
                break;
            }
            g.step(Input::A);
        }
        out.extend(texts(g));
        out
    }

    #[test]
    fn field_potion_heals_and_a_useless_one_is_kept() {
        let mut g = game(Rc::new(Runtime::new()));
        g.give_pokemon("PIDGEY", 10).unwrap();
        bag(&mut g, "POTION", 2);
        let msg = g.use_item("POTION", Some(0)).unwrap();
        assert_eq!(msg, ItemMsg::NoEffect);
        assert_eq!(count(&g, "POTION"), 2, "full HP: kept");
        assert_eq!(close_all(&mut g), ["It won't have any effect."]);
        g.save.party[0].hp -= 15;
        assert_eq!(
            g.use_item("POTION", Some(0)).unwrap(),
            ItemMsg::Recovered { amount: 15 }
        );
        assert_eq!(count(&g, "POTION"), 1);
        assert_eq!(close_all(&mut g), ["PIDGEY recovered by 15!"]);
        assert!(g.use_item("POTION", Some(3)).is_err(), "no mon in slot 4");
        assert!(g.use_item("ANTIDOTE", Some(0)).is_err(), "none in the bag");
        assert!(g.use_item("POTION", None).is_err(), "which mon?");
    }

    #[test]
    fn rare_candy_levels_up_and_evolves_with_the_cartridge_texts() {
        let rt = Rc::new(Runtime::new());
        let log: Rc<RefCell<Vec<String>>> = Rc::default();
        let l = Rc::clone(&log);
        let _e = rt.on::<events::PokemonEvolved, _>("t", 0, move |p| {
            l.borrow_mut().push(format!(
                "evolved {} -> {} via {} ({})",
                p.from_species,
                p.to_species,
                p.via,
                p.mon.get("species").and_then(|v| v.as_str()).unwrap_or("")
            ));
            Ok(())
        });
        let l = Rc::clone(&log);
        let _h = rt.wrap::<hooks::EvolutionCheck, _>("t", 0, move |next, args| {
            l.borrow_mut().push(format!("check {}", args.trigger));
            Ok(next.call())
        });
        let mut g = game(Rc::clone(&rt));
        g.give_pokemon("CATERPIE", 6).unwrap();
        bag(&mut g, "RARE_CANDY", 1);
        assert_eq!(
            g.use_item("RARE_CANDY", Some(0)).unwrap(),
            ItemMsg::GrewTo { level: 7 }
        );
        assert_eq!(count(&g, "RARE_CANDY"), 0);
        let shown = close_all(&mut g);
        assert_eq!(
            shown[..3],
            [
                "CATERPIE grew to level 7!",
                "What? CATERPIE is evolving!",
                "CATERPIE evolved into METAPOD!"
            ]
        );
        assert_eq!(g.save.party[0].species, "METAPOD");
        assert_eq!(g.save.party[0].level, 7);
        assert!(g.save.pokedex.owned.contains("METAPOD"));
        assert_eq!(
            *log.borrow(),
            [
                "check level",
                "evolved CATERPIE -> METAPOD via level (METAPOD)"
            ]
        );
    }

    #[test]
    fn stones_evolve_only_their_species_and_a_vetoed_evolution_keeps_the_stone() {
        let rt = Rc::new(Runtime::new());
        let mut g = game(Rc::clone(&rt));
        g.give_pokemon("VULPIX", 20).unwrap();
        g.give_pokemon("PIDGEY", 20).unwrap();
        bag(&mut g, "FIRE_STONE", 2);
        assert_eq!(
            g.use_item("FIRE_STONE", Some(1)).unwrap(),
            ItemMsg::NoEffect
        );
        assert_eq!(count(&g, "FIRE_STONE"), 2);
        close_all(&mut g);
        let _veto = rt.wrap::<hooks::EvolutionCheck, _>("t", 0, |_next, _args| Ok(false));
        assert_eq!(
            g.use_item("FIRE_STONE", Some(0)).unwrap(),
            ItemMsg::NoEffect
        );
        assert_eq!(g.save.party[0].species, "VULPIX");
        assert_eq!(count(&g, "FIRE_STONE"), 2);
        close_all(&mut g);
        rt.remove_owner("t");
        assert_eq!(
            g.use_item("FIRE_STONE", Some(0)).unwrap(),
            ItemMsg::StoneUsed
        );
        assert_eq!(g.save.party[0].species, "NINETALES");
        assert_eq!(count(&g, "FIRE_STONE"), 1);
        assert_eq!(
            close_all(&mut g)[..2],
            [
                "What? VULPIX is evolving!",
                "VULPIX evolved into NINETALES!"
            ]
        );
    }

    #[test]
    fn escape_rope_only_from_inside() {
        let mut g = game(Rc::new(Runtime::new()));
        bag(&mut g, "ESCAPE_ROPE", 1);
        // Red's house is not outdoor: back to the last heal point.
        assert_eq!(
            g.use_item("ESCAPE_ROPE", None).unwrap(),
            ItemMsg::EscapeRopeUsed
        );
        assert_eq!(count(&g, "ESCAPE_ROPE"), 0);
        for _ in 0..40 {
            g.step(Input::None);
        }
        let heal = g.save.last_heal.clone();
        assert_eq!(
            (g.save.player.map.as_str(), g.save.player.x, g.save.player.y),
            (heal.map.as_str(), heal.x, heal.y)
        );
    }

    #[test]
    fn battle_potion_is_the_players_action_and_the_enemy_still_moves() {
        let mut g = game(Rc::new(Runtime::new()));
        g.give_pokemon("RATTATA", 10).unwrap();
        g.give_pokemon("PIDGEY", 10).unwrap();
        bag(&mut g, "SUPER_POTION", 1);
        bag(&mut g, "RARE_CANDY", 1);
        g.save.party[1].hp = 3;
        g.start_wild_battle("MAGIKARP", 5).unwrap();
        g.drain_feed();
        assert!(
            !g.battle_use_item("RARE_CANDY", 0).unwrap(),
            "not in battle"
        );
        assert!(
            g.battle_use_item("SUPER_POTION", 0).is_ok_and(|used| !used),
            "full HP"
        );
        assert_eq!(count(&g, "SUPER_POTION"), 1);
        let turn = g.battle().unwrap().turn();
        assert!(g.battle_use_item("SUPER_POTION", 1).unwrap());
        assert_eq!(count(&g, "SUPER_POTION"), 0);
        let b = g.battle().unwrap();
        assert_eq!(b.turn(), turn + 1, "the item took the turn");
        let pidgey = &b.party(Side::Player)[1];
        assert_eq!(pidgey.hp, (3 + 50).min(pidgey.stats.max_hp));
        let notes: Vec<String> = g
            .drain_feed()
            .into_iter()
            .filter_map(|r| match r.row {
                PresentationRow::Note { text } => Some(text),
                _ => None,
            })
            .collect();
        let healed = notes
            .iter()
            .position(|t| t.starts_with("battle: PIDGEY recovered by"))
            .unwrap();
        let splash = notes
            .iter()
            .position(|t| t.contains("MAGIKARP used SPLASH"))
            .unwrap();
        assert!(healed < splash, "{notes:?}");
    }
}
