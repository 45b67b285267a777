//! Capture presentation (the capture path, `crate::battle::capture`, pushes these rows): the capture texts (rendered lazily like every battle `Msg`) and the
//! wordless capture rows (ball animation, Pokédex entry).

use std::fmt::Write as _;

use crate::data::{ItemId, SpeciesId};

use super::{Names, Who};

// ----- presentation --------------------------------------------------------------------------

/// Capture texts (rendered lazily like every [`Msg`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CaptureMsg {
    /// "RED used POKé BALL!"
    UsedBall {
        item: ItemId,
    },
    /// "The trainer blocked the BALL!" then "Don't be a thief!"
    TrainerBlocked,
    DontBeAThief,
    /// 0 wobbles.
    Missed,
    /// 1 wobble.
    BrokeFree,
    /// 2 wobbles.
    AppearedCaught,
    /// 3 wobbles.
    SoClose,
    /// "All right! PIDGEY was caught!"
    Caught {
        mon: Who,
    },
    /// "New POKéDEX data will be added for PIDGEY!"
    NewDexData {
        species: SpeciesId,
    },
    /// "Do you want to give a nickname to PIDGEY?"
    NicknameOffer {
        mon: Who,
    },
    /// "PIDGEY was\ntransferred to\nsomeone's PC!" (or "BILL's PC!").
    Transferred {
        mon: Who,
        bill: bool,
    },
    /// "But every BOX is full!"
    EveryBoxFull,
}

impl CaptureMsg {
    pub fn render<N: Names + ?Sized>(&self, n: &N) -> String {
        let mut s = String::new();
        // `write!` into a String cannot fail.
        let _ = match *self {
            CaptureMsg::UsedBall { item } => {
                let name = n.data().get_item(item).map(|i| i.name).unwrap_or("?");
                write!(s, "{} used {name}!", n.player_name())
            }
            CaptureMsg::TrainerBlocked => write!(s, "The trainer blocked the BALL!"),
            CaptureMsg::DontBeAThief => write!(s, "Don't be a thief!"),
            CaptureMsg::Missed => write!(s, "You missed the POKéMON!"),
            CaptureMsg::BrokeFree => write!(s, "Darn! The POKéMON broke free!"),
            CaptureMsg::AppearedCaught => write!(s, "Aww! It appeared to be caught!"),
            CaptureMsg::SoClose => write!(s, "Shoot! It was so close too!"),
            CaptureMsg::Caught { mon } => write!(
                s,
                "All right! {} was caught!",
                n.mon_name(mon.side, mon.slot)
            ),
            CaptureMsg::NewDexData { species } => write!(
                s,
                "New POKéDEX data will be added for {}!",
                n.data().get_species(species).map(|d| d.name).unwrap_or("?")
            ),
            CaptureMsg::NicknameOffer { mon } => {
                write!(
                    s,
                    "Do you want to give a nickname to {}?",
                    n.mon_name(mon.side, mon.slot)
                )
            }
            CaptureMsg::Transferred { mon, bill } => write!(
                s,
                "{} was\ntransferred to\n{}'s PC!",
                n.mon_name(mon.side, mon.slot),
                if bill { "BILL" } else { "someone" }
            ),
            CaptureMsg::EveryBoxFull => write!(s, "But every BOX is full!"),
        };
        s
    }
}

/// Capture rows without words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CaptureRow {
    /// The ball animation: `shakes` wobbles, then caught or broken out.
    Ball {
        item: ItemId,
        shakes: u8,
        caught: bool,
    },
    /// The Pokédex entry screen for a newly owned species.
    DexEntry { species: SpeciesId },
}
