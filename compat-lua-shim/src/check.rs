//! `pallet mods check` for Lua mods: compile (never run) the entry and every `.lua` file of the
//! mod folder, and point at what will not work on Pallet. Nothing executes: chunks are parsed
//! by a bare Lua state with no libraries.
//!
//! * **Findings** (the mod will fail): a syntax error (file and line), a bytecode file, an entry
//!   that is missing or unreadable.
//! * **Notes** (it loads, but part of it does nothing here): `hooks:wrap` of a hook name Pallet
//!   does not raise, `events:emit` outside `mod.<id>.*`, `require` of engine internals
//!   (`src.*`), LÖVE calls (`love.*`) — literal names only.

use std::path::Path;

use mlua::{Lua, LuaOptions, StdLib};
use pallet_api::catalog::hook_info;
use pallet_api::manifest::Manifest;

use crate::files::ModFiles;

/// One finding or note, pointing at a file and (when known) a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LuaFinding {
    pub file: String,
    pub line: Option<usize>,
    pub message: String,
}

/// What `check_mod` found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LuaReport {
    pub findings: Vec<LuaFinding>,
    pub notes: Vec<LuaFinding>,
}

/// The line number in a Lua error message `chunk:LINE: message`.
fn line_of(message: &str) -> (Option<usize>, String) {
    let mut parts = message.splitn(3, ':');
    let (_, line, rest) = (parts.next(), parts.next(), parts.next());
    match (line.and_then(|l| l.trim().parse().ok()), rest) {
        (Some(l), Some(rest)) => (Some(l), rest.trim().to_owned()),
        _ => (None, message.to_owned()),
    }
}

/// Literal first arguments of `pattern("…"` / `pattern('…'` calls, with their lines.
fn literal_calls(text: &str, pattern: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let code = line.split("--").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find(pattern) {
            rest = &rest[at + pattern.len()..];
            let trimmed = rest.trim_start();
            let Some(quote) = trimmed.chars().next().filter(|c| *c == '"' || *c == '\'') else {
                continue;
            };
            if let Some(end) = trimmed[1..].find(quote) {
                out.push((i + 1, trimmed[1..1 + end].to_owned()));
            }
        }
    }
    out
}

/// Check the Lua mod in `dir` (its manifest already parsed).
pub fn check_mod(dir: &Path, manifest: &Manifest) -> LuaReport {
    let mut report = LuaReport::default();
    let files = ModFiles::Dir(dir.to_owned());
    let finding = |file: &str, line: Option<usize>, message: String| LuaFinding {
        file: file.to_owned(),
        line,
        message,
    };
    let mut paths = match files.list("") {
        Ok(p) => p,
        Err(e) => {
            report.findings.push(finding("manifest.json", None, e));
            return report;
        }
    };
    paths.retain(|p| p.ends_with(".lua"));
    if !paths.contains(&manifest.entry) {
        report.findings.push(finding(
            "manifest.json",
            None,
            format!("entry file not found: {}", manifest.entry),
        ));
        return report;
    }
    let Ok(lua) = Lua::new_with(StdLib::NONE, LuaOptions::default()) else {
        report.findings.push(finding(
            "manifest.json",
            None,
            "cannot create a Lua state to check the mod".to_owned(),
        ));
        return report;
    };
    let own_prefix = format!("mod.{}.", manifest.id);
    for path in &paths {
        let text = match files.read(path) {
            Ok(t) => t,
            Err(e) => {
                report.findings.push(finding(path, None, e));
                continue;
            }
        };
        if text.as_bytes().first() == Some(&0x1b) {
            report.findings.push(finding(
                path,
                None,
                "a bytecode file: mods load Lua source text only".to_owned(),
            ));
            continue;
        }
        let compiled = lua
            .load(text.as_str())
            .set_name(format!("={path}"))
            .set_mode(mlua::chunk::ChunkMode::Text)
            .into_function();
        if let Err(e) = compiled {
            let (line, message) = line_of(&crate::errors::short(&e));
            report.findings.push(finding(path, line, message));
            continue;
        }
        for (line, name) in literal_calls(&text, "hooks:wrap(") {
            if hook_info(&name).is_none() {
                report.notes.push(finding(
                    path,
                    Some(line),
                    format!("hook {name:?} is not raised by Pallet; this wrapper never runs"),
                ));
            }
        }
        for (line, name) in literal_calls(&text, "events:emit(") {
            if !name.starts_with(&own_prefix) || name.len() <= own_prefix.len() {
                report.notes.push(finding(
                    path,
                    Some(line),
                    format!(
                        "events:emit({name:?}) raises: mods may only emit {own_prefix}* events"
                    ),
                ));
            }
        }
        for (line, name) in literal_calls(&text, "require(") {
            if name == "src" || name.starts_with("src.") || name.starts_with("src/") {
                report.notes.push(finding(
                    path,
                    Some(line),
                    format!("require({name:?}): engine internals of the Lua engine are not provided (pcall probes take their fallback)"),
                ));
            }
        }
        if let Some(line) = text.lines().position(|l| {
            let code = l.split("--").next().unwrap_or("");
            code.replace("love.math.random", "").contains("love.")
        }) {
            report.notes.push(finding(
                path,
                Some(line + 1),
                "uses LÖVE (love.*): Pallet has no LÖVE runtime (only love.math.random); rendering and platform calls do not load".to_owned(),
            ));
        }
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_calls_and_lines() {
        let text = "mod.hooks:wrap(\"render.hud\", f)\n-- mod.hooks:wrap(\"x\")\nlocal ok = pcall(require, 'src.core.Game') require('src.world.Map')";
        assert_eq!(
            literal_calls(text, "hooks:wrap("),
            vec![(1, "render.hud".to_owned())]
        );
        assert_eq!(
            literal_calls(text, "require("),
            vec![(3, "src.world.Map".to_owned())]
        );
        assert_eq!(
            line_of("main.lua:12: '=' expected near 'x'"),
            (Some(12), "'=' expected near 'x'".to_owned())
        );
    }
}
