//! `--trace`: every hook call of the chains mods installed, with its arguments and result.
//!
//! [`install`] puts one native tracing link at the outermost position (`i32::MAX`, owner
//! `"trace"`) of every hook that has a chain after load; Rhai links and listeners add their own
//! indented lines. The tracing link calls `next()` unchanged and returns its answer, so the
//! chain's result is what it would be without tracing.

use std::rc::Rc;

use pallet_api::catalog::HOOKS;
use pallet_api::script::{ScriptLink, ValueNext};
use pallet_api::{LinkError, Runtime, Value};

use super::vm::HostShared;

/// A compact, deterministic rendering of a value (maps in key order).
pub fn show(v: &Value) -> String {
    match v {
        Value::Nil => "nil".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => format!("{f:?}"),
        Value::Str(s) => format!("{s:?}"),
        Value::List(l) => format!("[{}]", l.iter().map(show).collect::<Vec<_>>().join(", ")),
        Value::Map(m) => format!(
            "{{{}}}",
            m.iter()
                .map(|(k, v)| format!("{k}: {}", show(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

struct TraceLink {
    host: Rc<HostShared>,
    hook: &'static str,
}

impl ScriptLink for TraceLink {
    fn call(&self, next: &mut dyn ValueNext, args: Vec<Value>) -> Result<Value, LinkError> {
        let shown: Vec<String> = args.iter().map(show).collect();
        self.host
            .trace_line(format!("trace: hook {}({})", self.hook, shown.join(", ")));
        let out = next.call();
        match &out {
            Ok(v) => self
                .host
                .trace_line(format!("trace: hook {} = {}", self.hook, show(v))),
            Err(e) => self
                .host
                .trace_line(format!("trace: hook {} failed: {e}", self.hook)),
        }
        out
    }
}

/// Install the tracing link on every hook that currently has a chain. Returns how many.
pub fn install(rt: &Runtime, host: &Rc<HostShared>) -> usize {
    let mut n = 0;
    for info in HOOKS {
        if rt.hook_chain(info.id).is_empty() {
            continue;
        }
        let link = Rc::new(TraceLink {
            host: host.clone(),
            hook: info.name,
        });
        (info.wrap_script)(rt, "trace", i32::MAX, link);
        n += 1;
    }
    n
}
