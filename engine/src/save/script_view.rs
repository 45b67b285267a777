//! The save as a script reads it (`game.save`, legacy-lua-mods.md §4): the save file's shape,
//! except `flags` as `{NAME = true}`, `inventory`/`pcItems` as `{ITEM = count}` maps (plus
//! `bagOrder`), and `modData` the live `mod.save` buckets when a store is given.

use pallet_api::Value;

use super::data::{flag_map, item_map};
use super::SaveData;

/// `save` as a script reads it (see the module doc).
pub fn save_value(save: &SaveData, store: Option<&pallet_api::services::ModDataStore>) -> Value {
    let mut v = pallet_api::value::to_value(save).unwrap_or_default();
    if let Value::Map(m) = &mut v {
        m.insert("flags".to_owned(), flag_map(save.flags.iter().cloned()));
        // The bag and the PC as the reference's `{ITEM = count}` maps (`save.inventory.POTION`);
        // `bagOrder` keeps the bag's order.
        m.insert("inventory".to_owned(), item_map(&save.inventory));
        m.insert("pcItems".to_owned(), item_map(&save.pc_items));
        let order = save.inventory.iter().map(|s| Value::from(s.id.as_str()));
        m.insert("bagOrder".to_owned(), Value::List(order.collect()));
        if let Some(store) = store {
            m.insert("modData".to_owned(), store.to_value());
        }
    }
    v
}
