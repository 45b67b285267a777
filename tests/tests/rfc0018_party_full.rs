//! RFC 0018 `catch.party_full`, end to end: real Rhai mods (the bundled `seventh-catch` example
//! from disk, small in-memory mods for the other answers) loaded by the `RhaiHost` through the
//! api `Loader`, and wild battles driven through the public `Battle` API with the player's
//! boxes and Pokédex lent as a `CaptureStore` — the production capture path
//! (`store_caught_mon` → `party_full_destination`) every time.
//!
//! RFC verification bullets → tests:
//! * with no mod a 6/6 catch lands in the box with the transfer text →
//!   `no_mod_a_full_party_catch_lands_in_a_box_with_the_transfer_text`
//! * a wrapped mod that claims custody leaves the mon out of both party and boxes, and
//!   `pokemon.caught` reports `destination = "mod"` with the mon →
//!   `the_seventh_catch_example_claims_the_mon`, `truthy_answers_claim`
//! * a fall-through (falsy) deposits, "But every BOX is full!" included →
//!   `falsy_answers_deposit_as_before`, `the_seventh_catch_example_claims_the_mon` (custody full)
//! * the ctx carries the battle, the mon, the display name and the game →
//!   `ctx_carries_battle_mon_name_and_game`
//! * the name is in the live catalog and passes the no-mod parity gate → `tests/gate_hooks.rs`
//!   (`gate::<hooks::CatchPartyFull>`), `tests/gate_meta_coverage.rs` (site + coverage, no debt),
//!   and `the_hook_is_in_the_catalog_with_the_rfc_contract` here.

mod rfc_support;

use std::rc::Rc;

use pallet_api::catalog::common::{GameInfo, GameVersion as ApiVersion};
use pallet_api::catalog::hooks::CatchPartyFull;
use pallet_api::{Runtime, Value};
use pallet_engine::battle::capture::{CaptureStore, Destination};
use pallet_engine::battle::{Action, Battle, BattleKind, BattleResult, ScriptedRng, Side};
use pallet_engine::data::gen1;
use pallet_engine::pokemon::{Boxes, Dvs, Pokemon, BOX_CAPACITY, BOX_COUNT};
use pallet_engine::save::MonRecord;
use pallet_engine::world::GameVersion;
use rfc_support::*;

const HOOKS: &[&str] = &["hooks"];

const TRANSFER: &str = "PIDGEY was\ntransferred to\nsomeone's PC!";
const NICKNAME: &str = "Do you want to give a nickname to PIDGEY?";
const EVERY_BOX_FULL: &str = "But every BOX is full!";

fn mon(name: &str, level: u8) -> Pokemon {
    let d = gen1();
    Pokemon::new(
        d,
        d.species_by_name(name).expect("species"),
        level,
        Dvs::MAX,
    )
}

fn store(version: ApiVersion, boxes: Boxes<Pokemon>) -> CaptureStore {
    CaptureStore {
        boxes,
        ot_name: "RED".into(),
        ot_id: 4321,
        game: GameInfo {
            version,
            playthrough_id: None,
            map_id: Some("ROUTE_1".into()),
        },
        ..CaptureStore::default()
    }
}

/// A wild PIDGEY L5 battle with `party` RATTATA L10 and the store lent; one Master Ball thrown
/// (it draws one random byte). Returns the battle and its rendered texts.
fn catch_with(
    rt: &Runtime,
    party: usize,
    store: CaptureStore,
) -> (Battle<ScriptedRng>, Vec<String>) {
    let player: Vec<Pokemon> = (0..party).map(|_| mon("RATTATA", 10)).collect();
    let mut b = Battle::new(
        gen1(),
        BattleKind::Wild,
        player,
        vec![mon("PIDGEY", 5)],
        ScriptedRng::new(&[0]),
    );
    b.set_capture_store(store);
    b.start(rt);
    b.clear_rows();
    let ball = gen1().item_by_name("MASTER_BALL").expect("ball");
    b.submit(rt, Action::Item(ball), Action::Move(0))
        .expect("throw");
    assert_eq!(b.result(), Some(BattleResult::Caught));
    let rows: Vec<_> = b.rows().collect();
    let texts = rows.iter().filter_map(|r| r.render(&b)).collect();
    (b, texts)
}

fn full_boxes() -> Boxes<Pokemon> {
    let mut boxes = Boxes::new();
    for _ in 0..BOX_COUNT * BOX_CAPACITY {
        assert!(boxes.deposit(mon("WEEDLE", 3)).is_ok());
    }
    boxes
}

/// A Rhai listener that logs every `pokemon.caught` it sees.
const CAUGHT_LOGGER: &str = r#"
events.on("pokemon.caught", |p| {
    log.info(`caught ${p.species} -> ${p.destination}; mon ${p.mon.species} L${p.mon.level} ot ${p.mon.otName}; new ${p.isNew}; ball ${p.ball}; game ${p.game.version}`);
});
"#;

#[test]
fn no_mod_a_full_party_catch_lands_in_a_box_with_the_transfer_text() {
    // No runtime subscribers at all, then a loaded mod that only listens to the event.
    let listener = load(GameVersion::Red, &[], &[("listener", &[], CAUGHT_LOGGER)]);
    for rt in [Rc::new(Runtime::new()), Rc::clone(&listener.rt)] {
        assert!(!rt.wants_hook::<CatchPartyFull>());
        let (mut b, texts) = catch_with(&rt, 6, store(ApiVersion::Red, Boxes::new()));
        assert_eq!(
            texts,
            [
                "RED used MASTER BALL!",
                "All right! PIDGEY was caught!",
                "New POKéDEX data will be added for PIDGEY!",
                NICKNAME,
                TRANSFER,
            ]
        );
        assert_eq!(b.party(Side::Player).len(), 6);
        let caught = b.caught().expect("caught");
        assert_eq!(
            (caught.destination, caught.box_no),
            (Destination::Box, Some(1))
        );
        let st = b.take_capture_store().expect("store");
        assert_eq!(st.boxes.total(), 1);
        assert_eq!(
            st.boxes.get_box(1).map(|m| m[0].species),
            gen1().species_by_name("PIDGEY")
        );
    }
    assert_eq!(
        listener.feed(),
        vec!["[listener] caught PIDGEY -> box; mon PIDGEY L5 ot RED; new true; ball MASTER_BALL; game red".to_owned()]
    );
}

#[test]
fn the_seventh_catch_example_claims_the_mon() {
    let mods = load(
        GameVersion::Blue,
        &[example("seventh-catch")],
        &[("listener", &[], CAUGHT_LOGGER)],
    );
    assert!(mods.rt.wants_hook::<CatchPartyFull>());

    // A party with room: the hook is not consulted (the party branch), nothing in custody.
    let (b, texts) = catch_with(&mods.rt, 5, store(ApiVersion::Blue, Boxes::new()));
    assert_eq!(b.caught().map(|c| c.destination), Some(Destination::Party));
    assert!(texts.contains(&NICKNAME.to_owned()));
    assert_eq!(mods.bucket("seventh-catch", "custody"), Value::Nil);
    mods.feed();

    // 6/6: the mod claims the catch.
    let (mut b, texts) = catch_with(&mods.rt, 6, store(ApiVersion::Blue, Boxes::new()));
    assert_eq!(
        texts,
        [
            "RED used MASTER BALL!",
            "All right! PIDGEY was caught!",
            "New POKéDEX data will be added for PIDGEY!",
        ],
        "no nickname offer, no transfer text, no box text"
    );
    assert_eq!(b.party(Side::Player).len(), 6, "party still 6");
    let caught = b.caught().expect("caught").clone();
    assert_eq!(
        (caught.destination, caught.box_no),
        (Destination::Mod, None)
    );
    let st = b.take_capture_store().expect("store");
    assert_eq!(st.boxes.total(), 0, "boxes untouched");
    assert!(
        st.pokedex.owned.contains("PIDGEY"),
        "the dex still records the catch"
    );
    assert_eq!(
        mods.feed(),
        vec![
            "[seventh-catch] PIDGEY (L5) is in this mod's custody: 1 held".to_owned(),
            // Listeners of equal priority run in load order: `listener` before `seventh-catch`.
            "[listener] caught PIDGEY -> mod; mon PIDGEY L5 ot RED; new true; ball MASTER_BALL; game blue"
                .to_owned(),
            "[seventh-catch] pokemon.caught: PIDGEY went to \"mod\"".to_owned(),
        ]
    );
    // The mod's custody: a detached copy of exactly the caught mon, in its save bucket.
    let record = MonRecord::from_pokemon(&caught.mon, gen1()).expect("record");
    let custody = mods.bucket("seventh-catch", "custody");
    let held = custody.as_list().expect("custody list");
    assert_eq!(held.len(), 1);
    let entry = held[0].as_map().expect("entry");
    assert_eq!(
        entry.get("mon"),
        Some(&pallet_api::value::to_value(&record).expect("value"))
    );
    assert_eq!(entry.get("name"), Some(&Value::from("PIDGEY")));
    assert_eq!(entry.get("version"), Some(&Value::from("blue")));
    assert_eq!(entry.get("battle"), Some(&Value::from("wild")));
    // The custody record is a real mon: it rebuilds to the caught one.
    let back: MonRecord =
        pallet_api::value::from_value(entry.get("mon").cloned().unwrap_or_default())
            .expect("a mon record");
    assert_eq!(back.to_pokemon(gen1()).expect("mon"), caught.mon);

    // Five more claims fill the custody (limit 6); the next catch falls through (`next`) and
    // is deposited as always, transfer text included.
    for n in 2..=6 {
        let (mut b, _) = catch_with(&mods.rt, 6, store(ApiVersion::Blue, Boxes::new()));
        assert_eq!(
            b.caught().map(|c| c.destination),
            Some(Destination::Mod),
            "claim {n}"
        );
        assert_eq!(b.take_capture_store().map(|s| s.boxes.total()), Some(0));
    }
    mods.feed();
    let (mut b, texts) = catch_with(&mods.rt, 6, store(ApiVersion::Blue, Boxes::new()));
    assert_eq!(b.caught().map(|c| c.destination), Some(Destination::Box));
    assert_eq!(texts[texts.len() - 2..], [NICKNAME, TRANSFER]);
    assert_eq!(b.take_capture_store().map(|s| s.boxes.total()), Some(1));
    let feed = mods.feed();
    assert_eq!(
        feed[0],
        "[seventh-catch] custody full (6): PIDGEY goes to a box"
    );
    assert!(feed[1].contains("caught PIDGEY -> box"), "{feed:?}");
    assert_eq!(
        mods.bucket("seventh-catch", "custody")
            .as_list()
            .map(<[Value]>::len),
        Some(6)
    );
}

#[test]
fn falsy_answers_deposit_as_before() {
    let cases: &[(&str, &str)] = &[
        ("false", "false"),
        ("nil", "()"),
        ("fall-through next.call(ctx)", "next.call(ctx)"),
        ("fall-through next.call()", "next.call()"),
        ("claim then forward vanilla", "let v = next.call(ctx); v"),
        ("throw before next", r#"throw "broken""#),
        (
            "throw after next",
            r#"let v = next.call(ctx); throw "late""#,
        ),
    ];
    for (what, body) in cases {
        let src = format!(r#"hooks.wrap("catch.party_full", |next, ctx| {{ {body} }});"#);
        let mods = load(GameVersion::Red, &[], &[("case", HOOKS, &src)]);
        let (mut b, texts) = catch_with(&mods.rt, 6, store(ApiVersion::Red, Boxes::new()));
        assert_eq!(
            b.caught().map(|c| c.destination),
            Some(Destination::Box),
            "{what}"
        );
        assert_eq!(texts[texts.len() - 2..], [NICKNAME, TRANSFER], "{what}");
        assert_eq!(b.party(Side::Player).len(), 6);
        assert_eq!(
            b.take_capture_store().map(|s| s.boxes.total()),
            Some(1),
            "{what}"
        );

        // With every box full, a falsy answer still reaches "But every BOX is full!".
        let (mut b, texts) = catch_with(&mods.rt, 6, store(ApiVersion::Red, full_boxes()));
        assert_eq!(
            texts.last().map(String::as_str),
            Some(EVERY_BOX_FULL),
            "{what}"
        );
        assert!(
            !texts.iter().any(|t| t == NICKNAME || t == TRANSFER),
            "{what}"
        );
        assert_eq!(
            b.caught().map(|c| (c.destination, c.box_no)),
            Some((Destination::Box, None))
        );
        assert_eq!(
            b.take_capture_store().map(|s| s.boxes.total()),
            Some(BOX_COUNT * BOX_CAPACITY)
        );
    }
}

/// "Truthy" is the Lua rule the RFC was written with: everything but nil and false claims.
#[test]
fn truthy_answers_claim() {
    for (what, answer) in [
        ("true", "true"),
        ("a number", "1"),
        ("zero (truthy in Lua)", "0"),
        ("a string", r#""mine""#),
        ("a map", "#{ kept: true }"),
    ] {
        let src = format!(r#"hooks.wrap("catch.party_full", |next, ctx| {{ {answer} }});"#);
        let mods = load(GameVersion::Red, &[], &[("case", HOOKS, &src)]);
        // Every box full: a claim never even looks at the boxes.
        let (mut b, texts) = catch_with(&mods.rt, 6, store(ApiVersion::Red, full_boxes()));
        assert_eq!(
            b.caught().map(|c| c.destination),
            Some(Destination::Mod),
            "{what}"
        );
        assert!(
            !texts
                .iter()
                .any(|t| t == NICKNAME || t == TRANSFER || t == EVERY_BOX_FULL),
            "{what}: {texts:?}"
        );
        assert_eq!(b.party(Side::Player).len(), 6);
        assert_eq!(
            b.take_capture_store().map(|s| s.boxes.total()),
            Some(BOX_COUNT * BOX_CAPACITY)
        );
    }
}

#[test]
fn ctx_carries_battle_mon_name_and_game() {
    let src = r#"hooks.wrap("catch.party_full", |next, ctx| {
        log.info(`ctx ${ctx.keys()}`);
        log.info(`battle ${ctx.battle.kind} turn ${ctx.battle.turn}`);
        log.info(`mon ${ctx.mon.species} L${ctx.mon.level} hp ${ctx.mon.hp} ot ${ctx.mon.otName}/${ctx.mon.otId}`);
        log.info(`name ${ctx.name}`);
        log.info(`game ${ctx.game.version} on ${ctx.game.mapId}`);
        // The mon is a detached copy: changing it changes nothing in the game.
        ctx.mon.level = 99;
        ctx.mon.species = "MEW";
        next.call(ctx)
    });"#;
    for (version, api) in [
        (GameVersion::Red, ApiVersion::Red),
        (GameVersion::Blue, ApiVersion::Blue),
        (GameVersion::Yellow, ApiVersion::Yellow),
    ] {
        let mods = load(version, &[], &[("probe", HOOKS, src)]);
        let (mut b, _) = catch_with(&mods.rt, 6, store(api, Boxes::new()));
        let hp = b.caught().map(|c| c.mon.hp).unwrap_or_default();
        assert_eq!(
            mods.feed(),
            vec![
                "[probe] ctx [\"battle\", \"game\", \"mon\", \"name\"]".to_owned(),
                "[probe] battle wild turn 1".to_owned(),
                format!("[probe] mon PIDGEY L5 hp {hp} ot RED/4321"),
                "[probe] name PIDGEY".to_owned(),
                format!("[probe] game {version} on ROUTE_1"),
            ]
        );
        let st = b.take_capture_store().expect("store");
        let boxed = &st.boxes.get_box(1).expect("box 1")[0];
        assert_eq!(boxed.level, 5, "the ctx mon is detached");
        assert_eq!(Some(boxed.species), gen1().species_by_name("PIDGEY"));
    }
}

#[test]
fn the_hook_is_in_the_catalog_with_the_rfc_contract() {
    let info = pallet_api::catalog::hook_info("catch.party_full").expect("catalog entry");
    assert_eq!(info.name, "catch.party_full");
    assert_eq!(info.signature, "(next, ctx) -> boolean");
    assert_eq!(info.params, ["ctx"]);
    let occupancy = pallet_api::catalog::hook_info("map.occupancy_allowed").expect("catalog");
    assert_eq!(occupancy.signature, "(next, game, ctx) -> boolean");
    assert_eq!(occupancy.params, ["game", "ctx"]);
}

/// The same through the whole game: six gifts, a MASTER BALL in the bag, a wild battle started
/// by the game's battle mode, the ball chosen through `Game::battle_choose`. With the bundled
/// example the seventh mon never reaches the save's party or boxes; its custody record is plain
/// save data (it travels in the save's `modData` and comes back as the same mon).
#[test]
fn through_the_game_a_claimed_catch_stays_out_of_the_save_party_and_boxes() {
    let ball = gen1().item_by_name("MASTER_BALL").expect("ball");
    let play = |version: GameVersion, rt: Rc<Runtime>| {
        let mut game = pallet_engine::game::Game::new_game(version, 5, rt).expect("game");
        for species in ["RATTATA", "SPEAROW", "MANKEY", "ODDISH", "ABRA", "ZUBAT"] {
            game.give_pokemon(species, 12).expect("gift");
        }
        game.save
            .inventory
            .push(pallet_engine::save::data::ItemStack {
                id: "MASTER_BALL".into(),
                count: 1,
            });
        game.drain_feed();
        game.start_wild_battle("PIDGEY", 4).expect("battle");
        game.battle_choose(Action::Item(ball)).expect("throw");
        assert!(game.battle().is_none(), "the catch ended the battle");
        let lines = feed_lines(&mut game);
        assert!(
            has_line(&lines, "All right! PIDGEY was caught!"),
            "{lines:?}"
        );
        game
    };
    for version in VERSIONS {
        // Vanilla: the box, with the transfer text.
        let mut vanilla = play(version, Rc::new(Runtime::new()));
        assert_eq!(vanilla.save.party.len(), 6);
        assert_eq!(vanilla.save.boxes.iter().map(Vec::len).sum::<usize>(), 1);
        let _ = feed_lines(&mut vanilla);

        let mods = load(version, &[example("seventh-catch")], &[]);
        let mut game = play(version, Rc::clone(&mods.rt));
        assert_eq!(game.save.party.len(), 6, "{version}");
        assert_eq!(
            game.save.boxes.iter().map(Vec::len).sum::<usize>(),
            0,
            "{version}: boxes untouched"
        );
        assert!(game.save.pokedex.owned.contains("PIDGEY"));
        let feed = mods.feed();
        assert_eq!(
            feed,
            vec![
                "[seventh-catch] PIDGEY (L4) is in this mod's custody: 1 held".to_owned(),
                "[seventh-catch] pokemon.caught: PIDGEY went to \"mod\"".to_owned(),
            ],
            "{version}"
        );
        let lines = feed_lines(&mut game);
        assert!(!has_line(&lines, "transferred"), "{lines:?}");
        let custody = mods.bucket("seventh-catch", "custody");
        let entry = custody.as_list().and_then(|l| l.first()).cloned();
        let entry = entry
            .as_ref()
            .and_then(Value::as_map)
            .expect("custody entry");
        assert_eq!(
            entry.get("version"),
            Some(&Value::from(version.to_string().as_str()))
        );

        // The custody travels in the save's modData like any mod bucket.
        let Value::Map(mod_data) = mods.loader.mod_data.to_value() else {
            panic!("modData is a map");
        };
        game.save.mod_data = mod_data;
        let bytes = pallet_engine::save::encode(&game.save).expect("encode");
        let back = pallet_engine::save::decode(&bytes).expect("decode");
        let mon = back.mod_data["seventh-catch"]
            .as_map()
            .and_then(|b| b.get("custody"))
            .and_then(Value::as_list)
            .and_then(|l| l.first())
            .and_then(Value::as_map)
            .and_then(|e| e.get("mon"))
            .cloned()
            .expect("custody mon in the save");
        let record: MonRecord = pallet_api::value::from_value(mon).expect("mon record");
        let rebuilt = record.to_pokemon(gen1()).expect("mon");
        assert_eq!(Some(rebuilt.species), gen1().species_by_name("PIDGEY"));
        assert_eq!((rebuilt.level, rebuilt.ot_id), (4, game.save.player.id));
    }
}
