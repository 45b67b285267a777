//! Trainers that engage by line of sight (the cartridge's trainer headers).
//!
//! A map's `trainers` list marks NPCs as trainers with a sight range. After the player finishes
//! a step, the game asks [`Overworld::trainer_in_sight`] whether an unbeaten trainer faces the
//! player's cell in a straight line within its range (Gen 1 does not check walls in between).
//! The first such header in map order engages: [`Overworld::engage_trainer`] queues the
//! engagement as script rows — the "!" bubble ([`ScriptRow::Emote`]), the walk up to the cell
//! next to the player ([`ScriptRow::MoveNpc`]), the player turning to face the trainer, the
//! battle text (waits for A) and the battle ([`ScriptRow::TrainerBattle`], which the game starts
//! after the tick). While it runs the overworld is `script_busy` and the player's input is
//! locked, as for any script.

use super::map::MapTrainerDef;
use super::overworld::STEP_TICKS;
use super::presentation::PresentationRow;
use super::script::{Gift, RowWait, Script, ScriptRow};
use super::types::Direction;
use super::{Overworld, WorldCtx};

/// Ticks the "!" bubble stays up (the cartridge waits 60 frames; a tick is two frames).
pub const EMOTE_TICKS: u32 = 30;

/// A trainer that sees the player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sighting {
    /// The trainer header (which NPC, class, index, battle text).
    pub header: MapTrainerDef,
    /// Index of the trainer's NPC on the live map.
    pub npc: usize,
    /// The way the trainer faces (and walks).
    pub facing: Direction,
    /// Cells between the trainer and the player, plus one (1: adjacent).
    pub distance: u32,
}

impl Overworld {
    /// The first trainer header of the map (in map order) whose NPC faces the player in a
    /// straight line within its sight and is not `beaten(class, index)`.
    pub fn trainer_in_sight(&self, beaten: impl Fn(&str, u16) -> bool) -> Option<Sighting> {
        let def = self.map.def();
        if def.trainers.is_empty() {
            return None;
        }
        let (px, py) = (i64::from(self.player.x), i64::from(self.player.y));
        for header in &def.trainers {
            let Some(npc) = def.npcs.iter().position(|n| n.name == header.npc) else {
                continue;
            };
            let n = &def.npcs[npc];
            let (dx, dy) = n.facing.delta();
            let (ox, oy) = (px - i64::from(n.x), py - i64::from(n.y));
            // Along the facing axis, ahead of the trainer, on its row or column.
            let distance = match (dx, dy) {
                (0, d) if ox == 0 => oy * i64::from(d),
                (d, 0) if oy == 0 => ox * i64::from(d),
                _ => continue,
            };
            if distance < 1 || distance > i64::from(header.sight) {
                continue;
            }
            if beaten(&header.class, header.index) {
                continue;
            }
            return Some(Sighting {
                header: header.clone(),
                npc,
                facing: n.facing,
                distance: distance as u32,
            });
        }
        None
    }

    /// Queue the engagement of `s`: "!", the walk up, the player turning to the trainer, the
    /// battle text, the battle. Returns false (nothing queued) while a script runs.
    pub fn engage_trainer(&mut self, s: &Sighting) -> bool {
        if self.runner.busy() {
            return false;
        }
        let h = &s.header;
        let mut rows = vec![ScriptRow::Emote {
            npc: h.npc.clone(),
            emote: "!".to_owned(),
        }];
        if s.distance > 1 {
            rows.push(ScriptRow::MoveNpc {
                npc: h.npc.clone(),
                dir: s.facing,
                n: s.distance - 1,
            });
        }
        rows.push(ScriptRow::FacePlayer {
            dir: s.facing.opposite(),
        });
        rows.push(ScriptRow::Text {
            text: h.battle_text.clone(),
        });
        rows.push(ScriptRow::TrainerBattle {
            class: h.class.clone(),
            index: h.index,
        });
        let source = format!("{}.trainer.{}", self.map_id(), h.npc);
        self.enqueue_script(Script::new(source, rows));
        true
    }

    /// The trainer rows of the script runner ([`ScriptRow::Emote`], [`ScriptRow::MoveNpc`],
    /// [`ScriptRow::TrainerBattle`]).
    pub(super) fn exec_trainer_row(
        &mut self,
        row: ScriptRow,
        ctx: &mut WorldCtx<'_>,
    ) -> Option<RowWait> {
        match row {
            ScriptRow::Emote { npc, emote } => {
                ctx.show(PresentationRow::Emote { npc, emote });
                Some(RowWait::Ticks(EMOTE_TICKS))
            }
            ScriptRow::MoveNpc { npc, dir, n } => {
                if n == 0 {
                    return None;
                }
                let Some(i) = self.map.def().npcs.iter().position(|x| x.name == npc) else {
                    self.diagnostic(format!("move_npc: no npc {npc} on {}", self.map_id()));
                    return None;
                };
                let (x, y) = {
                    let n = &self.map.def().npcs[i];
                    let (dx, dy) = dir.delta();
                    (
                        i64::from(n.x) + i64::from(dx),
                        i64::from(n.y) + i64::from(dy),
                    )
                };
                let player = (i64::from(self.player.x), i64::from(self.player.y));
                let occupied = (x, y) == player
                    || self
                        .map
                        .def()
                        .npcs
                        .iter()
                        .any(|o| (i64::from(o.x), i64::from(o.y)) == (x, y));
                let walkable = self.map.cell_kind(x, y).is_some_and(|k| k.walkable());
                if occupied || !walkable {
                    self.diagnostic(format!("move_npc: {npc} is blocked at ({x}, {y})"));
                    return None;
                }
                let (x, y) = (x as u32, y as u32);
                self.map.turn_npc(i, dir);
                self.map.move_npc(i, x, y);
                ctx.show(PresentationRow::NpcStepped {
                    npc: npc.clone(),
                    x,
                    y,
                    facing: dir,
                });
                if n > 1 {
                    if let Some(r) = self.runner.current.as_mut() {
                        r.script
                            .rows
                            .push_front(ScriptRow::MoveNpc { npc, dir, n: n - 1 });
                    }
                }
                Some(RowWait::Ticks(STEP_TICKS))
            }
            ScriptRow::TrainerBattle { class, index } => {
                self.gifts.push(Gift::TrainerBattle { class, index });
                None
            }
            _ => None,
        }
    }
}
