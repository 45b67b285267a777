//! The capture, encounter-table and new-game hooks of the Lua engine's catalog (issue 17):
//! `battle.catch_exp`, `catch.nickname`, `encounter.table`, `save.new_game`, each through a
//! Rhai mod and its Lua twin on the public `Game` API: the link sees its arguments, its
//! answer changes what the engine does, and answers the engine cannot honour are refused
//! (vanilla stands). Vanilla itself (no subscriber: called once, result unchanged, nothing
//! allocated) is `gate_hooks.rs`; the cartridge values are checked here without mods.

mod lua_support;
#[path = "common/overworld.rs"]
mod overworld;

use std::rc::Rc;

use lua_support::{load, lua_mod, rhai_mod, unprefixed, Env};
use overworld::grass_above_start;
use pallet_api::Runtime;
use pallet_engine::game::{Game, Mode};
use pallet_engine::save::data::ItemStack;
use pallet_engine::world::{Direction, GameVersion, Input};

const RHAI: &str = r#"
hooks.wrap("save.new_game", |next, game, save| {
    let s = next.call();
    log.info(`save.new_game ${game.version} money=${s.money} pc=${s.pcItems[0].id}x${s.pcItems[0].count} at=${s.player.map} ${s.player.x},${s.player.y} ${s.player.facing}`);
    if game.version == "blue" { s.player.map = "NOWHERE"; return s; }
    s.money = 5000;
    s.inventory = [#{ id: "POKE_BALL", count: 5 }, #{ id: "MASTER_BALL", count: 2 }];
    s.flags = ["EVENT_GOT_POKEDEX"];
    s
});
hooks.wrap("battle.catch_exp", |next, ctx| {
    log.info(`battle.catch_exp ${ctx.battle.kind} ${ctx.mon.species} vanilla=${next.call()}`);
    true
});
hooks.wrap("catch.nickname", |next, mon, ctx| {
    log.info(`catch.nickname ${mon.species} ${ctx.name} ${ctx.battle.kind} vanilla=${next.call()}`);
    if mon.species == "PIDGEY" { return false; }
    "SPARKYMCSPARKFACE"
});
hooks.wrap("encounter.table", |next, table, ctx| {
    let t = next.call();
    log.info(`encounter.table ${ctx.mapId} ${ctx.terrain} preview=${ctx.preview} rate=${t.grassRate} slots=${t.grass.len()} first=${t.grass[0].species}`);
    #{ grassRate: 255, grass: [#{ species: "MEW", level: 7 }] }
});
"#;

const LUA: &str = r#"return function(mod)
  local h, log = mod.hooks, mod.log
  h:wrap("save.new_game", function(next, game, save)
    local s = next()
    log:info("save.new_game %s money=%d pc=%sx%d at=%s %d,%d %s", game.version, s.money, s.pcItems[1].id,
      s.pcItems[1].count, s.player.map, s.player.x, s.player.y, s.player.facing)
    if game.version == "blue" then s.player.map = "NOWHERE"; return s end
    s.money = 5000
    s.inventory = { { id = "POKE_BALL", count = 5 }, { id = "MASTER_BALL", count = 2 } }
    s.flags = { "EVENT_GOT_POKEDEX" }
    return s
  end)
  h:wrap("battle.catch_exp", function(next, ctx)
    log:info("battle.catch_exp %s %s vanilla=%s", ctx.battle.kind, ctx.mon.species, tostring(next()))
    return true
  end)
  h:wrap("catch.nickname", function(next, mon, ctx)
    log:info("catch.nickname %s %s %s vanilla=%s", mon.species, ctx.name, ctx.battle.kind, tostring(next()))
    if mon.species == "PIDGEY" then return false end
    return "SPARKYMCSPARKFACE"
  end)
  h:wrap("encounter.table", function(next, table, ctx)
    local t = next()
    log:info("encounter.table %s %s preview=%s rate=%d slots=%d first=%s", ctx.mapId, ctx.terrain,
      tostring(ctx.preview), t.grassRate, #t.grass, t.grass[1].species)
    return { grassRate = 255, grass = { { species = "MEW", level = 7 } } }
  end)
end"#;

fn feed(env: &Env) -> Vec<String> {
    unprefixed(&env.feed())
}

/// Catch `species` with a MASTER BALL (always catches) in a wild battle; returns the feed.
fn catch(env: &Env, game: &mut Game, species: &str) -> Vec<String> {
    game.start_wild_battle(species, 3).unwrap();
    assert_eq!(game.mode, Mode::Battle);
    env.feed();
    game.battle_use_item("MASTER_BALL", 0).unwrap();
    assert_eq!(game.mode, Mode::Overworld, "caught");
    feed(env)
}

fn texts(game: &mut Game) -> Vec<String> {
    game.drain_feed()
        .into_iter()
        .map(|r| format!("{:?}", r.row))
        .collect()
}

fn on_route1(rt: Rc<Runtime>, from: &Game, at: (u32, u32)) -> Game {
    let mut save = from.save.clone();
    save.player.map = "ROUTE_1".into();
    (save.player.x, save.player.y) = (at.0 as u16, at.1 as u16);
    save.player.facing = Direction::Up;
    Game::from_save(save, 9, rt).unwrap()
}

fn scenario(env: &Env) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    // save.new_game: the cartridge's skeleton in, the mod's out.
    let mut game = Game::new_game(GameVersion::Red, 3, Rc::clone(&env.rt)).unwrap();
    assert_eq!(game.save.money, 5000);
    let bag: Vec<(&str, u32)> = game
        .save
        .inventory
        .iter()
        .map(|s| (s.id.as_str(), s.count))
        .collect();
    assert_eq!(bag, [("POKE_BALL", 5), ("MASTER_BALL", 2)]);
    assert!(game.flag("EVENT_GOT_POKEDEX"));
    // A refused answer (an unknown map): the cartridge's new game stands.
    let blue = Game::new_game(GameVersion::Blue, 3, Rc::clone(&env.rt)).unwrap();
    assert_eq!(blue.save.money, 3000);
    assert_eq!(blue.save.player.map, "REDS_HOUSE_1F");
    out.push(feed(env));
    // battle.catch_exp + catch.nickname: the catch pays EXP and names the mon.
    game.give_pokemon("CHARMANDER", 5).unwrap();
    let exp_before = game.save.party[0].exp;
    texts(&mut game);
    let mut lines = catch(env, &mut game, "PIKACHU");
    assert!(game.save.party[0].exp > exp_before, "catch EXP was awarded");
    assert_eq!(game.save.party[1].nickname.as_deref(), Some("SPARKYMCSP"));
    let shown = texts(&mut game).join("\n");
    assert!(!shown.contains("give a nickname"), "no prompt: {shown}");
    assert!(shown.contains("gained"), "EXP text: {shown}");
    lines.retain(|l| l.starts_with("battle.catch_exp") || l.starts_with("catch.nickname"));
    out.push(lines);
    // `false`: no prompt, no nickname.
    let mut lines = catch(env, &mut game, "PIDGEY");
    assert_eq!(game.save.party[2].nickname, None);
    lines.retain(|l| l.starts_with("catch.nickname"));
    out.push(lines);
    // encounter.table: the first grass step meets the mod's MEW.
    let (grass, start) = grass_above_start(&game);
    let mut route = on_route1(Rc::clone(&env.rt), &game, start);
    env.feed();
    for _ in 0..8 {
        route.step(Input::Up);
    }
    assert_eq!(
        route.mode,
        Mode::Battle,
        "an encounter on the first grass step"
    );
    let enemy = &route
        .battle()
        .unwrap()
        .party(pallet_engine::battle::Side::Enemy)[0];
    assert_eq!(
        (enemy.species, enemy.level),
        (route.data().species_by_name("MEW").unwrap(), 7)
    );
    let mut lines = feed(env);
    lines.retain(|l| l.starts_with("encounter.table"));
    out.push(lines);
    let _ = grass;
    out
}

fn expected() -> Vec<Vec<&'static str>> {
    vec![
        vec![
            "save.new_game red money=3000 pc=POTIONx1 at=REDS_HOUSE_1F 3,4 down",
            "save.new_game blue money=3000 pc=POTIONx1 at=REDS_HOUSE_1F 3,4 down",
            "save.new_game: refused (unknown map \"NOWHERE\"); the cartridge's new game stands",
        ],
        vec![
            "battle.catch_exp wild PIKACHU vanilla=false",
            "catch.nickname PIKACHU PIKACHU wild vanilla=true",
        ],
        vec!["catch.nickname PIDGEY PIDGEY wild vanilla=true"],
        vec!["encounter.table ROUTE_1 grass preview=false rate=25 slots=10 first=PIDGEY"],
    ]
}

#[test]
fn rhai_capture_table_and_new_game_hooks_change_the_engine() {
    let env = load(&[], vec![rhai_mod("capture", RHAI)]);
    env.assert_loaded("capture");
    env.feed();
    assert_eq!(scenario(&env), expected());
}

#[test]
fn lua_capture_table_and_new_game_hooks_change_the_engine() {
    let env = load(&[], vec![lua_mod("capture", LUA)]);
    env.assert_loaded("capture");
    env.feed();
    assert_eq!(scenario(&env), expected());
}

/// Without mods: the cartridge's values — ¥3000, one POTION in the PC, no EXP for a catch,
/// the nickname offer shown.
#[test]
fn without_mods_the_cartridge_stands() {
    let rt = Rc::new(Runtime::new());
    let mut game = Game::new_game(GameVersion::Red, 3, Rc::clone(&rt)).unwrap();
    assert_eq!(game.save.money, 3000);
    assert_eq!(
        game.save.pc_items,
        [ItemStack {
            id: "POTION".into(),
            count: 1
        }]
    );
    assert!(game.save.inventory.is_empty());
    game.save.inventory.push(ItemStack {
        id: "MASTER_BALL".into(),
        count: 1,
    });
    game.give_pokemon("CHARMANDER", 5).unwrap();
    let exp = game.save.party[0].exp;
    game.start_wild_battle("PIKACHU", 3).unwrap();
    game.drain_feed();
    game.battle_use_item("MASTER_BALL", 0).unwrap();
    assert_eq!(game.save.party[0].exp, exp, "Gen 1: no EXP for a catch");
    assert_eq!(game.save.party[1].nickname, None);
    let shown = texts(&mut game).join("\n");
    assert!(
        shown.contains("Do you want to give a nickname to PIKACHU?"),
        "{shown}"
    );
}
