//! Overworld helpers shared by tests that walk the embedded world.
#![allow(dead_code)] // not every test that includes the helpers uses all of them

use pallet_engine::game::Game;
use pallet_engine::world::Input;

/// Press A until nothing holds the game (text boxes, scripts), or panic after 2,000 ticks.
pub fn settle(game: &mut Game) {
    for _ in 0..2_000 {
        if game.busy().is_none() {
            return;
        }
        game.step(Input::A);
    }
    panic!("never idle");
}

/// A grass cell of ROUTE_1 whose northern neighbour is walkable grass (found from the map).
pub fn below_grass(game: &Game) -> (u32, u32) {
    let maps = game.maps();
    let def = maps.get("ROUTE_1").unwrap();
    let grass = |x, y| {
        maps.cell_kind(def, x, y)
            .is_some_and(|k| k.walkable() && k.is_grass())
    };
    for y in 1..def.cell_height() {
        for x in 0..def.cell_width() {
            if grass(x, y) && grass(x, y - 1) {
                return (x, y);
            }
        }
    }
    panic!("no grass on ROUTE_1");
}

/// A grass cell of ROUTE_1 with a walkable, non-grass cell below it, both free of NPCs and
/// warps: `(grass, start)`.
pub fn grass_above_start(game: &Game) -> ((u32, u32), (u32, u32)) {
    let maps = game.maps();
    let def = maps.get("ROUTE_1").unwrap();
    let (w, h) = (def.cell_width(), def.cell_height());
    let free = |x: u32, y: u32| {
        def.npcs.iter().all(|n| (n.x, n.y) != (x, y)) && def.warp_at(x, y).is_none()
    };
    for y in 0..h - 1 {
        for x in 1..w {
            let grass = maps.cell_kind(def, x, y).is_some_and(|k| k.is_grass());
            let below = maps
                .cell_kind(def, x, y + 1)
                .is_some_and(|k| k.walkable() && !k.is_grass());
            if grass && below && free(x, y) && free(x, y + 1) {
                return ((x, y), (x, y + 1));
            }
        }
    }
    panic!("no grass on ROUTE_1");
}
