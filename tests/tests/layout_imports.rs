//! Module layout (issue #22): no two modules of a crate import each other.
//!
//! Each crate's `src/` is read as a module tree (`a/b.rs` and `a/b/mod.rs` are `a::b`; `main.rs`
//! and `bin/` are the binary's, not the library's). Every `crate::…` and `super::…` path outside
//! comments and test modules (`tests`, `*_tests`, an inline `#[cfg(test)] mod … {`) is an
//! edge from the module that writes it to the module it names, counted between the two
//! siblings under their lowest common ancestor (a parent using its own child is not an edge).
//! A strongly connected component of two or more siblings is an import cycle.
//!
//! No crate has a cycle left, top-level or nested: [`KNOWN_TOP`] and [`KNOWN_NESTED`] (the
//! debt lists the check began with) are empty, so any cycle fails.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type ModPath = Vec<String>;

const CRATES: &[&str] = &[
    "api",
    "engine",
    "script-host",
    "compat-lua-shim",
    "benches",
    "tests",
];

/// Top-level import cycles (debt: may only shrink). None is left; a new one fails.
const KNOWN_TOP: &[(&str, &[&str])] = &[];

/// Nested import cycles that predate the check (debt: may only shrink). None is left.
const KNOWN_NESTED: &[(&str, &[&str])] = &[];

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn rs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rs_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The module a file of `src` defines, `None` for the binary's files.
fn module_of(src: &Path, file: &Path) -> Option<ModPath> {
    let rel = file.strip_prefix(src).ok()?.with_extension("");
    let mut parts: ModPath = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(parts.first().map(String::as_str), Some("main" | "bin")) {
        return None;
    }
    if parts.last().is_some_and(|l| l == "mod") || parts == ["lib"] {
        parts.pop();
    }
    Some(parts)
}

fn is_test_module(m: &ModPath) -> bool {
    m.iter().any(|c| c == "tests" || c.ends_with("_tests"))
}

/// The file's code: line comments removed (outside string literals), cut at an inline
/// `#[cfg(test)] mod … {`.
fn code_of(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate() {
        let next = lines.get(i + 1).map_or("", |l| l.trim());
        if line.trim() == "#[cfg(test)]" && next.starts_with("mod ") && next.ends_with('{') {
            break;
        }
        let (mut in_str, mut escaped, mut cut) = (false, false, line.len());
        let b = line.as_bytes();
        for j in 0..b.len() {
            match b[j] {
                _ if escaped => escaped = false,
                b'\\' if in_str => escaped = true,
                b'"' => in_str = !in_str,
                b'/' if !in_str && b.get(j + 1) == Some(&b'/') => {
                    cut = j;
                    break;
                }
                _ => {}
            }
        }
        out.push_str(&line[..cut]);
        out.push('\n');
    }
    out
}

fn ident(s: &[u8], mut i: usize) -> (Option<String>, usize) {
    let start = i;
    while i < s.len() && (s[i].is_ascii_alphanumeric() || s[i] == b'_') {
        i += 1;
    }
    if i == start || s[start].is_ascii_digit() {
        (None, start)
    } else {
        (Some(String::from_utf8_lossy(&s[start..i]).into_owned()), i)
    }
}

fn skip_ws(s: &[u8], mut i: usize) -> usize {
    while i < s.len() && s[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// The paths of one use tree starting at `i` (after `crate::`), each as far as it has
/// identifiers, appended to `out` under `prefix`. Returns the position after the tree.
fn use_tree(s: &[u8], i: usize, prefix: &ModPath, out: &mut Vec<ModPath>) -> usize {
    let mut i = skip_ws(s, i);
    let mut path = prefix.clone();
    loop {
        if s.get(i) == Some(&b'{') {
            i += 1;
            loop {
                i = skip_ws(s, i);
                match s.get(i) {
                    None => return i,
                    Some(b'}') => return i + 1,
                    Some(b',') => i += 1,
                    _ => {
                        let before = i;
                        i = use_tree(s, i, &path, out);
                        if i == before {
                            i += 1;
                        }
                    }
                }
            }
        }
        let (name, j) = ident(s, i);
        match name {
            Some(n) => {
                path.push(n);
                i = j;
                if s.get(i..i + 2) == Some(b"::") {
                    i += 2;
                    continue;
                }
                out.push(path);
                return i;
            }
            None => {
                if !path.is_empty() {
                    out.push(path);
                }
                return i;
            }
        }
    }
}

/// `(levels up, path)` of every `crate::`/`super::` path in `code` (`None` levels: `crate`).
fn paths(code: &str) -> Vec<(Option<usize>, ModPath)> {
    let s = code.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < s.len() {
        let boundary = i == 0 || !(s[i - 1].is_ascii_alphanumeric() || s[i - 1] == b'_');
        let kw = if !boundary {
            None
        } else if s[i..].starts_with(b"crate::") {
            Some((None, 7))
        } else if s[i..].starts_with(b"super::") {
            Some((Some(1), 7))
        } else {
            None
        };
        let Some((mut up, len)) = kw else {
            i += 1;
            continue;
        };
        i += len;
        while up.is_some() && s[i..].starts_with(b"super::") {
            up = up.map(|u| u + 1);
            i += 7;
        }
        let mut out = Vec::new();
        i = use_tree(s, i, &Vec::new(), &mut out);
        found.extend(out.into_iter().map(|p| (up, p)));
    }
    found
}

/// Import cycles among siblings of the crate whose sources are in `src`: each a sorted list of
/// `a::b` names, the list sorted.
fn cycles(src: &Path) -> Vec<Vec<String>> {
    let mut files = Vec::new();
    rs_files(src, &mut files);
    let modules: Vec<(PathBuf, ModPath)> = files
        .into_iter()
        .filter_map(|f| module_of(src, &f).map(|m| (f, m)))
        .collect();
    let known: BTreeSet<ModPath> = modules.iter().map(|(_, m)| m.clone()).collect();
    let mut edges: BTreeMap<ModPath, BTreeSet<ModPath>> = BTreeMap::new();
    for (file, from) in &modules {
        if is_test_module(from) {
            continue;
        }
        let code = code_of(&std::fs::read_to_string(file).unwrap());
        for (up, path) in paths(&code) {
            let base: ModPath = match up {
                None => Vec::new(),
                Some(n) if n <= from.len() => from[..from.len() - n].to_vec(),
                Some(_) => continue,
            };
            let mut target = base;
            for seg in path {
                target.push(seg);
                if !known.contains(&target) {
                    target.pop();
                    break;
                }
            }
            let common = from.iter().zip(&target).take_while(|(a, b)| a == b).count();
            if common == from.len() || common == target.len() {
                continue; // the same module, or an ancestor and its descendant
            }
            let (a, b) = (from[..=common].to_vec(), target[..=common].to_vec());
            edges.entry(a).or_default().insert(b);
        }
    }
    strongly_connected(&edges)
        .into_iter()
        .filter(|c| c.len() > 1)
        .map(|c| {
            let mut names: Vec<String> = c.iter().map(|m| m.join("::")).collect();
            names.sort();
            names
        })
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect()
}

/// Tarjan's algorithm, iterative.
fn strongly_connected(edges: &BTreeMap<ModPath, BTreeSet<ModPath>>) -> Vec<Vec<ModPath>> {
    let nodes: BTreeSet<&ModPath> = edges
        .iter()
        .flat_map(|(a, bs)| std::iter::once(a).chain(bs))
        .collect();
    let index_of: BTreeMap<&ModPath, usize> =
        nodes.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let nodes: Vec<&ModPath> = nodes.into_iter().collect();
    let succ: Vec<Vec<usize>> = nodes
        .iter()
        .map(|n| {
            edges
                .get(*n)
                .map_or(Vec::new(), |bs| bs.iter().map(|b| index_of[b]).collect())
        })
        .collect();
    let n = nodes.len();
    let (mut index, mut low, mut on) = (vec![usize::MAX; n], vec![0; n], vec![false; n]);
    let (mut stack, mut out, mut next) = (Vec::new(), Vec::new(), 0);
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        let mut work = vec![(root, 0usize)];
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on[root] = true;
        while let Some(&mut (v, ref mut k)) = work.last_mut() {
            if let Some(&w) = succ[v].get(*k) {
                *k += 1;
                if index[w] == usize::MAX {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on[w] = true;
                    work.push((w, 0));
                } else if on[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut component = Vec::new();
                while let Some(w) = stack.pop() {
                    on[w] = false;
                    component.push(nodes[w].clone());
                    if w == v {
                        break;
                    }
                }
                out.push(component);
            }
        }
    }
    out
}

#[test]
fn no_two_top_level_modules_of_a_crate_import_each_other() {
    let known: BTreeSet<(String, Vec<String>)> = KNOWN_TOP
        .iter()
        .map(|(k, c)| (k.to_string(), c.iter().map(|s| s.to_string()).collect()))
        .collect();
    let mut found = Vec::new();
    let mut seen = BTreeSet::new();
    for krate in CRATES {
        for c in cycles(&workspace().join(krate).join("src")) {
            if c[0].contains("::") {
                continue;
            }
            let key = (krate.to_string(), c);
            if !known.contains(&key) {
                found.push(format!("{krate}: {}", key.1.join(" <-> ")));
            }
            seen.insert(key);
        }
    }
    let gone: Vec<_> = known.difference(&seen).collect();
    assert!(
        gone.is_empty(),
        "a known top-level cycle shrank or is gone: update KNOWN_TOP to what is left: {gone:?}"
    );
    assert!(
        found.is_empty(),
        "import cycles between top-level modules (move the shared items into a leaf module, \
         or pass a function or trait object down):\n{}",
        found.join("\n")
    );
}

#[test]
fn nested_import_cycles_only_shrink() {
    let known: BTreeSet<(String, Vec<String>)> = KNOWN_NESTED
        .iter()
        .map(|(k, c)| (k.to_string(), c.iter().map(|s| s.to_string()).collect()))
        .collect();
    let mut now = BTreeSet::new();
    for krate in CRATES {
        for c in cycles(&workspace().join(krate).join("src")) {
            if c[0].contains("::") {
                now.insert((krate.to_string(), c));
            }
        }
    }
    let new: Vec<_> = now.difference(&known).collect();
    let gone: Vec<_> = known.difference(&now).collect();
    assert!(
        new.is_empty() && gone.is_empty(),
        "nested import cycles changed.\nnew or grown (break them):\n{new:#?}\n\
         shrunk or gone (update KNOWN_NESTED to what is left):\n{gone:#?}"
    );
}

/// The scan is not vacuous: it sees the edges it must see, and finds a planted cycle.
#[test]
fn the_scan_sees_grouped_and_relative_imports() {
    let code = code_of(
        "use crate::{a::{b, c::D}, e};\n// use crate::commented;\nlet s = \"// crate::in_string\"; \
         super::super::f::g();\n#[cfg(test)]\nmod tests {\n    use crate::hidden;\n}\n",
    );
    let got: Vec<(Option<usize>, String)> = paths(&code)
        .into_iter()
        .map(|(u, p)| (u, p.join("::")))
        .collect();
    assert_eq!(
        got,
        vec![
            (None, "a::b".to_owned()),
            (None, "a::c::D".to_owned()),
            (None, "e".to_owned()),
            (None, "in_string".to_owned()),
            (Some(2), "f::g".to_owned()),
        ]
    );

    let dir = std::env::temp_dir().join(format!("pallet-layout-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src/outer")).unwrap();
    let write = |p: &str, t: &str| std::fs::write(dir.join("src").join(p), t).unwrap();
    write("lib.rs", "pub mod one;\npub mod two;\npub mod outer;\n");
    write("one.rs", "use crate::two::Two;\n");
    write(
        "two.rs",
        "pub struct Two;\nfn f() { crate::outer::x::y(); }\n",
    );
    write("outer/mod.rs", "pub mod x;\npub mod y;\n");
    write("outer/x.rs", "use super::y::Y;\n");
    write("outer/y.rs", "pub struct Y;\nuse crate::outer::x;\n");
    assert_eq!(
        cycles(&dir.join("src")),
        vec![vec!["outer::x".to_owned(), "outer::y".to_owned()]]
    );
    write(
        "outer/x.rs",
        "use super::y::Y;\nfn g() { crate::one::h(); }\n",
    );
    write("one.rs", "use crate::two::Two;\npub fn h() {}\n");
    write(
        "two.rs",
        "pub struct Two;\nfn f() { crate::outer::x::y(); }\n",
    );
    // two -> outer -> one -> two
    assert_eq!(
        cycles(&dir.join("src")),
        vec![
            vec!["one".to_owned(), "outer".to_owned(), "two".to_owned()],
            vec!["outer::x".to_owned(), "outer::y".to_owned()],
        ]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The shim's raw Lua C API goes through one module, `capi` (issue #22): no other source file
/// of the shim names `mlua::ffi` (or an `ffi::` path), comments aside.
#[test]
fn the_raw_lua_c_api_is_used_only_through_capi() {
    let src = workspace().join("compat-lua-shim").join("src");
    let mut files = Vec::new();
    rs_files(&src, &mut files);
    assert!(files.len() > 10, "the scan sees the shim's sources");
    let offenders: Vec<String> = files
        .iter()
        .filter(|f| f.file_name().is_some_and(|n| n != "capi.rs"))
        .filter(|f| {
            let text = std::fs::read_to_string(f).unwrap();
            text.lines()
                .map(|l| l.split("//").next().unwrap_or(""))
                .map(str::trim_start)
                .any(|l| {
                    l.contains("ffi::")
                        || (l.starts_with("use mlua") && l.contains("ffi"))
                        || l.starts_with("ffi,")
                })
        })
        .map(|f| f.display().to_string())
        .collect();
    assert!(
        offenders.is_empty(),
        "raw C API outside capi.rs: {offenders:?}"
    );
}
