//! `inspect`, `capture` and `restore` on a live [`Game`] (RFC 0004; docs/modding-contracts.md,
//! "Checkpoints").

use std::cell::Cell;

#[cfg(feature = "hook-sites")]
use pallet_api::catalog::{common::GameInfo, events};
use pallet_api::facades::{Capability, CheckpointFailure, CheckpointKindTag};
use pallet_api::reasons::CheckpointCode;
use pallet_api::Value;

use super::battle::{boundary_refusal, capture_model, rebuild};
use super::record::{
    first_difference, Checkpoint, Identity, OverworldState, RuntimeState, FORMAT, KIND_BATTLE,
    KIND_OVERWORLD,
};
use crate::game::{BattleSession, Game, Mode};
use crate::save::{self, SaveData, ValidateEnv};
use crate::world::overworld::WarpTarget;
#[cfg(feature = "hook-sites")]
use crate::world::sites;
use crate::world::Overworld;

/// A fault injected into the next restore's reconstruction (tests of the rollback path).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// After installing the checkpoint, damage the first party mon's HP so the verifying
    /// recapture differs (`restore_failed`, rolled back).
    CorruptParty,
    /// As `CorruptParty`, and the rollback's own verification fails too (`rollback_failed`).
    CorruptPartyAndRollback,
}

thread_local! {
    static FAULT: Cell<Option<Fault>> = const { Cell::new(None) };
}

/// Arm (or clear) a one-shot reconstruction fault for the next restore on this thread.
pub fn inject_fault(fault: Option<Fault>) {
    FAULT.with(|f| f.set(fault));
}

fn fail(code: CheckpointCode, message: impl Into<String>) -> CheckpointFailure {
    CheckpointFailure {
        code,
        message: message.into(),
    }
}

/// The player-readable message of a capability refusal.
pub fn refusal_message(code: CheckpointCode) -> &'static str {
    match code {
        CheckpointCode::NotInPlaythrough => "No game is in progress.",
        CheckpointCode::NotOverworld => "Checkpoints need the overworld.",
        CheckpointCode::ScreenBusy => "Close the open screen first.",
        CheckpointCode::TransitionBusy => "Wait for the map transition to finish.",
        CheckpointCode::ScriptBusy => "Wait for the running script to finish.",
        CheckpointCode::AnimationBusy => "Wait for the animation to finish.",
        CheckpointCode::MovementBusy => "Wait for the player to stop on a tile.",
        CheckpointCode::BattlePhaseBusy => "Wait for the battle menu.",
        CheckpointCode::LinkBattleUnsupported => "Link battles cannot be checkpointed.",
        CheckpointCode::BattleOriginUnsupported => {
            "Only wild and trainer encounters can be checkpointed."
        }
        _ => "Checkpoints are not available right now.",
    }
}

fn refuse(kind: CheckpointKindTag, code: CheckpointCode) -> Capability {
    Capability {
        can_capture: false,
        can_restore: false,
        kind,
        refusal: Some(fail(code, refusal_message(code))),
    }
}

/// A deterministic playthrough id: FNV-1a over the canonical save bytes, the RNG state and
/// the tick. No wall clock, no OS randomness.
fn derive_playthrough_id(game: &Game) -> Option<String> {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for b in bytes {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    eat(&save::encode(&game.save).ok()?);
    eat(&rmp_serde::to_vec(&game.rng).ok()?);
    eat(&game.tick.to_le_bytes());
    Some(format!("pt-{h:016x}"))
}

/// `inspect`: the capability record, with its checks in the Lua engine's order. Allocates the
/// playthrough id lazily once a topmost overworld with no open screen is established.
pub fn inspect(game: &mut Game) -> Capability {
    if game.mode == Mode::Title {
        return refuse(CheckpointKindTag::Unknown, CheckpointCode::NotInPlaythrough);
    }
    if game.mode == Mode::Battle {
        return inspect_battle(game);
    }
    if game.mode != Mode::Overworld || game.overworld().is_none() {
        return refuse(CheckpointKindTag::Unknown, CheckpointCode::NotOverworld);
    }
    let busy = game.busy();
    if busy == Some(crate::world::BusyState::Screen) {
        return refuse(CheckpointKindTag::Overworld, CheckpointCode::ScreenBusy);
    }
    if game.save.meta.playthrough_id.is_none() {
        match derive_playthrough_id(game) {
            Some(id) => game.save.meta.playthrough_id = Some(id),
            None => {
                return refuse(
                    CheckpointKindTag::Overworld,
                    CheckpointCode::NotInPlaythrough,
                )
            }
        }
    }
    if let Some(b) = busy {
        return refuse(CheckpointKindTag::Overworld, b.code());
    }
    Capability {
        can_capture: true,
        can_restore: true,
        kind: CheckpointKindTag::Overworld,
        refusal: None,
    }
}

/// Reference `BattleSafety.inspect`, in its order: link battle, origin, overworld scripts
/// (any unsettled overworld under the battle, by its own reason), the battle phase. The
/// playthrough id is allocated lazily once the boundary is safe.
fn inspect_battle(game: &mut Game) -> Capability {
    use CheckpointKindTag::Battle;
    let (Some(ow), Some(session)) = (game.overworld(), game.battle_session()) else {
        return refuse(CheckpointKindTag::Unknown, CheckpointCode::NotOverworld);
    };
    let b = &session.battle;
    if b.link_rules {
        return refuse(Battle, CheckpointCode::LinkBattleUnsupported);
    }
    if b.kind().is_wild() == session.trainer_key.is_some() {
        return refuse(Battle, CheckpointCode::BattleOriginUnsupported);
    }
    if let Some(busy) = ow.busy() {
        return refuse(Battle, busy.code());
    }
    if let Some(code) = boundary_refusal(session) {
        return refuse(Battle, code);
    }
    if game.save.meta.playthrough_id.is_none() {
        match derive_playthrough_id(game) {
            Some(id) => game.save.meta.playthrough_id = Some(id),
            None => return refuse(Battle, CheckpointCode::NotInPlaythrough),
        }
    }
    Capability {
        can_capture: true,
        can_restore: true,
        kind: Battle,
        refusal: None,
    }
}

fn require_capturable(game: &mut Game) -> Result<(), CheckpointFailure> {
    match inspect(game).refusal {
        Some(r) => Err(r),
        None => Ok(()),
    }
}

/// `capture`: a detached, data-only format-1 checkpoint (overworld or battle kind).
///
/// A battle record is also validated as a restore would validate it, so a battle this engine
/// cannot rebuild exactly fails here (`battle_state_invalid`) rather than on restore.
pub fn capture(game: &mut Game) -> Result<Checkpoint, CheckpointFailure> {
    require_capturable(game)?;
    let cp = capture_settled(game)?;
    if cp.runtime.battle.is_some() {
        validate(game, &cp).map_err(|e| {
            fail(
                CheckpointCode::BattleStateInvalid,
                format!("the battle would not restore ({}): {}", e.code, e.message),
            )
        })?;
    }
    Ok(cp)
}

/// Capture without the capability check (the runtime is known to be settled).
fn capture_settled(game: &Game) -> Result<Checkpoint, CheckpointFailure> {
    let ow = game
        .overworld()
        .ok_or_else(|| fail(CheckpointCode::CaptureFailed, "no overworld to capture"))?;
    let p = ow.player();
    let runtime = OverworldState {
        map: ow.map_id().to_owned(),
        x: p.x,
        y: p.y,
        facing: p.facing,
        surfing: p.surfing,
    };
    let mut progress = game.save.clone();
    // Synchronize live map, tile, facing and surf state into the copy (captureSave).
    let (Ok(x), Ok(y)) = (u16::try_from(p.x), u16::try_from(p.y)) else {
        return Err(fail(
            CheckpointCode::CaptureFailed,
            "player position does not fit a save",
        ));
    };
    progress.player.map = runtime.map.clone();
    progress.player.x = x;
    progress.player.y = y;
    progress.player.facing = p.facing;
    progress.player.surfing = p.surfing;
    // Data-only check through the canonical serializer (rejects non-finite numbers, depth…).
    save::encode(&progress).map_err(|e| {
        fail(
            CheckpointCode::CaptureFailed,
            format!("progress is not data: {e}"),
        )
    })?;
    let playthrough_id = progress
        .meta
        .playthrough_id
        .clone()
        .ok_or_else(|| fail(CheckpointCode::CaptureFailed, "no playthrough identity"))?;
    let battle = match game.battle_session() {
        Some(session) if game.mode == Mode::Battle => Some(capture_model(session, &runtime.map)?),
        _ => None,
    };
    Ok(Checkpoint {
        format: FORMAT,
        kind: if battle.is_some() {
            KIND_BATTLE
        } else {
            KIND_OVERWORLD
        }
        .to_owned(),
        identity: Identity {
            engine_version: env!("CARGO_PKG_VERSION").to_owned(),
            game_version: game.version().as_str().to_owned(),
            playthrough_id,
        },
        save: progress,
        runtime: RuntimeState {
            overworld: runtime,
            battle,
        },
        rng: game.rng.clone(),
    })
}

/// Restore's validation step on a script value: root shape, format and kind are checked before
/// the typed record is read, so their codes win over `invalid_checkpoint`.
pub fn validate_value(game: &Game, v: &Value) -> Result<(Checkpoint, Prepared), CheckpointFailure> {
    let Value::Map(root) = v else {
        return Err(fail(
            CheckpointCode::InvalidCheckpoint,
            "a checkpoint is a record",
        ));
    };
    if root.get("format").and_then(Value::as_exact_int) != Some(i64::from(FORMAT)) {
        return Err(fail(
            CheckpointCode::UnsupportedFormat,
            "only checkpoint format 1 is supported",
        ));
    }
    match root.get("kind") {
        Some(Value::Str(k)) if k == KIND_OVERWORLD || k == KIND_BATTLE => {}
        _ => {
            return Err(fail(
                CheckpointCode::UnsupportedRuntimeKind,
                "checkpoint kind must be overworld or battle",
            ))
        }
    }
    let cp = Checkpoint::from_value(v.clone()).map_err(|e| {
        fail(
            CheckpointCode::InvalidCheckpoint,
            format!("malformed checkpoint: {e}"),
        )
    })?;
    let ow = validate(game, &cp)?;
    Ok((cp, ow))
}

/// What a validated checkpoint installs: built detached, before any live mutation.
pub struct Prepared {
    overworld: Overworld,
    battle: Option<BattleSession>,
}

/// Does the canonical save validator change (or report) anything on a copy of `save`?
fn needs_repair(game: &Game, save: &SaveData) -> bool {
    let mut copy = save.clone();
    let maps = game.maps();
    let map_known = |id: &str| maps.get(id).is_some();
    let start = &maps.start;
    let spawn = save::data::MapPoint {
        map: start.map.clone(),
        x: u16::try_from(start.x).unwrap_or(0),
        y: u16::try_from(start.y).unwrap_or(0),
    };
    let env = ValidateEnv {
        data: game.data(),
        map_known: &map_known,
        spawn,
    };
    let report = save::validate(&mut copy, &env);
    !report.is_empty() || copy != *save
}

/// Restore's validation step on a typed record: everything short of live mutation. Returns the
/// detached overworld (and battle) the restore will install.
pub fn validate(game: &Game, cp: &Checkpoint) -> Result<Prepared, CheckpointFailure> {
    use CheckpointCode as C;
    if cp.format != FORMAT {
        return Err(fail(
            C::UnsupportedFormat,
            "only checkpoint format 1 is supported",
        ));
    }
    if cp.kind != KIND_OVERWORLD && cp.kind != KIND_BATTLE {
        return Err(fail(
            C::UnsupportedRuntimeKind,
            "checkpoint kind must be overworld or battle",
        ));
    }
    if cp.identity.game_version != game.version().as_str() {
        return Err(fail(
            C::WrongGame,
            "the checkpoint belongs to another game version",
        ));
    }
    if game.save.meta.playthrough_id.as_deref() != Some(cp.identity.playthrough_id.as_str()) {
        return Err(fail(
            C::WrongPlaythrough,
            "the checkpoint belongs to another playthrough",
        ));
    }
    if cp.save.version.as_str() != cp.identity.game_version
        || cp.save.meta.playthrough_id.as_deref() != Some(cp.identity.playthrough_id.as_str())
    {
        return Err(fail(
            C::InvalidCheckpoint,
            "save identity disagrees with the record",
        ));
    }
    let rt = &cp.runtime.overworld;
    let p = &cp.save.player;
    if p.map != rt.map
        || u32::from(p.x) != rt.x
        || u32::from(p.y) != rt.y
        || p.facing != rt.facing
        || p.surfing != rt.surfing
    {
        return Err(fail(
            C::InvalidCheckpoint,
            "save.player disagrees with runtime.overworld",
        ));
    }
    if game.maps().get(&rt.map).is_none() {
        return Err(fail(C::InvalidMap, format!("unknown map {}", rt.map)));
    }
    let at = WarpTarget::new(&rt.map, rt.x, rt.y, rt.facing);
    let overworld = game
        .checkpoint_overworld(&at, rt.surfing, &cp.save.object_toggles)
        .map_err(|e| fail(C::InvalidPosition, e))?;
    // The canonical validator on a detached copy must change nothing.
    if needs_repair(game, &cp.save) {
        return Err(fail(
            C::InvalidContent,
            "the checkpoint's save needs repair",
        ));
    }
    // Exactly what a normal load accepts: the save's own encoding must decode again (format,
    // header, every field), and its heal point must lie on its map, so a restored game can
    // always be saved and loaded back.
    let Ok(bytes) = save::encode(&cp.save) else {
        return Err(fail(C::InvalidContent, "the checkpoint's save is not data"));
    };
    if let Err(e) = save::decode(&bytes) {
        return Err(fail(
            C::InvalidContent,
            format!("the checkpoint's save would not load: {e}"),
        ));
    }
    let heal = &cp.save.last_heal;
    match game.maps().get(&heal.map) {
        Some(m) if u32::from(heal.x) < m.cell_width() && u32::from(heal.y) < m.cell_height() => {}
        _ => {
            return Err(fail(
                C::InvalidContent,
                format!(
                    "the checkpoint's save has lastHeal {} ({}, {}) outside its map",
                    heal.map, heal.x, heal.y
                ),
            ))
        }
    }
    let battle = match (cp.kind.as_str(), &cp.runtime.battle) {
        (KIND_OVERWORLD, None) => None,
        (KIND_OVERWORLD, Some(_)) => {
            return Err(fail(
                C::InvalidCheckpoint,
                "an overworld checkpoint holds a battle",
            ))
        }
        (_, None) => {
            return Err(fail(
                C::InvalidCheckpoint,
                "a battle checkpoint needs runtime.battle",
            ))
        }
        (_, Some(model)) => {
            // The battle's mons pass the same canonical validator as the save's.
            let mut scratch = cp.save.clone();
            if let Some(store) = &model.capture_store {
                scratch.boxes = store.boxes.clone();
                scratch.current_box = store.current_box;
                scratch.pokedex = store.pokedex.clone();
            }
            for (party, side) in [
                (&model.player_party, "player"),
                (&model.enemy_party, "enemy"),
            ] {
                scratch.party = party.clone();
                if needs_repair(game, &scratch) {
                    return Err(fail(
                        C::InvalidContent,
                        format!("the battle's {side} mons need repair"),
                    ));
                }
            }
            Some(rebuild(model, &rt.map)?)
        }
    };
    Ok(Prepared { overworld, battle })
}

fn bytes(cp: &Checkpoint) -> Result<Vec<u8>, CheckpointFailure> {
    cp.to_bytes()
        .map_err(|e| fail(CheckpointCode::RestoreFailed, format!("cannot encode: {e}")))
}

/// Install `cp` and verify it by recapture; on mismatch return the first differing path.
fn apply_and_verify(
    game: &mut Game,
    cp: &Checkpoint,
    prepared: Prepared,
    fault: Option<Fault>,
) -> Result<(), String> {
    let mut progress = cp.save.clone();
    // Player position is forced from the runtime record.
    progress.player.map = cp.runtime.overworld.map.clone();
    let Prepared { overworld, battle } = prepared;
    game.install_checkpoint(progress, overworld, battle, cp.rng.clone());
    if fault.is_some() {
        if let Some(mon) = game.save.party.first_mut() {
            mon.hp = mon.hp.wrapping_add(1);
        } else {
            game.save.money = game.save.money.wrapping_add(1);
        }
    }
    let mut again = capture_settled(game).map_err(|e| e.message)?;
    // `engineVersion` is metadata (never a reason to reject): compare the rest.
    again.identity.engine_version = cp.identity.engine_version.clone();
    let (a, b) = (
        bytes(cp).map_err(|e| e.message)?,
        bytes(&again).map_err(|e| e.message)?,
    );
    if a == b {
        return Ok(());
    }
    let path = match (cp.to_value(), again.to_value()) {
        (Ok(x), Ok(y)) => first_difference(&x, &y).unwrap_or_else(|| "$".to_owned()),
        _ => "$".to_owned(),
    };
    Err(path)
}

/// `restore`: validate, take a rollback checkpoint, reconstruct, verify, emit.
pub fn restore(game: &mut Game, cp: &Checkpoint) -> Result<(), CheckpointFailure> {
    require_capturable(game)?;
    let prepared = validate(game, cp)?;
    restore_validated(game, cp, prepared, &mut |_| {})
}

/// [`restore`] from a script value (the Rhai/Lua facade path).
pub fn restore_value(game: &mut Game, v: &Value) -> Result<(), CheckpointFailure> {
    restore_value_then(game, v, &mut |_| {})
}

/// [`restore_value`], running `reconcile` after a verified success and before
/// `checkpoint.restored` is emitted (hosts reload their `mod.save` stores there).
pub fn restore_value_then(
    game: &mut Game,
    v: &Value,
    reconcile: &mut dyn FnMut(&Game),
) -> Result<(), CheckpointFailure> {
    require_capturable(game)?;
    let (cp, prepared) = validate_value(game, v)?;
    restore_validated(game, &cp, prepared, reconcile)
}

fn restore_validated(
    game: &mut Game,
    cp: &Checkpoint,
    prepared: Prepared,
    reconcile: &mut dyn FnMut(&Game),
) -> Result<(), CheckpointFailure> {
    let rollback = capture_settled(game)?;
    let fault = FAULT.with(|f| f.take());
    if let Err(path) = apply_and_verify(game, cp, prepared, fault) {
        let rb_fault = match fault {
            Some(Fault::CorruptPartyAndRollback) => fault,
            _ => None,
        };
        let rb_ow = validate(game, &rollback);
        let rolled = match rb_ow {
            Ok(rb_ow) => apply_and_verify(game, &rollback, rb_ow, rb_fault).is_ok(),
            Err(_) => false,
        };
        return Err(if rolled {
            fail(
                CheckpointCode::RestoreFailed,
                format!("the restored state differed at {path}; the game was rolled back"),
            )
        } else {
            fail(
                CheckpointCode::RollbackFailed,
                format!("the restored state differed at {path}, and rolling back failed too"),
            )
        });
    }
    reconcile(game);
    if let Some(ow) = game.overworld() {
        // The active map was rebuilt from the checkpoint (before `checkpoint.restored`).
        crate::world::sites_flow::map_reloaded(&game.rt, ow.map_id(), "checkpoint");
    }
    emit_restored(game, cp.kind == KIND_BATTLE);
    Ok(())
}

fn emit_restored(game: &Game, battle: bool) {
    #[cfg(feature = "hook-sites")]
    if game.rt.wants_event::<events::CheckpointRestored>() {
        game.rt
            .emit::<events::CheckpointRestored>(events::CheckpointRestoredPayload {
                game: GameInfo {
                    version: sites::api_version(game.version()),
                    playthrough_id: game.save.meta.playthrough_id.clone(),
                    map_id: game.overworld().map(|o| o.map_id().to_owned()),
                },
                kind: if battle {
                    events::CheckpointKind::Battle
                } else {
                    events::CheckpointKind::Overworld
                },
            });
    }
    #[cfg(not(feature = "hook-sites"))]
    let _ = (game, battle);
}
