//! Base records the Lua engine's public mods name that Pallet's embedded dataset does not hold
//! as game data (issue 18): the cartridge's item slots without a bag role in Pallet — the
//! elevator floors (`FLOOR_B2F` … `FLOOR_B4F`), the TMs and HMs (`TM_MEGA_PUNCH`, `HM_CUT`,
//! ids as the Lua engine spells them: the move taught), `SURFBOARD` and the two unnamed slots —
//! and every Gen 1 trainer class (`ROCKET`, `BROCK`, …; reached as `OPP_ROCKET` too, see
//! `pallet_api::content::public_ids`). Public Gen 1 facts: item numbers, TM/HM contents, class
//! names. A patch to these records is kept and read back (names, pictures); Pallet has no TM
//! teaching or elevator engine yet, and a class without a party is never fought.

use std::collections::BTreeMap;

use pallet_api::Value;

/// The elevator floor items: `(id, name)`, numbered from 0x54.
const FLOORS: &[(&str, &str)] = &[
    ("FLOOR_B2F", "B2F"),
    ("FLOOR_B1F", "B1F"),
    ("FLOOR_1F", "1F"),
    ("FLOOR_2F", "2F"),
    ("FLOOR_3F", "3F"),
    ("FLOOR_4F", "4F"),
    ("FLOOR_5F", "5F"),
    ("FLOOR_6F", "6F"),
    ("FLOOR_7F", "7F"),
    ("FLOOR_8F", "8F"),
    ("FLOOR_9F", "9F"),
    ("FLOOR_10F", "10F"),
    ("FLOOR_11F", "11F"),
    ("FLOOR_B4F", "B4F"),
];

/// The moves HM01..HM05 teach (items 0xC4..0xC8).
const HMS: &[&str] = &["CUT", "FLY", "SURF", "STRENGTH", "FLASH"];

/// The moves TM01..TM50 teach (items 0xC9..0xFA), move ids as the dataset spells them (the item
/// id is `TM_<move>`).
const TMS: &[&str] = &[
    "MEGA_PUNCH",
    "RAZOR_WIND",
    "SWORDS_DANCE",
    "WHIRLWIND",
    "MEGA_KICK",
    "TOXIC",
    "HORN_DRILL",
    "BODY_SLAM",
    "TAKE_DOWN",
    "DOUBLE_EDGE",
    "BUBBLEBEAM",
    "WATER_GUN",
    "ICE_BEAM",
    "BLIZZARD",
    "HYPER_BEAM",
    "PAY_DAY",
    "SUBMISSION",
    "COUNTER",
    "SEISMIC_TOSS",
    "RAGE",
    "MEGA_DRAIN",
    "SOLARBEAM",
    "DRAGON_RAGE",
    "THUNDERBOLT",
    "THUNDER",
    "EARTHQUAKE",
    "FISSURE",
    "DIG",
    "PSYCHIC_M",
    "TELEPORT",
    "MIMIC",
    "DOUBLE_TEAM",
    "REFLECT",
    "BIDE",
    "METRONOME",
    "SELFDESTRUCT",
    "EGG_BOMB",
    "FIRE_BLAST",
    "SWIFT",
    "SKULL_BASH",
    "SOFTBOILED",
    "DREAM_EATER",
    "SKY_ATTACK",
    "REST",
    "THUNDER_WAVE",
    "PSYWAVE",
    "EXPLOSION",
    "ROCK_SLIDE",
    "TRI_ATTACK",
    "SUBSTITUTE",
];

/// The Lua engine's item id of the TM teaching `mv` (`TM_PSYCHIC_M`).
fn tm_id(mv: &str) -> String {
    format!("TM_{mv}")
}

fn item(name: &str, num: i64, extra: Option<(&str, &str)>) -> Value {
    let mut fields = vec![
        ("name", Value::from(name)),
        ("num", Value::Int(num)),
        ("kind", Value::from("other")),
        ("price", Value::Int(0)),
    ];
    if let Some((k, v)) = extra {
        fields.push((k, Value::from(v)));
    }
    Value::map(fields)
}

/// The item records above, by id (never replacing a dataset record of the same id).
pub fn extra_items() -> BTreeMap<String, Value> {
    let mut out = BTreeMap::new();
    out.insert("SURFBOARD".to_owned(), item("SURFBOARD", 0x07, None));
    out.insert("ITEM_2C".to_owned(), item("?????", 0x2C, None));
    out.insert("ITEM_32".to_owned(), item("PP UP", 0x32, None));
    for (i, (id, name)) in FLOORS.iter().enumerate() {
        out.insert((*id).to_owned(), item(name, 0x54 + i as i64, None));
    }
    for (i, mv) in HMS.iter().enumerate() {
        let name = format!("HM{:02}", i + 1);
        out.insert(
            format!("HM_{mv}"),
            item(&name, 0xC4 + i as i64, Some(("move", mv))),
        );
    }
    for (i, mv) in TMS.iter().enumerate() {
        let name = format!("TM{:02}", i + 1);
        out.insert(tm_id(mv), item(&name, 0xC9 + i as i64, Some(("move", mv))));
    }
    out
}

/// Every Gen 1 trainer class: `(class id, name)` in class order.
pub const TRAINER_CLASSES: &[(&str, &str)] = &[
    ("YOUNGSTER", "YOUNGSTER"),
    ("BUG_CATCHER", "BUG CATCHER"),
    ("LASS", "LASS"),
    ("SAILOR", "SAILOR"),
    ("JR_TRAINER_M", "JR.TRAINER♂"),
    ("JR_TRAINER_F", "JR.TRAINER♀"),
    ("POKEMANIAC", "POKéMANIAC"),
    ("SUPER_NERD", "SUPER NERD"),
    ("HIKER", "HIKER"),
    ("BIKER", "BIKER"),
    ("BURGLAR", "BURGLAR"),
    ("ENGINEER", "ENGINEER"),
    ("UNUSED_JUGGLER", "JUGGLER"),
    ("FISHER", "FISHERMAN"),
    ("SWIMMER", "SWIMMER"),
    ("CUE_BALL", "CUE BALL"),
    ("GAMBLER", "GAMBLER"),
    ("BEAUTY", "BEAUTY"),
    ("PSYCHIC_TR", "PSYCHIC"),
    ("ROCKER", "ROCKER"),
    ("JUGGLER", "JUGGLER"),
    ("TAMER", "TAMER"),
    ("BIRD_KEEPER", "BIRD KEEPER"),
    ("BLACKBELT", "BLACKBELT"),
    ("RIVAL1", "RIVAL1"),
    ("PROF_OAK", "PROF.OAK"),
    ("CHIEF", "CHIEF"),
    ("SCIENTIST", "SCIENTIST"),
    ("GIOVANNI", "GIOVANNI"),
    ("ROCKET", "ROCKET"),
    ("COOLTRAINER_M", "COOLTRAINER♂"),
    ("COOLTRAINER_F", "COOLTRAINER♀"),
    ("BRUNO", "BRUNO"),
    ("BROCK", "BROCK"),
    ("MISTY", "MISTY"),
    ("LT_SURGE", "LT.SURGE"),
    ("ERIKA", "ERIKA"),
    ("KOGA", "KOGA"),
    ("BLAINE", "BLAINE"),
    ("SABRINA", "SABRINA"),
    ("GENTLEMAN", "GENTLEMAN"),
    ("RIVAL2", "RIVAL2"),
    ("RIVAL3", "RIVAL3"),
    ("LORELEI", "LORELEI"),
    ("CHANNELER", "CHANNELER"),
    ("AGATHA", "AGATHA"),
    ("LANCE", "LANCE"),
];

/// A class record without parties (added where the engine's trainer table has no record).
/// The id a mod sees for trainer class `class` in hook arguments and payloads: a cartridge
/// class as the Lua engine spells it (`BUG_CATCHER` → `OPP_BUG_CATCHER`), a class a mod
/// registered as it registered it.
pub fn public_trainer_class(class: &str) -> String {
    if TRAINER_CLASSES.iter().any(|(id, _)| *id == class) {
        format!(
            "{}{class}",
            pallet_api::content::public_ids::TRAINER_CLASS_PREFIX
        )
    } else {
        class.to_owned()
    }
}

/// The party index a mod sees: the Lua engine (and pret's trainer objects) count from 1.
pub fn public_party_index(index: u16) -> u16 {
    index.saturating_add(1)
}

pub fn class_record(name: &str) -> Value {
    Value::map([
        ("name", Value::from(name)),
        ("parties", Value::List(Vec::new())),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_the_cartridges() {
        let items = extra_items();
        let num = |id: &str| items[id].get("num").and_then(Value::as_exact_int);
        assert_eq!(num("FLOOR_B2F"), Some(0x54));
        assert_eq!(num("FLOOR_B4F"), Some(0x61));
        assert_eq!(num("HM_CUT"), Some(0xC4));
        assert_eq!(num("TM_MEGA_PUNCH"), Some(0xC9));
        assert_eq!(num("TM_SUBSTITUTE"), Some(0xFA));
        assert_eq!(
            items["TM_BIDE"].get("name").and_then(Value::as_str),
            Some("TM34")
        );
        assert!(items.contains_key("TM_PSYCHIC_M"));
        assert_eq!(TRAINER_CLASSES.len(), 47);
    }
}
