//! Level evolutions with the cartridge's cancel (issue 17, #17's "evolution by level … with
//! the cartridge's texts"), a child module of `game`: an evolution by level is queued when
//! `evolution.check` agrees (after a battle, after a RARE CANDY) and plays in the overworld:
//! "What? X is evolving!", then an animation of [`EVOLUTION_TICKS`] ticks during which
//! pressing B stops it ("Huh? X stopped evolving!": nothing changes, no `pokemon.evolved`);
//! otherwise the mon evolves ("X evolved into Y!", the Pokédex, moves, `pokemon.evolved`).
//! Stone evolutions are forced on the cartridge and happen at once (`game_items`). While an
//! evolution is queued the game is busy (`screen_busy`), so no checkpoint can capture it half
//! done; several queued after one battle play one after another, in party order.

use super::Game;
use crate::pokemon::evolution::Via;
use crate::world::Input;

/// Ticks of the evolution animation, the window in which B cancels (≈ the cartridge's few
/// seconds at the engine's tick of two frames).
pub const EVOLUTION_TICKS: u32 = 120;

/// A queued level evolution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pending {
    slot: usize,
    into: crate::data::SpeciesId,
    /// The mon's name as it was when queued (the texts name it).
    name: String,
    /// "What? … is evolving!" was shown.
    announced: bool,
    /// Animation ticks left.
    ticks: u32,
}

impl Game {
    pub(super) fn queue_evolution(
        &mut self,
        slot: usize,
        into: crate::data::SpeciesId,
        name: String,
    ) {
        self.evolving.push_back(Pending {
            slot,
            into,
            name,
            announced: false,
            ticks: EVOLUTION_TICKS,
        });
    }

    /// Is an evolution queued or playing?
    pub fn evolving(&self) -> bool {
        !self.evolving.is_empty()
    }

    /// One overworld tick of the front evolution. Returns whether it took the tick (the
    /// overworld does not move then). A text box up (the announcement, earlier texts) is the
    /// overworld's to close first.
    pub(super) fn evolution_tick(&mut self, input: Input) -> bool {
        if self.evolving.is_empty() {
            return false;
        }
        if self
            .overworld
            .as_ref()
            .is_some_and(|o| o.screen().is_some())
        {
            return false;
        }
        let Some(front) = self.evolving.front_mut() else {
            return false;
        };
        if !front.announced {
            front.announced = true;
            let text = format!("What? {} is evolving!", front.name);
            self.evolution_text(text);
            return true;
        }
        if input == Input::B {
            let p = self.evolving.pop_front().expect("front checked");
            self.evolution_text(format!("Huh? {} stopped evolving!", p.name));
            return true;
        }
        front.ticks = front.ticks.saturating_sub(1);
        if front.ticks > 0 {
            return true;
        }
        let p = self.evolving.pop_front().expect("front checked");
        self.apply_evolution(p.slot, p.into, Via::Level);
        true
    }
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::rc::Rc;

    use pallet_api::catalog::events;
    use pallet_api::Runtime;

    use super::*;
    use crate::save::data::ItemStack;
    use crate::world::presentation::PresentationRow;
    use crate::world::GameVersion;

    /// A CATERPIE at L6 with a RARE CANDY; `pokemon.evolved` payloads logged.
    fn candy_game() -> (Game, Rc<RefCell<Vec<String>>>) {
        let rt = Rc::new(Runtime::new());
        let log: Rc<RefCell<Vec<String>>> = Rc::default();
        let l = Rc::clone(&log);
        rt.on::<events::PokemonEvolved, _>("t", 0, move |p| {
            l.borrow_mut().push(p.to_species.clone());
            Ok(())
        });
        let mut g = Game::new_game(GameVersion::Red, 3, rt).unwrap();
        g.give_pokemon("CATERPIE", 6).unwrap();
        g.save.inventory.push(ItemStack {
            id: "RARE_CANDY".into(),
            count: 1,
        });
        g.use_item("RARE_CANDY", Some(0)).unwrap();
        (g, log)
    }

    fn texts(g: &mut Game) -> Vec<String> {
        g.drain_feed()
            .into_iter()
            .filter_map(|r| match r.row {
                PresentationRow::TextOpened { text } => Some(format!("{text:?}")),
                _ => None,
            })
            .collect()
    }

    /// Close text boxes with A until the animation runs (no box up, an evolution queued).
    fn to_animation(g: &mut Game) -> Vec<String> {
        let mut out = texts(g);
        for _ in 0..10 {
            let boxed = g.overworld().and_then(|o| o.screen()).is_some();
            if !boxed && g.evolving.front().is_some_and(|p| p.announced) {
                break;
            }
            g.step(Input::A);
            out.extend(texts(g));
        }
        out
    }

    #[test]
    fn b_during_the_animation_stops_the_evolution() {
        let (mut g, log) = candy_game();
        let shown = to_animation(&mut g);
        assert!(
            shown
                .last()
                .unwrap()
                .contains("What? CATERPIE is evolving!"),
            "{shown:?}"
        );
        assert_eq!(g.busy().map(|b| b.as_str()), Some("screen_busy"));
        for _ in 0..EVOLUTION_TICKS / 2 {
            g.step(Input::None);
        }
        g.step(Input::B);
        let shown = texts(&mut g);
        assert_eq!(shown.len(), 1);
        assert!(
            shown[0].contains("Huh? CATERPIE stopped evolving!"),
            "{shown:?}"
        );
        assert!(!g.evolving());
        assert_eq!(g.save.party[0].species, "CATERPIE");
        assert_eq!(g.save.party[0].level, 7, "the candy's level stays");
        assert!(!g.save.pokedex.owned.contains("METAPOD"));
        assert!(log.borrow().is_empty(), "no pokemon.evolved");
    }

    #[test]
    fn the_animation_played_out_evolves_the_mon() {
        let (mut g, log) = candy_game();
        to_animation(&mut g);
        // A (and every other button but B) does not stop it.
        for _ in 0..EVOLUTION_TICKS - 1 {
            g.step(Input::A);
            assert_eq!(g.save.party[0].species, "CATERPIE");
        }
        g.step(Input::A);
        let shown = texts(&mut g);
        assert!(
            shown[0].contains("CATERPIE evolved into METAPOD!"),
            "{shown:?}"
        );
        assert_eq!(g.save.party[0].species, "METAPOD");
        assert_eq!(*log.borrow(), ["METAPOD"]);
        // B now closes nothing of the evolution: it is done.
        assert!(!g.evolving());
    }

    #[test]
    fn a_stone_evolution_is_forced_and_happens_at_once() {
        let mut g = Game::new_game(GameVersion::Red, 3, Rc::new(Runtime::new())).unwrap();
        g.give_pokemon("NIDORINO", 20).unwrap();
        g.save.inventory.push(ItemStack {
            id: "MOON_STONE".into(),
            count: 1,
        });
        g.use_item("MOON_STONE", Some(0)).unwrap();
        assert_eq!(g.save.party[0].species, "NIDOKING");
        assert!(!g.evolving());
        g.step(Input::B);
        assert_eq!(g.save.party[0].species, "NIDOKING");
    }
}
