//! Issue 21: C functions and host calls charged by their work. Each hostile fixture spends one
//! VM instruction (or Rhai operation) per call on work that used to run uncounted — pattern
//! backtracking, a pattern deep enough to overflow the C stack, O(n) table shifts and sorts,
//! registry copies, big file reads. Each must be stopped within its bound (wall time and the
//! process's peak memory asserted loosely), with the rest of the game intact: the bystander's
//! link and vanilla still run, in this dispatch and the next ones.

mod lua_support;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use lua_support::*;
use pallet_engine::world::GameVersion;

/// Load `dir` (mod id `id`) next to the bystander with the base game content, dispatch
/// `exp.gain` three times: each dispatch ends within a few seconds, the hostile link fails with
/// `expect`, the bystander still adds its 1, and the process never grew past 2 GiB.
fn stopped(dir: PathBuf, id: &str, expect: &str) {
    let setup = Setup {
        content: pallet_engine::content::base::content_for(GameVersion::Red),
        ..Setup::default()
    };
    let env = load_with(&[dir], vec![bystander()], setup);
    assert_contained(&env, id, expect, Duration::from_secs(5));
    if let Some(peak) = peak_rss() {
        assert!(peak < 2 << 30, "{id}: peak RSS {peak} bytes");
    }
}

fn lua(name: &str, expect: &str) {
    stopped(lua_fixture(name), name, expect);
}

#[test]
fn pattern_backtracking_is_charged_by_its_matcher_steps() {
    lua("hostile-backtrack", "operation budget exhausted");
}

#[test]
fn a_pattern_too_deep_for_the_c_stack_is_refused() {
    lua("hostile-pattern-depth", "lua.max_pattern_depth");
}

#[test]
fn table_shifts_and_sorts_are_charged_by_their_elements() {
    lua("hostile-table-ops", "operation budget exhausted");
}

#[test]
fn registry_copies_are_charged_in_lua() {
    lua("hostile-content-loop", "operation budget exhausted");
}

#[test]
fn registry_copies_are_charged_in_rhai() {
    stopped(
        rhai_fixture("content-loop"),
        "content-loop",
        "operation budget exhausted",
    );
}

#[test]
fn save_reads_and_writes_are_charged_in_lua() {
    lua("hostile-save-read-loop", "operation budget exhausted");
}

#[test]
fn save_reads_are_charged_in_rhai() {
    stopped(
        rhai_fixture("save-read-loop"),
        "save-read-loop",
        "operation budget exhausted",
    );
}

#[test]
fn big_file_reads_are_charged_by_their_bytes() {
    // The fixture plus an 8 MiB file, in a scratch copy (the big file is not checked in).
    let dir = std::env::temp_dir().join(format!("pallet-hostile-read-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let src = lua_fixture("hostile-read-loop");
    for f in ["manifest.json", "main.lua"] {
        std::fs::copy(src.join(f), dir.join(f)).unwrap();
    }
    std::fs::write(dir.join("big.txt"), "x".repeat(8 << 20)).unwrap();
    stopped(
        dir.clone(),
        "hostile-read-loop",
        "operation budget exhausted",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn colliding_string_hashes_are_refused_by_lua_max_string_collisions() {
    // Stopped in the first dispatch, then refused unrun (the mod still holds the strings).
    lua("hostile-string-flood", "lua.max_string_collisions");
}

#[test]
fn a_chunk_of_colliding_constants_is_refused_after_its_parse() {
    // 400 constants of 1 024 bytes sharing one hash (410 KiB of source, under
    // `lua.max_chunk_bytes`), compiled by `load` at load time: the parser interns them with no
    // hook running, so the table is checked right after the parse. And a chunk over the cap.
    let env = load(
        &[],
        vec![
            bystander(),
            lua_mod(
                "flood-chunk",
                r#"return function(mod)
                    local pad = ("x"):rep(1019)
                    local parts = {}
                    -- Short pieces (never a long colliding string before the parse).
                    for i = 1, 400 do
                      parts[#parts + 1] = "'"
                      parts[#parts + 1] = pad
                      parts[#parts + 1] = string.format("%04d", i)
                      parts[#parts + 1] = "z',"
                    end
                    local src = "return {" .. table.concat(parts) .. "}"
                    local ok, err = pcall(load, src)
                    mod.log:info("survived the flood: %s", tostring(err))
                  end"#,
            ),
            lua_mod(
                "big-chunk",
                r#"return function(mod)
                    local f, err = load("return 1 --" .. ("x"):rep(600 * 1024))
                    mod.log:info("big: %s %s", tostring(f), err)
                  end"#,
            ),
        ],
    );
    let err = env.error("flood-chunk");
    assert!(err.contains("lua.max_string_collisions"), "{err}");
    env.assert_loaded("big-chunk");
    let feed = env.feed();
    assert!(
        feed.iter()
            .any(|l| l.starts_with("[big-chunk] big: nil lua.max_chunk_bytes")),
        "{feed:?}"
    );
    assert!(
        !feed.iter().any(|l| l.contains("survived the flood")),
        "{feed:?}"
    );
    env.assert_loaded("bystander");
    assert_eq!(exp_gain(&env.rt, 100), (101, 1));
}

#[test]
fn ordinary_patterns_and_table_ops_still_answer_as_lua_does() {
    let env = load(
        &[],
        vec![lua_mod(
            "patterns",
            r#"return function(mod)
                local s = "key = value; other=thing"
                local k, v = s:match("^(%w+)%s*=%s*(%w+)")
                local n = select(2, s:gsub("%w+", "%0"))
                local words = {}
                for w in s:gmatch("%a+") do words[#words + 1] = w end
                local t = { 3, 1, 2 }
                table.sort(t)
                table.insert(t, 1, 0)
                mod.log:info("%s %s %d %s %s %s %d", k, v, n, table.concat(words, ","),
                  table.concat(t, ""), tostring(s:find("(%a+)", 20)), table.maxn(t))
              end"#,
        )],
    );
    env.assert_loaded("patterns");
    let feed = env.feed();
    assert!(
        feed.contains(&"[patterns] key value 4 key,value,other,thing 0123 20 4".to_owned()),
        "{feed:?}"
    );
}

#[test]
fn re_emission_is_bounded_and_each_refusal_logged_once_with_a_count() {
    reemission_is_bounded(lua_fixture("hostile-reemit"), "hostile-reemit");
}

#[test]
fn re_emission_from_rhai_is_bounded_and_each_refusal_logged_once_with_a_count() {
    reemission_is_bounded(rhai_fixture("reemit"), "reemit");
}

/// A listener of mod `id` (in `dir`) re-emitting its own event twice per call: each dispatch
/// ends within its bound with a bounded handful of feed lines, one of them counting repeats.
fn reemission_is_bounded(dir: PathBuf, id: &str) {
    let env = load(&[dir], vec![bystander()]);
    env.assert_loaded(id);
    env.feed();
    for round in 0..3 {
        let began = Instant::now();
        let (out, runs) = exp_gain(&env.rt, 100);
        let took = began.elapsed();
        assert!(took < Duration::from_secs(5), "round {round}: {took:?}");
        assert_eq!(runs, 1);
        assert!((100..=101).contains(&out), "{out}");
        let feed = env.feed();
        // A bounded handful of lines, not one per refused leaf.
        assert!(feed.len() < 200, "round {round}: {} lines", feed.len());
        assert!(
            feed.iter()
                .any(|l| l.starts_with(&format!("[{id}] event mod.{id}.ping:"))
                    && l.contains("more times in this dispatch")),
            "{feed:?}"
        );
    }
    assert_peak_rss_bounded(id);
    // Without the mod the engine answers as before.
    env.rt.remove_owner(id);
    assert_eq!(exp_gain(&env.rt, 100), (101, 1));
}

/// `..` copies both operands inside one VM instruction, so no count hook sees the bytes (421 s
/// for one dispatch with an 8 MiB operand before the allocator charged them): every byte the
/// state allocates during a dispatch is charged, and the allocation past the budget refused.
#[test]
fn concatenation_is_charged_by_its_bytes() {
    lua("hostile-concat-copy", "operation budget exhausted");
}

/// What a Rhai mod's closures hold between calls grows on every dispatch (a captured array of
/// function pointers curried with 32 KiB strings fits every Rhai size limit): once it passes
/// `rhai.max_held_bytes` the link fails and the mod is stopped — every later call refused
/// unrun — while the bystander and vanilla go on.
#[test]
fn what_a_rhai_mod_holds_between_calls_is_capped_at_rhai_max_held_bytes() {
    let env = load(&[rhai_fixture("held-grow")], vec![bystander()]);
    env.assert_loaded("held-grow");
    env.assert_loaded("bystander");
    env.feed();
    let mut stopped_at = None;
    for round in 0..6 {
        let began = Instant::now();
        let (out, runs) = exp_gain(&env.rt, 100);
        let took = began.elapsed();
        assert!(took < Duration::from_secs(5), "round {round}: {took:?}");
        assert_eq!(runs, 1);
        let feed = env.feed();
        let failed = feed.iter().any(|l| {
            l.starts_with("[held-grow] hook exp.gain failed") && l.contains("rhai.max_held_bytes")
        });
        if failed {
            stopped_at.get_or_insert(round);
            // Failed after `next`: downstream kept, the mod's +1000 gone.
            assert_eq!(out, 101, "round {round}");
        } else {
            assert!(
                stopped_at.is_none(),
                "round {round} ran after the stop: {feed:?}"
            );
            assert_eq!(out, 1101, "round {round}");
        }
    }
    // 6.4 MiB more per dispatch: the third passes 16 MiB.
    assert_eq!(stopped_at, Some(2));
    if let Some(peak) = peak_rss() {
        assert!(peak < 2 << 30, "peak RSS {peak} bytes");
    }
    env.rt.remove_owner("held-grow");
    assert_eq!(exp_gain(&env.rt, 100), (101, 1));
}

/// One registration already holding more than `rhai.max_held_bytes` is refused, and the mod
/// fails at load.
#[test]
fn a_closure_registered_holding_too_much_is_refused_at_load() {
    let env = load(
        &[],
        vec![
            bystander(),
            rhai_mod(
                "held-at-load",
                r#"let hoard = [];
                   let big = "x";
                   for i in 0..15 { big += big; }
                   for i in 0..600 { hoard.push(Fn("keep").curry(big + i)); }
                   hooks.wrap("exp.gain", |next, ctx| hoard.len());
                   fn keep(x) { x }"#,
            ),
        ],
    );
    let err = env.error("held-at-load");
    assert!(err.contains("rhai.max_held_bytes"), "{err}");
    env.assert_loaded("bystander");
    assert_eq!(exp_gain(&env.rt, 100), (101, 1));
}

/// A coroutine starts with a fresh instruction count: coroutines that each run part of a
/// window (here 200 concatenations of a 4 MiB string; about 8 s per dispatch before), yield and are abandoned must still be
/// charged — each creation prepays a window, each resume settles the concatenation buffer.
#[test]
fn work_spread_over_fresh_coroutines_is_charged() {
    lua("hostile-coroutine-burst", "operation budget exhausted");
}

/// `coroutine.wrap` (rebuilt over the charged `create`/`resume`) answers as Lua 5.1's: values
/// in and out (nil holes kept), yields, the dead-coroutine error, and an error re-raised with
/// the caller's position in front.
#[test]
fn coroutine_wrap_still_answers_as_lua_does() {
    let env = load(
        &[],
        vec![lua_mod(
            "wrap",
            r#"return function(mod)
                local gen = coroutine.wrap(function(a, b)
                  local c = coroutine.yield(a + b, nil, "x")
                  return c * 2
                end)
                local p, q, r = gen(1, 2)
                local s = gen(21)
                local ok, dead = pcall(gen)
                local bad = coroutine.wrap(function() error("boom") end)
                local ok2, err = pcall(function() local v = bad() return v end)
                mod.log:info("%s %s %s %s %s %s %s %s", p, tostring(q), r, s, tostring(ok),
                  dead, tostring(ok2), err)
              end"#,
        )],
    );
    env.assert_loaded("wrap");
    let feed = env.feed();
    let line = feed
        .iter()
        .find(|l| l.starts_with("[wrap] "))
        .unwrap_or_else(|| panic!("{feed:?}"));
    assert!(
        line.starts_with("[wrap] 3 nil x 42 false cannot resume dead coroutine false "),
        "{line}"
    );
    // The position of the line calling `bad`, then the error's own position inside it.
    assert!(line.ends_with(": boom"), "{line}");
    assert_eq!(line.matches(':').count(), 4, "{line}");
}

/// A map-script handler's captures count toward `rhai.max_held_bytes` too: the handler that
/// grows them past the quota fails with the limit's name, the game enters the overworld all
/// the same, and the mod's links are refused from then on.
#[test]
fn a_map_handler_holding_too_much_is_stopped_by_rhai_max_held_bytes() {
    let env = load(&[rhai_fixture("held-map-handler")], vec![bystander()]);
    env.assert_loaded("held-map-handler");
    let mut game =
        pallet_engine::game::Game::boot(GameVersion::Red, 4, std::rc::Rc::clone(&env.rt)).unwrap();
    let n = env.rhai.install_map_handlers(game.scripts_mut().unwrap());
    assert_eq!(n, 1);
    let began = Instant::now();
    game.enter_overworld().unwrap();
    assert!(
        began.elapsed() < Duration::from_secs(5),
        "{:?}",
        began.elapsed()
    );
    let feed = env.feed();
    assert!(
        feed.iter().any(|l| l.contains("held 600")),
        "the handler ran: {feed:?}"
    );
    let errors: Vec<String> = env
        .rhai
        .drain_runtime_errors()
        .iter()
        .map(|d| d.short())
        .collect();
    let errors = errors.join("\n");
    assert!(errors.contains("rhai.max_held_bytes"), "{errors}\n{feed:?}");
    assert_eq!(exp_gain(&env.rt, 100), (101, 1));
    assert_peak_rss_bounded("held-map-handler");
}

/// The stop of a charged `..` loop is the budget's, which no `pcall`, `xpcall` message handler
/// or `__tostring` (through `print`) may swallow: each attempt fails its link with the budget
/// error, dispatch after dispatch.
#[test]
fn a_charged_concatenation_stop_cannot_be_swallowed() {
    let prelude = r#"local big = ("x"):rep(4 * 1024 * 1024)
        local function burn(tag) while true do local t = big .. tag end end
        return function(mod) mod.hooks:wrap("exp.gain", function(next)"#;
    let attempts = [
        ("concat-pcall", r#"while true do pcall(burn, "p") end"#),
        (
            "concat-xpcall",
            r#"while true do xpcall(function() burn("x") end, function() burn("h") end) end"#,
        ),
        (
            "concat-tostring",
            r#"local o = setmetatable({}, { __tostring = function() burn("t") end })
               while true do print(o) end"#,
        ),
    ];
    let mut mods = vec![bystander()];
    let sources: Vec<(String, String)> = attempts
        .iter()
        .map(|(id, body)| (id.to_string(), format!("{prelude}\n{body}\nend, 10) end")))
        .collect();
    for (id, src) in &sources {
        mods.push(lua_mod(id, src));
    }
    let env = load(&[], mods);
    for (id, _) in &attempts {
        assert_contained(
            &env,
            id,
            "operation budget exhausted",
            Duration::from_secs(5),
        );
    }
}
