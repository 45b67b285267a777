//! Every hook and event call site of the battle engine, guarded so that nothing is built when
//! nobody subscribes (`if rt.wants_hook::<hooks::X>() { build ctx; rt.call::<hooks::X>(..) }`).
//! With the `hook-sites` feature off, each site is its vanilla branch only.
//!
//! Hooks: `battle.crit`, `battle.accuracy`, `battle.damage`, `exp.gain`, `battle.exp_award`.
//! Events: `battle.started`, `battle.fainted`, `battle.turn_ended`, `battle.ended`,
//! `pokemon.level_up`. The RFC 0016 `battle.field_residual` site is in `field_residual.rs`.

use pallet_api::Runtime;

use super::state::DamageVars;
use super::{Battle, BattleRng, Side};

#[cfg(feature = "hook-sites")]
mod live {
    use std::collections::BTreeMap;

    use pallet_api::catalog::common::{self, BattleInfo, BattlerSnapshot, MoveInfo};
    use pallet_api::catalog::{events, hooks};
    use pallet_api::Value;

    use crate::pokemon::Pokemon;

    use super::super::{Battle, BattleKind, BattleResult, BattleRng, Side};

    pub(crate) fn side(s: Side) -> common::Side {
        match s {
            Side::Player => common::Side::Player,
            Side::Enemy => common::Side::Enemy,
        }
    }

    pub(crate) fn info<R: BattleRng>(b: &Battle<R>) -> BattleInfo {
        match &b.kind {
            BattleKind::Wild => BattleInfo {
                kind: common::BattleKind::Wild,
                opp_class: None,
                party_index: None,
                turn: b.turn,
            },
            BattleKind::Trainer { class, index, .. } => BattleInfo {
                kind: common::BattleKind::Trainer,
                opp_class: Some(crate::public_records::public_trainer_class(class)),
                party_index: Some(crate::public_records::public_party_index(*index)),
                turn: b.turn,
            },
        }
    }

    /// The detached `{side, name, hp, maxHp, types, vanished}` view of a side's active mon.
    pub(crate) fn snapshot<R: BattleRng>(b: &Battle<R>, s: Side) -> BattlerSnapshot {
        let st = &b.sides[s.idx()];
        let mon = st.mon();
        let t = st.battler.types;
        let mut types = vec![t[0].id().to_string()];
        if t[1] != t[0] {
            types.push(t[1].id().to_string());
        }
        BattlerSnapshot {
            side: side(s),
            name: mon.display_name(b.data).to_string(),
            hp: mon.hp,
            max_hp: mon.stats.max_hp,
            types,
            vanished: st.battler.has(super::super::state::flag::INVULNERABLE),
        }
    }

    pub(crate) fn move_info<R: BattleRng>(b: &Battle<R>, s: Side) -> MoveInfo {
        let cur = b.bat(s).cur;
        MoveInfo {
            id: b
                .data
                .get_move(cur.id)
                .map(|m| m.id)
                .unwrap_or("")
                .to_string(),
            move_type: cur.ty.id().to_string(),
            power: cur.power,
            accuracy: cur.accuracy,
        }
    }

    /// A detached record of a mon for payloads.
    pub(crate) fn mon_record<R: BattleRng>(b: &Battle<R>, mon: &Pokemon) -> Value {
        let species = b.data.get_species(mon.species).map(|s| s.id).unwrap_or("");
        let mut m = BTreeMap::new();
        m.insert("species".to_string(), Value::from(species));
        m.insert("name".to_string(), Value::from(mon.display_name(b.data)));
        m.insert("level".to_string(), Value::from(i64::from(mon.level)));
        m.insert("exp".to_string(), Value::from(i64::from(mon.exp)));
        m.insert("hp".to_string(), Value::from(i64::from(mon.hp)));
        m.insert(
            "maxHp".to_string(),
            Value::from(i64::from(mon.stats.max_hp)),
        );
        m.insert("status".to_string(), Value::from(mon.status.code()));
        let moves: Vec<Value> = mon
            .moves
            .iter()
            .flatten()
            .map(|id| Value::from(b.data.get_move(*id).map(|m| m.id).unwrap_or("")))
            .collect();
        m.insert("moves".to_string(), Value::from(moves));
        Value::from(m)
    }

    pub(super) fn species_record<R: BattleRng>(b: &Battle<R>, mon: &Pokemon) -> Value {
        let Some(sp) = b.data.get_species(mon.species) else {
            return Value::Nil;
        };
        let mut m = BTreeMap::new();
        m.insert("id".to_string(), Value::from(sp.id));
        m.insert("name".to_string(), Value::from(sp.name));
        m.insert("baseExp".to_string(), Value::from(i64::from(sp.base_exp)));
        m.insert(
            "baseStats".to_string(),
            Value::from(vec![
                Value::from(i64::from(sp.hp)),
                Value::from(i64::from(sp.atk)),
                Value::from(i64::from(sp.def)),
                Value::from(i64::from(sp.spe)),
                Value::from(i64::from(sp.spc)),
            ]),
        );
        Value::from(m)
    }

    pub(super) fn result(r: BattleResult) -> Option<events::BattleResult> {
        Some(match r {
            BattleResult::Win => events::BattleResult::Win,
            BattleResult::Lose => events::BattleResult::Lose,
            BattleResult::Ran => events::BattleResult::Run,
            BattleResult::Caught => events::BattleResult::Caught,
            BattleResult::Draw => events::BattleResult::Draw,
        })
    }

    pub(super) use events::{
        BattleEnded, BattleFainted, BattleStarted, BattleTurnEnded, PokemonLevelUp,
    };
    pub(super) use hooks::{
        AccuracyContext, BattleAccuracyArgs, BattleCritArgs, BattleDamageArgs, BattleExpAwardArgs,
        CritContext, DamageContext, ExpAwardContext, ExpGainArgs, ExpGainContext, ExpShare,
    };
    pub(super) use hooks::{BattleAccuracy, BattleCrit, BattleDamage, BattleExpAward, ExpGain};
}

#[cfg(feature = "hook-sites")]
pub(crate) use live::snapshot;

/// The payload builders, for the flow sites in `sites_flow.rs`.
#[cfg(feature = "hook-sites")]
pub(crate) mod live_pub {
    pub(crate) use super::live::{info, mon_record, move_info, side, snapshot};
}

/// One EXP share (the data form of `battle.exp_award`'s answer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Share {
    pub slot: u8,
    pub split: u8,
    pub announce: bool,
}

/// `battle.crit`. The subscribed branch is out of line (`#[cold]`), so the hot path is the
/// guard's bit test and the vanilla routine, as with the sites compiled out.
#[inline(always)]
pub(crate) fn crit<const LIVE: bool, R: BattleRng>(
    b: &mut Battle<R>,
    rt: &Runtime,
    a: Side,
) -> bool {
    #[cfg(feature = "hook-sites")]
    if LIVE && rt.wants_hook::<live::BattleCrit>() {
        return crit_hooked(b, rt, a);
    }
    let _ = rt;
    b.crit_roll(a)
}

#[cfg(feature = "hook-sites")]
#[cold]
#[inline(never)]
fn crit_hooked<R: BattleRng>(b: &mut Battle<R>, rt: &Runtime, a: Side) -> bool {
    let args = live::BattleCritArgs {
        ctx: live::CritContext {
            battle: live::info(b),
            user: live::snapshot(b, a),
            move_info: live::move_info(b, a),
        },
    };
    rt.call::<live::BattleCrit>(args, |_| b.crit_roll(a))
}

/// `battle.accuracy`.
#[inline(always)]
pub(crate) fn accuracy<const LIVE: bool, R: BattleRng>(
    b: &mut Battle<R>,
    rt: &Runtime,
    a: Side,
) -> bool {
    #[cfg(feature = "hook-sites")]
    if LIVE && rt.wants_hook::<live::BattleAccuracy>() {
        return accuracy_hooked(b, rt, a);
    }
    let _ = rt;
    b.vanilla_hit_test(a)
}

#[cfg(feature = "hook-sites")]
#[cold]
#[inline(never)]
fn accuracy_hooked<R: BattleRng>(b: &mut Battle<R>, rt: &Runtime, a: Side) -> bool {
    let args = live::BattleAccuracyArgs {
        ctx: live::AccuracyContext {
            battle: live::info(b),
            user: live::snapshot(b, a),
            target: live::snapshot(b, a.other()),
            move_info: live::move_info(b, a),
        },
    };
    rt.call::<live::BattleAccuracy>(args, |_| b.vanilla_hit_test(a))
}

/// `battle.damage`.
#[inline(always)]
pub(crate) fn damage<const LIVE: bool, R: BattleRng>(
    b: &mut Battle<R>,
    rt: &Runtime,
    a: Side,
    v: DamageVars,
) -> u16 {
    #[cfg(feature = "hook-sites")]
    if LIVE && rt.wants_hook::<live::BattleDamage>() {
        return damage_hooked(b, rt, a, v);
    }
    let _ = rt;
    b.vanilla_damage(a, v)
}

#[cfg(feature = "hook-sites")]
#[cold]
#[inline(never)]
fn damage_hooked<R: BattleRng>(b: &mut Battle<R>, rt: &Runtime, a: Side, v: DamageVars) -> u16 {
    let args = live::BattleDamageArgs {
        ctx: live::DamageContext {
            battle: live::info(b),
            user: live::snapshot(b, a),
            target: live::snapshot(b, a.other()),
            move_info: live::move_info(b, a),
            critical: b.crit,
        },
    };
    rt.call::<live::BattleDamage>(args, |_| b.vanilla_damage(a, v))
}

/// `battle.exp_award`: who gets a share of the defeated enemy's EXP. Vanilla: every living
/// participant, split by their count. `out` is reused (no allocation without a subscriber).
pub(crate) fn exp_award<R: BattleRng>(
    b: &Battle<R>,
    rt: &Runtime,
    out: &mut smallvec::SmallVec<[Share; 6]>,
) {
    out.clear();
    let p = &b.sides[Side::Player.idx()];
    let mut count = 0u8;
    for (i, m) in p.party.iter().enumerate() {
        if p.participants & (1 << i) != 0 && m.hp > 0 {
            count += 1;
        }
    }
    let vanilla = |out: &mut smallvec::SmallVec<[Share; 6]>| {
        for (i, m) in p.party.iter().enumerate() {
            if p.participants & (1 << i) != 0 && m.hp > 0 {
                out.push(Share {
                    slot: i as u8,
                    split: count.max(1),
                    announce: true,
                });
            }
        }
    };
    #[cfg(feature = "hook-sites")]
    if rt.wants_hook::<live::BattleExpAward>() {
        let alive: Vec<u8> = (0..p.party.len() as u8)
            .filter(|&i| p.participants & (1 << i) != 0 && p.party[i as usize].hp > 0)
            .collect();
        let args = live::BattleExpAwardArgs {
            ctx: live::ExpAwardContext {
                battle: live::info(b),
                participants: count,
                alive,
                party: p.party.iter().map(|m| live::mon_record(b, m)).collect(),
            },
        };
        let shares = rt.call::<live::BattleExpAward>(args, |_| {
            let mut v = smallvec::SmallVec::new();
            vanilla(&mut v);
            v.iter()
                .map(|s: &Share| live::ExpShare {
                    slot: s.slot,
                    split: s.split,
                    announce: s.announce,
                })
                .collect()
        });
        for s in shares {
            if (s.slot as usize) < p.party.len() {
                out.push(Share {
                    slot: s.slot,
                    split: s.split.max(1),
                    announce: s.announce,
                });
            }
        }
        return;
    }
    let _ = rt;
    vanilla(out);
}

/// `exp.gain`: the EXP one mon receives. `vanilla` is the cartridge amount.
pub(crate) fn exp_gain<R: BattleRng>(
    b: &Battle<R>,
    rt: &Runtime,
    slot: u8,
    participants: u8,
    traded: bool,
    vanilla: u32,
) -> u32 {
    #[cfg(feature = "hook-sites")]
    if rt.wants_hook::<live::ExpGain>() {
        let enemy = b.sides[Side::Enemy.idx()].mon();
        let Some(mon) = b.sides[Side::Player.idx()].party.get(slot as usize) else {
            return vanilla;
        };
        let args = live::ExpGainArgs {
            ctx: live::ExpGainContext {
                defeated_def: live::species_record(b, enemy),
                level: enemy.level,
                is_trainer: !b.kind.is_wild(),
                participants,
                traded,
                mon: live::mon_record(b, mon),
            },
        };
        return rt.call::<live::ExpGain>(args, |_| vanilla);
    }
    let _ = (b, rt, slot, participants, traded);
    vanilla
}

/// `battle.started`.
pub(crate) fn battle_started<R: BattleRng>(b: &Battle<R>, rt: &Runtime) {
    #[cfg(feature = "hook-sites")]
    if rt.wants_event::<live::BattleStarted>() {
        use pallet_api::catalog::events::{MonDvs, StartedBattle, StartedEnemy, WildMon};
        let (kind, trainer_id, species) = match &b.kind {
            super::BattleKind::Wild => (
                pallet_api::catalog::common::BattleKind::Wild,
                None,
                b.data
                    .get_species(b.sides[1].mon().species)
                    .map(|s| s.id.to_string()),
            ),
            super::BattleKind::Trainer { class, .. } => (
                pallet_api::catalog::common::BattleKind::Trainer,
                Some(class.clone()),
                None,
            ),
        };
        // The wild mon as it was rolled (issue 18: a shiny hunt reads its DVs).
        let enemy = species.as_ref().map(|species| {
            let mon = b.sides[1].mon();
            StartedEnemy {
                mon: WildMon {
                    species: species.clone(),
                    level: mon.level,
                    dvs: MonDvs {
                        atk: mon.dvs.atk,
                        def: mon.dvs.def,
                        spe: mon.dvs.spe,
                        spc: mon.dvs.spc,
                    },
                },
            }
        });
        rt.emit::<live::BattleStarted>(pallet_api::catalog::events::BattleStartedPayload {
            battle: StartedBattle::new(live::info(b), enemy),
            kind,
            trainer_id,
            species,
        });
    }
    let _ = (b, rt);
}

/// `battle.fainted`.
pub(crate) fn battle_fainted<R: BattleRng>(b: &Battle<R>, rt: &Runtime, s: Side) {
    #[cfg(feature = "hook-sites")]
    if rt.wants_event::<live::BattleFainted>() {
        rt.emit::<live::BattleFainted>(pallet_api::catalog::events::BattleFaintedPayload {
            battle: live::info(b),
            battler: live::snapshot(b, s),
        });
    }
    let _ = (b, rt, s);
}

/// `battle.turn_ended`.
#[inline(always)]
pub(crate) fn turn_ended<R: BattleRng>(b: &Battle<R>, rt: &Runtime) {
    #[cfg(feature = "hook-sites")]
    if rt.wants_event::<live::BattleTurnEnded>() {
        turn_ended_emit(b, rt);
    }
    let _ = (b, rt);
}

#[cfg(feature = "hook-sites")]
#[cold]
#[inline(never)]
fn turn_ended_emit<R: BattleRng>(b: &Battle<R>, rt: &Runtime) {
    rt.emit::<live::BattleTurnEnded>(pallet_api::catalog::events::BattleTurnEndedPayload {
        battle: live::info(b),
        turn: b.turn,
    });
}

/// `battle.ended`.
pub(crate) fn battle_ended<R: BattleRng>(b: &Battle<R>, rt: &Runtime) {
    #[cfg(feature = "hook-sites")]
    if rt.wants_event::<live::BattleEnded>() {
        if let Some(result) = b.result.and_then(live::result) {
            rt.emit::<live::BattleEnded>(pallet_api::catalog::events::BattleEndedPayload {
                battle: live::info(b),
                result,
                skipped: None,
            });
        }
    }
    let _ = (b, rt);
}

/// `pokemon.level_up`.
pub(crate) fn level_up<R: BattleRng>(b: &Battle<R>, rt: &Runtime, slot: u8, prev_level: u8) {
    #[cfg(feature = "hook-sites")]
    if rt.wants_event::<live::PokemonLevelUp>() {
        if let Some(mon) = b.sides[Side::Player.idx()].party.get(slot as usize) {
            let learnable = mon
                .learnset_moves_at(b.data, mon.level)
                .filter_map(|m| b.data.get_move(m).map(|d| d.id.to_string()))
                .collect();
            rt.emit::<live::PokemonLevelUp>(pallet_api::catalog::events::PokemonLevelUpPayload {
                mon: live::mon_record(b, mon),
                level: mon.level,
                prev_level,
                learnable,
            });
        }
    }
    let _ = (b, rt, slot, prev_level);
}
