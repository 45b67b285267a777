//! `lua.max_string_collisions`: a bound on Lua 5.1's string-hash flooding (issue 21).
//!
//! Lua 5.1 interns every string. Its hash samples at most ~32 characters of a long string
//! (`step = (len >> 5) + 1`), so strings of one length that differ only in unsampled
//! characters share a hash, and interning a new one compares it (`memcmp`, the whole common
//! prefix) against every string of its length in its bucket. Tens of thousands of such strings
//! cost quadratic C time inside a handful of VM instructions — the `..` instruction builds
//! them, and no hook sees that work.
//!
//! The guard reads the state's string table (Lua 5.1.5's `global_State.strt`, read-only, from
//! the count hook while the VM is paused) and measures the worst bucket: the **collision
//! work** of a group of more than [`MAX_GROUP`] strings sharing one hash and one length is
//! `count × length` (the bytes one more such string is compared against), and a chain longer
//! than [`MAX_CHAIN`] counts too.
//! Past [`MAX_COLLISION_BYTES`] the running code is stopped with `lua.max_string_collisions`,
//! and the state is **flooded** for good: every later link, listener or map handler of the mod
//! is refused before it runs (the strings are still held by the mod, so any further string of
//! that group would pay the whole group again).
//!
//! Cost: a scan walks the table once (buckets + strings) and is charged to the budget (one
//! unit per [`SCAN_UNIT`] entries). It runs from the count hook when the table's string count
//! moved by [`SCAN_AFTER_NEW`] or more since the last scan, or every [`SCAN_EVERY_HOOKS`]
//! firings regardless, so a mod that creates no strings pays almost nothing.
//!
//! Layout: the table is read raw by [`crate::string_table`] (the offsets of vendored Lua 5.1.5
//! on a 64-bit target, with the safety argument). [`FloodGuard::new`] proves them on the live
//! state before trusting them (a probe string is found in its bucket by its own hash, length
//! and bytes); if the probe fails the state is refused (fail closed), so a changed layout
//! cannot go unnoticed.

use std::cell::Cell;
use std::rc::Rc;

use mlua::Lua;

use crate::string_table::StringTable;

/// `lua.max_string_collisions`: bytes one more string of a colliding group is compared against
/// (counted only for a group of more than [`MAX_GROUP`] strings).
pub const MAX_COLLISION_BYTES: usize = 64 * 1024;
/// Strings of one group that are never a flood, whatever their length: a new string of the
/// group costs at most this many times what building it did (a few strings of a megabyte that
/// differ in their last digits are ordinary data, and cheap).
pub const MAX_GROUP: usize = 16;
/// Strings in one bucket chain before the chain itself counts as flooded (an honest table at
/// load factor ≤ 1 has chains of a handful of strings).
pub const MAX_CHAIN: usize = 512;
/// String-table entries walked per budget unit charged for a scan.
pub const SCAN_UNIT: usize = 64;
/// New (or collected) strings since the last scan that trigger the next one.
pub const SCAN_AFTER_NEW: u32 = 16;
/// Hook firings after which a scan runs even if the string count did not move.
pub const SCAN_EVERY_HOOKS: u32 = 16;

/// The error text (the limit's name first, as every quota error).
pub const FLOOD_MESSAGE: &str = "lua.max_string_collisions: too many strings sharing one hash \
     (Lua 5.1 hashes a long string by about 32 of its characters); the mod is stopped";

/// Lua 5.1's string hash (`luaS_newlstr`).
pub fn lua51_hash(s: &[u8]) -> u32 {
    let l = s.len();
    let mut h = l as u32;
    let step = (l >> 5) + 1;
    let mut l1 = l;
    while l1 >= step {
        h ^= (h << 5)
            .wrapping_add(h >> 2)
            .wrapping_add(u32::from(s[l1 - 1]));
        l1 -= step;
    }
    h
}

/// What a scan found: the worst collision work and the entries walked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scan {
    pub worst: usize,
    pub walked: usize,
}

/// The string-table watcher of one state (lives in the state's count hook).
pub struct FloodGuard {
    /// The state's string table (valid while the state lives).
    table: StringTable,
    last_nuse: Cell<u32>,
    hooks: Cell<u32>,
    /// Set once the state is flooded; shared with the mod (`LuaMod::flooded`).
    pub flooded: Rc<Cell<bool>>,
    groups: std::cell::RefCell<Vec<(u32, usize)>>,
}

impl FloodGuard {
    /// Find the state's string table and prove the layout on it.
    pub fn new(lua: &Lua) -> mlua::Result<FloodGuard> {
        if cfg!(not(target_pointer_width = "64")) {
            return Err(mlua::Error::runtime(
                "lua.max_string_collisions: the string-table guard needs a 64-bit target",
            ));
        }
        let probe: &[u8] = b"pallet string-table probe: the bytes past the sampled ones";
        let held = lua.create_string(probe)?;
        let guard = FloodGuard {
            table: StringTable::of(lua),
            last_nuse: Cell::new(0),
            hooks: Cell::new(0),
            flooded: Rc::new(Cell::new(false)),
            groups: std::cell::RefCell::new(Vec::new()),
        };
        // SAFETY: called with the state idle (no Lua code running), the table only read.
        let found = lua.exec_raw_lua(|_| unsafe { guard.find(probe) });
        drop(held);
        if !found {
            return Err(mlua::Error::runtime(
                "lua.max_string_collisions: the Lua string table does not have Lua 5.1.5's layout",
            ));
        }
        Ok(guard)
    }

    /// Is `bytes` interned in its bucket (the layout probe)?
    ///
    /// # Safety
    /// The state alive and paused ([`crate::string_table`]).
    unsafe fn find(&self, bytes: &[u8]) -> bool {
        let (_, size) = self.table.counts();
        if size == 0 || !size.is_power_of_two() {
            return false;
        }
        let h = lua51_hash(bytes);
        let mut o = self.table.first(h as usize & (size - 1));
        let mut hops = 0;
        while let Some(s) = o.filter(|_| hops < 1 << 20) {
            if s.hash() == h && s.byte_len() == bytes.len() && s.bytes() == bytes {
                return true;
            }
            o = s.next();
            hops += 1;
        }
        false
    }

    /// Walk the whole table: the worst collision work of any bucket.
    ///
    /// # Safety
    /// As [`Self::find`].
    pub unsafe fn scan(&self) -> Scan {
        let (nuse, size) = self.table.counts();
        self.last_nuse.set(nuse);
        self.hooks.set(0);
        let mut worst = 0usize;
        let mut walked = size;
        let mut groups = self.groups.borrow_mut();
        for i in 0..size {
            let first = self.table.first(i);
            let mut o = match first {
                Some(s) if s.next().is_some() => Some(s),
                _ => {
                    walked += usize::from(first.is_some());
                    continue;
                }
            };
            groups.clear();
            while let Some(s) = o {
                groups.push((s.hash(), s.byte_len()));
                if groups.len() > MAX_CHAIN {
                    // The chain alone is the flood; no need to walk the rest of it.
                    return Scan {
                        worst: usize::MAX,
                        walked: walked + groups.len(),
                    };
                }
                o = s.next();
            }
            walked += groups.len();
            groups.sort_unstable();
            let mut at = 0;
            while at < groups.len() {
                let key = groups[at];
                let run = groups[at..].iter().take_while(|k| **k == key).count();
                if run > MAX_GROUP {
                    worst = worst.max(run.saturating_mul(key.1));
                }
                at += run;
            }
        }
        Scan { worst, walked }
    }

    /// From the count hook: scan when due. `Some(units)` to charge (and whether the state is
    /// flooded now), `None` when no scan ran.
    ///
    /// # Safety
    /// Only from the state's count hook (the VM paused between instructions).
    pub unsafe fn on_hook(&self) -> Option<(u64, bool)> {
        if self.flooded.get() {
            return Some((0, true));
        }
        let (nuse, _) = self.table.counts();
        let hooks = self.hooks.get() + 1;
        self.hooks.set(hooks);
        if nuse.abs_diff(self.last_nuse.get()) < SCAN_AFTER_NEW && hooks < SCAN_EVERY_HOOKS {
            return None;
        }
        let scan = self.scan();
        let flooded = scan.worst > MAX_COLLISION_BYTES;
        if flooded {
            self.flooded.set(true);
        }
        Some(((scan.walked / SCAN_UNIT) as u64, flooded))
    }

    /// After a chunk was compiled (the parser interns its constants with no hook running).
    ///
    /// # Safety
    /// The state paused (called from a host function, between instructions).
    pub unsafe fn after_compile(&self) -> bool {
        if !self.flooded.get() && self.scan().worst > MAX_COLLISION_BYTES {
            self.flooded.set(true);
        }
        self.flooded.get()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_is_lua_5_1_s_and_samples_long_strings() {
        // Short strings: every character counts.
        assert_ne!(lua51_hash(b"abc"), lua51_hash(b"abd"));
        // 64 bytes: step 3 samples indices 63, 60, 57, …, 3; 61 and 62 are never read.
        let mut a = vec![b'x'; 64];
        let mut b = a.clone();
        a[62] = b'1';
        b[62] = b'2';
        assert_eq!(lua51_hash(&a), lua51_hash(&b));
        b[63] = b'2';
        assert_ne!(lua51_hash(&a), lua51_hash(&b));
    }

    #[test]
    fn the_layout_probe_holds_on_the_vendored_vm() {
        let lua = Lua::new();
        let guard = FloodGuard::new(&lua).expect("Lua 5.1.5 layout");
        let before = unsafe { guard.scan() };
        assert_eq!(
            before.worst, 0,
            "a fresh state has no colliding long strings"
        );
        assert!(before.walked >= 32);
    }

    #[test]
    fn a_colliding_group_is_measured_by_count_times_length() {
        let lua = Lua::new();
        let guard = FloodGuard::new(&lua).unwrap();
        // 260 strings of 64 bytes differing only at the unsampled indices 61 and 62.
        let keep = lua.create_table().unwrap();
        let mut n = 0;
        for x in b'a'..=b'z' {
            for y in b'a'..=b'j' {
                let mut s = vec![b'x'; 64];
                s[61] = x;
                s[62] = y;
                keep.raw_push(lua.create_string(&s).unwrap()).unwrap();
                n += 1;
            }
        }
        let scan = unsafe { guard.scan() };
        assert_eq!(scan.worst, n * 64, "{scan:?}");
    }

    #[test]
    fn a_few_big_strings_sharing_a_hash_are_not_a_flood() {
        let lua = Lua::new();
        let guard = FloodGuard::new(&lua).unwrap();
        // `("z"):rep(2^20) .. i` for i = 10..99: groups of 9 by the last digit (the tens digit
        // is not sampled), each 1 MiB long.
        lua.load("t = {} for i = 10, 40 do t[#t + 1] = ('z'):rep(2^20) .. i end")
            .exec()
            .unwrap();
        let scan = unsafe { guard.scan() };
        assert_eq!(scan.worst, 0, "{scan:?}");
    }

    #[test]
    fn ordinary_strings_do_not_collide() {
        let lua = Lua::new();
        let guard = FloodGuard::new(&lua).unwrap();
        lua.load("t = {} for i = 1, 20000 do t[i] = 'key number ' .. i .. ' of a long table' end")
            .exec()
            .unwrap();
        let scan = unsafe { guard.scan() };
        assert!(scan.worst < 4096, "{scan:?}");
        assert!(scan.walked > 20000);
    }
}
