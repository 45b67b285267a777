//! Lazily materialized context tables ([`crate::lazy`]) against eager ones: the same probe mod
//! runs on a host with lazy contexts and on one without, and every line it logs must agree —
//! field reads, nested tables, `pairs`/`next`/`#`/`ipairs`/`unpack`/`rawget`/`rawset`/
//! `getmetatable`/`setmetatable`/`table.*` over `ctx`, a `ctx` kept and read after its call,
//! `ctx` mutated and handed to `next(ctx)`, and errors named as before.

use std::collections::BTreeMap;
use std::rc::Rc;

use pallet_api::catalog::common::{BattleInfo, BattlerSnapshot, MoveInfo, Side};
use pallet_api::catalog::hooks::{
    BattleCrit, BattleCritArgs, CritContext, ExpGain, ExpGainArgs, ExpGainContext,
};
use pallet_api::content::Content;
use pallet_api::loader::{EnableState, Loader, ModCandidate};
use pallet_api::{Runtime, Value};

use crate::lazy::LazyMode;
use crate::LuaHost;

const PROBE: &str = r##"local mod = ...
local function dump(v, depth)
  depth = depth or 0
  if type(v) ~= "table" then return type(v) .. ":" .. tostring(v) end
  if depth > 6 then return "..." end
  local keys = {}
  for k in pairs(v) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
  local parts = {}
  for _, k in ipairs(keys) do parts[#parts + 1] = tostring(k) .. "=" .. dump(v[k], depth + 1) end
  return "{" .. table.concat(parts, ",") .. "}"
end
local function say(...) mod.log:info("%s", table.concat({ ... }, " | ")) end
local calls, kept, kept_user = 0, nil, nil

mod.hooks:wrap("battle.crit", function(next, ctx)
  calls = calls + 1
  if calls == 1 then
    say("read", ctx.user.hp, ctx.user.maxHp, ctx.move.type, ctx.battle.kind, ctx.user.types[1],
      #ctx.user.types, tostring(ctx.battle.trainerClass))
    kept_user = ctx.user
    return next()
  elseif calls == 2 then
    local n = 0
    for k, v in pairs(ctx) do n = n + 1 end
    say("pairs", n, dump(ctx), type(next(ctx)), #ctx, select("#", unpack(ctx)))
    local i = 0
    for _ in ipairs(ctx) do i = i + 1 end
    say("misc", i, type(rawget(ctx, "user")), tostring(getmetatable(ctx)), type(ctx),
      tostring(rawequal(ctx, ctx)), tostring(ctx):sub(1, 6), tostring(table.maxn(ctx)))
    return next()
  elseif calls == 3 then
    kept = ctx
    return next()
  elseif calls == 4 then
    say("kept", kept.user.name, kept.move.power, dump(kept), kept_user.hp, dump(kept_user))
    local n = 0
    table.foreach(ctx.user, function() n = n + 1 end)
    say("foreach", n, tostring(rawget(ctx.move, "power")))
    return next()
  elseif calls == 5 then
    ctx.user.hp = 1
    ctx.extra = 5
    ctx.move.power = 99
    rawset(ctx.battle, "turn", 7)
    table.insert(ctx, "x")
    say("mutated", dump(ctx), #ctx, tostring(ctx[1]))
    return next(ctx)
  elseif calls == 6 then
    setmetatable(ctx.move, { __index = function() return "dflt" end })
    say("meta", ctx.move.nope, ctx.move.id, tostring(getmetatable(ctx.move) ~= nil))
    local k = _G.next(ctx.battle)
    say("next", type(k), tostring(rawget(ctx.battle, k) ~= nil))
    ctx.user = nil
    ctx.battle.trainerClass = nil
    say("deleted", dump(ctx), tostring(ctx.user))
    return next()
  elseif calls == 7 then
    local function err(f) return select(2, pcall(f)) end
    say("errors", err(function() return pairs(nil) end), err(function() return _G.next(nil) end),
      err(function() return rawget(1, 2) end), err(function() return setmetatable(1, {}) end),
      err(function() return ctx.user.nope.x end))
    return ctx.user
  end
  return next()
end, 10)

mod.hooks:wrap("battle.crit", function(next, ctx)
  say("inner", dump(ctx))
  return next()
end, 0)

mod.hooks:wrap("exp.gain", function(next, ctx)
  say("exp", dump(ctx), tostring(ctx.level), tostring(ctx.mon))
  return next() + 1
end)"##;

fn runtime(mode: LazyMode) -> Rc<Runtime> {
    let rt = Rc::new(Runtime::new());
    let mut host = LuaHost::new(&rt);
    host.set_lazy_contexts(mode);
    let mut files = BTreeMap::new();
    files.insert("main.lua".to_owned(), PROBE.to_owned());
    host.add_embedded("probe", files);
    let manifest =
        r#"{"id": "probe", "name": "probe", "version": "1.0.0", "api": 2, "entry": "main.lua"}"#;
    let candidate = ModCandidate::from_manifest_text("probe", manifest, true);
    let mut loader = Loader::new(Default::default(), "0.1.0", Content::new());
    loader.add_host(Box::new(host));
    let status = loader.load(&rt, &[candidate], &EnableState::default());
    assert_eq!(
        status.order,
        vec!["probe".to_owned()],
        "{:?}",
        status.errors
    );
    rt
}

pub(crate) fn crit_args(hp: u16) -> BattleCritArgs {
    BattleCritArgs {
        ctx: CritContext {
            battle: BattleInfo::default(),
            user: BattlerSnapshot {
                side: Side::Player,
                name: "PIKACHU".into(),
                hp,
                max_hp: 35,
                types: vec!["ELECTRIC".into()],
                vanished: false,
            },
            move_info: MoveInfo {
                id: "THUNDERSHOCK".into(),
                move_type: "ELECTRIC".into(),
                power: 40,
                accuracy: 255,
            },
        },
    }
}

/// Everything the probe logs, plus the hooks' answers.
fn run(mode: LazyMode) -> Vec<String> {
    let rt = runtime(mode);
    let mut out = Vec::new();
    for call in 1..=8u16 {
        let crit = rt.call::<BattleCrit>(crit_args(20 + call), |_| call % 2 == 0);
        out.push(format!("answer {call}: {crit}"));
    }
    let exp = rt.call::<ExpGain>(
        ExpGainArgs {
            ctx: ExpGainContext {
                defeated_def: Value::Nil,
                level: 12,
                is_trainer: false,
                participants: 1,
                traded: false,
                mon: Value::Nil,
            },
        },
        |_| 41,
    );
    out.push(format!("exp answer: {exp}"));
    out.extend(rt.drain_diagnostics().into_iter().map(|d| d.message));
    out
}

#[test]
fn lazy_contexts_read_exactly_as_eager_tables() {
    let lazy = run(LazyMode::Always);
    let eager = run(LazyMode::Off);
    assert_eq!(lazy, eager);
    // The default mode switches between the two per link as the wrapper touches `ctx`.
    assert_eq!(run(LazyMode::Adaptive), eager);
    // The probe did reach every step (and the comparison is not vacuous).
    for needle in [
        "read | 21 | 35 | ELECTRIC | wild | ELECTRIC | 1 | nil",
        "pairs | 3 |",
        "kept | PIKACHU | 40 |",
        "mutated |",
        "extra=number:5",
        "power=number:99",
        "meta | dflt | THUNDERSHOCK | true",
        "bad argument #1 to 'pairs' (table expected, got nil)",
        "bad argument #1 to 'next' (table expected, got nil)",
        "bad argument #1 to 'rawget' (table expected, got number)",
        "bad argument #1 to 'setmetatable' (table expected, got number)",
        "deleted | {battle={kind=string:wild,turn=number:0},move=",
        "exp | {isTrainer=boolean:false,level=number:12,participants=number:1,traded=boolean:false} | 12 | nil",
    ] {
        assert!(lazy.iter().any(|l| l.contains(needle)), "{needle}: {lazy:#?}");
    }
    // `next(ctx)` carried the mutated context downstream.
    assert!(
        lazy.iter().any(|l| l.contains("inner")
            && l.contains("power=number:99")
            && l.contains("hp=number:1,")
            && l.contains("turn=number:7")),
        "{lazy:#?}"
    );
}
