//! The `world` facade from links dispatched **inside** a tick (issue 17): `core.update` is a
//! safe point (its links run with the game lent, so they may read and act), and from any
//! other hook or event link the reads (`current`, `map_overview`, `get_flag`) answer from the
//! engine's published copies; `set_flag` (one of the deferrable writes) is accepted and applied
//! when the tick ends, and every other write is refused with the stable reason — `"world is
//! busy"` in the overworld, `"a battle is already running"` inside a battle round (where
//! nothing is deferred). A Rhai mod and its Lua twin write the same transcript.

mod lua_support;
#[path = "common/overworld.rs"]
mod overworld;

use std::rc::Rc;

use lua_support::{load, lua_mod, rhai_mod, unprefixed, Env};
use overworld::{below_grass, settle};
use pallet_engine::battle::Action;
use pallet_engine::game::{Game, Mode};
use pallet_engine::world::{Direction, GameVersion, Input, ScriptRow};

const RHAI: &str = r#"
let pos = |label| {
    try { let c = world.current(); log.info(`${label} current ${c.mapId} ${c.x},${c.y} ${c.facing} surfing=${c.surfing}`); }
    catch (e) { log.info(`${label} current !! ${e.code}`); }
};
let write = |label, f| {
    try { f.call(); log.info(`${label} write ok`); }
    catch (e) { log.info(`${label} write !! ${e.code}`); }
};
hooks.wrap("core.update", |next, game, dt| {
    if !world.get_flag("EVENT_CORE_SEEN") {
        pos.call("core.update");
        write.call("core.update", || world.set_flag("EVENT_CORE_SEEN", true));
    }
    next.call(game, dt)
});
hooks.wrap("encounter.roll", |next, enc, ctx| {
    pos.call("encounter.roll");
    let o = world.map_overview();
    log.info(`encounter.roll overview ${o.mapId} ${o.width}x${o.height}`);
    write.call("encounter.roll", || world.set_flag("EVENT_ROLL", true));
    next.call(enc, ctx)
});
hooks.wrap("trainer.party", |next, cls, index, party| {
    pos.call("trainer.party");
    log.info(`trainer.party flag ${world.get_flag("EVENT_CORE_SEEN")} ${world.get_flag("EVENT_NEVER")}`);
    write.call("trainer.party", || world.give_item("POTION", 1));
    next.call(cls, index, party)
});
events.on("battle.turn_started", |p| {
    pos.call("battle.turn_started");
    write.call("battle.turn_started", || world.give_item("POTION", 1));
});
"#;

const LUA: &str = r#"return function(mod)
  local w, log = mod.world, mod.log
  local function pos(label)
    local c, reason = w:current()
    if c then
      log:info("%s current %s %d,%d %s surfing=%s", label, c.mapId, c.x, c.y, c.facing, tostring(c.surfing))
    else
      log:info("%s current !! %s", label, reason)
    end
  end
  local function write(label, f)
    local ok, reason = f()
    if ok == nil and reason then log:info("%s write !! %s", label, reason) else log:info("%s write ok", label) end
  end
  mod.hooks:wrap("core.update", function(next, game, dt)
    if not w:getFlag("EVENT_CORE_SEEN") then
      pos("core.update")
      write("core.update", function() return w:setFlag("EVENT_CORE_SEEN", true) end)
    end
    return next(game, dt)
  end)
  mod.hooks:wrap("encounter.roll", function(next, enc, ctx)
    pos("encounter.roll")
    local o = w:mapOverview()
    log:info("encounter.roll overview %s %dx%d", o.mapId, o.width, o.height)
    write("encounter.roll", function() return w:setFlag("EVENT_ROLL", true) end)
    return next(enc, ctx)
  end)
  mod.hooks:wrap("trainer.party", function(next, cls, index, party)
    pos("trainer.party")
    log:info("trainer.party flag %s %s", tostring(w:getFlag("EVENT_CORE_SEEN")), tostring(w:getFlag("EVENT_NEVER")))
    write("trainer.party", function() return w:giveItem("POTION", 1) end)
    return next(cls, index, party)
  end)
  mod.events:on("battle.turn_started", function(p)
    pos("battle.turn_started")
    write("battle.turn_started", function() return w:giveItem("POTION", 1) end)
  end)
end"#;

fn potions(game: &Game) -> u32 {
    game.save
        .inventory
        .iter()
        .filter(|s| s.id == "POTION")
        .map(|s| s.count)
        .sum()
}

fn transcript(env: &Env) -> Vec<String> {
    let mut out = Vec::new();
    // A trainer battle from a script (inside a tick), then a battle round.
    let mut game = Game::new_game(GameVersion::Red, 7, Rc::clone(&env.rt)).unwrap();
    game.give_pokemon("CHARMANDER", 30).unwrap();
    env.feed();
    game.step(Input::None);
    assert!(game.flag("EVENT_CORE_SEEN"), "core.update's link wrote");
    game.queue_script(
        "probe",
        vec![ScriptRow::StartBattle {
            class: "BUG_CATCHER".into(),
            index: 0,
        }],
    )
    .unwrap();
    for _ in 0..50 {
        if game.mode == Mode::Battle {
            break;
        }
        game.step(Input::A);
    }
    assert_eq!(game.mode, Mode::Battle, "{:?}", game.feed());
    let before = potions(&game);
    game.battle_choose(Action::Move(0)).unwrap();
    assert_eq!(potions(&game), before, "refused writes changed nothing");
    out.extend(unprefixed(&env.feed()));
    // A grass step on ROUTE_1: `encounter.roll` sees the cell the player arrived on.
    let mut game = Game::new_game(GameVersion::Red, 7, Rc::clone(&env.rt)).unwrap();
    let (x, y) = below_grass(&game);
    game.queue_script(
        "probe",
        vec![ScriptRow::Warp {
            map: "ROUTE_1".into(),
            x,
            y,
            facing: Direction::Up,
        }],
    )
    .unwrap();
    settle(&mut game);
    env.feed();
    for _ in 0..20 {
        game.step(Input::Up);
        if game.overworld().unwrap().player().y < y {
            break;
        }
    }
    let lines = unprefixed(&env.feed());
    let p = game.overworld().unwrap().player();
    assert_eq!((p.x, p.y), (x, y - 1), "one step north: {lines:?}");
    assert!(game.flag("EVENT_ROLL"), "deferred to the end of the tick");
    out.extend(
        lines
            .into_iter()
            .map(|l| l.replace(&format!("{x},{}", y - 1), "X,Y")),
    );
    out
}

fn expected() -> Vec<&'static str> {
    vec![
        "core.update current REDS_HOUSE_1F 3,4 down surfing=false",
        "core.update write ok",
        "trainer.party current REDS_HOUSE_1F 3,4 down surfing=false",
        "trainer.party flag true false",
        "trainer.party write !! world is busy",
        "battle.turn_started current REDS_HOUSE_1F 3,4 down surfing=false",
        "battle.turn_started write !! a battle is already running",
        "encounter.roll current ROUTE_1 X,Y up surfing=false",
        "encounter.roll overview ROUTE_1 20x36",
        "encounter.roll write ok",
    ]
}

#[test]
fn rhai_links_read_the_world_mid_tick_and_writes_wait_or_are_refused() {
    let env = load(&[], vec![rhai_mod("reader", RHAI)]);
    env.assert_loaded("reader");
    assert_eq!(transcript(&env), expected());
}

#[test]
fn lua_links_read_the_world_mid_tick_and_writes_wait_or_are_refused() {
    let env = load(&[], vec![lua_mod("reader", LUA)]);
    env.assert_loaded("reader");
    assert_eq!(transcript(&env), expected());
}
