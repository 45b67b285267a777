//! Save tests: shared fixtures and strategies.

mod fuzz;
mod recovery;
mod roundtrip;
mod validator;

use std::collections::BTreeMap;

use pallet_api::Value;
use proptest::prelude::*;

use super::data::{ItemStack, MapPoint, ModStamp, OutdoorPoint, SaveData, Spawn};
use super::record::MonRecord;
use super::validate::ValidateEnv;
use crate::data::{gen1, Dataset};
use crate::pokemon::{Dvs, Pokemon, StatExp, Status};
use crate::types::{Direction, GameVersion};

/// Maps the fixture world knows (the validator takes map knowledge as a predicate).
pub const KNOWN_MAPS: &[&str] = &[
    "REDS_HOUSE_2F",
    "PALLET_TOWN",
    "ROUTE_1",
    "VERMILION_CITY",
    "VERMILION_DOCK",
];
/// Items the fixed cases draw from (present in the Gen 1 dataset).
pub const ITEMS: &[&str] = &["POTION", "POKE_BALL", "ANTIDOTE"];

pub fn map_known(id: &str) -> bool {
    KNOWN_MAPS.contains(&id)
}

pub fn spawn() -> Spawn {
    Spawn {
        map: "REDS_HOUSE_2F".into(),
        x: 3,
        y: 6,
        facing: Direction::Up,
    }
}

pub fn env() -> ValidateEnv<'static> {
    ValidateEnv {
        data: gen1(),
        map_known: &map_known,
        spawn: spawn().point(),
    }
}

pub fn mon(data: &Dataset, species: &str, level: u8) -> Pokemon {
    let id = data.species_by_name(species).expect("species in gen1");
    let mut m = Pokemon::new(
        data,
        id,
        level,
        Dvs {
            atk: 9,
            def: 4,
            spe: 12,
            spc: 7,
        },
    );
    m.ot_name = "RED".into();
    m.ot_id = 12345;
    m
}

pub fn record(species: &str, level: u8) -> MonRecord {
    MonRecord::from_pokemon(&mon(gen1(), species, level), gen1()).expect("record")
}

/// A save a real game could have written: every id known, every number in range.
pub fn vanilla_save() -> SaveData {
    let data = gen1();
    let mut s = SaveData::new_game(GameVersion::Red, "RED", "BLUE", 12345, &spawn());
    s.meta.playthrough_id = Some("pt-0001".into());
    s.meta.mods.push(ModStamp {
        id: "example.mod".into(),
        version: "1.2.0".into(),
        api: 2,
    });
    s.player.map = "ROUTE_1".into();
    s.player.x = 10;
    s.player.y = 20;
    let mut p = mon(data, "PIDGEY", 12);
    p.nickname = Some("BIRDY".into());
    p.status = Status::Sleep(3);
    p.hp = 7;
    p.pp[0] = 1;
    p.pp_ups[1] = 2;
    let mut m2 = mon(data, "MEWTWO", 70);
    m2.stat_exp = StatExp {
        hp: 1000,
        atk: 65535,
        def: 0,
        spe: 300,
        spc: 9,
    };
    m2.recompute_stats(data);
    s.party = vec![
        MonRecord::from_pokemon(&p, data).unwrap(),
        MonRecord::from_pokemon(&m2, data).unwrap(),
    ];
    s.boxes[0].push(record("RATTATA", 4));
    s.boxes[3].push(record("PIDGEY", 30));
    s.current_box = 4;
    s.inventory = vec![
        ItemStack {
            id: "POKE_BALL".into(),
            count: 5,
        },
        ItemStack {
            id: "POTION".into(),
            count: 2,
        },
    ];
    s.flags.insert("EVENT_GOT_HM01".into());
    s.flags.insert("EVENT_SS_ANNE_LEFT".into());
    s.defeated_trainers.insert("ROUTE_3:1".into());
    s.pokedex.seen.extend([
        "PIDGEY".to_string(),
        "RATTATA".to_string(),
        "MEWTWO".to_string(),
    ]);
    s.pokedex
        .owned
        .extend(["PIDGEY".to_string(), "MEWTWO".to_string()]);
    s.last_heal = MapPoint {
        map: "PALLET_TOWN".into(),
        x: 5,
        y: 6,
    };
    s.last_outdoor = Some(OutdoorPoint {
        id: "VERMILION_CITY".into(),
        x: 18,
        y: 30,
    });
    s.repel_steps = 42;
    s.money = 123_456;
    let mut bucket = BTreeMap::new();
    bucket.insert("wins".to_string(), Value::Int(3));
    bucket.insert("ratio".to_string(), Value::Float(0.1));
    bucket.insert("name".to_string(), Value::Str("héllo \"quoted\"\n".into()));
    bucket.insert(
        "list".to_string(),
        Value::List(vec![Value::Nil, Value::Bool(true), Value::Float(-2.0)]),
    );
    s.mod_data.insert("example.mod".into(), Value::Map(bucket));
    s
}

/// Any plain-data value (finite floats), nested a few levels.
pub fn arb_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Nil),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::Int),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::Float),
        ".{0,12}".prop_map(Value::Str),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::List),
            prop::collection::btree_map(".{0,8}", inner, 0..6).prop_map(Value::Map),
        ]
    })
}
