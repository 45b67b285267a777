//! Tests of the capture path: the catch roll against scripted bytes, and throws in a battle
//! (party, boxes, every box full, trainer block, the `catch.rate` / `catch.party_full` hooks).

use std::cell::RefCell;
use std::rc::Rc;

use pallet_api::catalog::events::{CatchDestination, PokemonCaught};
use pallet_api::catalog::hooks::{CatchOutcome, CatchPartyFull, CatchRate};

use pallet_api::Runtime;

use super::*;
use crate::battle::{Action, Battle, BattleKind, BattleResult, Row, ScriptedRng, Side};
use crate::data::{gen1, ItemId};
use crate::pokemon::{Boxes, Dvs, Pokemon, Status, BOX_CAPACITY, BOX_COUNT};

fn scripted(bytes: &[u8]) -> ScriptedRng {
    ScriptedRng::new(bytes)
}

fn input(ball: Ball, catch_rate: u8, hp: u16, max_hp: u16, status: CatchStatus) -> CatchInput {
    CatchInput {
        ball,
        catch_rate,
        hp,
        max_hp,
        status,
    }
}

fn drained(r: &ScriptedRng) -> bool {
    r.remaining().is_empty() && r.overrun() == 0
}

#[test]
fn master_ball_draws_one_byte_and_always_catches() {
    let mut r = scripted(&[255]);
    let roll = roll_catch(&input(Ball::Master, 3, 100, 100, CatchStatus::None), &mut r);
    assert_eq!(
        roll,
        CatchRoll {
            caught: true,
            shakes: 3
        }
    );
    assert!(drained(&r));
}

#[test]
fn ball_ranges_redraw_rand1() {
    // Great Ball: 201 and 250 are redrawn, 200 accepted; 200 > catch rate 45 fails at once.
    let mut r = scripted(&[201, 250, 200]);
    let roll = roll_catch(&input(Ball::Great, 45, 20, 20, CatchStatus::None), &mut r);
    assert!(!roll.caught);
    assert!(drained(&r));
    // Ultra and Safari: everything above 150 is redrawn.
    for ball in [Ball::Ultra, Ball::Safari] {
        let mut r = scripted(&[151, 200, 255, 150]);
        assert!(!roll_catch(&input(ball, 45, 20, 20, CatchStatus::None), &mut r).caught);
        assert!(drained(&r), "{ball:?}");
    }
    // Poké Ball: any byte is fine (255 > 45 fails without a second byte).
    let mut r = scripted(&[255]);
    assert!(!roll_catch(&input(Ball::Poke, 45, 20, 20, CatchStatus::None), &mut r).caught);
    assert!(drained(&r));
}

#[test]
fn hp_factor_and_second_byte() {
    // Poké Ball, 20/20 HP: W = 20*255/12 / 5 = 425 / 5 = 85.
    let i = input(Ball::Poke, 255, 20, 20, CatchStatus::None);
    let mut r = scripted(&[0, 85]);
    assert!(roll_catch(&i, &mut r).caught);
    assert!(drained(&r));
    let mut r = scripted(&[0, 86]);
    // Failed: Y = 255*100/255 = 100, Z = 85*100/255 = 33 -> two wobbles.
    assert_eq!(
        roll_catch(&i, &mut r),
        CatchRoll {
            caught: false,
            shakes: 2
        }
    );
    assert!(drained(&r));
    // Great Ball divides by 8: W = 20*255/8 / 5 = 637 / 5 = 127.
    let g = input(Ball::Great, 255, 20, 20, CatchStatus::None);
    let mut r = scripted(&[0, 127]);
    assert!(roll_catch(&g, &mut r).caught);
    let mut r = scripted(&[0, 128]);
    // Y = 25500/200 = 127, Z = 127*127/255 = 63 -> two wobbles.
    assert_eq!(
        roll_catch(&g, &mut r),
        CatchRoll {
            caught: false,
            shakes: 2
        }
    );
    assert!(drained(&r));
}

#[test]
fn low_hp_catches_without_a_second_byte() {
    // HP 3: HP/4 = 0 -> 1; W = 100*255/12 = 2125 > 255 -> caught, Rand2 never drawn.
    let mut r = scripted(&[10]);
    assert!(roll_catch(&input(Ball::Poke, 45, 3, 100, CatchStatus::None), &mut r).caught);
    assert!(drained(&r));
    // The cartridge keeps only the low byte of HP/4: HP 1024 -> 256 -> 0 -> 1.
    let mut r = scripted(&[10]);
    assert!(
        roll_catch(
            &input(Ball::Poke, 45, 1024, 1024, CatchStatus::None),
            &mut r
        )
        .caught
    );
    assert!(drained(&r));
}

#[test]
fn status_is_subtracted_from_rand1() {
    let full = |s| input(Ball::Poke, 3, 200, 200, s);
    // Sleep/freeze: 25. Rand1 24 borrows -> caught with a single byte.
    for s in [Status::Sleep(3), Status::Freeze] {
        let mut r = scripted(&[24]);
        assert!(roll_catch(&full(CatchStatus::of(s)), &mut r).caught);
        assert!(drained(&r));
    }
    // Rand1 28 - 25 = 3 <= catch rate 3 -> goes on to Rand2 (W = 200*255/12/50 = 85).
    let mut r = scripted(&[28, 200]);
    let roll = roll_catch(&full(CatchStatus::SleepOrFreeze), &mut r);
    // Y = 300/255 = 1, Z = 85*1/255 + 10 = 10 -> one wobble (0 without the status).
    assert_eq!(
        roll,
        CatchRoll {
            caught: false,
            shakes: 1
        }
    );
    assert!(drained(&r));
    let mut r = scripted(&[3, 200]);
    assert_eq!(
        roll_catch(&full(CatchStatus::None), &mut r),
        CatchRoll {
            caught: false,
            shakes: 0
        }
    );
    // Paralysis/burn/poison: 12.
    for s in [Status::Paralysis, Status::Burn, Status::Poison] {
        let mut r = scripted(&[11]);
        assert!(roll_catch(&full(CatchStatus::of(s)), &mut r).caught);
        let mut r = scripted(&[12, 255]);
        // 12 - 12 = 0 <= 3, Rand2 255 > 85: fails; Z = 0 + 5 -> no wobble.
        assert_eq!(
            roll_catch(&full(CatchStatus::of(s)), &mut r),
            CatchRoll {
                caught: false,
                shakes: 0
            }
        );
        assert!(drained(&r));
    }
    // Without a status the same Rand1 11 exceeds catch rate 3 and fails at once.
    let mut r = scripted(&[11]);
    assert!(!roll_catch(&full(CatchStatus::None), &mut r).caught);
    assert!(drained(&r));
}

#[test]
fn wobble_thresholds() {
    // Ultra Ball, catch rate 255, Rand1 0: Y = 25500/150 = 170. Choose X via HP.
    // X = max*255/12 / (hp/4); max 255, hp 255 -> 5418/63 = 86 -> Z = 86*170/255 = 57 -> 2.
    let mut r = scripted(&[0, 255]);
    assert_eq!(
        roll_catch(
            &input(Ball::Ultra, 255, 255, 255, CatchStatus::None),
            &mut r
        )
        .shakes,
        2
    );
    // hp 999/999: 21228/249 = 85 -> Z = 56 -> 2; catch rate 45: Y = 30, Z = 10 -> 1.
    let mut r = scripted(&[0, 255]);
    assert_eq!(
        roll_catch(&input(Ball::Ultra, 45, 999, 999, CatchStatus::None), &mut r).shakes,
        1
    );
    // catch rate 3, Poké Ball: Y = 1, Z = 0 -> the ball misses.
    let mut r = scripted(&[0, 255]);
    assert_eq!(
        roll_catch(&input(Ball::Poke, 3, 999, 999, CatchStatus::None), &mut r).shakes,
        0
    );
    // Great Ball, 40/100 HP, rate 255: X = 3187/10 = 318 -> W > 255 catches; 60/100:
    // X = 3187/15 = 212, Y = 127, Z = 105 -> 3 wobbles.
    let mut r = scripted(&[0, 255]);
    assert_eq!(
        roll_catch(&input(Ball::Great, 255, 60, 100, CatchStatus::None), &mut r),
        CatchRoll {
            caught: false,
            shakes: 3
        }
    );
}

// ----- the capture path in a battle --------------------------------------------------------

fn mon(name: &str, level: u8) -> Pokemon {
    let d = gen1();
    Pokemon::new(d, d.species_by_name(name).unwrap(), level, Dvs::MAX)
}

fn ball(name: &str) -> ItemId {
    gen1().item_by_name(name).unwrap()
}

fn wild_battle(party: usize, bytes: &[u8]) -> Battle<ScriptedRng> {
    let player: Vec<Pokemon> = (0..party).map(|_| mon("RATTATA", 10)).collect();
    Battle::new(
        gen1(),
        BattleKind::Wild,
        player,
        vec![mon("PIDGEY", 5)],
        scripted(bytes),
    )
}

fn texts(b: &mut Battle<ScriptedRng>) -> Vec<String> {
    let rows: Vec<Row> = b.rows().collect();
    rows.iter().filter_map(|r| r.render(&*b)).collect()
}

fn throw(b: &mut Battle<ScriptedRng>, rt: &Runtime, item: &str) {
    b.clear_rows();
    b.submit(rt, Action::Item(ball(item)), Action::Move(0))
        .unwrap();
}

#[test]
fn party_has_room() {
    let rt = Runtime::default();
    let mut b = wild_battle(1, &[0]);
    throw(&mut b, &rt, "MASTER_BALL");
    assert!(drained(b.rng()));
    assert_eq!(b.result(), Some(BattleResult::Caught));
    let t = texts(&mut b);
    assert_eq!(
        t,
        [
            "RED used MASTER BALL!",
            "All right! PIDGEY was caught!",
            "New POKéDEX data will be added for PIDGEY!",
            "Do you want to give a nickname to PIDGEY?",
        ]
    );
    assert_eq!(b.party(Side::Player).len(), 2);
    let caught = b.caught().unwrap();
    assert_eq!(
        (caught.destination, caught.is_new, caught.box_no),
        (Destination::Party, true, None)
    );
    let store = b.take_capture_store().unwrap();
    assert!(store.pokedex.owned.contains("PIDGEY"));
    assert_eq!(store.boxes.total(), 0);
}

#[test]
fn party_full_goes_to_a_box_with_the_transfer_text() {
    let rt = Runtime::default();
    let mut b = wild_battle(6, &[0]);
    let mut store = CaptureStore::default();
    store.pokedex.owned.insert("PIDGEY".to_string());
    b.set_capture_store(store);
    throw(&mut b, &rt, "MASTER_BALL");
    let t = texts(&mut b);
    assert_eq!(
        t,
        [
            "RED used MASTER BALL!",
            "All right! PIDGEY was caught!",
            "Do you want to give a nickname to PIDGEY?",
            "PIDGEY was\ntransferred to\nsomeone's PC!",
        ]
    );
    assert_eq!(b.party(Side::Player).len(), 6);
    assert_eq!(
        b.caught().map(|c| (c.destination, c.box_no, c.is_new)),
        Some((Destination::Box, Some(1), false))
    );
    let store = b.take_capture_store().unwrap();
    assert_eq!(store.boxes.total(), 1);
    assert_eq!(
        store.boxes.get_box(1).map(|m| m[0].species),
        gen1().species_by_name("PIDGEY")
    );
    // With Bill met, the text names his PC.
    let mut b = wild_battle(6, &[0]);
    b.set_capture_store(CaptureStore {
        met_bill: true,
        ..CaptureStore::default()
    });
    throw(&mut b, &rt, "MASTER_BALL");
    assert!(texts(&mut b)
        .iter()
        .any(|t| t == "PIDGEY was\ntransferred to\nBILL's PC!"));
}

#[test]
fn every_box_full() {
    let rt = Runtime::default();
    let mut b = wild_battle(6, &[0]);
    let mut boxes = Boxes::new();
    for _ in 0..BOX_COUNT * BOX_CAPACITY {
        assert!(boxes.deposit(mon("WEEDLE", 3)).is_ok());
    }
    b.set_capture_store(CaptureStore {
        boxes,
        ..CaptureStore::default()
    });
    throw(&mut b, &rt, "MASTER_BALL");
    let t = texts(&mut b);
    assert_eq!(t.last().map(String::as_str), Some("But every BOX is full!"));
    assert!(!t
        .iter()
        .any(|t| t.contains("nickname") || t.contains("transferred")));
    assert_eq!(b.result(), Some(BattleResult::Caught));
    assert_eq!(
        b.caught().map(|c| (c.destination, c.box_no)),
        Some((Destination::Box, None))
    );
    assert_eq!(b.party(Side::Player).len(), 6);
    assert_eq!(
        b.take_capture_store().unwrap().boxes.total(),
        BOX_COUNT * BOX_CAPACITY
    );
}

#[test]
fn failed_throw_leaves_the_battle_running() {
    let rt = Runtime::default();
    // Poké Ball at a full-HP PIDGEY (rate 255): Rand1 0, Rand2 255 > X -> breaks free. The
    // enemy then moves on 0xFF bytes (no crit, a miss), which end every retry loop.
    let mut bytes = vec![0, 255];
    bytes.extend([0xFF; 32]);
    let mut b = wild_battle(1, &bytes);
    throw(&mut b, &rt, "POKE_BALL");
    let t = texts(&mut b);
    assert_eq!(t[0], "RED used POKé BALL!");
    assert!(
        t[1].starts_with("Aww!") || t[1].starts_with("Darn!") || t[1].starts_with("Shoot!"),
        "{t:?}"
    );
    assert_ne!(b.result(), Some(BattleResult::Caught));
}

#[test]
fn trainer_blocks_the_ball() {
    let rt = Runtime::default();
    let kind = BattleKind::Trainer {
        class: "YOUNGSTER".into(),
        index: 0,
        name: "YOUNGSTER".into(),
    };
    let mut b = Battle::new(
        gen1(),
        kind,
        vec![mon("RATTATA", 10)],
        vec![mon("PIDGEY", 5)],
        scripted(&[0xFF; 32]),
    );
    throw(&mut b, &rt, "MASTER_BALL");
    let t = texts(&mut b);
    assert_eq!(
        &t[..3],
        [
            "RED used MASTER BALL!",
            "The trainer blocked the BALL!",
            "Don't be a thief!"
        ]
    );
    assert_eq!(b.result(), None);
}

#[test]
fn party_full_hook_claims_the_mon() {
    let rt = Runtime::new();
    let seen: Rc<RefCell<Vec<(String, String)>>> = Rc::default();
    let s = seen.clone();
    rt.wrap::<CatchPartyFull, _>("royale", 0, move |_next, args| {
        s.borrow_mut()
            .push((args.ctx.name.clone(), format!("{:?}", args.ctx.battle.kind)));
        Ok(true)
    });
    let events: Rc<RefCell<Vec<CatchDestination>>> = Rc::default();
    let e = events.clone();
    rt.on::<PokemonCaught, _>("royale", 0, move |p| {
        e.borrow_mut().push(p.destination);
        Ok(())
    });
    let mut b = wild_battle(6, &[0]);
    throw(&mut b, &rt, "MASTER_BALL");
    let t = texts(&mut b);
    assert!(
        !t.iter()
            .any(|t| t.contains("nickname") || t.contains("transferred") || t.contains("BOX")),
        "{t:?}"
    );
    assert_eq!(b.caught().map(|c| c.destination), Some(Destination::Mod));
    assert_eq!(b.party(Side::Player).len(), 6);
    assert_eq!(b.take_capture_store().unwrap().boxes.total(), 0);
    assert_eq!(*seen.borrow(), [("PIDGEY".to_string(), "Wild".to_string())]);
    assert_eq!(*events.borrow(), [CatchDestination::Mod]);
}

#[test]
fn party_full_hook_falling_through_deposits() {
    let rt = Runtime::new();
    rt.wrap::<CatchPartyFull, _>("m", 0, |next, _| Ok(next.call()));
    let mut b = wild_battle(6, &[0]);
    throw(&mut b, &rt, "MASTER_BALL");
    assert_eq!(b.caught().map(|c| c.destination), Some(Destination::Box));
    assert_eq!(b.take_capture_store().unwrap().boxes.total(), 1);
}

#[test]
fn catch_rate_hook_decides_the_throw() {
    let rt = Runtime::new();
    rt.wrap::<CatchRate, _>("m", 0, |_next, args| {
        assert_eq!(args.ball, "POKE_BALL");
        Ok(CatchOutcome {
            caught: true,
            shakes: 0,
        })
    });
    // The hook short-circuits: no random byte is drawn for the throw.
    let mut b = wild_battle(1, &[]);
    throw(&mut b, &rt, "POKE_BALL");
    assert!(drained(b.rng()));
    assert_eq!(b.result(), Some(BattleResult::Caught));
}
