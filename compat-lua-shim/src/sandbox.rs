//! One hardened Lua 5.1 state per mod: the Lua engine's sandbox (docs/modding-lua.md, "Sandbox
//! and limits") plus the
//! LuaJIT-dialect compat layer, an instruction budget and a memory limit.
//!
//! **Environment.** The state's globals *are* the mod's environment (`_G` is itself; one state
//! per mod, so globals are private per mod). It holds the base functions the Lua engine's
//! sandbox lists (assert, error, ipairs, next, pairs, pcall, xpcall, select, tonumber, tostring,
//! type, unpack, rawequal, rawget, rawset, rawlen, setmetatable, getmetatable, print,
//! collectgarbage, `_VERSION`), per-mod `coroutine`, `math`, `string`, `table`, `bit`, and:
//!
//! * `os` cut to `time/date/clock/difftime` ([`crate::clock`]);
//! * `debug` cut to a safe `traceback`;
//! * `load(chunk, chunkname)` (a string or a 5.1 reader function) and `loadstring`: **text
//!   only** — a chunk starting with `\27` (bytecode) is refused — compiled into the mod's env;
//! * `require`: `bit` and the loaded libraries; `io`/`os`/`debug`/`package`/`ffi` are refused
//!   with a pointer to `mod:read`/`mod:list`/`mod.save`; engine internals (`src.*`) and anything
//!   else fail with a clear message, so `pcall(require, "src.x")` probes take their fallback;
//! * `math.random`/`math.randomseed` on a per-mod seeded generator (deterministic, not C's
//!   process-global `rand()`), also as `love.math.random` (the only LÖVE member: `love.graphics`
//!   and the rest are absent); `print` goes to the mod log; `collectgarbage` only reports and
//!   collects (`stop` and tuning options are no-ops).
//!
//! Absent: io, package, dofile, loadfile, getfenv, setfenv, newproxy, module, gcinfo,
//! `string.dump`, `jit`, `ffi`.
//!
//! **Budget.** A count hook fires every [`HOOK_EVERY`] VM instructions and charges them to the
//! runtime's shared per-dispatch budget (`pallet_api::budget`). Past the limit every firing
//! raises; `pcall`, `xpcall` and `coroutine.resume` are wrapped so a mod cannot swallow the stop
//! (they re-raise it while the budget is exhausted, and re-raise every memory error; an `xpcall`
//! message handler is not run once the budget is stopped), and `print`/`mod.log` pass a stopped
//! `__tostring` on. Lua 5.1 runs `__gc` only for userdata, which mods cannot create. Coroutines
//! inherit the hook; each `coroutine.create` prepays one window (a new coroutine's count
//! starts afresh) and each resume settles the `..` work so far. C functions
//! run without instruction counts (Lua 5.1 counts VM instructions only), so a single C call —
//! a pathological string pattern, a huge `string.rep` — is bounded by the memory limit and by
//! its own work, not by the budget.
//!
//! **Memory.** The state's counting allocator caps it ([`MEMORY_LIMIT`]); an allocation past
//! it raises a memory error in the running code. Every byte allocated during a dispatch is also
//! charged to the budget, and refused once it is exhausted ([`crate::charged_alloc`]).

use crate::capi;
use std::cell::Cell;
use std::rc::Rc;

use mlua::{
    chunk::ChunkMode, Function, HookTriggers, Lua, LuaOptions, MultiValue, StdLib, Table,
    Value as LuaValue, VmState,
};
use pallet_api::budget::{DispatchBudget, BUDGET_EXHAUSTED};
use pallet_api::script_rng::ScriptRng;
use pallet_api::services::ModLog;

use crate::clock::{self, Clock, ModClock};
use crate::string_flood::FloodGuard;

/// VM instructions between two budget charges.
pub const HOOK_EVERY: u32 = 1_000;
pub use crate::limits::MEMORY_LIMIT;
/// Bytes of one log line (longer lines are cut).
pub const MAX_LOG_LINE: usize = 1_000;
/// `lua.max_chunk_bytes`: bytes of source one chunk may have (the entry, `load`, `loadstring`,
/// what a `load` reader produces). The parser interns every string constant with no hook
/// running, so the cap also bounds what a chunk of colliding constants can cost before
/// [`crate::string_flood`] sees it (about `size² / 70` compared bytes).
pub const MAX_CHUNK_BYTES: usize = 512 * 1024;
/// Bytes of source one `load` reader function may produce.
pub const MAX_READER_SOURCE: usize = MAX_CHUNK_BYTES;

/// The refusal of a chunk over [`MAX_CHUNK_BYTES`].
pub fn chunk_too_large(len: usize) -> String {
    format!("lua.max_chunk_bytes: a chunk may have at most {MAX_CHUNK_BYTES} bytes of source (this one has {len})")
}

/// What a hardened state is built from.
pub struct SandboxConfig {
    pub mod_id: String,
    pub budget: Rc<DispatchBudget>,
    pub clock: Clock,
    /// Seed of the run; mixed with the mod id for `math.random`.
    pub seed: u64,
    pub log: ModLog,
    pub memory_limit: usize,
}

/// A hardened state and its counters.
pub struct Sandbox {
    pub lua: Lua,
    /// VM instructions this state executed (in steps of [`HOOK_EVERY`]).
    pub instructions: Rc<Cell<u64>>,
    /// The per-mod generator behind `math.random`.
    pub rng: Rc<ModRng>,
    /// The string-table guard (`lua.max_string_collisions`); `flood.flooded` refuses the mod.
    pub flood: Rc<FloodGuard>,
}

/// Lets the host build values in the state with mlua's API, unrefused and fast: the
/// allocator's gate lifted ([`crate::charged_alloc::Gate`]) and mlua's own limit set to 0 for
/// the guard's life, restored on drop.
///
/// With a limit set, mlua runs every table insert as its own protected call (two C closures
/// allocated per insert, then collected): converting a 20-value context cost ~100 000
/// instructions. The host's own conversions are bounded by the engine data being converted, so
/// they run unprotected; the mod's code always runs with the gate down (the guard is dropped
/// before any Lua code is called, and re-taken around conversions inside host callbacks). The
/// raw stack pushes of [`crate::stack`] need only the gate lifted (no mlua call in them), which
/// costs no FFI call: links lift [`crate::charged_alloc::Gate`] directly.
pub struct Unlimited {
    lua: Lua,
    gate: crate::charged_alloc::Gate,
    mlua_limit: usize,
}

impl Unlimited {
    /// Lift; the drop restores mlua's limit found (`limit` if it cannot be read), so a guard
    /// taken under another keeps the outer one in force.
    pub fn new(lua: &Lua, limit: usize) -> Self {
        let gate = crate::charged_alloc::Gate::of(lua);
        gate.raise();
        let found = crate::charged_alloc::set_mlua_limit(lua, 0).unwrap_or(limit);
        Unlimited {
            lua: lua.clone(),
            gate,
            mlua_limit: found,
        }
    }
}

impl Drop for Unlimited {
    fn drop(&mut self) {
        let _ = crate::charged_alloc::set_mlua_limit(&self.lua, self.mlua_limit);
        self.gate.lower();
    }
}

/// Is the budget stopped for the script code running right now?
pub fn budget_stopped(budget: &DispatchBudget) -> bool {
    budget.depth() > 0 && budget.exhausted()
}

/// Cut `text` to the log line limit on a char boundary.
pub fn cut(text: &str) -> String {
    pallet_api::cut_at(text, MAX_LOG_LINE, "…")
}

/// A per-mod xorshift64* generator (deterministic; seeded from the run seed and the mod id).
pub struct ModRng(Cell<u64>);

impl ModRng {
    pub fn new(seed: u64, mod_id: &str) -> Self {
        // FNV-1a over the id, mixed with the run seed.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in mod_id.bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        ModRng(Cell::new(Self::scramble(h ^ seed)))
    }

    fn scramble(x: u64) -> u64 {
        // splitmix64 finaliser; never zero for the xorshift state.
        let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) | 1
    }

    pub fn reseed(&self, seed: u64) {
        self.0.set(Self::scramble(seed));
    }

    pub fn next_u64(&self) -> u64 {
        let mut x = self.0.get();
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0.set(x);
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A float in `[0, 1)`.
    pub fn float(&self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Lua 5.1 `math.random` semantics: `()` → `[0,1)`, `(m)` → `[1,m]`, `(m,n)` → `[m,n]`.
    pub fn lua_random(&self, m: Option<f64>, n: Option<f64>) -> mlua::Result<f64> {
        let r = self.float();
        let (lo, hi) = match (m, n) {
            (None, _) => return Ok(r),
            (Some(m), None) => (1.0, m.floor()),
            (Some(m), Some(n)) => (m.floor(), n.floor()),
        };
        if !lo.is_finite() || !hi.is_finite() || lo > hi {
            return Err(mlua::Error::runtime(
                "bad argument to 'random' (interval is empty)",
            ));
        }
        Ok((r * (hi - lo + 1.0)).floor() + lo)
    }
}

/// `ctx.rng` of `encounter.roll` (the Lua engine handed its RNG there): the engine-supplied
/// [`ScriptRng`] of this call, callable like `math.random` — `ctx.rng()`, `ctx.rng(m)`,
/// `ctx.rng(m, n)` — and as `ctx.rng:random(…)`. Handed back to `next(…)` inside `ctx`, it
/// crosses as `{__rng = state}` with the state where the mod left it.
pub struct RngHandle(pub Cell<ScriptRng>);

impl RngHandle {
    pub fn new(rng: ScriptRng) -> Self {
        RngHandle(Cell::new(rng))
    }

    fn draw(&self, m: Option<f64>, n: Option<f64>) -> mlua::Result<f64> {
        let mut rng = self.0.get();
        let out = rng.random(m, n).map_err(mlua::Error::runtime)?;
        self.0.set(rng);
        Ok(out)
    }
}

impl mlua::UserData for RngHandle {
    fn add_methods<M: mlua::UserDataMethods<Self>>(methods: &mut M) {
        methods.add_meta_method(
            mlua::MetaMethod::Call,
            |_, this, (m, n): (Option<f64>, Option<f64>)| this.draw(m, n),
        );
        methods.add_method("random", |_, this, (m, n): (Option<f64>, Option<f64>)| {
            this.draw(m, n)
        });
    }
}

/// The compat prelude: `pcall`, `xpcall` (LuaJIT's extra-argument form included) and
/// `coroutine.resume` re-raise a budget stop instead of swallowing it. `check` is a Rust
/// function handed in as the chunk's argument; it never becomes a global.
///
/// A budget stop raised by the count hook runs the message handler with hooks off (Lua 5.1
/// calls it inside the hook), so the mod's handler is never called once the budget is
/// stopped: `guard` returns the stop instead, and `check` re-raises it.
///
/// A new coroutine starts with a fresh instruction count, so it may run up to a whole window
/// before its own hook fires: `coroutine.create` prepays that window (`created`), and every
/// resume ends in `check`, which settles the `..` work of the window so far
/// ([`crate::charged_alloc::ConcatMeter`]). `coroutine.wrap` is rebuilt over both (Lua 5.1's
/// resumes the coroutine from C, past the wrapped `resume`), with its error rule: a string
/// error gets the caller's position.
const PRELUDE: &str = r##"
local check, stopped, created = ...
local raw_pcall, raw_xpcall, raw_resume, select, unpack = pcall, xpcall, coroutine.resume, select, unpack
local raw_create, error = coroutine.create, error
pcall = function(f, ...) return check(raw_pcall(f, ...)) end
xpcall = function(f, handler, ...)
  local guard = function(e)
    if stopped() then return e end
    return handler(e)
  end
  local n = select("#", ...)
  if n == 0 then return check(raw_xpcall(f, guard)) end
  local args = { ... }
  return check(raw_xpcall(function() return f(unpack(args, 1, n)) end, guard))
end
coroutine.resume = function(co, ...) return check(raw_resume(co, ...)) end
coroutine.create = function(f) created() return raw_create(f) end
local resume = coroutine.resume
local function pack(...) return select("#", ...), { ... } end
coroutine.wrap = function(f)
  local co = coroutine.create(f)
  return function(...)
    local n, r = pack(resume(co, ...))
    if r[1] then return unpack(r, 2, n) end
    error(r[2], 2)
  end
end
"##;

fn compile(lua: &Lua, flood: &FloodGuard, source: &[u8], name: &str) -> mlua::Result<MultiValue> {
    if source.len() > MAX_CHUNK_BYTES {
        return Ok(MultiValue::from_iter([
            LuaValue::Nil,
            LuaValue::String(lua.create_string(chunk_too_large(source.len()))?),
        ]));
    }
    if source.first() == Some(&0x1b) {
        return Ok(MultiValue::from_iter([
            LuaValue::Nil,
            LuaValue::String(
                lua.create_string(
                    "binary chunks are not accepted: mods load Lua source text only",
                )?,
            ),
        ]));
    }
    let compiled = lua
        .load(source)
        .set_name(name)
        .set_mode(ChunkMode::Text)
        .into_function();
    // SAFETY: called from a host function (the VM paused between instructions).
    if unsafe { flood.after_compile() } {
        return Err(mlua::Error::runtime(crate::string_flood::FLOOD_MESSAGE));
    }
    match compiled {
        Ok(f) => Ok(MultiValue::from_iter([LuaValue::Function(f)])),
        Err(e) => Ok(MultiValue::from_iter([
            LuaValue::Nil,
            LuaValue::String(lua.create_string(crate::errors::short(&e))?),
        ])),
    }
}

/// `load(chunk [, chunkname])` / `loadstring(s [, chunkname])` (text only, mod env).
fn install_loaders(lua: &Lua, g: &Table, flood: &Rc<FloodGuard>) -> mlua::Result<()> {
    let guard = flood.clone();
    let load = lua.create_function(move |lua, (chunk, name): (LuaValue, Option<String>)| {
        let name = name.unwrap_or_else(|| "=(load)".to_owned());
        match chunk {
            LuaValue::String(s) => compile(lua, &guard, &s.as_bytes(), &name),
            LuaValue::Function(reader) => {
                let mut source: Vec<u8> = Vec::new();
                loop {
                    match reader.call::<LuaValue>(())? {
                        LuaValue::String(piece) if !piece.as_bytes().is_empty() => {
                            source.extend_from_slice(&piece.as_bytes());
                            if source.len() > MAX_READER_SOURCE {
                                return Err(mlua::Error::runtime(chunk_too_large(source.len())));
                            }
                        }
                        LuaValue::Nil | LuaValue::String(_) => break,
                        _ => {
                            return Err(mlua::Error::runtime(
                                "load: reader function must return a string",
                            ))
                        }
                    }
                }
                compile(lua, &guard, &source, &name)
            }
            other => Err(mlua::Error::runtime(format!(
                "bad argument #1 to 'load' (string expected, got {})",
                other.type_name()
            ))),
        }
    })?;
    g.set("load", load)?;
    let guard = flood.clone();
    let loadstring =
        lua.create_function(move |lua, (s, name): (mlua::LuaString, Option<String>)| {
            let bytes = s.as_bytes();
            let name = name.unwrap_or_else(|| {
                let text = String::from_utf8_lossy(&bytes);
                let first = text
                    .lines()
                    .next()
                    .unwrap_or("")
                    .chars()
                    .take(60)
                    .collect::<String>();
                format!("[string \"{first}\"]")
            });
            let name = if name.starts_with('@') || name.starts_with('=') {
                name
            } else {
                format!("={name}")
            };
            compile(lua, &guard, &bytes, &name)
        })?;
    g.set("loadstring", loadstring)?;
    Ok(())
}

fn install_require(lua: &Lua, g: &Table, bit: Table) -> mlua::Result<()> {
    let require = lua.create_function(move |lua, name: String| -> mlua::Result<LuaValue> {
        let g = lua.globals();
        match name.as_str() {
            "bit" | "bit32" => Ok(LuaValue::Table(bit.clone())),
            "string" | "table" | "math" | "coroutine" => g.raw_get(name.as_str()),
            "io" | "os" | "debug" | "package" | "ffi" => Err(mlua::Error::runtime(format!(
                "require '{name}' is not available to mods: read the mod's own files with mod:read/mod:list and keep data in mod.save"
            ))),
            n if n == "src" || n.starts_with("src.") || n.starts_with("src/") => {
                Err(mlua::Error::runtime(format!(
                    "module '{name}' is an engine internal of the Lua engine; Pallet does not provide it (see docs/modding-lua.md)"
                )))
            }
            n if n.starts_with("love") || n.starts_with("jit") || n.starts_with("ffi") => {
                Err(mlua::Error::runtime(format!(
                    "module '{name}' is not available: Pallet has no LÖVE or LuaJIT runtime"
                )))
            }
            _ => Err(mlua::Error::runtime(format!(
                "module '{name}' not found (mods load their own files with mod:read and load)"
            ))),
        }
    })?;
    g.set("require", require)
}

fn install_debug(lua: &Lua, g: &Table) -> mlua::Result<()> {
    let debug = lua.create_table()?;
    let traceback = lua.create_function(|lua, (msg, level): (LuaValue, Option<usize>)| {
        let has_msg = !msg.is_nil();
        let msg = match msg {
            LuaValue::Nil => String::new(),
            LuaValue::String(s) => s.to_string_lossy(),
            LuaValue::Number(n) => n.to_string(),
            LuaValue::Integer(n) => n.to_string(),
            other => return Ok(other),
        };
        let mut out = msg;
        if has_msg {
            out.push('\n');
        }
        out.push_str("stack traceback:");
        let start = level.unwrap_or(1);
        for level in start..start + 24 {
            let line = lua.inspect_stack(level, |d| {
                let src = d.source();
                let short = src.short_src.as_deref().unwrap_or("?").to_owned();
                let name = d.names().name.as_deref().map(str::to_owned);
                match (d.current_line(), name) {
                    (Some(l), Some(n)) => format!("\n\t{short}:{l}: in function '{n}'"),
                    (Some(l), None) => format!("\n\t{short}:{l}: in function <{short}>"),
                    (None, Some(n)) => format!("\n\t[C]: in function '{n}'"),
                    (None, None) => "\n\t[C]: ?".to_owned(),
                }
            });
            match line {
                Some(l) => out.push_str(&l),
                None => break,
            }
        }
        Ok(LuaValue::String(lua.create_string(out)?))
    })?;
    debug.set("traceback", traceback)?;
    g.set("debug", debug)
}

fn install_misc(lua: &Lua, g: &Table, log: ModLog, rng: Rc<ModRng>) -> mlua::Result<()> {
    let tostring: Function = g.get("tostring")?;
    let print = lua.create_function(move |_, args: MultiValue| {
        let mut parts = Vec::with_capacity(args.len());
        for a in args {
            // A `__tostring` stopped by the budget or the memory limit stops the caller too.
            match tostring.call::<String>(a) {
                Ok(s) => parts.push(s),
                Err(e) if crate::errors::is_stop(&e) => return Err(e),
                Err(_) => parts.push(String::new()),
            }
        }
        log.info(&cut(&parts.join("\t")));
        Ok(())
    })?;
    g.set("print", print)?;
    let collect = lua.create_function(|lua, (opt, _arg): (Option<String>, LuaValue)| match opt
        .as_deref()
        .unwrap_or("collect")
    {
        "count" => Ok(lua.used_memory() as f64 / 1024.0),
        "collect" => lua.gc_collect().map(|()| 0.0),
        "step" => lua.gc_step().map(|done| if done { 1.0 } else { 0.0 }),
        _ => Ok(0.0),
    })?;
    g.set("collectgarbage", collect)?;
    g.set(
        "rawlen",
        lua.create_function(|_, v: LuaValue| match v {
            LuaValue::Table(t) => Ok(t.raw_len() as f64),
            LuaValue::String(s) => Ok(s.as_bytes().len() as f64),
            _ => Err(mlua::Error::runtime(
                "bad argument #1 to 'rawlen' (table or string expected)",
            )),
        })?,
    )?;

    let math: Table = g.get("math")?;
    let r = rng.clone();
    let random =
        lua.create_function(move |_, (m, n): (Option<f64>, Option<f64>)| r.lua_random(m, n))?;
    math.set("random", random.clone())?;
    // LÖVE's one platform-free call mods make: `love.math.random` (the same arguments as
    // `math.random`), on the same per-mod generator. Nothing else of LÖVE exists, so
    // `love and love.graphics` probes take their fallback.
    let love_math = lua.create_table()?;
    love_math.set("random", random)?;
    let love = lua.create_table()?;
    love.set("math", love_math)?;
    g.set("love", love)?;
    math.set(
        "randomseed",
        lua.create_function(move |_, x: f64| {
            rng.reseed(x.to_bits());
            Ok(())
        })?,
    )?;

    let table: Table = g.get("table")?;
    let unpack: Function = g.get("unpack")?;
    table.set("unpack", unpack)?;
    table.set(
        "pack",
        lua.create_function(|lua, args: MultiValue| {
            let t = lua.create_table_with_capacity(args.len(), 1)?;
            let n = args.len();
            for (i, v) in args.into_iter().enumerate() {
                t.raw_set(i + 1, v)?;
            }
            t.raw_set("n", n as f64)?;
            Ok(t)
        })?,
    )?;
    Ok(())
}

/// The collector's pause, by how much of its memory limit a state uses.
///
/// A small heap can let garbage pile up longer before a cycle starts: Lua 5.1 starts a cycle
/// when the heap reaches `pause`% of what the last cycle left live, and the work of a cycle is
/// about the live heap, so the collector's cost per allocated byte falls as `1 / (pause − 100)`.
/// The pause is raised only while the heap is far below the limit (the next cycle then starts
/// by half the limit at the latest): under 1/16 of it, 800%; under 1/8, 400%; otherwise Lua's
/// default 200%. Re-checked every budget charge ([`HOOK_EVERY`] VM instructions), set only when
/// the tier changes. The hot hook links allocate a context table and a `next` closure per call,
/// so this is most of their collector cost.
pub struct GcPacer {
    limit: usize,
    pause: Cell<i32>,
}

impl GcPacer {
    pub fn new(limit: usize) -> Self {
        GcPacer {
            limit,
            pause: Cell::new(0),
        }
    }

    /// The pause for `used` bytes under this pacer's limit.
    pub fn pause_for(&self, used: usize) -> i32 {
        match self.limit {
            0 => 200,
            limit if used.saturating_mul(16) < limit => 800,
            limit if used.saturating_mul(8) < limit => 400,
            _ => 200,
        }
    }

    pub fn adjust(&self, lua: &Lua) {
        let pause = self.pause_for(lua.used_memory());
        if pause != self.pause.get() {
            self.pause.set(pause);
            // SAFETY: `lua_gc(SETPAUSE)` only stores the parameter (no allocation, no error).
            lua.exec_raw_lua(|raw| unsafe {
                capi::lua_gc(raw.state(), capi::LUA_GCSETPAUSE, pause);
            });
        }
    }
}

/// Build a hardened state for one mod.
pub fn new_state(cfg: &SandboxConfig) -> mlua::Result<Sandbox> {
    let lua = Lua::new_with(
        StdLib::TABLE | StdLib::STRING | StdLib::MATH,
        LuaOptions::default(),
    )?;
    let g = lua.globals();
    for name in [
        "dofile",
        "loadfile",
        "load",
        "loadstring",
        "getfenv",
        "setfenv",
        "newproxy",
        "module",
        "require",
        "gcinfo",
        "io",
        "os",
        "debug",
        "package",
        "jit",
        "ffi",
    ] {
        g.raw_set(name, LuaValue::Nil)?;
    }
    let string: Table = g.get("string")?;
    string.raw_set("dump", LuaValue::Nil)?;
    g.raw_set("_G", g.clone())?;

    let instructions = Rc::new(Cell::new(0u64));
    let rng = Rc::new(ModRng::new(cfg.seed, &cfg.mod_id));
    let bit = crate::bit::install(&lua)?;
    g.set("bit", bit.clone())?;
    g.set(
        "os",
        clock::install(
            &lua,
            Rc::new(ModClock::new(cfg.clock, instructions.clone())),
        )?,
    )?;
    let flood = Rc::new(FloodGuard::new(&lua)?);
    let concat = Rc::new(crate::charged_alloc::ConcatMeter::new(&lua)?);
    lua.set_app_data(crate::charged_alloc::MeterSlot(concat.clone()));
    install_loaders(&lua, &g, &flood)?;
    install_require(&lua, &g, bit)?;
    install_debug(&lua, &g)?;
    install_misc(&lua, &g, cfg.log.clone(), rng.clone())?;
    crate::charged::install(&lua, &g, cfg.budget.clone(), cfg.memory_limit)?;

    let budget = cfg.budget.clone();
    // After a protected call: re-raise a budget stop; show a host error caught by the mod as
    // its one-line message (a plain string, as a Lua error would be), not mlua's wrapper.
    let flooded = flood.flooded.clone();
    let meter = concat.clone();
    let check = lua.create_function(move |lua, mut args: MultiValue| {
        // The `..` work of a coroutine's (or protected call's) window so far, settled now.
        // SAFETY: a host function (the VM inside a C call, no concatenation running).
        let units = unsafe { meter.on_hook(u64::from(HOOK_EVERY)) };
        if units > 0 && budget.depth() > 0 && budget.charge(units) {
            return Err(mlua::Error::runtime(BUDGET_EXHAUSTED));
        }
        if budget_stopped(&budget) {
            return Err(mlua::Error::runtime(BUDGET_EXHAUSTED));
        }
        // A flooded string table is not the mod's to catch either.
        if flooded.get() {
            return Err(mlua::Error::runtime(crate::string_flood::FLOOD_MESSAGE));
        }
        let failed = matches!(args.front(), Some(LuaValue::Boolean(false)));
        // A memory error is not the mod's to catch either: re-raised past every pcall.
        if failed && crate::errors::is_memory_error(args.get(1)) {
            return Err(mlua::Error::MemoryError(
                crate::errors::MEMORY_STOP.to_owned(),
            ));
        }
        if let (true, Some(LuaValue::Error(e))) = (failed, args.get(1)) {
            let text = crate::errors::short(e);
            args[1] = LuaValue::String(lua.create_string(text)?);
        }
        Ok(args)
    })?;
    let budget = cfg.budget.clone();
    let stopped = lua.create_function(move |_, ()| Ok(budget_stopped(&budget)))?;
    // A new coroutine's first window, prepaid.
    let budget = cfg.budget.clone();
    let created =
        lua.create_function(move |_, ()| crate::limits::charge(&budget, u64::from(HOOK_EVERY)))?;
    lua.load(PRELUDE)
        .set_name("=pallet-prelude")
        .set_mode(ChunkMode::Text)
        .call::<()>((check, stopped, created))?;

    let budget = cfg.budget.clone();
    let counted = instructions.clone();
    let pacer = GcPacer::new(cfg.memory_limit);
    pacer.adjust(&lua);
    let guard = flood.clone();
    lua.set_global_hook(
        HookTriggers::new().every_nth_instruction(HOOK_EVERY),
        move |lua, _debug| {
            counted.set(counted.get().saturating_add(u64::from(HOOK_EVERY)));
            pacer.adjust(lua);
            // SAFETY: the count hook runs with the VM paused between two instructions.
            let mut units = u64::from(HOOK_EVERY);
            if let Some((scan, flooded)) = unsafe { guard.on_hook() } {
                if flooded {
                    let _ = budget.charge(units);
                    return Err(mlua::Error::runtime(crate::string_flood::FLOOD_MESSAGE));
                }
                units += scan;
            }
            // SAFETY: as above (no concatenation in progress between instructions).
            units = units.saturating_add(unsafe { concat.on_hook(u64::from(HOOK_EVERY)) });
            if budget.charge(units) {
                Err(mlua::Error::runtime(BUDGET_EXHAUSTED))
            } else {
                Ok(VmState::Continue)
            }
        },
    )?;
    crate::charged_alloc::install(&lua, cfg.budget.clone())?;
    crate::charged_alloc::set_memory_limit(&lua, cfg.memory_limit)?;
    Ok(Sandbox {
        lua,
        instructions,
        rng,
        flood,
    })
}
