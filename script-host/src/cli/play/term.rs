//! The real terminal: raw mode and the alternate screen (restored on every exit path: a
//! normal quit, an error, a panic), crossterm key events mapped to session keys, a redraw
//! after every key and every resize, the quit dialog that offers to save.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use crossterm::execute;
use crossterm::terminal::{
    disable_raw_mode, enable_raw_mode, EnterAlternateScreen, LeaveAlternateScreen,
};
use ratatui::backend::CrosstermBackend;
use ratatui::Terminal;

use pallet_engine::world::Direction;

use super::keys::Key;
use super::render;
use super::screen::ScreenModel;
use super::session::Session;

/// What the terminal front end needs besides the session.
pub struct TermOptions {
    /// Where SAVE and the quit dialog write the save.
    pub save_path: PathBuf,
    /// Append each key here as it is pressed (the header is written first).
    pub record: Option<PathBuf>,
    /// Write the final transcript here on quit.
    pub transcript: Option<PathBuf>,
    /// The mod F5/F9 ask to capture/restore (`mod.MOD.save` / `mod.MOD.load`).
    pub checkpoint_mod: String,
}

/// Undo raw mode and the alternate screen (idempotent; used by the guard and the panic hook).
fn restore() {
    let _ = disable_raw_mode();
    let _ = execute!(io::stdout(), LeaveAlternateScreen, crossterm::cursor::Show);
}

struct Guard;

impl Drop for Guard {
    fn drop(&mut self) {
        restore();
    }
}

/// Map a terminal key to a front-end action.
enum Act {
    Key(Key),
    Quit,
    ForceQuit,
    None,
}

fn map_key(k: &KeyEvent, checkpoint_mod: &str) -> Act {
    if k.kind != KeyEventKind::Press {
        return Act::None;
    }
    let signal = |name: &str| {
        Act::Key(Key::Signal {
            mod_id: checkpoint_mod.to_owned(),
            name: name.to_owned(),
        })
    };
    match k.code {
        KeyCode::Char('c') if k.modifiers.contains(KeyModifiers::CONTROL) => Act::ForceQuit,
        KeyCode::Up => Act::Key(Key::Dir(Direction::Up)),
        KeyCode::Down => Act::Key(Key::Dir(Direction::Down)),
        KeyCode::Left => Act::Key(Key::Dir(Direction::Left)),
        KeyCode::Right => Act::Key(Key::Dir(Direction::Right)),
        KeyCode::Enter | KeyCode::Char('z') => Act::Key(Key::A),
        KeyCode::Backspace | KeyCode::Char('x') => Act::Key(Key::B),
        KeyCode::Char(' ') | KeyCode::Char('s') => Act::Key(Key::Start),
        KeyCode::F(5) => signal("save"),
        KeyCode::F(9) => signal("load"),
        KeyCode::Char('q') | KeyCode::Esc => Act::Quit,
        _ => Act::None,
    }
}

fn write_save(session: &Session, path: &Path) -> String {
    match pallet_engine::save::write_save(path, &session.save_data()) {
        Ok(()) => format!("saved to {}", path.display()),
        Err(e) => format!("cannot write save {}: {e}", path.display()),
    }
}

/// Run the game in the terminal until the player quits. Returns the exit code.
pub fn run(mut session: Session, opts: &TermOptions) -> i32 {
    let mut record = match &opts.record {
        Some(path) => match std::fs::File::create(path) {
            Ok(mut f) => {
                let _ = f.write_all(super::keys::KeyLog::header(&session.boot).as_bytes());
                Some(f)
            }
            Err(e) => {
                eprintln!("pallet play: --record {}: {e}", path.display());
                return 2;
            }
        },
        None => None,
    };
    if let Err(e) = enable_raw_mode() {
        eprintln!("pallet play: not a terminal ({e})");
        return 2;
    }
    let guard = Guard;
    let prev = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        prev(info);
    }));
    if let Err(e) = execute!(io::stdout(), EnterAlternateScreen, crossterm::cursor::Hide) {
        drop(guard);
        eprintln!("pallet play: cannot open the screen ({e})");
        return 2;
    }
    let mut term = match Terminal::new(CrosstermBackend::new(io::stdout())) {
        Ok(t) => t,
        Err(e) => {
            drop(guard);
            eprintln!("pallet play: {e}");
            return 2;
        }
    };
    let mut status: Option<String> = None;
    let mut quitting = false;
    let mut exit_line: Option<String> = None;
    loop {
        let mut model = ScreenModel::of(&session, &opts.checkpoint_mod);
        if let Some(s) = &status {
            model.message = Some(s.clone());
        }
        if quitting {
            model.dialog = Some(vec![
                "Quit pallet play?".into(),
                String::new(),
                format!("y  save to {} and quit", opts.save_path.display()),
                "n  quit without saving".into(),
                "c  go back to the game".into(),
            ]);
        }
        if let Err(e) = term.draw(|f| render::draw(f, &model)) {
            exit_line = Some(format!("pallet play: draw: {e}"));
            break;
        }
        let ev = match event::read() {
            Ok(ev) => ev,
            Err(e) => {
                exit_line = Some(format!("pallet play: input: {e}"));
                break;
            }
        };
        let Event::Key(k) = ev else {
            // Resize (and anything else): the next loop redraws at the new size.
            continue;
        };
        if quitting {
            if k.kind != KeyEventKind::Press {
                continue;
            }
            match k.code {
                KeyCode::Char('y') => {
                    exit_line = Some(write_save(&session, &opts.save_path));
                    break;
                }
                KeyCode::Char('n') => break,
                KeyCode::Char('c') if k.modifiers.contains(KeyModifiers::CONTROL) => break,
                KeyCode::Char('c') | KeyCode::Esc => quitting = false,
                _ => {}
            }
            continue;
        }
        match map_key(&k, &opts.checkpoint_mod) {
            Act::Key(key) => {
                status = None;
                if let Some(f) = record.as_mut() {
                    let _ = writeln!(f, "{}", key.to_line());
                    let _ = f.flush();
                }
                session.press(key);
                if session.take_save_request() {
                    status = Some(write_save(&session, &opts.save_path));
                }
            }
            Act::Quit | Act::ForceQuit => quitting = true,
            Act::None => {}
        }
    }
    drop(term);
    drop(guard);
    if let Some(path) = &opts.transcript {
        if let Err(e) = std::fs::write(path, session.final_transcript()) {
            eprintln!("pallet play: --transcript {}: {e}", path.display());
        }
    }
    if let Some(l) = exit_line {
        println!("{l}");
    }
    0
}
