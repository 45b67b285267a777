//! `pallet run`: boot a new game on the embedded data, play the built-in scenario
//! (`scenarios/main.scn`, embedded) and print a readable transcript. Same seed and version →
//! byte-identical output.
//!
//! The scenario is data: one command per line (the file's header documents them). Commands
//! expand into `Game::step(input)` ticks; `expect …` lines check the game and stop the run
//! with an error when the world is not where the scenario expects it.

//!
//! | module | concern |
//! |---|---|
//! | [`scenario`] | the scenario language: commands, conditions, `parse_scenario` |
//! | [`player`] | [`Player`]: commands → ticks, expectations, mod lines at their tick, [`format_rows`] |
//! | [`outcome`] | [`RunOptions`], [`RunOutcome`], [`RunFailure`] |
//! | [`json`] | `pallet run --json`: the run summary as one JSON document |
//! | (this file) | [`play`]/[`play_with_mods`]/[`play_opts`] (boot, load mods, play) and [`run`] (the verb: print, save, exit code) |

pub mod json;
pub mod outcome;
pub mod player;
pub mod scenario;

use std::fmt::Write as _;
use std::path::Path;
use std::rc::Rc;

use pallet_api::{Runtime, Value};
use pallet_engine::game::Game;
use pallet_engine::world::GameVersion;

pub use outcome::{RunFailure, RunOptions, RunOutcome};
pub use player::{format_rows, Player};
pub use scenario::{parse_scenario, Cmd, Cond, Line};

/// The built-in scenario.
pub const MAIN_SCENARIO: &str = include_str!("../../../scenarios/main.scn");

/// Play `scenario` on a new game of `version` with `seed`.
pub fn play(version: GameVersion, seed: u64, scenario: &str) -> Result<RunOutcome, RunFailure> {
    play_with_mods(version, seed, scenario, None)
}

/// [`play`] with mods loaded into the game's runtime before the game starts (`None`: no mods).
/// Expectations are strict (a failed `expect` stops the run), as tests want them.
pub fn play_with_mods(
    version: GameVersion,
    seed: u64,
    scenario: &str,
    mods: Option<&crate::host::ModsOptions>,
) -> Result<RunOutcome, RunFailure> {
    play_opts(&PlayOptions {
        version,
        seed,
        scenario,
        mods,
        strict: true,
        extras: crate::host::session::LoadExtras::default(),
        save: None,
    })
}

/// Everything [`play_opts`] takes.
pub struct PlayOptions<'a> {
    pub version: GameVersion,
    pub seed: u64,
    pub scenario: &'a str,
    pub mods: Option<&'a crate::host::ModsOptions>,
    /// A failed `expect` stops the run (`--strict`); otherwise it is reported and counted.
    pub strict: bool,
    /// `--option` values; the loaded save's `modData` is added from `save`.
    pub extras: crate::host::session::LoadExtras,
    /// `--load`: continue from this save instead of a new game.
    pub save: Option<pallet_engine::save::SaveData>,
}

/// Play a scenario with every run control.
pub fn play_opts(o: &PlayOptions<'_>) -> Result<RunOutcome, RunFailure> {
    let (version, seed) = (o.save.as_ref().map_or(o.version, |s| s.version), o.seed);
    let fail = |transcript: String, message: String| RunFailure {
        transcript,
        message,
        usage: false,
    };
    let lines = parse_scenario(o.scenario).map_err(|m| fail(String::new(), m))?;
    let rt = Rc::new(Runtime::new());
    let session = match o.mods {
        Some(opts) => {
            let api_version = pallet_engine::world::sites::api_version(version);
            let mut extras = o.extras.clone();
            if let Some(save) = &o.save {
                extras.mod_data = Some(Value::Map(save.mod_data.clone()));
            }
            let s = crate::host::ModSession::load_with(&rt, api_version, opts, &extras)
                .map_err(|m| fail(String::new(), m))?;
            // Options files may name mods this run does not load; their values for loaded
            // mods are checked like `--option`.
            let loaded: Vec<_> = extras
                .file_options
                .iter()
                .filter(|(id, key, _)| {
                    s.status().order.contains(id)
                        && !extras.options.iter().any(|(i, k, _)| i == id && k == key)
                })
                .cloned()
                .collect();
            s.check_options(&loaded)
                .and_then(|()| s.check_options(&extras.options))
                .map_err(|message| RunFailure {
                    transcript: String::new(),
                    message,
                    usage: true,
                })?;
            Some(s)
        }
        None => None,
    };
    // Boot (a new game, or the save's version with its progress) on the tables the content
    // mods compiled, let the Lua mods' function map-script handlers in, then enter the
    // overworld (as `new_game` / `from_save` do).
    let (boot_version, boot_save) = match &o.save {
        Some(save) => (save.version, Some(save.clone())),
        None => (version, None),
    };
    let mut game = match session.as_ref().and_then(|s| s.content.as_ref()) {
        Some(content) => Game::boot_with_content(boot_version, seed, rt, content),
        None => Game::boot(boot_version, seed, rt),
    }
    .map_err(|e| fail(String::new(), e.to_string()))?;
    let mut validation = None;
    if let Some(mut save) = boot_save {
        // The validator repairs, quarantines and remaps what this game's tables (and content
        // mods) no longer have, and says so; then the save is stamped with the content mods
        // that shape this run.
        let report = game.validate_save(&mut save);
        if !report.is_empty() || !report.missing_content_mods.is_empty() {
            validation = Some(report);
        }
        let content_mods = std::mem::take(&mut game.save.meta.content_mods);
        game.save = save;
        game.save.meta.content_mods = content_mods;
    }
    if let Some(s) = &session {
        s.install_map_handlers(&mut game);
        s.install_item_effects(&mut game);
    }
    game.enter_overworld()
        .map_err(|e| fail(String::new(), e.to_string()))?;
    let mut p = Player::new(game);
    p.strict = o.strict;
    let _ = writeln!(p.out, "pallet run: version {version}, seed {seed}");
    if o.save.is_some() {
        let pl = &p.game.save.player;
        let _ = writeln!(
            p.out,
            "continuing a save: {} ({},{}) facing {}",
            pl.map, pl.x, pl.y, pl.facing
        );
    }
    if let Some(report) = &validation {
        let json = serde_json::to_string(report).unwrap_or_default();
        let _ = writeln!(p.out, "save validator: {json}");
    }
    if let Some(s) = session {
        let _ = writeln!(p.out, "{}", s.summary());
        for line in s.failure_lines() {
            let _ = writeln!(p.out, "{line}");
        }
        p.mods = Some(s);
    }
    p.flush();
    // A bar on stderr while the scenario plays (terminal only; the transcript prints after).
    let bar = crate::cli::progress::bar(lines.len() as u64, "scenario lines");
    for line in &lines {
        bar.inc(1);
        if let Err(e) = p.run_line(line.number, &line.cmd) {
            bar.finish_and_clear();
            p.flush();
            let hint = crate::host::suggest::data_hint(&e);
            return Err(fail(
                p.out,
                format!("scenario line {}: {e}{hint}", line.number),
            ));
        }
    }
    bar.finish_and_clear();
    p.flush();
    if let Some(mods) = &p.mods {
        for line in mods.repeat_lines() {
            let _ = writeln!(p.out, "{line}");
        }
    }
    // Mod `save` buckets live on the host side; they join the save's `modData` at save time.
    if let Some(mods) = &p.mods {
        if let pallet_api::Value::Map(buckets) = mods.loader.mod_data.to_value() {
            p.game.save.mod_data = buckets;
        }
    }
    let mut summary = summary(&p.game);
    if !p.strict {
        let _ = writeln!(
            summary,
            "expectations: {} met, {} changed by mods",
            p.met,
            p.differed.len()
        );
    }
    p.out.push_str(&summary);
    let failed_mods = p.mods.as_ref().map(|m| m.failed_ids()).unwrap_or_default();
    let mods_status = p.mods.as_ref().map(|m| m.status().clone());
    Ok(RunOutcome {
        transcript: p.out,
        game: p.game,
        failed_mods,
        differed: p.differed,
        met: p.met,
        mods_status,
    })
}

fn summary(game: &Game) -> String {
    let mut s = String::from("\n## End\n");
    let pl = &game.save.player;
    let _ = writeln!(s, "ticks: {}", game.tick);
    let _ = writeln!(
        s,
        "player: {} ({},{}) facing {}",
        pl.map, pl.x, pl.y, pl.facing
    );
    let flags: Vec<&str> = game.save.flags.iter().map(String::as_str).collect();
    let _ = writeln!(
        s,
        "flags: {}",
        if flags.is_empty() {
            "-".to_owned()
        } else {
            flags.join(", ")
        }
    );
    s
}

fn write_save(path: &Path, game: &Game) -> Result<(), String> {
    // Through the game: `save.write` may veto, `save.writing` fires before the bytes go out.
    match game.write_save_file(path) {
        Ok(true) => Ok(()),
        Ok(false) => Err(format!(
            "save {} not written: a save.write link vetoed it",
            path.display()
        )),
        Err(e) => Err(format!("cannot write save {}: {e}", path.display())),
    }
}

/// `pallet run`: returns the exit code (0 ok; 1 a scenario or save failure, a failed
/// expectation under `--strict`, or a mod that failed to load; 2 bad usage).
pub fn run(opts: &RunOptions) -> i32 {
    let text = match &opts.scenario {
        Some(path) => match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("pallet run: --scenario {}: {e}", path.display());
                return 2;
            }
        },
        None => MAIN_SCENARIO.to_owned(),
    };
    let mut extras = crate::host::session::LoadExtras::default();
    for o in &opts.options {
        match crate::host::session::parse_option(o) {
            Ok(v) => extras.options.push(v),
            Err(e) => {
                eprintln!("pallet run: {e}");
                return 2;
            }
        }
    }
    if let Some(dir) = &opts.profile {
        extras.profile = Some(dir.clone());
        match crate::host::session::profile_options(dir) {
            Ok(v) => extras.file_options = v,
            Err(e) => {
                eprintln!("pallet run: --profile: {e}");
                return 2;
            }
        }
    }
    let save = match &opts.load {
        Some(path) => match pallet_engine::save::load_save(path) {
            Ok(loaded) => Some(loaded.save),
            Err(e) => {
                eprintln!("pallet run: --load {}: {e}", path.display());
                return 1;
            }
        },
        None => None,
    };
    // A script's `game:writeSave()` writes where the run's final save goes.
    pallet_engine::save_request::set_target(opts.save.clone());
    let outcome = play_opts(&PlayOptions {
        version: opts.version,
        seed: opts.seed,
        scenario: &text,
        mods: Some(&opts.mods),
        strict: opts.strict,
        extras,
        save,
    });
    pallet_engine::save_request::set_target(None);
    match outcome {
        Ok(outcome) => {
            let mut code = 0;
            let mut saved = None;
            if let Some(path) = &opts.save {
                if let Err(e) = write_save(path, &outcome.game) {
                    eprintln!("{e}");
                    code = 1;
                } else {
                    saved = Some(path.display().to_string());
                }
            }
            if !outcome.failed_mods.is_empty() {
                code = 1;
            }
            if opts.json {
                println!("{}", json::outcome_json(opts, &outcome, saved.as_deref()));
            } else {
                print!(
                    "{}",
                    crate::cli::style::paint(&outcome.transcript, crate::cli::style::stdout())
                );
                if let Some(path) = &saved {
                    println!("save written: {path}");
                }
            }
            if !outcome.failed_mods.is_empty() {
                let line = format!(
                    "pallet run: {} mod(s) failed to load: {} (reasons above)\n",
                    outcome.failed_mods.len(),
                    outcome.failed_mods.join(", ")
                );
                eprint!(
                    "{}",
                    crate::cli::style::paint(&line, crate::cli::style::stderr())
                );
            }
            code
        }
        Err(f) => {
            if opts.json {
                println!("{}", json::failure_json(opts, &f));
            } else {
                print!(
                    "{}",
                    crate::cli::style::paint(&f.transcript, crate::cli::style::stdout())
                );
            }
            let line = format!("pallet run: {}\n", f.message);
            eprint!(
                "{}",
                crate::cli::style::paint(&line, crate::cli::style::stderr())
            );
            if f.usage {
                2
            } else {
                1
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_scenario_parses() {
        let lines = parse_scenario(MAIN_SCENARIO).unwrap();
        assert!(lines.len() > 20);
        assert!(lines
            .iter()
            .any(|l| matches!(&l.cmd, Cmd::ExpectFlag(f, true) if f == "EVENT_SS_ANNE_LEFT")));
    }

    #[test]
    fn parse_errors_name_the_line() {
        assert_eq!(
            parse_scenario("walk up 2\nwalk sideways 1").unwrap_err(),
            "scenario line 2: bad direction \"sideways\""
        );
        assert!(parse_scenario("fly PALLET_TOWN")
            .unwrap_err()
            .contains("unknown command"));
        assert!(parse_scenario("walk up")
            .unwrap_err()
            .contains("takes 2 argument"));
        assert!(parse_scenario("expect map A 1").is_err());
        assert_eq!(parse_scenario("# only a comment\n\n").unwrap(), vec![]);
    }

    #[test]
    fn every_version_plays_the_scenario() {
        for v in [GameVersion::Red, GameVersion::Blue, GameVersion::Yellow] {
            let out = play(v, 7, MAIN_SCENARIO)
                .unwrap_or_else(|f| panic!("{v}: {}\n{}", f.message, f.transcript));
            assert!(out.transcript.contains("[text] The ship set sail."), "{v}");
            assert!(out
                .transcript
                .contains("active_block_at(VERMILION_DOCK, 7, 1) = 22"));
            assert!(out
                .transcript
                .contains("active_block_at(VERMILION_DOCK, 7, 1) = 1"));
            assert!(out
                .transcript
                .contains("active_block_at(VERMILION_CITY, 0, 0) = nil, \"map is not active\""));
        }
    }

    #[test]
    fn if_blocks_run_only_while_their_condition_holds() {
        assert!(parse_scenario("end")
            .unwrap_err()
            .contains("`end` without `if`"));
        assert!(parse_scenario("if map A")
            .unwrap_err()
            .contains("`if` without `end`"));
        assert!(parse_scenario("if moon A\nend")
            .unwrap_err()
            .contains("`if` takes"));
        assert!(parse_scenario("if boxed x\nend").is_err());
        // `walk left 5` would fail (a wall): it is skipped; the nested block runs.
        let scn = "if map PALLET_TOWN\nwalk left 5\nend\n\
                   if map REDS_HOUSE_1F\nif boxed 0\nwalk right 1\nend\nend\n\
                   if boxed 1\nwalk left 5\nend\n\
                   expect map REDS_HOUSE_1F 4 4\nunload dock-stay";
        let out = play(GameVersion::Red, 1, scn).unwrap_or_else(|f| panic!("{}", f.message));
        assert!(out.transcript.contains("mods: dock-stay is not loaded"));
    }

    #[test]
    fn a_failing_expectation_stops_the_run() {
        let f = play(GameVersion::Red, 1, "walk left 1\nexpect map PALLET_TOWN")
            .err()
            .unwrap();
        assert!(
            f.message
                .starts_with("scenario line 2: expected PALLET_TOWN"),
            "{}",
            f.message
        );
        let f = play(GameVersion::Red, 1, "walk left 5").err().unwrap();
        assert!(
            f.message.contains("blocked at REDS_HOUSE_1F (2,4)"),
            "{}",
            f.message
        );
    }
}
