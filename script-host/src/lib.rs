//! The Rhai mod host (`host`: engines, handles, the mixed-language run session) and, over it,
//! the `pallet` command-line tool (`cli`). `host` never imports `cli`. See `README.md` for the
//! module table.

pub mod alloc;
pub mod cli;
pub mod host;
