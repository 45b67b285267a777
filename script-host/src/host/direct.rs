//! The direct call path of a link's closure: its body evaluated in a call frame (global state,
//! function-resolution caches, scope) that the link keeps and reuses, instead of
//! `FnPtr::call_raw`, which per call clones the global state, starts empty resolution caches
//! (every function the body calls is resolved again) and builds a fresh scope (allocating each
//! parameter name twice).
//!
//! # What it evaluates (Rhai internals)
//!
//! Rhai 1.27 runs a script function (`call_script_fn`) as: count one operation, check the
//! call level, push the parameters into the scope, evaluate the body as a block that restores
//! scope, imports and resolution caches on exit, turn `return` into the value, wrap other
//! non-system errors in `ErrorInFunctionCall`. The direct path does the same with public
//! `internals` API:
//!
//! * the body's statements are rebuilt once: the function's payload type is not exported, so
//!   they come from an AST walk of the single function ([`AST::retain_functions`]); the
//!   rebuilt block must print (`Debug`, which covers every node and position) exactly as the
//!   original body, else the link keeps the `call_raw` path;
//! * the call's own operation is counted as `call_script_fn` counts it (the operation count
//!   starts at 1 and the progress callback — the shared budget — sees it), then the level
//!   check;
//! * the statements are evaluated with `Engine::eval_statements_raw` one scope level up, and
//!   what a restoring block restores is restored afterwards: the scope's length, the scope
//!   level, `always_search_scope`, the imports (and, if the body imported anything, the
//!   resolution caches, which may hold functions of the imported modules);
//! * the parameters stay in the frame's scope between calls (only their values are replaced),
//!   which is the scope `call_script_fn` builds;
//! * errors are mapped as `call_script_fn` maps them (`ErrorInFunctionCall` around non-system
//!   errors, no position on system errors), so diagnostics are unchanged.
//!
//! Only anonymous functions (closures) of the mod's entry AST take this path: their names
//! cannot collide with other functions, they have no `this` and no encapsulated module
//! environment. Anything else (a named `Fn("f")`, a closure of an imported module, a curried
//! read-only value) keeps `call_raw`.
//!
//! The frame is taken out of its cell for the duration of a call: a re-entrant call of the
//! same link builds a fresh frame instead of sharing one mutably.

use std::cell::Cell;

use super::patch::{ArgSlots, Buffers};
use super::reads::{read_paths, ReadPaths};
use rhai::{
    ASTNode, Caches, Dynamic, Engine, EvalAltResult, FnArgsVec, FnPtr, GlobalRuntimeState,
    ImmutableString, Position, Scope, StmtBlock, AST,
};

/// A closure resolved for direct calls.
pub struct DirectFn {
    /// The function's (anonymous) name, for the `ErrorInFunctionCall` wrapper.
    name: ImmutableString,
    /// Parameter names: the captured variables first, then the declared parameters.
    params: FnArgsVec<ImmutableString>,
    /// The captured (curried) values, passed before the arguments.
    curry: FnArgsVec<Dynamic>,
    /// The body.
    body: StmtBlock,
    /// Which declared parameters the body names (an unnamed one is never written).
    used: FnArgsVec<bool>,
    /// `used` of the hook's parameters (after `next`) as the mask `ScriptArgs::write_read`
    /// takes (bit `j`: parameter `j`), computed once here.
    read: u64,
    /// The parts of each declared parameter the body can read, when it reads only some
    /// ([`super::reads`]; `None`: the whole value).
    paths: FnArgsVec<Option<ReadPaths>>,
    /// The global state a fresh frame starts from (the mod's script functions linked).
    template: GlobalRuntimeState,
    /// The reusable frame (`None` while a call holds it).
    frame: Cell<Option<Box<CallFrame>>>,
}

/// What one call runs in. The scope holds the parameters; between calls it keeps the previous
/// call's argument values, which the next call's arguments overwrite ([`super::patch`]).
pub struct CallFrame {
    global: GlobalRuntimeState,
    caches: Caches,
    scope: Scope<'static>,
    /// The argument writer's working memory (kept for its capacity).
    pub buffers: Buffers,
}

/// The closure's argument slots in a frame's scope ([`ArgSlots`]).
pub struct ScopeSlots<'a> {
    scope: &'a mut Scope<'static>,
    /// The declared parameters' names.
    params: &'a [ImmutableString],
    /// Which of them the body names.
    used: &'a [bool],
    /// Which parts of them it reads.
    paths: &'a [Option<ReadPaths>],
}

impl ArgSlots for ScopeSlots<'_> {
    fn slot(&mut self, i: usize) -> Option<&mut Dynamic> {
        // A name is matched as Rhai matches it (the last entry first); names are unique.
        self.scope.get_mut(self.params.get(i)?)
    }
    fn used(&self, i: usize) -> bool {
        self.used.get(i).copied().unwrap_or(true)
    }
    fn paths(&self, i: usize) -> Option<&ReadPaths> {
        self.paths.get(i)?.as_ref()
    }
}

/// Which of `params` the body can observe, from `text`, the body's `Debug` print. A parameter
/// whose name appears nowhere in that full print (every node: variables read or written, captures of nested
/// closures, `break`/`return` values, string literals too — a conservative superset) holds a
/// value nothing reads, so the link does not convert an argument into it. A call that shares
/// the caller's scope with the callee (`f!(…)`) or custom syntax can see every variable: all
/// parameters count as used.
fn used_params(text: &str, params: &[ImmutableString]) -> FnArgsVec<bool> {
    if sees_whole_scope(text) {
        return params.iter().map(|_| true).collect();
    }
    let mut tokens = text
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|t| !t.is_empty());
    let mut used: FnArgsVec<bool> = params.iter().map(|_| false).collect();
    for token in &mut tokens {
        for (p, u) in params.iter().zip(used.iter_mut()) {
            *u |= p.as_str() == token;
        }
    }
    used
}

/// Can something in the body (printed as `text`) read variables without naming them: a call
/// sharing the caller's scope (`f!(…)`) or custom syntax?
fn sees_whole_scope(text: &str) -> bool {
    text.contains("capture_parent_scope") || text.contains("Custom(")
}

/// The parts of each parameter the body reads (`None`: the whole value, or not named at all);
/// `text` is the body's `Debug` print.
fn param_paths(
    body: &StmtBlock,
    text: &str,
    params: &[ImmutableString],
    used: &[bool],
) -> FnArgsVec<Option<ReadPaths>> {
    if sees_whole_scope(text) {
        return params.iter().map(|_| None).collect();
    }
    params
        .iter()
        .zip(used)
        .map(|(p, &u)| if u { read_paths(body, p) } else { None })
        .collect()
}

impl DirectFn {
    /// Resolve `f`, called with `num_args` arguments, for direct calls; `None` when it must keep
    /// the `call_raw` path (module docs). `template` is the mod's call state.
    pub fn resolve(
        ast: &AST,
        f: &FnPtr,
        num_args: usize,
        template: GlobalRuntimeState,
    ) -> Option<DirectFn> {
        if !f.is_anonymous() || f.curry().iter().any(Dynamic::is_read_only) {
            return None;
        }
        let name = f.fn_name();
        let arity = f.curry().len() + num_args;
        let fn_def = ast.shared_lib().get_script_fn(name, arity)?;
        if fn_def.this_type.is_some() || fn_def.params.len() != arity {
            return None;
        }
        let params = fn_def.params.clone();
        if (1..params.len()).any(|i| params[..i].contains(&params[i])) {
            return None;
        }
        // The body's top-level statements, from a walk of an AST holding only this function
        // (`retain_functions`: `clone_functions_only_filtered` of Rhai 1.27 keeps every
        // function when it copies into an empty module).
        let mut only = ast.clone_functions_only();
        only.retain_functions(|_, _, n, a| n == name && a == arity);
        let mut statements = Vec::new();
        only.walk(&mut |path: &[ASTNode]| {
            if let [ASTNode::Stmt(stmt)] = path {
                statements.push((*stmt).clone());
            }
            true
        });
        let block = StmtBlock::new(
            statements,
            fn_def.body.start_position(),
            fn_def.body.end_position(),
        );
        // One print of the body serves the check and both parameter scans.
        let text = format!("{block:?}");
        if format!("{:?}", fn_def.body) != format!("Statements({text})") {
            return None;
        }
        let declared = &params[f.curry().len()..];
        let used = used_params(&text, declared);
        let paths = param_paths(&block, &text, declared, &used);
        // Slot 0 is `next`; the hook's parameter `j` is slot `j + 1`.
        let read = (1..used.len())
            .filter(|&i| used[i])
            .fold(0u64, |m, i| m | 1u64 << (i - 1).min(63));
        Some(DirectFn {
            name: fn_def.name.clone(),
            used,
            read,
            paths,
            params,
            curry: f.curry().iter().cloned().collect(),
            body: block,
            template,
            frame: Cell::new(None),
        })
    }

    /// Which hook parameters the body reads, as `ScriptArgs::write_read`'s mask.
    pub fn read_mask(&self) -> u64 {
        self.read
    }

    /// Arguments (after the captured values) the closure takes.
    pub fn num_args(&self) -> usize {
        self.params.len() - self.curry.len()
    }

    /// The frame for one call: the kept one, or a fresh one while a call holds it (a
    /// re-entrant call of the same link). Its scope holds every parameter, the captured
    /// values set; the arguments are written through [`slots`](Self::slots). Give it back
    /// with [`put_frame`](Self::put_frame).
    pub fn take_frame(&self) -> Box<CallFrame> {
        let mut frame = self.frame.take().unwrap_or_else(|| {
            Box::new(CallFrame {
                global: self.template.clone(),
                caches: Caches::new(),
                scope: Scope::new(),
                buffers: Buffers::default(),
            })
        });
        let scope = &mut frame.scope;
        // The entries stay between calls (the body's block restores the scope's length, and
        // names never change); re-created if a call left a read-only value in one, so the scope
        // is always the one `call_script_fn` builds.
        if scope.len() != self.params.len() || scope.iter_raw().any(|(_, constant, _)| constant) {
            scope.clear();
            for name in &self.params {
                scope.push_dynamic(name.as_str(), Dynamic::UNIT);
            }
        }
        for (name, v) in self.params.iter().zip(&self.curry) {
            if let Some(slot) = scope.get_mut(name) {
                *slot = v.clone();
            }
        }
        frame
    }

    /// Keep `frame` for the next call.
    pub fn put_frame(&self, frame: Box<CallFrame>) {
        self.frame.set(Some(frame));
    }

    /// The argument slots of `frame` (0: the first declared parameter).
    pub fn slots<'f>(&'f self, frame: &'f mut CallFrame) -> ScopeSlots<'f> {
        ScopeSlots {
            scope: &mut frame.scope,
            params: &self.params[self.curry.len()..],
            used: &self.used,
            paths: &self.paths,
        }
    }

    /// Run the closure in `frame` (its arguments written) from Rhai call level `level` (the
    /// body runs one level above, as a function call does). `progress` is the engine's
    /// progress callback (the shared budget), told of the call's own operation. The arguments
    /// stay in the scope.
    pub fn run(
        &self,
        engine: &Engine,
        frame: &mut CallFrame,
        level: usize,
        progress: impl FnOnce(u64) -> Option<Dynamic>,
    ) -> Result<Dynamic, Box<EvalAltResult>> {
        let CallFrame {
            global,
            caches,
            scope,
            ..
        } = frame;
        // What a fresh clone of the template has (no modules loaded), one level up, and the
        // call's own operation counted.
        global.level = level + 1;
        global.num_operations = 1;
        global.num_modules_loaded = 0;
        if let Some(token) = progress(1) {
            return Err(EvalAltResult::ErrorTerminated(token, Position::NONE).into());
        }
        if global.level > engine.max_call_levels() {
            return Err(EvalAltResult::ErrorStackOverflow(Position::NONE).into());
        }
        if self.params.len() > engine.max_variables() {
            return Err(EvalAltResult::ErrorTooManyVariables(Position::NONE).into());
        }

        global.scope_level = self.template.scope_level + 1;
        #[allow(deprecated)] // deprecated but kept under `internals`: see module docs
        let result = engine.eval_statements_raw(global, caches, scope, self.body.statements());

        // What the function body's restoring block would restore, and the rest of a fresh
        // state.
        scope.rewind(self.params.len());
        global.scope_level = self.template.scope_level;
        global.always_search_scope = self.template.always_search_scope;
        if global.num_imports() != 0 {
            global.truncate_imports(0);
            *caches = Caches::new();
        }
        if global.lib.len() != self.template.lib.len() {
            global.lib.truncate(self.template.lib.len());
        }
        global.source.clone_from(&self.template.source);

        result.map_err(|mut err| {
            if err.is_system_exception() {
                err.set_position(Position::NONE);
                err
            } else {
                EvalAltResult::ErrorInFunctionCall(
                    self.name.to_string(),
                    String::new(),
                    err,
                    Position::NONE,
                )
                .into()
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rhai::NativeCallContext;

    /// The engine, the compiled script and the closure its last expression evaluates to.
    fn closure(src: &str) -> (Engine, AST, FnPtr) {
        let mut engine = Engine::new();
        engine.set_max_call_levels(24);
        let ast = engine.compile(src).unwrap();
        let f = engine.eval_ast::<FnPtr>(&ast).unwrap();
        (engine, ast, f)
    }

    fn template(engine: &Engine, ast: &AST) -> GlobalRuntimeState {
        let mut global = engine.new_global_runtime_state();
        global.lib.push(ast.shared_lib().clone());
        global
    }

    /// What the `call_raw` path gives (the reference), as text with positions.
    fn via_call_raw(
        engine: &Engine,
        ast: &AST,
        f: &FnPtr,
        level: usize,
        args: &[Dynamic],
    ) -> String {
        let mut global = template(engine, ast);
        global.level = level;
        let ctx = NativeCallContext::new_with_all_fields(
            engine,
            f.fn_name(),
            None,
            &global,
            Position::NONE,
        );
        format!("{:?}", f.call_raw(&ctx, None, args.to_vec()))
    }

    fn via_direct(d: &DirectFn, engine: &Engine, level: usize, args: &[Dynamic]) -> String {
        let mut frame = d.take_frame();
        let mut slots = d.slots(&mut frame);
        for (i, a) in args.iter().enumerate() {
            // As the link writes them: an argument the body never names is not written.
            if slots.used(i) {
                *slots.slot(i).unwrap() = a.clone();
            }
        }
        let result = d.run(engine, &mut frame, level, |_| None);
        d.put_frame(frame);
        format!("{result:?}")
    }

    #[test]
    fn the_direct_path_gives_what_call_raw_gives() {
        let closures = [
            "|a, b| a + b",
            "|a, b| { let x = a * 2; return x + b; }",
            "|a, b| { if a > 2 { return a; } b }",
            "|a, b| { throw \"boom\" }",
            "|a, b| { throw #{ code: \"x\", message: a } }",
            "|a, b| a.foo",
            "|a, b| { let m = #{k: a}; m.k += b; m }",
            "let y = 10; |a, b| a + b + y",
            "let y = [1]; |a, b| { y.push(a); y.len() + b }",
            "|a, b| { let f = |x| x + a; f.call(b) }",
            "|a, b| { let s = 0; for i in 0..a { s += i; } s + b }",
            "|a, b| { let a = 5; a + b }",
            "|a, b| { a = b; a }",
            "|a, b| { let c = || a; a = 1; c.call() + b }",
            "fn fact(n) { if n < 2 { 1 } else { n * fact(n - 1) } } |a, b| fact(a) + b",
            "fn down(n) { if n == 0 { 0 } else { down(n - 1) } } |a, b| down(a * 4) + b",
            "|a, b| undefined_fn(a)",
            "|a, b| { let x = 1; x.bad_method() }",
            "|a, b| {}",
            "|a, b| b",
            "|a, b| { const C = 3; let d = a + C; d + b }",
            "fn g() { 7 } |a, b| { let v = [a, b]; v.map(|x| x * g()).reduce(|s, x| s + x, 0) }",
            "|a, b| { let m = #{}; for i in 0..a { m[`k${i}`] = i; } m.len() + b }",
            "|a, b| { while true { a += 1; if a > 9 { break; } } a + b }",
            "|a, b| a",
            "|a, b| { let f = || b; f.call() + a }",
            "|a, b| `${b}:${a}`",
            "|a, b| { b = 1; a + b }",
            "fn peek() { b } |a, b| peek!() + a",
            "|a, b| 5",
            "|a, b| { loop { break b; } }",
            "|a, b| { switch a { 1 => b, _ => 0 } }",
        ];
        for src in closures {
            // Two instances of the script: captured state (`y`) evolves the same in both.
            let (engine, ast, f) = closure(src);
            let (engine2, ast2, f2) = closure(src);
            let d = DirectFn::resolve(&ast2, &f2, 2, template(&engine2, &ast2))
                .unwrap_or_else(|| panic!("{src}: no direct path"));
            for level in [0, 3] {
                for a in [1, 3, 5, 6] {
                    // Twice: the second call reuses the frame the first one left.
                    for _ in 0..2 {
                        let args = [Dynamic::from_int(a), Dynamic::from_int(10)];
                        let want = via_call_raw(&engine, &ast, &f, level, &args);
                        let got = via_direct(&d, &engine2, level, &args);
                        assert_eq!(got, want, "{src} a={a} level={level}");
                    }
                }
            }
        }
    }

    #[test]
    fn parameters_count_as_used_when_any_expression_names_them() {
        let cases = [
            ("|a, b| a", [true, false]),
            ("|a, b| 5", [false, false]),
            ("|a, b| { let f = || b; f.call() }", [false, true]),
            ("|a, b| `${b}`", [false, true]),
            ("|a, b| { b = 1; }", [false, true]),
            ("|a, b| #{ x: [b.y] }", [false, true]),
            ("fn peek() { 1 } |a, b| peek!()", [true, true]),
            ("|a, b| { loop { break b; } }", [false, true]),
            ("|a, b| { switch a { 1 => b, _ => 0 } }", [true, true]),
            ("|a, b| { try { throw b; } catch (e) { e } }", [false, true]),
        ];
        for (src, want) in cases {
            let (engine, ast, f) = closure(src);
            let d = DirectFn::resolve(&ast, &f, 2, template(&engine, &ast)).unwrap();
            assert_eq!(d.used.as_slice(), want.as_slice(), "{src}");
        }
    }

    #[test]
    fn named_functions_and_wrong_arities_keep_call_raw() {
        let (engine, ast, _) = closure("fn f(a, b) { a } |a, b| a");
        let named = FnPtr::new("f").unwrap();
        assert!(DirectFn::resolve(&ast, &named, 2, template(&engine, &ast)).is_none());
        let (engine, ast, f) = closure("|a| a");
        assert!(DirectFn::resolve(&ast, &f, 2, template(&engine, &ast)).is_none());
        assert!(DirectFn::resolve(&ast, &f, 1, template(&engine, &ast)).is_some());
    }

    #[test]
    fn a_re_entrant_call_gets_its_own_frame() {
        let (engine, ast, f) = closure("|a, b| a + b");
        let d = DirectFn::resolve(&ast, &f, 2, template(&engine, &ast)).unwrap();
        let args = [Dynamic::from_int(1), Dynamic::from_int(2)];
        assert_eq!(via_direct(&d, &engine, 0, &args), "Ok(3)");
        let mut held = d.take_frame();
        // While a call holds the frame, another call works on a fresh one.
        assert_eq!(
            via_direct(
                &d,
                &engine,
                0,
                &[Dynamic::from_int(5), Dynamic::from_int(2)]
            ),
            "Ok(7)"
        );
        // The held frame still has the first call's arguments.
        assert_eq!(
            d.run(&engine, &mut held, 0, |_| None).unwrap().as_int(),
            Ok(3)
        );
        d.put_frame(held);
        assert_eq!(via_direct(&d, &engine, 0, &args), "Ok(3)");
    }
}
