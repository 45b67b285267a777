//! The raw stack pushes ([`crate::stack`]) build exactly what the `Value` path builds
//! (`to_lua(to_value(x))`), and every catalog hook's arguments take the positional fast path.

use std::os::raw::c_int;

use mlua::state::RawLua;
use mlua::{Function, IntoLuaMulti, Lua, MultiValue, Value as LuaValue};
use pallet_api::catalog::common::*;
use pallet_api::catalog::hooks::*;
use pallet_api::script::{ArgList, ReadPaths, ScriptHook};
use pallet_api::value::to_value;
use pallet_api::Value;
use serde::Serialize;

use crate::convert::{from_lua, to_lua};
use crate::stack;

/// Pushes `value` with [`stack::push`] (or its fields with [`stack::push_fields`]).
struct Push<'a, T: ?Sized> {
    keys: &'a stack::KeyCache,
    value: &'a T,
    fields: Option<&'static [&'static str]>,
}

impl<T: Serialize + ?Sized> IntoLuaMulti for Push<'_, T> {
    fn into_lua_multi(self, _: &Lua) -> mlua::Result<MultiValue> {
        Err(mlua::Error::runtime(
            "the test pushes through the stack only",
        ))
    }

    unsafe fn push_into_stack_multi(self, raw: &RawLua) -> mlua::Result<c_int> {
        // SAFETY: test states have no memory limit; mlua holds the lock and a stack guard.
        if crate::capi::lua_checkstack(raw.state(), 16) == 0 {
            return Err(mlua::Error::runtime("stack"));
        }
        match self.fields {
            Some(names) => {
                Ok(
                    stack::push_fields(raw.state(), self.keys, names, u64::MAX, &[], self.value)?
                        as c_int,
                )
            }
            None => {
                stack::push(raw.state(), self.keys, self.value)?;
                Ok(1)
            }
        }
    }
}

fn identity(lua: &Lua) -> Function {
    lua.load("return ...").into_function().unwrap()
}

/// `from_lua` of both conversions of `value`.
fn both<T: Serialize + ?Sized>(lua: &Lua, value: &T) -> (Value, Value) {
    let direct: LuaValue = identity(lua)
        .call(Push {
            keys: &stack::KeyCache::default(),
            value,
            fields: None,
        })
        .unwrap();
    let via_value = to_lua(lua, &to_value(value).unwrap()).unwrap();
    (from_lua(&direct).unwrap(), from_lua(&via_value).unwrap())
}

#[test]
fn scalars_containers_and_variants_match_the_value_path() {
    #[derive(Serialize)]
    enum E {
        Unit,
        New(u8),
        Tuple(u8, String),
        Struct { a: Option<u8>, b: bool },
    }
    #[derive(Serialize)]
    struct S {
        e: Vec<E>,
        bytes: serde_bytes_like::Bytes,
        map: std::collections::BTreeMap<i32, &'static str>,
        bools: std::collections::BTreeMap<bool, f64>,
        none: Option<String>,
        c: char,
        unit: (),
    }
    mod serde_bytes_like {
        pub struct Bytes(pub Vec<u8>);
        impl serde::Serialize for Bytes {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_bytes(&self.0)
            }
        }
    }
    let lua = Lua::new();
    let s = S {
        e: vec![
            E::Unit,
            E::New(3),
            E::Tuple(1, "x".into()),
            E::Struct { a: None, b: true },
        ],
        bytes: serde_bytes_like::Bytes(vec![1, 2, 255]),
        map: [(1, "one"), (-2, "minus two")].into_iter().collect(),
        bools: [(true, 1.5)].into_iter().collect(),
        none: None,
        c: 'é',
        unit: (),
    };
    let (direct, via) = both(&lua, &s);
    assert_eq!(direct, via);
    assert_eq!(
        direct.get("e").and_then(|e| e.as_list()).map(|l| l.len()),
        Some(4)
    );
    let v = Value::map([
        (
            "list",
            Value::List(vec![Value::Int(1), Value::Nil, Value::from("x")]),
        ),
        ("f", Value::Float(0.25)),
        ("nested", Value::map([("deep", Value::List(vec![]))])),
    ]);
    let (direct, via) = both(&lua, &v);
    assert_eq!(direct, via);
}

#[test]
fn what_the_value_path_refuses_the_stack_refuses() {
    let lua = Lua::new();
    let f = identity(&lua);
    for bad in [f64::NAN, f64::INFINITY] {
        assert!(to_value(&bad).is_err());
        assert!(f
            .call::<LuaValue>(Push {
                keys: &stack::KeyCache::default(),
                value: &bad,
                fields: None
            })
            .is_err());
    }
    let big = u64::MAX;
    assert!(to_value(&big).is_err());
    assert!(f
        .call::<LuaValue>(Push {
            keys: &stack::KeyCache::default(),
            value: &big,
            fields: None
        })
        .is_err());
    // Nesting past the bound is refused, not a stack overflow.
    let mut deep = Value::Nil;
    for _ in 0..(stack::MAX_STACK_DEPTH + 1) {
        deep = Value::List(vec![deep]);
    }
    assert!(f
        .call::<LuaValue>(Push {
            keys: &stack::KeyCache::default(),
            value: &deep,
            fields: None
        })
        .is_err());
}

/// `args` take the positional fast path, and each pushed argument equals the `Value` path's.
fn positional<H: ScriptHook>(args: H::Args)
where
    H::Args: Serialize,
{
    let lua = Lua::new();
    let names = <H::Args as ArgList>::NAMES;
    let pushed: MultiValue = identity(&lua)
        .call(Push {
            keys: &stack::KeyCache::default(),
            value: &args,
            fields: Some(names),
        })
        .unwrap_or_else(|e| panic!("{}: {e}", H::NAME));
    let values = H::args_to_values(&args).unwrap();
    assert_eq!(pushed.len(), values.len(), "{}", H::NAME);
    for (i, (lua_value, value)) in pushed.iter().zip(&values).enumerate() {
        let via = from_lua(&to_lua(&lua, value).unwrap()).unwrap();
        assert_eq!(
            from_lua(lua_value).unwrap(),
            via,
            "{} argument {i}",
            H::NAME
        );
    }
}

fn battler(side: Side) -> BattlerSnapshot {
    BattlerSnapshot {
        side,
        name: "PIKACHU".into(),
        hp: 20,
        max_hp: 35,
        types: vec!["ELECTRIC".into()],
        vanished: false,
    }
}

fn battle() -> BattleInfo {
    BattleInfo {
        kind: BattleKind::Trainer,
        opp_class: Some("OPP_BROCK".into()),
        party_index: Some(1),
        turn: 3,
    }
}

fn mv() -> MoveInfo {
    MoveInfo {
        id: "THUNDERSHOCK".into(),
        move_type: "ELECTRIC".into(),
        power: 40,
        accuracy: 255,
    }
}

fn record() -> Value {
    Value::map([
        ("species", Value::from("RATTATA")),
        ("levels", Value::List(vec![Value::Int(2), Value::Int(4)])),
    ])
}

fn game() -> GameInfo {
    GameInfo {
        version: GameVersion::Blue,
        playthrough_id: Some("p1".into()),
        map_id: None,
    }
}

#[test]
fn every_catalog_hook_takes_the_positional_fast_path() {
    positional::<MapOccupancyAllowed>(MapOccupancyAllowedArgs::at_dock(game(), Some(3), None));
    positional::<BattleFieldResidual>(BattleFieldResidualArgs {
        context: FieldResidualContext {
            field: record(),
            battlers: Battlers {
                player: battler(Side::Player),
                enemy: battler(Side::Enemy),
            },
            turn: 2,
        },
    });
    positional::<CatchPartyFull>(CatchPartyFullArgs {
        ctx: PartyFullContext {
            battle: battle(),
            mon: record(),
            name: "RATTATA".into(),
            game: game(),
        },
    });
    positional::<ExpGain>(ExpGainArgs {
        ctx: ExpGainContext {
            defeated_def: record(),
            level: 12,
            is_trainer: true,
            participants: 2,
            traded: false,
            mon: Value::Nil,
        },
    });
    positional::<EncounterRoll>(EncounterRollArgs {
        enc_def: record(),
        ctx: EncounterRollContext {
            map_id: "ROUTE_1".into(),
            terrain: "grass".into(),
            rng: pallet_api::script_rng::ScriptRng::seeded(7),
        },
    });
    positional::<CatchRate>(CatchRateArgs {
        ball: "GREAT_BALL".into(),
        mon: record(),
        def: Value::Nil,
        opts: CatchOptions {
            battle: battle(),
            rate_override: None,
        },
    });
    positional::<BattleDamage>(BattleDamageArgs {
        ctx: DamageContext {
            battle: battle(),
            user: battler(Side::Player),
            target: battler(Side::Enemy),
            move_info: mv(),
            critical: true,
        },
    });
    positional::<BattleAccuracy>(BattleAccuracyArgs {
        ctx: AccuracyContext {
            battle: battle(),
            user: battler(Side::Player),
            target: battler(Side::Enemy),
            move_info: mv(),
        },
    });
    positional::<BattleCrit>(BattleCritArgs {
        ctx: CritContext {
            battle: battle(),
            user: battler(Side::Player),
            move_info: mv(),
        },
    });
    positional::<TrainerParty>(TrainerPartyArgs {
        class_id: "OPP_BROCK".into(),
        index: 0,
        party: vec![
            PartyMember {
                species: "GEODUDE".into(),
                level: 12,
                moves: None,
            },
            PartyMember {
                species: "ONIX".into(),
                level: 14,
                moves: Some(vec!["TACKLE".into(), "BIND".into()]),
            },
        ],
    });
    positional::<EvolutionCheck>(EvolutionCheckArgs {
        game: game(),
        mon: record(),
        evo: Value::Nil,
        trigger: "level".into(),
    });
    positional::<BattleExpAward>(BattleExpAwardArgs {
        ctx: ExpAwardContext {
            battle: battle(),
            participants: 2,
            alive: vec![0, 2],
            party: Vec::new(),
        },
    });
    positional::<SaveWrite>(SaveWriteArgs { game: game() });
    positional::<MovementCollision>(MovementCollisionArgs {
        allowed: false,
        ctx: CollisionContext {
            map_id: "ROUTE_22".into(),
            mover: Mover {
                kind: "player".into(),
                id: None,
            },
            dir: Direction::Left,
            from_x: 3,
            from_y: 4,
            to_x: 2,
            to_y: 4,
            reason: Some("wall".into()),
        },
    });
    positional::<WarpDestination>(WarpDestinationArgs {
        map_id: "PALLET_TOWN".into(),
        x: 5,
        y: -1,
        ctx: WarpContext {
            warp: record(),
            last_map: None,
        },
    });
}

#[test]
fn static_keys_past_the_cache_slots_still_push_their_own_text() {
    // More distinct field names than the cache has slots: collisions push the text itself,
    // claimed slots are never evicted, and every key reads back as itself (twice).
    struct Many(Vec<&'static str>);
    impl Serialize for Many {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeStruct;
            let mut st = s.serialize_struct("Many", self.0.len())?;
            for (i, k) in self.0.iter().enumerate() {
                st.serialize_field(k, &i)?;
            }
            st.end()
        }
    }
    let names: Vec<&'static str> = (0..3 * stack::KEY_SLOTS)
        .map(|i| &*Box::leak(format!("field_{i}").into_boxed_str()))
        .collect();
    let lua = Lua::new();
    let keys = stack::KeyCache::default();
    for _ in 0..2 {
        let value = Many(names.clone());
        let out: LuaValue = identity(&lua)
            .call(Push {
                keys: &keys,
                value: &value,
                fields: None,
            })
            .unwrap();
        let back = from_lua(&out).unwrap();
        for (i, k) in names.iter().enumerate() {
            assert_eq!(back.get(k), Some(&Value::Int(i as i64)), "{k}");
        }
    }
}

/// Pushes the fields of `value` with [`stack::push_fields`], filtered by `only`.
struct PushOnly<'a, T: ?Sized> {
    value: &'a T,
    names: &'static [&'static str],
    only: &'a [(usize, ReadPaths)],
}

impl<T: Serialize + ?Sized> IntoLuaMulti for PushOnly<'_, T> {
    fn into_lua_multi(self, _: &Lua) -> mlua::Result<MultiValue> {
        Err(mlua::Error::runtime(
            "the test pushes through the stack only",
        ))
    }

    unsafe fn push_into_stack_multi(self, raw: &RawLua) -> mlua::Result<c_int> {
        // SAFETY: test states have no memory limit; mlua holds the lock and a stack guard.
        if crate::capi::lua_checkstack(raw.state(), 16) == 0 {
            return Err(mlua::Error::runtime("stack"));
        }
        let keys = stack::KeyCache::default();
        Ok(stack::push_fields(
            raw.state(),
            &keys,
            self.names,
            u64::MAX,
            self.only,
            self.value,
        )? as c_int)
    }
}

/// The read paths of the dotted `paths`.
fn only(paths: &[&str]) -> ReadPaths {
    let mut k = ReadPaths::new();
    for p in paths {
        k.insert(&p.split('.').collect::<Vec<_>>());
    }
    k
}

/// The first argument of `args` pushed with `paths` as its filter, read back.
fn first_filtered<H: ScriptHook>(args: &H::Args, paths: &[&str]) -> Value
where
    H::Args: Serialize,
{
    first_of(args, <H::Args as ArgList>::NAMES, paths)
}

/// The first field (of `names`) of the struct `args` pushed with `paths`, read back.
fn first_of<T: Serialize>(args: &T, names: &'static [&'static str], paths: &[&str]) -> Value {
    let lua = Lua::new();
    let pushed: MultiValue = identity(&lua)
        .call(PushOnly {
            value: args,
            names,
            only: &[(0, only(paths))],
        })
        .unwrap_or_else(|e| panic!("{paths:?}: {e}"));
    from_lua(&pushed[0]).unwrap()
}

#[test]
fn filtered_paths_push_only_their_fields() {
    let crit = BattleCritArgs {
        ctx: CritContext {
            battle: battle(),
            user: battler(Side::Player),
            move_info: mv(),
        },
    };
    let got =
        first_filtered::<BattleCrit>(&crit, &["user.hp", "user.types", "move.power", "battle"]);
    let want = Value::map([
        ("battle", to_value(&battle()).unwrap()),
        ("move", Value::map([("power", Value::Int(40))])),
        (
            "user",
            Value::map([
                ("hp", Value::Int(20)),
                ("types", Value::List(vec![Value::from("ELECTRIC")])),
            ]),
        ),
    ]);
    assert_eq!(got, want);
    // A whole field wins over paths below it; a path below a scalar or a list pushes it whole;
    // a missing key pushes nothing.
    let got = first_filtered::<BattleCrit>(
        &crit,
        &[
            "user",
            "user.hp",
            "battle.kind.x",
            "move.nothing",
            "nothing.x",
        ],
    );
    let want = Value::map([
        ("battle", Value::map([("kind", Value::from("trainer"))])),
        // An empty table reads back as an empty list.
        ("move", Value::List(vec![])),
        ("user", to_value(&battler(Side::Player)).unwrap()),
    ]);
    assert_eq!(got, want);
    // Only structs are filtered: a `Value` map on a path is pushed whole.
    let exp = ExpGainArgs {
        ctx: ExpGainContext {
            defeated_def: record(),
            level: 12,
            is_trainer: true,
            participants: 1,
            traded: false,
            mon: record(),
        },
    };
    let got = first_filtered::<ExpGain>(&exp, &["mon.species", "level"]);
    let want = Value::map([("level", Value::Int(12)), ("mon", record())]);
    assert_eq!(got, want);
    // A path below a unit variant (`game.version`) pushes it whole.
    let occupancy = MapOccupancyAllowedArgs::at_dock(game(), Some(4), None);
    let got = first_filtered::<MapOccupancyAllowed>(&occupancy, &["version.a.b", "mapId"]);
    assert_eq!(got, Value::map([("version", Value::from("blue"))]));
    // Three levels of structs, an `Option` on the way.
    #[derive(Serialize)]
    struct Leaf {
        c: u8,
        d: Vec<u8>,
    }
    #[derive(Serialize)]
    struct Mid {
        b: Option<Leaf>,
        f: u8,
    }
    #[derive(Serialize)]
    struct Top {
        a: Mid,
        g: u8,
    }
    #[derive(Serialize)]
    struct Args {
        ctx: Top,
    }
    let deep = Args {
        ctx: Top {
            a: Mid {
                b: Some(Leaf {
                    c: 1,
                    d: vec![2, 3],
                }),
                f: 4,
            },
            g: 5,
        },
    };
    let got = first_of(&deep, &["ctx"], &["a.b.d", "g"]);
    let want = Value::map([
        (
            "a",
            Value::map([(
                "b",
                Value::map([("d", Value::List(vec![Value::Int(2), Value::Int(3)]))]),
            )]),
        ),
        ("g", Value::Int(5)),
    ]);
    assert_eq!(got, want);
    let got = first_of(&deep, &["ctx"], &["a.b.c", "a.f"]);
    let want = Value::map([(
        "a",
        Value::map([
            ("b", Value::map([("c", Value::Int(1))])),
            ("f", Value::Int(4)),
        ]),
    )]);
    assert_eq!(got, want);
}
