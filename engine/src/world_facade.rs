//! The `world` facade (`mod.world`): one implementation of every method for both script hosts
//! (Rhai calls it by the snake_case name, the Lua shim by the Lua engine's camelCase name via
//! [`pallet_api::facades::WORLD_METHODS`]).
//!
//! Each method is a **semantic action** on a [`Game`] the engine lends at a safe point
//! ([`crate::checkpoint::lend`]: `game.ready`, a `pallet run` `signal`, a play-session
//! signal): its arguments are validated (unknown ids get a did-you-mean), it is refused with a
//! stable reason at an unsafe moment, and what it returns is a copy — never a handle on live
//! state. Outside a safe point (a hook or event dispatched mid-tick) there is no game to act
//! on: the reads (`current`, `map_overview`, `overworld`, `get_flag`) answer from the engine's
//! published copies ([`crate::world_reads`]); `spawn_npc`, `remove_npc`, `start_wild_battle`
//! and `set_flag` are checked and deferred to the end of the tick ([`crate::world_deferred`]); every other
//! method is refused the way `checkpoints` refuses it: `"a battle is already running"` inside a
//! battle round (where nothing is deferred either), else `"world is busy"`.

use std::collections::BTreeMap;

use pallet_api::facades::{block_coordinate, WorldFailure};
use pallet_api::suggest::did_you_mean;
use pallet_api::Value;

use crate::checkpoint::lend::unsettled_refusal;
use crate::game::lend::with_lent;
use crate::game::{Game, Mode};
use crate::world::{BusyState, Direction, ScriptRow};
use crate::world_deferred::Action;
pub use crate::world_deferred::DEFERRABLE;
use crate::world_values::{flag_name, overview_of, position_value, string_arg};
pub use crate::world_values::{
    BATTLE_RUNNING, CANNOT_RUN, INVALID_DVS, INVALID_FLAG, INVALID_NPC, MAP_NOT_LIVE, MID_WARP,
    NO_BATTLE, NO_HEALTHY_PARTY, NO_OVERWORLD, TRAINER_BATTLE, UNKNOWN_SPECIES,
};

pub const WORLD_BUSY: &str = "world is busy";
pub const SCRIPT_RUNNING: &str = "a script is already running";
pub const BAD_LEVEL: &str = "level must be a whole number 1..100";
pub const UNKNOWN_ITEM: &str = "unknown item";
pub const BAD_COUNT: &str = "count must be a whole number 1..99";
pub const BAG_FULL: &str = "bag is full";
pub const NO_ROOM: &str = "no room for the pokemon";
pub const UNKNOWN_MAP: &str = "unknown map";
pub const INVALID_SCRIPT: &str = "invalid script";
pub const INVALID_BLOCK: &str = "invalid block";
pub const UNKNOWN_METHOD: &str = "unknown method";
pub const UNKNOWN_OBJECT: &str = "unknown object";
pub const BAD_VISIBLE: &str = "visible must be a boolean";
pub const UNKNOWN_TERRAIN: &str = "unknown terrain";

fn fail(reason: &'static str, message: impl Into<String>) -> WorldFailure {
    WorldFailure::new(reason, message)
}

/// Call `method` (snake_case) on the game lent right now; refused outside a safe point.
pub fn call_lent(method: &str, args: &[Value]) -> Result<Value, WorldFailure> {
    call_lent_by(None, method, args)
}

/// [`call_lent`] for the mod `owner`. Mid-tick (no game lent, outside a battle round) the
/// reads answer from the engine's published copies, the [`DEFERRABLE`] writes are checked and
/// queued for the end of the tick (a refusal when applied goes to `owner`'s log), and every
/// other method is refused.
pub fn call_lent_by(
    owner: Option<&str>,
    method: &str,
    args: &[Value],
) -> Result<Value, WorldFailure> {
    with_lent(|lent| match lent {
        Some(l) => call(l.game, method, args),
        None => {
            crate::world_reads::read(method, args).unwrap_or_else(|| defer(owner, method, args))
        }
    })
}

/// A mid-tick write: queued when it may be ([`DEFERRABLE`], not inside a battle round), its
/// arguments checked now; the answer is what the method answers once applied.
fn defer(owner: Option<&str>, method: &str, args: &[Value]) -> Result<Value, WorldFailure> {
    // A run is asked from inside the battle (its opening: `battle.started`; a round's
    // events), where nothing else is deferred.
    if method == "try_run" {
        crate::world_deferred::push(owner, Action::TryRun)?;
        return Ok(Value::Bool(true));
    }
    if !DEFERRABLE.contains(&method) || unsettled_refusal().is_some() {
        return Err(outside_safe_point());
    }
    let arg = |i: usize| args.get(i).unwrap_or(&Value::Nil);
    let (action, answer) = match method {
        "spawn_npc" => deferred_spawn(arg(0), arg(1))?,
        "remove_npc" => {
            let id = string_arg(arg(0), INVALID_NPC, "npc id")?.to_owned();
            let map = crate::world_reads::with_published(|p| p.map(|p| p.map_id.to_owned()));
            (Action::RemoveNpc { map, id }, Value::Bool(true))
        }
        "start_wild_battle" => {
            let species = string_arg(arg(0), UNKNOWN_SPECIES, "species")?.to_owned();
            let level = level_arg(arg(1))?;
            let dvs = dvs_arg(arg(2))?;
            (
                Action::StartWildBattle {
                    species,
                    level,
                    dvs,
                },
                Value::Bool(true),
            )
        }
        _ => {
            let name = flag_name(arg(0))?.to_owned();
            let on = set_flag_value(arg(1));
            (Action::SetFlag { name, on }, Value::Bool(on))
        }
    };
    crate::world_deferred::push(owner, action)?;
    Ok(answer)
}

/// The refusal outside a lending scope.
pub fn outside_safe_point() -> WorldFailure {
    match unsettled_refusal() {
        Some(_) => fail(
            BATTLE_RUNNING,
            "the world cannot act while a battle round is being resolved",
        ),
        None => fail(
            WORLD_BUSY,
            "the world acts only at safe points (game.ready, input.step, core.update, a signal \
             between ticks); from a hook or event dispatched mid-tick it only reads, and \
             defers spawn_npc, remove_npc, start_wild_battle and set_flag to the end of the tick",
        ),
    }
}

/// Call `method` (snake_case) on `game`.
pub fn call(game: &mut Game, method: &str, args: &[Value]) -> Result<Value, WorldFailure> {
    let arg = |i: usize| args.get(i).unwrap_or(&Value::Nil);
    match method {
        "current" => current(game),
        "map_overview" => map_overview(game),
        "overworld" => overworld(game),
        "replace_block" => replace_block(game, arg(0), arg(1), arg(2)),
        "queue_script" => queue_script(game, arg(0)),
        "get_flag" => get_flag(game, arg(0)),
        "effective_encounters" => effective_encounters(game, arg(0), arg(1)),
        "set_flag" => set_flag(game, arg(0), arg(1)),
        "spawn_npc" => spawn_npc(game, arg(0), arg(1)),
        "remove_npc" => remove_npc(game, arg(0)),
        "toggle_object" => toggle_object(game, arg(0), arg(1), arg(2)),
        "start_wild_battle" => start_wild_battle(game, arg(0), arg(1), arg(2)),
        "try_run" => try_run(game),
        "give_item" => give_item(game, arg(0), arg(1)),
        "give_pokemon" => give_pokemon(game, arg(0), arg(1)),
        other => Err(fail(
            UNKNOWN_METHOD,
            format!("world has no method {other:?}"),
        )),
    }
}

// ----- shared checks -------------------------------------------------------------------------

fn need_overworld(game: &Game) -> Result<(), WorldFailure> {
    if game.overworld().is_none() {
        return Err(fail(NO_OVERWORLD, "there is no overworld right now"));
    }
    Ok(())
}

/// The world may change: an overworld, no battle, and (when `idle`) nothing in progress.
fn need_settled(game: &Game, idle: bool) -> Result<(), WorldFailure> {
    need_overworld(game)?;
    if game.mode == Mode::Battle {
        return Err(fail(
            BATTLE_RUNNING,
            "the world waits for the battle to end",
        ));
    }
    if idle {
        if let Some(b) = game.busy() {
            return Err(fail(
                WORLD_BUSY,
                format!("the overworld is busy ({})", b.as_str()),
            ));
        }
    }
    Ok(())
}

fn species_arg(game: &Game, v: &Value) -> Result<String, WorldFailure> {
    let name = string_arg(v, UNKNOWN_SPECIES, "species")?;
    let data = game.data();
    match data.species_by_name(name) {
        Some(id) => Ok(data.species(id).id.to_owned()),
        None => Err(fail(
            UNKNOWN_SPECIES,
            format!(
                "unknown species {name:?}{}",
                did_you_mean(name, data.species.iter().map(|s| s.id))
            ),
        )),
    }
}

fn level_arg(v: &Value) -> Result<u8, WorldFailure> {
    match v.as_exact_int() {
        Some(l) if (1..=100).contains(&l) => Ok(l as u8),
        _ => Err(fail(BAD_LEVEL, format!("level {v:?} is not 1..100"))),
    }
}

// ----- reads ---------------------------------------------------------------------------------

/// `current()` → `{mapId, x, y, facing, surfing}` (a copy).
fn current(game: &Game) -> Result<Value, WorldFailure> {
    need_overworld(game)?;
    let ow = game.overworld().expect("checked");
    let p = ow.player();
    Ok(position_value(ow.map_id(), p.x, p.y, p.facing, p.surfing))
}

/// `map_overview()` → `{mapId, width, height, rows, markers}`: one string per cell row (`+`
/// warp, `~` water, `.` walkable, space blocked) and `{kind = "warp", x, y}` markers.
fn map_overview(game: &Game) -> Result<Value, WorldFailure> {
    need_overworld(game)?;
    Ok(overview_of(game.overworld().expect("checked")))
}

/// `overworld()` → `{map, player, entities}` (a copy; see [`crate::world_values::overworld_of`]).
fn overworld(game: &Game) -> Result<Value, WorldFailure> {
    need_overworld(game)?;
    Ok(crate::world_values::overworld_of(
        game.overworld().expect("checked"),
    ))
}

fn get_flag(game: &Game, name: &Value) -> Result<Value, WorldFailure> {
    let name = flag_name(name)?;
    Ok(Value::Bool(game.flag(name)))
}

/// `effective_encounters(mapId, terrain = "grass")` → `{chance, dist}`: the wild table a step
/// on `mapId` would roll on now, after the `encounter.table` chain (raised with `ctx.preview =
/// true`; nothing is rolled, no randomness drawn). `chance` is the per-step rate out of 256,
/// `dist` the slots in roll order `{species, level, weight}` (weight out of 256, Gen 1's slot
/// odds; a table with fewer than ten slots folds the rest into its last). Terrain `"grass"`
/// and `"indoor"` (caves roll the same table) preview the map's table; `"water"` answers
/// `{chance = 0, dist = {}}` (Pallet has no water encounters).
fn effective_encounters(
    game: &Game,
    map_id: &Value,
    terrain: &Value,
) -> Result<Value, WorldFailure> {
    use crate::world::encounters::SLOT_LIMITS;
    let map_id = string_arg(map_id, UNKNOWN_MAP, "map id")?;
    let Some(def) = game.maps().get(map_id) else {
        return Err(fail(
            UNKNOWN_MAP,
            format!(
                "unknown map {map_id:?}{}",
                did_you_mean(map_id, game.maps().maps.keys().map(String::as_str))
            ),
        ));
    };
    let terrain = match terrain {
        Value::Nil => "grass",
        Value::Str(t) if matches!(t.as_str(), "grass" | "indoor" | "water") => t.as_str(),
        other => {
            return Err(fail(
                UNKNOWN_TERRAIN,
                format!("terrain must be \"grass\", \"water\" or \"indoor\", got {other:?}"),
            ))
        }
    };
    let empty = || Value::map([("chance", Value::Int(0)), ("dist", Value::List(Vec::new()))]);
    if terrain == "water" {
        return Ok(empty());
    }
    let table = crate::world::encounter_table(
        &game.rt,
        game.data(),
        &def.id,
        None,
        def.encounters.as_ref(),
    );
    let Some(table) = table.filter(|t| !t.grass.is_empty()) else {
        return Ok(empty());
    };
    let mut weights = vec![0i64; table.grass.len()];
    let mut below = 0i64;
    for (i, &limit) in SLOT_LIMITS.iter().enumerate() {
        let top = i64::from(limit) + 1;
        weights[i.min(table.grass.len() - 1)] += top - below;
        below = top;
    }
    let dist = table
        .grass
        .iter()
        .zip(weights)
        .map(|(s, w)| {
            Value::map([
                ("species", Value::from(s.species.as_str())),
                ("level", Value::Int(s.level.into())),
                ("weight", Value::Int(w)),
            ])
        })
        .collect();
    Ok(Value::map([
        ("chance", Value::Int(table.grass_rate.into())),
        ("dist", Value::List(dist)),
    ]))
}

// ----- actions -------------------------------------------------------------------------------

/// `replace_block(bx, by, block)`: the active map only (runtime; emits `world.block_replaced`).
fn replace_block(
    game: &mut Game,
    bx: &Value,
    by: &Value,
    block: &Value,
) -> Result<Value, WorldFailure> {
    need_settled(game, false)?;
    let coord = |v: &Value| {
        block_coordinate(v)
            .map_err(|e| fail(e.as_str(), "block coordinates must be finite integers"))
    };
    let (bx, by) = (coord(bx)?, coord(by)?);
    let block = match block.as_exact_int() {
        Some(b) if b >= 0 => b,
        _ => return Err(fail(INVALID_BLOCK, "a block id is a non-negative integer")),
    };
    let (w, h) = game.overworld().expect("checked").map().dims();
    let in_range = |v: i64, n: u32| u32::try_from(v).ok().filter(|&v| v < n);
    let (Some(bx), Some(by)) = (in_range(bx, w), in_range(by, h)) else {
        return Err(fail(
            "block coordinates out of bounds",
            format!("block ({bx}, {by}) is outside the {w}x{h} map"),
        ));
    };
    let block = u32::try_from(block).map_err(|_| fail(INVALID_BLOCK, "block id too large"))?;
    match game.with_world(|ow, ctx| ow.replace_block(bx, by, block, ctx)) {
        Some(Ok(())) => Ok(Value::Bool(true)),
        Some(Err(e)) => Err(fail(INVALID_BLOCK, e)),
        None => Err(fail(NO_OVERWORLD, "there is no overworld right now")),
    }
}

/// `queue_script(rows)`: rows as data (`{cmd = "text", text = …}`, …), refused while a script
/// runs.
fn queue_script(game: &mut Game, rows: &Value) -> Result<Value, WorldFailure> {
    need_settled(game, false)?;
    let ow = game.overworld().expect("checked");
    if ow.runner().busy() {
        return Err(fail(SCRIPT_RUNNING, "another script is running"));
    }
    if ow.busy() == Some(BusyState::Transition) {
        return Err(fail(WORLD_BUSY, "the world is mid-warp"));
    }
    let list = match rows {
        Value::List(l) if !l.is_empty() => l,
        _ => return Err(fail(INVALID_SCRIPT, "a script is a non-empty list of rows")),
    };
    let mut parsed = Vec::with_capacity(list.len());
    for (i, row) in list.iter().enumerate() {
        let row: ScriptRow = pallet_api::value::from_value(row.clone())
            .map_err(|e| fail(INVALID_SCRIPT, format!("row {}: {e}", i + 1)))?;
        parsed.push(row);
    }
    game.queue_script("world.queue_script", parsed)
        .map_err(|e| fail(SCRIPT_RUNNING, e.to_string()))?;
    Ok(Value::Bool(true))
}

/// A mid-tick `spawn_npc`: checked against the published overworld (the active map, the
/// cell free of the player, NPCs and spawns already queued), its id reserved and answered now.
fn deferred_spawn(map_id: &Value, def: &Value) -> Result<(Action, Value), WorldFailure> {
    let map_id = string_arg(map_id, UNKNOWN_MAP, "map id")?.to_owned();
    let npc = npc_spec(def)?;
    crate::world_reads::with_published(|p| {
        let Some(p) = p else {
            return Err(fail(NO_OVERWORLD, "there is no overworld right now"));
        };
        if p.map_id != map_id {
            return Err(fail(
                MAP_NOT_LIVE,
                format!("{map_id} is not the active map ({})", p.map_id),
            ));
        }
        let (x, y) = npc.at;
        if x >= p.size.0 || y >= p.size.1 {
            return Err(fail(INVALID_NPC, "npc position out of bounds"));
        }
        let queued = crate::world_deferred::reserved_cells(&map_id);
        let occupied = p.player.contains(&npc.at)
            || p.npcs.iter().any(|n| (n.1, n.2) == npc.at)
            || queued.contains(&npc.at);
        if occupied {
            return Err(fail(INVALID_NPC, "npc position is occupied"));
        }
        let reserved = crate::world_deferred::reserved_npc_ids(&map_id);
        let id = crate::world::objects::npc_id_free_of(&npc.name, |id| {
            p.npcs.iter().any(|n| n.0 == id) || reserved.iter().any(|r| r == id)
        });
        let action = Action::SpawnNpc {
            map: map_id.clone(),
            id: id.clone(),
            at: npc.at,
            facing: npc.facing,
            text: npc.text,
        };
        Ok((action, Value::Str(id)))
    })
}

/// `set_flag`'s value: absent sets, else its truthiness.
fn set_flag_value(value: &Value) -> bool {
    match value {
        Value::Nil => true,
        other => other.truthy(),
    }
}

/// `set_flag(name, value)`: raises `flag.changed` on a real change.
fn set_flag(game: &mut Game, name: &Value, value: &Value) -> Result<Value, WorldFailure> {
    let name = string_arg(name, INVALID_FLAG, "flag name")?.to_owned();
    need_settled(game, false)?;
    let on = set_flag_value(value);
    game.set_flag(&name, on);
    Ok(Value::Bool(on))
}

/// `spawn_npc(mapId, {name, x, y, facing?, text?})` → the NPC's id (its name, or `name#2`, …
/// when that is taken). The active map only; a runtime object, not saved, and no
/// `world.object_toggled` (the reference raises that from `toggleObject` only).
fn spawn_npc(game: &mut Game, map_id: &Value, def: &Value) -> Result<Value, WorldFailure> {
    need_settled(game, true)?;
    let map_id = string_arg(map_id, UNKNOWN_MAP, "map id")?;
    let active = game.overworld().expect("checked").map_id().to_owned();
    if map_id != active {
        if game.maps().get(map_id).is_none() {
            return Err(fail(
                UNKNOWN_MAP,
                format!(
                    "unknown map {map_id:?}{}",
                    did_you_mean(map_id, game.maps().maps.keys().map(String::as_str))
                ),
            ));
        }
        return Err(fail(
            MAP_NOT_LIVE,
            format!("{map_id} is not the active map ({active})"),
        ));
    }
    let npc = npc_spec(def)?;
    match game.with_world(|ow, _| ow.spawn_npc(&npc.name, npc.at, npc.facing, &npc.text)) {
        Some(Ok(id)) => Ok(Value::Str(id)),
        Some(Err(e)) => Err(fail(INVALID_NPC, e)),
        None => Err(fail(NO_OVERWORLD, "there is no overworld right now")),
    }
}

/// `spawn_npc`'s `{name, x, y, facing?, text?}`, checked.
struct NpcSpec {
    name: String,
    at: (u32, u32),
    facing: Direction,
    text: String,
}

fn npc_spec(def: &Value) -> Result<NpcSpec, WorldFailure> {
    let name = string_arg(
        def.get("name").unwrap_or(&Value::Nil),
        INVALID_NPC,
        "npc name",
    )?
    .to_owned();
    let cell = |k: &str| {
        def.get(k)
            .and_then(Value::as_exact_int)
            .and_then(|v| u32::try_from(v).ok())
            .ok_or_else(|| {
                fail(
                    INVALID_NPC,
                    format!("npc {k} must be a non-negative integer"),
                )
            })
    };
    let (x, y) = (cell("x")?, cell("y")?);
    let facing = match def.get("facing").and_then(Value::as_str) {
        None => Direction::Down,
        Some(name) => Direction::parse(name)
            .ok_or_else(|| fail(INVALID_NPC, format!("facing {name:?} is not a direction")))?,
    };
    let text = match def.get("text") {
        None | Some(Value::Nil) => String::new(),
        Some(Value::Str(s)) => s.clone(),
        Some(_) => return Err(fail(INVALID_NPC, "npc text must be a string")),
    };
    Ok(NpcSpec {
        name,
        at: (x, y),
        facing,
        text,
    })
}

/// `remove_npc(id)`: an NPC of the active map (not saved; no `world.object_toggled`).
fn remove_npc(game: &mut Game, id: &Value) -> Result<Value, WorldFailure> {
    need_settled(game, true)?;
    let id = string_arg(id, INVALID_NPC, "npc id")?.to_owned();
    match game.with_world(|ow, _| ow.remove_npc(&id)) {
        Some(Ok(())) => Ok(Value::Bool(true)),
        Some(Err(e)) => Err(fail(INVALID_NPC, format!("{e}: {id:?}"))),
        None => Err(fail(NO_OVERWORLD, "there is no overworld right now")),
    }
}

/// `toggle_object(mapId, objName, visible)`: the save's toggle, `world.object_toggled`, then
/// (the active map) a reload and `map.reloaded`. Refused mid-battle; for the active map also
/// mid-script and mid-transition (the reload would pull the map from under them).
fn toggle_object(
    game: &mut Game,
    map_id: &Value,
    obj: &Value,
    visible: &Value,
) -> Result<Value, WorldFailure> {
    use crate::world::objects::{check_toggle, ToggleError};
    let map_id = string_arg(map_id, UNKNOWN_MAP, "map id")?.to_owned();
    let obj = string_arg(obj, UNKNOWN_OBJECT, "object name")?.to_owned();
    let visible = match visible {
        Value::Bool(b) => *b,
        other => {
            return Err(fail(
                BAD_VISIBLE,
                format!("visible must be a boolean, got {}", other.type_name()),
            ))
        }
    };
    let to_failure = |e: ToggleError| match e {
        ToggleError::UnknownMap(m) => fail(UNKNOWN_MAP, m),
        ToggleError::UnknownObject(m) => fail(UNKNOWN_OBJECT, m),
    };
    check_toggle(game.maps(), &map_id, &obj).map_err(to_failure)?;
    need_overworld(game)?;
    let active = game.overworld().expect("checked").map_id() == map_id;
    need_settled(game, active)?;
    match game.with_world(|ow, ctx| ow.toggle_object(&map_id, &obj, visible, ctx)) {
        Some(Ok(())) => Ok(Value::Bool(visible)),
        Some(Err(e)) => Err(to_failure(e)),
        None => Err(fail(NO_OVERWORLD, "there is no overworld right now")),
    }
}

/// `start_wild_battle(species, level)`: the reference's checks, in order.
fn start_wild_battle(
    game: &mut Game,
    species: &Value,
    level: &Value,
    dvs: &Value,
) -> Result<Value, WorldFailure> {
    let species = species_arg(game, species)?;
    let level = level_arg(level)?;
    let dvs = dvs_arg(dvs)?;
    need_overworld(game)?;
    if game.mode == Mode::Battle {
        return Err(fail(BATTLE_RUNNING, "a battle is already running"));
    }
    if game.busy() == Some(BusyState::Transition) {
        return Err(fail(MID_WARP, "the world is mid-warp"));
    }
    if !game.save.party.iter().any(|m| m.hp > 0) {
        return Err(fail(NO_HEALTHY_PARTY, "the party has no healthy POKéMON"));
    }
    game.start_wild_battle_with(&species, level, dvs)
        .map_err(|e| fail(UNKNOWN_SPECIES, e.to_string()))?;
    Ok(Value::Bool(game.mode == Mode::Battle))
}

/// `start_wild_battle`'s optional third argument: the wild mon's DVs `#{atk, def, spe, spc}`,
/// each a whole number 0..15 (absent: rolled).
fn dvs_arg(v: &Value) -> Result<Option<crate::pokemon::Dvs>, WorldFailure> {
    let bad = |why: String| fail(INVALID_DVS, why);
    let m = match v {
        Value::Nil => return Ok(None),
        Value::Map(m) => m,
        _ => return Err(bad("dvs must be #{atk, def, spe, spc}".to_owned())),
    };
    if let Some(k) = m
        .keys()
        .find(|k| !["atk", "def", "spe", "spc"].contains(&k.as_str()))
    {
        return Err(bad(format!("dvs has no field {k:?} (atk, def, spe, spc)")));
    }
    let dv = |k: &str| match m.get(k).map(Value::as_exact_int) {
        Some(Some(n)) if (0..=15).contains(&n) => Ok(n as u8),
        _ => Err(bad(format!("dvs.{k} must be a whole number 0..15"))),
    };
    Ok(Some(crate::pokemon::Dvs {
        atk: dv("atk")?,
        def: dv("def")?,
        spe: dv("spe")?,
        spc: dv("spc")?,
    }))
}

/// `try_run()`: run from the current wild battle now (through `battle.run`); `true` once the
/// escape was tried (the battle ended, or the enemy took its turn after a failed escape).
fn try_run(game: &mut Game) -> Result<Value, WorldFailure> {
    game.try_run()
        .map_err(|(reason, message)| fail(reason, message))?;
    Ok(Value::Bool(true))
}

/// `give_item(item, count = 1)` → the stack's new count.
fn give_item(game: &mut Game, item: &Value, count: &Value) -> Result<Value, WorldFailure> {
    let name = string_arg(item, UNKNOWN_ITEM, "item id")?;
    let data = game.data();
    let Some(num) = data.item_by_name(name) else {
        return Err(fail(
            UNKNOWN_ITEM,
            format!(
                "unknown item {name:?}{}",
                did_you_mean(name, data.items.iter().map(|i| i.id))
            ),
        ));
    };
    let id = data.item(num).id;
    let count = match count {
        Value::Nil => 1,
        v => match v.as_exact_int() {
            Some(c) if (1..=99).contains(&c) => c as u32,
            _ => return Err(fail(BAD_COUNT, format!("count {v:?} is not 1..99"))),
        },
    };
    need_settled(game, false)?;
    use crate::save::data::{ItemStack, BAG_CAPACITY, MAX_ITEM_COUNT};
    let bag = &mut game.save.inventory;
    let full = bag.len() >= BAG_CAPACITY;
    let total = match bag.iter_mut().find(|s| s.id == id) {
        Some(s) => {
            s.count = (s.count + count).min(MAX_ITEM_COUNT);
            s.count
        }
        None if full => {
            return Err(fail(
                BAG_FULL,
                format!("the bag holds {BAG_CAPACITY} kinds of item"),
            ))
        }
        None => {
            bag.push(ItemStack {
                id: id.to_owned(),
                count,
            });
            count
        }
    };
    Ok(Value::Int(total.into()))
}

/// `give_pokemon(species, level)`: the engine's gift path (`pokemon.give`,
/// `pokemon.before_give`, `pokemon.received`). Returns `{species, level, destination}` of what
/// arrived, or `nil` when a `pokemon.give` link cancelled the gift.
fn give_pokemon(game: &mut Game, species: &Value, level: &Value) -> Result<Value, WorldFailure> {
    let species = species_arg(game, species)?;
    let level = level_arg(level)?;
    need_settled(game, false)?;
    let party = game.save.party.len();
    let boxes: Vec<usize> = game.save.boxes.iter().map(Vec::len).collect();
    game.give_pokemon(&species, level)
        .map_err(|e| fail(NO_ROOM, e.to_string()))?;
    let grown = game
        .save
        .boxes
        .iter()
        .zip(boxes.iter().chain(std::iter::repeat(&0)))
        .find(|(b, &n)| b.len() > n)
        .and_then(|(b, _)| b.last());
    let (destination, rec) = if game.save.party.len() > party {
        ("party", game.save.party.last())
    } else if grown.is_some() {
        ("box", grown)
    } else {
        return Ok(Value::Nil);
    };
    let mut out = BTreeMap::new();
    if let Some(r) = rec {
        out.insert("species".to_owned(), Value::Str(r.species.clone()));
        out.insert("level".to_owned(), Value::Int(r.level));
    }
    out.insert("destination".to_owned(), Value::from(destination));
    Ok(Value::Map(out))
}
