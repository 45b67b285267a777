//! `pokemon.evolved` (issue 17) in Rhai and Lua: its payload for an evolution by level (a
//! RARE CANDY in the field) and by stone (a MOON STONE), and its moment relative to its
//! neighbour: after the `evolution.check` hook agreed, with the change already made (the
//! payload's `mon` is the evolved mon).

mod lua_support;

use std::rc::Rc;

use lua_support::{load, lua_mod, rhai_mod, unprefixed, Env};
use pallet_engine::game::Game;
use pallet_engine::save::data::ItemStack;
use pallet_engine::world::{GameVersion, Input};

const RHAI: &str = r#"
hooks.wrap("evolution.check", |next, game, mon, evo, trigger| { log.info(`check ${mon.species} ${trigger}`); next.call(game, mon, evo, trigger) });
events.on("pokemon.evolved", |p| log.info(`evolved ${p.fromSpecies} -> ${p.toSpecies} via ${p.via} (mon ${p.mon.species} L${p.mon.level})`));
"#;

const LUA: &str = r#"return function(mod)
  mod.hooks:wrap("evolution.check", function(next, game, mon, evo, trigger)
    mod.log:info("check %s %s", mon.species, trigger)
    return next(game, mon, evo, trigger)
  end)
  mod.events:on("pokemon.evolved", function(p)
    mod.log:info("evolved %s -> %s via %s (mon %s L%d)", p.fromSpecies, p.toSpecies, p.via, p.mon.species, p.mon.level)
  end)
end"#;

fn close_texts(game: &mut Game) {
    for _ in 0..200 {
        if game.busy().is_none() {
            return;
        }
        game.step(Input::A);
    }
    panic!("never idle");
}

fn run(env: &Env) -> Vec<String> {
    let mut game = Game::new_game(GameVersion::Red, 3, Rc::clone(&env.rt)).unwrap();
    game.give_pokemon("CATERPIE", 6).unwrap();
    game.give_pokemon("NIDORINO", 20).unwrap();
    for id in ["RARE_CANDY", "MOON_STONE"] {
        game.save.inventory.push(ItemStack {
            id: id.into(),
            count: 1,
        });
    }
    env.feed();
    game.use_item("RARE_CANDY", Some(0)).unwrap();
    close_texts(&mut game);
    game.use_item("MOON_STONE", Some(1)).unwrap();
    close_texts(&mut game);
    let species: Vec<&str> = game.save.party.iter().map(|m| m.species.as_str()).collect();
    assert_eq!(species, ["METAPOD", "NIDOKING"]);
    unprefixed(&env.feed())
}

fn expected() -> Vec<&'static str> {
    vec![
        "check CATERPIE level",
        "evolved CATERPIE -> METAPOD via level (mon METAPOD L7)",
        "check NIDORINO item",
        "evolved NIDORINO -> NIDOKING via item (mon NIDOKING L20)",
    ]
}

#[test]
fn rhai_pokemon_evolved_payload_and_order() {
    let env = load(&[], vec![rhai_mod("evo", RHAI)]);
    env.assert_loaded("evo");
    assert_eq!(run(&env), expected());
}

#[test]
fn lua_pokemon_evolved_payload_and_order() {
    let env = load(&[], vec![lua_mod("evo", LUA)]);
    env.assert_loaded("evo");
    assert_eq!(run(&env), expected());
}
