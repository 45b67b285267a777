//! Dependency enforcement, conflicts, cycle detection and load order.

use std::collections::{BTreeMap, BTreeSet};

use crate::catalog::common::GameVersion;
use crate::manifest::{DependencySpec, Manifest};
use crate::semver::{Range, Version};

use super::ModState;

/// One mod under resolution.
pub(crate) struct Node<'a> {
    pub manifest: &'a Manifest,
    pub state: ModState,
    pub error: Option<String>,
}

fn dep_applies(dep: &DependencySpec, game: GameVersion) -> bool {
    dep.games.as_ref().is_none_or(|g| g.contains(game.as_str()))
}

/// Fail pending mods whose hard dependencies are missing, inactive or out of range, then
/// mods that conflict with an active mod; repeat until nothing changes.
pub(crate) fn enforce(nodes: &mut BTreeMap<String, Node<'_>>, game: GameVersion) {
    loop {
        let mut changed = false;
        let ids: Vec<String> = nodes.keys().cloned().collect();
        for id in &ids {
            if nodes[id].state != ModState::Pending {
                continue;
            }
            let mut failure = None;
            for dep in &nodes[id].manifest.dependencies {
                if !dep_applies(dep, game) {
                    continue;
                }
                match nodes.get(&dep.id) {
                    None => failure = Some(format!("missing dependency {}", dep.id)),
                    Some(d) if !matches!(d.state, ModState::Pending | ModState::Loaded) => {
                        failure = Some(format!("dependency {} is {}", dep.id, d.state.as_str()))
                    }
                    Some(d) => {
                        if let Some(range) = &dep.range {
                            let ok =
                                match (Range::parse(range), Version::parse(&d.manifest.version)) {
                                    (Some(r), Some(v)) => r.matches(&v),
                                    _ => false,
                                };
                            if !ok {
                                failure = Some(format!(
                                    "dependency {}@{range} not satisfied (found {})",
                                    dep.id, d.manifest.version
                                ));
                            }
                        }
                    }
                }
                if failure.is_some() {
                    break;
                }
            }
            if failure.is_none() {
                for other in &nodes[id].manifest.conflicts {
                    if other != id
                        && nodes.get(other).is_some_and(|o| {
                            matches!(o.state, ModState::Pending | ModState::Loaded)
                        })
                    {
                        failure = Some(format!("conflicts with {other}"));
                        break;
                    }
                }
            }
            if let Some(msg) = failure {
                if let Some(node) = nodes.get_mut(id) {
                    node.state = ModState::Failed;
                    node.error = Some(msg);
                }
                changed = true;
            }
        }
        if !changed {
            return;
        }
    }
}

/// Fail every pending mod on a hard-dependency cycle. Returns the cycles found (each as the
/// path `a -> b -> a`).
pub(crate) fn fail_cycles(
    nodes: &mut BTreeMap<String, Node<'_>>,
    game: GameVersion,
) -> Vec<String> {
    let pending: BTreeSet<String> = nodes
        .iter()
        .filter(|(_, n)| n.state == ModState::Pending)
        .map(|(k, _)| k.clone())
        .collect();
    let edges: BTreeMap<String, Vec<String>> = pending
        .iter()
        .map(|id| {
            let deps = nodes[id]
                .manifest
                .dependencies
                .iter()
                .filter(|d| dep_applies(d, game) && pending.contains(&d.id))
                .map(|d| d.id.clone())
                .collect();
            (id.clone(), deps)
        })
        .collect();
    let mut cycles = Vec::new();
    let mut on_cycle = BTreeSet::new();
    // Depth-first search with colours; record each back edge's cycle.
    #[derive(Clone, Copy, PartialEq)]
    enum Colour {
        White,
        Grey,
        Black,
    }
    let mut colour: BTreeMap<&str, Colour> = pending
        .iter()
        .map(|k| (k.as_str(), Colour::White))
        .collect();
    for start in &pending {
        if colour[start.as_str()] != Colour::White {
            continue;
        }
        // Iterative DFS: stack of (node, next edge index); `path` mirrors the grey nodes.
        let mut stack: Vec<(&str, usize)> = vec![(start.as_str(), 0)];
        colour.insert(start.as_str(), Colour::Grey);
        while let Some((node, i)) = stack.last().copied() {
            let next = edges.get(node).and_then(|e| e.get(i));
            match next {
                Some(dep) => {
                    if let Some(top) = stack.last_mut() {
                        top.1 += 1;
                    }
                    match colour.get(dep.as_str()).copied() {
                        Some(Colour::White) => {
                            colour.insert(dep.as_str(), Colour::Grey);
                            stack.push((dep.as_str(), 0));
                        }
                        Some(Colour::Grey) => {
                            let from = stack
                                .iter()
                                .position(|(n, _)| *n == dep.as_str())
                                .unwrap_or(0);
                            let mut path: Vec<&str> =
                                stack[from..].iter().map(|(n, _)| *n).collect();
                            on_cycle.extend(path.iter().map(|s| (*s).to_owned()));
                            path.push(dep.as_str());
                            cycles.push(path.join(" -> "));
                        }
                        _ => {}
                    }
                }
                None => {
                    colour.insert(node, Colour::Black);
                    stack.pop();
                }
            }
        }
    }
    for id in &on_cycle {
        if let Some(node) = nodes.get_mut(id) {
            let cycle = cycles
                .iter()
                .find(|c| c.split(" -> ").any(|p| p == id))
                .cloned()
                .unwrap_or_default();
            node.state = ModState::Failed;
            node.error = Some(format!("dependency cycle: {cycle}"));
        }
    }
    cycles
}

/// Load order of the pending mods: topological over hard and optional dependencies; among
/// ready mods the lowest `priority` first, ties by id. Optional-dependency loops are broken at
/// the lowest (priority, id) remaining mod; each break is returned as a warning.
pub(crate) fn order(
    nodes: &BTreeMap<String, Node<'_>>,
    game: GameVersion,
) -> (Vec<String>, Vec<String>) {
    let pending: BTreeSet<&str> = nodes
        .iter()
        .filter(|(_, n)| n.state == ModState::Pending)
        .map(|(k, _)| k.as_str())
        .collect();
    let mut waiting_on: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for id in &pending {
        let m = nodes[*id].manifest;
        let deps = m
            .dependencies
            .iter()
            .chain(m.optional_dependencies.iter())
            .filter(|d| dep_applies(d, game))
            .map(|d| d.id.as_str())
            .filter(|d| pending.contains(d) && d != id)
            .collect();
        waiting_on.insert(id, deps);
    }
    let key = |id: &str| (nodes[id].manifest.priority, id.to_owned());
    let mut out = Vec::new();
    let mut warnings = Vec::new();
    let mut remaining: BTreeSet<&str> = pending.clone();
    while !remaining.is_empty() {
        let ready = remaining
            .iter()
            .filter(|id| waiting_on[*id].iter().all(|d| !remaining.contains(d)))
            .min_by(|a, b| {
                key(a)
                    .partial_cmp(&key(b))
                    .unwrap_or(std::cmp::Ordering::Equal)
            });
        let pick = match ready {
            Some(id) => *id,
            None => {
                let Some(id) = remaining.iter().min_by(|a, b| {
                    key(a)
                        .partial_cmp(&key(b))
                        .unwrap_or(std::cmp::Ordering::Equal)
                }) else {
                    break;
                };
                warnings.push(format!("optional dependency loop broken at {id}"));
                *id
            }
        };
        remaining.remove(pick);
        out.push(pick.to_owned());
    }
    (out, warnings)
}
