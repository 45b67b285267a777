//! One side's move, as the cartridge's `ExecutePlayerMove` / `ExecuteEnemyMove` run it: the
//! status checks that can end or redirect the turn (`Check*StatusConditions`), then the stages
//! charge-up → "used" + PP → damage (crit, Counter, formula, hit test) → Mirror Move / Metronome
//! → effects → apply → always-happen effects → faint check → Rage → multi-hit loop → side
//! effects. The jumps between stages are the cartridge's; [`Stage`] names them.

use pallet_api::Runtime;

use crate::data::{MoveEffect, MoveId, Type};
use crate::pokemon::Status;

use super::effects::{
    always_happen, percent, residual_effects_1, residual_effects_2, special_effects, BIDE, COUNTER,
    LAST_NORMAL_MOVE, METRONOME, MIRROR_MOVE, STRUGGLE, THRASH,
};
use super::rows::Msg;
pub(crate) use super::state::MoveEnd;
use super::state::{flag, CurMove};
use super::{Battle, BattleRng, OhkoState, Side};

/// Where the move executor continues.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// `CheckIfPlayerNeedsToChargeUp`.
    ChargeUp,
    /// `PlayerCanExecuteMove`: "used" text, PP, residual-1 effects.
    CanExecute,
    /// `PlayerCalcMoveDamage`.
    CalcDamage,
    /// `MirrorMoveCheck` (also the target of the multi-hit and trapping loops).
    MirrorCheck,
    /// `.notDone`: always-happen effects, faint check, Rage, multi-hit, side effects.
    AfterAttack,
}

/// The result of the status checks.
enum Check {
    Proceed,
    Done,
    Jump(Stage),
}

/// Accuracy percent to the cartridge's byte.
#[inline]
pub(crate) fn accuracy_byte(pct: u8) -> u8 {
    percent(u16::from(pct.min(100)))
}

impl<R: BattleRng> Battle<R> {
    /// `GetCurrentMove` / `ReloadMoveData`: load `id` into the side's current move.
    pub(crate) fn load_move(&mut self, a: Side, id: MoveId) {
        let cur = match self.data.get_move(id) {
            Some(m) => CurMove {
                id,
                effect: m.effect,
                power: m.power,
                ty: m.ty,
                accuracy: accuracy_byte(m.accuracy),
            },
            None => CurMove {
                id,
                effect: MoveEffect::NoAdditionalEffect,
                power: 0,
                ty: Type::Normal,
                accuracy: 0,
            },
        };
        self.bat_mut(a).cur = cur;
    }

    /// Is this side's PP tracked? The player's always; the enemy's only under link rules (the
    /// cartridge never decrements an AI mon's PP).
    #[inline]
    pub(crate) fn pp_tracked(&self, s: Side) -> bool {
        s == Side::Player || self.link_rules
    }

    /// `DecrementPP`.
    fn decrement_pp(&mut self, a: Side) {
        if !self.pp_tracked(a) {
            return;
        }
        let b = self.bat(a);
        if b.selected == Some(MoveId(STRUGGLE))
            || b.has(flag::STORING_ENERGY | flag::THRASHING | flag::MULTI_HIT | flag::RAGE)
        {
            return;
        }
        let slot = usize::from(b.move_slot & 3);
        let transformed = b.has(flag::TRANSFORMED);
        let b = self.bat_mut(a);
        b.pp[slot] = b.pp[slot].saturating_sub(1);
        let pp = b.pp[slot];
        if !transformed {
            if let Some(p) = self.sides[a.idx()].mon_mut().pp.get_mut(slot) {
                *p = pp;
            }
        }
    }

    /// `IncrementMovePP` (Mirror Move and Metronome do not cost two PP).
    fn increment_pp(&mut self, a: Side) {
        if !self.pp_tracked(a) {
            return;
        }
        let slot = usize::from(self.bat(a).move_slot & 3);
        let b = self.bat_mut(a);
        b.pp[slot] = b.pp[slot].saturating_add(1);
        if let Some(p) = self.sides[a.idx()].mon_mut().pp.get_mut(slot) {
            *p = p.saturating_add(1);
        }
    }

    /// Execute side `a`'s move for this turn. `LIVE = false` is the copy with the executor's
    /// own sites compiled out, run when none of them has a subscriber
    /// (`sites_flow::execute_move` decides).
    pub(crate) fn execute_move<const LIVE: bool>(&mut self, rt: &Runtime, a: Side) -> MoveEnd {
        if self.sides[a.idx()].acted_outside_moves || self.bat(a).selected.is_none() {
            return MoveEnd::Normal;
        }
        if a == Side::Enemy {
            // `ExecuteEnemyMove` counts the enemy's actions for the trainer AI's layer 2.
            self.ai_layer2 = self.ai_layer2.wrapping_add(1);
        }
        self.move_missed = false;
        self.effectiveness = 10;
        self.crit = false;
        self.ohko = OhkoState::None;
        let mut stage = match self.status_checks(a) {
            Check::Done => return MoveEnd::Normal,
            Check::Jump(s) => s,
            Check::Proceed => {
                let sel = self.bat(a).selected.unwrap_or(MoveId(STRUGGLE));
                if sel.0 == 0 {
                    return MoveEnd::Normal; // nothing was ever selected
                }
                self.load_move(a, sel);
                if self.bat(a).has(flag::CHARGING) {
                    self.bat_mut(a).clear(flag::CHARGING | flag::INVULNERABLE);
                    Stage::CanExecute
                } else {
                    Stage::ChargeUp
                }
            }
        };
        let d = a.other();
        loop {
            match stage {
                Stage::ChargeUp => {
                    let e = self.bat(a).cur.effect;
                    if (e == MoveEffect::Charge || e == MoveEffect::Fly)
                        && super::sites_rules::charge_required::<LIVE, R>(self, rt, a)
                    {
                        self.charge(a, e);
                        return MoveEnd::Normal;
                    }
                    stage = Stage::CanExecute;
                }
                Stage::CanExecute => {
                    let id = self.bat(a).cur.id;
                    self.text(Msg::Used {
                        mon: self.who(a),
                        mv: id,
                    });
                    super::sites_flow::move_used::<LIVE, R>(self, rt, a);
                    self.bat_mut(a).used = Some(id);
                    self.decrement_pp(a);
                    let e = self.bat(a).cur.effect;
                    if residual_effects_1(e) {
                        self.run_effect(rt, a);
                        return if self.escaped {
                            MoveEnd::Escaped
                        } else {
                            MoveEnd::Normal
                        };
                    }
                    if e == MoveEffect::ThrashPetalDance || e == MoveEffect::Trapping {
                        self.run_effect(rt, a);
                    }
                    stage = Stage::CalcDamage;
                }
                Stage::CalcDamage => {
                    let e = self.bat(a).cur.effect;
                    if e == MoveEffect::SuperFang || e == MoveEffect::SpecialDamage {
                        self.move_hit_test_in::<LIVE>(rt, a);
                    } else {
                        self.critical_hit_test::<LIVE>(rt, a);
                        if self.bat(a).selected == Some(MoveId(COUNTER)) {
                            self.counter::<LIVE>(rt, a);
                        } else if self.calculate_damage_in::<LIVE>(rt, a) {
                            if e == MoveEffect::Ohko {
                                self.ohko_adjust(a);
                            }
                            self.move_hit_test_in::<LIVE>(rt, a);
                        }
                        // else: no damage computed; accuracy is left to the effect routine.
                    }
                    stage = Stage::MirrorCheck;
                }
                Stage::MirrorCheck => {
                    let e = self.bat(a).cur.effect;
                    if e == MoveEffect::MirrorMove {
                        if !self.mirror_move(a) {
                            return MoveEnd::Normal;
                        }
                        stage = Stage::ChargeUp;
                        continue;
                    }
                    if e == MoveEffect::Metronome {
                        self.metronome(a);
                        stage = Stage::ChargeUp;
                        continue;
                    }
                    if residual_effects_2(e) {
                        self.run_effect(rt, a);
                        return MoveEnd::Normal;
                    }
                    if self.move_missed {
                        self.print_failure(a);
                        if e != MoveEffect::Explode {
                            return MoveEnd::Normal;
                        }
                    } else {
                        super::sites_flow::apply_attack::<LIVE, R>(self, rt, a);
                        if self.crit {
                            self.text(Msg::Crit);
                            self.crit = false;
                        } else if self.ohko == OhkoState::Hit {
                            self.text(Msg::Ohko);
                            self.ohko = OhkoState::None;
                        }
                        self.display_effectiveness();
                    }
                    stage = Stage::AfterAttack;
                }
                Stage::AfterAttack => {
                    let e = self.bat(a).cur.effect;
                    if always_happen(e) {
                        self.run_effect(rt, a);
                    }
                    if self.hp(d) == 0 {
                        return MoveEnd::TargetFainted;
                    }
                    self.handle_building_rage(d);
                    if self.bat(a).has(flag::MULTI_HIT) {
                        let b = self.bat_mut(a);
                        b.attacks_left = b.attacks_left.wrapping_sub(1);
                        if b.attacks_left != 0 {
                            stage = Stage::MirrorCheck;
                            continue;
                        }
                        b.clear(flag::MULTI_HIT);
                        let hits = b.hits;
                        b.hits = 0;
                        self.text(Msg::HitTimes { hits });
                    }
                    let e = self.bat(a).cur.effect;
                    if e != MoveEffect::NoAdditionalEffect
                        && e != MoveEffect::Ohko
                        && !special_effects(e)
                    {
                        self.run_effect(rt, a);
                    }
                    return MoveEnd::Normal;
                }
            }
        }
    }

    /// `DisplayEffectiveness`.
    fn display_effectiveness(&mut self) {
        match self.effectiveness {
            10 | 0 => {}
            m if m > 10 => self.text(Msg::SuperEffective),
            _ => self.text(Msg::NotVeryEffective),
        }
    }

    /// `PrintMoveFailureText` (with Jump Kick's 1 HP crash).
    fn print_failure(&mut self, a: Side) {
        let d = a.other();
        if self.effectiveness == 0 {
            self.text(Msg::DoesntAffect {
                target: self.who(d),
            });
        } else if self.ohko == OhkoState::Failed {
            self.text(Msg::Unaffected {
                target: self.who(d),
            });
        } else {
            self.text(Msg::Missed { mon: self.who(a) });
        }
        self.ohko = OhkoState::None;
        self.crit = false;
        if self.bat(a).cur.effect == MoveEffect::JumpKick {
            // The damage was zeroed by the miss, so the "1/8 of the damage" crash is always 1.
            self.last_damage = 1;
            self.text(Msg::KeptGoingAndCrashed { mon: self.who(a) });
            self.apply_damage(a, a);
        }
    }

    /// `HandleCounterMove`: twice the last damage dealt by anyone, if the opponent's loaded
    /// move is a Normal or Fighting move with power (and not Counter), then the normal hit test.
    fn counter<const LIVE: bool>(&mut self, rt: &Runtime, a: Side) {
        let opp = *self.bat(a.other());
        self.move_missed = true;
        if opp.selected == Some(MoveId(COUNTER)) || opp.cur.power == 0 {
            return;
        }
        if opp.cur.ty != Type::Normal && opp.cur.ty != Type::Fighting {
            return;
        }
        if self.last_damage == 0 {
            return;
        }
        self.last_damage = self.last_damage.saturating_mul(2);
        self.move_missed = false;
        self.move_hit_test_in::<LIVE>(rt, a);
    }

    /// `MirrorMoveCopyMove`.
    fn mirror_move(&mut self, a: Side) -> bool {
        let m = self.bat(a.other()).used;
        self.bat_mut(a).selected = m;
        match m {
            Some(id) if id.0 != MIRROR_MOVE && id.0 != 0 => {
                self.load_move(a, id);
                self.increment_pp(a);
                true
            }
            _ => {
                self.text(Msg::MirrorMoveFailed);
                false
            }
        }
    }

    /// `MetronomePickMove`: any move 1..=164 except Metronome.
    fn metronome(&mut self, a: Side) {
        let id = loop {
            let r = self.rng.byte();
            if r != 0 && r <= LAST_NORMAL_MOVE && u16::from(r) != METRONOME {
                break u16::from(r);
            }
        };
        self.bat_mut(a).selected = Some(MoveId(id));
        self.load_move(a, MoveId(id));
        self.increment_pp(a);
    }

    /// `CheckPlayerStatusConditions` / `CheckEnemyStatusConditions`.
    // Inlined into both copies of the executor, as into the one executor before them.
    #[inline(always)]
    fn status_checks(&mut self, a: Side) -> Check {
        let w = self.who(a);
        match self.status(a) {
            Status::Sleep(n) if n & 7 != 0 => {
                let left = (n & 7) - 1;
                if left == 0 {
                    self.set_status(a, Status::None);
                    self.text(Msg::WokeUp { mon: w });
                } else {
                    self.set_status(a, Status::Sleep(left));
                    self.text(Msg::FastAsleep { mon: w });
                }
                self.bat_mut(a).used = None;
                return Check::Done;
            }
            Status::Freeze => {
                self.text(Msg::Frozen { mon: w });
                self.bat_mut(a).used = None;
                return Check::Done;
            }
            _ => {}
        }
        if self.bat(a.other()).has(flag::TRAPPING) {
            self.text(Msg::CantMove { mon: w });
            return Check::Done;
        }
        if self.bat(a).has(flag::FLINCHED) {
            self.bat_mut(a).clear(flag::FLINCHED);
            self.text(Msg::Flinched { mon: w });
            return Check::Done;
        }
        if self.bat(a).has(flag::RECHARGE) {
            self.bat_mut(a).clear(flag::RECHARGE);
            self.text(Msg::MustRecharge { mon: w });
            return Check::Done;
        }
        if self.bat(a).disable_turns > 0 {
            let b = self.bat_mut(a);
            b.disable_turns -= 1;
            if b.disable_turns == 0 {
                b.disabled_slot = 0;
                self.text(Msg::DisabledNoMore { mon: w });
            }
        }
        if self.bat(a).has(flag::CONFUSED) {
            let b = self.bat_mut(a);
            b.confusion_turns = b.confusion_turns.wrapping_sub(1);
            if b.confusion_turns == 0 {
                b.clear(flag::CONFUSED);
                self.text(Msg::ConfusedNoMore { mon: w });
            } else {
                self.text(Msg::IsConfused { mon: w });
                if self.rng.byte() >= 0x80 {
                    // Every other "status 1" bit goes, Fly/Dig's invulnerability included.
                    let b = self.bat_mut(a);
                    b.clear(
                        flag::STORING_ENERGY
                            | flag::THRASHING
                            | flag::MULTI_HIT
                            | flag::FLINCHED
                            | flag::CHARGING
                            | flag::TRAPPING
                            | flag::INVULNERABLE,
                    );
                    self.self_confusion_damage(a);
                    return Check::Done;
                }
            }
        }
        if let Some(dm) = self.bat(a).disabled_move() {
            if self.bat(a).selected == Some(dm) {
                self.bat_mut(a).clear(flag::CHARGING);
                self.text(Msg::MoveIsDisabled { mv: dm });
                return Check::Done;
            }
        }
        if self.status(a) == Status::Paralysis && self.rng.byte() < 0x3F {
            self.text(Msg::FullyParalyzed { mon: w });
            // Charging is cancelled but Fly/Dig's invulnerability stays (cartridge glitch).
            self.bat_mut(a)
                .clear(flag::STORING_ENERGY | flag::THRASHING | flag::CHARGING | flag::TRAPPING);
            return Check::Done;
        }
        if self.bat(a).has(flag::STORING_ENERGY) {
            let last = self.last_damage;
            let b = self.bat_mut(a);
            b.cur.id = MoveId(0);
            b.bide_damage = b.bide_damage.wrapping_add(last);
            b.attacks_left = b.attacks_left.wrapping_sub(1);
            if b.attacks_left != 0 {
                return Check::Done;
            }
            b.clear(flag::STORING_ENERGY);
            b.cur.power = 1;
            let dmg = b.bide_damage.wrapping_mul(2);
            b.bide_damage = 0;
            b.cur.id = MoveId(BIDE);
            self.text(Msg::UnleashedEnergy { mon: w });
            self.last_damage = dmg;
            if dmg == 0 {
                self.move_missed = true;
            }
            return Check::Jump(Stage::MirrorCheck);
        }
        if self.bat(a).has(flag::THRASHING) {
            self.text(Msg::ThrashingAbout { mon: w });
            let b = self.bat_mut(a);
            b.cur.id = MoveId(THRASH);
            b.attacks_left = b.attacks_left.wrapping_sub(1);
            if b.attacks_left == 0 {
                b.clear(flag::THRASHING);
                b.set(flag::CONFUSED);
                let turns = (self.rng.byte() & 3) + 2;
                self.bat_mut(a).confusion_turns = turns;
            }
            return Check::Jump(Stage::CalcDamage);
        }
        if self.bat(a).has(flag::TRAPPING) {
            self.text(Msg::AttackContinues { mon: w });
            let b = self.bat_mut(a);
            b.attacks_left = b.attacks_left.wrapping_sub(1);
            return Check::Jump(Stage::MirrorCheck);
        }
        if self.bat(a).has(flag::RAGE) {
            self.bat_mut(a).cur.effect = MoveEffect::NoAdditionalEffect;
            return Check::Jump(Stage::CanExecute);
        }
        Check::Proceed
    }
}
