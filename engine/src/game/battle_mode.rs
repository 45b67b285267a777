//! Battles started from the overworld: the game's battle mode (a child module of `game`, so it
//! can reach the game's parts).
//!
//! * A grass encounter ([`Game::start_wild_battle`]) builds the wild mon (two random DV bytes,
//!   the cartridge's default moves) and fights it with the save's party.
//! * A trainer battle ([`Game::start_trainer_battle`]) takes its roster from [`super::TRAINERS`]
//!   through the guarded `trainer.party` site.
//! * While a battle runs the game is in [`Mode::Battle`]; ticks do not advance it, the player's
//!   choices do ([`Game::battle_choose`]), prompts in the middle of a step included (which move
//!   to forget, Mimic's copy). The enemy chooses the cartridge's way
//!   ([`Battle::select_enemy_move`]: a random slot from the battle's random source, narrowed by
//!   the trainer class's move-choice layers; trainers send the next mon in party order).
//! * When it ends the party, boxes and Pokédex go back into the save (a capture's deposit
//!   included), a beaten trainer is recorded and paid, and the game returns to the overworld.
//!   A loss blacks out: half the money is lost, the party is healed and the player warps to the
//!   last heal point.
//!
//! Battle rows are rendered to text as they are drained into the game's presentation feed.

use smallvec::SmallVec;

use pallet_api::catalog::hooks::PartyMember;
#[cfg(feature = "hook-sites")]
use pallet_api::catalog::hooks::{TrainerParty, TrainerPartyArgs};
use pallet_api::facades::CheckpointKindTag;
use pallet_api::reasons::CheckpointCode;

use super::lend::unsettled;
use crate::battle::capture::{CaptureRow, CaptureStore};
use crate::battle::{Action, Battle, BattleKind, BattleResult, NeedsChoice, Row, Side};
use crate::data::Dataset;
use crate::pokemon::{Dvs, Party, Pokemon, MOVE_SLOTS};
use crate::rng::Rng;
use crate::world::presentation::PresentationRow;
use crate::world::Direction;

use super::{Game, GameError, Mode, TrainerDef};

/// The state of the battle mode.
#[derive(Clone, Debug)]
pub struct BattleSession {
    pub battle: Battle<Rng>,
    /// `Some(MAP:CLASS:INDEX)` for a trainer battle.
    pub trainer_key: Option<String>,
    /// Prize money for a win (trainer battles).
    pub prize: u32,
}

impl Game {
    /// The running battle, if any.
    pub fn battle(&self) -> Option<&Battle<Rng>> {
        self.battle.as_deref().map(|s| &s.battle)
    }

    /// The running battle with its trainer bookkeeping (checkpoints capture it).
    pub fn battle_session(&self) -> Option<&BattleSession> {
        self.battle.as_deref()
    }

    /// The running battle's data-only field (`{weather, tokens}`), for embedders that keep
    /// state there (RFC 0016).
    pub fn battle_field_mut(&mut self) -> Option<&mut crate::battle::Field> {
        self.battle.as_mut().map(|s| s.battle.field_mut())
    }

    /// A side's data-only tokens in the running battle.
    pub fn battle_tokens_mut(&mut self, side: Side) -> Option<&mut Vec<crate::battle::Token>> {
        self.battle.as_mut().map(|s| s.battle.side_tokens_mut(side))
    }

    /// The player's party as live mons (records the dataset cannot represent are skipped).
    fn live_party(&self, data: &Dataset) -> Vec<Pokemon> {
        self.save
            .party
            .iter()
            .filter_map(|r| r.to_pokemon(data).ok())
            .collect()
    }

    /// A wild battle against `species` at `level` (a grass encounter). Without a healthy party
    /// mon the encounter is skipped, as the cartridge never rolls one then.
    pub fn start_wild_battle(&mut self, species: &str, level: u8) -> Result<(), GameError> {
        self.start_wild_battle_with(species, level, None)
    }

    /// [`Game::start_wild_battle`] with the wild mon's DVs given (`None`: rolled, two random
    /// DV bytes; given DVs draw nothing).
    pub fn start_wild_battle_with(
        &mut self,
        species: &str,
        level: u8,
        dvs: Option<Dvs>,
    ) -> Result<(), GameError> {
        let data = self.data;
        let id = data
            .species_by_name(species)
            .ok_or_else(|| GameError::Overworld(format!("unknown species {species}")))?;
        let dvs = match dvs {
            Some(d) => d,
            None => Dvs::from_bytes([self.rng.byte(), self.rng.byte()]),
        };
        let wild = Pokemon::new(data, id, level, dvs);
        self.begin_battle(data, BattleKind::Wild, vec![wild], None, 0)
    }

    /// A battle against trainer `class`/`index` of [`super::TRAINERS`]; its roster goes through the
    /// guarded `trainer.party` site (a mod may replace it).
    pub fn start_trainer_battle(&mut self, class: &str, index: u16) -> Result<(), GameError> {
        let def = self.trainer_def(class, index)?;
        crate::world::sites_flow::trainer_engaged(
            &self.rt,
            &self.save.player.map,
            def.class,
            def.index,
            def.name,
        );
        self.fight_trainer(def)
    }

    /// Trainer `class`/`index` of this game's trainers.
    pub(super) fn trainer_def(
        &self,
        class: &str,
        index: u16,
    ) -> Result<&'static TrainerDef, GameError> {
        self.trainers
            .iter()
            .find(|t| t.class == class && t.index == index)
            .ok_or_else(|| GameError::Overworld(format!("no trainer {class} {index}")))
    }

    /// The battle against an engaged trainer: `trainer.before_battle` may skip it, then the
    /// roster through `trainer.party`.
    pub(super) fn fight_trainer(&mut self, def: &'static TrainerDef) -> Result<(), GameError> {
        let data = self.data;
        let (class, index) = (def.class, def.index);
        if !self.before_battle_site(def) {
            self.show(PresentationRow::Note {
                text: format!("trainer {class} {index}: the battle was skipped by a mod"),
            });
            return Ok(());
        }
        let roster = trainer_party_site(self, def);
        let mut enemy = Vec::with_capacity(roster.len());
        for m in roster.iter().take(6) {
            let id = data.species_by_name(&m.species).ok_or_else(|| {
                GameError::Overworld(format!("trainer party: unknown species {}", m.species))
            })?;
            // Trainer mons: the cartridge's fixed trainer DVs (Atk 9, Def 8, Spe 8, Spc 8).
            let mut mon = Pokemon::new(
                data,
                id,
                m.level.clamp(1, 100),
                Dvs {
                    atk: 9,
                    def: 8,
                    spe: 8,
                    spc: 8,
                },
            );
            if let Some(moves) = &m.moves {
                let mut slots = [None; MOVE_SLOTS];
                for (slot, name) in moves.iter().take(MOVE_SLOTS).enumerate() {
                    slots[slot] = data.move_by_name(name);
                }
                if slots.iter().any(Option::is_some) {
                    mon.moves = slots;
                    for slot in 0..MOVE_SLOTS {
                        mon.pp[slot] = mon.max_pp(data, slot).unwrap_or(0);
                    }
                }
            }
            enemy.push(mon);
        }
        if enemy.is_empty() {
            return Err(GameError::Overworld(format!(
                "trainer {class} {index} has no party"
            )));
        }
        let last_level = enemy.last().map(|m| u32::from(m.level)).unwrap_or(0);
        let kind = BattleKind::Trainer {
            class: def.class.to_string(),
            index: def.index,
            name: def.name.to_string(),
        };
        let key = format!("{}:{}:{}", def.map, def.class, def.index);
        self.begin_battle(data, kind, enemy, Some(key), def.base_money * last_level)
    }

    fn begin_battle(
        &mut self,
        data: &'static Dataset,
        kind: BattleKind,
        enemy: Vec<Pokemon>,
        trainer_key: Option<String>,
        prize: u32,
    ) -> Result<(), GameError> {
        let party = self.live_party(data);
        if !party.iter().any(|m| m.hp > 0) {
            self.show(PresentationRow::Note {
                text: "no healthy POKéMON: the battle is skipped".into(),
            });
            return Ok(());
        }
        let seed = self.rng.next_u64();
        let mut battle = Battle::new(data, kind, party, enemy, Rng::new(seed));
        battle.set_player_name(&self.save.player.name);
        battle.set_player_id(self.save.player.id);
        let boxes = self.save.box_mons(data).unwrap_or_default();
        battle.set_capture_store(CaptureStore {
            boxes,
            pokedex: self.save.pokedex.clone(),
            met_bill: self.save.flag("EVENT_MET_BILL"),
            ot_name: self.save.player.name.clone(),
            ot_id: self.save.player.id,
            game: pallet_api::catalog::common::GameInfo {
                version: crate::world::sites::api_version(self.version),
                playthrough_id: self.save.meta.playthrough_id.clone(),
                map_id: Some(self.save.player.map.clone()),
            },
        });
        // The opening is not a checkpoint boundary (`battle.started` listeners see it busy).
        unsettled(
            CheckpointKindTag::Battle,
            CheckpointCode::BattlePhaseBusy,
            || battle.start(&self.rt),
        );
        self.battle = Some(Box::new(BattleSession {
            battle,
            trainer_key,
            prize,
        }));
        self.mode = Mode::Battle;
        self.drain_battle_rows();
        Ok(())
    }

    /// The player's choice for the battle's current prompt (a round, a replacement, a SHIFT
    /// prompt). The enemy answers with the game's RNG. When the battle ends, the game returns
    /// to the overworld (or blacks out).
    pub fn battle_choose(&mut self, action: Action) -> Result<(), GameError> {
        self.choose(action, None)
    }

    /// [`Game::battle_choose`]; a bag item that is not a ball acts on party slot
    /// `item_target` (default: the active mon) and is refused when it would have no effect.
    pub(super) fn choose(
        &mut self,
        action: Action,
        item_target: Option<u8>,
    ) -> Result<(), GameError> {
        let Some(session) = self.battle.as_mut() else {
            return Err(GameError::Overworld("no battle is running".into()));
        };
        // Refuse before the enemy draws its choice: a refused choice changes nothing.
        if session.battle.needs_choice() == NeedsChoice::Finished {
            return Err(GameError::Overworld(format!(
                "battle: {}",
                crate::battle::BattleError::Finished
            )));
        }
        if !session.battle.is_legal(Side::Player, action) {
            return Err(GameError::Overworld(format!(
                "battle: {}",
                crate::battle::BattleError::Illegal {
                    side: Side::Player,
                    action
                }
            )));
        }
        if let Action::Item(item) = action {
            let record = self.data.get_item(item);
            let effect =
                record.map_or(crate::items::ItemEffect::None, crate::items::ItemEffect::of);
            if effect != crate::items::ItemEffect::Ball {
                let b = &mut session.battle;
                let target = item_target.unwrap_or(b.side(Side::Player).active);
                let preview = b.item_preview(item, target);
                if !preview.used() {
                    return Err(GameError::Overworld(format!(
                        "battle: {}",
                        preview.render("", &self.save.player.name).trim_start()
                    )));
                }
                b.set_item_target(target);
            }
            let id = record.map(|i| i.id).unwrap_or("");
            if !take_item(&mut self.save.inventory, id) {
                return Err(GameError::Overworld(format!("no {id} in the bag")));
            }
        }
        // The choice is accepted from here on: the enemy draws its answer.
        let enemy = session.battle.select_enemy_action(&self.rt);
        // Mid-round: a mod's checkpoint call from a battle hook or event is refused with
        // `battle_phase_busy` (the round is resolved atomically; no game is lent inside).
        let rt = &self.rt;
        unsettled(
            CheckpointKindTag::Battle,
            CheckpointCode::BattlePhaseBusy,
            || session.battle.submit(rt, action, enemy),
        )
        .map_err(|e| GameError::Overworld(format!("battle: {e}")))?;
        self.drain_battle_rows();
        if self
            .battle
            .as_ref()
            .is_some_and(|s| s.battle.needs_choice() == NeedsChoice::Finished)
        {
            self.end_battle();
        }
        Ok(())
    }

    /// Run from the current wild battle, as the player's RUN (the escape goes through
    /// `battle.run`). Refused with a stable reason: no battle, a trainer battle, or a prompt
    /// that is not a round's choice (a replacement, a move to forget).
    pub fn try_run(&mut self) -> Result<(), (&'static str, String)> {
        use crate::world_values::{CANNOT_RUN, NO_BATTLE, TRAINER_BATTLE};
        let Some(session) = self.battle.as_ref() else {
            return Err((NO_BATTLE, "there is no battle to run from".to_owned()));
        };
        let b = &session.battle;
        if !b.kind.is_wild() {
            return Err((
                TRAINER_BATTLE,
                "no running from a trainer battle".to_owned(),
            ));
        }
        if !b.is_legal(Side::Player, Action::Run) {
            return Err((
                CANNOT_RUN,
                format!("RUN is not a choice now ({:?})", b.needs_choice()),
            ));
        }
        self.battle_choose(Action::Run)
            .map_err(|e| (CANNOT_RUN, e.to_string()))
    }

    /// The actions the player may choose now (empty outside a battle).
    pub fn battle_actions(&self) -> SmallVec<[Action; 12]> {
        let mut out = SmallVec::new();
        if let Some(s) = self.battle.as_ref() {
            s.battle.legal_actions(Side::Player, &mut out);
        }
        out
    }

    /// Render and move the battle's queued rows into the presentation feed.
    fn drain_battle_rows(&mut self) {
        let Some(session) = self.battle.as_mut() else {
            return;
        };
        let rows: Vec<Row> = session.battle.rows().collect();
        let b = &session.battle;
        let tr = &self.maps.translations;
        let mut lines = Vec::with_capacity(rows.len());
        for row in &rows {
            let text = match row {
                Row::Text(m) => {
                    let line = m.render(b);
                    Some(tr.battle_line(&line).unwrap_or(line))
                }
                Row::HpDrain { side, to, max, .. } => {
                    let name = b
                        .party(*side)
                        .get(usize::from(b.side(*side).active))
                        .map(|m| m.display_name(b.data()));
                    Some(format!("({} HP {to}/{max})", name.unwrap_or("?")))
                }
                Row::Capture(CaptureRow::Ball { shakes, caught, .. }) => Some(format!(
                    "(the ball wobbles {shakes} time(s){})",
                    if *caught { ", click!" } else { "" }
                )),
                _ => None,
            };
            if let Some(text) = text {
                lines.push(text.replace('\n', " "));
            }
        }
        for text in lines {
            self.show(PresentationRow::Note {
                text: format!("battle: {text}"),
            });
        }
    }

    /// Back to the overworld: party, boxes and Pokédex into the save; trainer bookkeeping;
    /// blackout on a loss.
    fn end_battle(&mut self) {
        let Some(mut session) = self.battle.take() else {
            return;
        };
        let data = self.data;
        let result = session.battle.result();
        let store = session.battle.take_capture_store();
        let payday = session.battle.pay_day_money();
        let leveled = session.battle.leveled_up();
        let (party, _) = session.battle.into_parties();
        let (party, _overflow) = Party::from_vec(party);
        let _ = self.save.set_party(&party, data);
        if let Some(store) = store {
            let _ = self.save.set_boxes(&store.boxes, data);
            self.save.pokedex = store.pokedex;
        }
        match result {
            Some(BattleResult::Win) => {
                self.save.add_money(payday);
                if let Some(key) = session.trainer_key.take() {
                    self.save.add_money(session.prize);
                    self.show(PresentationRow::Note {
                        text: format!(
                            "battle: {} got ¥{} for winning!",
                            self.save.player.name, session.prize
                        ),
                    });
                    self.save.defeated_trainers.insert(key);
                }
            }
            Some(BattleResult::Lose) => self.black_out(data),
            _ => {}
        }
        self.show(PresentationRow::Note {
            text: format!(
                "battle ended: {}",
                result.map(BattleResult::as_str).unwrap_or("none")
            ),
        });
        self.mode = Mode::Overworld;
        let won = result == Some(BattleResult::Win);
        let result_name = result.map(BattleResult::as_str).unwrap_or("");
        self.with_world(|ow, _| ow.battle_finished_as(won, result_name));
        // The mons that gained a level may evolve (not after a blackout).
        if leveled != 0 && result != Some(BattleResult::Lose) {
            self.evolve_after_battle(leveled);
        }
    }

    /// The cartridge's blackout: half the money is lost, the party is healed, and the player
    /// is taken to the last heal point.
    fn black_out(&mut self, data: &Dataset) {
        self.save.money /= 2;
        let mut party: Vec<Pokemon> = self.live_party(data);
        for m in &mut party {
            m.heal(data);
        }
        let _ = self.save.set_party(&Party::from_vec(party).0, data);
        let heal = self.save.last_heal.clone();
        let rt = std::rc::Rc::clone(&self.rt);
        crate::world::sites_flow::blacked_out(
            &rt,
            || pallet_api::value::to_value(&self.save).unwrap_or_default(),
            &heal.map,
            u32::from(heal.x),
            u32::from(heal.y),
        );
        let warped = self.with_world(|ow, ctx| {
            ow.start_warp(
                &heal.map,
                u32::from(heal.x),
                u32::from(heal.y),
                Direction::Down,
                ctx,
            )
        });
        if !matches!(warped, Some(Ok(()))) {
            self.show(PresentationRow::Note {
                text: format!("blackout: cannot warp to {}", heal.map),
            });
        }
    }

    /// A gift: into the party, or the first box with room when the party is full.
    pub fn give_pokemon(&mut self, species: &str, level: u8) -> Result<(), GameError> {
        let data = self.data;
        // `pokemon.give` may replace or cancel the gift (validated, fail closed).
        let Some((species, level)) = self.give_site(species, level) else {
            return Ok(());
        };
        let species = species.as_str();
        let id = data
            .species_by_name(species)
            .ok_or_else(|| GameError::Overworld(format!("unknown species {species}")))?;
        let dvs = Dvs::from_bytes([self.rng.byte(), self.rng.byte()]);
        let mut mon = Pokemon::new(data, id, level, dvs);
        mon.ot_name = self.save.player.name.clone();
        mon.ot_id = self.save.player.id;
        let game = || pallet_api::catalog::common::GameInfo {
            version: crate::world::sites::api_version(self.version),
            playthrough_id: self.save.meta.playthrough_id.clone(),
            map_id: Some(self.save.player.map.clone()),
        };
        crate::world::sites_flow::before_give(&self.rt, game, data, &mon);
        let gift = crate::world::sites_flow::received_watch(&self.rt, &mon);
        let mut destination = "party";
        let mut party = self
            .save
            .party_mons(data)
            .map_err(|e| GameError::Overworld(e.to_string()))?;
        if let Err(mon) = party.add(mon) {
            let mut boxes = self
                .save
                .box_mons(data)
                .map_err(|e| GameError::Overworld(e.to_string()))?;
            boxes
                .deposit(mon)
                .map_err(|_| GameError::Overworld("every box is full".into()))?;
            destination = "box";
            self.save
                .set_boxes(&boxes, data)
                .map_err(|e| GameError::Overworld(e.to_string()))?;
        }
        self.save
            .set_party(&party, data)
            .map_err(|e| GameError::Overworld(e.to_string()))?;
        let sid = data.species(id).id.to_string();
        self.save.pokedex.seen.insert(sid.clone());
        self.save.pokedex.owned.insert(sid);
        crate::world::sites_flow::received(&self.rt, data, gift, destination);
        Ok(())
    }
}

/// Remove one `id` from the bag; false when there is none.
fn take_item(bag: &mut Vec<crate::save::data::ItemStack>, id: &str) -> bool {
    let Some(i) = bag.iter().position(|s| s.id == id && s.count > 0) else {
        return false;
    };
    bag[i].count -= 1;
    if bag[i].count == 0 {
        bag.remove(i);
    }
    true
}

/// The guarded `trainer.party` site: the data's roster, or what a mod returns.
fn trainer_party_site(game: &Game, def: &TrainerDef) -> Vec<PartyMember> {
    let vanilla = |def: &TrainerDef| -> Vec<PartyMember> {
        def.party
            .iter()
            .enumerate()
            .map(|(i, (s, l))| PartyMember {
                species: (*s).to_string(),
                level: *l,
                moves: def
                    .moves
                    .get(i)
                    .filter(|m| !m.is_empty())
                    .map(|m| m.iter().map(|s| (*s).to_owned()).collect()),
            })
            .collect()
    };
    #[cfg(feature = "hook-sites")]
    if game.rt.wants_hook::<TrainerParty>() {
        let args = TrainerPartyArgs {
            class_id: crate::public_records::public_trainer_class(def.class),
            index: crate::public_records::public_party_index(def.index),
            party: vanilla(def),
        };
        return game.rt.call::<TrainerParty>(args, |a| a.party.clone());
    }
    let _ = game;
    vanilla(def)
}

#[cfg(test)]
pub(super) mod tests {
    use std::rc::Rc;

    use pallet_api::catalog::hooks::{PartyMember, TrainerParty};
    use pallet_api::Runtime;

    use super::*;
    use crate::world::{BusyState, GameVersion, Input};

    fn game(rt: Runtime) -> Game {
        Game::new_game(GameVersion::Red, 5, Rc::new(rt)).unwrap()
    }

    fn notes(g: &mut Game) -> Vec<String> {
        g.drain_feed()
            .into_iter()
            .filter_map(|r| match r.row {
                PresentationRow::Note { text } => Some(text),
                _ => None,
            })
            .collect()
    }

    /// Choose the first move (or the next mon) until the battle is over.
    pub(in crate::game) fn fight_out(g: &mut Game) {
        for _ in 0..500 {
            if g.mode != Mode::Battle {
                return;
            }
            let legal = g.battle_actions();
            let pick = legal
                .iter()
                .copied()
                .find(|a| matches!(a, Action::Move(_) | Action::Struggle | Action::Continue))
                .or_else(|| legal.first().copied())
                .unwrap();
            g.battle_choose(pick).unwrap();
        }
        panic!("the battle did not end");
    }

    #[test]
    fn wild_capture_with_a_full_party_goes_to_a_box() {
        let mut g = game(Runtime::new());
        for s in ["RATTATA", "PIDGEY", "SPEAROW", "MANKEY", "ODDISH", "EKANS"] {
            g.give_pokemon(s, 10).unwrap();
        }
        g.save.inventory.push(crate::save::data::ItemStack {
            id: "MASTER_BALL".into(),
            count: 1,
        });
        g.start_wild_battle("PIDGEY", 3).unwrap();
        assert_eq!(g.mode, Mode::Battle);
        assert_eq!(g.busy(), Some(BusyState::Screen));
        g.step(Input::A); // ticks do not advance a battle
        assert_eq!(g.mode, Mode::Battle);
        let ball = crate::data::gen1().item_by_name("MASTER_BALL").unwrap();
        g.battle_choose(Action::Item(ball)).unwrap();
        assert_eq!(g.mode, Mode::Overworld);
        assert!(g.battle().is_none());
        assert_eq!(g.save.party.len(), 6);
        assert_eq!(g.save.boxes.iter().map(Vec::len).sum::<usize>(), 1);
        assert_eq!(g.save.boxes[0][0].species, "PIDGEY");
        assert_eq!(g.save.boxes[0][0].ot_name, "RED");
        assert!(g.save.inventory.is_empty(), "the ball was used");
        let n = notes(&mut g);
        assert!(
            n.iter().any(|t| t == "battle: Wild PIDGEY appeared!"),
            "{n:?}"
        );
        assert!(
            n.iter()
                .any(|t| t == "battle: PIDGEY was transferred to someone's PC!"),
            "{n:?}"
        );
        assert_eq!(n.last().map(String::as_str), Some("battle ended: caught"));
        // No ball left: the choice is refused and the battle goes on.
        g.start_wild_battle("RATTATA", 2).unwrap();
        let state = |g: &Game| {
            let b = g.battle().unwrap();
            (b.rng().state(), b.turn(), g.rng.state())
        };
        let before = state(&g);
        assert!(g.battle_choose(Action::Item(ball)).is_err());
        assert!(g.battle_choose(Action::Switch(9)).is_err());
        assert_eq!(state(&g), before, "a refused choice draws nothing");
        assert_eq!(g.mode, Mode::Battle);
    }

    #[test]
    fn a_beaten_trainer_pays_and_is_recorded() {
        let mut g = game(Runtime::new());
        g.give_pokemon("NIDOKING", 40).unwrap();
        g.start_trainer_battle("BUG_CATCHER", 0).unwrap();
        assert_eq!(g.battle().map(|b| b.party(Side::Enemy).len()), Some(2));
        fight_out(&mut g);
        assert!(g.save.defeated_trainers.contains("ROUTE_1:BUG_CATCHER:0"));
        // Prize: base 10 x level 7 of the last mon.
        assert_eq!(g.save.money, crate::save::data::START_MONEY + 70);
        assert!(g.save.party[0].exp > 0);
        assert!(g.start_trainer_battle("NOBODY", 0).is_err());
    }

    #[test]
    fn trainer_party_hook_replaces_the_roster() {
        let rt = Runtime::new();
        rt.wrap::<TrainerParty, _>("m", 0, |_next, args| {
            assert_eq!(
                (args.class_id.as_str(), args.index, args.party.len()),
                ("OPP_BUG_CATCHER", 1, 2)
            );
            Ok(vec![PartyMember {
                species: "MAGIKARP".into(),
                level: 2,
                moves: None,
            }])
        });
        let mut g = game(rt);
        g.give_pokemon("RATTATA", 10).unwrap();
        g.start_trainer_battle("BUG_CATCHER", 0).unwrap();
        let b = g.battle().unwrap();
        assert_eq!(b.party(Side::Enemy).len(), 1);
        assert_eq!(
            b.party(Side::Enemy)[0].species,
            crate::data::gen1().species_by_name("MAGIKARP").unwrap()
        );
    }

    #[test]
    fn losing_blacks_out_to_the_last_heal_point() {
        let mut g = game(Runtime::new());
        // A level-5 MAGIKARP knows only SPLASH: it cannot win.
        g.give_pokemon("MAGIKARP", 5).unwrap();
        let heal = g.save.last_heal.clone();
        g.start_trainer_battle("BUG_CATCHER", 0).unwrap();
        fight_out(&mut g);
        let n = notes(&mut g);
        assert!(n.iter().any(|t| t == "battle: RED blacked out!"), "{n:?}");
        assert_eq!(g.save.money, crate::save::data::START_MONEY / 2);
        assert!(g.save.defeated_trainers.is_empty());
        let mon = g.save.party[0].to_pokemon(crate::data::gen1()).unwrap();
        assert_eq!(mon.hp, mon.stats.max_hp, "healed");
        for _ in 0..200 {
            g.step(Input::None);
        }
        assert_eq!(
            (g.save.player.map.as_str(), g.save.player.x, g.save.player.y),
            (heal.map.as_str(), heal.x, heal.y)
        );
    }

    #[test]
    fn no_healthy_mon_no_battle() {
        let mut g = game(Runtime::new());
        g.start_wild_battle("PIDGEY", 3).unwrap();
        assert_eq!(g.mode, Mode::Overworld);
        assert!(notes(&mut g).iter().any(|t| t.contains("no healthy")));
    }
}
