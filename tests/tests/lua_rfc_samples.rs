//! The RFCs' Lua code samples, verbatim, as legacy mods on the shim: RFC 0016's
//! `battle.field_residual` wrapper (on the bus and at the engine's real end-of-round site), RFC 0018's `catch.party_full` wrapper (stubs only for the
//! mod's own `myMode` / `takeCustody`), and RFC 0013's cooperative occupancy wrapper pattern with
//! `mod.world:activeBlockAt`.

mod lua_support;

use lua_support::*;
use pallet_api::access::with_world;
use pallet_api::catalog::common::{BattleInfo, BattlerSnapshot, Battlers, GameInfo, Side};
use pallet_api::catalog::hooks::{
    BattleFieldResidual, BattleFieldResidualArgs, CatchPartyFull, CatchPartyFullArgs,
    FieldResidualContext, MapOccupancyAllowed, MapOccupancyAllowedArgs, PartyFullContext,
    ResidualRow,
};
use pallet_api::facades::{block_coordinate, WorldApi};
use pallet_api::reasons::BlockReadError;
use pallet_api::Value;
use pallet_engine::battle::{
    Action, Battle, BattleKind, BattleResult, Row, ScriptedRng, Side as BattleSide,
};
use pallet_engine::data::gen1;
use pallet_engine::pokemon::{Dvs, Pokemon};

/// RFC 0016, "Exact API delta" — verbatim.
const RFC_0016_SAMPLE: &str = r#"mod.hooks:wrap("battle.field_residual", function(next, context)
  local rows = next(context)
  rows[#rows + 1] = {
    side = "enemy",
    amount = 7,
    message = context.battlers.enemy.name .. " is buffeted!",
  }
  return rows
end)"#;

/// RFC 0018, "New hook: catch.party_full" — verbatim.
const RFC_0018_SAMPLE: &str = r#"mod.hooks:wrap("catch.party_full", function(next, ctx)
  -- ctx = { battle = <BattleState>, mon = <Pokemon>, name = <display name>,
  --         game = <Game> }
  if myMode.active then
    takeCustody(ctx.mon)      -- the mon is the mod's problem now
    return true               -- nothing is deposited
  end
  return next(ctx)            -- false: deposit, as today
end)"#;

fn battler(side: Side, name: &str) -> BattlerSnapshot {
    BattlerSnapshot {
        side,
        name: name.into(),
        hp: 30,
        max_hp: 40,
        types: vec!["ROCK".into(), "GROUND".into()],
        vanished: false,
    }
}

fn residual_args() -> BattleFieldResidualArgs {
    BattleFieldResidualArgs {
        context: FieldResidualContext {
            field: Value::map([
                ("weather", Value::from("SANDSTORM")),
                ("tokens", Value::List(vec![])),
            ]),
            battlers: Battlers {
                player: battler(Side::Player, "PIKACHU"),
                enemy: battler(Side::Enemy, "GEODUDE"),
            },
            turn: 4,
        },
    }
}

#[test]
fn rfc_0016_field_residual_sample_runs_verbatim() {
    let main = format!("local mod = ...\n{RFC_0016_SAMPLE}\n");
    let env = load(&[], vec![lua_mod("weather", &main)]);
    env.assert_loaded("weather");
    let rows = env
        .rt
        .call::<BattleFieldResidual>(residual_args(), |_| Vec::new());
    assert_eq!(
        rows,
        vec![ResidualRow {
            side: Side::Enemy,
            amount: 7,
            message: Some("GEODUDE is buffeted!".into()),
        }]
    );
    // Composes: two copies of the sample append two rows after vanilla's.
    let env = load(
        &[],
        vec![lua_mod("weather", &main), lua_mod("weather2", &main)],
    );
    let rows = env.rt.call::<BattleFieldResidual>(residual_args(), |_| {
        vec![ResidualRow {
            side: Side::Player,
            amount: 1,
            message: None,
        }]
    });
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0].side, Side::Player);
}

/// A level-20 SPLASH user with `hp` HP left (SPLASH rounds draw no random byte).
fn splasher(species: &str, hp: u16) -> Pokemon {
    let d = gen1();
    let mut m = Pokemon::new(
        d,
        d.species_by_name(species).expect("species"),
        20,
        Dvs::MAX,
    );
    let splash = d.move_by_name("SPLASH").expect("SPLASH");
    m.moves = [Some(splash), None, None, None];
    m.pp = [d.move_data(splash).pp, 0, 0, 0];
    m.hp = hp;
    m
}

#[test]
fn rfc_0016_field_residual_sample_reaches_the_battle_site() {
    // The verbatim sample on the shim, wrapped around the engine's real end-of-round site: its
    // row hurts the enemy by 7 each round (message first, then the HP drain), the last row is
    // clamped to the HP left and the engine's faint pipeline ends the battle.
    let main = format!("local mod = ...\n{RFC_0016_SAMPLE}\n");
    let env = load(&[], vec![lua_mod("weather", &main)]);
    env.assert_loaded("weather");
    let mut b = Battle::new(
        gen1(),
        BattleKind::Wild,
        vec![splasher("PIKACHU", 40)],
        vec![splasher("GEODUDE", 10)],
        ScriptedRng::new(&[]),
    );
    b.clear_rows();
    let mut lines = Vec::new();
    for _ in 0..2 {
        b.submit(&env.rt, Action::Move(0), Action::Move(0))
            .expect("round");
        let rows: Vec<Row> = b.rows().collect();
        lines.extend(rows.iter().filter_map(|r| {
            match r {
                Row::HpDrain { side, from, to, .. } => Some(format!("{side:?} {from}->{to}")),
                Row::Text(_) => r
                    .render(&b)
                    .filter(|t| !t.contains("SPLASH") && t != "No effect!"),
                _ => None,
            }
        }));
    }
    assert_eq!(
        lines[..6],
        [
            "GEODUDE is buffeted!",
            "Enemy 10->3",
            "GEODUDE is buffeted!",
            "Enemy 3->0",
            "Enemy GEODUDE fainted!",
            "PIKACHU gained 245 EXP. Points!", // base EXP 86 × L20 / 7
        ]
    );
    assert_eq!(b.result(), Some(BattleResult::Win));
    assert_eq!(b.active(BattleSide::Player).hp, 40);
    assert!(b.rng().check_drained().is_ok());
}

fn party_full_args() -> CatchPartyFullArgs {
    CatchPartyFullArgs {
        ctx: PartyFullContext {
            battle: BattleInfo::default(),
            mon: Value::map([("species", Value::from("ABRA")), ("level", Value::Int(7))]),
            name: "ABRA".into(),
            game: GameInfo::default(),
        },
    }
}

#[test]
fn rfc_0018_party_full_sample_runs_verbatim_with_stubbed_helpers() {
    for active in [true, false] {
        // Stubs for the mod's own helpers only; the sample below them is verbatim.
        let main = format!(
            "local mod = ...\n\
             local myMode = {{ active = {active} }}\n\
             local custody = {{}}\n\
             local function takeCustody(mon)\n\
               custody[#custody + 1] = mon\n\
               mod.save:set(\"custody\", custody)\n\
             end\n\
             {RFC_0018_SAMPLE}\n"
        );
        let env = load(&[], vec![lua_mod("nuzlocke", &main)]);
        env.assert_loaded("nuzlocke");
        let claimed = env.rt.call::<CatchPartyFull>(party_full_args(), |_| false);
        assert_eq!(claimed, active);
        let custody = env
            .loader
            .mod_data
            .to_value()
            .get("nuzlocke")
            .and_then(|b| b.get("custody"))
            .cloned();
        if active {
            let kept = custody.expect("custody saved");
            assert_eq!(
                kept.as_list()
                    .and_then(|l| l.first())
                    .and_then(|m| m.get("species")),
                Some(&Value::from("ABRA"))
            );
        } else {
            assert_eq!(custody, None);
        }
    }
}

/// The departed dock with the RFC 0013 signature block at (7, 1).
struct Dock {
    block: u8,
}

impl WorldApi for Dock {
    fn active_block_at(&self, map_id: &str, bx: &Value, by: &Value) -> Result<u8, BlockReadError> {
        if map_id != "VERMILION_DOCK" {
            return Err(BlockReadError::MapNotActive);
        }
        let (x, y) = (block_coordinate(bx)?, block_coordinate(by)?);
        if !(0..14).contains(&x) || !(0..6).contains(&y) {
            return Err(BlockReadError::BlockCoordinatesOutOfBounds);
        }
        Ok(if (x, y) == (7, 1) { self.block } else { 0x0f })
    }
}

/// RFC 0013's cooperative permission wrapper: ask downstream first, permit when downstream
/// permits or when the mod's own narrow rule (a version-specific block signature) holds.
const OCCUPANCY_WRAPPER: &str = r#"local mod = ...
mod.hooks:wrap("map.occupancy_allowed", function(next, game, context)
  local allowed = next(game, context)
  if allowed == true then
    return true
  end
  local block, reason = mod.world:activeBlockAt(context.mapId, 7, 1)
  if block == nil then
    mod.log:warn("block read failed: %s", reason)
    return false
  end
  return block == 0x2a
end)"#;

fn dock_args() -> MapOccupancyAllowedArgs {
    MapOccupancyAllowedArgs::at_dock(GameInfo::default(), Some(14), Some(2))
}

#[test]
fn rfc_0013_cooperative_occupancy_wrapper_pattern() {
    let env = load(&[], vec![lua_mod("dock-stay", OCCUPANCY_WRAPPER)]);
    env.assert_loaded("dock-stay");
    // Signature block present: the narrow rule permits.
    let allowed = with_world(&Dock { block: 0x2a }, || {
        env.rt.call::<MapOccupancyAllowed>(dock_args(), |_| false)
    });
    assert!(allowed);
    // Signature absent: vanilla's false stands.
    let allowed = with_world(&Dock { block: 0x03 }, || {
        env.rt.call::<MapOccupancyAllowed>(dock_args(), |_| false)
    });
    assert!(!allowed);
    // No world lent: the read fails with the RFC reason and the wrapper fails closed.
    assert!(!env.rt.call::<MapOccupancyAllowed>(dock_args(), |_| false));
    assert!(env
        .feed()
        .contains(&"[dock-stay] block read failed: no overworld".to_owned()));

    // Cooperative composition with a Rhai wrapper that permits unconditionally (outer), and a
    // malformed Lua wrapper that returns a truthy non-boolean (inner): only exact `true` counts.
    let env = load(
        &[],
        vec![
            lua_mod("dock-stay", OCCUPANCY_WRAPPER),
            lua_mod(
                "sloppy",
                r#"local mod = ...
                   mod.hooks:wrap("map.occupancy_allowed", function(next, game, ctx) return "yes" end, -10)"#,
            ),
        ],
    );
    let allowed = with_world(&Dock { block: 0x03 }, || {
        env.rt.call::<MapOccupancyAllowed>(dock_args(), |_| false)
    });
    assert!(!allowed, "a malformed result fails closed");
    let rhai_permit = rhai_mod(
        "permit",
        r#"hooks.wrap("map.occupancy_allowed", 50, |next, game, ctx| { let d = next.call(game, ctx); true });"#,
    );
    let env = load(
        &[],
        vec![lua_mod("dock-stay", OCCUPANCY_WRAPPER), rhai_permit],
    );
    let allowed = with_world(&Dock { block: 0x03 }, || {
        env.rt.call::<MapOccupancyAllowed>(dock_args(), |_| false)
    });
    assert!(
        allowed,
        "an outer Rhai permission composes over the Lua wrapper"
    );
}
