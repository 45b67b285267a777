//! The capture path: the Gen 1 catch roll (`ItemUseBall`), the guarded `catch.rate` site, and
//! `store_caught_mon` as reference-semantics §6.1 describes it (party → box with the transfer
//! text → "But every BOX is full!"; new-dex text; nickname offer; `pokemon.caught`), with the
//! RFC 0018 seam [`Battle::party_full_destination`].
//!
//! The battle does not own the player's boxes or Pokédex; a front end lends them for the
//! battle with [`Battle::set_capture_store`] and takes them back with
//! [`Battle::take_capture_store`]. The player's party is the battle's own player side.

use std::fmt::Write as _;

use pallet_api::catalog::common::{BattleInfo, BattleKind as ApiBattleKind, GameInfo};
#[cfg(feature = "hook-sites")]
use pallet_api::catalog::events::{CatchDestination, PokemonCaught, PokemonCaughtPayload};
#[cfg(feature = "hook-sites")]
use pallet_api::catalog::hooks::{
    CatchOptions, CatchOutcome, CatchPartyFull, CatchPartyFullArgs, CatchRate, CatchRateArgs,
    PartyFullContext,
};
use pallet_api::{Runtime, Value};

use crate::data::{Dataset, ItemId, SpeciesId};
use crate::pokemon::{Boxes, Pokemon, Status, MOVE_SLOTS, PARTY_CAPACITY};
use crate::save::data::Pokedex;
use crate::save::record::MonRecord;

use super::rows::{Msg, Names, Row, Who};
use super::source::BattleRng;
use super::state::flag;
use super::{Battle, BattleKind, BattleResult, Side};

// ----- the catch roll ------------------------------------------------------------------------

/// The balls the Gen 1 catch routine distinguishes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ball {
    Poke,
    Great,
    Ultra,
    Safari,
    Master,
}

impl Ball {
    pub const ALL: [Ball; 5] = [
        Ball::Poke,
        Ball::Great,
        Ball::Ultra,
        Ball::Safari,
        Ball::Master,
    ];

    /// Item id as in the item table (`"POKE_BALL"`).
    pub fn item_id(self) -> &'static str {
        match self {
            Ball::Poke => "POKE_BALL",
            Ball::Great => "GREAT_BALL",
            Ball::Ultra => "ULTRA_BALL",
            Ball::Safari => "SAFARI_BALL",
            Ball::Master => "MASTER_BALL",
        }
    }

    pub fn from_item_id(id: &str) -> Option<Ball> {
        Ball::ALL.into_iter().find(|b| b.item_id() == id)
    }

    /// Highest acceptable first random number (`Rand1`): Poké 255, Great 200, Ultra/Safari 150.
    fn rand1_max(self) -> u8 {
        match self {
            Ball::Poke | Ball::Master => 255,
            Ball::Great => 200,
            Ball::Ultra | Ball::Safari => 150,
        }
    }

    /// Divisor of `MaxHP * 255`: 8 for the Great Ball, 12 for the others.
    fn hp_factor(self) -> u32 {
        if self == Ball::Great {
            8
        } else {
            12
        }
    }

    /// Divisor of `CatchRate * 100` in the wobble count: Poké 255, Great 200, others 150.
    fn shake_factor(self) -> u32 {
        match self {
            Ball::Poke => 255,
            Ball::Great => 200,
            _ => 150,
        }
    }
}

/// How the target's status affects the catch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CatchStatus {
    None,
    /// Sleep or freeze: 25 off `Rand1`, 10 added to the wobble score.
    SleepOrFreeze,
    /// Paralysis, burn or poison: 12 off `Rand1`, 5 added to the wobble score.
    Other,
}

impl CatchStatus {
    pub fn of(status: Status) -> CatchStatus {
        match status {
            Status::None => CatchStatus::None,
            Status::Sleep(_) | Status::Freeze => CatchStatus::SleepOrFreeze,
            Status::Poison | Status::Burn | Status::Paralysis => CatchStatus::Other,
        }
    }

    fn rand1_bonus(self) -> u8 {
        match self {
            CatchStatus::None => 0,
            CatchStatus::SleepOrFreeze => 25,
            CatchStatus::Other => 12,
        }
    }

    fn shake_bonus(self) -> u32 {
        match self {
            CatchStatus::None => 0,
            CatchStatus::SleepOrFreeze => 10,
            CatchStatus::Other => 5,
        }
    }
}

/// Inputs of one throw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CatchInput {
    pub ball: Ball,
    pub catch_rate: u8,
    pub hp: u16,
    pub max_hp: u16,
    pub status: CatchStatus,
}

/// Result of one throw: caught, or the wobbles shown before the mon broke out (0 means the
/// ball missed: "You missed the POKéMON!").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CatchRoll {
    pub caught: bool,
    /// 0..=3; a successful catch shows three.
    pub shakes: u8,
}

/// The cartridge's `ItemUseBall` computation, random bytes drawn in the same order:
///
/// 1. `Rand1`: one byte, drawn again while above the ball's range (Great ≤ 200, Ultra/Safari
///    ≤ 150). The Master Ball draws this byte too and then always catches.
/// 2. A status subtracts 25 (sleep/freeze) or 12 (others) from `Rand1`; a borrow catches.
/// 3. `W = (MaxHP * 255 / BallFactor) / max(HP / 4, 1)` with BallFactor 8 (Great) or 12; the
///    `HP / 4` quotient keeps only its low byte, as the cartridge does; `X = min(W, 255)`.
/// 4. `Rand1 - Status > CatchRate` fails. Otherwise `W > 255` catches, else a second byte
///    `Rand2` catches when `Rand2 <= X`.
/// 5. A failure computes the wobbles: `Y = CatchRate * 100 / BallFactor2` (255/200/150),
///    `Z = X * Y / 255 + Status2` (10 sleep/freeze, 5 others); `Z < 10` → 0, `< 30` → 1,
///    `< 70` → 2, else 3.
pub fn roll_catch<R: BattleRng + ?Sized>(input: &CatchInput, rng: &mut R) -> CatchRoll {
    const CAUGHT: CatchRoll = CatchRoll {
        caught: true,
        shakes: 3,
    };
    let mut rand1 = rng.byte();
    if input.ball == Ball::Master {
        return CAUGHT;
    }
    let max = input.ball.rand1_max();
    while rand1 > max {
        rand1 = rng.byte();
    }
    let Some(r) = rand1.checked_sub(input.status.rand1_bonus()) else {
        return CAUGHT;
    };
    let quarter = u32::from((input.hp >> 2) & 0xFF);
    let w = (u32::from(input.max_hp) * 255 / input.ball.hp_factor()) / quarter.max(1);
    let x = w.min(255);
    let caught = if r > input.catch_rate {
        false
    } else if w > 255 {
        true
    } else {
        u32::from(rng.byte()) <= x
    };
    if caught {
        return CAUGHT;
    }
    let y = u32::from(input.catch_rate) * 100 / input.ball.shake_factor();
    let z = x * y / 255 + input.status.shake_bonus();
    let shakes = match z {
        0..=9 => 0,
        10..=29 => 1,
        30..=69 => 2,
        _ => 3,
    };
    CatchRoll {
        caught: false,
        shakes,
    }
}

// ----- storage the capture path writes to -----------------------------------------------------

/// What the capture path needs from the player's save besides the party: the boxes, the
/// Pokédex, whether Bill has been met (transfer text), the OT stamp and the game summary.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CaptureStore {
    pub boxes: Boxes<Pokemon>,
    pub pokedex: Pokedex,
    /// `EVENT_MET_BILL` is set: "BILL's PC" instead of "someone's PC".
    pub met_bill: bool,
    pub ot_name: String,
    pub ot_id: u16,
    pub game: GameInfo,
}

/// Where a caught mon went (`pokemon.caught`'s `destination`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Destination {
    Party,
    Box,
    /// A `catch.party_full` link took custody (RFC 0018): in neither party nor boxes.
    Mod,
}

impl Destination {
    pub fn as_str(self) -> &'static str {
        match self {
            Destination::Party => "party",
            Destination::Box => "box",
            Destination::Mod => "mod",
        }
    }
}

/// What the last successful throw did (for front ends and tests).
#[derive(Clone, Debug, PartialEq)]
pub struct CaughtMon {
    pub mon: Pokemon,
    pub destination: Destination,
    /// Box number (1-based) for [`Destination::Box`]; `None` when every box was full.
    pub box_no: Option<usize>,
    pub is_new: bool,
}

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

// ----- the capture path on the battle ----------------------------------------------------------

impl<R: BattleRng> Battle<R> {
    /// Lend the player's boxes and Pokédex (and the Bill flag, OT stamp, game summary) for this
    /// battle's capture path.
    pub fn set_capture_store(&mut self, store: CaptureStore) {
        self.capture_store = Some(Box::new(store));
    }

    /// Take the store back after the battle (with any deposit and dex mark applied).
    pub fn take_capture_store(&mut self) -> Option<CaptureStore> {
        self.capture_store.take().map(|b| *b)
    }

    pub fn capture_store(&self) -> Option<&CaptureStore> {
        self.capture_store.as_deref()
    }

    /// What the last successful throw stored, and where.
    pub fn caught(&self) -> Option<&CaughtMon> {
        self.caught.as_deref()
    }

    /// The player throws `item` (a ball) at the enemy mon. Called by the round for
    /// [`super::Action::Item`] with a ball. Returns true when the mon was caught (the battle is
    /// then finished with [`BattleResult::Caught`]).
    pub(crate) fn throw_ball(&mut self, rt: &Runtime, item: ItemId, ball: Ball) -> bool {
        self.push(Row::Text(Msg::Capture(CaptureMsg::UsedBall { item })));
        if !self.kind.is_wild() {
            self.push(Row::Text(Msg::Capture(CaptureMsg::TrainerBlocked)));
            self.push(Row::Text(Msg::Capture(CaptureMsg::DontBeAThief)));
            return false;
        }
        let roll = self.catch_site(rt, ball);
        self.push(Row::Capture(CaptureRow::Ball {
            item,
            shakes: roll.shakes,
            caught: roll.caught,
        }));
        if !roll.caught {
            let msg = match roll.shakes {
                0 => CaptureMsg::Missed,
                1 => CaptureMsg::BrokeFree,
                2 => CaptureMsg::AppearedCaught,
                _ => CaptureMsg::SoClose,
            };
            self.push(Row::Text(Msg::Capture(msg)));
            return false;
        }
        let mon = self.who(Side::Enemy);
        self.push(Row::Text(Msg::Capture(CaptureMsg::Caught { mon })));
        self.store_caught_mon(rt, ball);
        true
    }

    /// The throw's outcome: the guarded `catch.rate` site around [`roll_catch`].
    fn catch_site(&mut self, rt: &Runtime, ball: Ball) -> CatchRoll {
        let input = self.catch_input(ball);
        #[cfg(feature = "hook-sites")]
        if rt.wants_hook::<CatchRate>() {
            let args = CatchRateArgs {
                ball: ball.item_id().to_string(),
                mon: self.detached_mon(self.sides[Side::Enemy.idx()].mon()),
                def: species_record(self.data, self.sides[Side::Enemy.idx()].mon().species),
                opts: CatchOptions {
                    battle: self.capture_battle_info(),
                    rate_override: None,
                },
            };
            let rng = &mut self.rng;
            let out = rt.call::<CatchRate>(args, |a| {
                let mut input = input;
                if let Some(rate) = a.opts.rate_override {
                    input.catch_rate = rate;
                }
                let r = roll_catch(&input, rng);
                CatchOutcome {
                    caught: r.caught,
                    shakes: r.shakes,
                }
            });
            return CatchRoll {
                caught: out.caught,
                shakes: if out.caught { 3 } else { out.shakes.min(3) },
            };
        }
        let _ = rt;
        roll_catch(&input, &mut self.rng)
    }

    fn catch_input(&self, ball: Ball) -> CatchInput {
        let mon = self.sides[Side::Enemy.idx()].mon();
        let catch_rate = self
            .data
            .get_species(mon.species)
            .map(|s| s.catch_rate)
            .unwrap_or(0);
        CatchInput {
            ball,
            catch_rate,
            hp: mon.hp,
            max_hp: mon.stats.max_hp,
            status: CatchStatus::of(mon.status),
        }
    }

    /// The mon as it leaves the battle: the party copy of the enemy (so a Mimic'd slot and
    /// battle-only changes stay behind) with its current HP and status, PP refilled as the
    /// cartridge reloads the mon's data, the OT stamped. A transformed mon is caught as a Ditto
    /// (the cartridge's Transform quirk).
    fn caught_mon(&self) -> Pokemon {
        let side = &self.sides[Side::Enemy.idx()];
        let mut mon = side.mon().clone();
        if side.battler.has(flag::TRANSFORMED) {
            if let Some(ditto) = self.data.species_by_name("DITTO") {
                let (hp, status) = (mon.hp, mon.status);
                mon = Pokemon::new(self.data, ditto, mon.level, mon.dvs);
                mon.hp = hp.min(mon.stats.max_hp);
                mon.status = status;
            }
        }
        for slot in 0..MOVE_SLOTS {
            if let Some(max) = mon.max_pp(self.data, slot) {
                mon.pp[slot] = max;
            }
        }
        if let Some(store) = &self.capture_store {
            mon.ot_name = store.ot_name.clone();
            mon.ot_id = store.ot_id;
        } else {
            mon.ot_name = self.player_name.clone();
        }
        mon
    }

    /// Reference §6.1 `storeCaughtMon`: Pokédex, party or box (or a mod's custody),
    /// `pokemon.caught`, result "caught".
    pub(crate) fn store_caught_mon(&mut self, rt: &Runtime, ball: Ball) {
        let mon = self.caught_mon();
        let who = self.who(Side::Enemy);
        let species_id = self
            .data
            .get_species(mon.species)
            .map(|s| s.id)
            .unwrap_or("");
        let store = self.capture_store.get_or_insert_with(Default::default);
        let is_new = !store.pokedex.owned.contains(species_id);
        store.pokedex.owned.insert(species_id.to_string());
        store.pokedex.seen.insert(species_id.to_string());
        if is_new {
            self.push(Row::Text(Msg::Capture(CaptureMsg::NewDexData {
                species: mon.species,
            })));
            self.push(Row::Capture(CaptureRow::DexEntry {
                species: mon.species,
            }));
        }
        let player = Side::Player.idx();
        let (destination, box_no) = if self.sides[player].party.len() < PARTY_CAPACITY {
            self.sides[player].party.push(mon.clone());
            self.push(Row::Text(Msg::Capture(CaptureMsg::NicknameOffer {
                mon: who,
            })));
            (Destination::Party, None)
        } else {
            match self.party_full_destination(rt, &mon) {
                Destination::Mod => (Destination::Mod, None),
                _ => {
                    let store = self.capture_store.get_or_insert_with(Default::default);
                    let met_bill = store.met_bill;
                    match store.boxes.deposit(mon.clone()) {
                        Ok(n) => {
                            self.push(Row::Text(Msg::Capture(CaptureMsg::NicknameOffer {
                                mon: who,
                            })));
                            self.push(Row::Text(Msg::Capture(CaptureMsg::Transferred {
                                mon: who,
                                bill: met_bill,
                            })));
                            (Destination::Box, Some(n))
                        }
                        Err(_) => {
                            self.push(Row::Text(Msg::Capture(CaptureMsg::EveryBoxFull)));
                            (Destination::Box, None)
                        }
                    }
                }
            }
        };
        #[cfg(feature = "hook-sites")]
        if rt.wants_event::<PokemonCaught>() {
            let payload = PokemonCaughtPayload {
                battle: self.capture_battle_info(),
                mon: self.detached_mon(&mon),
                species: species_id.to_string(),
                is_new,
                ball: ball.item_id().to_string(),
                destination: match destination {
                    Destination::Party => CatchDestination::Party,
                    Destination::Box => CatchDestination::Box,
                    Destination::Mod => CatchDestination::Mod,
                },
                game: self.capture_game_info(),
            };
            rt.emit::<PokemonCaught>(payload);
        }
        let _ = ball;
        self.caught = Some(Box::new(CaughtMon {
            mon,
            destination,
            box_no,
            is_new,
        }));
        self.finish(rt, BattleResult::Caught);
    }

    /// RFC 0018: where a catch goes when the party is full — [`Destination::Box`] (vanilla) or
    /// [`Destination::Mod`] when a `catch.party_full` link answers truthy. Called at the moment
    /// adding to the party failed, before any deposit.
    pub fn party_full_destination(&self, rt: &Runtime, mon: &Pokemon) -> Destination {
        #[cfg(feature = "hook-sites")]
        if rt.wants_hook::<CatchPartyFull>() {
            let ctx = PartyFullContext {
                battle: self.capture_battle_info(),
                mon: self.detached_mon(mon),
                name: mon.display_name(self.data).to_string(),
                game: self.capture_game_info(),
            };
            let claimed = rt.call::<CatchPartyFull>(CatchPartyFullArgs { ctx }, |_| false);
            return if claimed {
                Destination::Mod
            } else {
                Destination::Box
            };
        }
        let _ = (rt, mon);
        Destination::Box
    }

    // ----- detached views for hook contexts and payloads (built only behind a guard) -----

    #[cfg_attr(not(feature = "hook-sites"), allow(dead_code))]
    fn detached_mon(&self, mon: &Pokemon) -> Value {
        MonRecord::from_pokemon(mon, self.data)
            .ok()
            .and_then(|r| pallet_api::value::to_value(&r).ok())
            .unwrap_or(Value::Nil)
    }

    #[cfg_attr(not(feature = "hook-sites"), allow(dead_code))]
    fn capture_battle_info(&self) -> BattleInfo {
        match &self.kind {
            BattleKind::Wild => BattleInfo {
                kind: ApiBattleKind::Wild,
                turn: self.turn,
                ..BattleInfo::default()
            },
            BattleKind::Trainer { class, index, .. } => BattleInfo {
                kind: ApiBattleKind::Trainer,
                trainer_class: Some(class.clone()),
                trainer_index: Some(*index),
                turn: self.turn,
            },
        }
    }

    #[cfg_attr(not(feature = "hook-sites"), allow(dead_code))]
    fn capture_game_info(&self) -> GameInfo {
        self.capture_store
            .as_ref()
            .map(|s| s.game.clone())
            .unwrap_or_default()
    }
}

/// A species definition as plain data (the `def` of `catch.rate`).
#[cfg_attr(not(feature = "hook-sites"), allow(dead_code))]
fn species_record(data: &Dataset, species: SpeciesId) -> Value {
    use std::collections::BTreeMap;
    let Some(sp) = data.get_species(species) else {
        return Value::Nil;
    };
    let mut m = BTreeMap::new();
    m.insert("id".to_string(), Value::Str(sp.id.to_string()));
    m.insert("name".to_string(), Value::Str(sp.name.to_string()));
    m.insert("dex".to_string(), Value::Int(sp.dex.into()));
    m.insert("catchRate".to_string(), Value::Int(sp.catch_rate.into()));
    m.insert("baseExp".to_string(), Value::Int(sp.base_exp.into()));
    m.insert(
        "types".to_string(),
        Value::List(
            sp.types
                .iter()
                .map(|t| Value::Str(t.id().to_string()))
                .collect(),
        ),
    );
    Value::Map(m)
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::rc::Rc;

    use pallet_api::catalog::events::{CatchDestination, PokemonCaught};
    use pallet_api::catalog::hooks::{CatchOutcome, CatchPartyFull, CatchRate};

    use super::*;
    use crate::battle::{Action, ScriptedRng};
    use crate::data::gen1;
    use crate::pokemon::{Dvs, BOX_CAPACITY, BOX_COUNT};

    fn scripted(bytes: &[u8]) -> ScriptedRng {
        ScriptedRng::new(bytes)
    }

    fn input(ball: Ball, catch_rate: u8, hp: u16, max_hp: u16, status: CatchStatus) -> CatchInput {
        CatchInput {
            ball,
            catch_rate,
            hp,
            max_hp,
            status,
        }
    }

    fn drained(r: &ScriptedRng) -> bool {
        r.remaining().is_empty() && r.overrun() == 0
    }

    #[test]
    fn master_ball_draws_one_byte_and_always_catches() {
        let mut r = scripted(&[255]);
        let roll = roll_catch(&input(Ball::Master, 3, 100, 100, CatchStatus::None), &mut r);
        assert_eq!(
            roll,
            CatchRoll {
                caught: true,
                shakes: 3
            }
        );
        assert!(drained(&r));
    }

    #[test]
    fn ball_ranges_redraw_rand1() {
        // Great Ball: 201 and 250 are redrawn, 200 accepted; 200 > catch rate 45 fails at once.
        let mut r = scripted(&[201, 250, 200]);
        let roll = roll_catch(&input(Ball::Great, 45, 20, 20, CatchStatus::None), &mut r);
        assert!(!roll.caught);
        assert!(drained(&r));
        // Ultra and Safari: everything above 150 is redrawn.
        for ball in [Ball::Ultra, Ball::Safari] {
            let mut r = scripted(&[151, 200, 255, 150]);
            assert!(!roll_catch(&input(ball, 45, 20, 20, CatchStatus::None), &mut r).caught);
            assert!(drained(&r), "{ball:?}");
        }
        // Poké Ball: any byte is fine (255 > 45 fails without a second byte).
        let mut r = scripted(&[255]);
        assert!(!roll_catch(&input(Ball::Poke, 45, 20, 20, CatchStatus::None), &mut r).caught);
        assert!(drained(&r));
    }

    #[test]
    fn hp_factor_and_second_byte() {
        // Poké Ball, 20/20 HP: W = 20*255/12 / 5 = 425 / 5 = 85.
        let i = input(Ball::Poke, 255, 20, 20, CatchStatus::None);
        let mut r = scripted(&[0, 85]);
        assert!(roll_catch(&i, &mut r).caught);
        assert!(drained(&r));
        let mut r = scripted(&[0, 86]);
        // Failed: Y = 255*100/255 = 100, Z = 85*100/255 = 33 -> two wobbles.
        assert_eq!(
            roll_catch(&i, &mut r),
            CatchRoll {
                caught: false,
                shakes: 2
            }
        );
        assert!(drained(&r));
        // Great Ball divides by 8: W = 20*255/8 / 5 = 637 / 5 = 127.
        let g = input(Ball::Great, 255, 20, 20, CatchStatus::None);
        let mut r = scripted(&[0, 127]);
        assert!(roll_catch(&g, &mut r).caught);
        let mut r = scripted(&[0, 128]);
        // Y = 25500/200 = 127, Z = 127*127/255 = 63 -> two wobbles.
        assert_eq!(
            roll_catch(&g, &mut r),
            CatchRoll {
                caught: false,
                shakes: 2
            }
        );
        assert!(drained(&r));
    }

    #[test]
    fn low_hp_catches_without_a_second_byte() {
        // HP 3: HP/4 = 0 -> 1; W = 100*255/12 = 2125 > 255 -> caught, Rand2 never drawn.
        let mut r = scripted(&[10]);
        assert!(roll_catch(&input(Ball::Poke, 45, 3, 100, CatchStatus::None), &mut r).caught);
        assert!(drained(&r));
        // The cartridge keeps only the low byte of HP/4: HP 1024 -> 256 -> 0 -> 1.
        let mut r = scripted(&[10]);
        assert!(
            roll_catch(
                &input(Ball::Poke, 45, 1024, 1024, CatchStatus::None),
                &mut r
            )
            .caught
        );
        assert!(drained(&r));
    }

    #[test]
    fn status_is_subtracted_from_rand1() {
        let full = |s| input(Ball::Poke, 3, 200, 200, s);
        // Sleep/freeze: 25. Rand1 24 borrows -> caught with a single byte.
        for s in [Status::Sleep(3), Status::Freeze] {
            let mut r = scripted(&[24]);
            assert!(roll_catch(&full(CatchStatus::of(s)), &mut r).caught);
            assert!(drained(&r));
        }
        // Rand1 28 - 25 = 3 <= catch rate 3 -> goes on to Rand2 (W = 200*255/12/50 = 85).
        let mut r = scripted(&[28, 200]);
        let roll = roll_catch(&full(CatchStatus::SleepOrFreeze), &mut r);
        // Y = 300/255 = 1, Z = 85*1/255 + 10 = 10 -> one wobble (0 without the status).
        assert_eq!(
            roll,
            CatchRoll {
                caught: false,
                shakes: 1
            }
        );
        assert!(drained(&r));
        let mut r = scripted(&[3, 200]);
        assert_eq!(
            roll_catch(&full(CatchStatus::None), &mut r),
            CatchRoll {
                caught: false,
                shakes: 0
            }
        );
        // Paralysis/burn/poison: 12.
        for s in [Status::Paralysis, Status::Burn, Status::Poison] {
            let mut r = scripted(&[11]);
            assert!(roll_catch(&full(CatchStatus::of(s)), &mut r).caught);
            let mut r = scripted(&[12, 255]);
            // 12 - 12 = 0 <= 3, Rand2 255 > 85: fails; Z = 0 + 5 -> no wobble.
            assert_eq!(
                roll_catch(&full(CatchStatus::of(s)), &mut r),
                CatchRoll {
                    caught: false,
                    shakes: 0
                }
            );
            assert!(drained(&r));
        }
        // Without a status the same Rand1 11 exceeds catch rate 3 and fails at once.
        let mut r = scripted(&[11]);
        assert!(!roll_catch(&full(CatchStatus::None), &mut r).caught);
        assert!(drained(&r));
    }

    #[test]
    fn wobble_thresholds() {
        // Ultra Ball, catch rate 255, Rand1 0: Y = 25500/150 = 170. Choose X via HP.
        // X = max*255/12 / (hp/4); max 255, hp 255 -> 5418/63 = 86 -> Z = 86*170/255 = 57 -> 2.
        let mut r = scripted(&[0, 255]);
        assert_eq!(
            roll_catch(
                &input(Ball::Ultra, 255, 255, 255, CatchStatus::None),
                &mut r
            )
            .shakes,
            2
        );
        // hp 999/999: 21228/249 = 85 -> Z = 56 -> 2; catch rate 45: Y = 30, Z = 10 -> 1.
        let mut r = scripted(&[0, 255]);
        assert_eq!(
            roll_catch(&input(Ball::Ultra, 45, 999, 999, CatchStatus::None), &mut r).shakes,
            1
        );
        // catch rate 3, Poké Ball: Y = 1, Z = 0 -> the ball misses.
        let mut r = scripted(&[0, 255]);
        assert_eq!(
            roll_catch(&input(Ball::Poke, 3, 999, 999, CatchStatus::None), &mut r).shakes,
            0
        );
        // Great Ball, 40/100 HP, rate 255: X = 3187/10 = 318 -> W > 255 catches; 60/100:
        // X = 3187/15 = 212, Y = 127, Z = 105 -> 3 wobbles.
        let mut r = scripted(&[0, 255]);
        assert_eq!(
            roll_catch(&input(Ball::Great, 255, 60, 100, CatchStatus::None), &mut r),
            CatchRoll {
                caught: false,
                shakes: 3
            }
        );
    }

    // ----- the capture path in a battle --------------------------------------------------------

    fn mon(name: &str, level: u8) -> Pokemon {
        let d = gen1();
        Pokemon::new(d, d.species_by_name(name).unwrap(), level, Dvs::MAX)
    }

    fn ball(name: &str) -> ItemId {
        gen1().item_by_name(name).unwrap()
    }

    fn wild_battle(party: usize, bytes: &[u8]) -> Battle<ScriptedRng> {
        let player: Vec<Pokemon> = (0..party).map(|_| mon("RATTATA", 10)).collect();
        Battle::new(
            gen1(),
            BattleKind::Wild,
            player,
            vec![mon("PIDGEY", 5)],
            scripted(bytes),
        )
    }

    fn texts(b: &mut Battle<ScriptedRng>) -> Vec<String> {
        let rows: Vec<Row> = b.rows().collect();
        rows.iter().filter_map(|r| r.render(&*b)).collect()
    }

    fn throw(b: &mut Battle<ScriptedRng>, rt: &Runtime, item: &str) {
        b.clear_rows();
        b.submit(rt, Action::Item(ball(item)), Action::Move(0))
            .unwrap();
    }

    #[test]
    fn party_has_room() {
        let rt = Runtime::default();
        let mut b = wild_battle(1, &[0]);
        throw(&mut b, &rt, "MASTER_BALL");
        assert!(drained(b.rng()));
        assert_eq!(b.result(), Some(BattleResult::Caught));
        let t = texts(&mut b);
        assert_eq!(
            t,
            [
                "RED used MASTER BALL!",
                "All right! PIDGEY was caught!",
                "New POKéDEX data will be added for PIDGEY!",
                "Do you want to give a nickname to PIDGEY?",
            ]
        );
        assert_eq!(b.party(Side::Player).len(), 2);
        let caught = b.caught().unwrap();
        assert_eq!(
            (caught.destination, caught.is_new, caught.box_no),
            (Destination::Party, true, None)
        );
        let store = b.take_capture_store().unwrap();
        assert!(store.pokedex.owned.contains("PIDGEY"));
        assert_eq!(store.boxes.total(), 0);
    }

    #[test]
    fn party_full_goes_to_a_box_with_the_transfer_text() {
        let rt = Runtime::default();
        let mut b = wild_battle(6, &[0]);
        let mut store = CaptureStore::default();
        store.pokedex.owned.insert("PIDGEY".to_string());
        b.set_capture_store(store);
        throw(&mut b, &rt, "MASTER_BALL");
        let t = texts(&mut b);
        assert_eq!(
            t,
            [
                "RED used MASTER BALL!",
                "All right! PIDGEY was caught!",
                "Do you want to give a nickname to PIDGEY?",
                "PIDGEY was\ntransferred to\nsomeone's PC!",
            ]
        );
        assert_eq!(b.party(Side::Player).len(), 6);
        assert_eq!(
            b.caught().map(|c| (c.destination, c.box_no, c.is_new)),
            Some((Destination::Box, Some(1), false))
        );
        let store = b.take_capture_store().unwrap();
        assert_eq!(store.boxes.total(), 1);
        assert_eq!(
            store.boxes.get_box(1).map(|m| m[0].species),
            gen1().species_by_name("PIDGEY")
        );
        // With Bill met, the text names his PC.
        let mut b = wild_battle(6, &[0]);
        b.set_capture_store(CaptureStore {
            met_bill: true,
            ..CaptureStore::default()
        });
        throw(&mut b, &rt, "MASTER_BALL");
        assert!(texts(&mut b)
            .iter()
            .any(|t| t == "PIDGEY was\ntransferred to\nBILL's PC!"));
    }

    #[test]
    fn every_box_full() {
        let rt = Runtime::default();
        let mut b = wild_battle(6, &[0]);
        let mut boxes = Boxes::new();
        for _ in 0..BOX_COUNT * BOX_CAPACITY {
            assert!(boxes.deposit(mon("WEEDLE", 3)).is_ok());
        }
        b.set_capture_store(CaptureStore {
            boxes,
            ..CaptureStore::default()
        });
        throw(&mut b, &rt, "MASTER_BALL");
        let t = texts(&mut b);
        assert_eq!(t.last().map(String::as_str), Some("But every BOX is full!"));
        assert!(!t
            .iter()
            .any(|t| t.contains("nickname") || t.contains("transferred")));
        assert_eq!(b.result(), Some(BattleResult::Caught));
        assert_eq!(
            b.caught().map(|c| (c.destination, c.box_no)),
            Some((Destination::Box, None))
        );
        assert_eq!(b.party(Side::Player).len(), 6);
        assert_eq!(
            b.take_capture_store().unwrap().boxes.total(),
            BOX_COUNT * BOX_CAPACITY
        );
    }

    #[test]
    fn failed_throw_leaves_the_battle_running() {
        let rt = Runtime::default();
        // Poké Ball at a full-HP PIDGEY (rate 255): Rand1 0, Rand2 255 > X -> breaks free. The
        // enemy then moves on 0xFF bytes (no crit, a miss), which end every retry loop.
        let mut bytes = vec![0, 255];
        bytes.extend([0xFF; 32]);
        let mut b = wild_battle(1, &bytes);
        throw(&mut b, &rt, "POKE_BALL");
        let t = texts(&mut b);
        assert_eq!(t[0], "RED used POKé BALL!");
        assert!(
            t[1].starts_with("Aww!") || t[1].starts_with("Darn!") || t[1].starts_with("Shoot!"),
            "{t:?}"
        );
        assert_ne!(b.result(), Some(BattleResult::Caught));
    }

    #[test]
    fn trainer_blocks_the_ball() {
        let rt = Runtime::default();
        let kind = BattleKind::Trainer {
            class: "YOUNGSTER".into(),
            index: 0,
            name: "YOUNGSTER".into(),
        };
        let mut b = Battle::new(
            gen1(),
            kind,
            vec![mon("RATTATA", 10)],
            vec![mon("PIDGEY", 5)],
            scripted(&[0xFF; 32]),
        );
        throw(&mut b, &rt, "MASTER_BALL");
        let t = texts(&mut b);
        assert_eq!(
            &t[..3],
            [
                "RED used MASTER BALL!",
                "The trainer blocked the BALL!",
                "Don't be a thief!"
            ]
        );
        assert_eq!(b.result(), None);
    }

    #[test]
    fn party_full_hook_claims_the_mon() {
        let rt = Runtime::new();
        let seen: Rc<RefCell<Vec<(String, String)>>> = Rc::default();
        let s = seen.clone();
        rt.wrap::<CatchPartyFull, _>("royale", 0, move |_next, args| {
            s.borrow_mut()
                .push((args.ctx.name.clone(), format!("{:?}", args.ctx.battle.kind)));
            Ok(true)
        });
        let events: Rc<RefCell<Vec<CatchDestination>>> = Rc::default();
        let e = events.clone();
        rt.on::<PokemonCaught, _>("royale", 0, move |p| {
            e.borrow_mut().push(p.destination);
            Ok(())
        });
        let mut b = wild_battle(6, &[0]);
        throw(&mut b, &rt, "MASTER_BALL");
        let t = texts(&mut b);
        assert!(
            !t.iter()
                .any(|t| t.contains("nickname") || t.contains("transferred") || t.contains("BOX")),
            "{t:?}"
        );
        assert_eq!(b.caught().map(|c| c.destination), Some(Destination::Mod));
        assert_eq!(b.party(Side::Player).len(), 6);
        assert_eq!(b.take_capture_store().unwrap().boxes.total(), 0);
        assert_eq!(*seen.borrow(), [("PIDGEY".to_string(), "Wild".to_string())]);
        assert_eq!(*events.borrow(), [CatchDestination::Mod]);
    }

    #[test]
    fn party_full_hook_falling_through_deposits() {
        let rt = Runtime::new();
        rt.wrap::<CatchPartyFull, _>("m", 0, |next, _| Ok(next.call()));
        let mut b = wild_battle(6, &[0]);
        throw(&mut b, &rt, "MASTER_BALL");
        assert_eq!(b.caught().map(|c| c.destination), Some(Destination::Box));
        assert_eq!(b.take_capture_store().unwrap().boxes.total(), 1);
    }

    #[test]
    fn catch_rate_hook_decides_the_throw() {
        let rt = Runtime::new();
        rt.wrap::<CatchRate, _>("m", 0, |_next, args| {
            assert_eq!(args.ball, "POKE_BALL");
            Ok(CatchOutcome {
                caught: true,
                shakes: 0,
            })
        });
        // The hook short-circuits: no random byte is drawn for the throw.
        let mut b = wild_battle(1, &[]);
        throw(&mut b, &rt, "POKE_BALL");
        assert!(drained(b.rng()));
        assert_eq!(b.result(), Some(BattleResult::Caught));
    }
}
