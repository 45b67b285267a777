//! The normal save a script asks for: the Lua engine's `game:writeSave()` (the public autosave
//! mod calls it once the player is back in free roam), and the top screen it checks first
//! (`game.stack:top().isOverworld`).
//!
//! The front end names the save file ([`set_target`]: `pallet run --save PATH`); a request
//! writes the lent game there through [`Game::write_save_file`] (so `save.write` may veto and
//! `save.writing` fires, as for any save), with the mods' `mod.save` buckets of the loan. A
//! request outside a safe point, or in a run with no save file, is refused with a message.
//! [`ensure_written`] is the save-state tools' `checkpoints:ensureNormalSave`: the same write,
//! only when no save file exists yet.

use std::cell::RefCell;
use std::path::PathBuf;

use pallet_api::Value;

use crate::game::lend::with_lent;
use crate::game::Mode;

thread_local! {
    /// Where a script's save request writes (the front end's save file), if anywhere.
    static TARGET: RefCell<Option<PathBuf>> = const { RefCell::new(None) };
}

/// Name (or clear) the file script save requests write on this thread.
pub fn set_target(path: Option<PathBuf>) {
    TARGET.with(|t| *t.borrow_mut() = path);
}

/// `game:writeSave()`: write the lent game to the front end's save file. `Ok(false)`: a
/// `save.write` link vetoed it.
pub fn write_now() -> Result<bool, String> {
    let Some(path) = TARGET.with(|t| t.borrow().clone()) else {
        return Err(
            "game:writeSave(): this run has no save file (pallet run --save PATH \
                    names one)"
                .to_owned(),
        );
    };
    with_lent(|lent| match lent {
        Some(l) => {
            if let Some(store) = &l.mod_data {
                if let Value::Map(buckets) = store.to_value() {
                    l.game.save.mod_data = buckets;
                }
            }
            l.game
                .write_save_file(&path)
                .map_err(|e| format!("game:writeSave(): cannot write {}: {e}", path.display()))
        }
        None => Err(
            "game:writeSave() works only at a safe point (game.ready, input.step, \
                     core.update, a signal between ticks)"
                .to_owned(),
        ),
    })
}

/// `checkpoints:ensureNormalSave(game, checkpoint)` (the later Lua engine's, for save-state
/// tools): make sure an ordinary save exists for this playthrough once a tool has committed
/// its first checkpoint. An existing save file is never rewritten; otherwise the lent game is
/// written as by [`write_now`]. Refusals: `("save_unavailable", message)` without a save
/// file or outside a safe point, `("save_failed", message)` for a veto or a write error.
pub fn ensure_written() -> Result<(), (&'static str, String)> {
    let Some(path) = TARGET.with(|t| t.borrow().clone()) else {
        return Err((
            "save_unavailable",
            "this run has no save file (pallet run --save PATH names one)".to_owned(),
        ));
    };
    if path.is_file() {
        return Ok(());
    }
    match write_now() {
        Ok(true) => Ok(()),
        Ok(false) => Err((
            "save_failed",
            "a save.write link vetoed the save".to_owned(),
        )),
        Err(e) if e.contains("safe point") => Err(("save_unavailable", e)),
        Err(e) => Err(("save_failed", e)),
    }
}

/// `game.stack:top()`, duck-typed as the Lua engine's mods read it: `{isOverworld = true}`
/// when the lent game is in free roam (the overworld, no battle, nothing running: no text,
/// script, warp or step in progress), else `{isOverworld = false}`; outside a safe point
/// (mid-tick) the world is between steps, so `false` as well.
pub fn stack_top() -> Value {
    let free = with_lent(|lent| {
        lent.is_some_and(|l| {
            l.game.mode == Mode::Overworld
                && l.game.overworld().is_some()
                && l.game.busy().is_none()
        })
    });
    Value::map([("isOverworld", Value::Bool(free))])
}
