//! The detached validation and rebuild: check a battle model completely and build the battle
//! session it describes, touching nothing live.

use pallet_api::facades::CheckpointFailure;
use pallet_api::reasons::CheckpointCode;

use crate::battle::capture::CaptureStore;
use crate::battle::state::{flag, CurMove, NEUTRAL_STAGE};
use crate::battle::{
    Battle, BattleKind, BattleStyle, Battler, Field, OhkoState, Phase, Screens, SideState, Token,
};
use crate::content::trainers::TRAINERS;
use crate::data::{gen1, Dataset};
use crate::game::BattleSession;
use crate::pokemon::{Boxes, Pokemon, MOVE_SLOTS};
use crate::save::record::MonRecord;

use super::capture::finite;
use super::names::{
    effect_by_name, indices_to_bits, move_by_id, species_by_id, type_by_id, VOLATILE,
};
use super::{
    fail, BattleModel, BattlerRecord, CaptureStoreRecord, SideRecord, TokenRecord, MAX_PAY_DAY,
    MAX_TURN, ORIGIN_TRAINER, ORIGIN_WILD, PHASE_MENU,
};

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
        // Transient (a bag-item choice's target, read inside its round only).
        item_target: _,
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
