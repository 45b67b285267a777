//! Allocation counts for the parity gates: the host crate owns the process's global allocator
//! (`pallet_script_host::alloc`, which also enforces `rhai.max_dispatch_bytes`) and counts the
//! allocations made by the current thread, so parallel tests do not disturb each other's counts.

/// Allocations made by this thread so far.
pub fn allocations() -> u64 {
    pallet_script_host::alloc::allocations()
}

/// Run `f` and return its result with the number of allocations it made on this thread.
pub fn count<T>(f: impl FnOnce() -> T) -> (T, u64) {
    let before = allocations();
    let out = f();
    (out, allocations() - before)
}
