//! The game-level hook sites of the Lua engine's catalog (issue 17), a child module of
//! `game`: `input.step` and `core.update` (once per tick, in that order), `trainer.before_battle`, `pokemon.give`,
//! `save.new_game`. Guarded:
//! with no subscriber each is its vanilla branch.

use super::Game;
use crate::content::trainers::TrainerDef;
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

    /// Advance the game one tick: first `input.step` (vanilla reads the tick's input; a link
    /// that does not call `next` swallows it), then `core.update` (vanilla is the tick; a link
    /// that does not call `next` holds the game still for this tick). Both are raised at the
    /// same safe point, with the game lent. When the tick ends, the world actions mods deferred
    /// mid-tick are applied ([`crate::world_deferred`]).
    pub fn step(&mut self, input: Input) {
        #[cfg(feature = "hook-sites")]
        let input = self.input_step_site(input);
        #[cfg(feature = "hook-sites")]
        if self.rt.wants_hook::<hooks::CoreUpdate>() {
            let rt = std::rc::Rc::clone(&self.rt);
            let args = hooks::CoreUpdateArgs {
                game: self.hook_game_info(),
                dt: hooks::TICK_SECONDS,
            };
            // A safe point: the links (mods' and the vanilla one that runs the tick) run with
            // the game lent, so a link may call the `world` facade before or after `next`.
            // Vanilla takes the game back out of the loan for the tick itself, so hooks and
            // events raised inside the tick see no lent game (mid-tick: reads only).
            self.publish_reads();
            super::lend::lend(self, None, || {
                rt.call::<hooks::CoreUpdate>(args, |_| {
                    super::lend::with_lent(|lent| match lent {
                        Some(l) => l.game.step_tick(input),
                        // Unreachable: the loan is only taken by a facade call, which does
                        // not re-enter `core.update`; report rather than step a stale game.
                        None => rt.log(
                            pallet_api::Level::Error,
                            None,
                            "core.update: the tick ran outside its loan and was skipped".to_owned(),
                        ),
                    });
                    true
                })
            });
            self.apply_deferred();
            return;
        }
        self.publish_reads();
        self.step_tick(input);
        self.apply_deferred();
    }

    /// `input.step`: the tick's input, or [`Input::None`] when a link swallowed it. Raised at
    /// a safe point (the game lent, like `core.update`), before the tick's logic.
    #[cfg(feature = "hook-sites")]
    fn input_step_site(&mut self, input: Input) -> Input {
        if !self.rt.wants_hook::<hooks::InputStep>() {
            return input;
        }
        let rt = std::rc::Rc::clone(&self.rt);
        let args = hooks::InputStepArgs {
            game: self.hook_game_info(),
            dt: hooks::TICK_SECONDS,
        };
        let read = std::cell::Cell::new(false);
        self.publish_reads();
        super::lend::lend(self, None, || {
            rt.call::<hooks::InputStep>(args, |_| {
                read.set(true);
                true
            })
        });
        if read.get() {
            input
        } else {
            Input::None
        }
    }

    /// `trainer.before_battle`: may this battle start? Only an exact `false` skips it.
    pub(super) fn before_battle_site(&self, def: &TrainerDef) -> bool {
        #[cfg(feature = "hook-sites")]
        if self.rt.wants_hook::<hooks::TrainerBeforeBattle>() {
            let args = hooks::TrainerBeforeBattleArgs {
                game: self.hook_game_info(),
                ctx: hooks::TrainerBattleContext {
                    trainer_class: crate::public_records::public_trainer_class(def.class),
                    party_index: crate::public_records::public_party_index(def.index),
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

    /// `save.new_game`: reshape the new-game skeleton (money, bag, PC items, start position,
    /// flags) before the overworld starts. An answer the engine cannot honour (an unknown item
    /// or map, a cell off the map, a bag over capacity) is refused and reported; the
    /// cartridge's skeleton stands.
    pub(super) fn new_game_site(&mut self) {
        #[cfg(feature = "hook-sites")]
        if self.rt.wants_hook::<hooks::SaveNewGame>() {
            let state = new_game_state(&self.save);
            let args = hooks::SaveNewGameArgs {
                game: self.hook_game_info(),
                save: state,
            };
            let rt = std::rc::Rc::clone(&self.rt);
            let out = rt.call::<hooks::SaveNewGame>(args, |a| a.save.clone());
            if let Err(why) = self.apply_new_game(out) {
                rt.log(
                    pallet_api::Level::Warn,
                    None,
                    format!("save.new_game: refused ({why}); the cartridge's new game stands"),
                );
            }
        }
    }

    /// Validate and install a `save.new_game` answer (all or nothing).
    #[cfg(feature = "hook-sites")]
    fn apply_new_game(&mut self, out: hooks::NewGameState) -> Result<(), String> {
        use crate::save::data::{
            ItemStack, BAG_CAPACITY, MAX_ITEM_COUNT, MAX_MONEY, PC_ITEM_CAPACITY,
        };
        if out.money > MAX_MONEY {
            return Err(format!("money {} over {MAX_MONEY}", out.money));
        }
        let items = |rows: &[hooks::ItemCount], cap: usize, what: &str| {
            if rows.len() > cap {
                return Err(format!("{what} holds at most {cap} kinds"));
            }
            let mut out: Vec<ItemStack> = Vec::with_capacity(rows.len());
            for r in rows {
                let num = self
                    .data
                    .item_by_name(&r.id)
                    .ok_or_else(|| format!("unknown item {:?}", r.id))?;
                let id = self.data.item(num).id.to_owned();
                match out.iter_mut().find(|s| s.id == id) {
                    Some(s) => s.count = (s.count + r.count).min(MAX_ITEM_COUNT),
                    None => out.push(ItemStack { id, count: r.count }),
                }
            }
            Ok(out)
        };
        let inventory = items(&out.inventory, BAG_CAPACITY, "the bag")?;
        let pc_items = items(&out.pc_items, PC_ITEM_CAPACITY, "the PC")?;
        let p = &out.player;
        let def = self
            .maps
            .get(&p.map)
            .ok_or_else(|| format!("unknown map {:?}", p.map))?;
        let (x, y) = (u32::try_from(p.x), u32::try_from(p.y));
        let (Ok(x), Ok(y)) = (x, y) else {
            return Err("negative start cell".into());
        };
        if x >= def.cell_width() || y >= def.cell_height() {
            return Err(format!("cell {x},{y} is off {}", p.map));
        }
        let facing = crate::world::sites::engine_dir(p.facing);
        let save = &mut self.save;
        save.money = out.money;
        save.inventory = inventory;
        save.pc_items = pc_items;
        save.player.map = def.id.clone();
        save.player.x = x as u16;
        save.player.y = y as u16;
        save.player.facing = facing;
        // The start point is also the first heal point.
        save.last_heal.map = def.id.clone();
        save.last_heal.x = x as u16;
        save.last_heal.y = y as u16;
        save.flags = out.flags.into_iter().collect();
        Ok(())
    }
}

/// The parts of a new save `save.new_game` sees (detached).
#[cfg(feature = "hook-sites")]
fn new_game_state(save: &crate::save::SaveData) -> hooks::NewGameState {
    let rows = |v: &[crate::save::data::ItemStack]| {
        v.iter()
            .map(|s| hooks::ItemCount {
                id: s.id.clone(),
                count: s.count,
            })
            .collect()
    };
    hooks::NewGameState {
        money: save.money,
        inventory: rows(&save.inventory),
        pc_items: rows(&save.pc_items),
        player: hooks::StartPosition {
            map: save.player.map.clone(),
            x: i32::from(save.player.x),
            y: i32::from(save.player.y),
            facing: crate::world::sites::api_dir(save.player.facing),
        },
        flags: save.flags.iter().cloned().collect(),
    }
}
