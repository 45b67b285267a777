//! `onStep` and `onInteract` map-script handlers: mods' callbacks, wrapped by
//! their hosts, run when the player arrives on a cell of the map (`onStep(game, ow, x, y)`) or
//! presses A facing a cell (`onInteract(game, ow, fx, fy)`). Handlers run in the registry's
//! dispatch order; the **first truthy return consumes** the event: a consumed step takes no
//! step-on warp and rolls no encounter, a consumed A press talks to nobody. An error is
//! reported for its owner and counts as "not consumed", so the next handler (and vanilla) runs.
//!
//! A handler reaches the game through data copies ([`step_args`]) and queues script rows with
//! [`queue_rows`] (the Lua engine's `ow:queueScript(rows)`), compiled by the same op compiler
//! as registered map scripts; what it changed in its `game.save.flags`/`inventory` copy is
//! written back through [`write_back`].

use std::fmt;
use std::rc::Rc;

use pallet_api::Value;

use super::script::Script;
use super::{Overworld, WorldCtx};

/// A host-wrapped step/interact callback: `(ow, ctx, x, y)` → consumed.
pub type StepFn = dyn Fn(&mut Overworld, &mut WorldCtx<'_>, i64, i64) -> Result<bool, String>;

/// One `onStep` / `onInteract` handler.
#[derive(Clone)]
pub struct StepHandler(pub Rc<StepFn>);

impl fmt::Debug for StepHandler {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("StepHandler")
    }
}

/// Which event a handler answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepKind {
    Step,
    Interact,
}

impl StepKind {
    pub fn as_str(self) -> &'static str {
        match self {
            StepKind::Step => "onStep",
            StepKind::Interact => "onInteract",
        }
    }
}

/// The `game` and `ow` arguments of a step/interact handler (data copies):
/// `game = {mapId, save = {flags = {FLAG = true, …}, inventory = {ITEM = count, …}, party}}`
/// (`party` as the save spells it, the same records as `game.save.party` elsewhere: `species`,
/// `level`, `moves = {{id, pp}, …}`, …; read-only: a handler's changes to it are not written
/// back), `ow = {mapId, player = {cellX, cellY, facing}}`.
pub fn step_args(ow: &Overworld, ctx: &WorldCtx<'_>) -> (Value, Value) {
    let player = ow.player();
    let flags = crate::save::data::flag_map(ctx.flags.set_flags());
    let inventory = crate::save::data::item_map(ctx.bag);
    let party = pallet_api::value::to_value(ctx.party).unwrap_or(Value::List(Vec::new()));
    let game = Value::map([
        ("mapId", Value::from(ow.map_id())),
        (
            "save",
            Value::map([("flags", flags), ("inventory", inventory), ("party", party)]),
        ),
    ]);
    let view = Value::map([
        ("mapId", Value::from(ow.map_id())),
        (
            "player",
            Value::map([
                ("cellX", Value::Int(i64::from(player.x))),
                ("cellY", Value::Int(i64::from(player.y))),
                ("facing", Value::from(player.facing.as_str())),
            ]),
        ),
    ]);
    (game, view)
}

/// Apply what a handler changed in its `game.save` copy: `save_before` is the `save` record
/// [`step_args`] handed out, `save_after` the same table after the call. Flags set or cleared
/// go through the game's flag path (presentation row, `flag.changed`); item counts that changed
/// are written to the bag (0 or nil removes the stack). Everything is checked first: a
/// non-boolean flag value, an unknown item or a count outside 0..99 refuses the whole write-back
/// and names it.
pub fn write_back(
    ow: &mut Overworld,
    ctx: &mut WorldCtx<'_>,
    save_before: &Value,
    save_after: &Value,
) -> Result<(), String> {
    use std::collections::BTreeMap;
    let map_of = |v: Option<&Value>| -> BTreeMap<String, Value> {
        v.and_then(Value::as_map).cloned().unwrap_or_default()
    };
    let (fb, fa) = (
        map_of(save_before.get("flags")),
        map_of(save_after.get("flags")),
    );
    let mut flags: Vec<(String, bool)> = Vec::new();
    for (k, v) in &fa {
        let on = match v {
            Value::Bool(b) => *b,
            Value::Nil => false,
            other => {
                return Err(format!(
                    "game.save.flags.{k} must be a boolean, got {}",
                    other.type_name()
                ))
            }
        };
        if on != fb.contains_key(k) {
            flags.push((k.clone(), on));
        }
    }
    for k in fb.keys() {
        if !fa.contains_key(k) {
            flags.push((k.clone(), false));
        }
    }
    let (ib, ia) = (
        map_of(save_before.get("inventory")),
        map_of(save_after.get("inventory")),
    );
    let mut items: Vec<(String, u32)> = Vec::new();
    for (k, v) in &ia {
        let n = v
            .as_exact_int()
            .filter(|n| (0..=i64::from(crate::save::data::MAX_ITEM_COUNT)).contains(n))
            .ok_or_else(|| format!("game.save.inventory.{k} must be a whole number 0..99"))?;
        if ib.get(k) != Some(v) {
            let id = ctx
                .data
                .item_by_name(k)
                .map(|num| ctx.data.item(num).id)
                .ok_or_else(|| format!("game.save.inventory.{k}: unknown item"))?;
            items.push((id.to_owned(), n as u32));
        }
    }
    for k in ib.keys() {
        if !ia.contains_key(k) {
            items.push((k.clone(), 0));
        }
    }
    for (flag, on) in flags {
        ow.set_flag(&flag, on, ctx);
    }
    for (id, n) in items {
        match ctx.bag.iter().position(|s| s.id == id) {
            Some(i) if n == 0 => {
                ctx.bag.remove(i);
            }
            Some(i) => ctx.bag[i].count = n,
            None if n > 0 => ctx.bag.push(crate::save::data::ItemStack { id, count: n }),
            None => {}
        }
    }
    Ok(())
}

/// Compile `rows` (an op list, as `map_scripts` records hold them) and queue them as a script
/// named `source`. `Err` names the bad op; nothing is queued then.
pub fn queue_rows(
    ow: &mut Overworld,
    ctx: &WorldCtx<'_>,
    source: &str,
    rows: &Value,
) -> Result<(), String> {
    let texts = std::sync::Arc::clone(&ow.maps().texts);
    let rows = super::script::ops::compile_ops(rows, ctx.data, &texts)
        .map_err(|e| format!("queueScript: {e}"))?;
    ow.enqueue_script(Script::new(source.to_owned(), rows));
    Ok(())
}

impl Overworld {
    /// Run the map's `kind` handlers for cell `(x, y)`; returns whether one consumed it.
    pub(super) fn run_step_handlers(
        &mut self,
        kind: StepKind,
        x: i64,
        y: i64,
        ctx: &mut WorldCtx<'_>,
    ) -> bool {
        // No handler: nothing is built (an empty `Vec` does not allocate).
        let handlers = self.scripts.step_handlers(self.map_id(), kind);
        if handlers.is_empty() {
            return false;
        }
        let map = self.map_id().to_owned();
        for (owner, h) in handlers {
            match (h.0)(self, ctx, x, y) {
                Ok(true) => return true,
                Ok(false) => {}
                Err(e) => {
                    ctx.rt.report_error(&owner, &e);
                    self.diagnostic(format!("{owner}: {map}.{}: {e}", kind.as_str()));
                }
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::map_scripts::{Contribution, MapScriptRegistry};

    #[test]
    fn a_map_without_step_handlers_builds_nothing() {
        let mut r = MapScriptRegistry::new();
        r.contribute("M", "talker", 0, Contribution::default());
        for kind in [StepKind::Step, StepKind::Interact] {
            let none = r.step_handlers("M", kind);
            assert!(none.is_empty());
            assert_eq!(none.capacity(), 0, "no allocation without a handler");
            assert_eq!(r.step_handlers("OTHER", kind).capacity(), 0);
        }
    }

    #[test]
    fn step_handlers_come_in_dispatch_order_per_kind() {
        let mut r = MapScriptRegistry::new();
        let h = StepHandler(Rc::new(|_, _, _, _| Ok(true)));
        r.contribute(
            "M",
            "low",
            0,
            Contribution {
                on_step: Some(h.clone()),
                ..Default::default()
            },
        );
        r.contribute(
            "M",
            "high",
            5,
            Contribution {
                on_step: Some(h.clone()),
                on_interact: Some(h),
                ..Default::default()
            },
        );
        let owners = |kind| {
            r.step_handlers("M", kind)
                .into_iter()
                .map(|(o, _)| o)
                .collect::<Vec<_>>()
        };
        assert_eq!(owners(StepKind::Step), ["high", "low"]);
        assert_eq!(owners(StepKind::Interact), ["high"]);
    }
}
