//! Stable runtime checkpoints (RFC 0004; docs/modding-contracts.md, "Checkpoints"): the
//! overworld kind and the battle kind (RFC 0005).
//!
//! | module | what |
//! |---|---|
//! | [`record`] | the format-1 record, portable bytes (`PALLET-CHECKPOINT 1` + MessagePack), first-difference paths |
//! | [`ops`] | `inspect` (lazy playthrough id), `capture`, `restore` (validate detached → rollback → rebuild → verify → `checkpoint.restored`) |
//! | [`battle`] | the battle model (`runtime.battle`), the battle's safe boundary, the detached rebuild |
//! | [`lend`] | what a script handle does with the game lent to it (`inspect`, `capture`, `restore`, `mod.save` kept in step) and the refusals outside a loan (an unsettled battle round's own); the lending slot itself is `crate::game::lend`, re-exported here |

pub mod battle;
pub mod lend;
pub mod ops;
pub mod record;

pub use battle::BattleModel;
pub use ops::{capture, inject_fault, inspect, restore, restore_value, Fault};
pub use record::{first_difference, Checkpoint, Identity, OverworldState, RuntimeState};
