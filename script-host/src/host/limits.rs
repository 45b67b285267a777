//! Every sandbox limit, set explicitly and identical in debug and release builds (nothing here
//! depends on `cfg(debug_assertions)`; Rhai's own defaults differ between the two, which is why
//! none of them is left implicit).

use rhai::Engine;

/// The limits one mod's engine runs under. [`LIMITS`] is the only instance the host uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Rhai's own per-call operation cap (a backstop; the shared dispatch budget is lower).
    pub max_operations: u64,
    /// Operations one dispatch may spend across every Rhai link and listener it reaches,
    /// nested `next` calls into other mods included.
    pub dispatch_budget: u64,
    /// Operations a mod's entry (and its imported modules' top level) may spend at load.
    pub load_budget: u64,
    /// Script function call depth (unbounded recursion stops here).
    pub max_call_levels: usize,
    /// Expression nesting depth at global level and inside functions.
    pub max_expr_depth: usize,
    pub max_function_expr_depth: usize,
    /// Bytes in one string.
    pub max_string_size: usize,
    /// Elements in one array (nested arrays count). Also bounds nesting depth: Rhai measures
    /// and drops nested values recursively, and 2 000 + 2 000 levels of alternating arrays and
    /// maps stay inside a 2 MiB thread stack (8 000 did not), so a hostile `a = [a]` loop ends
    /// with "Size of array too large" instead of overflowing the stack.
    pub max_array_size: usize,
    /// Properties in one object map (nested maps count).
    pub max_map_size: usize,
    /// Modules one run may import.
    pub max_modules: usize,
    /// Variables alive in one scope.
    pub max_variables: usize,
    /// Script functions one script may define.
    pub max_functions: usize,
    /// Interned strings kept by the engine.
    pub max_strings_interned: usize,
    /// Nesting depth of a value crossing the boundary (script → engine).
    pub max_value_depth: usize,
    /// Bytes of one mod log line (longer lines are cut).
    pub max_log_line: usize,
    /// Script files (entry + modules) one mod may have, and bytes per file.
    pub max_files: usize,
    pub max_file_bytes: usize,
}

/// The limits.
pub const LIMITS: Limits = Limits {
    max_operations: 8_000_000,
    dispatch_budget: 500_000,
    load_budget: 2_000_000,
    max_call_levels: 48,
    max_expr_depth: 64,
    max_function_expr_depth: 32,
    max_string_size: 64 * 1024,
    max_array_size: 2_000,
    max_map_size: 2_000,
    max_modules: 32,
    max_variables: 512,
    max_functions: 512,
    max_strings_interned: 1_024,
    max_value_depth: 32,
    max_log_line: 1_000,
    max_files: 64,
    max_file_bytes: 512 * 1024,
};

impl Limits {
    /// Apply every engine-side limit to `engine`.
    pub fn apply(&self, engine: &mut Engine) {
        engine
            .set_max_operations(self.max_operations)
            .set_max_call_levels(self.max_call_levels)
            .set_max_expr_depths(self.max_expr_depth, self.max_function_expr_depth)
            .set_max_string_size(self.max_string_size)
            .set_max_array_size(self.max_array_size)
            .set_max_map_size(self.max_map_size)
            .set_max_modules(self.max_modules)
            .set_max_variables(self.max_variables)
            .set_max_functions(self.max_functions)
            .set_max_strings_interned(self.max_strings_interned);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_limit_lands_on_the_engine() {
        let mut e = Engine::new_raw();
        LIMITS.apply(&mut e);
        assert_eq!(e.max_operations(), LIMITS.max_operations);
        assert_eq!(e.max_call_levels(), LIMITS.max_call_levels);
        assert_eq!(e.max_expr_depth(), LIMITS.max_expr_depth);
        assert_eq!(e.max_function_expr_depth(), LIMITS.max_function_expr_depth);
        assert_eq!(e.max_string_size(), LIMITS.max_string_size);
        assert_eq!(e.max_array_size(), LIMITS.max_array_size);
        assert_eq!(e.max_map_size(), LIMITS.max_map_size);
        assert_eq!(e.max_modules(), LIMITS.max_modules);
        assert_eq!(e.max_variables(), LIMITS.max_variables);
        assert_eq!(e.max_functions(), LIMITS.max_functions);
        const {
            assert!(LIMITS.dispatch_budget < LIMITS.max_operations);
            assert!(LIMITS.load_budget < LIMITS.max_operations);
        }
    }
}
