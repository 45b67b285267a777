//! Overworld helpers shared by tests that walk the embedded world.

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
