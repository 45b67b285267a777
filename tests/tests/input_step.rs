//! `input.step` (issue 17/18): raised every tick before the tick's logic and before
//! `core.update`, at the same safe point, with `(game, dt)` where `dt` is the fixed tick in
//! seconds. Vanilla reads the tick's input: a link that does not call `next` swallows it (the
//! tick still runs, with no button pressed). Through a Rhai mod and its Lua twin on the public
//! `Game` API. The no-subscriber behaviour is `gate_hooks.rs`.

#[path = "common/alloc.rs"]
mod alloc;
mod lua_support;

use std::rc::Rc;

use lua_support::{load, lua_mod, rhai_mod, unprefixed, Env};
use pallet_engine::game::Game;
use pallet_engine::world::{Direction, GameVersion, Input};

type Pose = (u32, u32, Direction);

fn pose(game: &Game) -> Pose {
    let ow = game.overworld().unwrap();
    let p = ow.player();
    (p.x, p.y, p.facing)
}

/// Two ticks of `Left`: the log shows the order of the hooks and `dt`; returns the pose before
/// and after.
fn two_ticks(env: &Env) -> (Pose, Pose, Vec<String>) {
    let mut game = Game::new_game(GameVersion::Red, 3, Rc::clone(&env.rt)).unwrap();
    env.feed();
    let before = pose(&game);
    game.step(Input::Left);
    game.step(Input::Left);
    (before, pose(&game), unprefixed(&env.feed()))
}

const ORDER: [&str; 4] = [
    "input.step ticks=1 world=REDS_HOUSE_1F",
    "core.update",
    "input.step ticks=1 world=REDS_HOUSE_1F",
    "core.update",
];

#[test]
fn rhai_input_step_runs_before_core_update_with_the_tick_in_seconds() {
    let src = |call_next: bool| {
        format!(
            r#"hooks.wrap("input.step", |next, game, dt| {{
    log.info(`input.step ticks=${{(dt * 60.0).round().to_int()}} world=${{world.current().mapId}}`);
    if {call_next} {{ next.call() }} else {{ () }}
}});
hooks.wrap("core.update", |next, game, dt| {{ log.info("core.update"); next.call() }});"#
        )
    };
    let env = load(&[], vec![rhai_mod("pass", &src(true))]);
    env.assert_loaded("pass");
    let (before, after, log) = two_ticks(&env);
    assert_eq!(log, ORDER);
    assert_ne!(
        after, before,
        "next read the input: the player turned or moved"
    );

    let env = load(&[], vec![rhai_mod("swallow", &src(false))]);
    env.assert_loaded("swallow");
    let (before, after, log) = two_ticks(&env);
    assert_eq!(log, ORDER, "the tick (core.update) still runs");
    assert_eq!(after, before, "no next: the input was swallowed");
}

#[test]
fn lua_input_step_runs_before_core_update_with_the_tick_in_seconds() {
    let src = |call_next: bool| {
        format!(
            r#"return function(mod)
  mod.hooks:wrap("input.step", function(next, game, dt)
    mod.log:info("input.step ticks=%d world=%s", math.floor(dt * 60 + 0.5), mod.world:current().mapId)
    if {call_next} then return next(game, dt) end
  end)
  mod.hooks:wrap("core.update", function(next, game, dt)
    mod.log:info("core.update")
    return next(game, dt)
  end)
end"#
        )
    };
    let env = load(&[], vec![lua_mod("pass", &src(true))]);
    env.assert_loaded("pass");
    let (before, after, log) = two_ticks(&env);
    assert_eq!(log, ORDER);
    assert_ne!(
        after, before,
        "next read the input: the player turned or moved"
    );

    let env = load(&[], vec![lua_mod("swallow", &src(false))]);
    env.assert_loaded("swallow");
    let (before, after, log) = two_ticks(&env);
    assert_eq!(log, ORDER, "the tick (core.update) still runs");
    assert_eq!(after, before, "no next: the input was swallowed");
}

/// `dt` is exact and constant (no wall clock): the same value every tick.
#[test]
fn dt_is_the_fixed_tick() {
    let env = load(
        &[],
        vec![lua_mod(
            "dt",
            r#"return function(mod)
  mod.hooks:wrap("input.step", function(next, game, dt)
    mod.log:info("%s", tostring(dt == 1 / 60))
    return next(game, dt)
  end)
end"#,
        )],
    );
    env.assert_loaded("dt");
    let mut game = Game::new_game(GameVersion::Red, 3, Rc::clone(&env.rt)).unwrap();
    env.feed();
    for _ in 0..3 {
        game.step(Input::None);
    }
    assert_eq!(unprefixed(&env.feed()), ["true", "true", "true"]);
}

/// Zero cost when no one wraps `input.step`: idle ticks allocate nothing, on the null bus and
/// on a live bus where another hook has a link — the site builds no `game` summary, no loan.
#[test]
fn an_unsubscribed_site_builds_nothing() {
    use pallet_api::catalog::hooks;
    use pallet_api::Runtime;
    let ticks = |rt: Rc<Runtime>| {
        let mut game = Game::new_game(GameVersion::Red, 3, rt).unwrap();
        for _ in 0..5 {
            game.step(Input::None);
        }
        alloc::count(|| {
            for _ in 0..20 {
                game.step(Input::None);
            }
        })
        .1
    };
    let null = ticks(Rc::new(Runtime::default()));
    let live = Rc::new(Runtime::new());
    live.wrap::<hooks::MovementSpeed, _>("other", 0, |next, _| Ok(next.call()));
    assert!(!live.wants_hook::<hooks::InputStep>());
    let live = ticks(live);
    assert_eq!(
        (null, live),
        (0, 0),
        "allocations of 20 idle ticks (null bus, live bus)"
    );
}
