//! The script runner: queues scripts on the overworld and executes their rows until one
//! blocks (a text box waiting for A, a wait, a player move, a warp, an animation), resuming on
//! a later tick. The rows themselves are data ([`crate::world::script`]).

use crate::world::presentation::{PresentationRow, TextRef};
use crate::world::script::{Gift, RowWait, Running, Script, ScriptRow, SCRIPT_ALREADY_RUNNING};

use super::{Overworld, WorldCtx};

enum RowKind {
    IfTrue,
    Other,
}

/// Upper bound on rows executed in one tick, so a script of instant rows cannot stall a tick.
const MAX_ROWS_PER_TICK: usize = 256;

impl Overworld {
    /// Queue `script` behind whatever runs (map scripts use this).
    pub fn enqueue_script(&mut self, script: Script) {
        self.runner.pending.push_back(script);
    }

    /// Start `script` now; refused while another script runs or waits (mod-facing rule).
    pub fn queue_script(&mut self, script: Script) -> Result<(), &'static str> {
        if self.runner.busy() {
            return Err(SCRIPT_ALREADY_RUNNING);
        }
        self.runner.pending.push_back(script);
        Ok(())
    }

    /// Advance the runner by one tick: finish or continue the blocking row, then run rows until
    /// one blocks or the script ends.
    pub(super) fn advance_runner(&mut self, ctx: &mut WorldCtx<'_>) {
        for _ in 0..MAX_ROWS_PER_TICK {
            if self.runner.current.is_none() {
                let Some(next) = self.runner.pending.pop_front() else {
                    return;
                };
                ctx.show(PresentationRow::ScriptStarted {
                    source: next.source.clone(),
                });
                crate::world::sites_flow::script_started(ctx.rt, &next.source, self.map.id());
                self.runner.current = Some(Running {
                    script: next,
                    wait: None,
                    cond: false,
                    battle_result: None,
                });
            }
            if !self.settle_wait(ctx) {
                return;
            }
            let row = match self
                .runner
                .current
                .as_mut()
                .and_then(|r| r.script.rows.pop_front())
            {
                Some(row) => row,
                None => {
                    if let Some(done) = self.runner.current.take() {
                        crate::world::sites_flow::script_ended(
                            ctx.rt,
                            &done.script.source,
                            self.map.id(),
                            true,
                        );
                        ctx.show(PresentationRow::ScriptEnded {
                            source: done.script.source,
                        });
                    }
                    continue;
                }
            };
            let wait = super::sites_hooks::script_command(self, row, ctx);
            if let Some(r) = self.runner.current.as_mut() {
                r.wait = wait;
            }
            if self
                .runner
                .current
                .as_ref()
                .is_some_and(|r| r.wait.is_some())
            {
                return;
            }
        }
    }

    /// Is the current row's wait over? Advances tick waits and multi-cell moves.
    fn settle_wait(&mut self, ctx: &mut WorldCtx<'_>) -> bool {
        let Some(wait) = self.runner.current.as_ref().and_then(|r| r.wait.clone()) else {
            return true;
        };
        let next = match wait {
            RowWait::Text(id) => {
                if self.screen_open(id) {
                    Some(RowWait::Text(id))
                } else {
                    None
                }
            }
            RowWait::Ticks(n) => {
                let n = n.saturating_sub(1);
                (n > 0).then_some(RowWait::Ticks(n))
            }
            RowWait::Move { dir, left } => {
                if self.movement.is_some() {
                    Some(RowWait::Move { dir, left })
                } else if left == 0 {
                    None
                } else if self.try_start_move(dir, true, ctx) {
                    Some(RowWait::Move {
                        dir,
                        left: left - 1,
                    })
                } else {
                    None
                }
            }
            RowWait::Warp => self.transition.is_some().then_some(RowWait::Warp),
            RowWait::Animation => self.animation.is_some().then_some(RowWait::Animation),
            RowWait::Choice(id) => self.screen_open(id).then_some(RowWait::Choice(id)),
            RowWait::Battle => Some(RowWait::Battle),
        };
        let done = next.is_none();
        if let Some(r) = self.runner.current.as_mut() {
            r.wait = next;
        }
        done
    }

    /// Execute one row; returns what it now waits for.
    /// Drop rows up to and including `label` (forward only); without it the script ends.
    fn jump_to(&mut self, label: &str) {
        let Some(r) = self.runner.current.as_mut() else {
            return;
        };
        while let Some(row) = r.script.rows.pop_front() {
            if matches!(&row, ScriptRow::Label { name } if name == label) {
                return;
            }
        }
        let source = r.script.source.clone();
        self.diagnostic(format!(
            "{source}: no label {label:?} ahead; the script ends"
        ));
    }

    /// Gifts script rows handed out since the last call (the game applies them).
    pub fn take_gifts(&mut self) -> Vec<Gift> {
        std::mem::take(&mut self.gifts)
    }

    pub(super) fn exec_row(&mut self, row: ScriptRow, ctx: &mut WorldCtx<'_>) -> Option<RowWait> {
        let row_kind = match &row {
            ScriptRow::JumpIfTrue { .. } => RowKind::IfTrue,
            _ => RowKind::Other,
        };
        match row {
            ScriptRow::Text { text } => Some(RowWait::Text(self.open_text(
                TextRef::Const(text),
                None,
                ctx,
            ))),
            ScriptRow::Say { literal } => {
                let literal = super::script_items::with_names(literal, ctx.names);
                Some(RowWait::Text(self.open_text(
                    TextRef::Literal(literal),
                    None,
                    ctx,
                )))
            }
            ScriptRow::Wait { ticks } => (ticks > 0).then_some(RowWait::Ticks(ticks)),
            ScriptRow::MovePlayer { dir, n } => {
                if n == 0 {
                    return None;
                }
                if self.try_start_move(dir, true, ctx) {
                    Some(RowWait::Move { dir, left: n - 1 })
                } else {
                    None
                }
            }
            ScriptRow::FacePlayer { dir } => {
                self.face(dir, ctx);
                None
            }
            ScriptRow::Warp { map, x, y, facing } => match self.start_warp(&map, x, y, facing, ctx)
            {
                Ok(()) => Some(RowWait::Warp),
                Err(e) => {
                    self.diagnostic(format!("script warp: {e}"));
                    None
                }
            },
            ScriptRow::SetFlag { flag } => {
                self.set_flag(&flag, true, ctx);
                None
            }
            ScriptRow::ClearFlag { flag } => {
                self.set_flag(&flag, false, ctx);
                None
            }
            ScriptRow::PlaySound { sound } => {
                crate::world::sites_flow::sound_played(ctx.rt, &sound, self.map.id());
                ctx.show(PresentationRow::Sound { id: sound });
                None
            }
            ScriptRow::PlayMusic { music } => {
                self.play_music(&music, ctx);
                None
            }
            ScriptRow::StopMusic => {
                self.stop_music(ctx);
                None
            }
            ScriptRow::ReplaceBlock { bx, by, block } => {
                if let Err(e) = self.replace_block(bx, by, block, ctx) {
                    self.diagnostic(format!("script replace_block: {e}"));
                }
                None
            }
            ScriptRow::SetSurfing { on } => {
                self.set_surfing(on, ctx);
                None
            }
            ScriptRow::ToggleObject {
                map,
                object,
                visible,
            } => {
                if let Err(e) = self.toggle_object(&map, &object, visible, ctx) {
                    self.diagnostic(format!("script toggle_object: {e}"));
                }
                None
            }
            ScriptRow::GiveItem { item, count } => {
                self.gifts.push(Gift::Item { item, count });
                None
            }
            ScriptRow::GivePokemon { species, level } => {
                self.gifts.push(Gift::Pokemon { species, level });
                None
            }
            ScriptRow::StartBattle { class, index } => {
                self.gifts.push(Gift::TrainerBattle { class, index });
                Some(RowWait::Battle)
            }
            ScriptRow::StartWildBattle { species, level } => {
                self.gifts.push(Gift::WildBattle { species, level });
                Some(RowWait::Battle)
            }
            ScriptRow::GiveMoney { amount } => {
                self.gifts.push(Gift::Money { amount });
                None
            }
            ScriptRow::CheckBattleResult { result } => {
                if let Some(r) = self.runner.current.as_mut() {
                    r.cond = r.battle_result.as_deref() == Some(result.as_str());
                }
                None
            }
            ScriptRow::CheckFlag { flag } => {
                let on = ctx.flags.flag(&flag);
                if let Some(r) = self.runner.current.as_mut() {
                    r.cond = on;
                }
                None
            }
            ScriptRow::Jump { label } => {
                self.jump_to(&label);
                None
            }
            ScriptRow::JumpIfTrue { label } | ScriptRow::JumpIfFalse { label } => {
                let want = matches!(row_kind, RowKind::IfTrue);
                if self.runner.current.as_ref().is_some_and(|r| r.cond == want) {
                    self.jump_to(&label);
                }
                None
            }
            ScriptRow::Label { .. } => None,
            ScriptRow::End => {
                if let Some(r) = self.runner.current.as_mut() {
                    r.script.rows.clear();
                }
                None
            }
            ScriptRow::SsAnneDeparts => {
                self.start_ship_departure(ctx);
                Some(RowWait::Animation)
            }
            ScriptRow::Choice { options } => Some(RowWait::Choice(self.open_choice(options, ctx))),
            ScriptRow::CheckItem { item, count } => {
                let on = super::script_items::bag_count(ctx, &item) >= count;
                self.set_cond(on);
                None
            }
            ScriptRow::TakeItem { item, count } => {
                let on = super::script_items::take_from_bag(ctx, &item, count);
                if !on {
                    self.diagnostic(format!(
                        "take_item: the bag has fewer than {count} {item}; nothing taken"
                    ));
                }
                self.set_cond(on);
                None
            }
            row @ (ScriptRow::Emote { .. }
            | ScriptRow::MoveNpc { .. }
            | ScriptRow::TrainerBattle { .. }) => self.exec_trainer_row(row, ctx),
        }
    }
}
