//! [`RhaiHost`]: runs `.rhai` entries for the api crate's loader (`ModHost`).
//!
//! Per mod: build a sandboxed engine, put the granted handles in scope, compile the entry with
//! strict variables (a use of an ungranted handle is reported as the missing capability, with
//! its position), preload every imported module from the mod's own folder, run the entry once
//! under the load budget. Any failure is a [`ScriptDiagnostic`] (file, line, column, caret
//! excerpt) returned to the loader, which rolls the mod back and records it in its status.

use std::cell::{OnceCell, RefCell};
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use pallet_api::facades::DatasetsApi;
use pallet_api::loader::{ModContext, ModHost};
use pallet_api::manifest::{Capability, Manifest};
use pallet_api::Runtime;
use pallet_engine::world::map_scripts::MapScriptRegistry;
use rhai::{Engine, ParseErrorType, Position, Scope, AST};

use super::diag::{ScriptDiagnostic, SourceMap};
use super::handles::{self, capability_of, granted_names, HandleServices};
use super::imports::{
    evaluate_module, import_sites, module_file, ModFiles, PreloadError, PreloadedResolver,
    Preloader,
};
use super::limits::LIMITS;
use super::vm::{install_handles, sandboxed_engine, HostShared, ModVm};

/// The Rhai `ModHost`.
pub struct RhaiHost {
    shared: Rc<HostShared>,
    embedded: BTreeMap<String, Rc<BTreeMap<String, String>>>,
    vms: Vec<Rc<ModVm>>,
    load_errors: Vec<ScriptDiagnostic>,
}

impl RhaiHost {
    /// A host bound to the game's runtime (handles keep a weak reference to it).
    pub fn new(rt: &Rc<Runtime>) -> Self {
        RhaiHost {
            shared: Rc::new(HostShared::new(rt)),
            embedded: BTreeMap::new(),
            vms: Vec::new(),
            load_errors: Vec::new(),
        }
    }

    /// Serve the files of mod `id` from memory (bundled mods; in-memory fixtures).
    pub fn add_embedded(&mut self, id: &str, files: BTreeMap<String, String>) {
        self.embedded.insert(id.to_owned(), Rc::new(files));
    }

    /// The dataset service behind `datasets.open` (RFC 0015).
    pub fn set_datasets(&self, service: Rc<dyn DatasetsApi>) {
        *self.shared.datasets.borrow_mut() = Some(service);
    }

    /// Record trace lines for every Rhai link and listener call.
    pub fn set_trace(&self, on: bool) {
        self.shared.trace.set(on);
    }

    /// A handle on this host's feeds that stays usable after the loader took the host.
    pub fn monitor(&self) -> HostMonitor {
        HostMonitor(self.shared.clone())
    }

    /// Load failures of this host (each also went to the loader's status).
    pub fn load_errors(&self) -> &[ScriptDiagnostic] {
        &self.load_errors
    }

    /// Ids of the mods this host loaded.
    pub fn loaded(&self) -> Vec<&str> {
        self.vms.iter().map(|v| v.id.as_str()).collect()
    }

    fn fail(&mut self, diags: Vec<ScriptDiagnostic>) -> String {
        let text = diags
            .iter()
            .map(|d| d.rendered.as_str())
            .collect::<Vec<_>>()
            .join("\n");
        self.load_errors.extend(diags);
        text
    }

    fn load(&mut self, ctx: &mut ModContext<'_>) -> Result<Rc<ModVm>, Vec<ScriptDiagnostic>> {
        let m = ctx.manifest;
        let plain = |msg: String| {
            vec![ScriptDiagnostic::new(
                &m.id,
                &m.entry,
                Position::NONE,
                msg,
                &SourceMap::default(),
            )]
        };
        let rt = self
            .shared
            .rt
            .upgrade()
            .ok_or_else(|| plain("the runtime this host was made for is gone".to_owned()))?;
        if !std::ptr::eq(Rc::as_ptr(&rt), ctx.runtime) {
            return Err(plain(
                "this Rhai host is bound to a different runtime".to_owned(),
            ));
        }
        let files = match ctx.root {
            Some(root) => ModFiles::dir(root).map_err(plain)?,
            None => self
                .embedded
                .get(&m.id)
                .cloned()
                .map(ModFiles::Embedded)
                .ok_or_else(|| plain("no files for this mod".to_owned()))?,
        };
        let text = files.read(&m.entry).map_err(plain)?;
        let names = granted_names(&ctx.capabilities);
        let sources = Rc::new(RefCell::new(SourceMap::default()));
        sources.borrow_mut().insert(&m.entry, &text);
        let resolver = PreloadedResolver::default();
        let info = handles::services::ModInfo {
            id: m.id.clone(),
            name: m.name.clone(),
            version: m.version.clone(),
            api: m.api.into(),
        };
        let host = self.shared.clone();
        let vm = Rc::new_cyclic(|weak| {
            let mut engine = sandboxed_engine(&host, Some(ctx.log.clone()));
            handles::register_all(&mut engine);
            let services = HandleServices {
                vm: weak.clone(),
                host: Rc::downgrade(&host),
                info,
                log: ctx.log.clone(),
                save: ctx.save.clone(),
                options: ctx.options.clone(),
                content: ctx.content.clone(),
            };
            install_handles(&mut engine, handles::values(&names, &services));
            engine.set_module_resolver(resolver.clone());
            ModVm {
                id: m.id.clone(),
                entry_file: m.entry.clone(),
                engine: RefCell::new(engine),
                ast: OnceCell::new(),
                sources: sources.clone(),
                files: files.clone(),
                host: host.clone(),
                held: Default::default(),
            }
        });

        // Compile the entry, then preload its imports (module top levels run now).
        let ast = {
            let engine = vm.engine.borrow();
            let ast = compile_checked(&engine, &names, &m.id, &m.entry, &text, &sources.borrow())?;
            let mut read = BTreeMap::new();
            let compile = |file: &str, src: &str| {
                compile_with_names(&engine, &names, src).map(|mut a| {
                    a.set_source(file);
                    a
                })
            };
            let evaluate = |_file: &str, module_ast: &AST| {
                let _frame = host.budget.enter(LIMITS.load_budget);
                evaluate_module(&engine, module_ast)
            };
            let outcome = Preloader {
                files: &files,
                resolver: &resolver,
                compile: &compile,
                evaluate: Some(&evaluate),
            }
            .run(&ast, &m.entry, &mut read);
            for (file, src) in &read {
                sources.borrow_mut().insert(file, src);
            }
            if let Err(e) = outcome {
                return Err(vec![preload_diag(&m.id, &names, e, &sources.borrow())]);
            }
            ast
        };
        {
            // Entry-level aliases become static modules, so closures called later (from hook
            // dispatches, after the entry's `import` statements have run) still see them.
            let mut engine = vm.engine.borrow_mut();
            for site in import_sites(&ast) {
                let (Some(path), true) = (&site.path, site.top_level) else {
                    continue;
                };
                if site.alias.is_empty() {
                    continue;
                }
                if let Some(module) = resolver.modules.borrow().get(&module_file(path)) {
                    engine.register_static_module(site.alias.as_str(), module.clone());
                }
            }
        }
        let mut ast = ast;
        ast.set_source(m.entry.as_str());
        let _ = vm.ast.set(ast);

        // Run the entry once.
        {
            let _frame = self.shared.budget.enter(LIMITS.load_budget);
            let engine = vm.engine.borrow();
            if let Some(ast) = vm.ast.get() {
                engine.run_ast(ast).map_err(|e| {
                    vec![ScriptDiagnostic::from_eval(
                        &m.id,
                        &m.entry,
                        &e,
                        &sources.borrow(),
                    )]
                })?;
            }
        }
        Ok(vm)
    }
}

/// Runtime-side view of a [`RhaiHost`]: feeds, trace, budget, dataset service.
#[derive(Clone)]
pub struct HostMonitor(Rc<HostShared>);

impl HostMonitor {
    /// Contribute the Rhai mods' map-script handlers given as function pointers to `registry`
    /// (a booted game's, before it enters the overworld). Returns how many.
    pub fn install_map_handlers(&self, registry: &mut MapScriptRegistry) -> usize {
        super::map_handlers::install(&self.0, registry)
    }

    /// The `use` pointer a live Rhai mod keeps for item effect `effect`, wrapped for the
    /// engine, with its mod's id.
    pub fn item_effect(
        &self,
        effect: &str,
    ) -> Option<(String, Rc<pallet_engine::game::item_effects::ItemEffectFn>)> {
        super::item_effects::effect_fn(&self.0, effect)
    }

    /// Runtime errors of links and listeners since the last drain (rendered with excerpts).
    pub fn drain_runtime_errors(&self) -> Vec<ScriptDiagnostic> {
        std::mem::take(&mut *self.0.runtime_errors.borrow_mut())
    }

    /// Trace lines since the last drain.
    pub fn drain_trace(&self) -> Vec<String> {
        std::mem::take(&mut *self.0.trace_lines.borrow_mut())
    }

    /// Install the outermost tracing link on every hook with a chain (after load) and trace
    /// every Rhai link and listener call from now on.
    pub fn install_trace(&self, rt: &Runtime) -> usize {
        self.0.trace.set(true);
        super::trace::install(rt, &self.0)
    }

    /// Operations the current (or last) dispatch charged, and whether it ran out.
    pub fn last_budget(&self) -> (u64, bool) {
        (self.0.budget.used(), self.0.budget.exhausted())
    }

    /// The dataset service behind `datasets.open` (RFC 0015).
    pub fn set_datasets(&self, service: Rc<dyn DatasetsApi>) {
        *self.0.datasets.borrow_mut() = Some(service);
    }
}

impl ModHost for RhaiHost {
    fn name(&self) -> &str {
        "rhai"
    }

    fn handles(&self, manifest: &Manifest) -> bool {
        manifest.entry.ends_with(".rhai")
    }

    fn run_entry(&mut self, ctx: &mut ModContext<'_>) -> Result<(), String> {
        let m = ctx.manifest;
        let priority = m
            .priority
            .floor()
            .clamp(f64::from(i32::MIN), f64::from(i32::MAX)) as i32;
        self.shared
            .priorities
            .borrow_mut()
            .insert(m.id.clone(), priority);
        match self.load(ctx) {
            Ok(vm) => {
                self.vms.push(vm);
                Ok(())
            }
            Err(diags) => Err(self.fail(diags)),
        }
    }
}

/// A scope naming `names` (as variables, so the optimizer never substitutes them).
fn names_scope(names: &[&str]) -> Scope<'static> {
    let mut scope = Scope::new();
    for n in names {
        scope.push(n.to_string(), ());
    }
    scope
}

/// Compile `text` with `names` declared (strict variables).
pub fn compile_with_names(
    engine: &Engine,
    names: &[&str],
    text: &str,
) -> Result<AST, rhai::ParseError> {
    engine.compile_with_scope(&names_scope(names), text)
}

/// The message for a script naming an ungranted handle.
pub fn missing_capability_message(handle: &str, cap: Capability) -> String {
    format!(
        "the script uses `{handle}`, but the \"{}\" capability is not granted; add it to \"capabilities\" in manifest.json",
        cap.as_str()
    )
}

/// Compile a file with the granted handle names. A use of a handle that is not granted is
/// reported as the missing capability (every one of them, each at its first use); any other
/// error is reported as is.
pub fn compile_checked(
    engine: &Engine,
    granted: &[&'static str],
    mod_id: &str,
    file: &str,
    text: &str,
    sources: &SourceMap,
) -> Result<AST, Vec<ScriptDiagnostic>> {
    let mut names: Vec<&'static str> = granted.to_vec();
    let mut missing = Vec::new();
    loop {
        match compile_with_names(engine, &names, text) {
            Ok(ast) if missing.is_empty() => return Ok(ast),
            Ok(_) => return Err(missing),
            Err(e) => {
                if let ParseErrorType::VariableUndefined(var) = e.err_type() {
                    if let Some((name, Some(cap))) = handles::HANDLES
                        .iter()
                        .find(|(n, _)| *n == var.as_str())
                        .map(|(n, c)| (*n, *c))
                    {
                        if !names.contains(&name) {
                            missing.push(ScriptDiagnostic::new(
                                mod_id,
                                file,
                                e.position(),
                                missing_capability_message(name, cap),
                                sources,
                            ));
                            names.push(name);
                            continue;
                        }
                    }
                }
                missing.push(ScriptDiagnostic::from_parse(mod_id, file, &e, sources));
                return Err(missing);
            }
        }
    }
}

fn preload_diag(
    mod_id: &str,
    _names: &[&str],
    e: PreloadError,
    sources: &SourceMap,
) -> ScriptDiagnostic {
    match e {
        PreloadError::At { file, pos, message } => {
            ScriptDiagnostic::new(mod_id, &file, pos, message, sources)
        }
        PreloadError::Parse { file, error } => {
            if let ParseErrorType::VariableUndefined(var) = error.err_type() {
                if let Some(Some(cap)) = capability_of(var) {
                    return ScriptDiagnostic::new(
                        mod_id,
                        &file,
                        error.position(),
                        missing_capability_message(var, cap),
                        sources,
                    );
                }
            }
            ScriptDiagnostic::from_parse(mod_id, &file, &error, sources)
        }
        PreloadError::Eval { file, error } => {
            ScriptDiagnostic::from_eval(mod_id, &file, &error, sources)
        }
    }
}

/// The capabilities a manifest grants (re-exported for tools).
pub fn granted(manifest: &Manifest) -> BTreeSet<Capability> {
    manifest.granted_capabilities()
}
