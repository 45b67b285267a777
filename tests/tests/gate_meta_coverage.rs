//! Meta gate: the catalog cannot drift from the code, and every catalog name is exercised.
//!
//! 1. **Sites.** Engine (and api loader) sources are scanned for the site spelling
//!    `.call::<…::Type>` / `.emit::<…::Type>` (comments and `#[cfg(test)]` tails stripped). A
//!    site whose type is not a catalog type fails; a catalog entry with no site fails unless it
//!    is listed in [`SITE_DEBT`].
//! 2. **Coverage.** Every catalog name must be exercised by some *non-gate* test: the test
//!    corpus (every `*/tests/**` file, `#[cfg(test)]` tails of sources, `.rhai`/`.lua` fixtures)
//!    must contain the name in double quotes (`"catch.party_full"`) or its type as
//!    `hooks::Type` / `events::Type` / `::<Type`. Otherwise the name must be in
//!    [`COVERAGE_DEBT`].
//! 3. The debt tables only shrink: an entry that is now paid (site landed / test exists) fails
//!    until it is deleted, and so does an entry that is no longer a catalog name.
//! 4. The gate files mention their catalog accessors.
//!
//! To break it on purpose: delete the `rt.call::<CatchPartyFull>` line in
//! `engine/src/battle/capture/path.rs` (→ "catalog hook catch.party_full has no site"), or
//! spell a site `rt.call::<hooks::NotAHook>` (→ "site raises a name not in the catalog").

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use pallet_api::catalog;

/// Catalog names whose engine site has not landed yet. Shrink-only: delete an entry when its
/// site lands (this test tells you).
const SITE_DEBT: &[&str] = &["event:save.created", "event:save.loaded"];

/// Catalog names no non-gate test exercises yet. Shrink-only.
const COVERAGE_DEBT: &[&str] = &[];

/// Where sites live.
/// Hosts (script-host, the Lua shim) relay hooks but raise none of their own, and their VMs
/// have unrelated `call::<…>` methods, so they are not scanned.
const SITE_ROOTS: &[&str] = &["engine/src", "api/src/loader"];

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        if p.is_dir() {
            if name != "target" && !name.starts_with('.') && !name.starts_with("target") {
                walk(&p, out);
            }
        } else {
            out.push(p);
        }
    }
}

fn strip_comments(src: &str) -> String {
    src.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Source text with its `#[cfg(test)]` tail removed (tests are not sites).
fn non_test_part(src: &str) -> &str {
    match src.find("#[cfg(test)]") {
        Some(i) => &src[..i],
        None => src,
    }
}

/// The type names raised at `.call::<…>` / `.emit::<…>` sites.
fn site_types(src: &str, method: &str) -> Vec<String> {
    let needle = format!(".{method}::<");
    let mut out = Vec::new();
    let mut rest = src;
    while let Some(i) = rest.find(&needle) {
        rest = &rest[i + needle.len()..];
        let end = rest.find(['>', ',']).unwrap_or(rest.len());
        let path: String = rest[..end].chars().filter(|c| !c.is_whitespace()).collect();
        let ty = path.rsplit("::").next().unwrap_or_default().to_owned();
        out.push(ty);
    }
    out
}

struct Sites {
    hooks: BTreeSet<String>,
    events: BTreeSet<String>,
    unknown: Vec<String>,
}

fn scan_sites() -> Sites {
    let root = repo_root();
    let mut files = Vec::new();
    for r in SITE_ROOTS {
        walk(&root.join(r), &mut files);
    }
    let mut sites = Sites {
        hooks: BTreeSet::new(),
        events: BTreeSet::new(),
        unknown: Vec::new(),
    };
    for f in files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "rs"))
    {
        let Ok(src) = std::fs::read_to_string(f) else {
            continue;
        };
        let code = strip_comments(non_test_part(&src));
        let rel = f.strip_prefix(&root).unwrap_or(f).display().to_string();
        for ty in site_types(&code, "call") {
            match catalog::hook_by_type(&ty) {
                Some(info) => {
                    sites.hooks.insert(info.name.to_owned());
                }
                None => sites
                    .unknown
                    .push(format!("{rel}: .call::<{ty}> is not a catalog hook")),
            }
        }
        for ty in site_types(&code, "emit") {
            match catalog::event_by_type(&ty) {
                Some(info) => {
                    sites.events.insert(info.name.to_owned());
                }
                None => sites
                    .unknown
                    .push(format!("{rel}: .emit::<{ty}> is not a catalog event")),
            }
        }
    }
    sites
}

fn catalog_keys() -> BTreeSet<String> {
    catalog::HOOKS
        .iter()
        .map(|h| format!("hook:{}", h.name))
        .chain(catalog::EVENTS.iter().map(|e| format!("event:{}", e.name)))
        .collect()
}

#[test]
fn every_site_is_in_the_catalog_and_every_catalog_name_has_a_site() {
    let sites = scan_sites();
    let mut problems = sites.unknown.clone();
    let debt: BTreeSet<&str> = SITE_DEBT.iter().copied().collect();
    let keys = catalog_keys();
    for key in &keys {
        let (kind, name) = key.split_once(':').unwrap_or_default();
        let has_site = match kind {
            "hook" => sites.hooks.contains(name),
            _ => sites.events.contains(name),
        };
        match (has_site, debt.contains(key.as_str())) {
            (false, false) => problems.push(format!(
                "catalog {kind} {name} has no site (and is not in SITE_DEBT)"
            )),
            (true, true) => {
                problems.push(format!("{key} now has a site: delete it from SITE_DEBT"))
            }
            _ => {}
        }
    }
    for d in &debt {
        if !keys.contains(*d) {
            problems.push(format!(
                "SITE_DEBT entry {d} is not a catalog name: delete it"
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "catalog/site drift:\n  {}",
        problems.join("\n  ")
    );
}

fn corpus() -> String {
    let root = repo_root();
    let mut files = Vec::new();
    walk(&root, &mut files);
    let mut text = String::new();
    for f in files {
        let rel = f
            .strip_prefix(&root)
            .unwrap_or(&f)
            .to_string_lossy()
            .replace('\\', "/");
        let ext = f.extension().and_then(|e| e.to_str()).unwrap_or_default();
        let in_tests_dir = rel
            .split('/')
            .any(|seg| seg == "tests" || seg == "fixtures");
        let is_gate =
            rel.starts_with("tests/tests/gate_") || rel.starts_with("tests/tests/common/");
        let Ok(src) = std::fs::read_to_string(&f) else {
            continue;
        };
        match ext {
            "rs" if in_tests_dir && !is_gate => text.push_str(&src),
            "rs" if rel.contains("/src/") => {
                if let Some(i) = src.find("#[cfg(test)]") {
                    text.push_str(&src[i..]);
                }
            }
            "rhai" | "lua" if in_tests_dir || rel.contains("mods/") => text.push_str(&src),
            _ => continue,
        }
        text.push('\n');
    }
    text
}

fn exercised(corpus: &str, name: &str, type_name: &str, module: &str) -> bool {
    if corpus.contains(&format!("\"{name}\"")) {
        return true;
    }
    let word_end = |s: &str, at: usize| {
        s[at..]
            .chars()
            .next()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '_'))
    };
    for pattern in [format!("{module}::{type_name}"), format!("::<{type_name}")] {
        let mut from = 0;
        while let Some(i) = corpus[from..].find(&pattern) {
            let end = from + i + pattern.len();
            if word_end(corpus, end) {
                return true;
            }
            from = end;
        }
    }
    false
}

#[test]
fn every_catalog_name_is_exercised_by_a_non_gate_test() {
    let corpus = corpus();
    let debt: BTreeSet<&str> = COVERAGE_DEBT.iter().copied().collect();
    let mut problems = Vec::new();
    let entries = catalog::HOOKS
        .iter()
        .map(|h| ("hook", h.name, h.type_name, "hooks"))
        .chain(
            catalog::EVENTS
                .iter()
                .map(|e| ("event", e.name, e.type_name, "events")),
        );
    let mut keys = BTreeSet::new();
    for (kind, name, ty, module) in entries {
        let key = format!("{kind}:{name}");
        let covered = exercised(&corpus, name, ty, module);
        match (covered, debt.contains(key.as_str())) {
            (false, false) => problems.push(format!("{key} is not exercised by any non-gate test")),
            (true, true) => problems.push(format!(
                "{key} is now exercised: delete it from COVERAGE_DEBT"
            )),
            _ => {}
        }
        keys.insert(key);
    }
    for d in &debt {
        if !keys.contains(*d) {
            problems.push(format!(
                "COVERAGE_DEBT entry {d} is not a catalog name: delete it"
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "coverage ratchet:\n  {}",
        problems.join("\n  ")
    );
}

#[test]
fn gate_files_use_their_catalog_accessors() {
    let root = repo_root().join("tests/tests");
    for (file, accessor) in [
        ("gate_hooks.rs", "catalog::HOOKS"),
        ("gate_events.rs", "catalog::EVENTS"),
    ] {
        let src = std::fs::read_to_string(root.join(file)).unwrap_or_default();
        assert!(src.contains(accessor), "{file} must iterate {accessor}");
    }
}

#[test]
fn the_scanner_reads_the_site_spellings_in_use() {
    let src = "if rt.wants_hook::<hooks::A>() { rt.call::<hooks::CatchRate>(a, v) }\n\
               rt.call::< live::BattleCrit >(a, v); rt.emit::<PokemonCaught>(p); x.wrap::<H, _>(o)";
    assert_eq!(site_types(src, "call"), vec!["CatchRate", "BattleCrit"]);
    assert_eq!(site_types(src, "emit"), vec!["PokemonCaught"]);
    assert_eq!(strip_comments("a // rt.call::<hooks::X>()\nb"), "a \nb");
    assert!(exercised(
        "use hooks::CatchRate;",
        "catch.rate",
        "CatchRate",
        "hooks"
    ));
    assert!(!exercised(
        "hooks::CatchRateX",
        "catch.rate",
        "CatchRate",
        "hooks"
    ));
    assert!(exercised(
        "wrap(\"catch.rate\")",
        "catch.rate",
        "CatchRate",
        "hooks"
    ));
}
