use pallet_api::content::OpKind;
use pallet_api::Value;

use super::*;
use crate::data::gen1;
use crate::world::GameVersion;

fn patch(c: &mut pallet_api::content::Content, reg: &str, id: &str, v: Value) {
    c.apply(reg, "m", OpKind::Patch, id, v, true).unwrap();
}

#[test]
fn base_records_are_lazy_and_match_the_embedded_data() {
    let c = content_for(GameVersion::Red);
    assert!(!c.registry("pokemon").unwrap().base_built());
    let pika = c.get("pokemon", "PIKACHU").unwrap();
    assert_eq!(
        pika.get("baseStats").unwrap().get("speed"),
        Some(&Value::Int(90))
    );
    assert!(c.registry("pokemon").unwrap().base_built());
    assert_eq!(
        c.registry("pokemon").unwrap().base_records_built(),
        1,
        "one read builds one record"
    );
    assert!(!c.registry("moves").unwrap().base_built());
    assert_eq!(c.registry("pokemon").unwrap().len(), 151);
    assert_eq!(c.registry("moves").unwrap().len(), 165);
    assert!(c.get("items", "POTION").is_some());
    assert!(c.get("type_chart", "FIRE").is_some());
    assert!(c.get("maps", "PALLET_TOWN").is_some());
    assert!(c.get("encounters", "ROUTE_1").is_some());
    assert!(c.get("trainers", "BUG_CATCHER").is_some());
}

#[test]
fn no_content_mod_compiles_nothing() {
    let c = content_for(GameVersion::Red);
    let g = compile(GameVersion::Red, &c).unwrap();
    assert!(std::ptr::eq(g.data, gen1()));
    assert!(!c.registry("pokemon").unwrap().base_built());
}

#[test]
fn patched_records_reach_the_tables() {
    let mut c = content_for(GameVersion::Red);
    patch(
        &mut c,
        "moves",
        "TACKLE",
        Value::map([("power", Value::Int(200))]),
    );
    patch(
        &mut c,
        "type_chart",
        "NORMAL",
        Value::map([("GHOST", Value::Float(2.0))]),
    );
    patch(
        &mut c,
        "pokemon",
        "PIKACHU",
        Value::map([("baseStats", Value::map([("speed", Value::Int(100))]))]),
    );
    c.apply(
        "items",
        "m",
        OpKind::Register,
        "ORAN_BERRY",
        Value::map([
            ("name", Value::from("ORAN BERRY")),
            ("price", Value::Int(20)),
            ("kind", Value::from("heal")),
        ]),
        true,
    )
    .unwrap();
    let g = compile(GameVersion::Red, &c).unwrap();
    let d = g.data;
    let tackle = d.move_data(d.move_by_name("TACKLE").unwrap());
    assert_eq!(tackle.power, 200);
    assert_eq!(tackle.num, gen1().move_by_name("TACKLE").unwrap().0);
    use crate::data::Type;
    assert_eq!(d.effectiveness(Type::Normal, Type::Ghost), 20);
    assert!(d.type_matchups().contains(&(Type::Normal, Type::Ghost, 20)));
    let pika = d.species(d.species_by_name("PIKACHU").unwrap());
    assert_eq!(pika.spe, 100);
    let oran = d.item(d.item_by_name("ORAN_BERRY").unwrap());
    assert_eq!(oran.price, 20);
    assert!(matches!(oran.kind, crate::data::ItemKind::Heal { hp: 20 }));
    // Untouched records are the embedded ones.
    assert_eq!(d.species.len(), 151);
    assert_eq!(
        d.move_by_name("Vise Grip"),
        gen1().move_by_name("Vise Grip")
    );
}

#[test]
fn dangling_references_are_blamed_on_their_writer() {
    let mut c = content_for(GameVersion::Red);
    c.apply(
        "pokemon",
        "bad",
        OpKind::Patch,
        "PIKACHU",
        Value::map([(
            "learnset",
            Value::List(vec![Value::map([
                ("level", Value::Int(5)),
                ("move", Value::from("NO_SUCH_MOVE")),
            ])]),
        )]),
        true,
    )
    .unwrap();
    c.apply(
        "maps",
        "worse",
        OpKind::Patch,
        "PALLET_TOWN",
        Value::map([("blocks", Value::List(vec![Value::Int(1)]))]),
        true,
    )
    .unwrap();
    let err = compile(GameVersion::Red, &c).unwrap_err();
    assert_eq!(err.len(), 2, "{err:?}");
    assert_eq!(err[0].owner, "bad");
    assert!(
        err[0].message.contains("pokemon.PIKACHU.learnset[1].move"),
        "{}",
        err[0]
    );
    assert_eq!(err[1].owner, "worse");
    assert!(err[1].message.contains("blocks for a"), "{}", err[1]);
}

#[test]
fn per_record_base_matches_the_hydrated_dataset_records() {
    use crate::datasets::hydrate::embedded_records;
    for (v, api) in [
        (
            GameVersion::Red,
            pallet_api::catalog::common::GameVersion::Red,
        ),
        (
            GameVersion::Yellow,
            pallet_api::catalog::common::GameVersion::Yellow,
        ),
    ] {
        for r in ["pokemon", "moves", "items", "type_chart"] {
            let hydrated = embedded_records(api, r).unwrap().unwrap();
            let mut base = base_records(v, r);
            if r == "items" {
                // `items` also holds the cartridge's floor, TM/HM and unnamed slots, which the
                // dataset views do not serve; every dataset record is still the same.
                let extra = crate::public_records::extra_items();
                base.retain(|id, _| hydrated.contains_key(id) || !extra.contains_key(id));
            }
            assert_eq!(base, hydrated, "{r} of {v:?}");
        }
    }
    // `ids`, `len` and `has` build no record.
    let c = content_for(GameVersion::Red);
    let maps = c.registry("maps").unwrap();
    assert!(maps.len() >= 6 && maps.contains("PALLET_TOWN"));
    assert_eq!(maps.base_records_built(), 0);
}

#[test]
fn a_removed_base_move_keeps_its_number_and_loses_its_name() {
    let mut c = content_for(GameVersion::Red);
    c.apply("moves", "m", OpKind::Remove, "GUST", Value::Nil, true)
        .unwrap();
    let problems = compile(GameVersion::Red, &c).unwrap_err();
    let mine: Vec<_> = problems.iter().filter(|p| p.owner == "m").collect();
    assert!(!mine.is_empty());
    assert!(mine.iter().all(|p| p
        .message
        .starts_with("moves:remove(GUST): still referenced by pokemon.")));
    // With its learners patched, the move is gone and the numbering holds.
    let gust = Value::from("GUST");
    let ids: Vec<String> = c
        .registry("pokemon")
        .unwrap()
        .ids()
        .map(str::to_owned)
        .collect();
    for id in ids {
        let rec = c.get("pokemon", &id).unwrap().clone();
        let keep = |key: &str, f: &dyn Fn(&Value) -> bool| -> Vec<Value> {
            let list = rec.get(key).and_then(Value::as_list).unwrap_or(&[]);
            list.iter().filter(|v| f(v)).cloned().collect()
        };
        let learnset = keep("learnset", &|row| row.get("move") != Some(&gust));
        let start = keep("startMoves", &|m| *m != gust);
        patch(
            &mut c,
            "pokemon",
            &id,
            Value::map([
                ("learnset", Value::List(learnset)),
                ("startMoves", Value::List(start)),
            ]),
        );
    }
    let g = match compile(GameVersion::Red, &c) {
        Ok(g) => g,
        Err(p) => panic!("{p:?}"),
    };
    let d = g.data;
    assert!(d.move_by_name("GUST").is_none());
    let sand = d.move_by_name("SAND_ATTACK").unwrap();
    assert_eq!(sand, gen1().move_by_name("SAND_ATTACK").unwrap());
    assert_eq!(d.moves.len(), gen1().moves.len());
}

/// A 4×4-block house whose doors (cells `(x, 7)` for each `x` of `doors`) lead back where the
/// player came from (`LAST_MAP`).
fn house_with_doors(doors: &[i64]) -> Value {
    let door = |x: i64| {
        Value::map([
            ("x", Value::Int(x)),
            ("y", Value::Int(7)),
            ("to", Value::from("LAST_MAP")),
        ])
    };
    Value::map([
        ("tileset", Value::from("house")),
        ("width", Value::Int(4)),
        ("height", Value::Int(4)),
        (
            "blocks",
            Value::List(
                [1, 1, 1, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 3, 0, 1]
                    .into_iter()
                    .map(Value::Int)
                    .collect(),
            ),
        ),
        (
            "warps",
            Value::List(doors.iter().map(|&x| door(x)).collect()),
        ),
    ])
}

#[test]
fn last_map_warps_stay_symbolic_and_need_a_way_in() {
    let house = house_with_doors(&[2]);
    let mut c = content_for(GameVersion::Red);
    c.apply("maps", "m", OpKind::Register, "SHED", house, true)
        .unwrap();
    let problems = compile(GameVersion::Red, &c).unwrap_err();
    assert!(
        problems
            .iter()
            .any(|p| p.message.contains("LAST_MAP: no map has a warp into SHED")),
        "{problems:?}"
    );
}

/// A two-door room (doors at cells (2,7) and (3,7)), for `destWarp` numbering.
fn two_door_shed() -> Value {
    house_with_doors(&[2, 3])
}

fn warp_into_shed(x: i64, dest_warp: Option<i64>) -> Value {
    let mut w = vec![
        ("x", Value::Int(x)),
        ("y", Value::Int(2)),
        ("destMap", Value::from("SHED")),
    ];
    if let Some(k) = dest_warp {
        w.push(("destWarp", Value::Int(k)));
    }
    Value::map(w)
}

#[test]
fn dest_warp_counts_from_one_as_the_cartridge_does() {
    let mut c = content_for(GameVersion::Red);
    c.apply("maps", "m", OpKind::Register, "SHED", two_door_shed(), true)
        .unwrap();
    let warps = Value::List(vec![
        warp_into_shed(2, Some(2)),
        warp_into_shed(3, None),
        warp_into_shed(4, Some(1)),
    ]);
    patch(
        &mut c,
        "maps",
        "PALLET_TOWN",
        Value::map([("warps", Value::map([("__append", warps)]))]),
    );
    let g = match compile(GameVersion::Red, &c) {
        Ok(g) => g,
        Err(p) => panic!("{p:?}"),
    };
    let town = g.maps.get("PALLET_TOWN").unwrap();
    let landing = |x: u32| {
        let w = town.warps.iter().find(|w| w.x == x && w.y == 2).unwrap();
        (w.to.as_str(), w.to_x, w.to_y)
    };
    assert_eq!(landing(2), ("SHED", 3, 7), "destWarp 2 is the second door");
    assert_eq!(landing(3), ("SHED", 2, 7), "no destWarp is the first door");
    assert_eq!(landing(4), ("SHED", 2, 7), "destWarp 1 is the first door");
}

#[test]
fn dest_warp_past_the_last_door_or_zero_is_refused() {
    let mut c = content_for(GameVersion::Red);
    c.apply("maps", "m", OpKind::Register, "SHED", two_door_shed(), true)
        .unwrap();
    let zero = Value::map([(
        "warps",
        Value::map([("__append", Value::List(vec![warp_into_shed(2, Some(0))]))]),
    )]);
    let err = c
        .apply("maps", "m", OpKind::Patch, "PALLET_TOWN", zero, true)
        .unwrap_err();
    assert!(format!("{err:?}").contains("destWarp"), "{err:?}");
    patch(
        &mut c,
        "maps",
        "PALLET_TOWN",
        Value::map([(
            "warps",
            Value::map([("__append", Value::List(vec![warp_into_shed(2, Some(3))]))]),
        )]),
    );
    let problems = compile(GameVersion::Red, &c).unwrap_err();
    assert!(
        problems.iter().any(|p| p
            .message
            .contains("a warp 3 on SHED (`destWarp` counts from 1)")),
        "{problems:?}"
    );
}

/// One positional script row through the op compiler.
fn one_op(row: Vec<Value>) -> Result<Vec<crate::world::script::ScriptRow>, String> {
    let texts = std::collections::BTreeMap::new();
    crate::world::script::ops::compile_ops(&Value::List(vec![Value::List(row)]), gen1(), &texts)
}

#[test]
fn give_money_and_emote_rows_read_the_lua_engine_shape() {
    use crate::world::script::ScriptRow;
    let money = one_op(vec![Value::from("give_money"), Value::Int(3000)]).unwrap();
    assert_eq!(money, vec![ScriptRow::GiveMoney { amount: 3000 }]);
    let emote = [
        Value::from("emote"),
        Value::from("player"),
        Value::from("happy"),
        Value::Int(45),
    ];
    assert_eq!(
        one_op(emote.to_vec()).unwrap(),
        vec![ScriptRow::Emote {
            npc: "player".into(),
            emote: "happy".into()
        }]
    );
    for bad in [0, -5, 1_000_000] {
        let err = one_op(vec![Value::from("give_money"), Value::Int(bad)]).unwrap_err();
        assert_eq!(err, "[1]: give_money: amount must be an integer 1..999999");
    }
    let err = one_op(vec![Value::from("emote"), Value::from("player")]).unwrap_err();
    assert!(err.contains("needs a string `emote`"), "{err}");
}

#[test]
fn start_battle_rows_count_parties_from_one_and_only_fight_trainers() {
    use crate::world::script::ScriptRow;
    let row = |kind: &str, index: i64| {
        one_op(vec![
            Value::from("start_battle"),
            Value::from(kind),
            Value::from("OPP_TUTOR"),
            Value::Int(index),
        ])
    };
    assert_eq!(
        row("trainer", 2).unwrap(),
        vec![ScriptRow::StartBattle {
            class: "OPP_TUTOR".into(),
            index: 1
        }]
    );
    let err = row("trainer", 0).unwrap_err();
    assert_eq!(err, "[1]: start_battle: index must be an integer from 1");
    let err = row("gym", 1).unwrap_err();
    assert!(err.contains("kind must be \"trainer\""), "{err}");
}

#[test]
fn start_battle_wild_rows_name_a_species_and_a_level() {
    use crate::world::script::ScriptRow;
    let wild = |species: Value, level: Value| {
        one_op(vec![
            Value::from("start_battle"),
            Value::from("wild"),
            species,
            level,
        ])
    };
    assert_eq!(
        wild(Value::from("MAGIKARP"), Value::Int(5)).unwrap(),
        vec![ScriptRow::StartWildBattle {
            species: "MAGIKARP".into(),
            level: 5
        }]
    );
    for bad in [Value::Int(0), Value::Int(101), Value::Float(2.5)] {
        let err = wild(Value::from("MAGIKARP"), bad).unwrap_err();
        assert_eq!(
            err,
            "[1]: start_battle: level must be a whole number 1..100"
        );
    }
    let err = wild(Value::Int(3), Value::Int(5)).unwrap_err();
    assert!(err.contains("a wild battle names its species"), "{err}");
}
