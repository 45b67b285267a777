//! Move effect routines, one per cartridge effect family (`engine/battle/effects.asm` and
//! `move_effects/*.asm` in pret, described in our own words). `a` is the user, the target is
//! `a.other()`.
//!
//! This module holds the move-number constants, the effect classes the executor asks about,
//! the dispatch (`JumpMoveEffect`) and the status/HP helpers every family uses; the families
//! live in the submodules.

use pallet_api::Runtime;

use crate::data::{MoveEffect, Type};
use crate::pokemon::Status;

use super::rows::{Msg, Row, StatKind};
use super::state::flag;
pub(crate) use super::state::{METRONOME, MIRROR_MOVE};
use super::{Battle, BattleRng, Side};

mod field;
mod hits;
mod stages;
mod status;

pub(crate) const STRUGGLE: u16 = 165;
pub(crate) const TOXIC: u16 = 92;
pub(crate) const REST: u16 = 156;
pub(crate) const DIG: u16 = 91;
pub(crate) const TELEPORT: u16 = 100;
pub(crate) const ROAR: u16 = 46;
pub(crate) const THRASH: u16 = 37;
pub(crate) const BIDE: u16 = 117;
pub(crate) const RAGE: u16 = 99;
pub(crate) const COUNTER: u16 = 68;
pub(crate) const QUICK_ATTACK: u16 = 98;
/// Highest move number Metronome can pick (Struggle is one above).
pub(crate) const LAST_NORMAL_MOVE: u8 = 164;

/// Which stat and how many stages a stat effect changes.
fn stat_of(e: MoveEffect) -> Option<(StatKind, u8)> {
    use MoveEffect::*;
    use StatKind::*;
    Some(match e {
        AttackUp1 | AttackDown1 | AttackDownSideEffect => (Attack, 1),
        DefenseUp1 | DefenseDown1 | DefenseDownSideEffect => (Defense, 1),
        SpeedUp1 | SpeedDown1 | SpeedDownSideEffect => (Speed, 1),
        SpecialUp1 | SpecialDown1 | SpecialDownSideEffect => (Special, 1),
        AccuracyUp1 | AccuracyDown1 => (Accuracy, 1),
        EvasionUp1 | EvasionDown1 => (Evasion, 1),
        AttackUp2 | AttackDown2 => (Attack, 2),
        DefenseUp2 | DefenseDown2 => (Defense, 2),
        SpeedUp2 | SpeedDown2 => (Speed, 2),
        SpecialUp2 | SpecialDown2 => (Special, 2),
        AccuracyUp2 | AccuracyDown2 => (Accuracy, 2),
        EvasionUp2 | EvasionDown2 => (Evasion, 2),
        _ => return None,
    })
}

fn is_stat_up(e: MoveEffect) -> bool {
    use MoveEffect::*;
    matches!(
        e,
        AttackUp1
            | DefenseUp1
            | SpeedUp1
            | SpecialUp1
            | AccuracyUp1
            | EvasionUp1
            | AttackUp2
            | DefenseUp2
            | SpeedUp2
            | SpecialUp2
            | AccuracyUp2
            | EvasionUp2
    )
}

fn is_stat_down_side(e: MoveEffect) -> bool {
    use MoveEffect::*;
    matches!(
        e,
        AttackDownSideEffect | DefenseDownSideEffect | SpeedDownSideEffect | SpecialDownSideEffect
    )
}

/// Effects that skip damage and accuracy and run on their own (`ResidualEffects1`).
pub(crate) fn residual_effects_1(e: MoveEffect) -> bool {
    use MoveEffect::*;
    matches!(
        e,
        Conversion
            | Haze
            | SwitchAndTeleport
            | Mist
            | FocusEnergy
            | Confusion
            | Heal
            | Transform
            | LightScreen
            | Reflect
            | Poison
            | Paralyze
            | Substitute
            | Mimic
            | LeechSeed
            | Splash
    )
}

/// Stat-changing primaries, Sleep and Bide (`ResidualEffects2`).
pub(crate) fn residual_effects_2(e: MoveEffect) -> bool {
    use MoveEffect::*;
    e == Bide || e == Sleep || (stat_of(e).is_some() && !is_stat_down_side(e))
}

/// Effects run even when the target faints (`AlwaysHappenSideEffects`).
pub(crate) fn always_happen(e: MoveEffect) -> bool {
    use MoveEffect::*;
    matches!(
        e,
        DrainHp
            | Explode
            | DreamEater
            | PayDay
            | TwoToFiveAttacks
            | AttackTwice
            | Recoil
            | Twineedle
            | Rage
    )
}

/// Effects already handled elsewhere (`SpecialEffects`): not run again at the end of a move.
pub(crate) fn special_effects(e: MoveEffect) -> bool {
    use MoveEffect::*;
    matches!(
        e,
        DrainHp
            | Explode
            | DreamEater
            | PayDay
            | Swift
            | TwoToFiveAttacks
            | Charge
            | SuperFang
            | SpecialDamage
            | Fly
            | AttackTwice
            | JumpKick
            | Recoil
            | ThrashPetalDance
            | Trapping
    )
}

/// Cartridge `percent` macro: `n * 255 / 100`.
pub(crate) const fn percent(n: u16) -> u8 {
    (n * 255 / 100) as u8
}

/// Side-effect thresholds as the cartridge writes them (`n percent + 1`): a roll below hits.
const CHANCE_20: u8 = percent(20) + 1;
const CHANCE_33: u8 = percent(33) + 1;
const CHANCE_40: u8 = percent(40) + 1;

impl<R: BattleRng> Battle<R> {
    /// Dispatch one effect routine (`JumpMoveEffect`).
    pub(crate) fn run_effect(&mut self, rt: &Runtime, a: Side) {
        use MoveEffect::*;
        let e = self.bat(a).cur.effect;
        match e {
            PoisonSideEffect1 | PoisonSideEffect2 | Poison => self.poison_effect(rt, a, e),
            DrainHp | DreamEater => self.drain_effect(a, e),
            BurnSideEffect1 | BurnSideEffect2 | FreezeSideEffect | ParalyzeSideEffect1
            | ParalyzeSideEffect2 => self.freeze_burn_paralyze(a, e),
            Explode => self.explode(a),
            PayDay => self.pay_day(a),
            Conversion => self.conversion(a),
            Haze => self.haze(a),
            Bide => self.bide(a),
            ThrashPetalDance => self.thrash(a),
            SwitchAndTeleport => self.switch_and_teleport(a),
            TwoToFiveAttacks | AttackTwice | Twineedle => self.multi_hit(a, e),
            FlinchSideEffect1 | FlinchSideEffect2 => self.flinch(a, e),
            Sleep => self.sleep_effect(rt, a),
            Charge | Fly => self.charge(a, e),
            Trapping => self.trapping(a),
            Mist => self.set_own_flag(a, flag::MIST, Msg::ShroudedInMist { mon: self.who(a) }),
            FocusEnergy => self.set_own_flag(
                a,
                flag::FOCUS_ENERGY,
                Msg::GettingPumped { mon: self.who(a) },
            ),
            Recoil => self.recoil(a),
            Confusion | ConfusionSideEffect => self.confusion(rt, a, e),
            Heal => self.heal(a),
            Transform => self.transform(a),
            LightScreen | Reflect => self.screen(a, e),
            Paralyze => self.paralyze(rt, a),
            Substitute => self.substitute(a),
            HyperBeam => self.bat_mut(a).set(flag::RECHARGE),
            Rage => self.bat_mut(a).set(flag::RAGE),
            Mimic => self.mimic(rt, a),
            LeechSeed => self.leech_seed(rt, a),
            Splash => self.text(Msg::NoEffect),
            Disable => self.disable(rt, a),
            _ if stat_of(e).is_some() => {
                if is_stat_up(e) {
                    self.stat_up(a, e)
                } else {
                    self.stat_down(rt, a, e)
                }
            }
            // NoAdditionalEffect, Swift, Ohko, SuperFang, SpecialDamage, JumpKick, MirrorMove,
            // Metronome are handled by the move executor; Gen 2 effects do nothing in Gen 1.
            _ => {}
        }
    }

    // ----- status helpers -----------------------------------------------------------------

    #[inline]
    pub(crate) fn status(&self, s: Side) -> Status {
        self.sides[s.idx()].mon().status
    }

    #[inline]
    pub(crate) fn set_status(&mut self, s: Side, st: Status) {
        self.sides[s.idx()].mon_mut().status = st;
    }

    pub(crate) fn has_type(&self, s: Side, t: Type) -> bool {
        let ty = self.bat(s).types;
        ty[0] == t || ty[1] == t
    }

    /// `QuarterSpeedDueToParalysis` on `s`.
    pub(crate) fn quarter_speed_if_paralyzed(&mut self, s: Side) {
        if self.status(s) == Status::Paralysis {
            let b = self.bat_mut(s);
            b.stats[2] = (b.stats[2] >> 2).max(1);
        }
    }

    /// `HalveAttackDueToBurn` on `s`.
    pub(crate) fn halve_attack_if_burned(&mut self, s: Side) {
        if self.status(s) == Status::Burn {
            let b = self.bat_mut(s);
            b.stats[0] = (b.stats[0] >> 1).max(1);
        }
    }

    /// Change `s`'s HP by `delta` (clamped to 0..=max) with an HP-bar row.
    pub(crate) fn change_hp(&mut self, s: Side, new_hp: u16) {
        let max = self.max_hp(s);
        let mon = self.sides[s.idx()].mon_mut();
        let from = mon.hp;
        mon.hp = new_hp.min(max);
        let to = mon.hp;
        if from != to {
            self.push(Row::HpDrain {
                side: s,
                from,
                to,
                max,
            });
        }
    }
}
