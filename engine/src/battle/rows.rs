//! The presentation queue: ordered rows a front end plays (text, HP drain, sound, faint, send-out).
//!
//! Rows are small `Copy` values that name things by id (side, party slot, move, species);
//! nothing is formatted while a battle runs. [`Msg::render`] produces the cartridge-style text
//! lazily, when a front end drains the queue and wants words.

use std::fmt::Write as _;

use crate::data::{Dataset, MoveId, SpeciesId, Type};

use super::Side;
use crate::items::ItemMsg;

pub mod capture;

pub use capture::{CaptureMsg, CaptureRow};

/// A battler named by side and party slot (the mon's name is looked up at render time).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Who {
    pub side: Side,
    pub slot: u8,
}

/// One of the battle stats a move can raise or lower.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StatKind {
    Attack,
    Defense,
    Speed,
    Special,
    Accuracy,
    Evasion,
}

impl StatKind {
    pub const ALL: [StatKind; 6] = [
        StatKind::Attack,
        StatKind::Defense,
        StatKind::Speed,
        StatKind::Special,
        StatKind::Accuracy,
        StatKind::Evasion,
    ];

    pub fn name(self) -> &'static str {
        match self {
            StatKind::Attack => "ATTACK",
            StatKind::Defense => "DEFENSE",
            StatKind::Speed => "SPEED",
            StatKind::Special => "SPECIAL",
            StatKind::Accuracy => "ACCURACY",
            StatKind::Evasion => "EVADE",
        }
    }
}

/// Which text a two-turn move prints on its first turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChargeText {
    MadeWhirlwind,
    TookInSunlight,
    LoweredHead,
    SkyAttackGlow,
    FlewUpHigh,
    DugHole,
}

/// A battle message, formatted lazily by [`Msg::render`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Msg {
    WildAppeared {
        mon: Who,
    },
    TrainerWantsToFight,
    SentOut {
        mon: Who,
    },
    Withdrew {
        mon: Who,
    },
    Used {
        mon: Who,
        mv: MoveId,
    },
    Missed {
        mon: Who,
    },
    DoesntAffect {
        target: Who,
    },
    Unaffected {
        target: Who,
    },
    Crit,
    Ohko,
    SuperEffective,
    NotVeryEffective,
    HitTimes {
        hits: u8,
    },
    Fainted {
        mon: Who,
    },
    FastAsleep {
        mon: Who,
    },
    WokeUp {
        mon: Who,
    },
    Frozen {
        mon: Who,
    },
    FullyParalyzed {
        mon: Who,
    },
    Flinched {
        mon: Who,
    },
    MustRecharge {
        mon: Who,
    },
    DisabledNoMore {
        mon: Who,
    },
    IsConfused {
        mon: Who,
    },
    ConfusedNoMore {
        mon: Who,
    },
    HurtItself,
    MoveIsDisabled {
        mv: MoveId,
    },
    CantMove {
        mon: Who,
    },
    ThrashingAbout {
        mon: Who,
    },
    AttackContinues {
        mon: Who,
    },
    UnleashedEnergy {
        mon: Who,
    },
    HurtByPoison {
        mon: Who,
    },
    HurtByBurn {
        mon: Who,
    },
    LeechSeedSaps {
        mon: Who,
    },
    FellAsleep {
        mon: Who,
    },
    AlreadyAsleep {
        mon: Who,
    },
    Poisoned {
        mon: Who,
    },
    BadlyPoisoned {
        mon: Who,
    },
    Burned {
        mon: Who,
    },
    FrozenSolid {
        mon: Who,
    },
    Paralyzed {
        mon: Who,
    },
    Defrosted {
        mon: Who,
    },
    BecameConfused {
        mon: Who,
    },
    AlreadyConfused {
        mon: Who,
    },
    StatRose {
        mon: Who,
        stat: StatKind,
        sharply: bool,
    },
    StatFell {
        mon: Who,
        stat: StatKind,
        sharply: bool,
    },
    NothingHappened,
    Failed,
    DidntAffect {
        target: Who,
    },
    MadeSubstitute {
        mon: Who,
    },
    HasSubstitute {
        mon: Who,
    },
    TooWeakForSubstitute,
    SubstituteTookDamage {
        mon: Who,
    },
    SubstituteBroke {
        mon: Who,
    },
    GainedArmor {
        mon: Who,
    },
    LightScreenUp {
        mon: Who,
    },
    ShroudedInMist {
        mon: Who,
    },
    GettingPumped {
        mon: Who,
    },
    StatusChangesEliminated,
    RegainedHealth {
        mon: Who,
    },
    StartedSleeping {
        mon: Who,
    },
    FellAsleepHealthy {
        mon: Who,
    },
    TransformedInto {
        mon: Who,
        species: SpeciesId,
    },
    ConvertedType {
        target: Who,
    },
    LearnedMimic {
        mon: Who,
        mv: MoveId,
    },
    MoveDisabled {
        target: Who,
        mv: MoveId,
    },
    Seeded {
        target: Who,
    },
    EvadedAttack {
        target: Who,
    },
    Charging {
        mon: Who,
        text: ChargeText,
    },
    CoinsScattered,
    NoEffect,
    RanAwayScared {
        mon: Who,
    },
    BlownAway {
        mon: Who,
    },
    FledFromBattle {
        mon: Who,
    },
    RageBuilding {
        mon: Who,
    },
    KeptGoingAndCrashed {
        mon: Who,
    },
    HitWithRecoil {
        mon: Who,
    },
    SuckedHealth {
        target: Who,
    },
    DreamEaten {
        target: Who,
    },
    MirrorMoveFailed,
    GotAway,
    CantEscape,
    NoRunning,
    UseNextMon,
    OutOfUsableMons,
    BlackedOut,
    TrainerDefeated,
    PickedUpMoney {
        amount: u32,
    },
    GainedExp {
        mon: Who,
        amount: u32,
        boosted: bool,
    },
    GrewToLevel {
        mon: Who,
        level: u8,
    },
    LearnedMove {
        mon: Who,
        mv: MoveId,
    },
    TryingToLearn {
        mon: Who,
        mv: MoveId,
    },
    DidNotLearn {
        mon: Who,
        mv: MoveId,
    },
    /// "1, 2 and..." (the move-forgetting countdown; a [`Sound::Swap`] follows).
    OneTwoAnd,
    /// "Poof! X forgot Y! And..." (the learned move's text follows).
    ForgotMove {
        mon: Who,
        mv: MoveId,
    },
    TrainerAboutToUse {
        mon: Who,
    },
    /// A message from outside the core mechanics (RFC 0016 residual rows), stored by index in
    /// the battle's side table of mod strings.
    ModText {
        index: u16,
    },
    ItemNoEffect,
    /// A bag item's text (Potions, status heals, Revive; see `bag`).
    Item(ItemText),
    /// Texts of the capture path (see `capture`).
    Capture(CaptureMsg),
}

/// Sound cues.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sound {
    Cry(SpeciesId),
    FaintFall,
    FaintThud,
    VictoryWild,
    VictoryTrainer,
    Run,
    LevelUp,
    /// `SFX_SWAP`: a forgotten move's "Poof!".
    Swap,
}

/// One presentation row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Row {
    Text(Msg),
    /// The HP bar of `side`'s active mon moves from `from` to `to` (of `max`).
    HpDrain {
        side: Side,
        from: u16,
        to: u16,
        max: u16,
    },
    Sound(Sound),
    /// The active mon of `side` faints (slide-down).
    Faint(Side),
    SendOut(Who),
    Withdraw(Who),
    /// A move's animation would play here.
    MoveAnim {
        side: Side,
        mv: MoveId,
    },
    /// Capture rows without words (ball wobbles, Pokédex entry; see `capture`).
    Capture(CaptureRow),
}

/// What rendering needs from its surroundings: names and the dataset.
pub trait Names {
    fn data(&self) -> &Dataset;
    /// Display name of a party mon (nickname or species name), without the "Enemy " prefix.
    fn mon_name(&self, side: Side, slot: u8) -> &str;
    fn player_name(&self) -> &str;
    fn trainer_name(&self) -> &str;
    /// Mod-supplied strings (see [`Msg::ModText`]).
    fn mod_text(&self, index: u16) -> &str;
}

fn who<N: Names + ?Sized>(n: &N, w: Who) -> String {
    match w.side {
        Side::Player => n.mon_name(w.side, w.slot).to_string(),
        Side::Enemy => format!("Enemy {}", n.mon_name(w.side, w.slot)),
    }
}

fn move_name(data: &Dataset, mv: MoveId) -> &str {
    data.get_move(mv).map(|m| m.name).unwrap_or("?")
}

fn species_name(data: &Dataset, s: SpeciesId) -> &str {
    data.get_species(s).map(|s| s.name).unwrap_or("?")
}

/// Name of a type as the battle screen prints it.
pub fn type_name(t: Type) -> &'static str {
    t.id()
}

impl Msg {
    /// The message as the cartridge would print it (line breaks flattened to spaces).
    pub fn render<N: Names + ?Sized>(&self, n: &N) -> String {
        let d = n.data();
        let mut s = String::new();
        // `write!` to a String cannot fail; the results are ignored on purpose.
        let _ = match *self {
            Msg::WildAppeared { mon } => {
                write!(s, "Wild {} appeared!", n.mon_name(mon.side, mon.slot))
            }
            Msg::TrainerWantsToFight => write!(s, "{} wants to fight!", n.trainer_name()),
            Msg::SentOut { mon } => match mon.side {
                Side::Player => write!(s, "Go! {}!", n.mon_name(mon.side, mon.slot)),
                Side::Enemy => write!(
                    s,
                    "{} sent out {}!",
                    n.trainer_name(),
                    n.mon_name(mon.side, mon.slot)
                ),
            },
            Msg::Withdrew { mon } => match mon.side {
                Side::Player => write!(s, "{} enough! Come back!", n.mon_name(mon.side, mon.slot)),
                Side::Enemy => write!(
                    s,
                    "{} withdrew {}!",
                    n.trainer_name(),
                    n.mon_name(mon.side, mon.slot)
                ),
            },
            Msg::Used { mon, mv } => write!(s, "{} used {}!", who(n, mon), move_name(d, mv)),
            Msg::Missed { mon } => write!(s, "{}'s attack missed!", who(n, mon)),
            Msg::DoesntAffect { target } => write!(s, "It doesn't affect {}!", who(n, target)),
            Msg::Unaffected { target } => write!(s, "{} is unaffected!", who(n, target)),
            Msg::Crit => write!(s, "Critical hit!"),
            Msg::Ohko => write!(s, "One-hit KO!"),
            Msg::SuperEffective => write!(s, "It's super effective!"),
            Msg::NotVeryEffective => write!(s, "It's not very effective..."),
            Msg::HitTimes { hits } => write!(s, "Hit {hits} times!"),
            Msg::Fainted { mon } => write!(s, "{} fainted!", who(n, mon)),
            Msg::FastAsleep { mon } => write!(s, "{} is fast asleep!", who(n, mon)),
            Msg::WokeUp { mon } => write!(s, "{} woke up!", who(n, mon)),
            Msg::Frozen { mon } => write!(s, "{} is frozen solid!", who(n, mon)),
            Msg::FullyParalyzed { mon } => write!(s, "{}'s fully paralyzed!", who(n, mon)),
            Msg::Flinched { mon } => write!(s, "{} flinched!", who(n, mon)),
            Msg::MustRecharge { mon } => write!(s, "{} must recharge!", who(n, mon)),
            Msg::DisabledNoMore { mon } => write!(s, "{}'s disabled no more!", who(n, mon)),
            Msg::IsConfused { mon } => write!(s, "{} is confused!", who(n, mon)),
            Msg::ConfusedNoMore { mon } => write!(s, "{}'s confused no more!", who(n, mon)),
            Msg::HurtItself => write!(s, "It hurt itself in its confusion!"),
            Msg::MoveIsDisabled { mv } => write!(s, "{} is disabled!", move_name(d, mv)),
            Msg::CantMove { mon } => write!(s, "{} can't move!", who(n, mon)),
            Msg::ThrashingAbout { mon } => write!(s, "{}'s thrashing about!", who(n, mon)),
            Msg::AttackContinues { mon } => write!(s, "{}'s attack continues!", who(n, mon)),
            Msg::UnleashedEnergy { mon } => write!(s, "{} unleashed energy!", who(n, mon)),
            Msg::HurtByPoison { mon } => write!(s, "{}'s hurt by poison!", who(n, mon)),
            Msg::HurtByBurn { mon } => write!(s, "{}'s hurt by the burn!", who(n, mon)),
            Msg::LeechSeedSaps { mon } => write!(s, "LEECH SEED saps {}!", who(n, mon)),
            Msg::FellAsleep { mon } => write!(s, "{} fell asleep!", who(n, mon)),
            Msg::AlreadyAsleep { mon } => write!(s, "{}'s already asleep!", who(n, mon)),
            Msg::Poisoned { mon } => write!(s, "{} was poisoned!", who(n, mon)),
            Msg::BadlyPoisoned { mon } => write!(s, "{}'s badly poisoned!", who(n, mon)),
            Msg::Burned { mon } => write!(s, "{} was burned!", who(n, mon)),
            Msg::FrozenSolid { mon } => write!(s, "{} was frozen solid!", who(n, mon)),
            Msg::Paralyzed { mon } => write!(s, "{}'s paralyzed! It may not attack!", who(n, mon)),
            Msg::Defrosted { mon } => write!(s, "{} was defrosted!", who(n, mon)),
            Msg::BecameConfused { mon } => write!(s, "{} became confused!", who(n, mon)),
            Msg::AlreadyConfused { mon } => write!(s, "{}'s already confused!", who(n, mon)),
            Msg::StatRose { mon, stat, sharply } => {
                write!(
                    s,
                    "{}'s {} {}rose!",
                    who(n, mon),
                    stat.name(),
                    if sharply { "greatly " } else { "" }
                )
            }
            Msg::StatFell { mon, stat, sharply } => {
                write!(
                    s,
                    "{}'s {} {}fell!",
                    who(n, mon),
                    stat.name(),
                    if sharply { "greatly " } else { "" }
                )
            }
            Msg::NothingHappened => write!(s, "Nothing happened!"),
            Msg::Failed => write!(s, "But, it failed!"),
            Msg::DidntAffect { target } => write!(s, "It didn't affect {}!", who(n, target)),
            Msg::MadeSubstitute { .. } => write!(s, "It created a SUBSTITUTE!"),
            Msg::HasSubstitute { mon } => write!(s, "{} has a SUBSTITUTE!", who(n, mon)),
            Msg::TooWeakForSubstitute => write!(s, "Too weak to make a SUBSTITUTE!"),
            Msg::SubstituteTookDamage { mon } => {
                write!(s, "The SUBSTITUTE took damage for {}!", who(n, mon))
            }
            Msg::SubstituteBroke { mon } => write!(s, "{}'s SUBSTITUTE broke!", who(n, mon)),
            Msg::GainedArmor { mon } => write!(s, "{} gained armor!", who(n, mon)),
            Msg::LightScreenUp { mon } => {
                write!(s, "{}'s protected against special attacks!", who(n, mon))
            }
            Msg::ShroudedInMist { mon } => write!(s, "{}'s shrouded in mist!", who(n, mon)),
            Msg::GettingPumped { mon } => write!(s, "{}'s getting pumped!", who(n, mon)),
            Msg::StatusChangesEliminated => write!(s, "All STATUS changes are eliminated!"),
            Msg::RegainedHealth { mon } => write!(s, "{} regained health!", who(n, mon)),
            Msg::StartedSleeping { mon } => write!(s, "{} started sleeping!", who(n, mon)),
            Msg::FellAsleepHealthy { mon } => {
                write!(s, "{} fell asleep and became healthy!", who(n, mon))
            }
            Msg::TransformedInto { mon, species } => {
                write!(
                    s,
                    "{} transformed into {}!",
                    who(n, mon),
                    species_name(d, species)
                )
            }
            Msg::ConvertedType { target } => write!(s, "Converted type to {}'s!", who(n, target)),
            Msg::LearnedMimic { mon, mv } => {
                write!(s, "{} learned {}!", who(n, mon), move_name(d, mv))
            }
            Msg::MoveDisabled { target, mv } => {
                write!(s, "{}'s {} was disabled!", who(n, target), move_name(d, mv))
            }
            Msg::Seeded { target } => write!(s, "{} was seeded!", who(n, target)),
            Msg::EvadedAttack { target } => write!(s, "{} evaded attack!", who(n, target)),
            Msg::Charging { mon, text } => match text {
                ChargeText::MadeWhirlwind => write!(s, "{} made a whirlwind!", who(n, mon)),
                ChargeText::TookInSunlight => write!(s, "{} took in sunlight!", who(n, mon)),
                ChargeText::LoweredHead => write!(s, "{} lowered its head!", who(n, mon)),
                ChargeText::SkyAttackGlow => write!(s, "{} is glowing!", who(n, mon)),
                ChargeText::FlewUpHigh => write!(s, "{} flew up high!", who(n, mon)),
                ChargeText::DugHole => write!(s, "{} dug a hole!", who(n, mon)),
            },
            Msg::CoinsScattered => write!(s, "Coins scattered everywhere!"),
            Msg::NoEffect => write!(s, "No effect!"),
            Msg::RanAwayScared { mon } => write!(s, "{} ran away scared!", who(n, mon)),
            Msg::BlownAway { mon } => write!(s, "{} was blown away!", who(n, mon)),
            Msg::FledFromBattle { mon } => write!(s, "{} fled from battle!", who(n, mon)),
            Msg::RageBuilding { mon } => write!(s, "{}'s RAGE is building!", who(n, mon)),
            Msg::KeptGoingAndCrashed { mon } => {
                write!(s, "{} kept going and crashed!", who(n, mon))
            }
            Msg::HitWithRecoil { mon } => write!(s, "{}'s hit with recoil!", who(n, mon)),
            Msg::SuckedHealth { target } => write!(s, "Sucked health from {}!", who(n, target)),
            Msg::DreamEaten { target } => write!(s, "{}'s dream was eaten!", who(n, target)),
            Msg::MirrorMoveFailed => write!(s, "The MIRROR MOVE failed!"),
            Msg::GotAway => write!(s, "Got away safely!"),
            Msg::CantEscape => write!(s, "Can't escape!"),
            Msg::NoRunning => write!(s, "No! There's no running from a trainer battle!"),
            Msg::UseNextMon => write!(s, "Use next POKéMON?"),
            Msg::OutOfUsableMons => write!(s, "{} is out of useable POKéMON!", n.player_name()),
            Msg::BlackedOut => write!(s, "{} blacked out!", n.player_name()),
            Msg::TrainerDefeated => write!(s, "{} defeated {}!", n.player_name(), n.trainer_name()),
            Msg::PickedUpMoney { amount } => write!(s, "{} picked up ¥{amount}!", n.player_name()),
            Msg::GainedExp {
                mon,
                amount,
                boosted,
            } => write!(
                s,
                "{} gained {}{amount} EXP. Points!",
                n.mon_name(mon.side, mon.slot),
                if boosted { "a boosted " } else { "" }
            ),
            Msg::GrewToLevel { mon, level } => write!(
                s,
                "{} grew to level {level}!",
                n.mon_name(mon.side, mon.slot)
            ),
            Msg::LearnedMove { mon, mv } => {
                write!(
                    s,
                    "{} learned {}!",
                    n.mon_name(mon.side, mon.slot),
                    move_name(d, mv)
                )
            }
            Msg::TryingToLearn { mon, mv } => write!(
                s,
                "{} is trying to learn {}! But, {} can't learn more than 4 moves! Delete an \
                 older move to make room for {}?",
                n.mon_name(mon.side, mon.slot),
                move_name(d, mv),
                n.mon_name(mon.side, mon.slot),
                move_name(d, mv)
            ),
            Msg::OneTwoAnd => write!(s, "1, 2 and..."),
            Msg::ForgotMove { mon, mv } => write!(
                s,
                "Poof! {} forgot {}! And...",
                n.mon_name(mon.side, mon.slot),
                move_name(d, mv)
            ),
            Msg::DidNotLearn { mon, mv } => {
                write!(
                    s,
                    "{} did not learn {}!",
                    n.mon_name(mon.side, mon.slot),
                    move_name(d, mv)
                )
            }
            Msg::TrainerAboutToUse { mon } => write!(
                s,
                "{} is about to use {}! Will {} change POKéMON?",
                n.trainer_name(),
                n.mon_name(mon.side, mon.slot),
                n.player_name()
            ),
            Msg::ModText { index } => write!(s, "{}", n.mod_text(index)),
            Msg::ItemNoEffect => write!(s, "It won't have any effect."),
            Msg::Item(t) => write!(
                s,
                "{}",
                t.msg
                    .render(n.mon_name(t.mon.side, t.mon.slot), n.player_name())
            ),
            Msg::Capture(m) => write!(s, "{}", m.render(n)),
        };
        s
    }
}

impl Row {
    /// Text for a row (None for rows without words: drains, sounds, animations).
    pub fn render<N: Names + ?Sized>(&self, n: &N) -> Option<String> {
        match self {
            Row::Text(m) => Some(m.render(n)),
            _ => None,
        }
    }
}

/// A bag item's text in battle, rendered with the target's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ItemText {
    pub mon: Who,
    pub msg: ItemMsg,
}
