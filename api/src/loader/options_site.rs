//! `mod.options_changed`: the mod manager changes a mod's option value through the loader,
//! which stores it and tells listeners (the Lua engine's one engine event in the `mod.`
//! namespace). Guarded: with no listener nothing is built.

use super::Loader;
use crate::catalog::events::{ModOptionsChanged, ModOptionsChangedPayload};
use crate::{Runtime, Value};

impl Loader {
    /// Set `mod_id`'s option `key` to `value` (validated when read, as
    /// [`OptionsStore::set_user_value`](crate::services::OptionsStore::set_user_value)) and
    /// emit `mod.options_changed {mod, key, value}`.
    pub fn set_option(&self, rt: &Runtime, mod_id: &str, key: &str, value: Value) {
        if rt.wants_event::<ModOptionsChanged>() {
            self.options.set_user_value(mod_id, key, value.clone());
            rt.emit::<ModOptionsChanged>(ModOptionsChangedPayload {
                mod_id: mod_id.to_owned(),
                key: key.to_owned(),
                value,
            });
            return;
        }
        self.options.set_user_value(mod_id, key, value);
    }
}
