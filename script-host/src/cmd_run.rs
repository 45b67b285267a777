//! `pallet run`: boot a new game on the embedded data, play the built-in scenario
//! (`scenarios/main.scn`, embedded) and print a readable transcript. Same seed and version →
//! byte-identical output.
//!
//! The scenario is data: one command per line (the file's header documents them). Commands
//! expand into `Game::step(input)` ticks; `expect …` lines check the game and stop the run
//! with an error when the world is not where the scenario expects it.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use pallet_api::{Runtime, Value};
use pallet_engine::game::Game;
use pallet_engine::world::presentation::{FeedRow, PresentationRow};
use pallet_engine::world::{Direction, GameVersion, Input};

/// The built-in scenario.
pub const MAIN_SCENARIO: &str = include_str!("../scenarios/main.scn");

/// Upper bound of ticks any one command may take (a stuck world is an error, not a hang).
const MAX_COMMAND_TICKS: usize = 20_000;

/// One parsed scenario command.
#[derive(Clone, Debug, PartialEq)]
pub enum Cmd {
    Section(String),
    Walk(Direction, u32),
    Press(Input, u32),
    Close,
    Idle,
    Flag(String, bool),
    Block(String, i64, i64),
    Busy,
    ExpectMap {
        map: String,
        at: Option<(u32, u32)>,
        facing: Option<Direction>,
    },
    ExpectFlag(String, bool),
    ExpectBlock(String, i64, i64, u32),
    ExpectBusy(Option<String>),
    /// Battle commands (`give`, `bag`, `trainer`, `seek`, `battle …`, `expect party|boxed|battle`).
    Battle(crate::scenario_battle::BattleCmd),
    /// `if map MAP` / `if boxed N`: the lines up to the matching `end` run only while the
    /// condition holds (a mod's answer may change where the player is or where a catch went;
    /// both outcomes converge after `end`).
    If(Cond),
    End,
    /// `unload MOD`: owner cleanup of a loaded mod (its hook links and listeners are removed;
    /// RFC 0013 "removing the owner restores vanilla").
    Unload(String),
    /// `signal MOD NAME`: between ticks (or between battle choices), raise the mod's own event
    /// `mod.MOD.NAME` with the game lent, as a front end relays a mod's hotkey; the mod's
    /// handlers may inspect, capture and restore checkpoints there (RFC 0004/0005).
    Signal(String, String),
}

/// The condition of an `if`.
#[derive(Clone, Debug, PartialEq)]
pub enum Cond {
    /// The player is on this map.
    Map(String),
    /// The save's boxes hold exactly this many mons.
    Boxed(usize),
}

/// A scenario line and its command.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub number: usize,
    pub cmd: Cmd,
}

fn num<T: std::str::FromStr>(s: Option<&&str>, what: &str) -> Result<T, String> {
    let s = s.ok_or_else(|| format!("missing {what}"))?;
    s.parse().map_err(|_| format!("bad {what} {s:?}"))
}

fn dir(s: Option<&&str>) -> Result<Direction, String> {
    let s = s.ok_or("missing direction")?;
    Direction::parse(s).ok_or_else(|| format!("bad direction {s:?}"))
}

fn on_off(s: Option<&&str>) -> Result<bool, String> {
    match s.copied() {
        Some("on" | "set") => Ok(true),
        Some("off" | "clear") => Ok(false),
        other => Err(format!("expected on/off, got {other:?}")),
    }
}

/// Parse a scenario text. Errors name the line.
pub fn parse_scenario(text: &str) -> Result<Vec<Line>, String> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    for (i, raw) in text.lines().enumerate() {
        let number = i + 1;
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let cmd = parse_words(&words).map_err(|e| format!("scenario line {number}: {e}"))?;
        match cmd {
            Cmd::If(_) => depth += 1,
            Cmd::End if depth == 0 => {
                return Err(format!("scenario line {number}: `end` without `if`"))
            }
            Cmd::End => depth -= 1,
            _ => {}
        }
        out.push(Line { number, cmd });
    }
    if depth > 0 {
        return Err("scenario: `if` without `end`".into());
    }
    Ok(out)
}

fn parse_words(w: &[&str]) -> Result<Cmd, String> {
    if let Some(battle) = crate::scenario_battle::parse(w) {
        return battle.map(Cmd::Battle);
    }
    let arity = |n: usize| {
        if w.len() == n {
            Ok(())
        } else {
            Err(format!("`{}` takes {} argument(s)", w[0], n - 1))
        }
    };
    Ok(match w[0] {
        "section" => Cmd::Section(w[1..].join(" ")),
        "walk" => {
            arity(3)?;
            Cmd::Walk(dir(w.get(1))?, num(w.get(2), "cell count")?)
        }
        "press" => {
            let s = w.get(1).ok_or("missing input")?;
            let input = Input::parse(s).ok_or_else(|| format!("bad input {s:?}"))?;
            let n = if w.len() > 2 {
                num(w.get(2), "count")?
            } else {
                1
            };
            if w.len() > 3 {
                return Err("`press` takes 1 or 2 arguments".into());
            }
            Cmd::Press(input, n)
        }
        "talk" => {
            arity(1)?;
            Cmd::Press(Input::A, 1)
        }
        "close" => {
            arity(1)?;
            Cmd::Close
        }
        "idle" => {
            arity(1)?;
            Cmd::Idle
        }
        "busy" => {
            arity(1)?;
            Cmd::Busy
        }
        "flag" => {
            arity(3)?;
            Cmd::Flag(w[2].to_owned(), on_off(w.get(1))?)
        }
        "block" => {
            arity(4)?;
            Cmd::Block(
                w[1].to_owned(),
                num(w.get(2), "block x")?,
                num(w.get(3), "block y")?,
            )
        }
        "if" => {
            arity(3)?;
            match w[1] {
                "map" => Cmd::If(Cond::Map(w[2].to_owned())),
                "boxed" => Cmd::If(Cond::Boxed(num(w.get(2), "box count")?)),
                _ => return Err("`if` takes `map MAP` or `boxed N`".into()),
            }
        }
        "end" => {
            arity(1)?;
            Cmd::End
        }
        "unload" => {
            arity(2)?;
            Cmd::Unload(w[1].to_owned())
        }
        "signal" => {
            arity(3)?;
            Cmd::Signal(w[1].to_owned(), w[2].to_owned())
        }
        "expect" => match w.get(1).copied() {
            Some("map") => {
                if !matches!(w.len(), 3 | 5 | 6) {
                    return Err("`expect map` takes MAP [X Y [FACING]]".into());
                }
                let at = if w.len() >= 5 {
                    Some((num(w.get(3), "x")?, num(w.get(4), "y")?))
                } else {
                    None
                };
                let facing = if w.len() == 6 {
                    Some(dir(w.get(5))?)
                } else {
                    None
                };
                Cmd::ExpectMap {
                    map: w[2].to_owned(),
                    at,
                    facing,
                }
            }
            Some("flag") => {
                arity(4)?;
                Cmd::ExpectFlag(w[2].to_owned(), on_off(w.get(3))?)
            }
            Some("block") => {
                arity(6)?;
                Cmd::ExpectBlock(
                    w[2].to_owned(),
                    num(w.get(3), "block x")?,
                    num(w.get(4), "block y")?,
                    num(w.get(5), "block id")?,
                )
            }
            Some("busy") => {
                arity(3)?;
                Cmd::ExpectBusy(if w[2] == "idle" {
                    None
                } else {
                    Some(w[2].to_owned())
                })
            }
            other => return Err(format!("unknown expectation {other:?}")),
        },
        other => return Err(format!("unknown command {other:?}")),
    })
}

/// Plays a scenario on a game, writing the transcript.
pub struct Player {
    pub game: Game,
    out: String,
    /// Loaded mods: their log lines, failures and trace join the transcript at each flush.
    pub mods: Option<crate::host::ModSession>,
    /// One entry per open `if`: whether its condition held.
    branches: Vec<bool>,
    /// `--strict`: a failed `expect` stops the run. Otherwise it is reported (a mod may have
    /// legitimately changed the game) and the run goes on.
    pub strict: bool,
    /// Failed expectations of a non-strict run: `(scenario line, message)`.
    pub differed: Vec<(usize, String)>,
    /// Expectations that held.
    pub met: usize,
    /// The scenario line being run (for expectation reports).
    line: usize,
    /// A non-strict run whose `seek` found no wild encounter (a mod suppressed them) skips the
    /// rest of that section: its battle commands have no battle to act on.
    skip_section: bool,
}

impl Player {
    pub fn new(game: Game) -> Player {
        Player {
            game,
            out: String::new(),
            mods: None,
            branches: Vec::new(),
            strict: true,
            differed: Vec::new(),
            met: 0,
            line: 0,
            skip_section: false,
        }
    }

    /// Run one command of scenario line `number`.
    pub fn run_line(&mut self, number: usize, cmd: &Cmd) -> Result<(), String> {
        self.line = number;
        self.run(cmd)
    }

    /// An expectation's outcome: strict runs stop on a failure; others report it and go on.
    fn expectation(&mut self, outcome: Result<(), String>) -> Result<(), String> {
        match outcome {
            Ok(()) => {
                self.met += 1;
                Ok(())
            }
            Err(e) if self.strict => Err(e),
            Err(e) => {
                self.flush();
                let line = self.line;
                self.note(&format!(
                    "scenario line {line}: {e} (a mod changed this; --strict stops here)"
                ));
                self.differed.push((line, e));
                Ok(())
            }
        }
    }

    pub fn transcript(&self) -> &str {
        &self.out
    }

    fn tick(&mut self, input: Input) {
        self.game.step(input);
        interleave(&mut self.game, self.mods.as_ref(), &mut self.out);
    }

    /// A scenario battle command, with the mods' log lines put in at each tick and choice.
    fn battle(&mut self, c: &crate::scenario_battle::BattleCmd) -> Result<(), String> {
        let (mods, out) = (self.mods.as_ref(), &mut self.out);
        crate::scenario_battle::run(&mut self.game, c, &mut |g| interleave(g, mods, out))
    }

    /// Flee a wild battle that interrupted a walk, log lines at each choice.
    fn flee(&mut self) -> Result<(), String> {
        let (mods, out) = (self.mods.as_ref(), &mut self.out);
        crate::scenario_battle::flee(&mut self.game, &mut |g| interleave(g, mods, out))
    }

    /// Step with no input until idle or a text box shows.
    fn settle(&mut self) -> Result<(), String> {
        for _ in 0..MAX_COMMAND_TICKS {
            match self.game.busy() {
                None => return Ok(()),
                Some(b) if b.as_str() == "screen_busy" => return Ok(()),
                Some(_) => self.tick(Input::None),
            }
        }
        Err(format!(
            "the world stayed busy ({:?})",
            self.game.busy().map(|b| b.as_str())
        ))
    }

    fn player_pos(&self) -> Option<(String, u32, u32, Direction)> {
        let ow = self.game.overworld()?;
        let p = ow.player();
        Some((ow.map_id().to_owned(), p.x, p.y, p.facing))
    }

    fn walk(&mut self, d: Direction, n: u32) -> Result<(), String> {
        let input = Input::from_direction(d);
        for i in 0..n {
            self.flee()?;
            self.settle()?;
            if self.game.busy().is_some() {
                return Err(format!(
                    "cannot walk: {}",
                    self.game.busy().map(|b| b.as_str()).unwrap_or("")
                ));
            }
            let facing = self.player_pos().map(|p| p.3);
            if facing != Some(d) {
                self.tick(input);
            }
            let before = self.player_pos();
            self.tick(input);
            if self.game.busy().is_none() && self.player_pos() == before {
                let at = before
                    .map(|(map, x, y, _)| format!("{map} ({x},{y})"))
                    .unwrap_or_default();
                return Err(format!("walk {d}: blocked at {at} after {i} of {n} cells"));
            }
            self.settle()?;
        }
        Ok(())
    }

    fn close(&mut self) -> Result<(), String> {
        for _ in 0..MAX_COMMAND_TICKS {
            // A script's choice box is the scenario's to answer (`press a` / `press b`).
            let choice_up = matches!(
                self.game.overworld().and_then(|o| o.screen()),
                Some(pallet_engine::world::overworld::Screen::Choice { .. })
            );
            match self.game.busy() {
                // So is a battle a script started (`battle …` answers it).
                _ if choice_up || self.game.battle().is_some() => return Ok(()),
                Some(b) if b.as_str() == "screen_busy" => self.tick(Input::A),
                Some(_) => self.tick(Input::None),
                None => return Ok(()),
            }
        }
        Err("text boxes never closed".into())
    }

    fn block_line(&self, map: &str, bx: i64, by: i64) -> (String, Result<u32, &'static str>) {
        let r = self
            .game
            .active_block_at(map, &Value::Int(bx), &Value::Int(by))
            .map_err(|e| e.as_str());
        let shown = match r {
            Ok(b) => format!("{b}"),
            Err(reason) => format!("nil, {reason:?}"),
        };
        (format!("active_block_at({map}, {bx}, {by}) = {shown}"), r)
    }

    /// `unload MOD`: remove every hook link and listener the mod owns.
    fn unload(&mut self, id: &str) {
        self.flush();
        let loaded = self
            .mods
            .as_ref()
            .is_some_and(|m| m.status().order.iter().any(|o| o == id));
        let line = if loaded {
            let removed = self.game.rt.remove_owner(id);
            format!("mods: unloaded {id} (owner cleanup removed {removed} link(s)/listener(s))")
        } else {
            format!("mods: {id} is not loaded")
        };
        self.note(&line);
    }

    /// `signal MOD NAME`: a between-ticks safe point. The game is lent (with the mods'
    /// `mod.save` store) while `mod.MOD.NAME` is raised, so the mod's handlers reach
    /// `checkpoints.inspect/capture/restore`.
    fn signal(&mut self, mod_id: &str, name: &str) -> Result<(), String> {
        self.flush();
        let event = format!("mod.{mod_id}.{name}");
        let store = self.mods.as_ref().map(|m| m.loader.mod_data.clone());
        let rt = Rc::clone(&self.game.rt);
        let _ = writeln!(self.out, "[t={:>5}] signal {event}", self.game.tick);
        pallet_engine::checkpoint::lend::lend(&mut self.game, store.as_ref(), || {
            rt.emit_mod(mod_id, &event, &Value::Nil)
        })
        .map_err(|e| e.to_string())
    }

    /// Run one command; output accumulates in the transcript.
    pub fn run(&mut self, cmd: &Cmd) -> Result<(), String> {
        if self.skip_section {
            if !matches!(cmd, Cmd::Section(_)) {
                return Ok(());
            }
            self.skip_section = false;
        }
        let taken = self.branches.iter().all(|b| *b);
        match cmd {
            Cmd::If(cond) => {
                let on = taken
                    && match cond {
                        Cond::Map(map) => self.player_pos().is_some_and(|p| &p.0 == map),
                        Cond::Boxed(n) => {
                            self.game.save.boxes.iter().map(Vec::len).sum::<usize>() == *n
                        }
                    };
                self.branches.push(on);
                return Ok(());
            }
            Cmd::End => {
                self.branches.pop();
                return Ok(());
            }
            _ if !taken => return Ok(()),
            _ => {}
        }
        match cmd {
            Cmd::If(_) | Cmd::End => {}
            Cmd::Unload(id) => self.unload(id),
            Cmd::Signal(id, name) => self.signal(id, name)?,
            Cmd::Section(title) => {
                self.flush();
                let _ = writeln!(
                    self.out,
                    "\n## {}",
                    crate::host::session::escape_text(title).replace('\n', " ")
                );
            }
            Cmd::Walk(d, n) => {
                // A mod may put a door, a wall or a person on the scenario's path. Outside
                // --strict that is a changed expectation: the rest of the section is skipped,
                // and the next section's `expect map MAP X Y` puts the player back on course.
                match self.walk(*d, *n) {
                    Err(e) if !self.strict && self.game.busy().is_none() => {
                        self.expectation(Err(format!("{e}; the rest of this section is skipped")))?;
                        self.skip_section = true;
                    }
                    r => r?,
                }
                self.flee()?;
            }
            Cmd::Battle(c) if crate::scenario_battle::is_expectation(c) => {
                let outcome = self.battle(c);
                self.expectation(outcome)?;
            }
            Cmd::Battle(c @ crate::scenario_battle::BattleCmd::Seek(..)) if !self.strict => {
                // Encounters are the game's to give: a mod may thin them to none. Report it
                // like a changed expectation and go on with the next section.
                if let Err(e) = self.battle(c) {
                    if !crate::scenario_battle::in_battle(&self.game) {
                        self.expectation(Err(format!("{e}; the rest of this section is skipped")))?;
                        self.skip_section = true;
                    } else {
                        return Err(e);
                    }
                }
            }
            Cmd::Battle(c) => self.battle(c)?,
            Cmd::Press(input, n) => {
                // Bounded like every command: a huge count is the tick limit, not a hang.
                if *n as usize > MAX_COMMAND_TICKS {
                    return Err(format!(
                        "press {n}: more than the {MAX_COMMAND_TICKS}-tick limit of one command"
                    ));
                }
                for _ in 0..*n {
                    self.tick(*input);
                }
            }
            Cmd::Close => self.close()?,
            Cmd::Idle => self.settle()?,
            Cmd::Flag(name, on) => self.game.set_flag(name, *on),
            Cmd::Block(map, bx, by) => {
                self.flush();
                let (line, _) = self.block_line(map, *bx, *by);
                self.note(&line);
            }
            Cmd::Busy => {
                self.flush();
                let state = self.game.busy().map(|b| b.as_str()).unwrap_or("idle");
                self.note(&format!("busy: {state}"));
            }
            Cmd::ExpectMap { map, at, facing } => {
                let outcome = match self.player_pos() {
                    None => Err("no overworld".to_owned()),
                    Some((m, x, y, f)) => {
                        let ok = &m == map
                            && at.is_none_or(|a| a == (x, y))
                            && facing.is_none_or(|want| want == f);
                        if ok {
                            Ok(())
                        } else {
                            let at = at
                                .map(|(ax, ay)| format!(" ({ax},{ay})"))
                                .unwrap_or_default();
                            let facing = facing.map(|d| format!(" facing {d}")).unwrap_or_default();
                            Err(format!(
                                "expected {map}{at}{facing}, player is on {m} ({x},{y}) facing {f}"
                            ))
                        }
                    }
                };
                let off_course = outcome.is_err();
                self.expectation(outcome)?;
                if off_course {
                    if let Some(&(x, y)) = at.as_ref() {
                        self.resync(map, x, y, *facing)?;
                    }
                }
            }
            Cmd::ExpectFlag(name, on) => {
                let outcome = if self.game.flag(name) != *on {
                    Err(format!(
                        "expected flag {name} {}",
                        if *on { "on" } else { "off" }
                    ))
                } else {
                    Ok(())
                };
                self.expectation(outcome)?;
            }
            Cmd::ExpectBlock(map, bx, by, want) => {
                let (line, r) = self.block_line(map, *bx, *by);
                let outcome = if r != Ok(*want) {
                    Err(format!("expected block {want}: {line}"))
                } else {
                    Ok(())
                };
                self.expectation(outcome)?;
            }
            Cmd::ExpectBusy(want) => {
                let got = self.game.busy().map(|b| b.as_str());
                let outcome = if got != want.as_deref() {
                    Err(format!("expected busy {want:?}, got {got:?}"))
                } else {
                    Ok(())
                };
                self.expectation(outcome)?;
            }
        }
        self.flush();
        Ok(())
    }

    /// Outside --strict, a position expectation a mod made false puts the player where the
    /// scenario expected (an ordinary warp, so map hooks and events run as for any warp), so
    /// the rest of the scenario plays on the route it was written for.
    fn resync(
        &mut self,
        map: &str,
        x: u32,
        y: u32,
        facing: Option<Direction>,
    ) -> Result<(), String> {
        self.flee()?;
        self.settle()?;
        let facing = facing
            .or_else(|| self.player_pos().map(|p| p.3))
            .unwrap_or(Direction::Down);
        let warped = self
            .game
            .with_world(|ow, ctx| ow.start_warp(map, x, y, facing, ctx));
        match warped {
            Some(Ok(())) => {
                self.note(&format!(
                    "resync: back on course at {map} ({x},{y}) facing {facing}"
                ));
                self.settle()
            }
            Some(Err(e)) => Err(format!("resync to {map} ({x},{y}): {e}")),
            None => Err(format!("resync to {map} ({x},{y}): no overworld")),
        }
    }

    fn note(&mut self, text: &str) {
        let _ = writeln!(self.out, "[t={:>5}] {text}", self.game.tick);
    }

    /// Format the game's new presentation rows into the transcript.
    pub fn flush(&mut self) {
        let rows = self.game.drain_feed();
        format_rows(&self.game, &rows, &mut self.out);
        if let Some(mods) = &self.mods {
            for line in mods.drain_lines() {
                let _ = writeln!(self.out, "{line}");
            }
        }
    }
}

/// Mod log lines join the transcript at the tick they happen, after the game's rows before
/// them (nothing is drained when no mod wrote a line).
fn interleave(game: &mut Game, mods: Option<&crate::host::ModSession>, out: &mut String) {
    if let Some(mods) = mods {
        let lines = mods.drain_lines();
        if !lines.is_empty() {
            let rows = game.drain_feed();
            format_rows(game, &rows, out);
            for line in lines {
                let _ = writeln!(out, "{line}");
            }
        }
    }
}

/// Human-readable lines for feed rows. Runs of steps/turns/bumps become one walk line; block
/// replacements of one tick become one line.
pub fn format_rows(game: &Game, rows: &[FeedRow], out: &mut String) {
    let maps = game.maps();
    let mut i = 0;
    while i < rows.len() {
        let tick = rows[i].tick;
        match &rows[i].row {
            PresentationRow::Stepped { .. }
            | PresentationRow::Turned { .. }
            | PresentationRow::Bumped { .. } => {
                let mut parts: Vec<(String, u32)> = Vec::new();
                let mut last = None;
                while let Some(r) = rows.get(i) {
                    let label = match &r.row {
                        PresentationRow::Stepped { x, y, facing, .. } => {
                            last = Some((*x, *y));
                            facing.as_str().to_owned()
                        }
                        PresentationRow::Turned { facing } => format!("face {facing}"),
                        PresentationRow::Bumped { .. } => "bump".to_owned(),
                        _ => break,
                    };
                    match parts.last_mut() {
                        Some((l, n)) if *l == label => *n += 1,
                        _ => parts.push((label, 1)),
                    }
                    i += 1;
                }
                // A turn immediately followed by steps that way is part of the walk.
                let mut shown: Vec<String> = Vec::new();
                for (k, (label, n)) in parts.iter().enumerate() {
                    if let Some(d) = label.strip_prefix("face ") {
                        if parts.get(k + 1).is_some_and(|(next, _)| next == d) {
                            continue;
                        }
                    }
                    shown.push(if *n > 1 {
                        format!("{label} x{n}")
                    } else {
                        label.clone()
                    });
                }
                let end = last
                    .map(|(x, y)| format!(" -> ({x},{y})"))
                    .unwrap_or_default();
                let verb = if last.is_some() { "walk " } else { "" };
                let _ = writeln!(out, "[t={tick:>5}] {verb}{}{end}", shown.join(", "));
            }
            PresentationRow::BlockReplaced { map, .. } => {
                let name = maps
                    .get(map)
                    .map(|m| m.name.clone())
                    .unwrap_or_else(|| map.clone());
                let mut cells = Vec::new();
                while let Some(FeedRow {
                    row:
                        PresentationRow::BlockReplaced {
                            bx,
                            by,
                            block,
                            map: m,
                        },
                    tick: t,
                }) = rows.get(i)
                {
                    if m != map || *t != tick {
                        break;
                    }
                    cells.push(format!("({bx},{by})={block}"));
                    i += 1;
                }
                let _ = writeln!(
                    out,
                    "[t={tick:>5}] {name} blocks replaced: {}",
                    cells.join(" ")
                );
            }
            row => {
                let _ = writeln!(out, "[t={tick:>5}] {}", row.describe(maps));
                i += 1;
            }
        }
    }
}

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

/// Play `scenario` on a new game of `version` with `seed`.
pub fn play(version: GameVersion, seed: u64, scenario: &str) -> Result<RunOutcome, RunFailure> {
    play_with_mods(version, seed, scenario, None)
}

/// [`play`] with mods loaded into the game's runtime before the game starts (`None`: no mods).
/// Expectations are strict (a failed `expect` stops the run), as tests want them.
pub fn play_with_mods(
    version: GameVersion,
    seed: u64,
    scenario: &str,
    mods: Option<&crate::host::ModsOptions>,
) -> Result<RunOutcome, RunFailure> {
    play_opts(&PlayOptions {
        version,
        seed,
        scenario,
        mods,
        strict: true,
        extras: crate::host::session::LoadExtras::default(),
        save: None,
    })
}

/// Everything [`play_opts`] takes.
pub struct PlayOptions<'a> {
    pub version: GameVersion,
    pub seed: u64,
    pub scenario: &'a str,
    pub mods: Option<&'a crate::host::ModsOptions>,
    /// A failed `expect` stops the run (`--strict`); otherwise it is reported and counted.
    pub strict: bool,
    /// `--option` values; the loaded save's `modData` is added from `save`.
    pub extras: crate::host::session::LoadExtras,
    /// `--load`: continue from this save instead of a new game.
    pub save: Option<pallet_engine::save::SaveData>,
}

/// Play a scenario with every run control.
pub fn play_opts(o: &PlayOptions<'_>) -> Result<RunOutcome, RunFailure> {
    let (version, seed) = (o.save.as_ref().map_or(o.version, |s| s.version), o.seed);
    let fail = |transcript: String, message: String| RunFailure {
        transcript,
        message,
        usage: false,
    };
    let lines = parse_scenario(o.scenario).map_err(|m| fail(String::new(), m))?;
    let rt = Rc::new(Runtime::new());
    let session = match o.mods {
        Some(opts) => {
            let api_version = pallet_engine::world::sites::api_version(version);
            let mut extras = o.extras.clone();
            if let Some(save) = &o.save {
                extras.mod_data = Some(Value::Map(save.mod_data.clone()));
            }
            let s = crate::host::ModSession::load_with(&rt, api_version, opts, &extras)
                .map_err(|m| fail(String::new(), m))?;
            // Options files may name mods this run does not load; their values for loaded
            // mods are checked like `--option`.
            let loaded: Vec<_> = extras
                .file_options
                .iter()
                .filter(|(id, key, _)| {
                    s.status().order.contains(id)
                        && !extras.options.iter().any(|(i, k, _)| i == id && k == key)
                })
                .cloned()
                .collect();
            s.check_options(&loaded)
                .and_then(|()| s.check_options(&extras.options))
                .map_err(|message| RunFailure {
                    transcript: String::new(),
                    message,
                    usage: true,
                })?;
            Some(s)
        }
        None => None,
    };
    // Boot (a new game, or the save's version with its progress) on the tables the content
    // mods compiled, let the Lua mods' function map-script handlers in, then enter the
    // overworld (as `new_game` / `from_save` do).
    let (boot_version, boot_save) = match &o.save {
        Some(save) => (save.version, Some(save.clone())),
        None => (version, None),
    };
    let mut game = match session.as_ref().and_then(|s| s.content.as_ref()) {
        Some(content) => Game::boot_with_content(boot_version, seed, rt, content),
        None => Game::boot(boot_version, seed, rt),
    }
    .map_err(|e| fail(String::new(), e.to_string()))?;
    let mut validation = None;
    if let Some(mut save) = boot_save {
        // The validator repairs, quarantines and remaps what this game's tables (and content
        // mods) no longer have, and says so; then the save is stamped with the content mods
        // that shape this run.
        let report = game.validate_save(&mut save);
        if !report.is_empty() || !report.missing_content_mods.is_empty() {
            validation = Some(report);
        }
        let content_mods = std::mem::take(&mut game.save.meta.content_mods);
        game.save = save;
        game.save.meta.content_mods = content_mods;
    }
    if let Some(s) = &session {
        s.install_map_handlers(&mut game);
        s.install_item_effects(&mut game);
    }
    game.enter_overworld()
        .map_err(|e| fail(String::new(), e.to_string()))?;
    let mut p = Player::new(game);
    p.strict = o.strict;
    let _ = writeln!(p.out, "pallet run: version {version}, seed {seed}");
    if o.save.is_some() {
        let pl = &p.game.save.player;
        let _ = writeln!(
            p.out,
            "continuing a save: {} ({},{}) facing {}",
            pl.map, pl.x, pl.y, pl.facing
        );
    }
    if let Some(report) = &validation {
        let json = serde_json::to_string(report).unwrap_or_default();
        let _ = writeln!(p.out, "save validator: {json}");
    }
    if let Some(s) = session {
        let _ = writeln!(p.out, "{}", s.summary());
        for line in s.failure_lines() {
            let _ = writeln!(p.out, "{line}");
        }
        p.mods = Some(s);
    }
    p.flush();
    // A bar on stderr while the scenario plays (terminal only; the transcript prints after).
    let bar = crate::progress::bar(lines.len() as u64, "scenario lines");
    for line in &lines {
        bar.inc(1);
        if let Err(e) = p.run_line(line.number, &line.cmd) {
            bar.finish_and_clear();
            p.flush();
            let hint = crate::host::suggest::data_hint(&e);
            return Err(fail(
                p.out,
                format!("scenario line {}: {e}{hint}", line.number),
            ));
        }
    }
    bar.finish_and_clear();
    p.flush();
    if let Some(mods) = &p.mods {
        for line in mods.repeat_lines() {
            let _ = writeln!(p.out, "{line}");
        }
    }
    // Mod `save` buckets live on the host side; they join the save's `modData` at save time.
    if let Some(mods) = &p.mods {
        if let pallet_api::Value::Map(buckets) = mods.loader.mod_data.to_value() {
            p.game.save.mod_data = buckets;
        }
    }
    let mut summary = summary(&p.game);
    if !p.strict {
        let _ = writeln!(
            summary,
            "expectations: {} met, {} changed by mods",
            p.met,
            p.differed.len()
        );
    }
    p.out.push_str(&summary);
    let failed_mods = p.mods.as_ref().map(|m| m.failed_ids()).unwrap_or_default();
    let mods_status = p.mods.as_ref().map(|m| m.status().clone());
    Ok(RunOutcome {
        transcript: p.out,
        game: p.game,
        failed_mods,
        differed: p.differed,
        met: p.met,
        mods_status,
    })
}

fn summary(game: &Game) -> String {
    let mut s = String::from("\n## End\n");
    let pl = &game.save.player;
    let _ = writeln!(s, "ticks: {}", game.tick);
    let _ = writeln!(
        s,
        "player: {} ({},{}) facing {}",
        pl.map, pl.x, pl.y, pl.facing
    );
    let flags: Vec<&str> = game.save.flags.iter().map(String::as_str).collect();
    let _ = writeln!(
        s,
        "flags: {}",
        if flags.is_empty() {
            "-".to_owned()
        } else {
            flags.join(", ")
        }
    );
    s
}

/// Options of `pallet run`.
#[derive(Clone, Debug)]
pub struct RunOptions {
    pub version: GameVersion,
    pub seed: u64,
    pub save: Option<PathBuf>,
    /// `--mods DIR` (repeatable), `--no-default-mods`, `--trace`.
    pub mods: crate::host::ModsOptions,
    /// `--scenario PATH`: play this file instead of [`MAIN_SCENARIO`].
    pub scenario: Option<PathBuf>,
    /// `--strict`: a failed `expect` stops the run with exit 1.
    pub strict: bool,
    /// `--json`: print the run summary as one JSON document instead of the transcript.
    pub json: bool,
    /// `--option MOD.KEY=VALUE` (repeatable).
    pub options: Vec<String>,
    /// `--load SAVE`: continue from this save.
    pub load: Option<PathBuf>,
    /// `--profile DIR`: option values from `DIR/options/<mod id>.json`.
    pub profile: Option<PathBuf>,
}

fn write_save(path: &Path, game: &Game) -> Result<(), String> {
    // Through the game: `save.write` may veto, `save.writing` fires before the bytes go out.
    match game.write_save_file(path) {
        Ok(true) => Ok(()),
        Ok(false) => Err(format!(
            "save {} not written: a save.write link vetoed it",
            path.display()
        )),
        Err(e) => Err(format!("cannot write save {}: {e}", path.display())),
    }
}

/// `pallet run`: returns the exit code (0 ok; 1 a scenario or save failure, a failed
/// expectation under `--strict`, or a mod that failed to load; 2 bad usage).
pub fn run(opts: &RunOptions) -> i32 {
    let text = match &opts.scenario {
        Some(path) => match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("pallet run: --scenario {}: {e}", path.display());
                return 2;
            }
        },
        None => MAIN_SCENARIO.to_owned(),
    };
    let mut extras = crate::host::session::LoadExtras::default();
    for o in &opts.options {
        match crate::host::session::parse_option(o) {
            Ok(v) => extras.options.push(v),
            Err(e) => {
                eprintln!("pallet run: {e}");
                return 2;
            }
        }
    }
    if let Some(dir) = &opts.profile {
        match crate::host::session::profile_options(dir) {
            Ok(v) => extras.file_options = v,
            Err(e) => {
                eprintln!("pallet run: --profile: {e}");
                return 2;
            }
        }
    }
    let save = match &opts.load {
        Some(path) => match pallet_engine::save::load_save(path) {
            Ok(loaded) => Some(loaded.save),
            Err(e) => {
                eprintln!("pallet run: --load {}: {e}", path.display());
                return 1;
            }
        },
        None => None,
    };
    let outcome = play_opts(&PlayOptions {
        version: opts.version,
        seed: opts.seed,
        scenario: &text,
        mods: Some(&opts.mods),
        strict: opts.strict,
        extras,
        save,
    });
    match outcome {
        Ok(outcome) => {
            let mut code = 0;
            let mut saved = None;
            if let Some(path) = &opts.save {
                if let Err(e) = write_save(path, &outcome.game) {
                    eprintln!("{e}");
                    code = 1;
                } else {
                    saved = Some(path.display().to_string());
                }
            }
            if !outcome.failed_mods.is_empty() {
                code = 1;
            }
            if opts.json {
                println!(
                    "{}",
                    crate::run_json::outcome_json(opts, &outcome, saved.as_deref())
                );
            } else {
                print!(
                    "{}",
                    crate::style::paint(&outcome.transcript, crate::style::stdout())
                );
                if let Some(path) = &saved {
                    println!("save written: {path}");
                }
            }
            if !outcome.failed_mods.is_empty() {
                let line = format!(
                    "pallet run: {} mod(s) failed to load: {} (reasons above)\n",
                    outcome.failed_mods.len(),
                    outcome.failed_mods.join(", ")
                );
                eprint!("{}", crate::style::paint(&line, crate::style::stderr()));
            }
            code
        }
        Err(f) => {
            if opts.json {
                println!("{}", crate::run_json::failure_json(opts, &f));
            } else {
                print!(
                    "{}",
                    crate::style::paint(&f.transcript, crate::style::stdout())
                );
            }
            let line = format!("pallet run: {}\n", f.message);
            eprint!("{}", crate::style::paint(&line, crate::style::stderr()));
            if f.usage {
                2
            } else {
                1
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_scenario_parses() {
        let lines = parse_scenario(MAIN_SCENARIO).unwrap();
        assert!(lines.len() > 20);
        assert!(lines
            .iter()
            .any(|l| matches!(&l.cmd, Cmd::ExpectFlag(f, true) if f == "EVENT_SS_ANNE_LEFT")));
    }

    #[test]
    fn parse_errors_name_the_line() {
        assert_eq!(
            parse_scenario("walk up 2\nwalk sideways 1").unwrap_err(),
            "scenario line 2: bad direction \"sideways\""
        );
        assert!(parse_scenario("fly PALLET_TOWN")
            .unwrap_err()
            .contains("unknown command"));
        assert!(parse_scenario("walk up")
            .unwrap_err()
            .contains("takes 2 argument"));
        assert!(parse_scenario("expect map A 1").is_err());
        assert_eq!(parse_scenario("# only a comment\n\n").unwrap(), vec![]);
    }

    #[test]
    fn every_version_plays_the_scenario() {
        for v in [GameVersion::Red, GameVersion::Blue, GameVersion::Yellow] {
            let out = play(v, 7, MAIN_SCENARIO)
                .unwrap_or_else(|f| panic!("{v}: {}\n{}", f.message, f.transcript));
            assert!(out.transcript.contains("[text] The ship set sail."), "{v}");
            assert!(out
                .transcript
                .contains("active_block_at(VERMILION_DOCK, 7, 1) = 22"));
            assert!(out
                .transcript
                .contains("active_block_at(VERMILION_DOCK, 7, 1) = 1"));
            assert!(out
                .transcript
                .contains("active_block_at(VERMILION_CITY, 0, 0) = nil, \"map is not active\""));
        }
    }

    #[test]
    fn if_blocks_run_only_while_their_condition_holds() {
        assert!(parse_scenario("end")
            .unwrap_err()
            .contains("`end` without `if`"));
        assert!(parse_scenario("if map A")
            .unwrap_err()
            .contains("`if` without `end`"));
        assert!(parse_scenario("if moon A\nend")
            .unwrap_err()
            .contains("`if` takes"));
        assert!(parse_scenario("if boxed x\nend").is_err());
        // `walk left 5` would fail (a wall): it is skipped; the nested block runs.
        let scn = "if map PALLET_TOWN\nwalk left 5\nend\n\
                   if map REDS_HOUSE_1F\nif boxed 0\nwalk right 1\nend\nend\n\
                   if boxed 1\nwalk left 5\nend\n\
                   expect map REDS_HOUSE_1F 4 4\nunload dock-stay";
        let out = play(GameVersion::Red, 1, scn).unwrap_or_else(|f| panic!("{}", f.message));
        assert!(out.transcript.contains("mods: dock-stay is not loaded"));
    }

    #[test]
    fn a_failing_expectation_stops_the_run() {
        let f = play(GameVersion::Red, 1, "walk left 1\nexpect map PALLET_TOWN")
            .err()
            .unwrap();
        assert!(
            f.message
                .starts_with("scenario line 2: expected PALLET_TOWN"),
            "{}",
            f.message
        );
        let f = play(GameVersion::Red, 1, "walk left 5").err().unwrap();
        assert!(
            f.message.contains("blocked at REDS_HOUSE_1F (2,4)"),
            "{}",
            f.message
        );
    }
}
