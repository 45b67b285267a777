//! `pallet run` (strict) through `examples/scenarios/trainer-items-evolution.scn` with the
//! `examples/mods/route1-lookout` content mod: a trainer engages by line of sight ("!", walks
//! up, battle text, battle), an item is used from the bag in battle (refused at full HP: no turn
//! taken) and in the field (a POTION heals), and a RARE CANDY levels a RATTATA into a
//! RATICATE with the cartridge's texts. The scenario's `use` and `expect mon` commands are
//! what it exercises.

use pallet_engine::world::GameVersion;
use pallet_script_host::cli::cmd_run::play_with_mods;
use pallet_script_host::host::ModsOptions;

#[test]
fn pallet_run_plays_sight_items_and_evolution() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let scenario =
        std::fs::read_to_string(root.join("examples/scenarios/trainer-items-evolution.scn"))
            .unwrap();
    let opts = ModsOptions {
        dirs: vec![root.join("examples/mods/route1-lookout")],
        no_default_mods: true,
        ..ModsOptions::default()
    };
    let out = play_with_mods(GameVersion::Red, 1, &scenario, Some(&opts))
        .unwrap_or_else(|f| panic!("{}\n{}", f.message, f.transcript));
    let t = out.transcript;
    // The rows in order, each after the one before.
    let mut from = 0;
    for want in [
        "walk up x5 -> (10,30)",
        "script ROUTE_1.trainer.bug_catcher starts",
        "bug_catcher: !",
        "bug_catcher steps left to (12,30)",
        "bug_catcher steps left to (11,30)",
        "note: battle: BUG CATCHER wants to fight!",
        "note: battle: It won't have any effect.",
        "note: battle: CHARMANDER used SCRATCH!",
        "note: battle: RED defeated BUG CATCHER!",
        "[text] CHARMANDER recovered by 3!",
        "[text] RATTATA grew to level 20!",
        "[text] What? RATTATA is evolving!",
        "[text] RATTATA evolved into RATICATE!",
    ] {
        let at = t[from..]
            .find(want)
            .unwrap_or_else(|| panic!("{want:?} missing after byte {from}:\n{t}"));
        from += at + want.len();
    }
    assert!(!t.contains("scenario line"), "{t}");
}

/// A scenario typo in the new commands stops the run before anything plays.
#[test]
fn use_and_expect_mon_parse_errors_name_the_line() {
    for (text, want) in [
        ("use", "scenario line 1"),
        ("use POTION one", "bad party slot"),
        ("expect mon 1", "`expect mon` takes SLOT SPECIES [LEVEL]"),
    ] {
        let err = match play_with_mods(GameVersion::Red, 1, text, None) {
            Ok(_) => panic!("{text:?} parsed"),
            Err(f) => f.message,
        };
        assert!(err.contains(want), "{text:?}: {err}");
    }
}
