//! [`ReadPaths`]: which fields of one argument a script link can read — the one read-path type
//! both hosts' analysers fill (the Rhai host's AST walk, the Lua shim's bytecode scan) and the
//! argument serializer ([`super::sink`]) and the Rhai patch sink apply.
//!
//! A trie stored as an arena, node 0 the argument itself. A *full* node's value is written
//! whole; a partial node is a struct (or, for the Rhai sink, a map) of which only the
//! `children` are written. A fresh `ReadPaths` (root partial, no children) keeps no field.

/// The property paths of one argument that a link reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadPaths {
    nodes: Vec<Node>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Node {
    full: bool,
    children: Vec<(Box<str>, u32)>,
}

/// How a value is written: whole, or only some keys of it (a [`ReadPaths`] node).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Filter {
    Whole,
    Keys(u32),
}

impl Default for ReadPaths {
    fn default() -> Self {
        Self::new()
    }
}

impl ReadPaths {
    /// No path read yet: the argument keeps no field.
    pub fn new() -> Self {
        ReadPaths {
            nodes: vec![Node {
                full: false,
                children: Vec::new(),
            }],
        }
    }

    /// Record a read of `path` (outermost key first): the value at its end is read whole, and a
    /// value read whole stays whole. The empty path reads the whole argument.
    pub fn insert<K: AsRef<str>>(&mut self, path: &[K]) {
        let mut at = 0usize;
        for key in path {
            let key = key.as_ref();
            if self.nodes[at].full {
                return;
            }
            let next = match self.nodes[at].children.iter().find(|(k, _)| &**k == key) {
                Some(&(_, child)) => child as usize,
                None => {
                    self.nodes.push(Node {
                        full: false,
                        children: Vec::new(),
                    });
                    let child = self.nodes.len() - 1;
                    self.nodes[at].children.push((key.into(), child as u32));
                    child
                }
            };
            at = next;
        }
        self.nodes[at].full = true;
        self.nodes[at].children.clear();
    }

    /// Paths given as key lists.
    pub fn from_paths(paths: &[&[&str]]) -> Self {
        let mut p = ReadPaths::new();
        for path in paths {
            p.insert(path);
        }
        p
    }

    /// The argument's own filter.
    pub fn root(&self) -> Filter {
        self.filter(0)
    }

    fn filter(&self, node: usize) -> Filter {
        match self.nodes.get(node) {
            Some(n) if !n.full => Filter::Keys(node as u32),
            _ => Filter::Whole,
        }
    }

    /// The filter of entry `key` of the value at `node`; `None`: the entry is not written.
    #[inline]
    pub fn child(&self, node: u32, key: &str) -> Option<Filter> {
        let n = self.nodes.get(node as usize)?;
        let &(_, child) = n.children.iter().find(|(k, _)| &**k == key)?;
        Some(self.filter(child as usize))
    }

    /// How many entries of the value at `node` are written (a length hint).
    pub fn width(&self, node: u32) -> usize {
        self.nodes
            .get(node as usize)
            .map_or(0, |n| n.children.len())
    }

    /// Make the root's entry `key` whole if it is on a path (a field a host post-processes and
    /// so needs in full, e.g. the Lua shim's `ctx.rng` marker).
    pub fn widen(&mut self, key: &str) {
        if let Some(Filter::Keys(node)) = self.child(0, key) {
            let n = &mut self.nodes[node as usize];
            n.full = true;
            n.children.clear();
        }
    }

    /// Every path as dotted text, sorted (`""` when the whole argument is read) — for tests
    /// and diagnostics.
    pub fn to_strings(&self) -> Vec<String> {
        fn visit(p: &ReadPaths, node: usize, prefix: String, out: &mut Vec<String>) {
            let n = &p.nodes[node];
            if n.full {
                out.push(prefix);
                return;
            }
            for (k, c) in &n.children {
                let at = if prefix.is_empty() {
                    k.to_string()
                } else {
                    format!("{prefix}.{k}")
                };
                visit(p, *c as usize, at, out);
            }
        }
        let mut out = Vec::new();
        visit(self, 0, String::new(), &mut out);
        out.sort();
        out
    }

    /// The entries of the value at `node`, sorted by key, each with its node and whether it is
    /// read whole (rendering for tests).
    pub fn entries(&self, node: u32) -> Vec<(&str, u32, bool)> {
        let mut out: Vec<(&str, u32, bool)> = self
            .nodes
            .get(node as usize)
            .map(|n| {
                n.children
                    .iter()
                    .map(|(k, c)| (&**k, *c, self.nodes[*c as usize].full))
                    .collect()
            })
            .unwrap_or_default();
        out.sort();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_whole_read_absorbs_deeper_ones() {
        let mut p = ReadPaths::from_paths(&[&["user", "hp"], &["move"]]);
        assert_eq!(p.to_strings(), ["move", "user.hp"]);
        p.insert(&["user"]);
        p.insert(&["user", "maxHp"]);
        assert_eq!(p.to_strings(), ["move", "user"]);
        assert_eq!(p.child(0, "user"), Some(Filter::Whole));
        assert_eq!(p.child(0, "other"), None);
        assert_eq!(ReadPaths::new().to_strings(), Vec::<String>::new());
        let mut whole = ReadPaths::new();
        whole.insert::<&str>(&[]);
        assert_eq!(whole.root(), Filter::Whole);
    }

    #[test]
    fn widen_makes_a_partial_entry_whole() {
        let mut p = ReadPaths::from_paths(&[&["rng", "state"], &["user", "hp"]]);
        p.widen("rng");
        p.widen("absent");
        assert_eq!(p.to_strings(), ["rng", "user.hp"]);
    }
}
