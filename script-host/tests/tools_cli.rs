//! Issue 20's CLI conventions and remaining diagnostics end to end: completions and man page,
//! colour only on a terminal (or forced, never with NO_COLOR), manifest findings with an
//! excerpt and did-you-mean, context shapes in `mods defs`, and mod log lines of battle
//! commands at the tick they happen.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn pallet_env(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_pallet"));
    c.args(args)
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE");
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("run pallet")
}

fn pallet(args: &[&str]) -> Output {
    pallet_env(args, &[])
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pallet-tools-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write_mod(root: &Path, name: &str, manifest: &str, text: &str) -> String {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("manifest.json"), manifest).unwrap();
    std::fs::write(dir.join("main.rhai"), text).unwrap();
    dir.display().to_string()
}

#[test]
fn completions_for_each_shell_and_a_man_page() {
    for (shell, marker) in [
        ("bash", "_pallet()"),
        ("zsh", "#compdef pallet"),
        ("fish", "complete -c pallet"),
    ] {
        let o = pallet(&["completions", shell]);
        assert_eq!(o.status.code(), Some(0), "{shell}: {}", err(&o));
        let t = out(&o);
        assert!(t.contains(marker), "{shell}: {t}");
        // Generated from the real parser: subcommands and their flags are there.
        assert!(t.contains("mods") && t.contains("strict"), "{shell}");
    }
    let o = pallet(&["completions", "tcsh"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("possible values"), "{}", err(&o));

    let o = pallet(&["man"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let page = out(&o);
    assert!(
        page.starts_with(".ie") || page.contains(".TH pallet"),
        "{page}"
    );
    assert!(
        page.contains("completions") && page.contains("man"),
        "{page}"
    );
    let dir = temp("man");
    let o = pallet(&["man", "--out", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(dir.join("pallet.1").is_file());
    let run = std::fs::read_to_string(dir.join("pallet-run.1")).expect("pallet-run.1");
    assert!(run.contains("strict"), "{run}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn colour_only_on_a_terminal_or_forced_and_never_with_no_color() {
    let root = temp("colour");
    let bad = write_mod(
        &root,
        "typo",
        r#"{"id": "typo", "name": "t", "version": "1.0.0", "api": 2, "entry": "main.rhai", "capabilities": ["hooks"]}"#,
        "hooks.wrapp(\"exp.gain\", |next, ctx| next.call(ctx));\n",
    );
    // Piped: plain text.
    let o = pallet(&["mods", "check", &bad]);
    assert_eq!(o.status.code(), Some(1));
    assert!(!out(&o).contains('\u{1b}'), "{}", out(&o));
    assert!(out(&o).contains("did you mean \"wrap\""), "{}", out(&o));
    // Forced: the error lines are red, the text is the same.
    let o = pallet_env(&["mods", "check", &bad], &[("CLICOLOR_FORCE", "1")]);
    assert_eq!(o.status.code(), Some(1));
    let t = out(&o);
    assert!(t.contains("\u{1b}[1;31m"), "{t:?}");
    assert!(t.contains("did you mean \"wrap\""), "{t}");
    // NO_COLOR wins over everything.
    let o = pallet_env(
        &["mods", "check", &bad],
        &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")],
    );
    assert!(!out(&o).contains('\u{1b}'), "{}", out(&o));
    // --json is never painted.
    let o = pallet_env(
        &["mods", "check", "--json", &bad],
        &[("CLICOLOR_FORCE", "1")],
    );
    assert!(!out(&o).contains('\u{1b}'));
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn manifest_findings_show_the_manifest_line_and_a_did_you_mean() {
    let root = temp("manifest");
    let cap = write_mod(
        &root,
        "cap",
        "{\"id\": \"cap\", \"name\": \"c\", \"version\": \"1.0.0\", \"api\": 2, \"entry\": \"main.rhai\",\n  \"capabilities\": [\"hokos\"]}\n",
        "let x = 1;\n",
    );
    let o = pallet(&["mods", "check", &cap]);
    let t = out(&o);
    assert_eq!(o.status.code(), Some(1), "{t}");
    assert!(
        t.contains("unknown capability \"hokos\" (did you mean \"hooks\"?)"),
        "{t}"
    );
    assert!(t.contains("manifest.json:2:"), "{t}");
    assert!(
        t.contains("\"capabilities\": [\"hokos\"]") && t.contains('^'),
        "{t}"
    );

    let comma = write_mod(
        &root,
        "comma",
        "{\"id\": \"comma\", \"name\": \"c\", \"version\": \"1.0.0\",\n \"api\": 2, \"entry\": \"main.rhai\",\n}\n",
        "let x = 1;\n",
    );
    let o = pallet(&["mods", "check", &comma]);
    let t = out(&o);
    assert_eq!(o.status.code(), Some(1), "{t}");
    assert!(
        t.contains("trailing comma") && t.contains("manifest.json:3:1"),
        "{t}"
    );
    assert!(t.contains("3 | }"), "the excerpt shows the line: {t}");
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn mods_defs_document_every_context_shape() {
    let root = temp("defs");
    let o = pallet(&["mods", "defs", root.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let hooks = std::fs::read_to_string(root.join("hooks.d.rhai")).unwrap();
    assert!(
        hooks.contains("fn catch__party_full(next: Fn, game: map, ctx: map) -> ?;")
            || hooks.contains("fn catch__party_full(next: Fn,"),
        "{hooks}"
    );
    assert!(hooks.contains("/// - `game`: `#{"), "{hooks}");
    let events = std::fs::read_to_string(root.join("events.d.rhai")).unwrap();
    assert!(events.contains("/// Payload: `#{"), "{events}");
    assert!(
        events.contains("fn map__entered(payload: map);"),
        "{events}"
    );
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn mod_log_lines_of_battle_commands_come_at_their_tick() {
    // The bundled event-logger logs each catch: its line comes right after the battle's own
    // rows, before the walk back out of the grass that the same `seek` command makes.
    let o = pallet(&["run", "--seed", "1"]);
    let t = out(&o);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let caught = t.find("was caught!").expect("a catch row");
    let logged = caught
        + t[caught..]
            .find("[event-logger] caught ")
            .expect("its log line");
    let walk = caught + t[caught..].find(" walk ").expect("the walk back");
    assert!(
        logged < walk,
        "the log line precedes the later walk row: {}",
        &t[caught..]
    );
}

#[test]
fn a_mistyped_trainer_class_gets_a_did_you_mean() {
    let root = temp("trainer");
    let scn = root.join("t.scn");
    std::fs::write(&scn, "trainer BUG_CATCHR 0\n").unwrap();
    let o = pallet(&[
        "run",
        "--no-default-mods",
        "--scenario",
        scn.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        err(&o).contains("scenario line 1: ")
            && err(&o).contains("(did you mean \"BUG_CATCHER\"?)"),
        "{}",
        err(&o)
    );
    let _ = std::fs::remove_dir_all(&root);
}
