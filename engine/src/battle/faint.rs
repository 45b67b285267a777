//! The faint pipeline (the Lua engine's): an idempotent faint queue per side, the player's and
//! the enemy's faint routines, EXP among participants (the cartridge's `GainExperience`, through
//! `battle.exp_award` and `exp.gain`), level-up with stat recompute and move learning
//! (`pokemon.level_up`), trainer replacement and the SHIFT offer, wild "Use next POKéMON?",
//! blackout, and double-faint resolution.

use smallvec::SmallVec;

use pallet_api::Runtime;

use crate::pokemon::stats::{exp_for_level, level_for_exp};
use crate::pokemon::MOVE_SLOTS;

use super::prompt::{LearnCursor, Prompt};
use super::rows::{Msg, Row, Sound, Who};
use super::sites::{self, Share};
use super::state::flag;
use super::{Action, Battle, BattleResult, BattleRng, BattleStyle, Phase, Side};

impl<R: BattleRng> Battle<R> {
    /// Schedule every battler at 0 HP whose faint is not queued yet, then decide what the
    /// battle waits for. A simultaneous faint runs the player's faint, then the enemy's faint
    /// with its EXP authority (`battle.fainted`, `battle.exp_award`, `exp.gain` for every
    /// healthy participant), then either the blackout (no healthy mon left, "even when the
    /// battle was already won", as in the Lua engine) or the win / replacement.
    ///
    /// Idempotent: a faint already queued is not queued again, so the pipeline resumes by
    /// calling it again after a learn-move prompt (see `prompt`).
    pub(crate) fn resolve_faints(&mut self, rt: &Runtime) {
        if matches!(self.phase, Phase::Finished | Phase::Prompt) {
            return;
        }
        let p_down = self.hp(Side::Player) == 0;
        let e_down = self.hp(Side::Enemy) == 0;
        if p_down && !self.sides[0].faint_queued {
            self.faint_player(rt);
        }
        if e_down && !self.sides[1].faint_queued {
            self.faint_enemy(rt);
            if self.phase == Phase::Prompt {
                return; // a level-up asks which move to forget; `prompt` resumes here
            }
        }
        if self.link_draw() {
            self.finish(rt, BattleResult::Draw);
            return;
        }
        if !self.sides[0].any_healthy() {
            // The player's faint authority comes last: the blackout wins over the enemy
            // faint's win (no participant was healthy, so nobody gained EXP).
            self.blackout(rt);
            return;
        }
        if e_down {
            if self.kind.is_wild() {
                self.win(rt);
                return;
            }
            if !self.sides[1].any_healthy() {
                self.text(Msg::TrainerDefeated);
                self.push(Row::Sound(Sound::VictoryTrainer));
                self.win(rt);
                return;
            }
        }
        let p_needs = self.hp(Side::Player) == 0;
        let e_needs = self.hp(Side::Enemy) == 0;
        if p_needs || e_needs {
            if p_needs && self.kind.is_wild() {
                self.text(Msg::UseNextMon);
            }
            self.phase = Phase::Replacement {
                player: p_needs,
                enemy: e_needs,
            };
        }
    }

    /// The RFC 0016 precedence for one field-residual batch, called once after every accepted
    /// row was applied, with the battlers the batch brought from HP > 0 to 0.
    ///
    /// * The batch terminally faints the player (its mon newly at 0 HP, no healthy mon left):
    ///   only the player's faint authority runs — its faint, then the blackout (`lose`). The
    ///   enemy, even if the same batch emptied its HP bar, gets no faint, no EXP
    ///   (`battle.exp_award` / `exp.gain` are not called), no replacement and no SHIFT prompt,
    ///   whatever order the rows came in.
    /// * Otherwise the newly fainted battlers are scheduled player first, then enemy, through
    ///   the ordinary pipeline ([`Battle::resolve_faints`]: EXP, win, replacement).
    ///
    /// Native faint paths (moves, status residuals) keep calling `resolve_faints` directly.
    #[cfg_attr(not(feature = "hook-sites"), allow(dead_code))]
    pub(crate) fn resolve_faints_after_field(
        &mut self,
        rt: &Runtime,
        player_new: bool,
        enemy_new: bool,
    ) {
        if self.phase == Phase::Finished || !(player_new || enemy_new) {
            return;
        }
        if self.link_rules {
            // Link battles have no faint authority: both sides' faints, then a draw when
            // neither side has a healthy mon left.
            self.resolve_faints(rt);
            return;
        }
        if player_new && !self.sides[0].any_healthy() {
            if !self.sides[0].faint_queued {
                self.faint_player(rt);
            }
            self.blackout(rt);
            return;
        }
        self.resolve_faints(rt);
    }

    fn faint_player(&mut self, rt: &Runtime) {
        let s = &mut self.sides[0];
        s.faint_queued = true;
        s.participants &= !(1u8 << s.active);
        let w = self.who(Side::Player);
        let species = self.sides[0].mon().species;
        // The cartridge wipes the enemy's stored Bide damage here.
        self.bat_mut(Side::Enemy).bide_damage = 0;
        self.push(Row::Faint(Side::Player));
        self.push(Row::Sound(Sound::Cry(species)));
        self.text(Msg::Fainted { mon: w });
        sites::battle_fainted(self, rt, Side::Player);
    }

    fn faint_enemy(&mut self, rt: &Runtime) {
        self.sides[1].faint_queued = true;
        let p = self.bat_mut(Side::Player);
        p.clear(flag::MULTI_HIT);
        p.hits = 0;
        p.used = None;
        self.bat_mut(Side::Enemy).used = None;
        self.push(Row::Faint(Side::Enemy));
        if self.kind.is_wild() {
            self.push(Row::Sound(Sound::VictoryWild));
        } else {
            self.push(Row::Sound(Sound::FaintFall));
            self.push(Row::Sound(Sound::FaintThud));
        }
        let w = self.who(Side::Enemy);
        self.text(Msg::Fainted { mon: w });
        sites::battle_fainted(self, rt, Side::Enemy);
        self.award_exp(rt);
    }

    /// Under link rules, neither side has a healthy mon left: the battle is a draw (as
    /// Pokémon Showdown scores a simultaneous last faint in Gen 1). Game battles keep the
    /// cartridge's order (the player's blackout wins).
    #[inline]
    pub(crate) fn link_draw(&self) -> bool {
        self.link_rules && !self.sides[0].any_healthy() && !self.sides[1].any_healthy()
    }

    fn blackout(&mut self, rt: &Runtime) {
        self.text(Msg::OutOfUsableMons);
        self.text(Msg::BlackedOut);
        self.finish(rt, BattleResult::Lose);
    }

    fn win(&mut self, rt: &Runtime) {
        if self.pay_day > 0 {
            self.text(Msg::PickedUpMoney {
                amount: self.pay_day,
            });
        }
        self.finish(rt, BattleResult::Win);
    }

    // ----- replacement --------------------------------------------------------------------

    pub(crate) fn run_replacement(
        &mut self,
        rt: &Runtime,
        player: Option<Action>,
        enemy: Option<Action>,
    ) {
        let enemy_pending = enemy.is_some();
        if let Some(pa) = player {
            match pa {
                Action::Switch(slot) => {
                    self.send_out(Side::Player, slot);
                    super::sites_flow::battler_switched(self, rt, Side::Player, None);
                }
                Action::Run => {
                    if self.try_run(rt, true) {
                        self.finish(rt, BattleResult::Ran);
                        return;
                    }
                    // NO, then a failed escape: the party menu comes up anyway.
                    self.phase = Phase::Replacement {
                        player: true,
                        enemy: enemy_pending,
                    };
                    return;
                }
                _ => {}
            }
        }
        if let Some(Action::Switch(slot)) = enemy {
            self.send_out(Side::Enemy, slot);
            super::sites_flow::battler_switched(self, rt, Side::Enemy, None);
            self.ai_layer2 = 0; // `ReplaceFaintedEnemyMon`
                                // A new enemy: only the mon now out has fought it.
            let active = self.sides[0].active;
            self.sides[0].participants = 1 << active;
            if self.sides[0].party.len() > 1
                && self.hp(Side::Player) > 0
                && super::sites_rules::style(self, rt) == BattleStyle::Shift
            {
                self.text(Msg::TrainerAboutToUse {
                    mon: Who {
                        side: Side::Enemy,
                        slot,
                    },
                });
                self.phase = Phase::Shift;
                return;
            }
        }
        self.phase = Phase::Round;
    }

    pub(crate) fn run_shift(&mut self, rt: &Runtime, player: Action) {
        if let Action::Switch(slot) = player {
            let from = self.sides[0].active;
            self.switch_in(Side::Player, slot);
            super::sites_flow::battler_switched(self, rt, Side::Player, Some(from));
        }
        self.phase = Phase::Round;
    }

    // ----- experience ---------------------------------------------------------------------

    /// `GainExperience` for the fainted enemy: the shares (`battle.exp_award`), then each
    /// share's EXP. Stops at a learn prompt (see `prompt`).
    pub(crate) fn award_exp(&mut self, rt: &Runtime) {
        if self.link_rules {
            return; // no EXP in link battles
        }
        if self.data.get_species(self.sides[1].mon().species).is_none() {
            return;
        }
        let mut shares: SmallVec<[Share; 6]> = SmallVec::new();
        sites::exp_award(self, rt, &mut shares);
        let participants = shares.len() as u8;
        self.give_exp(rt, &shares, participants);
    }

    /// Give `shares` their EXP (and stat EXP) for the active enemy, in order. A level-up that
    /// asks which move to forget stops here; the shares not given yet go with the prompt.
    pub(crate) fn give_exp(&mut self, rt: &Runtime, shares: &[Share], participants: u8) {
        let data = self.data;
        let enemy = self.sides[1].mon();
        let Some(sp) = data.get_species(enemy.species) else {
            return;
        };
        let enemy_level = enemy.level;
        let base = [sp.hp, sp.atk, sp.def, sp.spe, sp.spc];
        let base_exp = sp.base_exp;
        for (k, &share) in shares.iter().enumerate() {
            let slot = usize::from(share.slot);
            let n = share.split.max(1);
            let Some(mon) = self.sides[0].party.get_mut(slot) else {
                continue;
            };
            if mon.hp == 0 {
                continue;
            }
            let div = |v: u8| u16::from(v / n);
            let se = &mut mon.stat_exp;
            se.hp = se.hp.saturating_add(div(base[0]));
            se.atk = se.atk.saturating_add(div(base[1]));
            se.def = se.def.saturating_add(div(base[2]));
            se.spe = se.spe.saturating_add(div(base[3]));
            se.spc = se.spc.saturating_add(div(base[4]));
            let mut exp = (u32::from(base_exp / n) * u32::from(enemy_level) / 7) & 0xFFFF;
            let traded = self.player_id.is_some_and(|id| mon.ot_id != id);
            if traded {
                exp = (exp + (exp >> 1)) & 0xFFFF;
            }
            if !self.kind.is_wild() {
                exp = (exp + (exp >> 1)) & 0xFFFF;
            }
            let exp = sites::exp_gain(self, rt, share.slot, participants, traded, exp);
            let Some(growth) = data
                .get_species(self.sides[0].party[slot].species)
                .map(|s| s.growth)
            else {
                continue;
            };
            let mon = &mut self.sides[0].party[slot];
            let cap = exp_for_level(growth, 100);
            mon.exp = mon.exp.saturating_add(exp).min(cap);
            let new_level = level_for_exp(growth, mon.exp);
            let old_level = mon.level;
            if share.announce {
                self.text(Msg::GainedExp {
                    mon: Who {
                        side: Side::Player,
                        slot: share.slot,
                    },
                    amount: exp,
                    boosted: traded,
                });
            }
            super::sites_flow::exp_gained(self, rt, share.slot, exp);
            if new_level > old_level {
                self.level_up(rt, share.slot, new_level);
                if self.phase == Phase::Prompt {
                    if let Some(c) = self.pending.as_mut().and_then(|p| p.learn.as_mut()) {
                        c.shares = shares[k + 1..].iter().copied().collect();
                        c.participants = participants;
                    }
                    return;
                }
            }
        }
        let active = self.sides[0].active;
        self.sides[0].participants = 1 << active;
    }

    /// Level-up: stats recomputed (HP rises by the max-HP gain), the active battler's stats
    /// replaced by the new ones (stages are not re-applied: a cartridge quirk), moves learned at
    /// the new level only (levels skipped in one gain teach nothing), `pokemon.level_up`.
    fn level_up(&mut self, rt: &Runtime, slot: u8, new_level: u8) {
        let data = self.data;
        let s = usize::from(slot);
        let prev = self.sides[0].party[s].level;
        self.sides[0].party[s].set_level(data, new_level);
        let is_active = self.sides[0].active == slot;
        if is_active && !self.bat(Side::Player).has(flag::TRANSFORMED) {
            let st = self.sides[0].party[s].stats;
            let b = self.bat_mut(Side::Player);
            b.level = new_level;
            b.stats = [st.atk, st.def, st.spe, st.spc];
            b.unmod = b.stats;
            self.quarter_speed_if_paralyzed_self(Side::Player);
        } else if is_active {
            self.bat_mut(Side::Player).level = new_level;
        }
        self.text(Msg::GrewToLevel {
            mon: Who {
                side: Side::Player,
                slot,
            },
            level: new_level,
        });
        self.push(Row::Sound(Sound::LevelUp));
        self.learn_moves_from(rt, slot, new_level, prev, 0);
    }

    /// `LearnMoveFromLevelUp` from the `start`-th move the species learns at `level`: a free
    /// slot takes the move; with four moves known the player is asked (the step stops at
    /// [`Prompt::LearnMove`]). After the last move: the level-up flag and `pokemon.level_up`.
    pub(crate) fn learn_moves_from(
        &mut self,
        rt: &Runtime,
        slot: u8,
        level: u8,
        prev: u8,
        start: usize,
    ) {
        let data = self.data;
        let s = usize::from(slot);
        let w = Who {
            side: Side::Player,
            slot,
        };
        let learn: SmallVec<[crate::data::MoveId; 4]> = match self.sides[0].party.get(s) {
            Some(m) => m.learnset_moves_at(data, level).collect(),
            None => return,
        };
        for (k, mv) in learn.into_iter().enumerate().skip(start) {
            let mon = &self.sides[0].party[s];
            if mon.moves.contains(&Some(mv)) {
                continue;
            }
            if let Some(free) = (0..MOVE_SLOTS).find(|&i| mon.moves[i].is_none()) {
                self.put_move(slot, free, mv);
                self.text(Msg::LearnedMove { mon: w, mv });
                super::sites_flow::move_learned(self, rt, slot, mv, None);
            } else {
                self.text(Msg::TryingToLearn { mon: w, mv });
                self.ask(
                    Prompt::LearnMove { slot, mv },
                    Some(LearnCursor {
                        level,
                        prev,
                        next_move: (k + 1) as u8,
                        shares: SmallVec::new(),
                        participants: 0,
                    }),
                );
                return;
            }
        }
        self.level_ups |= 1 << slot;
        sites::level_up(self, rt, slot, prev);
    }

    /// Paralysis and burn penalties on `s`'s own fresh stats.
    fn quarter_speed_if_paralyzed_self(&mut self, s: Side) {
        self.quarter_speed_if_paralyzed(s);
        self.halve_attack_if_burned(s);
    }
}
