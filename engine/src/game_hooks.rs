//! The game-level hook sites of the Lua engine's catalog (issue 17), a child module of
//! `game`: `core.update` (once per tick), `trainer.before_battle`, `pokemon.give`. Guarded:
//! with no subscriber each is its vanilla branch.

use super::battle_mode::TrainerDef;
use super::Game;
use crate::world::Input;

#[cfg(feature = "hook-sites")]
use pallet_api::catalog::{common::GameInfo, hooks};

impl Game {
    #[cfg(feature = "hook-sites")]
    fn hook_game_info(&self) -> GameInfo {
        GameInfo {
            version: crate::world::sites::api_version(self.version),
            playthrough_id: self.save.meta.playthrough_id.clone(),
            map_id: Some(self.save.player.map.clone()),
        }
    }

    /// Advance the game one tick through `core.update`: vanilla is the tick; a link that
    /// does not call `next` holds the game still for this tick.
    pub fn step(&mut self, input: Input) {
        #[cfg(feature = "hook-sites")]
        if self.rt.wants_hook::<hooks::CoreUpdate>() {
            let rt = std::rc::Rc::clone(&self.rt);
            let args = hooks::CoreUpdateArgs {
                game: self.hook_game_info(),
                dt: 1,
            };
            rt.call::<hooks::CoreUpdate>(args, |_| {
                self.step_tick(input);
                true
            });
            return;
        }
        self.step_tick(input);
    }

    /// `trainer.before_battle`: may this battle start? Only an exact `false` skips it.
    pub(super) fn before_battle_site(&self, def: &TrainerDef) -> bool {
        #[cfg(feature = "hook-sites")]
        if self.rt.wants_hook::<hooks::TrainerBeforeBattle>() {
            let args = hooks::TrainerBeforeBattleArgs {
                game: self.hook_game_info(),
                ctx: hooks::TrainerBattleContext {
                    class_id: def.class.to_owned(),
                    index: def.index,
                    map_id: self.save.player.map.clone(),
                    name: def.name.to_owned(),
                },
            };
            return self.rt.call::<hooks::TrainerBeforeBattle>(args, |_| true);
        }
        let _ = def;
        true
    }

    /// `pokemon.give`: the gift to build (`None`: a link cancelled it). A species the
    /// dataset does not know is refused (reported) and the original gift stands.
    pub(super) fn give_site(&self, species: &str, level: u8) -> Option<(String, u8)> {
        #[cfg(feature = "hook-sites")]
        if self.rt.wants_hook::<hooks::PokemonGive>() {
            let args = hooks::PokemonGiveArgs {
                game: self.hook_game_info(),
                mon: hooks::Gift {
                    species: species.to_owned(),
                    level,
                },
                ctx: hooks::GiveContext {
                    party_size: u8::try_from(self.save.party.len()).unwrap_or(u8::MAX),
                },
            };
            let gift = self
                .rt
                .call::<hooks::PokemonGive>(args, |a| Some(a.mon.clone()))?;
            if crate::data::gen1().species_by_name(&gift.species).is_none() {
                self.rt.log(
                    pallet_api::Level::Warn,
                    None,
                    format!(
                        "pokemon.give: refused unknown species {:?}; the gift of {species} stands",
                        gift.species
                    ),
                );
                return Some((species.to_owned(), level));
            }
            return Some((gift.species, gift.level.clamp(1, 100)));
        }
        Some((species.to_owned(), level))
    }
}
