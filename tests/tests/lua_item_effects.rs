//! Issue 18 item 8: the `item_effects` registry is real. An item whose record names an effect
//! a mod registered runs the mod's `use` callback when used from the bag — Lua (the shape of
//! the surveyed coin-case mod, `tests/fixtures/lua_mods/shape-token-case`) and its Rhai twin
//! (`tests/fixtures/mods/twin-token-case`) — and bad records fail closed with stable errors.

mod lua_support;

use std::path::PathBuf;

use lua_support::{load, lua_fixture, lua_mod, rhai_fixture, rhai_mod, run_mods};
use pallet_api::loader::ModState;
use pallet_script_host::cli::cmd_run::RunOutcome;

fn count(o: &RunOutcome, id: &str) -> u32 {
    o.game
        .save
        .inventory
        .iter()
        .filter(|s| s.id == id)
        .map(|s| s.count)
        .sum()
}

const USE_BOTH: &str = "bag COIN_CASE 1\nuse COIN_CASE\nclose\nuse COIN_CASE\nclose\n\
                        bag NUGGET 2\nuse NUGGET\nclose\n";

fn check_token_case(dir: PathBuf) {
    let plain = run_mods(vec![], "bag NUGGET 2\n");
    let o = run_mods(vec![dir], USE_BOTH);
    let t = &o.transcript;
    assert!(o.failed_mods.is_empty(), "{t}");
    // The coin case: topped up to 500 once, kept (its answer is "failed"), its text shown.
    assert!(t.contains("[text] Coins: 0 -> 500"), "{t}");
    assert!(t.contains("[text] Coins: 500 -> 500"), "{t}");
    assert_eq!(o.game.save.coins, 500, "{t}");
    assert_eq!(count(&o, "COIN_CASE"), 1, "{t}");
    // The nugget: spent ("used"), the money written back.
    assert!(t.contains("The NUGGET was cashed in!"), "{t}");
    assert_eq!(count(&o, "NUGGET"), 1, "{t}");
    assert_eq!(o.game.save.money, plain.game.save.money + 5000, "{t}");
    // Without the mod the coin case has no field use.
    let vanilla = run_mods(vec![], "bag COIN_CASE 1\nuse COIN_CASE\nclose\n");
    assert!(
        vanilla.transcript.contains("This isn't the time"),
        "{}",
        vanilla.transcript
    );
    assert_eq!(vanilla.game.save.coins, 0);
}

#[test]
fn a_lua_item_effect_runs_from_the_bag_and_writes_its_answer_back() {
    check_token_case(lua_fixture("shape-token-case"));
}

#[test]
fn the_rhai_twin_does_the_same() {
    check_token_case(rhai_fixture("twin-token-case"));
}

#[test]
fn records_without_a_use_function_are_refused_at_load() {
    let env = load(
        &[],
        vec![
            lua_mod(
                "no_use",
                r#"return function(mod) mod.content.item_effects:register("E", { field = true }) end"#,
            ),
            lua_mod(
                "bad_use",
                r#"return function(mod) mod.content.item_effects:register("E2", { use = 5 }) end"#,
            ),
            lua_mod(
                "bad_flag",
                r#"return function(mod) mod.content.item_effects:register("E3", { field = "yes", use = function() end }) end"#,
            ),
            rhai_mod(
                "rhai_no_use",
                r#"content.register("item_effects", "E4", #{ field: true });"#,
            ),
        ],
    );
    for (id, want) in [
        (
            "no_use",
            "content.item_effects:register(E): use must be a function, got nil",
        ),
        (
            "bad_use",
            "content.item_effects:register(E2): use must be a function, got integer",
        ),
        ("bad_flag", "field"),
        (
            "rhai_no_use",
            "content.register(\"item_effects\", \"E4\"): use must be a function pointer",
        ),
    ] {
        assert_eq!(env.state(id), ModState::Failed, "{id}");
        assert!(env.error(id).contains(want), "{id}: {}", env.error(id));
    }
    // A failed mod's writes are rolled back: nothing of it is left in the registry.
    let content = env.loader.content.borrow();
    assert!(content.get("item_effects", "E3").is_none());
}

#[test]
fn a_failing_callback_keeps_the_item_and_names_the_effect() {
    let dir = std::env::temp_dir().join(format!("pallet-item-boom-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("manifest.json"),
        r#"{"id": "boom", "name": "boom", "version": "1.0.0", "api": 2, "entry": "main.lua"}"#,
    )
    .unwrap();
    std::fs::write(
        dir.join("main.lua"),
        "local mod = ...\n\
         mod.content.item_effects:register(\"MOD_BOOM\", { use = function(ctx)\n\
           ctx.save.coins = 10\n  error(\"boom\")\nend })\n\
         mod.content.items:patch(\"POTION\", { effect = \"MOD_BOOM\" })\n\
         mod.content.items:patch(\"NUGGET\", { effect = \"MOD_NOT_THERE\" })\n",
    )
    .unwrap();
    let opts = pallet_script_host::host::ModsOptions {
        dirs: vec![dir.clone()],
        no_default_mods: true,
        ..Default::default()
    };
    let run = |scenario: &str| {
        pallet_script_host::cli::cmd_run::play_with_mods(
            pallet_engine::world::GameVersion::Red,
            7,
            scenario,
            Some(&opts),
        )
    };
    let f = run("bag POTION 1\nuse POTION 1\n")
        .err()
        .expect("the use is an error");
    assert!(
        f.message
            .contains("item_effects.MOD_BOOM: mods/boom/main.lua:4: boom"),
        "{}",
        f.message
    );
    // An effect no mod registered: reported, and the item keeps its own (no) effect.
    let o = run("bag NUGGET 1\nuse NUGGET\nclose\n").unwrap();
    let t = &o.transcript;
    assert!(
        t.contains(r#"items.NUGGET: effect "MOD_NOT_THERE" is not a registered item effect"#),
        "{t}"
    );
    assert!(t.contains("This isn't the time"), "{t}");
    assert_eq!(o.game.save.coins, 0);
    let _ = std::fs::remove_dir_all(&dir);
}
