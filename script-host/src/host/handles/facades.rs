//! Live-game facades: `world` (RFC 0013), `checkpoints` (RFC 0004).
//!
//! * `world.active_block_at(mapId, bx, by)` — the block id (an integer) of the active map, read
//!   from the world the engine lends for the current dispatch (`pallet_api::access`). Failures
//!   throw `#{code, message}` with the RFC reasons: `"no overworld"` (also outside any lending
//!   scope), `"map is not active"`, `"invalid block coordinates"`,
//!   `"block coordinates out of bounds"`, `"block unavailable"`.
//! * `checkpoints.inspect()` / `.capture()` / `.restore(cp)` (RFC 0004) — against the game the
//!   engine lends at a safe point (`pallet_engine::checkpoint::lend`). `inspect` returns the
//!   capability record; `capture` a detached record; `restore` `true`. Failures throw
//!   `#{code, message}` with the RFC codes; outside a lending scope they answer `script_busy`
//!   (inside a battle round: `battle_phase_busy`, kind `battle`).
//!
//! The `datasets` handle (RFC 0015) lives in [`super::datasets`].

use pallet_api::access::current_world;
use pallet_api::facades::CheckpointFailure;
use pallet_api::reasons::BlockReadError;
use pallet_api::reasons::CheckpointCode;
use pallet_api::Value;
use pallet_engine::checkpoint::lend::{refusal_outside_loan, with_lent};
use rhai::{Dynamic, Engine, EvalAltResult, Map, INT};

use crate::host::convert::{from_dynamic, to_dynamic};
use crate::host::error::api_error;

#[derive(Clone)]
pub struct World;

#[derive(Clone)]
pub struct Checkpoints;

fn block_message(e: BlockReadError) -> &'static str {
    match e {
        BlockReadError::NoOverworld => "there is no active overworld map right now",
        BlockReadError::MapNotActive => "the map id is not the active map",
        BlockReadError::InvalidBlockCoordinates => "block coordinates must be finite integers",
        BlockReadError::BlockCoordinatesOutOfBounds => "the block is outside the active map",
        BlockReadError::BlockUnavailable => "the active block data is absent or inconsistent",
    }
}

/// `world.active_block_at` against whatever world is lent right now.
pub fn active_block_at(
    map_id: &Dynamic,
    bx: &Dynamic,
    by: &Dynamic,
) -> Result<INT, Box<EvalAltResult>> {
    let map_id = map_id.clone().into_string().unwrap_or_default();
    let bx = from_dynamic(bx).unwrap_or(Value::Nil);
    let by = from_dynamic(by).unwrap_or(Value::Nil);
    current_world(|w| match w {
        None => Err(BlockReadError::NoOverworld),
        Some(w) => w.active_block_at(&map_id, &bx, &by),
    })
    .map(INT::from)
    .map_err(|e| api_error(e.as_str(), block_message(e)))
}

/// Outside an engine lending scope (mid-tick hook dispatch) the runtime is not settled.
const NOT_LENT: &str = "checkpoints are only available at safe points where the engine lends the game (e.g. game.ready)";

fn checkpoint_error(f: CheckpointFailure) -> Box<EvalAltResult> {
    api_error(f.code.as_str(), f.message)
}

/// `checkpoints.inspect()` → `#{canCapture, canRestore, kind[, reason, message]}`.
pub fn checkpoints_inspect() -> Dynamic {
    let cap = with_lent(|lent| match lent {
        Some(mut l) => l.inspect(),
        None => refusal_outside_loan(NOT_LENT),
    });
    let mut m = Map::new();
    m.insert("canCapture".into(), Dynamic::from_bool(cap.can_capture));
    m.insert("canRestore".into(), Dynamic::from_bool(cap.can_restore));
    m.insert("kind".into(), Dynamic::from(cap.kind.as_str().to_owned()));
    if let Some(r) = cap.refusal {
        m.insert("reason".into(), Dynamic::from(r.code.as_str().to_owned()));
        m.insert("message".into(), Dynamic::from(r.message));
    }
    Dynamic::from_map(m)
}

/// The refusal outside a lending scope (`battle_phase_busy` inside a battle round).
fn not_lent() -> Box<EvalAltResult> {
    match refusal_outside_loan(NOT_LENT).refusal {
        Some(f) => checkpoint_error(f),
        None => api_error(CheckpointCode::ScriptBusy.as_str(), NOT_LENT),
    }
}

pub fn register(engine: &mut Engine) {
    engine.register_type_with_name::<World>("World");
    engine.register_fn(
        "active_block_at",
        |_: &mut World, m: Dynamic, x: Dynamic, y: Dynamic| active_block_at(&m, &x, &y),
    );

    engine.register_type_with_name::<Checkpoints>("Checkpoints");
    engine.register_fn("inspect", |_: &mut Checkpoints| checkpoints_inspect());
    engine.register_fn(
        "capture",
        |_: &mut Checkpoints| -> Result<Dynamic, Box<EvalAltResult>> {
            with_lent(|lent| match lent {
                Some(mut l) => l
                    .capture()
                    .map(|v| to_dynamic(&v))
                    .map_err(checkpoint_error),
                None => Err(not_lent()),
            })
        },
    );
    engine.register_fn(
        "restore",
        |_: &mut Checkpoints, cp: Dynamic| -> Result<bool, Box<EvalAltResult>> {
            let v = from_dynamic(&cp).map_err(|e| {
                api_error(
                    CheckpointCode::InvalidCheckpoint.as_str(),
                    format!("not data: {e}"),
                )
            })?;
            with_lent(|lent| match lent {
                Some(mut l) => l.restore(&v).map(|()| true).map_err(checkpoint_error),
                None => Err(not_lent()),
            })
        },
    );
}
