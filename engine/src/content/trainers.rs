//! The embedded trainers of the fixture world: the table battles are fought against when no
//! content mod replaces it (a content `trainers` registry compiles its own, [`super::compile`]).

/// One trainer of the fixture world.
#[derive(Clone, Copy, Debug)]
pub struct TrainerDef {
    /// Trainer class id, as `trainer.party` sees it.
    pub class: &'static str,
    /// Party index within the class.
    pub index: u16,
    /// What the battle text calls the trainer.
    pub name: &'static str,
    /// Map the trainer stands on (the defeated-trainer key is `MAP:CLASS:INDEX`).
    pub map: &'static str,
    /// `(species id, level)`; moves are the cartridge's default moves for the level unless
    /// [`TrainerDef::moves`] names them.
    pub party: &'static [(&'static str, u8)],
    /// Per party slot, explicit move ids (a content `trainers` party's `moves`); a slot that is
    /// absent or empty keeps the default moves.
    pub moves: &'static [&'static [&'static str]],
    /// Prize money per level of the last mon (the cartridge's class base money / 100).
    pub base_money: u32,
}

/// The trainers of the fixture world (original rosters in Gen 1 style).
pub const TRAINERS: &[TrainerDef] = &[TrainerDef {
    class: "BUG_CATCHER",
    index: 0,
    name: "BUG CATCHER",
    map: "ROUTE_1",
    party: &[("WEEDLE", 6), ("CATERPIE", 7)],
    moves: &[],
    base_money: 10,
}];
