//! The save validator (the load's validation step): reclaim from the quarantine, quarantine
//! what the active dataset does not know, repair known mons, remap unknown maps, and report
//! every change.
//!
//! Contract: the report is empty exactly when the save was left unchanged. Checkpoint restore
//! relies on that (it accepts no quarantine, remap, reclaim, clamp or repair).
//!
//! Extension over the reference report: `repairs` lists every clamp or derivation (the Lua
//! engine applied them silently and relied on a byte comparison), and `droppedDex` lists
//! pokédex entries removed for unknown species.

use serde::Serialize;

use crate::data::{Dataset, MoveId};
use crate::pokemon::mon::{compute_stats, max_pp_for_base, species_data, MAX_PP_UPS};
use crate::pokemon::stats::{exp_for_level, MAX_DV, MAX_LEVEL, MAX_STAT_VALUE, MIN_LEVEL};
use crate::pokemon::{Boxes, Dvs, StatExp, BOX_CAPACITY, BOX_COUNT, PARTY_CAPACITY};

use super::data::{
    ItemStack, MapPoint, OrphanItem, OrphanMon, SaveData, BAG_CAPACITY, MAX_ITEM_COUNT, MAX_MONEY,
    PC_ITEM_CAPACITY,
};
use super::record::{MonRecord, MoveRecord, StatsRecord};

/// The move given to a mon whose every move was unknown.
pub const FALLBACK_MOVE: &str = "TACKLE";

/// What the validator checks against.
pub struct ValidateEnv<'a> {
    pub data: &'a Dataset,
    /// Whether a map id exists in the active game (maps belong to the world module).
    pub map_known: &'a dyn Fn(&str) -> bool,
    /// The new-game spawn: the heal point of last resort.
    pub spawn: MapPoint,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ValidationReport {
    pub lost_mons: Vec<LostMon>,
    pub lost_items: Vec<ItemMove>,
    pub remapped_maps: Vec<RemappedMap>,
    pub restored_mons: Vec<RestoredMon>,
    pub restored_items: Vec<ItemMove>,
    pub repairs: Vec<Repair>,
    pub dropped_dex: Vec<String>,
    /// Content mods the save was shaped by (`meta.contentMods`) that are not active now, or
    /// active at another version (filled by [`validate_with_content`]). Informational: what
    /// they added is what the rest of the report quarantines or remaps; the save's list is not
    /// rewritten, so the report's emptiness still means "unchanged".
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub missing_content_mods: Vec<MissingContentMod>,
}

/// A content mod a save depends on that the active game lacks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MissingContentMod {
    pub id: String,
    pub version: String,
    /// `"not_loaded"`, or `"other_version"` (then `active` is the loaded version).
    pub reason: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub active: Option<String>,
}

/// [`validate`], plus the content mods the save names that `active` (`(id, version)` of the
/// content mods shaping the running game) does not have.
pub fn validate_with_content(
    save: &mut SaveData,
    env: &ValidateEnv<'_>,
    active: &[(String, String)],
) -> ValidationReport {
    let missing: Vec<MissingContentMod> = save
        .meta
        .content_mods
        .iter()
        .filter_map(|m| match active.iter().find(|(id, _)| *id == m.id) {
            Some((_, v)) if *v == m.version => None,
            Some((_, v)) => Some(MissingContentMod {
                id: m.id.clone(),
                version: m.version.clone(),
                reason: "other_version",
                active: Some(v.clone()),
            }),
            None => Some(MissingContentMod {
                id: m.id.clone(),
                version: m.version.clone(),
                reason: "not_loaded",
                active: None,
            }),
        })
        .collect();
    let mut report = validate(save, env);
    report.missing_content_mods = missing;
    report
}

impl ValidationReport {
    /// True when the validator changed nothing.
    pub fn is_empty(&self) -> bool {
        self.lost_mons.is_empty()
            && self.lost_items.is_empty()
            && self.remapped_maps.is_empty()
            && self.restored_mons.is_empty()
            && self.restored_items.is_empty()
            && self.repairs.is_empty()
            && self.dropped_dex.is_empty()
    }
}

/// A mon moved into the quarantine.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LostMon {
    pub species: String,
    pub from: String,
    /// `"unknown_species"`, or `"no_room"` for a known mon that fit neither party nor boxes.
    pub reason: &'static str,
}

/// An item stack moved into (`lostItems`: `where_` is the origin) or out of (`restoredItems`:
/// the destination) the quarantine.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ItemMove {
    pub id: String,
    pub count: u32,
    #[serde(rename = "where")]
    pub where_: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RestoredMon {
    pub species: String,
    pub from: String,
    pub to: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RemappedMap {
    /// The unknown map id.
    pub id: String,
    /// Where it now points (empty when the field was cleared).
    pub to: String,
    /// `"player"`, `"lastHeal"`, `"lastOutdoor"`.
    pub field: &'static str,
}

/// One clamp, derivation or move of a known record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Repair {
    /// `"party 2 (PIDGEY)"`, `"box 3 slot 1 (RATTATA)"`, `"money"`, `"bag"`, …
    pub at: String,
    pub field: String,
    pub from: String,
    pub to: String,
}

/// Validate `save` in place against `env` and report every change.
pub fn validate(save: &mut SaveData, env: &ValidateEnv<'_>) -> ValidationReport {
    let mut v = Validator {
        env,
        report: ValidationReport::default(),
    };
    v.layout(save);
    v.reclaim(save);
    v.quarantine(save);
    v.repair_mons(save);
    v.repair_items(save);
    v.remap_maps(save);
    v.clean_dex(save);
    v.report
}

struct Validator<'e, 'a> {
    env: &'e ValidateEnv<'a>,
    report: ValidationReport,
}

impl Validator<'_, '_> {
    fn data(&self) -> &Dataset {
        self.env.data
    }

    fn known_species(&self, id: &str) -> bool {
        canonical_species(self.data(), id).is_some()
    }

    fn repair(
        &mut self,
        at: impl Into<String>,
        field: impl Into<String>,
        from: impl ToString,
        to: impl ToString,
    ) {
        self.report.repairs.push(Repair {
            at: at.into(),
            field: field.into(),
            from: from.to_string(),
            to: to.to_string(),
        });
    }

    /// Twelve boxes of at most twenty, a current box in 1..=12, a party of at most six.
    fn layout(&mut self, save: &mut SaveData) {
        let clamped = save.current_box.clamp(1, BOX_COUNT as i64);
        if clamped != save.current_box {
            self.repair("boxes", "currentBox", save.current_box, clamped);
        }
        let shape_ok =
            save.boxes.len() == BOX_COUNT && save.boxes.iter().all(|b| b.len() <= BOX_CAPACITY);
        let before = std::mem::take(&mut save.boxes);
        let (mut boxes, left) = if shape_ok {
            Boxes::ensure(before, Vec::new(), clamped)
        } else {
            let (boxes, left) = Boxes::ensure(before.clone(), Vec::new(), clamped);
            // Report every mon whose place changed.
            let after: Vec<&[MonRecord]> = boxes.all().collect();
            for (i, list) in before.iter().enumerate() {
                for (slot, mon) in list.iter().enumerate() {
                    if after.get(i).and_then(|b| b.get(slot)) != Some(mon) {
                        let to = after
                            .iter()
                            .position(|b| b.contains(mon))
                            .map(|b| format!("box {}", b + 1))
                            .unwrap_or_else(|| "quarantine".into());
                        self.repair(
                            at_box(i + 1, slot, mon),
                            "place",
                            format!("box {}", i + 1),
                            to,
                        );
                    }
                }
            }
            if before.len() != BOX_COUNT {
                self.repair("boxes", "count", before.len(), BOX_COUNT);
            }
            (boxes, left)
        };
        for (from, mon) in left {
            self.orphan_no_room(save, format!("box {from}"), mon);
        }
        if save.party.len() > PARTY_CAPACITY {
            let extra = save.party.split_off(PARTY_CAPACITY);
            for (k, mon) in extra.into_iter().enumerate() {
                let at = at_party(PARTY_CAPACITY + k, &mon);
                match boxes.deposit(mon) {
                    Ok(b) => self.repair(at, "place", "party", format!("box {b}")),
                    Err(mon) => self.orphan_no_room(save, "party".to_string(), mon),
                }
            }
        }
        save.current_box = boxes.current_box() as i64;
        save.boxes = boxes.into_lists();
    }

    fn orphan_no_room(&mut self, save: &mut SaveData, from: String, mon: MonRecord) {
        self.report.lost_mons.push(LostMon {
            species: mon.species.clone(),
            from: from.clone(),
            reason: "no_room",
        });
        save.orphaned.mons.push(OrphanMon { from, mon });
    }

    /// Orphans whose species or item exists again go back.
    fn reclaim(&mut self, save: &mut SaveData) {
        if save
            .orphaned
            .mons
            .iter()
            .any(|o| self.known_species(&o.mon.species))
        {
            let mut boxes = Boxes::ensure(
                std::mem::take(&mut save.boxes),
                Vec::new(),
                save.current_box,
            )
            .0;
            let mut kept = Vec::new();
            for orphan in std::mem::take(&mut save.orphaned.mons) {
                if !self.known_species(&orphan.mon.species) {
                    kept.push(orphan);
                    continue;
                }
                let OrphanMon { from, mon } = orphan;
                let species = mon.species.clone();
                match boxes.deposit(mon) {
                    Ok(b) => self.report.restored_mons.push(RestoredMon {
                        species,
                        from,
                        to: format!("box {b}"),
                    }),
                    Err(mon) => kept.push(OrphanMon { from, mon }),
                }
            }
            save.orphaned.mons = kept;
            save.boxes = boxes.into_lists();
        }
        let mut kept = Vec::new();
        for orphan in std::mem::take(&mut save.orphaned.items) {
            let Some(canonical) = canonical_item(self.data(), &orphan.id) else {
                kept.push(orphan);
                continue;
            };
            let prefer_pc = orphan.from == "pc";
            let stack = ItemStack {
                id: canonical.to_string(),
                count: orphan.count.min(MAX_ITEM_COUNT),
            };
            let placed = if prefer_pc {
                add_item(&mut save.pc_items, PC_ITEM_CAPACITY, &stack).then_some("pc")
            } else if add_item(&mut save.inventory, BAG_CAPACITY, &stack) {
                Some("bag")
            } else {
                add_item(&mut save.pc_items, PC_ITEM_CAPACITY, &stack).then_some("pc")
            };
            match placed {
                Some(to) => {
                    if stack.count != orphan.count {
                        self.repair(
                            format!("orphaned item {}", orphan.id),
                            "count",
                            orphan.count,
                            stack.count,
                        );
                    }
                    self.report.restored_items.push(ItemMove {
                        id: stack.id,
                        count: stack.count,
                        where_: to.into(),
                    })
                }
                None => kept.push(orphan),
            }
        }
        save.orphaned.items = kept;
    }

    /// Unknown species and items move into the quarantine.
    fn quarantine(&mut self, save: &mut SaveData) {
        let mut kept = Vec::with_capacity(save.party.len());
        for mon in std::mem::take(&mut save.party) {
            if self.known_species(&mon.species) {
                kept.push(mon);
            } else {
                self.report.lost_mons.push(LostMon {
                    species: mon.species.clone(),
                    from: "party".into(),
                    reason: "unknown_species",
                });
                save.orphaned.mons.push(OrphanMon {
                    from: "party".into(),
                    mon,
                });
            }
        }
        save.party = kept;
        for (i, list) in save.boxes.iter_mut().enumerate() {
            let mut kept = Vec::with_capacity(list.len());
            for mon in std::mem::take(list) {
                if canonical_species(self.env.data, &mon.species).is_some() {
                    kept.push(mon);
                } else {
                    let from = format!("box {}", i + 1);
                    self.report.lost_mons.push(LostMon {
                        species: mon.species.clone(),
                        from: from.clone(),
                        reason: "unknown_species",
                    });
                    save.orphaned.mons.push(OrphanMon { from, mon });
                }
            }
            *list = kept;
        }
        for (list, from) in [(&mut save.inventory, "bag"), (&mut save.pc_items, "pc")] {
            let mut kept = Vec::with_capacity(list.len());
            for stack in std::mem::take(list) {
                if canonical_item(self.env.data, &stack.id).is_some() {
                    kept.push(stack);
                } else {
                    self.report.lost_items.push(ItemMove {
                        id: stack.id.clone(),
                        count: stack.count,
                        where_: from.into(),
                    });
                    save.orphaned.items.push(OrphanItem {
                        id: stack.id,
                        count: stack.count,
                        from: from.into(),
                    });
                }
            }
            *list = kept;
        }
    }

    fn repair_mons(&mut self, save: &mut SaveData) {
        let mut party = std::mem::take(&mut save.party);
        for (i, mon) in party.iter_mut().enumerate() {
            let at = at_party(i, mon);
            self.scrub_mon(mon, &at);
        }
        save.party = party;
        let mut boxes = std::mem::take(&mut save.boxes);
        for (b, list) in boxes.iter_mut().enumerate() {
            for (slot, mon) in list.iter_mut().enumerate() {
                let at = at_box(b + 1, slot, mon);
                self.scrub_mon(mon, &at);
            }
        }
        save.boxes = boxes;
    }

    /// Reference `scrubKnownMon` plus the range checks the strict record conversion needs.
    fn scrub_mon(&mut self, mon: &mut MonRecord, at: &str) {
        let data = self.env.data;
        let Some(species) = data.species_by_name(&mon.species) else {
            return;
        };
        let Ok(sp) = species_data(data, species) else {
            return;
        };
        let mut changed_core = false;
        if mon.species != sp.id {
            self.repair(at, "species", &mon.species, sp.id);
            mon.species = sp.id.to_string();
        }

        let clamp =
            |v: &mut i64, min: i64, max: i64, field: &str, report: &mut Vec<Repair>| -> bool {
                let c = (*v).clamp(min, max);
                if c != *v {
                    report.push(Repair {
                        at: at.to_string(),
                        field: field.to_string(),
                        from: v.to_string(),
                        to: c.to_string(),
                    });
                    *v = c;
                    true
                } else {
                    false
                }
            };
        let r = &mut self.report.repairs;
        changed_core |= clamp(
            &mut mon.level,
            i64::from(MIN_LEVEL),
            i64::from(MAX_LEVEL),
            "level",
            r,
        );
        let dv_max = i64::from(MAX_DV);
        changed_core |= clamp(&mut mon.dvs.atk, 0, dv_max, "dvs.atk", r);
        changed_core |= clamp(&mut mon.dvs.def, 0, dv_max, "dvs.def", r);
        changed_core |= clamp(&mut mon.dvs.spe, 0, dv_max, "dvs.spe", r);
        changed_core |= clamp(&mut mon.dvs.spc, 0, dv_max, "dvs.spc", r);
        let se_max = i64::from(u16::MAX);
        changed_core |= clamp(&mut mon.stat_exp.hp, 0, se_max, "statExp.hp", r);
        changed_core |= clamp(&mut mon.stat_exp.atk, 0, se_max, "statExp.atk", r);
        changed_core |= clamp(&mut mon.stat_exp.def, 0, se_max, "statExp.def", r);
        changed_core |= clamp(&mut mon.stat_exp.spe, 0, se_max, "statExp.spe", r);
        changed_core |= clamp(&mut mon.stat_exp.spc, 0, se_max, "statExp.spc", r);
        clamp(
            &mut mon.exp,
            0,
            i64::from(exp_for_level(sp.growth, MAX_LEVEL)),
            "exp",
            r,
        );
        clamp(&mut mon.ot_id, 0, i64::from(u16::MAX), "otId", r);

        // Moves: drop unknown ids and duplicates, at most four, TACKLE when none is left.
        let mut moves: Vec<(MoveId, MoveRecord)> = Vec::with_capacity(4);
        for m in std::mem::take(&mut mon.moves) {
            match data.move_by_name(&m.id) {
                None => r.push(Repair {
                    at: at.into(),
                    field: "moves".into(),
                    from: m.id,
                    to: "dropped (unknown move)".into(),
                }),
                Some(id) if moves.iter().any(|(k, _)| *k == id) => r.push(Repair {
                    at: at.into(),
                    field: "moves".into(),
                    from: m.id,
                    to: "dropped (duplicate)".into(),
                }),
                Some(_) if moves.len() >= crate::pokemon::MOVE_SLOTS => r.push(Repair {
                    at: at.into(),
                    field: "moves".into(),
                    from: m.id,
                    to: "dropped (over four)".into(),
                }),
                Some(id) => {
                    let mut m = m;
                    if let Some(md) = data.get_move(id).filter(|md| md.id != m.id) {
                        r.push(Repair {
                            at: at.into(),
                            field: "moves".into(),
                            from: m.id,
                            to: md.id.into(),
                        });
                        m.id = md.id.to_string();
                    }
                    moves.push((id, m))
                }
            }
        }
        if moves.is_empty() {
            if let Some((id, base)) = data
                .move_by_name(FALLBACK_MOVE)
                .and_then(|id| Some((id, data.get_move(id)?.pp)))
            {
                let pp = i64::from(max_pp_for_base(base, 0));
                moves.push((
                    id,
                    MoveRecord {
                        id: FALLBACK_MOVE.to_string(),
                        pp,
                        pp_ups: 0,
                    },
                ));
                r.push(Repair {
                    at: at.into(),
                    field: "moves".into(),
                    from: "none".into(),
                    to: FALLBACK_MOVE.into(),
                });
            }
        }
        for (id, m) in &mut moves {
            let field_ups = format!("moves.{}.ppUps", m.id);
            clamp(&mut m.pp_ups, 0, i64::from(MAX_PP_UPS), &field_ups, r);
            let base = data.get_move(*id).map(|d| d.pp).unwrap_or(0);
            let max = i64::from(max_pp_for_base(base, m.pp_ups as u8));
            let field_pp = format!("moves.{}.pp", m.id);
            clamp(&mut m.pp, 0, max, &field_pp, r);
        }
        mon.moves = moves.into_iter().map(|(_, m)| m).collect();

        // Stats: derive when missing, out of range, or when the inputs were just repaired.
        let stat_range = |s: &StatsRecord| {
            [s.max_hp, s.atk, s.def, s.spe, s.spc]
                .iter()
                .all(|v| (1..=i64::from(MAX_STAT_VALUE)).contains(v))
        };
        let needs = match &mon.stats {
            None => Some("missing"),
            Some(s) if !stat_range(s) => Some("out of range"),
            Some(_) if changed_core => Some("stale"),
            Some(_) => None,
        };
        if let Some(why) = needs {
            let dvs = Dvs {
                atk: mon.dvs.atk as u8,
                def: mon.dvs.def as u8,
                spe: mon.dvs.spe as u8,
                spc: mon.dvs.spc as u8,
            };
            let se = StatExp {
                hp: mon.stat_exp.hp as u16,
                atk: mon.stat_exp.atk as u16,
                def: mon.stat_exp.def as u16,
                spe: mon.stat_exp.spe as u16,
                spc: mon.stat_exp.spc as u16,
            };
            let s = compute_stats(sp, mon.level as u8, &dvs, &se);
            let rec = StatsRecord {
                max_hp: i64::from(s.max_hp),
                atk: i64::from(s.atk),
                def: i64::from(s.def),
                spe: i64::from(s.spe),
                spc: i64::from(s.spc),
            };
            if mon.stats != Some(rec) {
                r.push(Repair {
                    at: at.into(),
                    field: "stats".into(),
                    from: why.into(),
                    to: "derived".into(),
                });
                mon.stats = Some(rec);
            }
        }
        let max_hp = mon.stats.map(|s| s.max_hp).unwrap_or(0);
        clamp(&mut mon.hp, 0, max_hp, "hp", r);

        // Status.
        if !matches!(
            mon.status.as_str(),
            "" | "SLP" | "PSN" | "BRN" | "FRZ" | "PAR"
        ) {
            r.push(Repair {
                at: at.into(),
                field: "status".into(),
                from: mon.status.clone(),
                to: "none".into(),
            });
            mon.status.clear();
        }
        if mon.status == "SLP" {
            clamp(&mut mon.sleep_turns, 1, 7, "sleepTurns", r);
        } else {
            clamp(&mut mon.sleep_turns, 0, 0, "sleepTurns", r);
        }
    }

    fn repair_items(&mut self, save: &mut SaveData) {
        for (list, at) in [(&mut save.inventory, "bag"), (&mut save.pc_items, "pc")] {
            let mut kept = Vec::with_capacity(list.len());
            for mut stack in std::mem::take(list) {
                if let Some(canonical) =
                    canonical_item(self.env.data, &stack.id).filter(|c| *c != stack.id)
                {
                    self.report.repairs.push(Repair {
                        at: at.into(),
                        field: "id".into(),
                        from: stack.id,
                        to: canonical.into(),
                    });
                    stack.id = canonical.to_string();
                }
                if stack.count == 0 {
                    self.report.repairs.push(Repair {
                        at: at.into(),
                        field: stack.id,
                        from: "0".into(),
                        to: "removed".into(),
                    });
                    continue;
                }
                if stack.count > MAX_ITEM_COUNT {
                    self.report.repairs.push(Repair {
                        at: at.into(),
                        field: stack.id.clone(),
                        from: stack.count.to_string(),
                        to: MAX_ITEM_COUNT.to_string(),
                    });
                    stack.count = MAX_ITEM_COUNT;
                }
                kept.push(stack);
            }
            *list = kept;
        }
        if save.money > MAX_MONEY {
            self.repair("money", "money", save.money, MAX_MONEY);
            save.money = MAX_MONEY;
        }
    }

    fn remap_maps(&mut self, save: &mut SaveData) {
        let known = self.env.map_known;
        if !known(&save.last_heal.map) {
            let to = self.env.spawn.clone();
            self.report.remapped_maps.push(RemappedMap {
                id: save.last_heal.map.clone(),
                to: to.map.clone(),
                field: "lastHeal",
            });
            save.last_heal = to;
        }
        if !known(&save.player.map) {
            let to = save.last_heal.clone();
            self.report.remapped_maps.push(RemappedMap {
                id: save.player.map.clone(),
                to: to.map.clone(),
                field: "player",
            });
            save.player.map = to.map;
            save.player.x = to.x;
            save.player.y = to.y;
            save.player.surfing = false;
        }
        if let Some(outdoor) = &save.last_outdoor {
            if !known(&outdoor.id) {
                self.report.remapped_maps.push(RemappedMap {
                    id: outdoor.id.clone(),
                    to: String::new(),
                    field: "lastOutdoor",
                });
                save.last_outdoor = None;
            }
        }
        let unknown: Vec<String> = save
            .object_toggles
            .keys()
            .filter(|m| !known(m))
            .cloned()
            .collect();
        for id in unknown {
            save.object_toggles.remove(&id);
            self.report.remapped_maps.push(RemappedMap {
                id,
                to: String::new(),
                field: "objectToggles",
            });
        }
    }

    /// Unknown species leave the pokédex; non-canonical spellings are rewritten.
    fn clean_dex(&mut self, save: &mut SaveData) {
        let data = self.env.data;
        let mut dropped: Vec<String> = Vec::new();
        for (set, field) in [
            (&mut save.pokedex.seen, "seen"),
            (&mut save.pokedex.owned, "owned"),
        ] {
            let mut fixed = Vec::new();
            set.retain(|s| match canonical_species(data, s) {
                None => {
                    if !dropped.contains(s) {
                        dropped.push(s.clone());
                    }
                    false
                }
                Some(c) if c != s => {
                    fixed.push((s.clone(), c));
                    false
                }
                Some(_) => true,
            });
            for (from, to) in fixed {
                set.insert(to.to_string());
                self.report.repairs.push(Repair {
                    at: "pokedex".into(),
                    field: field.into(),
                    from,
                    to: to.into(),
                });
            }
        }
        dropped.sort();
        self.report.dropped_dex = dropped;
    }
}

/// The dataset's own spelling of a species id (`"Mr. Mime"` → `"MR_MIME"`), if it has one.
fn canonical_species(data: &Dataset, s: &str) -> Option<&'static str> {
    data.species_by_name(s)
        .and_then(|id| data.get_species(id))
        .map(|sp| sp.id)
}

/// The dataset's own spelling of an item id, if it has one.
fn canonical_item(data: &Dataset, s: &str) -> Option<&'static str> {
    data.item_by_name(s)
        .and_then(|id| data.get_item(id))
        .map(|it| it.id)
}

/// Add a stack to a list: merge into an existing stack when the sum stays within 99, else a new
/// stack when there is room. False when neither is possible (nothing changes).
fn add_item(list: &mut Vec<ItemStack>, capacity: usize, stack: &ItemStack) -> bool {
    if let Some(existing) = list.iter_mut().find(|s| s.id == stack.id) {
        if existing.count.saturating_add(stack.count) <= MAX_ITEM_COUNT {
            existing.count += stack.count;
            return true;
        }
        return false;
    }
    if list.len() < capacity {
        list.push(stack.clone());
        return true;
    }
    false
}

fn at_party(index: usize, mon: &MonRecord) -> String {
    format!("party {} ({})", index + 1, mon.species)
}

fn at_box(box_no: usize, slot: usize, mon: &MonRecord) -> String {
    format!("box {box_no} slot {} ({})", slot + 1, mon.species)
}
