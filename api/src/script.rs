//! What script hosts (Rhai, the Lua shim) need from every catalog hook and event: conversion of
//! typed arguments and payloads to [`Value`]s at the script boundary, and conversion of a
//! script's answer back to the typed result under the hook's own **result rule** (fail closed).
//!
//! * [`ScriptHook`] — `args_to_values` (positional, in the Lua callback order after `next`),
//!   `args_from_values` (a script's `next(a, …)`), `out_to_value`, `out_from_value` (the result
//!   rule: `Err` means "this link failed", which the chain treats as a link failure — skipped
//!   before `next`, downstream kept after `next`).
//! * [`ScriptEvent`] — `payload_to_value`.
//! * [`ScriptLink`] / [`ValueNext`] / [`ScriptListener`] — the value-level interfaces a host
//!   implements; [`wrap_script`] / [`on_script`] adapt them onto the typed buses, and the
//!   catalog exposes both by name ([`crate::catalog::hook_info`]).
//! * [`ScriptArgs`] / [`ValueSink`] ([`sink`]) — the fast path into a host's own values: a link
//!   that overrides [`ScriptLink::call_args`] receives the typed arguments and streams them
//!   (serde) straight into its value type, with no [`Value`] tree in between.

use std::rc::Rc;

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::event_bus::ListenerHandle;
use crate::events::{Event, ListenerResult};
use crate::hook_bus::HookHandle;
use crate::hooks::{Hook, LinkError, LinkResult, Next};
use crate::runtime::Runtime;
use crate::value::{from_value, to_value, Value, ValueError};

pub mod paths;
pub mod sink;

pub use paths::{Filter, ReadPaths};
pub use sink::{
    to_sink, to_sink_with, write_fields, Crossing, Params, ValueBuilder, ValueSink, NOT_POSITIONAL,
};

/// A hook's argument struct as the positional list a script callback receives after `next`.
/// Implemented with [`arg_list!`](crate::arg_list) on the catalog's `…Args` structs.
pub trait ArgList: Sized {
    /// The mod-visible parameter names, in order (e.g. `["game", "ctx"]`).
    const NAMES: &'static [&'static str];
    fn to_values(&self) -> Result<Vec<Value>, ValueError>;
    /// One complete value per parameter, in order, into `sink` (the same data as
    /// [`to_values`](Self::to_values), without building `Value`s).
    fn write_args(&self, sink: &mut dyn ValueSink) -> Result<(), ValueError>;
    /// [`write_args`](Self::write_args) for a callback that reads only some parameters: bit
    /// `i` of `read` set (bit 63 for every parameter from 63 up) writes parameter `i`, clear
    /// writes `nil` without serializing it — the rule the Lua stack sink follows too
    /// (`script::sink::Params::read`).
    fn write_args_read(&self, sink: &mut dyn ValueSink, read: u64) -> Result<(), ValueError>;
    /// Missing trailing values read as `nil` (Lua semantics for short argument lists).
    fn from_values(values: Vec<Value>) -> Result<Self, ValueError>;
}

/// Implement [`ArgList`] for an args struct: `arg_list!(MyArgs { game, ctx });` — the field
/// order is the script callback's parameter order. A field whose mod-visible name differs from
/// its Rust name is written `map_id as "mapId"`.
#[macro_export]
macro_rules! arg_list {
    (@name $field:ident) => { stringify!($field) };
    (@name $field:ident $name:literal) => { $name };
    ($ty:ident { $($field:ident $(as $name:literal)?),+ $(,)? }) => {
        impl $crate::script::ArgList for $ty {
            const NAMES: &'static [&'static str] = &[$($crate::arg_list!(@name $field $($name)?)),+];
            fn to_values(&self) -> ::std::result::Result<::std::vec::Vec<$crate::Value>, $crate::value::ValueError> {
                Ok(vec![$($crate::value::to_value(&self.$field)?),+])
            }
            fn write_args(&self, sink: &mut dyn $crate::script::ValueSink) -> ::std::result::Result<(), $crate::value::ValueError> {
                $($crate::script::to_sink(&self.$field, sink)?;)+
                Ok(())
            }
            fn write_args_read(&self, sink: &mut dyn $crate::script::ValueSink, read: u64) -> ::std::result::Result<(), $crate::value::ValueError> {
                let mut bit = 1u64;
                $(
                    if read & bit != 0 {
                        $crate::script::to_sink(&self.$field, sink)?;
                    } else {
                        sink.unit();
                    }
                    if bit != 1u64 << 63 {
                        bit <<= 1;
                    }
                )+
                let _ = bit;
                Ok(())
            }
            fn from_values(values: ::std::vec::Vec<$crate::Value>) -> ::std::result::Result<Self, $crate::value::ValueError> {
                let mut it = values.into_iter();
                Ok($ty { $($field: $crate::value::from_value(it.next().unwrap_or_default()).map_err(|e| {
                    $crate::value::ValueError::new(format!("{}: {}", $crate::arg_list!(@name $field $($name)?), e))
                })?),+ })
            }
        }
    };
}

/// A catalog hook as scripts see it.
pub trait ScriptHook: Hook<Args: ArgList, Out: Serialize + DeserializeOwned> {
    /// The script callback shape, e.g. `"(next, game, ctx) -> boolean"`.
    const SIGNATURE: &'static str;
    /// The result rule in one sentence (docs).
    const RESULT_RULE: &'static str;
    /// How many values the Lua callback returns (multi-return hooks are > 1; their
    /// `out_to_value` is a list the Lua shim spreads).
    const OUT_ARITY: usize = 1;
    /// The script-facing context carries the engine-supplied RNG (`ctx.rng`, a
    /// [`ScriptRng`](crate::script_rng::ScriptRng) whose boundary form is `{__rng = state}`),
    /// which a host may turn into a callable handle.
    const CTX_RNG: bool = false;

    fn args_to_values(args: &Self::Args) -> Result<Vec<Value>, ValueError> {
        args.to_values()
    }

    /// The arguments streamed into a host's sink; must describe the same values as
    /// [`args_to_values`](Self::args_to_values) (a hook overriding one overrides both).
    fn args_to_sink(args: &Self::Args, sink: &mut dyn ValueSink) -> Result<(), ValueError> {
        args.write_args(sink)
    }

    /// [`args_to_sink`](Self::args_to_sink) writing only the parameters `read` marks
    /// ([`ArgList::write_args_read`]); overridden together with it.
    fn args_to_sink_read(
        args: &Self::Args,
        sink: &mut dyn ValueSink,
        read: u64,
    ) -> Result<(), ValueError> {
        args.write_args_read(sink, read)
    }

    fn args_from_values(values: Vec<Value>) -> Result<Self::Args, ValueError> {
        Self::Args::from_values(values)
    }

    fn out_to_value(out: &Self::Out) -> Result<Value, ValueError> {
        to_value(out)
    }

    /// The result rule. The default is a strict conversion: anything that is not exactly an
    /// `Out` fails the link.
    fn out_from_value(value: Value) -> Result<Self::Out, ValueError> {
        from_value(value)
    }
}

/// A catalog event as scripts see it.
pub trait ScriptEvent: Event<Payload: Serialize> {
    fn payload_to_value(payload: &Self::Payload) -> Result<Value, ValueError> {
        to_value(payload)
    }
}

/// The `next` a script link receives, at value level.
pub trait ValueNext {
    /// `next()` — continue with the current arguments.
    fn call(&mut self) -> Result<Value, LinkError>;
    /// `next(a, …)` — replace the arguments downstream. Fails (without running anything) when
    /// the values do not convert to the hook's arguments.
    fn call_with(&mut self, args: Vec<Value>) -> Result<Value, LinkError>;
}

/// A hook's typed arguments at a link's boundary, for hosts to convert as they like.
pub trait ScriptArgs {
    /// The arguments as `Value`s, positional (a conversion failure fails the link).
    fn to_values(&self) -> Result<Vec<Value>, ValueError>;
    /// The arguments straight into `sink`: one complete value per parameter, in order.
    fn write(&self, sink: &mut dyn ValueSink) -> Result<(), ValueError>;
    /// [`write`](Self::write) with the parameters `read` does not mark written as `nil`,
    /// unserialized ([`ArgList::write_args_read`]).
    fn write_read(&self, sink: &mut dyn ValueSink, read: u64) -> Result<(), ValueError>;
}

/// The link failure for arguments that did not convert (the same text on every path).
pub fn argument_error(e: ValueError) -> LinkError {
    LinkError::from(format!("argument conversion: {e}"))
}

/// A script function installed as a link.
pub trait ScriptLink {
    fn call(&self, next: &mut dyn ValueNext, args: Vec<Value>) -> Result<Value, LinkError>;

    /// What the bus calls. The default converts the arguments to `Value`s and calls
    /// [`call`](Self::call); a host with its own value type overrides it to stream the typed
    /// arguments straight into that type ([`ScriptArgs::write`]) and skip the `Value` tree.
    fn call_args(
        &self,
        next: &mut dyn ValueNext,
        args: &dyn ScriptArgs,
    ) -> Result<Value, LinkError> {
        let values = args.to_values().map_err(argument_error)?;
        self.call(next, values)
    }
}

struct TypedArgs<'a, H: Hook>(&'a H::Args);

impl<H: ScriptHook> ScriptArgs for TypedArgs<'_, H> {
    fn to_values(&self) -> Result<Vec<Value>, ValueError> {
        H::args_to_values(self.0)
    }
    fn write(&self, sink: &mut dyn ValueSink) -> Result<(), ValueError> {
        H::args_to_sink(self.0, sink)
    }
    fn write_read(&self, sink: &mut dyn ValueSink, read: u64) -> Result<(), ValueError> {
        H::args_to_sink_read(self.0, sink, read)
    }
}

/// A script function installed as a listener.
pub trait ScriptListener {
    fn call(&self, payload: &Value) -> ListenerResult;
}

struct TypedValueNext<'n, 'a, H: Hook> {
    next: &'n mut Next<'a, H>,
}

impl<H: ScriptHook> ValueNext for TypedValueNext<'_, '_, H> {
    fn call(&mut self) -> Result<Value, LinkError> {
        let out = self.next.call();
        H::out_to_value(&out).map_err(|e| LinkError::from(format!("result conversion: {e}")))
    }

    fn call_with(&mut self, args: Vec<Value>) -> Result<Value, LinkError> {
        let args = H::args_from_values(args)
            .map_err(|e| LinkError::from(format!("bad arguments to next: {e}")))?;
        let out = self.next.call_with(args);
        H::out_to_value(&out).map_err(|e| LinkError::from(format!("result conversion: {e}")))
    }
}

/// Install a script link on hook `H`: arguments are converted once at this link's boundary
/// (by the link itself, [`ScriptLink::call_args`]), and its answer goes through
/// `H::out_from_value` (a malformed answer is a link failure).
pub fn wrap_script<H: ScriptHook>(
    rt: &Runtime,
    owner: &str,
    priority: i32,
    link: Rc<dyn ScriptLink>,
) -> HookHandle {
    rt.wrap::<H, _>(owner, priority, move |next, args| -> LinkResult<H::Out> {
        let mut value_next = TypedValueNext::<H> { next };
        let answer = link.call_args(&mut value_next, &TypedArgs::<H>(args))?;
        H::out_from_value(answer).map_err(|e| LinkError::from(format!("bad result: {e}")))
    })
}

/// Subscribe a script listener to event `E`; the payload is converted once per delivery.
pub fn on_script<E: ScriptEvent>(
    rt: &Runtime,
    owner: &str,
    priority: i32,
    once: bool,
    listener: Rc<dyn ScriptListener>,
) -> ListenerHandle {
    let f = move |payload: &E::Payload| -> ListenerResult {
        let value = E::payload_to_value(payload)
            .map_err(|e| LinkError::from(format!("payload conversion: {e}")))?;
        listener.call(&value)
    };
    if once {
        rt.once::<E, _>(owner, priority, f)
    } else {
        rt.on::<E, _>(owner, priority, f)
    }
}
