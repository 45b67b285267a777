//! Deep merge of a `patch` into a record (the Lua engine's patch semantics):
//!
//! * maps merge key by key, recursively;
//! * a list (or any scalar) in a patch **replaces** the old value wholesale;
//! * `{ __append = [...] }` / `{ __prepend = [...] }` extend the old list (both may be given;
//!   an absent old value counts as an empty list);
//! * the delete sentinel ([`delete`]) unsets the key.

use std::collections::BTreeMap;

use crate::value::Value;

/// The key of the delete sentinel map `{ "__delete": true }`.
pub const DELETE_KEY: &str = "__delete";
pub const APPEND_KEY: &str = "__append";
pub const PREPEND_KEY: &str = "__prepend";

/// The delete sentinel (`mod.DELETE` in Lua): a patch value that unsets its key.
pub fn delete() -> Value {
    Value::map([(DELETE_KEY, Value::Bool(true))])
}

/// Is `v` the delete sentinel?
pub fn is_delete(v: &Value) -> bool {
    matches!(v, Value::Map(m) if m.len() == 1 && m.get(DELETE_KEY) == Some(&Value::Bool(true)))
}

fn list_op(v: &Value) -> Option<(&BTreeMap<String, Value>, bool)> {
    match v {
        Value::Map(m) if !m.is_empty() && m.keys().all(|k| k == APPEND_KEY || k == PREPEND_KEY) => {
            Some((m, true))
        }
        _ => None,
    }
}

/// A patch failed to apply (bad `__append`/`__prepend` use).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MergeError {
    pub path: String,
    pub message: String,
}

/// Merge `patch` into `target` in place. `path` prefixes error locations.
pub fn merge(target: &mut Value, patch: &Value, path: &str) -> Result<(), MergeError> {
    let Value::Map(patch_map) = patch else {
        return Err(MergeError {
            path: path.to_owned(),
            message: format!("a patch must be a map, got {}", patch.type_name()),
        });
    };
    if !matches!(target, Value::Map(_)) {
        *target = Value::Map(BTreeMap::new());
    }
    let Value::Map(map) = target else {
        return Ok(());
    };
    for (key, pv) in patch_map {
        let field_path = format!("{path}.{key}");
        if is_delete(pv) {
            map.remove(key);
        } else if let Some((ops, _)) = list_op(pv) {
            let mut list = match map.remove(key) {
                None | Some(Value::Nil) => Vec::new(),
                Some(Value::List(l)) => l,
                Some(other) => {
                    return Err(MergeError {
                        path: field_path,
                        message: format!(
                            "__append/__prepend needs a list, found {}",
                            other.type_name()
                        ),
                    })
                }
            };
            for (op, items) in ops {
                let Value::List(items) = items else {
                    return Err(MergeError {
                        path: format!("{field_path}.{op}"),
                        message: format!("expected a list, got {}", items.type_name()),
                    });
                };
                let items = items
                    .iter()
                    .map(resolve)
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|m| MergeError {
                        path: format!("{field_path}.{op}"),
                        message: m,
                    })?;
                if op == PREPEND_KEY {
                    let mut front = items;
                    front.append(&mut list);
                    list = front;
                } else {
                    list.extend(items);
                }
            }
            map.insert(key.clone(), Value::List(list));
        } else if let (Value::Map(_), Some(existing @ Value::Map(_))) = (pv, map.get_mut(key)) {
            merge(existing, pv, &field_path)?;
        } else {
            let resolved = resolve(pv).map_err(|m| MergeError {
                path: field_path,
                message: m,
            })?;
            map.insert(key.clone(), resolved);
        }
    }
    Ok(())
}

/// A patch value placed where nothing merges with it: strip delete sentinels and resolve list
/// operators against an empty list.
fn resolve(v: &Value) -> Result<Value, String> {
    match v {
        Value::Map(m) => {
            if list_op(v).is_some() {
                let mut out = Vec::new();
                if let Some(p) = m.get(PREPEND_KEY) {
                    out.extend(
                        p.as_list()
                            .ok_or("__prepend needs a list")?
                            .iter()
                            .map(resolve)
                            .collect::<Result<Vec<_>, _>>()?,
                    );
                }
                if let Some(a) = m.get(APPEND_KEY) {
                    out.extend(
                        a.as_list()
                            .ok_or("__append needs a list")?
                            .iter()
                            .map(resolve)
                            .collect::<Result<Vec<_>, _>>()?,
                    );
                }
                return Ok(Value::List(out));
            }
            let mut out = BTreeMap::new();
            for (k, x) in m {
                if !is_delete(x) {
                    out.insert(k.clone(), resolve(x)?);
                }
            }
            Ok(Value::Map(out))
        }
        Value::List(l) => Ok(Value::List(
            l.iter().map(resolve).collect::<Result<_, _>>()?,
        )),
        other => Ok(other.clone()),
    }
}

/// A full record given to `register`/`override`: sentinels resolved the same way.
pub fn resolve_record(v: &Value) -> Result<Value, String> {
    resolve(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(v: &[i64]) -> Value {
        Value::List(v.iter().map(|i| Value::Int(*i)).collect())
    }

    #[test]
    fn patch_semantics() {
        let mut rec = Value::map([
            ("name", Value::from("PIKACHU")),
            ("moves", ints(&[1, 2])),
            ("warps", ints(&[1])),
            (
                "nested",
                Value::map([("a", Value::Int(1)), ("b", Value::Int(2))]),
            ),
            ("gone", Value::Bool(true)),
        ]);
        let patch = Value::map([
            ("moves", ints(&[9])),
            (
                "warps",
                Value::map([(APPEND_KEY, ints(&[2, 3])), (PREPEND_KEY, ints(&[0]))]),
            ),
            (
                "nested",
                Value::map([("b", Value::Int(20)), ("c", Value::Int(3)), ("a", delete())]),
            ),
            ("gone", delete()),
            ("fresh", Value::map([(APPEND_KEY, ints(&[5]))])),
        ]);
        merge(&mut rec, &patch, "t").unwrap();
        assert_eq!(rec.get("moves"), Some(&ints(&[9])));
        assert_eq!(rec.get("warps"), Some(&ints(&[0, 1, 2, 3])));
        assert_eq!(
            rec.get("nested"),
            Some(&Value::map([("b", Value::Int(20)), ("c", Value::Int(3))]))
        );
        assert_eq!(rec.get("gone"), None);
        assert_eq!(rec.get("fresh"), Some(&ints(&[5])));
        assert_eq!(rec.get("name"), Some(&Value::from("PIKACHU")));
    }

    #[test]
    fn append_onto_a_scalar_points_at_the_field() {
        let mut rec = Value::map([("name", Value::from("X"))]);
        let err = merge(
            &mut rec,
            &Value::map([("name", Value::map([(APPEND_KEY, ints(&[1]))]))]),
            "pokemon.X",
        )
        .unwrap_err();
        assert_eq!(err.path, "pokemon.X.name");
    }
}
