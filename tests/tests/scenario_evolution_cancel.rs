//! `pallet run` (strict) through `examples/scenarios/evolution-cancel.scn`: a level evolution
//! announced by "What? RATTATA is evolving!" is stopped by B during its animation with the
//! cartridge's "Huh? RATTATA stopped evolving!" (the mon keeps its species and its new level),
//! and the next one, left alone, plays out.

use pallet_engine::world::GameVersion;
use pallet_script_host::cli::cmd_run::play_with_mods;

#[test]
fn pallet_run_cancels_an_evolution_with_b() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let scenario =
        std::fs::read_to_string(root.join("examples/scenarios/evolution-cancel.scn")).unwrap();
    let out = play_with_mods(GameVersion::Red, 1, &scenario, None)
        .unwrap_or_else(|f| panic!("{}\n{}", f.message, f.transcript));
    let t = out.transcript;
    let mut from = 0;
    for want in [
        "[text] RATTATA grew to level 20!",
        "[text] What? RATTATA is evolving!",
        "[text] Huh? RATTATA stopped evolving!",
        "[text] RATTATA grew to level 21!",
        "[text] What? RATTATA is evolving!",
        "[text] RATTATA evolved into RATICATE!",
    ] {
        let at = t[from..]
            .find(want)
            .unwrap_or_else(|| panic!("{want:?} missing after byte {from}:\n{t}"));
        from += at + want.len();
    }
    assert_eq!(t.matches("evolved into").count(), 1, "{t}");
    assert_eq!(out.game.save.party[0].species, "RATICATE");
}
