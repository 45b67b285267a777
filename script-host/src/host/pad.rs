//! `pad` of an array with a function pointer, array or map, charged by what it copies.
//!
//! Rhai's `array.pad(n, item)` checks the padded array against the size limits, but counts a
//! function pointer as one element whatever it curries or captures, and then clones `item` up
//! to 2 000 times in that one operation. Each clone deep-copies the pointer's curried arrays,
//! so a pointer holding tens of MiB (built under `rhai.max_dispatch_bytes`) padded 2 000 times
//! would allocate past any memory in a single operation, before the per-operation memory check
//! ([`crate::alloc`]) runs. This replacement, registered for exactly these item types (others
//! keep Rhai's own), applies Rhai's size check unchanged and refuses with
//! `rhai.max_dispatch_bytes` when the copies' bytes (the [`held`](super::held) measure of
//! `item`, times the number of copies) would pass the limit. The dispatch stops as on any
//! memory stop.

use rhai::{Array, Dynamic, Engine, EvalAltResult, FnPtr, Map, NativeCallContext, Position, INT};

use crate::alloc::{stop_dispatch, MAX_DISPATCH_BYTES, MEMORY_TOKEN};

/// Register the replacements on `engine` (after its packages: exact item types win).
pub fn install(engine: &mut Engine) {
    engine.register_fn(
        "pad",
        |ctx: NativeCallContext, a: &mut Array, len: INT, f: FnPtr| {
            pad(&ctx, a, len, Dynamic::from(f))
        },
    );
    engine.register_fn(
        "pad",
        |ctx: NativeCallContext, a: &mut Array, len: INT, v: Array| {
            pad(&ctx, a, len, Dynamic::from_array(v))
        },
    );
    engine.register_fn(
        "pad",
        |ctx: NativeCallContext, a: &mut Array, len: INT, m: Map| {
            pad(&ctx, a, len, Dynamic::from_map(m))
        },
    );
}

fn pad(
    ctx: &NativeCallContext,
    array: &mut Array,
    len: INT,
    item: Dynamic,
) -> Result<(), Box<EvalAltResult>> {
    let Ok(len) = usize::try_from(len) else {
        return Ok(());
    };
    if len <= array.len() {
        return Ok(());
    }
    let copies = len - array.len();
    // Rhai's own check, as its `pad` makes it.
    let (a, m, s) = sizes_of_array(array);
    let (ax, mx, sx) = sizes(&item);
    let engine = ctx.engine();
    let over = |n: usize, max: usize| max > 0 && n > max;
    if over(
        s.saturating_add(sx.saturating_mul(copies)),
        engine.max_string_size(),
    ) {
        return Err(too_large("Length of string"));
    }
    let elements = a
        .saturating_add(copies)
        .saturating_add(ax.saturating_mul(copies));
    if over(elements, engine.max_array_size()) {
        return Err(too_large("Size of array/BLOB"));
    }
    if over(
        m.saturating_add(mx.saturating_mul(copies)),
        engine.max_map_size(),
    ) {
        return Err(too_large("Size of object map"));
    }
    // What the copies may allocate.
    if super::held::value_bytes(&item).saturating_mul(copies) > MAX_DISPATCH_BYTES {
        stop_dispatch();
        return Err(
            EvalAltResult::ErrorTerminated(Dynamic::from(MEMORY_TOKEN), Position::NONE).into(),
        );
    }
    array.resize(len, item);
    Ok(())
}

fn too_large(what: &str) -> Box<EvalAltResult> {
    EvalAltResult::ErrorDataTooLarge(what.to_owned(), Position::NONE).into()
}

/// Rhai's `calc_data_sizes` (arrays' elements, maps' properties, strings' bytes; a function
/// pointer counts as nothing of its own), which `rhai` does not export.
fn sizes(v: &Dynamic) -> (usize, usize, usize) {
    if let Some(a) = v.read_lock::<Array>() {
        sizes_of_array(&a)
    } else if let Some(m) = v.read_lock::<Map>() {
        sizes_of_map(&m)
    } else if let Some(s) = v.read_lock::<rhai::ImmutableString>() {
        (0, 0, s.len())
    } else if let Some(b) = v.read_lock::<rhai::Blob>() {
        (b.len(), 0, 0)
    } else {
        (0, 0, 0)
    }
}

fn nested(v: &Dynamic, (ax, mx, sx): &mut (usize, usize, usize)) {
    if let Some(a) = v.read_lock::<Array>() {
        let (a, m, s) = sizes_of_array(&a);
        *ax += a;
        *mx += m;
        *sx += s;
    } else if let Some(m) = v.read_lock::<Map>() {
        let (a, m, s) = sizes_of_map(&m);
        *ax += a;
        *mx += m;
        *sx += s;
    } else if let Some(s) = v.read_lock::<rhai::ImmutableString>() {
        *sx += s.len();
    } else if let Some(b) = v.read_lock::<rhai::Blob>() {
        *ax += 1 + b.len();
    }
}

fn sizes_of_array(array: &Array) -> (usize, usize, usize) {
    let mut t = (0, 0, 0);
    for v in array {
        t.0 += 1;
        nested(v, &mut t);
    }
    t
}

fn sizes_of_map(map: &Map) -> (usize, usize, usize) {
    let mut t = (0, 0, 0);
    for v in map.values() {
        t.1 += 1;
        nested(v, &mut t);
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_count_as_rhai_counts() {
        let e = Engine::new();
        for (src, want) in [
            (
                r#"[1, "abc", [2, 3, #{a: "xy", b: [4]}], blob(5)]"#,
                (14, 2, 5),
            ),
            (r#"#{a: [1, 2], b: "q", c: #{d: blob(3)}}"#, (6, 4, 1)),
            (r#""abcd""#, (0, 0, 4)),
        ] {
            let v: Dynamic = e.eval(src).unwrap();
            assert_eq!(sizes(&v), want, "{src}");
        }
    }

    #[test]
    fn padding_with_a_heavy_pointer_is_refused_and_a_light_one_allowed() {
        let mut e = Engine::new();
        e.set_max_array_size(2_000);
        install(&mut e);
        let _frame = crate::alloc::Dispatch::enter();
        let light: Array = e
            .eval(r#"fn k(x) { x } let a = []; a.pad(2000, Fn("k").curry("abc")); a"#)
            .unwrap();
        assert_eq!(light.len(), 2000);
        // 100 arrays of 100 ints curried: ~160 KiB per copy, 2 000 copies ~320 MiB.
        let err = e
            .run(
                r#"fn k(x) { x }
                let ints = []; ints.pad(100, 0);
                let many = []; for i in 0..100 { many.push(Fn("k").curry(ints)); }
                let heavy = Fn("k").curry(many);
                let a = []; a.pad(2000, heavy);"#,
            )
            .expect_err("refused");
        assert!(
            matches!(*err, EvalAltResult::ErrorTerminated(ref t, _) if t.clone().into_string().ok().as_deref() == Some(MEMORY_TOKEN)),
            "{err}"
        );
        // Rhai's own size check still applies first.
        let err = e.run("let a = []; a.pad(3000, [1]);").expect_err("too big");
        assert!(err.to_string().contains("Size of array"), "{err}");
    }
}
