//! Rhai mods in the real game: `pallet run`'s scenario with the bundled examples, with hostile
//! mods next to them (the run completes, vanilla outcomes intact, errors in the transcript),
//! and an RFC 0013 permission wrapper that reads the lent live world.

mod rhai_support;

use pallet_engine::world::GameVersion;
use pallet_script_host::cli::cmd_run::{play_with_mods, MAIN_SCENARIO};
use pallet_script_host::host::ModsOptions;
use rhai_support::fixture;

#[test]
fn bundled_examples_run_with_the_main_scenario() {
    let opts = ModsOptions::default();
    let out =
        play_with_mods(GameVersion::Red, 1, MAIN_SCENARIO, Some(&opts)).expect("scenario passes");
    let t = &out.transcript;
    assert!(t.contains("mods: loaded 9 [berry-items, boot-counter, dock-stay, dock-watch, event-logger, lucky-exp, sandstorm, seventh-catch, trail-journal], failed 0"), "{t}");
    assert!(
        t.contains("[boot-counter] boot number 1 of this save"),
        "{t}"
    );
    assert!(
        t.contains("[event-logger] entered PALLET_TOWN from REDS_HOUSE_1F"),
        "{t}"
    );
    // The dock hook lent the live world to `world.active_block_at`, and the observing wrapper
    // kept vanilla's answer (the scenario's `expect map VERMILION_CITY` after the dock passed).
    assert!(
        t.contains("[dock-watch] VERMILION_DOCK (ss_anne_departed): block (7,1) is"),
        "{t}"
    );
    assert!(t.contains("downstream says false"), "{t}");
    // RFC 0013 in the scenario: the bundled dock-stay permission keeps the player on the
    // departed dock (after its block signature check), then `unload dock-stay` brings back the
    // vanilla ejection.
    let kept = t
        .find("[dock-stay] red dock layout verified at (14,0): the player may stay")
        .expect("dock-stay permission");
    let unloaded = t
        .find("mods: unloaded dock-stay (owner cleanup removed 1 link(s)/listener(s))")
        .expect("unload");
    let ejected = t
        .rfind("[text] The ship set sail.")
        .expect("vanilla ejection");
    assert!(kept < unloaded && unloaded < ejected, "{t}");
    assert_eq!(t.matches("[text] The ship set sail.").count(), 1, "{t}");
    // RFC 0018 in the scenario: the seventh catch goes into the bundled seventh-catch mod's
    // custody (no transfer text); unloaded, the next catch is boxed as always.
    let claimed = t
        .find("is in this mod's custody: 1 held")
        .expect("seventh-catch claim");
    let went = t
        .find("went to \"mod\"")
        .expect("pokemon.caught destination mod");
    let unloaded = t
        .find("mods: unloaded seventh-catch")
        .expect("unload seventh-catch");
    let boxed = t.find("transferred to someone's PC!").expect("box");
    assert!(claimed < went && went < unloaded && unloaded < boxed, "{t}");
    assert_eq!(t.matches("transferred to someone's PC!").count(), 1, "{t}");
    // RFC 0016 in the scenario: the bundled sandstorm buffets both sides in the first two rounds
    // of the BUG CATCHER battle through `battle.field_residual` (after the round's moves; the
    // fainted WEEDLE is spared), and the engine drains the HP bars.
    let battle = &t[t
        .find("BUG CATCHER wants to fight!")
        .expect("trainer battle")
        ..t.find("RED defeated BUG CATCHER!").expect("trainer beaten")];
    let storm: Vec<&str> = battle
        .lines()
        .filter(|l| l.contains("sandstorm") || l.contains("HP "))
        .map(|l| l.split("battle: ").nth(1).unwrap_or(l))
        .collect();
    assert_eq!(
        storm,
        [
            "(WEEDLE HP 0/21)",
            "RATTATA is buffeted by the sandstorm!",
            "(RATTATA HP 36/38)",
            "(CATERPIE HP 7/24)",
            "RATTATA is buffeted by the sandstorm!",
            "(RATTATA HP 34/38)",
            "Enemy CATERPIE is buffeted by the sandstorm!",
            "(CATERPIE HP 6/24)",
            "(CATERPIE HP 0/24)",
        ],
        "{battle}"
    );
    // The mods' save buckets are in the save's modData.
    assert_eq!(
        out.game
            .save
            .mod_data
            .get("boot-counter")
            .and_then(|b| b.get("boots")),
        Some(&pallet_api::Value::Int(1))
    );
    // Same inputs, same transcript.
    let again = play_with_mods(GameVersion::Red, 1, MAIN_SCENARIO, Some(&opts)).unwrap();
    assert_eq!(&again.transcript, t);
}

#[test]
fn hostile_mods_do_not_stop_the_game() {
    let opts = ModsOptions {
        dirs: [
            "loop-at-load",
            "loop-in-hook",
            "recursion",
            "huge-string",
            "nested-array",
            "import-parent",
            "ungranted-world",
            "forge-constructor",
            "no-next",
        ]
        .iter()
        .map(|n| fixture(n))
        .collect(),
        no_default_mods: false,
        trace: false,
        ..ModsOptions::default()
    };
    let out = play_with_mods(GameVersion::Blue, 3, MAIN_SCENARIO, Some(&opts))
        .expect("scenario still passes");
    let t = &out.transcript;
    // Load failures appear as diagnostics with the mod id, position and a caret excerpt.
    assert!(t.contains("failed 7"), "{t}");
    assert!(
        t.contains("mods: loop-at-load failed: Error: [loop-at-load] main.rhai:3:"),
        "{t}"
    );
    assert!(t.contains("the \"world\" capability is not granted"), "{t}");
    // `no-next` answers `()` at the dock: fail closed, the player is still ejected (the
    // scenario's expectations hold), and the examples still run.
    assert!(t.contains("[event-logger] entered VERMILION_DOCK"), "{t}");
    assert!(t.contains("player: VERMILION_CITY"), "{t}");
}

#[test]
fn a_permission_wrapper_reads_the_live_block_and_keeps_the_player() {
    let opts = ModsOptions {
        dirs: vec![fixture("permit-dock")],
        no_default_mods: true,
        trace: true,
        ..ModsOptions::default()
    };
    // With the permission, the scenario's "ejected" expectation fails: the player stays.
    let failure = match play_with_mods(GameVersion::Yellow, 1, MAIN_SCENARIO, Some(&opts)) {
        Ok(_) => panic!("the permission wrapper should have kept the player on the dock"),
        Err(f) => f,
    };
    let t = &failure.transcript;
    assert!(failure.message.contains("expect"), "{}", failure.message);
    assert!(t.contains("[permit-dock] block "), "{t}");
    // --trace: the hook call with its context and the chain's result.
    assert!(t.contains("trace: hook map.occupancy_allowed({"), "{t}");
    assert!(
        t.contains("trace: hook map.occupancy_allowed = true"),
        "{t}"
    );
    assert!(
        t.contains("trace:   [permit-dock] link map.occupancy_allowed -> true"),
        "{t}"
    );
}
