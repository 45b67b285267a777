//! Status effects: sleep, poison (Toxic), the freeze/burn/paralysis side effects (with
//! `CheckDefrost`), primary paralysis, confusion and flinch.

use pallet_api::Runtime;

use crate::data::{MoveEffect, Type};
use crate::pokemon::Status;

use super::super::rows::Msg;
use super::super::state::flag;
use super::super::{Battle, BattleRng, Side};
use super::{percent, CHANCE_20, CHANCE_40, TOXIC};

impl<R: BattleRng> Battle<R> {
    // ----- non-volatile status ------------------------------------------------------------

    pub(super) fn sleep_effect(&mut self, rt: &Runtime, a: Side) {
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

    pub(super) fn poison_effect(&mut self, rt: &Runtime, a: Side, e: MoveEffect) {
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

    pub(super) fn freeze_burn_paralyze(&mut self, a: Side, e: MoveEffect) {
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
                // Only the player's freeze clears the target's recharge (cartridge asymmetry);
                // under link rules both sides' do (symmetric).
                if a == Side::Player || self.link_rules {
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

    pub(super) fn paralyze(&mut self, rt: &Runtime, a: Side) {
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

    pub(super) fn confusion(&mut self, rt: &Runtime, a: Side, e: MoveEffect) {
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

    pub(super) fn flinch(&mut self, a: Side, e: MoveEffect) {
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
}
