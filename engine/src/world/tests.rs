//! Overworld behaviour tests: movement, collision, warps, text boxes, the script runner, the
//! Vermilion Dock branches, events.

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::rc::Rc;

use pallet_api::catalog::{events, hooks};
use pallet_api::{LinkError, Runtime, Value};

use super::base_scripts::{self, EVENT_GOT_HM01, EVENT_SS_ANNE_LEFT};
use super::overworld::{
    CloseAction, Screen, WarpTarget, FADE_IN_TICKS, FADE_OUT_TICKS, STEP_TICKS,
};
use super::presentation::{FeedRow, PresentationRow, TextRef};
use super::script::{Script, ScriptRow, SCRIPT_ALREADY_RUNNING};
use super::store::embedded;
use super::*;
use crate::rng::Rng;

pub(super) struct H {
    pub(super) ow: Overworld,
    pub(super) flags: BTreeSet<String>,
    rng: Rng,
    rt: Rc<Runtime>,
    feed: Vec<FeedRow>,
    tick: u64,
    version: GameVersion,
    last_outdoor: Option<crate::save::OutdoorPoint>,
    toggles: crate::save::ObjectToggles,
    pub(super) bag: Vec<crate::save::data::ItemStack>,
}

impl H {
    fn at(
        version: GameVersion,
        map: &str,
        x: u32,
        y: u32,
        facing: Direction,
        flags: &[&str],
        rt: Rc<Runtime>,
    ) -> H {
        let maps = embedded(version).unwrap().clone();
        let mut flags: BTreeSet<String> = flags.iter().map(|s| s.to_string()).collect();
        let mut rng = Rng::new(1);
        let mut feed = Vec::new();
        let mut last_outdoor = None;
        let mut toggles = crate::save::ObjectToggles::new();
        let mut bag = Vec::new();
        let scripts = Rc::new(base_scripts::base_registry());
        let ow = {
            let mut ctx = WorldCtx {
                version,
                flags: &mut flags,
                rng: &mut rng,
                rt: &rt,
                data: crate::data::gen1(),
                feed: &mut feed,
                tick: 0,
                last_outdoor: &mut last_outdoor,
                object_toggles: &mut toggles,
                bag: &mut bag,
                names: ("RED", "BLUE"),
                observer: super::overworld::ChangeObserver::NONE,
                party: &[],
            };
            Overworld::new(maps, scripts, &WarpTarget::new(map, x, y, facing), &mut ctx).unwrap()
        };
        H {
            ow,
            flags,
            rng,
            rt,
            feed,
            tick: 0,
            version,
            last_outdoor,
            toggles,
            bag,
        }
    }

    pub(super) fn red(map: &str, x: u32, y: u32, facing: Direction, flags: &[&str]) -> H {
        H::at(
            GameVersion::Red,
            map,
            x,
            y,
            facing,
            flags,
            Rc::new(Runtime::new()),
        )
    }

    pub(super) fn with_ctx<T>(
        &mut self,
        f: impl FnOnce(&mut Overworld, &mut WorldCtx<'_>) -> T,
    ) -> T {
        let mut ctx = WorldCtx {
            version: self.version,
            flags: &mut self.flags,
            rng: &mut self.rng,
            rt: &self.rt,
            data: crate::data::gen1(),
            feed: &mut self.feed,
            tick: self.tick,
            last_outdoor: &mut self.last_outdoor,
            object_toggles: &mut self.toggles,
            bag: &mut self.bag,
            names: ("RED", "BLUE"),
            observer: super::overworld::ChangeObserver::NONE,
            party: &[],
        };
        f(&mut self.ow, &mut ctx)
    }

    pub(super) fn step(&mut self, input: Input) {
        self.tick += 1;
        self.with_ctx(|ow, ctx| ow.step(input, ctx));
    }

    fn steps(&mut self, input: Input, n: usize) {
        for _ in 0..n {
            self.step(input);
        }
    }

    /// Step with `input` until idle (bounded); returns ticks taken.
    pub(super) fn until_idle(&mut self, input: Input) -> usize {
        for i in 1..=5000 {
            self.step(input);
            if self.ow.is_idle() {
                return i;
            }
        }
        panic!("never idle: {:?}", self.ow.busy());
    }

    fn pos(&self) -> (&str, u32, u32, Direction) {
        let p = self.ow.player();
        (self.ow.map_id(), p.x, p.y, p.facing)
    }

    pub(super) fn rows(&self) -> Vec<&PresentationRow> {
        self.feed.iter().map(|r| &r.row).collect()
    }

    fn block(&self, bx: i64, by: i64) -> Result<u32, BlockReadError> {
        self.ow
            .active_block_at(self.ow.map_id(), &Value::Int(bx), &Value::Int(by))
    }
}

use Direction::*;

#[test]
fn a_step_takes_step_ticks() {
    let mut h = H::red("REDS_HOUSE_1F", 3, 4, Down, &[]);
    h.step(Input::Down);
    assert_eq!(h.ow.busy(), Some(BusyState::Movement));
    assert_eq!(h.ow.busy().map(BusyState::as_str), Some("movement_busy"));
    h.steps(Input::None, STEP_TICKS as usize - 2);
    assert_eq!(
        h.pos(),
        ("REDS_HOUSE_1F", 3, 4, Down),
        "still on the old cell before the last tick"
    );
    h.step(Input::None);
    assert_eq!(h.pos(), ("REDS_HOUSE_1F", 3, 5, Down));
    assert!(h.ow.is_idle());
    // Holding the direction walks one cell per STEP_TICKS ticks.
    let mut h = H::red("REDS_HOUSE_1F", 2, 2, Down, &[]);
    h.steps(Input::Down, 2 * STEP_TICKS as usize);
    assert_eq!(h.pos(), ("REDS_HOUSE_1F", 2, 4, Down));
}

#[test]
fn a_new_direction_turns_first() {
    let mut h = H::red("REDS_HOUSE_1F", 3, 4, Down, &[]);
    h.step(Input::Left);
    assert_eq!(h.pos(), ("REDS_HOUSE_1F", 3, 4, Left));
    assert!(h.ow.is_idle(), "a turn is not a move");
    assert!(h
        .rows()
        .contains(&&PresentationRow::Turned { facing: Left }));
    h.step(Input::Left);
    assert_eq!(h.ow.busy(), Some(BusyState::Movement));
    h.until_idle(Input::None);
    assert_eq!(h.pos(), ("REDS_HOUSE_1F", 2, 4, Left));
}

#[test]
fn walls_npcs_water_and_edges_block() {
    // Wall: x=1 is the house wall.
    let mut h = H::red("REDS_HOUSE_1F", 2, 4, Left, &[]);
    h.step(Input::Left);
    assert!(h.ow.is_idle());
    assert_eq!(h.pos(), ("REDS_HOUSE_1F", 2, 4, Left));
    assert!(matches!(
        h.rows().last(),
        Some(PresentationRow::Bumped { .. })
    ));
    // NPC: mom stands at (5,4).
    let mut h = H::red("REDS_HOUSE_1F", 4, 4, Right, &[]);
    h.step(Input::Right);
    assert_eq!(h.pos(), ("REDS_HOUSE_1F", 4, 4, Right));
    assert!(h.ow.is_idle());
    // Water: dock (8,2) is water below the pier cell (8,1).
    let mut h = H::red("VERMILION_DOCK", 8, 1, Down, &[]);
    h.step(Input::Down);
    assert_eq!(h.pos(), ("VERMILION_DOCK", 8, 1, Down));
    // …unless surfing; landing again ends the surf.
    h.with_ctx(|ow, ctx| ow.set_surfing(true, ctx));
    h.step(Input::Down);
    h.until_idle(Input::None);
    assert_eq!(h.pos(), ("VERMILION_DOCK", 8, 2, Down));
    assert!(h.ow.player().surfing);
    h.step(Input::Up);
    h.step(Input::Up);
    h.until_idle(Input::None);
    assert_eq!(h.pos(), ("VERMILION_DOCK", 8, 1, Up));
    assert!(!h.ow.player().surfing);
    assert!(h.rows().contains(&&PresentationRow::SurfEnded));
    // Map edge without a warp: (13,0) on the dock's top row.
    let mut h = H::red("VERMILION_DOCK", 13, 0, Up, &[]);
    h.step(Input::Up);
    assert!(h.ow.is_idle());
    assert_eq!(h.pos(), ("VERMILION_DOCK", 13, 0, Up));
}

#[test]
fn stepping_on_a_door_warps_with_a_transition() {
    let mut h = H::red("REDS_HOUSE_1F", 3, 6, Down, &[]);
    h.step(Input::Down);
    h.steps(Input::None, STEP_TICKS as usize - 1);
    assert_eq!(h.pos(), ("REDS_HOUSE_1F", 3, 7, Down));
    assert_eq!(h.ow.busy(), Some(BusyState::Transition));
    assert_eq!(h.ow.busy().unwrap().as_str(), "transition_busy");
    // Fade-out: still on the old map until its last tick; input is ignored.
    h.steps(Input::Up, FADE_OUT_TICKS as usize - 1);
    assert_eq!(h.ow.map_id(), "REDS_HOUSE_1F");
    h.step(Input::Up);
    assert_eq!(h.pos(), ("PALLET_TOWN", 2, 7, Down));
    assert_eq!(h.ow.busy(), Some(BusyState::Transition));
    h.steps(Input::Up, FADE_IN_TICKS as usize - 1);
    assert_eq!(h.ow.busy(), Some(BusyState::Transition));
    h.step(Input::Up);
    assert!(h.ow.is_idle());
    assert_eq!(
        h.pos(),
        ("PALLET_TOWN", 2, 7, Down),
        "arrival cell and facing; inputs ignored while fading"
    );
    // Arriving on a warp cell does not warp back.
    h.step(Input::None);
    assert!(h.ow.is_idle());
    let entered: Vec<_> = h
        .rows()
        .into_iter()
        .filter(|r| matches!(r, PresentationRow::MapEntered { .. }))
        .collect();
    assert_eq!(entered.len(), 2);
}

#[test]
fn pushing_off_the_map_on_an_edge_warp_warps() {
    // Arrived in the house on the mat (2,7) facing up; pressing down turns, then warps out.
    let mut h = H::red("REDS_HOUSE_1F", 2, 7, Up, &[]);
    h.step(Input::Down);
    assert!(h.ow.is_idle());
    h.step(Input::Down);
    assert_eq!(h.ow.busy(), Some(BusyState::Transition));
    h.until_idle(Input::None);
    assert_eq!(h.pos(), ("PALLET_TOWN", 2, 7, Down));
}

#[test]
fn text_boxes_wait_for_a() {
    let mut h = H::red("REDS_HOUSE_1F", 4, 4, Right, &[]);
    h.step(Input::A);
    assert_eq!(h.ow.busy(), Some(BusyState::Screen));
    assert_eq!(h.ow.busy().unwrap().as_str(), "screen_busy");
    assert!(h.rows().contains(&&PresentationRow::TextOpened {
        text: TextRef::constant("_RedsHouse1FMomText")
    }));
    for input in [
        Input::None,
        Input::B,
        Input::Left,
        Input::Start,
        Input::Down,
    ] {
        h.step(input);
        assert_eq!(
            h.ow.busy(),
            Some(BusyState::Screen),
            "{input:?} must not close the box"
        );
    }
    assert_eq!(h.pos(), ("REDS_HOUSE_1F", 4, 4, Right));
    h.step(Input::A);
    assert!(h.ow.is_idle());
    assert_eq!(h.rows().last(), Some(&&PresentationRow::TextClosed));
}

#[test]
fn a_text_box_close_action_runs_on_close() {
    let mut h = H::red("PALLET_TOWN", 10, 8, Up, &[]);
    h.with_ctx(|ow, ctx| {
        ow.open_text(TextRef::Literal("first".into()), None, ctx);
        ow.open_text(
            TextRef::Literal("second".into()),
            Some(CloseAction::Warp(WarpTarget::new("ROUTE_1", 10, 30, Up))),
            ctx,
        )
    });
    h.step(Input::A);
    assert!(
        matches!(h.ow.screen(), Some(Screen::Text { text: TextRef::Literal(t), .. }) if t == "second")
    );
    assert!(
        h.ow.transition().is_none(),
        "closing the first box does nothing"
    );
    h.step(Input::A);
    assert_eq!(h.ow.busy(), Some(BusyState::Transition));
    h.until_idle(Input::None);
    assert_eq!(h.pos(), ("ROUTE_1", 10, 30, Up));
}

#[test]
fn start_menu_is_a_screen() {
    let mut h = H::red("PALLET_TOWN", 10, 8, Up, &[]);
    h.step(Input::Start);
    assert_eq!(h.ow.busy(), Some(BusyState::Screen));
    h.step(Input::Up);
    assert_eq!(h.pos(), ("PALLET_TOWN", 10, 8, Up));
    h.step(Input::B);
    assert!(h.ow.is_idle());
}

#[test]
fn the_runner_executes_every_row_kind_in_order() {
    let mut h = H::red("PALLET_TOWN", 10, 8, Down, &[]);
    let rows = vec![
        ScriptRow::Say {
            literal: "hello".into(),
        },
        ScriptRow::Wait { ticks: 5 },
        ScriptRow::FacePlayer { dir: Up },
        ScriptRow::MovePlayer { dir: Up, n: 2 },
        ScriptRow::SetFlag {
            flag: "EVENT_TEST".into(),
        },
        ScriptRow::ClearFlag {
            flag: "EVENT_OTHER".into(),
        },
        ScriptRow::PlaySound {
            sound: "SFX_TEST".into(),
        },
        ScriptRow::PlayMusic {
            music: "Music_Test".into(),
        },
        ScriptRow::StopMusic,
        ScriptRow::ReplaceBlock {
            bx: 1,
            by: 1,
            block: 2,
        },
        ScriptRow::SetSurfing { on: true },
        ScriptRow::SetSurfing { on: false },
        ScriptRow::Text {
            text: "_PalletTownSignText".into(),
        },
        ScriptRow::Warp {
            map: "ROUTE_1".into(),
            x: 10,
            y: 34,
            facing: Up,
        },
        ScriptRow::MovePlayer { dir: Up, n: 1 },
    ];
    h.flags.insert("EVENT_OTHER".into());
    h.with_ctx(|ow, _| ow.queue_script(Script::new("test", rows)))
        .unwrap();
    assert_eq!(h.ow.busy(), Some(BusyState::Script));
    assert_eq!(
        h.with_ctx(|ow, _| ow.queue_script(Script::new("second", vec![]))),
        Err(SCRIPT_ALREADY_RUNNING)
    );
    // Tick 1: the script starts and opens the box.
    h.step(Input::None);
    assert_eq!(h.ow.busy(), Some(BusyState::Screen));
    h.step(Input::A);
    // The wait row starts on the next tick and holds exactly 5 ticks.
    h.step(Input::Up);
    let started = h.tick;
    while h.ow.player().facing != Up {
        h.step(Input::Down);
        assert!(h.tick - started <= 5, "wait too long");
    }
    assert_eq!(h.tick - started, 5, "wait N holds N ticks");
    assert_eq!(
        h.ow.busy(),
        Some(BusyState::Script),
        "script_busy outranks movement_busy"
    );
    assert!(h.ow.movement().is_some());
    // Player input is locked while the script runs.
    let ticks = h.until_idle_or_screen();
    // The first step started on the wait's last tick: two steps end 2*STEP_TICKS-2 ticks later,
    // and the instant rows up to the next text box run on that same tick.
    assert_eq!(ticks, 2 * STEP_TICKS as usize - 2);
    assert_eq!(h.pos(), ("PALLET_TOWN", 10, 6, Up));
    assert!(h.flags.contains("EVENT_TEST"));
    assert!(!h.flags.contains("EVENT_OTHER"));
    assert_eq!(h.block(1, 1), Ok(2));
    h.step(Input::A); // close the sign text
    h.until_idle(Input::None);
    assert_eq!(h.pos(), ("ROUTE_1", 10, 33, Up));
    // Rows appear in script order.
    let kinds: Vec<String> = h
        .rows()
        .into_iter()
        .filter_map(|r| {
            Some(match r {
                PresentationRow::ScriptStarted { .. } => "start".to_string(),
                PresentationRow::TextOpened { .. } => "text".into(),
                PresentationRow::Turned { .. } => "turn".into(),
                PresentationRow::Stepped { .. } => "step".into(),
                PresentationRow::FlagChanged { value, .. } => format!("flag {value}"),
                PresentationRow::Sound { .. } => "sound".into(),
                PresentationRow::Music { id } if id == "Music_Test" => "music".into(),
                PresentationRow::MusicStopped => "stop".into(),
                PresentationRow::BlockReplaced { .. } => "block".into(),
                PresentationRow::SurfStarted => "surf".into(),
                PresentationRow::SurfEnded => "land".into(),
                PresentationRow::WarpStarted { .. } => "warp".into(),
                PresentationRow::ScriptEnded { .. } => "end".into(),
                _ => return None,
            })
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "start",
            "text",
            "turn",
            "step",
            "step",
            "flag true",
            "flag false",
            "sound",
            "music",
            "stop",
            "block",
            "surf",
            "land",
            "text",
            "warp",
            "step",
            "end"
        ]
    );
}

impl H {
    fn until_idle_or_screen(&mut self) -> usize {
        for i in 1..=5000 {
            self.step(Input::Down);
            if self.ow.is_idle() || self.ow.busy() == Some(BusyState::Screen) {
                return i;
            }
        }
        panic!("stuck");
    }
}

#[test]
fn bad_script_rows_are_reported_not_fatal() {
    let mut h = H::red("PALLET_TOWN", 10, 8, Down, &[]);
    let rows = vec![
        ScriptRow::Warp {
            map: "NOWHERE".into(),
            x: 0,
            y: 0,
            facing: Up,
        },
        ScriptRow::ReplaceBlock {
            bx: 99,
            by: 0,
            block: 0,
        },
        ScriptRow::SsAnneDeparts,
        ScriptRow::MovePlayer { dir: Left, n: 0 },
    ];
    h.with_ctx(|ow, _| ow.queue_script(Script::new("bad", rows)))
        .unwrap();
    h.until_idle(Input::None);
    assert_eq!(h.ow.diagnostics().len(), 3, "{:?}", h.ow.diagnostics());
    assert_eq!(h.pos(), ("PALLET_TOWN", 10, 8, Down));
}

fn ship_blocks(h: &H) -> Vec<u32> {
    base_scripts::DOCK_SHIP_BLOCKS
        .iter()
        .map(|&(bx, by, _)| h.block(bx.into(), by.into()).unwrap())
        .collect()
}

#[test]
fn leaving_the_ship_after_hm01_starts_the_departure() {
    for version in GameVersion::ALL {
        let mut h = H::at(
            version,
            "SS_ANNE_1F",
            4,
            4,
            Down,
            &[EVENT_GOT_HM01],
            Rc::new(Runtime::new()),
        );
        h.step(Input::Down);
        // Step, then the fade-out: the dock's onEnter fires at the swap.
        while h.ow.map_id() != "VERMILION_DOCK" {
            h.step(Input::None);
        }
        assert_eq!(h.pos(), ("VERMILION_DOCK", 14, 2, Up));
        assert!(
            h.flags.contains(EVENT_SS_ANNE_LEFT),
            "{version}: flag set on entry"
        );
        assert_eq!(ship_blocks(&h), vec![20, 21, 22, 23, 24, 25, 26, 27]);
        let mut saw_animation = false;
        let mut saw_script_busy = false;
        for _ in 0..2000 {
            h.step(Input::None);
            saw_animation |= h.ow.animation().is_some();
            saw_script_busy |= h.ow.busy() == Some(BusyState::Script);
            if h.ow.map_id() == "VERMILION_DOCK" && h.ow.animation().is_some() {
                assert_eq!(
                    h.ow.busy(),
                    Some(BusyState::Script),
                    "a script-driven animation reports script_busy first"
                );
            }
            if h.ow.is_idle() {
                break;
            }
        }
        assert!(saw_animation && saw_script_busy);
        assert_eq!(h.pos(), ("VERMILION_CITY", 18, 29, Up), "{version}");
        let rows = h.rows();
        let music = rows
            .iter()
            .position(|r| matches!(r, PresentationRow::Music { id } if id == "Music_Surfing"));
        let horns = rows
            .iter()
            .filter(|r| matches!(r, PresentationRow::Sound { id } if id == "SFX_SS_ANNE_HORN"))
            .count();
        assert!(music.is_some());
        assert_eq!(horns, 2);
        let replaced = rows
            .iter()
            .filter(|r| matches!(r, PresentationRow::BlockReplaced { .. }))
            .count();
        assert_eq!(replaced, 8, "ss_anne_departs erases the eight ship blocks");
    }
}

#[test]
fn entering_the_dock_from_the_city_does_not_depart() {
    let mut h = H::red("VERMILION_CITY", 18, 30, Down, &[EVENT_GOT_HM01]);
    h.step(Input::Down);
    h.until_idle(Input::None);
    assert_eq!(h.pos(), ("VERMILION_DOCK", 14, 0, Down));
    assert!(!h.flags.contains(EVENT_SS_ANNE_LEFT));
    assert_eq!(ship_blocks(&h), vec![20, 21, 22, 23, 24, 25, 26, 27]);
}

fn enter_departed_dock(version: GameVersion, rt: Rc<Runtime>) -> H {
    let mut h = H::at(
        version,
        "VERMILION_CITY",
        18,
        30,
        Down,
        &[EVENT_GOT_HM01, EVENT_SS_ANNE_LEFT],
        rt,
    );
    h.step(Input::Down);
    while h.ow.map_id() != "VERMILION_DOCK" {
        h.step(Input::None);
    }
    h
}

#[test]
fn the_departed_dock_erases_the_ship_and_ejects() {
    for version in GameVersion::ALL {
        let mut h = enter_departed_dock(version, Rc::new(Runtime::new()));
        let flags_before = h.flags.clone();
        assert_eq!(
            ship_blocks(&h),
            vec![1, 1, 1, 1, 13, 13, 13, 13],
            "{version}"
        );
        // The fade-in finishes, then the box waits for A.
        let mut ticks = 0;
        while h.ow.busy() == Some(BusyState::Transition) {
            h.step(Input::A);
            ticks += 1;
        }
        assert!(ticks < 20);
        assert_eq!(h.ow.busy(), Some(BusyState::Screen));
        assert!(matches!(
            h.ow.screen(),
            Some(Screen::Text { text: TextRef::Const(k), on_close: Some(CloseAction::Warp(t)), .. })
                if k == "_VermilionCitySailor1ShipSetSailText" && *t == WarpTarget::new("VERMILION_CITY", 18, 29, Up)
        ));
        assert_eq!(
            h.ow.maps().text("_VermilionCitySailor1ShipSetSailText"),
            Some("The ship set sail.")
        );
        h.steps(Input::Up, 10);
        assert_eq!(
            h.pos(),
            ("VERMILION_DOCK", 14, 0, Down),
            "no moving while the box is open"
        );
        h.step(Input::A);
        h.until_idle(Input::None);
        assert_eq!(h.pos(), ("VERMILION_CITY", 18, 29, Up));
        assert_eq!(h.flags, flags_before, "the ejection changes no flag");
    }
}

#[test]
fn an_occupancy_wrapper_can_keep_the_player_on_the_dock() {
    let rt = Rc::new(Runtime::new());
    let seen: Rc<RefCell<Vec<hooks::MapOccupancyAllowedArgs>>> = Rc::default();
    let log = Rc::clone(&seen);
    rt.wrap::<hooks::MapOccupancyAllowed, _>("mew_mod", 0, move |next, args| {
        log.borrow_mut().push(args.clone());
        let downstream = next.call();
        Ok(downstream || args.ctx.x == Some(14))
    });
    let mut h = enter_departed_dock(GameVersion::Yellow, Rc::clone(&rt));
    h.until_idle(Input::None);
    assert_eq!(
        h.pos(),
        ("VERMILION_DOCK", 14, 0, Down),
        "allowed: the player stays"
    );
    assert_eq!(
        ship_blocks(&h),
        vec![1, 1, 1, 1, 13, 13, 13, 13],
        "the erasure still happened"
    );
    assert!(h.flags.contains(EVENT_SS_ANNE_LEFT));
    let seen = seen.borrow();
    assert_eq!(seen.len(), 1);
    let ctx = serde_json::to_value(&seen[0].ctx).unwrap();
    assert_eq!(
        ctx,
        serde_json::json!({"mapId": "VERMILION_DOCK", "reason": "ss_anne_departed", "gameVersion": "yellow", "x": 14, "y": 0})
    );
}

#[test]
fn occupancy_fails_closed() {
    // A throwing link is skipped (vanilla false); a non-forwarding false denies.
    for mode in 0..2 {
        let rt = Rc::new(Runtime::new());
        rt.wrap::<hooks::MapOccupancyAllowed, _>("m", 0, move |_, _| {
            if mode == 0 {
                Err(LinkError::new("boom"))
            } else {
                Ok(false)
            }
        });
        let mut h = enter_departed_dock(GameVersion::Red, rt);
        while h.ow.busy() == Some(BusyState::Transition) {
            h.step(Input::None);
        }
        assert_eq!(h.ow.busy(), Some(BusyState::Screen), "mode {mode}");
    }
}

#[test]
fn events_fire_when_subscribed() {
    let rt = Rc::new(Runtime::new());
    let log: Rc<RefCell<Vec<String>>> = Rc::default();
    let l = Rc::clone(&log);
    rt.on::<events::MapEntered, _>("t", 0, move |p| {
        l.borrow_mut().push(format!(
            "entered {} from {:?} via {:?}",
            p.map_id, p.from_map_id, p.via
        ));
        Ok(())
    });
    let l = Rc::clone(&log);
    rt.on::<events::MapExited, _>("t", 0, move |p| {
        l.borrow_mut()
            .push(format!("exited {} to {:?}", p.map_id, p.to_map_id));
        Ok(())
    });
    let l = Rc::clone(&log);
    rt.on::<events::WorldStepped, _>("t", 0, move |p| {
        l.borrow_mut()
            .push(format!("stepped {} {},{}", p.map_id, p.x, p.y));
        Ok(())
    });
    let l = Rc::clone(&log);
    rt.on::<events::WorldBlockReplaced, _>("t", 0, move |p| {
        l.borrow_mut()
            .push(format!("block {} {},{}={}", p.map_id, p.bx, p.by, p.block));
        Ok(())
    });
    let mut h = H::at(
        GameVersion::Red,
        "VERMILION_CITY",
        18,
        30,
        Down,
        &[EVENT_SS_ANNE_LEFT],
        rt,
    );
    h.step(Input::Down);
    h.until_idle(Input::A);
    let log = log.borrow();
    assert_eq!(
        log[0],
        "entered VERMILION_CITY from None via Some(\"load\")"
    );
    assert_eq!(log[1], "stepped VERMILION_CITY 18,31");
    assert_eq!(log[2], "exited VERMILION_CITY to Some(\"VERMILION_DOCK\")");
    assert_eq!(
        log[3],
        "entered VERMILION_DOCK from Some(\"VERMILION_CITY\") via Some(\"warp\")"
    );
    assert_eq!(log[4], "block VERMILION_DOCK 5,1=1");
    assert_eq!(log[11], "block VERMILION_DOCK 8,2=13");
    assert_eq!(log[12], "exited VERMILION_DOCK to Some(\"VERMILION_CITY\")");
    assert_eq!(
        log[13],
        "entered VERMILION_CITY from Some(\"VERMILION_DOCK\") via Some(\"warp\")"
    );
    assert_eq!(log.len(), 14);
}

#[test]
fn grass_steps_roll_encounters_by_version_table() {
    let walk = |version| {
        let mut h = H::at(version, "ROUTE_1", 2, 5, Down, &[], Rc::new(Runtime::new()));
        let mut found = Vec::new();
        // Pace up and down the grass patch (cells y 4..=7 on x=2).
        for i in 0..400 {
            let dir = if (i / 2) % 2 == 0 {
                Input::Down
            } else {
                Input::Up
            };
            h.step(dir);
            h.until_idle(Input::None);
            if let Some(e) = h.ow.take_encounter() {
                found.push((e.species, e.level));
            }
        }
        found
    };
    let red = walk(GameVersion::Red);
    let yellow = walk(GameVersion::Yellow);
    assert!(
        red.len() > 10 && yellow.len() > 10,
        "{} {}",
        red.len(),
        yellow.len()
    );
    let red_table = &embedded(GameVersion::Red).unwrap().maps["ROUTE_1"]
        .encounters
        .as_ref()
        .unwrap()
        .grass;
    assert!(red
        .iter()
        .all(|(s, l)| red_table.iter().any(|e| &e.species == s && e.level == *l)));
    assert!(red.iter().all(|(_, l)| *l <= 5));
    assert!(
        yellow.iter().any(|(_, l)| *l > 5)
            || yellow.iter().all(|(s, _)| s == "PIDGEY" || s == "RATTATA")
    );
}

#[test]
fn movement_collision_can_open_or_close_cells_but_not_the_map_edge() {
    let rt = Rc::new(Runtime::new());
    let seen: Rc<RefCell<Vec<serde_json::Value>>> = Rc::default();
    let log = Rc::clone(&seen);
    rt.wrap::<hooks::MovementCollision, _>("ghost", 0, move |next, args| {
        log.borrow_mut()
            .push(serde_json::to_value(&args.ctx).unwrap());
        let vanilla = next.call();
        // Walk through walls, but refuse every open floor step to the right.
        Ok(match args.ctx.reason.as_deref() {
            Some(_) => true,
            None => vanilla && args.ctx.to_x <= args.ctx.from_x,
        })
    });
    let mut h = H::at(
        GameVersion::Red,
        "REDS_HOUSE_1F",
        2,
        4,
        Left,
        &[],
        Rc::clone(&rt),
    );
    h.step(Input::Left);
    h.until_idle(Input::None);
    assert_eq!(
        h.pos(),
        ("REDS_HOUSE_1F", 1, 4, Left),
        "the wall cell was opened"
    );
    assert_eq!(
        seen.borrow()[0],
        serde_json::json!({"mapId": "REDS_HOUSE_1F", "mover": {"kind": "player", "id": null}, "dir": "left",
            "fromX": 2, "fromY": 4, "toX": 1, "toY": 4, "reason": "tile"})
    );
    h.step(Input::Right);
    h.step(Input::Right);
    assert!(h.ow.is_idle(), "an open floor step was refused");
    assert_eq!(h.pos(), ("REDS_HOUSE_1F", 1, 4, Right));
    // Off the map stays impossible even when the chain says yes.
    let mut h = H::at(GameVersion::Red, "VERMILION_DOCK", 13, 0, Up, &[], rt);
    h.step(Input::Up);
    assert!(h.ow.is_idle());
    assert_eq!(h.pos(), ("VERMILION_DOCK", 13, 0, Up));
    assert_eq!(seen.borrow().last().unwrap()["reason"], "bounds");
}

#[test]
fn warp_destination_reroutes_map_warps() {
    let rt = Rc::new(Runtime::new());
    rt.wrap::<hooks::WarpDestination, _>("portal", 0, |next, args| {
        let vanilla = next.call();
        Ok(if args.map_id == "PALLET_TOWN" {
            hooks::WarpTarget {
                map_id: "ROUTE_1".into(),
                x: 10,
                y: 30,
            }
        } else {
            vanilla
        })
    });
    let mut h = H::at(
        GameVersion::Red,
        "REDS_HOUSE_1F",
        3,
        6,
        Down,
        &[],
        Rc::clone(&rt),
    );
    h.step(Input::Down);
    h.until_idle(Input::None);
    assert_eq!(
        h.pos(),
        ("ROUTE_1", 10, 30, Down),
        "rerouted; the warp's facing is kept"
    );
    // A destination that does not exist is reported and the player stays.
    let rt = Rc::new(Runtime::new());
    rt.wrap::<hooks::WarpDestination, _>("broken", 0, |_, _| {
        Ok(hooks::WarpTarget {
            map_id: "NOWHERE".into(),
            x: 0,
            y: 0,
        })
    });
    let mut h = H::at(GameVersion::Red, "REDS_HOUSE_1F", 3, 6, Down, &[], rt);
    h.step(Input::Down);
    h.until_idle(Input::None);
    assert_eq!(h.pos(), ("REDS_HOUSE_1F", 3, 7, Down));
    assert!(h
        .ow
        .diagnostics()
        .iter()
        .any(|d| d.contains("unknown map: NOWHERE")));
}

#[test]
fn encounter_roll_can_replace_the_vanilla_roll() {
    let rt = Rc::new(Runtime::new());
    rt.wrap::<hooks::EncounterRoll, _>("mew", 0, |_, args| {
        assert_eq!(args.ctx.terrain, "grass");
        assert_eq!(args.enc_def.get("grassRate"), Some(&Value::Int(25)));
        Ok(Some(hooks::Encounter {
            species: "MEW".into(),
            level: 5,
        }))
    });
    let mut h = H::at(GameVersion::Red, "ROUTE_1", 2, 5, Down, &[], rt);
    h.step(Input::Down);
    h.until_idle(Input::None);
    let enc = h.ow.take_encounter().expect("every grass step encounters");
    assert_eq!(
        (enc.species.as_str(), enc.level, enc.slot),
        ("MEW", 5, None)
    );
    let rt = Rc::new(Runtime::new());
    rt.wrap::<hooks::EncounterRoll, _>("repel", 0, |_, _| Ok(None));
    let mut h = H::at(GameVersion::Red, "ROUTE_1", 2, 5, Down, &[], rt);
    for i in 0..100 {
        h.step(if (i / 2) % 2 == 0 {
            Input::Down
        } else {
            Input::Up
        });
        h.until_idle(Input::None);
        assert!(h.ow.take_encounter().is_none());
    }
}

#[test]
fn encounter_table_feeds_the_roll_and_an_unknown_species_is_refused() {
    let table = |species: &'static str| {
        move |_: &mut pallet_api::Next<'_, hooks::EncounterTable>,
              args: &hooks::EncounterTableArgs| {
            assert_eq!(args.table.grass_rate, 25);
            Ok(hooks::EncounterTableDef {
                grass_rate: 255,
                grass: vec![hooks::EncounterSlotDef {
                    species: species.into(),
                    level: 9,
                }],
            })
        }
    };
    // Rate 255 with one slot: the cartridge's roll on the mod's table meets ABRA L9.
    let rt = Rc::new(Runtime::new());
    rt.wrap::<hooks::EncounterTable, _>("abra", 0, table("ABRA"));
    let mut h = H::at(GameVersion::Red, "ROUTE_1", 2, 5, Down, &[], rt);
    h.step(Input::Down);
    h.until_idle(Input::None);
    let enc = h.ow.take_encounter().expect("rate 255 encounters");
    assert_eq!((enc.species.as_str(), enc.level), ("ABRA", 9));
    // An unknown species: refused, the map's own table rolls (rate 25: few encounters, and
    // only the map's species).
    let rt = Rc::new(Runtime::new());
    rt.wrap::<hooks::EncounterTable, _>("bad", 0, table("NOT_A_MON"));
    let mut h = H::at(GameVersion::Red, "ROUTE_1", 2, 5, Down, &[], rt);
    let mut met = 0;
    for i in 0..60 {
        h.step(if (i / 2) % 2 == 0 {
            Input::Down
        } else {
            Input::Up
        });
        h.until_idle(Input::None);
        if let Some(enc) = h.ow.take_encounter() {
            assert_ne!(enc.species, "NOT_A_MON");
            met += 1;
        }
    }
    assert!(met < 30, "the map's rate, not 255: {met}");
}
