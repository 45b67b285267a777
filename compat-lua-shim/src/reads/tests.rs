//! The bytecode scan of [`crate::reads`] on real dumps of small wrappers.

use super::*;

/// The wrapper `src` evaluates to, compiled by the vendored Lua 5.1.
fn reads_of(src: &str) -> Reads {
    let lua = Lua::new();
    let f: Function = lua
        .load(src)
        .eval()
        .unwrap_or_else(|e| panic!("{src}: {e}"));
    of_function(&lua, 0, &f)
}

/// Parameter `i` (0 = `next`) may be read.
fn read(src: &str, i: usize) -> bool {
    reads_of(src).reads(i)
}

#[test]
fn a_parameter_never_named_is_not_read() {
    let src = "return function(next, ctx) return next() end";
    assert!(read(src, 0));
    assert!(!read(src, 1));
    let src = "return function(next, ctx) return next() + 1 end";
    assert!(read(src, 0));
    assert!(!read(src, 1));
    // Three parameters, only the middle one unread.
    let src = "return function(next, a, b) return next(b) end";
    assert!(!read(src, 1));
    assert!(read(src, 2));
}

#[test]
fn field_reads_comparisons_and_arithmetic_read() {
    assert!(read("return function(next, ctx) return ctx.user.hp end", 1));
    assert!(read(
        "return function(next, ctx) if ctx.user.hp < ctx.user.maxHp then return true end return next() end",
        1
    ));
    assert!(read("return function(next, x) return next() + x end", 1));
    assert!(read(
        "return function(next, x) if x == 3 then return 1 end end",
        1
    ));
    assert!(read("return function(next, x) return -x end", 1));
    assert!(read("return function(next, x) return not x end", 1));
    assert!(read("return function(next, x) return #x end", 1));
    assert!(read(
        "return function(next, x) if x then return 1 end end",
        1
    ));
    assert!(read("return function(next, x) return x or 2 end", 1));
    assert!(read(
        "return function(next, x) local t = {} t[x] = 1 return t end",
        1
    ));
    assert!(read(
        "return function(next, x) local t = {} t.k = x return t end",
        1
    ));
    assert!(read("return function(next, x) x.k = 1 end", 1));
    assert!(read("return function(next, x) return {x} end", 1));
    assert!(read("return function(next, x) return {1, 2, x} end", 1));
}

#[test]
fn calls_returns_and_next_read() {
    assert!(read("return function(next, ctx) return next(ctx) end", 1));
    assert!(read(
        "return function(next, ctx) print(ctx) return next() end",
        1
    ));
    assert!(read("return function(next, ctx) return ctx end", 1));
    assert!(read("return function(next, a, b) return a, b end", 2));
    assert!(read(
        "return function(next, ctx) return select('#', ctx) end",
        1
    ));
    assert!(read("return function(next, ctx) return ctx:foo() end", 1));
    assert!(read(
        "return function(next, ctx) return tostring(ctx) .. 'x' end",
        1
    ));
    assert!(read(
        "return function(next, ctx) return 'a' .. ctx .. 'b' end",
        1
    ));
    // `next` itself passed on or stored.
    assert!(read("return function(next) kept = next end", 0));
    assert!(read("return function(next) return next end", 0));
    // A wrapper that never calls next.
    assert!(!read("return function(next, ctx) return 1 end", 0));
}

#[test]
fn nested_closures_capture_what_they_use() {
    assert!(read(
        "return function(next, ctx) local f = function() return ctx.x end return f() end",
        1
    ));
    assert!(read(
        "return function(next, ctx) return pcall(function() return next() end) end",
        0
    ));
    // A nested closure that does not name the parameter captures nothing of it.
    assert!(!read(
        "return function(next, ctx) local f = function() return 1 end return next() end",
        1
    ));
    // A nested function's own parameter of the same name is not the wrapper's.
    assert!(!read(
        "return function(next, ctx) local f = function(ctx) return ctx end return next() end",
        1
    ));
}

#[test]
fn reassigned_then_read_and_loops() {
    assert!(read("return function(next, ctx) ctx = 5 return ctx end", 1));
    assert!(read("return function(next, x) local y = x return y end", 1));
    assert!(read(
        "return function(next, n) local s = 0 for i = 1, n do s = s + i end return s end",
        1
    ));
    assert!(read(
        "return function(next, ctx) local s = 0 for k, v in pairs(ctx) do s = s + 1 end return s end",
        1
    ));
    assert!(read(
        "return function(next, ctx) local t = 0 while ctx do t = t + 1 ctx = nil end return t end",
        1
    ));
    // Only written, never read.
    let src = "return function(next, ctx) ctx = 5 return next() end";
    assert!(!read(src, 1));
}

#[test]
fn varargs_count_as_read() {
    let r = reads_of("return function(next, ...) return next(...) end");
    assert!(r.reads(0));
    assert!(r.reads(1) && r.reads(2) && r.reads(5));
    // Extra arguments beyond the declared ones of a fixed-arity function are dropped by Lua.
    let r = reads_of("return function(next) return next() end");
    assert!(r.reads(0));
    assert!(!r.reads(1) && !r.reads(2));
    // A vararg function that never names `...` still gets its extras read (the `arg` table).
    let r = reads_of("return function(next, ...) return next() end");
    assert!(r.reads(1));
    assert!(read(
        "return function(next, ...) return select('#', ...) end",
        1
    ));
}

#[test]
fn c_functions_and_garbage_read_everything() {
    let lua = Lua::new();
    let print: Function = lua.globals().get("print").unwrap();
    assert_eq!(of_function(&lua, 0, &print), Reads::ALL);
    assert_eq!(scan(b""), Reads::ALL);
    assert_eq!(scan(b"\x1bLua\x51\x00\x01\x04\x08\x04\x08\x00"), Reads::ALL);
    let f: Function = lua
        .load("return function(n, c) return n() end")
        .eval()
        .unwrap();
    let good = f.dump(false);
    assert!(!scan(&good).reads(1));
    // Every truncation of a good dump parses to "everything read" or to the same answer (the
    // code array comes before the constants, so a cut after it still parses).
    for cut in 0..good.len() {
        let r = scan(&good[..cut]);
        assert!(r == Reads::ALL || r == scan(&good), "cut {cut}");
    }
    // An unknown opcode: everything read.
    let mut bad = good.clone();
    let pos = find_code(&bad);
    bad[pos] = 0x3f;
    assert_eq!(scan(&bad), Reads::ALL);
}

/// Offset of the top-level function's first instruction in a dump made on this machine
/// (64-bit `size_t`, 4-byte `int`).
fn find_code(dump: &[u8]) -> usize {
    let src_len = u64::from_le_bytes(dump[12..20].try_into().unwrap()) as usize;
    12 + 8 + src_len + 4 + 4 + 4 + 4
}

/// `paths` as text: `move,user{hp,maxHp}` (a field without braces is read whole).
fn render(paths: &ReadPaths) -> String {
    fn node(paths: &ReadPaths, at: u32) -> String {
        paths
            .entries(at)
            .into_iter()
            .map(|(k, child, whole)| {
                if whole {
                    k.to_owned()
                } else {
                    format!("{k}{{{}}}", node(paths, child))
                }
            })
            .collect::<Vec<_>>()
            .join(",")
    }
    node(paths, 0)
}

/// The key paths register `r` of the wrapper `src` is read through, when that is all.
fn keys(src: &str, r: usize) -> Option<String> {
    reads_of(src).keys(r).map(render)
}

#[test]
fn constant_key_reads_are_kept_apart() {
    let src = "return function(next, ctx) if ctx.user.hp < ctx.user.maxHp then return true end return next() end";
    assert_eq!(keys(src, 1).as_deref(), Some("user{hp,maxHp}"));
    assert!(read(src, 1));
    let src = "return function(next, ctx) local u = ctx.user return ctx.move, u end";
    assert_eq!(keys(src, 1).as_deref(), Some("move,user"));
    // A number key names no struct field.
    assert_eq!(
        keys("return function(next, ctx) return ctx[1] end", 1).as_deref(),
        Some("")
    );
    // Anything else makes the read whole.
    for src in [
        "return function(next, ctx) return ctx[k] end",
        "return function(next, ctx) return ctx:foo() end",
        "return function(next, ctx) return ctx.user, ctx end",
        "return function(next, ctx) return function() return ctx.x end end",
        "return function(next, ctx) ctx.x = 1 return ctx.x end",
        "return function(next, ctx) return next(ctx) end",
        "return function(next, ctx) for k in pairs(ctx) do end return ctx.x end",
        "return function(next, ctx) local _ = type(ctx) return ctx.user.hp end",
    ] {
        assert_eq!(keys(src, 1), None, "{src}");
        assert!(read(src, 1), "{src}");
    }
    // Unread: neither whole nor keyed.
    assert_eq!(
        keys("return function(next, ctx) return next() end", 1),
        None
    );
}

#[test]
fn nested_constant_key_chains_are_paths() {
    for (src, want) in [
        ("return function(next, ctx) return ctx.user.hp end", "user{hp}"),
        (
            "return function(next, ctx) return ctx.user.hp + ctx.move.power end",
            "move{power},user{hp}",
        ),
        (
            "return function(next, ctx) return ctx.battle.field.weather end",
            "battle{field{weather}}",
        ),
        (
            "return function(next, ctx) return ctx.a.b.c.d, ctx.a.b.e, ctx.a.f end",
            "a{b{c{d},e},f}",
        ),
        // A chain into a local that is not used again is still a chain.
        (
            "return function(next, ctx) local hp = ctx.user.hp return hp > 3 end",
            "user{hp}",
        ),
        // The field at the end of a path is whole, whatever is done with it.
        (
            "return function(next, ctx) return next(ctx.user.types) end",
            "user{types}",
        ),
        (
            "return function(next, ctx) for _, t in ipairs(ctx.user.types) do end end",
            "user{types}",
        ),
        (
            "return function(next, ctx) ctx.user.types[1] = 'X' end",
            "user{types}",
        ),
        // Conditionals and loops: every chain counts, reachable or not.
        (
            "return function(next, ctx) if ctx.user and ctx.user.hp > 0 then return next() end end",
            "user",
        ),
        (
            "return function(next, ctx) while ctx.user.hp > 0 do if ctx.move.power then break end end end",
            "move{power},user{hp}",
        ),
        // `ctx` reassigned from its own field: the later reads are counted on it too.
        (
            "return function(next, ctx) ctx = ctx.user return ctx.hp end",
            "hp,user",
        ),
    ] {
        assert_eq!(keys(src, 1).as_deref(), Some(want), "{src}");
        assert!(read(src, 1), "{src}");
    }
    // A second parameter keeps its own paths.
    let src = "return function(next, game, ctx) return game.player.money, ctx.user.hp end";
    assert_eq!(keys(src, 1).as_deref(), Some("player{money}"));
    assert_eq!(keys(src, 2).as_deref(), Some("user{hp}"));
}

#[test]
fn fields_used_otherwise_stay_whole() {
    for (src, want) in [
        // The temporary is a local used later: not the very next instruction.
        (
            "return function(next, ctx) local u = ctx.user return u.hp end",
            "user",
        ),
        (
            "return function(next, ctx) local u = ctx.user local x = 1 return u.hp + x end",
            "user",
        ),
        ("return function(next, ctx) return f(ctx.user) end", "user"),
        ("return function(next, ctx) return ctx.user[k] end", "user"),
        ("return function(next, ctx) ctx.user.hp = 1 end", "user"),
        (
            "return function(next, ctx) for k, v in pairs(ctx.user) do end end",
            "user",
        ),
        (
            "return function(next, ctx) return ctx.user:name() end",
            "user",
        ),
        ("return function(next, ctx) return #ctx.user end", "user"),
        (
            "return function(next, ctx) return ctx.user == nil end",
            "user",
        ),
        // A number key ends the path: the field before it is whole.
        (
            "return function(next, ctx) return ctx.user.types[1] end",
            "user{types}",
        ),
        (
            "return function(next, ctx) return ctx.user[1].x end",
            "user",
        ),
        // Read whole once is whole, whatever paths others read below it.
        (
            "return function(next, ctx) local u = ctx.user return ctx.user.hp, u end",
            "user",
        ),
        (
            "return function(next, ctx) return ctx.user.hp, f(ctx.user.types), ctx.user end",
            "user",
        ),
        (
            "return function(next, ctx) return ctx.a.b.c, g(ctx.a.b) end",
            "a{b}",
        ),
    ] {
        assert_eq!(keys(src, 1).as_deref(), Some(want), "{src}");
    }
}

#[test]
fn key_paths_merge() {
    let mut p = ReadPaths::new();
    let path = |s: &str| s.split('.').map(str::to_owned).collect::<Vec<_>>();
    p.insert(&path("user.hp"));
    p.insert(&path("user.types"));
    p.insert(&path("move.power"));
    assert_eq!(render(&p), "move{power},user{hp,types}");
    p.insert(&path("move"));
    p.insert(&path("move.accuracy"));
    assert_eq!(render(&p), "move,user{hp,types}");
    p.insert(&path("user.hp.x"));
    assert_eq!(render(&p), "move,user{hp,types}");
}

#[test]
fn hook_params_mask() {
    let r = reads_of("return function(next, a, b, c) return next(c) end");
    assert_eq!(r.hook_params(3), 0b100);
    assert_eq!(Reads::ALL.hook_params(3), 0b111);
    assert_eq!(Reads::ALL.hook_params(70), u64::MAX);
}

// ----- links: an unread parameter changes nothing the engine sees ----------------------------

mod links {
    use std::collections::BTreeMap;
    use std::rc::Rc;

    use pallet_api::catalog::common::GameInfo;
    use pallet_api::catalog::hooks::{
        BattleCrit, EncounterRoll, EncounterRollArgs, EncounterRollContext, ExpGain, ExpGainArgs,
        ExpGainContext, MapOccupancyAllowed, MapOccupancyAllowedArgs, SaveWrite, SaveWriteArgs,
    };
    use pallet_api::content::Content;
    use pallet_api::loader::{EnableState, Loader, ModCandidate};
    use pallet_api::script_rng::ScriptRng;
    use pallet_api::{Runtime, Value};

    use crate::LuaHost;

    /// Inner wrappers (priority 0) that log every argument they get, below the outer ones.
    const INNER: &str = r##"
local function dump(v)
  if type(v) ~= "table" then return type(v) .. ":" .. tostring(v) end
  local keys = {}
  for k in pairs(v) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
  local parts = {}
  for _, k in ipairs(keys) do parts[#parts + 1] = tostring(k) .. "=" .. dump(v[k]) end
  return "{" .. table.concat(parts, ",") .. "}"
end
for _, h in ipairs({ "battle.crit", "exp.gain", "save.write", "map.occupancy_allowed" }) do
  mod.hooks:wrap(h, function(next, ...)
    local args = { ... }
    local parts = {}
    for i = 1, select("#", ...) do parts[i] = dump(args[i]) end
    mod.log:info("%s inner %s", h, table.concat(parts, " "))
    return next()
  end, 0)
end
"##;

    /// Outer wrappers; `READ` is replaced by a statement that reads the parameters (or by
    /// nothing), which must not change what the engine sees.
    const OUTER: &str = r##"
mod.hooks:wrap("battle.crit", function(next, ctx) READ_CTX return next() end, 10)
mod.hooks:wrap("exp.gain", function(next, ctx) READ_CTX return next() + 1 end, 10)
mod.hooks:wrap("save.write", function(next, game) READ_GAME return next() end, 10)
mod.hooks:wrap("map.occupancy_allowed", function(next, game, ctx) READ_GAME return next() end, 10)
mod.hooks:wrap("map.occupancy_allowed", function(next, game, ctx) READ_CTX return next() end, 20)
-- Innermost, never calls `next`; reads `ctx` (so only `next` differs between the runs).
mod.hooks:wrap("map.occupancy_allowed", function(next, game, ctx) READ_NEXT return ctx ~= nil end, -10)
"##;

    /// What the outer wrappers do with their parameters besides calling `next`.
    #[derive(Clone, Copy, PartialEq)]
    enum Use {
        Nothing,
        Whole,
        /// Constant-key reads only (`ctx.user.hp`): only those fields are pushed.
        Keys,
        /// The same reads plus a whole read (every field pushed).
        KeysAndWhole,
    }

    fn runtime(read: Use) -> Rc<Runtime> {
        let fill = |name: &str| {
            let keys = format!(
                "mod.log:info('keys %s %s %s %s', type({name}.user), tostring({name}.user and {name}.user.hp), \
                 tostring({name}.level), tostring({name}.version))"
            );
            match read {
                Use::Nothing => String::new(),
                Use::Whole => format!("local _read = {name}"),
                Use::Keys => keys,
                Use::KeysAndWhole => format!("local _read = {name} {keys}"),
            }
        };
        // `next` is a function: read it whole or not at all.
        let next_use = match read {
            Use::Whole | Use::KeysAndWhole => "local _read = next",
            Use::Nothing | Use::Keys => "",
        };
        let main = format!(
            "local mod = ...\n{INNER}\n{}",
            OUTER
                .replace("READ_CTX", &fill("ctx"))
                .replace("READ_GAME", &fill("game"))
                .replace("READ_NEXT", next_use)
        );
        load(main)
    }

    /// A runtime with the one mod whose `main.lua` is `main`.
    fn load(main: String) -> Rc<Runtime> {
        let rt = Rc::new(Runtime::new());
        let mut host = LuaHost::new(&rt);
        let mut files = BTreeMap::new();
        files.insert("main.lua".to_owned(), main);
        host.add_embedded("reads", files);
        let manifest = r#"{"id": "reads", "name": "reads", "version": "1.0.0", "api": 2, "entry": "main.lua"}"#;
        let candidate = ModCandidate::from_manifest_text("reads", manifest, true);
        let mut loader = Loader::new(Default::default(), "0.1.0", Content::new());
        loader.add_host(Box::new(host));
        let status = loader.load(&rt, &[candidate], &EnableState::default());
        assert_eq!(
            status.order,
            vec!["reads".to_owned()],
            "{:?}",
            status.errors
        );
        rt
    }

    fn run(read: Use) -> Vec<String> {
        let rt = runtime(read);
        let mut out = Vec::new();
        // Many calls, with varying arguments.
        for call in 0..70u16 {
            let crit = rt.call::<BattleCrit>(super::crit_args(20 + call), |_| call % 3 == 0);
            let exp = rt.call::<ExpGain>(
                ExpGainArgs {
                    ctx: ExpGainContext {
                        defeated_def: Value::Nil,
                        level: 12 + call as u8,
                        is_trainer: call % 2 == 0,
                        participants: 1,
                        traded: false,
                        mon: Value::Nil,
                    },
                },
                |c| u32::from(c.ctx.level) * 2,
            );
            let save = rt.call::<SaveWrite>(
                SaveWriteArgs {
                    game: GameInfo::default(),
                },
                |_| call % 2 == 1,
            );
            let occupancy = rt.call::<MapOccupancyAllowed>(
                MapOccupancyAllowedArgs::at_dock(GameInfo::default(), Some(i32::from(call)), None),
                |_| false,
            );
            out.push(format!("{call}: {crit} {exp} {save} {occupancy}"));
        }
        out.extend(rt.drain_diagnostics().into_iter().map(|d| d.message));
        out
    }

    #[test]
    fn wrappers_that_do_not_read_their_arguments_behave_as_ones_that_do() {
        let unread = run(Use::Nothing);
        let read = run(Use::Whole);
        assert_eq!(unread, read);
        let keys = run(Use::Keys);
        assert_eq!(keys, run(Use::KeysAndWhole));
        for needle in [
            "keys table 89 nil nil",
            "keys nil nil 81 nil",
            "keys nil nil nil red",
        ] {
            assert!(
                keys.iter().any(|l| l.contains(needle)),
                "{needle}: {keys:#?}"
            );
        }
        for needle in [
            "battle.crit inner {battle=",
            "hp=number:89",
            "exp.gain inner {isTrainer=boolean:true,level=number:12,",
            "save.write inner {",
            "map.occupancy_allowed inner {",
            "x=number:69",
        ] {
            assert!(
                unread.iter().any(|l| l.contains(needle)),
                "{needle}: {unread:#?}"
            );
        }
        // The innermost occupancy wrapper answers `true` without `next` (vanilla says false).
        assert!(
            unread.iter().any(|l| l == "0: true 25 false true"),
            "{unread:#?}"
        );
    }

    /// Outer wrappers that read their arguments only through constant-key paths, one level
    /// deeper and more (`ctx.user.hp`, `ctx.user.types[1]`, `ctx.mon.species`): `WHOLE` is
    /// replaced by nothing (the filtered push) or by a whole read of the parameter.
    const PATHS: &str = r##"
mod.hooks:wrap("battle.crit", function(next, ctx) WHOLE
  mod.log:info("crit %s/%s %s %s %s %s %s %s %s", tostring(ctx.user.hp), tostring(ctx.user.maxHp),
    tostring(ctx.move.power), tostring(ctx.move.type), tostring(ctx.battle.kind),
    tostring(ctx.user.types[1]), tostring(#ctx.user.types), tostring(ctx.user.missing),
    dump(ctx.battle.oppClass) .. ctx.user.name:lower())
  if ctx.user.hp < ctx.user.maxHp and ctx.move.power > 60 then return true end
  if ctx.user.hp == 33 then return ctx.nothing.here end
  return next()
end, 10)
mod.hooks:wrap("battle.crit", function(next, ctx) WHOLE
  local hp = ctx.user.hp
  mod.log:info("crit2 %s %s", dump(ctx.user.types), tostring(ctx.user.side))
  return hp % 5 == 0 or next()
end, 20)
mod.hooks:wrap("exp.gain", function(next, ctx) WHOLE
  mod.log:info("exp %s %s %s", tostring(ctx.mon.species), dump(ctx.mon.levels),
    tostring(ctx.defeatedDef.nothing))
  return next() + ctx.mon.levels[1] + ctx.level
end, 10)
mod.hooks:wrap("encounter.roll", function(next, encDef, ctx) WHOLE
  mod.log:info("roll %s %s %s", type(ctx.rng.random), tostring(ctx.terrain),
    tostring(encDef.species))
  return next()
end, 10)
mod.hooks:wrap("map.occupancy_allowed", function(next, game, ctx) WHOLE
  mod.log:info("occupancy %s %s %s", tostring(game.version), tostring(ctx.x), tostring(ctx.y))
  return next()
end, 10)
"##;

    fn run_paths(whole: bool) -> Vec<String> {
        let read = if whole {
            // `type(ctx)` passes `ctx` to a call: read whole (the scan cannot filter).
            "local _w = type(ctx) .. type(encDef) .. type(game)"
        } else {
            ""
        };
        let rt = load(format!(
            "local mod = ...\n{INNER}\n{}",
            PATHS.replace("WHOLE", read)
        ));
        let mut out = Vec::new();
        // Many calls, with varying arguments.
        for call in 0..70u16 {
            let mut crit = super::crit_args(20 + call % 20);
            crit.ctx.move_info.power = (call * 7 % 120) as u8;
            if call % 3 == 0 {
                crit.ctx.user.types.push("FLYING".into());
                crit.ctx.battle.opp_class = Some("OPP_BROCK".into());
            }
            let crit = rt.call::<BattleCrit>(crit, |_| call % 4 == 0);
            let mut mon = Value::map([
                ("species", Value::from("PIDGEY")),
                (
                    "levels",
                    Value::List(vec![Value::Int(i64::from(call)), Value::Int(4)]),
                ),
            ]);
            if call % 2 == 1 {
                mon = Value::map([("levels", Value::List(vec![Value::Int(1)]))]);
            }
            let exp = rt.call::<ExpGain>(
                ExpGainArgs {
                    ctx: ExpGainContext {
                        defeated_def: Value::map([("species", Value::from("RATTATA"))]),
                        level: 12 + call as u8,
                        is_trainer: call % 2 == 0,
                        participants: 1,
                        traded: false,
                        mon,
                    },
                },
                |c| u32::from(c.ctx.level) * 2,
            );
            let roll = rt.call::<EncounterRoll>(
                EncounterRollArgs {
                    enc_def: Value::map([("species", Value::from("ODDISH"))]),
                    ctx: EncounterRollContext {
                        map_id: "ROUTE_1".into(),
                        terrain: if call % 2 == 0 { "grass" } else { "cave" }.into(),
                        rng: ScriptRng::seeded(u64::from(call)),
                    },
                },
                |_| None,
            );
            let occupancy = rt.call::<MapOccupancyAllowed>(
                MapOccupancyAllowedArgs::at_dock(
                    GameInfo::default(),
                    Some(i32::from(call)),
                    (call % 2 == 0).then_some(3),
                ),
                |_| false,
            );
            out.push(format!("{call}: {crit} {exp} {roll:?} {occupancy}"));
        }
        out.extend(rt.drain_diagnostics().into_iter().map(|d| d.message));
        out
    }

    #[test]
    fn wrappers_reading_nested_paths_behave_as_ones_that_read_whole() {
        let filtered = run_paths(false);
        let whole = run_paths(true);
        assert_eq!(filtered, whole);
        for needle in [
            "crit 21/35 7 ELECTRIC wild ELECTRIC 1 nil nil:nilpikachu",
            "crit 23/35 21 ELECTRIC wild ELECTRIC 2 nil string:OPP_BROCKpikachu",
            "crit2 {1=string:ELECTRIC,2=string:FLYING} player",
            "exp PIDGEY {1=number:0,2=number:4} nil",
            "exp nil {1=number:1} nil",
            "roll function grass ODDISH",
            "occupancy red 1 nil",
            "occupancy red 2 3",
            "attempt to index field 'nothing' (a nil value) -- link skipped",
            // `next()` hands the inner links the engine's arguments, not the filtered tables.
            "battle.crit inner {battle={kind=string:wild,oppClass=string:OPP_BROCK,turn=number:0},move={accuracy=number:255,id=string:THUNDERSHOCK,power=number:21,type=string:ELECTRIC},user={hp=number:23,maxHp=number:35,name=string:PIKACHU,side=string:player,types={1=string:ELECTRIC,2=string:FLYING},vanished=boolean:false}}",
            "exp.gain inner {defeatedDef={species=string:RATTATA},isTrainer=boolean:true,level=number:12,mon={levels={1=number:0,2=number:4},species=string:PIDGEY},participants=number:1,traded=boolean:false}",
        ] {
            assert!(
                filtered.iter().any(|l| l.contains(needle)),
                "{needle}: {filtered:#?}"
            );
        }
    }
}

/// A `battle.crit` argument with `hp` (the other fields fixed).
fn crit_args(hp: u16) -> pallet_api::catalog::hooks::BattleCritArgs {
    use pallet_api::catalog::common::{BattleInfo, BattlerSnapshot, MoveInfo, Side};
    pallet_api::catalog::hooks::BattleCritArgs {
        ctx: pallet_api::catalog::hooks::CritContext {
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
