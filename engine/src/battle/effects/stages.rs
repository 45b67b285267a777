//! Stat-stage effects: `StatModifierUpEffect`, `StatModifierDownEffect` (with the AI's 25%
//! miss and the paralysis/burn re-application quirk) and Rage building.

use pallet_api::Runtime;

use crate::data::{MoveEffect, MoveId};

use super::super::rows::Msg;
use super::super::state::{flag, stat_index, Battler, MAX_STAGE, MIN_STAGE, STAGE_RATIOS};
use super::super::{Battle, BattleRng, Side};
use super::{is_stat_down_side, percent, stat_of, CHANCE_33, RAGE};

impl<R: BattleRng> Battle<R> {
    // ----- stat stages --------------------------------------------------------------------

    /// Recompute one battle stat from its unmodified value and stage (no status penalty).
    fn stage_stat(b: &Battler, i: usize) -> u32 {
        let (n, d) = STAGE_RATIOS[usize::from(b.stages[i].clamp(MIN_STAGE, MAX_STAGE) - 1)];
        u32::from(b.unmod[i]) * u32::from(n) / u32::from(d)
    }

    /// `StatModifierUpEffect` (also used by Rage building).
    pub(crate) fn stat_up(&mut self, a: Side, e: MoveEffect) {
        let Some((stat, amount)) = stat_of(e) else {
            return;
        };
        let i = stat_index(stat);
        let w = self.who(a);
        let b = self.bat_mut(a);
        let old = b.stages[i];
        if old >= MAX_STAGE {
            self.text(Msg::NothingHappened);
            return;
        }
        let mut new = old + 1;
        if amount == 2 {
            new = (new + 1).min(MAX_STAGE);
        }
        b.stages[i] = new;
        if i < 4 {
            if b.stats[i] == 999 {
                // The cartridge undoes one stage only.
                b.stages[i] = new - 1;
                self.text(Msg::NothingHappened);
                return;
            }
            b.stats[i] = Self::stage_stat(b, i).min(999) as u16;
        }
        self.text(Msg::StatRose {
            mon: w,
            stat,
            sharply: amount == 2,
        });
        // Cartridge quirk: the opponent's paralysis and burn drops are applied again.
        let d = a.other();
        self.quarter_speed_if_paralyzed(d);
        self.halve_attack_if_burned(d);
    }

    /// `StatModifierDownEffect` (primaries and the 33% side effects).
    pub(crate) fn stat_down(&mut self, rt: &Runtime, a: Side, e: MoveEffect) {
        let Some((stat, amount)) = stat_of(e) else {
            return;
        };
        let side_effect = is_stat_down_side(e);
        let d = a.other();
        if a == Side::Enemy && !self.link_rules {
            // The AI's stat-down moves miss 25% of the time outside link battles.
            if self.rng.byte() < percent(25) + 1 {
                self.stat_down_missed(side_effect);
                return;
            }
        }
        if self.bat(d).has(flag::SUBSTITUTE) {
            self.stat_down_missed(side_effect);
            return;
        }
        if side_effect {
            if self.rng.byte() >= CHANCE_33 {
                return;
            }
        } else {
            self.move_hit_test(rt, a);
            if self.move_missed || self.bat(d).has(flag::INVULNERABLE) {
                self.stat_down_missed(side_effect);
                return;
            }
        }
        let i = stat_index(stat);
        let w = self.who(d);
        let b = self.bat_mut(d);
        let old = b.stages[i];
        if old <= MIN_STAGE {
            if !side_effect {
                self.text(Msg::NothingHappened);
            }
            return;
        }
        let mut new = old - 1;
        if amount == 2 {
            new = new.saturating_sub(1).max(MIN_STAGE);
        }
        b.stages[i] = new;
        if i < 4 {
            if b.stats[i] == 1 {
                b.stages[i] = new + 1;
                if !side_effect {
                    self.text(Msg::NothingHappened);
                }
                return;
            }
            b.stats[i] = Self::stage_stat(b, i).max(1) as u16;
        }
        self.text(Msg::StatFell {
            mon: w,
            stat,
            sharply: amount == 2,
        });
        // Cartridge quirk: the target's paralysis and burn drops are applied again, whatever
        // stat was lowered.
        self.quarter_speed_if_paralyzed(d);
        self.halve_attack_if_burned(d);
    }

    fn stat_down_missed(&mut self, side_effect: bool) {
        if !side_effect {
            self.text(Msg::Failed);
        }
    }

    /// `HandleBuildingRage`: a raging target's Attack rises when it is hit.
    pub(crate) fn handle_building_rage(&mut self, target: Side) {
        let t = self.bat(target);
        if !t.has(flag::RAGE) || t.stages[0] >= MAX_STAGE {
            return;
        }
        self.text(Msg::RageBuilding {
            mon: self.who(target),
        });
        let saved = self.bat(target).cur;
        self.bat_mut(target).cur.id = MoveId(0);
        self.stat_up(target, MoveEffect::AttackUp1);
        let mut restored = saved;
        restored.effect = MoveEffect::NoAdditionalEffect;
        restored.id = MoveId(RAGE);
        self.bat_mut(target).cur = restored;
    }
}
