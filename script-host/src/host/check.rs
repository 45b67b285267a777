//! `pallet mods check DIR...`: validate manifests and compile scripts, then load every mod for
//! real in a dry-run runtime ([`check_paths`]). Findings: manifest errors and (api 1) vocabulary warnings, a missing or unsafe entry,
//! compile errors, uses of handles whose capability is not granted, imports outside the mod
//! folder or unresolvable, `hooks.wrap`/`events.on`/`events.once` of unknown hook or event
//! names, and `events.emit` outside the mod's `mod.<id>.*` namespace (literal names only).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use pallet_api::catalog::{event_info, hook_info};
use pallet_api::manifest::parse_manifest;
use pallet_api::Runtime;
use rhai::{ASTNode, Expr, Position, AST};

use super::diag::{ScriptDiagnostic, SourceMap};
use super::handles::{self, granted_names};
use super::imports::{ModFiles, PreloadError, PreloadedResolver, Preloader};
use super::loader::{compile_checked, compile_with_names, missing_capability_message};
use super::session::mod_dirs;
use super::suggest::{did_you_mean, event_names, hook_names, registry_names, unknown_method};
use super::vm::{sandboxed_engine, HostShared};

/// Findings of one mod folder.
#[derive(Clone, Debug, Default)]
pub struct ModReport {
    pub dir: PathBuf,
    /// The manifest id, when the manifest parsed.
    pub id: Option<String>,
    pub findings: Vec<ScriptDiagnostic>,
    /// Informational notes (not findings), e.g. a Lua entry left to the Lua shim.
    pub notes: Vec<String>,
    /// The mod's state after the dry-run load (`loaded`, `failed`, `skipped`, `disabled`).
    pub state: Option<String>,
}

fn finding(
    id: &str,
    file: &str,
    pos: Position,
    message: String,
    sources: &SourceMap,
) -> ScriptDiagnostic {
    ScriptDiagnostic::new(id, file, pos, message, sources)
}

/// Check one mod folder.
pub fn check_mod(dir: &Path) -> ModReport {
    let mut report = ModReport {
        dir: dir.to_owned(),
        ..ModReport::default()
    };
    let label = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| dir.display().to_string());
    let empty = SourceMap::default();
    let text = match std::fs::read_to_string(dir.join("manifest.json")) {
        Ok(t) => t,
        Err(e) => {
            report.findings.push(finding(
                &label,
                "manifest.json",
                Position::NONE,
                format!("cannot read: {e}"),
                &empty,
            ));
            return report;
        }
    };
    let parsed = match parse_manifest(&text) {
        Ok(p) => p,
        Err(e) => {
            let message = e.to_string();
            let message = message
                .strip_prefix("manifest.json: ")
                .unwrap_or(&message)
                .to_owned();
            report
                .findings
                .push(super::manifest_diag::finding(&label, &text, message));
            return report;
        }
    };
    let m = &parsed.manifest;
    report.id = Some(m.id.clone());
    for w in &parsed.warnings {
        report.findings.push(super::manifest_diag::finding(
            &m.id,
            &text,
            format!("warning: {w}"),
        ));
    }
    if m.entry.ends_with(".lua") {
        // Legacy Lua mods: compiled (never run) by the Lua shim's checker.
        let lua = pallet_compat_lua::check::check_mod(dir, m);
        for f in lua.findings {
            let pos = f
                .line
                .and_then(|l| u16::try_from(l).ok())
                .map_or(Position::NONE, |l| Position::new(l, 1));
            report
                .findings
                .push(finding(&m.id, &f.file, pos, f.message, &empty));
        }
        for n in lua.notes {
            let at = n.line.map(|l| format!(":{l}")).unwrap_or_default();
            let hint = super::suggest::lua_hint(&n.message);
            report
                .notes
                .push(format!("{}: {}{at}: {}{hint}", m.id, n.file, n.message));
        }
        return report;
    }
    if !m.entry.ends_with(".rhai") {
        report.notes.push(format!(
            "{}: entry {} is not Rhai; its script is checked by the Lua shim",
            m.id, m.entry
        ));
        if !dir.join(&m.entry).is_file() {
            report.findings.push(finding(
                &m.id,
                "manifest.json",
                Position::NONE,
                format!("entry file not found: {}", m.entry),
                &empty,
            ));
        }
        return report;
    }
    let files = match ModFiles::dir(dir) {
        Ok(f) => f,
        Err(e) => {
            report
                .findings
                .push(finding(&m.id, "manifest.json", Position::NONE, e, &empty));
            return report;
        }
    };
    let entry_text = match files.read(&m.entry) {
        Ok(t) => t,
        Err(e) => {
            report.findings.push(finding(
                &m.id,
                "manifest.json",
                Position::NONE,
                format!("entry: {e}"),
                &empty,
            ));
            return report;
        }
    };
    let mut sources = SourceMap::default();
    sources.insert(&m.entry, &entry_text);

    // A check engine: same sandbox, handles registered, nothing runs.
    let rt = Rc::new(Runtime::new());
    let host = Rc::new(HostShared::new(&rt));
    let mut engine = sandboxed_engine(&host, None);
    handles::register_all(&mut engine);
    let names = granted_names(&m.granted_capabilities());

    let ast = match compile_checked(&engine, &names, &m.id, &m.entry, &entry_text, &sources) {
        Ok(ast) => ast,
        Err(diags) => {
            report.findings.extend(diags);
            return report;
        }
    };
    let resolver = PreloadedResolver::default();
    let mut read = BTreeMap::new();
    let compile = |_file: &str, src: &str| compile_with_names(&engine, &names, src);
    let outcome = Preloader {
        files: &files,
        resolver: &resolver,
        compile: &compile,
        evaluate: None,
    }
    .run(&ast, &m.entry, &mut read);
    for (file, src) in &read {
        sources.insert(file, src);
    }
    match outcome {
        Ok(()) => {}
        Err(PreloadError::At { file, pos, message }) => {
            report
                .findings
                .push(finding(&m.id, &file, pos, message, &sources));
        }
        Err(PreloadError::Parse { file, error }) => {
            let text = sources.get(&file).unwrap_or_default().to_owned();
            match compile_checked(&engine, &names, &m.id, &file, &text, &sources) {
                Err(diags) => report.findings.extend(diags),
                Ok(_) => report
                    .findings
                    .push(ScriptDiagnostic::from_parse(&m.id, &file, &error, &sources)),
            }
        }
        Err(PreloadError::Eval { file, error }) => {
            report
                .findings
                .push(ScriptDiagnostic::from_eval(&m.id, &file, &error, &sources));
        }
    }

    // Static name checks over the entry and every module read.
    let mut asts = vec![(m.entry.clone(), ast)];
    for (file, src) in &read {
        if let Ok(a) = compile_with_names(&engine, &names, src) {
            asts.push((file.clone(), a));
        }
    }
    for (file, ast) in &asts {
        for (message, pos) in method_findings(ast, &names) {
            report
                .findings
                .push(finding(&m.id, file, pos, message, &sources));
        }
        for (what, name, pos) in api_names(ast) {
            let problem = match what {
                "wrap" if hook_info(&name).is_none() => Some(format!(
                    "unknown hook {name:?}{}",
                    did_you_mean(&name, hook_names())
                )),
                "on" | "once" if event_info(&name).is_none() && !name.starts_with("mod.") => {
                    Some(format!(
                        "unknown event {name:?}{}",
                        did_you_mean(&name, event_names())
                    ))
                }
                "content" if !known_registry(&name) => Some(format!(
                    "unknown content registry {name:?}{}",
                    did_you_mean(&name, registry_names())
                )),
                "emit"
                    if !name.starts_with(&format!("mod.{}.", m.id))
                        || name.len() <= m.id.len() + 5 =>
                {
                    Some(format!(
                        "events.emit({name:?}): mods may only emit mod.{}.* events",
                        m.id
                    ))
                }
                _ => None,
            };
            if let Some(message) = problem {
                report
                    .findings
                    .push(finding(&m.id, file, pos, message, &sources));
            }
        }
    }
    // Capabilities the manifest declares: ensure none is unknown to the Rhai host's handles
    // (the manifest parser already rejected unknown names).
    let _ = missing_capability_message;
    report
}

fn known_registry(name: &str) -> bool {
    registry_names().any(|r| r == name)
        || pallet_api::content::REGISTRY_ALIASES
            .iter()
            .any(|(alias, _)| *alias == name)
}

/// `handle.method(…)` calls of methods the handle does not have (or with an argument count no
/// form of it takes), each with a did-you-mean and the handle's methods.
pub fn method_findings(ast: &AST, granted: &[&str]) -> Vec<(String, Position)> {
    let mut out = Vec::new();
    ast.walk(&mut |path: &[ASTNode]| {
        if let Some(ASTNode::Expr(Expr::Dot(x, _, _))) = path.last() {
            if let (Expr::Variable(v, _, _), Expr::MethodCall(call, pos)) = (&x.lhs, &x.rhs) {
                let handle = v.1.as_str();
                if granted.contains(&handle) {
                    if let Some(msg) = unknown_method(handle, call.name.as_str(), call.args.len()) {
                        out.push((msg, *pos));
                    }
                }
            }
        }
        true
    });
    out
}

/// `(method, literal first argument, position)` of every `hooks.wrap|events.on|once|emit` call
/// (and `"content"` for the registry argument of every `content.*` call).
pub fn api_names(ast: &AST) -> Vec<(&'static str, String, Position)> {
    let mut out = Vec::new();
    ast.walk(&mut |path: &[ASTNode]| {
        if let Some(ASTNode::Expr(Expr::Dot(x, _, _))) = path.last() {
            if let (Expr::Variable(v, _, _), Expr::MethodCall(call, _)) = (&x.lhs, &x.rhs) {
                let method: Option<&'static str> = match (v.1.as_str(), call.name.as_str()) {
                    ("hooks", "wrap") => Some("wrap"),
                    ("events", "on") => Some("on"),
                    ("events", "once") => Some("once"),
                    ("events", "emit") => Some("emit"),
                    ("content", _) => Some("content"),
                    _ => None,
                };
                if let (Some(method), Some(Expr::StringConstant(s, pos))) =
                    (method, call.args.first())
                {
                    out.push((method, s.to_string(), *pos));
                }
            }
        }
        true
    });
    out
}

/// Check every mod under `paths`: the static findings of each, then the real load of all of
/// them together (with the bundled mods, as `pallet run` loads them) in a dry-run runtime:
/// manifest, version range, dependencies and conflicts, compile, entry chunk, registrations.
/// What fails at run time fails here with the same message. `Err(path)` names the first
/// argument that is not a folder.
pub fn check_paths(paths: &[PathBuf]) -> Result<Vec<ModReport>, PathBuf> {
    let mut dirs = Vec::new();
    for p in paths {
        dirs.extend(mod_dirs(p).ok_or_else(|| p.clone())?);
    }
    let mut out: Vec<ModReport> = dirs.iter().map(|d| check_mod(d)).collect();
    if out.is_empty() {
        return Ok(out);
    }
    let rt = Rc::new(Runtime::new());
    let opts = super::session::ModsOptions {
        dirs: dirs.clone(),
        ..Default::default()
    };
    let Ok(session) =
        super::session::ModSession::load(&rt, pallet_api::catalog::common::GameVersion::Red, &opts)
    else {
        return Ok(out);
    };
    let status = session.status();
    for report in &mut out {
        let dir_name = report
            .dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let row = status.mods.iter().find(|r| {
            r.dir_name == dir_name
                && match &report.id {
                    Some(id) => r.id == *id || r.id == format!("{id} (folder {dir_name})"),
                    None => r.id == format!("{dir_name} (folder)"),
                }
        });
        let Some(row) = row else { continue };
        report.state = Some(row.state.as_str().to_owned());
        let id = report.id.clone().unwrap_or_else(|| dir_name.clone());
        match row.state {
            pallet_api::loader::ModState::Failed => {
                let error = row.error.clone().unwrap_or_default();
                // A static finding at the place the load failed already reports it (with its
                // exact column); otherwise the load's own message (the one `pallet run`
                // prints) is added.
                if report.findings.iter().any(|f| {
                    error.contains(&f.message)
                        || (f.line > 0 && error.contains(&format!("{}:{}:", f.file, f.line)))
                }) {
                    continue;
                }
                // A manifest refusal (a missing dependency, a version range) with the manifest
                // line it is about, when its quoted name is found there.
                if row.host.is_none() {
                    if let Ok(text) = std::fs::read_to_string(report.dir.join("manifest.json")) {
                        let mut d = super::manifest_diag::finding(&id, &text, error.clone());
                        if d.line > 0 {
                            d.rendered = super::session::escape_text(&d.rendered);
                            report.findings.push(d);
                            continue;
                        }
                    }
                }
                // Entry failures name their own file (and line); the others are the manifest's.
                let file = if row.host.is_some() {
                    "entry"
                } else {
                    "manifest.json"
                };
                let error = if row.host.as_deref() == Some("lua") {
                    format!("{error}{}", super::suggest::lua_hint(&error))
                } else {
                    error
                };
                let rendered = if error.starts_with('[') || error.starts_with("Error") {
                    error.clone()
                } else if row.host.is_some() {
                    format!("[{id}] {error}")
                } else {
                    format!("[{id}] manifest.json: {error}")
                };
                report.findings.push(ScriptDiagnostic {
                    mod_id: id.clone(),
                    file: file.into(),
                    line: 0,
                    column: 0,
                    message: error,
                    rendered: super::session::escape_text(&rendered),
                });
            }
            pallet_api::loader::ModState::Skipped | pallet_api::loader::ModState::Disabled => {
                report.notes.push(format!(
                    "{id}: {} for red: {}",
                    row.state.as_str(),
                    row.note.as_deref().unwrap_or("")
                ));
            }
            _ => {}
        }
    }
    Ok(out)
}
