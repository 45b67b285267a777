//! The overworld simulation, advanced one tick per [`Overworld::step`].
//!
//! Each tick does exactly one of these, in this order (the first that applies):
//! 1. a warp transition advances (fade-out, map swap + `onEnter`, fade-in); input ignored;
//! 2. the front screen (text box, start menu) takes the input (A closes a text box and runs
//!    its close action; B/START close the menu);
//! 3. a map animation advances (e.g. the S.S. Anne leaving);
//! 4. the player's step advances; on arrival: step-on warps, grass encounters, `world.stepped`;
//! 5. the script runner runs rows until one blocks (player input is locked meanwhile);
//! 6. idle: a direction turns the player (if not facing it) or starts a step (collision,
//!    edge warps), A talks to the NPC or sign ahead, START opens the menu.
//!
//! Busy states are real fields; [`Overworld::busy`] reports them in the checkpoint order
//! `screen_busy`, `transition_busy`, `script_busy`, `animation_busy`, `movement_busy`.

mod runner;
mod script_items;
mod sites_hooks;
mod world_api;

pub(crate) use sites_hooks::encounter_table;

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::rc::Rc;

use pallet_api::reasons::CheckpointCode;
use pallet_api::{Runtime, Value};
use serde::{Deserialize, Serialize};

use super::active_map::ActiveMap;
use super::block_read::{self, BlockReadError};
use super::encounters::WildEncounter;
use super::last_map;
use super::map_scripts::{Handler, MapScriptRegistry};
use super::presentation::{FeedRow, PresentationRow, TextRef};
use super::script::{Runner, Script};
use super::sites;
use super::sites_flow;
use super::store::MapSet;
use super::tileset::CellKind;
use super::types::{Direction, GameVersion, Input};
use crate::rng::Rng;

/// Ticks one step takes (walking and surfing).
pub const STEP_TICKS: u32 = 8;
/// Ticks of a warp's fade-out (the map swaps at its end) and fade-in.
pub const FADE_OUT_TICKS: u32 = 8;
pub const FADE_IN_TICKS: u32 = 8;
/// Ticks between the ship-departure animation's frames (one ship column per frame).
pub const SHIP_FRAME_TICKS: u32 = 16;

/// Event flags as the save stores them.
pub trait FlagStore {
    fn flag(&self, name: &str) -> bool;
    fn set_flag(&mut self, name: &str, on: bool);
    /// Every flag that is set, sorted (map-script handlers' `game.save.flags`).
    fn set_flags(&self) -> Vec<String> {
        Vec::new()
    }
}

impl FlagStore for BTreeSet<String> {
    fn flag(&self, name: &str) -> bool {
        self.contains(name)
    }
    fn set_flags(&self) -> Vec<String> {
        self.iter().cloned().collect()
    }
    fn set_flag(&mut self, name: &str, on: bool) {
        if on {
            self.insert(name.to_owned());
        } else {
            self.remove(name);
        }
    }
}

impl FlagStore for BTreeMap<String, bool> {
    fn flag(&self, name: &str) -> bool {
        self.get(name).copied().unwrap_or(false)
    }
    fn set_flag(&mut self, name: &str, on: bool) {
        if on {
            self.insert(name.to_owned(), true);
        } else {
            self.remove(name);
        }
    }
}

/// What the overworld borrows from the game for one tick.
pub struct WorldCtx<'a> {
    pub version: GameVersion,
    pub flags: &'a mut dyn FlagStore,
    pub rng: &'a mut Rng,
    pub rt: &'a Runtime,
    /// The game's dataset (the compiled content tables, or the embedded data).
    pub data: &'static crate::data::Dataset,
    pub feed: &'a mut Vec<FeedRow>,
    /// The game tick being simulated (stamped on presentation rows).
    pub tick: u64,
    /// Where a `LAST_MAP` warp returns to (the save's `lastOutdoor`; see [`super::last_map`]).
    pub last_outdoor: &'a mut Option<crate::save::OutdoorPoint>,
    /// The save's `objectToggles`, applied to every map loaded (see [`super::objects`]).
    pub object_toggles: &'a mut crate::save::ObjectToggles,
    /// The bag (`check_item`/`take_item` script rows read and change it).
    pub bag: &'a mut Vec<crate::save::data::ItemStack>,
    /// The player's and the rival's names (`{PLAYER}` / `{RIVAL}` in literal script texts).
    pub names: (&'a str, &'a str),
    /// Where changes a mid-tick reader must see at once are reported ([`ChangeObserver`]).
    pub observer: ChangeObserver,
    /// The party, read-only (step/interact handlers see it as `game.save.party`).
    pub party: &'a [crate::save::MonRecord],
}

/// Where the overworld reports, as they happen, the changes a reader in the middle of a tick
/// must see (the game's mid-tick read view, `crate::world_reads`). Called only while some script
/// subscribes to anything ([`Runtime::wants_anything`]), so with none it costs one test.
#[derive(Clone, Copy)]
pub struct ChangeObserver {
    /// The player arrived on a cell or warped; `true`: the map's blocks were rebuilt.
    pub moved: fn(&Overworld, bool),
    /// A flag changed (`name`, `on`).
    pub flag: fn(&str, bool),
}

impl ChangeObserver {
    /// Reports nowhere (tests of the overworld alone).
    pub const NONE: ChangeObserver = ChangeObserver {
        moved: |_, _| {},
        flag: |_, _| {},
    };
}

impl WorldCtx<'_> {
    /// Report a move (or, `rebuilt`, a block change) of `ow` to the observer.
    #[inline]
    fn moved(&self, ow: &Overworld, rebuilt: bool) {
        if self.rt.wants_anything() {
            (self.observer.moved)(ow, rebuilt);
        }
    }

    pub fn show(&mut self, row: PresentationRow) {
        self.feed.push(FeedRow {
            tick: self.tick,
            row,
        });
    }
}

/// A place a warp leads to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WarpTarget {
    pub map: String,
    pub x: u32,
    pub y: u32,
    pub facing: Direction,
}

impl WarpTarget {
    pub fn new(map: &str, x: u32, y: u32, facing: Direction) -> WarpTarget {
        WarpTarget {
            map: map.to_owned(),
            x,
            y,
            facing,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    pub x: u32,
    pub y: u32,
    pub facing: Direction,
    pub surfing: bool,
}

/// A step in progress (`player.moving` / target cell set).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Movement {
    pub dir: Direction,
    /// Ticks done, 1..=STEP_TICKS.
    pub elapsed: u32,
    pub to_x: u32,
    pub to_y: u32,
    /// Started by a script row (no step-on warps, no encounters).
    pub scripted: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Transition {
    pub target: WarpTarget,
    pub elapsed: u32,
    pub swapped: bool,
}

/// What closing a text box does (data, never code: checkpoints can capture it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CloseAction {
    Warp(WarpTarget),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Screen {
    Text {
        id: u64,
        text: TextRef,
        on_close: Option<CloseAction>,
    },
    StartMenu,
    /// A script's choice box (`choice` op): `cursor` indexes `options`.
    Choice {
        id: u64,
        options: Vec<String>,
        cursor: usize,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Animation {
    /// The S.S. Anne sails off: every `SHIP_FRAME_TICKS` one ship column becomes water.
    ShipDeparture { next_column: usize, ticks: u32 },
}

/// The busy states checkpoints refuse, in their check order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BusyState {
    Screen,
    Transition,
    Script,
    Animation,
    Movement,
}

impl BusyState {
    pub fn code(self) -> CheckpointCode {
        match self {
            BusyState::Screen => CheckpointCode::ScreenBusy,
            BusyState::Transition => CheckpointCode::TransitionBusy,
            BusyState::Script => CheckpointCode::ScriptBusy,
            BusyState::Animation => CheckpointCode::AnimationBusy,
            BusyState::Movement => CheckpointCode::MovementBusy,
        }
    }

    pub fn as_str(self) -> &'static str {
        self.code().as_str()
    }
}

/// Why a step could not be taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Blocked {
    Edge,
    Cell,
    Npc,
}

pub struct Overworld {
    pub(super) maps: MapSet,
    pub(super) scripts: Rc<MapScriptRegistry>,
    pub(super) map: ActiveMap,
    pub(super) player: Player,
    pub(super) movement: Option<Movement>,
    pub(super) transition: Option<Transition>,
    pub(super) screens: VecDeque<Screen>,
    pub(super) animation: Option<Animation>,
    pub(super) runner: Runner,
    pub(super) encounter: Option<WildEncounter>,
    pub(super) music: Option<String>,
    pub(super) next_screen_id: u64,
    diagnostics: Vec<String>,
    /// Bag items and mons script rows handed out, for the game to apply after the tick.
    pub(super) gifts: Vec<super::script::Gift>,
}

impl Overworld {
    /// Load `at` as the first map (runs its `onEnter`, emits `map.entered` with `via = "load"`).
    pub fn new(
        maps: MapSet,
        scripts: Rc<MapScriptRegistry>,
        at: &WarpTarget,
        ctx: &mut WorldCtx<'_>,
    ) -> Result<Overworld, String> {
        let mut ow = Self::restored(maps, scripts, at, false, ctx.object_toggles)?;
        // Nothing plays yet: entering the map starts its music (a presentation row).
        ow.music = None;
        ctx.moved(&ow, false);
        ow.enter_loaded_map(None, "load", ctx);
        Ok(ow)
    }

    /// Checkpoint reconstruction (RFC 0004): `at`'s map with the player settled on its tile,
    /// **without** map entry/exit events, `onEnter` scripts, forced movement or presentation
    /// rows. The map's music is adopted silently. Fails like [`Overworld::new`] on an unknown
    /// map or an off-map cell; builds a detached value, so callers can validate with it.
    pub fn restored(
        maps: MapSet,
        scripts: Rc<MapScriptRegistry>,
        at: &WarpTarget,
        surfing: bool,
        toggles: &crate::save::ObjectToggles,
    ) -> Result<Overworld, String> {
        let map = Self::instantiate(&maps, &at.map, toggles)?;
        Self::check_cell(&map, at)?;
        let music = map.def().music.clone();
        Ok(Overworld {
            maps,
            scripts,
            map,
            player: Player {
                x: at.x,
                y: at.y,
                facing: at.facing,
                surfing,
            },
            movement: None,
            transition: None,
            screens: VecDeque::new(),
            animation: None,
            runner: Runner::default(),
            encounter: None,
            music,
            next_screen_id: 1,
            diagnostics: Vec::new(),
            gifts: Vec::new(),
        })
    }

    pub(super) fn instantiate(
        maps: &MapSet,
        id: &str,
        toggles: &crate::save::ObjectToggles,
    ) -> Result<ActiveMap, String> {
        let def = maps
            .get(id)
            .ok_or_else(|| format!("unknown map: {id}"))?
            .clone();
        let tileset = maps
            .tilesets
            .get(&def.tileset)
            .ok_or_else(|| format!("map {id}: unknown tileset {}", def.tileset))?
            .clone();
        let mut map = ActiveMap::new(def, tileset);
        map.apply_toggles(toggles.get(id));
        Ok(map)
    }

    fn check_cell(map: &ActiveMap, at: &WarpTarget) -> Result<(), String> {
        if map.cell_kind(i64::from(at.x), i64::from(at.y)).is_none() {
            return Err(format!("cell ({}, {}) outside {}", at.x, at.y, at.map));
        }
        Ok(())
    }

    // ----- reads ---------------------------------------------------------------------------

    pub fn map(&self) -> &ActiveMap {
        &self.map
    }

    pub fn map_id(&self) -> &str {
        self.map.id()
    }

    pub fn maps(&self) -> &MapSet {
        &self.maps
    }

    pub fn player(&self) -> &Player {
        &self.player
    }

    pub fn movement(&self) -> Option<&Movement> {
        self.movement.as_ref()
    }

    pub fn transition(&self) -> Option<&Transition> {
        self.transition.as_ref()
    }

    pub fn animation(&self) -> Option<&Animation> {
        self.animation.as_ref()
    }

    pub fn runner(&self) -> &Runner {
        &self.runner
    }

    /// The visible screen (front of the queue), if any.
    pub fn screen(&self) -> Option<&Screen> {
        self.screens.front()
    }

    pub fn music(&self) -> Option<&str> {
        self.music.as_deref()
    }

    pub fn diagnostics(&self) -> &[String] {
        &self.diagnostics
    }

    pub(super) fn diagnostic(&mut self, msg: String) {
        self.diagnostics.push(msg);
    }

    /// The first busy state in checkpoint order, `None` when idle.
    pub fn busy(&self) -> Option<BusyState> {
        if !self.screens.is_empty() {
            Some(BusyState::Screen)
        } else if self.transition.is_some() {
            Some(BusyState::Transition)
        } else if self.runner.busy() {
            Some(BusyState::Script)
        } else if self.animation.is_some() {
            Some(BusyState::Animation)
        } else if self.movement.is_some() {
            Some(BusyState::Movement)
        } else {
            None
        }
    }

    pub fn is_idle(&self) -> bool {
        self.busy().is_none()
    }

    /// RFC 0013 block read on this overworld (see [`block_read::active_block_at`]).
    pub fn active_block_at(
        &self,
        map_id: &str,
        bx: &Value,
        by: &Value,
    ) -> Result<u32, BlockReadError> {
        block_read::active_block_at(Some(&self.map), map_id, bx, by)
    }

    /// Take the pending wild encounter (the game starts the battle).
    pub fn take_encounter(&mut self) -> Option<WildEncounter> {
        self.encounter.take()
    }

    pub(super) fn screen_open(&self, id: u64) -> bool {
        self.screens.iter().any(|s| match s {
            Screen::Text { id: i, .. } | Screen::Choice { id: i, .. } => *i == id,
            Screen::StartMenu => false,
        })
    }

    // ----- the tick ------------------------------------------------------------------------

    pub fn step(&mut self, input: Input, ctx: &mut WorldCtx<'_>) {
        if self.transition.is_some() {
            self.advance_transition(ctx);
            return;
        }
        if !self.screens.is_empty() {
            self.screen_input(input, ctx);
            return;
        }
        if self.animation.is_some() {
            self.advance_animation(ctx);
            return;
        }
        if self.movement.is_some() {
            let arrived = self.advance_movement(ctx);
            if !(arrived && self.runner.busy() && self.transition.is_none()) {
                return;
            }
        }
        if self.runner.busy() {
            self.advance_runner(ctx);
            return;
        }
        self.idle_input(input, ctx);
    }

    fn idle_input(&mut self, input: Input, ctx: &mut WorldCtx<'_>) {
        if let Some(dir) = input.direction() {
            if self.player.facing != dir {
                self.face(dir, ctx);
                return;
            }
            let (tx, ty) = self.ahead(dir);
            let off_map = self.map.cell_kind(tx, ty).is_none();
            if off_map {
                if let Some(w) = self
                    .map
                    .def()
                    .warp_at(self.player.x, self.player.y)
                    .cloned()
                {
                    // Edge warp: pushing off the map while standing on a warp cell.
                    self.take_map_warp(&w, ctx);
                    return;
                }
            }
            self.try_start_move(dir, false, ctx);
            return;
        }
        match input {
            Input::A => self.interact(ctx),
            Input::Start => {
                self.screens.push_back(Screen::StartMenu);
                ctx.show(PresentationRow::MenuOpened);
            }
            _ => {}
        }
    }

    fn screen_input(&mut self, input: Input, ctx: &mut WorldCtx<'_>) {
        match self.screens.front() {
            Some(Screen::Text { .. }) if input == Input::A => {
                if let Some(Screen::Text { on_close, .. }) = self.screens.pop_front() {
                    ctx.show(PresentationRow::TextClosed);
                    if let Some(Screen::Text { text, .. }) = self.screens.front() {
                        ctx.show(PresentationRow::TextOpened { text: text.clone() });
                    }
                    match on_close {
                        Some(CloseAction::Warp(t)) => {
                            if let Err(e) = self.start_warp(&t.map, t.x, t.y, t.facing, ctx) {
                                self.diagnostic(format!("text close warp: {e}"));
                            }
                        }
                        None => {}
                    }
                }
            }
            Some(Screen::Choice { .. }) => self.choice_input(input, ctx),
            Some(Screen::StartMenu) if matches!(input, Input::B | Input::Start) => {
                self.screens.pop_front();
                ctx.show(PresentationRow::MenuClosed);
            }
            _ => {}
        }
    }

    // ----- movement ------------------------------------------------------------------------

    fn ahead(&self, dir: Direction) -> (i64, i64) {
        let (dx, dy) = dir.delta();
        (
            i64::from(self.player.x) + i64::from(dx),
            i64::from(self.player.y) + i64::from(dy),
        )
    }

    fn passable(&self, x: i64, y: i64) -> Result<CellKind, Blocked> {
        let kind = self.map.cell_kind(x, y).ok_or(Blocked::Edge)?;
        let ok = kind.walkable() || (kind.is_water() && self.player.surfing);
        if !ok {
            return Err(Blocked::Cell);
        }
        if self
            .map
            .def()
            .npcs
            .iter()
            .any(|n| i64::from(n.x) == x && i64::from(n.y) == y)
        {
            return Err(Blocked::Npc);
        }
        Ok(kind)
    }

    pub(super) fn face(&mut self, dir: Direction, ctx: &mut WorldCtx<'_>) {
        if self.player.facing != dir {
            self.player.facing = dir;
            ctx.show(PresentationRow::Turned { facing: dir });
        }
    }

    /// Turn to `dir` and start one step if the cell ahead allows it. Returns whether a step
    /// started; a refused step shows a bump.
    pub(super) fn try_start_move(
        &mut self,
        dir: Direction,
        scripted: bool,
        ctx: &mut WorldCtx<'_>,
    ) -> bool {
        self.face(dir, ctx);
        let (tx, ty) = self.ahead(dir);
        let refused = match self.passable(tx, ty) {
            Ok(_) => None,
            Err(Blocked::Edge) => Some(sites::CollisionReason::Bounds),
            Err(Blocked::Cell) => Some(sites::CollisionReason::Tile),
            Err(Blocked::Npc) => Some(sites::CollisionReason::Entity),
        };
        let from = (self.player.x, self.player.y);
        let allowed =
            sites::movement_collision(ctx.rt, self.map.id(), dir, from, (tx, ty), refused);
        // A mod may open a blocked cell, never a cell outside the map.
        let verdict = if allowed && self.map.cell_kind(tx, ty).is_some() {
            Ok(())
        } else {
            Err(())
        };
        match verdict {
            Ok(()) => {
                let elapsed = sites_hooks::step_start(ctx.rt, self, dir, scripted);
                self.movement = Some(Movement {
                    dir,
                    elapsed,
                    to_x: tx as u32,
                    to_y: ty as u32,
                    scripted,
                });
                true
            }
            Err(()) => {
                ctx.show(PresentationRow::Bumped {
                    x: self.player.x,
                    y: self.player.y,
                    facing: dir,
                });
                false
            }
        }
    }

    /// Advance the current step; returns whether it arrived this tick.
    fn advance_movement(&mut self, ctx: &mut WorldCtx<'_>) -> bool {
        let Some(m) = self.movement.as_mut() else {
            return false;
        };
        m.elapsed += 1;
        if m.elapsed < STEP_TICKS {
            return false;
        }
        let Some(m) = self.movement.take() else {
            return false;
        };
        self.player.x = m.to_x;
        self.player.y = m.to_y;
        let kind = self.map.cell_kind(i64::from(m.to_x), i64::from(m.to_y));
        if self.player.surfing && !kind.is_some_and(CellKind::is_water) {
            self.player.surfing = false;
            ctx.show(PresentationRow::SurfEnded);
        }
        ctx.moved(self, false);
        ctx.show(PresentationRow::Stepped {
            map: self.map.id().to_owned(),
            x: m.to_x,
            y: m.to_y,
            facing: m.dir,
        });
        sites::world_stepped(ctx.rt, self.map.id(), m.to_x, m.to_y);
        if m.scripted || self.runner.busy() {
            return true;
        }
        // A mod's `onStep` that returns true consumes the step (no warp, no encounter).
        if self.run_step_handlers(
            super::map_step_handlers::StepKind::Step,
            i64::from(m.to_x),
            i64::from(m.to_y),
            ctx,
        ) {
            return true;
        }
        if let Some(w) = self.map.def().warp_at(m.to_x, m.to_y).cloned() {
            self.take_map_warp(&w, ctx);
            return true;
        }
        if kind.is_some_and(CellKind::is_grass) {
            let table = sites_hooks::encounter_table(
                ctx.rt,
                ctx.data,
                self.map.id(),
                Some((m.to_x, m.to_y)),
                self.map.def().encounters.as_ref(),
            );
            let encounter = match table.as_deref() {
                Some(table) => sites::encounter_roll(ctx.rt, self.map.id(), table, ctx.rng),
                None => None,
            }
            .map(|e| sites_hooks::encounter_species(ctx.rt, ctx.data, self.map.id(), e));
            if let Some(enc) = encounter {
                ctx.show(PresentationRow::WildEncounter {
                    species: enc.species.clone(),
                    level: enc.level,
                });
                self.encounter = Some(enc);
            }
        }
        true
    }

    /// Restore a saved surf state (no presentation row): only on a water cell.
    pub fn resume_surfing(&mut self) {
        let (x, y) = (i64::from(self.player.x), i64::from(self.player.y));
        self.player.surfing = self.map.cell_kind(x, y).is_some_and(CellKind::is_water);
    }

    pub(super) fn set_surfing(&mut self, on: bool, ctx: &mut WorldCtx<'_>) {
        if self.player.surfing != on {
            self.player.surfing = on;
            ctx.show(if on {
                PresentationRow::SurfStarted
            } else {
                PresentationRow::SurfEnded
            });
        }
    }

    // ----- warps ---------------------------------------------------------------------------

    /// Start a warp transition to `map` cell `(x, y)`. Refused while one is running, for an
    /// unknown map, or for a cell outside the target map.
    pub fn start_warp(
        &mut self,
        map: &str,
        x: u32,
        y: u32,
        facing: Direction,
        ctx: &mut WorldCtx<'_>,
    ) -> Result<(), String> {
        if self.transition.is_some() {
            return Err("the world is mid-warp".into());
        }
        let def = self
            .maps
            .get(map)
            .ok_or_else(|| format!("unknown map: {map}"))?;
        if x >= def.cell_width() || y >= def.cell_height() {
            return Err(format!("cell ({x}, {y}) outside {map}"));
        }
        ctx.show(PresentationRow::WarpStarted {
            from: self.map.id().to_owned(),
            to: map.to_owned(),
            x,
            y,
            facing,
        });
        self.transition = Some(Transition {
            target: WarpTarget::new(map, x, y, facing),
            elapsed: 0,
            swapped: false,
        });
        Ok(())
    }

    /// Take a map warp: `warp.destination` may reroute it; a bad destination is reported and
    /// the player stays.
    fn take_map_warp(&mut self, w: &super::map::WarpDef, ctx: &mut WorldCtx<'_>) {
        let resolved;
        let w = if w.to == last_map::LAST_MAP {
            let here = self.map.id();
            match last_map::resolve(&self.maps, here, w, ctx.last_outdoor.as_ref()) {
                Some(r) => {
                    resolved = r;
                    &resolved
                }
                None => {
                    self.diagnostic(format!("warp: LAST_MAP: no map to return to from {here}"));
                    return;
                }
            }
        } else {
            w
        };
        let (map, x, y) = sites::warp_destination(ctx.rt, w);
        last_map::record(&self.maps, self.map.def(), w, &map, ctx.last_outdoor);
        if let Err(e) = self.start_warp(&map, x, y, w.facing, ctx) {
            self.diagnostic(format!("warp: {e}"));
        }
    }

    fn advance_transition(&mut self, ctx: &mut WorldCtx<'_>) {
        let Some(mut t) = self.transition.take() else {
            return;
        };
        t.elapsed += 1;
        if !t.swapped && t.elapsed >= FADE_OUT_TICKS {
            t.swapped = true;
            match Self::instantiate(&self.maps, &t.target.map, ctx.object_toggles) {
                Ok(map) => {
                    let from = self.map.id().to_owned();
                    sites::map_exited(ctx.rt, &from, &t.target.map);
                    self.map = map;
                    self.player.x = t.target.x;
                    self.player.y = t.target.y;
                    self.player.facing = t.target.facing;
                    self.movement = None;
                    let on_water = self
                        .map
                        .cell_kind(i64::from(t.target.x), i64::from(t.target.y))
                        .is_some_and(CellKind::is_water);
                    self.player.surfing = self.player.surfing && on_water;
                    ctx.moved(self, false);
                    sites_flow::player_warped(
                        ctx.rt,
                        &from,
                        self.map.id(),
                        t.target.x,
                        t.target.y,
                        t.target.facing,
                    );
                    // The fade-in runs after the new map's scripts queued their work.
                    self.transition = Some(t);
                    self.enter_loaded_map(Some(&from), "warp", ctx);
                    return;
                }
                Err(e) => self.diagnostic(format!("warp: {e}")),
            }
        }
        if t.elapsed < FADE_OUT_TICKS + FADE_IN_TICKS {
            self.transition = Some(t);
        }
    }

    /// After the active map changed: presentation, music, `map.entered`, `onEnter` handlers.
    fn enter_loaded_map(&mut self, from: Option<&str>, via: &str, ctx: &mut WorldCtx<'_>) {
        let id = self.map.id().to_owned();
        ctx.show(PresentationRow::MapEntered {
            map: id.clone(),
            x: self.player.x,
            y: self.player.y,
            facing: self.player.facing,
        });
        if let Some(music) = self.map.def().music.clone() {
            if self.music.as_deref() != Some(music.as_str()) {
                self.play_music(&music, ctx);
            }
        }
        pallet_api::access::with_world(&*self, || sites::map_entered(ctx.rt, &id, from, via));
        let scripts = Rc::clone(&self.scripts);
        for (owner, handler) in scripts.on_enter(&id) {
            self.run_handler(&owner, handler, format!("{id}.onEnter"), ctx);
        }
    }

    fn run_handler(
        &mut self,
        owner: &str,
        handler: Handler,
        source: String,
        ctx: &mut WorldCtx<'_>,
    ) {
        match handler {
            Handler::Native(f) => f(self, ctx),
            Handler::Dyn(f) => {
                if let Err(e) = f(self, ctx) {
                    ctx.rt.report_error(owner, &e);
                    self.diagnostic(format!("{owner}: {source}: {e}"));
                }
            }
            Handler::Rows(rows) => self.enqueue_script(Script::new(source, rows)),
            Handler::Suppress => {}
        }
    }

    // ----- talking, text boxes -------------------------------------------------------------

    fn interact(&mut self, ctx: &mut WorldCtx<'_>) {
        let (tx, ty) = self.ahead(self.player.facing);
        // A mod's `onInteract` that returns true consumes the A press.
        if self.run_step_handlers(super::map_step_handlers::StepKind::Interact, tx, ty, ctx) {
            return;
        }
        let def = self.map.def();
        let text = def
            .npcs
            .iter()
            .find(|n| i64::from(n.x) == tx && i64::from(n.y) == ty)
            .map(|n| ("npc", n.text.clone()))
            .or_else(|| {
                def.signs
                    .iter()
                    .find(|s| i64::from(s.x) == tx && i64::from(s.y) == ty)
                    .map(|s| ("sign", s.text.clone()))
            });
        let Some((kind, text)) = text else { return };
        sites_flow::interacted(ctx.rt, self.map.id(), tx, ty, kind, &text);
        self.talk(&text, ctx);
    }

    /// Dispatch talk for a text constant: the winning map-script handler, else the text itself
    /// (the vanilla of `world.talk`, see [`Overworld::talk`]).
    pub(super) fn talk_vanilla(&mut self, text: &str, ctx: &mut WorldCtx<'_>) {
        let map = self.map.id().to_owned();
        match self.scripts.talk(&map, text) {
            Some((owner, handler)) => {
                self.run_handler(&owner, handler, format!("{map}.talk.{text}"), ctx)
            }
            None => {
                self.open_text(TextRef::Const(text.to_owned()), None, ctx);
            }
        }
    }

    /// Queue a text box; returns its id. It shows now if no other screen is up.
    pub fn open_text(
        &mut self,
        text: TextRef,
        on_close: Option<CloseAction>,
        ctx: &mut WorldCtx<'_>,
    ) -> u64 {
        let id = self.next_screen_id;
        self.next_screen_id += 1;
        if self.screens.is_empty() {
            ctx.show(PresentationRow::TextOpened { text: text.clone() });
        }
        self.screens.push_back(Screen::Text { id, text, on_close });
        id
    }

    // ----- flags, sound, blocks, animations ------------------------------------------------

    pub fn set_flag(&mut self, name: &str, on: bool, ctx: &mut WorldCtx<'_>) {
        if ctx.flags.flag(name) != on {
            ctx.flags.set_flag(name, on);
            if ctx.rt.wants_anything() {
                (ctx.observer.flag)(name, on);
            }
            ctx.show(PresentationRow::FlagChanged {
                flag: name.to_owned(),
                value: on,
            });
            sites_flow::flag_changed(ctx.rt, name, on);
        }
    }

    pub(super) fn play_music(&mut self, music: &str, ctx: &mut WorldCtx<'_>) {
        self.music = Some(music.to_owned());
        ctx.show(PresentationRow::Music {
            id: music.to_owned(),
        });
        sites_flow::music_started(ctx.rt, music, self.map.id());
    }

    pub(super) fn stop_music(&mut self, ctx: &mut WorldCtx<'_>) {
        if self.music.take().is_some() {
            ctx.show(PresentationRow::MusicStopped);
            sites_flow::music_stopped(ctx.rt, self.map.id());
        }
    }

    /// Replace one block of the active map (runtime only; emits `world.block_replaced`).
    pub fn replace_block(
        &mut self,
        bx: u32,
        by: u32,
        block: u32,
        ctx: &mut WorldCtx<'_>,
    ) -> Result<(), String> {
        self.map.set_block(bx, by, block)?;
        ctx.moved(self, true);
        ctx.show(PresentationRow::BlockReplaced {
            map: self.map.id().to_owned(),
            bx,
            by,
            block,
        });
        pallet_api::access::with_world(&*self, || {
            sites::block_replaced(ctx.rt, self.map.id(), bx, by, block)
        });
        Ok(())
    }

    pub(super) fn start_ship_departure(&mut self, ctx: &mut WorldCtx<'_>) {
        if self.map.id() != super::dock::DOCK {
            self.diagnostic(format!(
                "ss_anne_departs on {}: no ship here",
                self.map.id()
            ));
            return;
        }
        ctx.show(PresentationRow::AnimationStarted {
            name: "ss_anne_departs".into(),
        });
        self.animation = Some(Animation::ShipDeparture {
            next_column: 0,
            ticks: 0,
        });
    }

    fn advance_animation(&mut self, ctx: &mut WorldCtx<'_>) {
        let Some(Animation::ShipDeparture { next_column, ticks }) = self.animation.take() else {
            return;
        };
        let ticks = ticks + 1;
        if ticks < SHIP_FRAME_TICKS {
            self.animation = Some(Animation::ShipDeparture { next_column, ticks });
            return;
        }
        let columns = super::dock::DOCK_SHIP_COLUMNS;
        if let Some(&bx) = columns.get(next_column) {
            for &(by, water) in super::dock::DOCK_SHIP_ROWS.iter() {
                if let Err(e) = self.replace_block(bx, by, water, ctx) {
                    self.diagnostic(format!("ss_anne_departs: {e}"));
                }
            }
        }
        if next_column + 1 < columns.len() {
            self.animation = Some(Animation::ShipDeparture {
                next_column: next_column + 1,
                ticks: 0,
            });
        } else {
            ctx.show(PresentationRow::AnimationEnded {
                name: "ss_anne_departs".into(),
            });
        }
    }
}
