//! Saving and loading a game file with the save hooks and events (a child module of `game`):
//! `save.write` (may veto), `save.writing` (just before the bytes are written) and
//! `save.loading` (the decoded document, before the game is built from it). Every site is
//! guarded: without a subscriber nothing is built.

use std::path::Path;
use std::rc::Rc;

use pallet_api::Runtime;

use crate::save::{self, Recovered, SaveFileError};

use super::{Game, GameError};

#[cfg(feature = "hook-sites")]
use pallet_api::catalog::{common::GameInfo, events, hooks};

impl Game {
    #[cfg(feature = "hook-sites")]
    fn info(&self) -> GameInfo {
        GameInfo {
            version: crate::world::sites::api_version(self.version),
            playthrough_id: self.save.meta.playthrough_id.clone(),
            map_id: Some(self.save.player.map.clone()),
        }
    }

    /// Write the save to `path` (atomically, see [`save::write_save`]). A `save.write` link
    /// answering exactly `false` vetoes the write: `Ok(false)`, nothing written. Otherwise
    /// `save.writing {save, meta}` fires and the file is written: `Ok(true)`.
    pub fn write_save_file(&self, path: &Path) -> Result<bool, SaveFileError> {
        #[cfg(feature = "hook-sites")]
        if self.rt.wants_hook::<hooks::SaveWrite>() {
            let args = hooks::SaveWriteArgs { game: self.info() };
            if !self.rt.call::<hooks::SaveWrite>(args, |_| true) {
                return Ok(false);
            }
        }
        #[cfg(feature = "hook-sites")]
        if self.rt.wants_event::<events::SaveWriting>() {
            self.rt
                .emit::<events::SaveWriting>(events::SaveWritingPayload {
                    save: pallet_api::value::to_value(&self.save).unwrap_or_default(),
                    meta: pallet_api::value::to_value(&self.save.meta).unwrap_or_default(),
                });
        }
        save::write_save(path, &self.save)?;
        Ok(true)
    }

    /// Load the save at `path` (recovering from `.tmp`/`.bak`, see [`save::load_save`]) and
    /// build the game on it. `save.loading {raw}` fires with the decoded document first.
    pub fn load_save_file(
        path: &Path,
        seed: u64,
        rt: Rc<Runtime>,
    ) -> Result<(Game, Option<Recovered>), GameError> {
        let loaded = save::load_save(path).map_err(|e| GameError::Overworld(e.to_string()))?;
        #[cfg(feature = "hook-sites")]
        if rt.wants_event::<events::SaveLoading>() {
            rt.emit::<events::SaveLoading>(events::SaveLoadingPayload {
                raw: pallet_api::value::to_value(&loaded.save).unwrap_or_default(),
            });
        }
        let game = Game::from_save(loaded.save, seed, rt)?;
        Ok((game, loaded.recovered))
    }

    /// The canonical save validator against this game's tables (its compiled content, maps
    /// and spawn), with the content mods the save names that this game lacks. Repairs `save`
    /// in place; the report says every change (empty: nothing changed).
    pub fn validate_save(&self, save: &mut save::SaveData) -> save::ValidationReport {
        let maps = self.maps();
        let map_known = |id: &str| maps.get(id).is_some();
        let start = &maps.start;
        let env = save::ValidateEnv {
            data: self.data(),
            map_known: &map_known,
            spawn: save::data::MapPoint {
                map: start.map.clone(),
                x: u16::try_from(start.x).unwrap_or(0),
                y: u16::try_from(start.y).unwrap_or(0),
            },
        };
        save::validate_with_content(save, &env, self.content_mods())
    }
}
