//! Progress bars for long commands (`pallet battle` N battles, `pallet import`, scenario runs):
//! `indicatif` on stderr with the rate and the ETA, hidden entirely when stderr is not a
//! terminal (piped output and tests stay byte-stable). [`Draw::Capture`] draws into a buffer so
//! a test can read what a terminal would have shown.

use std::io::IsTerminal;
use std::sync::{Arc, Mutex};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle, TermLike};

/// Where a bar draws.
#[derive(Clone, Debug)]
pub enum Draw {
    /// Nowhere (stderr is not a terminal).
    Hidden,
    /// On stderr, at indicatif's usual refresh rate.
    Stderr,
    /// Into a shared buffer, every update (tests).
    Capture(Captured),
}

impl Draw {
    /// [`Draw::Stderr`] when stderr is a terminal, else [`Draw::Hidden`].
    pub fn stderr_if_terminal() -> Draw {
        Draw::from_terminal(std::io::stderr().is_terminal())
    }

    /// [`Draw::Stderr`] when `terminal`, else [`Draw::Hidden`].
    pub fn from_terminal(terminal: bool) -> Draw {
        if terminal {
            Draw::Stderr
        } else {
            Draw::Hidden
        }
    }
}

/// The text a captured bar drew: each drawn line, one per `\n`.
#[derive(Clone, Debug, Default)]
pub struct Captured(Arc<Mutex<String>>);

impl Captured {
    /// What was drawn so far.
    pub fn text(&self) -> String {
        self.0.lock().map(|s| s.clone()).unwrap_or_default()
    }

    fn push(&self, s: &str) {
        if let Ok(mut t) = self.0.lock() {
            t.push_str(s);
        }
    }
}

impl TermLike for Captured {
    fn width(&self) -> u16 {
        120
    }
    fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn write_line(&self, s: &str) -> std::io::Result<()> {
        self.push(s);
        self.push("\n");
        Ok(())
    }
    fn write_str(&self, s: &str) -> std::io::Result<()> {
        self.push(s);
        Ok(())
    }
    fn clear_line(&self) -> std::io::Result<()> {
        Ok(())
    }
    fn flush(&self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A bar of `total` steps counted in `unit` (`battles`, `files`, `lines`); hidden unless
/// stderr is a terminal.
pub fn bar(total: u64, unit: &str) -> ProgressBar {
    bar_on(total, unit, Draw::stderr_if_terminal())
}

/// [`bar`] with the terminal decision made by the caller.
pub fn bar_to(total: u64, unit: &str, terminal: bool) -> ProgressBar {
    bar_on(total, unit, Draw::from_terminal(terminal))
}

/// [`bar`] drawing where `draw` says.
pub fn bar_on(total: u64, unit: &str, draw: Draw) -> ProgressBar {
    let target = match draw {
        Draw::Hidden => ProgressDrawTarget::hidden(),
        Draw::Stderr => ProgressDrawTarget::stderr(),
        // The highest rate indicatif takes, so a short run still draws its updates.
        Draw::Capture(c) => ProgressDrawTarget::term_like_with_hz(Box::new(c), u8::MAX),
    };
    let pb = ProgressBar::with_draw_target(Some(total), target);
    let template =
        format!("[{{bar:30}}] {{pos}}/{{len}} {unit} ({{per_sec}}, ETA {{eta}}) {{msg}}");
    if let Ok(style) = ProgressStyle::with_template(&template) {
        pb.set_style(style.progress_chars("#>-"));
    }
    pb
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bar_off_a_terminal_is_hidden_and_still_counts() {
        let pb = bar_to(10, "battles", false);
        assert!(pb.is_hidden());
        pb.inc(3);
        assert_eq!(pb.position(), 3);
        assert_eq!(pb.length(), Some(10));
    }

    #[test]
    fn a_captured_bar_draws_its_count_unit_and_message() {
        let c = Captured::default();
        let pb = bar_on(4, "files", Draw::Capture(c.clone()));
        pb.set_message("a.bin");
        pb.set_position(4);
        pb.finish();
        let t = c.text();
        assert!(t.contains("4/4 files"), "{t:?}");
        assert!(t.contains("ETA"), "{t:?}");
        assert!(t.contains("a.bin"), "{t:?}");
    }
}
