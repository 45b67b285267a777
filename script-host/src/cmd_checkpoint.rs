//! `pallet checkpoint`: an RFC 0004 demonstration on the embedded game — capture a checkpoint,
//! play on (walk, set a flag, change money), restore from the portable bytes, and recapture,
//! printing each step as a transcript.

use std::path::PathBuf;
use std::rc::Rc;

use pallet_api::Runtime;
use pallet_engine::checkpoint::{self, Checkpoint};
use pallet_engine::game::Game;
use pallet_engine::world::{GameVersion, Input};

#[derive(clap::Args, Debug)]
pub struct CheckpointArgs {
    /// RNG seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Game version: red, blue or yellow.
    #[arg(long, default_value = "red", value_parser = ["red", "blue", "yellow"])]
    pub version: String,
    /// Also write the captured checkpoint's portable bytes here.
    #[arg(long, value_name = "PATH")]
    pub out: Option<PathBuf>,
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

pub fn run(args: CheckpointArgs) -> i32 {
    let Some(version) = GameVersion::parse(&args.version) else {
        eprintln!("invalid value '{}' for '--version <VERSION>'", args.version);
        return 2;
    };
    match demo(version, args.seed, args.out.as_ref()) {
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
    fn the_demo_restores_byte_identically_for_every_version() {
        for v in GameVersion::ALL {
            let t = demo(v, 3, None).unwrap_or_else(|e| panic!("{v}: {e}"));
            assert!(t.contains("recapture  byte-identical: yes"), "{t}");
            assert!(t.contains("0 presentation rows"), "{t}");
        }
    }
}
