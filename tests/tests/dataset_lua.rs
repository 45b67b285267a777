//! RFC 0015 through the Lua shim with a real imported cache: `mod.datasets:open` views expose
//! every public registry name and alias (`view.content.species` is `pokemon`), unknown names
//! are nil, non-string ids are absent, `each` walks lexical order, Gold/Silver carry items,
//! and the registry aliases also reach the mod's own `mod.content`.

use std::collections::BTreeMap;
use std::fs;
use std::path::PathBuf;
use std::rc::Rc;

use pallet_api::catalog::common::GameVersion;
use pallet_api::content::Content;
use pallet_api::loader::{EnableState, Loader, ModCandidate, ModState};
use pallet_api::Runtime;
use pallet_compat_lua::LuaHost;
use pallet_engine::datasets::{import, Datasets, ImportOptions};

struct Env {
    rt: Rc<Runtime>,
    loader: Loader,
    root: PathBuf,
}

impl Drop for Env {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.root);
    }
}

impl Env {
    fn feed(&self) -> String {
        self.rt
            .drain_diagnostics()
            .into_iter()
            .map(|d| d.message)
            .collect::<Vec<_>>()
            .join("\n")
    }
    fn loaded(&self, id: &str) {
        let st = self
            .loader
            .status()
            .get(id)
            .map(|m| (m.state, m.error.clone()));
        assert_eq!(
            st.as_ref().map(|s| s.0),
            Some(ModState::Loaded),
            "{id}: {st:?}"
        );
    }
}

fn load(tag: &str, versions: &[GameVersion], id: &str, main: &str) -> Env {
    let root =
        std::env::temp_dir().join(format!("pallet-dataset-lua-{tag}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&root);
    for v in versions {
        import(&root, *v, ImportOptions::default()).unwrap();
    }
    let rt = Rc::new(Runtime::new());
    let mut lua = LuaHost::new(&rt);
    lua.set_datasets(Rc::new(Datasets::new(&root)));
    let mut files = BTreeMap::new();
    files.insert("main.lua".to_owned(), main.to_owned());
    lua.add_embedded(id, files);
    let manifest = format!(
        r#"{{"id": "{id}", "name": "{id}", "version": "1.0.0", "api": 2, "entry": "main.lua"}}"#
    );
    let candidates = vec![ModCandidate::from_manifest_text(id, &manifest, true)];
    let mut loader = Loader::new(GameVersion::Red, "0.1.0", Content::new());
    loader.add_host(Box::new(lua));
    loader.load(&rt, &candidates, &EnableState::default());
    Env { rt, loader, root }
}

const VIEW: &str = r#"return function(mod)
    local gold = assert(mod.datasets:open("gold"))
    local a, b = gold.content.species:get("MEW"), gold.content.pokemon:get("MEW")
    mod.log:info("alias %s %d %s %s", a.name, a.dex, tostring(a.dex == b.dex and a.name == b.name),
      tostring(rawequal(a, b)))
    mod.log:info("types %s %s", tostring(gold.content.types:get("FIRE").STEEL),
      tostring(gold.content.typeChart:has("DARK")))
    mod.log:info("unknown %s %s %s", tostring(gold.content.bogus), tostring(gold.content.Species),
      tostring(gold.content[1]))
    local rock = gold.content.items:get("KINGS_ROCK")
    mod.log:info("items %s %d %s %s", rock.name, gold.content.items:get("GREAT_BALL").num,
      tostring(gold.content.items:has("GS_BALL")), tostring(gold.content.items:has("SAFARI_BALL")))
    local n, last, sorted = 0, "", true
    for id, rec in gold.content.species:each() do
      n = n + 1
      if id <= last then sorted = false end
      last = id
      if id == "MEW" and rec.dex ~= 151 then sorted = false end
    end
    mod.log:info("each %d %s %s", n, tostring(sorted), last)
    local items = 0
    for _ in gold.content.items:each() do items = items + 1 end
    mod.log:info("item count %d", items)
    mod.log:info("ids %s %s %s %s", tostring(gold.content.pokemon:get(42)),
      tostring(gold.content.pokemon:has(nil)), tostring(gold.content.pokemon:has("")),
      tostring(gold.content.pokemon:get({})))
    -- The mod's own content registries accept the same aliases.
    mod.content.species:register("NEWMON", gold.content.pokemon:get("STEELIX"))
    mod.log:info("content %s", mod.content.pokemon:get("NEWMON").name)
  end"#;

#[test]
fn lua_views_expose_aliases_items_and_lexical_each() {
    let env = load("view", &[GameVersion::Gold], "view", VIEW);
    env.loaded("view");
    let feed = env.feed();
    for want in [
        "[view] alias MEW 151 true false",
        "[view] types 2 true",
        "[view] unknown nil nil nil",
        "[view] items KING'S ROCK 4 false false",
        "[view] each 251 true ZUBAT",
        "[view] item count 161",
        "[view] ids nil false false nil",
        "[view] content STEELIX",
    ] {
        assert!(feed.contains(want), "missing {want:?} in\n{feed}");
    }
}
