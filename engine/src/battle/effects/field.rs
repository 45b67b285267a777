//! Field and self effects: Mist/Focus Energy flags, screens, Conversion, Haze, Heal (the
//! 255/511 bug), Transform, Substitute, Mimic, Leech Seed, Disable, Teleport/Roar/Whirlwind.

use pallet_api::Runtime;

use crate::data::{MoveEffect, Type};
use crate::pokemon::Status;

use super::super::rows::Msg;
use super::super::state::{flag, NEUTRAL_STAGE};
use super::super::{Battle, BattleResult, BattleRng, Side};
use super::{REST, ROAR, TELEPORT};

impl<R: BattleRng> Battle<R> {
    // ----- field and self effects ---------------------------------------------------------

    pub(super) fn set_own_flag(&mut self, a: Side, f: u32, msg: Msg) {
        if self.bat(a).has(f) {
            self.text(Msg::Failed);
            return;
        }
        self.bat_mut(a).set(f);
        self.text(msg);
    }

    pub(super) fn screen(&mut self, a: Side, e: MoveEffect) {
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

    pub(super) fn conversion(&mut self, a: Side) {
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

    pub(super) fn haze(&mut self, a: Side) {
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

    pub(super) fn heal(&mut self, a: Side) {
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

    pub(super) fn transform(&mut self, a: Side) {
        let d = a.other();
        // Cartridge bug: the player's Transform checks the user's own Fly/Dig state, the
        // enemy's never fails. Under link rules neither side's fails (symmetric).
        if a == Side::Player && !self.link_rules && self.bat(a).has(flag::INVULNERABLE) {
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

    pub(super) fn substitute(&mut self, a: Side) {
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

    pub(super) fn mimic(&mut self, rt: &Runtime, a: Side) {
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
            self.ask(super::super::prompt::Prompt::Mimic, None);
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

    pub(super) fn leech_seed(&mut self, rt: &Runtime, a: Side) {
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

    pub(super) fn disable(&mut self, rt: &Runtime, a: Side) {
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

    pub(super) fn switch_and_teleport(&mut self, a: Side) {
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
}
