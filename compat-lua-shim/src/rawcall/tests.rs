//! The raw-call hot path ([`crate::rawcall`]) on a real runtime: error objects that are not
//! strings, answers that are not data, a `next` kept past its link (both `next()` and
//! `next(a, …)`, also after the link is unsubscribed), and the collector pacing tiers.

use std::collections::BTreeMap;
use std::rc::Rc;

use pallet_api::catalog::hooks::{ExpGain, ExpGainArgs, ExpGainContext};
use pallet_api::content::Content;
use pallet_api::loader::{EnableState, Loader, ModCandidate};
use pallet_api::{Runtime, Value};

use crate::sandbox::GcPacer;
use crate::LuaHost;

const MAIN: &str = r#"local mod = ...
local kept, off
mod.hooks:wrap("exp.gain", function(next, ctx)
  if ctx.level == 6 then
    off()
    local ok, e = pcall(kept, ctx)
    mod.log:info("kept(ctx): %s %s", tostring(ok), tostring(e))
    ok, e = pcall(kept)
    mod.log:info("kept(): %s %s", tostring(ok), tostring(e))
    return 0
  end
  return next()
end, 10)
off = mod.hooks:wrap("exp.gain", function(next, ctx)
  kept = next
  if ctx.level == 1 then
    error(setmetatable({}, { __tostring = function() return "custom error object" end }))
  elseif ctx.level == 2 then
    error({})
  elseif ctx.level == 3 then
    return function() end
  elseif ctx.level == 4 then
    return next(ctx) + 2
  end
  return next() + 1
end, 0)"#;

fn runtime() -> Rc<Runtime> {
    let rt = Rc::new(Runtime::new());
    let mut host = LuaHost::new(&rt);
    let mut files = BTreeMap::new();
    files.insert("main.lua".to_owned(), MAIN.to_owned());
    host.add_embedded("raw", files);
    let manifest =
        r#"{"id": "raw", "name": "raw", "version": "1.0.0", "api": 2, "entry": "main.lua"}"#;
    let candidate = ModCandidate::from_manifest_text("raw", manifest, true);
    let mut loader = Loader::new(Default::default(), "0.1.0", Content::new());
    loader.add_host(Box::new(host));
    let status = loader.load(&rt, &[candidate], &EnableState::default());
    assert_eq!(status.order, vec!["raw".to_owned()], "{:?}", status.errors);
    rt
}

fn exp(rt: &Runtime, level: u8) -> u32 {
    let args = ExpGainArgs {
        ctx: ExpGainContext {
            defeated_def: Value::Nil,
            level,
            is_trainer: false,
            participants: 1,
            traded: false,
            mon: Value::Nil,
        },
    };
    rt.call::<ExpGain>(args, |_| 41)
}

fn feed(rt: &Runtime) -> Vec<String> {
    rt.drain_diagnostics()
        .into_iter()
        .map(|d| d.message)
        .collect()
}

#[test]
fn raw_links_keep_the_chain_rules_and_messages() {
    let rt = runtime();
    assert_eq!(exp(&rt, 10), 42);
    assert_eq!(
        exp(&rt, 4),
        43,
        "next(ctx) goes through the replacement path"
    );
    assert!(feed(&rt).is_empty());

    // A non-string error object reads as its tostring (metamethod included).
    assert_eq!(exp(&rt, 1), 41);
    let f = feed(&rt);
    assert!(
        f.iter()
            .any(|l| l.contains("hook exp.gain failed") && l.contains("custom error object")),
        "{f:?}"
    );
    assert_eq!(exp(&rt, 2), 41);
    let f = feed(&rt);
    assert!(f.iter().any(|l| l.contains("table: ")), "{f:?}");

    // An answer that is not data fails the link closed; downstream of it did not run.
    assert_eq!(exp(&rt, 3), 41);
    let f = feed(&rt);
    assert!(
        f.iter().any(|l| l.contains("cannot cross into the engine")),
        "{f:?}"
    );

    // The kept `next`, after its link is gone: both call forms are refused cleanly.
    assert_eq!(exp(&rt, 6), 0);
    let f = feed(&rt);
    for form in ["kept(ctx)", "kept()"] {
        assert!(
            f.iter().any(|l| l.contains(&format!("{form}: false"))
                && l.contains("next can only be called while its link runs")),
            "{form}: {f:?}"
        );
    }
    // The unsubscribed link is gone; the outer one still passes through.
    assert_eq!(exp(&rt, 10), 41);
}

#[test]
fn the_collector_pause_follows_the_heap_share() {
    let p = GcPacer::new(64 << 20);
    assert_eq!(p.pause_for(1 << 20), 800);
    assert_eq!(p.pause_for(5 << 20), 400);
    assert_eq!(p.pause_for(9 << 20), 200);
    assert_eq!(p.pause_for(60 << 20), 200);
    assert_eq!(GcPacer::new(0).pause_for(0), 200);
}
