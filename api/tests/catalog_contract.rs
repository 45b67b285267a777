//! The mod-visible contract of each catalog entry: result rules of the hooks not covered in
//! `script_rules.rs`, and the field names every event payload shows scripts (the Lua engine's
//! names).

use pallet_api::catalog::common::*;
use pallet_api::catalog::{self, events, hooks};
use pallet_api::script::{ScriptEvent, ScriptHook};
use pallet_api::Value;

fn keys(v: &Value) -> Vec<&str> {
    v.as_map()
        .map(|m| m.keys().map(String::as_str).collect())
        .unwrap_or_default()
}

fn battler(side: Side) -> BattlerSnapshot {
    BattlerSnapshot {
        side,
        name: "ONIX".into(),
        hp: 1,
        max_hp: 35,
        types: vec!["ROCK".into(), "GROUND".into()],
        vanished: true,
    }
}

#[test]
fn battle_rule_hooks_read_truthiness_and_ranges() {
    assert!(hooks::BattleAccuracy::out_from_value(Value::Int(0)).unwrap());
    assert!(!hooks::BattleAccuracy::out_from_value(Value::Nil).unwrap());
    assert!(hooks::BattleCrit::out_from_value(Value::from("yes")).unwrap());
    assert!(!hooks::BattleCrit::out_from_value(Value::Bool(false)).unwrap());
    assert_eq!(
        hooks::BattleDamage::out_from_value(Value::Float(40.0)).unwrap(),
        40
    );
    assert!(hooks::BattleDamage::out_from_value(Value::Int(70000)).is_err());
    assert!(hooks::BattleDamage::out_from_value(Value::Float(1.5)).is_err());
    assert!(hooks::BattleDamage::out_from_value(Value::from("40")).is_err());
}

#[test]
fn exp_award_shares_are_validated() {
    let share = |slot: i64, split: i64| {
        Value::map([
            ("slot", Value::Int(slot)),
            ("split", Value::Int(split)),
            ("announce", Value::Bool(true)),
        ])
    };
    let shares =
        hooks::BattleExpAward::out_from_value(Value::List(vec![share(0, 1), share(5, 2)])).unwrap();
    assert_eq!(shares.len(), 2);
    assert_eq!(
        (shares[1].slot, shares[1].split, shares[1].announce),
        (5, 2, true)
    );
    assert!(hooks::BattleExpAward::out_from_value(Value::List(vec![share(6, 1)])).is_err());
    assert!(hooks::BattleExpAward::out_from_value(Value::List(vec![share(0, 0)])).is_err());
    assert!(hooks::BattleExpAward::out_from_value(Value::Nil).is_err());
    assert!(hooks::BattleExpAward::out_from_value(Value::List(vec![]))
        .unwrap()
        .is_empty());
}

#[test]
fn trainer_party_must_be_a_real_roster() {
    let mon = |species: &str, level: i64| {
        Value::map([
            ("species", Value::from(species)),
            ("level", Value::Int(level)),
        ])
    };
    let party =
        hooks::TrainerParty::out_from_value(Value::List(vec![mon("GEODUDE", 12), mon("ONIX", 14)]))
            .unwrap();
    assert_eq!(party[1].species, "ONIX");
    assert!(hooks::TrainerParty::out_from_value(Value::List(vec![])).is_err());
    assert!(hooks::TrainerParty::out_from_value(Value::List(vec![mon("ONIX", 0)])).is_err());
    assert!(hooks::TrainerParty::out_from_value(Value::List(
        (0..7).map(|_| mon("ONIX", 5)).collect()
    ))
    .is_err());
    let args = hooks::TrainerPartyArgs {
        class_id: "OPP_BROCK".into(),
        index: 0,
        party: party.clone(),
    };
    let values = hooks::TrainerParty::args_to_values(&args).unwrap();
    assert_eq!(values[0], Value::from("OPP_BROCK"));
    assert_eq!(values[1], Value::Int(0));
    assert_eq!(hooks::TrainerParty::args_from_values(values).unwrap(), args);
}

#[test]
fn evolution_and_collision_are_truthiness_and_pass_their_arguments_positionally() {
    assert!(hooks::EvolutionCheck::out_from_value(Value::Int(1)).unwrap());
    assert!(!hooks::EvolutionCheck::out_from_value(Value::Nil).unwrap());
    assert!(hooks::MovementCollision::out_from_value(Value::Bool(true)).unwrap());
    assert!(!hooks::MovementCollision::out_from_value(Value::Bool(false)).unwrap());
    let args = hooks::MovementCollisionArgs {
        allowed: false,
        ctx: hooks::CollisionContext {
            map_id: "ROUTE_22".into(),
            mover: hooks::Mover {
                kind: "player".into(),
                id: None,
            },
            dir: Direction::Left,
            from_x: 3,
            from_y: 4,
            to_x: 2,
            to_y: 4,
            reason: Some("entity".into()),
        },
    };
    let values = hooks::MovementCollision::args_to_values(&args).unwrap();
    assert_eq!(values[0], Value::Bool(false));
    assert_eq!(
        keys(&values[1]),
        vec!["dir", "fromX", "fromY", "mapId", "mover", "reason", "toX", "toY"]
    );
    assert_eq!(values[1].get("dir"), Some(&Value::from("left")));
}

#[test]
fn signatures_name_every_parameter() {
    for info in catalog::HOOKS {
        let declared: Vec<&str> = info
            .signature
            .trim_start_matches('(')
            .split(')')
            .next()
            .unwrap_or_default()
            .split(", ")
            .skip(1)
            .collect();
        assert_eq!(declared, info.params, "{}", info.name);
        assert!(!info.result_rule.is_empty());
    }
}

fn payload<E: ScriptEvent>(p: &E::Payload) -> Value {
    E::payload_to_value(p).unwrap()
}

#[test]
fn world_event_payloads_use_the_lua_field_names() {
    let v = payload::<events::MapEntered>(&events::MapEnteredPayload {
        map_id: "ROUTE_1".into(),
        from_map_id: Some("PALLET_TOWN".into()),
        via: Some("connection".into()),
    });
    assert_eq!(keys(&v), vec!["fromMapId", "mapId", "via"]);
    let v = payload::<events::MapExited>(&events::MapExitedPayload {
        map_id: "PALLET_TOWN".into(),
        to_map_id: None,
    });
    assert_eq!(
        keys(&v),
        vec!["mapId"],
        "absent optional fields are absent, as in Lua"
    );
    let v = payload::<events::WorldBlockReplaced>(&events::WorldBlockReplacedPayload {
        map_id: "VERMILION_DOCK".into(),
        bx: 7,
        by: 2,
        block: 13,
    });
    assert_eq!(keys(&v), vec!["block", "bx", "by", "mapId"]);
    let v = payload::<events::WorldStepped>(&events::WorldSteppedPayload {
        map_id: "ROUTE_1".into(),
        x: 1,
        y: 2,
        tile: Some(4),
    });
    assert_eq!(keys(&v), vec!["mapId", "tile", "x", "y"]);
}

#[test]
fn battle_event_payloads_use_the_lua_field_names() {
    let battle = BattleInfo {
        kind: BattleKind::Wild,
        opp_class: None,
        party_index: None,
        turn: 2,
    };
    let v = payload::<events::BattleStarted>(&events::BattleStartedPayload {
        battle: events::StartedBattle::new(battle.clone(), None),
        kind: BattleKind::Wild,
        trainer_id: None,
        species: Some("PIDGEY".into()),
    });
    assert_eq!(keys(&v), vec!["battle", "kind", "species"]);
    assert_eq!(v.get("kind"), Some(&Value::from("wild")));
    let v = payload::<events::BattleTurnEnded>(&events::BattleTurnEndedPayload {
        battle: battle.clone(),
        turn: 2,
    });
    assert_eq!(keys(&v), vec!["battle", "turn"]);
    let v = payload::<events::BattleFainted>(&events::BattleFaintedPayload {
        battle: battle.clone(),
        battler: battler(Side::Enemy),
    });
    assert_eq!(
        keys(v.get("battler").unwrap()),
        vec!["hp", "maxHp", "name", "side", "types", "vanished"]
    );
    let v = payload::<events::BattleEnded>(&events::BattleEndedPayload {
        battle,
        result: events::BattleResult::Caught,
        skipped: None,
    });
    assert_eq!(v.get("result"), Some(&Value::from("caught")));
    let v = payload::<events::PokemonLevelUp>(&events::PokemonLevelUpPayload {
        mon: Value::map([("species", Value::from("PIDGEY"))]),
        level: 10,
        prev_level: 9,
        learnable: vec![],
    });
    assert_eq!(keys(&v), vec!["learnable", "level", "mon", "prevLevel"]);
}

#[test]
fn lifecycle_event_payloads_use_the_lua_field_names() {
    let v = payload::<events::SaveCreated>(&events::SaveCreatedPayload {
        save: Value::map([("version", Value::from("red"))]),
    });
    assert_eq!(keys(&v), vec!["save"]);
    let v = payload::<events::SaveLoaded>(&events::SaveLoadedPayload {
        save: Value::map([("version", Value::from("red"))]),
        meta: Value::map([("format", Value::Int(4))]),
        mods_diff: Value::map([("added", Value::List(vec![Value::from("clock")]))]),
    });
    assert_eq!(keys(&v), vec!["meta", "modsDiff", "save"]);
    let v = payload::<events::CheckpointRestored>(&events::CheckpointRestoredPayload {
        game: GameInfo::default(),
        kind: events::CheckpointKind::Overworld,
    });
    assert_eq!(keys(&v), vec!["game", "kind"]);
    assert_eq!(v.get("kind"), Some(&Value::from("overworld")));
    let v = payload::<events::GameReady>(&events::GameReadyPayload {
        game: GameInfo::default(),
    });
    assert_eq!(
        v.get("game").and_then(|g| g.get("version")),
        Some(&Value::from("red"))
    );
}
