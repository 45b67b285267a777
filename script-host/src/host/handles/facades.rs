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
//! * `world.current()`, `.map_overview()`, `.replace_block(bx, by, block)`,
//!   `.queue_script(rows)`, `.get_flag(name)` / `.set_flag(name[, value])`,
//!   `.spawn_npc(mapId, def)` / `.remove_npc(id)`, `.toggle_object(mapId, objName, visible)`, `.start_wild_battle(species, level)`,
//!   `.give_item(item[, count])`, `.give_pokemon(species, level)` (issue 17), `.try_run()`
//!   (issue 18) — semantic
//!   actions of `pallet_engine::world_facade` on the game lent at a safe point; refusals throw
//!   `#{code, message}` with the stable reason (`"world is busy"`, `"a battle is already
//!   running"`, `"unknown species"`, …).
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

/// `world`, carrying its mod's id (a mid-tick action deferred to the end of the tick reports a
/// refusal on that mod's log).
#[derive(Clone)]
pub struct World {
    pub owner: std::rc::Rc<str>,
}

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

/// A `world` facade method (issue 17) by its snake_case name: one implementation in
/// `pallet_engine::world_facade`; a refusal throws `#{code, message}` with the stable reason.
fn world_call(w: &World, method: &str, args: &[Dynamic]) -> Result<Dynamic, Box<EvalAltResult>> {
    let mut values = Vec::with_capacity(args.len());
    for a in args {
        values.push(from_dynamic(a).map_err(|e| api_error("invalid argument", e.to_string()))?);
    }
    pallet_engine::world_facade::call_lent_by(Some(&w.owner), method, &values)
        .map(|v| to_dynamic(&v))
        .map_err(|f| api_error(f.reason, f.message))
}

type R = Result<Dynamic, Box<EvalAltResult>>;

fn register_world(engine: &mut Engine) {
    engine.register_fn("current", |w: &mut World| -> R {
        world_call(w, "current", &[])
    });
    engine.register_fn("map_overview", |w: &mut World| -> R {
        world_call(w, "map_overview", &[])
    });
    engine.register_fn("overworld", |w: &mut World| -> R {
        world_call(w, "overworld", &[])
    });
    engine.register_fn(
        "replace_block",
        |w: &mut World, x: Dynamic, y: Dynamic, b: Dynamic| -> R {
            world_call(w, "replace_block", &[x, y, b])
        },
    );
    engine.register_fn("queue_script", |w: &mut World, rows: Dynamic| -> R {
        world_call(w, "queue_script", &[rows])
    });
    engine.register_fn("get_flag", |w: &mut World, name: Dynamic| -> R {
        world_call(w, "get_flag", &[name])
    });
    engine.register_fn("set_flag", |w: &mut World, name: Dynamic| -> R {
        world_call(w, "set_flag", &[name])
    });
    engine.register_fn(
        "effective_encounters",
        |w: &mut World, map_id: Dynamic| -> R { world_call(w, "effective_encounters", &[map_id]) },
    );
    engine.register_fn(
        "effective_encounters",
        |w: &mut World, map_id: Dynamic, terrain: Dynamic| -> R {
            world_call(w, "effective_encounters", &[map_id, terrain])
        },
    );
    engine.register_fn(
        "set_flag",
        |w: &mut World, name: Dynamic, v: Dynamic| -> R { world_call(w, "set_flag", &[name, v]) },
    );
    engine.register_fn(
        "spawn_npc",
        |w: &mut World, map: Dynamic, def: Dynamic| -> R {
            world_call(w, "spawn_npc", &[map, def])
        },
    );
    engine.register_fn("remove_npc", |w: &mut World, id: Dynamic| -> R {
        world_call(w, "remove_npc", &[id])
    });
    engine.register_fn(
        "toggle_object",
        |w: &mut World, map: Dynamic, obj: Dynamic, visible: Dynamic| -> R {
            world_call(w, "toggle_object", &[map, obj, visible])
        },
    );
    engine.register_fn(
        "start_wild_battle",
        |w: &mut World, species: Dynamic, level: Dynamic| -> R {
            world_call(w, "start_wild_battle", &[species, level])
        },
    );
    engine.register_fn(
        "start_wild_battle",
        |w: &mut World, species: Dynamic, level: Dynamic, dvs: Dynamic| -> R {
            world_call(w, "start_wild_battle", &[species, level, dvs])
        },
    );
    engine.register_fn("try_run", |w: &mut World| -> R {
        world_call(w, "try_run", &[])
    });
    engine.register_fn("give_item", |w: &mut World, item: Dynamic| -> R {
        world_call(w, "give_item", &[item])
    });
    engine.register_fn(
        "give_item",
        |w: &mut World, item: Dynamic, n: Dynamic| -> R { world_call(w, "give_item", &[item, n]) },
    );
    engine.register_fn(
        "give_pokemon",
        |w: &mut World, species: Dynamic, level: Dynamic| -> R {
            world_call(w, "give_pokemon", &[species, level])
        },
    );
}

/// `world.game_save()`: the save as a copy (`pallet_engine::game_view::save_view`, the view
/// Lua links read as `game.save`, in Pallet's spellings).
fn game_save() -> R {
    pallet_engine::game_view::save_view()
        .map(|v| to_dynamic(&v))
        .map_err(|m| api_error(pallet_engine::game_view::UNAVAILABLE, m))
}

/// `world.set_game_save(field, value)`: `coins` or `money`, at a safe point.
fn set_game_save(field: &str, value: &Dynamic) -> R {
    let v = from_dynamic(value).map_err(|e| api_error("invalid argument", e.to_string()))?;
    pallet_engine::game_view::write_save_field_why(field, &v)
        .map(|()| Dynamic::TRUE)
        .map_err(|(code, message)| api_error(code, message))
}

pub fn register(engine: &mut Engine) {
    engine.register_type_with_name::<World>("World");
    register_world(engine);
    engine.register_fn("game_save", |_: &mut World| game_save());
    engine.register_fn(
        "set_game_save",
        |_: &mut World, field: &str, value: Dynamic| set_game_save(field, &value),
    );
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
