//! Mons as they are stored in a save: string ids and wide integers.
//!
//! Species and moves are stored by their stable upper-case ids (`"PIDGEY"`, `"TACKLE"`), not by
//! table index, so a save written with a mod's species (or by another dataset version) still
//! decodes: the validator then quarantines what the active dataset does not know. Numbers are
//! stored as `i64` so that out-of-range values from hand edits or other engines decode too and
//! can be repaired (clamped) by the validator instead of failing the whole file.

use serde::{Deserialize, Serialize};

use crate::data::Dataset;
use crate::pokemon::mon::{species_data, MAX_PP_UPS};
use crate::pokemon::stats::{MAX_DV, MAX_LEVEL, MAX_STAT_VALUE, MIN_LEVEL};
use crate::pokemon::{Dvs, Pokemon, StatExp, Stats, Status, MOVE_SLOTS};

/// One stored mon.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MonRecord {
    pub species: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nickname: Option<String>,
    pub level: i64,
    pub exp: i64,
    pub dvs: DvsRecord,
    pub stat_exp: StatExpRecord,
    pub moves: Vec<MoveRecord>,
    pub hp: i64,
    /// `""` (none), `"SLP"`, `"PSN"`, `"BRN"`, `"FRZ"`, `"PAR"`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub status: String,
    /// Turns of sleep left when `status` is `"SLP"`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub sleep_turns: i64,
    /// Stored stats; missing ones are derived by the validator.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stats: Option<StatsRecord>,
    pub ot_name: String,
    pub ot_id: i64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DvsRecord {
    pub atk: i64,
    pub def: i64,
    pub spe: i64,
    pub spc: i64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StatExpRecord {
    pub hp: i64,
    pub atk: i64,
    pub def: i64,
    pub spe: i64,
    pub spc: i64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StatsRecord {
    pub max_hp: i64,
    pub atk: i64,
    pub def: i64,
    pub spe: i64,
    pub spc: i64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MoveRecord {
    pub id: String,
    pub pp: i64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub pp_ups: i64,
}

fn is_zero(v: &i64) -> bool {
    *v == 0
}

/// Why a record cannot become a live [`Pokemon`] (run the validator first to repair or
/// quarantine).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    #[error("unknown species `{0}` (not in the active dataset)")]
    UnknownSpecies(String),
    #[error("unknown move `{id}` on {species}")]
    UnknownMove { species: String, id: String },
    #[error("{species} has {count} moves (at most 4)")]
    TooManyMoves { species: String, count: usize },
    #[error("{species}: {field} = {value} is out of range {min}..={max}")]
    OutOfRange {
        species: String,
        field: &'static str,
        value: i64,
        min: i64,
        max: i64,
    },
    #[error("{species}: unknown status `{status}`")]
    UnknownStatus { species: String, status: String },
    #[error("species id {0} has no record in the active dataset")]
    UnknownSpeciesId(u16),
    #[error("move id {0} has no record in the active dataset")]
    UnknownMoveId(u16),
}

impl MonRecord {
    /// The record of a live mon (ids by the dataset's stable names). Fails only for ids that the
    /// dataset does not hold.
    pub fn from_pokemon(mon: &Pokemon, data: &Dataset) -> Result<MonRecord, RecordError> {
        let sp = species_data(data, mon.species)
            .map_err(|_| RecordError::UnknownSpeciesId(mon.species.0))?;
        let mut moves = Vec::with_capacity(MOVE_SLOTS);
        for slot in 0..MOVE_SLOTS {
            if let Some(m) = mon.moves[slot] {
                let md = data.get_move(m).ok_or(RecordError::UnknownMoveId(m.0))?;
                moves.push(MoveRecord {
                    id: md.id.to_string(),
                    pp: i64::from(mon.pp[slot]),
                    pp_ups: i64::from(mon.pp_ups[slot]),
                });
            }
        }
        let (status, sleep_turns) = match mon.status {
            Status::Sleep(t) => ("SLP".to_string(), i64::from(t)),
            s => (s.code().to_string(), 0),
        };
        Ok(MonRecord {
            species: sp.id.to_string(),
            nickname: mon.nickname.clone(),
            level: i64::from(mon.level),
            exp: i64::from(mon.exp),
            dvs: DvsRecord {
                atk: i64::from(mon.dvs.atk),
                def: i64::from(mon.dvs.def),
                spe: i64::from(mon.dvs.spe),
                spc: i64::from(mon.dvs.spc),
            },
            stat_exp: StatExpRecord {
                hp: i64::from(mon.stat_exp.hp),
                atk: i64::from(mon.stat_exp.atk),
                def: i64::from(mon.stat_exp.def),
                spe: i64::from(mon.stat_exp.spe),
                spc: i64::from(mon.stat_exp.spc),
            },
            moves,
            hp: i64::from(mon.hp),
            status,
            sleep_turns,
            stats: Some(StatsRecord {
                max_hp: i64::from(mon.stats.max_hp),
                atk: i64::from(mon.stats.atk),
                def: i64::from(mon.stats.def),
                spe: i64::from(mon.stats.spe),
                spc: i64::from(mon.stats.spc),
            }),
            ot_name: mon.ot_name.clone(),
            ot_id: i64::from(mon.ot_id),
        })
    }

    /// The live mon of this record. Strict: unknown ids and out-of-range numbers are errors
    /// (the validator repairs or quarantines them beforehand). Missing stats are derived.
    pub fn to_pokemon(&self, data: &Dataset) -> Result<Pokemon, RecordError> {
        let species = data
            .species_by_name(&self.species)
            .ok_or_else(|| RecordError::UnknownSpecies(self.species.clone()))?;
        let sp = species_data(data, species)
            .map_err(|_| RecordError::UnknownSpecies(self.species.clone()))?;
        let name = || self.species.clone();
        let range =
            |field: &'static str, value: i64, min: i64, max: i64| -> Result<i64, RecordError> {
                if (min..=max).contains(&value) {
                    Ok(value)
                } else {
                    Err(RecordError::OutOfRange {
                        species: name(),
                        field,
                        value,
                        min,
                        max,
                    })
                }
            };
        let dv = |field, v| range(field, v, 0, i64::from(MAX_DV)).map(|v| v as u8);
        let se = |field, v| range(field, v, 0, i64::from(u16::MAX)).map(|v| v as u16);
        let level = range(
            "level",
            self.level,
            i64::from(MIN_LEVEL),
            i64::from(MAX_LEVEL),
        )? as u8;
        let exp = range("exp", self.exp, 0, i64::from(u32::MAX))? as u32;
        let dvs = Dvs {
            atk: dv("dvs.atk", self.dvs.atk)?,
            def: dv("dvs.def", self.dvs.def)?,
            spe: dv("dvs.spe", self.dvs.spe)?,
            spc: dv("dvs.spc", self.dvs.spc)?,
        };
        let stat_exp = StatExp {
            hp: se("statExp.hp", self.stat_exp.hp)?,
            atk: se("statExp.atk", self.stat_exp.atk)?,
            def: se("statExp.def", self.stat_exp.def)?,
            spe: se("statExp.spe", self.stat_exp.spe)?,
            spc: se("statExp.spc", self.stat_exp.spc)?,
        };
        if self.moves.len() > MOVE_SLOTS {
            return Err(RecordError::TooManyMoves {
                species: name(),
                count: self.moves.len(),
            });
        }
        let mut moves = [None; MOVE_SLOTS];
        let mut pp = [0u8; MOVE_SLOTS];
        let mut pp_ups = [0u8; MOVE_SLOTS];
        for (slot, m) in self.moves.iter().enumerate() {
            let id = data
                .move_by_name(&m.id)
                .ok_or_else(|| RecordError::UnknownMove {
                    species: name(),
                    id: m.id.clone(),
                })?;
            moves[slot] = Some(id);
            pp[slot] = range("moves.pp", m.pp, 0, 255)? as u8;
            pp_ups[slot] = range("moves.ppUps", m.pp_ups, 0, i64::from(MAX_PP_UPS))? as u8;
        }
        let stats = match &self.stats {
            Some(s) => {
                let st = |field, v| range(field, v, 0, i64::from(MAX_STAT_VALUE)).map(|v| v as u16);
                Stats {
                    max_hp: st("stats.maxHp", s.max_hp)?,
                    atk: st("stats.atk", s.atk)?,
                    def: st("stats.def", s.def)?,
                    spe: st("stats.spe", s.spe)?,
                    spc: st("stats.spc", s.spc)?,
                }
            }
            None => crate::pokemon::mon::compute_stats(sp, level, &dvs, &stat_exp),
        };
        let hp = range("hp", self.hp, 0, i64::from(stats.max_hp))? as u16;
        let sleep = range("sleepTurns", self.sleep_turns, 0, 7)? as u8;
        let status =
            Status::from_code(&self.status, sleep).ok_or_else(|| RecordError::UnknownStatus {
                species: name(),
                status: self.status.clone(),
            })?;
        let ot_id = range("otId", self.ot_id, 0, i64::from(u16::MAX))? as u16;
        Ok(Pokemon {
            species,
            nickname: self.nickname.clone(),
            level,
            exp,
            dvs,
            stat_exp,
            moves,
            pp,
            pp_ups,
            hp,
            status,
            stats,
            ot_name: self.ot_name.clone(),
            ot_id,
        })
    }
}
