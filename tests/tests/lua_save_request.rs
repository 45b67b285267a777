//! Issue 18: the live-`game` calls of the public autosave mod. `game.stack:top().isOverworld`
//! is true in free roam at a safe point (false while a text box is up, and mid-tick), and
//! `game:writeSave()` writes the normal save to the front end's file (`pallet run --save`)
//! through `save.write`/`save.writing`; without a file, or outside a safe point, it raises.

mod lua_support;

use std::path::PathBuf;

use lua_support::{fresh_temp_dir, lua_manifest};
use pallet_script_host::cli::cmd_run::{play_opts, PlayOptions, RunOutcome};
use pallet_script_host::host::ModsOptions;

/// The autosave shape: a save is wanted (here: at once, and again after every map change), and
/// made from `core.update` once the top screen is the free-roaming overworld.
const MAIN: &str = r#"return function(mod)
  local pending, was = true, nil
  mod.events:on("map.entered", function()
    pending = true
    local ok, err = pcall(function() return mod.game:writeSave() end)
    mod.log:info("mid-tick writeSave: %s %s", tostring(ok), tostring(err))
  end)
  mod.events:on("save.writing", function(p)
    mod.log:info("save.writing on %s", p.save.player.map)
  end)
  mod.hooks:wrap("core.update", function(next, game, dt)
    local r = next(game, dt)
    local free = game.stack:top().isOverworld
    if free ~= was then mod.log:info("isOverworld %s", tostring(free)) was = free end
    if pending and free then
      pending = false
      local ok, res = pcall(function() return game:writeSave() end)
      mod.log:info("writeSave %s %s", tostring(ok), tostring(res))
    end
    return r
  end)
end"#;

fn run(target: Option<PathBuf>) -> RunOutcome {
    // Mom's text box first, then out of the house (a map change wants another save).
    run_with(
        target,
        MAIN,
        "talk\nclose\nwalk right 1\nwalk left 1\nwalk down 3\n",
    )
}

fn run_with(target: Option<PathBuf>, main: &str, scenario: &str) -> RunOutcome {
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = fresh_temp_dir(&format!("save-request-mod-{n}"));
    std::fs::write(dir.join("manifest.json"), lua_manifest("autosaver", "")).unwrap();
    std::fs::write(dir.join("main.lua"), main).unwrap();
    let mods = ModsOptions {
        dirs: vec![dir],
        no_default_mods: true,
        ..Default::default()
    };
    pallet_engine::save_request::set_target(target);
    let out = play_opts(&PlayOptions {
        version: pallet_engine::world::GameVersion::Red,
        seed: 3,
        scenario,
        mods: Some(&mods),
        strict: true,
        extras: Default::default(),
        save: None,
    });
    pallet_engine::save_request::set_target(None);
    out.unwrap_or_else(|f| panic!("{}\n{}", f.message, f.transcript))
}

#[test]
fn write_save_writes_the_front_ends_file_once_the_player_roams_free() {
    let dir = fresh_temp_dir("save-request");
    let path = dir.join("game.sav");
    let o = run(Some(path.clone()));
    let t = &o.transcript;
    assert!(t.contains("isOverworld true"), "{t}");
    assert!(
        t.contains("isOverworld false"),
        "a text box is on top:\n{t}"
    );
    assert_eq!(t.matches("writeSave true true").count(), 2, "{t}");
    assert!(t.contains("save.writing on REDS_HOUSE_1F"), "{t}");
    assert!(t.contains("save.writing on PALLET_TOWN"), "{t}");
    assert!(
        t.contains("mid-tick writeSave: false") && t.contains("only at a safe point"),
        "{t}"
    );
    let (saved, _) =
        pallet_engine::game::Game::load_save_file(&path, 1, o.game.rt.clone()).unwrap();
    assert_eq!(saved.save.player.map, "PALLET_TOWN");
}

#[test]
fn without_a_save_file_write_save_raises() {
    let o = run(None);
    let t = &o.transcript;
    assert!(
        t.contains("writeSave false") && t.contains("no save file"),
        "{t}"
    );
    assert!(!t.contains("save.writing"), "{t}");
}

#[test]
fn ensure_normal_save_writes_the_file_once_and_never_rewrites_it() {
    // savestates' anchor after its first committed checkpoint (`checkpoints:ensureNormalSave`).
    let main = r#"return function(mod)
  mod.events:on("mod.autosaver.anchor", function()
    local ok, code, msg = mod.checkpoints:ensureNormalSave(mod.game, nil)
    mod.log:info("anchor %s %s %s", tostring(ok), tostring(code), tostring(msg))
  end)
end"#;
    let scenario = "signal autosaver anchor\nwalk right 1\nwalk left 1\nwalk down 3\n\
                    signal autosaver anchor\n";
    let dir = fresh_temp_dir("save-anchor");
    let path = dir.join("game.sav");
    let o = run_with(Some(path.clone()), main, scenario);
    let t = &o.transcript;
    assert_eq!(t.matches("anchor true nil nil").count(), 2, "{t}");
    // Written at the first call (in the house), kept at the second (in Pallet Town).
    let (saved, _) =
        pallet_engine::game::Game::load_save_file(&path, 1, o.game.rt.clone()).unwrap();
    assert_eq!(saved.save.player.map, "REDS_HOUSE_1F", "{t}");
    let o = run_with(None, main, "signal autosaver anchor\n");
    assert!(
        o.transcript.contains("anchor nil save_unavailable"),
        "{}",
        o.transcript
    );
}
