//! Battle modes: a **link** battle (both sides are link players, symmetric in every rule — what
//! Pokémon Showdown and pkmn/engine model) or a **game** battle (the cartridge's single-player
//! rules: side 1 is the player, side 2 the in-game enemy).
//!
//! | Rule                                   | Game (player / enemy)                   | Link (both sides)              |
//! |----------------------------------------|-----------------------------------------|--------------------------------|
//! | Critical-hit stats (`GetEnemyMonStat`) | player: party stats; enemy: recomputed without stat exp | party stats (with stat exp) |
//! | PP                                     | only the player's is spent              | both spent                     |
//! | Stat-down moves                        | the enemy's miss 25% more               | no extra miss                  |
//! | Mimic                                  | the player picks from a menu            | a random slot                  |
//! | Psywave range                          | player 1..1.5L, enemy 0..1.5L           | 1..1.5L                        |
//! | Transform while in Fly/Dig             | the player's fails                      | never fails for it             |
//! | Freeze clears the target's recharge    | only the player's freeze                | both sides' freezes            |
//! | EXP, level-up, learn prompts           | the player gains EXP                    | none                           |
//! | Simultaneous last faint                | the player blacks out (`lose`)          | a draw (as Showdown scores it) |
//! | Trainer AI move layers                 | trainer battles use them                | off                            |
//!
//! The game's own wild and trainer battles are game battles (the default of [`Battle::new`]);
//! `pallet battle` and `pallet calc` default to link battles.

use super::{Battle, BattleRng};

/// Which rule set a battle plays by (see the module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BattleMode {
    /// Both sides are link players; every rule is symmetric.
    #[default]
    Link,
    /// The cartridge's single-player rules: side 1 is the player, side 2 the enemy.
    Game,
}

impl BattleMode {
    /// `"link"` / `"game"`.
    pub fn as_str(self) -> &'static str {
        match self {
            BattleMode::Link => "link",
            BattleMode::Game => "game",
        }
    }
}

impl<R: BattleRng> Battle<R> {
    /// Play by `mode`'s rules ([`BattleMode::Link`] is [`Battle::set_link_rules`]`(true)`).
    pub fn set_mode(&mut self, mode: BattleMode) {
        self.set_link_rules(mode == BattleMode::Link);
    }

    /// The rule set in force.
    pub fn mode(&self) -> BattleMode {
        if self.link_rules {
            BattleMode::Link
        } else {
            BattleMode::Game
        }
    }
}
