//! Encoding determinism and round trips.

use std::collections::BTreeMap;

use pallet_api::Value;
use proptest::prelude::*;

use super::*;
use crate::save::codec::{decode, encode, DecodeError, EncodeError, MAX_VALUE_DEPTH};
use crate::save::data::{Meta, OrphanItem, OrphanMon, Orphaned, PlayerState, Pokedex, SAVE_FORMAT};
use crate::save::record::{DvsRecord, MoveRecord, RecordError, StatExpRecord, StatsRecord};
use crate::save::validate::validate;

fn round_trip(s: &SaveData) -> Vec<u8> {
    let bytes = encode(s).expect("encode");
    let back = decode(&bytes).expect("decode");
    assert_eq!(&back, s, "decode(encode(s)) == s");
    let again = encode(&back).expect("re-encode");
    assert_eq!(again, bytes, "re-encoding is byte-identical");
    bytes
}

#[test]
fn new_game_round_trips_and_has_the_reference_keys() {
    let s = SaveData::new_game(GameVersion::Blue, "RED", "BLUE", 7, &spawn());
    let bytes = round_trip(&s);
    let text = String::from_utf8(bytes).unwrap();
    assert!(text.starts_with("PALLET-SAVE 1\n{\n"));
    for key in [
        "\"meta\"",
        "\"format\": 1",
        "\"engine\"",
        "\"mods\"",
        "\"version\": \"blue\"",
        "\"player\"",
        "\"facing\": \"up\"",
        "\"flags\"",
        "\"inventory\"",
        "\"pcItems\"",
        "\"party\"",
        "\"boxes\"",
        "\"currentBox\": 1",
        "\"money\": 3000",
        "\"defeatedTrainers\"",
        "\"pokedex\"",
        "\"lastHeal\"",
        "\"repelSteps\"",
        "\"modData\"",
    ] {
        assert!(text.contains(key), "missing {key}");
    }
    // No wall clock, no empty quarantine, no options, no unset optional keys.
    for absent in [
        "savedAt",
        "orphaned",
        "options",
        "playthroughId",
        "lastOutdoor",
        "surfing",
    ] {
        assert!(!text.contains(absent), "unexpected {absent}");
    }
    assert_eq!(
        s.pc_items,
        vec![ItemStack {
            id: "POTION".into(),
            count: 1
        }]
    );
    assert_eq!(s.boxes.len(), 12);
}

#[test]
fn vanilla_save_reencodes_byte_identically_and_validates_clean() {
    let s = vanilla_save();
    let bytes = round_trip(&s);
    let mut v = decode(&bytes).unwrap();
    let report = validate(&mut v, &env());
    assert!(report.is_empty(), "{report:?}");
    assert_eq!(encode(&v).unwrap(), bytes);
    // Keys are sorted inside maps: "list" < "name" < "ratio" < "wins".
    let text = String::from_utf8(bytes).unwrap();
    let mod_data = &text[text.find("\"modData\"").unwrap()..];
    let pos = |k: &str| mod_data.find(k).unwrap();
    assert!(
        pos("\"list\"") < pos("\"name\"")
            && pos("\"name\"") < pos("\"ratio\"")
            && pos("\"ratio\"") < pos("\"wins\"")
    );
}

#[test]
fn same_progress_same_bytes() {
    assert_eq!(
        encode(&vanilla_save()).unwrap(),
        encode(&vanilla_save()).unwrap()
    );
}

#[test]
fn live_party_and_boxes_convert_both_ways() {
    let data = gen1();
    let s = vanilla_save();
    let party = s.party_mons(data).unwrap();
    assert_eq!(party.len(), 2);
    assert_eq!(party.get(0).unwrap().nickname.as_deref(), Some("BIRDY"));
    assert_eq!(party.get(0).unwrap().status, Status::Sleep(3));
    let boxes = s.box_mons(data).unwrap();
    assert_eq!(boxes.current_box(), 4);
    assert_eq!(boxes.total(), 2);
    let mut s2 = s.clone();
    s2.set_party(&party, data).unwrap();
    s2.set_boxes(&boxes, data).unwrap();
    assert_eq!(s2, s);
}

#[test]
fn pokemon_record_round_trip_and_strict_errors() {
    let data = gen1();
    let mut m = mon(data, "MEWTWO", 100);
    m.stat_exp = StatExp::MAX;
    m.recompute_stats(data);
    m.status = Status::Paralysis;
    m.pp_ups = [3, 0, 1, 0];
    let r = MonRecord::from_pokemon(&m, data).unwrap();
    assert_eq!(r.species, "MEWTWO");
    assert_eq!(r.to_pokemon(data).unwrap(), m);

    let mut bad = r.clone();
    bad.species = "MISSINGNO_MOD".into();
    assert_eq!(
        bad.to_pokemon(data),
        Err(RecordError::UnknownSpecies("MISSINGNO_MOD".into()))
    );
    assert_eq!(
        bad.to_pokemon(data).unwrap_err().to_string(),
        "unknown species `MISSINGNO_MOD` (not in the active dataset)"
    );
    let mut bad = r.clone();
    bad.moves[1].id = "SHADOW_BALL".into();
    assert_eq!(
        bad.to_pokemon(data).unwrap_err().to_string(),
        "unknown move `SHADOW_BALL` on MEWTWO"
    );
    let mut bad = r.clone();
    bad.dvs.atk = 16;
    assert!(matches!(
        bad.to_pokemon(data),
        Err(RecordError::OutOfRange {
            field: "dvs.atk",
            value: 16,
            ..
        })
    ));
    let mut bad = r.clone();
    bad.status = "TOX".into();
    assert!(matches!(
        bad.to_pokemon(data),
        Err(RecordError::UnknownStatus { .. })
    ));
    let mut bad = r.clone();
    bad.moves.push(bad.moves[0].clone());
    assert!(matches!(
        bad.to_pokemon(data),
        Err(RecordError::TooManyMoves { count: 5, .. })
    ));
    // Missing stats are derived.
    let mut no_stats = r.clone();
    no_stats.stats = None;
    assert_eq!(no_stats.to_pokemon(data).unwrap().stats, m.stats);
}

#[test]
fn decode_rejects_foreign_and_future_files() {
    assert!(matches!(decode(b""), Err(DecodeError::NotASave)));
    assert!(matches!(decode(b"return {}\n"), Err(DecodeError::NotASave)));
    assert!(
        matches!(decode(b"PALLET-SAVE 2\n{}"), Err(DecodeError::UnsupportedEncoding(v)) if v == "2")
    );
    let mut s = vanilla_save();
    s.meta.format = SAVE_FORMAT + 1;
    let bytes = encode(&s).unwrap();
    assert!(
        matches!(decode(&bytes), Err(DecodeError::UnsupportedFormat { found }) if found == SAVE_FORMAT + 1)
    );
    // Unknown top-level key: a clear field error, not silent loss.
    let text = String::from_utf8(encode(&vanilla_save()).unwrap()).unwrap();
    let with_extra = text.replacen("\"money\":", "\"casinoChips\": 5,\n  \"money\":", 1);
    let err = decode(with_extra.as_bytes()).unwrap_err();
    assert!(
        err.to_string().contains("unknown field `casinoChips`"),
        "{err}"
    );
    // Unknown game version.
    let gold = text.replacen("\"version\": \"red\"", "\"version\": \"gold\"", 1);
    assert!(matches!(decode(gold.as_bytes()), Err(DecodeError::Json(_))));
    // Not UTF-8.
    let mut bin = b"PALLET-SAVE 1\n".to_vec();
    bin.extend_from_slice(&[0xff, 0xfe]);
    assert!(matches!(decode(&bin), Err(DecodeError::NotUtf8(14))));
}

#[test]
fn encode_refuses_non_data_mod_values() {
    let mut s = vanilla_save();
    let mut inner = BTreeMap::new();
    inner.insert(
        "x".to_string(),
        Value::List(vec![Value::Int(1), Value::Float(f64::NAN)]),
    );
    s.mod_data.insert("bad.mod".into(), Value::Map(inner));
    match encode(&s) {
        Err(EncodeError::NonFinite { path, what }) => {
            assert_eq!(path, "bad.mod.x[1]");
            assert_eq!(what, "NaN");
        }
        other => panic!("{other:?}"),
    }
    let mut s = vanilla_save();
    s.mod_data
        .insert("inf".into(), Value::Float(f64::NEG_INFINITY));
    assert!(matches!(
        encode(&s),
        Err(EncodeError::NonFinite {
            what: "infinity",
            ..
        })
    ));

    // Nesting: exactly the limit encodes and decodes; one more is refused.
    let nest = |n: usize| (1..n).fold(Value::Int(0), |v, _| Value::List(vec![v]));
    let mut s = vanilla_save();
    s.mod_data.insert("deep".into(), nest(MAX_VALUE_DEPTH));
    round_trip(&s);
    s.mod_data.insert("deep".into(), nest(MAX_VALUE_DEPTH + 1));
    assert!(matches!(encode(&s), Err(EncodeError::TooDeep { .. })));
}

#[test]
fn empty_orphaned_is_omitted() {
    let mut s = vanilla_save();
    s.orphaned = Orphaned::default();
    assert!(!String::from_utf8(encode(&s).unwrap())
        .unwrap()
        .contains("orphaned"));
    s.orphaned.items.push(OrphanItem {
        id: "X".into(),
        count: 1,
        from: "bag".into(),
    });
    let text = String::from_utf8(round_trip(&s)).unwrap();
    assert!(text.contains("\"orphaned\""));
    assert!(!text.contains("\"mons\": []"));
}

// ---------- property tests ----------

fn arb_mon_record() -> impl Strategy<Value = MonRecord> {
    (
        (
            ".{0,10}",
            proptest::option::of(".{0,10}"),
            any::<i64>(),
            any::<i64>(),
        ),
        (
            any::<[i64; 4]>(),
            any::<[i64; 5]>(),
            proptest::option::of(any::<[i64; 5]>()),
        ),
        prop::collection::vec((".{0,8}", any::<i64>(), any::<i64>()), 0..6),
        (any::<i64>(), ".{0,4}", any::<i64>(), ".{0,7}", any::<i64>()),
    )
        .prop_map(
            |(
                (species, nickname, level, exp),
                (d, se, st),
                moves,
                (hp, status, sleep_turns, ot_name, ot_id),
            )| MonRecord {
                species,
                nickname,
                level,
                exp,
                dvs: DvsRecord {
                    atk: d[0],
                    def: d[1],
                    spe: d[2],
                    spc: d[3],
                },
                stat_exp: StatExpRecord {
                    hp: se[0],
                    atk: se[1],
                    def: se[2],
                    spe: se[3],
                    spc: se[4],
                },
                moves: moves
                    .into_iter()
                    .map(|(id, pp, pp_ups)| MoveRecord { id, pp, pp_ups })
                    .collect(),
                hp,
                status,
                sleep_turns,
                stats: st.map(|s| StatsRecord {
                    max_hp: s[0],
                    atk: s[1],
                    def: s[2],
                    spe: s[3],
                    spc: s[4],
                }),
                ot_name,
                ot_id,
            },
        )
}

fn arb_items() -> impl Strategy<Value = Vec<ItemStack>> {
    prop::collection::vec(
        (".{0,10}", any::<u32>()).prop_map(|(id, count)| ItemStack { id, count }),
        0..5,
    )
}

fn arb_facing() -> impl Strategy<Value = Direction> {
    prop::sample::select(Direction::ALL.to_vec())
}

/// Any save the struct can hold: arbitrary strings and numbers, not necessarily valid content.
fn arb_any_save() -> impl Strategy<Value = SaveData> {
    (
        (
            (0..=SAVE_FORMAT, ".{0,12}", proptest::option::of(".{0,12}")),
            prop::collection::vec(
                (".{0,6}", ".{0,6}", any::<u32>()).prop_map(|(id, version, api)| ModStamp {
                    id,
                    version,
                    api,
                }),
                0..3,
            ),
            prop::sample::select(GameVersion::ALL.to_vec()),
            (
                ".{0,12}",
                any::<u16>(),
                any::<u16>(),
                arb_facing(),
                any::<bool>(),
                ".{0,7}",
                ".{0,7}",
                any::<u16>(),
            ),
        ),
        (
            prop::collection::btree_set(".{0,16}", 0..6),
            arb_items(),
            arb_items(),
            prop::collection::vec(arb_mon_record(), 0..8),
            prop::collection::vec(prop::collection::vec(arb_mon_record(), 0..3), 0..14),
            any::<i64>(),
            any::<u32>(),
        ),
        (
            prop::collection::btree_set(".{0,8}", 0..4),
            prop::collection::btree_set(".{0,8}", 0..4),
            prop::collection::btree_set(".{0,8}", 0..4),
            (".{0,8}", any::<u16>(), any::<u16>()),
            proptest::option::of((".{0,8}", any::<u16>(), any::<u16>())),
            any::<u32>(),
            prop::collection::btree_map(".{0,8}", arb_value(), 0..4),
            prop::collection::vec((".{0,6}", arb_mon_record()), 0..3),
            prop::collection::vec((".{0,6}", any::<u32>(), ".{0,4}"), 0..3),
        ),
    )
        .prop_map(|(a, b, c)| {
            let (
                (format, engine, playthrough_id),
                mods,
                version,
                (map, x, y, facing, surfing, name, rival, id),
            ) = a;
            let (flags, inventory, pc_items, party, boxes, current_box, money) = b;
            let (
                defeated_trainers,
                seen,
                owned,
                heal,
                outdoor,
                repel_steps,
                mod_data,
                omons,
                oitems,
            ) = c;
            // Object toggles derived from the flags (map -> object -> visible).
            let object_toggles = flags
                .iter()
                .take(3)
                .map(|f| {
                    let objs = [(f.to_ascii_lowercase(), f.len() % 2 == 0)];
                    (f.clone(), objs.into_iter().collect())
                })
                .collect();
            SaveData {
                meta: Meta {
                    format,
                    engine,
                    playthrough_id,
                    mods,
                    content_mods: Vec::new(),
                },
                version,
                player: PlayerState {
                    map,
                    x,
                    y,
                    facing,
                    surfing,
                    name,
                    rival,
                    id,
                },
                flags,
                inventory,
                pc_items,
                party,
                boxes,
                current_box,
                money,
                coins: 0,
                defeated_trainers,
                pokedex: Pokedex { seen, owned },
                last_heal: MapPoint {
                    map: heal.0,
                    x: heal.1,
                    y: heal.2,
                },
                last_outdoor: outdoor.map(|(id, x, y)| OutdoorPoint { id, x, y }),
                repel_steps,
                object_toggles,
                mod_data,
                orphaned: Orphaned {
                    mons: omons
                        .into_iter()
                        .map(|(from, mon)| OrphanMon { from, mon })
                        .collect(),
                    items: oitems
                        .into_iter()
                        .map(|(id, count, from)| OrphanItem { id, count, from })
                        .collect(),
                },
            }
        })
}

/// A save a real game could write: mons built by the engine from dataset ids.
pub(super) fn arb_vanilla_save() -> impl Strategy<Value = SaveData> {
    let species_ids: Vec<&'static str> = gen1().species.iter().map(|sp| sp.id).collect();
    let move_count = gen1().moves.len() as u16;
    let arb_mon = (
        (
            prop::sample::select(species_ids),
            proptest::option::of(prop::collection::btree_set(1..=move_count, 1..=4)),
        ),
        1u8..=100,
        any::<[u8; 2]>(),
        any::<[u16; 5]>(),
        any::<[u8; 4]>(),
        0u8..6,
        proptest::option::of("[A-Z]{1,10}"),
        any::<u32>(),
    )
        .prop_map(
            |((species, moves), level, dv_bytes, se, pp_seed, status, nickname, exp_seed)| {
                let data = gen1();
                let mut m = mon(data, species, level);
                if let Some(moves) = moves {
                    // Any distinct known moves (as a TM or a mod could teach).
                    m.moves = [None; 4];
                    for (slot, id) in moves.into_iter().enumerate() {
                        m.moves[slot] = Some(crate::data::MoveId(id));
                    }
                }
                m.dvs = Dvs::from_bytes(dv_bytes);
                m.stat_exp = StatExp {
                    hp: se[0],
                    atk: se[1],
                    def: se[2],
                    spe: se[3],
                    spc: se[4],
                };
                m.recompute_stats(data);
                m.hp = (exp_seed % (u32::from(m.stats.max_hp) + 1)) as u16;
                for (slot, seed) in pp_seed.iter().enumerate() {
                    m.pp_ups[slot] = 0;
                    m.pp[slot] = 0;
                    if m.moves[slot].is_some() {
                        m.pp_ups[slot] = seed % 4;
                        let max = m.max_pp(data, slot).unwrap_or(0);
                        m.pp[slot] = seed % (max + 1);
                    }
                }
                m.status = [
                    Status::None,
                    Status::Poison,
                    Status::Burn,
                    Status::Freeze,
                    Status::Paralysis,
                    Status::Sleep(1 + pp_seed[0] % 7),
                ][status as usize];
                m.nickname = nickname;
                MonRecord::from_pokemon(&m, data).unwrap()
            },
        );
    (
        prop::collection::vec(arb_mon.clone(), 1..=6),
        prop::collection::vec(prop::collection::vec(arb_mon, 0..4), 12..=12),
        1i64..=12,
        prop::sample::subsequence(
            gen1().items.iter().map(|it| it.id).collect::<Vec<_>>(),
            0..=20,
        ),
        prop::sample::select(KNOWN_MAPS.to_vec()),
        prop::collection::btree_map("[a-z.]{1,8}", arb_value(), 0..3),
        prop::collection::btree_set("EVENT_[A-Z_]{1,12}", 0..5),
        0u32..=999_999,
    )
        .prop_map(
            |(party, boxes, current_box, items, map, mod_data, flags, money)| {
                let mut s = vanilla_save();
                s.party = party;
                s.boxes = boxes;
                s.current_box = current_box;
                s.inventory = items
                    .iter()
                    .enumerate()
                    .map(|(i, id)| ItemStack {
                        id: id.to_string(),
                        count: 1 + (i as u32 * 7) % 99,
                    })
                    .collect();
                s.player.map = map.to_string();
                s.mod_data = mod_data;
                s.flags = flags;
                s.money = money;
                s
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Any save: encode → decode → encode is byte-identical (and decode inverts encode).
    #[test]
    fn any_save_round_trips(s in arb_any_save()) {
        let bytes = encode(&s).expect("encode");
        let back = decode(&bytes).expect("decode");
        prop_assert_eq!(&back, &s);
        prop_assert_eq!(encode(&back).expect("re-encode"), bytes);
    }

    /// A vanilla save validates clean and re-encodes byte-identically afterwards.
    #[test]
    fn vanilla_saves_validate_clean_and_reencode(s in arb_vanilla_save()) {
        let bytes = encode(&s).expect("encode");
        let mut back = decode(&bytes).expect("decode");
        let report = validate(&mut back, &env());
        prop_assert!(report.is_empty(), "{:?}", report);
        prop_assert_eq!(encode(&back).expect("re-encode"), bytes);
        // Every record converts to a live mon.
        prop_assert!(back.party_mons(gen1()).is_ok());
        prop_assert!(back.box_mons(gen1()).is_ok());
    }
}
