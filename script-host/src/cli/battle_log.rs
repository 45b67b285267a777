//! `pallet battle --log FILE`: one battle's log in Pokémon Showdown's protocol
//! (`|switch|p1a: Tauros|Tauros, L100|353/353`, `|move|p1a: Tauros|Body Slam|p2a: Chansey`,
//! `|-damage|p2a: Chansey|450/703`, `|turn|2`, `|faint|…`, `|win|P1` / `|tie`), so the battle can
//! be read with Showdown-compatible tools.
//!
//! The battle is battle 0 of the run, played with presentation rows on by the same random
//! player as the headless batch (same draws in the same order), so its result and checksum are
//! the ones `--count 1` counts. Rows are translated as they come: the engine's rows carry the
//! facts (who used what, HP bars, faints, send-outs, status texts); HP is printed exactly
//! (`hp/max`, Showdown's omniscient view). Moves that target their user in Showdown's data
//! (`SELF_TARGET`) name the user as the `|move|` target, as Showdown does. Field and volatile
//! effects follow Showdown's Gen 1 lines (checked by `tests/battle_log_lines.rs` against
//! `@pkmn/sim`): `|-transform|`, `|-start|…|Mimic|MOVE`, `|-start|…|Disable|MOVE` /
//! `|-end|…|Disable`, `|-start|…|typechange|TYPES|[from] move: Conversion|[of] …`,
//! `|-activate|…|move: Haze` + `|-clearallboost|[silent]`, `|-start|…|Reflect` /
//! `Light Screen` / `Mist` / `move: Focus Energy`, `|-fail|USER` (none for Mist and Focus
//! Energy used again, as Showdown's Gen 1; a stat already at its limit fails on the Pokémon
//! whose stat it is), Splash's `|-nothing`, a Special stage as a `spa` and a `spd` line. A
//! miss is `|move|…|[miss]` then `|-miss|USER`, as Showdown's Gen 1 (a miss the cartridge
//! reports as "But, it failed!", e.g. Disable's, stays `|-fail|USER`).

use std::fmt::Write as _;

use pallet_api::Runtime;
use pallet_engine::battle::random::PlayOutcome;
use pallet_engine::battle::{
    Action, Battle, BattleResult, Msg, NeedsChoice, Row, Side, StatKind, Who,
};
use pallet_engine::data::{Dataset, MoveId};
use pallet_engine::rng::Rng;
use smallvec::SmallVec;

use crate::cli::calc_report::{move_name, species_name};

/// Play `battle` to the end (or `max_turns` rounds: a draw) with uniform random legal choices
/// drawn from `chooser` — the same draws as `play_random` — and return the Showdown log.
pub fn play_logged(
    data: &'static Dataset,
    battle: &mut Battle<Rng>,
    rt: &Runtime,
    chooser: &mut Rng,
    max_turns: u32,
) -> (String, PlayOutcome) {
    battle.set_record_rows(true);
    let mut log = Log::new(data, battle);
    let mut buf: SmallVec<[Action; 12]> = SmallVec::new();
    let mut announced = 0u32;
    log.flush(battle);
    let result = loop {
        if battle.needs_choice() == NeedsChoice::Finished {
            break battle.result().unwrap_or(BattleResult::Draw);
        }
        if battle.turn() >= max_turns {
            break BattleResult::Draw;
        }
        if battle.needs_choice() == NeedsChoice::Round && battle.turn() + 1 > announced {
            announced = battle.turn() + 1;
            let _ = writeln!(log.out, "|\n|turn|{announced}");
        }
        let mut pick = |side: Side, battle: &Battle<Rng>| {
            battle.legal_actions(side, &mut buf);
            match buf.len() {
                0 => Action::Continue,
                1 => buf[0],
                n => buf[chooser.below(n as u32) as usize],
            }
        };
        let a = pick(Side::Player, battle);
        let b = pick(Side::Enemy, battle);
        if battle.submit(rt, a, b).is_err() {
            break BattleResult::Draw; // unreachable: both choices came from the legal lists
        }
        log.flush(battle);
    };
    let _ = writeln!(log.out, "|");
    match result {
        BattleResult::Win => {
            let _ = writeln!(log.out, "|win|P1");
        }
        BattleResult::Lose => {
            let _ = writeln!(log.out, "|win|P2");
        }
        _ => {
            let _ = writeln!(log.out, "|tie");
        }
    }
    (
        log.out,
        PlayOutcome {
            result,
            turns: battle.turn(),
        },
    )
}

/// Gen 1 moves whose Showdown target is the user (`target: "self"` in @pkmn/dex).
const SELF_TARGET: [&str; 27] = [
    "Amnesia",
    "Bide",
    "Focus Energy",
    "Growth",
    "Haze",
    "Light Screen",
    "Metronome",
    "Minimize",
    "Mirror Move",
    "Mist",
    "Recover",
    "Reflect",
    "Rest",
    "Soft-Boiled",
    "Substitute",
    "Defense Curl",
    "Acid Armor",
    "Barrier",
    "Swords Dance",
    "Meditate",
    "Sharpen",
    "Teleport",
    "Agility",
    "Double Team",
    "Harden",
    "Splash",
    "Withdraw",
];

struct Log {
    data: &'static Dataset,
    out: String,
    /// [`SELF_TARGET`] as this dataset's move ids.
    self_target: Vec<MoveId>,
    /// The last move's user (for `|-fail|`, Conversion and Haze) and the move.
    user: Option<Who>,
    last_move: Option<MoveId>,
    /// The `Used` row being translated is followed by a miss.
    missed: bool,
    /// Mist and Focus Energy: used again, Showdown's Gen 1 prints no `|-fail|`.
    silent_fail: Vec<MoveId>,
    /// Where the next HP change comes from (`[from] psn`), set by the text before it.
    from: Option<&'static str>,
    /// The last move's user and its target (for `|-damage|` attribution and `|-crit|`).
    target: Option<Who>,
}

impl Log {
    fn new(data: &'static Dataset, battle: &Battle<Rng>) -> Log {
        let mut out = String::new();
        let _ = writeln!(out, "|player|p1|P1|");
        let _ = writeln!(out, "|player|p2|P2|");
        let _ = writeln!(out, "|teamsize|p1|{}", battle.party(Side::Player).len());
        let _ = writeln!(out, "|teamsize|p2|{}", battle.party(Side::Enemy).len());
        let _ = writeln!(out, "|gen|1");
        let mode = battle.mode().as_str();
        let _ = writeln!(out, "|tier|[Gen 1] Pallet {mode} battle");
        let _ = writeln!(out, "|\n|start");
        let mut log = Log {
            data,
            out,
            self_target: SELF_TARGET
                .iter()
                .filter_map(|n| data.move_by_name(n))
                .collect(),
            user: None,
            last_move: None,
            missed: false,
            silent_fail: ["Mist", "Focus Energy"]
                .iter()
                .filter_map(|n| data.move_by_name(n))
                .collect(),
            from: None,
            target: None,
        };
        // The opening send-outs were queued before rows were turned on: state them here.
        for side in [Side::Player, Side::Enemy] {
            if battle.party(side).iter().any(|m| m.hp > 0) {
                log.row(battle, Row::SendOut(Self::active(battle, side)));
            }
        }
        log
    }

    fn ident(&self, battle: &Battle<Rng>, w: Who) -> String {
        ident(self.data, battle, w)
    }

    fn hp(battle: &Battle<Rng>, w: Who) -> String {
        match battle.party(w.side).get(usize::from(w.slot)) {
            Some(m) if m.hp == 0 => "0 fnt".to_string(),
            Some(m) => format!("{}/{}", m.hp, m.stats.max_hp),
            None => "0 fnt".to_string(),
        }
    }

    fn active(battle: &Battle<Rng>, side: Side) -> Who {
        Who {
            side,
            slot: battle.side(side).active,
        }
    }

    /// Translate and drain the queued rows.
    fn flush(&mut self, battle: &mut Battle<Rng>) {
        let rows: Vec<Row> = battle.rows().collect();
        for (i, row) in rows.iter().enumerate() {
            // A move that misses: Showdown marks its `|move|` line `[miss]`.
            self.missed = matches!(row, Row::Text(Msg::Used { .. }))
                && rows[i + 1..]
                    .iter()
                    .find_map(|r| match r {
                        Row::Text(m) => Some(matches!(m, Msg::Missed { .. })),
                        _ => None,
                    })
                    .unwrap_or(false);
            self.row(battle, *row);
        }
    }

    fn line(&mut self, s: String) {
        self.out.push_str(&s);
        self.out.push('\n');
    }

    fn row(&mut self, battle: &Battle<Rng>, row: Row) {
        match row {
            Row::SendOut(w) => {
                let m = &battle.party(w.side)[usize::from(w.slot)];
                let details = format!("{}, L{}", species_name(self.data, m.species), m.level);
                let id = self.ident(battle, w);
                let hp = Self::hp(battle, w);
                self.line(format!("|switch|{id}|{details}|{hp}"));
            }
            Row::HpDrain { side, from, to, .. } => {
                let w = Self::active(battle, side);
                let id = self.ident(battle, w);
                let m = &battle.party(side)[usize::from(w.slot)];
                let hp = if to == 0 {
                    "0 fnt".to_string()
                } else {
                    format!("{to}/{}", m.stats.max_hp)
                };
                let kind = if to < from { "-damage" } else { "-heal" };
                let tail = self
                    .from
                    .take()
                    .map(|f| format!("|[from] {f}"))
                    .unwrap_or_default();
                self.line(format!("|{kind}|{id}|{hp}{tail}"));
            }
            Row::Faint(side) => {
                let id = self.ident(battle, Self::active(battle, side));
                self.line(format!("|faint|{id}"));
            }
            Row::Text(m) => self.msg(battle, m),
            Row::Withdraw(_) | Row::Sound(_) | Row::MoveAnim { .. } | Row::Capture(_) => {}
        }
    }

    fn msg(&mut self, battle: &Battle<Rng>, m: Msg) {
        let data = self.data;
        let id = |w: Who| ident(data, battle, w);
        let line = match m {
            Msg::Used { mon, mv } => {
                let target = Who {
                    side: mon.side.other(),
                    slot: battle.side(mon.side.other()).active,
                };
                self.target = Some(target);
                self.user = Some(mon);
                self.last_move = Some(mv);
                self.from = None;
                let shown = if self.self_target.contains(&mv) {
                    mon
                } else {
                    target
                };
                format!(
                    "|move|{}|{}|{}{}",
                    id(mon),
                    move_name(self.data, mv),
                    id(shown),
                    if self.missed { "|[miss]" } else { "" }
                )
            }
            Msg::Missed { mon } => format!("|-miss|{}", id(mon)),
            Msg::DoesntAffect { target }
            | Msg::Unaffected { target }
            | Msg::DidntAffect { target } => {
                format!("|-immune|{}", id(target))
            }
            Msg::Crit => match self.target {
                Some(t) => format!("|-crit|{}", id(t)),
                None => return,
            },
            Msg::Ohko => "|-ohko|".to_string(),
            Msg::SuperEffective => match self.target {
                Some(t) => format!("|-supereffective|{}", id(t)),
                None => return,
            },
            Msg::NotVeryEffective => match self.target {
                Some(t) => format!("|-resisted|{}", id(t)),
                None => return,
            },
            Msg::HitTimes { hits } => match self.target {
                Some(t) => format!("|-hitcount|{}|{hits}", id(t)),
                None => return,
            },
            Msg::FastAsleep { mon } => format!("|cant|{}|slp", id(mon)),
            Msg::WokeUp { mon } => format!("|-curestatus|{}|slp|[msg]", id(mon)),
            Msg::Frozen { mon } => format!("|cant|{}|frz", id(mon)),
            Msg::Defrosted { mon } => format!("|-curestatus|{}|frz|[msg]", id(mon)),
            Msg::FullyParalyzed { mon } => format!("|cant|{}|par", id(mon)),
            Msg::Flinched { mon } => format!("|cant|{}|flinch", id(mon)),
            Msg::MustRecharge { mon } => format!("|cant|{}|recharge", id(mon)),
            Msg::IsConfused { mon } => format!("|-activate|{}|confusion", id(mon)),
            Msg::ConfusedNoMore { mon } => format!("|-end|{}|confusion", id(mon)),
            Msg::BecameConfused { mon } => format!("|-start|{}|confusion", id(mon)),
            Msg::HurtItself => {
                self.from = Some("confusion");
                return;
            }
            Msg::HurtByPoison { .. } => {
                self.from = Some("psn");
                return;
            }
            Msg::HurtByBurn { .. } => {
                self.from = Some("brn");
                return;
            }
            Msg::LeechSeedSaps { .. } => {
                self.from = Some("Leech Seed");
                return;
            }
            Msg::FellAsleep { mon }
            | Msg::StartedSleeping { mon }
            | Msg::FellAsleepHealthy { mon } => {
                format!("|-status|{}|slp", id(mon))
            }
            Msg::Poisoned { mon } => format!("|-status|{}|psn", id(mon)),
            Msg::BadlyPoisoned { mon } => format!("|-status|{}|tox", id(mon)),
            Msg::Burned { mon } => format!("|-status|{}|brn", id(mon)),
            Msg::FrozenSolid { mon } => format!("|-status|{}|frz", id(mon)),
            Msg::Paralyzed { mon } => format!("|-status|{}|par", id(mon)),
            // Showdown's Gen 1 Special is its spa and spd moving together: two lines.
            Msg::StatRose { mon, stat, sharply } | Msg::StatFell { mon, stat, sharply } => {
                let kind = if matches!(m, Msg::StatRose { .. }) {
                    "-boost"
                } else {
                    "-unboost"
                };
                let n = 1 + u8::from(sharply);
                if stat == StatKind::Special {
                    self.line(format!("|{kind}|{}|spa|{n}", id(mon)));
                    format!("|{kind}|{}|spd|{n}", id(mon))
                } else {
                    format!("|{kind}|{}|{}|{n}", id(mon), stat_id(stat))
                }
            }
            Msg::NothingHappened | Msg::Failed
                if self
                    .last_move
                    .is_some_and(|m| self.silent_fail.contains(&m)) =>
            {
                return
            }
            // A stat already at its limit: Showdown fails on the Pokémon whose stat it is.
            Msg::NothingHappened => {
                let own = self
                    .last_move
                    .is_some_and(|m| self.self_target.contains(&m));
                match if own { self.user } else { self.target } {
                    Some(w) => format!("|-fail|{}", id(w)),
                    None => "|-fail|".to_string(),
                }
            }
            Msg::NoEffect => "|-nothing".to_string(),
            Msg::Failed => match self.user {
                Some(u) => format!("|-fail|{}", id(u)),
                None => "|-fail|".to_string(),
            },
            Msg::MadeSubstitute { mon } => format!("|-start|{}|Substitute", id(mon)),
            Msg::SubstituteTookDamage { mon } => {
                format!("|-activate|{}|Substitute|[damage]", id(mon))
            }
            Msg::SubstituteBroke { mon } => format!("|-end|{}|Substitute", id(mon)),
            Msg::TransformedInto { mon, .. } => match self.target {
                Some(t) => format!("|-transform|{}|{}", id(mon), id(t)),
                None => return,
            },
            Msg::LearnedMimic { mon, mv } => {
                format!("|-start|{}|Mimic|{}", id(mon), move_name(data, mv))
            }
            Msg::MoveDisabled { target, mv } => {
                format!("|-start|{}|Disable|{}", id(target), move_name(data, mv))
            }
            Msg::DisabledNoMore { mon } => format!("|-end|{}|Disable", id(mon)),
            Msg::ConvertedType { target } => {
                let Some(u) = self.user else { return };
                let types = battle.battler(target.side).types;
                let mut shown = type_title(types[0]);
                if types[1] != types[0] {
                    shown.push('/');
                    shown.push_str(&type_title(types[1]));
                }
                format!(
                    "|-start|{}|typechange|{shown}|[from] move: Conversion|[of] {}",
                    id(u),
                    id(target)
                )
            }
            Msg::StatusChangesEliminated => {
                let Some(u) = self.user else { return };
                self.line(format!("|-activate|{}|move: Haze", id(u)));
                "|-clearallboost|[silent]".to_string()
            }
            Msg::GainedArmor { mon } => format!("|-start|{}|Reflect", id(mon)),
            Msg::LightScreenUp { mon } => format!("|-start|{}|Light Screen", id(mon)),
            Msg::ShroudedInMist { mon } => format!("|-start|{}|Mist", id(mon)),
            Msg::GettingPumped { mon } => format!("|-start|{}|move: Focus Energy", id(mon)),
            _ => return,
        };
        self.line(line);
    }
}

/// `p1a: Tauros` (the nickname if the mon has one).
fn ident(data: &Dataset, battle: &Battle<Rng>, w: Who) -> String {
    let side = if w.side == Side::Player { "p1a" } else { "p2a" };
    let name = match battle.party(w.side).get(usize::from(w.slot)) {
        Some(m) => match &m.nickname {
            Some(n) if !n.is_empty() => n.clone(),
            _ => species_name(data, m.species),
        },
        None => "?".to_string(),
    };
    format!("{side}: {name}")
}

/// `WATER` → `Water`, as Showdown spells types.
fn type_title(t: pallet_engine::data::Type) -> String {
    let id = t.id();
    let mut out = id[..1].to_string();
    out.push_str(&id[1..].to_lowercase());
    out
}

fn stat_id(s: StatKind) -> &'static str {
    match s {
        StatKind::Attack => "atk",
        StatKind::Defense => "def",
        StatKind::Speed => "spe",
        StatKind::Special => "spa",
        StatKind::Accuracy => "accuracy",
        StatKind::Evasion => "evasion",
    }
}
