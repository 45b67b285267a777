//! Gen 1 battles: mechanics faithful to the cartridge (pret disassembly, Showdown's Gen 1
//! research), the Lua engine's turn structure (docs/battles.md), the faint pipeline, and an ordered
//! queue of presentation rows.
//!
//! - [`Battle`] is the state machine: [`Battle::needs_choice`] says who must act,
//!   [`Battle::legal_actions`] lists what they may do, [`Battle::submit`] resolves a round (or a
//!   replacement), [`Battle::rows`] drains the presentation queue.
//! - The battle is generic over its random source ([`BattleRng`]): the seeded [`Rng`] in games
//!   and benches, a [`ScriptedRng`] byte queue in tests.
//!
//! Modules: [`source`] random sources, [`rows`] rows and lazy text, [`state`] battler/side/field
//! state, `damage` the damage formula, crits and accuracy, `exec` one side's move, `effects` move
//! effect families, `round` turn order, residuals and end of round, `faint` the faint pipeline
//! (EXP, level-up, replacement, blackout), [`prompt`] questions asked in the middle of a step
//! (learning a fifth move, the player's Mimic), `ai` the trainer AI's move choice, `sites` the
//! guarded hook/event call sites, [`field_residual`] the RFC 0016 end-of-round field residual
//! site, [`mode`] link vs game battle rules.

mod ai;
pub mod bag;
pub mod calc;
pub mod capture;
mod damage;
mod effects;
mod exec;
mod faint;
pub mod field_residual;
pub mod mode;
pub mod prompt;
pub mod random;
mod round;
pub mod rows;
mod sites;
mod sites_flow;
mod sites_rules;
pub mod source;
pub mod state;
pub mod team_check;
pub mod teams;

#[cfg(test)]
mod tests;

use smallvec::SmallVec;

use pallet_api::Runtime;

use crate::data::{Dataset, ItemId};
use crate::pokemon::Pokemon;
use crate::rng::Rng;

pub use ai::trainer_move_layers;
pub use mode::BattleMode;
pub use prompt::Prompt;
pub use rows::{ChargeText, Msg, Names, Row, Sound, StatKind, Who};
pub use source::{BattleRng, ScriptedRng};
pub use state::{Battler, Field, Screens, SideState, Token};

/// A side of the battle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    Player,
    Enemy,
}

impl Side {
    #[inline(always)]
    pub fn other(self) -> Side {
        match self {
            Side::Player => Side::Enemy,
            Side::Enemy => Side::Player,
        }
    }
    #[inline(always)]
    pub fn idx(self) -> usize {
        self as usize
    }
    /// `"player"` / `"enemy"` as mods see it.
    pub fn as_str(self) -> &'static str {
        match self {
            Side::Player => "player",
            Side::Enemy => "enemy",
        }
    }
}

/// Wild encounter or trainer battle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BattleKind {
    Wild,
    /// `class` is the trainer class id (`"BUG_CATCHER"`, `"RIVAL1"`), `index` the party index
    /// within that class; `name` is what the text prints ("BUG CATCHER").
    Trainer {
        class: String,
        index: u16,
        name: String,
    },
}

impl BattleKind {
    pub fn is_wild(&self) -> bool {
        matches!(self, BattleKind::Wild)
    }
}

/// One side's choice for a round or a replacement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Use the move in slot 0..4.
    Move(u8),
    /// Send out the party mon at this index.
    Switch(u8),
    /// Use a bag item (balls go to the capture path).
    Item(ItemId),
    /// Try to run (wild battles).
    Run,
    /// No move has PP left (or the only one is disabled).
    Struggle,
    /// No choice this turn: recharging, thrashing, charging, raging, storing energy, asleep,
    /// frozen or trapped ("FIGHT" with nothing to pick); also "keep the current mon" at a
    /// SHIFT prompt and the side that has nothing to replace.
    Continue,
}

/// What the battle waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NeedsChoice {
    /// Both sides choose an action for a new round.
    Round,
    /// A fainted mon must be replaced. `player`: choose a [`Action::Switch`] (or [`Action::Run`]
    /// in a wild battle: "Use next POKéMON?" → NO); `enemy`: the trainer sends the next mon.
    Replacement { player: bool, enemy: bool },
    /// SHIFT style: the trainer is about to send out a new mon; the player may switch
    /// ([`Action::Switch`]) or keep the current one ([`Action::Continue`]).
    Shift,
    /// Party mon `slot` knows four moves and can learn `mv` (mid-step, see [`prompt`]): the
    /// player forgets a move ([`Action::Move`]`(i)`, not an HM) or abandons learning
    /// ([`Action::Continue`]); the enemy passes [`Action::Continue`].
    LearnMove { slot: u8, mv: crate::data::MoveId },
    /// The player's Mimic hit (non-link battle): [`Action::Move`]`(i)` copies the enemy's move
    /// in slot `i`; the enemy passes [`Action::Continue`].
    Mimic,
    /// The battle is over; see [`Battle::result`].
    Finished,
}

/// How the battle ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BattleResult {
    Win,
    Lose,
    Draw,
    Ran,
    Caught,
}

impl BattleResult {
    /// The reference engine's result string (`"win"`, `"lose"`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            BattleResult::Win => "win",
            BattleResult::Lose => "lose",
            BattleResult::Draw => "draw",
            BattleResult::Ran => "ran",
            BattleResult::Caught => "caught",
        }
    }
}

/// SHIFT or SET battle style (cartridge option).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum BattleStyle {
    #[default]
    Shift,
    Set,
}

/// A choice the battle cannot take in its current state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BattleError {
    #[error("the battle is over")]
    Finished,
    #[error("{side:?} cannot take {action:?} now")]
    Illegal { side: Side, action: Action },
}

/// A fixed-capacity action list (4 moves or Struggle/Continue, 5 switches, Run: at most 11).
#[derive(Clone, Copy)]
pub(crate) struct ActionBuf {
    items: [Action; 12],
    len: usize,
}

impl Default for ActionBuf {
    fn default() -> Self {
        ActionBuf {
            items: [Action::Continue; 12],
            len: 0,
        }
    }
}

impl ActionBuf {
    #[inline(always)]
    pub(crate) fn push(&mut self, a: Action) {
        if self.len < self.items.len() {
            self.items[self.len] = a;
            self.len += 1;
        }
    }
    #[inline(always)]
    pub(crate) fn as_slice(&self) -> &[Action] {
        &self.items[..self.len]
    }
}

/// Internal phase of the state machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    Round,
    Replacement {
        player: bool,
        enemy: bool,
    },
    Shift,
    /// Stopped at a question (`pending` says which, and where the step continues).
    Prompt,
    Finished,
}

/// A Gen 1 battle. `R` is the random source: [`Rng`] (default) or [`ScriptedRng`] in tests.
#[derive(Clone, Debug)]
pub struct Battle<R: BattleRng = Rng> {
    pub(crate) data: &'static Dataset,
    pub(crate) kind: BattleKind,
    pub(crate) sides: [SideState; 2],
    pub(crate) field: Field,
    pub(crate) rng: R,
    pub(crate) rows: Vec<Row>,
    pub(crate) record_rows: bool,
    pub(crate) result: Option<BattleResult>,
    pub(crate) phase: Phase,
    pub(crate) turn: u32,
    /// The cartridge's shared `wDamage`: the last damage dealt by anyone (Counter, Bide,
    /// trapping continuation read it).
    pub(crate) last_damage: u16,
    pub(crate) move_missed: bool,
    pub(crate) crit: bool,
    /// OHKO succeeded (`wCriticalHitOrOHKO == 2`) or failed by speed (`$FF`).
    pub(crate) ohko: OhkoState,
    /// Effectiveness of the last damage calculation, in tenths (10 = neutral, 0 = immune).
    pub(crate) effectiveness: u8,
    pub(crate) run_attempts: u8,
    /// Money scattered by Pay Day (picked up on a win).
    pub(crate) pay_day: u32,
    pub(crate) style: BattleStyle,
    pub(crate) player_name: String,
    /// Mod-supplied message strings referenced by [`Msg::ModText`].
    pub(crate) mod_texts: Vec<String>,
    /// A battle.started event has been emitted.
    pub(crate) started: bool,
    /// Link-battle rules: both sides' PP is spent, no EXP, the AI's 25% stat-down miss is off.
    pub(crate) link_rules: bool,
    /// Teleport / Roar / Whirlwind ended the battle this turn.
    pub(crate) escaped: bool,
    /// Declare a draw after this many rounds (embedder's choice; the cartridge has no limit).
    pub(crate) turn_limit: Option<u32>,
    /// The player's trainer id (EXP is boosted for mons with another OT id); `None`: never.
    pub(crate) player_id: Option<u16>,
    /// Party slots that gained a level (the cartridge's `wCanEvolveFlags`).
    pub(crate) level_ups: u8,
    /// The player's boxes/Pokédex lent for the capture path (see `capture`).
    pub(crate) capture_store: Option<Box<capture::CaptureStore>>,
    /// What the last successful throw stored (see `capture`).
    pub(crate) caught: Option<Box<capture::CaughtMon>>,
    /// The dataset's type matchups indexed by attacking type.
    pub(crate) matchups: &'static damage::MatchupIndex,
    /// The question a stopped step waits on and where it continues ([`Phase::Prompt`]).
    pub(crate) pending: Option<Box<prompt::Pending>>,
    /// The cartridge's `wAILayer2Encouragement`: enemy move executions since the trainer's
    /// last send-out (the AI's second layer reads it).
    pub(crate) ai_layer2: u8,
    /// The party slot the player's bag item acts on (set with the choice; see `bag`).
    pub(crate) item_target: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) enum OhkoState {
    #[default]
    None,
    Hit,
    Failed,
}

impl<R: BattleRng> Battle<R> {
    /// A new battle between `player` and `enemy` parties (each 1..=6 mons; fainted mons are
    /// skipped when sending out). Both first mons are sent out immediately; the rows queue holds
    /// the opening text. A side with no healthy mon ends the battle at once (lose / win).
    pub fn new(
        data: &'static Dataset,
        kind: BattleKind,
        player: Vec<Pokemon>,
        enemy: Vec<Pokemon>,
        rng: R,
    ) -> Battle<R> {
        let mut b = Battle {
            data,
            kind,
            sides: [SideState::new(player), SideState::new(enemy)],
            field: Field::default(),
            rng,
            rows: Vec::with_capacity(64),
            record_rows: true,
            result: None,
            phase: Phase::Round,
            turn: 0,
            last_damage: 0,
            move_missed: false,
            crit: false,
            ohko: OhkoState::None,
            effectiveness: 10,
            run_attempts: 0,
            pay_day: 0,
            style: BattleStyle::Shift,
            player_name: "RED".to_string(),
            mod_texts: Vec::new(),
            started: false,
            link_rules: false,
            escaped: false,
            turn_limit: None,
            player_id: None,
            level_ups: 0,
            capture_store: None,
            caught: None,
            matchups: damage::MatchupIndex::for_dataset(data),
            pending: None,
            ai_layer2: 0,
            item_target: 0,
        };
        b.open();
        b
    }

    /// Start the battle: emits `battle.started` (once; `new` cannot see a runtime, so the
    /// first `submit` — or an explicit call here — emits it). A battle decided at creation (a
    /// side with no healthy mon) also emits `battle.ended` here.
    pub fn start(&mut self, rt: &Runtime) {
        if !self.started {
            self.started = true;
            sites::battle_started(self, rt);
            if self.result.is_some() {
                sites::battle_ended(self, rt);
            }
        }
    }

    /// Turn rows off for headless runs (nothing is queued at all) or back on.
    pub fn set_record_rows(&mut self, on: bool) {
        self.record_rows = on;
        if !on {
            self.rows.clear();
        }
    }

    pub fn set_style(&mut self, style: BattleStyle) {
        self.style = style;
    }

    pub fn set_player_name(&mut self, name: &str) {
        self.player_name = name.to_string();
    }

    /// The player's trainer id: party mons with another OT id get the traded 1.5x EXP.
    pub fn set_player_id(&mut self, id: u16) {
        self.player_id = Some(id);
    }

    /// Link-battle rules (symmetric in every rule, see [`mode`]: both sides spend PP, no EXP,
    /// no AI stat-down miss, Mimic picks at random, crits read both sides' party stats, a
    /// simultaneous last faint is a draw): what `pallet battle`'s random battles use. Off by
    /// default (cartridge single-player rules: the AI's PP is never spent).
    pub fn set_link_rules(&mut self, on: bool) {
        self.link_rules = on;
    }

    /// End the battle as a draw after `turns` rounds (`None`: no limit, as on the cartridge).
    pub fn set_turn_limit(&mut self, turns: Option<u32>) {
        self.turn_limit = turns;
    }

    /// Party slots (bit per slot) that gained a level during the battle; evolution checks
    /// after the battle read this (the cartridge's `wCanEvolveFlags`).
    pub fn leveled_up(&self) -> u8 {
        self.level_ups
    }

    /// Who must choose next.
    pub fn needs_choice(&self) -> NeedsChoice {
        match self.phase {
            Phase::Round => NeedsChoice::Round,
            Phase::Replacement { player, enemy } => NeedsChoice::Replacement { player, enemy },
            Phase::Shift => NeedsChoice::Shift,
            Phase::Prompt => match self.prompt() {
                Some(Prompt::LearnMove { slot, mv }) => NeedsChoice::LearnMove { slot, mv },
                Some(Prompt::Mimic) => NeedsChoice::Mimic,
                None => NeedsChoice::Round,
            },
            Phase::Finished => NeedsChoice::Finished,
        }
    }

    /// The actions `side` may take now (no allocation: fits the inline capacity).
    pub fn legal_actions(&self, side: Side, out: &mut SmallVec<[Action; 12]>) {
        out.clear();
        out.extend_from_slice(self.legal_buf(side).as_slice());
    }

    /// [`Battle::legal_actions`] in a fixed inline buffer (the random player's hot path).
    #[inline]
    pub(crate) fn legal_buf(&self, side: Side) -> ActionBuf {
        let mut buf = ActionBuf::default();
        match self.phase {
            Phase::Finished => {}
            Phase::Round => self.round_actions(side, &mut buf),
            Phase::Replacement { player, enemy } => {
                let needed = match side {
                    Side::Player => player,
                    Side::Enemy => enemy,
                };
                if needed {
                    self.push_switches(side, &mut buf);
                    if side == Side::Player && self.kind.is_wild() {
                        buf.push(Action::Run);
                    }
                } else {
                    buf.push(Action::Continue);
                }
            }
            Phase::Shift => {
                buf.push(Action::Continue);
                if side == Side::Player {
                    self.push_switches(side, &mut buf);
                }
            }
            Phase::Prompt => self.prompt_actions(side, &mut buf),
        }
        buf
    }

    /// Resolve one step with both sides' choices (a side that has nothing to choose passes
    /// [`Action::Continue`]). Illegal choices are refused without changing anything.
    pub fn submit(
        &mut self,
        rt: &Runtime,
        player: Action,
        enemy: Action,
    ) -> Result<(), BattleError> {
        if self.phase == Phase::Finished {
            return Err(BattleError::Finished);
        }
        self.check_legal(Side::Player, player)?;
        self.check_legal(Side::Enemy, enemy)?;
        self.submit_trusted(rt, player, enemy);
        Ok(())
    }

    /// [`Battle::submit`] for choices taken from [`Battle::legal_buf`] (the random player):
    /// the legality check is skipped (kept as a debug assertion).
    #[inline(always)]
    pub(crate) fn submit_trusted(&mut self, rt: &Runtime, player: Action, enemy: Action) {
        debug_assert!(self.is_legal(Side::Player, player) && self.is_legal(Side::Enemy, enemy));
        if self.phase == Phase::Finished {
            return;
        }
        self.start(rt);
        match self.phase {
            Phase::Round => self.run_round(rt, player, enemy),
            Phase::Replacement {
                player: p,
                enemy: e,
            } => self.run_replacement(rt, p.then_some(player), e.then_some(enemy)),
            Phase::Shift => self.run_shift(rt, player),
            Phase::Prompt => self.answer_prompt(rt, player),
            Phase::Finished => {}
        }
    }

    pub fn result(&self) -> Option<BattleResult> {
        self.result
    }

    /// Drain the queued presentation rows in order.
    pub fn rows(&mut self) -> std::vec::Drain<'_, Row> {
        self.rows.drain(..)
    }

    /// Queued rows without draining them.
    pub fn peek_rows(&self) -> &[Row] {
        &self.rows
    }

    /// Drop queued rows (headless runs).
    pub fn clear_rows(&mut self) {
        self.rows.clear();
    }

    /// The Gen 1 turn counter (rounds resolved so far).
    pub fn turn(&self) -> u32 {
        self.turn
    }

    pub fn kind(&self) -> &BattleKind {
        &self.kind
    }

    pub fn side(&self, side: Side) -> &SideState {
        &self.sides[side.idx()]
    }

    pub fn party(&self, side: Side) -> &[Pokemon] {
        &self.sides[side.idx()].party
    }

    /// Give the parties back (e.g. to store the player's party after the battle).
    pub fn into_parties(self) -> (Vec<Pokemon>, Vec<Pokemon>) {
        let [p, e] = self.sides;
        (p.party, e.party)
    }

    pub fn active(&self, side: Side) -> &Pokemon {
        self.sides[side.idx()].mon()
    }

    pub fn battler(&self, side: Side) -> &Battler {
        &self.sides[side.idx()].battler
    }

    pub fn field(&self) -> &Field {
        &self.field
    }

    pub fn field_mut(&mut self) -> &mut Field {
        &mut self.field
    }

    pub fn side_tokens_mut(&mut self, side: Side) -> &mut Vec<Token> {
        &mut self.sides[side.idx()].tokens
    }

    pub fn rng(&self) -> &R {
        &self.rng
    }

    pub fn data(&self) -> &'static Dataset {
        self.data
    }

    /// Money scattered by Pay Day so far.
    pub fn pay_day_money(&self) -> u32 {
        self.pay_day
    }

    /// The cartridge's choice for a trainer's replacement: the first healthy mon in party order.
    pub fn default_enemy_replacement(&self) -> Action {
        let s = &self.sides[Side::Enemy.idx()];
        match s.party.iter().position(|m| m.hp > 0) {
            Some(i) => Action::Switch(i as u8),
            None => Action::Continue,
        }
    }

    // ----- internals shared by the submodules ----------------------------------------------

    #[inline(always)]
    pub(crate) fn push(&mut self, row: Row) {
        if self.record_rows {
            self.rows.push(row);
        }
    }

    #[inline(always)]
    pub(crate) fn text(&mut self, m: Msg) {
        if self.record_rows {
            self.rows.push(Row::Text(m));
        }
    }

    #[inline(always)]
    pub(crate) fn who(&self, side: Side) -> Who {
        Who {
            side,
            slot: self.sides[side.idx()].active,
        }
    }

    #[inline(always)]
    pub(crate) fn bat(&self, side: Side) -> &Battler {
        &self.sides[side.idx()].battler
    }

    #[inline(always)]
    pub(crate) fn bat_mut(&mut self, side: Side) -> &mut Battler {
        &mut self.sides[side.idx()].battler
    }

    #[inline(always)]
    pub(crate) fn hp(&self, side: Side) -> u16 {
        self.sides[side.idx()].mon().hp
    }

    #[inline(always)]
    pub(crate) fn max_hp(&self, side: Side) -> u16 {
        self.sides[side.idx()].mon().stats.max_hp
    }

    fn push_switches(&self, side: Side, out: &mut ActionBuf) {
        let s = &self.sides[side.idx()];
        for (i, m) in s.party.iter().enumerate() {
            if m.hp > 0 && i != s.active as usize {
                out.push(Action::Switch(i as u8));
            }
        }
    }

    fn check_legal(&self, side: Side, action: Action) -> Result<(), BattleError> {
        if self.is_legal(side, action) {
            Ok(())
        } else {
            Err(BattleError::Illegal { side, action })
        }
    }

    /// Is `action` among [`Battle::legal_actions`] for `side` (or a player item in a round)?
    /// Decided directly, without building the list.
    pub fn is_legal(&self, side: Side, action: Action) -> bool {
        let s = &self.sides[side.idx()];
        let switch_ok = |i: u8| s.party.get(i as usize).is_some_and(|m| m.hp > 0) && i != s.active;
        match self.phase {
            Phase::Finished => false,
            Phase::Round => {
                let locked = self.locked(side);
                let menu = !locked && !self.no_move_choice(side);
                match action {
                    Action::Item(_) => side == Side::Player,
                    Action::Continue => !menu,
                    Action::Move(slot) => menu && self.move_usable(side, slot as usize),
                    Action::Struggle => menu && !(0..4).any(|i| self.move_usable(side, i)),
                    Action::Switch(i) => {
                        !locked && (side == Side::Player || !self.kind.is_wild()) && switch_ok(i)
                    }
                    Action::Run => !locked && side == Side::Player && self.kind.is_wild(),
                }
            }
            Phase::Replacement { player, enemy } => {
                let needed = if side == Side::Player { player } else { enemy };
                match action {
                    Action::Continue => !needed,
                    Action::Switch(i) => needed && switch_ok(i),
                    Action::Run => needed && side == Side::Player && self.kind.is_wild(),
                    _ => false,
                }
            }
            Phase::Shift => match action {
                Action::Continue => true,
                Action::Switch(i) => side == Side::Player && switch_ok(i),
                _ => false,
            },
            Phase::Prompt => self.prompt_legal(side, action),
        }
    }
}

impl<R: BattleRng> Names for Battle<R> {
    fn data(&self) -> &Dataset {
        self.data
    }
    fn mon_name(&self, side: Side, slot: u8) -> &str {
        self.sides[side.idx()]
            .party
            .get(slot as usize)
            .map(|m| m.display_name(self.data))
            .unwrap_or("?")
    }
    fn player_name(&self) -> &str {
        &self.player_name
    }
    fn trainer_name(&self) -> &str {
        match &self.kind {
            BattleKind::Wild => "",
            BattleKind::Trainer { name, .. } => name,
        }
    }
    fn mod_text(&self, index: u16) -> &str {
        self.mod_texts
            .get(index as usize)
            .map(String::as_str)
            .unwrap_or("")
    }
}
