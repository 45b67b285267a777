//! The capture path on the battle: lending the capture store, the throw (`throw_ball`), the
//! guarded `catch.rate` site, `store_caught_mon` (the Lua engine's `storeCaughtMon`), the RFC 0018
//! `catch.party_full` seam, and the detached views built for hook contexts and payloads.

use pallet_api::catalog::common::{BattleInfo, BattleKind as ApiBattleKind, GameInfo};
#[cfg(feature = "hook-sites")]
use pallet_api::catalog::events::{CatchDestination, PokemonCaught, PokemonCaughtPayload};
#[cfg(feature = "hook-sites")]
use pallet_api::catalog::hooks::{
    BattleCatchExp, BattleCatchExpArgs, CatchExpContext, CatchNickname, CatchNicknameArgs,
    CatchOptions, CatchOutcome, CatchPartyFull, CatchPartyFullArgs, CatchRate, CatchRateArgs,
    NicknameChoice, NicknameContext, PartyFullContext,
};
use pallet_api::{Runtime, Value};

use crate::data::{Dataset, ItemId, SpeciesId};
use crate::pokemon::{Pokemon, MOVE_SLOTS, PARTY_CAPACITY};
use crate::save::record::MonRecord;

use super::super::rows::{Msg, Row};
use super::super::source::BattleRng;
use super::super::state::flag;
use super::super::{Battle, BattleKind, BattleResult, Side};
use super::{
    roll_catch, Ball, CaptureMsg, CaptureRow, CaptureStore, CatchInput, CatchRoll, CatchStatus,
    CaughtMon, Destination,
};

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
    /// [`crate::battle::Action::Item`] with a ball. Returns true when the mon was caught (the
    /// battle is then finished with [`BattleResult::Caught`]).
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
        super::super::sites_flow::ball_thrown(self, rt, ball.item_id(), roll.caught, roll.shakes);
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

    /// The Lua engine's `storeCaughtMon`: Pokédex, party or box (or a mod's custody),
    /// `pokemon.caught`, result "caught".
    pub(crate) fn store_caught_mon(&mut self, rt: &Runtime, ball: Ball) {
        // `battle.catch_exp`: Gen 1 awards no EXP for a catch; a mod may award the defeat's.
        if self.catch_exp_site(rt, &self.caught_mon()) {
            self.award_exp(rt);
            // A level-up that asks which move to forget stops here: the battle waits at the
            // prompt, and its answer runs the rest of the award, then stores the catch.
            if self.phase == super::super::Phase::Prompt {
                self.resume_with(super::super::prompt::Resume::FinishCatch(ball));
                return;
            }
        }
        self.finish_catch(rt, ball);
    }

    /// The rest of [`Battle::store_caught_mon`] after any EXP award: Pokédex, party or box (or
    /// a mod's custody), `pokemon.caught`, result "caught".
    pub(crate) fn finish_catch(&mut self, rt: &Runtime, ball: Ball) {
        let mut mon = self.caught_mon();
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
            let offer = self.nickname_site(rt, &mut mon);
            self.sides[player].party.push(mon.clone());
            if offer {
                self.push(Row::Text(Msg::Capture(CaptureMsg::NicknameOffer {
                    mon: who,
                })));
            }
            (Destination::Party, None)
        } else {
            match self.party_full_destination(rt, &mon) {
                Destination::Mod => (Destination::Mod, None),
                _ => {
                    let offer = self.nickname_site(rt, &mut mon);
                    let store = self.capture_store.get_or_insert_with(Default::default);
                    let met_bill = store.met_bill;
                    match store.boxes.deposit(mon.clone()) {
                        Ok(n) => {
                            if offer {
                                self.push(Row::Text(Msg::Capture(CaptureMsg::NicknameOffer {
                                    mon: who,
                                })));
                            }
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

    /// `battle.catch_exp`: does this catch award EXP? Vanilla (Gen 1): no.
    fn catch_exp_site(&self, rt: &Runtime, mon: &Pokemon) -> bool {
        #[cfg(feature = "hook-sites")]
        if rt.wants_hook::<BattleCatchExp>() {
            let ctx = CatchExpContext {
                battle: self.capture_battle_info(),
                mon: self.detached_mon(mon),
            };
            return rt.call::<BattleCatchExp>(BattleCatchExpArgs { ctx }, |_| false);
        }
        let _ = (rt, mon);
        false
    }

    /// `catch.nickname` (reference `offerNickname`): whether the nickname prompt is offered.
    /// `false` keeps the species name; a string names the mon (cut to 10 characters by the
    /// result rule; empty names nothing). Vanilla: the prompt.
    fn nickname_site(&self, rt: &Runtime, mon: &mut Pokemon) -> bool {
        #[cfg(feature = "hook-sites")]
        if rt.wants_hook::<CatchNickname>() {
            let args = CatchNicknameArgs {
                mon: self.detached_mon(mon),
                ctx: NicknameContext {
                    battle: self.capture_battle_info(),
                    name: mon.display_name(self.data).to_string(),
                    game: self.capture_game_info(),
                },
            };
            return match rt.call::<CatchNickname>(args, |_| NicknameChoice::Prompt(true)) {
                NicknameChoice::Prompt(offer) => offer,
                NicknameChoice::Name(name) => {
                    let name: String = name
                        .chars()
                        .take(pallet_api::catalog::hooks::NICKNAME_LIMIT)
                        .collect();
                    if !name.is_empty() {
                        mon.nickname = Some(name);
                    }
                    false
                }
            };
        }
        let _ = (rt, mon);
        true
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
                opp_class: Some(crate::public_records::public_trainer_class(class)),
                party_index: Some(crate::public_records::public_party_index(*index)),
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
