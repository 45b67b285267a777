//! Which parameters a Lua wrapper may read: a conservative scan of its Lua 5.1 bytecode, so a
//! hook link does not convert an argument the wrapper never looks at (issue 10's `lua_link`
//! speed; the Rhai host skips unnamed parameters the same way).
//!
//! At `hooks:wrap` time the wrapper is dumped once (`lua_dump`; mods cannot call `string.dump`,
//! the host can) and the top-level function's code is scanned: parameter `i` (0 = `next`,
//! 1.. = the hook's parameters) lives in register `i`, and a register counts as read when any
//! instruction *may* read it. Writes never un-mark, jumps are ignored (every instruction counts,
//! reachable or not), and anything not understood — a C function, a dump that does not parse,
//! an unknown opcode — marks every parameter read. Nested closures reach a parameter only
//! through the `MOVE` pseudo-instructions after `CLOSURE`, which the scan reads like any `MOVE`.
//! Extra arguments of a vararg function (`function(next, ...)`) are read through `...` (or the
//! Lua 5.0 `arg` table), so they count as read.
//!
//! A parameter whose register is read *only* by `GETTABLE` with a constant key (`ctx.user`)
//! never escapes: it is not passed, returned, stored, captured, iterated or compared. Such a
//! parameter is pushed with only the fields named by those keys ([`crate::stack::push_fields`]).
//!
//! **Paths one level deeper and more** ([`ReadPaths`], the api's one read-path type). Lua 5.1 compiles `ctx.user.hp` to
//! `GETTABLE A ctx K("user")` immediately followed by `GETTABLE A A K("hp")`: the temporary
//! `A` is both read and overwritten by the second instruction. So a keyed read of a parameter
//! whose next instruction is such a `GETTABLE A A K` with a constant *string* key reads the
//! path `user.hp` rather than the field `user` whole, and further `GETTABLE A A K` links extend
//! the path (`ctx.a.b.c`). Any other next instruction (a call, `SELF`, a comparison, a number
//! key, a key in a register, a store) ends the path there and that field is read whole; a field
//! read whole by any one instruction is whole, whatever paths below it others read. A field
//! with sub-paths is pushed as a table of just those sub-fields, recursively.
//!
//! Why the intermediate table cannot be observed beyond the keys on its path:
//!
//! 1. *It flows only into the next instruction.* `GETTABLE` is not a branch and writes only
//!    `R(A)`, so after `GETTABLE A p K1` the very next instruction to run is the one at
//!    `pc + 1` — whatever jumps elsewhere may target. That instruction reads `R(A)` only as the
//!    table it indexes by the constant `K2`, and replaces `R(A)` with the result before any
//!    other instruction runs: the value `ctx.user` is dead after it. (A jump landing on the
//!    second instruction brings some other value in `A`; the scan judges each `GETTABLE` by its
//!    own successor, and the second instruction also counts as a keyed read of `R(A)` in its
//!    own right, so nothing is lost when `A` happens to be a parameter register.)
//! 2. *Indexing it runs no code.* The tables the link pushes are fresh and plain: no
//!    metatable, so no `__index` function could receive the filtered table. A value of any other
//!    type (string, number, boolean, nil) is pushed identically filtered or not — filtering only
//!    drops fields of structs — so its metatable (the shared string one) sees the same value.
//!    The one table the link replaces after the push, `ctx.rng` of hooks with
//!    `CTX_RNG` (a marker turned into a userdata), is always pushed whole
//!    (`crate::link`), so the marker is there to be found. The `game` argument gets the
//!    shared game-view metatable after the push (`crate::game_view`): its `__index` and
//!    `__newindex` are host functions that answer only `save`/`data` (or raise), never hand the
//!    table to Lua code, and see no field the filter dropped (`getmetatable` answers `false`).
//! 3. *Nothing else can look at the register in between.* The only code that may run between
//!    the two instructions is the host's own instruction-count hook; mods have no
//!    `debug.getlocal` (see below). The compiler never uses the register of an active local as
//!    a temporary, and a local captured by a closure is closed when its scope ends, so no open
//!    upvalue aliases `A` while it holds the intermediate table; an error raised at that point
//!    (a budget stop from the hook) unwinds the frame and the table with it.
//! 4. *The same values are read.* Every key on every path is kept with its own value (whole at
//!    the path's end, filtered only where every read of it continues by a constant string key),
//!    so each `GETTABLE` on a path yields what it would on the whole argument — including `nil`
//!    for a field the context does not have, and the same error for indexing a non-table.
//!
//! **Why an unread parameter may be `nil`.** The sandbox gives mods no way to look at a
//! register other than through the function's own code: `debug` is cut to `traceback` (which
//! reads source, line and function names, never locals), and `string.dump`, `getfenv`/`setfenv`,
//! `load` of binary chunks and `newproxy` are removed (`crate::sandbox`). So a parameter whose
//! register no instruction reads is unobservable, and the link pushes `nil` in its place.

use crate::capi;
use std::collections::BTreeMap;
use std::os::raw::{c_int, c_void};

use mlua::{Function, Lua};
use pallet_api::script::ReadPaths;

use crate::sandbox::Unlimited;

/// The parameters a wrapper may read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reads {
    /// Bit `i`: register `i` (0 = `next`) may be read in any way. Registers from 63 up share
    /// bit 63.
    pub full: u64,
    /// Registers (below 63) not in `full` that are only ever indexed with constant keys
    /// (`r.key`, `GETTABLE` with a constant operand), with the string-key paths read through
    /// them: a table in such a register never escapes, so only these fields of it can be seen.
    pub keyed: BTreeMap<usize, ReadPaths>,
}

impl Reads {
    /// Every parameter read (the answer whenever the scan is not sure).
    pub const ALL: Reads = Reads {
        full: u64::MAX,
        keyed: BTreeMap::new(),
    };

    /// Register `r` may be read (wholly or by some constant keys).
    pub fn reads(&self, r: usize) -> bool {
        self.full & bit(r) != 0 || self.keyed.contains_key(&r)
    }

    /// The constant-key paths register `r` is read through, when that is all that reads it.
    pub fn keys(&self, r: usize) -> Option<&ReadPaths> {
        if self.full & bit(r) != 0 {
            return None;
        }
        self.keyed.get(&r)
    }

    /// The hook parameters (registers `1..=n`) as a mask with bit `j` for parameter `j`.
    pub fn hook_params(&self, n: usize) -> u64 {
        (0..n.min(64))
            .filter(|&j| self.reads(j + 1))
            .fold(0, |m, j| m | 1 << j)
    }
}

fn bit(r: usize) -> u64 {
    1 << r.min(63)
}

/// The parameters Lua function `f` may read (see the module documentation).
pub fn of_function(lua: &Lua, limit: usize, f: &Function) -> Reads {
    match dump(lua, limit, f) {
        Some(bytes) => scan(&bytes),
        None => Reads::ALL,
    }
}

/// `lua_dump` of `f`, or `None` for a C function or a failed dump.
fn dump(lua: &Lua, limit: usize, f: &Function) -> Option<Vec<u8>> {
    unsafe extern "C-unwind" fn writer(
        _state: *mut capi::lua_State,
        buf: *const c_void,
        len: usize,
        data: *mut c_void,
    ) -> c_int {
        if !data.is_null() && !buf.is_null() && len > 0 {
            // SAFETY: `data` is the `Vec<u8>` handed to `lua_dump` below, alive for the call;
            // `buf` holds `len` bytes (lua_Writer contract). Extending a Vec cannot unwind
            // except on allocation failure, which aborts.
            let out = &mut *(data as *mut Vec<u8>);
            out.extend_from_slice(std::slice::from_raw_parts(buf as *const u8, len));
        }
        0
    }
    // Dumping allocates nothing in Lua 5.1, but the limit is lifted anyway so no memory error
    // could `longjmp` across this frame.
    let _unlimited = Unlimited::new(lua, limit);
    lua.exec_raw_lua(|raw| {
        let state = raw.state();
        // SAFETY: lock held (exec_raw_lua), limit lifted, stack space checked; the pushed
        // function is popped on every path.
        unsafe {
            if capi::lua_checkstack(state, 2) == 0 {
                return None;
            }
            let top = capi::lua_gettop(state);
            if raw.push(f).is_err() {
                capi::lua_settop(state, top);
                return None;
            }
            let mut out: Vec<u8> = Vec::new();
            let ok = capi::lua_iscfunction(state, -1) == 0
                && capi::lua_dump(state, writer, &mut out as *mut Vec<u8> as *mut c_void, 0) == 0;
            capi::lua_settop(state, top);
            ok.then_some(out)
        }
    })
}

/// Lua 5.1 opcodes the scan names (`lopcodes.h` order).
mod op {
    pub const MOVE: u32 = 0;
    pub const LOADK: u32 = 1;
    pub const LOADBOOL: u32 = 2;
    pub const LOADNIL: u32 = 3;
    pub const GETUPVAL: u32 = 4;
    pub const GETGLOBAL: u32 = 5;
    pub const GETTABLE: u32 = 6;
    pub const SETGLOBAL: u32 = 7;
    pub const SETUPVAL: u32 = 8;
    pub const SETTABLE: u32 = 9;
    pub const NEWTABLE: u32 = 10;
    pub const SELF: u32 = 11;
    pub const ADD: u32 = 12;
    pub const POW: u32 = 17;
    pub const UNM: u32 = 18;
    pub const NOT: u32 = 19;
    pub const LEN: u32 = 20;
    pub const CONCAT: u32 = 21;
    pub const JMP: u32 = 22;
    pub const EQ: u32 = 23;
    pub const LT: u32 = 24;
    pub const LE: u32 = 25;
    pub const TEST: u32 = 26;
    pub const TESTSET: u32 = 27;
    pub const CALL: u32 = 28;
    pub const TAILCALL: u32 = 29;
    pub const RETURN: u32 = 30;
    pub const FORLOOP: u32 = 31;
    pub const FORPREP: u32 = 32;
    pub const TFORLOOP: u32 = 33;
    pub const SETLIST: u32 = 34;
    pub const CLOSE: u32 = 35;
    pub const CLOSURE: u32 = 36;
    pub const VARARG: u32 = 37;
}

/// `VARARG_ISVARARG` of `lobject.h`: the function takes `...`.
const VARARG_ISVARARG: u8 = 2;
/// `BITRK` of `lopcodes.h`: an RK operand at or above this names a constant.
const BITRK: u32 = 256;
/// Constant type tags of a dumped chunk (`lua.h`).
const LUA_TNIL: u8 = 0;
const LUA_TBOOLEAN: u8 = 1;
const LUA_TNUMBER: u8 = 3;
const LUA_TSTRING: u8 = 4;

/// The registers a dumped Lua 5.1 chunk's top-level function may read ([`Reads::ALL`] when the
/// chunk does not parse as one).
pub fn scan(chunk: &[u8]) -> Reads {
    scan_checked(chunk).unwrap_or(Reads::ALL)
}

/// A little-endian reader over the chunk (the header says how wide `int` and `size_t` are).
struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
    int: usize,
    size_t: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.pos.checked_add(n)?;
        let s = self.bytes.get(self.pos..end)?;
        self.pos = end;
        Some(s)
    }

    fn byte(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }

    fn uint(&mut self, width: usize) -> Option<u64> {
        let s = self.take(width)?;
        if width > 8 {
            return None;
        }
        Some(s.iter().rev().fold(0u64, |v, &b| (v << 8) | u64::from(b)))
    }

    fn int(&mut self) -> Option<u64> {
        self.uint(self.int)
    }

    /// A dumped string: its bytes without the trailing NUL (`None` for a missing string).
    fn string(&mut self) -> Option<&'a [u8]> {
        let len = usize::try_from(self.uint(self.size_t)?).ok()?;
        let s = self.take(len)?;
        Some(s.strip_suffix(&[0]).unwrap_or(s))
    }
}

fn scan_checked(chunk: &[u8]) -> Option<Reads> {
    // Header: "\x1bLua", version 0x51, format 0, little-endian (1), sizeof int, size_t,
    // Instruction (4), lua_Number, integral flag.
    let header = chunk.get(..12)?;
    if &header[..4] != b"\x1bLua" || header[4] != 0x51 || header[5] != 0 || header[6] != 1 {
        return None;
    }
    if header[9] != 4 {
        return None;
    }
    let number = usize::from(header[10]);
    let mut r = Reader {
        bytes: chunk,
        pos: 12,
        int: usize::from(header[7]),
        size_t: usize::from(header[8]),
    };
    r.string()?; // source
    r.int()?; // linedefined
    r.int()?; // lastlinedefined
    let _nups = r.byte()?;
    let numparams = usize::from(r.byte()?);
    let is_vararg = r.byte()?;
    let _maxstack = r.byte()?;
    let n = usize::try_from(r.int()?).ok()?;
    let code = r.take(n.checked_mul(4)?)?;
    let code: Vec<u32> = code
        .chunks_exact(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect();
    // Registers past the declared parameters hold locals and temporaries, not arguments.
    let declared = if numparams >= 64 {
        u64::MAX
    } else {
        (1u64 << numparams) - 1
    };
    let (full, gets) = scan_code(&code)?;
    let mut full = full & declared;
    // Arguments past the declared parameters: `...` (or `arg`) reads them; otherwise Lua
    // drops them.
    if is_vararg & VARARG_ISVARARG != 0 {
        full |= !declared;
    }
    // The constants (after the code): the names of the constant keys.
    let mut keyed: BTreeMap<usize, ReadPaths> = BTreeMap::new();
    if !gets.is_empty() {
        let n = usize::try_from(r.int()?).ok()?;
        let mut constants = Vec::with_capacity(n.min(1 << 16));
        for _ in 0..n {
            constants.push(match r.byte()? {
                LUA_TNIL => None,
                LUA_TBOOLEAN => r.byte().map(|_| None)?,
                LUA_TNUMBER => r.take(number).map(|_| None)?,
                LUA_TSTRING => Some(String::from_utf8_lossy(r.string()?).into_owned()),
                _ => return None,
            });
        }
        let mut path: Vec<String> = Vec::new();
        for (reg, ks) in gets {
            if reg as usize >= numparams.min(63) || full & bit(reg as usize) != 0 {
                continue;
            }
            let paths = keyed.entry(reg as usize).or_default();
            // The chain's string keys; a key that is not a string constant ends it. A first
            // key that is not one names no struct field: nothing to keep.
            path.clear();
            path.extend(
                ks.iter()
                    .map_while(|&k| constants.get(k as usize).cloned().flatten()),
            );
            if !path.is_empty() {
                paths.insert(&path);
            }
        }
    }
    Some(Reads { full, keyed })
}

/// A keyed read: the register indexed and the constants of the chain (`GETTABLE A r K1`, then
/// each `GETTABLE A A Kn` that immediately follows).
type Get = (u32, Vec<u32>);

/// The registers `code` may read, or `None` for an instruction the scan does not know; and
/// the keyed reads `GETTABLE r[K]` (reads by a constant key alone, kept apart from the full
/// reads) with the constants of the chain each one starts.
fn scan_code(code: &[u32]) -> Option<(u64, Vec<Get>)> {
    let mut read = 0u64;
    let mut gets = Vec::new();
    let mut pc = 0;
    while pc < code.len() {
        let i = code[pc];
        pc += 1;
        let opcode = i & 0x3f;
        let a = (i >> 6) & 0xff;
        let c = (i >> 14) & 0x1ff;
        let b = (i >> 23) & 0x1ff;
        // Registers `lo..hi`, and an RK operand when it names a register.
        let range = |lo: u32, hi: u32| (lo..hi).fold(0u64, |m, r| m | bit(r as usize));
        let rk = |x: u32| if x < BITRK { bit(x as usize) } else { 0 };
        // Every register from `a` up (an open call, return or list).
        let from = |a: u32| !0u64 << a.min(63);
        read |= match opcode {
            op::LOADK
            | op::LOADBOOL
            | op::LOADNIL
            | op::GETUPVAL
            | op::GETGLOBAL
            | op::JMP
            | op::NEWTABLE
            | op::VARARG
            | op::CLOSE
            | op::CLOSURE => 0,
            // `MOVE` is also the pseudo-instruction after `CLOSURE` that hands a register to
            // a nested function as an upvalue.
            op::MOVE | op::UNM | op::NOT | op::LEN | op::TESTSET => bit(b as usize),
            op::GETTABLE if c >= BITRK && b < 63 => {
                gets.push((b, chain(a, c - BITRK, code.get(pc..).unwrap_or(&[]))));
                0
            }
            op::GETTABLE | op::SELF => bit(b as usize) | rk(c),
            op::SETGLOBAL | op::SETUPVAL | op::TEST => bit(a as usize),
            op::SETTABLE => bit(a as usize) | rk(b) | rk(c),
            op::ADD..=op::POW | op::EQ | op::LT | op::LE => rk(b) | rk(c),
            op::CONCAT => range(b, c.max(b) + 1),
            op::CALL | op::TAILCALL if b == 0 => from(a),
            op::CALL | op::TAILCALL => range(a, a + b),
            op::RETURN if b == 0 => from(a),
            op::RETURN => range(a, a + b - 1),
            op::FORLOOP | op::FORPREP => range(a, a + 3),
            // Reads the generator, state and control; generous with the results.
            op::TFORLOOP => range(a, a + 3 + c),
            op::SETLIST => {
                if c == 0 {
                    // The block number is the next code word, not an instruction.
                    pc += 1;
                }
                if b == 0 {
                    from(a)
                } else {
                    range(a, a + b + 1)
                }
            }
            _ => return None,
        };
    }
    Some((read, gets))
}

/// The constants of the chain of keyed `GETTABLE`s that starts with one into register `a` by
/// constant `k`, `after` being the code that follows it: `k`, then the constant of each next
/// instruction while it is `GETTABLE a a K` with a constant `K` (module docs).
fn chain(a: u32, k: u32, after: &[u32]) -> Vec<u32> {
    let mut ks = vec![k];
    for &i in after {
        let c = (i >> 14) & 0x1ff;
        if i & 0x3f != op::GETTABLE || (i >> 6) & 0xff != a || (i >> 23) & 0x1ff != a || c < BITRK {
            break;
        }
        ks.push(c - BITRK);
    }
    ks
}

#[cfg(test)]
mod tests;
