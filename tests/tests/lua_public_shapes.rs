//! Issue 18: original fixture mods in the shapes of the public Lua mods that use only the
//! public API (`tests/fixtures/lua_mods/shape-*`), each loaded and checked for the behaviour the
//! public mod's own upstream test describes — handles as tables, a thinner drawing from
//! `ctx.rng`, …

mod lua_support;

use lua_support::*;
use pallet_api::content::Content;
use pallet_api::Value;
use pallet_engine::rng::Rng;
use pallet_engine::world::map::{EncounterSlot, EncounterTable};
use pallet_engine::world::sites;

fn saved(env: &Env, id: &str, key: &str) -> Option<Value> {
    env.loader
        .mod_data
        .to_value()
        .get(id)
        .and_then(|b| b.get(key))
        .cloned()
}

#[test]
fn handles_are_tables_with_colon_methods_and_stay_unforgeable() {
    let env = load(&[lua_fixture("shape-handle-probe")], vec![]);
    env.assert_loaded("shape-handle-probe");
    let feed = unprefixed(&env.feed());
    for n in [
        "hooks",
        "events",
        "log",
        "save",
        "options",
        "content",
        "world",
        "checkpoints",
        "datasets",
        "storage",
        "assets",
    ] {
        assert!(feed.contains(&format!("{n} is a table")), "{n}: {feed:?}");
    }
    for line in [
        // Outside an engine lending scope the capability answers, through `:`, why not.
        "inspect -> table script_busy",
        "dot call 7",
        "content.pokemon is a table",
        "same registry true",
        "method on another handle false",
        "write false",
    ] {
        assert!(feed.contains(&line.to_owned()), "{line}: {feed:?}");
    }
}

fn grass() -> EncounterTable {
    EncounterTable {
        grass_rate: 255,
        grass: (0..10)
            .map(|i| EncounterSlot {
                species: if i % 2 == 0 { "PIDGEY" } else { "RATTATA" }.into(),
                level: 3 + i,
            })
            .collect(),
    }
}

/// `steps` grass steps through the engine's own `encounter.roll` site and game RNG.
fn walk(env: &Env, seed: u64, steps: usize) -> (usize, Vec<bool>) {
    let table = grass();
    let mut rng = Rng::new(seed);
    let outs: Vec<bool> = (0..steps)
        .map(|_| sites::encounter_roll(&env.rt, "ROUTE_1", &table, &mut rng).is_some())
        .collect();
    // grass_rate 255: vanilla alone would meet something on nearly every step.
    (outs.iter().filter(|o| **o).count(), outs)
}

#[test]
fn a_thinner_drawing_from_ctx_rng_keeps_its_share_after_suppressed_steps() {
    for (keep, lo, hi) in [(50, 160, 240), (25, 70, 130), (100, 395, 400), (0, 0, 0)] {
        let env = load_with(
            &[lua_fixture("shape-grass-thinner")],
            vec![],
            Setup {
                content: Content::new(),
                options: vec![(
                    "shape-grass-thinner".into(),
                    "keep".into(),
                    Value::Int(keep),
                )],
            },
        );
        env.assert_loaded("shape-grass-thinner");
        let (met, outs) = walk(&env, 77, 400);
        assert!(
            (lo..=hi).contains(&met),
            "keep {keep}%: met {met} of 400 ({outs:?})"
        );
        let kept = saved(&env, "shape-grass-thinner", "kept").unwrap_or(Value::Int(0));
        let suppressed = saved(&env, "shape-grass-thinner", "suppressed").unwrap_or(Value::Int(0));
        assert_eq!(
            (kept.as_exact_int().unwrap_or(0) + suppressed.as_exact_int().unwrap_or(0)),
            400
        );
        // Deterministic: the same seed walks the same way.
        let again = load_with(
            &[lua_fixture("shape-grass-thinner")],
            vec![],
            Setup {
                content: Content::new(),
                options: vec![(
                    "shape-grass-thinner".into(),
                    "keep".into(),
                    Value::Int(keep),
                )],
            },
        );
        assert_eq!(walk(&again, 77, 400).1, outs);
    }
}

#[test]
fn a_pass_through_roll_leaves_the_game_rng_as_without_mods() {
    let env = load(
        &[],
        vec![lua_mod(
            "pass",
            "return function(mod) mod.hooks:wrap('encounter.roll', function(next, e, ctx) return next(e, ctx) end) end",
        )],
    );
    env.assert_loaded("pass");
    let table = grass();
    let (mut a, mut b) = (Rng::new(5), Rng::new(5));
    let bare = pallet_api::Runtime::new();
    for _ in 0..50 {
        let x = sites::encounter_roll(&env.rt, "ROUTE_1", &table, &mut a);
        let y = sites::encounter_roll(&bare, "ROUTE_1", &table, &mut b);
        let strip = |e: Option<pallet_engine::world::encounters::WildEncounter>| {
            e.map(|e| (e.species, e.level))
        };
        assert_eq!(strip(x), strip(y));
    }
    assert_eq!(a.state(), b.state());
}

#[test]
fn empty_tables_read_as_the_schema_expects() {
    let mut content = Content::new();
    content
        .set_base(
            "maps",
            [(
                "ROUTE_1".to_owned(),
                Value::map([
                    ("width", Value::Int(10)),
                    ("height", Value::Int(18)),
                    (
                        "connections",
                        Value::map([("north", Value::from("VIRIDIAN_CITY"))]),
                    ),
                ]),
            )]
            .into_iter()
            .collect(),
        )
        .unwrap();
    let main = r#"return function(mod)
      -- `{}` where the schema expects a map (connections, talk) and where it expects a list
      -- (warps, onEnter); an empty patch is a no-op.
      mod.content.maps:register("SECRET_MEADOW", { width = 4, height = 4, connections = {}, warps = {} })
      mod.content.maps:patch("ROUTE_1", {})
      mod.content.maps:patch("ROUTE_1", { connections = {} })
      mod.content.map_scripts:register("SECRET_MEADOW", { onEnter = {}, talk = {} })
      local r = mod.content.maps:get("ROUTE_1")
      mod.log:info("north %s", tostring(r.connections.north))
    end"#;
    let env = load_with(
        &[],
        vec![lua_mod("empties", main)],
        Setup {
            content,
            options: vec![],
        },
    );
    env.assert_loaded("empties");
    assert!(
        env.feed()
            .contains(&"[empties] north VIRIDIAN_CITY".to_owned()),
        "{:?}",
        env.feed()
    );
    let content = env.loader.content.borrow();
    let meadow = content.get("maps", "SECRET_MEADOW").unwrap();
    assert_eq!(
        meadow.get("connections"),
        Some(&Value::Map(Default::default()))
    );
    assert_eq!(meadow.get("warps"), Some(&Value::List(vec![])));
}

/// Load Lua mod folders with a profile folder (options files, storage) and CLI-style option
/// overrides, as `pallet run` does.
fn load_profile(
    dirs: &[std::path::PathBuf],
    profile: &std::path::Path,
    overrides: &[(&str, &str, Value)],
    content: Content,
) -> Env {
    use pallet_api::catalog::common::GameVersion;
    use pallet_api::loader::{EnableState, Loader, ModCandidate};
    use std::collections::BTreeMap;
    use std::rc::Rc;
    let rt = Rc::new(pallet_api::Runtime::new());
    let lua = pallet_compat_lua::LuaHost::new(&rt);
    lua.set_profile(Some(profile.to_owned()));
    let rhai = pallet_script_host::host::RhaiHost::new(&rt);
    let (lua_monitor, rhai_monitor) = (lua.monitor(), rhai.monitor());
    let candidates: Vec<ModCandidate> = dirs.iter().map(|d| ModCandidate::from_dir(d)).collect();
    let mut loader = Loader::new(GameVersion::Red, "0.1.0", content);
    assert_eq!(loader.options.load_profile(profile), Vec::<String>::new());
    let mut per_mod: BTreeMap<String, BTreeMap<String, Value>> = BTreeMap::new();
    for (id, key, v) in overrides {
        per_mod
            .entry((*id).to_owned())
            .or_default()
            .insert((*key).to_owned(), v.clone());
    }
    loader.options.apply_overrides(&per_mod);
    loader.add_host(Box::new(lua));
    loader.add_host(Box::new(rhai));
    loader.load(&rt, &candidates, &EnableState::default());
    Env {
        rt,
        loader,
        lua: lua_monitor,
        rhai: rhai_monitor,
    }
}

fn temp_profile(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("pallet-shapes-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn exp_multiplier_reads_its_choice_from_the_profile_the_command_line_and_live_changes() {
    let id = "shape-exp-multiplier";
    let profile = temp_profile("exp");
    std::fs::create_dir_all(profile.join("options")).unwrap();
    std::fs::write(
        profile.join("options").join(format!("{id}.json")),
        r#"{"factor": 3}"#,
    )
    .unwrap();
    // The profile file alone: x3.
    let env = load_profile(&[lua_fixture(id)], &profile, &[], Content::new());
    env.assert_loaded(id);
    assert_eq!(exp_gain(&env.rt, 100), (300, 1));
    assert!(
        env.feed().contains(&format!("[{id}] factor at load: x3")),
        "{:?}",
        env.feed()
    );
    // The command line wins over the file; an illegal value falls back to the default.
    let env = load_profile(
        &[lua_fixture(id)],
        &profile,
        &[(id, "factor", Value::Int(5))],
        Content::new(),
    );
    assert_eq!(exp_gain(&env.rt, 100), (500, 1));
    let env = load_profile(
        &[lua_fixture(id)],
        &profile,
        &[(id, "factor", Value::Int(4))],
        Content::new(),
    );
    assert_eq!(exp_gain(&env.rt, 100), (100, 1));
    // A runtime change is read live and emits mod.options_changed once per change.
    assert_eq!(
        env.loader
            .options
            .set_live(&env.rt, id, "factor", Value::Int(2)),
        Ok(true)
    );
    assert_eq!(
        env.loader
            .options
            .set_live(&env.rt, id, "factor", Value::Int(2)),
        Ok(false)
    );
    assert!(env
        .loader
        .options
        .set_live(&env.rt, id, "factor", Value::Int(7))
        .is_err());
    assert!(env
        .loader
        .options
        .set_live(&env.rt, id, "nope", Value::Int(1))
        .is_err());
    assert_eq!(exp_gain(&env.rt, 100), (200, 1));
    let changed: Vec<String> = env
        .feed()
        .into_iter()
        .filter(|l| l.contains("is now"))
        .collect();
    assert_eq!(changed, vec![format!("[{id}] option factor is now 2")]);
    let _ = std::fs::remove_dir_all(&profile);
}

#[test]
fn a_broken_options_file_is_reported_not_silent() {
    let profile = temp_profile("badopts");
    std::fs::create_dir_all(profile.join("options")).unwrap();
    std::fs::write(profile.join("options").join("m.json"), "[1, 2").unwrap();
    let errors = pallet_api::services::OptionsStore::new().load_profile(&profile);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains("m.json"), "{errors:?}");
    let _ = std::fs::remove_dir_all(&profile);
}

#[test]
fn sprite_pack_points_records_at_its_own_files_without_bytes() {
    let mut content = Content::new();
    content
        .set_base(
            "pokemon",
            [(
                "PIKACHU".to_owned(),
                Value::map([
                    ("name", Value::from("PIKACHU")),
                    (
                        "baseStats",
                        Value::map([
                            ("hp", Value::Int(35)),
                            ("attack", Value::Int(55)),
                            ("defense", Value::Int(30)),
                            ("speed", Value::Int(90)),
                            ("special", Value::Int(50)),
                        ]),
                    ),
                    ("types", Value::List(vec![Value::from("ELECTRIC")])),
                ]),
            )]
            .into_iter()
            .collect(),
        )
        .unwrap();
    let profile = temp_profile("sprites");
    let env = load_profile(&[lua_fixture("shape-sprite-pack")], &profile, &[], content);
    env.assert_loaded("shape-sprite-pack");
    let feed = unprefixed(&env.feed());
    for line in [
        "assets/front/025_pikachu.png is a file of 17 bytes",
        "missing file info nil",
        "escape refused false",
    ] {
        assert!(feed.contains(&line.to_owned()), "{line}: {feed:?}");
    }
    let content = env.loader.content.borrow();
    assert_eq!(
        content
            .get("pokemon", "PIKACHU")
            .and_then(|r| r.get("spriteFront")),
        Some(&Value::from(
            "mods/shape-sprite-pack/assets/front/025_pikachu.png"
        ))
    );
    let _ = std::fs::remove_dir_all(&profile);
}

#[test]
fn state_store_keeps_records_across_runs_in_its_private_folder() {
    let id = "shape-state-store";
    let profile = temp_profile("store");
    let first = load_profile(&[lua_fixture(id)], &profile, &[], Content::new());
    first.assert_loaded(id);
    let feed = unprefixed(&first.feed());
    for line in [
        "context for shape-state-store",
        "write slot1 true nil",
        "slots: states/slot1",
        "slot1 holds PIKACHU",
        "bad key -> invalid_key",
        "missing -> not_found",
    ] {
        assert!(feed.contains(&line.to_owned()), "{line}: {feed:?}");
    }
    // A second run reads the index the first one wrote.
    let second = load_profile(&[lua_fixture(id)], &profile, &[], Content::new());
    let feed = unprefixed(&second.feed());
    assert!(
        feed.contains(&"write slot2 true nil".to_owned()),
        "{feed:?}"
    );
    assert!(feed.contains(&"delete slot1 true".to_owned()), "{feed:?}");
    let root = profile.join("storage").join(id);
    assert!(root.join("index.json").is_file());
    assert!(root.join("states/slot2.json").is_file());
    assert!(!root.join("states/slot1.json").exists());
    // Nothing else was written anywhere in the profile, and no temporary file is left.
    let mut all = Vec::new();
    fn walk(d: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(d).unwrap().flatten() {
            if e.path().is_dir() {
                walk(&e.path(), out);
            } else {
                out.push(e.path());
            }
        }
    }
    walk(&profile, &mut all);
    assert!(
        all.iter()
            .all(|p| p.starts_with(&root) && p.extension().is_some_and(|e| e == "json")),
        "{all:?}"
    );
    // Without a profile folder, storage says so.
    let bare = load(&[lua_fixture(id)], vec![]);
    assert!(
        unprefixed(&bare.feed()).contains(&"storage unavailable (storage_unavailable)".to_owned()),
        "{:?}",
        bare.feed()
    );
    let _ = std::fs::remove_dir_all(&profile);
}

/// A party of `hps.len()` mons with those HPs (detached records, as the engine sends them).
fn party(hps: &[i64]) -> Vec<Value> {
    hps.iter()
        .enumerate()
        .map(|(i, &hp)| {
            Value::map([
                (
                    "species",
                    Value::from(["RATTATA", "PIDGEY", "ODDISH", "MANKEY"][i % 4]),
                ),
                ("level", Value::Int(5)),
                ("hp", Value::Int(hp)),
                ("maxHp", Value::Int(20)),
            ])
        })
        .collect()
}

fn exp_award(env: &Env, alive: Vec<u8>) -> (Vec<pallet_api::catalog::hooks::ExpShare>, bool) {
    exp_award_in(env, alive, Vec::new())
}

fn exp_award_in(
    env: &Env,
    alive: Vec<u8>,
    party: Vec<Value>,
) -> (Vec<pallet_api::catalog::hooks::ExpShare>, bool) {
    use pallet_api::catalog::hooks::{
        BattleExpAward, BattleExpAwardArgs, ExpAwardContext, ExpShare,
    };
    let vanilla_ran = std::cell::Cell::new(false);
    let args = BattleExpAwardArgs {
        ctx: ExpAwardContext {
            battle: pallet_api::catalog::common::BattleInfo::default(),
            participants: alive.len() as u8,
            alive: alive.clone(),
            party,
        },
    };
    let out = env.rt.call::<BattleExpAward>(args, |a| {
        vanilla_ran.set(true);
        let n = a.ctx.alive.len() as u8;
        a.ctx
            .alive
            .iter()
            .map(|&slot| ExpShare {
                slot,
                split: n,
                announce: true,
            })
            .collect()
    });
    (out, vanilla_ran.get())
}

fn share(slot: u8, split: u8, announce: bool) -> pallet_api::catalog::hooks::ExpShare {
    pallet_api::catalog::hooks::ExpShare {
        slot,
        split,
        announce,
    }
}

#[test]
fn party_exp_share_pays_the_standing_bench_through_apply_share() {
    let id = "shape-party-exp-share";
    let env = load(&[lua_fixture(id)], vec![]);
    env.assert_loaded(id);
    // RATTATA fought; PIDGEY and MANKEY stood on the bench; ODDISH fainted.
    let (shares, vanilla) = exp_award_in(&env, vec![0], party(&[20, 15, 0, 9]));
    assert!(!vanilla, "the mod replaces the vanilla split");
    assert_eq!(
        shares,
        vec![share(0, 1, true), share(1, 1, true), share(3, 1, true)]
    );
    // Two fighters, a HALF bench share (split doubled), the bench not announced: the options
    // are read live, and the callable is fresh per call (no share leaks into the next).
    let env = load_with(
        &[lua_fixture(id)],
        vec![],
        Setup {
            content: Content::new(),
            options: vec![
                (id.into(), "bench".into(), Value::Float(0.5)),
                (id.into(), "announce".into(), Value::Bool(false)),
            ],
        },
    );
    let (shares, _) = exp_award_in(&env, vec![0, 1], party(&[20, 15, 0, 9]));
    assert_eq!(
        shares,
        vec![share(0, 2, true), share(1, 2, true), share(3, 4, false)]
    );
    // Without party records (an engine that sends none) the fighters are still paid.
    assert_eq!(exp_award(&env, vec![4]).0, vec![share(4, 1, true)]);
    assert_eq!(saved(&env, id, "awards"), Some(Value::Int(2)));
}

#[test]
fn exp_award_ctx_speaks_the_lua_engines_spelling() {
    // ctx.alive entries are the very tables of ctx.battle.game.save.party, ctx.party is not
    // there, and a next(ctx) after reading it all hands the engine its own context back.
    let env = load(
        &[],
        vec![lua_mod(
            "probe",
            "return function(mod) mod.hooks:wrap('battle.exp_award', function(next, ctx) \
               local party = ctx.battle.game.save.party \
               mod.log:info('same=%s second=%s party=%s species=%s n=%d', \
                 tostring(ctx.alive[1] == party[2]), tostring(ctx.alive[2] == party[4]), \
                 tostring(ctx.party), party[2].species, #party) \
               local ok, e = pcall(function() ctx.battle.game.save.party = {} end) \
               mod.log:info('write: %s', tostring(e)) \
               return next(ctx) end) end",
        )],
    );
    env.assert_loaded("probe");
    let (shares, vanilla) = exp_award_in(&env, vec![1, 3], party(&[20, 15, 0, 9]));
    assert!(vanilla);
    assert_eq!(shares, vec![share(1, 2, true), share(3, 2, true)]);
    let feed = unprefixed(&env.feed());
    assert!(
        feed.contains(&"same=true second=true party=nil species=PIDGEY n=4".to_owned()),
        "{feed:?}"
    );
    assert!(
        feed.iter()
            .any(|l| l.starts_with("write: ") && l.contains("read-only")),
        "{feed:?}"
    );
}

#[test]
fn apply_share_mixes_with_next_and_refuses_bad_shares() {
    use pallet_api::catalog::hooks::ExpShare;
    // A wrapper that keeps vanilla (passing ctx, applyShare included, on to next) and adds a
    // bonus share; one that names a bad slot fails its link (vanilla answers, reported).
    let env = load(
        &[],
        vec![lua_mod(
            "bonus",
            "return function(mod) mod.hooks:wrap('battle.exp_award', function(next, ctx) \
               local shares = next(ctx) \
               ctx.applyShare({ slot = 5 }, 2, false) \
               return shares end) end",
        )],
    );
    env.assert_loaded("bonus");
    let (shares, vanilla) = exp_award(&env, vec![0, 1]);
    assert!(vanilla);
    assert_eq!(
        shares,
        vec![
            ExpShare {
                slot: 5,
                split: 2,
                announce: false
            },
            ExpShare {
                slot: 0,
                split: 2,
                announce: true
            },
            ExpShare {
                slot: 1,
                split: 2,
                announce: true
            },
        ]
    );
    let env = load(
        &[],
        vec![lua_mod(
            "bad",
            "return function(mod) mod.hooks:wrap('battle.exp_award', function(_, ctx) \
               ctx.applyShare(9, 1, true) end) end",
        )],
    );
    let (shares, vanilla) = exp_award(&env, vec![0]);
    assert!(vanilla, "a failed link falls back to vanilla");
    assert_eq!(
        shares,
        vec![ExpShare {
            slot: 0,
            split: 1,
            announce: true
        }]
    );
    assert!(
        env.feed()
            .iter()
            .any(|l| l.contains("applyShare: mon must be a mon of ctx.alive")),
        "{:?}",
        env.feed()
    );
}

fn boot_with_handlers(env: &Env) -> (pallet_engine::game::Game, usize) {
    use pallet_engine::game::Game;
    use pallet_engine::world::GameVersion;
    let mut game = Game::boot(GameVersion::Red, 4, std::rc::Rc::clone(&env.rt)).unwrap();
    let n = env.lua.install_map_handlers(game.scripts_mut().unwrap());
    (game, n)
}

#[test]
fn map_script_handlers_given_as_functions_run_owned_by_their_mod() {
    let id = "shape-move-tutor";
    let env = load(&[lua_fixture(id)], vec![]);
    env.assert_loaded(id);
    // The data part reached the registry without the functions.
    let record = env
        .loader
        .content
        .borrow()
        .get("map_scripts", "REDS_HOUSE_1F")
        .cloned();
    let text = format!("{record:?}");
    assert!(!text.contains("Function"), "{text}");
    let (mut game, n) = boot_with_handlers(&env);
    assert_eq!(n, 2, "onEnter and one talk handler");
    let start = game.maps().start.map.clone();
    assert_eq!(start, "REDS_HOUSE_1F", "the fixture names the start map");
    game.enter_overworld().unwrap();
    let (x, y) = {
        let p = game.overworld().unwrap().player();
        (p.x, p.y)
    };
    let feed = unprefixed(&env.feed());
    assert!(
        feed.contains(&format!("entered REDS_HOUSE_1F at {x},{y} (visit 1)")),
        "{feed:?}"
    );
    assert_eq!(saved(&env, id, "visits"), Some(Value::Int(1)));
    // Never stored in the save.
    let save = serde_json::to_string(&game.save).unwrap();
    assert!(!save.contains("onEnter"), "{save}");
}

#[test]
fn a_failing_function_handler_is_reported_for_its_owner_and_the_game_goes_on() {
    let id = "shape-move-tutor";
    let env = load_with(
        &[lua_fixture(id)],
        vec![],
        Setup {
            content: Content::new(),
            options: vec![(id.into(), "explode".into(), Value::Bool(true))],
        },
    );
    let (mut game, _) = boot_with_handlers(&env);
    game.enter_overworld().unwrap();
    let errors: Vec<String> = env
        .rt
        .diagnostics()
        .into_iter()
        .map(|d| format!("{d:?}"))
        .filter(|d| d.contains("tutor exploded"))
        .collect();
    assert!(!errors.is_empty(), "{:?}", env.rt.diagnostics());
    assert!(game.overworld().is_some());
}

#[test]
fn handlers_of_a_mod_whose_entry_failed_are_gone() {
    let env = load(
        &[],
        vec![lua_mod(
            "halfway",
            "return function(mod) mod.content.map_scripts:register('REDS_HOUSE_1F', { onEnter = function() mod.log:info('ran') end }) error('entry fails after registering') end",
        )],
    );
    assert_ne!(env.state("halfway"), pallet_api::loader::ModState::Loaded);
    let (mut game, n) = boot_with_handlers(&env);
    assert_eq!(n, 0);
    game.enter_overworld().unwrap();
    assert!(
        !env.feed().iter().any(|l| l.contains("] ran")),
        "{:?}",
        env.feed()
    );
}

fn mon(name: &str, evolutions: Vec<Value>) -> Value {
    Value::map([
        ("name", Value::from(name)),
        (
            "baseStats",
            Value::map([
                ("hp", Value::Int(40)),
                ("attack", Value::Int(40)),
                ("defense", Value::Int(40)),
                ("speed", Value::Int(40)),
                ("special", Value::Int(40)),
            ]),
        ),
        ("types", Value::List(vec![Value::from("NORMAL")])),
        ("evolutions", Value::List(evolutions)),
    ])
}

#[test]
fn trade_evolution_patcher_rewrites_trade_rows_over_the_merged_view() {
    let mut content = Content::new();
    let trade =
        |into: &str| Value::map([("into", Value::from(into)), ("trade", Value::Bool(true))]);
    let level =
        |into: &str, l: i64| Value::map([("into", Value::from(into)), ("level", Value::Int(l))]);
    content
        .set_base(
            "pokemon",
            [
                (
                    "KADABRA".to_owned(),
                    mon("KADABRA", vec![trade("ALAKAZAM")]),
                ),
                ("GRAVELER".to_owned(), mon("GRAVELER", vec![trade("GOLEM")])),
                (
                    "PIDGEY".to_owned(),
                    mon("PIDGEY", vec![level("PIDGEOTTO", 18)]),
                ),
                ("ALAKAZAM".to_owned(), mon("ALAKAZAM", vec![])),
            ]
            .into_iter()
            .collect(),
        )
        .unwrap();
    let id = "shape-trade-evolutions";
    let env = load_with(
        &[lua_fixture(id)],
        vec![],
        Setup {
            content,
            options: vec![],
        },
    );
    env.assert_loaded(id);
    let feed = unprefixed(&env.feed());
    assert!(
        feed.contains(&"2 trade evolutions rewritten".to_owned()),
        "{feed:?}"
    );
    assert!(
        feed.contains(&"KADABRA now evolves into ALAKAZAM at level 37".to_owned()),
        "{feed:?}"
    );
    let content = env.loader.content.borrow();
    let evo = |id: &str| {
        content
            .get("pokemon", id)
            .and_then(|r| r.get("evolutions"))
            .cloned()
    };
    // Written in the Lua engine's spelling, stored in Pallet's: the level row first, the
    // trade row kept.
    assert_eq!(
        evo("KADABRA"),
        Some(Value::List(vec![level("ALAKAZAM", 37), trade("ALAKAZAM")]))
    );
    assert_eq!(
        evo("GRAVELER"),
        Some(Value::List(vec![level("GOLEM", 37), trade("GOLEM")]))
    );
    assert_eq!(
        evo("PIDGEY"),
        Some(Value::List(vec![level("PIDGEOTTO", 18)]))
    );
}

#[test]
fn item_patcher_patches_registers_and_deletes() {
    let mut content = Content::new();
    let item = |name: &str, price: i64| {
        Value::map([("name", Value::from(name)), ("price", Value::Int(price))])
    };
    content
        .set_base(
            "items",
            [
                ("POTION".to_owned(), item("POTION", 300)),
                ("BICYCLE".to_owned(), item("BICYCLE", 1_000_000)),
            ]
            .into_iter()
            .collect(),
        )
        .unwrap();
    let id = "shape-item-patcher";
    let env = load_with(
        &[lua_fixture(id)],
        vec![],
        Setup {
            content,
            options: vec![],
        },
    );
    env.assert_loaded(id);
    let feed = unprefixed(&env.feed());
    assert!(feed.contains(&"POTION costs 150".to_owned()), "{feed:?}");
    assert!(feed.contains(&"3 items".to_owned()), "{feed:?}");
    let content = env.loader.content.borrow();
    assert_eq!(
        content.get("items", "BICYCLE").and_then(|r| r.get("price")),
        None
    );
    assert_eq!(
        content
            .get("items", "TRAIL_MIX")
            .and_then(|r| r.get("price")),
        Some(&Value::Int(80))
    );
}

/// A translation catalog in the public mods' shape: plain strings keyed by the English source
/// string (`strings`) or a text label (`text`); empty entries are skipped; the override is read
/// back through the registry.
#[test]
fn translation_loads_and_reads_its_strings_back() {
    let id = "shape-translation";
    let env = load(&[lua_fixture(id)], vec![]);
    env.assert_loaded(id);
    let feed = unprefixed(&env.feed());
    assert!(
        feed.iter()
            .any(|l| l.starts_with("traduction: ") && l != "traduction: 0 entries"),
        "{feed:?}"
    );
    assert!(
        feed.contains(&"Enemy %s reads %s adverse".to_owned()),
        "{feed:?}"
    );
    assert!(
        !feed.iter().any(|l| l.contains("is not a Pallet registry")),
        "{feed:?}"
    );
}

#[test]
fn save_state_tool_starts_and_captures_and_restores_at_a_safe_point() {
    let id = "shape-save-states";
    let env = load(&[lua_fixture(id)], vec![]);
    env.assert_loaded(id);
    let _game = pallet_engine::game::Game::new_game(
        pallet_engine::world::GameVersion::Red,
        9,
        std::rc::Rc::clone(&env.rt),
    )
    .unwrap();
    let feed = unprefixed(&env.feed());
    assert!(!feed.iter().any(|l| l.contains("not starting")), "{feed:?}");
    assert!(
        feed.contains(&"slot saved (overworld)".to_owned()),
        "{feed:?}"
    );
    assert!(
        feed.contains(&"slot restored true nil".to_owned()),
        "{feed:?}"
    );
    assert!(
        feed.iter()
            .any(|l| l.starts_with("forged slot false ") && !l.ends_with(" nil")),
        "{feed:?}"
    );
}

#[test]
fn menu_entries_are_placed_by_label_and_a_pushed_screen_is_refused_clearly() {
    let id = "shape-menu-entries";
    let env = load(&[lua_fixture(id)], vec![]);
    env.assert_loaded(id);
    let feed = unprefixed(&env.feed());
    for line in [
        "before: POKEDEX,ITEM,LOG,SAVE,EXIT (same list true)",
        "after: POKEDEX,SHINY,ITEM,LOG,SAVE,EXIT",
        "missing anchor: POKEDEX,SHINY,ITEM,LOG,SAVE,EXIT,TAIL",
        "removed: POKEDEX,SHINY,LOG,SAVE,EXIT,TAIL",
    ] {
        assert!(feed.contains(&line.to_owned()), "{line}: {feed:?}");
    }
    let push = feed
        .iter()
        .find(|l| l.starts_with("push ok=false: "))
        .expect("push line");
    assert!(
        push.contains(&pallet_compat_lua::ui::push_refusal("MenuEntriesLog")),
        "{push}"
    );
    let big = feed
        .iter()
        .find(|l| l.starts_with("big ok=false: "))
        .expect("big line");
    assert!(
        big.contains("a menu list of 5000 entries (at most 4096)"),
        "{big}"
    );
}
