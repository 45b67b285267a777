//! Issue 18: records named as the Lua engine spells them reach Pallet's records, and the
//! translation registries accept free-text ids and override what they lack.

use std::collections::BTreeMap;

use pallet_api::content::{Content, OpKind};
use pallet_api::Value;

fn content() -> Content {
    let mut c = Content::new();
    let rec = |name: &str| {
        Value::map([
            ("name", Value::from(name)),
            ("parties", Value::List(vec![])),
        ])
    };
    c.set_base(
        "trainers",
        BTreeMap::from([("ROCKET".to_owned(), rec("ROCKET"))]),
    )
    .unwrap();
    let mon = |name: &str| Value::map([("name", Value::from(name))]);
    c.set_base(
        "pokemon",
        BTreeMap::from([
            ("MR_MIME".to_owned(), mon("MR.MIME")),
            ("FARFETCHD".to_owned(), mon("FARFETCH'D")),
        ]),
    )
    .unwrap();
    c
}

#[test]
fn lua_engine_ids_reach_pallets_records() {
    let mut c = content();
    for (reg, theirs, ours) in [
        ("trainers", "OPP_ROCKET", "ROCKET"),
        ("pokemon", "MR__MIME", "MR_MIME"),
        ("pokemon", "FARFETCH_D", "FARFETCHD"),
    ] {
        assert_eq!(c.get(reg, theirs), c.get(reg, ours), "{theirs}");
        assert!(c.get(reg, theirs).is_some(), "{theirs}");
        c.apply(
            reg,
            "m",
            OpKind::Patch,
            theirs,
            Value::map([("pic", Value::from("p.png"))]),
            false,
        )
        .unwrap_or_else(|e| panic!("{theirs}: {e}"));
        assert_eq!(
            c.get(reg, ours).unwrap().get("pic"),
            Some(&Value::from("p.png"))
        );
    }
    let e = c
        .apply(
            "trainers",
            "m",
            OpKind::Patch,
            "OPP_NOBODY",
            Value::map([("pic", Value::from("x"))]),
            true,
        )
        .unwrap_err();
    assert_eq!(e.to_string(), "trainers:patch(OPP_NOBODY): no such id");
}

#[test]
fn translation_registries_take_source_strings_and_override_what_they_lack() {
    let mut c = Content::new();
    c.apply(
        "strings",
        "fr",
        OpKind::Override,
        "%s used\n%s!",
        Value::from("%s lance\n%s!"),
        true,
    )
    .unwrap();
    assert_eq!(
        c.get("strings", "%s used\n%s!"),
        Some(&Value::from("%s lance\n%s!"))
    );
    c.apply(
        "strings",
        "fr",
        OpKind::Patch,
        "%s used\n%s!",
        Value::from("%s utilise\n%s!"),
        true,
    )
    .unwrap();
    assert_eq!(
        c.get("strings", "%s used\n%s!"),
        Some(&Value::from("%s utilise\n%s!"))
    );
    // A translation is a non-empty string.
    assert!(c
        .apply(
            "text",
            "fr",
            OpKind::Override,
            "_X",
            Value::map([("text", Value::from("x"))]),
            true
        )
        .is_err());
    assert!(c
        .apply("text", "fr", OpKind::Override, "", Value::from("x"), true)
        .is_err());
    // Fixed registries keep their id rule and their missing-id error.
    assert!(c
        .apply(
            "items",
            "fr",
            OpKind::Override,
            "A B",
            Value::map([("name", Value::from("x"))]),
            true
        )
        .is_err());
}
