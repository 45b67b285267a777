//! `battle.catch_exp` and the learn-move prompt (issue 17): when a mod awards EXP for a catch
//! and the level-up brings a fifth move, the battle waits at the cartridge's "which move to
//! forget" prompt before the catch is stored; the answer (forget a move, or keep all four)
//! runs the rest of the award, then the catch ends the battle. Rhai and Lua twins.

mod lua_support;

use std::rc::Rc;

use lua_support::{load, lua_mod, rhai_mod, unprefixed, Env};
use pallet_engine::battle::{Action, NeedsChoice};
use pallet_engine::data::gen1;
use pallet_engine::game::{Game, Mode};
use pallet_engine::pokemon::stats::exp_for_level;
use pallet_engine::pokemon::{Dvs, Pokemon};
use pallet_engine::save::data::ItemStack;
use pallet_engine::save::MonRecord;
use pallet_engine::world::presentation::PresentationRow;
use pallet_engine::world::{GameVersion, Input};

const RHAI: &str = r#"
hooks.wrap("battle.catch_exp", |next, ctx| { log.info(`catch_exp ${ctx.mon.species}`); true });
events.on("pokemon.move_learned", |p| log.info(`move_learned ${p.mon.species} ${p.moveId} forgot=${p.forgot}`));
events.on("pokemon.caught", |p| log.info(`caught ${p.species} to ${p.destination}`));
"#;

const LUA: &str = r#"return function(mod)
  mod.hooks:wrap("battle.catch_exp", function(next, ctx) mod.log:info("catch_exp %s", ctx.mon.species) return true end)
  mod.events:on("pokemon.move_learned", function(p)
    mod.log:info("move_learned %s %s forgot=%s", p.mon.species, p.moveId, tostring(p.forgot))
  end)
  mod.events:on("pokemon.caught", function(p) mod.log:info("caught %s to %s", p.species, p.destination) end)
end"#;

/// RATTATA L6 one EXP point short of L7 (QUICK ATTACK) with four moves.
fn rattata() -> MonRecord {
    let data = gen1();
    let species = data.species_by_name("RATTATA").unwrap();
    let mut m = Pokemon::new(data, species, 6, Dvs::uniform(15));
    m.moves = ["TACKLE", "TAIL_WHIP", "GROWL", "BITE"].map(|id| data.move_by_name(id));
    m.pp_ups = [0; 4];
    for slot in 0..4 {
        m.pp[slot] = m.max_pp(data, slot).unwrap_or(0);
    }
    m.exp = exp_for_level(data.species(species).growth, 7) - 1;
    m.ot_name = "RED".into();
    MonRecord::from_pokemon(&m, data).unwrap()
}

fn notes(game: &mut Game) -> Vec<String> {
    game.drain_feed()
        .into_iter()
        .filter_map(|r| match r.row {
            PresentationRow::Note { text } => Some(text),
            _ => None,
        })
        .collect()
}

/// Catch a wild PIDGEY with a MASTER BALL, answer the prompt with `answer`; returns the game,
/// the battle notes and the mod's log.
fn catch(env: &Env, answer: Action) -> (Game, Vec<String>, Vec<String>) {
    let mut game = Game::new_game(GameVersion::Red, 21, Rc::clone(&env.rt)).unwrap();
    for _ in 0..100 {
        if game.busy().is_none() {
            break;
        }
        game.step(Input::A);
    }
    game.save.party = vec![rattata()];
    game.save.inventory.push(ItemStack {
        id: "MASTER_BALL".into(),
        count: 1,
    });
    game.start_wild_battle("PIDGEY", 5).unwrap();
    game.drain_feed();
    env.feed();
    game.battle_use_item("MASTER_BALL", 0).unwrap();
    let mut shown = notes(&mut game);
    // The battle waits at the question; nothing is stored yet.
    assert_eq!(game.mode, Mode::Battle, "{shown:?}");
    let qa = gen1().move_by_name("QUICK_ATTACK").unwrap();
    assert_eq!(
        game.battle().unwrap().needs_choice(),
        NeedsChoice::LearnMove { slot: 0, mv: qa }
    );
    assert_eq!(game.save.party.len(), 1);
    game.battle_choose(answer).unwrap();
    shown.extend(notes(&mut game));
    assert_eq!(game.mode, Mode::Overworld, "caught: {shown:?}");
    (game, shown, unprefixed(&env.feed()))
}

fn check(env: &Env) {
    let (game, shown, log) = catch(env, Action::Move(1));
    let at = |want: &str| {
        shown
            .iter()
            .position(|l| l.contains(want))
            .unwrap_or_else(|| panic!("{want:?} missing: {shown:?}"))
    };
    assert!(at("PIDGEY was caught!") < at("is trying to learn QUICK ATTACK"));
    assert!(at("forgot TAIL WHIP") < at("RATTATA learned QUICK ATTACK!"));
    let moves = &game.save.party[0].moves;
    assert_eq!(moves[1].id, "QUICK_ATTACK", "{moves:?}");
    assert_eq!(game.save.party[0].level, 7);
    assert_eq!(game.save.party[1].species, "PIDGEY");
    assert_eq!(
        log,
        [
            "catch_exp PIDGEY",
            "move_learned RATTATA QUICK_ATTACK forgot=TAIL_WHIP",
            "caught PIDGEY to party",
        ]
    );
    // Keeping the four moves: not learned, the catch still stored.
    let (game, shown, _) = catch(env, Action::Continue);
    assert!(
        shown
            .iter()
            .any(|l| l.contains("RATTATA did not learn QUICK ATTACK!")),
        "{shown:?}"
    );
    assert!(!game.save.party[0]
        .moves
        .iter()
        .any(|m| m.id == "QUICK_ATTACK"));
    assert_eq!(game.save.party[1].species, "PIDGEY");
}

#[test]
fn rhai_catch_exp_asks_which_move_to_forget_before_the_catch_is_stored() {
    let env = load(&[], vec![rhai_mod("cx", RHAI)]);
    env.assert_loaded("cx");
    check(&env);
}

#[test]
fn lua_catch_exp_asks_which_move_to_forget_before_the_catch_is_stored() {
    let env = load(&[], vec![lua_mod("cx", LUA)]);
    env.assert_loaded("cx");
    check(&env);
}
