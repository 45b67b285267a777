//! Stable runtime checkpoints (RFC 0004; reference-semantics §4): the overworld kind.
//!
//! | module | what |
//! |---|---|
//! | [`record`] | the format-1 record, portable bytes (`PALLET-CHECKPOINT 1` + MessagePack), first-difference paths |
//! | [`ops`] | `inspect` (lazy playthrough id), `capture`, `restore` (validate detached → rollback → rebuild → verify → `checkpoint.restored`) |
//! | [`lend`] | the exclusive lending scope through which script handles reach a live game at a safe point |
//!
//! The battle kind (RFC 0005) is not captured by this build: restoring a `kind = "battle"`
//! record answers `unsupported_runtime_kind`.

pub mod lend;
pub mod ops;
pub mod record;

pub use ops::{capture, inject_fault, inspect, restore, restore_value, Fault};
pub use record::{first_difference, Checkpoint, Identity, OverworldState, RuntimeState};
