//! Version-exclusive wild grass encounters for a few maps, so each imported dataset carries the
//! data where its game differs from its sibling. Facts transcribed from the pret disassemblies:
//! pokered `data/wild/maps/Route{4,24,25}.asm` (Red/Blue `IF DEF` branches), pokeyellow's
//! files of the same names, and pokegold `data/wild/johto_grass.asm` (Gold/Silver branches).
//! Gen 1 tables have ten `(level, species)` slots; Gen 2 tables have seven per time of day,
//! and their rate is the cartridge byte of `N percent` (`N * 255 / 100`).
//!
//! This is a deliberately small sample (the maps where the versions differ early on), not
//! every map of the games.

use std::collections::BTreeMap;

use pallet_api::catalog::common::GameVersion;
use pallet_api::Value;

type Slots = &'static [(u8, &'static str)];

/// `(map id, grass rate byte, red, blue, yellow)`.
const GEN1: &[(&str, u8, Slots, Slots, Slots)] = &[
    (
        "ROUTE_4",
        20,
        &[
            (10, "RATTATA"),
            (10, "SPEAROW"),
            (8, "RATTATA"),
            (6, "EKANS"),
            (8, "SPEAROW"),
            (10, "EKANS"),
            (12, "RATTATA"),
            (12, "SPEAROW"),
            (8, "EKANS"),
            (12, "EKANS"),
        ],
        &[
            (10, "RATTATA"),
            (10, "SPEAROW"),
            (8, "RATTATA"),
            (6, "SANDSHREW"),
            (8, "SPEAROW"),
            (10, "SANDSHREW"),
            (12, "RATTATA"),
            (12, "SPEAROW"),
            (8, "SANDSHREW"),
            (12, "SANDSHREW"),
        ],
        &[
            (8, "SPEAROW"),
            (9, "SPEAROW"),
            (9, "MANKEY"),
            (10, "SPEAROW"),
            (8, "SANDSHREW"),
            (10, "RATTATA"),
            (10, "SANDSHREW"),
            (12, "RATTATA"),
            (11, "SPEAROW"),
            (12, "SPEAROW"),
        ],
    ),
    (
        "ROUTE_24",
        25,
        &[
            (7, "WEEDLE"),
            (8, "KAKUNA"),
            (12, "PIDGEY"),
            (12, "ODDISH"),
            (13, "ODDISH"),
            (10, "ABRA"),
            (14, "ODDISH"),
            (13, "PIDGEY"),
            (8, "ABRA"),
            (12, "ABRA"),
        ],
        &[
            (7, "CATERPIE"),
            (8, "METAPOD"),
            (12, "PIDGEY"),
            (12, "BELLSPROUT"),
            (13, "BELLSPROUT"),
            (10, "ABRA"),
            (14, "BELLSPROUT"),
            (13, "PIDGEY"),
            (8, "ABRA"),
            (12, "ABRA"),
        ],
        &[
            (12, "ODDISH"),
            (12, "BELLSPROUT"),
            (13, "PIDGEY"),
            (14, "ODDISH"),
            (14, "BELLSPROUT"),
            (15, "PIDGEY"),
            (13, "VENONAT"),
            (16, "VENONAT"),
            (17, "PIDGEY"),
            (17, "PIDGEOTTO"),
        ],
    ),
    (
        "ROUTE_25",
        15,
        &[
            (8, "WEEDLE"),
            (9, "KAKUNA"),
            (13, "PIDGEY"),
            (12, "ODDISH"),
            (13, "ODDISH"),
            (12, "ABRA"),
            (14, "ODDISH"),
            (10, "ABRA"),
            (7, "METAPOD"),
            (8, "CATERPIE"),
        ],
        &[
            (8, "CATERPIE"),
            (9, "METAPOD"),
            (13, "PIDGEY"),
            (12, "BELLSPROUT"),
            (13, "BELLSPROUT"),
            (12, "ABRA"),
            (14, "BELLSPROUT"),
            (10, "ABRA"),
            (7, "KAKUNA"),
            (8, "WEEDLE"),
        ],
        &[
            (12, "ODDISH"),
            (12, "BELLSPROUT"),
            (13, "PIDGEY"),
            (14, "ODDISH"),
            (14, "BELLSPROUT"),
            (15, "PIDGEY"),
            (13, "VENONAT"),
            (16, "VENONAT"),
            (17, "PIDGEY"),
            (17, "PIDGEOTTO"),
        ],
    ),
];

/// Morning, day and night slots.
type Times = [Slots; 3];

/// `(map id, rate percent, gold, silver)`.
const GEN2: &[(&str, u8, Times, Times)] = &[
    (
        "NATIONAL_PARK",
        10,
        [
            &[
                (10, "CATERPIE"),
                (10, "METAPOD"),
                (12, "CATERPIE"),
                (12, "PIDGEY"),
                (10, "PIDGEY"),
                (14, "PIDGEY"),
                (14, "PIDGEY"),
            ],
            &[
                (10, "CATERPIE"),
                (10, "METAPOD"),
                (11, "SUNKERN"),
                (12, "PIDGEY"),
                (13, "SUNKERN"),
                (14, "PIDGEY"),
                (14, "PIDGEY"),
            ],
            NATIONAL_PARK_NIGHT,
        ],
        [
            &[
                (10, "WEEDLE"),
                (10, "KAKUNA"),
                (12, "WEEDLE"),
                (12, "PIDGEY"),
                (10, "PIDGEY"),
                (14, "PIDGEY"),
                (14, "PIDGEY"),
            ],
            &[
                (10, "WEEDLE"),
                (10, "KAKUNA"),
                (11, "SUNKERN"),
                (12, "PIDGEY"),
                (13, "SUNKERN"),
                (14, "PIDGEY"),
                (14, "PIDGEY"),
            ],
            NATIONAL_PARK_NIGHT,
        ],
    ),
    (
        "UNION_CAVE_1F",
        6,
        [UNION_CAVE_1F_GOLD, UNION_CAVE_1F_GOLD, UNION_CAVE_1F_GOLD],
        [
            UNION_CAVE_1F_SILVER,
            UNION_CAVE_1F_SILVER,
            UNION_CAVE_1F_SILVER,
        ],
    ),
    (
        "ILEX_FOREST",
        4,
        [
            &[
                (5, "CATERPIE"),
                (6, "METAPOD"),
                (6, "CATERPIE"),
                (5, "PARAS"),
                (5, "ZUBAT"),
                (6, "PARAS"),
                (6, "PARAS"),
            ],
            &[
                (5, "CATERPIE"),
                (6, "CATERPIE"),
                (5, "METAPOD"),
                (6, "METAPOD"),
                (5, "ZUBAT"),
                (6, "PARAS"),
                (6, "PARAS"),
            ],
            ILEX_FOREST_NIGHT,
        ],
        [
            &[
                (5, "WEEDLE"),
                (6, "KAKUNA"),
                (6, "WEEDLE"),
                (5, "PARAS"),
                (5, "ZUBAT"),
                (6, "PARAS"),
                (6, "PARAS"),
            ],
            &[
                (5, "WEEDLE"),
                (6, "WEEDLE"),
                (5, "KAKUNA"),
                (6, "KAKUNA"),
                (5, "ZUBAT"),
                (6, "PARAS"),
                (6, "PARAS"),
            ],
            ILEX_FOREST_NIGHT,
        ],
    ),
    (
        "ICE_PATH_1F",
        2,
        [
            &[
                (21, "SWINUB"),
                (22, "GOLBAT"),
                (22, "ZUBAT"),
                (23, "SWINUB"),
                (22, "ZUBAT"),
                (22, "JYNX"),
                (22, "JYNX"),
            ],
            &[
                (21, "SWINUB"),
                (22, "GOLBAT"),
                (22, "ZUBAT"),
                (23, "SWINUB"),
                (22, "JYNX"),
                (20, "JYNX"),
                (20, "JYNX"),
            ],
            &[
                (21, "SWINUB"),
                (22, "GOLBAT"),
                (22, "ZUBAT"),
                (23, "SWINUB"),
                (22, "ZUBAT"),
                (22, "JYNX"),
                (22, "JYNX"),
            ],
        ],
        [
            &[
                (21, "SWINUB"),
                (22, "GOLBAT"),
                (22, "DELIBIRD"),
                (23, "SWINUB"),
                (22, "ZUBAT"),
                (22, "JYNX"),
                (22, "JYNX"),
            ],
            &[
                (21, "SWINUB"),
                (22, "GOLBAT"),
                (22, "DELIBIRD"),
                (23, "SWINUB"),
                (22, "JYNX"),
                (20, "JYNX"),
                (20, "JYNX"),
            ],
            &[
                (21, "SWINUB"),
                (22, "GOLBAT"),
                (22, "DELIBIRD"),
                (23, "SWINUB"),
                (22, "ZUBAT"),
                (22, "JYNX"),
                (22, "JYNX"),
            ],
        ],
    ),
    (
        "RUINS_OF_ALPH_OUTSIDE",
        4,
        [RUINS_OF_ALPH, RUINS_OF_ALPH, RUINS_OF_ALPH],
        [RUINS_OF_ALPH, RUINS_OF_ALPH, RUINS_OF_ALPH],
    ),
];

const NATIONAL_PARK_NIGHT: Slots = &[
    (10, "HOOTHOOT"),
    (10, "HOOTHOOT"),
    (12, "HOOTHOOT"),
    (12, "HOOTHOOT"),
    (10, "HOOTHOOT"),
    (14, "HOOTHOOT"),
    (14, "HOOTHOOT"),
];
const UNION_CAVE_1F_GOLD: Slots = &[
    (6, "GEODUDE"),
    (6, "SANDSHREW"),
    (5, "ZUBAT"),
    (4, "RATTATA"),
    (7, "ZUBAT"),
    (6, "ONIX"),
    (6, "ONIX"),
];
const UNION_CAVE_1F_SILVER: Slots = &[
    (6, "GEODUDE"),
    (6, "RATTATA"),
    (5, "ZUBAT"),
    (4, "RATTATA"),
    (7, "ZUBAT"),
    (6, "ONIX"),
    (6, "ONIX"),
];
const ILEX_FOREST_NIGHT: Slots = &[
    (5, "ODDISH"),
    (6, "ODDISH"),
    (6, "ZUBAT"),
    (5, "PARAS"),
    (5, "ZUBAT"),
    (6, "PARAS"),
    (6, "PARAS"),
];
const RUINS_OF_ALPH: Slots = &[
    (20, "NATU"),
    (22, "NATU"),
    (18, "NATU"),
    (24, "NATU"),
    (20, "SMEARGLE"),
    (22, "SMEARGLE"),
    (22, "SMEARGLE"),
];

fn table(rate: u8, slots: Slots) -> Value {
    Value::map([
        ("rate", Value::Int(rate.into())),
        (
            "slots",
            Value::List(
                slots
                    .iter()
                    .map(|&(level, species)| {
                        Value::map([
                            ("species", Value::from(species)),
                            ("level", Value::Int(level.into())),
                        ])
                    })
                    .collect(),
            ),
        ),
    ])
}

/// The encounters records of `version` (map id → `{grass = {rate, slots}}`; Gen 2 adds
/// `grassMorning` and `grassNight`, `grass` being the day table).
pub fn records(version: GameVersion) -> BTreeMap<String, Value> {
    let mut out = BTreeMap::new();
    match version {
        GameVersion::Red | GameVersion::Blue | GameVersion::Yellow => {
            for &(map, rate, red, blue, yellow) in GEN1 {
                let slots = match version {
                    GameVersion::Red => red,
                    GameVersion::Blue => blue,
                    _ => yellow,
                };
                out.insert(map.to_owned(), Value::map([("grass", table(rate, slots))]));
            }
        }
        GameVersion::Gold | GameVersion::Silver => {
            for &(map, percent, gold, silver) in GEN2 {
                let [morning, day, night] = if version == GameVersion::Gold {
                    gold
                } else {
                    silver
                };
                // The cartridge's `percent` macro: N * $ff / 100.
                let rate = (u16::from(percent) * 255 / 100) as u8;
                out.insert(
                    map.to_owned(),
                    Value::map([
                        ("grass", table(rate, day)),
                        ("grassMorning", table(rate, morning)),
                        ("grassNight", table(rate, night)),
                    ]),
                );
            }
        }
    }
    out
}
