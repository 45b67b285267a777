//! Script rows and the runner. A script is an ordered queue of rows; the runner executes rows
//! until one blocks (a text box waiting for A, a wait, a player move, a warp, an animation) and
//! resumes on a later tick. Rows are plain data (serde, `{"cmd": "wait", "ticks": 120}`), so
//! mods can contribute them later and checkpoints can capture a running script.

pub mod ops;

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use super::presentation::{PresentationRow, TextRef};
use super::types::Direction;
use super::{Overworld, WorldCtx};

/// One script row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "cmd", rename_all = "snake_case", deny_unknown_fields)]
pub enum ScriptRow {
    /// Show a text constant in a box; the script waits until the player closes it with A.
    Text {
        text: String,
    },
    /// Show a literal text (mods, fallbacks); waits like `text`.
    Say {
        literal: String,
    },
    /// Do nothing for `ticks` ticks.
    Wait {
        ticks: u32,
    },
    /// Walk the player `n` cells (collision applies; a blocked step ends the row).
    MovePlayer {
        dir: Direction,
        n: u32,
    },
    /// Turn the player (Lua command name `face_player_dir`).
    #[serde(rename = "face_player_dir")]
    FacePlayer {
        dir: Direction,
    },
    /// Warp with a transition; the script resumes on the new map after the fade-in.
    Warp {
        map: String,
        x: u32,
        y: u32,
        facing: Direction,
    },
    SetFlag {
        flag: String,
    },
    ClearFlag {
        flag: String,
    },
    /// Presentation rows: sound effect, music change, music stop.
    PlaySound {
        sound: String,
    },
    PlayMusic {
        music: String,
    },
    StopMusic,
    /// Replace one block of the active map.
    ReplaceBlock {
        bx: u32,
        by: u32,
        block: u32,
    },
    /// Start or stop surfing.
    SetSurfing {
        on: bool,
    },
    /// The S.S. Anne leaves Vermilion Dock: an animation that erases the ship blocks with water.
    SsAnneDeparts,
    /// Data map scripts (the Lua engine's op vocabulary, see docs/modding.md "Map scripts as
    /// data"): put `count` of `item` into the bag (applied by the game after the tick).
    GiveItem {
        item: String,
        count: u32,
    },
    /// A gift mon: the party, else a box (applied by the game after the tick).
    GivePokemon {
        species: String,
        level: u8,
    },
    /// Set the script's condition to whether `flag` is set.
    CheckFlag {
        flag: String,
    },
    /// Skip forward to the row after `label` (a missing label ends the script).
    Jump {
        label: String,
    },
    /// [`ScriptRow::Jump`] when the condition is set.
    JumpIfTrue {
        label: String,
    },
    /// [`ScriptRow::Jump`] when the condition is clear.
    JumpIfFalse {
        label: String,
    },
    /// A jump target; does nothing.
    Label {
        name: String,
    },
    /// End the script.
    End,
    /// An emotion bubble over NPC `npc` (`"!"`: a trainer saw the player); waits
    /// [`super::trainer_sight::EMOTE_TICKS`].
    Emote {
        npc: String,
        emote: String,
    },
    /// Walk NPC `npc` `n` cells (one step of [`super::overworld::STEP_TICKS`] each); a blocked
    /// cell ends the row.
    MoveNpc {
        npc: String,
        dir: Direction,
        n: u32,
    },
    /// Start the battle against trainer `class`/`index` (applied by the game after the tick,
    /// through `trainer.before_battle` and `trainer.party`).
    TrainerBattle {
        class: String,
        index: u16,
    },
    /// Show or hide map object `object` of `map` in the save (`toggleObject`); reloads `map`
    /// when it is active (see [`super::objects`]).
    ToggleObject {
        map: String,
        object: String,
        visible: bool,
    },
    /// A choice box (the Lua engine's `choice`, usually yes/no): the script waits for the
    /// player; A on the first option sets the condition, any other option or B clears it.
    Choice {
        options: Vec<String>,
    },
    /// A trainer battle the script waits for (the Lua engine's `start_battle`): the condition
    /// is set when the player wins, cleared on a loss or when the battle does not start.
    StartBattle {
        class: String,
        index: u16,
    },
    /// A wild battle the script waits for (`start_battle` with kind `"wild"`): the condition
    /// is set when the player wins, cleared when the player loses, runs, catches the mon, or
    /// the battle does not start.
    StartWildBattle {
        species: String,
        level: u8,
    },
    /// Set the condition to whether the last battle this script waited for ended with
    /// `result` (`"win"`, `"lose"`, `"ran"`, `"caught"`, `"draw"`; the Lua engine's
    /// `check_battle_result`). False when the script has not fought a battle.
    CheckBattleResult {
        result: String,
    },
    /// Add `amount` to the save's money (the game caps it at ¥999,999, as the cartridge does).
    GiveMoney {
        amount: u32,
    },
    /// Set the condition to whether the bag holds at least `count` of `item`.
    CheckItem {
        item: String,
        count: u32,
    },
    /// Remove `count` of `item` from the bag and set the condition; with fewer in the bag
    /// nothing is removed, the condition is cleared and a diagnostic names the item.
    TakeItem {
        item: String,
        count: u32,
    },
}

/// Something a script row hands to the game (the overworld does not own the bag or party).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Gift {
    Item {
        item: String,
        count: u32,
    },
    Pokemon {
        species: String,
        level: u8,
    },
    Money {
        amount: u32,
    },
    /// Not a gift: a trainer battle a script row starts ([`ScriptRow::TrainerBattle`]).
    TrainerBattle {
        class: String,
        index: u16,
    },
    /// Not a gift: a wild battle a script row starts ([`ScriptRow::StartWildBattle`]).
    WildBattle {
        species: String,
        level: u8,
    },
}

/// A queued script: where it came from (for the transcript and diagnostics) and its rows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Script {
    pub source: String,
    pub rows: VecDeque<ScriptRow>,
}

impl Script {
    pub fn new(source: impl Into<String>, rows: impl IntoIterator<Item = ScriptRow>) -> Script {
        Script {
            source: source.into(),
            rows: rows.into_iter().collect(),
        }
    }
}

/// What the current row waits for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RowWait {
    /// Text box with this id to close.
    Text(u64),
    /// Ticks left.
    Ticks(u32),
    /// The player's current step to finish, then `left` more steps in `dir`.
    Move { dir: Direction, left: u32 },
    /// The warp transition to finish.
    Warp,
    /// The map animation to finish.
    Animation,
    /// The choice box with this id to be answered (the answer sets the condition).
    Choice(u64),
    /// A battle the script started, until the game reports its end ([`Overworld::battle_finished`]).
    Battle,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Running {
    pub script: Script,
    pub wait: Option<RowWait>,
    /// The condition `check_flag` sets and `jump_if_true`/`jump_if_false` test.
    #[serde(default)]
    pub cond: bool,
    /// How the last battle this script waited for ended (`check_battle_result`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub battle_result: Option<String>,
}

/// The runner: at most one running script, plus scripts queued behind it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Runner {
    pub current: Option<Running>,
    pub pending: VecDeque<Script>,
}

impl Runner {
    /// Running or anything queued (`script_busy`).
    pub fn busy(&self) -> bool {
        self.current.is_some() || !self.pending.is_empty()
    }
}

/// Error text of `queue_script` when a script already runs (WorldAPI wording).
pub const SCRIPT_ALREADY_RUNNING: &str = "a script is already running";

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
                super::sites_flow::script_started(ctx.rt, &next.source, self.map.id());
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
                        super::sites_flow::script_ended(
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
                super::sites_flow::sound_played(ctx.rt, &sound, self.map.id());
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_plain_data() {
        let rows = vec![
            ScriptRow::FacePlayer {
                dir: Direction::Down,
            },
            ScriptRow::Wait { ticks: 120 },
            ScriptRow::PlaySound {
                sound: "SFX_SS_ANNE_HORN".into(),
            },
            ScriptRow::SsAnneDeparts,
            ScriptRow::Warp {
                map: "VERMILION_CITY".into(),
                x: 18,
                y: 31,
                facing: Direction::Up,
            },
            ScriptRow::StopMusic,
        ];
        let json = serde_json::to_string(&rows).unwrap();
        assert!(json.contains(r#"{"cmd":"wait","ticks":120}"#), "{json}");
        assert!(json.contains(r#"{"cmd":"ss_anne_departs"}"#), "{json}");
        assert!(
            json.contains(r#"{"cmd":"face_player_dir","dir":"down"}"#),
            "{json}"
        );
        let back: Vec<ScriptRow> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, rows);
        assert!(serde_json::from_str::<ScriptRow>(r#"{"cmd":"wait","ticks":1,"x":2}"#).is_err());
        assert!(serde_json::from_str::<ScriptRow>(r#"{"cmd":"explode"}"#).is_err());
    }
}
