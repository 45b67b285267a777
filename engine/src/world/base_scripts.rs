//! The engine's base map-script contributions (owner `"base"`, priority 0).
//!
//! * `VERMILION_DOCK.onEnter` — the Lua engine's: after the S.S. Anne left, erase the ship with
//!   water, ask `map.occupancy_allowed`, and unless a mod permits it show "The ship set sail."
//!   and warp to Vermilion City on close; when stepping off the ship after HM01, start the
//!   departure.
//! * `SS_ANNE_1F` talk `_SSAnne1FCaptainText` — the captain hands over HM01 once.

use std::collections::BTreeMap;

use super::map_scripts::{Contribution, Handler, MapScriptRegistry, BASE_OWNER};
use super::overworld::{CloseAction, WarpTarget};
use super::presentation::TextRef;
use super::script::{Script, ScriptRow};
use super::sites;
use super::types::Direction;
use super::{Overworld, WorldCtx};

pub use super::dock::{DOCK, DOCK_GANGWAY_Y, DOCK_SHIP_BLOCKS, DOCK_SHIP_COLUMNS, DOCK_SHIP_ROWS};
pub const EVENT_GOT_HM01: &str = "EVENT_GOT_HM01";
pub const EVENT_SS_ANNE_LEFT: &str = "EVENT_SS_ANNE_LEFT";
pub const SHIP_SET_SAIL_TEXT: &str = "_VermilionCitySailor1ShipSetSailText";
pub const SHIP_SET_SAIL_FALLBACK: &str = "The ship set sail.";
pub const CAPTAIN_TEXT: &str = "_SSAnne1FCaptainText";

/// A registry holding the base contributions.
pub fn base_registry() -> MapScriptRegistry {
    let mut r = MapScriptRegistry::new();
    install(&mut r);
    r
}

/// Add the base contributions to `r`.
pub fn install(r: &mut MapScriptRegistry) {
    r.contribute(
        DOCK,
        BASE_OWNER,
        0,
        Contribution {
            on_enter: Some(Handler::Native(vermilion_dock_on_enter)),
            ..Default::default()
        },
    );
    let mut talk = BTreeMap::new();
    talk.insert(
        CAPTAIN_TEXT.to_owned(),
        Handler::Native(ss_anne_captain_talk),
    );
    r.contribute(
        "SS_ANNE_1F",
        BASE_OWNER,
        0,
        Contribution {
            talk,
            ..Default::default()
        },
    );
}

/// The rows of the departure script (docs/modding-contracts.md, "Staying on a departed map").
pub fn departure_rows() -> Vec<ScriptRow> {
    vec![
        ScriptRow::FacePlayer {
            dir: Direction::Down,
        },
        ScriptRow::Wait { ticks: 120 },
        ScriptRow::PlaySound {
            sound: "SFX_SS_ANNE_HORN".into(),
        },
        ScriptRow::SsAnneDeparts,
        ScriptRow::PlaySound {
            sound: "SFX_SS_ANNE_HORN".into(),
        },
        ScriptRow::Wait { ticks: 120 },
        ScriptRow::MovePlayer {
            dir: Direction::Up,
            n: 2,
        },
        ScriptRow::Warp {
            map: "VERMILION_CITY".into(),
            x: 18,
            y: 31,
            facing: Direction::Up,
        },
        ScriptRow::MovePlayer {
            dir: Direction::Up,
            n: 2,
        },
    ]
}

fn vermilion_dock_on_enter(ow: &mut Overworld, ctx: &mut WorldCtx<'_>) {
    if ctx.flags.flag(EVENT_SS_ANNE_LEFT) {
        // 1. The erasure always happens.
        for (bx, by, water) in DOCK_SHIP_BLOCKS {
            if let Err(e) = ow.replace_block(bx, by, water, ctx) {
                ow.diagnostic(format!("dock erasure: {e}"));
            }
        }
        // 2–3. Guarded hook; only an exact `true` permits occupancy.
        let (x, y) = (ow.player().x, ow.player().y);
        // The world is lent to script handles for the dispatch (`world.active_block_at`).
        let allowed = pallet_api::access::with_world(&*ow, || {
            sites::dock_occupancy_allowed(ctx.rt, ctx.version, DOCK, x, y)
        });
        // 4. Eject unless allowed. No flag change, no ship rebuild, nothing saved.
        if !allowed {
            let text = if ow.maps().text(SHIP_SET_SAIL_TEXT).is_some() {
                TextRef::constant(SHIP_SET_SAIL_TEXT)
            } else {
                TextRef::Literal(SHIP_SET_SAIL_FALLBACK.to_owned())
            };
            let back = WarpTarget::new("VERMILION_CITY", 18, 29, Direction::Up);
            ow.open_text(text, Some(CloseAction::Warp(back)), ctx);
        }
    } else if ctx.flags.flag(EVENT_GOT_HM01) && ow.player().y == DOCK_GANGWAY_Y {
        ow.set_flag(EVENT_SS_ANNE_LEFT, true, ctx);
        ow.stop_music(ctx);
        ow.play_music("Music_Surfing", ctx);
        ow.enqueue_script(Script::new("VERMILION_DOCK.departure", departure_rows()));
    }
}

fn ss_anne_captain_talk(ow: &mut Overworld, ctx: &mut WorldCtx<'_>) {
    let rows = if ctx.flags.flag(EVENT_GOT_HM01) {
        vec![ScriptRow::Text {
            text: "_SSAnne1FCaptainAfterText".into(),
        }]
    } else {
        vec![
            ScriptRow::Text {
                text: CAPTAIN_TEXT.into(),
            },
            ScriptRow::PlaySound {
                sound: "SFX_GET_KEY_ITEM".into(),
            },
            ScriptRow::SetFlag {
                flag: EVENT_GOT_HM01.into(),
            },
            ScriptRow::Text {
                text: "_SSAnne1FCaptainReceivedHM01Text".into(),
            },
        ]
    };
    ow.enqueue_script(Script::new("SS_ANNE_1F.talk.captain", rows));
}
