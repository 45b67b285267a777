//! After the player's steps (a child module of `game`): Repel's step count and its
//! encounter filter, and trainer sight (see [`crate::world::trainer_sight`]).

use super::Game;
use crate::world::encounters::WildEncounter;
use crate::world::presentation::{PresentationRow, TextRef};

/// The cartridge's text when the last Repel step is taken.
pub const REPEL_WORE_OFF: &str = "REPEL's effect wore off.";

impl Game {
    /// Player steps that arrived since `feed_from` (their `Stepped` rows).
    fn steps_since(&self, feed_from: usize) -> u32 {
        self.feed
            .get(feed_from..)
            .unwrap_or(&[])
            .iter()
            .filter(|r| matches!(r.row, PresentationRow::Stepped { .. }))
            .count() as u32
    }

    /// Repel (`TryDoWildEncounter`): each step spends one; the last one shows "REPEL's effect
    /// wore off." and has no encounter; while it lasts, a wild mon below the level of the
    /// party's first mon does not appear (its encounter row is taken back).
    pub(super) fn repel_steps(
        &mut self,
        feed_from: usize,
        encounter: Option<WildEncounter>,
    ) -> Option<WildEncounter> {
        if self.save.repel_steps == 0 {
            return encounter;
        }
        let steps = self.steps_since(feed_from);
        if steps == 0 {
            return encounter;
        }
        let left = self.save.repel_steps.saturating_sub(steps);
        self.save.repel_steps = left;
        let repelled = match &encounter {
            None => false,
            Some(_) if left == 0 => true,
            Some(enc) => self
                .save
                .party
                .first()
                .is_some_and(|lead| i64::from(enc.level) < lead.level),
        };
        if repelled {
            let from = feed_from.min(self.feed.len());
            let tail: Vec<_> = self.feed.drain(from..).collect();
            self.feed.extend(
                tail.into_iter()
                    .filter(|r| !matches!(r.row, PresentationRow::WildEncounter { .. })),
            );
        }
        if left == 0 {
            self.with_world(|ow, ctx| {
                ow.open_text(TextRef::Literal(REPEL_WORE_OFF.to_owned()), None, ctx)
            });
        }
        if repelled {
            None
        } else {
            encounter
        }
    }

    /// After a step into an unbeaten trainer's line of sight: `world.trainer_engaged`, then the
    /// engagement rows ("!", the walk up, the battle text, the battle).
    pub(super) fn check_trainer_sight(&mut self, feed_from: usize) {
        if self.steps_since(feed_from) == 0 {
            return;
        }
        let Some(ow) = self.overworld.as_ref() else {
            return;
        };
        if !ow.is_idle() || ow.map().def().trainers.is_empty() {
            return;
        }
        let trainers = self.trainers;
        let defeated = &self.save.defeated_trainers;
        let find = |class: &str, index: u16| {
            trainers
                .iter()
                .find(|t| t.class == class && t.index == index)
        };
        let beaten = |class: &str, index: u16| match find(class, index) {
            Some(t) => defeated.contains(&format!("{}:{}:{}", t.map, t.class, t.index)),
            // A header naming no trainer of this game never engages.
            None => true,
        };
        let Some(seen) = ow.trainer_in_sight(beaten) else {
            return;
        };
        let Some(def) = find(&seen.header.class, seen.header.index) else {
            return;
        };
        crate::world::sites_flow::trainer_engaged(
            &self.rt,
            &self.save.player.map,
            def.class,
            def.index,
            def.name,
        );
        if let Some(ow) = self.overworld.as_mut() {
            ow.engage_trainer(&seen);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::rc::Rc;
    use std::sync::Arc;

    use pallet_api::catalog::{events, hooks};
    use pallet_api::Runtime;

    use super::*;
    use crate::game::Mode;
    use crate::world::map::{MapTrainerDef, NpcDef};
    use crate::world::{BusyState, Direction, GameVersion, Input};

    /// A game on Route 1 at (10, 35) with a BUG CATCHER at (13, 30) facing left, sight 3.
    fn route1(rt: Rc<Runtime>) -> Game {
        route1_sight(rt, 3)
    }

    fn route1_sight(rt: Rc<Runtime>, sight: u8) -> Game {
        let mut g = Game::boot(GameVersion::Red, 11, rt).unwrap();
        let mut def = (**g.maps.get("ROUTE_1").unwrap()).clone();
        def.npcs.push(NpcDef {
            name: "bug_catcher".into(),
            x: 13,
            y: 30,
            facing: Direction::Left,
            text: "_Route1YoungsterText".into(),
            hidden: false,
        });
        def.trainers.push(MapTrainerDef {
            npc: "bug_catcher".into(),
            class: "BUG_CATCHER".into(),
            index: 0,
            sight,
            battle_text: "_Route1SignText".into(),
        });
        g.maps.maps.insert("ROUTE_1".into(), Arc::new(def));
        g.save.player.map = "ROUTE_1".into();
        (g.save.player.x, g.save.player.y) = (10, 35);
        g.save.player.facing = Direction::Up;
        g.enter_overworld().unwrap();
        g.give_pokemon("NIDOKING", 40).unwrap();
        g
    }

    fn walk_up(g: &mut Game, cells: usize) {
        for _ in 0..cells {
            for _ in 0..8 {
                g.step(Input::Up);
            }
        }
    }

    #[test]
    fn a_trainer_sees_the_player_walks_up_and_battles() {
        let rt = Rc::new(Runtime::new());
        let log: Rc<RefCell<Vec<String>>> = Rc::default();
        let l = Rc::clone(&log);
        let _e = rt.on::<events::WorldTrainerEngaged, _>("t", 0, move |p| {
            l.borrow_mut().push(format!(
                "engaged {} {} {} {}",
                p.map_id, p.trainer_class, p.party_index, p.name
            ));
            Ok(())
        });
        let l = Rc::clone(&log);
        let _h = rt.wrap::<hooks::TrainerBeforeBattle, _>("t", 0, move |next, args| {
            l.borrow_mut()
                .push(format!("before_battle {}", args.ctx.trainer_class));
            Ok(next.call())
        });
        let mut g = route1(Rc::clone(&rt));
        walk_up(&mut g, 4);
        assert_eq!((g.save.player.x, g.save.player.y), (10, 31));
        assert!(log.borrow().is_empty(), "not in sight yet");
        walk_up(&mut g, 1);
        assert_eq!((g.save.player.x, g.save.player.y), (10, 30));
        assert_eq!(
            *log.borrow(),
            ["engaged ROUTE_1 OPP_BUG_CATCHER 1 BUG CATCHER"]
        );
        assert_eq!(g.busy(), Some(BusyState::Script));
        // "!", two steps up to the player, the player turns, the battle text.
        for _ in 0..200 {
            if g.busy() == Some(BusyState::Screen) {
                break;
            }
            g.step(Input::Up);
        }
        let rows: Vec<String> = g
            .drain_feed()
            .into_iter()
            .filter_map(|r| match r.row {
                PresentationRow::Emote { npc, emote } => Some(format!("{npc} {emote}")),
                PresentationRow::NpcStepped { npc, x, y, .. } => Some(format!("{npc} ({x},{y})")),
                PresentationRow::Turned { facing } => Some(format!("turn {facing}")),
                PresentationRow::TextOpened { .. } => Some("text".into()),
                _ => None,
            })
            .collect();
        assert_eq!(
            rows,
            [
                "bug_catcher !",
                "bug_catcher (12,30)",
                "bug_catcher (11,30)",
                "turn right",
                "text"
            ]
        );
        assert_eq!(g.mode, Mode::Overworld, "the battle waits for the text");
        g.step(Input::A);
        for _ in 0..4 {
            if g.mode == Mode::Battle {
                break;
            }
            g.step(Input::None);
        }
        assert_eq!(g.mode, Mode::Battle);
        assert_eq!(
            log.borrow().last().map(String::as_str),
            Some("before_battle OPP_BUG_CATCHER")
        );
        assert_eq!(log.borrow().len(), 2, "engaged once, at sight");
        crate::game::battle_mode::tests::fight_out(&mut g);
        assert!(g.save.defeated_trainers.contains("ROUTE_1:BUG_CATCHER:0"));
        // Beaten: stepping out of the line and back in engages nobody.
        for _ in 0..50 {
            g.step(Input::None);
        }
        for d in [Input::Down, Input::Up] {
            for _ in 0..16 {
                g.step(d);
            }
        }
        assert_eq!(log.borrow().len(), 2);
    }

    #[test]
    fn out_of_range_or_behind_the_trainer_is_not_seen() {
        let mut g = route1(Rc::new(Runtime::new()));
        walk_up(&mut g, 5);
        let ow = g.overworld().unwrap();
        let seen = ow.trainer_in_sight(|_, _| false).unwrap();
        assert_eq!((seen.distance, seen.facing), (3, Direction::Left));
        assert!(ow.trainer_in_sight(|_, _| true).is_none(), "beaten");
        // Sight 2: the player 3 cells away is not seen.
        let mut far = route1_sight(Rc::new(Runtime::new()), 2);
        walk_up(&mut far, 5);
        assert_eq!(far.busy(), None, "out of range: no engagement");
    }

    #[test]
    fn repel_counts_steps_and_wears_off() {
        let mut g = route1(Rc::new(Runtime::new()));
        g.save.inventory.push(crate::save::data::ItemStack {
            id: "REPEL".into(),
            count: 2,
        });
        assert_eq!(
            g.use_item("REPEL", None).unwrap(),
            crate::items::ItemMsg::RepelUsed
        );
        assert_eq!(g.save.repel_steps, 100);
        assert_eq!(
            g.use_item("REPEL", None).unwrap(),
            crate::items::ItemMsg::RepelStillActive
        );
        assert_eq!(g.save.inventory[0].count, 1, "the second one is kept");
        g.step(Input::A); // close "The REPEL used earlier is still in effect."
        g.save.repel_steps = 3;
        g.drain_feed();
        walk_up(&mut g, 2);
        assert_eq!(g.save.repel_steps, 1);
        assert!(!g
            .drain_feed()
            .iter()
            .any(|r| matches!(r.row, PresentationRow::WildEncounter { .. })));
        walk_up(&mut g, 1);
        assert_eq!(g.save.repel_steps, 0);
        assert_eq!(g.busy(), Some(BusyState::Screen));
        assert!(g.drain_feed().iter().any(|r| matches!(
            &r.row,
            PresentationRow::TextOpened { text: TextRef::Literal(t) } if t == REPEL_WORE_OFF
        )));
    }
}
