//! Small shared enums of the overworld and the save: direction, input, game version (a leaf:
//! `world` and `save` both read them).

use std::fmt;

use serde::{Deserialize, Serialize};

/// A facing / movement direction. Serialized lower-case (`"up"`), as scripts and saves spell it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    Up,
    Down,
    Left,
    Right,
}

impl Direction {
    pub const ALL: [Direction; 4] = [
        Direction::Up,
        Direction::Down,
        Direction::Left,
        Direction::Right,
    ];

    /// Cell delta `(dx, dy)`; y grows downwards.
    pub fn delta(self) -> (i32, i32) {
        match self {
            Direction::Up => (0, -1),
            Direction::Down => (0, 1),
            Direction::Left => (-1, 0),
            Direction::Right => (1, 0),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Direction::Up => "up",
            Direction::Down => "down",
            Direction::Left => "left",
            Direction::Right => "right",
        }
    }

    pub fn parse(s: &str) -> Option<Direction> {
        Direction::ALL.into_iter().find(|d| d.as_str() == s)
    }

    pub fn opposite(self) -> Direction {
        match self {
            Direction::Up => Direction::Down,
            Direction::Down => Direction::Up,
            Direction::Left => Direction::Right,
            Direction::Right => Direction::Left,
        }
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One tick's input: at most one button, as a headless front end or a scenario feeds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Input {
    #[default]
    None,
    Up,
    Down,
    Left,
    Right,
    A,
    B,
    Start,
}

impl Input {
    pub fn direction(self) -> Option<Direction> {
        match self {
            Input::Up => Some(Direction::Up),
            Input::Down => Some(Direction::Down),
            Input::Left => Some(Direction::Left),
            Input::Right => Some(Direction::Right),
            _ => None,
        }
    }

    pub fn from_direction(d: Direction) -> Input {
        match d {
            Direction::Up => Input::Up,
            Direction::Down => Input::Down,
            Direction::Left => Input::Left,
            Direction::Right => Input::Right,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Input::None => "none",
            Input::Up => "up",
            Input::Down => "down",
            Input::Left => "left",
            Input::Right => "right",
            Input::A => "a",
            Input::B => "b",
            Input::Start => "start",
        }
    }

    pub fn parse(s: &str) -> Option<Input> {
        [
            Input::None,
            Input::Up,
            Input::Down,
            Input::Left,
            Input::Right,
            Input::A,
            Input::B,
            Input::Start,
        ]
        .into_iter()
        .find(|i| i.as_str().eq_ignore_ascii_case(s))
    }
}

/// The active Gen 1 games. Serialized lower-case (`"red"`), the save's `version` spelling.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameVersion {
    Red,
    Blue,
    Yellow,
}

impl GameVersion {
    pub const ALL: [GameVersion; 3] = [GameVersion::Red, GameVersion::Blue, GameVersion::Yellow];

    pub fn as_str(self) -> &'static str {
        match self {
            GameVersion::Red => "red",
            GameVersion::Blue => "blue",
            GameVersion::Yellow => "yellow",
        }
    }

    pub fn parse(s: &str) -> Option<GameVersion> {
        GameVersion::ALL.into_iter().find(|v| v.as_str() == s)
    }
}

impl fmt::Display for GameVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for d in Direction::ALL {
            assert_eq!(Direction::parse(d.as_str()), Some(d));
            assert_eq!(d.opposite().opposite(), d);
        }
        for v in GameVersion::ALL {
            assert_eq!(GameVersion::parse(v.as_str()), Some(v));
        }
        assert_eq!(GameVersion::parse("gold"), None);
        assert_eq!(Input::parse("A"), Some(Input::A));
        assert_eq!(Input::parse("jump"), None);
    }
}
