//! The scenario language of `pallet run`: one command per line (`scenarios/main.scn`'s header
//! documents them), parsed into [`Line`]s before anything runs.

use pallet_engine::world::{Direction, Input};

/// Upper bound of ticks any one command may take (a stuck world is an error, not a hang).
pub(super) const MAX_COMMAND_TICKS: usize = 20_000;

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
    Battle(crate::cli::scenario_battle::BattleCmd),
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
    if let Some(battle) = crate::cli::scenario_battle::parse(w) {
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
