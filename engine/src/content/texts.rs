//! The `text` and `strings` registries (issue 18 item 8): their base records, and the compile
//! step that makes the game's texts read the merged view — map texts are replaced in the
//! compiled map set, and every record a mod changed becomes a [`Translations`] entry the
//! battle feed and literal text boxes read (see `crate::world::translations`).

use std::collections::BTreeMap;
use std::sync::Arc;

use pallet_api::content::Content;
use pallet_api::Value;

use crate::world::translations::{base_battle_texts, base_strings, Translations};
use crate::world::{store, GameVersion, MapSet};

/// `text` base records: the version's map texts, then the battle message labels.
pub fn base_text_records(version: GameVersion) -> BTreeMap<String, Value> {
    let mut out: BTreeMap<String, Value> = base_battle_texts()
        .into_iter()
        .map(|(k, v)| (k, Value::from(v.as_str())))
        .collect();
    if let Ok(set) = store::embedded(version) {
        for (k, v) in set.texts.iter() {
            out.insert(k.clone(), Value::from(v.as_str()));
        }
    }
    out
}

/// `strings` base records: every source string Pallet shows, to itself.
pub fn base_string_records() -> BTreeMap<String, Value> {
    base_strings()
        .into_iter()
        .map(|(k, v)| (k, Value::from(v.as_str())))
        .collect()
}

/// The merged records of `registry` that a mod changed (differ from the base or are new).
fn changed(content: &Content, registry: &str) -> BTreeMap<String, String> {
    let Some(reg) = content.registry(registry) else {
        return BTreeMap::new();
    };
    reg.touched_ids()
        .filter_map(|id| {
            let v = reg.get(id)?.as_str()?;
            let base = reg.base_record(id).and_then(Value::as_str);
            (base != Some(v)).then(|| (id.to_owned(), v.to_owned()))
        })
        .collect()
}

/// Make `maps` show the merged `text` and `strings` registries.
pub fn apply(maps: &mut MapSet, content: &Content) {
    let text = changed(content, "text");
    let strings = changed(content, "strings");
    if !text.is_empty() {
        let mut texts = (*maps.texts).clone();
        for (k, v) in &text {
            texts.insert(k.clone(), v.clone());
        }
        maps.texts = Arc::new(texts);
    }
    let labels = base_battle_texts();
    let battle: BTreeMap<String, String> = text
        .into_iter()
        .filter(|(k, _)| labels.contains_key(k))
        .collect();
    maps.translations = Arc::new(Translations {
        strings,
        text: battle,
    });
}
