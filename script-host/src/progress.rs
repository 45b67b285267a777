//! Progress bars for long commands (`pallet battle` N battles, `pallet import`, scenario runs):
//! `indicatif` on stderr with the rate and the ETA, hidden entirely when stderr is not a
//! terminal (piped output and tests stay byte-stable).

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar of `total` steps counted in `unit` (`battles`, `files`, `lines`); hidden unless
/// stderr is a terminal.
pub fn bar(total: u64, unit: &str) -> ProgressBar {
    bar_to(total, unit, std::io::stderr().is_terminal())
}

/// [`bar`] with the terminal decision made by the caller.
pub fn bar_to(total: u64, unit: &str, terminal: bool) -> ProgressBar {
    let target = if terminal {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let pb = ProgressBar::with_draw_target(Some(total), target);
    let template = format!("[{{bar:30}}] {{pos}}/{{len}} {unit} ({{per_sec}}, ETA {{eta}})");
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
}
