//! The Gen 1 catch roll (`ItemUseBall`): ball ranges, status bonuses, the HP factor and the
//! wobble count, drawing random bytes in the cartridge's order.

use crate::pokemon::Status;

use super::super::source::BattleRng;
pub use super::super::state::Ball;

// ----- the catch roll ------------------------------------------------------------------------

impl Ball {
    pub const ALL: [Ball; 5] = [
        Ball::Poke,
        Ball::Great,
        Ball::Ultra,
        Ball::Safari,
        Ball::Master,
    ];

    /// Item id as in the item table (`"POKE_BALL"`).
    pub fn item_id(self) -> &'static str {
        match self {
            Ball::Poke => "POKE_BALL",
            Ball::Great => "GREAT_BALL",
            Ball::Ultra => "ULTRA_BALL",
            Ball::Safari => "SAFARI_BALL",
            Ball::Master => "MASTER_BALL",
        }
    }

    pub fn from_item_id(id: &str) -> Option<Ball> {
        Ball::ALL.into_iter().find(|b| b.item_id() == id)
    }

    /// Highest acceptable first random number (`Rand1`): Poké 255, Great 200, Ultra/Safari 150.
    fn rand1_max(self) -> u8 {
        match self {
            Ball::Poke | Ball::Master => 255,
            Ball::Great => 200,
            Ball::Ultra | Ball::Safari => 150,
        }
    }

    /// Divisor of `MaxHP * 255`: 8 for the Great Ball, 12 for the others.
    fn hp_factor(self) -> u32 {
        if self == Ball::Great {
            8
        } else {
            12
        }
    }

    /// Divisor of `CatchRate * 100` in the wobble count: Poké 255, Great 200, others 150.
    fn shake_factor(self) -> u32 {
        match self {
            Ball::Poke => 255,
            Ball::Great => 200,
            _ => 150,
        }
    }
}

/// How the target's status affects the catch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CatchStatus {
    None,
    /// Sleep or freeze: 25 off `Rand1`, 10 added to the wobble score.
    SleepOrFreeze,
    /// Paralysis, burn or poison: 12 off `Rand1`, 5 added to the wobble score.
    Other,
}

impl CatchStatus {
    pub fn of(status: Status) -> CatchStatus {
        match status {
            Status::None => CatchStatus::None,
            Status::Sleep(_) | Status::Freeze => CatchStatus::SleepOrFreeze,
            Status::Poison | Status::Burn | Status::Paralysis => CatchStatus::Other,
        }
    }

    fn rand1_bonus(self) -> u8 {
        match self {
            CatchStatus::None => 0,
            CatchStatus::SleepOrFreeze => 25,
            CatchStatus::Other => 12,
        }
    }

    fn shake_bonus(self) -> u32 {
        match self {
            CatchStatus::None => 0,
            CatchStatus::SleepOrFreeze => 10,
            CatchStatus::Other => 5,
        }
    }
}

/// Inputs of one throw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CatchInput {
    pub ball: Ball,
    pub catch_rate: u8,
    pub hp: u16,
    pub max_hp: u16,
    pub status: CatchStatus,
}

/// Result of one throw: caught, or the wobbles shown before the mon broke out (0 means the
/// ball missed: "You missed the POKéMON!").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CatchRoll {
    pub caught: bool,
    /// 0..=3; a successful catch shows three.
    pub shakes: u8,
}

/// The cartridge's `ItemUseBall` computation, random bytes drawn in the same order:
///
/// 1. `Rand1`: one byte, drawn again while above the ball's range (Great ≤ 200, Ultra/Safari
///    ≤ 150). The Master Ball draws this byte too and then always catches.
/// 2. A status subtracts 25 (sleep/freeze) or 12 (others) from `Rand1`; a borrow catches.
/// 3. `W = (MaxHP * 255 / BallFactor) / max(HP / 4, 1)` with BallFactor 8 (Great) or 12; the
///    `HP / 4` quotient keeps only its low byte, as the cartridge does; `X = min(W, 255)`.
/// 4. `Rand1 - Status > CatchRate` fails. Otherwise `W > 255` catches, else a second byte
///    `Rand2` catches when `Rand2 <= X`.
/// 5. A failure computes the wobbles: `Y = CatchRate * 100 / BallFactor2` (255/200/150),
///    `Z = X * Y / 255 + Status2` (10 sleep/freeze, 5 others); `Z < 10` → 0, `< 30` → 1,
///    `< 70` → 2, else 3.
pub fn roll_catch<R: BattleRng + ?Sized>(input: &CatchInput, rng: &mut R) -> CatchRoll {
    const CAUGHT: CatchRoll = CatchRoll {
        caught: true,
        shakes: 3,
    };
    let mut rand1 = rng.byte();
    if input.ball == Ball::Master {
        return CAUGHT;
    }
    let max = input.ball.rand1_max();
    while rand1 > max {
        rand1 = rng.byte();
    }
    let Some(r) = rand1.checked_sub(input.status.rand1_bonus()) else {
        return CAUGHT;
    };
    let quarter = u32::from((input.hp >> 2) & 0xFF);
    let w = (u32::from(input.max_hp) * 255 / input.ball.hp_factor()) / quarter.max(1);
    let x = w.min(255);
    let caught = if r > input.catch_rate {
        false
    } else if w > 255 {
        true
    } else {
        u32::from(rng.byte()) <= x
    };
    if caught {
        return CAUGHT;
    }
    let y = u32::from(input.catch_rate) * 100 / input.ball.shake_factor();
    let z = x * y / 255 + input.status.shake_bonus();
    let shakes = match z {
        0..=9 => 0,
        10..=29 => 1,
        30..=69 => 2,
        _ => 3,
    };
    CatchRoll {
        caught: false,
        shakes,
    }
}
