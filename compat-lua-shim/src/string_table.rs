//! Lua 5.1.5's string table (`global_State.strt`), read raw and read-only: the one place the
//! shim reads the VM's memory rather than calling its C API. [`crate::string_flood`] measures
//! the table through it.
//!
//! # Safety
//!
//! * **Layout.** The offsets below are those of vendored Lua 5.1.5 (mlua's `lua51` feature) on
//!   a 64-bit target. The flood guard proves them on the live state before it trusts any scan
//!   (`FloodGuard::new` finds a probe string in its bucket by its own hash, length and bytes,
//!   and refuses the state otherwise), and refuses a 32-bit target outright.
//! * **Lifetime.** `global_State` is allocated with the state and freed only when the state is
//!   closed; a [`StringTable`] is kept next to the state it came from (in its count hook and in
//!   its `LuaMod`) and never read after it is closed.
//! * **No concurrent change.** Every read is `unsafe fn`: the caller promises the state is
//!   paused — idle, in its count hook between two instructions, or in a host function — so no
//!   string is being interned or collected while a chain is walked (the walk itself calls no
//!   Lua API, so the collector cannot run). Nothing here writes.

use mlua::Lua;

// Lua 5.1.5, 64-bit: `lua_State.l_G`, `global_State.strt.{hash,nuse,size}`,
// `TString.tsv.{next,hash,len}` and the string bytes after the header.
const L_G: usize = 32;
const STRT_HASH: usize = 0;
const STRT_NUSE: usize = 8;
const STRT_SIZE: usize = 12;
const TS_NEXT: usize = 0;
const TS_HASH: usize = 12;
const TS_LEN: usize = 16;
const TS_BYTES: usize = 24;

/// The string table of one state (its `global_State*`, shared by all its coroutines).
pub struct StringTable {
    g: *const u8,
}

/// One interned string (a `TString*` of a bucket chain).
#[derive(Clone, Copy)]
pub struct Interned {
    at: *const u8,
}

impl StringTable {
    /// The table of `lua`'s state.
    pub fn of(lua: &Lua) -> StringTable {
        // SAFETY: `raw.state()` is a live `lua_State*` of this state while the lock is held;
        // `l_G` is its `global_State*`, valid for the state's lifetime.
        let g = lua.exec_raw_lua(|raw| unsafe {
            *((raw.state() as *const u8).add(L_G) as *const *const u8)
        });
        StringTable { g }
    }

    /// `(nuse, size)`: strings interned, buckets.
    ///
    /// # Safety
    /// The state alive and paused (module docs).
    pub unsafe fn counts(&self) -> (u32, usize) {
        let nuse = *(self.g.add(STRT_NUSE) as *const u32);
        let size = *(self.g.add(STRT_SIZE) as *const i32);
        (nuse, usize::try_from(size).unwrap_or(0))
    }

    /// The first string of bucket `i` (`i` below the size from [`Self::counts`]).
    ///
    /// # Safety
    /// As [`Self::counts`], and `i` in range.
    pub unsafe fn first(&self, i: usize) -> Option<Interned> {
        let hash = *(self.g.add(STRT_HASH) as *const *const *const u8);
        Interned::at(*hash.add(i))
    }
}

impl Interned {
    fn at(p: *const u8) -> Option<Interned> {
        (!p.is_null()).then_some(Interned { at: p })
    }

    /// The next string of the same bucket chain.
    ///
    /// # Safety
    /// As [`StringTable::counts`], on the table this string was read from.
    pub unsafe fn next(self) -> Option<Interned> {
        Interned::at(*(self.at.add(TS_NEXT) as *const *const u8))
    }

    /// The string's full hash.
    ///
    /// # Safety
    /// As [`Self::next`].
    pub unsafe fn hash(self) -> u32 {
        *(self.at.add(TS_HASH) as *const u32)
    }

    /// The string's length in bytes.
    ///
    /// # Safety
    /// As [`Self::next`].
    pub unsafe fn byte_len(self) -> usize {
        *(self.at.add(TS_LEN) as *const usize)
    }

    /// The string's bytes (valid while the state stays paused).
    ///
    /// # Safety
    /// As [`Self::next`]; the slice must not be kept past the pause.
    pub unsafe fn bytes<'p>(self) -> &'p [u8] {
        std::slice::from_raw_parts(self.at.add(TS_BYTES), self.byte_len())
    }
}
