//! Every byte a mod's Lua state allocates during a dispatch, charged to the operation budget.
//!
//! Lua 5.1's count hook sees VM instructions only, and one instruction can copy megabytes: `..`
//! builds its result in one `OP_CONCAT` (`big .. "y"` with an 8 MiB `big` copied 8 MiB per
//! four instructions, 421 s for one dispatch before this module). So the state's allocator is
//! wrapped: every allocation made while script code runs (budget depth > 0) — a fresh block, or
//! the growth of a reallocated one — charges one unit per [`ALLOC_BYTES_PER_UNIT`] bytes to the
//! shared per-dispatch budget (`pallet_api::budget`), whatever made it (`..`, table growth,
//! closures, the C library). Frees and shrinks are not charged and never refused.
//!
//! **The stop.** Once the budget is exhausted, every further growth is refused (a `NULL`
//! answer, which Lua raises as its out-of-memory error) unless the host has lifted the gate
//! ([`Gate::lift`]: its own pushes, which run outside protected calls, where a raised error
//! would `longjmp` across Rust frames). A refused allocation is a memory error, which the
//! compat `pcall`/`xpcall`/`coroutine.resume` re-raise (and which every mlua callback,
//! `tostring`/`print`/`check` included, raises on entry while the refusal lasts), so no mod code
//! swallows it; the link reports it as the budget stop (`operation budget exhausted`), since the
//! budget is exhausted. The refusal ends with the dispatch (depth back to 0).
//!
//! **The memory limit** (`lua.max_memory`) is enforced here too, by the wrapper's own count of
//! the state's bytes, under the same gate: past it growth is refused while the gate is down.
//! Lifting the gate is one counter increment, so the host's pushes on every link call cost no
//! FFI call.
//!
//! **mlua underneath.** The wrapper forwards every call to mlua's own allocator with mlua's
//! state. mlua's own limit is set once, at install, to `isize::MAX`: never reached, but non-zero,
//! so mlua still treats memory errors as possible and runs its safe API's allocations in
//! protected calls (a refusal there is an `Err`, never a `longjmp`). mlua recognises its
//! allocator by address to reach its state, so [`set_mlua_limit`] puts mlua's allocator back for
//! the duration of `Lua::set_memory_limit` and re-installs the wrapper; [`crate::sandbox::Unlimited`]
//! uses it to set mlua's limit to 0 around mlua API conversions (unprotected, so fast), with the
//! gate lifted. While the wrapper is installed mlua reads the used memory from Lua's own count
//! (`lua_gc(COUNT)`, the same figure) and builds its C closures under `lua_cpcall`. mlua frees
//! its 24-byte accounting block at close only when it finds its own allocator installed, so that
//! block is left allocated when a state closes.
//!
//! # Safety
//!
//! The wrapper's block ([`Counter`]) lives in the state's app data, which mlua drops after
//! `lua_close` (the last allocator call); the wrapper reads `Cell`s and calls the budget's
//! non-panicking charge, nothing else.

use crate::capi;
use std::cell::Cell;
use std::os::raw::c_void;
use std::ptr;
use std::rc::Rc;

use mlua::Lua;
use pallet_api::budget::DispatchBudget;

/// Bytes of allocation one budget unit pays for (the charged C functions' rate,
/// [`crate::limits::BYTES_PER_UNIT`]).
pub const ALLOC_BYTES_PER_UNIT: u64 = crate::limits::BYTES_PER_UNIT;

/// The wrapper's block: mlua's allocator underneath, the budget, the byte remainder, the
/// memory limit and the gate.
struct Counter {
    inner: capi::lua_Alloc,
    inner_ud: *mut c_void,
    budget: Rc<DispatchBudget>,
    /// Bytes allocated but not yet charged (under one unit).
    pending: Cell<u64>,
    /// Bytes charged so far (all dispatches), for tests and diagnostics.
    charged: Cell<u64>,
    /// The state's bytes (what Lua's own `totalbytes` counts).
    used: Cell<usize>,
    /// The memory limit (0: none).
    limit: Cell<usize>,
    /// Host lifts in force ([`Gate`]); while non-zero nothing is refused.
    lifted: Rc<Cell<u32>>,
}

/// The refusal gate of one state's allocator: while a [`Lift`] lives, the wrapper refuses
/// nothing (neither the exhausted budget's growth nor growth past the memory limit). Cheap to
/// clone and to lift (a counter), so links keep one and lift it around every host push.
#[derive(Clone, Default)]
pub struct Gate(Rc<Cell<u32>>);

impl Gate {
    /// The gate of `lua`'s allocator (a detached one, lifting nothing, if the wrapper is not
    /// installed: then nothing is refused by it anyway).
    pub fn of(lua: &Lua) -> Gate {
        lua.app_data_ref::<Installed>()
            .map(|i| Gate(i.0.lifted.clone()))
            .unwrap_or_default()
    }

    /// Lift the gate until the guard drops (nests).
    pub fn lift(&self) -> Lift<'_> {
        self.raise();
        Lift(&self.0)
    }

    /// Lift without a guard (an owner that lowers it in its own drop).
    pub(crate) fn raise(&self) {
        self.0.set(self.0.get() + 1);
    }

    /// Undo one [`raise`](Self::raise).
    pub(crate) fn lower(&self) {
        self.0.set(self.0.get().saturating_sub(1));
    }
}

/// A lifted [`Gate`]; lowers it on drop.
pub struct Lift<'a>(&'a Cell<u32>);

impl Drop for Lift<'_> {
    fn drop(&mut self) {
        self.0.set(self.0.get().saturating_sub(1));
    }
}

/// Restarts the collector on drop (after the layout probe).
struct Restart<'a>(&'a Lua);

impl Drop for Restart<'_> {
    fn drop(&mut self) {
        self.0.gc_restart();
    }
}

/// The app-data owner of the wrapper's block (dropped after `lua_close`).
struct Installed(Box<Counter>);

unsafe extern "C" fn counting_alloc(
    ud: *mut c_void,
    p: *mut c_void,
    osize: usize,
    nsize: usize,
) -> *mut c_void {
    // SAFETY: `ud` is the `Counter` installed with this function (module doc).
    let c = unsafe { &*(ud as *const Counter) };
    let old = if p.is_null() { 0 } else { osize };
    if nsize > old {
        let budget = &*c.budget;
        let open = c.lifted.get() == 0;
        if budget.depth() > 0 {
            let grown = (nsize - old) as u64;
            let total = c.pending.get().saturating_add(grown);
            if total >= ALLOC_BYTES_PER_UNIT {
                c.pending.set(total % ALLOC_BYTES_PER_UNIT);
                budget.charge(total / ALLOC_BYTES_PER_UNIT);
            } else {
                c.pending.set(total);
            }
            c.charged.set(c.charged.get().saturating_add(grown));
            if open && budget.exhausted() {
                return ptr::null_mut();
            }
        }
        let limit = c.limit.get();
        if open && limit > 0 && c.used.get() - old + nsize > limit {
            return ptr::null_mut();
        }
    }
    // SAFETY: mlua's allocator with its own state, called with Lua's arguments unchanged.
    let out = unsafe { (c.inner)(c.inner_ud, p, osize, nsize) };
    if !out.is_null() || nsize == 0 {
        c.used.set(c.used.get() - old + nsize);
    }
    out
}

/// The wrapper's block of `lua`'s state, if the wrapper is installed.
///
/// # Safety
/// `state` is a live state of `lua` (mlua lock held).
unsafe fn counter_of(state: *mut capi::lua_State) -> Option<*mut c_void> {
    let mut ud = ptr::null_mut();
    // SAFETY: reads the global state's allocator pair.
    let f = unsafe { capi::lua_getallocf(state, &mut ud) };
    let ours: capi::lua_Alloc = counting_alloc;
    (ptr::fn_addr_eq(f, ours) && !ud.is_null()).then_some(ud)
}

/// Wrap `lua`'s allocator so allocations during a dispatch charge `budget` (once per state).
pub fn install(lua: &Lua, budget: Rc<DispatchBudget>) -> mlua::Result<()> {
    if lua.app_data_ref::<Installed>().is_some() {
        return Ok(());
    }
    let used = lua.used_memory();
    lua.exec_raw_lua(|raw| {
        let state = raw.state();
        let mut inner_ud = ptr::null_mut();
        // SAFETY: lock held; reads the allocator pair mlua installed.
        let inner = unsafe { capi::lua_getallocf(state, &mut inner_ud) };
        let counter = Box::new(Counter {
            inner,
            inner_ud,
            budget,
            pending: Cell::new(0),
            charged: Cell::new(0),
            used: Cell::new(used),
            limit: Cell::new(0),
            lifted: Rc::new(Cell::new(0)),
        });
        let ud = &*counter as *const Counter as *mut c_void;
        lua.set_app_data(Installed(counter));
        // SAFETY: lock held; `ud` outlives the state (module doc).
        unsafe { capi::lua_setallocf(state, counting_alloc, ud) };
    });
    // Never reached, but non-zero: mlua keeps protecting its own allocations (module doc).
    set_mlua_limit(lua, isize::MAX as usize)?;
    Ok(())
}

/// The state's memory limit, enforced by the wrapper (0: none); returns the previous one.
/// Without the wrapper, mlua's own limit.
pub fn set_memory_limit(lua: &Lua, limit: usize) -> mlua::Result<usize> {
    match lua.app_data_ref::<Installed>() {
        Some(i) => Ok(i.0.limit.replace(limit)),
        None => lua.set_memory_limit(limit),
    }
}

/// `Lua::set_memory_limit` through the wrapper: mlua's allocator back for the call (so mlua
/// finds its state), then the wrapper re-installed. Returns mlua's previous limit.
pub fn set_mlua_limit(lua: &Lua, limit: usize) -> mlua::Result<usize> {
    lua.exec_raw_lua(|raw| {
        let state = raw.state();
        // SAFETY: lock held; the pair is swapped back and forth with no Lua code between, and
        // mlua's `set_memory_limit` allocates nothing.
        unsafe {
            let Some(ud) = counter_of(state) else {
                return lua.set_memory_limit(limit);
            };
            let c = &*(ud as *const Counter);
            capi::lua_setallocf(state, c.inner, c.inner_ud);
            let prev = lua.set_memory_limit(limit);
            capi::lua_setallocf(state, counting_alloc, ud);
            prev
        }
    })
}

/// The concatenation meter of `lua`'s state (kept in its app data by the sandbox).
pub struct MeterSlot(pub Rc<ConcatMeter>);

/// [`ConcatMeter::after_c_call`] for `lua`'s state, if it has a meter (from a host function).
pub fn after_c_call(lua: &Lua) {
    if let Some(slot) = lua.app_data_ref::<MeterSlot>() {
        // SAFETY: called from the charged C-library wrappers (host functions).
        unsafe { slot.0.after_c_call() };
    }
}

/// Bytes `lua`'s state allocated while script code ran (all dispatches so far); `None` when the
/// wrapper is not installed.
pub fn charged_bytes(lua: &Lua) -> Option<u64> {
    lua.app_data_ref::<Installed>().map(|i| i.0.charged.get())
}

// Lua 5.1.5, 64-bit: `lua_State.l_G`; `global_State.{frealloc, ud}`, the concatenation
// buffer `global_State.buff.{buffer, n, buffsize}` and `global_State.totalbytes`.
const L_G: usize = 32;
const G_FREALLOC: usize = 16;
const G_UD: usize = 24;
const G_BUFF_BUFFER: usize = 88;
const G_BUFF_N: usize = 96;
const G_BUFF_SIZE: usize = 104;
const G_TOTALBYTES: usize = 120;

/// Bytes of concatenation buffer a window may use uncharged (an ordinary `..` of short strings
/// costs about what its instruction does).
pub const CONCAT_FREE_BYTES: usize = 8 * 1024;
/// The fewest VM instructions one `..` takes in a loop (the operand moves and `OP_CONCAT`): a
/// window of `HOOK_EVERY` instructions holds at most `HOOK_EVERY / 3` of them.
pub const CONCAT_MIN_INSTRUCTIONS: u64 = 3;

/// Concatenation work the allocator cannot see. Lua 5.1's `..` copies its operands into the
/// state's one concatenation buffer and interns the result: a result that is already interned
/// (`big .. "y"` in a loop builds the same string every time) costs a copy and a compare of
/// its whole length, and allocates nothing. So the count hook reads the buffer's size — the
/// biggest concatenation since the last firing, since the buffer only grows — charges it as if
/// every [`CONCAT_MIN_INSTRUCTIONS`]th instruction of the window had concatenated that many
/// bytes (past [`CONCAT_FREE_BYTES`], one unit per [`ALLOC_BYTES_PER_UNIT`]), and frees the
/// buffer (as Lua's `luaZ_freebuffer` does, accounting included) so the next window measures
/// afresh. One big `..` in a window is overcharged by up to `HOOK_EVERY / 3` times; a loop of
/// them is charged about what it copies.
///
/// Layout: [`ConcatMeter::new`] proves the offsets on the live state (the allocator pair, a
/// probe concatenation's buffer size, Lua's byte count) and refuses the state otherwise.
pub struct ConcatMeter {
    /// `global_State*` of the state (valid while it lives).
    g: *mut u8,
}

impl ConcatMeter {
    /// Find the state's concatenation buffer and prove the layout on it (before mod code runs).
    pub fn new(lua: &Lua) -> mlua::Result<ConcatMeter> {
        let refused = || {
            mlua::Error::runtime(
                "lua.concat_meter: the Lua global state does not have Lua 5.1.5's layout",
            )
        };
        if cfg!(not(target_pointer_width = "64")) {
            return Err(refused());
        }
        // SAFETY: `raw.state()` is live while the lock is held; `l_G` is its global state.
        let g = lua.exec_raw_lua(|raw| unsafe {
            *((raw.state() as *const u8).add(L_G) as *const *mut u8)
        });
        let meter = ConcatMeter { g };
        // SAFETY: the state is idle; the fields are only read.
        let pair_ok = lua.exec_raw_lua(|raw| unsafe {
            let mut ud = ptr::null_mut();
            let f = capi::lua_getallocf(raw.state(), &mut ud);
            let at_f = *(g.add(G_FREALLOC) as *const usize);
            let at_ud = *(g.add(G_UD) as *const *mut c_void);
            at_f == f as usize && at_ud == ud
        });
        if !pair_ok {
            return Err(refused());
        }
        // A concatenation longer than any before grows the buffer to exactly its length.
        const PROBE: usize = 70_001;
        let probe: mlua::Function = lua
            .load("local a, b = ... return #(a .. b)")
            .set_name("=pallet-concat-probe")
            .into_function()?;
        let a = lua.create_string(vec![b'p'; PROBE - 1])?;
        // The collector halves the buffer at the end of a cycle: none may end meanwhile.
        lua.gc_stop();
        let n = probe.call::<usize>((a, "q"));
        let restart = Restart(lua);
        let n = n?;
        // SAFETY: idle state; read, then the buffer freed as Lua frees it.
        let ok = unsafe {
            let size = meter.buffer_size();
            let buffer = *(g.add(G_BUFF_BUFFER) as *const *mut c_void);
            let total = *(g.add(G_TOTALBYTES) as *const usize);
            let counted = lua.exec_raw_lua(|raw| {
                let kb = capi::lua_gc(raw.state(), capi::LUA_GCCOUNT, 0) as usize;
                let rem = capi::lua_gc(raw.state(), capi::LUA_GCCOUNTB, 0) as usize;
                kb * 1024 + rem
            });
            n == PROBE && size == PROBE && !buffer.is_null() && total == counted
        };
        if !ok {
            return Err(refused());
        }
        // SAFETY: idle state, layout proved.
        let freed = unsafe { meter.reset() };
        if freed != PROBE || unsafe { meter.buffer_size() } != 0 {
            return Err(refused());
        }
        drop(restart);
        Ok(meter)
    }

    /// # Safety
    /// The state is alive and paused between instructions.
    unsafe fn buffer_size(&self) -> usize {
        unsafe { *(self.g.add(G_BUFF_SIZE) as *const usize) }
    }

    /// Free the concatenation buffer as `luaZ_freebuffer` does; returns its size.
    ///
    /// # Safety
    /// The state is alive and paused between instructions (no concatenation in progress).
    unsafe fn reset(&self) -> usize {
        unsafe {
            let size = self.buffer_size();
            let buffer = *(self.g.add(G_BUFF_BUFFER) as *const *mut c_void);
            if size == 0 || buffer.is_null() {
                return 0;
            }
            let f = *(self.g.add(G_FREALLOC) as *const capi::lua_Alloc);
            let ud = *(self.g.add(G_UD) as *const *mut c_void);
            f(ud, buffer, size, 0);
            *(self.g.add(G_BUFF_BUFFER) as *mut *mut c_void) = ptr::null_mut();
            *(self.g.add(G_BUFF_N) as *mut usize) = 0;
            *(self.g.add(G_BUFF_SIZE) as *mut usize) = 0;
            let total = self.g.add(G_TOTALBYTES) as *mut usize;
            *total = (*total).saturating_sub(size);
            size
        }
    }

    /// After a C library call that may have built its result in the concatenation buffer
    /// (`luaL_Buffer` joins its pieces with `lua_concat`): free the buffer, so work the charged
    /// wrapper already paid for by its bytes ([`crate::charged`]) is not charged again as a
    /// window of `..`.
    ///
    /// # Safety
    /// Called from a host function (the VM inside a C call, no concatenation pass running).
    pub unsafe fn after_c_call(&self) {
        if unsafe { self.buffer_size() } > CONCAT_FREE_BYTES {
            unsafe { self.reset() };
        }
    }

    /// From the count hook, after `window` instructions: the units the window's
    /// concatenations cost (0 when its biggest was under [`CONCAT_FREE_BYTES`]).
    ///
    /// # Safety
    /// Called from the count hook (the VM paused between two instructions).
    pub unsafe fn on_hook(&self, window: u64) -> u64 {
        let size = unsafe { self.buffer_size() };
        if size <= CONCAT_FREE_BYTES {
            return 0;
        }
        unsafe { self.reset() };
        let per = (size - CONCAT_FREE_BYTES) as u64 / ALLOC_BYTES_PER_UNIT;
        per.saturating_mul(window.div_ceil(CONCAT_MIN_INSTRUCTIONS))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pallet_api::budget::DISPATCH_LIMIT;

    fn state() -> (Lua, Rc<DispatchBudget>) {
        let lua = Lua::new();
        let budget = Rc::new(DispatchBudget::new());
        install(&lua, budget.clone()).unwrap();
        set_memory_limit(&lua, 16 << 20).unwrap();
        (lua, budget)
    }

    #[test]
    fn allocation_is_charged_only_inside_a_dispatch() {
        let (lua, budget) = state();
        let f: mlua::Function = lua
            .load("return function(n) return ('x'):rep(n) .. 'y' end")
            .eval()
            .unwrap();
        let _: mlua::LuaString = f.call(1 << 20).unwrap();
        assert_eq!(charged_bytes(&lua), Some(0));
        let _frame = budget.enter(DISPATCH_LIMIT);
        // Another length: Lua interns strings, so the first call's are found, not built.
        let _: mlua::LuaString = f.call((1 << 20) + 1).unwrap();
        // Two strings of a MiB (the `rep` and the concatenation), plus the concat buffer.
        let bytes = charged_bytes(&lua).unwrap();
        assert!(bytes >= 2 << 20, "{bytes}");
        assert!(budget.used() >= 2048, "{}", budget.used());
    }

    #[test]
    fn an_exhausted_budget_refuses_growth_while_the_limit_is_on() {
        let (lua, budget) = state();
        let _frame = budget.enter(100);
        budget.charge(101);
        let err = lua
            .load("local t = {} for i = 1, 100 do t[i] = ('z'):rep(100) .. i end")
            .exec()
            .unwrap_err();
        assert!(crate::errors::is_stop(&err), "{err}");
        // The gate lifted (the host's own pushes): nothing is refused.
        let gate = Gate::of(&lua);
        {
            let _lift = gate.lift();
            let s = lua.create_string(vec![b'a'; 4096]).unwrap();
            assert_eq!(s.as_bytes().len(), 4096);
        }
        let err = lua.create_string(vec![b'b'; 4096]).unwrap_err();
        assert!(matches!(err, mlua::Error::MemoryError(_)), "{err}");
    }

    #[test]
    fn the_memory_limit_applies_while_the_gate_is_down() {
        let (lua, _budget) = state();
        set_memory_limit(&lua, 1 << 20).unwrap();
        let err = lua
            .load("local s = ('x'):rep(1024) local t = {} for i = 1, 4096 do t[i] = s .. i end")
            .exec()
            .unwrap_err();
        assert!(matches!(err, mlua::Error::MemoryError(_)), "{err}");
        // Lifted, the limit refuses nothing; the count stays exact across lifts.
        lua.gc_collect().unwrap();
        let gate = Gate::of(&lua);
        {
            let _lift = gate.lift();
            lua.load("big = ('y'):rep(2 * 1024 * 1024)").exec().unwrap();
            lua.load("big = nil").exec().unwrap();
            lua.gc_collect().unwrap();
            lua.gc_collect().unwrap();
        }
        lua.load("local t = {} for i = 1, 100 do t[i] = i end")
            .exec()
            .unwrap();
        assert_eq!(set_memory_limit(&lua, 0).unwrap(), 1 << 20);
    }

    #[test]
    fn the_concat_meter_proves_its_layout_and_charges_a_big_window() {
        let (lua, _budget) = state();
        let meter = ConcatMeter::new(&lua).unwrap();
        let f: mlua::Function = lua
            .load("local big = ('x'):rep(64 * 1024) return function() return #(big .. 'y') end")
            .eval()
            .unwrap();
        assert_eq!(f.call::<usize>(()).unwrap(), 64 * 1024 + 1);
        let units = lua.exec_raw_lua(|_| unsafe { meter.on_hook(1_000) });
        assert_eq!(units, 56 * 334);
        // Freed: the next window starts from nothing.
        assert_eq!(lua.exec_raw_lua(|_| unsafe { meter.on_hook(1_000) }), 0);
        let small: mlua::Function = lua
            .load("return ('a'):rep(10) .. 'b'")
            .into_function()
            .unwrap();
        let _: String = small.call(()).unwrap();
        assert_eq!(lua.exec_raw_lua(|_| unsafe { meter.on_hook(1_000) }), 0);
        lua.gc_collect().unwrap();
    }
}
