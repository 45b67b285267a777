//! Issue 18 item 7 in `pallet run`: `--profile DIR` gives Lua mods their `mod.storage` in
//! `DIR/storage/<id>/` (it only fed option files before, so the public save-state mod saw
//! `storage_unavailable`), and `storage:context(game)` names the scope as the Lua engine
//! does — `{engineVersion, gameVersion, playthroughId}`, the identity a checkpoint of the same
//! game carries (the save-state mod refuses snapshots whose identity differs).

mod lua_support;

use std::path::PathBuf;

use lua_support::{fresh_temp_dir, lua_manifest};
use pallet_script_host::cli::cmd_run::{play_opts, PlayOptions};
use pallet_script_host::host::session::LoadExtras;
use pallet_script_host::host::ModsOptions;

const MAIN: &str = r#"return function(mod)
  mod.events:on("game.ready", function(ev)
    local cp = mod.checkpoints:inspect(ev.game)
    local ctx, code = mod.storage:context(ev.game)
    if not ctx then mod.log:info("no context: %s", tostring(code)) return end
    local snap = mod.checkpoints:capture(ev.game)
    mod.log:info("context %s %s same-playthrough=%s", ctx.gameVersion, ctx.engineVersion,
      tostring(snap ~= nil and snap.identity.playthroughId == ctx.playthroughId))
    local ok, wcode = mod.storage:write(ev.game, "probe/one", { game = ctx.gameVersion })
    mod.log:info("write %s %s", tostring(ok), tostring(wcode))
  end)
end"#;

fn run(profile: Option<PathBuf>) -> String {
    // One mod folder per run: the tests run in parallel in one process.
    let tag = if profile.is_some() { "with" } else { "without" };
    let dir = fresh_temp_dir(&format!("profile-storage-mod-{tag}"));
    std::fs::write(dir.join("manifest.json"), lua_manifest("store-probe", "")).unwrap();
    std::fs::write(dir.join("main.lua"), MAIN).unwrap();
    let mods = ModsOptions {
        dirs: vec![dir],
        no_default_mods: true,
        ..Default::default()
    };
    let out = play_opts(&PlayOptions {
        version: pallet_engine::world::GameVersion::Red,
        seed: 3,
        scenario: "idle\n",
        mods: Some(&mods),
        strict: true,
        extras: LoadExtras {
            profile,
            ..Default::default()
        },
        save: None,
    })
    .unwrap_or_else(|f| panic!("{}\n{}", f.message, f.transcript));
    out.transcript
}

#[test]
fn a_profile_folder_holds_lua_mods_storage() {
    let profile = fresh_temp_dir("profile-storage");
    let t = run(Some(profile.clone()));
    let version = env!("CARGO_PKG_VERSION");
    assert!(
        t.contains(&format!("context red {version} same-playthrough=true")),
        "{t}"
    );
    assert!(t.contains("write true nil"), "{t}");
    let stored =
        std::fs::read_to_string(profile.join("storage/store-probe/probe/one.json")).unwrap();
    assert!(stored.contains("red"), "{stored}");
}

#[test]
fn without_a_profile_storage_is_unavailable() {
    let t = run(None);
    assert!(t.contains("no context: storage_unavailable"), "{t}");
}
