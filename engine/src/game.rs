//! The top-level game: the save, the overworld, the RNG, the mod runtime, the current mode,
//! and the presentation feed a front end drains.
//!
//! [`Game::step`] advances one tick with one input, dispatching on [`Mode`]. The battle mode
//! slots in as another `Mode` variant; `step` and [`Game::busy`] dispatch on it.

use std::rc::Rc;

// Battles started from the overworld (the battle mode); a child module so it reaches the
// game's parts.
mod battle_mode;
mod deferred_io;
mod evolution_io;
mod hooks_io;
pub mod item_effects;
mod items_io;
pub(crate) mod lend;
mod save_io;
mod trainers_io;
pub use crate::content::trainers::{TrainerDef, TRAINERS};
pub use battle_mode::BattleSession;
pub(crate) use items_io::take_one as take_one_item;

use pallet_api::{Runtime, Value};
use thiserror::Error;

use crate::rng::Rng;
use crate::save::{SaveData, Spawn};
use crate::world::base_scripts;
use crate::world::block_read::{self, BlockReadError};
use crate::world::encounters::WildEncounter;
use crate::world::map_scripts::MapScriptRegistry;
use crate::world::overworld::{FlagStore, WarpTarget};
use crate::world::presentation::{FeedRow, PresentationRow};
use crate::world::script::{Script, ScriptRow};
use crate::world::{sites, store, BusyState, GameVersion, Input, MapSet, Overworld, WorldCtx};

/// Default names of a new game.
pub const PLAYER_NAME: &str = "RED";
pub const RIVAL_NAME: &str = "BLUE";

#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum GameError {
    #[error("map data: {0}")]
    Maps(String),
    #[error("overworld: {0}")]
    Overworld(String),
    #[error("no overworld")]
    NoOverworld,
}

/// What the game is doing; `step` dispatches on it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Mode {
    /// Before a game is started (no overworld yet).
    Title,
    /// Walking around: the overworld takes the input.
    Overworld,
    /// A battle runs (see [`Game::battle`]); the player's choices advance it
    /// ([`Game::battle_choose`]), ticks do not.
    Battle,
}

pub struct Game {
    pub save: SaveData,
    pub rng: Rng,
    pub rt: Rc<Runtime>,
    pub mode: Mode,
    /// Ticks simulated so far.
    pub tick: u64,
    version: GameVersion,
    maps: MapSet,
    scripts: Rc<MapScriptRegistry>,
    overworld: Option<Overworld>,
    feed: Vec<FeedRow>,
    /// The running battle in [`Mode::Battle`].
    battle: Option<Box<BattleSession>>,
    /// Species, moves, items and type chart battles use (`data::gen1()` without content mods).
    data: &'static crate::data::Dataset,
    /// The trainers battles are fought against ([`TRAINERS`] without content mods).
    trainers: &'static [TrainerDef],
    /// `(mod id, version)` of the content mods that shaped this game's tables.
    content_mods: Vec<(String, String)>,
    /// Level evolutions queued for their animation (B cancels; `game/evolution_io.rs`).
    evolving: std::collections::VecDeque<evolution_io::Pending>,
    /// Item effects mods registered, by item id (hosts install them before the game starts;
    /// never saved). See [`crate::game::item_effects`].
    item_effects: crate::game::item_effects::ModItemEffects,
    /// Buttons mods tap and hold (`mod.input`; never saved or checkpointed).
    mod_input: crate::mod_input::ModInput,
}

/// Split borrows of a game's parts into the overworld's per-tick context.
macro_rules! world_ctx {
    ($self:ident, $ow:ident, $ctx:ident) => {
        let Game {
            save,
            rng,
            rt,
            feed,
            tick,
            version,
            overworld,
            data,
            ..
        } = $self;
        let $ow = overworld;
        let mut $ctx = WorldCtx {
            version: *version,
            flags: &mut save.flags as &mut dyn FlagStore,
            rng,
            rt: &**rt,
            data: *data,
            feed,
            tick: *tick,
            last_outdoor: &mut save.last_outdoor,
            object_toggles: &mut save.object_toggles,
            bag: &mut save.inventory,
            names: (&save.player.name, &save.player.rival),
            observer: crate::world_reads::OBSERVER,
            party: &save.party,
        };
    };
}

impl Game {
    /// Publish the mid-tick read view ([`crate::world_reads`]) from this game (a tick
    /// boundary; nothing without a subscriber).
    #[inline]
    pub(crate) fn publish_reads(&self) {
        crate::world_reads::publish(&self.rt, &self.save, self.overworld());
    }

    /// A game at the title: save skeleton and map data ready, no overworld yet.
    pub fn boot(version: GameVersion, seed: u64, rt: Rc<Runtime>) -> Result<Game, GameError> {
        let maps = store::embedded(version).map_err(GameError::Maps)?.clone();
        let mut rng = Rng::new(seed);
        let start = maps.start.clone();
        let spawn = Spawn {
            map: start.map.clone(),
            x: u16::try_from(start.x).map_err(|_| GameError::Maps("start x too large".into()))?,
            y: u16::try_from(start.y).map_err(|_| GameError::Maps("start y too large".into()))?,
            facing: start.facing,
        };
        let player_id = (rng.next_u64() >> 48) as u16;
        let save = SaveData::new_game(version, PLAYER_NAME, RIVAL_NAME, player_id, &spawn);
        Ok(Game {
            save,
            rng,
            rt,
            mode: Mode::Title,
            tick: 0,
            version,
            maps,
            scripts: Rc::new(base_scripts::base_registry()),
            overworld: None,
            feed: Vec::new(),
            battle: None,
            data: crate::data::gen1(),
            trainers: TRAINERS,
            content_mods: Vec::new(),
            evolving: std::collections::VecDeque::new(),
            item_effects: Default::default(),
            mod_input: Default::default(),
        })
    }

    /// A game at the title playing `content` (what content mods made of the registries; see
    /// [`crate::content::compile`]).
    pub fn boot_with_content(
        version: GameVersion,
        seed: u64,
        rt: Rc<Runtime>,
        content: &crate::content::GameContent,
    ) -> Result<Game, GameError> {
        let mut game = Game::boot(version, seed, rt)?;
        game.maps = content.maps.clone();
        game.data = content.data;
        game.trainers = content.trainers;
        if let Some(scripts) = &content.scripts {
            game.scripts = Rc::clone(scripts);
        }
        game.content_mods = content.mods.clone();
        game.save.meta.content_mods = content
            .mods
            .iter()
            .map(|(id, v)| crate::save::data::ContentModRef {
                id: id.clone(),
                version: v.clone(),
            })
            .collect();
        Ok(game)
    }

    /// A new game on `content`: [`Game::boot_with_content`], then the overworld.
    pub fn new_game_with_content(
        version: GameVersion,
        seed: u64,
        rt: Rc<Runtime>,
        content: &crate::content::GameContent,
    ) -> Result<Game, GameError> {
        let mut game = Game::boot_with_content(version, seed, rt, content)?;
        game.new_game_site();
        game.enter_overworld()?;
        Ok(game)
    }

    /// The dataset battles read (species, moves, items, type chart).
    pub fn data(&self) -> &'static crate::data::Dataset {
        self.data
    }

    /// The trainers of this game.
    pub fn trainers(&self) -> &'static [TrainerDef] {
        self.trainers
    }

    /// `(mod id, version)` of the content mods that shaped this game's tables.
    pub fn content_mods(&self) -> &[(String, String)] {
        &self.content_mods
    }

    /// A new game: boot, then put the player at the save's position (new game: the start
    /// point) and emit `game.ready`.
    pub fn new_game(version: GameVersion, seed: u64, rt: Rc<Runtime>) -> Result<Game, GameError> {
        let mut game = Game::boot(version, seed, rt)?;
        game.new_game_site();
        game.enter_overworld()?;
        Ok(game)
    }

    /// Resume a loaded save: the save's version and player position, a fresh RNG from `seed`.
    pub fn from_save(save: SaveData, seed: u64, rt: Rc<Runtime>) -> Result<Game, GameError> {
        let mut game = Game::boot(save.version, seed, rt)?;
        game.save = save;
        game.enter_overworld()?;
        Ok(game)
    }

    /// Start the overworld at the save's player position.
    pub fn enter_overworld(&mut self) -> Result<(), GameError> {
        let p = &self.save.player;
        let at = WarpTarget::new(&p.map, u32::from(p.x), u32::from(p.y), p.facing);
        let surfing = p.surfing;
        let maps = self.maps.clone();
        let scripts = Rc::clone(&self.scripts);
        // This game's reads from now on (a game before it on this thread left its copies and
        // deferred actions): the flags now, the overworld as it loads (`map.entered` reads it).
        crate::world_deferred::clear();
        crate::world_reads::clear();
        self.publish_reads();
        world_ctx!(self, _ow, ctx);
        let mut ow = Overworld::new(maps, scripts, &at, &mut ctx).map_err(GameError::Overworld)?;
        if surfing {
            ow.resume_surfing();
        }
        self.overworld = Some(ow);
        self.mode = Mode::Overworld;
        // A top-level safe point: script handles may inspect/capture/restore checkpoints here.
        let (rt, version) = (Rc::clone(&self.rt), self.version);
        lend::lend(self, None, || {
            sites::game_ready(&rt, version, Some(at.map.as_str()))
        });
        Ok(())
    }

    /// Checkpoint reconstruction, step 1 (RFC 0004): a **detached** overworld at `at` with the
    /// player settled, built without map entry events, `onEnter` scripts or forced movement.
    /// Nothing about the live game changes, so restore validation can use it.
    pub fn checkpoint_overworld(
        &self,
        at: &WarpTarget,
        surfing: bool,
        toggles: &crate::save::ObjectToggles,
    ) -> Result<Overworld, String> {
        Overworld::restored(
            self.maps.clone(),
            Rc::clone(&self.scripts),
            at,
            surfing,
            toggles,
        )
    }

    /// Checkpoint reconstruction, step 2: install a validated save, overworld, battle (battle
    /// checkpoints: the battle runs again, without `battle.started` or an intro) and RNG (the
    /// RNG last). Emits nothing: no `save.loading`/`save.loaded`, no `map.entered`, no
    /// `game.ready`.
    pub fn install_checkpoint(
        &mut self,
        save: SaveData,
        overworld: Overworld,
        battle: Option<BattleSession>,
        rng: Rng,
    ) {
        self.save = save;
        self.overworld = Some(overworld);
        self.mode = if battle.is_some() {
            Mode::Battle
        } else {
            Mode::Overworld
        };
        self.battle = battle.map(Box::new);
        self.rng = rng;
    }

    pub fn version(&self) -> GameVersion {
        self.version
    }

    pub fn maps(&self) -> &MapSet {
        &self.maps
    }

    pub fn overworld(&self) -> Option<&Overworld> {
        self.overworld.as_ref()
    }

    pub fn overworld_mut(&mut self) -> Option<&mut Overworld> {
        self.overworld.as_mut()
    }

    /// Run `f` on the overworld with this tick's context (flags, RNG, runtime, feed), for
    /// callers outside `step` (mod facades, checkpoints): `open_text`, `replace_block`,
    /// `start_warp`, … `None` without an overworld.
    pub fn with_world<T>(
        &mut self,
        f: impl FnOnce(&mut Overworld, &mut WorldCtx<'_>) -> T,
    ) -> Option<T> {
        world_ctx!(self, ow, ctx);
        ow.as_mut().map(|ow| f(ow, &mut ctx))
    }

    /// The mod item effects (hosts install them before the game starts).
    pub fn item_effects_mut(&mut self) -> &mut crate::game::item_effects::ModItemEffects {
        &mut self.item_effects
    }

    /// The buttons mods tap and hold ([`crate::mod_input`]).
    pub fn mod_input(&self) -> &crate::mod_input::ModInput {
        &self.mod_input
    }

    /// [`Game::mod_input`], to press or release (the `input` facade; owner cleanup).
    pub fn mod_input_mut(&mut self) -> &mut crate::mod_input::ModInput {
        &mut self.mod_input
    }

    /// The installed mod item effects.
    pub fn item_effects(&self) -> &crate::game::item_effects::ModItemEffects {
        &self.item_effects
    }

    /// The map-script registry (mods add contributions before the game starts; `None` once
    /// the overworld holds it). A registry shared with compiled content is copied first, so
    /// hosts' function handlers install on a content game too.
    pub fn scripts_mut(&mut self) -> Option<&mut MapScriptRegistry> {
        if self.overworld.is_some() {
            return Rc::get_mut(&mut self.scripts);
        }
        Some(Rc::make_mut(&mut self.scripts))
    }

    /// Advance one tick.
    /// One tick of the game (vanilla of `core.update`, see [`Game::step`]).
    fn step_tick(&mut self, input: Input) {
        // The driver's button, else what mods tapped or hold (`crate::mod_input`).
        let input = self.mod_input.resolve(input);
        self.tick += 1;
        match self.mode {
            Mode::Title => {}
            Mode::Overworld => {
                if self.evolution_tick(input) {
                    return;
                }
                let feed_from = self.feed.len();
                let (encounter, gifts) = {
                    world_ctx!(self, ow, ctx);
                    match ow.as_mut() {
                        Some(ow) => {
                            ow.step(input, &mut ctx);
                            (ow.take_encounter(), ow.take_gifts())
                        }
                        None => (None, Vec::new()),
                    }
                };
                for gift in gifts {
                    self.apply_gift(gift);
                }
                // Repel steps count down; a repelled encounter does not happen.
                let encounter = self.repel_steps(feed_from, encounter);
                let encountered = encounter.is_some();
                if let Some(enc) = encounter {
                    self.on_wild_encounter(enc);
                }
                if !encountered {
                    self.check_trainer_sight(feed_from);
                }
                self.sync_player();
            }
            Mode::Battle => {}
        }
    }

    /// A `give_item` / `give_pokemon` / `give_money` script row: into the bag, the party (else a
    /// box) or the purse.
    fn apply_gift(&mut self, gift: crate::world::script::Gift) {
        use crate::world::script::Gift;
        let note = match gift {
            Gift::Item { item, count } => match self.data.item_by_name(&item) {
                Some(num) => {
                    let id = self.data.item(num).id;
                    match self.save.inventory.iter_mut().find(|s| s.id == id) {
                        Some(s) => s.count = s.count.saturating_add(count),
                        None => self.save.inventory.push(crate::save::data::ItemStack {
                            id: id.to_owned(),
                            count,
                        }),
                    }
                    format!("received {id} x{count}")
                }
                None => format!("give_item: unknown item {item}"),
            },
            Gift::Pokemon { species, level } => match self.give_pokemon(&species, level) {
                Ok(()) => format!("received {species} (level {level})"),
                Err(e) => format!("give_pokemon: {e}"),
            },
            Gift::Money { amount } => {
                self.save.add_money(amount);
                format!("received ¥{amount} (money ¥{})", self.save.money)
            }
            Gift::TrainerBattle { class, index } => {
                let fought = self
                    .trainer_def(&class, index)
                    .and_then(|def| self.fight_trainer(def));
                if !matches!(self.mode, Mode::Battle) {
                    // Skipped by `trainer.before_battle`, or refused: a waiting script goes on.
                    self.with_world(|ow, _| ow.battle_finished(false));
                }
                match fought {
                    Ok(()) => return,
                    Err(e) => format!("trainer battle: {e}"),
                }
            }
            Gift::WildBattle { species, level } => {
                let fought = self.start_wild_battle(&species, level);
                if !matches!(self.mode, Mode::Battle) {
                    // Refused (unknown species, no healthy party): a waiting script goes on.
                    self.with_world(|ow, _| ow.battle_finished(false));
                }
                match fought {
                    Ok(()) => return,
                    Err(e) => format!("wild battle: {e}"),
                }
            }
        };
        self.show(PresentationRow::Note { text: note });
    }

    /// A grass encounter rolled: start the wild battle.
    fn on_wild_encounter(&mut self, enc: WildEncounter) {
        if let Err(e) = self.start_wild_battle(&enc.species, enc.level) {
            self.show(PresentationRow::Note {
                text: format!("encounter skipped: {e}"),
            });
        }
    }

    pub(crate) fn show(&mut self, row: PresentationRow) {
        self.feed.push(FeedRow {
            tick: self.tick,
            row,
        });
    }

    /// Copy the overworld's player into the save (`player {map, x, y, facing, surfing}`).
    pub fn sync_player(&mut self) {
        let Some(ow) = self.overworld.as_ref() else {
            return;
        };
        let p = ow.player();
        let save = &mut self.save.player;
        if save.map != ow.map_id() {
            save.map = ow.map_id().to_owned();
        }
        save.x = u16::try_from(p.x).unwrap_or(u16::MAX);
        save.y = u16::try_from(p.y).unwrap_or(u16::MAX);
        save.facing = p.facing;
        save.surfing = p.surfing;
    }

    /// Queue a script (rows as data) on the overworld; refused while another script runs.
    pub fn queue_script(&mut self, source: &str, rows: Vec<ScriptRow>) -> Result<(), GameError> {
        let ow = self.overworld.as_mut().ok_or(GameError::NoOverworld)?;
        ow.queue_script(Script::new(source, rows))
            .map_err(|e| GameError::Overworld(e.to_owned()))
    }

    /// Set or clear an event flag the way a script row does (presentation row included).
    pub fn set_flag(&mut self, name: &str, on: bool) {
        world_ctx!(self, ow, ctx);
        match ow.as_mut() {
            Some(ow) => ow.set_flag(name, on, &mut ctx),
            None => ctx.flags.set_flag(name, on),
        }
    }

    pub fn flag(&self, name: &str) -> bool {
        self.save.flag(name)
    }

    /// The first busy state in checkpoint order (`screen_busy` … `movement_busy`).
    pub fn busy(&self) -> Option<BusyState> {
        match self.mode {
            Mode::Title => None,
            Mode::Overworld => match self.overworld.as_ref().and_then(Overworld::busy) {
                // An evolution waits or plays on top of the overworld.
                None if !self.evolving.is_empty() => Some(BusyState::Screen),
                b => b,
            },
            // The battle screen is on top of the overworld.
            Mode::Battle => Some(BusyState::Screen),
        }
    }

    /// RFC 0013 block read on the active map (see [`block_read::active_block_at`]).
    pub fn active_block_at(
        &self,
        map_id: &str,
        bx: &Value,
        by: &Value,
    ) -> Result<u32, BlockReadError> {
        block_read::active_block_at(self.overworld.as_ref().map(Overworld::map), map_id, bx, by)
    }

    /// Everything shown since the last drain, in order.
    pub fn drain_feed(&mut self) -> Vec<FeedRow> {
        std::mem::take(&mut self.feed)
    }

    pub fn feed(&self) -> &[FeedRow] {
        &self.feed
    }
}

/// `mod.world` (RFC 0013 part): the block read as the facade spells it
/// ([`block_read::active_block_id_at`]).
impl pallet_api::facades::WorldApi for Game {
    fn active_block_at(
        &self,
        map_id: &str,
        block_x: &Value,
        block_y: &Value,
    ) -> Result<u8, BlockReadError> {
        let map = self.overworld.as_ref().map(Overworld::map);
        block_read::active_block_id_at(map, map_id, block_x, block_y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::Direction;

    fn walk(g: &mut Game, input: Input, n: usize) {
        for _ in 0..n {
            g.step(input);
        }
    }

    #[test]
    fn new_game_starts_at_the_start_point_and_syncs_the_save() {
        let mut g = Game::new_game(GameVersion::Blue, 7, Rc::new(Runtime::new())).unwrap();
        assert_eq!(g.mode, Mode::Overworld);
        assert_eq!(g.save.player.map, "REDS_HOUSE_1F");
        assert_eq!(g.save.version, GameVersion::Blue);
        walk(&mut g, Input::Down, 8);
        assert_eq!((g.save.player.x, g.save.player.y), (3, 5));
        let rows = g.drain_feed();
        assert!(
            matches!(&rows[0].row, PresentationRow::MapEntered { map, .. } if map == "REDS_HOUSE_1F")
        );
        assert!(g.feed().is_empty());
    }

    #[test]
    fn block_read_needs_an_overworld_and_never_mutates() {
        let rt = Rc::new(Runtime::new());
        let title = Game::boot(GameVersion::Red, 1, Rc::clone(&rt)).unwrap();
        let v = |i| Value::Int(i);
        assert_eq!(
            title.active_block_at("REDS_HOUSE_1F", &v(0), &v(0)),
            Err(BlockReadError::NoOverworld)
        );
        assert_eq!(title.busy(), None);
        let g = Game::new_game(GameVersion::Red, 1, rt).unwrap();
        let before = crate::save::encode(&g.save).unwrap();
        assert_eq!(g.active_block_at("REDS_HOUSE_1F", &v(1), &v(3)), Ok(3));
        assert_eq!(
            g.active_block_at("PALLET_TOWN", &v(1), &v(3)),
            Err(BlockReadError::MapNotActive)
        );
        assert_eq!(crate::save::encode(&g.save).unwrap(), before);
        let facade: &dyn pallet_api::facades::WorldApi = &g;
        assert_eq!(facade.active_block_at("REDS_HOUSE_1F", &v(1), &v(3)), Ok(3));
        assert_eq!(
            facade.active_block_at("REDS_HOUSE_1F", &Value::Float(0.5), &v(3)),
            Err(BlockReadError::InvalidBlockCoordinates)
        );
    }

    #[test]
    fn a_save_resumes_where_it_was() {
        let rt = Rc::new(Runtime::new());
        let mut g = Game::new_game(GameVersion::Yellow, 4, Rc::clone(&rt)).unwrap();
        walk(&mut g, Input::Left, 1 + 8);
        g.set_flag("EVENT_TEST", true);
        let bytes = crate::save::encode(&g.save).unwrap();
        let resumed = Game::from_save(crate::save::decode(&bytes).unwrap(), 5, rt).unwrap();
        let p = resumed.overworld().unwrap().player();
        assert_eq!(
            (resumed.overworld().unwrap().map_id(), p.x, p.y, p.facing),
            ("REDS_HOUSE_1F", 2, 4, Direction::Left)
        );
        assert_eq!(resumed.version(), GameVersion::Yellow);
        assert!(resumed.flag("EVENT_TEST"));
        let mut broken = g.save.clone();
        broken.player.map = "NOWHERE".into();
        assert!(matches!(
            Game::from_save(broken, 5, Rc::new(Runtime::new())),
            Err(GameError::Overworld(_))
        ));
    }

    #[test]
    fn with_world_lends_the_overworld_and_its_context() {
        let mut g = Game::new_game(GameVersion::Red, 2, Rc::new(Runtime::new())).unwrap();
        let replaced = g.with_world(|ow, ctx| ow.replace_block(0, 0, 2, ctx));
        assert_eq!(replaced, Some(Ok(())));
        assert_eq!(
            g.active_block_at("REDS_HOUSE_1F", &Value::Int(0), &Value::Int(0)),
            Ok(2)
        );
        assert!(g
            .drain_feed()
            .iter()
            .any(|r| matches!(r.row, PresentationRow::BlockReplaced { .. })));
        let mut title = Game::boot(GameVersion::Red, 2, Rc::new(Runtime::new())).unwrap();
        assert_eq!(title.with_world(|_, _| ()), None);
    }

    #[test]
    fn same_seed_same_player_id() {
        let a = Game::new_game(GameVersion::Red, 9, Rc::new(Runtime::new())).unwrap();
        let b = Game::new_game(GameVersion::Red, 9, Rc::new(Runtime::new())).unwrap();
        assert_eq!(a.save, b.save);
    }
}
