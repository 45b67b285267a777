//! Battle commands of the `pallet run` scenario (the player's choices are scripted):
//!
//! ```text
//! give SPECIES LEVEL      a gift mon (party, or a box when the party is full)
//! bag ITEM COUNT          put items in the bag (balls for the capture)
//! trainer CLASS INDEX     the trainer challenges the player (a trainer battle starts)
//! seek DIR CHOICE...      step DIR and back through grass until a wild battle starts, answer
//!                         it with the battle CHOICE (`ball ITEM`, `auto`, `run`, `fight N`),
//!                         then step back to the starting cell
//! battle fight N          use move slot N (1-4) this round
//! battle ball ITEM        throw a ball from the bag
//! battle switch N         send out party slot N (1-6)
//! battle run              try to run
//! battle auto             the first move every round (keep the mon at a SHIFT prompt, the next
//!                         mon in order when one faints) to the end
//! expect party N | expect boxed N | expect battle none|RESULT
//! ```
//!
//! Wild battles that start while walking (`walk`) are fled automatically (`run` until away).

use pallet_engine::battle::Action;
use pallet_engine::game::{Game, Mode};
use pallet_engine::world::{Direction, Input};

/// Most choices one battle command may make (a stuck battle is an error, not a hang).
const MAX_CHOICES: usize = 2_000;

#[derive(Clone, Debug, PartialEq)]
pub enum BattleCmd {
    Give(String, u8),
    Bag(String, u32),
    Trainer(String, u16),
    Seek(Direction, Box<BattleCmd>),
    Fight(u8),
    Ball(String),
    Switch(u8),
    Run,
    Auto,
    /// `use ITEM [SLOT]`: use a bag item (in the running battle, else in the field) on party
    /// slot SLOT (1-based; default 1 in battle, none in the field).
    Use(String, Option<u8>),
    ExpectParty(usize),
    ExpectBoxed(usize),
    /// `expect mon SLOT SPECIES [LEVEL]`: party slot SLOT (1-based) holds SPECIES (at LEVEL).
    ExpectMon(u8, String, Option<i64>),
    /// `None`: no battle running.
    ExpectBattle(Option<String>),
}

fn num<T: std::str::FromStr>(w: &[&str], i: usize, what: &str) -> Result<T, String> {
    let s = w.get(i).ok_or_else(|| format!("missing {what}"))?;
    s.parse().map_err(|_| format!("bad {what} {s:?}"))
}

fn arity(w: &[&str], n: usize) -> Result<(), String> {
    if w.len() == n {
        Ok(())
    } else {
        Err(format!(
            "`{}` takes {} argument(s)",
            w[..w.len().min(2)].join(" "),
            n - 1
        ))
    }
}

/// Parse a battle command; `None` when `w` is not one.
pub fn parse(w: &[&str]) -> Option<Result<BattleCmd, String>> {
    let r = match (w.first().copied(), w.get(1).copied()) {
        (Some("give"), _) => {
            arity(w, 3).and_then(|_| Ok(BattleCmd::Give(w[1].to_owned(), num(w, 2, "level")?)))
        }
        (Some("bag"), _) => {
            arity(w, 3).and_then(|_| Ok(BattleCmd::Bag(w[1].to_owned(), num(w, 2, "count")?)))
        }
        (Some("trainer"), _) => {
            arity(w, 3).and_then(|_| Ok(BattleCmd::Trainer(w[1].to_owned(), num(w, 2, "index")?)))
        }
        (Some("seek"), _) => (|| {
            let d = Direction::parse(w.get(1).copied().unwrap_or(""))
                .ok_or("`seek` takes DIR CHOICE...")?;
            let mut rest = vec!["battle"];
            rest.extend_from_slice(&w[2..]);
            match parse(&rest) {
                Some(Ok(choice)) => Ok(BattleCmd::Seek(d, Box::new(choice))),
                Some(Err(e)) => Err(e),
                None => Err("`seek` needs a battle choice".to_string()),
            }
        })(),
        (Some("battle"), Some("fight")) => {
            arity(w, 3).and_then(|_| Ok(BattleCmd::Fight(num(w, 2, "move slot")?)))
        }
        (Some("battle"), Some("ball")) => arity(w, 3).map(|_| BattleCmd::Ball(w[2].to_owned())),
        (Some("battle"), Some("switch")) => {
            arity(w, 3).and_then(|_| Ok(BattleCmd::Switch(num(w, 2, "party slot")?)))
        }
        (Some("battle"), Some("run")) => arity(w, 2).map(|_| BattleCmd::Run),
        (Some("battle"), Some("auto")) => arity(w, 2).map(|_| BattleCmd::Auto),
        (Some("battle"), other) => Err(format!("unknown battle choice {other:?}")),
        (Some("use"), _) => match w.len() {
            2 => Ok(BattleCmd::Use(w[1].to_owned(), None)),
            3 => num(w, 2, "party slot").map(|n| BattleCmd::Use(w[1].to_owned(), Some(n))),
            _ => Err("`use` takes ITEM [SLOT]".to_string()),
        },
        (Some("expect"), Some("mon")) => match w.len() {
            4 | 5 => (|| {
                let level = if w.len() == 5 {
                    Some(num(w, 4, "level")?)
                } else {
                    None
                };
                Ok(BattleCmd::ExpectMon(
                    num(w, 2, "party slot")?,
                    w[3].to_owned(),
                    level,
                ))
            })(),
            _ => Err("`expect mon` takes SLOT SPECIES [LEVEL]".to_string()),
        },
        (Some("expect"), Some("party")) => {
            arity(w, 3).and_then(|_| Ok(BattleCmd::ExpectParty(num(w, 2, "count")?)))
        }
        (Some("expect"), Some("boxed")) => {
            arity(w, 3).and_then(|_| Ok(BattleCmd::ExpectBoxed(num(w, 2, "count")?)))
        }
        (Some("expect"), Some("battle")) => arity(w, 3).map(|_| {
            BattleCmd::ExpectBattle(if w[2] == "none" {
                None
            } else {
                Some(w[2].to_owned())
            })
        }),
        _ => return None,
    };
    Some(r)
}

/// Called after every tick and battle choice a command makes, so the caller can put the mods'
/// log lines into the transcript at the tick they happen.
pub type After<'a> = &'a mut dyn FnMut(&mut Game);

fn choose(game: &mut Game, action: Action, after: After) -> Result<(), String> {
    let r = game.battle_choose(action).map_err(|e| e.to_string());
    after(game);
    r
}

pub fn in_battle(game: &Game) -> bool {
    game.mode == Mode::Battle
}

/// Ticks with no input until the world is idle or a text box or battle is up.
fn settle(game: &mut Game, after: After) -> Result<(), String> {
    for _ in 0..20_000 {
        match game.busy() {
            None => return Ok(()),
            Some(b) if b.as_str() == "screen_busy" => return Ok(()),
            Some(_) => {
                game.step(Input::None);
                after(game);
            }
        }
    }
    Err("the world stayed busy".into())
}

/// Walk one cell `d` (turning first if needed).
fn walk_one(game: &mut Game, d: Direction, after: After) -> Result<(), String> {
    settle(game, after)?;
    if let Some(b) = game.busy() {
        return Err(format!("cannot walk: {}", b.as_str()));
    }
    let pos = |g: &Game| {
        g.overworld()
            .map(|o| (o.player().x, o.player().y, o.player().facing))
    };
    if pos(game).map(|p| p.2) != Some(d) {
        game.step(Input::from_direction(d));
        after(game);
    }
    let before = pos(game);
    game.step(Input::from_direction(d));
    after(game);
    settle(game, after)?;
    if !in_battle(game) && pos(game).map(|p| (p.0, p.1)) == before.map(|p| (p.0, p.1)) {
        return Err(format!("seek: blocked walking {d}"));
    }
    Ok(())
}

/// Walk back and forth (`d`, then the opposite way) until a wild battle starts, answer it
/// with `choice`, then walk back to the starting cell.
fn seek(game: &mut Game, d: Direction, choice: &BattleCmd, after: After) -> Result<(), String> {
    for i in 0..400 {
        let dir = if i % 2 == 0 { d } else { d.opposite() };
        walk_one(game, dir, after)?;
        if in_battle(game) {
            run(game, choice, after)?;
            if in_battle(game) {
                return Err("the battle is still running after the seek's choice".into());
            }
            if i % 2 == 0 {
                walk_one(game, d.opposite(), after)?;
                flee(game, after)?;
            }
            return Ok(());
        }
    }
    Err("no wild encounter after 400 steps".into())
}

/// Run one battle command.
/// Is `cmd` an `expect party|boxed|battle` check (a mod may legitimately change its answer)?
pub fn is_expectation(cmd: &BattleCmd) -> bool {
    matches!(
        cmd,
        BattleCmd::ExpectParty(_)
            | BattleCmd::ExpectBoxed(_)
            | BattleCmd::ExpectBattle(_)
            | BattleCmd::ExpectMon(..)
    )
}

pub fn run(game: &mut Game, cmd: &BattleCmd, after: After) -> Result<(), String> {
    let r = run_cmd(game, cmd, after);
    after(game);
    r
}

fn run_cmd(game: &mut Game, cmd: &BattleCmd, after: After) -> Result<(), String> {
    let need_battle = |game: &Game| {
        if in_battle(game) {
            Ok(())
        } else {
            Err("no battle is running".to_string())
        }
    };
    match cmd {
        BattleCmd::Give(species, level) => game
            .give_pokemon(species, *level)
            .map_err(|e| e.to_string())?,
        BattleCmd::Bag(item, count) => {
            let id = game
                .data()
                .item_by_name(item)
                .and_then(|i| game.data().get_item(i))
                .ok_or_else(|| format!("unknown item {item}"))?
                .id;
            match game.save.inventory.iter_mut().find(|s| s.id == id) {
                Some(s) => s.count += count,
                None => game
                    .save
                    .inventory
                    .push(pallet_engine::save::data::ItemStack {
                        id: id.to_owned(),
                        count: *count,
                    }),
            }
        }
        BattleCmd::Trainer(class, index) => {
            game.start_trainer_battle(class, *index).map_err(|e| {
                // A typed class name gets a did-you-mean from the trainer table.
                let classes = pallet_engine::game::TRAINERS.iter().map(|t| t.class);
                let known = pallet_engine::game::TRAINERS
                    .iter()
                    .any(|t| t.class == class);
                let hint = if known {
                    String::new()
                } else {
                    crate::host::suggest::did_you_mean(class, classes)
                };
                format!("{e}{hint}")
            })?
        }
        BattleCmd::Seek(d, choice) => seek(game, *d, choice, after)?,
        BattleCmd::Fight(slot) => {
            need_battle(game)?;
            choose(game, Action::Move(slot.saturating_sub(1)), after)?;
        }
        BattleCmd::Ball(item) => {
            need_battle(game)?;
            let id = game
                .data()
                .item_by_name(item)
                .ok_or_else(|| format!("unknown item {item}"))?;
            choose(game, Action::Item(id), after)?;
        }
        BattleCmd::Switch(slot) => {
            need_battle(game)?;
            choose(game, Action::Switch(slot.saturating_sub(1)), after)?;
        }
        BattleCmd::Run => {
            need_battle(game)?;
            choose(game, Action::Run, after)?;
        }
        BattleCmd::Auto => {
            need_battle(game)?;
            for _ in 0..MAX_CHOICES {
                if !in_battle(game) {
                    return Ok(());
                }
                let legal = game.battle_actions();
                let pick = legal
                    .iter()
                    .copied()
                    .find(|a| matches!(a, Action::Move(_) | Action::Struggle | Action::Continue))
                    .or_else(|| {
                        legal
                            .iter()
                            .copied()
                            .find(|a| matches!(a, Action::Switch(_)))
                    })
                    .or_else(|| legal.first().copied())
                    .unwrap_or(Action::Continue);
                choose(game, pick, after)?;
            }
            return Err("the battle did not end".into());
        }
        BattleCmd::Use(item, slot) => {
            let target = slot.map(|s| s.saturating_sub(1));
            if in_battle(game) {
                game.battle_use_item(item, target.unwrap_or(0))
                    .map_err(|e| e.to_string())?;
            } else {
                game.use_item(item, target).map_err(|e| e.to_string())?;
            }
        }
        BattleCmd::ExpectMon(slot, species, level) => {
            let got = game
                .save
                .party
                .get(usize::from(slot.saturating_sub(1)))
                .map(|m| (m.species.clone(), m.level));
            let holds = got
                .as_ref()
                .is_some_and(|(s, l)| s == species && level.is_none_or(|want| want == *l));
            if !holds {
                return Err(format!(
                    "expected {species}{} in party slot {slot}, found {}",
                    level.map(|l| format!(" L{l}")).unwrap_or_default(),
                    got.map(|(s, l)| format!("{s} L{l}"))
                        .unwrap_or_else(|| "nothing".into())
                ));
            }
        }
        BattleCmd::ExpectParty(n) => {
            if game.save.party.len() != *n {
                return Err(format!(
                    "expected {n} in the party, found {}",
                    game.save.party.len()
                ));
            }
        }
        BattleCmd::ExpectBoxed(n) => {
            let boxed: usize = game.save.boxes.iter().map(Vec::len).sum();
            if boxed != *n {
                return Err(format!("expected {n} boxed, found {boxed}"));
            }
        }
        BattleCmd::ExpectBattle(want) => {
            let got = game.battle().map(|_| "running".to_string());
            if got.as_deref() != want.as_deref() {
                return Err(format!("expected battle {want:?}, got {got:?}"));
            }
        }
    }
    Ok(())
}

/// Flee a wild battle that interrupted a walk: `run` until it is over (when the active mon
/// faints, "Use next POKéMON?" is answered NO, which also tries to run).
pub fn flee(game: &mut Game, after: After) -> Result<(), String> {
    for _ in 0..MAX_CHOICES {
        if !in_battle(game) {
            return Ok(());
        }
        let legal = game.battle_actions();
        let pick = if legal.contains(&Action::Run) {
            Action::Run
        } else {
            legal.first().copied().unwrap_or(Action::Continue)
        };
        choose(game, pick, after)?;
    }
    Err("could not get away".into())
}
