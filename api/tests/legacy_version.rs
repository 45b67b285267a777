//! Issue 18 item 1: a legacy Lua manifest's `game_version` states Lua-engine versions and is
//! checked against `LUA_ENGINE_API_LEVEL`; a Rhai manifest's against Pallet's own version; a
//! development engine skips both.

use pallet_api::catalog::common::GameVersion;
use pallet_api::content::Content;
use pallet_api::loader::{
    EnableState, Loader, ModCandidate, ModContext, ModState, NativeMod, LUA_ENGINE_API_LEVEL,
};
use pallet_api::Runtime;

fn cand(id: &str, entry: &str, range: &str) -> ModCandidate {
    let text = format!(
        r#"{{"id": "{id}", "name": "{id}", "version": "1.0.0", "api": 2, "entry": "{entry}", "game_version": "{range}"}}"#
    );
    ModCandidate::from_manifest_text(id, &text, true)
}

fn states(engine: &str, cands: &[ModCandidate]) -> Vec<(String, ModState, Option<String>)> {
    let rt = Runtime::new();
    let mut loader = Loader::new(GameVersion::Red, engine, Content::new());
    for c in cands {
        let id = c.manifest.as_ref().unwrap().manifest.id.clone();
        loader.add_host(Box::new(NativeMod::new(&id, |_: &mut ModContext<'_>| {
            Ok(())
        })));
    }
    let status = loader.load(&rt, cands, &EnableState::default()).clone();
    status
        .mods
        .iter()
        .map(|m| (m.id.clone(), m.state, m.error.clone()))
        .collect()
}

#[test]
fn legacy_ranges_use_the_lua_engine_level_and_rhai_ranges_pallets_version() {
    assert_eq!(LUA_ENGINE_API_LEVEL, "0.2.4");
    let cands = [
        cand("a", "main.lua", ">=0.1.75 <10.0.0"),
        cand("b", "main.lua", ">=0.2.4 <1.0.0"),
        cand("g", "main.lua", ">=0.1.96 <0.2.0"),
        cand("c", "main.lua", "0.0.0-dev || >=0.1.0 <2.0.0"),
        cand("d", "main.lua", ">=1.0.0 <2.0.0"),
        cand("e", "main.rhai", ">=1.0.0 <2.0.0"),
        cand("f", "main.rhai", ">=0.1.0 <0.2.0"),
    ];
    let s = states("0.1.0", &cands);
    let state = |id: &str| s.iter().find(|r| r.0 == id).unwrap().clone();
    for id in ["a", "b", "c", "f"] {
        assert_eq!(state(id).1, ModState::Loaded, "{id}: {:?}", state(id));
    }
    assert_eq!(state("d").1, ModState::Failed);
    // The 0.1.x line (mods that patch the Lua engine's own classes) is another engine.
    assert_eq!(state("g").1, ModState::Failed);
    assert!(state("d")
        .2
        .unwrap()
        .contains("legacy Lua manifests are checked against the Lua-engine API level Pallet implements, 0.2.4"));
    assert_eq!(
        state("e").2.as_deref(),
        Some("requires game version >=1.0.0 <2.0.0; this engine is 0.1.0")
    );
    // A development build skips every range check, as the Lua engine does.
    let s = states("0.0.0-dev", &cands);
    assert!(s.iter().all(|r| r.1 == ModState::Loaded), "{s:?}");
}
