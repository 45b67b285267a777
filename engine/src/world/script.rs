//! Script rows and the runner. A script is an ordered queue of rows; the runner executes rows
//! until one blocks (a text box waiting for A, a wait, a player move, a warp, an animation) and
//! resumes on a later tick. Rows are plain data (serde, `{"cmd": "wait", "ticks": 120}`), so
//! mods can contribute them later and checkpoints can capture a running script.

pub mod ops;

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use super::types::Direction;

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
