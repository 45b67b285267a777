//! `pokemon.evolved` (issue 17) in Rhai and Lua: its payload for an evolution by level (a
//! RARE CANDY in the field) and by stone (a MOON STONE), and its moment relative to its
//! neighbours: after the `evolution.check` hook agreed, with the change already made (the
//! payload's `mon` is the evolved mon), and after `battle.ended` for an evolution a battle's
//! level-up brought.

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
    mod.log:info("check %s %s", mon.species, trigger.kind)
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

/// `trigger` is Pallet's string in Rhai and the Lua engine's `{kind = "levelup" | "item"}`
/// in Lua (`compat-lua-shim/src/spelling.rs`).
fn expected(level: &'static str) -> Vec<&'static str> {
    let check = if level == "level" {
        "check CATERPIE level"
    } else {
        "check CATERPIE levelup"
    };
    vec![
        check,
        "evolved CATERPIE -> METAPOD via level (mon METAPOD L7)",
        "check NIDORINO item",
        "evolved NIDORINO -> NIDOKING via item (mon NIDOKING L20)",
    ]
}

#[test]
fn rhai_pokemon_evolved_payload_and_order() {
    let env = load(&[], vec![rhai_mod("evo", RHAI)]);
    env.assert_loaded("evo");
    assert_eq!(run(&env), expected("level"));
}

#[test]
fn lua_pokemon_evolved_payload_and_order() {
    let env = load(&[], vec![lua_mod("evo", LUA)]);
    env.assert_loaded("evo");
    assert_eq!(run(&env), expected("levelup"));
}

/// After a battle: `battle.ended` first, then (in the overworld, once the evolution's
/// animation has played) `pokemon.evolved` — the cartridge evolves after the battle.
#[test]
fn pokemon_evolved_follows_battle_ended() {
    use pallet_engine::battle::Action;
    use pallet_engine::data::gen1;
    use pallet_engine::game::Mode;
    use pallet_engine::pokemon::stats::exp_for_level;
    use pallet_engine::pokemon::{Dvs, Pokemon};
    use pallet_engine::save::MonRecord;
    let rhai = r#"
events.on("battle.ended", |p| log.info(`battle.ended ${p.result}`));
events.on("pokemon.evolved", |p| log.info(`evolved ${p.fromSpecies} -> ${p.toSpecies} via ${p.via}`));
"#;
    let lua = r#"return function(mod)
  mod.events:on("battle.ended", function(p) mod.log:info("battle.ended %s", p.result) end)
  mod.events:on("pokemon.evolved", function(p) mod.log:info("evolved %s -> %s via %s", p.fromSpecies, p.toSpecies, p.via) end)
end"#;
    for env in [
        load(&[], vec![rhai_mod("evo", rhai)]),
        load(&[], vec![lua_mod("evo", lua)]),
    ] {
        env.assert_loaded("evo");
        let data = gen1();
        let species = data.species_by_name("RATTATA").unwrap();
        let mut m = Pokemon::new(data, species, 19, Dvs::uniform(15));
        m.exp = exp_for_level(data.species(species).growth, 20) - 1;
        m.ot_name = "RED".into();
        let mut game = Game::new_game(GameVersion::Red, 3, Rc::clone(&env.rt)).unwrap();
        game.save.party = vec![MonRecord::from_pokemon(&m, data).unwrap()];
        game.start_wild_battle("MAGIKARP", 2).unwrap();
        env.feed();
        for _ in 0..20 {
            if game.mode != Mode::Battle {
                break;
            }
            game.battle_choose(Action::Move(0)).unwrap();
        }
        assert_eq!(game.mode, Mode::Overworld);
        close_texts(&mut game);
        assert_eq!(game.save.party[0].species, "RATICATE");
        assert_eq!(
            unprefixed(&env.feed()),
            ["battle.ended win", "evolved RATTATA -> RATICATE via level"]
        );
    }
}
