//! `ctx.applyShare(mon, split, announce)` of `battle.exp_award` (issue 18 item 6): a
//! host-provided callable, the one function that crosses *into* a Lua context by design.
//!
//! The Lua engine's exp-share mods replace vanilla (they do not call `next`) and award EXP by
//! calling `ctx.applyShare` once per mon. Here each call records one share — `mon` is one of
//! the party's mon tables (below), a party slot (0-based) or a table with a `slot` field;
//! `split` ≥ 1 (default 1); `announce` unless `false` — and the link's answer is the recorded
//! shares followed by the list the wrapper returned, if any (the typed answer is
//! `Vec<ExpShare>`). The function belongs to one call: it is created for it, never stored in
//! engine state, and when a wrapper hands `ctx` on to `next(ctx)` it is left out of the data
//! (as `ctx.rng` is turned back into its marker).
//!
//! **The context as the Lua engine spells it** ([`lua_view`]): the engine's `ctx.party` (one
//! detached record per slot) becomes `ctx.battle.game.save.party`, and `ctx.alive` holds the
//! living participants' entries of that same list — the *same* tables, so a mod can mark
//! `fought[mon] = true` and skip them when it walks the party. [`ctx_back`] turns such a
//! context back into the engine's (`alive` as slots, by identity) for `next(ctx)`.

use std::cell::RefCell;
use std::rc::Rc;

use mlua::{Function, Lua, MultiValue, Table, Value as LuaValue};
use pallet_api::Value;

use crate::convert::from_lua_data_only;
use crate::mod_state::LuaMod;

/// The party's mon tables of one call, by slot (what `applyShare` matches a mon table with).
pub type PartyTables = Rc<RefCell<Vec<Table>>>;

/// The shares one `battle.exp_award` call recorded, and its `applyShare` function.
pub struct Shares {
    pub recorded: Rc<RefCell<Vec<Value>>>,
    pub f: Function,
    pub party: PartyTables,
}

impl Drop for Shares {
    fn drop(&mut self) {
        crate::convert::forget_host_callable(&self.f);
    }
}

/// The slot of `t` in `party` by identity.
fn slot_by_identity(party: &[Table], t: &Table) -> Option<i64> {
    let p = t.to_pointer();
    party
        .iter()
        .position(|m| m.to_pointer() == p)
        .map(|i| i as i64)
}

fn slot_of(party: &[Table], v: &LuaValue) -> mlua::Result<i64> {
    let n = match v {
        LuaValue::Number(n) => *n,
        LuaValue::Integer(i) => *i as f64,
        LuaValue::Table(t) => match slot_by_identity(party, t) {
            Some(slot) => slot as f64,
            None => t.raw_get::<Option<f64>>("slot")?.unwrap_or(f64::NAN),
        },
        _ => f64::NAN,
    };
    if n.fract() == 0.0 && (0.0..=5.0).contains(&n) {
        Ok(n as i64)
    } else {
        Err(mlua::Error::runtime(
            "applyShare: mon must be a mon of ctx.alive or ctx.battle.game.save.party, a party \
             slot 0..5, or a table with a slot",
        ))
    }
}

/// A fresh `applyShare` for one call.
pub fn new(lua: &Lua) -> mlua::Result<Shares> {
    let recorded = Rc::new(RefCell::new(Vec::new()));
    let party: PartyTables = Rc::new(RefCell::new(Vec::new()));
    let sink = recorded.clone();
    let mons = party.clone();
    let f = lua.create_function(move |_, args: MultiValue| {
        let mut it = args.into_iter();
        let mon = it.next().unwrap_or(LuaValue::Nil);
        let split = it.next().unwrap_or(LuaValue::Nil);
        let announce = it.next().unwrap_or(LuaValue::Nil);
        let slot = slot_of(&mons.borrow(), &mon)?;
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
    crate::convert::mark_host_callable(&f);
    Ok(Shares { recorded, f, party })
}

/// Rewrite the `ctx` table a link is about to receive into the Lua engine's spelling (module
/// docs): `ctx.party` moves to `ctx.battle.game.save.party` and `ctx.alive`'s slots become
/// those mon tables. A slot the engine sent no record for gets an empty table of its own.
/// Returns the party's tables by slot (for `applyShare`).
pub fn lua_view(m: &Rc<LuaMod>, ctx: &Table) -> mlua::Result<Vec<Table>> {
    let lua = &m.lua;
    let mut party: Vec<Table> = match ctx.raw_get::<LuaValue>("party")? {
        LuaValue::Table(t) => t
            .sequence_values::<LuaValue>()
            .filter_map(|v| match v {
                Ok(LuaValue::Table(t)) => Some(Ok(t)),
                Ok(_) => None,
                Err(e) => Some(Err(e)),
            })
            .collect::<mlua::Result<_>>()?,
        _ => Vec::new(),
    };
    let slots: Vec<usize> = match ctx.raw_get::<LuaValue>("alive")? {
        LuaValue::Table(t) => t
            .sequence_values::<f64>()
            .filter_map(|v| v.ok())
            .filter(|n| n.fract() == 0.0 && (0.0..6.0).contains(n))
            .map(|n| n as usize)
            .collect(),
        _ => Vec::new(),
    };
    if let Some(&last) = slots.iter().max() {
        while party.len() <= last {
            party.push(lua.create_table()?);
        }
    }
    let alive = lua.create_table()?;
    for (i, &s) in slots.iter().enumerate() {
        alive.raw_set(i + 1, &party[s])?;
    }
    let list = lua.create_table()?;
    for (i, t) in party.iter().enumerate() {
        list.raw_set(i + 1, t)?;
    }
    ctx.raw_set("alive", alive)?;
    ctx.raw_set("party", LuaValue::Nil)?;
    let battle = match ctx.raw_get::<LuaValue>("battle")? {
        LuaValue::Table(t) => t,
        _ => {
            let t = lua.create_table()?;
            ctx.raw_set("battle", &t)?;
            t
        }
    };
    battle.raw_set("game", crate::game_view::with_party(m, &list)?)?;
    Ok(party)
}

/// `ctx` of a `next(ctx)` call back in the engine's spelling: `alive` as slots (a mon table
/// by its place in `ctx.battle.game.save.party`, else its `slot`), `party` from that list,
/// `battle.game` left out.
pub fn ctx_back(ctx: &Table) -> mlua::Result<Value> {
    let party: Option<Table> = (|| -> mlua::Result<Option<Table>> {
        let LuaValue::Table(battle) = ctx.raw_get::<LuaValue>("battle")? else {
            return Ok(None);
        };
        // `game` and `save` are the read-only views `lua_view` made (their reads are ours).
        let LuaValue::Table(game) = battle.raw_get::<LuaValue>("game")? else {
            return Ok(None);
        };
        let LuaValue::Table(save) = game.get::<LuaValue>("save")? else {
            return Ok(None);
        };
        match save.get::<LuaValue>("party")? {
            LuaValue::Table(p) => Ok(Some(p)),
            _ => Ok(None),
        }
    })()?;
    let mons: Vec<Table> = match &party {
        Some(p) => p
            .sequence_values::<LuaValue>()
            .filter_map(|v| match v {
                Ok(LuaValue::Table(t)) => Some(t),
                _ => None,
            })
            .collect(),
        None => Vec::new(),
    };
    let mut slots = Vec::new();
    if let LuaValue::Table(alive) = ctx.raw_get::<LuaValue>("alive")? {
        for v in alive.sequence_values::<LuaValue>() {
            slots.push(Value::Int(slot_of(&mons, &v?).map_err(|_| {
                mlua::Error::runtime(
                    "ctx.alive: each entry must be a mon of ctx.battle.game.save.party or a slot",
                )
            })?));
        }
    }
    let bad = |e: crate::convert::CrossError| mlua::Error::runtime(format!("ctx: {}", e.0));
    let mut out = from_lua_data_only(&LuaValue::Table(ctx.clone())).map_err(bad)?;
    if let Value::Map(map) = &mut out {
        map.insert("alive".to_owned(), Value::List(slots));
        let party = match &party {
            Some(p) => from_lua_data_only(&LuaValue::Table(p.clone())).map_err(bad)?,
            None => Value::List(Vec::new()),
        };
        map.insert("party".to_owned(), party);
        if let Some(Value::Map(battle)) = map.get_mut("battle") {
            battle.remove("game");
        }
    }
    Ok(out)
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
