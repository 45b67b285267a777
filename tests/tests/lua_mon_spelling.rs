//! Issue 18: saved mons as the Lua engine spells them. `game.save.party` (and boxes, and a
//! checkpoint's `save`) name the stat blocks in full — `dvs = {attack, defense, speed,
//! special}`, `stats = {hp, …}`, `statExp = {hp, attack, …}` — as the public ShinyDex-RBY (the
//! shiny test reads `dvs.attack`) and savestates (its preview reads `stats.hp`) expect, where
//! the save file spells `atk`/`def`/`spe`/`spc` and `stats.maxHp`. A checkpoint read in that
//! spelling restores.

mod lua_support;

use std::path::PathBuf;

use lua_support::{lua_manifest, run_mods};

const MAIN: &str = r#"return function(mod)
  mod.events:on("mod.monspell.probe", function()
    local mon = mod.game.save.party[1]
    mod.log:info("dvs %s %s %s %s atk=%s", type(mon.dvs.attack), type(mon.dvs.defense),
      type(mon.dvs.speed), type(mon.dvs.special), tostring(mon.dvs.atk))
    mod.log:info("stats hp=%s maxHp=%s attack=%s; statExp attack=%s", tostring(mon.stats.hp),
      tostring(mon.stats.maxHp), type(mon.stats.attack), type(mon.statExp.attack))
    local cp = mod.checkpoints:capture(mod.game)
    local cm = cp.save.party[1]
    mod.log:info("checkpoint stats hp=%s dvs.special=%s", tostring(cm.stats.hp),
      type(cm.dvs.special))
    local ok, code, msg = mod.checkpoints:restore(mod.game, cp)
    mod.log:info("restore %s %s", tostring(ok), tostring(msg))
  end)
end"#;

fn dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("pallet-monspell-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(d.join("manifest.json"), lua_manifest("monspell", "")).unwrap();
    std::fs::write(d.join("main.lua"), MAIN).unwrap();
    d
}

#[test]
fn party_mons_and_checkpoints_read_the_lua_engines_stat_names() {
    let o = run_mods(vec![dir()], "give PIDGEY 5\nsignal monspell probe\n");
    let t = &o.transcript;
    let max_hp = o.game.save.party[0].stats.as_ref().unwrap().max_hp;
    for want in [
        "dvs number number number number atk=nil".to_owned(),
        format!("stats hp={max_hp} maxHp=nil attack=number; statExp attack=number"),
        format!("checkpoint stats hp={max_hp} dvs.special=number"),
        "restore true nil".to_owned(),
    ] {
        assert!(t.contains(&want), "{want:?} missing:\n{t}");
    }
}
