//! RFC 0013 `world.active_block_at` (Lua `mod.world:activeBlockAt`), end to end: a real Rhai
//! mod holding the `world` capability reads the live map the engine lends at the departed
//! dock's `map.occupancy_allowed` dispatch, through the public `World` handle.
//!
//! RFC verification bullets → tests:
//! * accepts only the active map and valid in-range integral coordinates, every bad input kind
//!   rejected with its reason, in the documented order → `bad_inputs_are_rejected_with_the_rfc_reasons`,
//!   `without_an_overworld_the_read_says_no_overworld`
//! * returns a scalar → `bad_inputs_are_rejected_with_the_rfc_reasons` (`type_of` is `i64`)
//! * never mutates map or save → `reads_never_mutate_map_or_save`
//! * Red, Blue and Yellow use their own loaded map data → `each_version_answers_from_its_own_data`
//! * fixtures and changes contain no ROM or save payload → `rfc_fixtures_carry_no_rom_or_save_payload`
//!
//! `block unavailable` (absent or inconsistent storage) cannot be produced through the public
//! API — no public call corrupts a live map — so it is proven by the engine's unit test
//! `world::block_read::tests::malformed_storage_is_unavailable`.

mod rfc_support;

use std::path::{Path, PathBuf};
use std::rc::Rc;

use pallet_api::Runtime;
use pallet_engine::world::GameVersion;
use rfc_support::*;

const HOOKS_WORLD: &[&str] = &["hooks", "world"];

const NOT_ACTIVE: &str = "map is not active";
const INVALID: &str = "invalid block coordinates";
const OUT: &str = "block coordinates out of bounds";

/// `(label, bx expression, by expression, map expression, answer)` probes, run in one hook
/// dispatch; each logs `label=<code>` on failure or `label=<value>:<type>` on success. `m` is
/// `ctx.mapId` (the active map), `nan`/`inf` are the non-finite floats. The answers hold on the
/// departed dock of Red, Blue and Yellow alike.
const PROBES: &[(&str, &str, &str, &str, &str)] = &[
    // 1. the map must be the active one (checked before the coordinates)
    ("wrong map", "0", "0", r#""PALLET_TOWN""#, NOT_ACTIVE),
    ("map id not a string", "0", "0", "7", NOT_ACTIVE),
    ("map id unit", "0", "0", "()", NOT_ACTIVE),
    (
        "wrong map beats bad coordinates",
        "nan",
        "0",
        r#""VERMILION_CITY""#,
        NOT_ACTIVE,
    ),
    // 2. wrong type, non-finite or fractional coordinates
    ("x NaN", "nan", "0", "m", INVALID),
    ("y NaN", "0", "nan", "m", INVALID),
    ("x +inf", "inf", "0", "m", INVALID),
    ("y -inf", "0", "-inf", "m", INVALID),
    ("x fraction", "1.5", "0", "m", INVALID),
    ("y fraction", "0", "0.25", "m", INVALID),
    ("x numeric string", r#""1""#, "0", "m", INVALID),
    ("y string", "0", r#""one""#, "m", INVALID),
    ("x unit", "()", "0", "m", INVALID),
    ("y bool", "0", "true", "m", INVALID),
    ("x array", "[1]", "0", "m", INVALID),
    ("y map", "0", "#{ y: 1 }", "m", INVALID),
    ("x char", "'1'", "0", "m", INVALID),
    ("invalid beats out of bounds", "-1", "0.5", "m", INVALID),
    // 3. negative or outside the 14x6 dock
    ("x negative", "-1", "0", "m", OUT),
    ("y negative", "0", "-1", "m", OUT),
    ("x = width", "14", "0", "m", OUT),
    ("y = height", "0", "6", "m", OUT),
    ("x huge", "9223372036854775807", "0", "m", OUT),
    ("x most negative", "-9223372036854775807 - 1", "0", "m", OUT),
    ("x integral float far out", "1e300", "0", "m", OUT),
    ("y negative integral float", "0", "-2.0", "m", OUT),
    // 4. valid reads: integer scalars copied from the live map
    ("erased ship (7,1)", "7", "1", "m", "1:i64"),
    ("erased ship (7,2)", "7", "2", "m", "13:i64"),
    ("integral floats (7.0,1.0)", "7.0", "1.0", "m", "1:i64"),
    ("first cell", "0", "0", "m", "2:i64"),
    ("last cell", "13", "5", "m", "2:i64"),
];

fn probe_mod() -> String {
    let mut body = String::from(
        r#"hooks.wrap("map.occupancy_allowed", |next, game, ctx| {
    let m = ctx.mapId;
    let nan = parse_float("NaN");
    let inf = parse_float("inf");
"#,
    );
    for (label, x, y, map, _) in PROBES {
        body.push_str(&format!(
            r#"    try {{
        let v = world.active_block_at({map}, {x}, {y});
        log.info(`{label}=${{v}}:${{type_of(v)}}`);
    }} catch (e) {{
        log.info(`{label}=${{e.code}}`);
    }}
"#
        ));
    }
    body.push_str("    next.call(game, ctx)\n});\n");
    body
}

fn expected() -> Vec<String> {
    PROBES
        .iter()
        .map(|(label, _, _, _, answer)| format!("[probe] {label}={answer}"))
        .collect()
}

#[test]
fn bad_inputs_are_rejected_with_the_rfc_reasons() {
    let src = probe_mod();
    for version in VERSIONS {
        let mods = load(version, &[], &[("probe", HOOKS_WORLD, &src)]);
        let mut game = at_city_gate(version, Rc::clone(&mods.rt));
        let visit = enter_dock(&mut game);
        assert_ejected(&mut game, &visit, "the probe forwards vanilla");
        let feed = mods.feed();
        let want = expected();
        assert_eq!(feed.len(), want.len(), "{feed:#?}");
        for (got, want) in feed.iter().zip(&want) {
            assert_eq!(got, want, "{version}");
        }
    }
}

#[test]
fn without_an_overworld_the_read_says_no_overworld() {
    // At load time (the entry chunk) no world is lent; nor in a hook dispatched outside the
    // overworld (`exp.gain` here).
    let src = r#"
        try { world.active_block_at("VERMILION_DOCK", 0, 0); } catch (e) { log.info(`load: ${e.code}|${e.message}`); }
        hooks.wrap("exp.gain", |next, ctx| {
            try { world.active_block_at("VERMILION_DOCK", 0, 0); } catch (e) { log.info(`exp.gain: ${e.code}`); }
            next.call(ctx)
        });
    "#;
    let mods = load(GameVersion::Red, &[], &[("early", HOOKS_WORLD, src)]);
    let feed = mods.feed();
    assert_eq!(
        feed,
        vec!["[early] load: no overworld|there is no active overworld map right now".to_owned()]
    );
    use pallet_api::catalog::hooks::{ExpGain, ExpGainArgs, ExpGainContext};
    let args = ExpGainArgs {
        ctx: ExpGainContext {
            defeated_def: pallet_api::Value::Nil,
            level: 5,
            is_trainer: false,
            participants: 1,
            traded: false,
            mon: pallet_api::Value::Nil,
        },
    };
    assert_eq!(mods.rt.call::<ExpGain>(args, |_| 7), 7);
    assert_eq!(
        mods.feed(),
        vec!["[early] exp.gain: no overworld".to_owned()]
    );
    // The engine's own read agrees: a game at the title has no overworld.
    let title = pallet_engine::game::Game::boot(GameVersion::Red, 1, Rc::new(Runtime::new()))
        .expect("boot");
    assert_eq!(
        title
            .active_block_at(
                "REDS_HOUSE_1F",
                &pallet_api::Value::Int(0),
                &pallet_api::Value::Int(0)
            )
            .map_err(|e| e.as_str()),
        Err("no overworld")
    );
}

#[test]
fn reads_never_mutate_map_or_save() {
    let src = probe_mod();
    for version in VERSIONS {
        let mods = load(version, &[], &[("probe", HOOKS_WORLD, &src)]);
        let mut read = at_city_gate(version, Rc::clone(&mods.rt));
        let mut vanilla = at_city_gate(version, Rc::new(Runtime::new()));
        let before = save_bytes(&read);
        assert_eq!(before, save_bytes(&vanilla));
        let (a, b) = (enter_dock(&mut read), enter_dock(&mut vanilla));
        assert!(mods.feed().len() == PROBES.len());
        // After 31 reads (valid and invalid): the same map, the same save, the same screen as
        // a game nobody read from.
        assert_eq!(a.lines, b.lines, "{version}");
        assert_eq!(
            all_blocks(&read, "VERMILION_DOCK"),
            all_blocks(&vanilla, "VERMILION_DOCK")
        );
        assert_eq!(save_bytes(&read), save_bytes(&vanilla), "{version}");
        assert_eq!(
            read.overworld().map(|o| o.map().storage().to_vec()),
            vanilla.overworld().map(|o| o.map().storage().to_vec())
        );
        assert_eq!(read.busy(), vanilla.busy());
        let (ca, cb) = (close_text(&mut read), close_text(&mut vanilla));
        assert_eq!(ca, cb);
        assert_eq!(save_bytes(&read), save_bytes(&vanilla), "{version}");
    }
}

#[test]
fn each_version_answers_from_its_own_data() {
    let src = r#"hooks.wrap("map.occupancy_allowed", |next, game, ctx| {
        for by in 0..6 {
            let row = [];
            for bx in 0..14 { row.push(world.active_block_at(ctx.mapId, bx, by)); }
            log.info(`${ctx.gameVersion} ${by}: ${row}`);
        }
        next.call(game, ctx)
    });"#;
    let mut grids = Vec::new();
    for version in VERSIONS {
        let mods = load(version, &[], &[("reader", HOOKS_WORLD, src)]);
        let mut game = at_city_gate(version, Rc::clone(&mods.rt));
        enter_dock(&mut game);
        // What the mod read is the version's own loaded data with the ship erased.
        let def = game.maps().get("VERMILION_DOCK").expect("dock").clone();
        let mut want = def.blocks.clone();
        for (bx, by, water) in ERASED {
            want[(by as usize) * 14 + bx as usize] = water;
        }
        let read: Vec<u32> = mods
            .feed()
            .iter()
            .flat_map(|line| {
                let (_, row) = line.split_once(": ").expect("row line");
                row.trim_matches(|c| c == '[' || c == ']')
                    .split(", ")
                    .map(|n| n.parse::<u32>().expect("block id"))
                    .collect::<Vec<_>>()
            })
            .collect();
        assert_eq!(read, want, "{version}");
        assert_eq!(read, all_blocks(&game, "VERMILION_DOCK"));
        grids.push(read);
    }
    assert_eq!(grids[0], grids[1], "Red and Blue share the dock layout");
    assert_ne!(grids[0], grids[2], "Yellow's dock is its own");
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files_under(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// The example mods and test fixtures of RFC 0013/0018 are short, readable text: no binary
/// bytes, no save file, no long opaque runs (hex/base64 blobs) and no long tables of block ids —
/// the block signature is a handful of cells.
#[test]
fn rfc_fixtures_carry_no_rom_or_save_payload() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in [
        "../examples/mods/dock-stay",
        "../examples/mods/seventh-catch",
        "tests/rfc_support",
    ] {
        files_under(&root.join(dir), &mut files);
    }
    for name in [
        "tests/rfc0013_occupancy.rs",
        "tests/rfc0013_block_read.rs",
        "tests/rfc0018_party_full.rs",
    ] {
        files.push(root.join(name));
    }
    assert!(files.len() >= 7, "{files:?}");
    for f in files {
        let bytes = std::fs::read(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        assert!(bytes.len() < 48 * 1024, "{}: too large", f.display());
        let text =
            String::from_utf8(bytes).unwrap_or_else(|_| panic!("{}: not UTF-8", f.display()));
        assert!(
            !text
                .chars()
                .any(|c| c.is_control() && !matches!(c, '\n' | '\t' | '\r')),
            "{}: control bytes",
            f.display()
        );
        // The save header, spelled so this file does not contain it.
        let header = format!("{}-SAVE ", "PALLET");
        assert!(!text.contains(&header), "{}: a save", f.display());
        let mut run = 0;
        for c in text.chars() {
            run = if c.is_ascii_alphanumeric() || c == '+' || c == '/' {
                run + 1
            } else {
                0
            };
            assert!(run < 64, "{}: an opaque run of 64+ characters", f.display());
        }
        // No list of more than 16 bare numbers in a row (a block table or a ROM dump).
        let numbers = text
            .split(|c: char| !(c.is_ascii_digit() || c == ',' || c == ' ' || c == '\n'))
            .map(|chunk| chunk.split(',').filter(|n| !n.trim().is_empty()).count())
            .max()
            .unwrap_or(0);
        assert!(
            numbers <= 16,
            "{}: a table of {numbers} numbers",
            f.display()
        );
    }
}
