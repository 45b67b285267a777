//! Content registries: register/override/patch/remove/get/each over the merged view, patch
//! semantics, field-pointing schema errors, strictness, rollback, freezing, compose registries.

use std::collections::BTreeMap;

use pallet_api::content::merge::{delete, APPEND_KEY, PREPEND_KEY};
use pallet_api::content::{Content, ContentErrorKind, OpKind};
use pallet_api::Value;

fn pikachu() -> Value {
    Value::map([
        ("name", Value::from("PIKACHU")),
        ("dex", Value::Int(25)),
        (
            "baseStats",
            Value::map([
                ("hp", Value::Int(35)),
                ("attack", Value::Int(55)),
                ("defense", Value::Int(30)),
                ("speed", Value::Int(90)),
                ("special", Value::Int(50)),
            ]),
        ),
        ("types", Value::List(vec![Value::from("ELECTRIC")])),
        ("catchRate", Value::Int(190)),
        (
            "startMoves",
            Value::List(vec![Value::from("THUNDERSHOCK"), Value::from("GROWL")]),
        ),
    ])
}

fn content() -> Content {
    let mut c = Content::new();
    let mut base = BTreeMap::new();
    base.insert("PIKACHU".to_owned(), pikachu());
    let mut raichu = pikachu();
    if let Value::Map(m) = &mut raichu {
        m.insert("name".into(), Value::from("RAICHU"));
        m.insert("dex".into(), Value::Int(26));
    }
    base.insert("RAICHU".to_owned(), raichu);
    c.set_base("pokemon", base).unwrap();
    c
}

#[test]
fn register_collides_with_base_and_override_replaces() {
    let mut c = content();
    let err = c
        .apply("pokemon", "m", OpKind::Register, "PIKACHU", pikachu(), true)
        .unwrap_err();
    assert_eq!(err.kind, ContentErrorKind::Exists);
    assert_eq!(
        err.to_string(),
        "pokemon:register(PIKACHU): id already exists; use override"
    );
    let mut mew = pikachu();
    if let Value::Map(m) = &mut mew {
        m.insert("name".into(), Value::from("MEW"));
    }
    c.apply("pokemon", "m", OpKind::Register, "MEW", mew.clone(), true)
        .unwrap();
    assert_eq!(c.get("pokemon", "MEW"), Some(&mew));
    c.apply(
        "pokemon",
        "m",
        OpKind::Override,
        "PIKACHU",
        mew.clone(),
        true,
    )
    .unwrap();
    assert_eq!(
        c.get("pokemon", "PIKACHU").and_then(|p| p.get("name")),
        Some(&Value::from("MEW"))
    );
    let err = c
        .apply("pokemon", "m", OpKind::Override, "MISSINGNO", mew, true)
        .unwrap_err();
    assert_eq!(err.kind, ContentErrorKind::Missing);
}

#[test]
fn patch_replaces_lists_extends_with_append_prepend_and_deletes() {
    let mut c = content();
    c.apply(
        "pokemon",
        "a",
        OpKind::Patch,
        "PIKACHU",
        Value::map([
            ("startMoves", Value::List(vec![Value::from("THUNDER")])),
            ("baseStats", Value::map([("speed", Value::Int(120))])),
            ("catchRate", delete()),
            ("sprite", Value::from("pika_hd.png")),
        ]),
        true,
    )
    .unwrap();
    c.apply(
        "pokemon",
        "b",
        OpKind::Patch,
        "PIKACHU",
        Value::map([(
            "startMoves",
            Value::map([
                (APPEND_KEY, Value::List(vec![Value::from("SURF")])),
                (PREPEND_KEY, Value::List(vec![Value::from("FLY")])),
            ]),
        )]),
        true,
    )
    .unwrap();
    let p = c.get("pokemon", "PIKACHU").unwrap();
    assert_eq!(
        p.get("startMoves"),
        Some(&Value::List(vec![
            Value::from("FLY"),
            Value::from("THUNDER"),
            Value::from("SURF")
        ]))
    );
    assert_eq!(
        p.get("baseStats").and_then(|s| s.get("speed")),
        Some(&Value::Int(120))
    );
    assert_eq!(
        p.get("baseStats").and_then(|s| s.get("hp")),
        Some(&Value::Int(35))
    );
    assert_eq!(p.get("catchRate"), None);
    assert_eq!(
        p.get("sprite"),
        Some(&Value::from("pika_hd.png")),
        "unknown fields are kept"
    );
}

#[test]
fn schema_errors_point_at_the_field() {
    let mut c = content();
    let err = c
        .apply(
            "pokemon",
            "m",
            OpKind::Patch,
            "PIKACHU",
            Value::map([("baseStats", Value::map([("hp", Value::from("lots"))]))]),
            true,
        )
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "pokemon:patch(PIKACHU): pokemon.PIKACHU.baseStats.hp: expected an integer in 1..=255, got string \"lots\""
    );
    // The failed write changed nothing.
    assert_eq!(c.get("pokemon", "PIKACHU"), Some(&pikachu()));

    let err = c
        .apply(
            "pokemon",
            "m",
            OpKind::Register,
            "MEW",
            Value::map([("name", Value::from("MEW"))]),
            true,
        )
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "pokemon:register(MEW): pokemon.MEW.baseStats: required field missing (expected a record (map))"
    );
    let err = c
        .apply(
            "pokemon",
            "m",
            OpKind::Patch,
            "PIKACHU",
            Value::map([(
                "types",
                Value::List(vec![Value::from("ELECTRIC"), Value::from("LASER")]),
            )]),
            true,
        )
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("pokemon.PIKACHU.types[2]: expected one of NORMAL|"),
        "{err}"
    );
}

#[test]
fn non_strict_writers_get_warnings_and_the_write_goes_through() {
    let mut c = content();
    let warnings = c
        .apply(
            "pokemon",
            "legacy",
            OpKind::Patch,
            "PIKACHU",
            Value::map([("catchRate", Value::Int(999))]),
            false,
        )
        .unwrap();
    assert_eq!(warnings.len(), 1);
    assert_eq!(warnings[0].path, "pokemon.PIKACHU.catchRate");
    assert_eq!(
        c.get("pokemon", "PIKACHU").and_then(|p| p.get("catchRate")),
        Some(&Value::Int(999))
    );
}

#[test]
fn each_is_the_merged_view_in_lexical_order_and_remove_unsets() {
    let mut c = content();
    let mut abra = pikachu();
    if let Value::Map(m) = &mut abra {
        m.insert("name".into(), Value::from("ABRA"));
    }
    c.apply("pokemon", "m", OpKind::Register, "ABRA", abra, true)
        .unwrap();
    c.apply("pokemon", "m", OpKind::Remove, "RAICHU", Value::Nil, true)
        .unwrap();
    let reg = c.registry("pokemon").unwrap();
    let ids: Vec<&str> = reg.each().map(|(id, _)| id).collect();
    assert_eq!(ids, vec!["ABRA", "PIKACHU"]);
    assert!(c.get("pokemon", "RAICHU").is_none());
    let err = c
        .apply("pokemon", "m", OpKind::Remove, "RAICHU", Value::Nil, true)
        .unwrap_err();
    assert_eq!(err.kind, ContentErrorKind::Missing);
}

#[test]
fn rollback_owner_restores_the_view_without_that_owner() {
    let mut c = content();
    c.apply(
        "pokemon",
        "good",
        OpKind::Patch,
        "PIKACHU",
        Value::map([("dex", Value::Int(1))]),
        true,
    )
    .unwrap();
    c.apply(
        "pokemon",
        "bad",
        OpKind::Patch,
        "PIKACHU",
        Value::map([("name", Value::from("BAD"))]),
        true,
    )
    .unwrap();
    c.apply("pokemon", "bad", OpKind::Remove, "RAICHU", Value::Nil, true)
        .unwrap();
    assert_eq!(c.rollback_owner("bad"), 2);
    let p = c.get("pokemon", "PIKACHU").unwrap();
    assert_eq!(p.get("name"), Some(&Value::from("PIKACHU")));
    assert_eq!(
        p.get("dex"),
        Some(&Value::Int(1)),
        "other owners' writes survive"
    );
    assert!(c.get("pokemon", "RAICHU").is_some());
}

#[test]
fn content_is_frozen_after_load() {
    let mut c = content();
    c.freeze();
    let err = c
        .apply(
            "pokemon",
            "m",
            OpKind::Patch,
            "PIKACHU",
            Value::map([("dex", Value::Int(2))]),
            true,
        )
        .unwrap_err();
    assert_eq!(err.kind, ContentErrorKind::Frozen);
    assert!(c.is_frozen());
    assert!(c.get("pokemon", "PIKACHU").is_some(), "reads still work");
}

#[test]
fn bad_ids_and_unknown_registries_are_refused() {
    let mut c = content();
    let err = c
        .apply("pokemon", "m", OpKind::Register, "", pikachu(), true)
        .unwrap_err();
    assert_eq!(err.kind, ContentErrorKind::BadId);
    let err = c
        .apply("pokemon", "m", OpKind::Register, "../X", pikachu(), true)
        .unwrap_err();
    assert_eq!(err.kind, ContentErrorKind::BadId);
    let err = c
        .apply("screens", "m", OpKind::Register, "X", pikachu(), true)
        .unwrap_err();
    assert_eq!(err.kind, ContentErrorKind::UnknownRegistry);
}

#[test]
fn map_scripts_compose_contributions_in_order() {
    let mut c = Content::new();
    let mut base = BTreeMap::new();
    base.insert(
        "VERMILION_DOCK".to_owned(),
        Value::map([("onEnter", Value::List(vec![Value::from("eject")]))]),
    );
    c.set_base("map_scripts", base).unwrap();
    c.apply(
        "map_scripts",
        "mew",
        OpKind::Register,
        "VERMILION_DOCK",
        Value::map([("onEnter", Value::List(vec![Value::from("truck")]))]),
        true,
    )
    .unwrap();
    let list = c
        .get("map_scripts", "VERMILION_DOCK")
        .unwrap()
        .as_list()
        .unwrap()
        .to_vec();
    let owners: Vec<_> = list.iter().map(|v| v.get("owner").cloned()).collect();
    assert_eq!(
        owners,
        vec![Some(Value::from("base")), Some(Value::from("mew"))]
    );
    assert_eq!(
        c.apply(
            "map_scripts",
            "mew",
            OpKind::Patch,
            "VERMILION_DOCK",
            Value::map([("x", Value::Int(1))]),
            true
        )
        .unwrap_err()
        .kind,
        ContentErrorKind::Unsupported
    );
    // replacesBase drops the base contribution from the view.
    c.apply(
        "map_scripts",
        "total",
        OpKind::Register,
        "VERMILION_DOCK",
        Value::map([("replacesBase", Value::Bool(true))]),
        true,
    )
    .unwrap();
    let owners: Vec<_> = c
        .get("map_scripts", "VERMILION_DOCK")
        .unwrap()
        .as_list()
        .unwrap()
        .iter()
        .map(|v| v.get("owner").cloned())
        .collect();
    assert_eq!(
        owners,
        vec![Some(Value::from("mew")), Some(Value::from("total"))]
    );
    c.rollback_owner("total");
    assert_eq!(
        c.get("map_scripts", "VERMILION_DOCK")
            .unwrap()
            .as_list()
            .unwrap()
            .len(),
        2
    );
}

#[test]
fn every_registry_exists_with_a_schema() {
    let c = Content::new();
    let names: Vec<_> = c.names().collect();
    assert_eq!(
        names,
        vec![
            "encounters",
            "item_effects",
            "items",
            "map_scripts",
            "maps",
            "moves",
            "pokemon",
            "strings",
            "text",
            "trainers",
            "type_chart"
        ]
    );
    let mut c = c;
    // A type_chart record maps defending types to multipliers.
    c.apply(
        "type_chart",
        "m",
        OpKind::Register,
        "FIRE",
        Value::map([("GRASS", Value::Int(2)), ("WATER", Value::Float(0.5))]),
        true,
    )
    .unwrap();
    assert!(c
        .apply(
            "type_chart",
            "m",
            OpKind::Register,
            "ICE",
            Value::map([("FIRE", Value::from("x"))]),
            true
        )
        .is_err());
    c.apply(
        "encounters",
        "m",
        OpKind::Register,
        "ROUTE_1",
        Value::map([(
            "grass",
            Value::map([
                ("rate", Value::Int(25)),
                (
                    "slots",
                    Value::List(vec![Value::map([
                        ("species", Value::from("PIDGEY")),
                        ("level", Value::Int(3)),
                    ])]),
                ),
            ]),
        )]),
        true,
    )
    .unwrap();
    let err = c
        .apply(
            "trainers",
            "m",
            OpKind::Register,
            "OPP_X",
            Value::map([
                ("name", Value::from("X")),
                ("parties", Value::List(vec![Value::List(vec![])])),
            ]),
            true,
        )
        .unwrap_err();
    assert!(
        err.to_string().contains("trainers.OPP_X.parties[1]"),
        "{err}"
    );
}

#[test]
fn registry_aliases_reach_the_same_registry() {
    use pallet_api::content::{canonical_registry, registry_and_alias_names, REGISTRY_ALIASES};
    assert_eq!(canonical_registry("species"), Some("pokemon"));
    assert_eq!(canonical_registry("types"), Some("type_chart"));
    assert_eq!(canonical_registry("typeChart"), Some("type_chart"));
    assert_eq!(canonical_registry("mapScripts"), Some("map_scripts"));
    assert_eq!(canonical_registry("pokemon"), Some("pokemon"));
    for bad in ["Species", "SPECIES", "", "screens", "species "] {
        assert_eq!(canonical_registry(bad), None, "{bad:?}");
    }
    // Every alias names a real registry and no alias shadows one.
    let c = Content::new();
    for (alias, target) in REGISTRY_ALIASES {
        assert!(c.names().any(|n| n == *target), "{alias} -> {target}");
        assert!(!c.names().any(|n| n == *alias), "{alias} is a registry");
    }
    let all: Vec<_> = registry_and_alias_names().collect();
    assert_eq!(all.len(), c.names().count() + REGISTRY_ALIASES.len());
    // Reads and writes through an alias land in the target registry; names() lists no alias.
    let mut c = content();
    assert_eq!(c.get("species", "PIKACHU"), c.get("pokemon", "PIKACHU"));
    assert!(c.get("species", "PIKACHU").is_some());
    let mut mew = pikachu();
    if let Value::Map(m) = &mut mew {
        m.insert("name".into(), Value::from("MEW"));
        m.insert("dex".into(), Value::Int(151));
    }
    c.apply("species", "m", OpKind::Register, "MEW", mew, true)
        .unwrap();
    assert!(c.get("pokemon", "MEW").is_some());
    assert_eq!(
        c.registry("species").map(|r| r.each().count()),
        Some(3),
        "the alias sees the target's merged view"
    );
    assert_eq!(c.rollback_owner("m"), 1);
    assert!(c.get("species", "MEW").is_none());
    assert!(!c.names().any(|n| n == "species"));
}
