//! `ctx.applyShare(mon, split, announce)` of `battle.exp_award` (issue 18 item 6): a
//! host-provided callable, the one function that crosses *into* a Lua context by design.
//!
//! The Lua engine's exp-share mods replace vanilla (they do not call `next`) and award EXP by
//! calling `ctx.applyShare` once per mon. Here each call records one share — `mon` is a party
//! slot (0-based, as in `ctx.alive`) or a table with a `slot` field; `split` ≥ 1 (default 1);
//! `announce` unless `false` — and the link's answer is the recorded shares followed by the
//! list the wrapper returned, if any (the typed answer is `Vec<ExpShare>`). The function
//! belongs to one call: it is created for it, never stored in engine state, and when a wrapper
//! hands `ctx` on to `next(ctx)` it is left out of the data (as `ctx.rng` is turned back into
//! its marker).

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::rc::Rc;

use mlua::{Function, Lua, MultiValue, Value as LuaValue};
use pallet_api::Value;

thread_local! {
    /// The host callables alive right now (by function identity): left out of data.
    static LIVE: RefCell<BTreeSet<usize>> = const { RefCell::new(BTreeSet::new()) };
}

/// Is `f` a live host callable (`ctx.applyShare`)?
pub fn is_host_callable(f: &Function) -> bool {
    let p = f.to_pointer() as usize;
    LIVE.with(|l| l.borrow().contains(&p))
}

/// The shares one `battle.exp_award` call recorded, and its `applyShare` function.
pub struct Shares {
    pub recorded: Rc<RefCell<Vec<Value>>>,
    pub f: Function,
}

impl Drop for Shares {
    fn drop(&mut self) {
        let p = self.f.to_pointer() as usize;
        LIVE.with(|l| l.borrow_mut().remove(&p));
    }
}

fn slot_of(v: &LuaValue) -> mlua::Result<i64> {
    let n = match v {
        LuaValue::Number(n) => *n,
        LuaValue::Integer(i) => *i as f64,
        LuaValue::Table(t) => t.raw_get::<Option<f64>>("slot")?.unwrap_or(f64::NAN),
        _ => f64::NAN,
    };
    if n.fract() == 0.0 && (0.0..=5.0).contains(&n) {
        Ok(n as i64)
    } else {
        Err(mlua::Error::runtime(
            "applyShare: mon must be a party slot 0..5 (as in ctx.alive) or a table with one",
        ))
    }
}

/// A fresh `applyShare` for one call.
pub fn new(lua: &Lua) -> mlua::Result<Shares> {
    let recorded = Rc::new(RefCell::new(Vec::new()));
    let sink = recorded.clone();
    let f = lua.create_function(move |_, args: MultiValue| {
        let mut it = args.into_iter();
        let mon = it.next().unwrap_or(LuaValue::Nil);
        let split = it.next().unwrap_or(LuaValue::Nil);
        let announce = it.next().unwrap_or(LuaValue::Nil);
        let slot = slot_of(&mon)?;
        let split = match split {
            LuaValue::Nil => 1.0,
            LuaValue::Number(n) => n,
            LuaValue::Integer(i) => i as f64,
            _ => f64::NAN,
        };
        if !(split.fract() == 0.0 && (1.0..=255.0).contains(&split)) {
            return Err(mlua::Error::runtime(
                "applyShare: split must be an integer 1..255",
            ));
        }
        let announce = !matches!(announce, LuaValue::Boolean(false));
        let mut shares = sink.borrow_mut();
        if shares.len() >= 64 {
            return Err(mlua::Error::runtime("applyShare: more than 64 shares"));
        }
        shares.push(Value::map([
            ("slot", Value::Int(slot)),
            ("split", Value::Int(split as i64)),
            ("announce", Value::Bool(announce)),
        ]));
        Ok(())
    })?;
    LIVE.with(|l| l.borrow_mut().insert(f.to_pointer() as usize));
    Ok(Shares { recorded, f })
}

/// The link's answer: the recorded shares, then the returned list (nil adds nothing).
pub fn answer(shares: &Shares, returned: Value) -> Value {
    let mut out = std::mem::take(&mut *shares.recorded.borrow_mut());
    match returned {
        Value::Nil => {}
        Value::List(rest) => out.extend(rest),
        other => return other,
    }
    Value::List(out)
}
