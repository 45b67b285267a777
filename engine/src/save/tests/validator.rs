//! Validator cases: every quarantine, reclaim, repair and remap path, and the empty report.

use proptest::prelude::*;

use super::*;
use crate::pokemon::{BOX_CAPACITY, BOX_COUNT};
use crate::save::codec::{decode, encode};
use crate::save::data::{OrphanItem, OrphanMon};
use crate::save::validate::{validate, LostMon, RemappedMap, RestoredMon, ValidationReport};

fn run(s: &mut SaveData) -> ValidationReport {
    let report = validate(s, &env());
    // Whatever the first pass did, a second pass finds nothing left to do.
    let mut again = s.clone();
    let second = validate(&mut again, &env());
    assert!(second.is_empty(), "validator is idempotent: {second:?}");
    assert_eq!(&again, s);
    report
}

#[test]
fn vanilla_save_gives_an_empty_report() {
    let mut s = vanilla_save();
    let before = s.clone();
    let report = run(&mut s);
    assert!(report.is_empty(), "{report:?}");
    assert_eq!(s, before);
}

#[test]
fn unknown_party_and_box_species_are_quarantined() {
    let mut s = vanilla_save();
    let mut modmon = record("PIDGEY", 20);
    modmon.species = "FAKEMON".into();
    s.party.insert(1, modmon.clone());
    let mut boxed = modmon.clone();
    boxed.species = "OTHERMON".into();
    s.boxes[5].push(boxed.clone());
    let report = run(&mut s);
    assert_eq!(
        report.lost_mons,
        vec![
            LostMon {
                species: "FAKEMON".into(),
                from: "party".into(),
                reason: "unknown_species"
            },
            LostMon {
                species: "OTHERMON".into(),
                from: "box 6".into(),
                reason: "unknown_species"
            },
        ]
    );
    assert_eq!(s.party.len(), 2);
    assert!(s.boxes[5].is_empty());
    assert_eq!(
        s.orphaned.mons,
        vec![
            OrphanMon {
                from: "party".into(),
                mon: modmon
            },
            OrphanMon {
                from: "box 6".into(),
                mon: boxed
            }
        ]
    );
    assert!(report.repairs.is_empty() && report.restored_mons.is_empty());
    // The quarantine survives a save/load cycle.
    let back = decode(&encode(&s).unwrap()).unwrap();
    assert_eq!(back.orphaned, s.orphaned);
}

#[test]
fn unknown_items_are_quarantined_with_their_origin() {
    let mut s = vanilla_save();
    s.inventory.push(ItemStack {
        id: "MOD_CANDY".into(),
        count: 3,
    });
    s.pc_items.push(ItemStack {
        id: "MOD_STONE".into(),
        count: 1,
    });
    let report = run(&mut s);
    let lost: Vec<_> = report
        .lost_items
        .iter()
        .map(|i| (i.id.as_str(), i.count, i.where_.as_str()))
        .collect();
    assert_eq!(lost, vec![("MOD_CANDY", 3, "bag"), ("MOD_STONE", 1, "pc")]);
    assert_eq!(
        s.orphaned.items,
        vec![
            OrphanItem {
                id: "MOD_CANDY".into(),
                count: 3,
                from: "bag".into()
            },
            OrphanItem {
                id: "MOD_STONE".into(),
                count: 1,
                from: "pc".into()
            },
        ]
    );
    assert!(s.inventory.iter().all(|i| ITEMS.contains(&i.id.as_str())));
}

#[test]
fn orphans_whose_ids_exist_again_are_reclaimed() {
    let mut s = vanilla_save();
    s.current_box = 12;
    let back_mon = record("RATTATA", 9);
    s.orphaned.mons.push(OrphanMon {
        from: "party".into(),
        mon: back_mon.clone(),
    });
    let mut still_unknown = record("PIDGEY", 3);
    still_unknown.species = "FAKEMON".into();
    s.orphaned.mons.push(OrphanMon {
        from: "box 2".into(),
        mon: still_unknown.clone(),
    });
    s.orphaned.items.push(OrphanItem {
        id: "ANTIDOTE".into(),
        count: 4,
        from: "bag".into(),
    });
    s.orphaned.items.push(OrphanItem {
        id: "POTION".into(),
        count: 2,
        from: "pc".into(),
    });
    s.orphaned.items.push(OrphanItem {
        id: "MOD_CANDY".into(),
        count: 1,
        from: "bag".into(),
    });
    let report = run(&mut s);
    assert_eq!(
        report.restored_mons,
        vec![RestoredMon {
            species: "RATTATA".into(),
            from: "party".into(),
            to: "box 12".into()
        }]
    );
    assert_eq!(s.boxes[11], vec![back_mon]);
    let restored: Vec<_> = report
        .restored_items
        .iter()
        .map(|i| (i.id.as_str(), i.count, i.where_.as_str()))
        .collect();
    assert_eq!(restored, vec![("ANTIDOTE", 4, "bag"), ("POTION", 2, "pc")]);
    assert!(s.inventory.contains(&ItemStack {
        id: "ANTIDOTE".into(),
        count: 4
    }));
    // The PC already held one Potion: the stacks merge.
    assert!(s.pc_items.contains(&ItemStack {
        id: "POTION".into(),
        count: 3
    }));
    assert_eq!(
        s.orphaned.mons,
        vec![OrphanMon {
            from: "box 2".into(),
            mon: still_unknown
        }]
    );
    assert_eq!(
        s.orphaned.items,
        vec![OrphanItem {
            id: "MOD_CANDY".into(),
            count: 1,
            from: "bag".into()
        }]
    );
    assert!(report.lost_mons.is_empty() && report.lost_items.is_empty());
}

#[test]
fn reclaimed_items_go_to_the_pc_when_the_bag_is_full_and_stay_when_nothing_fits() {
    let mut s = vanilla_save();
    // Full stacks of every test item in the bag.
    s.inventory = ITEMS
        .iter()
        .map(|id| ItemStack {
            id: id.to_string(),
            count: 99,
        })
        .collect();
    s.orphaned.items.push(OrphanItem {
        id: "POTION".into(),
        count: 5,
        from: "bag".into(),
    });
    let report = run(&mut s);
    // Bag stack at 99 cannot take 5 more: the PC's Potion stack takes them.
    assert_eq!(report.restored_items.len(), 1);
    assert_eq!(report.restored_items[0].where_, "pc");
    assert!(s.pc_items.contains(&ItemStack {
        id: "POTION".into(),
        count: 6
    }));

    let mut s = vanilla_save();
    s.inventory = vec![ItemStack {
        id: "POTION".into(),
        count: 99,
    }];
    s.pc_items = vec![ItemStack {
        id: "POTION".into(),
        count: 99,
    }];
    s.orphaned.items.push(OrphanItem {
        id: "POTION".into(),
        count: 1,
        from: "bag".into(),
    });
    let report = run(&mut s);
    assert!(report.is_empty(), "nothing could move: {report:?}");
    assert_eq!(s.orphaned.items.len(), 1);
}

#[test]
fn reclaimed_items_go_to_the_pc_when_the_bag_has_twenty_kinds() {
    let mut s = vanilla_save();
    let ids: Vec<&str> = gen1()
        .items
        .iter()
        .map(|it| it.id)
        .filter(|id| *id != "ANTIDOTE")
        .take(20)
        .collect();
    assert_eq!(ids.len(), crate::save::data::BAG_CAPACITY);
    s.inventory = ids
        .iter()
        .map(|id| ItemStack {
            id: id.to_string(),
            count: 1,
        })
        .collect();
    s.orphaned.items.push(OrphanItem {
        id: "ANTIDOTE".into(),
        count: 2,
        from: "bag".into(),
    });
    let report = run(&mut s);
    assert_eq!(report.restored_items.len(), 1);
    assert_eq!(report.restored_items[0].where_, "pc");
    assert_eq!(s.inventory.len(), 20);
    assert!(s.pc_items.contains(&ItemStack {
        id: "ANTIDOTE".into(),
        count: 2
    }));
}

#[test]
fn non_canonical_spellings_are_rewritten() {
    let mut s = vanilla_save();
    s.party[0].species = "Pidgey".into();
    s.party[0].moves[0].id = "Gust".into();
    s.inventory[0].id = "Poke Ball".into();
    s.pokedex.seen.insert("mr. mime".into());
    let report = run(&mut s);
    assert_eq!(s.party[0].species, "PIDGEY");
    assert_eq!(s.party[0].moves[0].id, "GUST");
    assert_eq!(s.inventory[0].id, "POKE_BALL");
    assert!(s.pokedex.seen.contains("MR_MIME") && !s.pokedex.seen.contains("mr. mime"));
    assert_eq!(report.repairs.len(), 4, "{:?}", report.repairs);
}

#[test]
fn reclaim_leaves_mons_in_quarantine_when_every_box_is_full() {
    let mut s = vanilla_save();
    s.boxes = (0..BOX_COUNT)
        .map(|_| vec![record("PIDGEY", 2); BOX_CAPACITY])
        .collect();
    s.orphaned.mons.push(OrphanMon {
        from: "party".into(),
        mon: record("RATTATA", 5),
    });
    let report = run(&mut s);
    assert!(report.is_empty(), "{report:?}");
    assert_eq!(s.orphaned.mons.len(), 1);
}

#[test]
fn known_mons_are_repaired() {
    let mut s = vanilla_save();
    let mut m = record("PIDGEY", 12);
    m.dvs.atk = 20;
    m.dvs.spc = -3;
    m.stat_exp.hp = 70_000;
    m.stat_exp.def = -1;
    m.level = 0;
    m.hp = 999;
    m.ot_id = 70_000;
    s.party[0] = m;
    let report = run(&mut s);
    let fields: Vec<_> = report
        .repairs
        .iter()
        .map(|r| (r.field.as_str(), r.from.as_str(), r.to.as_str()))
        .collect();
    for expected in [
        ("level", "0", "1"),
        ("dvs.atk", "20", "15"),
        ("dvs.spc", "-3", "0"),
        ("statExp.hp", "70000", "65535"),
        ("statExp.def", "-1", "0"),
        ("otId", "70000", "65535"),
        ("stats", "stale", "derived"),
    ] {
        assert!(
            fields.contains(&expected),
            "missing {expected:?} in {fields:?}"
        );
    }
    assert!(report.repairs.iter().all(|r| r.at == "party 1 (PIDGEY)"));
    let p = s.party_mons(gen1()).expect("repaired mon converts");
    let p = p.get(0).unwrap();
    assert_eq!(p.level, 1);
    assert_eq!((p.dvs.atk, p.dvs.spc), (15, 0));
    assert_eq!(p.stat_exp.hp, 65535);
    assert_eq!(p.hp, p.stats.max_hp, "HP clamped to the new maximum");
    // The clamp to level 100 too.
    let mut s = vanilla_save();
    s.boxes[0][0].level = 250;
    let report = run(&mut s);
    assert!(report
        .repairs
        .iter()
        .any(|r| r.at == "box 1 slot 1 (RATTATA)" && r.field == "level" && r.to == "100"));
}

#[test]
fn missing_stats_are_derived() {
    let mut s = vanilla_save();
    let expected = s.party[1].stats;
    s.party[1].stats = None;
    let report = run(&mut s);
    assert_eq!(report.repairs.len(), 1);
    assert_eq!(
        (
            report.repairs[0].field.as_str(),
            report.repairs[0].from.as_str()
        ),
        ("stats", "missing")
    );
    assert_eq!(s.party[1].stats, expected);
}

#[test]
fn moves_unknown_dropped_truncated_and_tackle_fallback() {
    let mut s = vanilla_save();
    let m = &mut s.party[0];
    m.moves.insert(
        0,
        crate::save::record::MoveRecord {
            id: "SHADOW_BALL".into(),
            pp: 15,
            pp_ups: 0,
        },
    );
    m.moves.push(crate::save::record::MoveRecord {
        id: "TACKLE".into(),
        pp: 35,
        pp_ups: 0,
    });
    m.moves.push(crate::save::record::MoveRecord {
        id: "TAIL_WHIP".into(),
        pp: 30,
        pp_ups: 0,
    });
    let before: Vec<String> = m.moves.iter().map(|m| m.id.clone()).collect();
    assert_eq!(before.len(), 6);
    let report = run(&mut s);
    let ids: Vec<&str> = s.party[0].moves.iter().map(|m| m.id.as_str()).collect();
    assert_eq!(ids.len(), 4);
    assert_eq!(
        ids,
        before[1..5].iter().map(String::as_str).collect::<Vec<_>>()
    );
    assert!(report
        .repairs
        .iter()
        .any(|r| r.from == "SHADOW_BALL" && r.to == "dropped (unknown move)"));
    assert!(report
        .repairs
        .iter()
        .any(|r| r.from == "TAIL_WHIP" && r.to == "dropped (over four)"));

    // All moves unknown: TACKLE with full PP.
    let mut s = vanilla_save();
    s.boxes[0][0].moves = vec![crate::save::record::MoveRecord {
        id: "FLAMETHROWER_X".into(),
        pp: 3,
        pp_ups: 2,
    }];
    let report = run(&mut s);
    let moves = &s.boxes[0][0].moves;
    assert_eq!(moves.len(), 1);
    assert_eq!(
        (moves[0].id.as_str(), moves[0].pp, moves[0].pp_ups),
        ("TACKLE", 35, 0)
    );
    assert!(report
        .repairs
        .iter()
        .any(|r| r.field == "moves" && r.to == "TACKLE"));
    // PP over the maximum and too many PP Ups are clamped.
    let mut s = vanilla_save();
    s.party[0].moves[0].pp = 80;
    s.party[0].moves[0].pp_ups = 9;
    let report = run(&mut s);
    assert_eq!(report.repairs.len(), 2, "{report:?}");
    assert_eq!(
        (s.party[0].moves[0].pp, s.party[0].moves[0].pp_ups),
        (56, 3)
    );
}

#[test]
fn unknown_maps_are_remapped() {
    // player.map unknown -> lastHeal.
    let mut s = vanilla_save();
    s.player.map = "MOD_ISLAND".into();
    s.player.surfing = true;
    let report = run(&mut s);
    assert_eq!(
        report.remapped_maps,
        vec![RemappedMap {
            id: "MOD_ISLAND".into(),
            to: "PALLET_TOWN".into(),
            field: "player"
        }]
    );
    assert_eq!(
        (
            s.player.map.as_str(),
            s.player.x,
            s.player.y,
            s.player.surfing
        ),
        ("PALLET_TOWN", 5, 6, false)
    );

    // lastHeal unknown -> spawn; player (also unknown) then follows to the spawn.
    let mut s = vanilla_save();
    s.last_heal.map = "MOD_CENTER".into();
    s.player.map = "MOD_ISLAND".into();
    let report = run(&mut s);
    assert_eq!(
        report.remapped_maps,
        vec![
            RemappedMap {
                id: "MOD_CENTER".into(),
                to: "REDS_HOUSE_2F".into(),
                field: "lastHeal"
            },
            RemappedMap {
                id: "MOD_ISLAND".into(),
                to: "REDS_HOUSE_2F".into(),
                field: "player"
            },
        ]
    );
    assert_eq!(s.last_heal, spawn().point());
    assert_eq!((s.player.x, s.player.y), (3, 6));

    // lastOutdoor unknown -> cleared.
    let mut s = vanilla_save();
    s.last_outdoor.as_mut().unwrap().id = "MOD_ROUTE".into();
    let report = run(&mut s);
    assert_eq!(
        report.remapped_maps,
        vec![RemappedMap {
            id: "MOD_ROUTE".into(),
            to: String::new(),
            field: "lastOutdoor"
        }]
    );
    assert_eq!(s.last_outdoor, None);
}

#[test]
fn unknown_species_leave_the_pokedex() {
    let mut s = vanilla_save();
    s.pokedex.seen.insert("FAKEMON".into());
    s.pokedex.owned.insert("FAKEMON".into());
    s.pokedex.seen.insert("ZZMON".into());
    let report = run(&mut s);
    assert_eq!(
        report.dropped_dex,
        vec!["FAKEMON".to_string(), "ZZMON".to_string()]
    );
    assert!(!s.pokedex.seen.contains("FAKEMON") && !s.pokedex.owned.contains("FAKEMON"));
    assert!(s.pokedex.seen.contains("PIDGEY"));
}

#[test]
fn layout_repairs_overfull_party_boxes_and_current_box() {
    let mut s = vanilla_save();
    s.party = vec![record("PIDGEY", 5); 8];
    s.current_box = 40;
    s.boxes.truncate(3);
    s.boxes[2] = vec![record("RATTATA", 3); BOX_CAPACITY + 2];
    let report = run(&mut s);
    assert_eq!(s.party.len(), 6);
    assert_eq!(s.boxes.len(), 12);
    assert!(s.boxes.iter().all(|b| b.len() <= BOX_CAPACITY));
    assert_eq!(s.current_box, 12);
    assert!(report
        .repairs
        .iter()
        .any(|r| r.field == "currentBox" && r.from == "40" && r.to == "12"));
    assert!(report
        .repairs
        .iter()
        .any(|r| r.field == "count" && r.from == "3" && r.to == "12"));
    // Two extra box mons and two extra party mons moved to other boxes (current box 12 first).
    assert_eq!(
        report.repairs.iter().filter(|r| r.field == "place").count(),
        4,
        "{:?}",
        report.repairs
    );
    assert_eq!(s.boxes[11].len(), 4);
    let total: usize = s.party.len() + s.boxes.iter().map(Vec::len).sum::<usize>();
    // Party 6 + 2 extra; box 1 holds 1; box 3 holds 22. (Box 4 of the fixture was cut off.)
    assert_eq!(total, 6 + 2 + 1 + BOX_CAPACITY + 2);
}

#[test]
fn item_counts_and_money_are_clamped() {
    let mut s = vanilla_save();
    s.inventory[0].count = 250;
    s.inventory[1].count = 0;
    s.money = 5_000_000;
    let report = run(&mut s);
    assert_eq!(
        s.inventory,
        vec![ItemStack {
            id: "POKE_BALL".into(),
            count: 99
        }]
    );
    assert_eq!(s.money, 999_999);
    assert_eq!(report.repairs.len(), 3);
}

#[test]
fn status_repairs() {
    let mut s = vanilla_save();
    s.party[1].status = "TOX".into();
    s.party[1].sleep_turns = 2;
    s.party[0].sleep_turns = 40; // SLP
    let report = run(&mut s);
    assert_eq!(s.party[1].status, "");
    assert_eq!(s.party[1].sleep_turns, 0);
    assert_eq!(s.party[0].sleep_turns, 7);
    assert_eq!(report.repairs.len(), 3, "{report:?}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// The report is empty exactly when the save did not change; and validation is idempotent.
    #[test]
    fn empty_report_iff_unchanged(
        base in super::roundtrip::arb_vanilla_save(),
        level in -5i64..120,
        dv in -2i64..20,
        hp_delta in -3i64..3,
        species_pick in 0usize..5,
        map_pick in 0usize..7,
        orphan in any::<bool>(),
    ) {
        let mut s = base;
        s.party[0].level = level;
        s.party[0].dvs.def = dv;
        s.party[0].hp += hp_delta;
        let species = ["PIDGEY", "RATTATA", "MEWTWO", "FAKEMON", "MOD_BIRD"][species_pick];
        s.party[0].species = species.to_string();
        let maps = ["PALLET_TOWN", "ROUTE_1", "VERMILION_DOCK", "REDS_HOUSE_2F", "VERMILION_CITY", "NOWHERE", "MOD_MAP"];
        s.player.map = maps[map_pick].to_string();
        if orphan {
            s.orphaned.mons.push(OrphanMon { from: "box 1".into(), mon: record("RATTATA", 3) });
        }
        let before = s.clone();
        let report = validate(&mut s, &env());
        prop_assert_eq!(report.is_empty(), s == before, "{:?}", report);
        let mut again = s.clone();
        prop_assert!(validate(&mut again, &env()).is_empty());
        prop_assert_eq!(&again, &s);
        // After validation every record converts to a live mon.
        prop_assert!(s.party_mons(gen1()).is_ok());
        prop_assert!(s.box_mons(gen1()).is_ok());
    }
}

#[test]
fn a_save_shaped_by_content_mods_reports_them_when_they_are_missing() {
    use crate::save::data::ContentModRef;
    use crate::save::validate::validate_with_content;
    let mut s = vanilla_save();
    s.meta.content_mods = vec![
        ContentModRef {
            id: "berries".into(),
            version: "1.0.0".into(),
        },
        ContentModRef {
            id: "clubhouse".into(),
            version: "2.0.0".into(),
        },
    ];
    // A mon of a species only the missing mod had is quarantined, never silently kept.
    let mut modmon = record("PIDGEY", 20);
    modmon.species = "BERRYMON".into();
    s.party.push(modmon);
    let active = vec![("clubhouse".to_owned(), "2.1.0".to_owned())];
    let report = validate_with_content(&mut s, &env(), &active);
    let missing: Vec<(&str, &str)> = report
        .missing_content_mods
        .iter()
        .map(|m| (m.id.as_str(), m.reason))
        .collect();
    assert_eq!(
        missing,
        vec![("berries", "not_loaded"), ("clubhouse", "other_version")]
    );
    assert_eq!(report.lost_mons.len(), 1);
    assert_eq!(s.orphaned.mons.len(), 1);
    // With every content mod active, nothing is reported.
    let mut clean = vanilla_save();
    clean.meta.content_mods = vec![ContentModRef {
        id: "clubhouse".into(),
        version: "2.1.0".into(),
    }];
    assert!(validate_with_content(&mut clean, &env(), &active).is_empty());
    assert!(validate_with_content(&mut clean, &env(), &active)
        .missing_content_mods
        .is_empty());
}
