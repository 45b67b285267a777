//! Save hooks: `save.write`.

use serde::{Deserialize, Serialize};

use crate::arg_list;
use crate::catalog::common::GameInfo;
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
