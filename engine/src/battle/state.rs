//! Battle state: the active battler's volatile data (the cartridge's `wBattleMon`/`wEnemyMon`
//! copies, battle status bits, counters), the side (party, active slot, screens, tokens) and the
//! data-only field (`{ weather, tokens }`, RFC 0016).

use std::collections::BTreeMap;

use pallet_api::Value;

use crate::data::{MoveEffect, MoveId, SpeciesId, Type};
use crate::pokemon::{Pokemon, MOVE_SLOTS};

use super::rows::StatKind;

/// Volatile status bits (the cartridge's battle status bytes 1–3, merged).
pub mod flag {
    /// Bide: storing energy.
    pub const STORING_ENERGY: u32 = 1 << 0;
    /// Thrash / Petal Dance.
    pub const THRASHING: u32 = 1 << 1;
    /// A multi-hit move is hitting (internal to one move execution).
    pub const MULTI_HIT: u32 = 1 << 2;
    pub const FLINCHED: u32 = 1 << 3;
    /// First turn of a two-turn move done.
    pub const CHARGING: u32 = 1 << 4;
    /// Using Wrap / Bind / Fire Spin / Clamp (the opponent cannot act).
    pub const TRAPPING: u32 = 1 << 5;
    /// Fly / Dig in the air / underground.
    pub const INVULNERABLE: u32 = 1 << 6;
    pub const CONFUSED: u32 = 1 << 7;
    pub const X_ACCURACY: u32 = 1 << 8;
    pub const MIST: u32 = 1 << 9;
    pub const FOCUS_ENERGY: u32 = 1 << 10;
    pub const SUBSTITUTE: u32 = 1 << 11;
    pub const RECHARGE: u32 = 1 << 12;
    pub const RAGE: u32 = 1 << 13;
    pub const SEEDED: u32 = 1 << 14;
    /// Toxic: the N/16 counter is active (shared with Leech Seed's drain).
    pub const TOXIC: u32 = 1 << 15;
    pub const TRANSFORMED: u32 = 1 << 16;

    /// Bits the cartridge clears when a mon hurts itself in confusion or is fully paralyzed.
    pub const CLEARED_ON_LOST_TURN: u32 = STORING_ENERGY | THRASHING | CHARGING | TRAPPING;
}

/// Stage value meaning "unchanged" (the cartridge stores stages as 1..=13 with 7 neutral).
pub const NEUTRAL_STAGE: u8 = 7;
pub const MAX_STAGE: u8 = 13;
pub const MIN_STAGE: u8 = 1;

/// The cartridge's `StatModifierRatios` (numerator, denominator) for stages 1..=13.
pub const STAGE_RATIOS: [(u16, u16); 13] = [
    (25, 100),
    (28, 100),
    (33, 100),
    (40, 100),
    (50, 100),
    (66, 100),
    (1, 1),
    (15, 10),
    (2, 1),
    (25, 10),
    (3, 1),
    (35, 10),
    (4, 1),
];

/// Index of a battle stat in [`Battler::stats`] / [`Battler::unmod`] (Attack..Special).
#[inline]
pub fn stat_index(s: StatKind) -> usize {
    match s {
        StatKind::Attack => 0,
        StatKind::Defense => 1,
        StatKind::Speed => 2,
        StatKind::Special => 3,
        StatKind::Accuracy => 4,
        StatKind::Evasion => 5,
    }
}

/// The move being executed this turn, as the cartridge loads it into `wPlayerMove*`: effect
/// and power can be changed mid-turn (Bide sets power 1, a broken substitute zeroes the effect).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CurMove {
    pub id: MoveId,
    pub effect: MoveEffect,
    pub power: u8,
    pub ty: Type,
    /// Accuracy as a byte out of 256 (`percent * 255 / 100`).
    pub accuracy: u8,
}

impl Default for CurMove {
    fn default() -> Self {
        CurMove {
            id: MoveId(0),
            effect: MoveEffect::NoAdditionalEffect,
            power: 0,
            ty: Type::Normal,
            accuracy: 0,
        }
    }
}

/// The active mon's battle copy and volatile state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Battler {
    /// Party slot this battler came from.
    pub slot: u8,
    /// Current species (Transform changes it; crit rate reads its base Speed).
    pub species: SpeciesId,
    pub types: [Type; 2],
    pub level: u8,
    /// Attack, Defense, Speed, Special as modified by stages and status penalties.
    pub stats: [u16; 4],
    /// The same before stages (party stats, or the copied stats after Transform).
    pub unmod: [u16; 4],
    /// Attack, Defense, Speed, Special, Accuracy, Evasion stages, 1..=13 (7 neutral).
    pub stages: [u8; 6],
    pub moves: [Option<MoveId>; MOVE_SLOTS],
    pub pp: [u8; MOVE_SLOTS],
    pub flags: u32,
    pub confusion_turns: u8,
    pub toxic_counter: u8,
    /// Disabled slot (0..4) and turns left; `disable_turns == 0` means nothing is disabled.
    pub disabled_slot: u8,
    pub disable_turns: u8,
    /// Turns/hits left for Thrash, Bide, trapping moves and multi-hit moves.
    pub attacks_left: u8,
    /// Hits made by the current multi-hit move (for "Hit N times!").
    pub hits: u8,
    pub bide_damage: u16,
    pub substitute_hp: u8,
    /// The move chosen this turn (`None`: the mon cannot act this turn, the cartridge's `$FF`).
    pub selected: Option<MoveId>,
    /// The move last printed as "used" (Mirror Move reads the opponent's); cleared on send-out,
    /// sleep and freeze.
    pub used: Option<MoveId>,
    /// Slot of the move chosen this turn (for PP).
    pub move_slot: u8,
    pub cur: CurMove,
}

impl Battler {
    #[inline]
    pub fn has(&self, f: u32) -> bool {
        self.flags & f != 0
    }
    #[inline]
    pub fn set(&mut self, f: u32) {
        self.flags |= f;
    }
    #[inline]
    pub fn clear(&mut self, f: u32) {
        self.flags &= !f;
    }

    /// Is the move in `slot` disabled right now?
    #[inline]
    pub fn is_disabled(&self, slot: usize) -> bool {
        self.disable_turns > 0 && self.disabled_slot as usize == slot
    }

    /// The disabled move id, if any.
    pub fn disabled_move(&self) -> Option<MoveId> {
        if self.disable_turns > 0 {
            self.moves
                .get(self.disabled_slot as usize)
                .copied()
                .flatten()
        } else {
            None
        }
    }

    /// An empty battler (no mon sent out yet).
    pub fn empty() -> Battler {
        Battler {
            slot: 0,
            species: SpeciesId(0),
            types: [Type::Normal; 2],
            level: 1,
            stats: [1; 4],
            unmod: [1; 4],
            stages: [NEUTRAL_STAGE; 6],
            moves: [None; MOVE_SLOTS],
            pp: [0; MOVE_SLOTS],
            flags: 0,
            confusion_turns: 0,
            toxic_counter: 0,
            disabled_slot: 0,
            disable_turns: 0,
            attacks_left: 0,
            hits: 0,
            bide_damage: 0,
            substitute_hp: 0,
            // Nothing chosen yet (the cartridge's cleared selection, not `$FF`).
            selected: Some(MoveId(0)),
            used: None,
            move_slot: 0,
            cur: CurMove::default(),
        }
    }
}

/// Data-only token (`{ id, turns?, ... }`), as mods keep state in `battle.field` and sides.
/// Tokens carry no callbacks: a token with `turns` counts down at the end of each round and is
/// removed when it reaches zero; one without `turns` stays.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Token {
    pub id: String,
    pub turns: Option<i32>,
    pub data: BTreeMap<String, Value>,
}

/// Reflect and Light Screen of a side's active mon (they end when it leaves the field).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Screens {
    pub reflect: bool,
    pub light_screen: bool,
}

/// One side of the battle.
#[derive(Clone, Debug, PartialEq)]
pub struct SideState {
    pub party: Vec<Pokemon>,
    /// Index of the active mon in `party`.
    pub active: u8,
    pub battler: Battler,
    pub screens: Screens,
    pub tokens: Vec<Token>,
    /// Player side: party slots that fought the current enemy mon and are still standing
    /// (the cartridge's `wPartyGainExpFlags`), bit per slot.
    pub participants: u8,
    /// The side's mon fainted and its faint has been queued (idempotent faint queue).
    pub faint_queued: bool,
    /// The side's action this round was a switch or item (its move is skipped).
    pub acted_outside_moves: bool,
}

impl SideState {
    pub fn new(party: Vec<Pokemon>) -> SideState {
        SideState {
            party,
            active: 0,
            battler: Battler::empty(),
            screens: Screens::default(),
            tokens: Vec::new(),
            participants: 0,
            faint_queued: false,
            acted_outside_moves: false,
        }
    }

    /// The active mon (party copy: HP, status, experience live here).
    #[inline]
    pub fn mon(&self) -> &Pokemon {
        &self.party[self.active as usize]
    }

    #[inline]
    pub fn mon_mut(&mut self) -> &mut Pokemon {
        &mut self.party[self.active as usize]
    }

    /// Any mon with HP left?
    pub fn any_healthy(&self) -> bool {
        self.party.iter().any(|m| m.hp > 0)
    }

    /// Any mon with HP left besides the active one?
    pub fn any_healthy_reserve(&self) -> bool {
        self.party
            .iter()
            .enumerate()
            .any(|(i, m)| i != self.active as usize && m.hp > 0)
    }
}

/// The battle field: data-only, the shape checkpoints capture.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Field {
    pub weather: Option<String>,
    pub tokens: Vec<Token>,
}

/// Tick a token list the way the reference engine's `tickTokens` does (walk from the end,
/// decrement `turns`, drop tokens at or below zero). Returns how many expired.
pub fn tick_tokens(tokens: &mut Vec<Token>) -> usize {
    let before = tokens.len();
    let mut i = tokens.len();
    while i > 0 {
        i -= 1;
        if let Some(t) = tokens[i].turns.as_mut() {
            *t -= 1;
            if *t <= 0 {
                tokens.remove(i);
            }
        }
    }
    before - tokens.len()
}

// ----- types the battle modules share (kept here so none imports another for them) -----

/// How a move execution ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MoveEnd {
    /// The turn went on normally (the user may have fainted itself; the residual step checks).
    Normal,
    /// The target's HP reached 0 through the attack (the cartridge's `b == 0`).
    TargetFainted,
    /// Teleport / Roar / Whirlwind ended the battle.
    Escaped,
}

/// The four numbers `CalculateDamage` works on (after the cartridge's scaling).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DamageVars {
    pub atk: u16,
    pub def: u16,
    pub power: u8,
    pub level: u8,
}

/// The balls the Gen 1 catch routine distinguishes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ball {
    Poke,
    Great,
    Ultra,
    Safari,
    Master,
}

/// Move ids the executor and the move-flow sites both test.
pub(crate) const METRONOME: u16 = 118;
pub(crate) const MIRROR_MOVE: u16 = 119;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_tick_and_expire() {
        let mut v = vec![
            Token {
                id: "a".into(),
                turns: Some(1),
                data: BTreeMap::new(),
            },
            Token {
                id: "b".into(),
                turns: None,
                data: BTreeMap::new(),
            },
            Token {
                id: "c".into(),
                turns: Some(2),
                data: BTreeMap::new(),
            },
        ];
        assert_eq!(tick_tokens(&mut v), 1);
        assert_eq!(
            v.iter().map(|t| t.id.as_str()).collect::<Vec<_>>(),
            ["b", "c"]
        );
        assert_eq!(tick_tokens(&mut v), 1);
        assert_eq!(v.len(), 1);
        assert_eq!(tick_tokens(&mut v), 0);
    }
}
