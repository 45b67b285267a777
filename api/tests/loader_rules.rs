//! Manifests, the loader pipeline and per-mod services, driven by native Rust mods.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use pallet_api::catalog::common::GameVersion;
use pallet_api::catalog::{events, hooks};
use pallet_api::content::{Content, OpKind};
use pallet_api::loader::{EnableState, Loader, ModCandidate, ModContext, ModState, NativeMod};
use pallet_api::manifest::{parse_manifest, Capability, Profile};
use pallet_api::{Hook, LinkError, Runtime, Value};

fn manifest(id: &str, extra: &str) -> String {
    let sep = if extra.is_empty() { "" } else { "," };
    format!(
        r#"{{"id":"{id}","name":"{id} mod","version":"1.0.0","api":2,"entry":"main.rhai"{sep}{extra}}}"#
    )
}

fn cand(id: &str, extra: &str) -> ModCandidate {
    ModCandidate::from_manifest_text(id, &manifest(id, extra), true)
}

type Entry = Box<dyn FnMut(&mut ModContext<'_>) -> Result<(), String>>;

fn loader_with(entries: Vec<(&str, Entry)>) -> Loader {
    let mut loader = Loader::new(GameVersion::Red, "0.1.0", Content::new());
    for (id, entry) in entries {
        loader.add_host(Box::new(NativeMod::new(id, entry)));
    }
    loader
}

fn ok_entry() -> Entry {
    Box::new(|_| Ok(()))
}

// ----- manifests -------------------------------------------------------------------------------

#[test]
fn manifest_api2_fields_and_unknown_fields() {
    let p = parse_manifest(
        r#"{"id":"adaptive_trainers","name":"Adaptive Trainers","version":"2.1.0","api":2,
            "entry":"main.lua","category":"VISUAL","priority":100,"profile":"overhaul",
            "permissions":["engine_internals"],"games":["gen1","gen2"],
            "dependencies":["national_dex@^1.0.0#Owner/Repo"],
            "optional_dependencies":[{"id":"settings","range":">=1.0.0","games":["red"]}],
            "conflicts":["a"],"incompatible":["a","b"],"game_version":"0.0.0-dev || >=0.1.0 <2.0.0",
            "author":"someone","mod.card":"ignored","license":"MIT"}"#,
    )
    .unwrap();
    let m = p.manifest;
    assert!(p.warnings.is_empty());
    assert_eq!(m.profile, Profile::Overhaul);
    assert!(m.affects_link, "overhaul affects link by default");
    assert_eq!(m.category, "VISUAL", "unknown categories are tolerated");
    assert!(m.targets(GameVersion::Red) && m.targets(GameVersion::Gold));
    assert!(m.gen2compat);
    assert_eq!(m.dependencies[0].id, "national_dex");
    assert_eq!(m.dependencies[0].range.as_deref(), Some("^1.0.0"));
    assert_eq!(m.dependencies[0].github.as_deref(), Some("Owner/Repo"));
    assert_eq!(m.optional_dependencies[0].id, "settings");
    assert_eq!(m.conflicts, vec!["a", "b"]);
    assert_eq!(m.priority, 100.0);
    assert_eq!(
        m.raw.get("author").and_then(|a| a.as_str()),
        Some("someone")
    );
    // Legacy Lua mods keep the whole legacy API.
    assert_eq!(m.granted_capabilities().len(), Capability::ALL.len());
}

#[test]
fn manifest_defaults_and_api1() {
    let p = parse_manifest(r#"{"id":"old","name":"Old","version":"1","entry":"main.lua","profile":"weird","games":["n64"]}"#)
        .unwrap();
    assert_eq!(p.manifest.api, 1);
    assert!(!p.manifest.strict);
    assert_eq!(
        p.warnings.len(),
        2,
        "api 1: vocabulary violations are warnings"
    );
    assert_eq!(
        p.warnings[0].to_string(),
        "manifest.json: profile: unknown profile \"weird\""
    );
    let p =
        parse_manifest(r#"{"id":"x","name":"X","version":"1","entry":"m.lua","gen2compat":true}"#)
            .unwrap();
    assert!(p.manifest.targets(GameVersion::Yellow) && p.manifest.targets(GameVersion::Silver));
    assert_eq!(p.manifest.category, "OTHER");
    assert_eq!(p.manifest.priority, 0.0);
}

#[test]
fn manifest_errors_point_at_the_field() {
    let cases = [
        (
            r#"{"id":"x","name":"X","version":"1","entry":"m.rhai","api":3}"#,
            "manifest.json: api: requires mod API 3; this engine provides 2",
        ),
        (
            r#"{"id":"x y","name":"X","version":"1","entry":"m.rhai"}"#,
            "manifest.json: id: must match ^[A-Za-z0-9_-]+$",
        ),
        (
            r#"{"id":"x","version":"1","entry":"m.rhai"}"#,
            "manifest.json: name: required field missing",
        ),
        (
            r#"{"id":"x","name":"X","version":"1","entry":"../../etc/passwd"}"#,
            "manifest.json: entry: must be a relative path inside the mod folder",
        ),
        (
            r#"{"id":"x","name":"X","version":"1","entry":"m.rhai","api":2,"games":["n64"]}"#,
            "manifest.json: games[1]: unknown game \"n64\"",
        ),
        (
            r#"{"id":"x","name":"X","version":"1","entry":"m.rhai","api":2,"capabilities":["hooks","root"]}"#,
            "manifest.json: capabilities[2]: unknown capability \"root\"",
        ),
        (
            r#"{"id":"x","name":"X","version":"1","entry":"m.rhai","dependencies":[{"id":"y","range":"bogus"}]}"#,
            "manifest.json: dependencies[1].range: must be a version range",
        ),
        (
            r#"{"id":"x","name":"X","version":"1","entry":"m.rhai","api":2,"log_url":"https://x"}"#,
            "manifest.json: log_url: requires the \"network\" permission",
        ),
        ("[1,2]", "manifest.json: the manifest must be a JSON object"),
    ];
    for (text, expected) in cases {
        assert_eq!(
            parse_manifest(text).unwrap_err().to_string(),
            expected,
            "{text}"
        );
    }
    // A huge id (hostile input) is refused by its length, before anything prints it.
    let long = "a".repeat(1 << 20);
    let text = format!(r#"{{"id":"{long}","name":"X","version":"1","entry":"m.rhai"}}"#);
    assert_eq!(
        parse_manifest(&text).unwrap_err().to_string(),
        "manifest.json: id: is 1048576 bytes long; a mod id has at most 64"
    );
    let ok = format!(
        r#"{{"id":"{}","name":"X","version":"1","entry":"m.rhai"}}"#,
        "a".repeat(64)
    );
    assert!(parse_manifest(&ok).is_ok());
}

#[test]
fn rhai_capabilities_are_defaults_plus_declared() {
    let m = parse_manifest(&manifest("r", r#""capabilities":["hooks","world"]"#))
        .unwrap()
        .manifest;
    let caps = m.granted_capabilities();
    assert!(caps.contains(&Capability::Hooks) && caps.contains(&Capability::World));
    assert!(
        caps.contains(&Capability::Datasets),
        "datasets needs no grant"
    );
    assert!(!caps.contains(&Capability::Checkpoints));
    let m = parse_manifest(&manifest("r", "")).unwrap().manifest;
    assert!(!m.granted_capabilities().contains(&Capability::Hooks));
}

// ----- loader ----------------------------------------------------------------------------------

#[test]
fn order_is_topological_then_priority_then_id() {
    let rt = Runtime::new();
    let ran = Rc::new(RefCell::new(Vec::new()));
    let mk = |id: &'static str| -> (&'static str, Entry) {
        let r = ran.clone();
        (
            id,
            Box::new(move |_: &mut ModContext<'_>| {
                r.borrow_mut().push(id);
                Ok(())
            }),
        )
    };
    let mut loader = loader_with(vec![
        mk("base_lib"),
        mk("zeta"),
        mk("alpha"),
        mk("user"),
        mk("early"),
    ]);
    let cands = vec![
        cand("zeta", r#""priority":10"#),
        cand("alpha", r#""priority":10"#),
        cand("user", r#""priority":-50,"dependencies":["base_lib"]"#),
        cand("base_lib", r#""priority":500"#),
        cand(
            "early",
            r#""priority":-100,"optional_dependencies":["zeta","not_installed"]"#,
        ),
    ];
    let status = loader.load(&rt, &cands, &EnableState::default());
    // Ready at start: alpha(10) zeta(10) base_lib(500); user waits for base_lib, early for zeta.
    assert_eq!(
        status.order,
        vec!["alpha", "zeta", "early", "base_lib", "user"]
    );
    assert_eq!(
        *ran.borrow(),
        vec!["alpha", "zeta", "early", "base_lib", "user"]
    );
    assert!(status.mods.iter().all(|m| m.state == ModState::Loaded));
}

#[test]
fn load_order_ranks_equal_priority_links() {
    struct Probe;
    impl Hook for Probe {
        const NAME: &'static str = "test.probe";
        const ID: pallet_api::HookId = pallet_api::HookId(210);
        type Args = ();
        type Out = String;
    }
    let rt = Runtime::new();
    let wrap = |tag: &'static str| -> Entry {
        Box::new(move |ctx: &mut ModContext<'_>| {
            ctx.wrap::<Probe, _>(0, move |next, _| Ok(format!("{tag}({})", next.call())))?;
            Ok(())
        })
    };
    let mut loader = loader_with(vec![("b", wrap("b")), ("a", wrap("a"))]);
    let caps = r#""capabilities":["hooks"]"#;
    // b loads first (priority), so b's link is outer among equal hook priorities.
    let status = loader.load(
        &rt,
        &[
            cand("a", &format!(r#""priority":5,{caps}"#)),
            cand("b", caps),
        ],
        &EnableState::default(),
    );
    assert_eq!(status.order, vec!["b", "a"]);
    assert_eq!(rt.call::<Probe>((), |_| "v".into()), "b(a(v))");
}

#[test]
fn enable_state_gating_and_skips() {
    let rt = Runtime::new();
    let mut loader = loader_with(vec![
        ("on", ok_entry()),
        ("off", ok_entry()),
        ("exp", ok_entry()),
        ("forced", ok_entry()),
        ("blue_only", ok_entry()),
        ("red_off", ok_entry()),
    ]);
    let mut enable = EnableState::default();
    enable.mods.insert("off".into(), false);
    enable.mods.insert("red_off".into(), true);
    enable.by_version.insert(
        GameVersion::Red,
        BTreeMap::from([("red_off".to_owned(), false)]),
    );
    enable.env_set.insert("FORCE_IT".into());
    let cands = vec![
        cand("on", ""),
        cand("off", ""),
        cand("exp", r#""experimental":true"#),
        cand(
            "forced",
            r#""experimental":true,"force_enable_env":"FORCE_IT""#,
        ),
        cand("blue_only", r#""games":["blue"]"#),
        cand("red_off", ""),
    ];
    let status = loader.load(&rt, &cands, &enable).clone();
    let state = |id: &str| status.get(id).map(|m| (m.state, m.note.clone()));
    assert_eq!(state("on"), Some((ModState::Loaded, None)));
    assert_eq!(
        state("off"),
        Some((ModState::Disabled, Some("disabled".into())))
    );
    assert_eq!(state("exp").map(|s| s.0), Some(ModState::Disabled));
    assert_eq!(state("forced").map(|s| s.0), Some(ModState::Loaded));
    assert_eq!(
        state("blue_only"),
        Some((ModState::Skipped, Some("For Blue, not Red".into())))
    );
    assert_eq!(state("red_off").map(|s| s.0), Some(ModState::Disabled));
    assert!(
        status.errors.is_empty(),
        "skips and disables are not errors"
    );

    let rt = Runtime::new();
    let mut loader = loader_with(vec![("on", ok_entry())]);
    let safe = EnableState {
        safe_mode: true,
        ..EnableState::default()
    };
    let status = loader.load(&rt, &[cand("on", "")], &safe);
    assert_eq!(status.get("on").map(|m| m.state), Some(ModState::Disabled));
}

#[test]
fn dependencies_conflicts_and_cycles() {
    let rt = Runtime::new();
    let ids = [
        "lib",
        "needs_lib",
        "needs_missing",
        "needs_new_lib",
        "c1",
        "c2",
        "c3",
        "x",
        "y",
        "after_cycle",
        "chain",
    ];
    let mut loader = loader_with(ids.iter().map(|id| (*id, ok_entry())).collect());
    let cands = vec![
        cand("lib", ""),
        cand("needs_lib", r#""dependencies":["lib@^1.0.0"]"#),
        cand("needs_missing", r#""dependencies":["ghost"]"#),
        cand("needs_new_lib", r#""dependencies":["lib@>=2.0.0"]"#),
        cand("c1", r#""dependencies":["c2"]"#),
        cand("c2", r#""dependencies":["c3"]"#),
        cand("c3", r#""dependencies":["c1"]"#),
        cand("after_cycle", r#""dependencies":["c1"]"#),
        cand("x", r#""conflicts":["y"]"#),
        cand("y", ""),
        cand("chain", r#""dependencies":["needs_missing"]"#),
    ];
    let status = loader.load(&rt, &cands, &EnableState::default()).clone();
    let err = |id: &str| status.get(id).and_then(|m| m.error.clone());
    assert_eq!(
        status.get("needs_lib").map(|m| m.state),
        Some(ModState::Loaded)
    );
    assert_eq!(
        err("needs_missing").as_deref(),
        Some("missing dependency ghost")
    );
    assert_eq!(
        err("needs_new_lib").as_deref(),
        Some("dependency lib@>=2.0.0 not satisfied (found 1.0.0)")
    );
    assert_eq!(
        err("c1").as_deref(),
        Some("dependency cycle: c1 -> c2 -> c3 -> c1")
    );
    assert!(err("c3").unwrap().starts_with("dependency cycle"));
    assert_eq!(
        err("after_cycle").as_deref(),
        Some("dependency c1 is failed")
    );
    assert_eq!(err("x").as_deref(), Some("conflicts with y"));
    assert_eq!(status.get("y").map(|m| m.state), Some(ModState::Loaded));
    assert_eq!(
        err("chain").as_deref(),
        Some("dependency needs_missing is failed")
    );
    assert!(status.errors.iter().any(|e| e == "x: conflicts with y"));
}

#[test]
fn a_failed_entry_is_rolled_back_completely_and_fails_its_dependents() {
    let rt = Runtime::new();
    let mut content = Content::new();
    content
        .set_base(
            "items",
            BTreeMap::from([(
                "POTION".to_owned(),
                Value::map([("name", Value::from("POTION")), ("price", Value::Int(300))]),
            )]),
        )
        .unwrap();
    let mut loader = Loader::new(GameVersion::Red, "0.1.0", content);
    loader.add_host(Box::new(NativeMod::new(
        "good",
        |ctx: &mut ModContext<'_>| {
            ctx.content
                .patch("items", "POTION", Value::map([("price", Value::Int(1))]))
                .map_err(|e| e.to_string())?;
            ctx.save
                .set("runs", Value::Int(1))
                .map_err(|e| e.to_string())?;
            Ok(())
        },
    )));
    loader.add_host(Box::new(NativeMod::new(
        "bad",
        |ctx: &mut ModContext<'_>| {
            ctx.wrap::<hooks::SaveWrite, _>(0, |_, _| Ok(false))?;
            ctx.on::<events::GameReady, _>(0, |_| Ok(()))?;
            ctx.content
                .patch(
                    "items",
                    "POTION",
                    Value::map([("price", Value::Int(99999))]),
                )
                .map_err(|e| e.to_string())?;
            ctx.save
                .set("junk", Value::Bool(true))
                .map_err(|e| e.to_string())?;
            ctx.options
                .define(Value::List(vec![Value::map([
                    ("key", Value::from("k")),
                    ("label", Value::from("K")),
                    ("type", Value::from("toggle")),
                    ("default", Value::Bool(true)),
                ])]))
                .map_err(|e| e.to_string())?;
            ctx.set_exports(Value::map([("api", Value::Int(1))]));
            Err("entry exploded".into())
        },
    )));
    loader.add_host(Box::new(NativeMod::new(
        "dependent",
        |_: &mut ModContext<'_>| Ok(()),
    )));
    let caps = r#""capabilities":["hooks","content"]"#;
    let cands = vec![
        cand("good", caps),
        cand("bad", &format!(r#""priority":1,{caps}"#)),
        cand("dependent", r#""priority":2,"dependencies":["bad"]"#),
    ];
    let status = loader.load(&rt, &cands, &EnableState::default()).clone();
    assert_eq!(
        status.get("bad").and_then(|m| m.error.clone()).as_deref(),
        Some("entry exploded")
    );
    assert_eq!(
        status
            .get("dependent")
            .and_then(|m| m.error.clone())
            .as_deref(),
        Some("dependency bad failed")
    );
    assert_eq!(status.order, vec!["good"]);
    // Hooks, listeners, content, save bucket, options and exports of "bad" are gone.
    assert!(!rt.wants_hook::<hooks::SaveWrite>());
    assert!(!rt.wants_event::<events::GameReady>());
    assert_eq!(rt.hook_chain_count(), 0);
    assert_eq!(
        loader
            .content
            .borrow()
            .get("items", "POTION")
            .and_then(|p| p.get("price")),
        Some(&Value::Int(1))
    );
    assert_eq!(
        loader.mod_data.bucket("bad").get("junk", Value::Nil),
        Value::Nil
    );
    assert_eq!(
        loader.mod_data.bucket("good").get("runs", Value::Nil),
        Value::Int(1)
    );
    assert!(loader.options.schema("bad").is_empty());
    assert!(loader.find("bad").is_none());
    assert!(loader.find("good").is_some());
    assert!(rt
        .diagnostics()
        .iter()
        .any(|d| d.message == "bad: entry exploded"));
    // Content is frozen after load.
    assert!(loader.content.borrow().is_frozen());
    assert!(loader
        .content
        .borrow_mut()
        .apply(
            "items",
            "late",
            OpKind::Patch,
            "POTION",
            Value::map([("price", Value::Int(5))]),
            true
        )
        .is_err());
}

#[test]
fn capabilities_are_enforced_at_load() {
    let rt = Runtime::new();
    let mut loader = loader_with(vec![(
        "nohooks",
        Box::new(|ctx: &mut ModContext<'_>| {
            ctx.wrap::<hooks::SaveWrite, _>(0, |next, _| Ok(next.call()))?;
            Ok(())
        }),
    )]);
    let status = loader.load(&rt, &[cand("nohooks", "")], &EnableState::default());
    assert_eq!(
        status.get("nohooks").and_then(|m| m.error.clone()).as_deref(),
        Some("[nohooks] the \"hooks\" capability is not granted; add it to \"capabilities\" in manifest.json")
    );
}

#[test]
fn broken_manifests_duplicates_missing_entries_and_hosts_show_in_status() {
    let rt = Runtime::new();
    let mut loader = loader_with(vec![("dup", ok_entry()), ("noentry", ok_entry())]);
    let cands = vec![
        ModCandidate::from_manifest_text("broken", "{not json", true),
        cand("dup", ""),
        ModCandidate::from_manifest_text("dup_copy", &manifest("dup", ""), true),
        ModCandidate::from_manifest_text("noentry", &manifest("noentry", ""), false),
        cand("nohost", ""),
        cand("old_engine", r#""game_version":">=5.0.0""#),
    ];
    let status = loader.load(&rt, &cands, &EnableState::default()).clone();
    assert_eq!(
        status.get("broken (folder)").map(|m| m.state),
        Some(ModState::Failed)
    );
    assert_eq!(status.get("dup").map(|m| m.state), Some(ModState::Loaded));
    assert_eq!(
        status.get("dup (folder dup_copy)").map(|m| m.state),
        Some(ModState::Failed)
    );
    assert_eq!(
        status
            .get("noentry")
            .and_then(|m| m.error.clone())
            .as_deref(),
        Some("entry file not found: main.rhai")
    );
    assert_eq!(
        status
            .get("nohost")
            .and_then(|m| m.error.clone())
            .as_deref(),
        Some("no host runs entry main.rhai")
    );
    assert_eq!(
        status
            .get("old_engine")
            .and_then(|m| m.error.clone())
            .as_deref(),
        Some("requires game version >=5.0.0; this engine is 0.1.0")
    );
    // A dev engine skips the game_version check.
    let mut dev = Loader::new(GameVersion::Red, "0.0.0-dev", Content::new());
    dev.add_host(Box::new(NativeMod::new(
        "old_engine",
        |_: &mut ModContext<'_>| Ok(()),
    )));
    let status = dev.load(
        &rt,
        &[cand("old_engine", r#""game_version":">=5.0.0""#)],
        &EnableState::default(),
    );
    assert_eq!(
        status.get("old_engine").map(|m| m.state),
        Some(ModState::Loaded)
    );
}

#[test]
fn mods_loaded_is_emitted_with_the_order() {
    let rt = Runtime::new();
    let seen = Rc::new(RefCell::new(None));
    let s = seen.clone();
    rt.on::<events::ModsLoaded, _>("observer", 0, move |p| {
        *s.borrow_mut() = Some(p.clone());
        Ok(())
    });
    let mut loader = loader_with(vec![
        ("a", ok_entry()),
        ("b", Box::new(|_| Err("no".into()))),
    ]);
    loader.load(
        &rt,
        &[cand("a", ""), cand("b", "")],
        &EnableState::default(),
    );
    let p = seen.borrow().clone().unwrap();
    assert_eq!(p.order, vec!["a"]);
    assert_eq!(p.failed, vec!["b"]);
}

#[test]
fn discover_reads_one_level_in_sorted_order() {
    let root = std::env::temp_dir().join(format!("pallet-api-discover-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    for (dir, id, with_entry) in [("b_mod", "bee", true), ("a_mod", "ay", false)] {
        let d = root.join(dir);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("manifest.json"), manifest(id, "")).unwrap();
        if with_entry {
            std::fs::write(d.join("main.rhai"), "// entry").unwrap();
        }
    }
    std::fs::create_dir_all(root.join("not_a_mod")).unwrap();
    std::fs::create_dir_all(root.join("a_mod/nested")).unwrap();
    let found = pallet_api::loader::discover(&root).unwrap();
    let _ = std::fs::remove_dir_all(&root);
    let names: Vec<_> = found
        .iter()
        .map(|c| (c.dir_name.as_str(), c.entry_exists))
        .collect();
    assert_eq!(names, vec![("a_mod", false), ("b_mod", true)]);
    assert!(
        pallet_api::loader::discover(&std::env::temp_dir().join("pallet-no-such-dir"))
            .unwrap()
            .is_empty()
    );
}

// ----- services --------------------------------------------------------------------------------

#[test]
fn save_buckets_travel_with_the_save() {
    let store = pallet_api::services::ModDataStore::new();
    let bucket = store.bucket("clock");
    assert_eq!(bucket.get("hour", Value::Int(6)), Value::Int(6));
    bucket.set("hour", Value::Int(7)).unwrap();
    assert!(bucket.set("bad", Value::Float(f64::NAN)).is_err());
    let saved = store.to_value();
    assert_eq!(
        saved.get("clock").and_then(|b| b.get("hour")),
        Some(&Value::Int(7))
    );
    // A checkpoint restore / load replaces buckets wholesale.
    bucket.set("hour", Value::Int(9)).unwrap();
    store.load(&saved);
    assert_eq!(bucket.get("hour", Value::Nil), Value::Int(7));
    bucket.set("hour", Value::Nil).unwrap();
    assert_eq!(
        store.to_value(),
        Value::Map(BTreeMap::new()),
        "empty buckets vanish"
    );
}

#[test]
fn log_lines_are_prefixed_with_the_mod_id() {
    let rt = Runtime::new();
    let log = pallet_api::services::ModLog::new("clock", rt.log_feed());
    log.info("tick");
    log.warn("slow");
    log.error("broken");
    let lines: Vec<_> = rt
        .diagnostics()
        .into_iter()
        .map(|d| (d.level, d.message))
        .collect();
    assert_eq!(
        lines,
        vec![
            (pallet_api::Level::Info, "[clock] tick".to_owned()),
            (pallet_api::Level::Warn, "[clock] slow".to_owned()),
            (pallet_api::Level::Error, "[clock] broken".to_owned()),
        ]
    );
}

#[test]
fn options_define_and_get_with_validation() {
    let store = pallet_api::services::OptionsStore::new();
    let opts = store.for_mod("m");
    let rows = Value::List(vec![
        Value::map([
            ("key", Value::from("rate")),
            ("label", Value::from("EXP rate")),
            ("type", Value::from("choice")),
            ("default", Value::from("1")),
            (
                "choices",
                Value::List(vec![
                    Value::map([("label", Value::from("1x")), ("value", Value::from("1"))]),
                    Value::map([("label", Value::from("2x")), ("value", Value::from("2"))]),
                ]),
            ),
        ]),
        Value::map([
            ("key", Value::from("level")),
            ("label", Value::from("Level")),
            ("type", Value::from("number")),
            ("default", Value::Int(5)),
            ("min", Value::Int(1)),
            ("max", Value::Int(100)),
        ]),
    ]);
    opts.define(rows).unwrap();
    assert_eq!(opts.get("rate"), Value::from("1"));
    store.set_user_value("m", "rate", Value::from("2"));
    assert_eq!(opts.get("rate"), Value::from("2"));
    store.set_user_value("m", "rate", Value::from("9"));
    assert_eq!(
        opts.get("rate"),
        Value::from("1"),
        "illegal stored values read as the default"
    );
    store.set_user_value("m", "level", Value::Int(500));
    assert_eq!(opts.get("level"), Value::Int(5));
    assert_eq!(opts.get("nope"), Value::Nil);
    let bad = Value::List(vec![Value::map([
        ("key", Value::from("t")),
        ("label", Value::from("T")),
        ("type", Value::from("toggle")),
        ("default", Value::Int(3)),
    ])]);
    assert_eq!(
        opts.define(bad).unwrap_err().to_string(),
        "options[1] (t): default is not a legal value"
    );
    let _ = LinkError::new("unused");
}
