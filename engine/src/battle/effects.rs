//! Move effect routines, one per cartridge effect family (`engine/battle/effects.asm` and
//! `move_effects/*.asm` in pret, described in our own words). `a` is the user, the target is
//! `a.other()`.

use pallet_api::Runtime;

use crate::data::{MoveEffect, MoveId, Type};
use crate::pokemon::Status;

use super::rows::{ChargeText, Msg, Row, StatKind};
use super::state::{flag, stat_index, Battler, MAX_STAGE, MIN_STAGE, NEUTRAL_STAGE, STAGE_RATIOS};
use super::{Battle, BattleResult, BattleRng, Side};

pub(crate) const STRUGGLE: u16 = 165;
pub(crate) const TOXIC: u16 = 92;
pub(crate) const REST: u16 = 156;
pub(crate) const DIG: u16 = 91;
pub(crate) const TELEPORT: u16 = 100;
pub(crate) const ROAR: u16 = 46;
pub(crate) const METRONOME: u16 = 118;
pub(crate) const MIRROR_MOVE: u16 = 119;
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

    // ----- non-volatile status ------------------------------------------------------------

    fn sleep_effect(&mut self, rt: &Runtime, a: Side) {
        let d = a.other();
        let had_recharge = self.bat(d).has(flag::RECHARGE);
        self.bat_mut(d).clear(flag::RECHARGE);
        if !had_recharge {
            // A target that must recharge skips every test below.
            let st = self.status(d);
            if matches!(st, Status::Sleep(n) if n & 7 != 0) {
                self.text(Msg::AlreadyAsleep { mon: self.who(d) });
                return;
            }
            if st != Status::None {
                self.text(Msg::DidntAffect {
                    target: self.who(d),
                });
                return;
            }
            self.move_hit_test(rt, a);
            if self.move_missed {
                self.text(Msg::DidntAffect {
                    target: self.who(d),
                });
                return;
            }
        }
        let turns = loop {
            let r = self.rng.byte() & 7;
            if r != 0 {
                break r;
            }
        };
        self.set_status(d, Status::Sleep(turns));
        self.text(Msg::FellAsleep { mon: self.who(d) });
    }

    fn poison_effect(&mut self, rt: &Runtime, a: Side, e: MoveEffect) {
        let d = a.other();
        let primary = e == MoveEffect::Poison;
        let blocked = self.bat(d).has(flag::SUBSTITUTE)
            || self.status(d) != Status::None
            || self.has_type(d, Type::Poison);
        if blocked {
            if primary {
                self.text(Msg::DidntAffect {
                    target: self.who(d),
                });
            }
            return;
        }
        match e {
            MoveEffect::PoisonSideEffect1 => {
                if self.rng.byte() >= CHANCE_20 {
                    return;
                }
            }
            MoveEffect::PoisonSideEffect2 => {
                if self.rng.byte() >= CHANCE_40 {
                    return;
                }
            }
            _ => {
                self.move_hit_test(rt, a);
                if self.move_missed {
                    self.text(Msg::DidntAffect {
                        target: self.who(d),
                    });
                    return;
                }
            }
        }
        self.set_status(d, Status::Poison);
        let w = self.who(d);
        if self.bat(a).cur.id.0 == TOXIC {
            let t = self.bat_mut(d);
            t.set(flag::TOXIC);
            t.toxic_counter = 0;
            self.text(Msg::BadlyPoisoned { mon: w });
        } else {
            self.text(Msg::Poisoned { mon: w });
        }
    }

    fn freeze_burn_paralyze(&mut self, a: Side, e: MoveEffect) {
        use MoveEffect::*;
        let d = a.other();
        if self.bat(d).has(flag::SUBSTITUTE) {
            return;
        }
        if self.status(d) != Status::None {
            // CheckDefrost: a Fire move with a burn chance thaws a frozen target.
            if self.status(d) == Status::Freeze && self.bat(a).cur.ty == Type::Fire {
                self.set_status(d, Status::None);
                self.text(Msg::Defrosted { mon: self.who(d) });
            }
            return;
        }
        if self.has_type(d, self.bat(a).cur.ty) {
            return;
        }
        let chance = match e {
            BurnSideEffect1 | FreezeSideEffect | ParalyzeSideEffect1 => percent(10) + 1,
            _ => percent(30) + 1,
        };
        if self.rng.byte() >= chance {
            return;
        }
        let w = self.who(d);
        match e {
            BurnSideEffect1 | BurnSideEffect2 => {
                self.set_status(d, Status::Burn);
                self.halve_attack_if_burned(d);
                self.text(Msg::Burned { mon: w });
            }
            FreezeSideEffect => {
                // Only the player's freeze clears the target's recharge (cartridge asymmetry).
                if a == Side::Player {
                    self.bat_mut(d).clear(flag::RECHARGE);
                }
                self.set_status(d, Status::Freeze);
                self.text(Msg::FrozenSolid { mon: w });
            }
            _ => {
                self.set_status(d, Status::Paralysis);
                self.quarter_speed_if_paralyzed(d);
                self.text(Msg::Paralyzed { mon: w });
            }
        }
    }

    fn paralyze(&mut self, rt: &Runtime, a: Side) {
        let d = a.other();
        if self.status(d) != Status::None {
            self.text(Msg::DidntAffect {
                target: self.who(d),
            });
            return;
        }
        if self.bat(a).cur.ty == Type::Electric && self.has_type(d, Type::Ground) {
            self.text(Msg::DoesntAffect {
                target: self.who(d),
            });
            return;
        }
        self.move_hit_test(rt, a);
        if self.move_missed {
            self.text(Msg::DidntAffect {
                target: self.who(d),
            });
            return;
        }
        self.set_status(d, Status::Paralysis);
        self.quarter_speed_if_paralyzed(d);
        self.text(Msg::Paralyzed { mon: self.who(d) });
    }

    fn confusion(&mut self, rt: &Runtime, a: Side, e: MoveEffect) {
        let d = a.other();
        let side_effect = e == MoveEffect::ConfusionSideEffect;
        if side_effect {
            if self.rng.byte() >= percent(10) {
                return;
            }
        } else {
            if self.bat(d).has(flag::SUBSTITUTE) {
                self.text(Msg::Failed);
                return;
            }
            self.move_hit_test(rt, a);
            if self.move_missed {
                self.text(Msg::Failed);
                return;
            }
        }
        if self.bat(d).has(flag::CONFUSED) {
            if !side_effect {
                self.text(Msg::Failed);
            }
            return;
        }
        let turns = (self.rng.byte() & 3) + 2;
        let t = self.bat_mut(d);
        t.set(flag::CONFUSED);
        t.confusion_turns = turns;
        self.text(Msg::BecameConfused { mon: self.who(d) });
    }

    fn flinch(&mut self, a: Side, e: MoveEffect) {
        let d = a.other();
        if self.bat(d).has(flag::SUBSTITUTE) {
            return;
        }
        let chance = if e == MoveEffect::FlinchSideEffect1 {
            percent(10) + 1
        } else {
            percent(30) + 1
        };
        if self.rng.byte() >= chance {
            return;
        }
        let t = self.bat_mut(d);
        t.set(flag::FLINCHED);
        t.clear(flag::RECHARGE);
    }

    // ----- damage-related effects --------------------------------------------------------

    fn drain_effect(&mut self, a: Side, e: MoveEffect) {
        let d = a.other();
        let mut heal = self.last_damage >> 1;
        if heal == 0 {
            heal = 1;
        }
        self.last_damage = heal;
        let hp = self.hp(a);
        self.change_hp(a, hp.saturating_add(heal));
        let w = self.who(d);
        if e == MoveEffect::DreamEater {
            self.text(Msg::DreamEaten { target: w });
        } else {
            self.text(Msg::SuckedHealth { target: w });
        }
    }

    fn explode(&mut self, a: Side) {
        self.change_hp(a, 0);
        self.set_status(a, Status::None);
        self.bat_mut(a).clear(flag::SEEDED);
    }

    fn recoil(&mut self, a: Side) {
        let mut r = self.last_damage >> 1;
        if self.bat(a).cur.id.0 != STRUGGLE {
            r >>= 1;
        }
        if r == 0 {
            r = 1;
        }
        let hp = self.hp(a);
        self.change_hp(a, hp.saturating_sub(r));
        self.text(Msg::HitWithRecoil { mon: self.who(a) });
    }

    fn pay_day(&mut self, a: Side) {
        let level = self.bat(a).level;
        self.pay_day = (self.pay_day + u32::from(level.wrapping_mul(2))).min(999_999);
        self.text(Msg::CoinsScattered);
    }

    /// The 2-to-5 roll shared by multi-hit and trapping moves: `byte & 3`; a 2 or 3 is rolled
    /// again. 0, 1, 2, 3 come out with probabilities 3/8, 3/8, 1/8, 1/8.
    pub(crate) fn two_to_five_roll(&mut self) -> u8 {
        let r = self.rng.byte() & 3;
        if r >= 2 {
            self.rng.byte() & 3
        } else {
            r
        }
    }

    fn multi_hit(&mut self, a: Side, e: MoveEffect) {
        if self.bat(a).has(flag::MULTI_HIT) {
            return;
        }
        let hits = match e {
            MoveEffect::TwoToFiveAttacks => self.two_to_five_roll() + 2,
            _ => 2,
        };
        let b = self.bat_mut(a);
        b.set(flag::MULTI_HIT);
        b.attacks_left = hits;
        b.hits = hits;
        if e == MoveEffect::Twineedle {
            b.cur.effect = MoveEffect::PoisonSideEffect1;
        }
    }

    fn trapping(&mut self, a: Side) {
        if self.bat(a).has(flag::TRAPPING) {
            return;
        }
        // Called before the hit test: the target's recharge is cleared even if this misses.
        self.bat_mut(a.other()).clear(flag::RECHARGE);
        let r = self.two_to_five_roll();
        let b = self.bat_mut(a);
        b.set(flag::TRAPPING);
        // This use plus 1..=4 more: 2..=5 attacks in all.
        b.attacks_left = r + 1;
    }

    fn thrash(&mut self, a: Side) {
        let n = (self.rng.byte() & 1) + 2;
        let b = self.bat_mut(a);
        b.set(flag::THRASHING);
        b.attacks_left = n;
    }

    fn bide(&mut self, a: Side) {
        let n = (self.rng.byte() & 1) + 2;
        let b = self.bat_mut(a);
        b.set(flag::STORING_ENERGY);
        b.bide_damage = 0;
        b.attacks_left = n;
        // The cartridge zeroes both sides' loaded move effects here.
        self.bat_mut(Side::Player).cur.effect = MoveEffect::NoAdditionalEffect;
        self.bat_mut(Side::Enemy).cur.effect = MoveEffect::NoAdditionalEffect;
    }

    pub(crate) fn charge(&mut self, a: Side, e: MoveEffect) {
        let id = self.bat(a).cur.id.0;
        let b = self.bat_mut(a);
        b.set(flag::CHARGING);
        if e == MoveEffect::Fly || id == DIG {
            b.set(flag::INVULNERABLE);
        }
        let text = match id {
            13 => ChargeText::MadeWhirlwind,
            76 => ChargeText::TookInSunlight,
            130 => ChargeText::LoweredHead,
            143 => ChargeText::SkyAttackGlow,
            19 => ChargeText::FlewUpHigh,
            DIG => ChargeText::DugHole,
            _ => ChargeText::MadeWhirlwind,
        };
        self.text(Msg::Charging {
            mon: self.who(a),
            text,
        });
    }

    // ----- field and self effects ---------------------------------------------------------

    fn set_own_flag(&mut self, a: Side, f: u32, msg: Msg) {
        if self.bat(a).has(f) {
            self.text(Msg::Failed);
            return;
        }
        self.bat_mut(a).set(f);
        self.text(msg);
    }

    fn screen(&mut self, a: Side, e: MoveEffect) {
        let w = self.who(a);
        let s = &mut self.sides[a.idx()].screens;
        let (up, msg) = if e == MoveEffect::Reflect {
            (&mut s.reflect, Msg::GainedArmor { mon: w })
        } else {
            (&mut s.light_screen, Msg::LightScreenUp { mon: w })
        };
        if *up {
            self.text(Msg::Failed);
            return;
        }
        *up = true;
        self.text(msg);
    }

    fn conversion(&mut self, a: Side) {
        let d = a.other();
        if self.bat(d).has(flag::INVULNERABLE) {
            self.text(Msg::Failed);
            return;
        }
        let t = self.bat(d).types;
        self.bat_mut(a).types = t;
        self.text(Msg::ConvertedType {
            target: self.who(d),
        });
    }

    fn haze(&mut self, a: Side) {
        let d = a.other();
        for s in [Side::Player, Side::Enemy] {
            let b = self.bat_mut(s);
            b.stages = [NEUTRAL_STAGE; 6];
            b.stats = b.unmod;
            b.disable_turns = 0;
            b.disabled_slot = 0;
            b.clear(
                flag::CONFUSED
                    | flag::X_ACCURACY
                    | flag::MIST
                    | flag::FOCUS_ENERGY
                    | flag::SEEDED
                    | flag::TOXIC,
            );
            self.sides[s.idx()].screens = Default::default();
        }
        // Only the target's non-volatile status is cured; a sleeping or frozen target also
        // loses its move this turn.
        let st = self.status(d);
        self.set_status(d, Status::None);
        if matches!(st, Status::Sleep(_) | Status::Freeze) {
            self.bat_mut(d).selected = None;
        }
        self.text(Msg::StatusChangesEliminated);
    }

    fn heal(&mut self, a: Side) {
        let hp = self.hp(a);
        let max = self.max_hp(a);
        // The cartridge compares high bytes with `cp` and low bytes with `sbc`, so a deficit of
        // 255 or 511 reads as "already full".
        let carry = u8::from((hp >> 8) < (max >> 8));
        if (hp as u8).wrapping_sub(max as u8).wrapping_sub(carry) == 0 {
            self.text(Msg::Failed);
            return;
        }
        let w = self.who(a);
        let amount = if self.bat(a).cur.id.0 == REST {
            let had = self.status(a) != Status::None;
            self.set_status(a, Status::Sleep(2));
            self.text(if had {
                Msg::FellAsleepHealthy { mon: w }
            } else {
                Msg::StartedSleeping { mon: w }
            });
            max
        } else {
            max >> 1
        };
        self.change_hp(a, hp.saturating_add(amount));
        self.text(Msg::RegainedHealth { mon: w });
    }

    fn transform(&mut self, a: Side) {
        let d = a.other();
        // Cartridge bug: the player's Transform checks the user's own Fly/Dig state, the
        // enemy's never fails.
        if a == Side::Player && self.bat(a).has(flag::INVULNERABLE) {
            self.text(Msg::Failed);
            return;
        }
        let t = *self.bat(d);
        let b = self.bat_mut(a);
        b.set(flag::TRANSFORMED);
        b.species = t.species;
        b.types = t.types;
        b.moves = t.moves;
        for i in 0..4 {
            b.pp[i] = if t.moves[i].is_some() { 5 } else { 0 };
        }
        b.stats = t.stats;
        b.unmod = t.unmod;
        b.stages = t.stages;
        let species = t.species;
        self.text(Msg::TransformedInto {
            mon: self.who(a),
            species,
        });
    }

    fn substitute(&mut self, a: Side) {
        if self.bat(a).has(flag::SUBSTITUTE) {
            self.text(Msg::HasSubstitute { mon: self.who(a) });
            return;
        }
        let quarter = self.max_hp(a) >> 2;
        let hp = self.hp(a);
        if hp < quarter {
            self.text(Msg::TooWeakForSubstitute);
            return;
        }
        // Exactly a quarter left is allowed and leaves the user at 0 HP (it then faints).
        self.change_hp(a, hp - quarter);
        let b = self.bat_mut(a);
        b.substitute_hp = quarter as u8;
        b.set(flag::SUBSTITUTE);
        self.text(Msg::MadeSubstitute { mon: self.who(a) });
    }

    fn mimic(&mut self, rt: &Runtime, a: Side) {
        let d = a.other();
        self.move_hit_test(rt, a);
        if self.move_missed
            || self.bat(d).has(flag::INVULNERABLE)
            || self.bat(d).moves.iter().all(Option::is_none)
        {
            self.text(Msg::Failed);
            return;
        }
        // Outside link battles the player picks from a menu of the enemy's moves (no random
        // draw): the step stops here (`prompt`). The enemy, and both sides under link rules,
        // pick a random non-empty slot.
        if a == Side::Player && !self.link_rules {
            self.ask(super::prompt::Prompt::Mimic, None);
            return;
        }
        let mv = loop {
            let slot = usize::from(self.rng.byte() & 3);
            if let Some(m) = self.bat(d).moves[slot] {
                break m;
            }
        };
        let slot = usize::from(self.bat(a).move_slot & 3);
        self.bat_mut(a).moves[slot] = Some(mv);
        self.text(Msg::LearnedMimic {
            mon: self.who(a),
            mv,
        });
    }

    fn leech_seed(&mut self, rt: &Runtime, a: Side) {
        let d = a.other();
        self.move_hit_test(rt, a);
        if self.move_missed || self.has_type(d, Type::Grass) || self.bat(d).has(flag::SEEDED) {
            self.text(Msg::EvadedAttack {
                target: self.who(d),
            });
            return;
        }
        self.bat_mut(d).set(flag::SEEDED);
        self.text(Msg::Seeded {
            target: self.who(d),
        });
    }

    fn disable(&mut self, rt: &Runtime, a: Side) {
        let d = a.other();
        self.move_hit_test(rt, a);
        if self.move_missed
            || self.bat(d).disable_turns > 0
            || self.bat(d).moves.iter().all(Option::is_none)
        {
            self.text(Msg::Failed);
            return;
        }
        // PP is only checked where the target's PP is tracked (the player's mon; both in link
        // battles).
        let check_pp = self.pp_tracked(d);
        if check_pp
            && self
                .bat(d)
                .pp
                .iter()
                .zip(self.bat(d).moves.iter())
                .all(|(p, m)| m.is_none() || *p == 0)
        {
            self.text(Msg::Failed);
            return;
        }
        let (slot, mv) = loop {
            let slot = usize::from(self.rng.byte() & 3);
            let t = self.bat(d);
            if let Some(m) = t.moves[slot] {
                if !check_pp || t.pp[slot] > 0 {
                    break (slot, m);
                }
            }
        };
        let turns = (self.rng.byte() & 7) + 1;
        let t = self.bat_mut(d);
        t.disabled_slot = slot as u8;
        t.disable_turns = turns;
        self.text(Msg::MoveDisabled {
            target: self.who(d),
            mv,
        });
    }

    fn switch_and_teleport(&mut self, a: Side) {
        let d = a.other();
        let id = self.bat(a).cur.id.0;
        let fail_msg = |b: &Self| {
            if id == TELEPORT {
                Msg::Failed
            } else {
                Msg::DidntAffect { target: b.who(d) }
            }
        };
        if !self.kind.is_wild() {
            let m = if id == TELEPORT {
                Msg::Failed
            } else {
                Msg::Unaffected {
                    target: self.who(d),
                }
            };
            self.text(m);
            return;
        }
        let ul = self.bat(a).level;
        let tl = self.bat(d).level;
        if ul < tl {
            let c = u16::from(ul) + u16::from(tl) + 1;
            let r = loop {
                let r = self.rng.byte();
                if u16::from(r) < c {
                    break r;
                }
            };
            if r < tl / 4 {
                let m = fail_msg(self);
                self.text(m);
                return;
            }
        }
        let m = match id {
            TELEPORT => Msg::FledFromBattle { mon: self.who(a) },
            ROAR => Msg::RanAwayScared { mon: self.who(d) },
            _ => Msg::BlownAway { mon: self.who(d) },
        };
        self.text(m);
        self.escaped = true;
        self.result = Some(BattleResult::Ran);
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
