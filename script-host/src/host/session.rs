//! Mods for `pallet run`: the bundled examples (unless `--no-default-mods`), every `--mods DIR`
//! (a mod folder or a folder of mods; a user mod replaces a bundled one with the same id),
//! loaded through the api crate's `Loader` with a [`RhaiHost`]. [`ModSession::drain_lines`]
//! gives the transcript lines: the runtime feed (mod log lines `[<mod id>] <text>`, link and
//! listener failures, load failures with their source excerpt), runtime-error excerpts and
//! `--trace` lines.

use std::path::PathBuf;
use std::rc::Rc;

use pallet_api::catalog::common::GameVersion;
use pallet_api::content::Content;
use pallet_api::loader::{discover, EnableState, LoadStatus, Loader, ModCandidate, ModState};
use pallet_api::Runtime;

use super::bundled::BUNDLED;
use super::check::mod_dirs;
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

/// Loaded mods of one run.
pub struct ModSession {
    rt: Rc<Runtime>,
    pub loader: Loader,
    monitor: HostMonitor,
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
        if let Ok(root) = crate::cmd_import::cache_dir(opts.cache.as_deref()) {
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
        loader.add_host(Box::new(host));
        loader.add_host(Box::new(lua));
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
            content,
        })
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

    /// Transcript lines since the last drain.
    pub fn drain_lines(&self) -> Vec<String> {
        let mut lines: Vec<String> = self
            .rt
            .drain_diagnostics()
            .into_iter()
            .map(|d| d.message)
            .collect();
        for e in self.monitor.drain_runtime_errors() {
            lines.push(e.rendered);
        }
        lines.extend(self.monitor.drain_trace());
        lines
    }
}
