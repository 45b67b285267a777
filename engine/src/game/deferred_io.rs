//! The end of a tick: the world actions mods deferred mid-tick ([`crate::world_deferred`]),
//! applied in call order with the checks the `world` facade makes at a safe point. A refused
//! action is reported on the asking mod's log.

use pallet_api::Level;

use super::{Game, Mode};
use crate::world::BusyState;
use crate::world_deferred::{take, Action};
use crate::world_values::{
    BATTLE_RUNNING, INVALID_NPC, MAP_NOT_LIVE, MID_WARP, NO_HEALTHY_PARTY, NO_OVERWORLD,
    UNKNOWN_SPECIES,
};

impl Game {
    /// Apply what mods deferred during this tick (nothing to do: one thread-local test).
    #[inline]
    pub(crate) fn apply_deferred(&mut self) {
        let queued = take();
        if queued.is_empty() {
            return;
        }
        self.apply_queued(queued);
    }

    #[cold]
    fn apply_queued(&mut self, queued: Vec<crate::world_deferred::Deferred>) {
        for d in queued {
            if let Err((reason, detail)) = self.apply_action(&d.action) {
                self.rt.log(
                    Level::Warn,
                    d.owner.as_deref(),
                    format!(
                        "world.{} (asked mid-tick, applied when the tick ended) was refused: \
                         {reason} ({detail})",
                        d.action.method()
                    ),
                );
            }
        }
    }

    fn apply_action(&mut self, action: &Action) -> Result<(), (&'static str, String)> {
        if self.overworld().is_none() {
            return Err((NO_OVERWORLD, "there is no overworld any more".to_owned()));
        }
        if let Action::TryRun = action {
            return self.try_run();
        }
        if self.mode == Mode::Battle {
            return Err((BATTLE_RUNNING, "a battle started first".to_owned()));
        }
        let active = self.overworld().map(|ow| ow.map_id().to_owned());
        match action {
            Action::SpawnNpc {
                map,
                id,
                at,
                facing,
                text,
            } => {
                if active.as_deref() != Some(map.as_str()) {
                    return Err((
                        MAP_NOT_LIVE,
                        format!("{map} was left before the tick ended"),
                    ));
                }
                match self.with_world(|ow, _| ow.place_npc(id, *at, *facing, text)) {
                    Some(Ok(())) => Ok(()),
                    Some(Err(e)) => Err((INVALID_NPC, format!("{e}: {id:?}"))),
                    None => Err((NO_OVERWORLD, "there is no overworld any more".to_owned())),
                }
            }
            // The NPC's map was left: it went with its map (runtime NPCs are never kept).
            Action::RemoveNpc { map: Some(map), .. } if active.as_deref() != Some(map.as_str()) => {
                Ok(())
            }
            Action::RemoveNpc { id, .. } => match self.with_world(|ow, _| ow.remove_npc(id)) {
                Some(Ok(())) => Ok(()),
                Some(Err(e)) => Err((INVALID_NPC, format!("{e}: {id:?}"))),
                None => Err((NO_OVERWORLD, "there is no overworld any more".to_owned())),
            },
            Action::StartWildBattle {
                species,
                level,
                dvs,
            } => {
                if self.busy() == Some(BusyState::Transition) {
                    return Err((MID_WARP, "a warp started first".to_owned()));
                }
                if self.data().species_by_name(species).is_none() {
                    return Err((UNKNOWN_SPECIES, format!("{species:?}")));
                }
                if !self.save.party.iter().any(|m| m.hp > 0) {
                    return Err((
                        NO_HEALTHY_PARTY,
                        "the party has no healthy POKéMON".to_owned(),
                    ));
                }
                self.start_wild_battle_with(species, *level, *dvs)
                    .map_err(|e| (UNKNOWN_SPECIES, e.to_string()))
            }
            Action::SetFlag { name, on } => {
                self.set_flag(name, *on);
                Ok(())
            }
            Action::TryRun => self.try_run(),
        }
    }
}
