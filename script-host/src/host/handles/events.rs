//! `events.on(name, |payload| …)`, `events.on(name, priority, …)`, `events.once(…)`,
//! `events.emit("mod.<id>.<name>", value)`.
//!
//! `on`/`once` accept catalog event names and `mod.*` names (other mods' events); anything
//! else throws `unknown_event`. `emit` is allowed only in the mod's own `mod.<id>.*`
//! namespace (the bus enforces it; a violation throws `forbidden_event`). Payloads arrive as
//! detached copies; listeners' return values are ignored.

use std::rc::{Rc, Weak};

use pallet_api::catalog::event_info;
use pallet_api::script::ScriptListener;
use pallet_api::{LinkError, ListenerResult, Value};
use rhai::{Dynamic, Engine, EvalAltResult, FnPtr, NativeCallContext, INT};

use crate::host::convert::{from_dynamic, to_dynamic};
use crate::host::error::{api_error, codes};
use crate::host::limits::LIMITS;
use crate::host::vm::{ModVm, Origin};

/// The `events` handle.
#[derive(Clone)]
pub struct Events {
    pub(crate) vm: Weak<ModVm>,
}

pub fn register(engine: &mut Engine) {
    engine.register_type_with_name::<Events>("Events");
    engine.register_fn(
        "on",
        |c: NativeCallContext, h: &mut Events, name: &str, f: FnPtr| on(&c, h, name, 0, false, f),
    );
    engine.register_fn(
        "on",
        |c: NativeCallContext, h: &mut Events, name: &str, priority: INT, f: FnPtr| {
            on(&c, h, name, priority, false, f)
        },
    );
    engine.register_fn(
        "once",
        |c: NativeCallContext, h: &mut Events, name: &str, f: FnPtr| on(&c, h, name, 0, true, f),
    );
    engine.register_fn(
        "once",
        |c: NativeCallContext, h: &mut Events, name: &str, priority: INT, f: FnPtr| {
            on(&c, h, name, priority, true, f)
        },
    );
    for method in ["on", "once"] {
        // The Lua order `on(name, fn, priority)`: refused with the accepted forms.
        engine.register_fn(
            method,
            move |_: &mut Events, name: &str, _f: FnPtr, priority: INT| -> Result<FnPtr, Box<EvalAltResult>> {
                Err(api_error(
                    codes::INVALID_VALUE,
                    format!(
                        "events.{method}({name:?}, fn, {priority}) is the Lua argument order; in Rhai write events.{method}({name:?}, |payload| …) or events.{method}({name:?}, {priority}, |payload| …)"
                    ),
                ))
            },
        );
    }
    engine.register_fn(
        "emit",
        |c: NativeCallContext, h: &mut Events, name: &str, payload: Dynamic| {
            emit(&c, h, name, payload)
        },
    );
    engine.register_fn(
        "emit",
        |c: NativeCallContext, h: &mut Events, name: &str| emit(&c, h, name, Dynamic::UNIT),
    );
}

fn on(
    ctx: &NativeCallContext,
    h: &Events,
    name: &str,
    priority: INT,
    once: bool,
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
    let priority = i32::try_from(priority).map_err(|_| {
        api_error(
            codes::INVALID_VALUE,
            format!("priority {priority} is outside the 32-bit range"),
        )
    })?;
    if let Some(msg) = super::hooks::arity_mismatch(
        &vm,
        &f,
        1,
        &format!("event {name} calls its listeners with (payload)"),
    ) {
        return Err(api_error(codes::INVALID_VALUE, msg));
    }
    rt.check_listener_quota(&vm.id)
        .map_err(|e| api_error(codes::LIMIT, e))?;
    let held_slot = vm
        .held
        .register(&f)
        .map_err(|e| api_error(codes::LIMIT, e))?;
    let listener = Rc::new(RhaiListener {
        held_slot,
        origin: Origin::of(ctx, &vm),
        vm: vm.clone(),
        f,
        event: name.to_owned(),
    });
    let handle = if let Some(info) = event_info(name) {
        (info.on_script)(&rt, &vm.id, priority, once, listener)
    } else if name.starts_with("mod.") && name.len() > 4 {
        rt.on_named(name, &vm.id, priority, once, move |payload: &Value| {
            listener.call(payload)
        })
    } else {
        return Err(api_error(
            codes::UNKNOWN_EVENT,
            format!(
                "no event named {name:?}{} (catalog events or mod.<id>.<name>)",
                crate::host::suggest::did_you_mean(name, crate::host::suggest::event_names())
            ),
        ));
    };
    let weak_rt = Rc::downgrade(&rt);
    #[allow(deprecated)] // "volatile", not deprecated: the native function-pointer API
    FnPtr::from_fn("unsubscribe", move |_ctx, _args| {
        Ok(Dynamic::from_bool(
            weak_rt
                .upgrade()
                .is_some_and(|rt| rt.unsubscribe_event(&handle)),
        ))
    })
}

fn emit(
    ctx: &NativeCallContext,
    h: &Events,
    name: &str,
    payload: Dynamic,
) -> Result<(), Box<EvalAltResult>> {
    let vm =
        h.vm.upgrade()
            .ok_or_else(|| api_error(codes::NO_RUNTIME, "the mod is unloaded"))?;
    let rt = vm
        .host
        .rt
        .upgrade()
        .ok_or_else(|| api_error(codes::NO_RUNTIME, "the game's runtime is gone"))?;
    let value = from_dynamic(&payload)
        .map_err(|e| api_error(codes::INVALID_VALUE, format!("event payload: {e}")))?;
    // Charged as host work (issue 21): past the budget the emitting script stops at its next
    // operation, so re-emission cannot grow a tree of nested emits beyond the budget.
    let budget = vm.host.budget.counter();
    if pallet_api::host_cost::charge_host(&budget, pallet_api::host_cost::emit_units(&value)) {
        return Err(EvalAltResult::ErrorTerminated(
            Dynamic::from(crate::host::budget::BUDGET_TOKEN),
            ctx.call_position(),
        )
        .into());
    }
    // Listeners continue the emitting script's Rhai call level (see `HostShared::with_rhai_level`).
    let level = ctx.global_runtime_state().level.saturating_sub(1);
    vm.host
        .with_rhai_level(level, || rt.emit_mod(&vm.id, name, &value))
        .map_err(|e| api_error(codes::FORBIDDEN_EVENT, e.to_string()))
}

/// One Rhai closure installed as a listener.
pub struct RhaiListener {
    origin: Origin,
    vm: Rc<ModVm>,
    f: FnPtr,
    event: String,
    /// The closure's slot in its mod's `rhai.max_held_bytes` tally.
    held_slot: usize,
}

impl Drop for RhaiListener {
    fn drop(&mut self) {
        self.vm.held.release(self.held_slot);
    }
}

impl ScriptListener for RhaiListener {
    fn call(&self, payload: &Value) -> ListenerResult {
        // A mod stopped by `rhai.max_held_bytes` runs no more.
        if let Err(msg) = self.vm.held.check() {
            return Err(LinkError::from(msg));
        }
        let outcome = self
            .vm
            .call(
                &self.f,
                vec![to_dynamic(payload)],
                LIMITS.dispatch_budget,
                &self.origin,
            )
            .and_then(|d| {
                self.vm
                    .held
                    .after_call(self.held_slot, &self.f)
                    .map(|()| d)
                    .map_err(|msg| self.vm.plain_error(&format!("event {}: {msg}", self.event)))
            });
        if self.vm.host.trace.get() {
            let shown = match &outcome {
                Ok(_) => "ok".to_owned(),
                Err(d) => format!("error: {}", d.short()),
            };
            self.vm.host.trace_line(format!(
                "trace: event {} -> [{}] {shown}",
                self.event, self.vm.id
            ));
        }
        match outcome {
            Ok(_) => Ok(()),
            Err(diag) => {
                let short = diag.short();
                self.vm.host.report(diag);
                Err(LinkError::from(short))
            }
        }
    }
}
