//! Battle checkpoints (RFC 0004/0005) through a real Rhai mod, in ordinary play: the host lends
//! the game between the player's choices and raises the mod's own events (as `pallet run`'s
//! `signal` command does), and the mod captures, plays on and restores the battle from those
//! event handlers. Inside the battle (its opening, a `battle.field_residual` wrapper mid-round)
//! the same handle is refused with `battle_phase_busy`. After the restore the battle continues
//! identically, the mod's wrapper still runs, and `mod.save` is rewound.

mod rhai_support;

use std::rc::Rc;

use pallet_api::Value;
use pallet_engine::battle::Action;
use pallet_engine::checkpoint::lend::{game_is_lent, lend};
use pallet_engine::data::gen1;
use pallet_engine::game::{Game, Mode};
use pallet_engine::pokemon::{Dvs, Pokemon};
use pallet_engine::save::{self, MonRecord};
use pallet_engine::world::presentation::PresentationRow;
use pallet_engine::world::{GameVersion, Input};
use rhai_support::{load, manifest, Env};

const MAIN: &str = r#"
let saved = ();
let mid_logged = false;

events.on("battle.started", |p| {
    let cap = checkpoints.inspect();
    log.info(`opening kind=${cap.kind} reason=${cap.reason} capture=${cap.canCapture}`);
    try { checkpoints.capture(); } catch (e) { log.info(`opening capture threw ${e.code}`); }
});

hooks.wrap("battle.field_residual", |next, ctx| {
    let rows = next.call();
    if !mid_logged {
        mid_logged = true;
        let cap = checkpoints.inspect();
        log.info(`mid-round kind=${cap.kind} reason=${cap.reason}`);
        try { checkpoints.restore(saved); } catch (e) { log.info(`mid-round restore threw ${e.code}`); }
    }
    save.set("rounds", save.get("rounds", 0) + 1);
    let sand = ctx.field.tokens.filter(|t| t.id == "sand");
    if sand.len() > 0 {
        rows.push(#{ side: "enemy", amount: sand[0].power, message: "Sand whips the foe!" });
    }
    rows
});

events.on("mod.cpb.capture", |p| {
    let cap = checkpoints.inspect();
    log.info(`inspect kind=${cap.kind} capture=${cap.canCapture} restore=${cap.canRestore}`);
    saved = checkpoints.capture();
    let b = saved.runtime.battle;
    log.info(`captured kind=${saved.kind} phase=${b.phase} turn=${b.turn} origin=${b.origin.kind} tokens=${b.field.tokens.len()} enemy=${b.enemy.species} rounds=${saved.save.modData.cpb.rounds}`);
});

events.on("mod.cpb.restore", |p| {
    log.info(`before restore rounds=${save.get("rounds")}`);
    let bad = saved;
    bad.runtime.battle.player.stages[0] = 9;
    try { checkpoints.restore(bad); } catch (e) { log.info(`rejected ${e.code}`); }
    let ok = checkpoints.restore(saved);
    log.info(`restore ${ok} rounds=${save.get("rounds")}`);
    let again = checkpoints.capture();
    log.info(`recapture turn=${again.runtime.battle.turn} same=${again == saved}`);
});

events.on("checkpoint.restored", |p| {
    log.info(`restored event kind=${p.kind}`);
});
"#;

fn mon(name: &str, level: u8, moves: &[&str]) -> MonRecord {
    let data = gen1();
    let mut m = Pokemon::new(
        data,
        data.species_by_name(name).unwrap(),
        level,
        Dvs::uniform(8),
    );
    let mut slots = [None; 4];
    for (slot, id) in moves.iter().enumerate() {
        slots[slot] = data.move_by_name(id);
    }
    m.moves = slots;
    for slot in 0..4 {
        m.pp[slot] = m.max_pp(data, slot).unwrap_or(0);
    }
    MonRecord::from_pokemon(&m, data).unwrap()
}

fn lines(env: &Env) -> Vec<String> {
    env.feed()
        .into_iter()
        .filter_map(|l| l.strip_prefix("[cpb] ").map(str::to_owned))
        .collect()
}

/// The host raises `mod.cpb.<name>` between the player's choices, with the game lent.
fn signal(env: &Env, game: &mut Game, name: &str) {
    let rt = Rc::clone(&env.rt);
    lend(game, Some(&env.loader.mod_data), || {
        rt.emit_mod("cpb", &format!("mod.cpb.{name}"), &Value::Nil)
            .unwrap()
    });
    assert!(!game_is_lent());
}

fn battle_rows(game: &mut Game) -> Vec<String> {
    game.drain_feed()
        .into_iter()
        .filter_map(|r| match r.row {
            PresentationRow::Note { text } => Some(text),
            _ => None,
        })
        .collect()
}

/// Alternate SCRATCH and EMBER to the end of the battle (first legal action when locked).
fn fight(game: &mut Game) -> (Vec<String>, Vec<u8>) {
    let mut rows = Vec::new();
    for i in 0..200 {
        if game.mode != Mode::Battle {
            break;
        }
        let legal = game.battle_actions();
        let want = Action::Move([0, 2][i % 2]);
        let a = if legal.contains(&want) {
            want
        } else {
            legal[0]
        };
        game.battle_choose(a).unwrap();
        rows.extend(battle_rows(game));
    }
    for _ in 0..2_000 {
        match game.busy().map(|b| b.as_str()) {
            None => break,
            Some("screen_busy") => game.step(Input::A),
            Some(_) => game.step(Input::None),
        }
    }
    let mut end = save::encode(&game.save).unwrap();
    end.extend(format!("{:?}", game.rng).bytes());
    (rows, end)
}

#[test]
fn a_rhai_mod_captures_and_restores_a_battle_between_choices() {
    let env = load(
        &[],
        &[("cpb", &manifest("cpb", &["hooks", "checkpoints"]), MAIN)],
    );
    assert_eq!(env.error("cpb"), "");
    let mut game = Game::new_game(GameVersion::Red, 5, Rc::clone(&env.rt)).unwrap();
    game.save.party = vec![mon("CHARMANDER", 12, &["SCRATCH", "GROWL", "EMBER"])];
    game.start_wild_battle("RATTATA", 12).unwrap();
    game.battle_field_mut()
        .unwrap()
        .tokens
        .push(pallet_engine::battle::Token {
            id: "sand".into(),
            turns: None,
            data: [("power".to_owned(), Value::Int(1))].into(),
        });
    battle_rows(&mut game);
    game.battle_choose(Action::Move(0)).unwrap();
    battle_rows(&mut game);
    assert_eq!(
        lines(&env),
        [
            "opening kind=battle reason=battle_phase_busy capture=false",
            "opening capture threw battle_phase_busy",
            "mid-round kind=battle reason=battle_phase_busy",
            "mid-round restore threw battle_phase_busy",
        ]
    );

    signal(&env, &mut game, "capture");
    let captured = lines(&env);
    assert_eq!(captured[0], "inspect kind=battle capture=true restore=true");
    assert_eq!(
        captured[1],
        "captured kind=battle phase=menu turn=1 origin=wild_encounter tokens=1 enemy=RATTATA rounds=1"
    );

    let (rows_1, end_1) = fight(&mut game);
    assert!(
        rows_1.iter().any(|r| r == "battle: Sand whips the foe!"),
        "{rows_1:?}"
    );
    assert!(rows_1.iter().any(|r| r.starts_with("battle ended: ")));
    lines(&env);

    signal(&env, &mut game, "restore");
    let restored = lines(&env);
    let rounds_before = restored[0].clone();
    assert!(rounds_before.starts_with("before restore rounds="));
    assert_ne!(
        rounds_before, "before restore rounds=1",
        "the battle went on"
    );
    assert_eq!(
        restored[1..],
        [
            "rejected invalid_content",
            "restored event kind=battle",
            "restore true rounds=1",
            "recapture turn=1 same=true",
        ]
    );
    assert_eq!(game.mode, Mode::Battle);

    let (rows_2, end_2) = fight(&mut game);
    assert_eq!(
        rows_2, rows_1,
        "same rows (the mod's included) for the same choices"
    );
    assert_eq!(end_2, end_1, "same result, save and RNG");
    let rest = lines(&env);
    assert!(rest.is_empty(), "nothing else logged: {rest:?}");
}

/// `pallet run` in ordinary play: the example quicksave mod restores both kinds from its own
/// events, which the scenario's `signal` command raises between ticks and between choices.
#[test]
fn pallet_run_quick_saves_and_loads_both_kinds() {
    use pallet_script_host::cli::cmd_run::play_with_mods;
    use pallet_script_host::host::ModsOptions;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let scenario = std::fs::read_to_string(root.join("examples/scenarios/quicksave.scn")).unwrap();
    let opts = ModsOptions {
        dirs: vec![root.join("examples/mods/quicksave")],
        no_default_mods: true,
        ..ModsOptions::default()
    };
    let out = play_with_mods(GameVersion::Red, 1, &scenario, Some(&opts))
        .unwrap_or_else(|f| panic!("{}\n{}", f.message, f.transcript));
    let t = out.transcript;
    let mod_lines: Vec<&str> = t.lines().filter(|l| l.starts_with("[quicksave]")).collect();
    assert_eq!(
        mod_lines,
        [
            "[quicksave] quick save #1: overworld REDS_HOUSE_1F (3,4) down",
            "[quicksave] quick save refused: screen_busy (Close the open screen first.)",
            "[quicksave] checkpoint.restored kind=overworld",
            "[quicksave] quick load: back to overworld REDS_HOUSE_1F (3,4) down (mod.save loads: 1 before, 0 after)",
            "[quicksave] quick save #2: battle turn 1 vs WEEDLE at REDS_HOUSE_1F (3,4) down",
            "[quicksave] checkpoint.restored kind=battle",
            "[quicksave] quick load: back to battle turn 1 vs WEEDLE at REDS_HOUSE_1F (3,4) down (mod.save loads: 1 before, 0 after)",
        ]
    );
    // The battle after the quick save and after the quick load: the same rows.
    let battle = |from: &str| -> Vec<String> {
        let start = t.find(from).unwrap();
        t[start..]
            .lines()
            .skip(1)
            .filter(|l| l.contains("note: battle"))
            .take_while(|l| !l.contains("battle ended"))
            .map(|l| l.split("] ").nth(1).unwrap_or(l).to_owned())
            .collect()
    };
    let first = battle("quick save #2");
    let again = battle("quick load: back to battle");
    assert!(first.len() > 10, "{first:?}");
    assert_eq!(first, again);
    assert!(t.contains("note: battle ended: win"));
}
