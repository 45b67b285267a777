//! The battle rule hook sites of the Lua engine's catalog (issue 17): `battle.turn_order`,
//! `battle.run`, `battle.enemy_action`, `battle.style`, `battle.charge_required`.
//!
//! Each is `if rt.wants_hook::<H>() { build args; rt.call::<H>(args, vanilla) } else vanilla`,
//! the subscribed branch out of line; the vanilla routines are the cartridge's and draw their
//! random bytes only when they run.

use pallet_api::Runtime;

use super::{Action, Battle, BattleRng, BattleStyle, Side};

#[cfg(feature = "hook-sites")]
use super::sites::live_pub as base;
#[cfg(feature = "hook-sites")]
use pallet_api::catalog::hooks;

/// `battle.turn_order`: who moves first. Vanilla is [`Battle::first_mover`].
#[inline(always)]
pub(crate) fn turn_order<R: BattleRng>(b: &mut Battle<R>, rt: &Runtime) -> Side {
    #[cfg(feature = "hook-sites")]
    if rt.wants_hook::<hooks::BattleTurnOrder>() {
        return turn_order_hooked(b, rt);
    }
    let _ = rt;
    b.first_mover()
}

#[cfg(feature = "hook-sites")]
#[cold]
#[inline(never)]
fn turn_order_hooked<R: BattleRng>(b: &mut Battle<R>, rt: &Runtime) -> Side {
    let selected = |b: &Battle<R>, s: Side| {
        let st = &b.sides[s.idx()];
        if st.acted_outside_moves {
            return None;
        }
        let id = b.bat(s).selected?;
        let m = b.data.get_move(id)?;
        Some(pallet_api::catalog::common::MoveInfo {
            id: m.id.to_string(),
            move_type: m.ty.id().to_string(),
            power: m.power,
            accuracy: m.accuracy,
        })
    };
    let args = hooks::BattleTurnOrderArgs {
        player: base::snapshot(b, Side::Player),
        player_move: selected(b, Side::Player),
        enemy: base::snapshot(b, Side::Enemy),
        enemy_move: selected(b, Side::Enemy),
        ctx: hooks::TurnOrderContext {
            battle: base::info(b),
        },
    };
    let first = rt.call::<hooks::BattleTurnOrder>(args, |_| base::side(b.first_mover()));
    match first {
        pallet_api::catalog::common::Side::Player => Side::Player,
        pallet_api::catalog::common::Side::Enemy => Side::Enemy,
    }
}

/// `battle.run`: does this escape attempt succeed (wild battles only)? Vanilla is the
/// cartridge's escape formula ([`Battle::escape_roll`]).
#[inline]
pub(crate) fn run<R: BattleRng>(b: &mut Battle<R>, rt: &Runtime, use_next_prompt: bool) -> bool {
    #[cfg(feature = "hook-sites")]
    if rt.wants_hook::<hooks::BattleRun>() {
        let (player_speed, enemy_speed) = b.escape_speeds(use_next_prompt);
        let args = hooks::BattleRunArgs {
            ctx: hooks::RunContext {
                battle: base::info(b),
                attempts: b.run_attempts,
                player_speed,
                enemy_speed,
            },
        };
        return rt.call::<hooks::BattleRun>(args, |_| b.escape_roll(use_next_prompt));
    }
    let _ = rt;
    b.escape_roll(use_next_prompt)
}

#[cfg(feature = "hook-sites")]
fn api_action(a: Action) -> Option<hooks::EnemyAction> {
    let (kind, slot) = match a {
        Action::Move(i) => ("move", i),
        Action::Switch(i) => ("switch", i),
        Action::Struggle => ("struggle", 0),
        Action::Continue => ("continue", 0),
        Action::Item(_) | Action::Run => return None,
    };
    Some(hooks::EnemyAction {
        kind: kind.to_owned(),
        slot,
    })
}

#[cfg(feature = "hook-sites")]
fn engine_action(a: &hooks::EnemyAction) -> Option<Action> {
    Some(match a.kind.as_str() {
        "move" => Action::Move(a.slot),
        "switch" => Action::Switch(a.slot),
        "struggle" => Action::Struggle,
        "continue" => Action::Continue,
        _ => return None,
    })
}

impl<R: BattleRng> Battle<R> {
    /// The enemy's choice for the current prompt through the guarded `battle.enemy_action`
    /// site: vanilla is [`Battle::select_enemy_move`]; an answer that is not a legal enemy
    /// action is refused (reported on the runtime's feed) and vanilla's choice stands.
    pub fn select_enemy_action(&mut self, rt: &Runtime) -> Action {
        #[cfg(feature = "hook-sites")]
        if rt.wants_hook::<hooks::BattleEnemyAction>() {
            return self.enemy_action_hooked(rt);
        }
        let _ = rt;
        self.select_enemy_move()
    }

    #[cfg(feature = "hook-sites")]
    #[cold]
    #[inline(never)]
    fn enemy_action_hooked(&mut self, rt: &Runtime) -> Action {
        let mut legal = smallvec::SmallVec::new();
        self.legal_actions(Side::Enemy, &mut legal);
        let moves = self.sides[Side::Enemy.idx()]
            .mon()
            .moves
            .iter()
            .map(|m| {
                m.and_then(|id| self.data.get_move(id))
                    .map(|d| d.id.to_string())
                    .unwrap_or_default()
            })
            .collect();
        let args = hooks::BattleEnemyActionArgs {
            battle: base::info(self),
            ctx: hooks::EnemyActionContext {
                enemy: base::snapshot(self, Side::Enemy),
                player: base::snapshot(self, Side::Player),
                moves,
                legal: legal.iter().copied().filter_map(api_action).collect(),
            },
        };
        let mut vanilla = None;
        let answer = rt.call::<hooks::BattleEnemyAction>(args, |_| {
            let a = self.select_enemy_move();
            vanilla = Some(a);
            api_action(a).unwrap_or(hooks::EnemyAction {
                kind: "continue".to_owned(),
                slot: 0,
            })
        });
        match engine_action(&answer) {
            Some(a) if self.is_legal(Side::Enemy, a) => a,
            _ => {
                rt.log(
                    pallet_api::Level::Warn,
                    None,
                    format!(
                        "battle.enemy_action: refused {} {} (not a legal enemy action); \
                         the cartridge's choice stands",
                        answer.kind, answer.slot
                    ),
                );
                match vanilla {
                    Some(a) => a,
                    None => self.select_enemy_move(),
                }
            }
        }
    }
}

/// `battle.style`: is the SHIFT prompt offered? Vanilla is the battle's style.
#[inline]
pub(crate) fn style<R: BattleRng>(b: &Battle<R>, rt: &Runtime) -> BattleStyle {
    #[cfg(feature = "hook-sites")]
    if rt.wants_hook::<hooks::BattleStyle>() {
        let args = hooks::BattleStyleArgs {
            battle: base::info(b),
        };
        let vanilla = match b.style {
            BattleStyle::Shift => hooks::BattleStyleName::Shift,
            BattleStyle::Set => hooks::BattleStyleName::Set,
        };
        return match rt.call::<hooks::BattleStyle>(args, |_| vanilla) {
            hooks::BattleStyleName::Shift => BattleStyle::Shift,
            hooks::BattleStyleName::Set => BattleStyle::Set,
        };
    }
    let _ = rt;
    b.style
}

/// `battle.charge_required`: must this charge move spend its charging turn? Vanilla `true`.
/// Called only for the charge effects (`Charge`, `Fly`).
#[inline]
pub(crate) fn charge_required<const LIVE: bool, R: BattleRng>(
    b: &Battle<R>,
    rt: &Runtime,
    a: Side,
) -> bool {
    #[cfg(feature = "hook-sites")]
    if LIVE && rt.wants_hook::<hooks::BattleChargeRequired>() {
        let args = hooks::BattleChargeRequiredArgs {
            battle: base::info(b),
            ctx: hooks::ChargeContext {
                user: base::snapshot(b, a),
                move_info: base::move_info(b, a),
            },
        };
        return rt.call::<hooks::BattleChargeRequired>(args, |_| true);
    }
    let _ = (b, rt, a);
    true
}
