//! The Lua engine's save, option and reload events (issue 17) through a Rhai mod and its Lua
//! twin on the public API: `save.write` (veto) < `save.writing` < the file, `save.loading`
//! before the game is built, `mod.options_changed` from the loader, and `map.reloaded` before
//! `checkpoint.restored` on an overworld restore.

mod lua_support;

use std::rc::Rc;

use lua_support::{load, lua_mod, rhai_mod, unprefixed, Env};
use pallet_api::Value;
use pallet_engine::checkpoint;
use pallet_engine::game::Game;
use pallet_engine::world::GameVersion;

const RHAI: &str = r#"
events.on("save.writing", |p| log.info(`save.writing ${p.save.player.map} ${p.save.money} meta=${type_of(p.meta)}`));
events.on("save.loading", |p| log.info(`save.loading ${p.raw.player.map} ${p.raw.money}`));
events.on("mod.options_changed", |p| log.info(`mod.options_changed ${p.mod} ${p.key} ${p.value}`));
events.on("map.reloaded", |p| log.info(`map.reloaded ${p.mapId} ${p.reason}`));
events.on("checkpoint.restored", |p| log.info(`checkpoint.restored ${p.kind}`));
"#;

const LUA: &str = r#"return function(mod)
  local ev, log = mod.events, mod.log
  ev:on("save.writing", function(p)
    log:info("save.writing %s %d meta=%s", p.save.player.map, p.save.money, type(p.meta) == "table" and "map" or "?")
  end)
  ev:on("save.loading", function(p) log:info("save.loading %s %d", p.raw.player.map, p.raw.money) end)
  ev:on("mod.options_changed", function(p) log:info("mod.options_changed %s %s %d", p.mod, p.key, p.value) end)
  ev:on("map.reloaded", function(p) log:info("map.reloaded %s %s", p.mapId, p.reason) end)
  ev:on("checkpoint.restored", function(p) log:info("checkpoint.restored %s", p.kind) end)
end"#;

fn scenario(env: &Env, tag: &str) -> Vec<String> {
    let dir = std::env::temp_dir().join(format!(
        "pallet-base-lifecycle-{tag}-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game.sav");
    let mut game = Game::new_game(GameVersion::Red, 3, Rc::clone(&env.rt)).unwrap();
    env.feed();
    assert!(matches!(game.write_save_file(&path), Ok(true)));
    let (loaded, recovered) = Game::load_save_file(&path, 3, Rc::clone(&env.rt)).unwrap();
    assert!(recovered.is_none());
    assert_eq!(loaded.save, game.save);
    env.loader
        .set_option(&env.rt, "probe_mod", "rate", Value::Int(2));
    let cp = checkpoint::capture(&mut game).expect("capture");
    checkpoint::restore(&mut game, &cp).expect("restore");
    let _ = std::fs::remove_dir_all(&dir);
    unprefixed(&env.feed())
}

fn expected() -> Vec<&'static str> {
    vec![
        "save.writing REDS_HOUSE_1F 3000 meta=map",
        "save.loading REDS_HOUSE_1F 3000",
        "mod.options_changed probe_mod rate 2",
        "map.reloaded REDS_HOUSE_1F checkpoint",
        "checkpoint.restored overworld",
    ]
}

#[test]
fn rhai_lifecycle_events_carry_their_payloads_in_order() {
    let env = load(&[], vec![rhai_mod("probe_mod", RHAI)]);
    env.assert_loaded("probe_mod");
    assert_eq!(scenario(&env, "rhai"), expected());
}

#[test]
fn lua_lifecycle_events_carry_their_payloads_in_order() {
    let env = load(&[], vec![lua_mod("probe_mod", LUA)]);
    env.assert_loaded("probe_mod");
    assert_eq!(scenario(&env, "lua"), expected());
}

#[test]
fn a_save_write_veto_writes_nothing_and_says_so() {
    let env = load(
        &[],
        vec![rhai_mod(
            "veto",
            r#"hooks.wrap("save.write", |next, game| false);
events.on("save.writing", |p| log.info("writing"));"#,
        )],
    );
    env.assert_loaded("veto");
    let dir = std::env::temp_dir().join(format!("pallet-base-veto-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game.sav");
    let game = Game::new_game(GameVersion::Red, 3, Rc::clone(&env.rt)).unwrap();
    env.feed();
    assert!(matches!(game.write_save_file(&path), Ok(false)));
    assert!(!path.exists());
    assert!(env.feed().is_empty(), "no save.writing after a veto");
    let _ = std::fs::remove_dir_all(&dir);
}
