//! A mod author's tools end to end (issue 20, issue 18 items 1–3): never silent, honest exit
//! codes, `mods check` doing the real load with API knowledge and did-you-mean, the main job
//! surviving mods that legitimately change the game, run controls and `--json`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn pallet(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pallet"))
        .args(args)
        .output()
        .expect("run pallet")
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
        .display()
        .to_string()
}

fn repo(rel: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(rel)
        .display()
        .to_string()
}

/// A fresh temp folder for one test.
fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pallet-mods-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A mod folder `root/name` with a manifest and an entry file.
fn write_mod(root: &Path, name: &str, manifest: &str, entry: &str, text: &str) -> String {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("manifest.json"), manifest).unwrap();
    std::fs::write(dir.join(entry), text).unwrap();
    dir.display().to_string()
}

fn rhai_manifest(id: &str, caps: &str) -> String {
    format!(
        r#"{{"id": "{id}", "name": "{id}", "version": "1.0.0", "api": 2, "entry": "main.rhai", "capabilities": [{caps}]}}"#
    )
}

fn short_scenario(root: &Path) -> String {
    let p = root.join("short.scn");
    std::fs::write(&p, "section Short\nwalk right 1\nwalk left 1\n").unwrap();
    p.display().to_string()
}

// ----- the main job survives user mods ---------------------------------------------------------

#[test]
fn a_custody_mod_changes_the_game_and_the_run_finishes() {
    let o = pallet(&["run", "--mods", &fixture("custody-all")]);
    let t = out(&o);
    assert_eq!(o.status.code(), Some(0), "{t}{}", err(&o));
    assert!(t.contains("[custody-all] custody-all claims"), "{t}");
    assert!(
        t.contains("scenario line 75: expected 1 boxed, found 0 (a mod changed this"),
        "{t}"
    );
    assert!(t.contains("changed by mods"), "{t}");
    // The same expectation is an assertion under --strict.
    let o = pallet(&["run", "--strict", "--mods", &fixture("custody-all")]);
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).contains("scenario line 75: expected 1 boxed, found 0"));
}

#[test]
fn a_door_on_the_main_scenarios_path_is_reported_and_the_run_gets_back_on_course() {
    // The clubhouse fixture appends a door to PALLET_TOWN at (4,8), on the built-in
    // scenario's path (as the public new_area_clubhouse mod does): the walk is carried into
    // the house, the section is skipped, and the next position expectation resyncs the player.
    let club = repo("tests/fixtures/lua_mods/pallet-clubhouse");
    let o = pallet(&["run", "--mods", &club]);
    let t = out(&o);
    assert_eq!(o.status.code(), Some(0), "{t}{}", err(&o));
    assert!(t.contains("warp PALLET TOWN -> CLUBHOUSE"), "{t}");
    assert!(
        t.contains("the rest of this section is skipped (a mod changed this; --strict stops here)"),
        "{t}"
    );
    assert!(
        t.contains("expected ROUTE_1 (10,35) facing up, player is on"),
        "{t}"
    );
    let back = t
        .find("resync: back on course at ROUTE_1 (10,35) facing up")
        .expect("resync");
    // The rest of the main job ran on course: the Route 1 battle and the dock come after.
    assert!(t[back..].contains("== VERMILION DOCK =="), "{t}");
    assert!(t.ends_with(" met, 2 changed by mods\n"), "{t}");
    // Under --strict the blocked walk is the failure.
    let o = pallet(&["run", "--strict", "--mods", &club]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        err(&o).contains("walk up: blocked at PALLET_TOWN"),
        "{}",
        err(&o)
    );
}

#[test]
fn a_lua_dock_permit_mod_changes_the_game_and_the_run_finishes() {
    let o = pallet(&["run", "--mods", &fixture("lua-dock-permit")]);
    let t = out(&o);
    assert_eq!(o.status.code(), Some(0), "{t}{}", err(&o));
    assert!(
        t.contains("[lua-dock-permit] permitting ss_anne_departed on VERMILION_DOCK"),
        "{t}"
    );
    assert!(
        t.contains("expected busy Some(\"screen_busy\"), got None (a mod changed this"),
        "{t}"
    );
}

#[test]
fn an_encounter_thinning_mod_changes_the_game_and_the_run_finishes() {
    let o = pallet(&["run", "--mods", &fixture("thin-encounters")]);
    let t = out(&o);
    assert_eq!(o.status.code(), Some(0), "{t}{}", err(&o));
    assert!(t.contains("[thin-encounters] thinned a wild"), "{t}");
}

#[test]
fn a_mod_suppressing_every_encounter_skips_the_encounter_section_and_finishes() {
    let root = temp("no-encounters");
    let dir = write_mod(
        &root,
        "no-grass",
        &rhai_manifest("no-grass", r#""hooks", "log""#),
        "main.rhai",
        "hooks.wrap(\"encounter.roll\", |next, encDef, ctx| { next.call(encDef, ctx); () });\n",
    );
    let o = pallet(&["run", "--mods", &dir]);
    let t = out(&o);
    assert_eq!(o.status.code(), Some(0), "{t}{}", err(&o));
    assert!(
        t.contains("no wild encounter after 400 steps; the rest of this section is skipped"),
        "{t}"
    );
    assert!(
        t.contains("## Vermilion City"),
        "the later sections still run: {t}"
    );
    // --strict stops at the seek instead.
    let o = pallet(&["run", "--mods", &dir, "--strict"]);
    assert_eq!(o.status.code(), Some(1), "{}", out(&o));
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn encounter_species_replaces_the_wild_mon_in_rhai_and_lua_and_unknown_ids_are_refused() {
    let root = temp("encounter-species");
    let rhai = write_mod(
        &root,
        "mew-grass",
        &rhai_manifest("mew-grass", r#""hooks", "log""#),
        "main.rhai",
        r#"hooks.wrap("encounter.species", |next, species, ctx| {
    log.info(`rolled ${species} L${ctx.level} on ${ctx.mapId}; vanilla ${next.call()}`);
    "MEW"
});
"#,
    );
    let o = pallet(&["run", "--no-default-mods", "--mods", &rhai]);
    let t = out(&o);
    assert_eq!(o.status.code(), Some(0), "{t}{}", err(&o));
    assert!(t.contains("[mew-grass] rolled "), "{t}");
    assert!(t.contains(" on ROUTE_1; vanilla "), "{t}");
    assert!(t.contains("Wild MEW appeared!"), "{t}");

    let lua = write_mod(
        &root,
        "lua-mew-grass",
        r#"{"id": "lua-mew-grass", "name": "l", "version": "1.0.0", "api": 2, "entry": "main.lua"}"#,
        "main.lua",
        r#"return function(mod)
  mod.hooks:wrap("encounter.species", function(next, species, ctx)
    mod.log:info("rolled %s L%d on %s", species, ctx.level, ctx.mapId)
    return "NOT_A_SPECIES"
  end)
end
"#,
    );
    let o = pallet(&["run", "--no-default-mods", "--mods", &lua]);
    let t = out(&o);
    assert_eq!(o.status.code(), Some(0), "{t}{}", err(&o));
    assert!(t.contains("[lua-mew-grass] rolled "), "{t}");
    assert!(
        t.contains("encounter.species: refused unknown species \"NOT_A_SPECIES\""),
        "{t}"
    );
    assert!(!t.contains("Wild NOT_A_SPECIES"), "{t}");
    let _ = std::fs::remove_dir_all(&root);
}

// ----- never silent, honest exit codes ---------------------------------------------------------

#[test]
fn a_failed_mod_prints_its_reason_and_the_run_exits_1() {
    let root = temp("failed");
    let bad = write_mod(
        &root,
        "arity",
        &rhai_manifest("arity", r#""hooks""#),
        "main.rhai",
        "hooks.wrap(\"map.occupancy_allowed\", |next, ctx| next.call(ctx));\n",
    );
    let scn = short_scenario(&root);
    let o = pallet(&[
        "run",
        "--no-default-mods",
        "--mods",
        &bad,
        "--scenario",
        &scn,
    ]);
    let t = out(&o);
    assert_eq!(o.status.code(), Some(1), "{t}");
    assert!(t.contains("failed 1"), "{t}");
    assert!(
        t.contains("mods: arity failed: ")
            && t.contains(
                "map.occupancy_allowed calls (next, game, ctx); this closure takes 2 parameters"
            )
            && t.contains("main.rhai:1:"),
        "{t}"
    );
    assert!(!t.contains("anon$"), "{t}");
    assert!(
        err(&o).contains("1 mod(s) failed to load: arity"),
        "{}",
        err(&o)
    );
    // --json: the same reason in the mod's row.
    let o = pallet(&[
        "run",
        "--json",
        "--no-default-mods",
        "--mods",
        &bad,
        "--scenario",
        &scn,
    ]);
    assert_eq!(o.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_str(&out(&o)).expect("one JSON document");
    let row = &doc["mods"][0];
    assert_eq!(row["id"], "arity");
    assert_eq!(row["state"], "failed");
    assert!(row["error"]
        .as_str()
        .unwrap()
        .contains("this closure takes 2 parameters"));
    assert_eq!(doc["failed"][0], "arity");
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn manifest_version_and_dependency_refusals_are_never_silent() {
    let root = temp("refusals");
    let comma = write_mod(
        &root,
        "comma",
        r#"{"id": "comma", "name": "c", "version": "1.0.0", "api": 2, "entry": "main.rhai", "capabilities": ["hooks",],}"#,
        "main.rhai",
        "",
    );
    let dep = write_mod(
        &root,
        "dep",
        r#"{"id": "dep", "name": "d", "version": "1.0.0", "api": 2, "entry": "main.rhai", "dependencies": ["not-here"]}"#,
        "main.rhai",
        "",
    );
    let lua2 = write_mod(
        &root,
        "lua2",
        r#"{"id": "lua2", "name": "l", "version": "1.0.0", "api": 2, "entry": "main.lua", "game_version": ">=2.0.0 <3.0.0"}"#,
        "main.lua",
        "return function(mod) end\n",
    );
    let scn = short_scenario(&root);
    let o = pallet(&[
        "run",
        "--no-default-mods",
        "--mods",
        &comma,
        "--mods",
        &dep,
        "--mods",
        &lua2,
        "--scenario",
        &scn,
    ]);
    let t = out(&o);
    assert_eq!(o.status.code(), Some(1), "{t}");
    assert!(t.contains("trailing comma"), "{t}");
    assert!(
        t.contains("mods: dep failed: missing dependency not-here"),
        "{t}"
    );
    assert!(
        t.contains("mods: lua2 failed: requires game version >=2.0.0 <3.0.0; legacy Lua manifests are checked against the Lua-engine API level Pallet implements, 0.2.4"),
        "{t}"
    );
    // mods check: the same reasons, exit 1.
    for (dir, needle) in [
        (&comma, "trailing comma"),
        (&dep, "missing dependency not-here"),
        (&lua2, "requires game version >=2.0.0 <3.0.0"),
    ] {
        let o = pallet(&["mods", "check", dir]);
        assert_eq!(o.status.code(), Some(1), "{dir}");
        assert!(out(&o).contains(needle), "{dir}: {}", out(&o));
    }
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn legacy_ranges_of_public_mods_are_checked_against_the_lua_engine_level() {
    let root = temp("legacy");
    for (name, range) in [
        ("a", ">=0.1.75 <10.0.0"),
        ("b", ">=0.1.98 <1.0.0"),
        ("c", "0.0.0-dev || >=0.1.0 <2.0.0"),
        ("d", ">=0.0.0-0 <2.0.0"),
        ("e", ">=0.2.4 <1.0.0"),
    ] {
        write_mod(
            &root,
            name,
            &format!(
                r#"{{"id": "legacy-{name}", "name": "l", "version": "1.0.0", "api": 2, "entry": "main.lua", "game_version": "{range}"}}"#
            ),
            "main.lua",
            "return function(mod) mod.log:info('up') end\n",
        );
    }
    // A Rhai manifest's range is Pallet's own version (0.1.x): >=1.0.0 is refused.
    write_mod(
        &root,
        "r",
        r#"{"id": "rhai-new", "name": "r", "version": "1.0.0", "api": 2, "entry": "main.rhai", "game_version": ">=1.0.0"}"#,
        "main.rhai",
        "log.info(\"up\");\n",
    );
    let o = pallet(&["mods", "check", root.to_str().unwrap()]);
    let t = out(&o);
    assert_eq!(o.status.code(), Some(1), "{t}");
    for id in ["legacy-a", "legacy-b", "legacy-c", "legacy-d", "legacy-e"] {
        assert!(t.contains(&format!("ok: {id} ")), "{id}: {t}");
    }
    assert!(
        t.contains("[rhai-new] manifest.json: requires game version >=1.0.0; this engine is 0.1.0"),
        "{t}"
    );
    let _ = std::fs::remove_dir_all(&root);
}

// ----- mods check knows the API ----------------------------------------------------------------

#[test]
fn mods_check_reports_each_diagnostic_class_in_the_mods_terms() {
    let root = temp("classes");
    let cases = [
        (
            "wrapp",
            "hooks.wrapp(\"exp.gain\", |next, ctx| next.call(ctx));\n",
            "`hooks` has no method `wrapp` (did you mean \"wrap\"?)",
        ),
        (
            "arity",
            "hooks.wrap(\"map.occupancy_allowed\", |next, ctx| next.call(ctx));\n",
            "map.occupancy_allowed calls (next, game, ctx); this closure takes 2 parameters",
        ),
        (
            "luaorder",
            "hooks.wrap(\"exp.gain\", |next, ctx| next.call(ctx), 5);\n",
            "hooks.wrap(\"exp.gain\", fn, 5) is the Lua argument order; in Rhai write",
        ),
        (
            "hookname",
            "hooks.wrap(\"exp.gian\", |next, ctx| next.call(ctx));\n",
            "\"exp.gian\" (did you mean \"exp.gain\"?)",
        ),
        (
            "eventname",
            "events.on(\"map.enterd\", |p| ());\n",
            "\"map.enterd\" (did you mean \"map.entered\"?)",
        ),
        (
            "inclosure",
            "events.on(\"map.entered\", |p| { log.infoo(\"x\") });\n",
            "`log` has no method `infoo` (did you mean \"info\"?)",
        ),
        (
            "registry",
            "content.get(\"pokemn\", \"PIKACHU\");\n",
            "unknown content registry \"pokemn\" (did you mean \"pokemon\"?)",
        ),
    ];
    for (id, src, _) in &cases {
        write_mod(
            &root,
            id,
            &rhai_manifest(id, r#""hooks", "events", "log", "content""#),
            "main.rhai",
            src,
        );
    }
    for (id, _, needle) in &cases {
        let o = pallet(&["mods", "check", root.join(id).to_str().unwrap()]);
        let t = out(&o);
        assert_eq!(o.status.code(), Some(1), "{id}: {t}");
        assert!(t.contains(needle), "{id}: {t}");
        assert!(!t.contains("anon$"), "{id}: {t}");
    }
    // What fails at check time fails at run time with the same message.
    let scn = short_scenario(&root);
    let o = pallet(&[
        "run",
        "--no-default-mods",
        "--mods",
        root.join("luaorder").to_str().unwrap(),
        "--scenario",
        &scn,
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(out(&o).contains(cases[2].2), "{}", out(&o));
    // --json: every finding with file, line and message.
    let o = pallet(&["mods", "check", "--json", root.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_str(&out(&o)).expect("JSON");
    assert_eq!(doc["checked"], cases.len());
    let wrapp = doc["mods"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["id"] == "wrapp")
        .unwrap();
    assert_eq!(wrapp["findings"][0]["file"], "main.rhai");
    assert_eq!(wrapp["findings"][0]["line"], 1);
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn mods_check_reports_duplicate_ids() {
    let root = temp("dups");
    for dir in ["one", "two"] {
        write_mod(&root, dir, &rhai_manifest("same-id", ""), "main.rhai", "");
    }
    let o = pallet(&["mods", "check", root.to_str().unwrap()]);
    let t = out(&o);
    assert_eq!(o.status.code(), Some(1), "{t}");
    assert!(
        t.contains("duplicate mod id same-id (folders one and two)"),
        "{t}"
    );
    let _ = std::fs::remove_dir_all(&root);
}

// ----- run controls ----------------------------------------------------------------------------

#[test]
fn option_sets_a_mod_option_and_bad_options_are_usage_errors() {
    let root = temp("options");
    let scn = short_scenario(&root);
    let boost = repo("tests/fixtures/lua_mods/exp-boost");
    let run = |opt: &str| {
        pallet(&[
            "run",
            "--no-default-mods",
            "--mods",
            &boost,
            "--scenario",
            &scn,
            "--option",
            opt,
        ])
    };
    let o = run("exp-boost.multiplier=3");
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(
        out(&o).contains("[exp-boost] EXP boost ready (x3)"),
        "{}",
        out(&o)
    );
    let o = run("exp-boost.multiplyer=3");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("defines no option \"multiplyer\" (did you mean \"multiplier\"?)"),
        "{}",
        err(&o)
    );
    let o = run("exp-bost.multiplier=3");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("(did you mean \"exp-boost\"?)"),
        "{}",
        err(&o)
    );
    let o = run("exp-boost.multiplier=7");
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("value 7 is not accepted"), "{}", err(&o));
    let o = run("nodot");
    assert_eq!(o.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn load_continues_from_a_save_and_the_boot_counter_counts() {
    let root = temp("load");
    let scn = short_scenario(&root);
    let save = root.join("game.sav").display().to_string();
    let counter = repo("examples/mods/boot-counter");
    let base = [
        "run",
        "--no-default-mods",
        "--mods",
        &counter,
        "--scenario",
        &scn,
    ];
    let o = pallet(&[&base[..], &["--save", &save]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(out(&o).contains("[boot-counter] boot number 1 of this save"));
    let o = pallet(&[&base[..], &["--load", &save, "--save", &save]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let t = out(&o);
    assert!(t.contains("continuing a save: REDS_HOUSE_1F"), "{t}");
    assert!(
        t.contains("[boot-counter] boot number 2 of this save"),
        "{t}"
    );
    let o = pallet(&[&base[..], &["--load", &save]].concat());
    assert!(out(&o).contains("boot number 3"));
    let o = pallet(
        &[
            &base[..],
            &["--load", root.join("none.sav").to_str().unwrap()],
        ]
        .concat(),
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).contains("--load"), "{}", err(&o));
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn mod_log_lines_print_at_the_tick_they_happen() {
    // The bundled event-logger logs each map entry: the line comes right after that map's warp
    // row, before the rows of the ticks that follow.
    let o = pallet(&["run", "--seed", "7"]);
    let t = out(&o);
    let warp = t.find("== PALLET TOWN ==").expect("warp row");
    let logged = t
        .find("[event-logger] entered PALLET_TOWN")
        .expect("log line");
    assert!(logged > warp, "{t}");
    let between = &t[warp..logged];
    assert!(
        !between.contains("walk "),
        "no later walk row comes between the warp and its log line: {between}"
    );
}

#[test]
fn hostile_output_is_escaped_and_scenario_commands_are_bounded() {
    let root = temp("hygiene");
    let ansi = write_mod(
        &root,
        "ansi",
        &rhai_manifest("ansi", r#""log""#),
        "main.rhai",
        "log.info(\"red \\x1b[31mALERT\\x1b[0m done\");\n",
    );
    let scn = root.join("s.scn");
    std::fs::write(&scn, "section T\u{1b}[2Jitle\npress a 4000000000\n").unwrap();
    let o = pallet(&[
        "run",
        "--no-default-mods",
        "--mods",
        &ansi,
        "--scenario",
        scn.to_str().unwrap(),
    ]);
    let t = out(&o);
    assert!(
        !t.contains('\u{1b}'),
        "no raw escape reaches the terminal: {t:?}"
    );
    assert!(t.contains("\\u{1b}[31mALERT"), "{t}");
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).contains("tick limit"), "{}", err(&o));
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn repeated_runtime_errors_of_one_link_are_counted_not_reprinted() {
    let root = temp("repeats");
    let thrower = write_mod(
        &root,
        "thrower",
        &rhai_manifest("thrower", r#""hooks""#),
        "main.rhai",
        "hooks.wrap(\"encounter.roll\", |next, encDef, ctx| {\n    let x = ctx.nothing.deeper;\n    next.call(encDef, ctx)\n});\n",
    );
    let o = pallet(&["run", "--mods", &thrower]);
    let t = out(&o);
    assert_eq!(o.status.code(), Some(0), "{t}");
    assert_eq!(
        t.matches("[thrower] hook encounter.roll failed").count(),
        2,
        "printed once, then one count line: {t}"
    );
    assert!(t.contains("mods: repeated "), "{t}");
    assert_eq!(t.matches("mods: repeated ").count(), 1, "{t}");
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn lua_mods_get_did_you_mean_for_hooks_and_mod_members() {
    let root = temp("lua-dym");
    let dir = write_mod(
        &root,
        "luabad",
        r#"{"id": "luabad", "name": "l", "version": "1.0.0", "api": 2, "entry": "main.lua"}"#,
        "main.lua",
        "return function(mod)\n  mod.hooks:wrap(\"exp.gian\", function(next, ctx) return next(ctx) end)\n  mod.sav:set(\"a\", 1)\nend\n",
    );
    let o = pallet(&["mods", "check", &dir]);
    let t = out(&o);
    assert_eq!(o.status.code(), Some(1), "{t}");
    assert!(
        t.contains("hook \"exp.gian\"") && t.contains("(did you mean \"exp.gain\"?)"),
        "{t}"
    );
    assert!(
        t.contains("main.lua:3") && t.contains("did you mean `mod.save`?"),
        "{t}"
    );
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn mods_defs_writes_named_typed_definitions() {
    let root = temp("defs");
    let o = pallet(&["mods", "defs", root.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let api = std::fs::read_to_string(root.join("__static__.d.rhai")).unwrap();
    assert!(
        api.contains("fn wrap(hooks: Hooks, name: string, priority: int, link: Fn) -> Fn;"),
        "{api}"
    );
    assert!(
        !api.contains("EvalAltResult") && !api.contains("-> ;") && !api.contains("(_:"),
        "{api}"
    );
    let hooks = std::fs::read_to_string(root.join("hooks.d.rhai")).unwrap();
    assert!(hooks.contains("Hook `catch.party_full`"), "{hooks}");
    let events = std::fs::read_to_string(root.join("events.d.rhai")).unwrap();
    assert!(events.contains("Event `map.entered`"), "{events}");
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn scenario_names_get_did_you_mean() {
    let root = temp("names");
    for (line, want) in [
        (
            "give PIKACHUU 5",
            "unknown species PIKACHUU (did you mean \"PIKACHU\"?)",
        ),
        (
            "bag POTON 5",
            "unknown item POTON (did you mean \"POTION\"?)",
        ),
    ] {
        let scn = root.join("n.scn");
        std::fs::write(&scn, format!("{line}\n")).unwrap();
        let o = pallet(&[
            "run",
            "--no-default-mods",
            "--scenario",
            scn.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(1));
        assert!(err(&o).contains(want), "{}", err(&o));
    }
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn profile_options_files_set_values_and_option_overrides_them() {
    let root = temp("profile");
    let scn = short_scenario(&root);
    std::fs::create_dir_all(root.join("profile/options")).unwrap();
    std::fs::write(
        root.join("profile/options/exp-boost.json"),
        r#"{"multiplier": 1}"#,
    )
    .unwrap();
    std::fs::write(
        root.join("profile/options/not-loaded.json"),
        r#"{"anything": true}"#,
    )
    .unwrap();
    let boost = repo("tests/fixtures/lua_mods/exp-boost");
    let profile = root.join("profile").display().to_string();
    let base = [
        "run",
        "--no-default-mods",
        "--mods",
        &boost,
        "--scenario",
        &scn,
        "--profile",
        &profile,
    ];
    let o = pallet(&base);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(
        out(&o).contains("[exp-boost] EXP boost ready (x1)"),
        "{}",
        out(&o)
    );
    let o = pallet(&[&base[..], &["--option", "exp-boost.multiplier=3"]].concat());
    assert!(
        out(&o).contains("[exp-boost] EXP boost ready (x3)"),
        "{}",
        out(&o)
    );
    std::fs::write(root.join("profile/options/exp-boost.json"), "{not json").unwrap();
    let o = pallet(&base);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("exp-boost.json"), "{}", err(&o));
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn load_validates_the_save_against_the_content_mods_it_was_shaped_by() {
    let root = temp("load-content");
    let scn = root.join("berry.scn");
    std::fs::write(&scn, "section Berries\nbag ORAN_BERRY 3\nbag POTION 1\n").unwrap();
    let scn = scn.display().to_string();
    let save = root.join("game.sav").display().to_string();
    let berries = repo("examples/mods/berry-items");
    let o = pallet(&[
        "run",
        "--no-default-mods",
        "--mods",
        &berries,
        "--scenario",
        &scn,
        "--save",
        &save,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let text = std::fs::read_to_string(&save).unwrap();
    assert!(text.contains("\"contentMods\""), "{text}");
    assert!(text.contains("berry-items"), "{text}");

    // With the mod: nothing to repair, no report.
    let short = short_scenario(&root);
    let with = pallet(&[
        "run",
        "--no-default-mods",
        "--mods",
        &berries,
        "--scenario",
        &short,
        "--load",
        &save,
    ]);
    assert_eq!(with.status.code(), Some(0), "{}", err(&with));
    assert!(!out(&with).contains("save validator:"), "{}", out(&with));

    // Without it: the validator says which content mod is missing and quarantines its item.
    let without = pallet(&[
        "run",
        "--no-default-mods",
        "--scenario",
        &short,
        "--load",
        &save,
    ]);
    assert_eq!(without.status.code(), Some(0), "{}", err(&without));
    let t = out(&without);
    let line = t
        .lines()
        .find(|l| l.starts_with("save validator: "))
        .unwrap_or_else(|| panic!("no validator report:\n{t}"));
    assert!(line.contains("\"missingContentMods\""), "{line}");
    assert!(line.contains("\"berry-items\""), "{line}");
    assert!(line.contains("\"not_loaded\""), "{line}");
    assert!(line.contains("ORAN_BERRY"), "{line}");
    let _ = std::fs::remove_dir_all(&root);
}
