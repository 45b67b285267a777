//! Rounds: the legal actions, the opening send-outs, switching, running, turn order (switches
//! first, Quick Attack / Counter priority, Speed, a random tie), the Gen 1 residual right after
//! each side's action (as on the cartridge) and the end of the round (status residual
//! sweep → RFC 0016 field residual slot → side/field token ticks → `battle.turn_ended`).

use pallet_api::Runtime;

use crate::data::MoveId;
use crate::pokemon::Status;

use super::effects::{COUNTER, QUICK_ATTACK, STRUGGLE};
use super::exec::MoveEnd;
use super::prompt::Resume;
use super::rows::{Msg, Row, Sound, Who};
use super::state::{flag, tick_tokens, Battler, NEUTRAL_STAGE};
use super::{sites, Action, Battle, BattleKind, BattleResult, BattleRng, Phase, Side};

/// One side's choices for a round as masks (see [`Battle::round_choices`]); `nth` gives the
/// action at an index of the listing without building it. Counts are kept next to the masks
/// (no population count in the hot loop).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RoundChoices {
    /// Usable move slots, bit per slot; 0: `head` stands in their place.
    moves: u8,
    n_moves: u8,
    /// Struggle (no usable move) or Continue (no move menu this round).
    head: Action,
    /// Party slots that can be switched in, bit per slot.
    switches: u8,
    n_switches: u8,
    run: bool,
}

impl RoundChoices {
    #[inline]
    pub(crate) fn len(&self) -> u32 {
        u32::from(self.n_moves.max(1)) + u32::from(self.n_switches) + u32::from(self.run)
    }

    /// The `k`-th action of the listing (`k < len()`).
    #[inline]
    pub(crate) fn nth(&self, mut k: u32) -> Action {
        if self.n_moves != 0 {
            let n = u32::from(self.n_moves);
            if k < n {
                return Action::Move(nth_bit(self.moves, k));
            }
            k -= n;
        } else {
            if k == 0 {
                return self.head;
            }
            k -= 1;
        }
        if k < u32::from(self.n_switches) {
            return Action::Switch(nth_bit(self.switches, k));
        }
        if self.run {
            Action::Run
        } else {
            Action::Continue
        }
    }
}

/// Index of the `k`-th set bit of `mask` (counting from bit 0).
#[inline]
fn nth_bit(mut mask: u8, k: u32) -> u8 {
    for _ in 0..k {
        mask &= mask.wrapping_sub(1);
    }
    mask.trailing_zeros() as u8
}

/// Whether a round goes on after one side's turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flow {
    /// On to the other side's turn.
    Go,
    /// The round stops (a faint, an escape, a decided battle): the end of the round follows.
    Stop,
    /// The step stopped at a prompt.
    Ask,
}

impl<R: BattleRng> Battle<R> {
    // ----- opening ------------------------------------------------------------------------

    /// Send out both first mons (the first healthy one of each party).
    pub(crate) fn open(&mut self) {
        self.sanitize_parties();
        let enemy_first = self.sides[1].party.iter().position(|m| m.hp > 0);
        let player_first = self.sides[0].party.iter().position(|m| m.hp > 0);
        match &self.kind {
            BattleKind::Wild => {}
            BattleKind::Trainer { .. } => self.text(Msg::TrainerWantsToFight),
        }
        let (Some(e), Some(p)) = (enemy_first, player_first) else {
            // A side with nothing to send: the battle is decided before it starts.
            self.result = Some(if player_first.is_none() {
                BattleResult::Lose
            } else {
                BattleResult::Win
            });
            self.phase = Phase::Finished;
            return;
        };
        if self.kind.is_wild() {
            self.load_battler(Side::Enemy, e as u8);
            self.text(Msg::WildAppeared {
                mon: Who {
                    side: Side::Enemy,
                    slot: e as u8,
                },
            });
        } else {
            self.send_out(Side::Enemy, e as u8);
        }
        self.send_out(Side::Player, p as u8);
    }

    /// Drop move ids and species the dataset does not know (no input may panic the engine):
    /// unknown moves are removed, a mon of an unknown species counts as fainted.
    fn sanitize_parties(&mut self) {
        let data = self.data;
        for s in &mut self.sides {
            s.party.truncate(6);
            for m in &mut s.party {
                if data.get_species(m.species).is_none() {
                    m.hp = 0;
                }
                for slot in 0..4 {
                    if let Some(id) = m.moves[slot] {
                        if data.get_move(id).is_none() || id.0 == 0 {
                            m.moves[slot] = None;
                            m.pp[slot] = 0;
                        }
                    }
                }
                m.hp = m.hp.min(m.stats.max_hp);
            }
        }
    }

    /// `LoadBattleMonFromParty` / `LoadEnemyMonFromParty`: a fresh battle copy of party slot
    /// `slot` (stages neutral, volatile state cleared, paralysis/burn penalties applied).
    pub(crate) fn load_battler(&mut self, side: Side, slot: u8) {
        let data = self.data;
        let st = &mut self.sides[side.idx()];
        st.active = slot;
        let mon = &st.party[slot as usize];
        let types = data
            .get_species(mon.species)
            .map(|s| s.types)
            .unwrap_or(st.battler.types);
        let old = st.battler;
        let mut b = Battler::empty();
        b.slot = slot;
        b.species = mon.species;
        b.types = types;
        b.level = mon.level;
        b.stats = [mon.stats.atk, mon.stats.def, mon.stats.spe, mon.stats.spc];
        b.unmod = b.stats;
        b.stages = [NEUTRAL_STAGE; 6];
        b.moves = mon.moves;
        b.pp = mon.pp;
        // The chosen move survives a switch (the cartridge does not reset it; Counter and the
        // Quick Attack order check read it).
        b.selected = old.selected;
        b.move_slot = old.move_slot;
        // So does the loaded move data (Counter reads the opponent's).
        b.cur = old.cur;
        st.battler = b;
        st.screens = Default::default();
        st.faint_queued = false;
        self.quarter_speed_own(side);
        self.halve_attack_own(side);
        // Sending out clears both sides' "last used move" and the opponent's trapping.
        self.bat_mut(Side::Player).used = None;
        self.bat_mut(Side::Enemy).used = None;
        self.bat_mut(side.other()).clear(flag::TRAPPING);
        if side == Side::Player {
            self.sides[0].participants |= 1 << slot;
        }
    }

    fn quarter_speed_own(&mut self, s: Side) {
        if self.status(s) == Status::Paralysis {
            let b = self.bat_mut(s);
            b.stats[2] = (b.stats[2] >> 2).max(1);
        }
    }

    fn halve_attack_own(&mut self, s: Side) {
        if self.status(s) == Status::Burn {
            let b = self.bat_mut(s);
            b.stats[0] = (b.stats[0] >> 1).max(1);
        }
    }

    /// Send out party slot `slot` with its text, row and cry.
    pub(crate) fn send_out(&mut self, side: Side, slot: u8) {
        self.load_battler(side, slot);
        let w = Who { side, slot };
        self.text(Msg::SentOut { mon: w });
        self.push(Row::SendOut(w));
        let species = self.sides[side.idx()].party[slot as usize].species;
        self.push(Row::Sound(Sound::Cry(species)));
    }

    /// Withdraw the active mon and send out `slot`.
    pub(crate) fn switch_in(&mut self, side: Side, slot: u8) {
        let w = self.who(side);
        self.text(Msg::Withdrew { mon: w });
        self.push(Row::Withdraw(w));
        self.send_out(side, slot);
    }

    // ----- legal actions ------------------------------------------------------------------

    /// Locked into its action this round (no menu at all on the cartridge).
    pub(crate) fn locked(&self, side: Side) -> bool {
        let b = self.bat(side);
        b.has(flag::RECHARGE | flag::RAGE | flag::THRASHING | flag::CHARGING)
    }

    /// Can the move in `slot` be chosen (known, not disabled, PP left where PP is tracked)?
    #[inline]
    pub(crate) fn move_usable(&self, side: Side, slot: usize) -> bool {
        let b = self.bat(side);
        slot < 4
            && b.moves[slot].is_some()
            && !b.is_disabled(slot)
            && (!self.pp_tracked(side) || b.pp[slot] > 0)
    }

    /// The move menu is skipped this round (the mon still may switch or run).
    pub(crate) fn no_move_choice(&self, side: Side) -> bool {
        let b = self.bat(side);
        let asleep = matches!(self.status(side), Status::Sleep(n) if n & 7 != 0);
        asleep
            || self.status(side) == Status::Freeze
            || b.has(flag::STORING_ENERGY | flag::TRAPPING)
            || self.bat(side.other()).has(flag::TRAPPING)
    }

    /// A side's round choices as bit masks, in the listing order of
    /// [`Battle::legal_actions`]: usable moves (or Struggle / Continue), switches, Run.
    #[inline]
    pub(crate) fn round_choices(&self, side: Side) -> RoundChoices {
        if self.locked(side) {
            return RoundChoices {
                moves: 0,
                n_moves: 0,
                head: Action::Continue,
                switches: 0,
                n_switches: 0,
                run: false,
            };
        }
        let (moves, n_moves, head) = if self.no_move_choice(side) {
            (0, 0, Action::Continue)
        } else {
            let b = self.bat(side);
            let check_pp = self.pp_tracked(side);
            let (mut mask, mut n) = (0u8, 0u8);
            for slot in 0..4 {
                let usable = b.moves[slot].is_some()
                    && !b.is_disabled(slot)
                    && (!check_pp || b.pp[slot] > 0);
                mask |= u8::from(usable) << slot;
                n += u8::from(usable);
            }
            (mask, n, Action::Struggle)
        };
        let wild = self.kind.is_wild();
        let (switches, n_switches) = if side == Side::Player || !wild {
            let s = &self.sides[side.idx()];
            let (mut mask, mut n) = (0u8, 0u8);
            for (i, m) in s.party.iter().take(8).enumerate() {
                let ok = m.hp > 0 && i != usize::from(s.active);
                mask |= u8::from(ok) << i;
                n += u8::from(ok);
            }
            (mask, n)
        } else {
            (0, 0)
        };
        RoundChoices {
            moves,
            n_moves,
            head,
            switches,
            n_switches,
            run: side == Side::Player && wild,
        }
    }

    pub(crate) fn round_actions(&self, side: Side, out: &mut super::ActionBuf) {
        let c = self.round_choices(side);
        for k in 0..c.len() {
            out.push(c.nth(k));
        }
    }

    /// Record a side's move choice (the cartridge's `w*SelectedMove`).
    fn select(&mut self, side: Side, action: Action) {
        match action {
            Action::Move(slot) => {
                let b = self.bat_mut(side);
                b.selected = b.moves[slot as usize & 3];
                b.move_slot = slot & 3;
            }
            Action::Struggle => self.bat_mut(side).selected = Some(MoveId(STRUGGLE)),
            // Trapped by the opponent: nothing is selected ($FF). Otherwise the previous
            // selection stays (charging, thrashing, raging, recharging, Bide, asleep…).
            Action::Continue
                if self.bat(side.other()).has(flag::TRAPPING) && !self.locked(side) =>
            {
                let asleep = matches!(self.status(side), Status::Sleep(n) if n & 7 != 0);
                let own = self.bat(side).has(flag::STORING_ENERGY | flag::TRAPPING);
                if !asleep && self.status(side) != Status::Freeze && !own {
                    self.bat_mut(side).selected = None;
                }
            }
            _ => {}
        }
    }

    // ----- the round ----------------------------------------------------------------------

    pub(crate) fn run_round(&mut self, rt: &Runtime, pa: Action, ea: Action) {
        self.turn += 1;
        for s in &mut self.sides {
            s.acted_outside_moves = false;
        }
        // The cartridge clears both flinch flags at the top of the loop, unless the player is
        // raging or must recharge.
        if !self.bat(Side::Player).has(flag::RAGE | flag::RECHARGE) {
            self.bat_mut(Side::Player).clear(flag::FLINCHED);
            self.bat_mut(Side::Enemy).clear(flag::FLINCHED);
        }
        self.select(Side::Player, pa);
        self.select(Side::Enemy, ea);
        super::sites_flow::turn_started(self, rt);

        // Menu-time actions: the player's first, then the enemy's switch.
        match pa {
            Action::Run => {
                self.sides[0].acted_outside_moves = true;
                if self.try_run(rt, false) {
                    self.finish(rt, BattleResult::Ran);
                    return;
                }
            }
            Action::Switch(slot) => {
                self.sides[0].acted_outside_moves = true;
                let from = self.sides[0].active;
                self.switch_in(Side::Player, slot);
                super::sites_flow::battler_switched(self, rt, Side::Player, Some(from));
            }
            Action::Item(item) => {
                self.sides[0].acted_outside_moves = true;
                self.use_item(rt, item);
                if self.result.is_some() {
                    self.finish_if_decided(rt);
                    return;
                }
                // A catch's EXP award waits at a learn prompt; its answer ends the battle.
                if self.phase == Phase::Prompt {
                    return;
                }
            }
            _ => {}
        }
        if let Action::Switch(slot) = ea {
            self.sides[1].acted_outside_moves = true;
            let from = self.sides[1].active;
            self.switch_in(Side::Enemy, slot);
            super::sites_flow::battler_switched(self, rt, Side::Enemy, Some(from));
        }

        let first = super::sites_rules::turn_order(self, rt);
        self.turns_from(rt, first, Some(first.other()));
    }

    /// `s`'s turn, then `next`'s if the round goes on, then the end of the round. A prompt
    /// stops it (recording where it continues).
    fn turns_from(&mut self, rt: &Runtime, s: Side, next: Option<Side>) {
        let flow = self.side_turn(rt, s);
        self.after_turn(rt, s, next, flow);
    }

    /// Continue the round after `s`'s turn ended with `flow`.
    pub(crate) fn after_turn(&mut self, rt: &Runtime, s: Side, next: Option<Side>, flow: Flow) {
        match flow {
            Flow::Ask => {
                let then = if self.asking_in_faints() {
                    Resume::EndOfRound
                } else {
                    Resume::AfterMove { side: s, next }
                };
                self.resume_with(then);
                return;
            }
            Flow::Go => {
                if let Some(n) = next {
                    return self.turns_from(rt, n, None);
                }
            }
            Flow::Stop => {}
        }
        self.end_of_round(rt);
    }

    /// Who moves first: Quick Attack, then Counter (last), then Speed, then a coin flip.
    pub(crate) fn first_mover(&mut self) -> Side {
        let ps = self.bat(Side::Player).selected.map(|m| m.0);
        let es = self.bat(Side::Enemy).selected.map(|m| m.0);
        let pq = ps == Some(QUICK_ATTACK);
        let eq = es == Some(QUICK_ATTACK);
        if pq != eq {
            return if pq { Side::Player } else { Side::Enemy };
        }
        if !pq {
            let pc = ps == Some(COUNTER);
            let ec = es == Some(COUNTER);
            if pc != ec {
                return if pc { Side::Enemy } else { Side::Player };
            }
        }
        let p = self.bat(Side::Player).stats[2];
        let e = self.bat(Side::Enemy).stats[2];
        if p != e {
            return if p > e { Side::Player } else { Side::Enemy };
        }
        if self.rng.byte() < 0x80 {
            Side::Player
        } else {
            Side::Enemy
        }
    }

    /// One side's action and its residual: whether the round goes on.
    // Kept out of line in every build (with and without the hook sites), so both builds share
    // one shape of the round (the guards are the only difference).
    #[inline(never)]
    fn side_turn(&mut self, rt: &Runtime, s: Side) -> Flow {
        if self.result.is_some() {
            return Flow::Stop;
        }
        if self.hp(s) == 0 || self.hp(s.other()) == 0 {
            // Every path that empties an HP bar is followed by the faint step; this is a guard.
            return self.faints_stop(rt);
        }
        let end = super::sites_flow::execute_move(self, rt, s);
        if self.phase == Phase::Prompt {
            return Flow::Ask; // the player's Mimic menu
        }
        self.after_move(rt, s, end)
    }

    /// The rest of `s`'s turn after its move executor: the escape or the target's faint, else
    /// `s`'s own residual.
    pub(crate) fn after_move(&mut self, rt: &Runtime, s: Side, end: MoveEnd) -> Flow {
        match end {
            MoveEnd::Escaped => {
                self.finish(rt, BattleResult::Ran);
                return Flow::Stop;
            }
            MoveEnd::TargetFainted => return self.faints_stop(rt),
            MoveEnd::Normal => {}
        }
        if self.residual(s) {
            return self.faints_stop(rt);
        }
        Flow::Go
    }

    /// Resolve faints; the round stops (or waits on a learn prompt).
    fn faints_stop(&mut self, rt: &Runtime) -> Flow {
        self.resolve_faints(rt);
        if self.phase == Phase::Prompt {
            Flow::Ask
        } else {
            Flow::Stop
        }
    }

    /// `HandlePoisonBurnLeechSeed` for side `s`, right after its action (Gen 1 residual timing).
    /// Returns true when `s`'s mon is at 0 HP afterwards (a self-KO counts too).
    pub(crate) fn residual(&mut self, s: Side) -> bool {
        let o = s.other();
        if self.hp(s) == 0 {
            return true;
        }
        if self.result.is_some() || self.hp(o) == 0 {
            return false;
        }
        let w = self.who(s);
        match self.status(s) {
            Status::Poison | Status::Burn => {
                let m = if self.status(s) == Status::Burn {
                    Msg::HurtByBurn { mon: w }
                } else {
                    Msg::HurtByPoison { mon: w }
                };
                self.text(m);
                self.residual_drain(s);
            }
            _ => {}
        }
        if self.bat(s).has(flag::SEEDED) {
            let amount = self.residual_drain(s);
            let ohp = self.hp(o);
            self.change_hp(o, ohp.saturating_add(amount));
            self.text(Msg::LeechSeedSaps { mon: w });
        }
        self.hp(s) == 0
    }

    /// `HandlePoisonBurnLeechSeed_DecreaseOwnHP`: max HP / 16 (at least 1), times the Toxic
    /// counter (which it advances) when badly poisoned — Leech Seed shares the counter.
    /// Returns the computed amount (not capped by the HP left, as on the cartridge).
    fn residual_drain(&mut self, s: Side) -> u16 {
        let mut dmg = (self.max_hp(s) >> 4).max(1);
        let b = self.bat_mut(s);
        if b.has(flag::TOXIC) {
            b.toxic_counter = b.toxic_counter.wrapping_add(1);
            dmg = dmg.wrapping_mul(u16::from(b.toxic_counter));
        }
        let hp = self.hp(s);
        self.change_hp(s, hp.saturating_sub(dmg));
        dmg
    }

    /// End of the round: status residual sweep, the RFC 0016 field residual slot, side and field
    /// token ticks, `battle.turn_ended`.
    #[inline(never)]
    pub(crate) fn end_of_round(&mut self, rt: &Runtime) {
        if self.result.is_some() {
            sites::turn_ended(self, rt);
            return;
        }
        // 1. Status residual sweep slot: under Gen 1 rules the poison/burn/seed residuals ran
        //    after each action; what is left here is `CheckNumAttacksLeft` for standing mons.
        for s in [Side::Player, Side::Enemy] {
            if self.hp(s) > 0 {
                let b = self.bat_mut(s);
                if b.attacks_left == 0 {
                    b.clear(flag::TRAPPING);
                }
            }
        }
        // 2. RFC 0016 `battle.field_residual` (field_residual.rs): rows applied, then faints
        //    (which may stop at a learn prompt: the rest runs once it is answered).
        self.field_residual_slot(rt);
        if self.phase == Phase::Prompt {
            self.resume_with(Resume::AfterFieldSlot);
            return;
        }
        self.end_of_round_after_field(rt);
    }

    /// The end of the round after the field-residual slot: the draw limit, token ticks,
    /// `battle.turn_ended`.
    #[inline]
    pub(crate) fn end_of_round_after_field(&mut self, rt: &Runtime) {
        if self.result.is_some() {
            sites::turn_ended(self, rt);
            return;
        }
        if self.turn_limit.is_some_and(|limit| self.turn >= limit) {
            self.finish(rt, BattleResult::Draw);
            sites::turn_ended(self, rt);
            return;
        }
        // 3. Token ticks: side 1, side 2, then the field.
        let [p, e] = &mut self.sides;
        for list in [&mut p.tokens, &mut e.tokens, &mut self.field.tokens] {
            if !list.is_empty() {
                tick_tokens(list);
            }
        }
        // 4.
        sites::turn_ended(self, rt);
    }

    // ----- running ------------------------------------------------------------------------

    /// `TryRunningFromBattle`. `use_next_prompt`: the "Use next POKéMON? NO" path, which reads
    /// the first party mon's Speed.
    pub(crate) fn try_run(&mut self, rt: &Runtime, use_next_prompt: bool) -> bool {
        if !self.kind.is_wild() {
            self.text(Msg::NoRunning);
            return false;
        }
        self.run_attempts = self.run_attempts.wrapping_add(1);
        // `battle.run` may decide; vanilla is the cartridge's formula below.
        let escaped = super::sites_rules::run(self, rt, use_next_prompt);
        if escaped {
            self.push(Row::Sound(Sound::Run));
            self.text(Msg::GotAway);
        } else {
            self.text(Msg::CantEscape);
        }
        escaped
    }

    /// The Speeds `TryRunningFromBattle` compares: the active battler's (or, on the "Use next
    /// POKéMON? NO" path, the first party mon's) against the enemy's.
    pub(crate) fn escape_speeds(&self, use_next_prompt: bool) -> (u16, u16) {
        let ps = if use_next_prompt {
            self.sides[0]
                .party
                .first()
                .map(|m| m.stats.spe)
                .unwrap_or(0)
        } else {
            self.bat(Side::Player).stats[2]
        };
        (ps, self.bat(Side::Enemy).stats[2])
    }

    /// The cartridge's escape roll for this attempt (`run_attempts` already counted): faster
    /// or equal always escapes, else `ps * 32 / (es / 4)` plus 30 per earlier attempt against a
    /// random byte.
    pub(crate) fn escape_roll(&mut self, use_next_prompt: bool) -> bool {
        let (ps, es) = self.escape_speeds(use_next_prompt);
        if ps >= es {
            true
        } else {
            let divisor = (es >> 2) & 0xFF;
            if divisor == 0 {
                true
            } else {
                let q = u32::from(ps.wrapping_mul(32)) / u32::from(divisor);
                if q > 255 {
                    true
                } else {
                    let mut q = q as u8;
                    let mut over = false;
                    for _ in 1..self.run_attempts {
                        let (v, c) = q.overflowing_add(30);
                        q = v;
                        if c {
                            over = true;
                            break;
                        }
                    }
                    over || self.rng.byte() <= q
                }
            }
        }
    }

    // ----- items ---------------------------------------------------------------------------

    /// A bag item used as the player's action. Poké Balls go to the capture path; medicine
    /// acts on the chosen party mon (see `bag`).
    pub(crate) fn use_item(&mut self, rt: &Runtime, item: crate::data::ItemId) {
        let ball = self
            .data
            .get_item(item)
            .and_then(|i| super::capture::Ball::from_item_id(i.id));
        match ball {
            Some(ball) => {
                self.throw_ball(rt, item, ball);
            }
            None => {
                let effect = self
                    .data
                    .get_item(item)
                    .map_or(crate::items::ItemEffect::None, crate::items::ItemEffect::of);
                self.use_bag_item(rt, effect);
            }
        }
    }

    // ----- ending --------------------------------------------------------------------------

    /// Decide the battle: result, rows, `battle.ended`.
    pub(crate) fn finish(&mut self, rt: &Runtime, result: BattleResult) {
        if self.phase == Phase::Finished {
            return;
        }
        self.result = Some(result);
        self.phase = Phase::Finished;
        sites::battle_ended(self, rt);
    }

    pub(crate) fn finish_if_decided(&mut self, rt: &Runtime) {
        if let Some(r) = self.result {
            self.finish(rt, r);
        }
    }
}
