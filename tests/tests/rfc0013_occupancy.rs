//! RFC 0013 `map.occupancy_allowed`, end to end: real Rhai mods (the bundled `dock-stay`
//! example from disk, small in-memory mods for the failure cases) loaded by the `RhaiHost`
//! through the api `Loader`, and games driven only through the public `Game` API. The
//! production dock handler (`VERMILION_DOCK.onEnter`, owner `base`) runs every time; no test
//! replaces it.
//!
//! RFC verification bullets → tests:
//! * vanilla message and warp with no subscriber → `vanilla_ejection_without_a_subscriber`
//! * one permission wrapper allows, ship erasure and map handler intact →
//!   `the_dock_stay_example_keeps_the_player_and_the_erasure_still_happens`
//! * cooperative wrappers preserve downstream permission →
//!   `cooperative_wrappers_preserve_downstream_permission`
//! * absent / throwing / nil / false / malformed / non-forwarding fail closed →
//!   `failing_and_malformed_answers_fail_closed`, `non_forwarding_and_malformed_final_answers_suppress_downstream_permission`,
//!   `broken_links_follow_the_normal_chain_rule`
//! * R/B/Y contexts keep their version → `contexts_carry_the_rfc_fields_and_keep_their_version`,
//!   `the_signature_check_fails_closed_on_another_versions_layout`
//! * removing / disabling the owner restores vanilla, no save migration →
//!   `removing_or_disabling_the_owner_restores_vanilla_without_a_save_migration`

mod rfc_support;

use std::rc::Rc;

use pallet_api::catalog::hooks::MapOccupancyAllowed;
use pallet_api::loader::{EnableState, ModState};
use pallet_api::Runtime;
use pallet_engine::game::Game;
use pallet_engine::world::{Direction, GameVersion, Input};
use rfc_support::*;

const HOOKS: &[&str] = &["hooks"];
const HOOKS_WORLD: &[&str] = &["hooks", "world"];

/// A cooperative wrapper with no permission of its own, at `priority`: it logs what downstream
/// said and returns `allowed == true || false`.
fn observer(priority: i32) -> String {
    format!(
        r#"hooks.wrap("map.occupancy_allowed", {priority}, |next, game, ctx| {{
            let allowed = next.call(game, ctx);
            log.info(`downstream ${{allowed}}`);
            allowed == true || false
        }});"#
    )
}

fn dock_stay_source() -> String {
    std::fs::read_to_string(example("dock-stay").join("main.rhai")).expect("dock-stay source")
}

#[test]
fn vanilla_ejection_without_a_subscriber() {
    for version in VERSIONS {
        // No mods at all, and a loaded mod that wraps another hook and listens to events: the
        // occupancy chain is absent either way.
        let bystander = r#"
            hooks.wrap("exp.gain", |next, ctx| next.call(ctx));
            events.on("map.entered", |p| log.info(`entered ${p.mapId}`));
        "#;
        let with_bystander = load(version, &[], &[("bystander", HOOKS, bystander)]);
        for rt in [Rc::new(Runtime::new()), Rc::clone(&with_bystander.rt)] {
            assert!(!rt.wants_hook::<MapOccupancyAllowed>());
            let mut game = at_city_gate(version, rt);
            let flags = game.save.flags.clone();
            let before = save_bytes(&game);
            let visit = enter_dock(&mut game);
            // The erasure ran, then the sailor's text opened.
            assert_erasure_rows(&visit.lines, &format!("{version} vanilla"));
            assert_ship_erased(&game);
            // Nothing but the player's position reached the save.
            let gate = at_city_gate(version, Rc::new(Runtime::new()));
            assert_eq!(save_bytes_at(&game, &gate), before, "{version}");
            assert_ejected(&mut game, &visit, &format!("{version} vanilla"));
            assert_eq!(game.save.flags, flags, "{version}: no flag written");
            assert!(game.save.mod_data.is_empty());
        }
        assert!(with_bystander
            .feed()
            .contains(&"[bystander] entered VERMILION_DOCK".to_owned()));
    }
}

#[test]
fn the_dock_stay_example_keeps_the_player_and_the_erasure_still_happens() {
    for version in VERSIONS {
        let mods = load(version, &[example("dock-stay")], &[]);
        assert!(mods.rt.wants_hook::<MapOccupancyAllowed>());
        let mut game = at_city_gate(version, Rc::clone(&mods.rt));
        let flags = game.save.flags.clone();
        let visit = enter_dock(&mut game);
        assert_stayed(&game, &visit, &format!("{version} dock-stay"));
        // The ship-erasure work of the base handler ran before the hook.
        assert_erasure_rows(&visit.lines, &format!("{version} dock-stay"));
        assert_eq!(
            mods.feed(),
            vec![format!(
                "[dock-stay] {version} dock layout verified at (14,0): the player may stay"
            )]
        );
        // No flag change, nothing in the save but the player's position: the same bytes as a
        // vanilla game at the same moment (its text box is open, the player still on the dock).
        assert_eq!(game.save.flags, flags);
        let mut vanilla = at_city_gate(version, Rc::new(Runtime::new()));
        let vanilla_visit = enter_dock(&mut vanilla);
        assert!(!vanilla_visit.stayed);
        assert_eq!(save_bytes(&game), save_bytes(&vanilla), "{version}");
        assert_eq!(
            all_blocks(&game, "VERMILION_DOCK"),
            all_blocks(&vanilla, "VERMILION_DOCK"),
            "{version}: no ship rebuilt"
        );

        // The player walks the empty dock, leaves through the gate, and comes back: the base
        // handler is still registered (the erasure runs again) and the mod still permits.
        walk(&mut game, Direction::Down, 1);
        assert_eq!(pos(&game), ("VERMILION_DOCK".into(), 14, 1));
        walk(&mut game, Direction::Up, 1);
        assert_eq!(pos(&game), ("VERMILION_CITY".into(), 18, 31));
        walk(&mut game, Direction::Up, 1);
        game.drain_feed();
        walk(&mut game, Direction::Down, 1);
        let again = feed_lines(&mut game);
        assert_erasure_rows(&again, &format!("{version} second entry"));
        assert!(game.busy().is_none(), "{version}: kept again");
        assert_eq!(pos(&game), ("VERMILION_DOCK".into(), 14, 0));
    }
}

#[test]
fn cooperative_wrappers_preserve_downstream_permission() {
    // Two cooperative observers outside the example's permission (priority 10 and 5 > 0).
    let (outer, middle) = (observer(10), observer(5));
    let mods = load(
        GameVersion::Red,
        &[example("dock-stay")],
        &[("outer", HOOKS, &outer), ("middle", HOOKS, &middle)],
    );
    let mut game = at_city_gate(GameVersion::Red, Rc::clone(&mods.rt));
    let visit = enter_dock(&mut game);
    assert_stayed(&game, &visit, "observers outside the permission");
    assert_eq!(
        mods.feed(),
        vec![
            "[dock-stay] red dock layout verified at (14,0): the player may stay".to_owned(),
            "[middle] downstream true".to_owned(),
            "[outer] downstream true".to_owned(),
        ]
    );

    // The permission outside a cooperative observer: the observer sees vanilla's false, the
    // permission ORs its own rule on top.
    let inner = observer(-5);
    let mods = load(
        GameVersion::Blue,
        &[example("dock-stay")],
        &[("inner", HOOKS, &inner)],
    );
    let mut game = at_city_gate(GameVersion::Blue, Rc::clone(&mods.rt));
    let visit = enter_dock(&mut game);
    assert_stayed(&game, &visit, "observer inside the permission");
    assert_eq!(
        mods.feed(),
        vec![
            "[inner] downstream false".to_owned(),
            "[dock-stay] blue dock layout verified at (14,0): the player may stay".to_owned(),
        ]
    );

    // Two independent permissions: both compose, either alone would do.
    let second = r#"hooks.wrap("map.occupancy_allowed", 20, |next, game, ctx| {
        let allowed = next.call(game, ctx);
        let mine = ctx.mapId == "VERMILION_DOCK" && ctx.x == 14 && ctx.y == 0;
        log.info(`downstream ${allowed}, mine ${mine}`);
        allowed == true || mine
    });"#;
    let mods = load(
        GameVersion::Yellow,
        &[example("dock-stay")],
        &[("second", HOOKS, second)],
    );
    let mut game = at_city_gate(GameVersion::Yellow, Rc::clone(&mods.rt));
    let visit = enter_dock(&mut game);
    assert_stayed(&game, &visit, "two permissions");
    assert_eq!(
        mods.feed().last().map(String::as_str),
        Some("[second] downstream true, mine true")
    );
}

/// Each wrapper alone must leave vanilla's ejection in place.
#[test]
fn failing_and_malformed_answers_fail_closed() {
    let cases: &[(&str, &str)] = &[
        ("false", "let a = next.call(game, ctx); false"),
        ("nil (a let statement)", "let a = next.call(game, ctx);"),
        ("unit literal", "next.call(game, ctx); ()"),
        ("number", "next.call(game, ctx); 1"),
        ("float", "next.call(game, ctx); 1.0"),
        ("string", r#"next.call(game, ctx); "true""#),
        ("map", "next.call(game, ctx); #{ allowed: true }"),
        ("array", "next.call(game, ctx); [true]"),
        ("throw before next", r#"throw "no answer""#),
        ("throw after next", r#"let a = next.call(); throw "late""#),
        ("non-forwarding false", "false"),
        ("non-forwarding nil", "()"),
        ("bad next arguments", "next.call(1)"),
        ("runaway loop", "loop { }"),
    ];
    for (what, body) in cases {
        let src =
            format!(r#"hooks.wrap("map.occupancy_allowed", |next, game, ctx| {{ {body} }});"#);
        let mods = load(GameVersion::Red, &[], &[("case", HOOKS, &src)]);
        assert!(mods.rt.wants_hook::<MapOccupancyAllowed>(), "{what}");
        let mut game = at_city_gate(GameVersion::Red, Rc::clone(&mods.rt));
        let visit = enter_dock(&mut game);
        assert_ejected(&mut game, &visit, what);
        let feed = mods.feed();
        if what.starts_with("throw") || what.starts_with("bad") || what.starts_with("runaway") {
            assert!(
                feed.iter()
                    .any(|l| l.contains("hook map.occupancy_allowed failed")),
                "{what}: {feed:?}"
            );
        }
    }
}

/// A wrapper that does not call `next` owns the answer (its `false` suppresses the permission
/// below it); a malformed final answer cannot permit even when downstream did.
#[test]
fn non_forwarding_and_malformed_final_answers_suppress_downstream_permission() {
    let cases: &[(&str, &str, bool)] = &[
        // (what, outer body, dock-stay ran)
        ("non-forwarding false", "false", false),
        ("non-forwarding nil", "()", false),
        ("non-forwarding true-ish string", r#""yes""#, false),
        (
            "forwarded true, answers a string",
            r#"next.call(game, ctx); "yes""#,
            true,
        ),
        ("forwarded true, answers 1", "next.call(game, ctx); 1", true),
        (
            "forwarded true, answers a map",
            "next.call(game, ctx); #{ ok: true }",
            true,
        ),
        (
            "forwarded true, answers nil",
            "next.call(game, ctx); ()",
            true,
        ),
        (
            "forwarded true, ends in a let",
            "let a = next.call(game, ctx);",
            true,
        ),
        (
            "forwarded true, answers false",
            "next.call(game, ctx); false",
            true,
        ),
    ];
    for (what, body, inner_ran) in cases {
        let src =
            format!(r#"hooks.wrap("map.occupancy_allowed", 10, |next, game, ctx| {{ {body} }});"#);
        let mods = load(
            GameVersion::Red,
            &[example("dock-stay")],
            &[("outer", HOOKS, &src)],
        );
        let mut game = at_city_gate(GameVersion::Red, Rc::clone(&mods.rt));
        let visit = enter_dock(&mut game);
        assert_ejected(&mut game, &visit, what);
        let feed = mods.feed();
        assert_eq!(
            feed.iter().any(|l| l.starts_with("[dock-stay]")),
            *inner_ran,
            "{what}: {feed:?}"
        );
    }
}

/// The normal wrapper-chain rule for broken links: a link that throws before `next` is skipped
/// (it can neither deny nor permit), one that throws after `next` keeps the downstream answer.
/// With no permission below, both eject (covered above); with the permission below, both keep.
#[test]
fn broken_links_follow_the_normal_chain_rule() {
    for (what, body) in [
        ("throw before next", r#"throw "broken""#),
        (
            "throw after next",
            r#"let a = next.call(game, ctx); throw "broken later""#,
        ),
    ] {
        let src =
            format!(r#"hooks.wrap("map.occupancy_allowed", 10, |next, game, ctx| {{ {body} }});"#);
        let mods = load(
            GameVersion::Red,
            &[example("dock-stay")],
            &[("broken", HOOKS, &src)],
        );
        let mut game = at_city_gate(GameVersion::Red, Rc::clone(&mods.rt));
        let visit = enter_dock(&mut game);
        assert_stayed(&game, &visit, what);
        let feed = mods.feed();
        assert!(
            feed.iter()
                .any(|l| l.starts_with("[broken] hook map.occupancy_allowed failed")),
            "{what}: {feed:?}"
        );
    }
}

#[test]
fn contexts_carry_the_rfc_fields_and_keep_their_version() {
    let probe = r#"hooks.wrap("map.occupancy_allowed", |next, game, ctx| {
        log.info(`ctx ${ctx.keys()} mapId=${ctx.mapId} reason=${ctx.reason} gameVersion=${ctx.gameVersion} x=${ctx.x}:${type_of(ctx.x)} y=${ctx.y}:${type_of(ctx.y)}`);
        log.info(`game ${game.version}`);
        next.call(game, ctx)
    });"#;
    for version in VERSIONS {
        let mods = load(version, &[], &[("probe", HOOKS, probe)]);
        let mut game = at_city_gate(version, Rc::clone(&mods.rt));
        let visit = enter_dock(&mut game);
        assert_ejected(&mut game, &visit, "probe forwards vanilla");
        assert_eq!(
            mods.feed(),
            vec![
                format!(
                    "[probe] ctx [\"gameVersion\", \"mapId\", \"reason\", \"x\", \"y\"] \
                     mapId=VERMILION_DOCK reason=ss_anne_departed gameVersion={version} \
                     x=14:i64 y=0:i64"
                ),
                format!("[probe] game {version}"),
            ]
        );
    }
}

#[test]
fn the_signature_check_fails_closed_on_another_versions_layout() {
    let src = dock_stay_source();
    // The example, made to check Yellow's signature whatever the game, and one made to check
    // a map that is not the active one: neither may permit on Red.
    let wrong_version = src.replace(
        "layout_matches(world, ctx.mapId, ctx.gameVersion)",
        r#"layout_matches(world, ctx.mapId, "yellow")"#,
    );
    let wrong_map = src.replace(
        "layout_matches(world, ctx.mapId, ctx.gameVersion)",
        r#"layout_matches(world, "VERMILION_CITY", ctx.gameVersion)"#,
    );
    let unknown_version = src.replace(
        "layout_matches(world, ctx.mapId, ctx.gameVersion)",
        r#"layout_matches(world, ctx.mapId, "gold")"#,
    );
    for (what, patched) in [
        ("yellow signature on red", wrong_version),
        ("inactive map", wrong_map),
        ("no signature", unknown_version),
    ] {
        assert_ne!(patched, src, "{what}: the patch applies");
        let mods = load(
            GameVersion::Red,
            &[],
            &[("dock-stay-patched", HOOKS_WORLD, &patched)],
        );
        let mut game = at_city_gate(GameVersion::Red, Rc::clone(&mods.rt));
        let visit = enter_dock(&mut game);
        assert_ejected(&mut game, &visit, what);
        assert_eq!(
            mods.feed(),
            vec![
                "[dock-stay-patched] red dock layout not verified: no permission from this mod"
                    .to_owned()
            ],
            "{what}"
        );
    }
    // And Yellow's own signature does not pass on Red/Blue data, nor theirs on Yellow: each
    // version's layout is checked against its own data (the unpatched example passes on all
    // three in `the_dock_stay_example_keeps_the_player_and_the_erasure_still_happens`).
    let red_sig_on_yellow = src.replace(
        "layout_matches(world, ctx.mapId, ctx.gameVersion)",
        r#"layout_matches(world, ctx.mapId, "red")"#,
    );
    let mods = load(
        GameVersion::Yellow,
        &[],
        &[("dock-stay-patched", HOOKS_WORLD, &red_sig_on_yellow)],
    );
    let mut game = at_city_gate(GameVersion::Yellow, Rc::clone(&mods.rt));
    let visit = enter_dock(&mut game);
    assert_ejected(&mut game, &visit, "red signature on yellow");
}

#[test]
fn removing_or_disabling_the_owner_restores_vanilla_without_a_save_migration() {
    let mods = load(GameVersion::Red, &[example("dock-stay")], &[]);
    let mut game = at_city_gate(GameVersion::Red, Rc::clone(&mods.rt));
    let visit = enter_dock(&mut game);
    assert_stayed(&game, &visit, "with the mod");
    // The save taken while the player stands on the departed dock by the mod's permission.
    let kept_save = save_bytes(&game);
    mods.feed();
    assert!(game.save.mod_data.is_empty(), "the answer is not persisted");
    assert_eq!(
        mods.bucket("dock-stay", "anything"),
        pallet_api::Value::Nil,
        "the mod kept nothing in its save bucket either"
    );

    // 1. Owner cleanup on the live runtime: the next entry is vanilla.
    assert_eq!(mods.rt.remove_owner("dock-stay"), 1);
    assert!(!mods.rt.wants_hook::<MapOccupancyAllowed>());
    let mut game = at_city_gate(GameVersion::Red, Rc::clone(&mods.rt));
    let visit = enter_dock(&mut game);
    assert_ejected(&mut game, &visit, "after remove_owner");
    assert!(mods.feed().iter().all(|l| !l.starts_with("[dock-stay]")));

    // 2. The mod disabled (not loaded): vanilla.
    let mut enable = EnableState::default();
    enable.mods.insert("dock-stay".into(), false);
    let disabled = load_with(GameVersion::Red, &[example("dock-stay")], &[], &enable);
    assert_ne!(disabled.state("dock-stay"), ModState::Loaded);
    assert!(!disabled.rt.wants_hook::<MapOccupancyAllowed>());
    let mut game = at_city_gate(GameVersion::Red, Rc::clone(&disabled.rt));
    let visit = enter_dock(&mut game);
    assert_ejected(&mut game, &visit, "disabled");

    // 3. The save made with the mod, resumed without it (uninstalled): it decodes and
    //    re-encodes byte for byte (nothing to migrate), and entering the map it was saved on
    //    runs the vanilla ejection at once.
    let save = pallet_engine::save::decode(&kept_save).expect("decode");
    assert_eq!(
        pallet_engine::save::encode(&save).expect("encode"),
        kept_save
    );
    let mut resumed =
        Game::from_save(save.clone(), 9, Rc::new(Runtime::new())).expect("resume without mod");
    run_until(&mut resumed, Input::None, |g| {
        g.busy().map(|b| b.as_str()) == Some("screen_busy")
    });
    let lines = feed_lines(&mut resumed);
    assert!(has_line(&lines, SHIP_SET_SAIL), "{lines:?}");
    run_until(&mut resumed, Input::A, |g| g.busy().is_none());
    assert_eq!(pos(&resumed), ("VERMILION_CITY".into(), 18, 29));

    // ... and with the mod installed again, the same bytes keep the player: the permission
    //    lives in the mod, not in the save.
    let again = load(GameVersion::Red, &[example("dock-stay")], &[]);
    let mut resumed = Game::from_save(save, 9, Rc::clone(&again.rt)).expect("resume with mod");
    run_until(&mut resumed, Input::None, |g| {
        g.busy().is_none() || g.busy().map(|b| b.as_str()) == Some("screen_busy")
    });
    assert!(resumed.busy().is_none());
    assert_eq!(pos(&resumed), ("VERMILION_DOCK".into(), 14, 0));
}
