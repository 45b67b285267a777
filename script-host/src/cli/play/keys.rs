//! The keys a play session takes, and the key log `--record FILE` writes and
//! `pallet run --keys FILE` replays.
//!
//! A key log is text: a header of `name value` lines saying how the game was booted, then
//! `keys`, then one key per line. `#` starts a comment.
//!
//! ```text
//! # pallet play key log v1
//! version red
//! seed 7
//! no-default-mods            (optional)
//! mods examples/mods/quicksave   (repeatable, in load order)
//! load my.sav                (optional: the save the session resumed)
//! starter CHARMANDER 5       (or `starter none`; new games only)
//! bag POKE_BALL 5            (repeatable; new games only)
//! keys
//! down
//! a
//! signal quicksave save
//! ```
//!
//! Keys are `up`, `down`, `left`, `right`, `a`, `b`, `start` and `signal MOD NAME`.

use std::fmt::Write as _;
use std::path::PathBuf;

use pallet_engine::world::{Direction, GameVersion};

/// One key of the session (already mapped from the terminal).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Key {
    Dir(Direction),
    A,
    B,
    Start,
    /// Between ticks: raise `mod.MOD.NAME` with the game lent (a mod's hotkey).
    Signal {
        mod_id: String,
        name: String,
    },
}

impl Key {
    /// The key log spelling.
    pub fn to_line(&self) -> String {
        match self {
            Key::Dir(d) => d.as_str().to_owned(),
            Key::A => "a".into(),
            Key::B => "b".into(),
            Key::Start => "start".into(),
            Key::Signal { mod_id, name } => format!("signal {mod_id} {name}"),
        }
    }

    pub fn parse(line: &str) -> Result<Key, String> {
        let w: Vec<&str> = line.split_whitespace().collect();
        Ok(match w.as_slice() {
            ["a"] => Key::A,
            ["b"] => Key::B,
            ["start"] => Key::Start,
            ["signal", m, n] => Key::Signal {
                mod_id: (*m).to_owned(),
                name: (*n).to_owned(),
            },
            [d] => Key::Dir(Direction::parse(d).ok_or_else(|| format!("unknown key {d:?}"))?),
            _ => return Err(format!("unknown key {line:?}")),
        })
    }
}

/// How a session boots: what the key log header records.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Boot {
    pub version: GameVersion,
    pub seed: u64,
    pub mods: Vec<PathBuf>,
    pub no_default_mods: bool,
    /// The save the session resumed (`--load`); `None`: a new game.
    pub load: Option<PathBuf>,
    /// A new game's first mon (`None`: none; the fixture world has no OAK to give one).
    pub starter: Option<(String, u8)>,
    /// A new game's bag.
    pub bag: Vec<(String, u32)>,
}

impl Boot {
    /// A new game with the default kit: a level-5 starter and a few balls and potions.
    pub fn new_game(version: GameVersion, seed: u64) -> Boot {
        Boot {
            version,
            seed,
            mods: Vec::new(),
            no_default_mods: false,
            load: None,
            starter: Some((default_starter(version).to_owned(), 5)),
            bag: vec![("POKE_BALL".into(), 5), ("POTION".into(), 2)],
        }
    }
}

/// The starter a new game gets unless `--starter` says otherwise.
pub fn default_starter(version: GameVersion) -> &'static str {
    match version {
        GameVersion::Red => "CHARMANDER",
        GameVersion::Blue => "SQUIRTLE",
        GameVersion::Yellow => "PIKACHU",
    }
}

/// A boot header and its keys.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyLog {
    pub boot: Boot,
    pub keys: Vec<Key>,
}

/// The first line of every key log.
pub const MAGIC: &str = "# pallet play key log v1";

impl KeyLog {
    /// The header alone (the recorder appends keys as they are pressed).
    pub fn header(boot: &Boot) -> String {
        let mut s = format!("{MAGIC}\n");
        let _ = writeln!(s, "version {}", boot.version);
        let _ = writeln!(s, "seed {}", boot.seed);
        if boot.no_default_mods {
            s.push_str("no-default-mods\n");
        }
        for m in &boot.mods {
            let _ = writeln!(s, "mods {}", m.display());
        }
        if let Some(l) = &boot.load {
            let _ = writeln!(s, "load {}", l.display());
        }
        match &boot.starter {
            Some((sp, lv)) => {
                let _ = writeln!(s, "starter {sp} {lv}");
            }
            None => s.push_str("starter none\n"),
        }
        for (item, n) in &boot.bag {
            let _ = writeln!(s, "bag {item} {n}");
        }
        s.push_str("keys\n");
        s
    }

    pub fn to_text(&self) -> String {
        let mut s = Self::header(&self.boot);
        for k in &self.keys {
            s.push_str(&k.to_line());
            s.push('\n');
        }
        s
    }

    /// Parse a key log; errors name the line.
    pub fn parse(text: &str) -> Result<KeyLog, String> {
        let mut lines = text.lines().enumerate();
        match lines.next() {
            Some((_, l)) if l.trim() == MAGIC => {}
            _ => return Err(format!("key log: the first line must be `{MAGIC}`")),
        }
        let mut version = None;
        let mut seed = None;
        let mut boot = Boot::new_game(GameVersion::Red, 0);
        boot.starter = None;
        boot.bag.clear();
        let mut starter_seen = false;
        let mut in_keys = false;
        let mut keys = Vec::new();
        for (i, raw) in lines {
            let n = i + 1;
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let err = |e: String| format!("key log line {n}: {e}");
            if in_keys {
                keys.push(Key::parse(line).map_err(err)?);
                continue;
            }
            let (name, rest) = line.split_once(' ').unwrap_or((line, ""));
            let rest = rest.trim();
            match name {
                "version" => {
                    version = Some(
                        GameVersion::parse(rest)
                            .ok_or_else(|| err(format!("unknown version {rest:?}")))?,
                    )
                }
                "seed" => {
                    seed = Some(
                        rest.parse::<u64>()
                            .map_err(|_| err(format!("bad seed {rest:?}")))?,
                    )
                }
                "no-default-mods" => boot.no_default_mods = true,
                "mods" if !rest.is_empty() => boot.mods.push(PathBuf::from(rest)),
                "load" if !rest.is_empty() => boot.load = Some(PathBuf::from(rest)),
                "starter" => {
                    starter_seen = true;
                    boot.starter = match rest.split_whitespace().collect::<Vec<_>>().as_slice() {
                        ["none"] => None,
                        [sp, lv] => Some((
                            (*sp).to_owned(),
                            lv.parse()
                                .map_err(|_| err(format!("bad starter level {lv:?}")))?,
                        )),
                        _ => return Err(err("`starter` takes SPECIES LEVEL or none".into())),
                    };
                }
                "bag" => match rest.split_whitespace().collect::<Vec<_>>().as_slice() {
                    [item, count] => boot.bag.push((
                        (*item).to_owned(),
                        count
                            .parse()
                            .map_err(|_| err(format!("bad bag count {count:?}")))?,
                    )),
                    _ => return Err(err("`bag` takes ITEM COUNT".into())),
                },
                "keys" => in_keys = true,
                other => return Err(err(format!("unknown header line {other:?}"))),
            }
        }
        if !in_keys {
            return Err("key log: no `keys` line".into());
        }
        if !starter_seen {
            return Err("key log: no `starter` line".into());
        }
        boot.version = version.ok_or("key log: no `version` line")?;
        boot.seed = seed.ok_or("key log: no `seed` line")?;
        Ok(KeyLog { boot, keys })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_log_round_trips() {
        let mut boot = Boot::new_game(GameVersion::Blue, 42);
        boot.mods.push("examples/mods/quicksave".into());
        boot.no_default_mods = true;
        let log = KeyLog {
            boot,
            keys: vec![
                Key::Dir(Direction::Down),
                Key::A,
                Key::B,
                Key::Start,
                Key::Signal {
                    mod_id: "quicksave".into(),
                    name: "save".into(),
                },
            ],
        };
        assert_eq!(KeyLog::parse(&log.to_text()).unwrap(), log);
    }

    #[test]
    fn bad_key_logs_name_the_line() {
        assert!(KeyLog::parse("version red")
            .unwrap_err()
            .contains("first line"));
        let head = format!("{MAGIC}\nversion red\nseed 1\nstarter none\nkeys\n");
        assert_eq!(
            KeyLog::parse(&format!("{head}jump\n")).unwrap_err(),
            "key log line 6: unknown key \"jump\""
        );
        assert!(
            KeyLog::parse(&format!("{MAGIC}\nversion red\nstarter none\nkeys\n"))
                .unwrap_err()
                .contains("seed")
        );
        assert!(KeyLog::parse(&format!("{MAGIC}\nversion gold\n"))
            .unwrap_err()
            .contains("line 2"));
    }
}
