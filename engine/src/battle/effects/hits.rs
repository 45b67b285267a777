//! Damage-related effects: drain, Explosion, recoil, Pay Day, the 2-to-5 roll with
//! multi-hit and trapping moves, Thrash, Bide and charging moves.

use crate::data::MoveEffect;
use crate::pokemon::Status;

use super::super::rows::{ChargeText, Msg};
use super::super::state::flag;
use super::super::{Battle, BattleRng, Side};
use super::{DIG, STRUGGLE};

impl<R: BattleRng> Battle<R> {
    // ----- damage-related effects --------------------------------------------------------

    pub(super) fn drain_effect(&mut self, a: Side, e: MoveEffect) {
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

    pub(super) fn explode(&mut self, a: Side) {
        self.change_hp(a, 0);
        self.set_status(a, Status::None);
        self.bat_mut(a).clear(flag::SEEDED);
    }

    pub(super) fn recoil(&mut self, a: Side) {
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

    pub(super) fn pay_day(&mut self, a: Side) {
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

    pub(super) fn multi_hit(&mut self, a: Side, e: MoveEffect) {
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

    pub(super) fn trapping(&mut self, a: Side) {
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

    pub(super) fn thrash(&mut self, a: Side) {
        let n = (self.rng.byte() & 1) + 2;
        let b = self.bat_mut(a);
        b.set(flag::THRASHING);
        b.attacks_left = n;
    }

    pub(super) fn bide(&mut self, a: Side) {
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
}
