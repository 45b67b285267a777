//! Writes to `game.save` from Lua links at a safe point (issue 18): `coins` (0..9999) and
//! `money` (0..999999) are validated and applied to the game at once; any other field, a value
//! out of range or a write mid-tick is refused with an error naming the field, and the game is
//! unchanged. The coin-keeper fixture (`tests/fixtures/lua_mods/shape-coin-keeper`, the shape
//! of the surveyed "coins stay at 9999" mod) restores spent coins on the next tick.

mod lua_support;

use std::rc::Rc;

use lua_support::{load, load_with, lua_fixture, lua_mod, run_mods, unprefixed, Setup};
use pallet_engine::content::base::content_for;
use pallet_engine::game::Game;
use pallet_engine::save::data::ItemStack;
use pallet_engine::world::{GameVersion, Input};

fn coin_case() -> ItemStack {
    ItemStack {
        id: "COIN_CASE".to_owned(),
        count: 1,
    }
}

#[test]
fn the_coin_keeper_restores_spent_coins_on_the_next_tick() {
    pallet_engine::game_view::clear();
    let env = load_with(
        &[lua_fixture("shape-coin-keeper")],
        vec![],
        Setup {
            content: content_for(GameVersion::Red),
            options: Vec::new(),
        },
    );
    env.assert_loaded("shape-coin-keeper");
    let mut game = Game::new_game(GameVersion::Red, 3, Rc::clone(&env.rt)).unwrap();
    game.step(Input::None);
    assert_eq!(game.save.coins, 0, "no coin case: nothing written");
    game.save.inventory.push(coin_case());
    game.step(Input::None);
    assert_eq!(game.save.coins, 9999, "the coin case is in the bag");
    // Coins spent (a bet, a prize bought) come back on the next tick.
    game.save.coins = 120;
    game.step(Input::None);
    assert_eq!(game.save.coins, 9999);
    // Without the coin case the balance stands.
    game.save.inventory.retain(|s| s.id != "COIN_CASE");
    game.save.coins = 5;
    for _ in 0..3 {
        game.step(Input::None);
    }
    assert_eq!(game.save.coins, 5);
    let failures: Vec<_> = env
        .feed()
        .into_iter()
        .filter(|l| l.contains("fail"))
        .collect();
    assert!(failures.is_empty(), "{failures:?}");
}

#[test]
fn the_coin_keeper_in_a_run_fills_the_coins_and_its_case_shows_them() {
    pallet_engine::game_view::clear();
    let dir = lua_fixture("shape-coin-keeper");
    let o = run_mods(vec![dir.clone()], "press none 2\n");
    assert_eq!(o.game.save.coins, 0, "{}", o.transcript);
    let o = run_mods(
        vec![dir],
        "bag COIN_CASE 1\npress none\nuse COIN_CASE\nclose\n",
    );
    let t = &o.transcript;
    assert!(o.failed_mods.is_empty(), "{t}");
    assert_eq!(o.game.save.coins, 9999, "{t}");
    assert!(t.contains("The COIN CASE holds 9999 coins."), "{t}");
}

const RULES: &str = r#"return function(mod)
  local tried = false
  local function try(what, f)
    local ok, err = pcall(f)
    mod.log:info("%s: %s", what, ok and "ok" or tostring(tostring(err):match("game%.save[^\n]*")))
  end
  mod.hooks:wrap("core.update", function(next, game, dt)
    next(game, dt)
    if tried then return end
    tried = true
    local save = game.save
    try("money", function() save.money = 123456 end)
    mod.log:info("read back %d, fresh %d", save.money, game.save.money)
    try("coins float", function() save.coins = 77.0 end)
    try("coins high", function() save.coins = 10000 end)
    try("money negative", function() save.money = -1 end)
    try("coins fraction", function() save.coins = 1.5 end)
    try("coins text", function() save.coins = "9999" end)
    try("party", function() save.party = {} end)
    try("player", function() save.player = nil end)
    mod.log:info("after: coins %d money %d", game.save.coins, game.save.money)
  end)
  local told = false
  mod.events:on("world.stepped", function(ev)
    if told then return end
    told = true
    try("mid-tick", function() mod.game.save.coins = 1 end)
  end)
end"#;

#[test]
fn writes_are_validated_applied_at_once_and_refused_mid_tick() {
    pallet_engine::game_view::clear();
    let env = load(&[], vec![lua_mod("rules", RULES)]);
    env.assert_loaded("rules");
    let mut game = Game::new_game(GameVersion::Red, 3, Rc::clone(&env.rt)).unwrap();
    env.feed();
    game.step(Input::None);
    assert_eq!((game.save.coins, game.save.money), (77, 123456));
    // A few ticks of walking: `world.stepped` is dispatched mid-tick (no game lent).
    for _ in 0..40 {
        game.step(Input::Right);
    }
    assert_eq!((game.save.coins, game.save.money), (77, 123456));
    let log = unprefixed(&env.feed());
    assert_eq!(
        log,
        [
            "money: ok",
            "read back 123456, fresh 123456",
            "coins float: ok",
            "coins high: game.save.coins must be a whole number in 0..9999, got 10000",
            "money negative: game.save.money must be a whole number in 0..999999, got -1",
            "coins fraction: game.save.coins must be a whole number in 0..9999, got 1.5",
            "coins text: game.save.coins must be a whole number in 0..9999, got string",
            "party: game.save.party is read-only in Pallet: a link may set only coins \
             (0..9999), money (0..999999) (change the rest through mod.world, mod.save or a \
             hook's answer)",
            "player: game.save.player is read-only in Pallet: a link may set only coins \
             (0..9999), money (0..999999) (change the rest through mod.world, mod.save or a \
             hook's answer)",
            "after: coins 77 money 123456",
            "mid-tick: game.save is read-only mid-tick in Pallet: cannot set game.save.coins \
             here; it can be set only at a safe point (game.ready, input.step, core.update, a \
             signal between ticks)",
        ]
    );
}
