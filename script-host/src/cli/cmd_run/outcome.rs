//! What a run takes and produces: [`RunOptions`] (the `pallet run` flags), [`RunOutcome`] and
//! [`RunFailure`]; `json` renders them, `run` prints them.

use std::path::PathBuf;

use pallet_engine::game::Game;
use pallet_engine::world::GameVersion;

/// Everything a run produced.
pub struct RunOutcome {
    pub transcript: String,
    pub game: Game,
    /// Ids of the mods that failed to load (the run exits 1 when any did).
    pub failed_mods: Vec<String>,
    /// Expectations a mod changed (non-strict runs): `(scenario line, message)`.
    pub differed: Vec<(usize, String)>,
    pub met: usize,
    pub mods_status: Option<pallet_api::loader::LoadStatus>,
}

/// A run stopped by a scenario error; the transcript up to the failure is kept.
#[derive(Debug)]
pub struct RunFailure {
    pub transcript: String,
    pub message: String,
    /// Bad usage (an `--option` no mod defines, an illegal value): exit 2, not 1.
    pub usage: bool,
}

/// Options of `pallet run`.
#[derive(Clone, Debug)]
pub struct RunOptions {
    pub version: GameVersion,
    pub seed: u64,
    pub save: Option<PathBuf>,
    /// `--mods DIR` (repeatable), `--no-default-mods`, `--trace`.
    pub mods: crate::host::ModsOptions,
    /// `--scenario PATH`: play this file instead of [`super::MAIN_SCENARIO`].
    pub scenario: Option<PathBuf>,
    /// `--strict`: a failed `expect` stops the run with exit 1.
    pub strict: bool,
    /// `--json`: print the run summary as one JSON document instead of the transcript.
    pub json: bool,
    /// `--option MOD.KEY=VALUE` (repeatable).
    pub options: Vec<String>,
    /// `--load SAVE`: continue from this save.
    pub load: Option<PathBuf>,
    /// `--profile DIR`: option values from `DIR/options/<mod id>.json`, `mod.storage` in
    /// `DIR/storage/<mod id>/`.
    pub profile: Option<PathBuf>,
}
