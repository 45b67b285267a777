//! Save hooks: `save.write`, `save.new_game`.

use serde::{Deserialize, Serialize};

use super::int_in;
use crate::arg_list;
use crate::catalog::common::{Direction, GameInfo};
use crate::hooks::{Hook, HookId};
use crate::script::ScriptHook;
use crate::value::{Value, ValueError};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SaveWriteArgs {
    pub game: GameInfo,
}
arg_list!(SaveWriteArgs { game });

/// `save.write` — may the game write its save now? Vanilla answers `true` (write); exactly
/// `false` vetoes.
pub struct SaveWrite;

impl Hook for SaveWrite {
    const NAME: &'static str = "save.write";
    const ID: HookId = HookId(12);
    type Args = SaveWriteArgs;
    type Out = bool;
}

impl ScriptHook for SaveWrite {
    const SIGNATURE: &'static str = "(next, game) -> boolean";
    const RESULT_RULE: &'static str = "exactly `false` vetoes the write; anything else writes";
    fn out_from_value(value: Value) -> Result<bool, ValueError> {
        Ok(!matches!(value, Value::Bool(false)))
    }
}

// ----- save.new_game -------------------------------------------------------------------------

/// An item stack of the new-game state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ItemCount {
    pub id: String,
    pub count: u32,
}

/// Where a new game starts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StartPosition {
    pub map: String,
    pub x: i32,
    pub y: i32,
    pub facing: Direction,
}

/// The new-game state `save.new_game` reshapes: the parts of the save skeleton a mod may set.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NewGameState {
    pub money: u32,
    /// The bag, in order.
    pub inventory: Vec<ItemCount>,
    /// Bill's PC item storage, in order.
    pub pc_items: Vec<ItemCount>,
    pub player: StartPosition,
    /// Event flags set at the start (sorted).
    pub flags: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SaveNewGameArgs {
    pub game: GameInfo,
    pub save: NewGameState,
}
arg_list!(SaveNewGameArgs { game, save });

/// Most money a save holds.
pub const NEW_GAME_MAX_MONEY: i64 = 999_999;
/// Largest item stack.
pub const NEW_GAME_MAX_COUNT: i64 = 99;

fn item_rows(value: Option<&Value>, what: &str) -> Result<Vec<ItemCount>, ValueError> {
    let rows = match value {
        Some(Value::List(rows)) => rows.as_slice(),
        Some(Value::Map(m)) if m.is_empty() => &[],
        _ => {
            return Err(ValueError::new(format!(
                "{what} must be a list of {{id, count}}"
            )))
        }
    };
    rows.iter()
        .map(|row| {
            let id = match row.get("id") {
                Some(Value::Str(s)) if !s.is_empty() => s.clone(),
                _ => return Err(ValueError::new(format!("{what}: an item needs an id"))),
            };
            let count = int_in(
                row.get("count").unwrap_or(&Value::Nil),
                1,
                NEW_GAME_MAX_COUNT,
                "count",
            )?;
            Ok(ItemCount {
                id,
                count: count as u32,
            })
        })
        .collect()
}

/// `save.new_game` — the state a new game starts with (reference `SaveData.newGame`). Vanilla
/// is the cartridge's: ¥3000, an empty bag, one POTION in the PC, the player in their room.
pub struct SaveNewGame;

impl Hook for SaveNewGame {
    const NAME: &'static str = "save.new_game";
    const ID: HookId = HookId(30);
    type Args = SaveNewGameArgs;
    type Out = NewGameState;
}

impl ScriptHook for SaveNewGame {
    const SIGNATURE: &'static str = "(next, game, save) -> save";
    const RESULT_RULE: &'static str = "{money = 0..999999, inventory/pcItems = [{id, count = \
         1..99}], player = {map, x, y, facing}, flags = [name]}; anything else fails the link, \
         unknown items or maps and off-map cells are refused at the site";
    fn out_from_value(value: Value) -> Result<NewGameState, ValueError> {
        let money = int_in(
            value.get("money").unwrap_or(&Value::Nil),
            0,
            NEW_GAME_MAX_MONEY,
            "money",
        )? as u32;
        let inventory = item_rows(value.get("inventory"), "inventory")?;
        let pc_items = item_rows(value.get("pcItems"), "pcItems")?;
        let player = value
            .get("player")
            .ok_or_else(|| ValueError::new("save.new_game must return a player position"))?;
        let map = match player.get("map") {
            Some(Value::Str(s)) if !s.is_empty() => s.clone(),
            _ => return Err(ValueError::new("player.map must be a map id")),
        };
        let coord = |k: &str| {
            int_in(player.get(k).unwrap_or(&Value::Nil), 0, i32::MAX.into(), k).map(|v| v as i32)
        };
        let facing = match player.get("facing").and_then(Value::as_str) {
            Some("up") => Direction::Up,
            Some("down") => Direction::Down,
            Some("left") => Direction::Left,
            Some("right") => Direction::Right,
            _ => {
                return Err(ValueError::new(
                    "player.facing must be up, down, left or right",
                ))
            }
        };
        let mut flags = match value.get("flags") {
            Some(Value::List(rows)) => rows
                .iter()
                .map(|f| match f {
                    Value::Str(s) if !s.is_empty() => Ok(s.clone()),
                    _ => Err(ValueError::new("flags must be flag names")),
                })
                .collect::<Result<Vec<_>, _>>()?,
            Some(Value::Map(m)) if m.is_empty() => Vec::new(),
            None | Some(Value::Nil) => Vec::new(),
            _ => return Err(ValueError::new("flags must be a list of flag names")),
        };
        flags.sort();
        flags.dedup();
        Ok(NewGameState {
            money,
            inventory,
            pc_items,
            player: StartPosition {
                map,
                x: coord("x")?,
                y: coord("y")?,
                facing,
            },
            flags,
        })
    }
}
