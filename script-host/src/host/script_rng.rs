//! `ctx.rng` in Rhai: the engine-supplied random source of a hook context (`encounter.roll`;
//! see `pallet_api::script_rng`). At the boundary it is the data map `#{ __rng: state }`; this
//! module registers `random` methods on maps that carry the marker:
//!
//! * `ctx.rng.random()` → a float in `[0, 1)`;
//! * `ctx.rng.random(n)` → an integer in `[1, n]`;
//! * `ctx.rng.random(lo, hi)` → an integer in `[lo, hi]`.
//!
//! Each draw advances the state stored in the map (in place, so `ctx.rng.random(…)` twice gives
//! two draws, and a `ctx` handed to `next.call(…)` carries the state onward). Draws are the same
//! numbers the Lua shim's `ctx.rng(…)` gives for the same context (one generator, in the api).
//! A map without the marker is refused with an error.

use pallet_api::script_rng::ScriptRng;
use rhai::{Dynamic, Engine, EvalAltResult, Map, FLOAT, INT};

fn take(m: &Map) -> Result<ScriptRng, Box<EvalAltResult>> {
    match m.get(ScriptRng::MARKER).and_then(|v| v.as_int().ok()) {
        Some(state) => Ok(ScriptRng::from_state(state)),
        None => Err("random: this map is not an engine random source (ctx.rng)".into()),
    }
}

fn draw(m: &mut Map, lo: Option<f64>, hi: Option<f64>) -> Result<f64, Box<EvalAltResult>> {
    let mut rng = take(m)?;
    let out = rng
        .random(lo, hi)
        .map_err(|e| -> Box<EvalAltResult> { e.into() })?;
    m.insert(ScriptRng::MARKER.into(), Dynamic::from_int(rng.state()));
    Ok(out)
}

/// Register the `random` methods.
pub fn register(engine: &mut Engine) {
    engine.register_fn(
        "random",
        |m: &mut Map| -> Result<FLOAT, Box<EvalAltResult>> { draw(m, None, None) },
    );
    engine.register_fn(
        "random",
        |m: &mut Map, n: INT| -> Result<INT, Box<EvalAltResult>> {
            draw(m, Some(n as f64), None).map(|v| v as INT)
        },
    );
    engine.register_fn(
        "random",
        |m: &mut Map, lo: INT, hi: INT| -> Result<INT, Box<EvalAltResult>> {
            draw(m, Some(lo as f64), Some(hi as f64)).map(|v| v as INT)
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_like_the_api_generator_and_refuses_plain_maps() {
        let mut engine = Engine::new_raw();
        register(&mut engine);
        let seed = ScriptRng::seeded(9);
        let mut scope = rhai::Scope::new();
        let mut ctx = Map::new();
        let mut rng = Map::new();
        rng.insert(ScriptRng::MARKER.into(), Dynamic::from_int(seed.state()));
        ctx.insert("rng".into(), Dynamic::from_map(rng));
        scope.push("ctx", ctx);
        let got: rhai::Array = engine
            .eval_with_scope(
                &mut scope,
                "[ctx.rng.random(1, 100), ctx.rng.random(6), ctx.rng.random(1, 100)]",
            )
            .unwrap();
        let mut expect = seed;
        let want = [
            expect.random(Some(1.0), Some(100.0)).unwrap(),
            expect.random(Some(6.0), None).unwrap(),
            expect.random(Some(1.0), Some(100.0)).unwrap(),
        ];
        let got: Vec<INT> = got.into_iter().map(|d| d.as_int().unwrap()).collect();
        assert_eq!(got, want.map(|v| v as INT).to_vec());
        assert!(engine.eval::<INT>("#{a: 1}.random(3)").is_err());
        assert!(engine
            .eval_with_scope::<INT>(&mut scope, "ctx.rng.random(5, 4)")
            .is_err());
    }
}
