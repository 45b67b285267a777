//! One Pokémon: species, level, experience, determinant values, stat experience, moves and PP,
//! status, and the stats the Gen 1 formulas derive from them.

use crate::data::{Dataset, MoveId, SpeciesData, SpeciesId};

use super::stats::{self, StatKind, MAX_DV, MAX_LEVEL, MIN_LEVEL};

/// Number of move slots.
pub const MOVE_SLOTS: usize = 4;
/// Highest number of PP Ups a move slot can hold.
pub const MAX_PP_UPS: u8 = 3;

/// Determinant values (Gen 1 "IVs"), each 0..=15. The HP DV is not stored: it is derived from
/// the low bit of the other four, as on the cartridge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Dvs {
    pub atk: u8,
    pub def: u8,
    pub spe: u8,
    pub spc: u8,
}

impl Dvs {
    /// All four DVs at `v` (clamped to 15).
    pub const fn uniform(v: u8) -> Dvs {
        let v = if v > MAX_DV { MAX_DV } else { v };
        Dvs {
            atk: v,
            def: v,
            spe: v,
            spc: v,
        }
    }

    /// The best possible DVs (15 everywhere; HP DV 15).
    pub const MAX: Dvs = Dvs::uniform(MAX_DV);

    /// The derived HP DV.
    #[inline]
    pub fn hp(&self) -> u8 {
        stats::hp_dv(self.atk, self.def, self.spe, self.spc)
    }

    /// The cartridge's two DV bytes: `atk<<4 | def`, `spe<<4 | spc`.
    #[inline]
    pub fn to_bytes(&self) -> [u8; 2] {
        [
            (self.atk.min(MAX_DV) << 4) | self.def.min(MAX_DV),
            (self.spe.min(MAX_DV) << 4) | self.spc.min(MAX_DV),
        ]
    }

    /// DVs from the cartridge's two DV bytes (e.g. two random bytes for a wild encounter).
    #[inline]
    pub fn from_bytes(bytes: [u8; 2]) -> Dvs {
        Dvs {
            atk: bytes[0] >> 4,
            def: bytes[0] & 0xF,
            spe: bytes[1] >> 4,
            spc: bytes[1] & 0xF,
        }
    }

    /// Every DV clamped to 0..=15.
    pub fn clamped(self) -> Dvs {
        Dvs {
            atk: self.atk.min(MAX_DV),
            def: self.def.min(MAX_DV),
            spe: self.spe.min(MAX_DV),
            spc: self.spc.min(MAX_DV),
        }
    }
}

/// Stat experience ("EVs" of Gen 1), 0..=65535 each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct StatExp {
    pub hp: u16,
    pub atk: u16,
    pub def: u16,
    pub spe: u16,
    pub spc: u16,
}

impl StatExp {
    pub const ZERO: StatExp = StatExp {
        hp: 0,
        atk: 0,
        def: 0,
        spe: 0,
        spc: 0,
    };
    pub const MAX: StatExp = StatExp {
        hp: u16::MAX,
        atk: u16::MAX,
        def: u16::MAX,
        spe: u16::MAX,
        spc: u16::MAX,
    };
}

/// Computed stats (out of battle; no stage modifiers, no badge boosts).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Stats {
    pub max_hp: u16,
    pub atk: u16,
    pub def: u16,
    pub spe: u16,
    pub spc: u16,
}

/// Non-volatile status. Toxic's counter is battle-only in Gen 1 (it reverts to plain poison on
/// switching out or at the end of battle), so it is not a status here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Status {
    #[default]
    None,
    /// Sleep with the number of turns left (1..=7 when inflicted by a move).
    Sleep(u8),
    Poison,
    Burn,
    Freeze,
    Paralysis,
}

impl Status {
    /// The short code shown in menus and stored in saves (`"SLP"`, `"PSN"`, …; `""` for none).
    pub fn code(self) -> &'static str {
        match self {
            Status::None => "",
            Status::Sleep(_) => "SLP",
            Status::Poison => "PSN",
            Status::Burn => "BRN",
            Status::Freeze => "FRZ",
            Status::Paralysis => "PAR",
        }
    }

    /// Inverse of [`Status::code`]; `sleep_turns` is used for `"SLP"`. Unknown codes give `None`.
    pub fn from_code(code: &str, sleep_turns: u8) -> Option<Status> {
        Some(match code {
            "" => Status::None,
            "SLP" => Status::Sleep(sleep_turns),
            "PSN" => Status::Poison,
            "BRN" => Status::Burn,
            "FRZ" => Status::Freeze,
            "PAR" => Status::Paralysis,
            _ => return None,
        })
    }

    pub fn is_none(self) -> bool {
        self == Status::None
    }
}

/// Errors building or growing a Pokémon from ids that the dataset does not hold.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MonError {
    #[error("unknown species id {0}")]
    UnknownSpecies(u16),
    #[error("unknown move id {0}")]
    UnknownMove(u16),
}

/// A Pokémon as the engine holds it (party, box, wild or trainer mon).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pokemon {
    pub species: SpeciesId,
    pub nickname: Option<String>,
    pub level: u8,
    pub exp: u32,
    pub dvs: Dvs,
    pub stat_exp: StatExp,
    pub moves: [Option<MoveId>; MOVE_SLOTS],
    pub pp: [u8; MOVE_SLOTS],
    pub pp_ups: [u8; MOVE_SLOTS],
    pub hp: u16,
    pub status: Status,
    pub stats: Stats,
    pub ot_name: String,
    pub ot_id: u16,
}

impl Pokemon {
    /// A fresh Pokémon as the cartridge creates one (wild encounter, gift, trainer mon): the
    /// species' level-1 moves followed by every learnset move up to `level` (the oldest pushed out
    /// when more than four, duplicates skipped), full PP, no PP Ups, full HP, no status, no stat
    /// experience, and the experience at the start of `level` on the species' growth curve.
    ///
    /// An unknown species gives a [`MonError`]; use [`Pokemon::new`] when the id comes from the
    /// dataset itself.
    pub fn try_new(
        data: &Dataset,
        species: SpeciesId,
        level: u8,
        dvs: Dvs,
    ) -> Result<Pokemon, MonError> {
        let sp = species_data(data, species)?;
        let level = level.clamp(MIN_LEVEL, MAX_LEVEL);
        let moves = default_moves(sp, level);
        let mut pp = [0u8; MOVE_SLOTS];
        for (slot, m) in moves.iter().enumerate() {
            if let Some(m) = m {
                pp[slot] = max_pp(data, *m, 0).unwrap_or(0);
            }
        }
        let mut mon = Pokemon {
            species,
            nickname: None,
            level,
            exp: stats::exp_for_level(sp.growth, level),
            dvs: dvs.clamped(),
            stat_exp: StatExp::ZERO,
            moves,
            pp,
            pp_ups: [0; MOVE_SLOTS],
            hp: 0,
            status: Status::None,
            stats: Stats::default(),
            ot_name: String::new(),
            ot_id: 0,
        };
        mon.stats = compute_stats(sp, mon.level, &mon.dvs, &mon.stat_exp);
        mon.hp = mon.stats.max_hp;
        Ok(mon)
    }

    /// [`Pokemon::try_new`] for species ids known to be valid. An id outside the dataset yields
    /// a level-clamped husk with no moves and zero stats instead of panicking; it is never
    /// produced by ids taken from the dataset.
    pub fn new(data: &Dataset, species: SpeciesId, level: u8, dvs: Dvs) -> Pokemon {
        Pokemon::try_new(data, species, level, dvs).unwrap_or_else(|_| Pokemon {
            species,
            nickname: None,
            level: level.clamp(MIN_LEVEL, MAX_LEVEL),
            exp: 0,
            dvs: dvs.clamped(),
            stat_exp: StatExp::ZERO,
            moves: [None; MOVE_SLOTS],
            pp: [0; MOVE_SLOTS],
            pp_ups: [0; MOVE_SLOTS],
            hp: 0,
            status: Status::None,
            stats: Stats::default(),
            ot_name: String::new(),
            ot_id: 0,
        })
    }

    /// Recompute `stats` from species base stats, DVs, stat experience and level (cartridge
    /// `CalcStats`). Current HP is kept, clamped to the new maximum. Unknown species: no change.
    pub fn recompute_stats(&mut self, data: &Dataset) {
        if let Ok(sp) = species_data(data, self.species) {
            self.stats = compute_stats(sp, self.level, &self.dvs, &self.stat_exp);
            self.hp = self.hp.min(self.stats.max_hp);
        }
    }

    /// Move to `level` (e.g. after gaining experience) the way the cartridge does on level-up:
    /// recompute stats and raise current HP by the increase of max HP. A fainted mon stays at 0.
    /// Moves are not learned here (that prompts the player); see [`Pokemon::learnset_moves_at`].
    pub fn set_level(&mut self, data: &Dataset, level: u8) {
        let old_max = self.stats.max_hp;
        self.level = level.clamp(MIN_LEVEL, MAX_LEVEL);
        if let Ok(sp) = species_data(data, self.species) {
            self.stats = compute_stats(sp, self.level, &self.dvs, &self.stat_exp);
            if self.hp > 0 {
                let gained = self.stats.max_hp.saturating_sub(old_max);
                self.hp = self.hp.saturating_add(gained).min(self.stats.max_hp);
            } else {
                self.hp = self.hp.min(self.stats.max_hp);
            }
        }
    }

    /// The level the current experience corresponds to on the species' growth curve.
    pub fn level_from_exp(&self, data: &Dataset) -> Option<u8> {
        species_data(data, self.species)
            .ok()
            .map(|sp| stats::level_for_exp(sp.growth, self.exp))
    }

    /// Moves the species learns exactly at `level` (in learnset order).
    pub fn learnset_moves_at<'d>(
        &self,
        data: &'d Dataset,
        level: u8,
    ) -> impl Iterator<Item = MoveId> + 'd {
        let learnset: &'d [(u8, MoveId)] = species_data(data, self.species)
            .map(|sp| sp.learnset)
            .unwrap_or(&[]);
        learnset
            .iter()
            .filter(move |(l, _)| *l == level)
            .map(|(_, m)| *m)
    }

    /// Nickname if set, else the species display name.
    pub fn display_name<'a>(&'a self, data: &'a Dataset) -> &'a str {
        match &self.nickname {
            Some(n) => n.as_str(),
            None => species_data(data, self.species)
                .map(|sp| sp.name)
                .unwrap_or("?"),
        }
    }

    #[inline]
    pub fn is_fainted(&self) -> bool {
        self.hp == 0
    }

    /// Number of move slots in use.
    pub fn move_count(&self) -> usize {
        self.moves.iter().filter(|m| m.is_some()).count()
    }

    /// Maximum PP of the move in `slot`, counting that slot's PP Ups.
    pub fn max_pp(&self, data: &Dataset, slot: usize) -> Option<u8> {
        let m = (*self.moves.get(slot)?)?;
        max_pp(data, m, self.pp_ups[slot])
    }

    /// Full heal as at a Pokémon Center: HP, status, PP.
    pub fn heal(&mut self, data: &Dataset) {
        self.hp = self.stats.max_hp;
        self.status = Status::None;
        for slot in 0..MOVE_SLOTS {
            if let Some(p) = self.max_pp(data, slot) {
                self.pp[slot] = p;
            }
        }
    }
}

/// Species record lookup; the only place this module touches the dataset's species table.
pub(crate) fn species_data(data: &Dataset, id: SpeciesId) -> Result<&SpeciesData, MonError> {
    data.get_species(id).ok_or(MonError::UnknownSpecies(id.0))
}

/// Max PP of move `m` with `pp_ups` PP Ups: each PP Up adds `base / 5`, capped at 7 per PP Up
/// as on the cartridge (so a 40 PP move tops out at 61).
pub fn max_pp(data: &Dataset, m: MoveId, pp_ups: u8) -> Option<u8> {
    Some(max_pp_for_base(data.get_move(m)?.pp, pp_ups))
}

/// [`max_pp`] from the move's base PP.
#[inline]
pub fn max_pp_for_base(base: u8, pp_ups: u8) -> u8 {
    let step = (base / 5).min(7);
    base.saturating_add(step.saturating_mul(pp_ups.min(MAX_PP_UPS)))
}

/// All five stats by the cartridge formula.
pub fn compute_stats(sp: &SpeciesData, level: u8, dvs: &Dvs, se: &StatExp) -> Stats {
    let dvs = dvs.clamped();
    let level = level.clamp(MIN_LEVEL, MAX_LEVEL);
    Stats {
        max_hp: stats::calc_stat(StatKind::Hp, sp.hp, dvs.hp(), se.hp, level),
        atk: stats::calc_stat(StatKind::Atk, sp.atk, dvs.atk, se.atk, level),
        def: stats::calc_stat(StatKind::Def, sp.def, dvs.def, se.def, level),
        spe: stats::calc_stat(StatKind::Spe, sp.spe, dvs.spe, se.spe, level),
        spc: stats::calc_stat(StatKind::Spc, sp.spc, dvs.spc, se.spc, level),
    }
}

/// The cartridge's `WriteMonMoves` for a new mon: level-1 moves, then learnset moves with
/// level <= `level` in order; a move already known is skipped, and when all four slots are full
/// the oldest move is pushed out.
pub fn default_moves(sp: &SpeciesData, level: u8) -> [Option<MoveId>; MOVE_SLOTS] {
    let mut moves: [Option<MoveId>; MOVE_SLOTS] = [None; MOVE_SLOTS];
    let mut push = |m: MoveId| {
        if moves.contains(&Some(m)) {
            return;
        }
        if let Some(free) = moves.iter_mut().find(|s| s.is_none()) {
            *free = Some(m);
        } else {
            moves.rotate_left(1);
            moves[MOVE_SLOTS - 1] = Some(m);
        }
    };
    for &m in sp.start_moves.iter().filter(|m| m.0 != 0) {
        push(m);
    }
    for &(l, m) in sp.learnset {
        if l <= level && m.0 != 0 {
            push(m);
        }
    }
    moves
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::gen1;

    fn sp(id: &str) -> SpeciesId {
        gen1()
            .species_by_name(id)
            .unwrap_or_else(|| panic!("{id} in gen1"))
    }

    fn mv(id: &str) -> MoveId {
        gen1()
            .move_by_name(id)
            .unwrap_or_else(|| panic!("{id} in gen1"))
    }

    #[test]
    fn new_pidgey_level_5_matches_the_cartridge() {
        let data = gen1();
        let dvs = Dvs {
            atk: 8,
            def: 9,
            spe: 10,
            spc: 11,
        };
        let mon = Pokemon::new(data, sp("PIDGEY"), 5, dvs);
        assert_eq!(mon.level, 5);
        // Level-1 move GUST, then SAND_ATTACK at 5.
        assert_eq!(
            mon.moves,
            [Some(mv("GUST")), Some(mv("SAND_ATTACK")), None, None]
        );
        assert_eq!(mon.pp, [35, 15, 0, 0]);
        // Medium Slow at L5: 6*125/5 - 15*25 + 500 - 140 = 150 - 375 + 360 = 135.
        assert_eq!(mon.exp, 135);
        // HP DV 0b0101 = 5: (45*2)*5/100 + 5 + 10 = 19; Atk (53*2)*5/100+5 = 10;
        // Def (49*2)*5/100+5 = 9; Spe (66*2)*5/100+5 = 11; Spc (46*2)*5/100+5 = 9.
        assert_eq!(
            mon.stats,
            Stats {
                max_hp: 19,
                atk: 10,
                def: 9,
                spe: 11,
                spc: 9
            }
        );
        assert_eq!(mon.hp, 19);
        assert_eq!(mon.status, Status::None);
        assert_eq!(mon.display_name(data), "PIDGEY");
        assert!(!mon.is_fainted());
    }

    #[test]
    fn default_moves_push_out_the_oldest() {
        let data = gen1();
        // Rattata: TACKLE, TAIL_WHIP; 7 QUICK_ATTACK, 14 HYPER_FANG, 23 FOCUS_ENERGY.
        let r14 = Pokemon::new(data, sp("RATTATA"), 14, Dvs::MAX);
        assert_eq!(
            r14.moves,
            [
                Some(mv("TACKLE")),
                Some(mv("TAIL_WHIP")),
                Some(mv("QUICK_ATTACK")),
                Some(mv("HYPER_FANG"))
            ]
        );
        let r23 = Pokemon::new(data, sp("RATTATA"), 23, Dvs::MAX);
        assert_eq!(
            r23.moves,
            [
                Some(mv("TAIL_WHIP")),
                Some(mv("QUICK_ATTACK")),
                Some(mv("HYPER_FANG")),
                Some(mv("FOCUS_ENERGY"))
            ]
        );
        // Mewtwo L70: CONFUSION DISABLE SWIFT PSYCHIC_M, +BARRIER (63), PSYCHIC_M again (66) is
        // skipped, +RECOVER (70).
        let m70 = Pokemon::new(data, sp("MEWTWO"), 70, Dvs::MAX);
        assert_eq!(
            m70.moves,
            [
                Some(mv("SWIFT")),
                Some(mv("PSYCHIC_M")),
                Some(mv("BARRIER")),
                Some(mv("RECOVER"))
            ]
        );
    }

    #[test]
    fn mewtwo_l100_max_dvs_max_stat_exp() {
        let data = gen1();
        let mut m = Pokemon::new(data, sp("MEWTWO"), 100, Dvs::MAX);
        assert_eq!(m.dvs.hp(), 15);
        m.stat_exp = StatExp::MAX;
        m.recompute_stats(data);
        assert_eq!(
            m.stats,
            Stats {
                max_hp: 415,
                atk: 318,
                def: 278,
                spe: 358,
                spc: 406
            }
        );
        // HP was full at the no-stat-exp maximum ((106+15)*2 + 100 + 10 = 352) and stays there.
        assert_eq!(m.hp, 352);
        // Slow growth, L100: 5/4 * 1e6.
        assert_eq!(m.exp, 1_250_000);
        assert_eq!(m.level_from_exp(data), Some(100));
    }

    #[test]
    fn set_level_raises_hp_by_the_max_hp_gain() {
        let data = gen1();
        let mut p = Pokemon::new(data, sp("PIDGEY"), 5, Dvs::MAX);
        p.hp -= 5;
        let before = p.stats.max_hp;
        p.set_level(data, 10);
        let gain = p.stats.max_hp - before;
        assert!(gain > 0);
        assert_eq!(p.hp, before - 5 + gain);
        p.hp = 0;
        p.set_level(data, 11);
        assert_eq!(p.hp, 0, "a fainted mon does not revive on level-up");
        assert_eq!(
            p.learnset_moves_at(data, 12).collect::<Vec<_>>(),
            vec![mv("QUICK_ATTACK")]
        );
    }

    #[test]
    fn pp_ups_follow_the_cartridge_cap() {
        assert_eq!(max_pp_for_base(40, 3), 61);
        assert_eq!(max_pp_for_base(35, 3), 56);
        assert_eq!(max_pp_for_base(5, 3), 8);
        assert_eq!(max_pp_for_base(10, 1), 12);
        assert_eq!(
            max_pp_for_base(10, 9),
            16,
            "more than three PP Ups count as three"
        );
        let data = gen1();
        let mut p = Pokemon::new(data, sp("PIDGEY"), 5, Dvs::MAX);
        p.pp_ups[0] = 2;
        assert_eq!(p.max_pp(data, 0), Some(35 + 14));
        assert_eq!(p.max_pp(data, 3), None);
        p.pp = [0; 4];
        p.status = Status::Sleep(3);
        p.hp = 1;
        p.heal(data);
        assert_eq!(p.pp, [49, 15, 0, 0]);
        assert_eq!(p.status, Status::None);
        assert_eq!(p.hp, p.stats.max_hp);
    }

    #[test]
    fn nickname_and_unknown_species() {
        let data = gen1();
        let mut p = Pokemon::new(data, sp("PIDGEY"), 3, Dvs::default());
        p.nickname = Some("BIRDY".into());
        assert_eq!(p.display_name(data), "BIRDY");
        let bogus = SpeciesId(60000);
        assert_eq!(
            Pokemon::try_new(data, bogus, 5, Dvs::MAX),
            Err(MonError::UnknownSpecies(60000))
        );
        let husk = Pokemon::new(data, bogus, 200, Dvs::MAX);
        assert_eq!(husk.level, 100);
        assert!(husk.is_fainted());
        assert_eq!(husk.display_name(data), "?");
    }

    #[test]
    fn dv_bytes_round_trip() {
        let d = Dvs {
            atk: 1,
            def: 2,
            spe: 3,
            spc: 4,
        };
        assert_eq!(d.to_bytes(), [0x12, 0x34]);
        assert_eq!(Dvs::from_bytes([0x12, 0x34]), d);
        assert_eq!(
            Dvs {
                atk: 40,
                def: 0,
                spe: 0,
                spc: 0
            }
            .clamped()
            .atk,
            15
        );
        assert_eq!(Status::from_code("SLP", 2), Some(Status::Sleep(2)));
        assert_eq!(Status::from_code("TOX", 0), None);
        for s in [
            Status::None,
            Status::Poison,
            Status::Burn,
            Status::Freeze,
            Status::Paralysis,
            Status::Sleep(4),
        ] {
            assert_eq!(Status::from_code(s.code(), 4), Some(s));
        }
    }
}
