//! Removing a base record: the Lua engine's rule is that `remove` drops the record and the
//! freeze-time cross-validation fails on anything still naming it. A reference a mod wrote is
//! that mod's problem (the ordinary checks blame it); a reference the **base data** still makes
//! (Route 1's grass naming a removed PIDGEY, a base learnset naming a removed move) has nobody
//! else to blame, so it is one error on the remover, naming the reference:
//! `pokemon:remove(PIDGEY): still referenced by encounters.ROUTE_1.grass.slots[3].species`.

use pallet_api::content::{Content, Registry};
use pallet_api::Value;

use super::problems::Problems;

/// Base records of `reg` that the merged view no longer has.
fn removed_ids(reg: &Registry) -> Vec<&str> {
    reg.touched_ids()
        .filter(|id| reg.is_base(id) && !reg.contains(id))
        .collect()
}

fn list<'a>(v: &'a Value, key: &str) -> &'a [Value] {
    v.get(key).and_then(Value::as_list).unwrap_or(&[])
}

fn text<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

/// Every `(path, named id)` reference a record of `registry` makes to `target` records.
fn references(registry: &str, id: &str, rec: &Value, target: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    match (registry, target) {
        ("encounters", "pokemon") => {
            for (table, t) in rec.as_map().into_iter().flatten() {
                for (n, slot) in list(t, "slots").iter().enumerate() {
                    out.push((
                        format!("encounters.{id}.{table}.slots[{}].species", n + 1),
                        text(slot, "species").to_owned(),
                    ));
                }
            }
        }
        ("trainers", "pokemon" | "moves") => {
            for (p, party) in list(rec, "parties").iter().enumerate() {
                for (n, mon) in party.as_list().unwrap_or(&[]).iter().enumerate() {
                    let at = format!("trainers.{id}.parties[{}][{}]", p + 1, n + 1);
                    if target == "pokemon" {
                        out.push((format!("{at}.species"), text(mon, "species").to_owned()));
                    } else {
                        for (k, mv) in list(mon, "moves").iter().enumerate() {
                            let name = mv.as_str().unwrap_or("").to_owned();
                            out.push((format!("{at}.moves[{}]", k + 1), name));
                        }
                    }
                }
            }
        }
        ("pokemon", "pokemon" | "items") => {
            let key = if target == "pokemon" { "into" } else { "item" };
            for (n, ev) in list(rec, "evolutions").iter().enumerate() {
                if let Some(name) = ev.get(key).and_then(Value::as_str) {
                    out.push((
                        format!("pokemon.{id}.evolutions[{}].{key}", n + 1),
                        name.to_owned(),
                    ));
                }
            }
        }
        ("pokemon", "moves") => {
            for (n, mv) in list(rec, "startMoves").iter().enumerate() {
                let name = mv.as_str().unwrap_or("").to_owned();
                out.push((format!("pokemon.{id}.startMoves[{}]", n + 1), name));
            }
            for (n, row) in list(rec, "learnset").iter().enumerate() {
                out.push((
                    format!("pokemon.{id}.learnset[{}].move", n + 1),
                    text(row, "move").to_owned(),
                ));
            }
        }
        _ => {}
    }
    out
}

/// Which registries can name records of `target`.
fn referrers(target: &str) -> &'static [&'static str] {
    match target {
        "pokemon" => &["encounters", "trainers", "pokemon"],
        "moves" => &["pokemon", "trainers"],
        "items" => &["pokemon"],
        _ => &[],
    }
}

/// Blame on its remover every reference the base data still makes to a removed base species,
/// move or item (one problem per reference).
pub fn check_removed(content: &Content, problems: &mut Problems) {
    for target in ["pokemon", "moves", "items"] {
        let Some(treg) = content.registry(target) else {
            continue;
        };
        let removed = removed_ids(treg);
        if removed.is_empty() {
            continue;
        }
        for registry in referrers(target) {
            let Some(reg) = content.registry(registry) else {
                continue;
            };
            for (id, rec) in reg.each() {
                // A mod's own record is checked (and blamed on the mod) by the compile.
                if reg.last_owner(id).is_some() {
                    continue;
                }
                for (path, name) in references(registry, id, rec, target) {
                    if removed.contains(&name.as_str()) {
                        problems.blame(
                            treg,
                            &name,
                            format!("{target}:remove({name}): still referenced by {path}"),
                        );
                    }
                }
            }
        }
    }
}
