//! The Rhai mod host (`host`: engines, handles, the mixed-language run session) and, over it,
//! the `pallet` command-line tool (`cli`). `host` never imports `cli`. See `README.md` for the
//! module table.

pub mod alloc;
pub mod cli;
pub mod host;

// The CLI modules' paths before they moved under `cli` (tests on in-flight branches name
// them); drop once those branches are merged.
#[doc(hidden)]
pub use cli::{calc_report, cmd_battle, cmd_import, cmd_mods, cmd_run, play, progress};
