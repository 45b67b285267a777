//! The enemy's move choice as the cartridge makes it outside link battles (`SelectEnemyMove`):
//! a random move slot drawn from the battle's random source, with the trainer AI's move-choice
//! layers (`AIEnemyTrainerChooseMoves`) narrowing the slots a trainer may pick.
//!
//! * Wild mons draw one byte per try: below 63 → move 1, below 127 → move 2, below 190 →
//!   move 3, else move 4 (63/256, 64/256, 63/256, 66/256), drawing again on an empty or
//!   disabled slot. A mon whose only move is disabled uses Struggle.
//! * Trainers first score their moves (10 each, a disabled move 80) through the layers of
//!   their class ([`trainer_move_layers`], `TrainerClassMoveChoiceModifications`); only the
//!   moves with the lowest score stay drawable:
//!   1. the player's mon already has a status: +5 for power-0 sleep/poison/paralysis moves;
//!   2. on the enemy's second action since its send-out (`wAILayer2Encouragement == 1`):
//!      −1 for stat-changing and in-between effects (Attack Up 1 … Haze, Attack Up 2 …
//!      Reflect);
//!   3. −1 for a super-effective move type against the player's mon, +1 for a not very
//!      effective or no-effect one when another move is better (Super Fang, a fixed-damage
//!      move, Fly, or a damaging move of another type). Effectiveness is the first matching
//!      row of the type table (one of the defender's types), as `AIGetTypeEffectiveness` reads
//!      it.
//!
//! The trainer AI's item use and switching (`TrainerAI`) are not modelled.

use crate::data::{MoveEffect, MoveId, Type};

use super::effects::percent;
use super::{Action, Battle, BattleKind, BattleRng, Phase, Side};

/// Tries before giving up on drawing a slot (the cartridge loops until it hits one; a real
/// random source always does, a scripted one may not).
const MAX_DRAWS: u32 = 4096;

/// The move-choice layers of a trainer class (pret's `TrainerClassMoveChoiceModifications`),
/// by class id. Unknown classes (and `YOUNGSTER`, `CUE_BALL`) use none: the original move set.
pub fn trainer_move_layers(class: &str) -> &'static [u8] {
    match class {
        "BUG_CATCHER" | "LASS" | "JR_TRAINER_M" | "JR_TRAINER_F" | "ENGINEER" | "GAMBLER"
        | "JUGGLER" | "BROCK" | "CHANNELER" | "AGATHA" => &[1],
        "SAILOR" => &[1, 3],
        "UNUSED_JUGGLER" | "CHIEF" => &[1, 2],
        "HIKER" => &[1, 4],
        "POKEMANIAC" | "SUPER_NERD" | "PSYCHIC_TR" | "SCIENTIST" | "GENTLEMAN" | "LORELEI" => {
            &[1, 2, 3, 4]
        }
        "BIKER" | "BURGLAR" | "FISHER" | "SWIMMER" | "BEAUTY" | "ROCKER" | "TAMER"
        | "BIRD_KEEPER" | "BLACKBELT" | "RIVAL1" | "PROF_OAK" | "GIOVANNI" | "ROCKET"
        | "COOLTRAINER_M" | "COOLTRAINER_F" | "BRUNO" | "MISTY" | "LT_SURGE" | "ERIKA" | "KOGA"
        | "BLAINE" | "SABRINA" | "RIVAL2" | "RIVAL3" | "LANCE" => &[1, 3, 4],
        _ => &[],
    }
}

/// `StatusAilmentMoveEffects` (the unused effect `$01` has no variant here).
fn status_ailment(e: MoveEffect) -> bool {
    matches!(
        e,
        MoveEffect::Sleep | MoveEffect::Poison | MoveEffect::Paralyze
    )
}

/// Layer 2's encouraged effects: `ATTACK_UP1_EFFECT..BIDE_EFFECT` and
/// `ATTACK_UP2_EFFECT..POISON_EFFECT` (half-open, in the cartridge's effect order).
fn layer2_effect(e: MoveEffect) -> bool {
    use MoveEffect::*;
    matches!(
        e,
        AttackUp1
            | DefenseUp1
            | SpeedUp1
            | SpecialUp1
            | AccuracyUp1
            | EvasionUp1
            | PayDay
            | Swift
            | AttackDown1
            | DefenseDown1
            | SpeedDown1
            | SpecialDown1
            | AccuracyDown1
            | EvasionDown1
            | Conversion
            | Haze
            | AttackUp2
            | DefenseUp2
            | SpeedUp2
            | SpecialUp2
            | AccuracyUp2
            | EvasionUp2
            | Heal
            | Transform
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
    /// The enemy's choice for the current step, the cartridge's way outside link battles (see
    /// the module docs): a round draws from the battle's random source (wild mons uniformly by
    /// slot band, trainers after their class's layers); a replacement sends the next mon in
    /// party order; a prompt or a SHIFT offer passes. Under link rules the opponent chooses
    /// for itself; this then also skips moves without PP.
    pub fn select_enemy_move(&mut self) -> Action {
        match self.phase {
            Phase::Round => {}
            Phase::Replacement { enemy: true, .. } => return self.default_enemy_replacement(),
            _ => return Action::Continue,
        }
        let s = Side::Enemy;
        if self.locked(s) || self.no_move_choice(s) {
            return Action::Continue;
        }
        let b = self.bat(s);
        if b.moves[1].is_none() && b.disable_turns > 0 {
            return Action::Struggle;
        }
        if !(0..4).any(|i| self.move_usable(s, i)) {
            return Action::Struggle;
        }
        let drawable = match &self.kind {
            BattleKind::Trainer { class, .. } if !self.link_rules => {
                self.trainer_drawable(trainer_move_layers(class))
            }
            _ => self.bat(s).moves.map(|m| m.is_some()),
        };
        let (t1, t2, t3) = (percent(25), percent(50), percent(75) - 1);
        for _ in 0..MAX_DRAWS {
            let r = self.rng.byte();
            let slot = if r < t1 {
                0
            } else if r < t2 {
                1
            } else if r < t3 {
                2
            } else {
                3
            };
            if drawable[slot] && self.move_usable(s, slot) {
                return Action::Move(slot as u8);
            }
        }
        // Unreachable with a real random source: the first usable slot.
        (0..4)
            .find(|&i| drawable[i] && self.move_usable(s, i))
            .or_else(|| (0..4).find(|&i| self.move_usable(s, i)))
            .map_or(Action::Struggle, |i| Action::Move(i as u8))
    }

    /// `AIEnemyTrainerChooseMoves`: which of the enemy's slots stay drawable after `layers`.
    pub(crate) fn trainer_drawable(&self, layers: &[u8]) -> [bool; 4] {
        let b = self.bat(Side::Enemy);
        let moves = b.moves;
        if layers.is_empty() {
            return moves.map(|m| m.is_some());
        }
        // Moves up to the first empty slot take part (the cartridge's loops stop there).
        let n = moves.iter().position(Option::is_none).unwrap_or(4);
        let mut score = [10u8; 4];
        if b.disable_turns > 0 {
            score[usize::from(b.disabled_slot & 3)] = 0x50;
        }
        for &layer in layers {
            match layer {
                1 => self.ai_layer_1(&moves[..n], &mut score),
                2 => self.ai_layer_2(&moves[..n], &mut score),
                3 => self.ai_layer_3(&moves[..n], &mut score),
                _ => {} // layer 4 does nothing
            }
        }
        let min = score[..n].iter().copied().min().unwrap_or(0);
        let mut out = [false; 4];
        for i in 0..n {
            out[i] = score[i] == min;
        }
        out
    }

    fn move_facts(&self, mv: Option<MoveId>) -> Option<(MoveEffect, u8, Type)> {
        let m = self.data.get_move(mv?)?;
        Some((m.effect, m.power, m.ty))
    }

    /// Layer 1: discourage status moves when the player's mon already has a status.
    fn ai_layer_1(&self, moves: &[Option<MoveId>], score: &mut [u8; 4]) {
        use crate::pokemon::Status;
        match self.status(Side::Player) {
            Status::None => return,
            Status::Sleep(n) if n & 7 == 0 => return, // a zero status byte
            _ => {}
        }
        for (i, &mv) in moves.iter().enumerate() {
            if let Some((effect, power, _)) = self.move_facts(mv) {
                if power == 0 && status_ailment(effect) {
                    score[i] = score[i].wrapping_add(5);
                }
            }
        }
    }

    /// Layer 2: on the enemy's second action with this mon, encourage set-up moves.
    fn ai_layer_2(&self, moves: &[Option<MoveId>], score: &mut [u8; 4]) {
        if self.ai_layer2 != 1 {
            return;
        }
        for (i, &mv) in moves.iter().enumerate() {
            if let Some((effect, _, _)) = self.move_facts(mv) {
                if layer2_effect(effect) {
                    score[i] = score[i].wrapping_sub(1);
                }
            }
        }
    }

    /// Layer 3: type effectiveness against the player's mon.
    fn ai_layer_3(&self, moves: &[Option<MoveId>], score: &mut [u8; 4]) {
        let target = self.bat(Side::Player).types;
        for (i, &mv) in moves.iter().enumerate() {
            let Some((_, _, ty)) = self.move_facts(mv) else {
                continue;
            };
            let eff = self
                .data
                .type_matchups()
                .iter()
                .find(|&&(at, dt, _)| at == ty && (dt == target[0] || dt == target[1]))
                .map_or(10, |&(_, _, m)| m);
            if eff == 10 {
                continue;
            }
            if eff > 10 {
                score[i] = score[i].wrapping_sub(1);
                continue;
            }
            let better = moves.iter().any(|&other| {
                self.move_facts(other).is_some_and(|(e, p, t)| {
                    matches!(
                        e,
                        MoveEffect::SuperFang | MoveEffect::SpecialDamage | MoveEffect::Fly
                    ) || (t != ty && p > 0)
                })
            });
            if better {
                score[i] = score[i].wrapping_add(1);
            }
        }
    }
}
