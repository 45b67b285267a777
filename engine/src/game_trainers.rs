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
