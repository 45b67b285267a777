//! The screen model: everything a front end draws, read from a [`Session`] (plain data, no
//! terminal). The overworld is drawn from the active map's live blocks (each block's 2×2 cell
//! kinds from its tileset), with the player, NPCs, signs and warps on top.

use pallet_engine::battle::{Action, NeedsChoice, Side};
use pallet_engine::data;
use pallet_engine::game::Mode;
use pallet_engine::pokemon::Pokemon;
use pallet_engine::world::overworld::Screen as EngineScreen;
use pallet_engine::world::tileset::CellKind;
use pallet_engine::world::Direction;

use super::session::{BattleMenu, Session, Ui, MENU_ITEMS};

/// One drawn cell of the map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Glyph {
    Cell(CellKind),
    Player(Direction),
    Npc,
    Sign,
    Warp,
}

impl Glyph {
    /// The character drawn for the glyph (the legend lists them).
    pub fn symbol(self) -> char {
        match self {
            Glyph::Cell(k) => match k {
                CellKind::Floor => '.',
                CellKind::Grass => '"',
                CellKind::Door => '+',
                CellKind::Water => '~',
                CellKind::Solid => '#',
            },
            Glyph::Player(d) => match d {
                Direction::Up => '^',
                Direction::Down => 'v',
                Direction::Left => '<',
                Direction::Right => '>',
            },
            Glyph::Npc => '&',
            Glyph::Sign => '?',
            Glyph::Warp => '=',
        }
    }
}

/// The active map as cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapView {
    pub id: String,
    pub name: String,
    pub width: u32,
    pub height: u32,
    /// Row-major, `width * height`.
    pub cells: Vec<Glyph>,
    pub player: (u32, u32),
}

impl MapView {
    pub fn at(&self, x: u32, y: u32) -> Glyph {
        self.cells[(y * self.width + x) as usize]
    }
}

/// A list with a cursor (menus, party, bag, moves).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListView {
    pub title: String,
    pub items: Vec<String>,
    pub cursor: usize,
}

/// One battler's panel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MonPanel {
    pub name: String,
    pub level: u8,
    pub hp: u16,
    pub max_hp: u16,
    pub status: String,
}

impl MonPanel {
    fn of(m: &Pokemon) -> MonPanel {
        MonPanel {
            name: m.display_name(data::gen1()).to_owned(),
            level: m.level,
            hp: m.hp,
            max_hp: m.stats.max_hp,
            status: if m.status.is_none() {
                String::new()
            } else {
                m.status.code().to_uppercase()
            },
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BattleView {
    /// "Wild PIDGEY" or "BUG CATCHER".
    pub opponent: String,
    pub turn: u32,
    pub enemy: MonPanel,
    pub player: MonPanel,
    pub log: Vec<String>,
    /// The 2×2 main menu (cursor) or a list.
    pub main: Option<usize>,
    pub list: Option<ListView>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum View {
    World {
        map: MapView,
        /// The text box, if one is up.
        text: Option<String>,
        /// The start menu and, beside it, an open party/bag list.
        menu: Option<ListView>,
        sub: Option<ListView>,
    },
    Battle(BattleView),
    /// No overworld (cannot happen after boot; shown rather than panicking).
    Empty,
}

/// Everything on screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScreenModel {
    /// "PALLET TOWN  red seed 1  t=123  ¥3000".
    pub title: String,
    pub view: View,
    /// The mods' log lines, newest last.
    pub mod_log: Vec<String>,
    /// Transcript lines, newest last.
    pub events: Vec<String>,
    /// Key bindings for this view: (key, what).
    pub bindings: Vec<(String, String)>,
    /// A line about the last key, or the front end's status.
    pub message: Option<String>,
    /// A front-end dialog over everything (quit: save?), set by the front end.
    pub dialog: Option<Vec<String>>,
}

fn mon_line(m: &Pokemon) -> String {
    let p = MonPanel::of(m);
    format!(
        "{:<10} L{:<3} HP {:>3}/{:<3} {}",
        p.name, p.level, p.hp, p.max_hp, p.status
    )
}

fn move_line(m: &Pokemon, slot: usize) -> Option<String> {
    let mv = m.moves[slot]?;
    let d = data::gen1();
    let name = d.get_move(mv).map(|x| x.name).unwrap_or("?");
    let max = m.max_pp(d, slot).unwrap_or(0);
    Some(format!("{:<13} PP {:>2}/{:<2}", name, m.pp[slot], max))
}

fn bag_lines(session: &Session) -> Vec<String> {
    let d = data::gen1();
    session
        .game
        .save
        .inventory
        .iter()
        .map(|s| {
            let name = d
                .item_by_name(&s.id)
                .and_then(|i| d.get_item(i))
                .map(|i| i.name)
                .unwrap_or(s.id.as_str());
            format!("{:<14} x{:>2}", name, s.count)
        })
        .collect()
}

fn party_lines(session: &Session) -> Vec<String> {
    let d = data::gen1();
    session
        .game
        .save
        .party
        .iter()
        .map(|r| match r.to_pokemon(d) {
            Ok(m) => mon_line(&m),
            Err(_) => format!("{} (unreadable)", r.species),
        })
        .collect()
}

fn bind(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

/// The map with everything on it.
fn map_view(session: &Session) -> Option<MapView> {
    let ow = session.game.overworld()?;
    let map = ow.map();
    let def = map.def();
    let (w, h) = (def.cell_width(), def.cell_height());
    let mut cells = Vec::with_capacity((w * h) as usize);
    for y in 0..h {
        for x in 0..w {
            let kind = map
                .cell_kind(i64::from(x), i64::from(y))
                .unwrap_or(CellKind::Solid);
            cells.push(Glyph::Cell(kind));
        }
    }
    let mut put = |x: u32, y: u32, g: Glyph| {
        if x < w && y < h {
            cells[(y * w + x) as usize] = g;
        }
    };
    for warp in &def.warps {
        // Door cells already say "warp"; mark the others (edge warps, stairs, mats).
        let kind = map.cell_kind(i64::from(warp.x), i64::from(warp.y));
        if kind != Some(CellKind::Door) {
            put(warp.x, warp.y, Glyph::Warp);
        }
    }
    for s in &def.signs {
        put(s.x, s.y, Glyph::Sign);
    }
    for n in &def.npcs {
        put(n.x, n.y, Glyph::Npc);
    }
    let p = ow.player();
    put(p.x, p.y, Glyph::Player(p.facing));
    Some(MapView {
        id: def.id.clone(),
        name: def.name.clone(),
        width: w,
        height: h,
        cells,
        player: (p.x, p.y),
    })
}

fn action_label(session: &Session, a: Action) -> String {
    let d = data::gen1();
    let Some(b) = session.game.battle() else {
        return String::new();
    };
    let need = b.needs_choice();
    match a {
        Action::Move(i) => {
            let (side, verb) = match need {
                NeedsChoice::Mimic => (Side::Enemy, "copy"),
                _ => (Side::Player, "forget"),
            };
            let mon = match need {
                NeedsChoice::LearnMove { slot, .. } => b.party(Side::Player).get(slot as usize),
                _ => Some(b.active(side)),
            };
            let name = mon
                .and_then(|m| m.moves.get(i as usize).copied().flatten())
                .and_then(|mv| d.get_move(mv))
                .map(|m| m.name)
                .unwrap_or("?");
            format!("{verb} {name}")
        }
        Action::Switch(i) => {
            let name = b
                .party(Side::Player)
                .get(i as usize)
                .map(mon_line)
                .unwrap_or_default();
            format!("send out {name}")
        }
        Action::Continue => match need {
            NeedsChoice::Shift => format!("keep {}", b.active(Side::Player).display_name(d)),
            NeedsChoice::LearnMove { mv, .. } => format!(
                "do not learn {}",
                d.get_move(mv).map(|m| m.name).unwrap_or("?")
            ),
            _ => "continue".into(),
        },
        Action::Run => "run".into(),
        Action::Struggle => "struggle".into(),
        Action::Item(i) => d.get_item(i).map(|x| x.name).unwrap_or("?").to_owned(),
    }
}

fn choices_title(session: &Session) -> String {
    let d = data::gen1();
    match session.game.battle().map(|b| b.needs_choice()) {
        Some(NeedsChoice::Replacement { player: true, .. }) => "Bring out which POKéMON?".into(),
        Some(NeedsChoice::Shift) => "The enemy sends out another. Change POKéMON?".into(),
        Some(NeedsChoice::LearnMove { mv, .. }) => format!(
            "Learn {}? Forget which move?",
            d.get_move(mv).map(|m| m.name).unwrap_or("?")
        ),
        Some(NeedsChoice::Mimic) => "MIMIC: copy which move?".into(),
        _ => "Press A".into(),
    }
}

fn battle_view(session: &Session, menu: BattleMenu, cursor: usize) -> Option<BattleView> {
    let b = session.game.battle()?;
    let opponent = match b.kind() {
        pallet_engine::battle::BattleKind::Wild => {
            format!("Wild {}", b.active(Side::Enemy).display_name(data::gen1()))
        }
        pallet_engine::battle::BattleKind::Trainer { name, .. } => name.clone(),
    };
    let list = match menu {
        BattleMenu::Main => None,
        BattleMenu::Fight => {
            let m = b.active(Side::Player);
            Some(ListView {
                title: "FIGHT".into(),
                items: (0..4).filter_map(|s| move_line(m, s)).collect(),
                cursor,
            })
        }
        BattleMenu::Item => Some(ListView {
            title: "ITEM".into(),
            items: bag_lines(session),
            cursor,
        }),
        BattleMenu::Switch => Some(ListView {
            title: "SWITCH".into(),
            items: b.party(Side::Player).iter().map(mon_line).collect(),
            cursor,
        }),
        BattleMenu::Choices => Some(ListView {
            title: choices_title(session),
            items: session
                .game
                .battle_actions()
                .iter()
                .map(|a| action_label(session, *a))
                .collect(),
            cursor,
        }),
    };
    Some(BattleView {
        opponent,
        turn: b.turn(),
        enemy: MonPanel::of(b.active(Side::Enemy)),
        player: MonPanel::of(b.active(Side::Player)),
        log: session.battle_log().to_vec(),
        main: (menu == BattleMenu::Main).then_some(cursor),
        list,
    })
}

impl ScreenModel {
    /// The screen of `session` now.
    pub fn of(session: &Session, checkpoint_mod: &str) -> ScreenModel {
        let g = &session.game;
        let place = g
            .overworld()
            .map(|o| o.map().def().name.clone())
            .unwrap_or_default();
        let title = format!(
            "{place}   {} seed {}   t={}   ¥{}",
            session.boot.version, session.boot.seed, g.tick, g.save.money
        );
        let quick = format!("{checkpoint_mod} save/load");
        let common: [(&str, &str); 3] = [("F5/F9", &quick), ("q", "quit"), ("Ctrl-C", "quit")];
        let (view, mut bindings) = match session.ui() {
            Ui::Battle(menu, cursor) if g.mode == Mode::Battle => {
                let keys = match menu {
                    BattleMenu::Main => bind(&[("arrows", "choose"), ("Enter", "A: select")]),
                    BattleMenu::Choices => bind(&[("Up/Down", "choose"), ("Enter", "A: select")]),
                    _ => bind(&[
                        ("Up/Down", "choose"),
                        ("Enter", "A: use"),
                        ("Backspace", "B: back"),
                    ]),
                };
                match battle_view(session, *menu, *cursor) {
                    Some(v) => (View::Battle(v), keys),
                    None => (View::Empty, keys),
                }
            }
            ui => match map_view(session) {
                None => (View::Empty, Vec::new()),
                Some(map) => {
                    let text = match g.overworld().and_then(|o| o.screen()) {
                        Some(EngineScreen::Text { text, .. }) => Some(text.resolve(g.maps())),
                        Some(EngineScreen::Choice {
                            options, cursor, ..
                        }) => Some(
                            options
                                .iter()
                                .enumerate()
                                .map(|(i, o)| {
                                    format!("{} {o}", if i == *cursor { ">" } else { " " })
                                })
                                .collect::<Vec<_>>()
                                .join("\n"),
                        ),
                        _ => None,
                    };
                    let (menu, sub, keys) = match ui {
                        Ui::Menu(c) => (
                            Some(ListView {
                                title: "MENU".into(),
                                items: MENU_ITEMS.iter().map(|s| (*s).to_owned()).collect(),
                                cursor: *c,
                            }),
                            None,
                            bind(&[
                                ("Up/Down", "choose"),
                                ("Enter", "A: select"),
                                ("Backspace/Space", "close"),
                            ]),
                        ),
                        Ui::Party(c) | Ui::Bag(c) => {
                            let party = matches!(ui, Ui::Party(_));
                            let sub = ListView {
                                title: if party { "POKéMON" } else { "ITEM" }.into(),
                                items: if party {
                                    party_lines(session)
                                } else {
                                    bag_lines(session)
                                },
                                cursor: *c,
                            };
                            (
                                Some(ListView {
                                    title: "MENU".into(),
                                    items: MENU_ITEMS.iter().map(|s| (*s).to_owned()).collect(),
                                    cursor: usize::from(!party),
                                }),
                                Some(sub),
                                bind(&[("Up/Down", "choose"), ("Backspace", "B: back")]),
                            )
                        }
                        _ if text.is_some() => (None, None, bind(&[("Enter", "A: next")])),
                        _ => (
                            None,
                            None,
                            bind(&[
                                ("arrows", "walk"),
                                ("Enter", "A: talk/check"),
                                ("Space", "START: menu"),
                                ("Backspace", "B"),
                            ]),
                        ),
                    };
                    (
                        View::World {
                            map,
                            text,
                            menu,
                            sub,
                        },
                        keys,
                    )
                }
            },
        };
        bindings.extend(bind(&common));
        ScreenModel {
            title,
            view,
            mod_log: session.mod_log().to_vec(),
            events: session.events().to_vec(),
            bindings,
            message: session.message().map(str::to_owned),
            dialog: None,
        }
    }
}
