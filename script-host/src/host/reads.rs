//! Which parts of an argument a link's closure can read ([`ReadPaths`], found by
//! [`read_paths`]), so the direct call path writes only those into the closure's scope.
//!
//! A hook's context is a tree of ~20 values; a wrapper typically reads one or two of them
//! (`|next, ctx| if ctx.user.hp > 0 { next.call() } else { false }`). When every mention of a
//! parameter in the closure's body is the start of a chain of plain property reads
//! (`ctx.user.hp`, `ctx.move.name`) that nothing assigns to, the body can observe the argument
//! only through those chains: a map the chain passes through is never materialized to the
//! script, and the value at the end of a chain is written whole. So the argument is written
//! with just the maps on those paths and the values at their ends; every other field is left
//! out (its value is still streamed, so a conversion error fails the link as before).
//!
//! Anything else keeps the whole argument: the parameter used as a value (passed to a function
//! or to `next.call(ctx)`, returned, printed, captured by a closure), indexed (`ctx["user"]`),
//! a method called on it or on a map of its chain (`ctx.keys()`, `ctx.user.len()`), or a chain
//! assigned to (`ctx.user.hp = 0`, `+=`). A shadowing `let ctx` only adds paths (its chains are
//! counted as reads of the parameter), never hides one. `eval` is disabled in the sandbox, and
//! calls sharing the caller's scope (`f!()`) or custom syntax make [`super::direct`] treat every
//! parameter as fully used before this runs.

use std::ptr;

use rhai::{ASTNode, Expr, ImmutableString, Stmt, StmtBlock};

pub use pallet_api::script::{Filter, ReadPaths};

/// The paths through which `body` reads the variable `name`, or `None` when it may observe the
/// whole value (module docs).
pub fn read_paths(body: &StmtBlock, name: &str) -> Option<ReadPaths> {
    let mut paths = ReadPaths::new();
    let mut whole = false;
    let mut walk_path = Vec::new();
    for stmt in body.iter() {
        let finished = stmt.walk(&mut walk_path, &mut |path: &[ASTNode]| {
            let Some(ASTNode::Expr(var @ Expr::Variable(v, ..))) = path.last() else {
                return true;
            };
            if v.1.as_str() != name {
                return true;
            }
            let parent = path.len().checked_sub(2).map(|i| &path[i]);
            match parent.and_then(|parent| chain(path, parent, var)) {
                Some(keys) => {
                    paths.insert(&keys);
                    true
                }
                None => {
                    whole = true;
                    false
                }
            }
        });
        walk_path.clear();
        if whole || !finished {
            return None;
        }
    }
    Some(paths)
}

/// The property names of the read chain starting at variable `var` (whose parent node is
/// `parent`), or `None` if this mention is not a plain, unassigned property read.
fn chain(path: &[ASTNode], parent: &ASTNode, var: &Expr) -> Option<Vec<ImmutableString>> {
    let ASTNode::Expr(dot @ Expr::Dot(bin, ..)) = parent else {
        return None;
    };
    if !ptr::eq(&bin.lhs, var) {
        return None;
    }
    // Not the target of an assignment (`=` or an op-assignment).
    if let Some(ASTNode::Stmt(Stmt::Assignment(a))) = path.len().checked_sub(3).map(|i| &path[i]) {
        if ptr::eq(&a.1.lhs, *dot) {
            return None;
        }
    }
    let mut keys = Vec::new();
    let mut rhs = &bin.rhs;
    loop {
        match rhs {
            Expr::Property(p, _) => {
                keys.push(p.2.clone());
                return Some(keys);
            }
            Expr::Dot(inner, ..) => {
                let Expr::Property(p, _) = &inner.lhs else {
                    return None;
                };
                keys.push(p.2.clone());
                rhs = &inner.rhs;
            }
            _ => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rhai::{Engine, Position};

    /// The read paths of the closure's parameter `ctx`, as sorted dotted strings (a trailing
    /// `.*` marks a partial map with no children, which cannot occur).
    fn paths_of(src: &str) -> Option<Vec<String>> {
        let engine = Engine::new();
        let ast = engine.compile(src).unwrap();
        // The two-parameter closure's body (a nested closure is another, shorter function).
        let mut only = ast.clone_functions_only();
        only.retain_functions(|_, _, n, a| n.starts_with("anon$") && a == 2);
        let mut statements = Vec::new();
        only.walk(&mut |path: &[ASTNode]| {
            if let [ASTNode::Stmt(stmt)] = path {
                statements.push((*stmt).clone());
            }
            true
        });
        let body = StmtBlock::new(statements, Position::NONE, Position::NONE);
        let p = read_paths(&body, "ctx")?;
        let out = p.to_strings();
        Some(out)
    }

    #[test]
    fn plain_property_chains_are_paths() {
        assert_eq!(
            paths_of("|next, ctx| if ctx.user.hp > 0 { next.call() } else { false }"),
            Some(vec!["user.hp".into()])
        );
        assert_eq!(
            paths_of("|next, ctx| ctx.user.hp + ctx.move.power + ctx.user.hp"),
            Some(vec!["move.power".into(), "user.hp".into()])
        );
        // A chain ending at a map reads it whole, including deeper chains through it.
        assert_eq!(
            paths_of("|next, ctx| { let u = ctx.user; u.hp + ctx.user.max_hp }"),
            Some(vec!["user".into()])
        );
        assert_eq!(
            paths_of("|next, ctx| `${ctx.user.name} ${ctx?.battle.turn}`"),
            Some(vec!["battle.turn".into(), "user.name".into()])
        );
        // Never named: nothing to write.
        assert_eq!(paths_of("|next, ctx| next.call()"), Some(vec![]));
        // A shadowing `let` only adds paths.
        assert_eq!(
            paths_of("|next, ctx| { let ctx = #{a: #{b: 1}}; ctx.a.b }"),
            Some(vec!["a.b".into()])
        );
    }

    #[test]
    fn any_other_use_keeps_the_whole_argument() {
        for src in [
            "|next, ctx| ctx",
            "|next, ctx| next.call(ctx)",
            "|next, ctx| type_of(ctx)",
            "|next, ctx| ctx[\"user\"].hp",
            "|next, ctx| ctx.user[\"hp\"]",
            "|next, ctx| ctx.keys()",
            "|next, ctx| ctx.user.len()",
            "|next, ctx| ctx.user.name.len()",
            "|next, ctx| { ctx.user.hp = 0; next.call() }",
            "|next, ctx| { ctx.user.hp += 1; next.call() }",
            "|next, ctx| { let f = || ctx.user.hp; f.call() }",
            "|next, ctx| { let c = ctx; c.user.hp }",
            "|next, ctx| { let ctx = 1; ctx }",
            "|next, ctx| [ctx.user.hp, ctx].len()",
        ] {
            assert_eq!(paths_of(src), None, "{src}");
        }
    }
}
