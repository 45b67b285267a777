//! Checkpoint capture of a live battle (not the Pokémon catch): the battle, its battlers,
//! sides, field tokens and the lent capture store mirrored into the data-only model.

use pallet_api::facades::CheckpointFailure;
use pallet_api::reasons::CheckpointCode;
use pallet_api::Value;

use crate::battle::capture::CaptureStore;
use crate::battle::state::{CurMove, MAX_STAGE, MIN_STAGE, NEUTRAL_STAGE};
use crate::battle::{
    Battle, BattleKind, BattleStyle, Battler, Field, OhkoState, Phase, Screens, SideState, Token,
};
use crate::data::{gen1, Dataset, MoveId, Type};
use crate::game::BattleSession;
use crate::pokemon::{Pokemon, MOVE_SLOTS};
use crate::save::record::MonRecord;

use super::names::{bits_to_indices, effect_name, move_name, type_by_id, VOLATILE};
use super::{
    fail, BattleModel, BattlerRecord, CaptureStoreRecord, CurMoveRecord, FieldRecord, OriginRecord,
    ScreensRecord, SideRecord, TokenRecord, TrainerRecord, ORIGIN_TRAINER, ORIGIN_WILD, PHASE_MENU,
};

// ----- capture -------------------------------------------------------------------------------

fn invalid(what: impl Into<String>) -> CheckpointFailure {
    fail(CheckpointCode::BattleStateInvalid, what)
}

fn battler_record(data: &Dataset, b: &Battler) -> Result<BattlerRecord, CheckpointFailure> {
    let Battler {
        slot,
        species,
        types,
        level,
        stats,
        unmod,
        stages,
        moves,
        pp,
        flags,
        confusion_turns,
        toxic_counter,
        disabled_slot,
        disable_turns,
        attacks_left,
        hits,
        bide_damage,
        substitute_hp,
        selected,
        used,
        move_slot,
        cur,
    } = *b;
    let name = |id: MoveId| move_name(data, id).ok_or_else(|| invalid("unknown move id"));
    let mut move_names: [String; MOVE_SLOTS] = Default::default();
    for (out, m) in move_names.iter_mut().zip(moves) {
        *out = match m {
            Some(id) if id.0 != 0 => name(id)?,
            Some(_) => return Err(invalid("a move slot holds move 0")),
            None => String::new(),
        };
    }
    let mut stage_out = [0i8; 6];
    for (out, s) in stage_out.iter_mut().zip(stages) {
        if !(MIN_STAGE..=MAX_STAGE).contains(&s) {
            return Err(invalid("stat stage out of range"));
        }
        *out = s as i8 - NEUTRAL_STAGE as i8;
    }
    let known: u32 = VOLATILE.iter().map(|(bit, _)| bit).sum();
    if flags & !known != 0 {
        return Err(invalid("unknown volatile status bits"));
    }
    let CurMove {
        id: cur_id,
        effect,
        power,
        ty,
        accuracy,
    } = cur;
    let type_id = |t: Type| {
        type_by_id(t.id())
            .map(|t| t.id().to_owned())
            .ok_or_else(|| invalid("not a Gen 1 type"))
    };
    Ok(BattlerRecord {
        slot,
        species: data
            .get_species(species)
            .map(|s| s.id.to_owned())
            .ok_or_else(|| invalid("unknown species id"))?,
        types: [type_id(types[0])?, type_id(types[1])?],
        level,
        stats,
        unmod,
        stages: stage_out,
        moves: move_names,
        pp,
        volatile: VOLATILE
            .iter()
            .filter(|(bit, _)| flags & bit != 0)
            .map(|(_, n)| (*n).to_owned())
            .collect(),
        confusion_turns,
        toxic_counter,
        disabled_slot,
        disable_turns,
        attacks_left,
        hits,
        bide_damage,
        substitute_hp,
        selected: selected.map(name).transpose()?,
        used: used.map(name).transpose()?,
        move_slot,
        cur: CurMoveRecord {
            id: name(cur_id)?,
            effect: effect_name(effect).ok_or_else(|| invalid("not a Gen 1 move effect"))?,
            power,
            ty: type_id(ty)?,
            accuracy,
        },
    })
}

pub(super) fn finite(v: &Value) -> bool {
    match v {
        Value::Float(f) => f.is_finite(),
        Value::List(l) => l.iter().all(finite),
        Value::Map(m) => m.values().all(finite),
        _ => true,
    }
}

fn token_records(tokens: &[Token]) -> Result<Vec<TokenRecord>, CheckpointFailure> {
    tokens
        .iter()
        .map(|t| {
            let Token { id, turns, data } = t;
            if !data.values().all(finite) {
                return Err(fail(
                    CheckpointCode::BattleExtensionUnsafe,
                    format!("token {id} holds a non-finite number"),
                ));
            }
            Ok(TokenRecord {
                id: id.clone(),
                turns: *turns,
                data: data.clone(),
            })
        })
        .collect()
}

/// A mon as a save record that converts back to exactly the same mon.
fn mon_record(data: &Dataset, m: &Pokemon) -> Result<MonRecord, CheckpointFailure> {
    let r = MonRecord::from_pokemon(m, data).map_err(|e| invalid(e.to_string()))?;
    match r.to_pokemon(data) {
        Ok(back) if &back == m => Ok(r),
        _ => Err(invalid("a battle mon has no exact save record")),
    }
}

fn party_records(data: &Dataset, party: &[Pokemon]) -> Result<Vec<MonRecord>, CheckpointFailure> {
    party.iter().map(|m| mon_record(data, m)).collect()
}

fn side_record(
    data: &Dataset,
    index: u8,
    side: &SideState,
) -> Result<(SideRecord, BattlerRecord, Vec<MonRecord>), CheckpointFailure> {
    let SideState {
        party,
        active,
        battler,
        screens,
        tokens,
        participants,
        faint_queued,
        acted_outside_moves,
    } = side;
    let Screens {
        reflect,
        light_screen,
    } = *screens;
    Ok((
        SideRecord {
            index,
            active: *active,
            screens: ScreensRecord {
                reflect,
                light_screen,
            },
            tokens: token_records(tokens)?,
            participants: bits_to_indices(*participants),
            faint_queued: *faint_queued,
            acted_outside_moves: *acted_outside_moves,
        },
        battler_record(data, battler)?,
        party_records(data, party)?,
    ))
}

fn store_record(data: &Dataset, s: &CaptureStore) -> Result<CaptureStoreRecord, CheckpointFailure> {
    let CaptureStore {
        boxes,
        pokedex,
        met_bill,
        ot_name,
        ot_id,
        game,
    } = s;
    let records = boxes.try_map(|m| mon_record(data, m))?;
    let current_box = records.current_box() as i64;
    Ok(CaptureStoreRecord {
        boxes: records.into_lists(),
        current_box,
        pokedex: pokedex.clone(),
        met_bill: *met_bill,
        ot_name: ot_name.clone(),
        ot_id: *ot_id,
        game: game.clone(),
    })
}

/// The model of a battle at its safe boundary. `map` is the overworld map under it.
pub(crate) fn capture_model(
    session: &BattleSession,
    map: &str,
) -> Result<BattleModel, CheckpointFailure> {
    let BattleSession {
        battle,
        trainer_key,
        prize,
    } = session;
    let Battle {
        data,
        kind,
        sides,
        field,
        rng,
        rows,
        record_rows: _,
        result,
        phase,
        turn,
        last_damage,
        move_missed,
        crit,
        ohko,
        effectiveness,
        run_attempts,
        pay_day,
        style,
        player_name,
        mod_texts,
        started,
        link_rules,
        escaped,
        turn_limit,
        player_id,
        level_ups,
        capture_store,
        caught,
        matchups: _,
        pending,
        ai_layer2,
        // Set with each bag-item choice and read inside that round only.
        item_target: _,
    } = battle;
    // Transient or empty at the safe boundary (checked by `safe_boundary`; a record never holds
    // them). `record_rows` is always on in a game: restored battles record rows. A pending
    // prompt (learn move, Mimic) is mid-step: never at the boundary.
    if !rows.is_empty()
        || result.is_some()
        || *phase != Phase::Round
        || caught.is_some()
        || pending.is_some()
    {
        return Err(invalid("the battle is not at its menu boundary"));
    }
    if *link_rules {
        return Err(fail(
            CheckpointCode::LinkBattleUnsupported,
            "link battles cannot be captured",
        ));
    }
    let data: &'static Dataset = data;
    if !std::ptr::eq(data, gen1()) {
        return Err(invalid("the battle does not run on the Gen 1 dataset"));
    }
    let (trainer, origin_kind) = match kind {
        BattleKind::Wild => (None, ORIGIN_WILD),
        BattleKind::Trainer { class, index, name } => (
            Some(TrainerRecord {
                class: class.clone(),
                index: *index,
                name: name.clone(),
            }),
            ORIGIN_TRAINER,
        ),
    };
    if trainer.is_some() != trainer_key.is_some() {
        return Err(fail(
            CheckpointCode::BattleOriginUnsupported,
            "the battle's origin is not a wild or trainer encounter",
        ));
    }
    let (p_side, player, player_party) = side_record(data, 1, &sides[0])?;
    let (e_side, enemy, enemy_party) = side_record(data, 2, &sides[1])?;
    let Field { weather, tokens } = field;
    Ok(BattleModel {
        kind: if kind.is_wild() { "wild" } else { "trainer" }.to_owned(),
        trainer,
        origin: OriginRecord {
            kind: origin_kind.to_owned(),
            map: map.to_owned(),
            trainer_key: trainer_key.clone(),
            prize: *prize,
        },
        phase: PHASE_MENU.to_owned(),
        turn: *turn,
        player,
        enemy,
        player_party,
        enemy_party,
        sides: vec![p_side, e_side],
        field: FieldRecord {
            weather: weather.clone(),
            tokens: token_records(tokens)?,
        },
        leveled_up: bits_to_indices(*level_ups),
        rng: rng.clone(),
        last_damage: *last_damage,
        move_missed: *move_missed,
        crit: *crit,
        ohko: match ohko {
            OhkoState::None => "none",
            OhkoState::Hit => "hit",
            OhkoState::Failed => "failed",
        }
        .to_owned(),
        effectiveness: *effectiveness,
        run_attempts: *run_attempts,
        pay_day: *pay_day,
        style: match style {
            BattleStyle::Shift => "shift",
            BattleStyle::Set => "set",
        }
        .to_owned(),
        player_name: player_name.clone(),
        mod_texts: mod_texts.clone(),
        started: *started,
        escaped: *escaped,
        turn_limit: *turn_limit,
        player_id: *player_id,
        capture_store: capture_store
            .as_deref()
            .map(|s| store_record(data, s))
            .transpose()?,
        ai_layer2: *ai_layer2,
    })
}
