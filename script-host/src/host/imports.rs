//! Mod files and `import`: a mod reads only its own folder.
//!
//! Every `import "<path>"` is resolved **at load** (modules are preloaded; a module resolver
//! that only answers from that preloaded set is installed on the mod's engine), so no file is
//! read once the game runs. A path must be a string literal, relative, without `..`, `.`,
//! backslashes or empty segments; `.rhai` is appended when missing. On disk the joined path is
//! canonicalized and must still lie under the canonical mod folder, so a symlink cannot escape.
//! Paths are relative to the mod folder (not to the importing file).

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::rc::Rc;

use pallet_api::manifest::safe_relative_path;
use rhai::{ASTNode, Engine, EvalAltResult, Expr, Module, Position, Scope, Stmt, AST};

use super::limits::LIMITS;

/// Where a mod's files come from.
#[derive(Clone, Debug)]
pub enum ModFiles {
    /// A folder on disk (canonical path).
    Dir(PathBuf),
    /// Files embedded in the binary (the bundled example mods), by relative path.
    Embedded(Rc<BTreeMap<String, String>>),
}

impl ModFiles {
    /// A folder, canonicalized.
    pub fn dir(root: &std::path::Path) -> Result<ModFiles, String> {
        root.canonicalize()
            .map(ModFiles::Dir)
            .map_err(|e| format!("cannot open mod folder {}: {e}", root.display()))
    }

    /// Read `rel` (already a safe relative path) from the mod.
    pub fn read(&self, rel: &str) -> Result<String, String> {
        if !safe_relative_path(rel) {
            return Err(format!(
                "{rel:?} is not a path inside the mod folder (no absolute paths, '..', '.', '\\' or empty segments)"
            ));
        }
        match self {
            ModFiles::Embedded(files) => files
                .get(rel)
                .cloned()
                .ok_or_else(|| format!("no file {rel:?} in the mod")),
            ModFiles::Dir(root) => {
                let joined = root.join(rel);
                let canon = joined
                    .canonicalize()
                    .map_err(|e| format!("cannot open {rel:?}: {e}"))?;
                if !canon.starts_with(root) {
                    return Err(format!("{rel:?} resolves outside the mod folder"));
                }
                let meta =
                    std::fs::metadata(&canon).map_err(|e| format!("cannot open {rel:?}: {e}"))?;
                if !meta.is_file() {
                    return Err(format!("{rel:?} is not a file"));
                }
                if meta.len() > LIMITS.max_file_bytes as u64 {
                    return Err(format!(
                        "{rel:?} is larger than {} bytes",
                        LIMITS.max_file_bytes
                    ));
                }
                std::fs::read_to_string(&canon).map_err(|e| format!("cannot read {rel:?}: {e}"))
            }
        }
    }
}

/// The file an import path names (`"util"` → `util.rhai`).
pub fn module_file(path: &str) -> String {
    if path.ends_with(".rhai") {
        path.to_owned()
    } else {
        format!("{path}.rhai")
    }
}

/// One `import` statement found in an AST.
#[derive(Clone, Debug)]
pub struct ImportSite {
    /// The literal path, or `None` for a computed path (refused).
    pub path: Option<String>,
    /// `as <alias>` (empty when absent).
    pub alias: String,
    /// Statement nesting: 1 for a top-level statement of the file.
    pub top_level: bool,
    pub pos: Position,
}

/// Every import statement of `ast` (top level, functions and closures).
pub fn import_sites(ast: &AST) -> Vec<ImportSite> {
    let mut out = Vec::new();
    let top: Vec<Position> = ast
        .statements()
        .iter()
        .filter(|s| matches!(s, Stmt::Import(..)))
        .map(Stmt::position)
        .collect();
    ast.walk(&mut |path: &[ASTNode]| {
        if let Some(ASTNode::Stmt(Stmt::Import(x, pos))) = path.last() {
            let (expr, alias) = &**x;
            let lit = match expr {
                Expr::StringConstant(s, _) => Some(s.to_string()),
                _ => None,
            };
            out.push(ImportSite {
                path: lit,
                alias: alias.name.to_string(),
                top_level: top.contains(pos),
                pos: *pos,
            });
        }
        true
    });
    out
}

/// Answers `import` from the modules preloaded at load, and nothing else.
#[derive(Clone, Default)]
pub struct PreloadedResolver {
    pub modules: Rc<RefCell<BTreeMap<String, rhai::Shared<Module>>>>,
}

impl rhai::ModuleResolver for PreloadedResolver {
    fn resolve(
        &self,
        _engine: &Engine,
        _source: Option<&str>,
        path: &str,
        pos: Position,
    ) -> Result<rhai::Shared<Module>, Box<EvalAltResult>> {
        self.modules
            .borrow()
            .get(&module_file(path))
            .cloned()
            .ok_or_else(|| Box::new(EvalAltResult::ErrorModuleNotFound(path.to_owned(), pos)))
    }
}

/// A preload failure: the file whose statement failed, its position, the message; or a
/// runtime error of a module's top level.
pub enum PreloadError {
    At {
        file: String,
        pos: Position,
        message: String,
    },
    Parse {
        file: String,
        error: rhai::ParseError,
    },
    Eval {
        file: String,
        error: Box<EvalAltResult>,
    },
}

/// Compiles a module file's text: `(file, text)`.
pub type CompileFn<'a> = &'a dyn Fn(&str, &str) -> Result<AST, rhai::ParseError>;
/// Runs a module's top level: `(file, ast)`.
pub type EvaluateFn<'a> = &'a dyn Fn(&str, &AST) -> Result<Module, Box<EvalAltResult>>;

/// Preloads the modules of one mod into its resolver.
pub struct Preloader<'a> {
    pub files: &'a ModFiles,
    pub resolver: &'a PreloadedResolver,
    /// Compiles a file's text (with the mod's handle names in scope).
    pub compile: CompileFn<'a>,
    /// Runs a module's top level; `None` for `mods check`, which never runs code.
    pub evaluate: Option<EvaluateFn<'a>>,
}

impl Preloader<'_> {
    /// Compile (and optionally evaluate) every module `ast` imports, recursively. `sources`
    /// receives the text of every file read.
    pub fn run(
        &self,
        ast: &AST,
        file: &str,
        sources: &mut BTreeMap<String, String>,
    ) -> Result<(), PreloadError> {
        self.walk(ast, file, sources, &mut Vec::new())
    }

    fn walk(
        &self,
        ast: &AST,
        file: &str,
        sources: &mut BTreeMap<String, String>,
        stack: &mut Vec<String>,
    ) -> Result<(), PreloadError> {
        for site in import_sites(ast) {
            let Some(path) = site.path else {
                return Err(PreloadError::At {
                    file: file.to_owned(),
                    pos: site.pos,
                    message: "import paths must be string literals (modules are preloaded at load)"
                        .to_owned(),
                });
            };
            let target = module_file(&path);
            if self.resolver.modules.borrow().contains_key(&target) {
                continue;
            }
            if stack.contains(&target) {
                return Err(PreloadError::At {
                    file: file.to_owned(),
                    pos: site.pos,
                    message: format!("import cycle through {target:?}"),
                });
            }
            if sources.len() >= LIMITS.max_files {
                return Err(PreloadError::At {
                    file: file.to_owned(),
                    pos: site.pos,
                    message: format!("more than {} script files", LIMITS.max_files),
                });
            }
            let text = self
                .files
                .read(&target)
                .map_err(|message| PreloadError::At {
                    file: file.to_owned(),
                    pos: site.pos,
                    message: format!("import {path:?}: {message}"),
                })?;
            sources.insert(target.clone(), text.clone());
            let mut module_ast =
                (self.compile)(&target, &text).map_err(|error| PreloadError::Parse {
                    file: target.clone(),
                    error,
                })?;
            module_ast.set_source(target.as_str());
            stack.push(target.clone());
            self.walk(&module_ast, &target, sources, stack)?;
            stack.pop();
            let module = match self.evaluate {
                Some(eval) => eval(&target, &module_ast).map_err(|error| PreloadError::Eval {
                    file: target.clone(),
                    error,
                })?,
                None => Module::new(),
            };
            self.resolver
                .modules
                .borrow_mut()
                .insert(target, rhai::Shared::new(module));
        }
        Ok(())
    }
}

/// `Module::eval_ast_as_new` with an empty scope.
pub fn evaluate_module(engine: &Engine, ast: &AST) -> Result<Module, Box<EvalAltResult>> {
    Module::eval_ast_as_new(Scope::new(), ast, engine)
}
