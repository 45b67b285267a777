//! The Rhai host's contract with well-behaved mods: the shared budget across a chain,
//! detached copies, typed `next` replacing arguments downstream only, imports usable from
//! closures at dispatch time, events between mods, `save`, `content`, unsubscribe, and the
//! `#{code, message}` failure convention.

mod rhai_support;

/// Loop iterations that cost a little over half the per-dispatch budget.
const SPIN: u32 = 60_000;

use pallet_api::catalog::common::GameInfo;
use pallet_api::catalog::hooks::{MapOccupancyAllowed, MapOccupancyAllowedArgs};
use pallet_api::loader::ModState;
use pallet_api::Value;
use rhai_support::*;

#[test]
fn the_budget_covers_the_whole_chain_across_mods() {
    // Each link alone stays under the per-dispatch budget (500 000 operations); together
    // they do not. The inner link (reached through the outer's `next`) runs out and is
    // skipped; the outer link then runs out too, after next: downstream (vanilla) is kept.
    let spin = |n: u32| format!("let i = 0; while i < {n} {{ i += 1; }}");
    let outer = format!(
        r#"hooks.wrap("exp.gain", 10, |next, ctx| {{ {} let v = next.call(); v + 1000 }});"#,
        spin(SPIN)
    );
    let inner = format!(
        r#"hooks.wrap("exp.gain", 0, |next, ctx| {{ {} next.call() + 1 }});"#,
        spin(SPIN)
    );
    let env = load(
        &[],
        &[
            ("outer", &manifest("outer", &["hooks"]), outer.as_str()),
            ("inner", &manifest("inner", &["hooks"]), inner.as_str()),
        ],
    );
    assert_eq!(
        env.state("outer"),
        ModState::Loaded,
        "{}",
        env.error("outer")
    );
    assert_eq!(
        env.state("inner"),
        ModState::Loaded,
        "{}",
        env.error("inner")
    );
    // Alone, each link is fine: measure one dispatch's cost with only `inner` installed.
    let (out, runs) = exp_gain(&env.rt, 100);
    let feed = env.feed();
    let (used, exhausted) = env.monitor.last_budget();
    assert!(exhausted, "used {used}, feed {feed:?}");
    assert_eq!(runs, 1, "vanilla runs exactly once");
    assert!(
        feed.iter()
            .any(|l| l.starts_with("[inner] hook exp.gain failed")
                && l.contains("operation budget exhausted")),
        "{feed:?}"
    );
    assert!(
        feed.iter()
            .any(|l| l.starts_with("[outer] hook exp.gain failed after next")
                && l.contains("operation budget exhausted")),
        "{feed:?}"
    );
    assert_eq!(out, 100);
}

#[test]
fn a_single_link_under_budget_is_untouched() {
    let src = format!(
        r#"hooks.wrap("exp.gain", |next, ctx| {{ let i = 0; while i < {SPIN} {{ i += 1; }} next.call() + 1 }});"#
    );
    let src = src.as_str();
    let env = load(&[], &[("solo", &manifest("solo", &["hooks"]), src)]);
    assert_eq!(exp_gain(&env.rt, 100), (101, 1));
    let (used, exhausted) = env.monitor.last_budget();
    assert!(!exhausted);
    // More than half the budget: two such links cannot both finish in one dispatch.
    assert!(
        used > 250_000 && used < 500_000,
        "the budget counts the link's operations ({used})"
    );
}

#[test]
fn next_with_arguments_replaces_them_downstream_only_and_copies_are_detached() {
    let outer = r#"
        hooks.wrap("map.occupancy_allowed", 10, |next, game, ctx| {
            let mine = ctx.mapId;
            ctx.mapId = "CHANGED_LOCALLY";         // a detached copy: nobody else sees this
            let a = next.call();                    // current (original) arguments
            let changed = ctx;
            changed.x = 99;
            let b = next.call(game, changed);       // replaced arguments, downstream only
            log.info(`outer sees ${mine} ${a} ${b}`);
            b
        });"#;
    let inner = r#"
        hooks.wrap("map.occupancy_allowed", 0, |next, game, ctx| {
            log.info(`inner sees ${ctx.mapId} x=${ctx.x} reason=${ctx.reason} version=${ctx.gameVersion}`);
            ctx.x == 99
        });"#;
    let env = load(
        &[],
        &[
            ("a-outer", &manifest("a-outer", &["hooks"]), outer),
            ("b-inner", &manifest("b-inner", &["hooks"]), inner),
        ],
    );
    let args = MapOccupancyAllowedArgs::at_dock(GameInfo::default(), Some(14), Some(0));
    assert!(env.rt.call::<MapOccupancyAllowed>(args, |_| false));
    let feed = env.feed();
    assert_eq!(
        feed,
        vec![
            "[b-inner] inner sees VERMILION_DOCK x=14 reason=ss_anne_departed version=red"
                .to_owned(),
            "[b-inner] inner sees CHANGED_LOCALLY x=99 reason=ss_anne_departed version=red"
                .to_owned(),
            "[a-outer] outer sees VERMILION_DOCK false true".to_owned(),
        ]
    );
}

#[test]
fn imported_modules_work_from_closures_at_dispatch_time() {
    let env = load(&[fixture("imports-ok")], &[]);
    assert_eq!(
        env.state("imports-ok"),
        ModState::Loaded,
        "{}",
        env.error("imports-ok")
    );
    assert_eq!(exp_gain(&env.rt, 21), (42, 1));
    assert_eq!(
        env.feed(),
        vec!["[imports-ok] loaded with factor 2".to_owned()]
    );
}

#[test]
fn symlinks_cannot_escape_the_mod_folder() {
    let root = std::env::temp_dir().join(format!("pallet-rhai-symlink-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let outside = root.join("outside");
    let m = root.join("mods/escape");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::create_dir_all(&m).unwrap();
    std::fs::write(outside.join("secret.rhai"), "export const S = 1;").unwrap();
    std::fs::write(m.join("manifest.json"), manifest("escape", &[])).unwrap();
    std::fs::write(
        m.join("main.rhai"),
        "import \"link/secret\" as s;\nlog.info(s::S);",
    )
    .unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(&outside, m.join("link")).unwrap();
    let env = load(std::slice::from_ref(&m), &[]);
    let err = env.error("escape");
    assert_eq!(env.state("escape"), ModState::Failed);
    assert!(err.contains("resolves outside the mod folder"), "{err}");
    assert!(err.contains("main.rhai:1:1"), "{err}");
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn events_flow_between_mods_and_unsubscribe_works() {
    let emitter = r#"
        events.on("mod.ponger.reply", |p| log.info(`got reply ${p.n}`));
        hooks.wrap("exp.gain", |next, ctx| { events.emit("mod.pinger.ping", #{ n: 1 }); next.call() });"#;
    let listener = r#"
        let off = events.on("mod.pinger.ping", |p| {
            log.info(`ping ${p.n}`);
            events.emit("mod.pinger.reply", #{ n: p.n + 1 });   // not its namespace: throws
        });
        events.on("mod.pinger.ping", 5, |p| events.emit("mod.ponger.reply", #{ n: p.n + 1 }));
        hooks.wrap("exp.gain", -5, |next, ctx| { off.call(); next.call() });"#;
    let env = load(
        &[],
        &[
            ("pinger", &manifest("pinger", &["hooks"]), emitter),
            ("ponger", &manifest("ponger", &["hooks"]), listener),
        ],
    );
    assert_eq!(
        env.state("ponger"),
        ModState::Loaded,
        "{}",
        env.error("ponger")
    );
    assert_eq!(exp_gain(&env.rt, 1), (1, 1));
    let feed = env.feed();
    // The priority-5 listener answers first; the other one logs, then its foreign emit fails
    // (contained, reported), and it unsubscribes itself during the dispatch (via the link).
    assert!(
        feed.contains(&"[pinger] got reply 2".to_owned()),
        "{feed:?}"
    );
    assert!(feed.contains(&"[ponger] ping 1".to_owned()), "{feed:?}");
    assert!(
        feed.iter().any(
            |l| l.starts_with("[ponger] event mod.pinger.ping: main.rhai:")
                && l.contains("forbidden_event")
                && l.contains("mods may only emit mod.ponger.* events")
        ),
        "{feed:?}"
    );
    // Second dispatch: the unsubscribed listener is gone.
    exp_gain(&env.rt, 1);
    let feed = env.feed();
    assert!(!feed.contains(&"[ponger] ping 1".to_owned()), "{feed:?}");
}

#[test]
fn save_and_content_and_failure_maps() {
    let src = r#"
        save.set("count", save.get("count", 0) + 1);
        save.set("list", [1, 2.5, "x", #{ a: true }]);
        content.register("items", "MOD_GEM", #{ name: "GEM", price: 100, kind: "other" });
        content.patch("items", "MOD_GEM", #{ price: 150 });
        log.info(`gem ${content.get("items", "MOD_GEM").price} has=${content.has("items", "MOD_GEM")}`);
        try { content.register("items", "MOD_GEM", #{ name: "GEM" }); } catch (e) { log.info(`${e.code}`); }
        try { content.register("items", "BAD", #{ price: -1 }); } catch (e) { log.info(`${e.code}`); }
        try { save.set("", 1); } catch (e) { log.info(`${e.code}`); }
        try { world.active_block_at("PALLET_TOWN", 0, 0); } catch (e) { log.info(`${e.code}|${e.message}`); }
        try { checkpoints.capture(); } catch (e) { log.info(`${e.code}`); }
        try { datasets.open("gold"); } catch (e) { log.info(`${e.code}`); }
        try { hooks.wrap("no.such_hook", |next| 1); } catch (e) { log.info(`${e.code}`); }
        try { events.on("no.such_event", |p| 1); } catch (e) { log.info(`${e.code}`); }
        log.info(`${mod_info.id} ${mod_info.version} ${mod_info.api}`);
    "#;
    let env = load(
        &[],
        &[(
            "all",
            &manifest("all", &["hooks", "content", "world", "checkpoints"]),
            src,
        )],
    );
    assert_eq!(env.state("all"), ModState::Loaded, "{}", env.error("all"));
    assert_eq!(
        env.feed(),
        vec![
            "[all] gem 150 has=true",
            "[all] exists",
            "[all] schema",
            "[all] invalid_key",
            "[all] no overworld|there is no active overworld map right now",
            // No game is lent while the entry runs: checkpoints refuse as busy.
            "[all] script_busy",
            "[all] not_available",
            "[all] unknown_hook",
            "[all] unknown_event",
            "[all] all 1.0.0 2",
        ]
    );
    let bucket = env.loader.mod_data.to_value();
    assert_eq!(
        bucket.get("all").and_then(|b| b.get("count")),
        Some(&Value::Int(1))
    );
    assert_eq!(
        bucket.get("all").and_then(|b| b.get("list")),
        Some(&Value::List(vec![
            Value::Int(1),
            Value::Float(2.5),
            Value::from("x"),
            Value::map([("a", Value::Bool(true))])
        ]))
    );
    // Content is frozen after load.
    assert!(env.loader.content.borrow().is_frozen());
}

#[test]
fn a_failed_entry_is_rolled_back() {
    let src = r#"
        hooks.wrap("exp.gain", |next, ctx| 999);
        content.register("items", "MOD_X", #{ name: "X" });
        throw "entry fails after registering";
    "#;
    let env = load(
        &[],
        &[("half", &manifest("half", &["hooks", "content"]), src)],
    );
    assert_eq!(env.state("half"), ModState::Failed);
    assert!(env
        .error("half")
        .contains("uncaught throw: entry fails after registering"));
    assert!(
        env.error("half").contains("main.rhai:4:9"),
        "{}",
        env.error("half")
    );
    assert_eq!(exp_gain(&env.rt, 5), (5, 1));
    assert!(env.loader.content.borrow().get("items", "MOD_X").is_none());
}
