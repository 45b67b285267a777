//! `pallet checkpoint`: an RFC 0004/0005 demonstration on the embedded game, printed as a
//! transcript, for both kinds:
//!
//! * overworld — capture a checkpoint, play on (walk, set a flag, change money), restore from
//!   the portable bytes, recapture;
//! * battle — capture between two rounds of a trainer battle, fight to the end, restore from the
//!   portable bytes, fight again with the same choices (same rows, same result), recapture; and
//!   the refusal at the SHIFT prompt (not a boundary).

use std::path::PathBuf;
use std::rc::Rc;

use pallet_api::Runtime;
use pallet_engine::battle::{Action, NeedsChoice};
use pallet_engine::checkpoint::{self, Checkpoint};
use pallet_engine::game::{Game, Mode};
use pallet_engine::world::presentation::PresentationRow;
use pallet_engine::world::{GameVersion, Input};

#[derive(clap::Args, Debug)]
pub struct CheckpointArgs {
    /// RNG seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Game version: red, blue or yellow.
    #[arg(long, default_value = "red", value_parser = ["red", "blue", "yellow"])]
    pub version: String,
    /// Also write the captured overworld checkpoint's portable bytes here.
    #[arg(long, value_name = "PATH")]
    pub out: Option<PathBuf>,
    /// Which kind to demonstrate: overworld, battle or both.
    #[arg(long, default_value = "both", value_parser = ["overworld", "battle", "both"])]
    pub kind: String,
}

fn settle(game: &mut Game) {
    for _ in 0..10_000 {
        match game.busy().map(|b| b.as_str()) {
            None => return,
            Some("screen_busy") => game.step(Input::A),
            Some(_) => game.step(Input::None),
        }
    }
}

fn where_(game: &Game) -> String {
    match game.overworld() {
        Some(ow) => {
            let p = ow.player();
            format!(
                "{} ({}, {}) facing {} surfing={} money={} flags={}",
                ow.map_id(),
                p.x,
                p.y,
                p.facing.as_str(),
                p.surfing,
                game.save.money,
                game.save.flags.len()
            )
        }
        None => "no overworld".to_owned(),
    }
}

/// The transcript, or an error line.
pub fn demo(version: GameVersion, seed: u64, out: Option<&PathBuf>) -> Result<String, String> {
    let mut t = String::new();
    let mut game = Game::new_game(version, seed, Rc::new(Runtime::new()))
        .map_err(|e| format!("cannot start: {e}"))?;
    settle(&mut game);
    t += &format!("start      {}\n", where_(&game));
    t += &format!(
        "identity   {} (none before the first inspection)\n",
        game.save.meta.playthrough_id.as_deref().unwrap_or("none")
    );
    let cap = checkpoint::inspect(&mut game);
    t += &format!(
        "inspect    canCapture={} canRestore={} kind={}\n",
        cap.can_capture,
        cap.can_restore,
        cap.kind.as_str()
    );
    let a = checkpoint::capture(&mut game).map_err(|e| format!("capture: {}", e.message))?;
    let bytes = a.to_bytes().map_err(|e| e.to_string())?;
    t += &format!(
        "capture    {} bytes, playthrough {}\n",
        bytes.len(),
        a.identity.playthrough_id
    );
    if let Some(path) = out {
        std::fs::write(path, &bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        t += &format!("wrote      {}\n", path.display());
    }
    for (input, n) in [(Input::Down, 6), (Input::Right, 4), (Input::Up, 3)] {
        for _ in 0..n * 16 {
            game.step(input);
        }
        settle(&mut game);
    }
    game.set_flag("EVENT_GOT_HM01", true);
    game.save.money += 500;
    game.drain_feed();
    t += &format!("play       {}\n", where_(&game));
    let busy = {
        game.step(Input::Left);
        checkpoint::inspect(&mut game)
    };
    if let Some(r) = &busy.refusal {
        t += &format!("mid-step   refused: {} ({})\n", r.code.as_str(), r.message);
    }
    settle(&mut game);
    game.drain_feed();
    let loaded = Checkpoint::from_bytes(&bytes).map_err(|e| e.to_string())?;
    checkpoint::restore(&mut game, &loaded).map_err(|e| format!("restore: {}", e.message))?;
    t += &format!("restore    {}\n", where_(&game));
    t += &format!(
        "rows       {} presentation rows during restore (map entry suppressed)\n",
        game.feed().len()
    );
    let again = checkpoint::capture(&mut game).map_err(|e| e.message)?;
    let same = again.to_bytes().map_err(|e| e.to_string())? == bytes;
    t += &format!(
        "recapture  byte-identical: {}\n",
        if same { "yes" } else { "NO" }
    );
    if !same {
        return Err(t + "recapture differs");
    }
    Ok(t)
}

/// The battle rows shown since the last drain (the game's battle notes).
fn battle_notes(game: &mut Game) -> Vec<String> {
    game.drain_feed()
        .into_iter()
        .filter_map(|r| match r.row {
            PresentationRow::Note { text } => Some(text),
            _ => None,
        })
        .collect()
}

/// The first move every round, the first mon at a SHIFT prompt, to the end of the battle.
fn fight_out(game: &mut Game) -> Result<Vec<String>, String> {
    let mut rows = Vec::new();
    for _ in 0..500 {
        if game.mode != Mode::Battle {
            return Ok(rows);
        }
        let legal = game.battle_actions();
        let pick = legal
            .iter()
            .copied()
            .find(|a| matches!(a, Action::Move(_) | Action::Struggle | Action::Continue))
            .or_else(|| legal.first().copied())
            .ok_or("no legal action")?;
        game.battle_choose(pick).map_err(|e| e.to_string())?;
        rows.extend(battle_notes(game));
    }
    Err("the battle did not end".into())
}

fn battle_line(game: &Game) -> String {
    match game.battle() {
        Some(b) => {
            let (p, e) = (
                b.active(pallet_engine::battle::Side::Player),
                b.active(pallet_engine::battle::Side::Enemy),
            );
            let data = b.data();
            format!(
                "turn {}: {} HP {}/{} vs {} HP {}/{}",
                b.turn(),
                p.display_name(data),
                p.hp,
                p.stats.max_hp,
                e.display_name(data),
                e.hp,
                e.stats.max_hp
            )
        }
        None => "no battle".to_owned(),
    }
}

/// The battle kind: capture between rounds, fight out, restore, fight out again.
pub fn demo_battle(version: GameVersion, seed: u64) -> Result<String, String> {
    let mut t = String::new();
    let mut game = Game::new_game(version, seed, Rc::new(Runtime::new()))
        .map_err(|e| format!("cannot start: {e}"))?;
    settle(&mut game);
    for (species, level) in [("CHARMANDER", 12), ("PIDGEY", 9)] {
        game.give_pokemon(species, level)
            .map_err(|e| e.to_string())?;
    }
    game.start_trainer_battle("BUG_CATCHER", 0)
        .map_err(|e| e.to_string())?;
    battle_notes(&mut game);
    game.battle_choose(Action::Move(0))
        .map_err(|e| e.to_string())?;
    battle_notes(&mut game);
    t += &format!("battle     BUG CATCHER, {}\n", battle_line(&game));
    let cap = checkpoint::inspect(&mut game);
    t += &format!(
        "inspect    canCapture={} canRestore={} kind={}\n",
        cap.can_capture,
        cap.can_restore,
        cap.kind.as_str()
    );
    let a = checkpoint::capture(&mut game).map_err(|e| format!("capture: {}", e.message))?;
    let bytes = a.to_bytes().map_err(|e| e.to_string())?;
    t += &format!("capture    {} bytes, kind {}\n", bytes.len(), a.kind);
    // Play on to the SHIFT prompt (not a boundary), then to the end.
    let mut rows = Vec::new();
    let mut refused = None;
    for _ in 0..500 {
        if game.mode != Mode::Battle {
            break;
        }
        if refused.is_none() && game.battle().map(|b| b.needs_choice()) == Some(NeedsChoice::Shift)
        {
            refused = checkpoint::inspect(&mut game).refusal;
        }
        let legal = game.battle_actions();
        let pick = legal
            .iter()
            .copied()
            .find(|a| matches!(a, Action::Move(_) | Action::Struggle | Action::Continue))
            .or_else(|| legal.first().copied())
            .ok_or("no legal action")?;
        game.battle_choose(pick).map_err(|e| e.to_string())?;
        rows.extend(battle_notes(&mut game));
    }
    if let Some(r) = refused {
        t += &format!("shift      refused: {} ({})\n", r.code.as_str(), r.message);
    }
    let result = rows.last().cloned().unwrap_or_default();
    t += &format!("play       {} rows, {result}\n", rows.len());
    let loaded = Checkpoint::from_bytes(&bytes).map_err(|e| e.to_string())?;
    checkpoint::restore(&mut game, &loaded).map_err(|e| format!("restore: {}", e.message))?;
    t += &format!("restore    {}\n", battle_line(&game));
    let again = checkpoint::capture(&mut game).map_err(|e| e.message)?;
    let same_bytes = again.to_bytes().map_err(|e| e.to_string())? == bytes;
    t += &format!(
        "recapture  byte-identical: {}\n",
        if same_bytes { "yes" } else { "NO" }
    );
    let replay = fight_out(&mut game)?;
    let same_rows = replay == rows;
    t += &format!(
        "replay     {} rows, {}; same rows: {}\n",
        replay.len(),
        replay.last().cloned().unwrap_or_default(),
        if same_rows { "yes" } else { "NO" }
    );
    if !same_bytes || !same_rows {
        return Err(t + "the battle did not continue identically");
    }
    Ok(t)
}

pub fn run(args: CheckpointArgs) -> i32 {
    let Some(version) = GameVersion::parse(&args.version) else {
        eprintln!("invalid value '{}' for '--version <VERSION>'", args.version);
        return 2;
    };
    let out = match args.kind.as_str() {
        "overworld" => demo(version, args.seed, args.out.as_ref()),
        "battle" => demo_battle(version, args.seed),
        _ => demo(version, args.seed, args.out.as_ref()).and_then(|o| {
            demo_battle(version, args.seed)
                .map(|b| format!("== overworld kind ==\n{o}\n== battle kind ==\n{b}"))
        }),
    };
    match out {
        Ok(t) => {
            print!("{t}");
            0
        }
        Err(e) => {
            eprintln!("{e}");
            1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_battle_demo_continues_identically_for_every_version() {
        for v in GameVersion::ALL {
            let t = demo_battle(v, 3).unwrap_or_else(|e| panic!("{v}: {e}"));
            assert!(t.contains("kind=battle"), "{t}");
            assert!(t.contains("recapture  byte-identical: yes"), "{t}");
            assert!(t.contains("same rows: yes"), "{t}");
            assert!(t.contains("shift      refused: battle_phase_busy"), "{t}");
        }
    }

    #[test]
    fn the_demo_restores_byte_identically_for_every_version() {
        for v in GameVersion::ALL {
            let t = demo(v, 3, None).unwrap_or_else(|e| panic!("{v}: {e}"));
            assert!(t.contains("recapture  byte-identical: yes"), "{t}");
            assert!(t.contains("0 presentation rows"), "{t}");
        }
    }
}
