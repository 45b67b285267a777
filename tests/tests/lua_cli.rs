//! `pallet run --mods DIR` and `pallet mods check DIR` accept legacy Lua mods.

use std::path::{Path, PathBuf};

use pallet_engine::world::GameVersion;
use pallet_script_host::cli::cmd_mods::check;
use pallet_script_host::cli::cmd_run::{play_with_mods, MAIN_SCENARIO};
use pallet_script_host::host::ModsOptions;

fn lua_mods() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/lua_mods")
}

#[test]
fn run_loads_lua_mods_next_to_rhai_mods() {
    let opts = ModsOptions {
        dirs: vec![
            lua_mods().join("event-logger"),
            lua_mods().join("exp-boost"),
            lua_mods().join("hostile-loop-in-hook"),
        ],
        ..ModsOptions::default()
    };
    let out = play_with_mods(GameVersion::Red, 1, MAIN_SCENARIO, Some(&opts)).unwrap();
    let t = &out.transcript;
    assert!(t.contains("lua-event-logger"), "{t}");
    assert!(t.contains("[exp-boost] EXP boost ready (x2)"), "{t}");
    assert!(
        t.contains("[lua-event-logger] entered PALLET_TOWN from REDS_HOUSE_1F"),
        "{t}"
    );
    // Deterministic: the same run twice gives the same transcript.
    let again = play_with_mods(GameVersion::Red, 1, MAIN_SCENARIO, Some(&opts)).unwrap();
    assert_eq!(out.transcript, again.transcript);
}

#[test]
fn mods_check_compiles_lua_without_running_it() {
    // `mods check` does the real load: the hostile fixtures that fail at load time fail here
    // too, with the run's message; the others are ok.
    let (code, out, err) = check(&[lua_mods()]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("ok: exp-boost"), "{out}");
    assert!(
        out.contains("[hostile-loop-at-load] entry main.lua: operation budget exhausted"),
        "{out}"
    );
    // A syntax error is a finding with file and line; nothing ran (a loop at load is fine).
    let dir = std::env::temp_dir().join(format!("pallet-lua-check-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("manifest.json"),
        r#"{"id": "broken", "name": "b", "version": "1", "entry": "main.lua"}"#,
    )
    .unwrap();
    std::fs::write(
        dir.join("main.lua"),
        "local mod = ...\nwhile true do end\nlocal x = = 1\n",
    )
    .unwrap();
    let (code, out, err) = check(std::slice::from_ref(&dir));
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("main.lua:3"), "{out}");
    // Notes: hooks Pallet does not raise, engine internals, LÖVE.
    std::fs::write(
        dir.join("main.lua"),
        // (In functions the load never calls: `mods check` runs the entry for real, and a
        // top-level `require` of an engine internal fails the load as it does at run time.)
        "local mod = ...\nmod.hooks:wrap(\"render.hud\", function(next) end)\nlocal function probe() return require(\"src.core.Game\") end\nlocal function draw() love.graphics.print('x') end\n",
    )
    .unwrap();
    let (code, out, err) = check(std::slice::from_ref(&dir));
    assert_eq!(code, 0, "{out}{err}");
    for needle in ["render.hud", "src.core.Game", "LÖVE"] {
        assert!(
            out.contains(needle) || err.contains(needle),
            "{needle}: {out}{err}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn pallet_run_loads_the_bundled_lua_example_by_default() {
    let opts = ModsOptions::default();
    let out = play_with_mods(GameVersion::Red, 1, MAIN_SCENARIO, Some(&opts)).unwrap();
    let t = &out.transcript;
    assert!(t.contains(", trail-journal], failed 0"), "{t}");
    // Its listener, its `encounter.roll` wrapper (Lua, on the live chain) and its save counter.
    assert!(
        t.contains("[trail-journal] first visit: REDS_HOUSE_1F (places visited: 1)"),
        "{t}"
    );
    assert!(
        t.contains("[trail-journal] first visit: ROUTE_1 (places visited: 3)"),
        "{t}"
    );
    let wild = t
        .find("[trail-journal] wild ")
        .expect("the Lua encounter.roll wrapper saw vanilla's encounter");
    assert!(
        t[wild..].starts_with("[trail-journal] wild PIDGEY (L3) in the grass of ROUTE_1"),
        "{t}"
    );
    assert!(
        t[wild..].contains("[trail-journal] battles: 1 won, 0 lost, 0 fled, 1 caught"),
        "{t}"
    );
    // The wrapper hands vanilla's answer back unchanged: without the bundled mods the game
    // plays the same (every other transcript line is identical).
    let plain =
        play_with_mods(
            GameVersion::Red,
            1,
            MAIN_SCENARIO,
            Some(&ModsOptions {
                dirs: vec![
                    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/mods/trail-journal")
                ],
                no_default_mods: true,
                ..ModsOptions::default()
            }),
        )
        .unwrap();
    let without = play_with_mods(
        GameVersion::Red,
        1,
        MAIN_SCENARIO,
        Some(&ModsOptions {
            no_default_mods: true,
            ..ModsOptions::default()
        }),
    )
    .unwrap();
    let game_lines = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| !l.starts_with("[trail-journal]") && !l.starts_with("mods: loaded"))
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(
        game_lines(&plain.transcript),
        game_lines(&without.transcript)
    );
    assert!(
        plain.transcript.contains("[trail-journal] wild "),
        "{}",
        plain.transcript
    );
    // Deterministic.
    let again = play_with_mods(GameVersion::Red, 1, MAIN_SCENARIO, Some(&opts)).unwrap();
    assert_eq!(out.transcript, again.transcript);
}

#[test]
fn ctx_rng_in_the_real_game_is_seeded_from_the_game_rng_without_advancing_it() {
    // A Lua wrapper draws from `ctx.rng` *before* vanilla rolls: the draws repeat for the same
    // run seed and change with it, and the game plays exactly as without the mod.
    let dir = std::env::temp_dir().join(format!("pallet-lua-rng-probe-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("manifest.json"),
        r#"{"id": "rng-probe", "name": "p", "version": "1.0.0", "api": 2, "entry": "main.lua"}"#,
    )
    .unwrap();
    std::fs::write(
        dir.join("main.lua"),
        r#"return function(mod)
             mod.hooks:wrap("encounter.roll", function(next, encDef, ctx)
               mod.log:info("draw %d %d", ctx.rng(1, 1000000), ctx.rng:random(1, 1000000))
               return next()
             end)
           end"#,
    )
    .unwrap();
    let run = |seed: u64, with_probe: bool| {
        let opts = ModsOptions {
            dirs: if with_probe {
                vec![dir.clone()]
            } else {
                vec![]
            },
            no_default_mods: true,
            ..ModsOptions::default()
        };
        play_with_mods(GameVersion::Red, seed, MAIN_SCENARIO, Some(&opts))
            .unwrap()
            .transcript
    };
    let draws = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| l.starts_with("[rng-probe] draw "))
            .map(str::to_owned)
            .collect()
    };
    let game = |t: &str| -> Vec<String> {
        t.lines()
            // Walk rows are split where a mod's log line lands (lines print at their tick):
            // the game is compared by every other row and the end state.
            .filter(|l| {
                !l.starts_with("[rng-probe]")
                    && !l.starts_with("mods: loaded")
                    && !l.contains("] walk ")
            })
            .map(str::to_owned)
            .collect()
    };
    let (a, b, other, plain) = (run(1, true), run(1, true), run(2, true), run(1, false));
    assert!(draws(&a).len() > 20, "one draw line per grass step: {a}");
    assert_eq!(draws(&a), draws(&b));
    assert_ne!(draws(&a)[..10], draws(&other)[..10]);
    // Two draws in one call differ (the handle advances), and distinct steps differ.
    let first_line = draws(&a)[0].clone();
    let first: Vec<&str> = first_line.split(' ').collect();
    assert_ne!(first[2], first[3], "{first:?}");
    assert_eq!(game(&a), game(&plain));
    let _ = std::fs::remove_dir_all(&dir);
}
