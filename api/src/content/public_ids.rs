//! Record ids as the Lua engine spells them. Public mods name records with the Lua engine's
//! constants; where Pallet's id differs, the Lua spelling reaches the same record (reads and
//! writes), so a mod never needs to know Pallet's own spelling:
//!
//! * `pokemon`: `FARFETCH_D` → `FARFETCHD`, `MR__MIME` → `MR_MIME` (the Lua engine turns
//!   every non-letter of the name into `_`);
//! * `trainers`: `OPP_<CLASS>` → `<CLASS>` (the Lua engine keys trainer classes by their
//!   `OPP_*` constant; Pallet by the class name).
//!
//! An id the registry holds as written is always used as written; an alias applies only when
//! its target exists, so an error names the id the mod wrote.

use std::borrow::Cow;

use super::Registry;

/// `(registry, Lua-engine id, Pallet id)` for ids that differ other than by a prefix rule.
pub const ID_ALIASES: &[(&str, &str, &str)] = &[
    ("pokemon", "FARFETCH_D", "FARFETCHD"),
    ("pokemon", "MR__MIME", "MR_MIME"),
];

/// The prefix the Lua engine puts on trainer class ids.
pub const TRAINER_CLASS_PREFIX: &str = "OPP_";

/// The id `id` designates in `reg`.
pub fn resolve<'a>(reg: &Registry, id: &'a str) -> Cow<'a, str> {
    if reg.contains(id) {
        return Cow::Borrowed(id);
    }
    let name = reg.name();
    if let Some((_, _, ours)) = ID_ALIASES
        .iter()
        .find(|(r, theirs, _)| *r == name && *theirs == id)
    {
        if reg.contains(ours) {
            return Cow::Borrowed(ours);
        }
    }
    if name == "trainers" {
        if let Some(class) = id.strip_prefix(TRAINER_CLASS_PREFIX) {
            if reg.contains(class) {
                return Cow::Owned(class.to_owned());
            }
        }
    }
    Cow::Borrowed(id)
}
