//! The Gen 1 damage pipeline, step by step as the cartridge runs it: `CriticalHitTest`,
//! `GetDamageVars*Attack` (crit stats, Reflect/Light Screen, the >255 scaling), `CalculateDamage`
//! (level, power, 997 cap, +2), `AdjustDamageForMoveType` (STAB, per-defender-type matchups in
//! table order, 0 → miss), `RandomizeDamage` (217..=255 of 255), `MoveHitTest`/`CalcHitChance`
//! (Dream Eater, Swift, Fly/Dig, Mist, X Accuracy, stage ratios, the 1/256 miss), and applying
//! damage to a mon or its substitute.

use pallet_api::Runtime;

use crate::data::{MoveEffect, Type};
use crate::pokemon::stats::{calc_stat, StatKind as CalcKind};
use crate::pokemon::Status;

use super::rows::{Msg, Row};
use super::sites;
pub(crate) use super::state::DamageVars;
use super::state::{flag, STAGE_RATIOS};
use super::{Battle, BattleRng, OhkoState, Side};

/// Karate Chop, Razor Leaf, Crabhammer, Slash.
pub(crate) const HIGH_CRIT_MOVES: [u16; 4] = [2, 75, 152, 163];

/// `CalculateDamage` for plain numbers: `((2L/5 + 2) * power * atk / def) / 50`, capped at
/// 997, plus 2. `def` 0 is treated as 1 (the cartridge would freeze dividing by zero).
#[inline]
pub(crate) fn base_damage(v: DamageVars) -> u16 {
    let level2 = u32::from(v.level) * 2;
    let a = level2 / 5 + 2;
    let x = a * u32::from(v.power) * u32::from(v.atk) / u32::from(v.def.max(1)) / 50;
    (x.min(997) + 2) as u16
}

/// The cartridge's >255 scaling: when either stat needs more than a byte, both are divided by
/// four; the defense keeps only its low byte (Reflect overflow above 1023), attack 0 becomes 1.
pub(crate) fn scale_stats(atk: u16, def: u16) -> (u16, u16) {
    if atk > 255 || def > 255 {
        let d = (def >> 2) & 0xFF;
        let mut a = atk >> 2;
        if a == 0 {
            a = 1;
        }
        (a & 0xFF, d)
    } else {
        (atk, def)
    }
}

/// STAB then every matching matchup row in table order, as `AdjustDamageForMoveType` does.
/// Returns (damage, last multiplier applied or 10, became zero).
pub(crate) fn type_adjust(
    matchups: &[(Type, Type, u8)],
    damage: u16,
    move_ty: Type,
    user_types: [Type; 2],
    target_types: [Type; 2],
) -> (u16, u8, bool) {
    let mut dmg = damage;
    if move_ty == user_types[0] || move_ty == user_types[1] {
        dmg = dmg.wrapping_add(dmg >> 1);
    }
    let mut mult = 10u8;
    let mut zero = false;
    for &(at, dt, m) in matchups {
        if at == move_ty && (dt == target_types[0] || dt == target_types[1]) {
            mult = m;
            dmg = (u32::from(dmg) * u32::from(m) / 10) as u16;
            if dmg == 0 {
                zero = true;
            }
        }
    }
    (dmg, mult, zero)
}

/// The matchup table split by attacking type, each list in table order: the same rows
/// `type_adjust` would visit, without scanning the whole table on every hit.
#[derive(Clone, Debug)]
pub(crate) struct MatchupIndex {
    rows: [[(Type, u8); 12]; 17],
    len: [u8; 17],
    /// A type with more than 12 rows (not in the Gen 1/2 tables): use the full scan.
    overflow: bool,
    /// Address of the table this index was built from.
    built_from: usize,
}

impl MatchupIndex {
    /// The index for a dataset, built once per generation (datasets are static singletons).
    pub(crate) fn for_dataset(data: &'static crate::data::Dataset) -> &'static MatchupIndex {
        use std::sync::OnceLock;
        static CACHE: [OnceLock<MatchupIndex>; 3] =
            [OnceLock::new(), OnceLock::new(), OnceLock::new()];
        let slot = usize::from(data.generation).min(2);
        let ix = CACHE[slot].get_or_init(|| MatchupIndex::new(data.type_matchups()));
        if ix.built_from == data.type_matchups().as_ptr() as usize {
            ix
        } else {
            // A dataset that is not the generation's singleton (compiled content, itself leaked
            // once per compile): its index is built once and kept beside it, so battles on it
            // reuse the index instead of leaking one each.
            use std::sync::Mutex;
            static OTHERS: Mutex<Vec<&'static MatchupIndex>> = Mutex::new(Vec::new());
            let key = data.type_matchups().as_ptr() as usize;
            let mut others = OTHERS.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(ix) = others.iter().find(|ix| ix.built_from == key) {
                return ix;
            }
            let ix: &'static MatchupIndex =
                Box::leak(Box::new(MatchupIndex::new(data.type_matchups())));
            others.push(ix);
            ix
        }
    }

    pub(crate) fn new(matchups: &[(Type, Type, u8)]) -> MatchupIndex {
        let mut ix = MatchupIndex {
            rows: [[(Type::Normal, 10); 12]; 17],
            len: [0; 17],
            overflow: false,
            built_from: matchups.as_ptr() as usize,
        };
        for &(at, dt, m) in matchups {
            let a = at as usize;
            let n = usize::from(ix.len[a]);
            if n >= 12 {
                ix.overflow = true;
                continue;
            }
            ix.rows[a][n] = (dt, m);
            ix.len[a] += 1;
        }
        ix
    }

    /// Same result as [`type_adjust`] on the table this index was built from.
    pub(crate) fn adjust(
        &self,
        matchups: &[(Type, Type, u8)],
        damage: u16,
        move_ty: Type,
        user_types: [Type; 2],
        target_types: [Type; 2],
    ) -> (u16, u8, bool) {
        if self.overflow {
            return type_adjust(matchups, damage, move_ty, user_types, target_types);
        }
        let mut dmg = damage;
        if move_ty == user_types[0] || move_ty == user_types[1] {
            dmg = dmg.wrapping_add(dmg >> 1);
        }
        let a = move_ty as usize;
        let mut mult = 10u8;
        let mut zero = false;
        for &(dt, m) in &self.rows[a][..usize::from(self.len[a])] {
            if dt == target_types[0] || dt == target_types[1] {
                mult = m;
                dmg = (u32::from(dmg) * u32::from(m) / 10) as u16;
                if dmg == 0 {
                    zero = true;
                }
            }
        }
        (dmg, mult, zero)
    }
}

/// `RandomizeDamage` with a given factor (damage 0 and 1 are left alone).
#[inline]
pub(crate) fn apply_random_factor(damage: u16, factor: u8) -> u16 {
    (u32::from(damage) * u32::from(factor) / 255) as u16
}

/// Accuracy after `CalcHitChance`: times the user's accuracy ratio, then the target's
/// (mirrored) evasion ratio; each step at least 1, the result capped at 255.
pub(crate) fn scaled_accuracy(acc: u8, acc_stage: u8, eva_stage: u8) -> u8 {
    let mut v = u32::from(acc);
    let eva_mirror = 14u8.saturating_sub(eva_stage).clamp(1, 13);
    for stage in [acc_stage.clamp(1, 13), eva_mirror] {
        let (n, d) = STAGE_RATIOS[usize::from(stage - 1)];
        v = v * u32::from(n) / u32::from(d);
        if v & 0xFFFF == 0 {
            v = 1;
        }
    }
    v.min(255) as u8
}

/// Is this move effect one Mist blocks (primary stat-down effects, plus the entries the
/// cartridge's range check also covers: Conversion, Haze, Light Screen, Reflect)?
fn blocked_by_mist(e: MoveEffect) -> bool {
    use MoveEffect::*;
    matches!(
        e,
        AttackDown1
            | DefenseDown1
            | SpeedDown1
            | SpecialDown1
            | AccuracyDown1
            | EvasionDown1
            | Conversion
            | Haze
            | AttackDown2
            | DefenseDown2
            | SpeedDown2
            | SpecialDown2
            | AccuracyDown2
            | EvasionDown2
            | LightScreen
            | Reflect
    )
}

impl<R: BattleRng> Battle<R> {
    /// `CriticalHitTest`: no roll for moves with 0 power.
    pub(crate) fn critical_hit_test<const LIVE: bool>(&mut self, rt: &Runtime, a: Side) {
        self.crit = false;
        if self.bat(a).cur.power == 0 {
            return;
        }
        self.crit = sites::crit::<LIVE, R>(self, rt, a);
    }

    /// The vanilla crit roll (base Speed / 2; Focus Energy quarters it; high-crit moves x8).
    // Inlined at the guarded site in both builds (the hooked branch has its own copy).
    #[inline(always)]
    pub(crate) fn crit_roll(&mut self, a: Side) -> bool {
        let b = self.bat(a);
        let base_speed = self.data.get_species(b.species).map(|s| s.spe).unwrap_or(0);
        let mut rate = base_speed >> 1;
        if b.has(flag::FOCUS_ENERGY) {
            rate >>= 1; // the bug: a shift right instead of left
        } else {
            rate = sat_double(rate);
        }
        if HIGH_CRIT_MOVES.contains(&b.cur.id.0) {
            rate = sat_double(sat_double(rate));
        } else {
            rate >>= 1;
        }
        let r = self.rng.byte().rotate_left(3);
        r < rate
    }

    /// A stat for a critical hit: the side's party stat; in a game battle (not link rules) the
    /// enemy's stat is recomputed from species, DVs and level without stat experience
    /// (`GetEnemyMonStat`'s non-link branch). Under link rules both sides read party stats.
    fn crit_stat(&self, side: Side, kind: CalcKind) -> u16 {
        let s = &self.sides[side.idx()];
        let mon = s.mon();
        let recompute = side == Side::Enemy && !self.link_rules;
        match recompute {
            false => match kind {
                CalcKind::Atk => mon.stats.atk,
                CalcKind::Def => mon.stats.def,
                CalcKind::Spc => mon.stats.spc,
                CalcKind::Spe => mon.stats.spe,
                CalcKind::Hp => mon.stats.max_hp,
            },
            true => {
                let Some(sp) = self.data.get_species(s.battler.species) else {
                    return 1;
                };
                let (base, dv) = match kind {
                    CalcKind::Atk => (sp.atk, mon.dvs.atk),
                    CalcKind::Def => (sp.def, mon.dvs.def),
                    CalcKind::Spc => (sp.spc, mon.dvs.spc),
                    CalcKind::Spe => (sp.spe, mon.dvs.spe),
                    CalcKind::Hp => (sp.hp, mon.dvs.hp()),
                };
                calc_stat(kind, base, dv, 0, s.battler.level)
            }
        }
    }

    /// `GetDamageVars*Attack`: `None` when the move has no power.
    // Inlined into both copies of the move executor (see `sites_flow::execute_move`), as it
    // was into the one executor before the copies.
    #[inline(always)]
    pub(crate) fn damage_vars(&self, a: Side) -> Option<DamageVars> {
        let d = a.other();
        let user = self.bat(a);
        let target = self.bat(d);
        let power = user.cur.power;
        if power == 0 {
            return None;
        }
        let physical = user.cur.ty.is_physical();
        let (mut atk, mut def) = if physical {
            let mut def = target.stats[1];
            if self.sides[d.idx()].screens.reflect {
                def = def.wrapping_mul(2);
            }
            (user.stats[0], def)
        } else {
            let mut def = target.stats[3];
            if self.sides[d.idx()].screens.light_screen {
                def = def.wrapping_mul(2);
            }
            (user.stats[3], def)
        };
        if self.crit {
            let (ak, dk) = if physical {
                (CalcKind::Atk, CalcKind::Def)
            } else {
                (CalcKind::Spc, CalcKind::Spc)
            };
            atk = self.crit_stat(a, ak);
            def = self.crit_stat(d, dk);
        }
        let (atk, def) = scale_stats(atk, def);
        let mut level = user.level;
        if self.crit {
            level = level.wrapping_mul(2);
        }
        Some(DamageVars {
            atk,
            def,
            power,
            level,
        })
    }

    /// `CalculateDamage` including its OHKO and Explosion branches. Returns false when no
    /// damage was computed (0 power, or an OHKO that failed on speed): the caller then skips
    /// type adjustment, the random factor and the hit test, as the cartridge does.
    pub(crate) fn calculate_damage(&mut self, rt: &Runtime, a: Side) -> bool {
        self.calculate_damage_in::<true>(rt, a)
    }

    /// [`Self::calculate_damage`]; `LIVE = false` skips the `battle.damage` guard (see
    /// `sites_flow::execute_move`).
    pub(crate) fn calculate_damage_in<const LIVE: bool>(&mut self, rt: &Runtime, a: Side) -> bool {
        let effect = self.bat(a).cur.effect;
        if effect == MoveEffect::Ohko {
            self.ohko_effect(a);
            return !self.move_missed;
        }
        let Some(mut v) = self.damage_vars(a) else {
            self.last_damage = 0;
            return false;
        };
        if effect == MoveEffect::Explode {
            v.def >>= 1;
            if v.def == 0 {
                v.def = 1;
            }
        }
        self.last_damage = sites::damage::<LIVE, R>(self, rt, a, v);
        true
    }

    /// The vanilla damage of one hit: formula, type adjustment, random factor (the parts the
    /// `battle.damage` hook replaces as a whole).
    // Inlined at the guarded site in both builds (the hooked branch has its own copy).
    #[inline(always)]
    pub(crate) fn vanilla_damage(&mut self, a: Side, v: DamageVars) -> u16 {
        let dmg = base_damage(v);
        let dmg = self.adjust_for_type(a, dmg);
        self.randomize(dmg)
    }

    /// `AdjustDamageForMoveType`; sets `effectiveness` and `move_missed` on a 0 result.
    pub(crate) fn adjust_for_type(&mut self, a: Side, dmg: u16) -> u16 {
        let user = self.bat(a);
        let target = self.bat(a.other());
        let (dmg, mult, zero) = self.matchups.adjust(
            self.data.type_matchups(),
            dmg,
            user.cur.ty,
            user.types,
            target.types,
        );
        self.effectiveness = mult;
        if zero {
            self.move_missed = true;
        }
        dmg
    }

    /// `RandomizeDamage`.
    pub(crate) fn randomize(&mut self, dmg: u16) -> u16 {
        if dmg <= 1 {
            return dmg;
        }
        let f = self.rng.damage_factor();
        apply_random_factor(dmg, f)
    }

    /// `OneHitKOEffect`: fails if the user is slower; otherwise 65535 damage (the hit test and
    /// type immunity still apply).
    pub(crate) fn ohko_effect(&mut self, a: Side) {
        self.last_damage = 0;
        self.ohko = OhkoState::Failed;
        let us = self.bat(a).stats[2];
        let them = self.bat(a.other()).stats[2];
        if us >= them {
            self.last_damage = 0xFFFF;
            self.ohko = OhkoState::Hit;
        } else {
            self.move_missed = true;
        }
    }

    /// After an OHKO's damage: type adjustment and random factor as for any move.
    pub(crate) fn ohko_adjust(&mut self, a: Side) {
        let d = self.adjust_for_type(a, self.last_damage);
        self.last_damage = self.randomize(d);
    }

    /// `MoveHitTest` (through the `battle.accuracy` hook when subscribed).
    pub(crate) fn move_hit_test(&mut self, rt: &Runtime, a: Side) {
        self.move_hit_test_in::<true>(rt, a);
    }

    /// [`Self::move_hit_test`]; `LIVE = false` skips the `battle.accuracy` guard.
    pub(crate) fn move_hit_test_in<const LIVE: bool>(&mut self, rt: &Runtime, a: Side) {
        let hit = sites::accuracy::<LIVE, R>(self, rt, a);
        if !hit {
            self.miss(a);
        }
    }

    /// The vanilla hit test: true when the move hits.
    // Inlined at the guarded site in both builds (the hooked branch has its own copy).
    #[inline(always)]
    pub(crate) fn vanilla_hit_test(&mut self, a: Side) -> bool {
        let d = a.other();
        let effect = self.bat(a).cur.effect;
        if effect == MoveEffect::DreamEater {
            let asleep = matches!(self.sides[d.idx()].mon().status, Status::Sleep(n) if n & 7 != 0);
            if !asleep {
                return false;
            }
        }
        if effect == MoveEffect::Swift {
            return true;
        }
        // (The cartridge's check meant to stop draining moves on a substitute never fires.)
        if self.bat(d).has(flag::INVULNERABLE) {
            return false;
        }
        if blocked_by_mist(effect) && self.bat(d).has(flag::MIST) {
            return false;
        }
        if self.bat(a).has(flag::X_ACCURACY) {
            return true;
        }
        let acc = scaled_accuracy(
            self.bat(a).cur.accuracy,
            self.bat(a).stages[4],
            self.bat(d).stages[5],
        );
        // The scaled value is stored back into the move's accuracy, as on the cartridge (Rage
        // and Thrash keep using it without reloading the move).
        self.bat_mut(a).cur.accuracy = acc;
        let r = self.rng.byte();
        r < acc
    }

    /// The miss branch of `MoveHitTest`.
    pub(crate) fn miss(&mut self, a: Side) {
        self.last_damage = 0;
        self.move_missed = true;
        self.bat_mut(a).clear(flag::TRAPPING);
    }

    /// `ApplyAttackToEnemyPokemon`/`…Player…`: Super Fang, fixed damage and Psywave compute
    /// their damage here; everything else applies `last_damage` if the move has power.
    // Inlined into both copies of the move executor, as into the one executor before them.
    #[inline(always)]
    pub(crate) fn apply_attack(&mut self, a: Side) {
        let d = a.other();
        let cur = self.bat(a).cur;
        match cur.effect {
            MoveEffect::Ohko => {}
            MoveEffect::SuperFang => {
                let half = self.hp(d) >> 1;
                self.last_damage = half.max(1);
            }
            MoveEffect::SpecialDamage => {
                let level = self.bat(a).level;
                self.last_damage = match cur.id.0 {
                    69 | 101 => u16::from(level), // Seismic Toss, Night Shade
                    49 => 20,                     // Sonic Boom
                    82 => 40,                     // Dragon Rage
                    _ => u16::from(self.psywave(a, level)),
                };
            }
            _ => {
                if cur.power == 0 {
                    return;
                }
            }
        }
        self.apply_damage(d, a);
    }

    /// Psywave: a byte below 1.5 x level, retried; the player's range starts at 1, the enemy's
    /// at 0 (the enemy's Psywave can do nothing). Under link rules both sides use the player's
    /// range (symmetric).
    fn psywave(&mut self, a: Side, level: u8) -> u8 {
        let cap = level.wrapping_add(level >> 1);
        let from_one = a == Side::Player || self.link_rules;
        if cap == 0 || (from_one && cap == 1) {
            return 0; // no value exists; the cartridge would loop forever
        }
        loop {
            let r = self.rng.byte();
            if from_one && r == 0 {
                continue;
            }
            if r < cap {
                return r;
            }
        }
    }

    /// `ApplyDamageTo*Pokemon`: subtract `last_damage` from `target` (or hit a substitute).
    /// `turn` is whose turn it is; the substitute hit lands on `turn.other()`'s substitute, which
    /// is how self-inflicted damage of a mon behind a substitute ends up on the opponent's.
    pub(crate) fn apply_damage(&mut self, target: Side, turn: Side) {
        let dmg = self.last_damage;
        if dmg == 0 {
            return;
        }
        if self.bat(target).has(flag::SUBSTITUTE) {
            self.attack_substitute(turn);
            return;
        }
        let max = self.max_hp(target);
        let mon = self.sides[target.idx()].mon_mut();
        let from = mon.hp;
        if dmg >= from {
            self.last_damage = from;
            mon.hp = 0;
        } else {
            mon.hp = from - dmg;
        }
        let to = self.sides[target.idx()].mon().hp;
        self.push(Row::HpDrain {
            side: target,
            from,
            to,
            max,
        });
    }

    /// `AttackSubstitute`: damage over 255 always breaks it; a substitute brought to exactly 0
    /// stays up. Breaking it cancels the attacker's move effect.
    fn attack_substitute(&mut self, turn: Side) {
        let victim = turn.other();
        let w = self.who(victim);
        self.text(Msg::SubstituteTookDamage { mon: w });
        let dmg = self.last_damage;
        let sub = self.bat(victim).substitute_hp;
        if dmg > 255 || u16::from(sub) < dmg {
            self.bat_mut(victim).clear(flag::SUBSTITUTE);
            self.text(Msg::SubstituteBroke { mon: w });
            self.bat_mut(turn).cur.effect = MoveEffect::NoAdditionalEffect;
        } else {
            self.bat_mut(victim).substitute_hp = sub - dmg as u8;
        }
    }

    /// Confusion self-hit: 40 power, typeless, own Attack against own Defense (doubled by the
    /// opponent's Reflect, a cartridge quirk), no crit, no random factor, always hits.
    pub(crate) fn self_confusion_damage(&mut self, a: Side) {
        self.text(Msg::HurtItself);
        let b = *self.bat(a);
        let mut def = b.stats[1];
        if self.sides[a.other().idx()].screens.reflect {
            def = def.wrapping_mul(2);
        }
        let (atk, def) = scale_stats(b.stats[0], def);
        self.crit = false;
        self.last_damage = base_damage(DamageVars {
            atk,
            def,
            power: 40,
            level: b.level,
        });
        self.apply_damage(a, a);
    }
}

#[inline]
fn sat_double(x: u8) -> u8 {
    if x >= 128 {
        255
    } else {
        x * 2
    }
}
