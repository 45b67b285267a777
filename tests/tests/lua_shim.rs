//! The Lua shim's contract with legacy mods: entry forms, manifests as-is, the `mod` object
//! (hooks with the Lua engine's `next` rules, events, log, save, options, find/exports,
//! content, world, datasets, files), the sandbox's LuaJIT-dialect compat layer, and rollback.

mod lua_support;

use lua_support::*;
use pallet_api::access::with_world;
use pallet_api::catalog::common::BattleInfo;
use pallet_api::catalog::hooks::{CatchOptions, CatchOutcome, CatchRate, CatchRateArgs, ExpGain};
use pallet_api::content::Content;
use pallet_api::facades::WorldApi;
use pallet_api::loader::ModState;
use pallet_api::reasons::BlockReadError;
use pallet_api::Value;

#[test]
fn both_entry_forms_load_and_wrap() {
    let env = load(
        &[],
        vec![
            lua_mod(
                "returns-fn",
                r#"return function(mod)
                     mod.hooks:wrap("exp.gain", function(next, ctx) return next() + 1 end)
                   end"#,
            ),
            lua_mod(
                "vararg",
                r#"local mod = ...
                   mod.hooks:wrap("exp.gain", function(next, ctx) return next() * 2 end, 5)"#,
            ),
        ],
    );
    env.assert_loaded("returns-fn");
    env.assert_loaded("vararg");
    // vararg (priority 5) is outer: (100 + 1) * 2.
    assert_eq!(exp_gain(&env.rt, 100), (202, 1));
    assert_eq!(
        env.status()
            .get("vararg")
            .and_then(|m| m.host.clone())
            .as_deref(),
        Some("lua")
    );
}

#[test]
fn manifests_load_as_is_and_identity_is_visible() {
    let main = r#"return function(mod)
        mod.log:info("%s %s %s %s %s", mod.id, mod.version, mod.path, mod.manifest.category,
          mod.manifest.some_future_field.unknown and "tolerated" or "lost")
        mod.log:info("games=%s perms=%s gen=%d", table.concat(mod.manifest.games, ","),
          mod.manifest.permissions[1], mod.generation)
        mod.log:info("absent: %s %s %s %s %s", tostring(mod.commands), type(mod.ui),
          tostring(mod.migrations), type(mod.game), type(mod.input))
      end"#;
    let m = Mem {
        id: "ident",
        manifest: lua_manifest("ident", r#", "some_future_field": {"unknown": true}"#),
        files: vec![("main.lua", main.to_owned())],
    };
    // api 1 with vocabulary outside api 2's (an unknown profile) loads with a warning.
    let legacy = Mem {
        id: "apione",
        manifest: r#"{"id": "apione", "name": "A", "version": "0.1", "entry": "main.lua", "profile": "weird", "category": "VISUAL"}"#.to_owned(),
        files: vec![("main.lua", "local mod = ... mod.log:info('api %d', mod.manifest.api or 1)".to_owned())],
    };
    let env = load(&[], vec![m, legacy]);
    env.assert_loaded("ident");
    env.assert_loaded("apione");
    let feed = env.feed();
    assert!(
        feed.contains(&"[ident] ident 1.2.0 mods/ident TWEAK tolerated".to_owned()),
        "{feed:?}"
    );
    assert!(
        feed.contains(&"[ident] games=gen1 perms=engine_internals gen=1".to_owned()),
        "{feed:?}"
    );
    assert!(
        // `mod.ui` is the ModUI facade's list helpers (compat-lua-shim `ui`), `mod.game` the
        // read-only game view (compat-lua-shim `game_view`), `mod.input` the button facade
        // (compat-lua-shim `input`); the rest are absent.
        feed.contains(&"[ident] absent: nil table nil table table".to_owned()),
        "{feed:?}"
    );
    assert!(
        feed.iter()
            .any(|l| l.starts_with("[apione]") && l.contains("profile")),
        "{feed:?}"
    );
    assert!(feed.contains(&"[apione] api 1".to_owned()), "{feed:?}");
}

#[test]
fn next_without_arguments_continues_and_with_arguments_replaces_downstream_only() {
    let env = load(
        &[],
        vec![
            lua_mod(
                "outer",
                r#"return function(mod)
                  mod.hooks:wrap("exp.gain", function(next, ctx)
                    local lvl = ctx.level
                    ctx.level = 50                      -- a detached copy: changes nothing by itself
                    local copy = { level = 70, defeatedDef = ctx.defeatedDef, isTrainer = true,
                                   participants = 1, traded = false }
                    local v = next(copy)                -- replaces the args downstream
                    return v + lvl                      -- this link still sees its own args
                  end, 10)
                end"#,
            ),
            lua_mod(
                "inner",
                r#"return function(mod)
                  mod.hooks:wrap("exp.gain", function(next, ctx)
                    return next() + ctx.level * 1000 + (ctx.isTrainer and 1 or 0)
                  end, 0)
                end"#,
            ),
        ],
    );
    env.assert_loaded("outer");
    env.assert_loaded("inner");
    let seen = std::cell::Cell::new(0u8);
    let out = env.rt.call::<ExpGain>(exp_args(5), |args| {
        seen.set(args.ctx.level);
        100
    });
    assert_eq!(seen.get(), 70, "vanilla sees the replaced arguments");
    assert_eq!(out, 100 + 70_000 + 1 + 5);
}

#[test]
fn next_is_a_plain_function_value_callable_from_a_coroutine_or_an_alias() {
    // `next` can be stored in a local, passed around and called from a coroutine the wrapper
    // resumes (another Lua thread of the same state); `type(next)` is "function".
    let env = load(
        &[],
        vec![lua_mod(
            "co",
            r##"return function(mod)
              mod.hooks:wrap("exp.gain", function(next, ctx)
                local call = next
                local co = coroutine.wrap(function(f) return f() end)
                local v = co(call)
                mod.log:info("type %s", type(next))
                return v + 7
              end, 10)
              mod.hooks:wrap("exp.gain", function(next, ctx)
                return select("#", next()) * 1000 + next()
              end, 0)
            end"##,
        )],
    );
    env.assert_loaded("co");
    assert_eq!(exp_gain(&env.rt, 100), (1000 + 100 + 7, 1));
    assert!(env.feed().contains(&"[co] type function".to_owned()));
}

fn catch_args() -> CatchRateArgs {
    CatchRateArgs {
        ball: "POKE_BALL".into(),
        mon: Value::map([("species", Value::from("PIDGEY"))]),
        def: Value::map([("catchRate", Value::Int(255))]),
        opts: CatchOptions {
            battle: BattleInfo::default(),
            rate_override: None,
        },
    }
}

#[test]
fn nil_holes_and_multiple_returns_survive_the_chain() {
    let env = load(
        &[],
        vec![
            lua_mod(
                "outer",
                r#"return function(mod)
                  mod.hooks:wrap("catch.rate", function(next, ball, mon, def, opts)
                    local caught, shakes = next(ball, nil, def, opts)   -- a nil hole
                    return caught, shakes - 1                           -- two values back
                  end, 10)
                end"#,
            ),
            lua_mod(
                "inner",
                r#"return function(mod)
                  mod.hooks:wrap("catch.rate", function(next, ...)
                    local n = select('#', ...)
                    local ball, mon = ...
                    mod.log:info("inner got %d args, mon=%s", n, tostring(mon))
                    return next(...)
                  end, 0)
                end"#,
            ),
        ],
    );
    env.assert_loaded("outer");
    env.assert_loaded("inner");
    let vanilla_mon = std::cell::RefCell::new(Value::from("unset"));
    let out = env.rt.call::<CatchRate>(catch_args(), |a| {
        *vanilla_mon.borrow_mut() = a.mon.clone();
        CatchOutcome {
            caught: true,
            shakes: 3,
        }
    });
    assert_eq!(
        out,
        CatchOutcome {
            caught: true,
            shakes: 2
        }
    );
    assert_eq!(
        *vanilla_mon.borrow(),
        Value::Nil,
        "the nil hole reached vanilla"
    );
    let feed = env.feed();
    assert!(
        feed.contains(&"[inner] inner got 4 args, mon=nil".to_owned()),
        "{feed:?}"
    );
}

#[test]
fn a_failed_entry_rolls_back_everything_it_registered() {
    let mut content = Content::new();
    content
        .set_base(
            "maps",
            [(
                "PALLET_TOWN".to_owned(),
                Value::map([("width", Value::Int(10)), ("height", Value::Int(9))]),
            )]
            .into_iter()
            .collect(),
        )
        .unwrap();
    let env = load_with(
        &[],
        vec![lua_mod(
            "doomed",
            r#"return function(mod)
                 mod.hooks:wrap("exp.gain", function(next) return 1 end)
                 mod.events:on("map.entered", function() end)
                 mod.content.maps:patch("PALLET_TOWN", { name = "Doomed Town" })
                 mod.save:set("k", 1)
                 mod.options:define({ { key = "x", label = "X", type = "toggle", default = true } })
                 mod.exports.answer = 42
                 error("boom")
               end"#,
        )],
        Setup {
            content,
            options: vec![],
        },
    );
    assert_eq!(env.state("doomed"), ModState::Failed);
    let err = env.error("doomed");
    assert!(err.contains("mods/doomed/main.lua:8: boom"), "{err}");
    assert!(!env.rt.wants_hook::<ExpGain>(), "hook link rolled back");
    assert_eq!(env.rt.event_list_count(), 0, "listener rolled back");
    let town = env
        .loader
        .content
        .borrow()
        .get("maps", "PALLET_TOWN")
        .cloned()
        .unwrap();
    assert_eq!(town.get("name"), None, "content write rolled back");
    assert!(
        env.loader.options.schema("doomed").is_empty(),
        "option schema rolled back"
    );
    assert!(env.loader.find("doomed").is_none(), "exports rolled back");
    assert!(
        env.loader.mod_data.to_value().get("doomed").is_none(),
        "save bucket restored"
    );
}

#[test]
fn files_are_confined_and_sibling_modules_load_with_load_and_loadstring() {
    let m = Mem {
        id: "sib",
        manifest: lua_manifest("sib", ""),
        files: vec![
            (
                "main.lua",
                r#"return function(mod)
                    local src = assert(mod:read("lib/util.lua"))
                    local util = assert(load(src, "@" .. mod.path .. "/lib/util.lua"))()
                    local util2 = assert((loadstring or load)(src))()
                    mod.log:info("util %d %d", util.double(21), util2.double(2))
                    local files = mod:list("lib/")
                    mod.log:info("list %s", table.concat(files, ","))
                    for _, bad in ipairs({ "../escape.lua", "/etc/passwd", "lib\\util.lua", "missing.lua" }) do
                      local ok, err = mod:read(bad)
                      mod.log:info("read %s -> %s (%s)", bad, tostring(ok), err)
                    end
                    mod.log:info("probe %s", type(mod.read))
                  end"#
                    .to_owned(),
            ),
            ("lib/util.lua", "return { double = function(x) return x * 2 end }".to_owned()),
            ("lib/more.lua", "return 1".to_owned()),
        ],
    };
    let env = load(&[], vec![m]);
    env.assert_loaded("sib");
    let feed = env.feed();
    assert!(feed.contains(&"[sib] util 42 4".to_owned()), "{feed:?}");
    assert!(
        feed.contains(&"[sib] list lib/more.lua,lib/util.lua".to_owned()),
        "{feed:?}"
    );
    for bad in [
        "../escape.lua",
        "/etc/passwd",
        "lib\\util.lua",
        "missing.lua",
    ] {
        assert!(
            feed.iter()
                .any(|l| l.starts_with(&format!("[sib] read {bad} -> nil ("))),
            "{bad}: {feed:?}"
        );
    }
    assert!(
        feed.contains(&"[sib] probe function".to_owned()),
        "{feed:?}"
    );
}

#[test]
fn files_on_disk_cannot_escape_through_symlinks() {
    let dir = std::env::temp_dir().join(format!("pallet-lua-files-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let root = dir.join("mods/linker");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(dir.join("secret.txt"), "top secret").unwrap();
    std::fs::write(root.join("manifest.json"), lua_manifest("linker", "")).unwrap();
    std::fs::write(
        root.join("main.lua"),
        r#"local mod = ...
           mod.log:info("link -> %s (%s)", tostring(mod:read("secret.txt")), select(2, mod:read("secret.txt")))
           mod.log:info("own -> %s", mod:read("main.lua"):sub(1, 11))"#,
    )
    .unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(dir.join("secret.txt"), root.join("secret.txt")).unwrap();
    let env = load(std::slice::from_ref(&root), vec![]);
    env.assert_loaded("linker");
    let feed = env.feed();
    #[cfg(unix)]
    assert!(
        feed.iter()
            .any(|l| l.starts_with("[linker] link -> nil (") && l.contains("outside")),
        "{feed:?}"
    );
    assert!(
        feed.contains(&"[linker] own -> local mod =".to_owned()),
        "{feed:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn events_on_once_emit_and_the_mod_namespace_rule() {
    let env = load(
        &[],
        vec![
            lua_mod(
                "talker",
                r#"return function(mod)
                  mod.events:on("mod.talker.ping", function(p) mod.log:info("on %d", p.n) end)
                  mod.events:once("mod.talker.ping", function(p) mod.log:info("once %d", p.n) end)
                  local off = mod.events:on("mod.talker.ping", function(p) mod.log:info("off %d", p.n) end)
                  mod.events:emit("mod.talker.ping", { n = 1 })
                  mod.log:info("unsubscribed %s", tostring(off()))
                  mod.events:emit("mod.talker.ping", { n = 2 })
                  local ok, err = pcall(function() mod.events:emit("battle.ended", {}) end)
                  mod.log:info("forge %s %s", tostring(ok), tostring(err))
                end"#,
            ),
            lua_mod(
                "listener",
                r#"return function(mod)
                  mod.events:on("mod.talker.ping", function(p) mod.log:info("heard %d", p.n) end, 1)
                end"#,
            ),
        ],
    );
    env.assert_loaded("talker");
    let feed = env.feed();
    let expected = [
        "[talker] on 1",
        "[talker] once 1",
        "[talker] off 1",
        "[talker] unsubscribed true",
        "[talker] on 2",
    ];
    let positions: Vec<usize> = expected
        .iter()
        .map(|e| {
            feed.iter()
                .position(|l| l == e)
                .unwrap_or_else(|| panic!("{e}: {feed:?}"))
        })
        .collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "{feed:?}");
    assert!(!feed.contains(&"[talker] once 2".to_owned()), "{feed:?}");
    assert!(!feed.contains(&"[talker] off 2".to_owned()), "{feed:?}");
    assert!(
        feed.iter().any(|l| l.starts_with("[talker] forge false")
            && l.contains("[talker] mods may only emit mod.talker.* events")),
        "{feed:?}"
    );
    // The listener mod loaded after talker's entry emitted; it hears later emits.
    env.assert_loaded("listener");
}

#[test]
fn log_is_printf_style_with_truncating_percent_d() {
    let env = load(
        &[],
        vec![lua_mod(
            "fmt",
            r#"return function(mod)
              mod.log:info("got %d items (%s) %5.1f", 3.7, "x", 2.25)
              mod.log:warn("plain")
              mod.log:error("%d%%", -2.9)
              mod.log:info("bad %q %d", "a")
              mod.log:info(42)
              print("printed", 1, nil)
            end"#,
        )],
    );
    env.assert_loaded("fmt");
    let feed = env.feed();
    for line in [
        "[fmt] got 3 items (x)   2.2",
        "[fmt] plain",
        "[fmt] -2%",
        "[fmt] 42",
        "[fmt] printed\t1\tnil",
    ] {
        assert!(feed.contains(&line.to_owned()), "{line}: {feed:?}");
    }
    assert!(
        feed.iter()
            .any(|l| l.starts_with("[fmt] bad %q %d a (bad format:")),
        "{feed:?}"
    );
}

#[test]
fn save_options_find_and_exports() {
    let provider = Mem {
        id: "lib",
        manifest: lua_manifest("lib", ""),
        files: vec![(
            "main.lua",
            r#"return function(mod)
                mod.exports.version = 3
                mod.exports.greet = function() return "hi" end   -- functions stay in the mod
                mod.exports.data = { 1, 2, 3 }
              end"#
                .to_owned(),
        )],
    };
    let user = Mem {
        id: "user",
        manifest: lua_manifest("user", r#", "optional_dependencies": ["lib"]"#),
        files: vec![(
            "main.lua",
            r#"return function(mod)
                local a, b = mod.find("lib"), mod:find("lib")
                mod.log:info("find %s %s v%d #%d greet=%s same=%s", a.id, a.version, a.exports.version,
                  #a.exports.data, tostring(a.exports.greet), tostring(b.exports.version == 3))
                mod.log:info("missing %s", tostring(mod.find("nope")))
                mod.save:set("count", mod.save:get("count", 10) + 1)
                mod.save:set("tbl", { a = 1, list = { "x", "y" } })
                mod.log:info("save %d %s", mod.save:get("count"), mod.save:get("tbl").list[2])
                local ok, err = pcall(function() mod.save:set("bad", 0/0) end)
                mod.log:info("nan %s", tostring(ok))
                mod.options:define({
                  { key = "mode", label = "Mode", type = "choice", default = "a",
                    choices = { { label = "A", value = "a" }, { label = "B", value = "b" } } },
                  { key = "on", label = "On", type = "toggle", default = false },
                })
                mod.log:info("options %s %s %s", mod.options:get("mode"), tostring(mod.options:get("on")),
                  tostring(mod.options:get("undefined")))
              end"#
                .to_owned(),
        )],
    };
    let env = load_with(
        &[],
        vec![provider, user],
        Setup {
            content: Content::new(),
            options: vec![("user".into(), "mode".into(), Value::from("b"))],
        },
    );
    env.assert_loaded("lib");
    env.assert_loaded("user");
    let feed = env.feed();
    for line in [
        "[user] find lib 1.2.0 v3 #3 greet=nil same=true",
        "[user] missing nil",
        "[user] save 11 y",
        "[user] nan false",
        "[user] options b false nil",
    ] {
        assert!(feed.contains(&line.to_owned()), "{line}: {feed:?}");
    }
    let (version, exports) = env.loader.find("lib").unwrap();
    assert_eq!(version, "1.2.0");
    assert_eq!(exports.get("version"), Some(&Value::Int(3)));
    assert!(exports.get("greet").is_none());
    let bucket = env.loader.mod_data.to_value();
    assert_eq!(
        bucket.get("user").and_then(|b| b.get("count")),
        Some(&Value::Int(11))
    );
}

#[test]
fn content_verbs_with_delete_append_prepend_and_unknown_registries() {
    let mut content = Content::new();
    content
        .set_base(
            "maps",
            [(
                "PALLET_TOWN".to_owned(),
                Value::map([
                    ("name", Value::from("Pallet Town")),
                    ("width", Value::Int(10)),
                    ("height", Value::Int(9)),
                    ("tileset", Value::from("OVERWORLD")),
                    (
                        "warps",
                        Value::List(vec![Value::map([
                            ("x", Value::Int(5)),
                            ("y", Value::Int(5)),
                            ("destMap", Value::from("REDS_HOUSE_1F")),
                        ])]),
                    ),
                ]),
            )]
            .into_iter()
            .collect(),
        )
        .unwrap();
    let env = load_with(
        &[],
        vec![lua_mod(
            "content",
            r#"return function(mod)
                local maps = mod.content.maps
                maps:patch("PALLET_TOWN", {
                  warps = {
                    __prepend = { { x = 0, y = 0, destMap = "FIRST" } },
                    __append = { { x = 9, y = 8, destMap = "LAST" } },
                  },
                  tileset = mod.DELETE,
                })
                local t = maps:get("PALLET_TOWN")
                mod.log:info("%d %s %s %s", #t.warps, t.warps[1].destMap, t.warps[3].destMap, tostring(t.tileset))
                local ids = {}
                for id, rec in maps:each() do ids[#ids + 1] = id .. ":" .. rec.width end
                mod.log:info("each %s", table.concat(ids, ","))
                mod.content.screens:register("MY_SCREEN", { new = 1 })   -- not a Pallet registry
                mod.content.screens:register("OTHER", { new = 1 })
                mod.log:info("screens get %s", tostring(mod.content.screens:get("MY_SCREEN")))
                local ok, err = pcall(function() maps:register("PALLET_TOWN", { width = 1, height = 1 }) end)
                mod.log:info("collide %s", tostring(ok))
                local ok2, err2 = pcall(function() maps:register("BAD", { width = "wide", height = 1 }) end)
                mod.log:info("schema %s %s", tostring(ok2), tostring(err2))
              end"#,
        )],
        Setup {
            content,
            options: vec![],
        },
    );
    env.assert_loaded("content");
    let feed = env.feed();
    assert!(
        feed.contains(&"[content] 3 FIRST LAST nil".to_owned()),
        "{feed:?}"
    );
    assert!(
        feed.contains(&"[content] each PALLET_TOWN:10".to_owned()),
        "{feed:?}"
    );
    assert!(
        feed.contains(&"[content] screens get nil".to_owned()),
        "{feed:?}"
    );
    assert_eq!(
        feed.iter()
            .filter(|l| l.contains("content.screens is not a Pallet registry"))
            .count(),
        1,
        "warned once: {feed:?}"
    );
    assert!(
        feed.contains(&"[content] collide false".to_owned()),
        "{feed:?}"
    );
    assert!(
        feed.iter()
            .any(|l| l.starts_with("[content] schema false") && l.contains("width")),
        "{feed:?}"
    );
}

struct FixedWorld;
impl WorldApi for FixedWorld {
    fn active_block_at(&self, map_id: &str, bx: &Value, by: &Value) -> Result<u8, BlockReadError> {
        if map_id != "VERMILION_DOCK" {
            return Err(BlockReadError::MapNotActive);
        }
        let (x, y) = (
            pallet_api::facades::block_coordinate(bx)?,
            pallet_api::facades::block_coordinate(by)?,
        );
        if !(0..10).contains(&x) || !(0..10).contains(&y) {
            return Err(BlockReadError::BlockCoordinatesOutOfBounds);
        }
        Ok((x * 10 + y) as u8)
    }
}

#[test]
fn world_active_block_at_returns_nil_reason() {
    let env = load(
        &[],
        vec![lua_mod(
            "reader",
            r#"return function(mod)
                local w = mod.world
                mod.log:info("spawnNpc=%s", type(w.spawnNpc))
                mod.hooks:wrap("exp.gain", function(next, ctx)
                  local out = {}
                  for _, q in ipairs({ { "VERMILION_DOCK", 1, 2 }, { "PALLET_TOWN", 1, 2 },
                                       { "VERMILION_DOCK", 1.5, 2 }, { "VERMILION_DOCK", 1, 20 },
                                       { "VERMILION_DOCK", "1", 2 } }) do
                    local b, reason = w:activeBlockAt(q[1], q[2], q[3])
                    out[#out + 1] = tostring(b) .. "/" .. tostring(reason)
                  end
                  mod.log:info("%s", table.concat(out, " "))
                  return next()
                end)
              end"#,
        )],
    );
    env.assert_loaded("reader");
    exp_gain(&env.rt, 1);
    with_world(&FixedWorld, || exp_gain(&env.rt, 1));
    let feed = env.feed();
    assert!(
        feed.contains(&"[reader] spawnNpc=function".to_owned()),
        "{feed:?}"
    );
    let nothing = "nil/no overworld";
    assert!(
        feed.contains(&format!(
            "[reader] {nothing} {nothing} {nothing} {nothing} {nothing}"
        )),
        "{feed:?}"
    );
    assert!(
        feed.contains(
            &"[reader] 12/nil nil/map is not active nil/invalid block coordinates nil/block coordinates out of bounds nil/invalid block coordinates"
                .to_owned()
        ),
        "{feed:?}"
    );
}

#[test]
fn datasets_open_answers_nil_reason_without_an_import() {
    let env = load(
        &[],
        vec![lua_mod(
            "ds",
            r#"return function(mod)
                local v, r = mod.datasets:open("gold")
                local v2, r2 = mod.datasets:open("emerald")
                mod.log:info("%s %s %s %s", tostring(v), r, tostring(v2), r2)
              end"#,
        )],
    );
    env.assert_loaded("ds");
    assert!(env
        .feed()
        .contains(&"[ds] nil not_imported nil unknown_version".to_owned()));
}

#[test]
fn the_dialect_compat_layer_and_require_probes() {
    let env = load(
        &[],
        vec![lua_mod(
            "dialect",
            r#"return function(mod)
                local bit = require("bit")
                mod.log:info("bit %d %d %s", bit.band(0xff, 0x0f), bit.lshift(1, 4), bit.tohex(255, 2))
                mod.log:info("unpack %d %d", unpack({ 1, 2 }))
                mod.log:info("tunpack %s", tostring((table.unpack or unpack) == unpack))
                mod.log:info("fmt %d", 7.9)
                local ok, err = pcall(require, "src.core.Game")
                mod.log:info("src %s %s", tostring(ok), err)
                local ok2 = pcall(require, "love.graphics")
                mod.log:info("love %s", tostring(ok2))
                local pk = { n = select('#', 1, nil, 3), 1, nil, 3 }
                mod.log:info("varargs %d", pk.n)
                local weak = setmetatable({}, { __mode = "k" })
                weak[{}] = true
                mod.log:info("version %s jit=%s", _VERSION, tostring(jit))
                mod.log:info("time %d day %d", os.time(), math.floor(os.time() / 86400))
                mod.log:info("date %s", os.date("!%Y-%m-%d", 0))
                local r1 = math.random(1, 100)
                math.randomseed(42) local a = math.random(1, 1000)
                math.randomseed(42) local b = math.random(1, 1000)
                mod.log:info("random same=%s inrange=%s", tostring(a == b), tostring(r1 >= 1 and r1 <= 100))
                mod.log:info("globals %s", tostring(_G == _G._G))
              end"#,
        )],
    );
    env.assert_loaded("dialect");
    let feed = env.feed();
    for line in [
        "[dialect] bit 15 16 ff",
        "[dialect] unpack 1 2",
        "[dialect] tunpack true",
        "[dialect] fmt 7",
        "[dialect] love false",
        "[dialect] varargs 3",
        "[dialect] version Lua 5.1 jit=nil",
        "[dialect] time 946684800 day 10957",
        "[dialect] date 1970-01-01",
        "[dialect] random same=true inrange=true",
        "[dialect] globals true",
    ] {
        assert!(feed.contains(&line.to_owned()), "{line}: {feed:?}");
    }
    assert!(
        feed.iter()
            .any(|l| l.starts_with("[dialect] src false") && l.contains("engine internal")),
        "{feed:?}"
    );
}

#[test]
fn unknown_hook_names_are_accepted_with_one_warning() {
    let env = load(
        &[],
        vec![lua_mod(
            "hud",
            r#"return function(mod)
                local off = mod.hooks:wrap("render.hud", function(next, game, vp) return next() end)
                mod.hooks:wrap("render.hud", function(next) return next() end)
                mod.log:info("off %s", tostring(off()))
                mod.log:info("again %s", tostring(off()))
              end"#,
        )],
    );
    env.assert_loaded("hud");
    let feed = env.feed();
    assert_eq!(
        feed.iter()
            .filter(|l| l.contains("hook render.hud is not raised by Pallet"))
            .count(),
        1,
        "{feed:?}"
    );
    // The wrapper is listed (the loader view's dormant links) until unsubscribed, once.
    assert!(feed.contains(&"[hud] off true".to_owned()), "{feed:?}");
    assert!(feed.contains(&"[hud] again false".to_owned()), "{feed:?}");
}

#[test]
fn hook_unsubscribe_and_priority_numbers() {
    let env = load(
        &[],
        vec![lua_mod(
            "unsub",
            r#"return function(mod)
                local off = mod.hooks:wrap("exp.gain", function(next) return next() + 1 end, 2.9)
                mod.exports.off = nil
                _G.OFF = off
                mod.hooks:wrap("exp.gain", function(next)
                  local v = next()
                  if v > 100 then OFF() end   -- unsubscribes the other link for later calls
                  return v
                end, 3)
              end"#,
        )],
    );
    env.assert_loaded("unsub");
    assert_eq!(
        env.rt.hook_chain(ExpGain::ID_CONST),
        vec![("unsub".to_owned(), 3), ("unsub".to_owned(), 2)]
    );
    assert_eq!(exp_gain(&env.rt, 100).0, 101);
    assert_eq!(exp_gain(&env.rt, 100).0, 100);
}

trait IdConst {
    const ID_CONST: pallet_api::HookId;
}
impl IdConst for ExpGain {
    const ID_CONST: pallet_api::HookId = <ExpGain as pallet_api::Hook>::ID;
}
