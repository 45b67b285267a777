//! `pallet play`: the game in a terminal, with mods loaded.
//!
//! | module | concern |
//! |---|---|
//! | [`keys`] | session keys and the key log (`--record` writes it, `pallet run --keys` replays it) |
//! | [`session`] | the front-end-independent session: boot like `pallet run`, keys → engine inputs and battle choices, transcript, panes |
//! | [`screen`] | the screen model read from a session (map cells, text box, menus, battle panels) |
//! | [`render`] | drawing a screen model with ratatui (any backend; the tests use the test backend) |
//! | [`term`] | the crossterm terminal: raw mode restored on every exit, key mapping, resize, quit dialog |

pub mod keys;
pub mod render;
pub mod screen;
pub mod session;
pub mod term;

pub use keys::{Boot, Key, KeyLog};
pub use screen::ScreenModel;
pub use session::Session;
