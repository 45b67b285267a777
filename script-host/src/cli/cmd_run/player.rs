//! The scenario player: commands expanded into `Game::step(input)` ticks, `expect` lines
//! checked, mod log lines interleaved at their tick, and feed rows turned into transcript lines.

use std::fmt::Write as _;
use std::rc::Rc;

use pallet_api::Value;

use pallet_engine::game::Game;
use pallet_engine::world::presentation::{FeedRow, PresentationRow};
use pallet_engine::world::{Direction, Input};

use super::scenario::{Cmd, Cond, MAX_COMMAND_TICKS};

/// Plays a scenario on a game, writing the transcript.
pub struct Player {
    pub game: Game,
    pub(super) out: String,
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
    fn battle(&mut self, c: &crate::cli::scenario_battle::BattleCmd) -> Result<(), String> {
        let (mods, out) = (self.mods.as_ref(), &mut self.out);
        crate::cli::scenario_battle::run(&mut self.game, c, &mut |g| interleave(g, mods, out))
    }

    /// Flee a wild battle that interrupted a walk, log lines at each choice.
    fn flee(&mut self) -> Result<(), String> {
        let (mods, out) = (self.mods.as_ref(), &mut self.out);
        crate::cli::scenario_battle::flee(&mut self.game, &mut |g| interleave(g, mods, out))
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

    /// A script's text or choice box is up in the overworld (no battle).
    fn script_box_up(&self) -> bool {
        self.game.battle().is_none() && self.game.busy().map(|b| b.as_str()) == Some("screen_busy")
    }

    /// Close a script's boxes: text with A, a choice with B (its last option); stops at a
    /// battle the script started, which the next walk flees.
    fn dismiss(&mut self) -> Result<(), String> {
        for _ in 0..MAX_COMMAND_TICKS {
            let choice_up = matches!(
                self.game.overworld().and_then(|o| o.screen()),
                Some(pallet_engine::world::overworld::Screen::Choice { .. })
            );
            match self.game.busy() {
                _ if self.game.battle().is_some() => return Ok(()),
                _ if choice_up => self.tick(Input::B),
                Some(b) if b.as_str() == "screen_busy" => self.tick(Input::A),
                Some(_) => self.tick(Input::None),
                None => return Ok(()),
            }
        }
        Err("a script's boxes never closed".into())
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
            // Its held buttons and queued taps go with it (`mod.input`).
            let released = self.game.mod_input_mut().release_owner(id);
            let buttons = if released > 0 {
                format!(", released {released} button(s)")
            } else {
                String::new()
            };
            format!(
                "mods: unloaded {id} (owner cleanup removed {removed} link(s)/listener(s){buttons})"
            )
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
                // So may a mod's script box (a step handler's text or choice) stop the walk: it
                // is dismissed (a choice answered with B, its last option) and counted the same.
                match self.walk(*d, *n) {
                    Err(e) if !self.strict && self.game.busy().is_none() => {
                        self.expectation(Err(format!("{e}; the rest of this section is skipped")))?;
                        self.skip_section = true;
                    }
                    Err(e) if !self.strict && self.script_box_up() => {
                        self.dismiss()?;
                        self.expectation(Err(format!(
                            "{e} (a script's box interrupted the walk; dismissed, a choice with B); \
                             the rest of this section is skipped"
                        )))?;
                        self.skip_section = true;
                    }
                    r => r?,
                }
                self.flee()?;
            }
            Cmd::Battle(c) if crate::cli::scenario_battle::is_expectation(c) => {
                let outcome = self.battle(c);
                self.expectation(outcome)?;
            }
            Cmd::Battle(c @ crate::cli::scenario_battle::BattleCmd::Seek(..)) if !self.strict => {
                // Encounters are the game's to give: a mod may thin them to none. Report it
                // like a changed expectation and go on with the next section.
                if let Err(e) = self.battle(c) {
                    if !crate::cli::scenario_battle::in_battle(&self.game) {
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
