//! Shared fixtures for the criterion benches in `benches/benches/`.

use pallet_api::catalog::common::{BattleInfo, BattlerSnapshot, MoveInfo, Side};
use pallet_api::catalog::hooks;
use pallet_api::Value;

/// `battle.crit` arguments: a full-HP PIKACHU using `move_info` (~20 values in all).
pub fn crit_args(move_info: MoveInfo) -> hooks::BattleCritArgs {
    hooks::BattleCritArgs {
        ctx: hooks::CritContext {
            battle: BattleInfo::default(),
            user: BattlerSnapshot {
                side: Side::Player,
                name: "PIKACHU".into(),
                hp: 35,
                max_hp: 35,
                types: vec!["ELECTRIC".into()],
                vanished: false,
            },
            move_info,
        },
    }
}

/// `exp.gain` arguments: a level-12 wild win with one participant (a 6-field context, two of
/// the fields nil).
pub fn exp_args() -> hooks::ExpGainArgs {
    hooks::ExpGainArgs {
        ctx: hooks::ExpGainContext {
            defeated_def: Value::Nil,
            level: 12,
            is_trainer: false,
            participants: 1,
            traded: false,
            mon: Value::Nil,
        },
    }
}

/// The call count of a bench's count mode (`<VAR>=N`: run one case N times without criterion,
/// for instruction counts under callgrind), if the variable is set to a number.
pub fn count_requested(var: &str) -> Option<u64> {
    std::env::var(var).ok().and_then(|v| v.parse().ok())
}
