//! Mods for `pallet run`: the bundled examples (unless `--no-default-mods`), every `--mods DIR`
//! (a mod folder or a folder of mods; a user mod replaces a bundled one with the same id),
//! loaded through the api crate's `Loader` with a [`RhaiHost`]. [`ModSession::drain_lines`]
//! gives the transcript lines: the runtime feed (mod log lines `[<mod id>] <text>`, link and
//! listener failures, load failures with their source excerpt), runtime-error excerpts and
//! `--trace` lines.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use pallet_api::catalog::common::GameVersion;
use pallet_api::content::Content;
use pallet_api::loader::{discover, EnableState, LoadStatus, Loader, ModCandidate, ModState};
use pallet_api::{Runtime, Value};

use super::bundled::BUNDLED;
use super::loader::{HostMonitor, RhaiHost};

/// The `--mods` / `--no-default-mods` / `--trace` options.
#[derive(Clone, Debug, Default)]
pub struct ModsOptions {
    pub dirs: Vec<PathBuf>,
    pub no_default_mods: bool,
    pub trace: bool,
    /// Dataset cache root for `datasets.open` (`--cache DIR`; default: the platform cache
    /// directory, see `pallet import`).
    pub cache: Option<PathBuf>,
}

/// What a run hands the loader besides the mods: `--option MOD.KEY=VALUE` values and the
/// `modData` of a `--load`ed save.
#[derive(Clone, Debug, Default)]
pub struct LoadExtras {
    /// Values from the profile's options files (`PROFILE/options/<mod id>.json`), applied
    /// first; `--option` values override them.
    pub file_options: Vec<(String, String, pallet_api::Value)>,
    pub options: Vec<(String, String, pallet_api::Value)>,
    pub mod_data: Option<pallet_api::Value>,
    /// The profile folder (`--profile`): Lua mods' `mod.storage` lives in
    /// `PROFILE/storage/<id>/` (none: storage answers `storage_unavailable`).
    pub profile: Option<PathBuf>,
}

/// Loaded mods of one run.
pub struct ModSession {
    rt: Rc<Runtime>,
    pub loader: Loader,
    monitor: HostMonitor,
    /// Feed lines already shown by [`ModSession::failure_lines`].
    shown: RefCell<BTreeSet<String>>,
    /// How often each runtime error (by mod, place and message) was seen.
    repeats: RefCell<BTreeMap<String, usize>>,
    lua: pallet_compat_lua::LuaMonitor,
    /// What the content mods made of the registries (`None`: no mod wrote content, the game
    /// plays the embedded tables).
    pub content: Option<pallet_engine::content::GameContent>,
}

impl ModSession {
    /// Discover and load. `Err` only for unusable `--mods` paths (bad usage).
    pub fn load(
        rt: &Rc<Runtime>,
        game: GameVersion,
        opts: &ModsOptions,
    ) -> Result<ModSession, String> {
        Self::load_with(rt, game, opts, &LoadExtras::default())
    }

    /// [`load`](Self::load) with user option values and a loaded save's `modData` in place
    /// before any entry runs.
    pub fn load_with(
        rt: &Rc<Runtime>,
        game: GameVersion,
        opts: &ModsOptions,
        extras: &LoadExtras,
    ) -> Result<ModSession, String> {
        let mut candidates: Vec<ModCandidate> = Vec::new();
        for dir in &opts.dirs {
            let found = match mod_dirs(dir) {
                Some(dirs) if dir.join("manifest.json").is_file() => {
                    dirs.iter().map(|d| ModCandidate::from_dir(d)).collect()
                }
                Some(_) => discover(dir).map_err(|e| format!("--mods {}: {e}", dir.display()))?,
                None => return Err(format!("--mods {}: not a folder", dir.display())),
            };
            candidates.extend(found);
        }
        let mut host = RhaiHost::new(rt);
        // Legacy Lua mods (`.lua` entries) run on the Lua shim, on the same runtime and budget.
        let mut lua = pallet_compat_lua::LuaHost::new(rt);
        lua.set_game(game);
        // `datasets.open` (RFC 0015): the service behind it is allocated on the first open only.
        if let Ok(root) = super::cache_dir::cache_dir(opts.cache.as_deref()) {
            let datasets = pallet_engine::datasets::Datasets::new(root);
            datasets.set_log(rt.log_feed());
            let datasets = Rc::new(datasets);
            host.set_datasets(datasets.clone());
            lua.set_datasets(datasets);
        }
        if !opts.no_default_mods {
            let user_ids: Vec<String> = candidates
                .iter()
                .filter_map(|c| c.manifest.as_ref().ok().map(|p| p.manifest.id.clone()))
                .collect();
            for b in BUNDLED {
                let id = b.id();
                if user_ids.contains(&id) {
                    continue;
                }
                if b.is_lua() {
                    lua.add_embedded(&id, b.file_map());
                } else {
                    host.add_embedded(&id, b.file_map());
                }
                candidates.push(b.candidate());
            }
        }
        let monitor = host.monitor();
        let lua_monitor = lua.monitor();
        // The registries start from the active version's embedded data (built lazily); at
        // freeze the merged view is compiled into the game's tables (only if a mod wrote).
        let engine_game = pallet_engine::content::engine_version(game);
        let content = match engine_game {
            Some(v) => pallet_engine::content::content_for(v),
            None => Content::new(),
        };
        let mut loader = Loader::new(game, env!("CARGO_PKG_VERSION"), content);
        let compiled = engine_game.map(|v| {
            let (check, slot) = pallet_engine::content::loader_check(v);
            loader.set_content_check(check);
            slot
        });
        lua.set_profile(extras.profile.clone());
        loader.add_host(Box::new(host));
        loader.add_host(Box::new(lua));
        for (id, key, value) in extras.file_options.iter().chain(&extras.options) {
            loader.options.set_user_value(id, key, value.clone());
        }
        if let Some(mod_data) = &extras.mod_data {
            loader.mod_data.load(mod_data);
        }
        loader.load(rt, &candidates, &EnableState::default());
        let content = compiled
            .and_then(|slot| slot.borrow_mut().take())
            .map(|mut c| {
                let owners = loader.content.borrow().owners();
                let st = loader.status();
                c.mods = owners
                    .into_iter()
                    .filter_map(|id| {
                        let row = st.mods.iter().find(|m| m.id == id)?;
                        Some((id, row.version.clone()))
                    })
                    .collect();
                c
            });
        if opts.trace {
            monitor.install_trace(rt);
        }
        Ok(ModSession {
            rt: rt.clone(),
            loader,
            monitor,
            shown: RefCell::new(BTreeSet::new()),
            repeats: RefCell::new(BTreeMap::new()),
            lua: lua_monitor,
            content,
        })
    }

    /// Contribute the Lua mods' map-script handlers given as functions to a booted game's
    /// registry (before `enter_overworld`). Returns how many.
    pub fn install_map_handlers(&self, game: &mut pallet_engine::game::Game) -> usize {
        match game.scripts_mut() {
            Some(registry) => {
                self.monitor.install_map_handlers(registry)
                    + self.lua.install_map_handlers(registry)
            }
            None => 0,
        }
    }

    /// Install the mods' item effects in a booted game (before it starts): every merged
    /// `items` record whose `effect` names an `item_effects` record a live mod keeps a `use`
    /// callback for. An `effect` naming no such record (or one whose mod is gone) is reported
    /// on the error feed and the item keeps its own effect. Returns how many were installed.
    pub fn install_item_effects(&self, game: &mut pallet_engine::game::Game) -> usize {
        let content = self.loader.content.borrow();
        let mut count = 0;
        let items: Vec<(String, String)> = content
            .registry("items")
            .map(|r| {
                r.each()
                    .filter_map(|(id, rec)| {
                        let effect = rec.get("effect")?.as_str()?.to_owned();
                        Some((id.to_owned(), effect))
                    })
                    .collect()
            })
            .unwrap_or_default();
        for (item, effect) in items {
            let flags = content.get("item_effects", &effect).cloned();
            let found = self
                .lua
                .item_effect(&effect)
                .or_else(|| self.monitor.item_effect(&effect));
            let (Some(flags), Some((owner, run))) = (flags, found) else {
                self.rt.log(
                    pallet_api::Level::Error,
                    None,
                    format!(
                        "items.{item}: effect \"{effect}\" is not a registered item effect; the item keeps its own effect"
                    ),
                );
                continue;
            };
            let flag =
                |k: &str, default: bool| flags.get(k).and_then(Value::as_bool).unwrap_or(default);
            game.item_effects_mut().insert(
                &item,
                pallet_engine::game::item_effects::ModItemEffect {
                    owner,
                    effect: effect.clone(),
                    field: flag("field", true),
                    battle: flag("battle", false),
                    run,
                },
            );
            count += 1;
        }
        count
    }

    pub fn status(&self) -> &LoadStatus {
        self.loader.status()
    }

    /// One summary line: loaded mods in load order, failed and skipped counts.
    pub fn summary(&self) -> String {
        let st = self.status();
        let failed = st
            .mods
            .iter()
            .filter(|m| m.state == ModState::Failed)
            .count();
        let other = st
            .mods
            .iter()
            .filter(|m| !matches!(m.state, ModState::Failed | ModState::Loaded))
            .count();
        format!(
            "mods: loaded {} [{}], failed {failed}, not loaded {other}",
            st.order.len(),
            st.order.join(", ")
        )
    }

    /// One line per mod that did not load, with its reason (never silent): failed mods with
    /// the manifest field, version range, dependency, conflict or entry error (with its
    /// excerpt); skipped and disabled mods with their note.
    pub fn failure_lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        for row in &self.status().mods {
            match row.state {
                ModState::Failed => {
                    let why = row.error.as_deref().unwrap_or("unknown reason");
                    let hint = if row.host.as_deref() == Some("lua") {
                        super::suggest::lua_hint(why)
                    } else {
                        String::new()
                    };
                    out.push(format!(
                        "mods: {} failed: {}{hint}",
                        row.id,
                        escape_text(why)
                    ));
                    // The loader reported entry failures to the feed as `id: error`; shown
                    // here, they are not printed again.
                    self.shown.borrow_mut().insert(format!("{}: {why}", row.id));
                }
                ModState::Skipped | ModState::Disabled => {
                    let why = row.note.as_deref().unwrap_or(row.state.as_str());
                    out.push(format!(
                        "mods: {} {}: {}",
                        row.id,
                        row.state.as_str(),
                        escape_text(why)
                    ));
                }
                ModState::Loaded | ModState::Pending => {}
            }
        }
        // Content that loaded but never plays (map scripts of a cartridge map the embedded
        // world lacks), said once per contribution.
        for n in self.content.iter().flat_map(|c| &c.notes) {
            out.push(format!(
                "mods: {} note: {}",
                n.owner,
                escape_text(&n.message)
            ));
        }
        out
    }

    /// Ids of the mods that failed to load.
    pub fn failed_ids(&self) -> Vec<String> {
        self.status()
            .mods
            .iter()
            .filter(|m| m.state == ModState::Failed)
            .map(|m| m.id.clone())
            .collect()
    }

    /// Transcript lines since the last drain. A runtime error of a link repeated at the same
    /// place is printed once and counted ([`ModSession::repeat_lines`]).
    pub fn drain_lines(&self) -> Vec<String> {
        let mut lines: Vec<String> = Vec::new();
        for d in self.rt.drain_diagnostics() {
            if self.shown.borrow_mut().remove(&d.message) {
                continue;
            }
            let key = repeat_key(&d);
            if let Some(key) = key {
                let mut repeats = self.repeats.borrow_mut();
                let n = repeats.entry(key).or_insert(0);
                *n += 1;
                if *n > 1 {
                    continue;
                }
            }
            lines.push(escape_text(&d.message));
        }
        for e in self.monitor.drain_runtime_errors() {
            let key = format!(
                "{}|{}|{}|{}|{}",
                e.mod_id, e.file, e.line, e.column, e.message
            );
            let mut repeats = self.repeats.borrow_mut();
            let n = repeats.entry(key).or_insert(0);
            *n += 1;
            if *n == 1 {
                lines.push(escape_text(&e.rendered));
            }
        }
        lines.extend(self.monitor.drain_trace());
        lines
    }

    /// `… repeated N more time(s)` for every runtime error seen more than once.
    pub fn repeat_lines(&self) -> Vec<String> {
        self.repeats
            .borrow()
            .iter()
            // Feed lines only: a runtime error's excerpt key (`mod|file|…`) repeats with them.
            .filter(|(key, n)| **n > 1 && !key.contains('|'))
            .map(|(key, n)| {
                let shown = key.replace('|', " ").replace("  ", " ");
                format!(
                    "mods: repeated {} more time(s): {}",
                    n - 1,
                    escape_text(shown.trim())
                )
            })
            .collect()
    }
}

/// The repeat key of a feed line that reports a link or listener failure (`None` for other
/// lines: mod log lines are never folded).
fn repeat_key(d: &pallet_api::Diagnostic) -> Option<String> {
    let m = &d.message;
    let failure = d.level == pallet_api::Level::Error
        && m.starts_with('[')
        && ((m.contains("] hook ") && m.contains(" failed")) || m.contains("] event "));
    failure.then(|| m.clone())
}

/// Control characters (ANSI escapes, carriage returns, NUL …) of mod-supplied text escaped as
/// `\u{..}` so a mod cannot rewrite the terminal; newlines are kept (excerpts span lines).
pub fn escape_text(text: &str) -> String {
    if !text.chars().any(|c| c.is_control() && c != '\n') {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() && c != '\n' {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

impl ModSession {
    /// Check the `--option` values against what the mods defined: an unknown mod or key, or a
    /// value the option row does not accept, is an error naming the accepted keys (with a
    /// did-you-mean).
    pub fn check_options(
        &self,
        options: &[(String, String, pallet_api::Value)],
    ) -> Result<(), String> {
        let st = self.status();
        for (id, key, value) in options {
            if !st.order.iter().any(|o| o == id) {
                return Err(format!(
                    "--option {id}.{key}: no loaded mod {id:?}{}",
                    super::suggest::did_you_mean(id, st.order.iter().map(String::as_str))
                ));
            }
            let rows = self.loader.options.schema(id);
            if !rows.iter().any(|r| &r.key == key) {
                let keys: Vec<&str> = rows.iter().map(|r| r.key.as_str()).collect();
                return Err(format!(
                    "--option {id}.{key}: {id} defines no option {key:?}{}; its options: {}",
                    super::suggest::did_you_mean(key, keys.iter().copied()),
                    if keys.is_empty() {
                        "none".to_owned()
                    } else {
                        keys.join(", ")
                    }
                ));
            }
            if &self.loader.options.for_mod(id).get(key) != value {
                return Err(format!(
                    "--option {id}.{key}: value {} is not accepted by the option row (type, choices or range)",
                    show_value(value)
                ));
            }
        }
        Ok(())
    }
}

fn show_value(v: &pallet_api::Value) -> String {
    match v {
        pallet_api::Value::Str(s) => format!("{s:?}"),
        pallet_api::Value::Int(i) => i.to_string(),
        pallet_api::Value::Float(f) => f.to_string(),
        pallet_api::Value::Bool(b) => b.to_string(),
        other => format!("{other:?}"),
    }
}

/// `MOD.KEY=VALUE` of `--option`: VALUE is a boolean (`true`/`false`), an integer, a number,
/// else a string.
pub fn parse_option(text: &str) -> Result<(String, String, pallet_api::Value), String> {
    let (path, value) = text
        .split_once('=')
        .ok_or_else(|| format!("--option {text:?}: expected MOD.KEY=VALUE"))?;
    let (id, key) = path
        .split_once('.')
        .filter(|(i, k)| !i.is_empty() && !k.is_empty())
        .ok_or_else(|| format!("--option {text:?}: expected MOD.KEY=VALUE"))?;
    let v = match value {
        "true" => pallet_api::Value::Bool(true),
        "false" => pallet_api::Value::Bool(false),
        _ => match value.parse::<i64>() {
            Ok(i) => pallet_api::Value::Int(i),
            Err(_) => match value.parse::<f64>() {
                Ok(f) if f.is_finite() => pallet_api::Value::Float(f),
                _ => pallet_api::Value::Str(value.to_owned()),
            },
        },
    };
    Ok((id.to_owned(), key.to_owned(), v))
}

/// The option values of a profile folder: `DIR/options/<mod id>.json`, each a JSON object
/// `{ "key": value }`. A missing `options` folder is no values; an unreadable or malformed
/// file is an error naming it.
pub fn profile_options(
    dir: &std::path::Path,
) -> Result<Vec<(String, String, pallet_api::Value)>, String> {
    let folder = dir.join("options");
    let entries = match std::fs::read_dir(&folder) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("{}: {e}", folder.display())),
    };
    let mut files: Vec<std::path::PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let id = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let values: BTreeMap<String, pallet_api::Value> =
            serde_json::from_str(&text).map_err(|e| {
                format!(
                    "{}: expected an object of option values: {e}",
                    path.display()
                )
            })?;
        for (key, value) in values {
            out.push((id.clone(), key, value));
        }
    }
    Ok(out)
}

/// The mod folders named by `dir`: itself when it holds a `manifest.json`, else its
/// sub-folders that do (a mods folder). `None` when `dir` is not a folder.
pub fn mod_dirs(dir: &Path) -> Option<Vec<PathBuf>> {
    if !dir.is_dir() {
        return None;
    }
    if dir.join("manifest.json").is_file() {
        return Some(vec![dir.to_owned()]);
    }
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir() && p.join("manifest.json").is_file())
        .collect();
    out.sort();
    Some(out)
}
