//! `rhai.max_closure_depth`: how deep closures may nest inside one another.
//!
//! Rhai drops a value recursively. A chain of closures each capturing the previous one (or
//! `Fn("g").curry(f)` nested again and again) meets every size limit — a closure's captures
//! are not counted as array or map elements — yet 100,000 levels overflow the thread stack
//! when the chain is dropped (at load or inside a dispatch), and each `curry` of a nested
//! function pointer deep-copies it at constant operation cost. Every variable read that yields
//! a function pointer measures how deep it nests (function pointers, their curried values,
//! shared cells, arrays and maps each count one level, shared cells seen once so a closure
//! capturing itself is not "deep"), stopping at the limit; past it the read fails with an
//! error naming the limit. Chains therefore stop growing at the limit, and what is dropped is
//! always shallow.
//!
//! Cost: one type check per variable read; the walk runs only for function pointers and
//! visits at most [`MAX_WALK_NODES`] values.

use rhai::{Array, Dynamic, EvalAltResult, FnPtr, Map, Position};

/// The deepest a value holding closures may nest.
pub const MAX_CLOSURE_DEPTH: usize = 256;
/// Values one measurement visits at most (arrays and maps are size-limited anyway).
pub const MAX_WALK_NODES: usize = 4_096;

/// The error a too-deep read raises.
pub fn too_deep(name: &str) -> Box<EvalAltResult> {
    EvalAltResult::ErrorRuntime(
        format!(
            "rhai.max_closure_depth: `{name}` nests closures or curried function pointers more than {MAX_CLOSURE_DEPTH} levels deep"
        )
        .into(),
        Position::NONE,
    )
    .into()
}

struct Walk {
    nodes: usize,
    seen: Vec<usize>,
}

/// Nesting depth of `v`, at most `MAX_CLOSURE_DEPTH + 1`.
pub fn closure_depth(v: &Dynamic) -> usize {
    let mut w = Walk {
        nodes: 0,
        seen: Vec::new(),
    };
    w.depth(v, 1)
}

impl Walk {
    fn depth(&mut self, v: &Dynamic, level: usize) -> usize {
        self.nodes += 1;
        if level > MAX_CLOSURE_DEPTH || self.nodes > MAX_WALK_NODES {
            return level;
        }
        if v.is_shared() {
            // A shared cell: identified by the address of its contents (stable while the
            // cell lives), so cycles through captured variables end here.
            let Some(inner) = v.read_lock::<Dynamic>() else {
                return level;
            };
            let at = &*inner as *const Dynamic as usize;
            if self.seen.contains(&at) {
                return level;
            }
            self.seen.push(at);
            return self.depth(&inner, level);
        }
        let mut deepest = level;
        if let Some(f) = v.read_lock::<FnPtr>() {
            for c in f.iter_curry() {
                deepest = deepest.max(self.depth(c, level + 1));
                if deepest > MAX_CLOSURE_DEPTH {
                    break;
                }
            }
        } else if let Some(a) = v.read_lock::<Array>() {
            for c in a.iter() {
                deepest = deepest.max(self.depth(c, level + 1));
                if deepest > MAX_CLOSURE_DEPTH {
                    break;
                }
            }
        } else if let Some(m) = v.read_lock::<Map>() {
            for c in m.values() {
                deepest = deepest.max(self.depth(c, level + 1));
                if deepest > MAX_CLOSURE_DEPTH {
                    break;
                }
            }
        }
        deepest
    }
}

/// The check for one variable read (`on_var`'s arguments): `Err` past the limit.
pub fn check_read(
    name: &str,
    index: usize,
    ctx: &rhai::EvalContext,
) -> Result<(), Box<EvalAltResult>> {
    let scope = ctx.scope();
    // A non-zero `index` counts from the end of the scope (Rhai reads `scope.len() - index`),
    // and `iter_raw` walks the scope from its end.
    let value = if index > 0 {
        scope.iter_raw().nth(index - 1).map(|(_, _, v)| v)
    } else {
        scope.get(name)
    };
    match value {
        Some(v) if is_fn_ptr(v) && !is_shallow(v) && closure_depth(v) > MAX_CLOSURE_DEPTH => {
            Err(too_deep(name))
        }
        _ => Ok(()),
    }
}

/// A function pointer (not shared) none of whose curried values can hold another level (no
/// pointer, array, map or shared cell among them): depth at most 2, no walk needed. The
/// common case: a link's `next`.
fn is_shallow(v: &Dynamic) -> bool {
    if v.is_shared() {
        return false;
    }
    // Tag checks only (`is_fnptr`/`is_array`/`is_map` of a value that is not shared).
    v.read_lock::<FnPtr>().is_some_and(|f| {
        f.iter_curry()
            .all(|c| !(c.is_shared() || c.is_fnptr() || c.is_array() || c.is_map()))
    })
}

/// Install the check on `engine`'s variable reads (an engine without handles; with handles,
/// [`install_handles`](super::vm::install_handles) runs it in its own resolver).
pub fn install(engine: &mut rhai::Engine) {
    #[allow(deprecated)] // "volatile", not deprecated (Rhai's own note)
    engine.on_var(|name, index, ctx| {
        check_read(name, index, &ctx)?;
        Ok(None)
    });
}

fn is_fn_ptr(v: &Dynamic) -> bool {
    v.is_fnptr()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_curry_is_measured_and_cycles_end() {
        let mut f = FnPtr::new("g").unwrap();
        for _ in 0..10 {
            let mut outer = FnPtr::new("g").unwrap();
            outer.add_curry(Dynamic::from(f));
            f = outer;
        }
        assert_eq!(closure_depth(&Dynamic::from(f)), 11);
        // A shared cell holding a closure that captures the same cell: finite.
        let mut cell = Dynamic::from(0_i64).into_shared();
        let mut self_ref = FnPtr::new("g").unwrap();
        self_ref.add_curry(cell.clone());
        *cell.write_lock::<Dynamic>().unwrap() = Dynamic::from(self_ref);
        assert!(closure_depth(&cell) <= 3);
    }
}

#[cfg(test)]
mod engine_tests {
    use rhai::packages::Package;

    #[test]
    fn a_closure_chain_stops_at_the_limit() {
        let mut e = rhai::Engine::new_raw();
        use rhai::packages::{ArithmeticPackage, BasicFnPackage, BasicIteratorPackage};
        e.register_global_module(BasicFnPackage::new().as_shared_module());
        e.register_global_module(BasicIteratorPackage::new().as_shared_module());
        e.register_global_module(ArithmeticPackage::new().as_shared_module());
        super::install(&mut e);
        let r = e.run("let f = || 0; for i in 0..1000 { let g = f; f = || g.call() + 1; }");
        let err = r.expect_err("refused").to_string();
        assert!(err.contains("rhai.max_closure_depth"), "{err}");
        let r =
            e.run(r#"fn g(x) { 0 } let f = Fn("g"); for i in 0..1000 { f = Fn("g").curry(f); }"#);
        let err = r.expect_err("refused").to_string();
        assert!(err.contains("rhai.max_closure_depth"), "{err}");
        // The variable read is found by its offset from the end of the scope: with other
        // variables declared after it, the chain is still the one measured.
        let r = e.run(
            r#"fn g(x) { 0 } let f = Fn("g"); let a = 1; let b = 2; let c = 3;
               for i in 0..1000 { f = Fn("g").curry(f); }"#,
        );
        let err = r.expect_err("refused").to_string();
        assert!(err.contains("rhai.max_closure_depth"), "{err}");
    }
}
