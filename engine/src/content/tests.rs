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
