//! Issue 18 item 6 (continued): map-script `onStep` and `onInteract` handlers given as Lua
//! functions (the shape of the surveyed legend/quest mods, `tests/fixtures/lua_mods/
//! shape-step-gate`): the first truthy return consumes the event, `false` falls through to
//! vanilla, `ow:queueScript(rows)` queues rows (with the wild `start_battle`,
//! `check_battle_result`, `move_player`, `play_cry` ops), and a bad row is reported without
//! consuming the event.

mod lua_support;

use lua_support::{lua_fixture, rhai_fixture, run_mods};
use pallet_script_host::cli::cmd_run::RunOutcome;

fn gate(scenario: &str) -> RunOutcome {
    run_mods(vec![lua_fixture("shape-step-gate")], scenario)
}

fn rhai_gate(scenario: &str) -> RunOutcome {
    run_mods(vec![rhai_fixture("twin-step-gate")], scenario)
}

#[test]
fn on_step_consumes_the_step_once_then_falls_through() {
    step_gate(gate);
    step_gate(rhai_gate);
}

#[test]
fn on_interact_queues_a_wild_battle_and_check_battle_result_reads_it() {
    rug(gate);
    rug(rhai_gate);
}

fn step_gate(gate: fn(&str) -> RunOutcome) {
    let o = gate("walk right 1\nclose\nwalk right 1\ntalk\nclose\n");
    let t = &o.transcript;
    assert!(o.failed_mods.is_empty(), "{t}");
    assert!(t.contains("script REDS_HOUSE_1F.onStep starts"), "{t}");
    assert!(t.contains("Careful! The floor / is still wet."), "{t}");
    // `move_player` walked the player back; the second step is not consumed (flag set).
    let back = t.find("walk left -> (3,4)").expect("moved back");
    let again = t.rfind("walk right -> (4,4)").unwrap();
    assert!(back < again, "{t}");
    assert_eq!(t.matches("onStep starts").count(), 1, "{t}");
    // MOM's talk is vanilla: onInteract returned false for her cell.
    assert!(t.contains("MOM: So you're off today?"), "{t}");
    assert!(o.game.save.flags.contains("MOD_STEP_GATE_WARNED"), "{t}");
}

fn rug(gate: fn(&str) -> RunOutcome) {
    let caught = gate(
        "give MEWTWO 70\nbag MASTER_BALL 1\npress a\nclose\nbattle ball MASTER_BALL\nclose\nclose\n\
         press a\nclose\n",
    );
    let t = &caught.transcript;
    assert!(t.contains("(sound Cry_RATTATA)"), "{t}");
    let ended = t.find("battle ended: caught").expect("caught");
    let got = t.find("Gotcha!").expect("the caught branch");
    assert!(ended < got, "{t}");
    assert!(
        caught.game.save.flags.contains("MOD_STEP_GATE_CAUGHT"),
        "{t}"
    );
    assert!(
        t.contains("Just a rug."),
        "a second A press sees the flag:\n{t}"
    );

    let ran = gate("give MEWTWO 70\npress a\nclose\nbattle run\nclose\n");
    let t = &ran.transcript;
    assert!(t.contains("battle ended: ran"), "{t}");
    assert!(t.contains("It slipped away."), "{t}");
    assert!(!t.contains("Gotcha!"), "{t}");
    assert!(!ran.game.save.flags.contains("MOD_STEP_GATE_CAUGHT"), "{t}");
}

#[test]
fn a_bad_queued_row_is_reported_and_does_not_consume_the_step() {
    let dir = std::env::temp_dir().join(format!("pallet-step-bad-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("manifest.json"),
        r#"{"id": "badstep", "name": "b", "version": "1.0.0", "api": 2, "entry": "main.lua"}"#,
    )
    .unwrap();
    std::fs::write(
        dir.join("main.lua"),
        "return function(mod)\n\
           mod.content.map_scripts:register(\"REDS_HOUSE_1F\", { onStep = function(game, ow, x, y)\n\
             ow:queueScript({ { \"dance\" } })\n    return true\n  end })\n\
         end\n",
    )
    .unwrap();
    let o = run_mods(vec![dir.clone()], "walk right 1\ntalk\nclose\n");
    let t = &o.transcript;
    assert!(
        t.contains("badstep: REDS_HOUSE_1F.onStep: queueScript: [1]: unknown op \"dance\""),
        "{t}"
    );
    assert!(!t.contains("onStep starts"), "{t}");
    let _ = std::fs::remove_dir_all(&dir);
}

fn temp_mod(name: &str, main: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("pallet-step-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("manifest.json"),
        format!(
            r#"{{"id": "{name}", "name": "n", "version": "1.0.0", "api": 2, "entry": "main.lua"}}"#
        ),
    )
    .unwrap();
    std::fs::write(dir.join("main.lua"), main).unwrap();
    dir
}

#[test]
fn writes_to_the_game_save_copy_reach_the_flags_and_the_bag() {
    let dir = temp_mod(
        "stepwrite",
        "return function(mod)\n\
           mod.content.map_scripts:register(\"REDS_HOUSE_1F\", { onStep = function(game, ow, x, y)\n\
             game.save.flags.MOD_STEPPED = true\n\
             game.save.inventory.POTION = (game.save.inventory.POTION or 0) + 2\n\
             return false\n  end })\n\
         end\n",
    );
    let o = run_mods(vec![dir.clone()], "bag POTION 1\nwalk right 1\n");
    let t = &o.transcript;
    assert!(o.game.save.flags.contains("MOD_STEPPED"), "{t}");
    let potions: u32 = o
        .game
        .save
        .inventory
        .iter()
        .filter(|s| s.id == "POTION")
        .map(|s| s.count)
        .sum();
    assert_eq!(potions, 3, "{t}");
    let _ = std::fs::remove_dir_all(&dir);

    // An unknown item refuses the whole write-back, named; the flag is not set either.
    let dir = temp_mod(
        "stepbad",
        "return function(mod)\n\
           mod.content.map_scripts:register(\"REDS_HOUSE_1F\", { onStep = function(game, ow, x, y)\n\
             game.save.flags.MOD_STEPPED = true\n\
             game.save.inventory.NOT_AN_ITEM = 1\n\
             return false\n  end })\n\
         end\n",
    );
    let o = run_mods(vec![dir.clone()], "walk right 1\n");
    let t = &o.transcript;
    assert!(
        t.contains("stepbad: REDS_HOUSE_1F.onStep: game.save.inventory.NOT_AN_ITEM: unknown item"),
        "{t}"
    );
    assert!(!o.game.save.flags.contains("MOD_STEPPED"), "{t}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn handlers_see_the_party_in_game_save() {
    // The shape of the public mew-under-the-truck: onInteract walks game.save.party for a
    // mon that knows a move (moves as {id, pp} records) before offering its branch.
    let dir = temp_mod(
        "steparty",
        "return function(mod)\n\
           mod.content.map_scripts:register(\"REDS_HOUSE_1F\", { onInteract = function(game, ow, fx, fy)\n\
             local party = game.save.party or {}\n\
             local first = party[1]\n\
             local knows = false\n\
             for _, mon in ipairs(party) do\n\
               for _, mv in ipairs(mon.moves or {}) do\n\
                 if mv.id == \"THUNDERSHOCK\" then knows = true end\n\
               end\n\
             end\n\
             mod.log:info(\"party %d first %s L%d knows %s\", #party, first and first.species or \"-\",\n\
               first and first.level or 0, tostring(knows))\n\
             party[1] = nil\n\
             return false\n  end })\n\
         end\n",
    );
    let o = run_mods(
        vec![dir.clone()],
        "press a\ngive PIKACHU 9\ngive RATTATA 4\npress a\n",
    );
    let t = &o.transcript;
    assert!(t.contains("party 0 first - L0 knows false"), "{t}");
    assert!(t.contains("party 2 first PIKACHU L9 knows true"), "{t}");
    // The view is a copy: clearing an entry of it changes nothing.
    assert_eq!(o.game.save.party.len(), 2, "{t}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn outside_strict_a_step_handlers_choice_that_stops_a_walk_is_dismissed_and_counted() {
    // The shape of mew-under-the-truck's dock gate: a step handler asks a choice on a cell a
    // scenario walks through. Without --strict the box is dismissed (B, the choice's last
    // option), the walk's section is skipped and the run goes on; --strict still stops.
    let dir = temp_mod(
        "stepask",
        "return function(mod)\n\
           mod.content.map_scripts:register(\"REDS_HOUSE_1F\", { onStep = function(game, ow, x, y)\n\
             if x ~= 4 then return false end\n\
             ow:queueScript({ { \"show_text\", \"Going out?\" }, { \"choice\", { \"GO\", \"STAY\" } },\n\
               { \"jump_if_true\", \"go\" }, { \"show_text\", \"Suit yourself.\" }, { \"label\", \"go\" } })\n\
             return true\n  end })\n\
         end\n",
    );
    let mods = pallet_script_host::host::ModsOptions {
        dirs: vec![dir.clone()],
        no_default_mods: true,
        ..Default::default()
    };
    let play = |strict: bool| {
        pallet_script_host::cli::cmd_run::play_opts(
            &pallet_script_host::cli::cmd_run::PlayOptions {
                version: pallet_engine::world::GameVersion::Red,
                seed: 5,
                scenario: "section out\nwalk right 3\nsection after\nexpect map REDS_HOUSE_1F\n",
                mods: Some(&mods),
                strict,
                extras: Default::default(),
                save: None,
            },
        )
    };
    let o = play(false).unwrap_or_else(|f| panic!("{}\n{}", f.message, f.transcript));
    let t = &o.transcript;
    assert!(t.contains("[text] Suit yourself."), "{t}");
    assert_eq!(o.differed.len(), 1, "{t}");
    assert!(
        o.differed[0]
            .1
            .contains("a script's box interrupted the walk"),
        "{t}"
    );
    assert_eq!(o.met, 1, "{t}");
    assert!(play(true).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}
