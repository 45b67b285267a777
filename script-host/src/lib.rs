//! Rhai host and the `pallet` CLI. See `README.md` for the module table.

pub mod alloc;
pub mod battle_log;
pub mod calc_names;
pub mod calc_report;
pub mod cli;
pub mod cmd_battle;
pub mod cmd_calc;
pub mod cmd_checkpoint;
pub mod cmd_import;
pub mod cmd_mods;
pub mod cmd_play;
pub mod cmd_run;
pub mod cmd_shell;
pub mod host;
pub mod play;
pub mod progress;
pub mod run_json;
pub mod scenario_battle;
pub mod style;
