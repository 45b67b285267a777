//! `pallet run` end to end: the real binary, its transcript, determinism, arguments, `--save`.

use std::process::Command;

fn pallet(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_pallet"))
        .args(args)
        .output()
        .expect("run pallet")
}

fn stdout(o: &std::process::Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8 transcript")
}

#[test]
fn same_seed_same_transcript_with_the_dock_ejection() {
    let a = pallet(&["run", "--seed", "7"]);
    let b = pallet(&["run", "--seed", "7"]);
    assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
    assert_eq!(a.stdout, b.stdout, "byte-identical transcripts");
    let t = stdout(&a);
    assert!(t.starts_with("pallet run: version red, seed 7\n"));
    let departed = t.find("flag EVENT_SS_ANNE_LEFT set").expect("departure");
    let ejected = t.find("[text] The ship set sail.").expect("ejection text");
    let back = t[ejected..]
        .find("warp VERMILION DOCK -> VERMILION CITY (18,29) facing up")
        .expect("ejection warp");
    assert!(departed < ejected && back > 0);
    assert!(
        t.contains("active_block_at(VERMILION_DOCK, 7, 1) = 22"),
        "ship block before departure"
    );
    assert!(
        t.contains("active_block_at(VERMILION_DOCK, 7, 1) = 1"),
        "water after departure"
    );
    assert!(t.contains("flags: EVENT_GOT_HM01, EVENT_SS_ANNE_LEFT\n"));
    // The bundled mods change nothing the scenario expects.
    assert!(t.ends_with(" met, 0 changed by mods\n"), "{t}");
}

#[test]
fn seeds_change_the_encounters_only_deterministically() {
    let outputs: Vec<String> = ["1", "2", "3", "4"]
        .iter()
        .map(|s| stdout(&pallet(&["run", "--seed", s])))
        .collect();
    let distinct: std::collections::BTreeSet<String> = outputs
        .iter()
        .map(|t| t.lines().skip(1).collect::<Vec<_>>().join("\n"))
        .collect();
    assert!(
        distinct.len() > 1,
        "different seeds should roll different grass encounters"
    );
}

#[test]
fn blue_and_yellow_run() {
    for v in ["blue", "yellow"] {
        let o = pallet(&["run", "--version", v, "--seed", "7"]);
        assert!(
            o.status.success(),
            "{v}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let t = stdout(&o);
        assert!(t.starts_with(&format!("pallet run: version {v}, seed 7\n")));
        assert!(t.contains("[text] The ship set sail."));
    }
}

#[test]
fn bad_arguments_exit_2_with_clap_full_message() {
    for args in [
        &["run", "--version", "gold"][..],
        &["run", "--seed", "-1"][..],
        &["run", "--seed"][..],
        &["run", "--bogus"][..],
        &["jump"][..],
    ] {
        let o = pallet(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(err.contains("--help"), "{args:?}: the whole message: {err}");
        assert!(o.stdout.is_empty());
    }
    // The possible values and the did-you-mean tip are kept (not cut to the first line).
    let err = String::from_utf8_lossy(&pallet(&["run", "--version", "gold"]).stderr).into_owned();
    assert!(
        err.contains("[possible values: red, blue, yellow]"),
        "{err}"
    );
    let err = String::from_utf8_lossy(&pallet(&["run", "--versoin", "red"]).stderr).into_owned();
    assert!(
        err.contains("tip: a similar argument exists: '--version'"),
        "{err}"
    );
}

#[test]
fn help_exits_0() {
    let o = pallet(&["run", "--help"]);
    assert_eq!(o.status.code(), Some(0));
    let t = stdout(&o);
    assert!(t.contains("--seed") && t.contains("--version") && t.contains("--save"));
}

#[test]
fn save_flag_writes_the_final_save_atomically() {
    let dir = std::env::temp_dir().join(format!("pallet-run-save-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("red.sav");
    for _ in 0..2 {
        let o = pallet(&["run", "--seed", "7", "--save", path.to_str().unwrap()]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(stdout(&o).ends_with(&format!("save written: {}\n", path.display())));
    }
    let loaded = pallet_engine::save::load_save(&path).expect("load the written save");
    let save = loaded.save;
    assert_eq!(save.player.map, "VERMILION_CITY");
    assert_eq!((save.player.x, save.player.y), (18, 29));
    assert!(save.flags.contains("EVENT_SS_ANNE_LEFT"));
    assert!(
        pallet_engine::save::file::bak_path(&path).exists(),
        "second write keeps the previous file as .bak"
    );
    assert!(!pallet_engine::save::file::tmp_path(&path).exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_lua_clubhouse_mod_is_played_through_pallet_run_with_its_scenario() {
    // The `new_area_clubhouse`-shaped fixture (issue 16): a registered 4×4 house, a warp
    // appended to PALLET_TOWN, a map_scripts talk op list. Run as a player would.
    let root = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/fixtures/lua_mods/pallet-clubhouse"
    );
    let scn = format!("{root}/clubhouse.scn");
    let o = pallet(&[
        "run",
        "--no-default-mods",
        "--mods",
        root,
        "--scenario",
        &scn,
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let t = stdout(&o);
    let first = &t[t.find("## first talk").expect("first")..t.find("## second talk").unwrap()];
    let second = &t[t.find("## second talk").unwrap()..t.find("## leaving").unwrap()];
    let leaving = &t[t.find("## leaving").unwrap()..];
    assert!(first.contains("[text] Welcome to the club!"), "{first}");
    assert!(first.contains("received RARE_CANDY x1"), "{first}");
    assert!(!first.contains("Use that candy well!"), "{first}");
    assert!(second.contains("[text] Use that candy well!"), "{second}");
    assert!(!second.contains("received"), "{second}");
    assert!(!second.contains("Welcome to the club!"), "{second}");
    assert!(
        leaving.contains("warp CLUBHOUSE -> PALLET TOWN (4,8) facing down"),
        "{leaving}"
    );
    assert!(t.contains("flags: EVENT_CLUBHOUSE_GOT_CANDY\n"), "{t}");
    assert!(
        t.ends_with("expectations: 4 met, 0 changed by mods\n"),
        "{t}"
    );
}
