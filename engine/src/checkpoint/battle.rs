//! The battle kind (RFC 0005 as reference-semantics §4 describes it): a data-only mirror of a
//! running battle at its safe boundary, the boundary check itself, and the detached rebuild.
//!
//! The model is a **separate mirror** of [`Battle`], not serde derives on the battle's own types
//! (see `docs/decisions.md`): species, moves and types are stored by their stable ids, stages as
//! −6..=6, volatile status bits by name, parties as save [`MonRecord`]s. Capture and rebuild
//! destructure [`Battle`], [`SideState`], [`Battler`] and [`BattleSession`] **exhaustively**, so a
//! field added to any of them does not compile until it is either mirrored here or declared
//! transient. Whatever the model does not hold is rebuilt from the same content (the matchup
//! index, the dataset) or is empty at the safe boundary (queued rows, the result, a catch).

use std::collections::BTreeMap;

use pallet_api::catalog::common::GameInfo;
use pallet_api::facades::CheckpointFailure;
use pallet_api::reasons::CheckpointCode;
use pallet_api::Value;
use serde::{Deserialize, Serialize};

use crate::battle::capture::CaptureStore;
use crate::battle::state::{flag, CurMove, MAX_STAGE, MIN_STAGE, NEUTRAL_STAGE};
use crate::battle::{
    Battle, BattleKind, BattleStyle, Battler, Field, OhkoState, Phase, Screens, SideState, Token,
};
use crate::data::{gen1, Dataset, MoveEffect, MoveId, SpeciesId, Type};
use crate::game::{BattleSession, TRAINERS};
use crate::pokemon::{Boxes, Pokemon, MOVE_SLOTS};
use crate::rng::Rng;
use crate::save::data::Pokedex;
use crate::save::record::MonRecord;

/// `phase` of every captured battle: the player's choice between rounds (the reference's
/// `"menu"`), the only safe boundary.
pub const PHASE_MENU: &str = "menu";
/// Highest turn counter a record may hold (the battle adds one per round).
pub const MAX_TURN: u32 = 1_000_000;
/// Most Pay Day money a battle holds (the cartridge's money cap).
pub const MAX_PAY_DAY: u32 = 999_999;
/// `origin.kind` of a wild battle.
pub const ORIGIN_WILD: &str = "wild_encounter";
/// `origin.kind` of a trainer battle.
pub const ORIGIN_TRAINER: &str = "trainer_encounter";

/// The battle model (`runtime.battle`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BattleModel {
    /// `"wild"` or `"trainer"`.
    pub kind: String,
    /// The trainer of a trainer battle.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trainer: Option<TrainerRecord>,
    pub origin: OriginRecord,
    /// Always [`PHASE_MENU`].
    pub phase: String,
    /// The Gen 1 turn counter.
    pub turn: u32,
    pub player: BattlerRecord,
    pub enemy: BattlerRecord,
    /// The battle's own copy of the player's party (HP, PP, status, EXP live here until the
    /// battle ends; `save.party` is the party as it was when the battle began).
    pub player_party: Vec<MonRecord>,
    /// The wild mon, or the trainer's roster.
    pub enemy_party: Vec<MonRecord>,
    /// `[{index = 1, …}, {index = 2, …}]`: player side, enemy side.
    pub sides: Vec<SideRecord>,
    pub field: FieldRecord,
    /// Player party indices (0-based) that gained a level this battle, ascending.
    pub leveled_up: Vec<u8>,
    /// The battle's random source, `{state = "<16 hex digits>"}`.
    #[serde(with = "super::record::rng_hex")]
    pub rng: Rng,
    /// The cartridge's shared `wDamage` (Counter and Bide read it across rounds).
    pub last_damage: u16,
    pub move_missed: bool,
    pub crit: bool,
    /// `"none"`, `"hit"`, `"failed"`.
    pub ohko: String,
    /// Effectiveness of the last damage calculation, in tenths.
    pub effectiveness: u8,
    pub run_attempts: u8,
    pub pay_day: u32,
    /// `"shift"` or `"set"`.
    pub style: String,
    pub player_name: String,
    /// Mod-supplied message strings the battle's text rows reference.
    pub mod_texts: Vec<String>,
    /// `battle.started` has been emitted.
    pub started: bool,
    pub escaped: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_limit: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player_id: Option<u16>,
    /// The player's boxes and Pokédex lent to the capture path for this battle.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capture_store: Option<CaptureStoreRecord>,
    /// The trainer AI's `wAILayer2Encouragement` (enemy move executions since its last
    /// send-out); absent when 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub ai_layer2: u8,
}

fn is_zero(v: &u8) -> bool {
    *v == 0
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TrainerRecord {
    pub class: String,
    pub index: u16,
    pub name: String,
}

/// Where the battle came from (the reference's `checkpointOrigin`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OriginRecord {
    /// [`ORIGIN_WILD`] or [`ORIGIN_TRAINER`].
    pub kind: String,
    /// The overworld map under the battle (equal to `runtime.overworld.map`).
    pub map: String,
    /// `MAP:CLASS:INDEX`, recorded as defeated on a win (trainer battles).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trainer_key: Option<String>,
    /// Prize money for a win.
    pub prize: u32,
}

/// The active battler: the cartridge's `wBattleMon`/`wEnemyMon` copy and volatile state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BattlerRecord {
    /// Party index (0-based) the battler came from.
    pub slot: u8,
    pub species: String,
    pub types: [String; 2],
    pub level: u8,
    /// Attack, Defense, Speed, Special as modified by stages and status penalties.
    pub stats: [u16; 4],
    /// The same before stages.
    pub unmod: [u16; 4],
    /// Attack, Defense, Speed, Special, Accuracy, Evasion stages, −6..=6.
    pub stages: [i8; 6],
    /// Move ids by slot; `""` is an empty slot.
    pub moves: [String; MOVE_SLOTS],
    pub pp: [u8; MOVE_SLOTS],
    /// Volatile status names (`"confused"`, `"seeded"`, `"substitute"`, …), in bit order.
    pub volatile: Vec<String>,
    pub confusion_turns: u8,
    pub toxic_counter: u8,
    pub disabled_slot: u8,
    pub disable_turns: u8,
    pub attacks_left: u8,
    pub hits: u8,
    pub bide_damage: u16,
    pub substitute_hp: u8,
    /// The move chosen last; `""` is the cleared selection; absent: could not act (`$FF`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selected: Option<String>,
    /// The move last printed as used (Mirror Move reads it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub used: Option<String>,
    pub move_slot: u8,
    /// The loaded move data (the cartridge's `wPlayerMove*`; Counter reads the opponent's).
    pub cur: CurMoveRecord,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CurMoveRecord {
    /// Move id, `""` for none.
    pub id: String,
    /// Effect routine name (`"NoAdditionalEffect"`, `"DrainHp"`, …).
    pub effect: String,
    pub power: u8,
    #[serde(rename = "type")]
    pub ty: String,
    /// Accuracy out of 256.
    pub accuracy: u8,
}

/// One side's field state (`sides[i]`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SideRecord {
    /// 1 (player) or 2 (enemy).
    pub index: u8,
    /// Party index of the active mon.
    pub active: u8,
    pub screens: ScreensRecord,
    pub tokens: Vec<TokenRecord>,
    /// Party indices that fought the current enemy mon and are still standing, ascending.
    pub participants: Vec<u8>,
    pub faint_queued: bool,
    pub acted_outside_moves: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ScreensRecord {
    pub reflect: bool,
    pub light_screen: bool,
}

/// `field = {weather, tokens}` (no `sides` back-reference).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FieldRecord {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weather: Option<String>,
    pub tokens: Vec<TokenRecord>,
}

/// A data-only token (`{id, turns?, data}`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TokenRecord {
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turns: Option<i32>,
    pub data: BTreeMap<String, Value>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CaptureStoreRecord {
    /// Twelve boxes of save records.
    pub boxes: Vec<Vec<MonRecord>>,
    /// 1..=12.
    pub current_box: i64,
    pub pokedex: Pokedex,
    pub met_bill: bool,
    pub ot_name: String,
    pub ot_id: u16,
    pub game: GameInfo,
}

fn fail(code: CheckpointCode, message: impl Into<String>) -> CheckpointFailure {
    CheckpointFailure {
        code,
        message: message.into(),
    }
}

// ----- names ---------------------------------------------------------------------------------

/// Volatile status bits by name, in bit order.
const VOLATILE: [(u32, &str); 17] = [
    (flag::STORING_ENERGY, "storingEnergy"),
    (flag::THRASHING, "thrashing"),
    (flag::MULTI_HIT, "multiHit"),
    (flag::FLINCHED, "flinched"),
    (flag::CHARGING, "charging"),
    (flag::TRAPPING, "trapping"),
    (flag::INVULNERABLE, "invulnerable"),
    (flag::CONFUSED, "confused"),
    (flag::X_ACCURACY, "xAccuracy"),
    (flag::MIST, "mist"),
    (flag::FOCUS_ENERGY, "focusEnergy"),
    (flag::SUBSTITUTE, "substitute"),
    (flag::RECHARGE, "recharge"),
    (flag::RAGE, "rage"),
    (flag::SEEDED, "seeded"),
    (flag::TOXIC, "toxic"),
    (flag::TRANSFORMED, "transformed"),
];

fn move_name(data: &Dataset, id: MoveId) -> Option<String> {
    if id.0 == 0 {
        return Some(String::new());
    }
    data.get_move(id).map(|m| m.id.to_owned())
}

/// Strict: only the canonical id (`""` is move 0).
fn move_by_id(data: &Dataset, s: &str) -> Option<MoveId> {
    if s.is_empty() {
        return Some(MoveId(0));
    }
    data.move_by_name(s)
        .filter(|id| data.get_move(*id).is_some_and(|m| m.id == s))
}

fn species_by_id(data: &Dataset, s: &str) -> Option<SpeciesId> {
    data.species_by_name(s)
        .filter(|id| data.get_species(*id).is_some_and(|sp| sp.id == s))
}

fn type_by_id(s: &str) -> Option<Type> {
    Type::GEN1.iter().copied().find(|t| t.id() == s)
}

fn effect_name(e: MoveEffect) -> Option<String> {
    match e {
        MoveEffect::Gen2(_) => None,
        e => Some(format!("{e:?}")),
    }
}

/// Effects a battler's loaded move can carry: those of the dataset's moves, and the cleared one.
fn effect_by_name(data: &Dataset, s: &str) -> Option<MoveEffect> {
    if s == "NoAdditionalEffect" {
        return Some(MoveEffect::NoAdditionalEffect);
    }
    (1..=u16::MAX)
        .map_while(|i| data.get_move(MoveId(i)))
        .map(|m| m.effect)
        .find(|e| effect_name(*e).as_deref() == Some(s))
}

fn bits_to_indices(bits: u8) -> Vec<u8> {
    (0..8).filter(|i| bits & (1 << i) != 0).collect()
}

/// Ascending, unique indices below `len` → bits; `None` otherwise.
fn indices_to_bits(list: &[u8], len: usize) -> Option<u8> {
    let mut bits = 0u8;
    let mut last: Option<u8> = None;
    for &i in list {
        if usize::from(i) >= len || i >= 8 || last.is_some_and(|l| l >= i) {
            return None;
        }
        bits |= 1 << i;
        last = Some(i);
    }
    Some(bits)
}

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

fn finite(v: &Value) -> bool {
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

// ----- validation and rebuild ---------------------------------------------------------------

fn bad(message: impl Into<String>) -> CheckpointFailure {
    fail(CheckpointCode::InvalidCheckpoint, message)
}

fn content(message: impl Into<String>) -> CheckpointFailure {
    fail(CheckpointCode::InvalidContent, message)
}

fn origin_err(message: impl Into<String>) -> CheckpointFailure {
    fail(CheckpointCode::BattleOriginUnsupported, message)
}

fn battler_from(
    data: &Dataset,
    r: &BattlerRecord,
    party_len: usize,
) -> Result<Battler, CheckpointFailure> {
    let mv = |s: &str| move_by_id(data, s).ok_or_else(|| content(format!("unknown move {s}")));
    let ty = |s: &str| type_by_id(s).ok_or_else(|| content(format!("unknown type {s}")));
    if usize::from(r.slot) >= party_len {
        return Err(content("battler slot outside the party"));
    }
    if !(1..=100).contains(&r.level) {
        return Err(content("battler level out of range"));
    }
    if r.stats
        .iter()
        .chain(&r.unmod)
        .any(|s| !(1..=999).contains(s))
    {
        return Err(content("battler stat out of range"));
    }
    let mut stages = [NEUTRAL_STAGE; 6];
    for (out, s) in stages.iter_mut().zip(r.stages) {
        if !(-6..=6).contains(&s) {
            return Err(content("stat stage outside -6..6"));
        }
        *out = (s + NEUTRAL_STAGE as i8) as u8;
    }
    let mut moves = [None; MOVE_SLOTS];
    for (out, s) in moves.iter_mut().zip(&r.moves) {
        if !s.is_empty() {
            *out = Some(mv(s)?);
        }
    }
    let mut flags = 0u32;
    let mut last = None;
    for name in &r.volatile {
        let at = VOLATILE
            .iter()
            .position(|(_, n)| n == name)
            .ok_or_else(|| content(format!("unknown volatile status {name}")))?;
        if last.is_some_and(|l| l >= at) {
            return Err(bad("volatile statuses must be listed once, in order"));
        }
        last = Some(at);
        flags |= VOLATILE[at].0;
    }
    if r.disabled_slot as usize >= MOVE_SLOTS || r.move_slot as usize >= MOVE_SLOTS {
        return Err(content("move slot out of range"));
    }
    let effect = effect_by_name(data, &r.cur.effect)
        .ok_or_else(|| content(format!("unknown move effect {}", r.cur.effect)))?;
    Ok(Battler {
        slot: r.slot,
        species: species_by_id(data, &r.species)
            .ok_or_else(|| content(format!("unknown species {}", r.species)))?,
        types: [ty(&r.types[0])?, ty(&r.types[1])?],
        level: r.level,
        stats: r.stats,
        unmod: r.unmod,
        stages,
        moves,
        pp: r.pp,
        flags,
        confusion_turns: r.confusion_turns,
        toxic_counter: r.toxic_counter,
        disabled_slot: r.disabled_slot,
        disable_turns: r.disable_turns,
        attacks_left: r.attacks_left,
        hits: r.hits,
        bide_damage: r.bide_damage,
        substitute_hp: r.substitute_hp,
        selected: r.selected.as_deref().map(mv).transpose()?,
        used: r.used.as_deref().map(mv).transpose()?,
        move_slot: r.move_slot,
        cur: CurMove {
            id: mv(&r.cur.id)?,
            effect,
            power: r.cur.power,
            ty: ty(&r.cur.ty)?,
            accuracy: r.cur.accuracy,
        },
    })
}

fn tokens_from(list: &[TokenRecord]) -> Result<Vec<Token>, CheckpointFailure> {
    list.iter()
        .map(|t| {
            if !t.data.values().all(finite) {
                return Err(content(format!("token {} holds a non-finite number", t.id)));
            }
            if t.turns.is_some_and(|n| n < 0) {
                return Err(content(format!("token {} has negative turns", t.id)));
            }
            Ok(Token {
                id: t.id.clone(),
                turns: t.turns,
                data: t.data.clone(),
            })
        })
        .collect()
}

fn mons_from(data: &Dataset, list: &[MonRecord]) -> Result<Vec<Pokemon>, CheckpointFailure> {
    list.iter()
        .map(|r| r.to_pokemon(data).map_err(|e| content(e.to_string())))
        .collect()
}

fn side_from(
    data: &Dataset,
    r: &SideRecord,
    battler: &BattlerRecord,
    party: Vec<Pokemon>,
) -> Result<SideState, CheckpointFailure> {
    if party.is_empty() || party.len() > 6 {
        return Err(content("a battle party holds 1 to 6 mons"));
    }
    let active = usize::from(r.active);
    if active >= party.len() || battler.slot != r.active {
        return Err(content(
            "the active index does not name the battler's party mon",
        ));
    }
    if party[active].hp == 0 || r.faint_queued {
        return Err(bad("an active mon has fainted: not a menu boundary"));
    }
    Ok(SideState {
        battler: battler_from(data, battler, party.len())?,
        participants: indices_to_bits(&r.participants, party.len())
            .ok_or_else(|| bad("participants are not ascending party indices"))?,
        party,
        active: r.active,
        screens: Screens {
            reflect: r.screens.reflect,
            light_screen: r.screens.light_screen,
        },
        tokens: tokens_from(&r.tokens)?,
        faint_queued: r.faint_queued,
        acted_outside_moves: r.acted_outside_moves,
    })
}

fn store_from(data: &Dataset, r: &CaptureStoreRecord) -> Result<CaptureStore, CheckpointFailure> {
    let lists = r
        .boxes
        .iter()
        .map(|b| mons_from(data, b))
        .collect::<Result<Vec<_>, _>>()?;
    if lists.len() != crate::pokemon::boxes::BOX_COUNT || !(1..=12).contains(&r.current_box) {
        return Err(content(
            "the capture store needs twelve boxes and a current box 1..12",
        ));
    }
    let (boxes, left) = Boxes::ensure(lists, Vec::new(), r.current_box);
    if !left.is_empty() {
        return Err(content("a capture store box holds more than twenty mons"));
    }
    Ok(CaptureStore {
        boxes,
        pokedex: r.pokedex.clone(),
        met_bill: r.met_bill,
        ot_name: r.ot_name.clone(),
        ot_id: r.ot_id,
        game: r.game.clone(),
    })
}

/// Reference `BattleCheckpoint.validate` + the detached part of `restore`: check the model
/// completely and build the battle it describes, touching nothing live. `map` is the record's
/// `runtime.overworld.map`; the caller has checked the mons through the canonical validator.
pub(crate) fn rebuild(model: &BattleModel, map: &str) -> Result<BattleSession, CheckpointFailure> {
    let data = gen1();
    if model.phase != PHASE_MENU {
        return Err(bad("a battle checkpoint is taken at the menu boundary"));
    }
    // Origin (reference order: origin before content).
    let kind = match (model.kind.as_str(), &model.trainer) {
        ("wild", None) => BattleKind::Wild,
        ("trainer", Some(t)) => BattleKind::Trainer {
            class: t.class.clone(),
            index: t.index,
            name: t.name.clone(),
        },
        ("wild" | "trainer", _) => return Err(origin_err("the trainer does not match the kind")),
        _ => return Err(bad("battle kind must be wild or trainer")),
    };
    let want_origin = if kind.is_wild() {
        ORIGIN_WILD
    } else {
        ORIGIN_TRAINER
    };
    if model.origin.kind != want_origin {
        return Err(origin_err("the origin kind does not match the battle kind"));
    }
    if model.origin.map != map {
        return Err(origin_err("the origin map is not the overworld map"));
    }
    match (&kind, &model.origin.trainer_key) {
        (BattleKind::Wild, None) => {}
        (BattleKind::Trainer { class, index, name }, Some(key)) => {
            let def = TRAINERS
                .iter()
                .find(|t| t.class == class && t.index == *index)
                .ok_or_else(|| content(format!("unknown trainer {class} {index}")))?;
            if *key != format!("{}:{}:{}", def.map, def.class, def.index) || def.name != name {
                return Err(origin_err("the trainer key does not match the trainer"));
            }
        }
        _ => return Err(origin_err("the trainer key does not match the kind")),
    }
    // Sides and parties.
    let [p_rec, e_rec] = model.sides.as_slice() else {
        return Err(bad("a battle has two sides"));
    };
    if p_rec.index != 1 || e_rec.index != 2 {
        return Err(bad("sides are listed as index 1 then 2"));
    }
    let player_party = mons_from(data, &model.player_party)?;
    let enemy_party = mons_from(data, &model.enemy_party)?;
    let player = side_from(data, p_rec, &model.player, player_party)?;
    let enemy = side_from(data, e_rec, &model.enemy, enemy_party)?;
    if player
        .battler
        .has(flag::RECHARGE | flag::RAGE | flag::THRASHING | flag::CHARGING)
    {
        return Err(bad("the player's action is locked: not a menu boundary"));
    }
    // Counters the battle keeps adding to (a record may not start them near overflow).
    if model.turn > MAX_TURN || model.pay_day > MAX_PAY_DAY {
        return Err(content("turn or Pay Day money out of range"));
    }
    let level_ups = indices_to_bits(&model.leveled_up, player.party.len())
        .ok_or_else(|| bad("leveledUp is not ascending party indices"))?;
    let ohko = match model.ohko.as_str() {
        "none" => OhkoState::None,
        "hit" => OhkoState::Hit,
        "failed" => OhkoState::Failed,
        _ => return Err(bad("ohko must be none, hit or failed")),
    };
    let style = match model.style.as_str() {
        "shift" => BattleStyle::Shift,
        "set" => BattleStyle::Set,
        _ => return Err(bad("style must be shift or set")),
    };
    let store = model
        .capture_store
        .as_ref()
        .map(|s| store_from(data, s))
        .transpose()?;
    let field = Field {
        weather: model.field.weather.clone(),
        tokens: tokens_from(&model.field.tokens)?,
    };
    // A fresh battle from the same content (matchup index, dataset), then the model over it.
    let mut battle = Battle::new(
        data,
        kind,
        player.party.clone(),
        enemy.party.clone(),
        model.rng.clone(),
    );
    let Battle {
        data: _,
        kind: _,
        sides,
        field: b_field,
        rng: _,
        rows,
        record_rows,
        result,
        phase,
        turn,
        last_damage,
        move_missed,
        crit,
        ohko: b_ohko,
        effectiveness,
        run_attempts,
        pay_day,
        style: b_style,
        player_name,
        mod_texts,
        started,
        link_rules,
        escaped,
        turn_limit,
        player_id,
        level_ups: b_level_ups,
        capture_store,
        caught,
        matchups: _,
        pending,
        ai_layer2,
    } = &mut battle;
    *sides = [player, enemy];
    *b_field = field;
    rows.clear();
    *record_rows = true;
    *result = None;
    *phase = Phase::Round;
    *turn = model.turn;
    *last_damage = model.last_damage;
    *move_missed = model.move_missed;
    *crit = model.crit;
    *b_ohko = ohko;
    *effectiveness = model.effectiveness;
    *run_attempts = model.run_attempts;
    *pay_day = model.pay_day;
    *b_style = style;
    *player_name = model.player_name.clone();
    *mod_texts = model.mod_texts.clone();
    *started = model.started;
    *link_rules = false;
    *escaped = model.escaped;
    *turn_limit = model.turn_limit;
    *player_id = model.player_id;
    *b_level_ups = level_ups;
    *capture_store = store.map(Box::new);
    *caught = None;
    *pending = None;
    *ai_layer2 = model.ai_layer2;
    Ok(BattleSession {
        battle,
        trainer_key: model.origin.trainer_key.clone(),
        prize: model.origin.prize,
    })
}

/// Reference `BattleSafety` step 5 on a live battle: `Some(battle_phase_busy)` unless the
/// player is at the menu between rounds with nothing queued, nobody fainting and no locked
/// action; link battles are refused first.
pub(crate) fn boundary_refusal(session: &BattleSession) -> Option<CheckpointCode> {
    let b = &session.battle;
    if b.link_rules {
        return Some(CheckpointCode::LinkBattleUnsupported);
    }
    let busy = b.phase != Phase::Round
        || b.pending.is_some()
        || !b.rows.is_empty()
        || b.result.is_some()
        || b.caught.is_some()
        || b.sides.iter().any(|s| s.faint_queued || s.mon().hp == 0)
        || b.locked(crate::battle::Side::Player);
    busy.then_some(CheckpointCode::BattlePhaseBusy)
}

#[cfg(test)]
mod tests {
    use pallet_api::reasons::CheckpointCode;
    use pallet_api::Runtime;

    use super::boundary_refusal;
    use crate::battle::{Action, Battle, BattleKind};
    use crate::data::gen1;
    use crate::game::BattleSession;
    use crate::pokemon::{Dvs, Pokemon};
    use crate::rng::Rng;

    fn session() -> BattleSession {
        let data = gen1();
        let mon = |name: &str, level| {
            Pokemon::new(
                data,
                data.species_by_name(name).unwrap(),
                level,
                Dvs::uniform(8),
            )
        };
        let mut battle = Battle::new(
            data,
            BattleKind::Wild,
            vec![mon("CHARMANDER", 20)],
            vec![mon("RATTATA", 30)],
            Rng::new(3),
        );
        battle.clear_rows();
        BattleSession {
            battle,
            trainer_key: None,
            prize: 0,
        }
    }

    #[test]
    fn queued_rows_and_link_rules_are_not_a_boundary() {
        let mut s = session();
        assert_eq!(boundary_refusal(&s), None);
        // A round whose rows a front end has not drained yet (still being shown).
        s.battle
            .submit(&Runtime::new(), Action::Move(0), Action::Move(0))
            .unwrap();
        assert_eq!(s.battle.result(), None, "the first round decides nothing");
        assert!(!s.battle.peek_rows().is_empty());
        assert_eq!(boundary_refusal(&s), Some(CheckpointCode::BattlePhaseBusy));
        s.battle.clear_rows();
        assert_eq!(boundary_refusal(&s), None);
        let mut s = session();
        s.battle.set_link_rules(true);
        assert_eq!(
            boundary_refusal(&s),
            Some(CheckpointCode::LinkBattleUnsupported)
        );
    }
}
