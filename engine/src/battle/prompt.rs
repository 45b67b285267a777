//! Prompts in the middle of a step: questions the cartridge asks the player while a round or
//! the faint pipeline is running, answered through [`Battle::submit`] before anything else
//! happens.
//!
//! * **Learn a fifth move** (`LearnMoveFromLevelUp` → `LearnMove`): a party mon that knows
//!   four moves reaches a level with a new move. [`Action::Move`]`(i)` forgets move `i` ("1, 2
//!   and... Poof! X forgot Y! And... X learned Z!"; HM moves cannot be forgotten),
//!   [`Action::Continue`] abandons learning ("X did not learn Z!").
//! * **Mimic** (`MimicEffect`, non-link battles): the player's Mimic hit; the menu lists the
//!   enemy's moves and [`Action::Move`]`(i)` copies the one in slot `i`. The menu draws no random
//!   number (the enemy's Mimic, and both sides' under link rules, still pick at random).
//!
//! The step stops where the cartridge opens the menu: rows queued so far are the ones shown
//! before the question, and a [`Pending`] records where the step continues (the rest of the
//! level-up, the other EXP shares, the faint resolution, the rest of the round). Answering
//! applies the choice, queues its rows and runs that continuation, which may stop at the next
//! prompt. A battle at a prompt is not at a checkpoint boundary (`battle_phase_busy`).

use smallvec::SmallVec;

use pallet_api::Runtime;

use crate::data::MoveId;
use crate::pokemon::mon::max_pp;

use super::rows::{Msg, Row, Sound, Who};
use super::sites::Share;
use super::state::flag;
use super::state::MoveEnd;
use super::{Action, ActionBuf, Battle, BattleRng, Phase, Side};

/// What the player is asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Prompt {
    /// Party mon `slot` knows four moves and can learn `mv`.
    LearnMove { slot: u8, mv: MoveId },
    /// The player's Mimic hit: copy one of the enemy's moves.
    Mimic,
}

/// Where a stopped step continues once the prompt is answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Pending {
    pub(crate) prompt: Prompt,
    /// Set when the faint pipeline stopped inside a level-up.
    pub(crate) learn: Option<LearnCursor>,
    /// What runs after the faint pipeline (or, for Mimic, after the move).
    pub(crate) then: Resume,
}

/// The rest of an EXP award that stopped at a learn prompt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct LearnCursor {
    /// The level the mon just reached and the one it had before.
    pub(crate) level: u8,
    pub(crate) prev: u8,
    /// Index (among the moves learned at `level`) of the move after the one asked about.
    pub(crate) next_move: u8,
    /// EXP shares not given yet, and the participant count `exp.gain` sees.
    pub(crate) shares: SmallVec<[Share; 6]>,
    pub(crate) participants: u8,
}

/// The rest of the round after the stopped step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Resume {
    /// Nothing more (the faint pipeline ran outside a round).
    Nothing,
    /// `side`'s move executor stopped (Mimic): its residual, then `next`'s turn if the round
    /// goes on, then the end of the round.
    AfterMove { side: Side, next: Option<Side> },
    /// A faint stopped the round: the end of the round.
    EndOfRound,
    /// The field-residual slot's faints: the rest of the end of the round.
    AfterFieldSlot,
    /// A catch's EXP award (`battle.catch_exp`) stopped: store the caught mon thrown at with
    /// this ball, and the battle ends caught.
    FinishCatch(super::state::Ball),
}

/// HM moves cannot be forgotten (`IsMoveHM`).
fn is_hm(name: &str) -> bool {
    matches!(name, "CUT" | "FLY" | "SURF" | "STRENGTH" | "FLASH")
}

impl<R: BattleRng> Battle<R> {
    /// The question the battle waits on, if any.
    pub fn prompt(&self) -> Option<Prompt> {
        match (&self.phase, &self.pending) {
            (Phase::Prompt, Some(p)) => Some(p.prompt),
            _ => None,
        }
    }

    /// The headless answer `pallet run`'s automatic play uses (deterministic, no random
    /// draw): keep the four known moves; Mimic copies the enemy's first move (where the
    /// cartridge's menu cursor starts). It is the first of the player's legal actions.
    pub fn default_prompt_answer(&self) -> Option<Action> {
        let mut buf = ActionBuf::default();
        self.prompt_actions(Side::Player, &mut buf);
        self.prompt().and(buf.as_slice().first().copied())
    }

    /// Stop the step here and ask `prompt`.
    pub(crate) fn ask(&mut self, prompt: Prompt, learn: Option<LearnCursor>) {
        self.pending = Some(Box::new(Pending {
            prompt,
            learn,
            then: Resume::Nothing,
        }));
        self.phase = Phase::Prompt;
    }

    /// Record where the stopped round continues (the innermost caller that knows sets it).
    pub(crate) fn resume_with(&mut self, then: Resume) {
        if let Some(p) = self.pending.as_mut() {
            if p.then == Resume::Nothing {
                p.then = then;
            }
        }
    }

    /// The faint pipeline stopped at a learn prompt (as opposed to a move executor).
    pub(crate) fn asking_in_faints(&self) -> bool {
        self.pending.as_ref().is_some_and(|p| p.learn.is_some())
    }

    /// The answers to the current prompt: the player's, then the enemy's (`Continue`).
    pub(crate) fn prompt_actions(&self, side: Side, out: &mut ActionBuf) {
        let Some(p) = self.prompt() else {
            return;
        };
        if side == Side::Enemy {
            out.push(Action::Continue);
            return;
        }
        match p {
            Prompt::LearnMove { slot, .. } => {
                out.push(Action::Continue);
                if let Some(mon) = self.sides[0].party.get(usize::from(slot)) {
                    for (i, m) in mon.moves.iter().enumerate() {
                        if m.is_some_and(|m| !self.is_hm_move(m)) {
                            out.push(Action::Move(i as u8));
                        }
                    }
                }
            }
            Prompt::Mimic => {
                for (i, m) in self.bat(Side::Enemy).moves.iter().enumerate() {
                    if m.is_some() {
                        out.push(Action::Move(i as u8));
                    }
                }
            }
        }
    }

    pub(crate) fn prompt_legal(&self, side: Side, action: Action) -> bool {
        let mut buf = ActionBuf::default();
        self.prompt_actions(side, &mut buf);
        buf.as_slice().contains(&action)
    }

    fn is_hm_move(&self, mv: MoveId) -> bool {
        self.data.get_move(mv).is_some_and(|m| is_hm(m.id))
    }

    /// Apply the player's answer, then run the rest of the stopped step.
    pub(crate) fn answer_prompt(&mut self, rt: &Runtime, answer: Action) {
        let Some(pending) = self.pending.take() else {
            self.phase = Phase::Round;
            return;
        };
        let Pending {
            prompt,
            learn,
            then,
        } = *pending;
        self.phase = Phase::Round;
        match prompt {
            Prompt::LearnMove { slot, mv } => {
                let forgot = match answer {
                    Action::Move(i) => self.sides[0]
                        .party
                        .get(usize::from(slot))
                        .and_then(|m| m.moves[usize::from(i & 3)]),
                    _ => None,
                };
                self.answer_learn(slot, mv, answer);
                super::sites_flow::move_learned(self, rt, slot, mv, forgot);
            }
            Prompt::Mimic => self.answer_mimic(answer),
        }
        if let Some(cursor) = learn {
            let LearnCursor {
                level,
                prev,
                next_move,
                shares,
                participants,
            } = cursor;
            let slot = match prompt {
                Prompt::LearnMove { slot, .. } => slot,
                Prompt::Mimic => 0,
            };
            self.learn_moves_from(rt, slot, level, prev, usize::from(next_move));
            if self.phase == Phase::Prompt {
                self.carry_on(then, shares, participants);
                return;
            }
            self.give_exp(rt, &shares, participants);
            if self.phase == Phase::Prompt {
                self.resume_with(then);
                return;
            }
            self.resolve_faints(rt);
            if self.phase == Phase::Prompt {
                self.resume_with(then);
                return;
            }
        }
        self.continue_after(rt, then);
    }

    /// A learn prompt asked again inside the continuation: the shares still to give and the
    /// round's continuation move over to the new question.
    fn carry_on(&mut self, then: Resume, shares: SmallVec<[Share; 6]>, participants: u8) {
        if let Some(p) = self.pending.as_mut() {
            if let Some(c) = p.learn.as_mut() {
                c.shares = shares;
                c.participants = participants;
            }
            p.then = then;
        }
    }

    /// Run `then` (the rest of the round after the stopped step).
    fn continue_after(&mut self, rt: &Runtime, then: Resume) {
        match then {
            Resume::Nothing => {}
            Resume::AfterMove { side, next } => {
                let flow = self.after_move(rt, side, MoveEnd::Normal);
                self.after_turn(rt, side, next, flow);
            }
            Resume::EndOfRound => self.end_of_round(rt),
            Resume::AfterFieldSlot => self.end_of_round_after_field(rt),
            Resume::FinishCatch(ball) => self.finish_catch(rt, ball),
        }
    }

    fn answer_learn(&mut self, slot: u8, mv: MoveId, answer: Action) {
        let w = Who {
            side: Side::Player,
            slot,
        };
        let Action::Move(i) = answer else {
            self.text(Msg::DidNotLearn { mon: w, mv });
            return;
        };
        let i = usize::from(i & 3);
        let s = usize::from(slot);
        let Some(old) = self.sides[0].party.get(s).and_then(|m| m.moves[i]) else {
            self.text(Msg::DidNotLearn { mon: w, mv });
            return;
        };
        self.text(Msg::OneTwoAnd);
        self.push(Row::Sound(Sound::Swap));
        self.text(Msg::ForgotMove { mon: w, mv: old });
        self.put_move(slot, i, mv);
        self.text(Msg::LearnedMove { mon: w, mv });
    }

    /// Write `mv` into party slot `slot`'s move `i` with full PP (no PP Ups); the active
    /// battler's copy follows unless it is transformed.
    pub(crate) fn put_move(&mut self, slot: u8, i: usize, mv: MoveId) {
        let data = self.data;
        let s = usize::from(slot);
        let Some(mon) = self.sides[0].party.get_mut(s) else {
            return;
        };
        mon.moves[i] = Some(mv);
        mon.pp_ups[i] = 0;
        mon.pp[i] = max_pp(data, mv, 0).unwrap_or(0);
        let pp = mon.pp[i];
        if self.sides[0].active == slot && !self.bat(Side::Player).has(flag::TRANSFORMED) {
            let b = self.bat_mut(Side::Player);
            b.moves[i] = Some(mv);
            b.pp[i] = pp;
        }
    }

    fn answer_mimic(&mut self, answer: Action) {
        let Action::Move(i) = answer else {
            return;
        };
        let Some(mv) = self.bat(Side::Enemy).moves[usize::from(i & 3)] else {
            return;
        };
        let slot = usize::from(self.bat(Side::Player).move_slot & 3);
        self.bat_mut(Side::Player).moves[slot] = Some(mv);
        self.text(Msg::LearnedMimic {
            mon: self.who(Side::Player),
            mv,
        });
    }
}
