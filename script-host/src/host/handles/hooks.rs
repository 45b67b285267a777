//! `hooks.wrap(name, |next, …| …)` / `hooks.wrap(name, priority, |next, …| …)`.
//!
//! The closure receives the typed `next` and then the hook's parameters in the catalog order
//! (e.g. `map.occupancy_allowed`: `|next, game, ctx|`). Its return value goes through the
//! hook's result rule (fail closed). `wrap` returns an unsubscribe function pointer:
//! `let off = hooks.wrap(…); off.call();` removes exactly that link.

use std::cell::{Cell, OnceCell};
use std::rc::{Rc, Weak};

use std::collections::BTreeMap;

use pallet_api::catalog::hooks::BattleFieldResidual;
use pallet_api::catalog::{hook_info, HookInfo};
use pallet_api::hooks::Hook;
use pallet_api::script::{argument_error, ScriptArgs, ScriptLink, ValueNext};
use pallet_api::{LinkError, Value};
use rhai::{
    Array, Dynamic, Engine, EvalAltResult, FnArgsVec, FnPtr, GlobalRuntimeState, Map,
    NativeCallContext, INT,
};

use super::next::NextSlot;
use crate::host::convert::{from_dynamic, into_dynamic, DynamicSink, Frame};
use crate::host::diag::ScriptDiagnostic;
use crate::host::direct::{CallFrame, DirectFn};
use crate::host::error::{api_error, codes};
use crate::host::limits::LIMITS;
use crate::host::patch::{put_next, Finish, PatchSink};
use crate::host::vm::{ModVm, Origin};

/// The `hooks` handle.
#[derive(Clone)]
pub struct Hooks {
    pub(crate) vm: Weak<ModVm>,
}

pub fn register(engine: &mut Engine) {
    engine.register_type_with_name::<Hooks>("Hooks");
    engine.register_fn(
        "wrap",
        |ctx: NativeCallContext, h: &mut Hooks, name: &str, f: FnPtr| wrap(&ctx, h, name, 0, f),
    );
    engine.register_fn(
        "wrap",
        |ctx: NativeCallContext, h: &mut Hooks, name: &str, priority: INT, f: FnPtr| {
            wrap(&ctx, h, name, priority, f)
        },
    );
    // The Lua order `wrap(name, fn, priority)`: refused with the accepted forms.
    engine.register_fn(
        "wrap",
        |_: &mut Hooks, name: &str, _f: FnPtr, priority: INT| -> Result<FnPtr, Box<EvalAltResult>> {
            Err(api_error(
                codes::INVALID_VALUE,
                format!(
                    "hooks.wrap({name:?}, fn, {priority}) is the Lua argument order; in Rhai write hooks.wrap({name:?}, |next, …| …) or hooks.wrap({name:?}, {priority}, |next, …| …)"
                ),
            ))
        },
    );
    engine.register_fn("has", |_: &mut Hooks, name: &str| hook_info(name).is_some());
}

/// `Some(message)` when `f` is a closure (or named function) of the mod's script whose
/// parameter count is not `wanted` (curried captures aside); `what` starts the message.
pub(crate) fn arity_mismatch(vm: &ModVm, f: &FnPtr, wanted: usize, what: &str) -> Option<String> {
    let ast = vm.ast.get()?;
    let name = f.fn_name();
    let curry = f.curry().len();
    let arities: Vec<usize> = ast
        .iter_functions()
        .filter(|m| m.name == name)
        .map(|m| m.params.len())
        .collect();
    if arities.is_empty() || arities.contains(&(curry + wanted)) {
        return None;
    }
    let takes = arities[0].saturating_sub(curry);
    Some(format!(
        "{what}; this closure takes {takes} parameter{}",
        if takes == 1 { "" } else { "s" }
    ))
}

fn wrap(
    ctx: &NativeCallContext,
    h: &Hooks,
    name: &str,
    priority: INT,
    f: FnPtr,
) -> Result<FnPtr, Box<EvalAltResult>> {
    let vm =
        h.vm.upgrade()
            .ok_or_else(|| api_error(codes::NO_RUNTIME, "the mod is unloaded"))?;
    let rt = vm
        .host
        .rt
        .upgrade()
        .ok_or_else(|| api_error(codes::NO_RUNTIME, "the game's runtime is gone"))?;
    let info = hook_info(name).ok_or_else(|| {
        api_error(
            codes::UNKNOWN_HOOK,
            format!(
                "no hook named {name:?}{} (the catalog is in docs/modding.md)",
                crate::host::suggest::did_you_mean(name, crate::host::suggest::hook_names())
            ),
        )
    })?;
    if let Some(msg) = arity_mismatch(
        &vm,
        &f,
        info.params.len() + 1,
        &format!(
            "{} calls {}",
            info.name,
            crate::host::suggest::closure_signature(info)
        ),
    ) {
        return Err(api_error(codes::INVALID_VALUE, msg));
    }
    let priority = i32::try_from(priority).map_err(|_| {
        api_error(
            codes::INVALID_VALUE,
            format!("priority {priority} is outside the 32-bit range"),
        )
    })?;
    rt.check_link_quota(&vm.id)
        .map_err(|e| api_error(codes::LIMIT, e))?;
    let held_slot = vm
        .held
        .register(&f)
        .map_err(|e| api_error(codes::LIMIT, e))?;
    let slot = NextSlot::new(info, vm.host.clone());
    let next_fn = NextSlot::fn_ptr(&slot)?;
    let link = Rc::new(RhaiLink {
        origin: Origin::of(ctx, &vm),
        vm: vm.clone(),
        f,
        held_slot,
        hook: info,
        slot,
        next_fn,
        state: OnceCell::new(),
        direct: OnceCell::new(),
        frames: Cell::new(Vec::new()),
    });
    let handle = (info.wrap_script)(&rt, &vm.id, priority, link);
    let weak_rt = Rc::downgrade(&rt);
    #[allow(deprecated)] // "volatile", not deprecated: the native function-pointer API
    FnPtr::from_fn("unsubscribe", move |_ctx, _args| {
        Ok(Dynamic::from_bool(
            weak_rt
                .upgrade()
                .is_some_and(|rt| rt.unsubscribe_hook(handle)),
        ))
    })
}

/// One Rhai closure installed as a link.
pub struct RhaiLink {
    origin: Origin,
    vm: Rc<ModVm>,
    f: FnPtr,
    /// The closure's slot in its mod's `rhai.max_held_bytes` tally.
    held_slot: usize,
    hook: &'static HookInfo,
    slot: Rc<NextSlot>,
    next_fn: FnPtr,
    /// The closure's call state, built on the first call and reused ([`ModVm::call_state`]).
    state: OnceCell<GlobalRuntimeState>,
    /// The closure's direct call path ([`RhaiLink::direct`]).
    direct: OnceCell<Option<DirectFn>>,
    /// The argument converter's frame stack, kept for its capacity (a re-entrant call of the
    /// same link finds it taken and starts an empty one).
    frames: Cell<Vec<Frame>>,
}

impl Drop for RhaiLink {
    fn drop(&mut self) {
        self.vm.held.release(self.held_slot);
    }
}

impl ScriptLink for RhaiLink {
    fn call(&self, next: &mut dyn ValueNext, args: Vec<Value>) -> Result<Value, LinkError> {
        let mut argv = FnArgsVec::with_capacity(args.len() + 1);
        argv.push(Dynamic::from(self.next_fn.clone()));
        argv.extend(args.into_iter().map(into_dynamic));
        self.run(next, |vm, level| self.call_raw(vm, level, argv))
    }

    /// The hot path: the typed arguments go straight into `Dynamic`s (no `Value` tree) — over
    /// the previous call's values in the closure's scope on the direct path.
    fn call_args(
        &self,
        next: &mut dyn ValueNext,
        args: &dyn ScriptArgs,
    ) -> Result<Value, LinkError> {
        if let Some(direct) = self.direct() {
            let mut frame = direct.take_frame();
            let result = self.write_args(direct, &mut frame, args).and_then(|()| {
                self.run(next, |vm, level| {
                    vm.call_direct(
                        direct,
                        &mut frame,
                        level,
                        LIMITS.dispatch_budget,
                        &self.origin,
                    )
                })
            });
            direct.put_frame(frame);
            return result;
        }
        let mut sink = DynamicSink::new(Dynamic::from(self.next_fn.clone()), self.frames.take());
        let written = args.write(&mut sink);
        let (argv, frames) = sink.finish();
        self.frames.set(frames);
        written.map_err(argument_error)?;
        let argv = argv.ok_or_else(incomplete)?;
        self.run(next, |vm, level| self.call_raw(vm, level, argv))
    }
}

fn incomplete() -> LinkError {
    LinkError::from("argument conversion: incomplete value")
}

impl RhaiLink {
    /// The closure's direct call path, resolved on the first call after the mod's script is
    /// loaded; `None` when it keeps `call_raw` ([`DirectFn`]).
    fn direct(&self) -> Option<&DirectFn> {
        if let Some(d) = self.direct.get() {
            return d.as_ref();
        }
        let ast = self.vm.ast.get()?;
        let template = self.vm.call_state()?;
        let resolved = DirectFn::resolve(ast, &self.f, self.hook.params.len() + 1, template)
            .filter(|d| d.num_args() == self.hook.params.len() + 1);
        self.direct.get_or_init(|| resolved).as_ref()
    }

    /// `next` and the typed arguments into the direct path's scope: the previous values are
    /// patched in place ([`PatchSink`]); if they no longer fit, everything is written anew.
    fn write_args(
        &self,
        direct: &DirectFn,
        frame: &mut CallFrame,
        args: &dyn ScriptArgs,
    ) -> Result<(), LinkError> {
        let count = self.hook.params.len();
        let mut buffers = std::mem::take(&mut frame.buffers);
        let mut slots = direct.slots(frame);
        // A parameter the body never names is not serialized at all, the rule the Lua shim's
        // stack sink follows (the mask is computed once, when the direct path is resolved).
        let read = direct.read_mask();
        put_next(&mut slots, &self.next_fn);
        let mut sink = PatchSink::new(&mut slots, &mut buffers);
        let mut written = args.write_read(&mut sink, read);
        let mut done = sink.finish(count);
        if written.is_ok() && done == Finish::Retry {
            let mut sink = PatchSink::fresh(&mut slots, &mut buffers);
            written = args.write_read(&mut sink, read);
            done = sink.finish(count);
        }
        frame.buffers = buffers;
        written.map_err(argument_error)?;
        match done {
            Finish::Complete => Ok(()),
            Finish::Retry | Finish::Incomplete => Err(incomplete()),
        }
    }

    /// The closure through `FnPtr::call_raw` with a reused call state (the path of closures
    /// the direct path does not take).
    fn call_raw(
        &self,
        vm: &ModVm,
        level: usize,
        argv: FnArgsVec<Dynamic>,
    ) -> Result<Dynamic, ScriptDiagnostic> {
        let Some(state) = self.state.get().or_else(|| {
            let state = vm.call_state()?;
            Some(self.state.get_or_init(|| state))
        }) else {
            return Err(vm.plain_error("the mod's script is not loaded"));
        };
        // Called from another script's `next`: continue its Rhai call level.
        let at_level;
        let state = if level == 0 {
            state
        } else {
            let mut s = state.clone();
            s.level = level;
            at_level = s;
            &at_level
        };
        vm.call_with_state(state, &self.f, argv, LIMITS.dispatch_budget, &self.origin)
    }

    /// Run the closure (`call`, given the VM and the calling script's Rhai call level) with
    /// `next` lent, then apply the result rule and trace.
    fn run(
        &self,
        next: &mut dyn ValueNext,
        call: impl FnOnce(&ModVm, usize) -> Result<Dynamic, ScriptDiagnostic>,
    ) -> Result<Value, LinkError> {
        let host = &self.vm.host;
        // A mod stopped by `rhai.max_held_bytes` runs no more.
        if let Err(msg) = self.vm.held.check() {
            return Err(LinkError::from(msg));
        }
        let outcome = {
            let _lend = self.slot.lend(next);
            // Called from another script's `next`: continue its Rhai call level.
            call(&self.vm, host.rhai_level.get())
        };
        let outcome = outcome.and_then(|d| {
            self.vm
                .held
                .after_call(self.held_slot, &self.f)
                .map(|()| d)
                .map_err(|msg| {
                    self.vm
                        .plain_error(&format!("hook {}: {msg}", self.hook.name))
                })
        });
        let result = match outcome {
            Ok(d) => from_dynamic(&d)
                .or_else(|e| per_row_result(self.hook, &d).ok_or(e))
                .map_err(|e| {
                    let msg = format!("returned a value that cannot cross into the engine: {e}");
                    host.report(
                        self.vm
                            .plain_error(&format!("hook {}: {msg}", self.hook.name)),
                    );
                    LinkError::from(msg)
                }),
            Err(diag) => {
                let short = diag.short();
                host.report(diag);
                Err(LinkError::from(short))
            }
        };
        if host.trace.get() {
            let shown = match &result {
                Ok(v) => super::super::trace::show(v),
                Err(e) => format!("error: {e}"),
            };
            host.trace_line(format!(
                "trace:   [{}] link {} -> {shown}",
                self.vm.id, self.hook.name
            ));
        }
        result
    }
}

/// The RFC 0016 rows of `battle.field_residual` are validated one by one ("a malformed row is
/// ignored"), so an answer that cannot cross as a whole (a row with a non-finite amount, a
/// function as its message) is not a link failure: it crosses row by row. A row whose `side`,
/// `amount` or `message` cannot cross becomes `()` (ignored by the result rule); other keys
/// that cannot cross are dropped, as the rule never reads them. Only called after the
/// whole-answer conversion failed; `None` for other hooks and for non-array answers.
fn per_row_result(hook: &HookInfo, answer: &Dynamic) -> Option<Value> {
    if hook.name != BattleFieldResidual::NAME {
        return None;
    }
    let answer = answer.flatten_clone();
    let rows = answer.read_lock::<Array>()?;
    Some(Value::List(rows.iter().map(row_value).collect()))
}

fn row_value(row: &Dynamic) -> Value {
    if let Ok(v) = from_dynamic(row) {
        return v;
    }
    let row = row.flatten_clone();
    let Some(map) = row.read_lock::<Map>() else {
        return Value::Nil;
    };
    let mut out = BTreeMap::new();
    for (k, v) in map.iter() {
        match from_dynamic(v) {
            Ok(v) => {
                out.insert(k.to_string(), v);
            }
            Err(_) if matches!(k.as_str(), "side" | "amount" | "message") => return Value::Nil,
            Err(_) => {}
        }
    }
    Value::Map(out)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::rc::Rc;

    use pallet_api::catalog::common::GameVersion;
    use pallet_api::catalog::hooks::{ExpGain, ExpGainArgs, ExpGainContext};
    use pallet_api::content::Content;
    use pallet_api::loader::{EnableState, Loader, ModCandidate, ModState};
    use pallet_api::{Runtime, Value};

    use crate::host::RhaiHost;

    fn with_mod(src: &str) -> (Rc<Runtime>, Loader) {
        let rt = Rc::new(Runtime::new());
        let mut host = RhaiHost::new(&rt);
        let mut files = BTreeMap::new();
        files.insert("main.rhai".to_owned(), src.to_owned());
        host.add_embedded("m", files);
        let manifest = r#"{"id": "m", "name": "m", "version": "1.0.0", "api": 2, "entry": "main.rhai", "capabilities": ["hooks"]}"#;
        let mut loader = Loader::new(GameVersion::Red, "0.1.0", Content::new());
        loader.add_host(Box::new(host));
        loader.load(
            &rt,
            &[ModCandidate::from_manifest_text("m", manifest, true)],
            &EnableState::default(),
        );
        assert_eq!(
            loader.status().get("m").map(|m| m.state),
            Some(ModState::Loaded)
        );
        (rt, loader)
    }

    fn exp(level: u8, participants: u8) -> ExpGainArgs {
        ExpGainArgs {
            ctx: ExpGainContext {
                defeated_def: Value::Nil,
                level,
                is_trainer: false,
                participants,
                traded: false,
                mon: Value::Nil,
            },
        }
    }

    #[test]
    fn every_call_sees_the_engine_arguments_whatever_the_last_call_did_to_them() {
        // The link checks it got exactly the engine's context, then vandalises it: changes
        // values and types, adds a key, captures it in a closure kept in a shared
        // array (so the scope's value turns shared). The next call must still see a clean copy.
        let (rt, _loader) = with_mod(
            r#"let kept = [];
hooks.wrap("exp.gain", |next, ctx| {
    let clean = ctx.keys().len() == 4 && !("extra" in ctx) && ctx.isTrainer == false
        && ctx.traded == false && type_of(ctx.participants) == "i64";
    let answer = if clean { ctx.level * 100 + ctx.participants } else { 0 };
    ctx.level = 99; ctx.participants = "x"; ctx.extra = 1;
    kept.push(|| ctx);
    if kept.len() > 2 { kept.clear(); }
    next = 0;
    answer
});"#,
        );
        for (level, participants) in [(12, 1), (30, 2), (12, 1), (55, 6), (55, 6)] {
            let got = rt.call::<ExpGain>(exp(level, participants), |_| 7);
            let feed: Vec<String> = rt
                .drain_diagnostics()
                .into_iter()
                .map(|d| d.message)
                .collect();
            assert_eq!(
                got,
                u32::from(level) * 100 + u32::from(participants),
                "{feed:?}"
            );
        }
    }

    #[test]
    fn a_reading_closure_sees_each_call_s_arguments() {
        let (rt, _loader) = with_mod(
            r#"hooks.wrap("exp.gain", |next, ctx| ctx.level * 100 + ctx.participants + next.call());"#,
        );
        for (level, participants) in [(12, 1), (30, 2), (30, 2), (7, 0)] {
            let got = rt.call::<ExpGain>(exp(level, participants), |_| 3);
            assert_eq!(got, u32::from(level) * 100 + u32::from(participants) + 3);
        }
    }

    #[test]
    fn a_closure_that_never_names_an_argument_still_runs_and_calls_next() {
        let (rt, _loader) = with_mod(r#"hooks.wrap("exp.gain", |next, ctx| next.call() * 2);"#);
        for level in [12, 30] {
            assert_eq!(
                rt.call::<ExpGain>(exp(level, 1), |a| a.ctx.level.into()),
                u32::from(level) * 2
            );
        }
    }
}
