//! Read-only imported dataset views (RFC 0015-views; docs/modding-contracts.md, "Datasets"):
//! the cache contract, the importer, the bounded literal decoder and the `mod.datasets` service
//! and facades.
//!
//! | module | concern |
//! |---|---|
//! | [`contract`] | cache layout, completion marker, exact inventory, source/cache boundary, readiness (sizes only) |
//! | [`expected`] | this build's completion marker (from the embedded source) and readiness against it |
//! | [`fs`] | the injected cache filesystem; [`fs::DiskFs`] never follows symbolic links |
//! | [`literal`] | restricted literal grammar: writer and bounded, non-executing decoder |
//! | [`records`] | the embedded data as source records (cartridge-shaped where the cartridge differs) |
//! | [`yellow`] | Yellow's learnset and level-1 move corrections |
//! | [`encounters`] | version-exclusive wild encounters (a sample of maps per version) |
//! | [`generate`] | every file of a version's inventory, in memory, deterministic |
//! | [`import`] | staged, atomic import; marker last |
//! | [`hydrate`] | canonical normalization and the public-schema gate |
//! | [`service`] | lazy decode, readiness rechecks, invalidation, counters |
//! | [`view`] | [`Datasets`] (lazy `mod.datasets` handle) and [`View`] facades |

pub mod contract;
pub mod encounters;
pub mod expected;
pub mod fs;
pub mod generate;
pub mod hydrate;
pub mod import;
pub mod literal;
pub mod records;
pub mod service;
pub mod view;
pub mod yellow;

pub use import::{import, ImportError, ImportOptions, ImportReport};
pub use service::DatasetStats;
pub use view::{content_names, registry_names, Datasets, View};

#[cfg(test)]
mod tests;
