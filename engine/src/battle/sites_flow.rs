//! The battle flow event sites of the Lua engine's catalog (issue 17): `battle.turn_started`,
//! `battle.move_used`, `battle.damage_dealt`, `battle.status_inflicted`,
//! `battle.battler_switched`, `battle.ball_thrown`, `battle.exp_gained`, `pokemon.move_learned`.
//!
//! Every site is a guard's bit test on the hot path; the payload is built out of line
//! (`#[cold]`) only when a listener exists. Without the `hook-sites` feature each site is
//! nothing (or its wrapped vanilla call).

use pallet_api::Runtime;

use super::state::MoveEnd;
use super::{Battle, BattleRng, Side};
#[cfg(feature = "hook-sites")]
use crate::pokemon::Status;

#[cfg(feature = "hook-sites")]
mod live {
    pub(super) use pallet_api::catalog::events;
    pub(super) use pallet_api::catalog::events::{
        BattleBallThrown, BattleBallThrownPayload, BattleBattlerSwitched,
        BattleBattlerSwitchedPayload, BattleDamageDealt, BattleDamageDealtPayload, BattleExpGained,
        BattleExpGainedPayload, BattleMoveUsed, BattleMoveUsedPayload, BattleStatusInflicted,
        BattleStatusInflictedPayload, BattleTurnStarted, BattleTurnStartedPayload,
        PokemonMoveLearned, PokemonMoveLearnedPayload,
    };
}

#[cfg(feature = "hook-sites")]
use super::sites::live_pub as base;

/// `battle.turn_started`, at the top of a round.
#[inline(always)]
pub(crate) fn turn_started<R: BattleRng>(b: &Battle<R>, rt: &Runtime) {
    #[cfg(feature = "hook-sites")]
    if rt.wants_event::<live::BattleTurnStarted>() {
        turn_started_emit(b, rt);
    }
    let _ = (b, rt);
}

#[cfg(feature = "hook-sites")]
#[cold]
#[inline(never)]
fn turn_started_emit<R: BattleRng>(b: &Battle<R>, rt: &Runtime) {
    rt.emit::<live::events::BattleTurnStarted>(live::BattleTurnStartedPayload {
        battle: base::info(b),
        turn: b.turn,
    });
}

/// `battle.move_used`, right after "X used Y!".
#[inline(always)]
pub(crate) fn move_used<const LIVE: bool, R: BattleRng>(b: &Battle<R>, rt: &Runtime, a: Side) {
    #[cfg(feature = "hook-sites")]
    if LIVE && rt.wants_event::<live::BattleMoveUsed>() {
        move_used_emit(b, rt, a);
    }
    let _ = (b, rt, a);
}

#[cfg(feature = "hook-sites")]
#[cold]
#[inline(never)]
fn move_used_emit<R: BattleRng>(b: &Battle<R>, rt: &Runtime, a: Side) {
    use super::state::{METRONOME, MIRROR_MOVE};
    let move_info = base::move_info(b, a);
    let cur = b.bat(a).cur.id;
    let is_called = matches!(b.bat(a).selected, Some(sel)
        if (sel.0 == METRONOME || sel.0 == MIRROR_MOVE) && sel != cur);
    rt.emit::<live::events::BattleMoveUsed>(live::BattleMoveUsedPayload {
        battle: base::info(b),
        user: base::snapshot(b, a),
        move_id: move_info.id.clone(),
        move_info,
        is_called,
    });
}

/// `battle.damage_dealt`: wraps the application of a move's hit (`apply_attack`).
#[inline(always)]
pub(crate) fn apply_attack<const LIVE: bool, R: BattleRng>(
    b: &mut Battle<R>,
    rt: &Runtime,
    a: Side,
) {
    #[cfg(feature = "hook-sites")]
    if LIVE && rt.wants_event::<live::BattleDamageDealt>() {
        return apply_attack_watched(b, rt, a);
    }
    let _ = rt;
    b.apply_attack(a);
}

#[cfg(feature = "hook-sites")]
#[cold]
#[inline(never)]
fn apply_attack_watched<R: BattleRng>(b: &mut Battle<R>, rt: &Runtime, a: Side) {
    use super::state::flag;
    let d = a.other();
    let hp0 = b.hp(d);
    let sub = b.bat(d).has(flag::SUBSTITUTE);
    let before = b.last_damage;
    b.apply_attack(a);
    let amount = hp0.saturating_sub(b.hp(d));
    // A Substitute hit: the attack computed damage and applied it to the doll.
    let sub_hit = sub && amount == 0 && b.last_damage > 0 && b.last_damage != before;
    if amount == 0 && !sub_hit {
        return;
    }
    let move_id = base::move_info(b, a).id;
    rt.emit::<live::events::BattleDamageDealt>(live::BattleDamageDealtPayload {
        battle: base::info(b),
        attacker: base::snapshot(b, a),
        target: base::snapshot(b, d),
        amount,
        critical: b.crit,
        move_id,
        substitute: sub_hit,
    });
}

/// Every site the move executor raises (directly or through the damage and hit-test routines
/// it calls with `LIVE`), plus `battle.status_inflicted` around it. Effect routines call the
/// hit test with its own live guard, so they need not be listed.
#[cfg(feature = "hook-sites")]
pub(crate) const EXECUTOR_SITES: pallet_api::SiteSet = {
    use pallet_api::catalog::hooks;
    use pallet_api::{Event, Hook};
    pallet_api::SiteSet::EMPTY
        .hook(hooks::BattleCrit::ID)
        .hook(hooks::BattleAccuracy::ID)
        .hook(hooks::BattleDamage::ID)
        .hook(hooks::BattleChargeRequired::ID)
        .event(live::BattleMoveUsed::ID)
        .event(live::BattleDamageDealt::ID)
        .event(live::BattleStatusInflicted::ID)
};

/// Side `a`'s move executor. When none of [`EXECUTOR_SITES`] has a subscriber no mod code can
/// run during the move (so no subscription can appear before it ends), and the copy with those
/// guards compiled out runs: one test for the whole move instead of one per site.
#[inline(always)]
pub(crate) fn execute_move<R: BattleRng>(b: &mut Battle<R>, rt: &Runtime, a: Side) -> MoveEnd {
    #[cfg(feature = "hook-sites")]
    if rt.wants_any(&EXECUTOR_SITES) {
        return execute_move_live(b, rt, a);
    }
    b.execute_move::<false>(rt, a)
}

/// The executor with every site guarded, and `battle.status_inflicted`: a side whose status
/// went from none to a status during the move.
#[cfg(feature = "hook-sites")]
#[inline(never)]
fn execute_move_live<R: BattleRng>(b: &mut Battle<R>, rt: &Runtime, a: Side) -> MoveEnd {
    let watch = rt
        .wants_event::<live::BattleStatusInflicted>()
        .then(|| [b.status(Side::Player), b.status(Side::Enemy)]);
    let end = b.execute_move::<true>(rt, a);
    if let Some(before) = watch {
        status_inflicted_emit(b, rt, before);
    }
    end
}

#[cfg(feature = "hook-sites")]
#[cold]
#[inline(never)]
fn status_inflicted_emit<R: BattleRng>(b: &Battle<R>, rt: &Runtime, before: [Status; 2]) {
    for s in [Side::Player, Side::Enemy] {
        let now = b.status(s);
        if before[s.idx()] == Status::None && now != Status::None {
            rt.emit::<live::events::BattleStatusInflicted>(live::BattleStatusInflictedPayload {
                battle: base::info(b),
                target: base::snapshot(b, s),
                status: now.code().to_owned(),
            });
        }
    }
}

/// `battle.battler_switched`, after `side`'s send-out of party `slot` (`from`: the slot it
/// replaced on a switch).
#[inline(always)]
pub(crate) fn battler_switched<R: BattleRng>(
    b: &Battle<R>,
    rt: &Runtime,
    side: Side,
    from: Option<u8>,
) {
    #[cfg(feature = "hook-sites")]
    if rt.wants_event::<live::BattleBattlerSwitched>() {
        battler_switched_emit(b, rt, side, from);
    }
    let _ = (b, rt, side, from);
}

#[cfg(feature = "hook-sites")]
#[cold]
#[inline(never)]
fn battler_switched_emit<R: BattleRng>(b: &Battle<R>, rt: &Runtime, side: Side, from: Option<u8>) {
    rt.emit::<live::events::BattleBattlerSwitched>(live::BattleBattlerSwitchedPayload {
        battle: base::info(b),
        side: base::side(side),
        battler: base::snapshot(b, side),
        slot: b.sides[side.idx()].active,
        from_slot: from,
    });
}

/// `battle.ball_thrown`, after the capture roll.
#[inline(always)]
pub(crate) fn ball_thrown<R: BattleRng>(
    b: &Battle<R>,
    rt: &Runtime,
    ball: &'static str,
    caught: bool,
    shakes: u8,
) {
    #[cfg(feature = "hook-sites")]
    if rt.wants_event::<live::BattleBallThrown>() {
        ball_thrown_emit(b, rt, ball, caught, shakes);
    }
    let _ = (b, rt, ball, caught, shakes);
}

#[cfg(feature = "hook-sites")]
#[cold]
#[inline(never)]
fn ball_thrown_emit<R: BattleRng>(
    b: &Battle<R>,
    rt: &Runtime,
    ball: &'static str,
    caught: bool,
    shakes: u8,
) {
    rt.emit::<live::events::BattleBallThrown>(live::BattleBallThrownPayload {
        battle: base::info(b),
        ball: ball.to_owned(),
        caught,
        shakes,
    });
}

/// `battle.exp_gained`, after party `slot` received `amount` EXP (before its level-ups).
#[inline(always)]
pub(crate) fn exp_gained<R: BattleRng>(b: &Battle<R>, rt: &Runtime, slot: u8, amount: u32) {
    #[cfg(feature = "hook-sites")]
    if rt.wants_event::<live::BattleExpGained>() {
        exp_gained_emit(b, rt, slot, amount);
    }
    let _ = (b, rt, slot, amount);
}

#[cfg(feature = "hook-sites")]
#[cold]
#[inline(never)]
fn exp_gained_emit<R: BattleRng>(b: &Battle<R>, rt: &Runtime, slot: u8, amount: u32) {
    if let Some(mon) = b.sides[Side::Player.idx()].party.get(usize::from(slot)) {
        rt.emit::<live::events::BattleExpGained>(live::BattleExpGainedPayload {
            battle: base::info(b),
            mon: base::mon_record(b, mon),
            slot,
            amount,
        });
    }
}

/// `pokemon.move_learned`: party `slot` now knows `mv` (`forgot`: the move it replaced).
#[inline(always)]
pub(crate) fn move_learned<R: BattleRng>(
    b: &Battle<R>,
    rt: &Runtime,
    slot: u8,
    mv: crate::data::MoveId,
    forgot: Option<crate::data::MoveId>,
) {
    #[cfg(feature = "hook-sites")]
    if rt.wants_event::<live::PokemonMoveLearned>() {
        move_learned_emit(b, rt, slot, mv, forgot);
    }
    let _ = (b, rt, slot, mv, forgot);
}

#[cfg(feature = "hook-sites")]
#[cold]
#[inline(never)]
fn move_learned_emit<R: BattleRng>(
    b: &Battle<R>,
    rt: &Runtime,
    slot: u8,
    mv: crate::data::MoveId,
    forgot: Option<crate::data::MoveId>,
) {
    let Some(mon) = b.sides[Side::Player.idx()].party.get(usize::from(slot)) else {
        return;
    };
    if !mon.moves.contains(&Some(mv)) {
        return;
    }
    let name = |m: crate::data::MoveId| b.data.get_move(m).map(|d| d.id.to_string());
    rt.emit::<live::events::PokemonMoveLearned>(live::PokemonMoveLearnedPayload {
        mon: base::mon_record(b, mon),
        move_id: name(mv).unwrap_or_default(),
        forgot: forgot.and_then(name),
    });
}
