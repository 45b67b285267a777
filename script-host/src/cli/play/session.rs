//! The front-end-independent play session: boots the game the way `pallet run` does (version,
//! seed, mods, an optional save), takes [`Key`]s, ticks the engine, and keeps what a screen
//! shows (the UI state of menus, the battle log, the mods' log lines) and the transcript.
//!
//! A key is a player's action, not a tick: an arrow turns (if needed) and steps, then the
//! session waits the world out (warps, scripts, animations: no-input ticks) until it is idle or
//! a screen is up, as `pallet run`'s `walk` does. So a session is a pure function of its boot
//! header and its keys: a key log replays to the same transcript, with or without a terminal.

use std::fmt::Write as _;
use std::rc::Rc;

use pallet_api::{Runtime, Value};
use pallet_engine::battle::{Action, NeedsChoice, Side};
use pallet_engine::data;
use pallet_engine::game::{Game, Mode};
use pallet_engine::save::data::ItemStack;
use pallet_engine::world::overworld::Screen;
use pallet_engine::world::presentation::PresentationRow;
use pallet_engine::world::{BusyState, Direction, Input};

use super::keys::{Boot, Key};
use crate::cli::cmd_run::format_rows;
use crate::host::{ModSession, ModsOptions};

/// Most no-input ticks one key may wait (a stuck world is reported, not a hang).
const MAX_SETTLE_TICKS: usize = 20_000;
/// Lines kept for the panes (the transcript keeps everything).
const PANE_LINES: usize = 200;

/// The start menu's entries.
pub const MENU_ITEMS: [&str; 4] = ["POKéMON", "ITEM", "SAVE", "EXIT"];
/// The battle menu's entries (a 2×2 grid: FIGHT ITEM / SWITCH RUN).
pub const BATTLE_ITEMS: [&str; 4] = ["FIGHT", "ITEM", "SWITCH", "RUN"];

/// Which front-end menu is up (the engine's start menu is one screen; its entries are here).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ui {
    /// Walking, or a text box (the engine's screen).
    World,
    /// The start menu, cursor on [`MENU_ITEMS`].
    Menu(usize),
    /// The start menu's party list.
    Party(usize),
    /// The start menu's bag.
    Bag(usize),
    /// A battle: the menu and its cursor.
    Battle(BattleMenu, usize),
}

/// The battle's menus.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BattleMenu {
    /// FIGHT / ITEM / SWITCH / RUN.
    Main,
    /// The active mon's moves.
    Fight,
    /// The bag.
    Item,
    /// The party.
    Switch,
    /// A question outside a round (replacement, SHIFT, a fifth move, Mimic): the legal
    /// actions as a list.
    Choices,
}

/// A running play session.
pub struct Session {
    pub game: Game,
    pub mods: Option<ModSession>,
    pub boot: Boot,
    ui: Ui,
    transcript: String,
    mod_log: Vec<String>,
    events: Vec<String>,
    battle_log: Vec<String>,
    battle_over: bool,
    message: Option<String>,
    save_requested: bool,
    keys: Vec<Key>,
}

fn push_capped(v: &mut Vec<String>, line: String) {
    v.push(line);
    if v.len() > PANE_LINES {
        let extra = v.len() - PANE_LINES;
        v.drain(..extra);
    }
}

impl Session {
    /// Boot as `pallet run` does: mods into a fresh runtime, then a new game (with the boot's
    /// starter and bag) or the loaded save. `Err`: unusable mods paths, an unreadable save, a
    /// bad starter/bag.
    pub fn boot(boot: &Boot, trace: bool) -> Result<Session, String> {
        let mut boot = boot.clone();
        let save = match &boot.load {
            Some(path) => {
                let loaded = pallet_engine::save::load_save(path)
                    .map_err(|e| format!("--load {}: {e}", path.display()))?;
                boot.version = loaded.save.version;
                Some(loaded.save)
            }
            None => None,
        };
        let rt = Rc::new(Runtime::new());
        let opts = ModsOptions {
            dirs: boot.mods.clone(),
            no_default_mods: boot.no_default_mods,
            trace,
            cache: None,
        };
        let api_version = pallet_engine::world::sites::api_version(boot.version);
        let mods = ModSession::load(&rt, api_version, &opts)?;
        let game = match save {
            Some(save) => {
                mods.loader
                    .mod_data
                    .load(&Value::Map(save.mod_data.clone()));
                Game::from_save(save, boot.seed, rt).map_err(|e| e.to_string())?
            }
            None => {
                let mut g =
                    Game::new_game(boot.version, boot.seed, rt).map_err(|e| e.to_string())?;
                if let Some((species, level)) = &boot.starter {
                    g.give_pokemon(species, *level)
                        .map_err(|e| format!("starter {species}: {e}"))?;
                }
                for (item, count) in &boot.bag {
                    let id = data::gen1()
                        .item_by_name(item)
                        .map(|i| data::gen1().item(i).id)
                        .ok_or_else(|| format!("bag: unknown item {item}"))?;
                    if *count > 0 {
                        g.save.inventory.push(ItemStack {
                            id: id.to_owned(),
                            count: *count,
                        });
                    }
                }
                g
            }
        };
        let mut s = Session {
            game,
            mods: Some(mods),
            boot,
            ui: Ui::World,
            transcript: String::new(),
            mod_log: Vec::new(),
            events: Vec::new(),
            battle_log: Vec::new(),
            battle_over: false,
            message: None,
            save_requested: false,
            keys: Vec::new(),
        };
        let _ = writeln!(
            s.transcript,
            "pallet play: version {}, seed {}{}",
            s.boot.version,
            s.boot.seed,
            match &s.boot.load {
                Some(p) => format!(", save {}", p.display()),
                None => String::new(),
            }
        );
        if let Some(m) = &s.mods {
            let _ = writeln!(s.transcript, "{}", m.summary());
        }
        s.flush();
        s.reconcile();
        Ok(s)
    }

    // ----- reads for the screen ----------------------------------------------------------

    pub fn ui(&self) -> &Ui {
        &self.ui
    }

    pub fn transcript(&self) -> &str {
        &self.transcript
    }

    /// The transcript with the end summary (what `pallet run --keys` prints).
    pub fn final_transcript(&self) -> String {
        let mut s = self.transcript.clone();
        let g = &self.game;
        let pl = &g.save.player;
        let _ = writeln!(s, "\n## End");
        let _ = writeln!(s, "keys: {}", self.keys.len());
        let _ = writeln!(s, "ticks: {}", g.tick);
        let _ = writeln!(
            s,
            "player: {} ({},{}) facing {}",
            pl.map, pl.x, pl.y, pl.facing
        );
        let party: Vec<String> = g
            .save
            .party
            .iter()
            .map(|m| format!("{} L{}", m.species, m.level))
            .collect();
        let _ = writeln!(s, "party: {}", or_dash(&party.join(", ")));
        let flags: Vec<&str> = g.save.flags.iter().map(String::as_str).collect();
        let _ = writeln!(s, "flags: {}", or_dash(&flags.join(", ")));
        s
    }

    pub fn mod_log(&self) -> &[String] {
        &self.mod_log
    }

    pub fn events(&self) -> &[String] {
        &self.events
    }

    /// This battle's log rows (cleared when a battle starts).
    pub fn battle_log(&self) -> &[String] {
        &self.battle_log
    }

    /// A front-end line about the last key ("nothing to use here"), if any.
    pub fn message(&self) -> Option<&str> {
        self.message.as_deref()
    }

    pub fn keys(&self) -> &[Key] {
        &self.keys
    }

    /// Did the player choose SAVE since the last call? The front end writes the save file
    /// ([`Session::save_data`]); a headless replay does not.
    pub fn take_save_request(&mut self) -> bool {
        std::mem::take(&mut self.save_requested)
    }

    /// The save as it would be written now: the game's save with the mods' `mod.save`
    /// buckets.
    pub fn save_data(&self) -> pallet_engine::save::SaveData {
        let mut save = self.game.save.clone();
        if let Some(m) = &self.mods {
            if let Value::Map(buckets) = m.loader.mod_data.to_value() {
                save.mod_data = buckets;
            }
        }
        save
    }

    // ----- keys --------------------------------------------------------------------------

    /// Take one key: update menus, tick the engine, drain rows into the transcript and panes.
    pub fn press(&mut self, key: Key) {
        self.message = None;
        self.keys.push(key.clone());
        match (&self.ui, &key) {
            (_, Key::Signal { mod_id, name }) => {
                let (m, n) = (mod_id.clone(), name.clone());
                self.signal(&m, &n);
            }
            (Ui::World, k) => self.world_key(k),
            (Ui::Menu(c), k) => {
                let c = *c;
                self.menu_key(c, k)
            }
            (Ui::Party(c), k) => {
                let n = self.game.save.party.len();
                let c = *c;
                match k {
                    Key::Dir(d) => self.ui = Ui::Party(move_cursor(c, n, *d)),
                    Key::B | Key::Start => self.ui = Ui::Menu(0),
                    Key::A => {
                        self.message =
                            Some("the party's order is changed in battle (SWITCH)".into())
                    }
                    Key::Signal { .. } => {}
                }
            }
            (Ui::Bag(c), k) => {
                let n = self.game.save.inventory.len();
                let c = *c;
                match k {
                    Key::Dir(d) => self.ui = Ui::Bag(move_cursor(c, n, *d)),
                    Key::B | Key::Start => self.ui = Ui::Menu(1),
                    Key::A => {
                        self.message = Some(
                            "items are used in battle (the engine has no field item use yet)"
                                .into(),
                        )
                    }
                    Key::Signal { .. } => {}
                }
            }
            (Ui::Battle(menu, c), k) => {
                let (menu, c) = (*menu, *c);
                self.battle_key(menu, c, k);
            }
        }
        self.flush();
        self.reconcile();
    }

    fn tick(&mut self, input: Input) {
        self.game.step(input);
    }

    /// No-input ticks until the world is idle or a screen (text box, menu, battle) is up.
    fn settle(&mut self) {
        for _ in 0..MAX_SETTLE_TICKS {
            match self.game.busy() {
                None | Some(BusyState::Screen) => return,
                Some(_) => self.tick(Input::None),
            }
        }
        let state = self.game.busy().map(|b| b.as_str()).unwrap_or("idle");
        self.note(&format!("the world stayed busy ({state})"));
    }

    fn world_key(&mut self, key: &Key) {
        let text_up = matches!(
            self.game.overworld().and_then(|o| o.screen()),
            Some(Screen::Text { .. })
        );
        let choice_up = matches!(
            self.game.overworld().and_then(|o| o.screen()),
            Some(Screen::Choice { .. })
        );
        match key {
            Key::Dir(d) if choice_up => self.tick(Input::from_direction(*d)),
            Key::Dir(d) if !text_up => self.walk(*d),
            Key::Dir(_) => {}
            Key::A => self.tick(Input::A),
            Key::B => self.tick(Input::B),
            Key::Start => self.tick(Input::Start),
            Key::Signal { .. } => {}
        }
        self.settle();
    }

    /// Turn (if needed) and take one step, as the scenario's `walk` does.
    fn walk(&mut self, d: Direction) {
        let input = Input::from_direction(d);
        let facing = self.game.overworld().map(|o| o.player().facing);
        if facing != Some(d) {
            self.tick(input);
        }
        if self.game.busy().is_none() && self.game.mode == Mode::Overworld {
            self.tick(input);
        }
    }

    fn menu_key(&mut self, c: usize, key: &Key) {
        match key {
            Key::Dir(d) => self.ui = Ui::Menu(move_cursor(c, MENU_ITEMS.len(), *d)),
            Key::B | Key::Start => self.tick(Input::B),
            Key::A => match c {
                0 => self.ui = Ui::Party(0),
                1 => self.ui = Ui::Bag(0),
                2 => {
                    self.flush();
                    let p = &self.game.save.player;
                    let line = format!("save requested: {} ({},{})", p.map, p.x, p.y);
                    self.note(&line);
                    self.save_requested = true;
                    self.message = Some("SAVE: the game is saved".into());
                }
                _ => self.tick(Input::B),
            },
            Key::Signal { .. } => {}
        }
    }

    fn battle_key(&mut self, menu: BattleMenu, c: usize, key: &Key) {
        let legal = self.game.battle_actions();
        match (menu, key) {
            (BattleMenu::Main, Key::Dir(d)) => {
                let c = match d {
                    Direction::Up | Direction::Down => c ^ 2,
                    Direction::Left | Direction::Right => c ^ 1,
                };
                self.ui = Ui::Battle(BattleMenu::Main, c & 3);
            }
            (BattleMenu::Main, Key::A) => match c {
                0 => {
                    if let Some(slot) = legal.iter().find_map(|a| match a {
                        Action::Move(s) => Some(*s as usize),
                        _ => None,
                    }) {
                        self.ui = Ui::Battle(BattleMenu::Fight, slot);
                    } else if let Some(a) = legal
                        .iter()
                        .find(|a| matches!(a, Action::Struggle | Action::Continue))
                    {
                        self.choose(*a);
                    }
                }
                1 => {
                    if self.game.save.inventory.is_empty() {
                        self.message = Some("the bag is empty".into());
                    } else {
                        self.ui = Ui::Battle(BattleMenu::Item, 0);
                    }
                }
                2 => self.ui = Ui::Battle(BattleMenu::Switch, 0),
                _ => self.choose(Action::Run),
            },
            (BattleMenu::Main, _) => {}
            (BattleMenu::Fight, Key::Dir(d)) => {
                let n = self
                    .game
                    .battle()
                    .map(|b| b.active(Side::Player).move_count())
                    .unwrap_or(0);
                self.ui = Ui::Battle(BattleMenu::Fight, move_cursor(c, n, *d));
            }
            (BattleMenu::Fight, Key::A) => self.choose(Action::Move(c as u8)),
            (BattleMenu::Item, Key::Dir(d)) => {
                let n = self.game.save.inventory.len();
                self.ui = Ui::Battle(BattleMenu::Item, move_cursor(c, n, *d));
            }
            (BattleMenu::Item, Key::A) => {
                let item = self
                    .game
                    .save
                    .inventory
                    .get(c)
                    .and_then(|s| data::gen1().item_by_name(&s.id));
                match item {
                    Some(i) => self.choose(Action::Item(i)),
                    None => self.message = Some("nothing to use".into()),
                }
            }
            (BattleMenu::Switch, Key::Dir(d)) => {
                let n = self.game.battle().map(|b| b.party(Side::Player).len());
                self.ui = Ui::Battle(BattleMenu::Switch, move_cursor(c, n.unwrap_or(0), *d));
            }
            (BattleMenu::Switch, Key::A) => self.choose(Action::Switch(c as u8)),
            (BattleMenu::Fight | BattleMenu::Item | BattleMenu::Switch, Key::B) => {
                let back = match menu {
                    BattleMenu::Fight => 0,
                    BattleMenu::Item => 1,
                    _ => 2,
                };
                self.ui = Ui::Battle(BattleMenu::Main, back);
            }
            (BattleMenu::Choices, Key::Dir(d)) => {
                self.ui = Ui::Battle(BattleMenu::Choices, move_cursor(c, legal.len(), *d));
            }
            (BattleMenu::Choices, Key::A) => {
                if let Some(a) = legal.get(c) {
                    self.choose(*a);
                }
            }
            _ => {}
        }
    }

    /// Submit the player's choice; a refused one is a message and a transcript note.
    fn choose(&mut self, action: Action) {
        if !self.game.battle_actions().contains(&action)
            && !matches!(action, Action::Item(_))
            && self.game.mode == Mode::Battle
        {
            let why = match action {
                Action::Run => "no running from a trainer battle!",
                Action::Switch(_) => "that POKéMON cannot battle now",
                Action::Move(_) => "that move cannot be used now",
                _ => "that cannot be done now",
            };
            self.message = Some(why.into());
            return;
        }
        if let Err(e) = self.game.battle_choose(action) {
            self.flush();
            self.note(&format!("refused: {e}"));
            self.message = Some(e.to_string());
            return;
        }
        // The choice was taken: the next round starts at the main menu, cursor kept.
        let back = match action {
            Action::Item(_) => 1,
            Action::Switch(_) => 2,
            Action::Run => 3,
            _ => 0,
        };
        self.ui = Ui::Battle(BattleMenu::Main, back);
        if self.game.mode != Mode::Battle {
            // Back in the overworld (a blackout warps): wait it out. The battle screen is gone;
            // its last rows stay readable on the message line.
            self.flush();
            let n = self.battle_log.len();
            self.message = Some(self.battle_log[n.saturating_sub(3)..].join(" · "));
            self.settle();
        }
    }

    /// `mod.MOD.NAME` between ticks with the game lent (see `pallet run`'s `signal`).
    fn signal(&mut self, mod_id: &str, name: &str) {
        self.flush();
        let event = format!("mod.{mod_id}.{name}");
        let loaded = self
            .mods
            .as_ref()
            .is_some_and(|m| m.status().order.iter().any(|o| o == mod_id));
        if !loaded {
            self.message = Some(format!("{mod_id} is not loaded"));
            self.note(&format!("signal {event}: {mod_id} is not loaded"));
            return;
        }
        self.note(&format!("signal {event}"));
        let before = (self.game.mode.clone(), self.game.battle().map(|b| b.turn()));
        let store = self.mods.as_ref().map(|m| m.loader.mod_data.clone());
        let rt = Rc::clone(&self.game.rt);
        let r = pallet_engine::checkpoint::lend::lend(&mut self.game, store.as_ref(), || {
            rt.emit_mod(mod_id, &event, &Value::Nil)
        });
        if let Err(e) = r {
            self.note(&format!("signal {event}: {e}"));
        }
        // A restore into a battle: the rows after the checkpoint did not happen any more.
        let after = (self.game.mode.clone(), self.game.battle().map(|b| b.turn()));
        if after.0 == Mode::Battle && after != before {
            self.flush();
            self.battle_log.clear();
            self.battle_over = false;
            let turn = after.1.unwrap_or(0);
            push_capped(
                &mut self.battle_log,
                format!("(checkpoint restored: turn {turn})"),
            );
        }
    }

    fn note(&mut self, text: &str) {
        let line = format!("[t={:>5}] {text}", self.game.tick);
        let _ = writeln!(self.transcript, "{line}");
        push_capped(&mut self.events, line);
    }

    /// New rows and mod lines into the transcript and the panes.
    fn flush(&mut self) {
        let rows = self.game.drain_feed();
        let mut text = String::new();
        format_rows(&self.game, &rows, &mut text);
        for r in &rows {
            let PresentationRow::Note { text } = &r.row else {
                continue;
            };
            if let Some(t) = text.strip_prefix("battle: ") {
                // The first row of a new battle starts a new log.
                if std::mem::take(&mut self.battle_over) {
                    self.battle_log.clear();
                }
                push_capped(&mut self.battle_log, t.to_owned());
            } else if text.starts_with("battle ended") {
                push_capped(&mut self.battle_log, text.clone());
                self.battle_over = true;
            }
        }
        // Battle rows have their own pane.
        for line in text.lines().filter(|l| !l.contains("] note: battle: ")) {
            push_capped(&mut self.events, line.to_owned());
        }
        self.transcript.push_str(&text);
        if let Some(mods) = &self.mods {
            for line in mods.drain_lines() {
                let _ = writeln!(self.transcript, "{line}");
                push_capped(&mut self.mod_log, line);
            }
        }
    }

    /// Keep the menus in step with the engine: a battle opens the battle menu (or the list of
    /// choices outside a round), the start menu's entries exist only while it is open.
    fn reconcile(&mut self) {
        if self.game.mode == Mode::Battle {
            let round = self
                .game
                .battle()
                .is_some_and(|b| b.needs_choice() == NeedsChoice::Round);
            self.ui = match (&self.ui, round) {
                (Ui::Battle(BattleMenu::Choices, _), true) => Ui::Battle(BattleMenu::Main, 0),
                (Ui::Battle(m, c), true) => Ui::Battle(*m, *c),
                (Ui::Battle(BattleMenu::Choices, c), false) => {
                    let n = self.game.battle_actions().len();
                    Ui::Battle(BattleMenu::Choices, (*c).min(n.saturating_sub(1)))
                }
                (_, true) => Ui::Battle(BattleMenu::Main, 0),
                (_, false) => Ui::Battle(BattleMenu::Choices, 0),
            };
            return;
        }
        let menu_up = matches!(
            self.game.overworld().and_then(|o| o.screen()),
            Some(Screen::StartMenu)
        );
        self.ui = match (&self.ui, menu_up) {
            (Ui::Menu(_) | Ui::Party(_) | Ui::Bag(_), true) => self.ui.clone(),
            (_, true) => Ui::Menu(0),
            (_, false) => Ui::World,
        };
    }
}

fn or_dash(s: &str) -> &str {
    if s.is_empty() {
        "-"
    } else {
        s
    }
}

/// Up/Down move a list cursor (wrapping); Left/Right leave it.
fn move_cursor(c: usize, n: usize, d: Direction) -> usize {
    if n == 0 {
        return 0;
    }
    match d {
        Direction::Up => (c + n - 1) % n,
        Direction::Down => (c + 1) % n,
        _ => c.min(n - 1),
    }
}

/// Replay `keys` on a session booted from `boot` (what `pallet run --keys` does).
pub fn replay(boot: &Boot, keys: &[Key], trace: bool) -> Result<Session, String> {
    let mut s = Session::boot(boot, trace)?;
    for k in keys {
        s.press(k.clone());
        s.take_save_request();
    }
    Ok(s)
}
