//! What the player sees, as an ordered feed of rows. Rows store ids and numbers; text is looked
//! up and formatted only when a front end asks ([`PresentationRow::describe`]).

use serde::{Deserialize, Serialize};

use super::store::MapSet;
use super::types::Direction;

/// A text a box shows: a constant of the text table, or a literal (mods, fallbacks).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TextRef {
    Const(String),
    Literal(String),
}

impl TextRef {
    pub fn constant(key: &str) -> TextRef {
        TextRef::Const(key.to_owned())
    }

    /// The text as shown; an unknown constant shows its key in brackets (never panics).
    pub fn resolve(&self, maps: &MapSet) -> String {
        match self {
            TextRef::Const(k) => maps
                .text(k)
                .map(str::to_owned)
                .unwrap_or_else(|| format!("[{k}]")),
            TextRef::Literal(s) => maps.translations.literal(s).to_owned(),
        }
    }
}

/// One thing the player sees or hears.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "row", rename_all = "snake_case")]
pub enum PresentationRow {
    /// The screen now shows `map` (new game or after a warp's fade-out).
    MapEntered {
        map: String,
        x: u32,
        y: u32,
        facing: Direction,
    },
    /// A warp started from `from` towards `to`.
    WarpStarted {
        from: String,
        to: String,
        x: u32,
        y: u32,
        facing: Direction,
    },
    /// The player finished a step onto `(x, y)`.
    Stepped {
        map: String,
        x: u32,
        y: u32,
        facing: Direction,
    },
    Turned {
        facing: Direction,
    },
    /// A move was refused (wall, water, NPC, map edge).
    Bumped {
        x: u32,
        y: u32,
        facing: Direction,
    },
    TextOpened {
        text: TextRef,
    },
    TextClosed,
    MenuOpened,
    MenuClosed,
    /// A script's choice box opened with these options (the first is highlighted).
    ChoiceOpened {
        options: Vec<String>,
    },
    /// The player answered a choice box with option `index` (`yes`: the first option).
    ChoiceMade {
        index: usize,
        yes: bool,
    },
    Sound {
        id: String,
    },
    Music {
        id: String,
    },
    MusicStopped,
    BlockReplaced {
        map: String,
        bx: u32,
        by: u32,
        block: u32,
    },
    FlagChanged {
        flag: String,
        value: bool,
    },
    ScriptStarted {
        source: String,
    },
    ScriptEnded {
        source: String,
    },
    AnimationStarted {
        name: String,
    },
    AnimationEnded {
        name: String,
    },
    SurfStarted,
    SurfEnded,
    WildEncounter {
        species: String,
        level: u8,
    },
    /// An emotion bubble over an NPC (`"!"`: a trainer saw the player).
    Emote {
        npc: String,
        emote: String,
    },
    /// An NPC finished a step onto `(x, y)` (a trainer walking up to the player).
    NpcStepped {
        npc: String,
        x: u32,
        y: u32,
        facing: Direction,
    },
    /// A front end note the game itself adds (e.g. a feature not available yet).
    Note {
        text: String,
    },
}

/// A row with the tick it happened on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FeedRow {
    pub tick: u64,
    pub row: PresentationRow,
}

impl PresentationRow {
    /// A one-line, human-readable rendering (map names and texts looked up in `maps`).
    pub fn describe(&self, maps: &MapSet) -> String {
        let map_name = |id: &str| {
            maps.get(id)
                .map(|m| m.name.clone())
                .unwrap_or_else(|| id.to_owned())
        };
        match self {
            PresentationRow::MapEntered { map, x, y, facing } => {
                format!("== {} == ({x},{y}) facing {facing}", map_name(map))
            }
            PresentationRow::WarpStarted {
                from,
                to,
                x,
                y,
                facing,
            } => {
                format!(
                    "warp {} -> {} ({x},{y}) facing {facing}",
                    map_name(from),
                    map_name(to)
                )
            }
            PresentationRow::Stepped {
                map: _,
                x,
                y,
                facing,
            } => format!("step {facing} to ({x},{y})"),
            PresentationRow::Turned { facing } => format!("turn {facing}"),
            PresentationRow::Bumped { x, y, facing } => {
                format!("bump at ({x},{y}) facing {facing}")
            }
            PresentationRow::TextOpened { text } => {
                // Line breaks, and the text codes for a scroll (`\x0b`) and a new box (`\x0c`).
                let body = text.resolve(maps).replace(['\n', '\x0b', '\x0c'], " / ");
                format!("[text] {body}")
            }
            PresentationRow::TextClosed => "[text closed]".to_owned(),
            PresentationRow::MenuOpened => "[menu opened]".to_owned(),
            PresentationRow::MenuClosed => "[menu closed]".to_owned(),
            PresentationRow::ChoiceOpened { options } => {
                format!("[choice] {}", options.join(" / "))
            }
            PresentationRow::ChoiceMade { index, yes } => {
                format!("[chose {}] {}", index + 1, if *yes { "yes" } else { "no" })
            }
            PresentationRow::Sound { id } => format!("(sound {id})"),
            PresentationRow::Music { id } => format!("(music {id})"),
            PresentationRow::MusicStopped => "(music stops)".to_owned(),
            PresentationRow::BlockReplaced { map, bx, by, block } => {
                format!("{} block ({bx},{by}) -> {block}", map_name(map))
            }
            PresentationRow::FlagChanged { flag, value } => {
                format!("flag {flag} {}", if *value { "set" } else { "cleared" })
            }
            PresentationRow::ScriptStarted { source } => format!("script {source} starts"),
            PresentationRow::ScriptEnded { source } => format!("script {source} ends"),
            PresentationRow::AnimationStarted { name } => format!("animation {name} starts"),
            PresentationRow::AnimationEnded { name } => format!("animation {name} ends"),
            PresentationRow::SurfStarted => "surfing".to_owned(),
            PresentationRow::SurfEnded => "back on land".to_owned(),
            PresentationRow::WildEncounter { species, level } => {
                format!("a wild {species} (L{level}) appears!")
            }
            PresentationRow::Emote { npc, emote } => format!("{npc}: {emote}"),
            PresentationRow::NpcStepped { npc, x, y, facing } => {
                format!("{npc} steps {facing} to ({x},{y})")
            }
            PresentationRow::Note { text } => format!("note: {text}"),
        }
    }
}
