//! The overworld hook sites of the Lua engine's catalog (issue 17): `world.talk`,
//! `script.command`, `movement.speed`, `encounter.species`, `encounter.table`. Every site is
//! `if rt.wants_hook::<H>() { build args; rt.call::<H>(args, vanilla) } else vanilla`; answers
//! the engine cannot honour (an unknown species) are refused and reported, and vanilla stands.

use pallet_api::Runtime;

use super::STEP_TICKS;
use super::{Overworld, WorldCtx};
use crate::world::encounters::WildEncounter;
use crate::world::script::{RowWait, ScriptRow};
use crate::world::types::Direction;

#[cfg(feature = "hook-sites")]
use pallet_api::catalog::{common::GameInfo, hooks};

#[cfg(feature = "hook-sites")]
use crate::world::sites::api_dir;

impl Overworld {
    /// Talk to a text constant through `world.talk`: vanilla is the winning map-script
    /// handler, else the text itself; a link that does not call `next` replaces it.
    pub fn talk(&mut self, text: &str, ctx: &mut WorldCtx<'_>) {
        #[cfg(feature = "hook-sites")]
        if ctx.rt.wants_hook::<hooks::WorldTalk>() {
            let rt = ctx.rt;
            let args = hooks::WorldTalkArgs {
                game: GameInfo {
                    version: crate::world::sites::api_version(ctx.version),
                    playthrough_id: None,
                    map_id: Some(self.map_id().to_owned()),
                },
                ctx: hooks::TalkContext {
                    map_id: self.map_id().to_owned(),
                    text: text.to_owned(),
                },
            };
            rt.call::<hooks::WorldTalk>(args, |a| {
                self.talk_vanilla(&a.ctx.text, ctx);
                true
            });
            return;
        }
        self.talk_vanilla(text, ctx);
    }
}

/// `script.command`: one script row about to run; vanilla runs it.
pub(super) fn script_command(
    ow: &mut Overworld,
    row: ScriptRow,
    ctx: &mut WorldCtx<'_>,
) -> Option<RowWait> {
    #[cfg(feature = "hook-sites")]
    if ctx.rt.wants_hook::<hooks::ScriptCommand>() {
        let rt = ctx.rt;
        let cmd = pallet_api::value::to_value(&row).unwrap_or_default();
        let name = cmd
            .get("cmd")
            .and_then(|v| v.as_str())
            .unwrap_or("")
            .to_owned();
        let args_value = match &cmd {
            pallet_api::Value::Map(m) => {
                let mut m = m.clone();
                m.remove("cmd");
                pallet_api::Value::Map(m)
            }
            other => other.clone(),
        };
        let source = ow
            .runner()
            .current
            .as_ref()
            .map(|r| r.script.source.clone())
            .unwrap_or_default();
        let args = hooks::ScriptCommandArgs {
            ctx: hooks::ScriptCommandContext {
                map_id: ow.map_id().to_owned(),
                source,
            },
            name,
            args: args_value,
            cmd,
        };
        let mut row = Some(row);
        let mut wait = None;
        rt.call::<hooks::ScriptCommand>(args, |_| {
            if let Some(row) = row.take() {
                wait = ow.exec_row(row, ctx);
            }
            true
        });
        return wait;
    }
    ow.exec_row(row, ctx)
}

/// `movement.speed`: the first `elapsed` value of a step so that it lasts the answered number
/// of ticks (1..=STEP_TICKS; vanilla STEP_TICKS).
pub(super) fn step_start(rt: &Runtime, ow: &Overworld, dir: Direction, scripted: bool) -> u32 {
    #[cfg(feature = "hook-sites")]
    if rt.wants_hook::<hooks::MovementSpeed>() {
        let args = hooks::MovementSpeedArgs {
            frames: STEP_TICKS,
            ctx: hooks::SpeedContext {
                map_id: ow.map_id().to_owned(),
                dir: api_dir(dir),
                surfing: ow.player().surfing,
                scripted,
            },
        };
        let frames = rt.call::<hooks::MovementSpeed>(args, |a| a.frames);
        if (1..=STEP_TICKS).contains(&frames) {
            return 1 + (STEP_TICKS - frames);
        }
        rt.log(
            pallet_api::Level::Warn,
            None,
            format!(
                "movement.speed: refused {frames} ticks (a step takes 1..={STEP_TICKS}); \
                 the walking step stands"
            ),
        );
        return 1;
    }
    let _ = (rt, ow, dir, scripted, STEP_TICKS);
    1
}

/// `encounter.species`: replace a rolled encounter's species (a species the dataset does not
/// know is refused and reported; the roll stands).
pub(super) fn encounter_species(
    rt: &Runtime,
    data: &crate::data::Dataset,
    map_id: &str,
    enc: WildEncounter,
) -> WildEncounter {
    #[cfg(feature = "hook-sites")]
    if rt.wants_hook::<hooks::EncounterSpecies>() {
        let args = hooks::EncounterSpeciesArgs {
            species: enc.species.clone(),
            ctx: hooks::EncounterSpeciesContext {
                map_id: map_id.to_owned(),
                level: enc.level,
            },
        };
        let species = rt.call::<hooks::EncounterSpecies>(args, |a| a.species.clone());
        if species == enc.species {
            return enc;
        }
        if data.species_by_name(&species).is_none() {
            rt.log(
                pallet_api::Level::Warn,
                None,
                format!(
                    "encounter.species: refused unknown species {species:?}; {} stands",
                    enc.species
                ),
            );
            return enc;
        }
        return WildEncounter {
            species,
            level: enc.level,
            slot: None,
        };
    }
    let _ = (rt, data, map_id);
    enc
}

/// `encounter.table`: the table this grass step rolls on. Vanilla is the map's own (none:
/// no roll). With a subscriber the chain sees the map's table (a map without one: rate 0, no
/// slots) and may answer another; an answer naming a species the dataset does not know is
/// refused and reported, and the map's table stands. `at: None` is a preview (the `world`
/// facade's `effective_encounters`): `ctx.preview = true`, no roll follows.
pub(crate) fn encounter_table<'t>(
    rt: &Runtime,
    data: &crate::data::Dataset,
    map_id: &str,
    at: Option<(u32, u32)>,
    table: Option<&'t crate::world::map::EncounterTable>,
) -> Option<std::borrow::Cow<'t, crate::world::map::EncounterTable>> {
    #[cfg(feature = "hook-sites")]
    if rt.wants_hook::<hooks::EncounterTable>() {
        use crate::world::map::{EncounterSlot, EncounterTable};
        let def = hooks::EncounterTableDef {
            grass_rate: table.map_or(0, |t| t.grass_rate),
            grass: table
                .map(|t| {
                    t.grass
                        .iter()
                        .map(|s| hooks::EncounterSlotDef {
                            species: s.species.clone(),
                            level: s.level,
                        })
                        .collect()
                })
                .unwrap_or_default(),
        };
        let args = hooks::EncounterTableArgs {
            table: def,
            ctx: hooks::EncounterTableContext {
                map_id: map_id.to_owned(),
                terrain: "grass".to_owned(),
                x: at.map_or(0, |at| crate::world::sites::coord(at.0)),
                y: at.map_or(0, |at| crate::world::sites::coord(at.1)),
                preview: at.is_none(),
            },
        };
        let out = rt.call::<hooks::EncounterTable>(args, |a| a.table.clone());
        if let Some(bad) = out
            .grass
            .iter()
            .find(|s| data.species_by_name(&s.species).is_none())
        {
            rt.log(
                pallet_api::Level::Warn,
                None,
                format!(
                    "encounter.table: refused unknown species {:?}; the map's table stands",
                    bad.species
                ),
            );
            return table.map(std::borrow::Cow::Borrowed);
        }
        return Some(std::borrow::Cow::Owned(EncounterTable {
            grass_rate: out.grass_rate,
            grass: out
                .grass
                .into_iter()
                .map(|s| EncounterSlot {
                    species: s.species,
                    level: s.level,
                })
                .collect(),
        }));
    }
    let _ = (rt, data, map_id, at);
    table.map(std::borrow::Cow::Borrowed)
}
