//! One mod's Rhai engine (built from `Engine::new_raw()` plus only the packages mods need),
//! its compiled entry, and the host state every mod engine shares (runtime, budget, trace and
//! error feeds).

use std::cell::{OnceCell, RefCell};
use std::rc::{Rc, Weak};

use pallet_api::facades::DatasetsApi;
use pallet_api::services::ModLog;
use pallet_api::Runtime;
use rhai::packages::{
    ArithmeticPackage, BasicArrayPackage, BasicFnPackage, BasicIteratorPackage, BasicMapPackage,
    BasicMathPackage, BasicStringPackage, BitFieldPackage, LogicPackage, MoreStringPackage,
    Package,
};
use rhai::{Dynamic, Engine, FnPtr, GlobalRuntimeState, OptimizationLevel, AST};

use super::budget::Budget;
use super::diag::{ScriptDiagnostic, SourceMap};
use super::direct::{CallFrame, DirectFn};
use super::imports::ModFiles;
use super::limits::LIMITS;

/// Bound on the retained runtime-error and trace feeds (hostile mods cannot grow them forever;
/// the count of dropped lines is kept).
const FEED_CAP: usize = 4_096;

/// State shared by every mod engine of one host.
pub struct HostShared {
    pub rt: Weak<Runtime>,
    pub budget: Budget,
    pub trace: std::cell::Cell<bool>,
    pub trace_lines: RefCell<Vec<String>>,
    pub runtime_errors: RefCell<Vec<ScriptDiagnostic>>,
    pub dropped: std::cell::Cell<u64>,
    pub datasets: RefCell<Option<Rc<dyn DatasetsApi>>>,
    /// The Rhai call level of the script that is calling `next` right now (0: none). The link
    /// `next` reaches starts its closure at this level, so Rhai's call-level limit bounds the
    /// script recursion of a whole chain, not of each link separately.
    pub rhai_level: std::cell::Cell<usize>,
    /// Map-script handlers given as function pointers ([`super::map_handlers`]).
    pub map_handlers: RefCell<Vec<RhaiMapHandler>>,
    /// Item effects' `use` pointers ([`super::item_effects`]).
    pub item_effects: RefCell<Vec<RhaiItemEffect>>,
    /// Manifest priority of each mod this host ran (map-script contributions).
    pub priorities: RefCell<std::collections::BTreeMap<String, i32>>,
}

/// One function-pointer map-script handler a mod registered ([`super::map_handlers`]).
pub struct RhaiMapHandler {
    pub vm: Weak<ModVm>,
    pub map: String,
    /// `onEnter` or `talk:<TEXT>`.
    pub trigger: String,
    pub f: FnPtr,
    pub origin: Origin,
    /// The handler's slot in its mod's `rhai.max_held_bytes` tally (`None`: refused, the mod
    /// is stopped).
    pub held_slot: Option<usize>,
}

/// One kept item-effect `use` pointer ([`super::item_effects`]).
pub struct RhaiItemEffect {
    pub vm: Weak<ModVm>,
    pub effect: String,
    pub f: FnPtr,
    pub origin: Origin,
}

impl HostShared {
    pub fn new(rt: &Rc<Runtime>) -> Self {
        HostShared {
            rt: Rc::downgrade(rt),
            budget: Budget::shared(rt.dispatch_budget()),
            trace: std::cell::Cell::new(false),
            trace_lines: RefCell::new(Vec::new()),
            runtime_errors: RefCell::new(Vec::new()),
            dropped: std::cell::Cell::new(0),
            datasets: RefCell::new(None),
            rhai_level: std::cell::Cell::new(0),
            map_handlers: RefCell::new(Vec::new()),
            item_effects: RefCell::new(Vec::new()),
            priorities: RefCell::new(std::collections::BTreeMap::new()),
        }
    }

    /// Record a runtime error of a link or listener (the mod is reported).
    pub fn report(&self, d: ScriptDiagnostic) {
        let mut errs = self.runtime_errors.borrow_mut();
        if errs.len() < FEED_CAP {
            errs.push(d);
        } else {
            self.dropped.set(self.dropped.get() + 1);
        }
    }

    /// Run `f` (host code a script called: `next`, `events.emit`) with `level` recorded as the
    /// calling script's Rhai call level, restored afterwards (also on unwind). Script calls made
    /// under it start at that level ([`ModVm::call`], the links' calls), so Rhai's call-level
    /// limit bounds a whole nest of scripts calling scripts, not each one separately.
    pub fn with_rhai_level<T>(&self, level: usize, f: impl FnOnce() -> T) -> T {
        struct Restore<'h>(&'h HostShared, usize);
        impl Drop for Restore<'_> {
            fn drop(&mut self) {
                self.0.rhai_level.set(self.1);
            }
        }
        let _restore = Restore(self, self.rhai_level.replace(level));
        f()
    }

    pub fn trace_line(&self, line: String) {
        let mut lines = self.trace_lines.borrow_mut();
        if lines.len() < FEED_CAP {
            lines.push(line);
        } else {
            self.dropped.set(self.dropped.get() + 1);
        }
    }
}

/// Where a closure was installed: the file and position of its `hooks.wrap`/`events.on` call.
#[derive(Clone, Debug)]
pub struct Origin {
    pub file: String,
    pub pos: rhai::Position,
}

impl Origin {
    /// From the native call context of the installing call.
    pub fn of(ctx: &rhai::NativeCallContext, vm: &ModVm) -> Origin {
        Origin {
            file: ctx
                .call_source()
                .filter(|s| !s.is_empty())
                .unwrap_or(&vm.entry_file)
                .to_owned(),
            pos: ctx.call_position(),
        }
    }
}

/// One loaded (or loading) mod.
pub struct ModVm {
    pub id: String,
    pub entry_file: String,
    /// Mutated once at load (static modules for the entry's imports); borrowed shared for
    /// every call afterwards (re-entrant calls only take more shared borrows).
    pub engine: RefCell<Engine>,
    pub ast: OnceCell<AST>,
    pub sources: Rc<RefCell<SourceMap>>,
    pub files: ModFiles,
    pub host: Rc<HostShared>,
    /// What the mod's closures hold between calls (`rhai.max_held_bytes`).
    pub held: super::held::HeldTally,
}

impl ModVm {
    /// Call a script function pointer (a closure the mod registered) inside a budget frame.
    /// Errors come back as a diagnostic pointing into the mod's source.
    /// `origin` is where the closure was installed (file, position of the `wrap`/`on` call):
    /// errors Rhai reports without a position (a budget stop) point there.
    pub fn call(
        &self,
        f: &FnPtr,
        args: Vec<Dynamic>,
        limit: u64,
        origin: &Origin,
    ) -> Result<Dynamic, ScriptDiagnostic> {
        let Some(mut global) = self.call_state() else {
            return Err(self.plain_error("the mod's script is not loaded"));
        };
        // `FnPtr::call`'s fresh state, starting at the calling script's level (if any).
        global.level = self.host.rhai_level.get();
        self.call_with_state(&global, f, args.into_iter().collect(), limit, origin)
    }

    /// The call state a link reuses for every call of its closure: what `FnPtr::call` builds
    /// afresh each time (a default global state with the mod's script functions linked). It is
    /// only ever lent shared (`FnPtr::call_raw` clones what it needs to mutate), so one copy
    /// serves re-entrant calls too. `None` before the mod's script is loaded.
    pub fn call_state(&self) -> Option<GlobalRuntimeState> {
        let ast = self.ast.get()?;
        let engine = self.engine.borrow();
        let mut global = engine.new_global_runtime_state();
        global.lib.push(ast.shared_lib().clone());
        Some(global)
    }

    /// [`call`](Self::call) with a reused call state ([`call_state`](Self::call_state)) and
    /// arguments in an inline vector: the same call (`FnPtr::call` is `call_raw` over a fresh
    /// state) without building the state and the argument list per call.
    pub fn call_with_state(
        &self,
        global: &GlobalRuntimeState,
        f: &FnPtr,
        mut args: rhai::FnArgsVec<Dynamic>,
        limit: u64,
        origin: &Origin,
    ) -> Result<Dynamic, ScriptDiagnostic> {
        self.guarded(limit, origin, |engine| {
            let ctx = rhai::NativeCallContext::new_with_all_fields(
                engine,
                f.fn_name(),
                None,
                global,
                rhai::Position::NONE,
            );
            f.call_raw(&ctx, None, args.as_mut_slice())
        })
    }

    /// [`call_with_state`](Self::call_with_state) through a closure's direct path
    /// ([`DirectFn`]) in `frame` (its arguments written), from Rhai call level `level`: the
    /// same budget frame, nesting check and diagnostics.
    pub fn call_direct(
        &self,
        f: &DirectFn,
        frame: &mut CallFrame,
        level: usize,
        limit: u64,
        origin: &Origin,
    ) -> Result<Dynamic, ScriptDiagnostic> {
        self.guarded(limit, origin, |engine| {
            f.run(engine, frame, level, |ops| self.host.budget.progress(ops))
        })
    }

    /// Run one script call: refused past the nesting bound, inside a budget frame of `limit`
    /// operations, its error turned into a diagnostic pointing into the mod's source (`origin`
    /// where Rhai gives no position).
    fn guarded(
        &self,
        limit: u64,
        origin: &Origin,
        run: impl FnOnce(&Engine) -> Result<Dynamic, Box<rhai::EvalAltResult>>,
    ) -> Result<Dynamic, ScriptDiagnostic> {
        self.check_nesting()?;
        self.held.check().map_err(|msg| self.plain_error(&msg))?;
        let window = crate::alloc::Window::enter();
        let outcome = {
            let _frame = self.host.budget.enter(limit);
            let engine = self.engine.borrow();
            run(&engine).map_err(|e| {
                ScriptDiagnostic::from_eval_at(
                    &self.id,
                    &origin.file,
                    origin.pos,
                    &e,
                    &self.sources.borrow(),
                )
            })
        };
        // `rhai.max_retained_bytes`: what the call left behind counts toward the mod.
        match self.held.after_window(window.exit()) {
            Ok(()) => outcome,
            Err(msg) => Err(self.plain_error(&msg)),
        }
    }

    /// Refuse a call nested [`pallet_api::budget::MAX_NESTING`] script frames deep (each frame
    /// is a VM call on the Rust stack; see `pallet_api::budget`).
    fn check_nesting(&self) -> Result<(), ScriptDiagnostic> {
        self.host
            .budget
            .check_nesting()
            .map_err(|message| self.plain_error(&message))
    }

    pub fn plain_error(&self, message: &str) -> ScriptDiagnostic {
        ScriptDiagnostic::new(
            &self.id,
            &self.entry_file,
            rhai::Position::NONE,
            message.to_owned(),
            &SourceMap::default(),
        )
    }
}

/// A fresh sandboxed engine: raw engine, the data/string/math packages only (no time, no
/// `sleep`/`exit` of the language-core package, no file or OS access of any kind), `eval`
/// disabled, strict variables, every limit explicit, `print`/`debug` routed to the mod log,
/// and the shared budget counted through `on_progress`.
pub fn sandboxed_engine(host: &Rc<HostShared>, log: Option<ModLog>) -> Engine {
    let mut engine = Engine::new_raw();
    for module in [
        ArithmeticPackage::new().as_shared_module(),
        LogicPackage::new().as_shared_module(),
        BasicStringPackage::new().as_shared_module(),
        MoreStringPackage::new().as_shared_module(),
        BasicIteratorPackage::new().as_shared_module(),
        BasicFnPackage::new().as_shared_module(),
        BasicArrayPackage::new().as_shared_module(),
        BasicMapPackage::new().as_shared_module(),
        BasicMathPackage::new().as_shared_module(),
        BitFieldPackage::new().as_shared_module(),
    ] {
        engine.register_global_module(module);
    }
    engine.disable_symbol("eval");
    engine.set_strict_variables(true);
    engine.set_optimization_level(OptimizationLevel::Simple);
    LIMITS.apply(&mut engine);
    super::pad::install(&mut engine);

    let budget = host.budget.handle();
    engine.on_progress(move |ops| budget.progress(ops));
    super::depth::install(&mut engine);

    match log {
        Some(log) => {
            let print_log = log.clone();
            engine.on_print(move |text| print_log.info(&cut(text)));
            engine.on_debug(move |text, _source, pos| {
                let at = pos
                    .line()
                    .map(|l| format!(" (line {l})"))
                    .unwrap_or_default();
                log.info(&cut(&format!("debug{at}: {text}")));
            });
        }
        None => {
            engine.on_print(|_| {});
            engine.on_debug(|_, _, _| {});
        }
    }
    engine
}

/// Cut a log line to the limit (on a char boundary).
pub fn cut(text: &str) -> String {
    pallet_api::cut_at(text, LIMITS.max_log_line, "…")
}

/// Put the handles in scope everywhere (entry, functions, closures, imported modules) through
/// Rhai's variable resolver. A script variable of the same name shadows a handle (the
/// resolver defers to the scope), and resolved handles are read-only.
pub fn install_handles(engine: &mut Engine, handles: Vec<(&'static str, Dynamic)>) {
    #[allow(deprecated)] // "volatile", not deprecated: Rhai's variable-resolver API
    engine.on_var(move |name, index, ctx| {
        // Rhai calls the resolver for every variable read. A non-zero `index` is the parser's
        // offset of a local variable (a parameter, a `let`) in the scope: the scope has it,
        // so it shadows any handle of that name; answer at once without comparing names.
        super::depth::check_read(name, index, &ctx)?;
        if index > 0 {
            return Ok(None);
        }
        let Some((_, value)) = handles.iter().find(|(n, _)| *n == name) else {
            return Ok(None);
        };
        if ctx.scope().contains(name) {
            return Ok(None);
        }
        Ok(Some(value.clone()))
    });
}
