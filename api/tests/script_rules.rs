//! The script boundary: argument/payload conversion (mod-visible camelCase names), each hook's
//! result rule (fail closed), and value-level links wrapped by name through the catalog.

use std::cell::RefCell;
use std::rc::Rc;

use pallet_api::catalog::common::{
    BattleInfo, BattlerSnapshot, Battlers, GameInfo, GameVersion, Side,
};
use pallet_api::catalog::{self, events, hooks};
use pallet_api::script::{ScriptHook, ScriptLink, ScriptListener, ValueNext};
use pallet_api::{LinkError, ListenerResult, Runtime, Value};

fn battler(side: Side, hp: u16) -> BattlerSnapshot {
    BattlerSnapshot {
        side,
        name: "PIDGEY".into(),
        hp,
        max_hp: 30,
        types: vec!["NORMAL".into(), "FLYING".into()],
        vanished: false,
    }
}

fn list(items: Vec<Value>) -> Value {
    Value::List(items)
}

fn row(side: &str, amount: Value, message: Option<Value>) -> Value {
    let mut pairs = vec![("side", Value::from(side)), ("amount", amount)];
    if let Some(m) = message {
        pairs.push(("message", m));
    }
    Value::map(pairs)
}

#[test]
fn occupancy_args_use_the_rfc_field_names() {
    let args = hooks::MapOccupancyAllowedArgs::at_dock(
        GameInfo {
            version: GameVersion::Blue,
            ..GameInfo::default()
        },
        Some(14),
        Some(2),
    );
    let values = hooks::MapOccupancyAllowed::args_to_values(&args).unwrap();
    assert_eq!(values.len(), 2);
    let ctx = &values[1];
    assert_eq!(ctx.get("mapId"), Some(&Value::from("VERMILION_DOCK")));
    assert_eq!(ctx.get("reason"), Some(&Value::from("ss_anne_departed")));
    assert_eq!(ctx.get("gameVersion"), Some(&Value::from("blue")));
    assert_eq!(ctx.get("x"), Some(&Value::Int(14)));
    assert_eq!(ctx.get("y"), Some(&Value::Int(2)));
    assert_eq!(values[0].get("version"), Some(&Value::from("blue")));
    // And back.
    let back = hooks::MapOccupancyAllowed::args_from_values(values).unwrap();
    assert_eq!(back, args);
}

#[test]
fn occupancy_permits_only_exactly_true() {
    let rule = hooks::MapOccupancyAllowed::out_from_value;
    assert!(rule(Value::Bool(true)).unwrap());
    for denied in [
        Value::Nil,
        Value::Bool(false),
        Value::Int(1),
        Value::from("true"),
        list(vec![Value::Bool(true)]),
        Value::map([("ok", Value::Bool(true))]),
    ] {
        assert!(!rule(denied).unwrap());
    }
}

#[test]
fn party_full_is_truthiness() {
    let rule = hooks::CatchPartyFull::out_from_value;
    assert!(rule(Value::Int(0)).unwrap(), "0 is truthy in Lua");
    assert!(rule(Value::from("")).unwrap());
    assert!(!rule(Value::Nil).unwrap());
    assert!(!rule(Value::Bool(false)).unwrap());
}

#[test]
fn field_residual_rows_fail_closed_row_by_row() {
    let rule = hooks::BattleFieldResidual::out_from_value;
    let rows = rule(list(vec![
        row("enemy", Value::Int(7), Some(Value::from("buffeted!"))),
        row("player", Value::Float(3.0), None),
        Value::Bool(false),
        row("both", Value::Int(1), None),
        row("enemy", Value::from("7"), None),
        row("enemy", Value::Int(0), None),
        row("enemy", Value::Int(-2), None),
        row("enemy", Value::Float(1.5), None),
        row("enemy", Value::Float(f64::NAN), None),
        row("enemy", Value::Float(f64::INFINITY), None),
        row("enemy", Value::Int(2), Some(Value::Int(5))),
    ]))
    .unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0].side, Side::Enemy);
    assert_eq!(rows[0].amount, 7);
    assert_eq!(rows[0].message.as_deref(), Some("buffeted!"));
    assert_eq!(rows[1].side, Side::Player);
    assert_eq!(rows[1].amount, 3);
    assert!(rule(Value::from("rows")).unwrap().is_empty());
    assert!(rule(Value::Nil).unwrap().is_empty());
}

#[test]
fn field_residual_context_is_the_rfc_shape() {
    let args = hooks::BattleFieldResidualArgs {
        context: hooks::FieldResidualContext {
            field: Value::map([
                ("weather", Value::from("SANDSTORM")),
                ("tokens", list(vec![])),
            ]),
            battlers: Battlers {
                player: battler(Side::Player, 20),
                enemy: battler(Side::Enemy, 9),
            },
            turn: 4,
        },
    };
    let v = &hooks::BattleFieldResidual::args_to_values(&args).unwrap()[0];
    let enemy = v.get("battlers").and_then(|b| b.get("enemy")).unwrap();
    assert_eq!(enemy.get("maxHp"), Some(&Value::Int(30)));
    assert_eq!(enemy.get("side"), Some(&Value::from("enemy")));
    assert_eq!(enemy.get("vanished"), Some(&Value::Bool(false)));
    assert_eq!(v.get("turn"), Some(&Value::Int(4)));
    assert_eq!(
        v.get("field").and_then(|f| f.get("weather")),
        Some(&Value::from("SANDSTORM"))
    );
}

#[test]
fn multi_return_hooks_round_trip() {
    let out = hooks::WarpTarget {
        map_id: "ROUTE_1".into(),
        x: 4,
        y: 9,
    };
    let v = hooks::WarpDestination::out_to_value(&out).unwrap();
    assert_eq!(hooks::WarpDestination::out_from_value(v).unwrap(), out);
    assert!(hooks::WarpDestination::out_from_value(Value::Nil).is_err());
    assert!(hooks::WarpDestination::out_from_value(list(vec![
        Value::from("X"),
        Value::Float(1.5),
        Value::Int(1)
    ]))
    .is_err());
    let c = hooks::CatchRate::out_from_value(list(vec![Value::Bool(true)])).unwrap();
    assert_eq!((c.caught, c.shakes), (true, 3));
    let c = hooks::CatchRate::out_from_value(list(vec![Value::Nil, Value::Int(9)])).unwrap();
    assert_eq!((c.caught, c.shakes), (false, 3));
    assert_eq!(
        hooks::ExpGain::out_from_value(Value::Float(150.7)).unwrap(),
        150
    );
    assert!(hooks::ExpGain::out_from_value(Value::from("150")).is_err());
    assert!(hooks::ExpGain::out_from_value(Value::Int(-1)).is_err());
    assert!(hooks::SaveWrite::out_from_value(Value::Nil).unwrap());
    assert!(!hooks::SaveWrite::out_from_value(Value::Bool(false)).unwrap());
    assert_eq!(
        hooks::EncounterRoll::out_from_value(Value::Nil).unwrap(),
        None
    );
    assert!(hooks::EncounterRoll::out_from_value(Value::map([
        ("species", Value::from("MEW")),
        ("level", Value::Int(101))
    ]))
    .is_err());
}

/// A scripted link written against values, as a Rhai/Lua host would adapt it.
struct Scripted<F: Fn(&mut dyn ValueNext, Vec<Value>) -> Result<Value, LinkError>>(F);
impl<F: Fn(&mut dyn ValueNext, Vec<Value>) -> Result<Value, LinkError>> ScriptLink for Scripted<F> {
    fn call(&self, next: &mut dyn ValueNext, args: Vec<Value>) -> Result<Value, LinkError> {
        (self.0)(next, args)
    }
}

#[test]
fn script_links_wrap_by_name_and_compose_with_native_links() {
    let rt = Runtime::new();
    let info = catalog::hook_info("map.occupancy_allowed").unwrap();
    // Cooperative permission wrapper: permit when downstream permits or the map is ours.
    let seen = Rc::new(RefCell::new(Vec::new()));
    let s = seen.clone();
    (info.wrap_script)(
        &rt,
        "mew_truck",
        0,
        Rc::new(Scripted(move |next, args| {
            s.borrow_mut().push(args[1].get("mapId").cloned());
            let downstream = next.call()?;
            let ours = args[1].get("mapId") == Some(&Value::from("VERMILION_DOCK"));
            Ok(Value::Bool(downstream == Value::Bool(true) || ours))
        })),
    );
    let args = hooks::MapOccupancyAllowedArgs::at_dock(GameInfo::default(), None, None);
    assert!(rt.call::<hooks::MapOccupancyAllowed>(args.clone(), |_| false));
    assert_eq!(*seen.borrow(), vec![Some(Value::from("VERMILION_DOCK"))]);

    // A malformed answer from an outer script link after next: fail closed to downstream.
    (info.wrap_script)(
        &rt,
        "malformed",
        10,
        Rc::new(Scripted(|next, _| {
            next.call()?;
            Ok(Value::from("yes"))
        })),
    );
    // "yes" is not exactly true -> denied by the result rule (not a link failure).
    assert!(!rt.call::<hooks::MapOccupancyAllowed>(args.clone(), |_| false));
    rt.remove_owner("malformed");

    // A script that throws before next is skipped.
    (info.wrap_script)(
        &rt,
        "thrower",
        10,
        Rc::new(Scripted(|_, _| Err(LinkError::new("oops")))),
    );
    assert!(rt.call::<hooks::MapOccupancyAllowed>(args, |_| false));
    assert!(rt
        .drain_diagnostics()
        .iter()
        .any(|d| d.message == "[thrower] hook map.occupancy_allowed failed: oops -- link skipped"));
}

#[test]
fn script_next_with_values_replaces_typed_args_and_rejects_malformed_ones() {
    let rt = Runtime::new();
    let info = catalog::hook_info("exp.gain").unwrap();
    (info.wrap_script)(
        &rt,
        "doubler",
        0,
        Rc::new(Scripted(|next, mut args| {
            // Malformed replacement: next refuses without running anything.
            assert!(next.call_with(vec![Value::from("junk")]).is_err());
            if let Some(Value::Map(ctx)) = args.get_mut(0) {
                ctx.insert("level".into(), Value::Int(50));
            }
            let base = next.call_with(args)?;
            Ok(Value::Int(base.as_exact_int().unwrap_or(0) * 2))
        })),
    );
    let args = hooks::ExpGainArgs {
        ctx: hooks::ExpGainContext {
            defeated_def: Value::map([("baseExp", Value::Int(50))]),
            level: 5,
            is_trainer: false,
            participants: 1,
            traded: false,
            mon: Value::Nil,
        },
    };
    let got = rt.call::<hooks::ExpGain>(args, |a| u32::from(a.ctx.level) * 10);
    assert_eq!(got, 1000);
}

struct Collect(Rc<RefCell<Vec<Value>>>);
impl ScriptListener for Collect {
    fn call(&self, payload: &Value) -> ListenerResult {
        self.0.borrow_mut().push(payload.clone());
        Ok(())
    }
}

#[test]
fn script_listeners_receive_detached_payloads() {
    let rt = Runtime::new();
    let got = Rc::new(RefCell::new(Vec::new()));
    let info = catalog::event_info("pokemon.caught").unwrap();
    (info.on_script)(&rt, "m", 0, false, Rc::new(Collect(got.clone())));
    assert!(rt.wants_event::<events::PokemonCaught>());
    rt.emit::<events::PokemonCaught>(events::PokemonCaughtPayload {
        battle: BattleInfo::default(),
        mon: Value::map([("species", Value::from("PIDGEY"))]),
        species: "PIDGEY".into(),
        is_new: true,
        ball: "POKE_BALL".into(),
        destination: events::CatchDestination::Mod,
        game: GameInfo::default(),
    });
    let got = got.borrow();
    assert_eq!(got[0].get("destination"), Some(&Value::from("mod")));
    assert_eq!(got[0].get("isNew"), Some(&Value::Bool(true)));
}
