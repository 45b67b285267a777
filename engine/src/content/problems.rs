//! Problems of the merged content found at compile time: each one blamed on the mod that last
//! wrote the record ([`Problems::blame`]), so the loader can roll that mod back. A leaf under
//! `compile` and the per-registry compiles (`tables`, `scripts`, `removed`).

use std::fmt;

use pallet_api::content::{Registry, BASE_OWNER};

/// One problem of the merged content, blamed on `owner` (`"base"`: nobody to roll back).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContentProblem {
    pub owner: String,
    pub registry: String,
    pub id: String,
    pub message: String,
}

impl fmt::Display for ContentProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.message)
    }
}

/// Problems collected during one compile.
#[derive(Default, Debug)]
pub struct Problems(pub Vec<ContentProblem>);

impl Problems {
    /// A problem with record `id` of `reg`, blamed on its last writer.
    pub fn blame(&mut self, reg: &Registry, id: &str, message: String) {
        let owner = reg.last_owner(id).unwrap_or(BASE_OWNER).to_owned();
        let p = ContentProblem {
            owner,
            registry: reg.name().to_owned(),
            id: id.to_owned(),
            message,
        };
        if !self.0.contains(&p) {
            self.0.push(p);
        }
    }
}
