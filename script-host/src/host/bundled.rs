//! The example mods of `examples/mods/`, embedded in the binary so `pallet run` finds them
//! from any working directory (a fresh clone, an installed binary). `pallet run` loads them
//! unless `--no-default-mods` is given.

use std::collections::BTreeMap;

use pallet_api::loader::ModCandidate;

/// One bundled mod: folder name and `(relative path, text)` of each file.
pub struct BundledMod {
    pub dir: &'static str,
    pub files: &'static [(&'static str, &'static str)],
}

macro_rules! file {
    ($dir:literal, $name:literal) => {
        (
            $name,
            include_str!(concat!("../../../examples/mods/", $dir, "/", $name)),
        )
    };
}

/// Every bundled example, in folder order.
pub const BUNDLED: &[BundledMod] = &[
    BundledMod {
        dir: "berry-items",
        files: &[
            file!("berry-items", "manifest.json"),
            file!("berry-items", "main.rhai"),
            file!("berry-items", "berries.rhai"),
        ],
    },
    BundledMod {
        dir: "boot-counter",
        files: &[
            file!("boot-counter", "manifest.json"),
            file!("boot-counter", "main.rhai"),
        ],
    },
    BundledMod {
        dir: "dock-stay",
        files: &[
            file!("dock-stay", "manifest.json"),
            file!("dock-stay", "main.rhai"),
        ],
    },
    BundledMod {
        dir: "dock-watch",
        files: &[
            file!("dock-watch", "manifest.json"),
            file!("dock-watch", "main.rhai"),
        ],
    },
    BundledMod {
        dir: "event-logger",
        files: &[
            file!("event-logger", "manifest.json"),
            file!("event-logger", "main.rhai"),
        ],
    },
    BundledMod {
        dir: "lucky-exp",
        files: &[
            file!("lucky-exp", "manifest.json"),
            file!("lucky-exp", "main.rhai"),
        ],
    },
    BundledMod {
        dir: "sandstorm",
        files: &[
            file!("sandstorm", "manifest.json"),
            file!("sandstorm", "main.rhai"),
        ],
    },
    BundledMod {
        dir: "seventh-catch",
        files: &[
            file!("seventh-catch", "manifest.json"),
            file!("seventh-catch", "main.rhai"),
        ],
    },
    BundledMod {
        dir: "trail-journal",
        files: &[
            file!("trail-journal", "manifest.json"),
            file!("trail-journal", "main.lua"),
        ],
    },
];

impl BundledMod {
    /// The mod's files as the host's in-memory file map.
    pub fn file_map(&self) -> BTreeMap<String, String> {
        self.files
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    /// A loader candidate (manifest parsed from the embedded text).
    pub fn candidate(&self) -> ModCandidate {
        let manifest = self
            .files
            .iter()
            .find(|(k, _)| *k == "manifest.json")
            .map_or("", |(_, v)| v);
        let mut c = ModCandidate::from_manifest_text(self.dir, manifest, true);
        c.entry_exists = match &c.manifest {
            Ok(p) => self.files.iter().any(|(k, _)| *k == p.manifest.entry),
            Err(_) => false,
        };
        c
    }

    /// Is this a legacy Lua mod (a `.lua` entry, run by the compat shim)?
    pub fn is_lua(&self) -> bool {
        matches!(&self.candidate().manifest, Ok(p) if p.manifest.entry.ends_with(".lua"))
    }

    /// The manifest id (the folder name when the manifest does not parse).
    pub fn id(&self) -> String {
        match &self.candidate().manifest {
            Ok(p) => p.manifest.id.clone(),
            Err(_) => self.dir.to_owned(),
        }
    }
}
