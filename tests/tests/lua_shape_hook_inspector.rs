//! Issue 18: the public `dev-hook-inspector` shape — an original inspector fixture
//! (`tests/fixtures/lua_mods/shape-hook-inspector`) reads the loader object of `mods.loaded`
//! (`ev.loader`, `compat-lua-shim/src/loader_view.rs`) and a small inspected mod
//! (`shape-inspected`); the model it builds holds what the public mod's upstream model test
//! asserts: both mods with their manifest facts, exports first (sorted, docs from the comment
//! above, `valueType`), wraps with priority, position and chain length, events from the
//! sources, and the inspector's own menu wrap. Plus `loader.fs` confinement.

mod lua_support;

use lua_support::*;
use pallet_api::Value;

const INSPECTOR: &str = "shape-hook-inspector";
const INSPECTED: &str = "shape-inspected";

/// A Rhai mod wrapping `exp.gain` outside the Lua link (priority 40).
fn rhai_wrapper() -> Mem<'static> {
    rhai_mod(
        "rhai-outer",
        r#"hooks.wrap("exp.gain", 40, |next, ctx| next.call());"#,
    )
}

fn model(env: &Env) -> Vec<Value> {
    let data = env.loader.mod_data.to_value();
    let saved = data
        .get(INSPECTOR)
        .and_then(|b| b.get("model"))
        .unwrap_or_else(|| panic!("no model saved: {:?}", env.feed()));
    saved.as_list().expect("the model is a list").to_vec()
}

fn mod_of<'a>(model: &'a [Value], id: &str) -> &'a Value {
    model
        .iter()
        .find(|m| m.get("id").and_then(Value::as_str) == Some(id))
        .unwrap_or_else(|| panic!("{id} not in the model: {model:?}"))
}

fn hooks_of(m: &Value) -> &[Value] {
    m.get("hooks").and_then(Value::as_list).unwrap_or(&[])
}

fn hook<'a>(m: &'a Value, name: &str) -> Option<&'a Value> {
    hooks_of(m)
        .iter()
        .find(|h| h.get("name").and_then(Value::as_str) == Some(name))
}

fn text<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

fn int(v: &Value, key: &str) -> Option<i64> {
    v.get(key).and_then(Value::as_exact_int)
}

#[test]
fn the_model_lists_both_mods_with_exports_wraps_and_events() {
    let env = load(
        &[lua_fixture(INSPECTOR), lua_fixture(INSPECTED)],
        vec![rhai_wrapper()],
    );
    env.assert_loaded(INSPECTOR);
    env.assert_loaded(INSPECTED);
    env.assert_loaded("rhai-outer");
    let model = model(&env);
    // Load order: priority ascending (the Rhai mod's 0, 420, then the inspector's 900).
    let ids: Vec<&str> = model.iter().filter_map(|m| text(m, "id")).collect();
    assert_eq!(ids, ["rhai-outer", INSPECTED, INSPECTOR]);

    let fx = mod_of(&model, INSPECTED);
    assert_eq!(text(fx, "name"), Some("Inspected Sample"));
    assert_eq!(text(fx, "version"), Some("0.3.1"));
    assert_eq!(
        text(fx, "description"),
        Some("Fixture written for Pallet: the mod a hook inspector looks at.")
    );
    assert_eq!(int(fx, "priority"), Some(420));
    assert_eq!(text(fx, "profile"), Some("content"));
    assert_eq!(int(fx, "skippedFiles"), Some(0));

    // Exports first, sorted, with the value type and the comment above the definition.
    let names: Vec<(&str, &str)> = hooks_of(fx)
        .iter()
        .map(|h| (text(h, "kind").unwrap(), text(h, "name").unwrap()))
        .collect();
    assert_eq!(
        names,
        [
            ("export", "double"),
            ("export", "helper"),
            ("export", "label"),
            ("export", "ring"),
            ("wrap", "exp.gain"),
            ("event", "mod.shape-inspected.rang"),
            ("event", "mod.shape-inspected.timeout"),
        ],
        "{fx:?}"
    );
    let double = hook(fx, "double").unwrap();
    assert_eq!(text(double, "valueType"), Some("function"));
    assert_eq!(
        text(double, "doc"),
        Some("Doubles a number for other mods.")
    );
    let helper = hook(fx, "helper").unwrap();
    assert_eq!(text(helper, "valueType"), Some("function"));
    assert_eq!(helper.get("doc"), None, "uncommented: no doc");
    let label = hook(fx, "label").unwrap();
    assert_eq!(text(label, "valueType"), Some("string"));
    assert_eq!(text(label, "doc"), Some("The sample's label."));

    // The wrap straight off the live chain: priority, position and length (the Rhai link at
    // 40 is outermost).
    let wrap = hook(fx, "exp.gain").unwrap();
    assert_eq!(int(wrap, "priority"), Some(25));
    assert_eq!(int(wrap, "pos"), Some(2));
    assert_eq!(int(wrap, "of"), Some(2));
    assert_eq!(wrap.get("dormant"), None);
    assert!(
        text(wrap, "doc").unwrap().contains("priority 25"),
        "{wrap:?}"
    );
    let outer = hook(mod_of(&model, "rhai-outer"), "exp.gain").unwrap();
    assert_eq!(
        (int(outer, "pos"), int(outer, "priority")),
        (Some(1), Some(40))
    );

    // Events from the sources (entry and lib/), with the comment above; tests/ is skipped.
    let rang = hook(fx, "mod.shape-inspected.rang").unwrap();
    assert_eq!(text(rang, "doc"), Some("Rung when the sample is asked to."));
    let timeout = hook(fx, "mod.shape-inspected.timeout").unwrap();
    assert_eq!(
        text(timeout, "doc"),
        Some("Sent when a helper runs out of patience.")
    );
    assert!(hook(fx, "mod.shape-inspected.from_tests").is_none());

    // The inspector on itself: its own export documented from its source, its START menu
    // wrap (a hook Pallet does not raise: listed as dormant, alone in its chain) and the event
    // it emitted through `loader.events` (a name built at run time, seen by its watcher).
    let me = mod_of(&model, INSPECTOR);
    assert_eq!(text(me, "name"), Some("Shape Hook Inspector"));
    assert_eq!(int(me, "priority"), Some(900));
    let inspect = hook(me, "inspect").unwrap();
    assert_eq!(text(inspect, "valueType"), Some("function"));
    assert!(
        text(inspect, "doc").is_some_and(|d| d.starts_with("Every loaded mod in load order")),
        "{inspect:?}"
    );
    let menu = hook(me, "ui.start_menu.items").expect("the inspector's own menu wrap");
    assert_eq!(text(menu, "kind"), Some("wrap"));
    assert_eq!(menu.get("dormant"), Some(&Value::Bool(true)));
    assert_eq!((int(menu, "pos"), int(menu, "of")), (Some(1), Some(1)));
    let looked = hook(me, "mod.shape-hook-inspector.looked").expect("live-seen event");
    assert_eq!(text(looked, "kind"), Some("event"));
    assert_eq!(looked.get("doc"), None);
}

#[test]
fn the_loader_is_kept_only_when_a_lua_mod_listens_to_mods_loaded() {
    let env = load(&[lua_fixture(INSPECTED)], vec![rhai_wrapper()]);
    env.assert_loaded(INSPECTED);
    assert!(!env.lua.keeps_loader_view());
    let env = load(&[lua_fixture(INSPECTOR), lua_fixture(INSPECTED)], vec![]);
    env.assert_loaded(INSPECTOR);
    assert!(env.lua.keeps_loader_view());
}

const PROBE: &str = r#"return function(mod)
  mod.events:on("mods.loaded", function(ev)
    local loader = ev.loader
    local fs = loader.fs
    local function show(label, a, b)
      mod.log:info("%s -> %s | %s", label, tostring(a), tostring(b))
    end
    show("absolute", fs.read("/etc/hostname"))
    show("climb", fs.read("mods/probe-fs/../../../etc/hostname"))
    show("unknown", fs.getDirectoryItems("mods/nobody"))
    show("bare", fs.getInfo("main.lua"))
    show("file link", fs.read("mods/probe-fs/secret.lua"))
    show("dir link", fs.getInfo("mods/probe-fs/escape"))
    show("through dir link", fs.read("mods/probe-fs/escape/hostname"))
    show("items", table.concat(fs.getDirectoryItems("mods/probe-fs"), ","))
    show("mods", table.concat(fs.getDirectoryItems("mods"), ","))
    show("own", fs.read("mods/probe-fs/note.txt"))
    show("info", fs.getInfo("mods/probe-fs/note.txt").type, fs.getInfo("mods/probe-fs").type)
    show("other", (fs.read("mods/shape-inspected/lib/util.lua")):sub(1, 13))
    local helper = loader.exports["shape-inspected"].helper
    show("type", type(helper), loader.exports["shape-inspected"].label)
    show("cross", pcall(helper))
    show("hooks write", pcall(function() loader.hooks.chains = {} end))
    show("status", #loader:status().loaded, loader.status().failed[1].id)
    show("mods row", loader.mods["shape-inspected"].path, loader.mods["shape-inspected"].priority)
    show("emit other", pcall(loader.events.emit, loader.events, "mod.shape-inspected.rang", {}))
  end)
end
"#;

#[test]
fn fs_refuses_paths_outside_the_loaded_mods_folders() {
    let dir = fresh_temp_dir("loader-fs-probe");
    let probe = dir.join("probe-fs");
    std::fs::create_dir_all(&probe).unwrap();
    std::fs::write(probe.join("main.lua"), PROBE).unwrap();
    std::fs::write(probe.join("manifest.json"), lua_manifest("probe-fs", "")).unwrap();
    std::fs::write(probe.join("note.txt"), "hello").unwrap();
    let outside = dir.join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("hostname"), "secret").unwrap();
    std::os::unix::fs::symlink(outside.join("hostname"), probe.join("secret.lua")).unwrap();
    std::os::unix::fs::symlink(&outside, probe.join("escape")).unwrap();
    let broken = lua_mod("broken-mod", "error('boom')");

    let env = load(&[probe.clone(), lua_fixture(INSPECTED)], vec![broken]);
    env.assert_loaded("probe-fs");
    let feed = unprefixed(&env.feed());
    let line = |label: &str| {
        feed.iter()
            .find(|l| l.starts_with(&format!("{label} -> ")))
            .unwrap_or_else(|| panic!("{label}: {feed:?}"))
            .clone()
    };
    let outside_msg = "outside the loaded mods' folders";
    assert!(line("absolute").contains(&format!("nil | /etc/hostname: {outside_msg}")));
    assert!(
        line("climb").starts_with("climb -> nil | "),
        "{}",
        line("climb")
    );
    assert!(line("climb").contains("not a relative path inside the mod folder"));
    assert!(line("unknown").contains(outside_msg));
    assert!(line("bare").contains(outside_msg));
    assert_eq!(
        line("file link"),
        "file link -> nil | mods/probe-fs/secret.lua: leads outside the mod folder"
    );
    assert_eq!(
        line("dir link"),
        "dir link -> nil | mods/probe-fs/escape: no such file or folder"
    );
    assert!(line("through dir link").contains("leads outside the mod folder"));
    // Symlinks are not listed.
    assert_eq!(
        line("items"),
        "items -> main.lua,manifest.json,note.txt | nil"
    );
    assert_eq!(line("mods"), "mods -> probe-fs,shape-inspected | nil");
    assert_eq!(line("own"), "own -> hello | 5");
    assert_eq!(line("info"), "info -> file | directory");
    assert_eq!(line("other"), "other -> -- Helpers of | nil");
    assert_eq!(line("type"), "type -> function | sample");
    assert_eq!(
        line("cross"),
        "cross -> false | loader.exports[\"shape-inspected\"].helper is a function of another \
         mod: each Pallet mod runs in its own Lua state, so cross-state calls are not supported"
    );
    assert!(line("hooks write").contains("false | "));
    assert!(line("hooks write").contains("loader.hooks is read-only"));
    assert_eq!(line("status"), "status -> 2 | broken-mod");
    assert_eq!(line("mods row"), "mods row -> mods/shape-inspected | 420");
    // `loader.events.emit` is the viewer's own `mod.events:emit`: another mod's namespace is
    // refused as it is there.
    let emit = line("emit other");
    assert!(emit.starts_with("emit other -> false | "), "{emit}");
    assert!(emit.contains("mod.probe-fs."), "{emit}");
}

#[test]
fn dormant_wraps_are_listed_up_to_their_cap_in_bus_order() {
    let cap = pallet_compat_lua::mod_state::MAX_DORMANT_PER_MOD;
    let many = lua_mod(
        "many-wraps",
        &format!(
            r#"return function(mod)
  for i = 1, {} do mod.hooks:wrap("render.layer" .. i, function(next) return next() end) end
  mod.hooks:wrap("render.hud", function(next) return next() end, 5)
end"#,
            cap + 10
        ),
    );
    let early = lua_mod(
        "early-hud",
        r#"return function(mod)
  mod.hooks:wrap("render.hud", function(next) return next() end, 5)
  local off = mod.hooks:wrap("render.hud", function(next) return next() end, 9)
  mod.hooks:wrap("render.hud", function(next) return next() end, 1)
  off()
  mod.events:on("mods.loaded", function(ev)
    local chains = ev.loader.hooks.chains
    local n = 0
    for name, chain in pairs(chains) do
      for _, link in ipairs(chain) do
        if link.owner == "many-wraps" then n = n + 1 end
      end
    end
    local hud = {}
    for _, link in ipairs(chains["render.hud"]) do
      hud[#hud + 1] = link.owner .. "@" .. link.priority .. (link.dormant and "d" or "")
    end
    mod.log:info("listed %d; hud %s", n, table.concat(hud, ","))
  end)
end"#,
    );
    let env = load(&[], vec![early, many]);
    env.assert_loaded("many-wraps");
    env.assert_loaded("early-hud");
    let feed = unprefixed(&env.feed());
    // The cap counts the mod's listed wraps: the last one (render.hud) is past it.
    assert!(
        feed.contains(&format!("listed {cap}; hud early-hud@5d,early-hud@1d")),
        "{feed:?}"
    );
    assert_eq!(
        feed.iter()
            .filter(|l| l.starts_with("lua.max_dormant_wraps: more than"))
            .count(),
        1,
        "{feed:?}"
    );
}
