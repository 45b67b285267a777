//! Rhai host and the `pallet` CLI. See `README.md` for the module table.

pub mod cli;
pub mod cmd_run;
