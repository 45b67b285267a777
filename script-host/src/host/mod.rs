//! The Rhai mod host: one sandboxed engine per mod, capability handles, typed `next`, the
//! shared per-dispatch budget, preloaded confined imports, source-pointing diagnostics.
//!
//! | module | concern |
//! |---|---|
//! | [`limits`] | every sandbox limit, explicit, identical in debug and release |
//! | [`depth`] | `rhai.max_closure_depth`: nested closures/curried function pointers measured on every read, refused past the limit |
//! | [`held`] | `rhai.max_held_bytes`: what a mod's link and listener closures hold between calls (captures, curried values), measured at registration and after each call; over it the mod is stopped |
//! | [`pad`] | `array.pad(n, item)` of a function pointer, array or map refused past `rhai.max_dispatch_bytes` by what its copies would allocate |
//! | [`budget`] | the per-dispatch operation budget shared across engines |
//! | [`vm`] | the sandboxed engine builder, one mod's VM, host-shared state |
//! | [`direct`] | a link closure's direct call path: its body in a reused call frame |
//! | [`patch`] | a link's arguments written over the previous call's values in place |
//! | [`reads`] | which fields of an argument a closure can read (`ctx.user.hp` chains), so only those are written |
//! | [`imports`] | mod files, confined `import` resolution, module preloading |
//! | [`handles`] | capability handles (`hooks`, `events`, `log`, `save`, `options`, `content`, `world`, `input` (`handles::input`), `checkpoints`, `datasets`, `mod_info`), typed `next`; `handles::datasets` is RFC 0015's views (`each()` pairs of read-only `DatasetRecord`s) |
//! | [`convert`] | `Value` ↔ `Dynamic` (detached copies, data only) |
//! | [`error`] | the `#{code, message}` failure convention and host codes |
//! | [`diag`] | diagnostics with file, line, column and a caret excerpt (ariadne) |
//! | [`manifest_diag`] | manifest findings with an excerpt: the JSON parser's position or the quoted name's place in `manifest.json` |
//! | [`item_effects`] | `item_effects` records' `use` function pointers kept by their mod, wrapped for the engine's item use |
//! | [`loader`] | [`RhaiHost`]: the `ModHost` for `.rhai` entries |
//! | [`script_rng`] | `ctx.rng.random(…)` on the engine-supplied random source of a hook context |
//! | [`cache_dir`] | the RFC 0015 dataset cache root: `--cache DIR` or the platform default |
//! | [`session`] | mods for `pallet run`: bundled + `--mods`, loader, transcript lines |
//! | [`check`] | `pallet mods check`: manifest and static API findings, then the real load in a dry-run runtime |
//! | [`suggest`] | did-you-mean for the hosts' names (over `pallet_api::suggest`) and hook closure signatures |
//! | [`defs`] | `pallet mods defs`: `.d.rhai` definition files |
//! | [`context_shapes`] | generated (tests/tests/defs_shapes.rs): the context shape of every hook parameter and event payload, for `defs` |
//! | [`bundled`] | the example mods embedded in the binary |
//! | [`map_handlers`] | map-script handlers given as Rhai function pointers (`onEnter`, `talk`), the twin of the Lua shim's |
//! | [`trace`] | `--trace` hook tracing |

pub mod budget;
pub mod bundled;
pub mod cache_dir;
pub mod check;
pub mod context_shapes;
pub mod convert;
pub mod defs;
pub mod depth;
pub mod diag;
pub mod direct;
pub mod error;
pub mod handles;
pub mod held;
pub mod imports;
pub mod item_effects;
pub mod limits;
pub mod loader;
pub mod manifest_diag;
pub mod map_handlers;
pub mod pad;
pub mod patch;
pub mod reads;
pub mod script_rng;
pub mod session;
pub mod suggest;
pub mod trace;
pub mod vm;

pub use diag::ScriptDiagnostic;
pub use loader::{HostMonitor, RhaiHost};
pub use session::{ModSession, ModsOptions};
