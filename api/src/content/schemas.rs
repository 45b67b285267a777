//! The record schemas of the content registries. Field names are the mod-visible ones
//! (camelCase, as in the Lua engine's data tables).

use super::schema::{Field, Shape};

const STR: Shape = Shape::Str;
const BOOL: Shape = Shape::Bool;
const ANY: Shape = Shape::Any;
const NUMBER: Shape = Shape::Number;
const BYTE: Shape = Shape::Int { min: 0, max: 255 };
const STAT: Shape = Shape::Int { min: 1, max: 255 };
const LEVEL: Shape = Shape::Int { min: 1, max: 100 };
const STR_LIST: Shape = Shape::List {
    item: &STR,
    min: 0,
    max: 4096,
};

pub const TYPE_IDS: &[&str] = &[
    "NORMAL", "FIGHTING", "FLYING", "POISON", "GROUND", "ROCK", "BUG", "GHOST", "FIRE", "WATER",
    "GRASS", "ELECTRIC", "PSYCHIC", "ICE", "DRAGON", "DARK", "STEEL",
];
const TYPE: Shape = Shape::OneOf(TYPE_IDS);

// ----- pokemon -------------------------------------------------------------------------------

const BASE_STATS: Shape = Shape::Record(&[
    Field::req("hp", &STAT),
    Field::req("attack", &STAT),
    Field::req("defense", &STAT),
    Field::req("speed", &STAT),
    Field::req("special", &STAT),
    Field::opt("specialDefense", &STAT),
]);
const LEARN_ROW: Shape = Shape::Record(&[Field::req("level", &LEVEL), Field::req("move", &STR)]);
const EVOLUTION: Shape = Shape::Record(&[
    Field::req("into", &STR),
    Field::opt("level", &LEVEL),
    Field::opt("item", &STR),
    Field::opt("trade", &BOOL),
]);
pub const POKEMON: Shape = Shape::Record(&[
    Field::req("name", &STR),
    Field::opt("dex", &Shape::Int { min: 1, max: 999 }),
    Field::req("baseStats", &BASE_STATS),
    Field::req(
        "types",
        &Shape::List {
            item: &TYPE,
            min: 1,
            max: 2,
        },
    ),
    Field::opt("catchRate", &BYTE),
    Field::opt("baseExp", &BYTE),
    Field::opt(
        "growthRate",
        &Shape::OneOf(&[
            "medium_fast",
            "slightly_fast",
            "slightly_slow",
            "medium_slow",
            "fast",
            "slow",
        ]),
    ),
    Field::opt(
        "startMoves",
        &Shape::List {
            item: &STR,
            min: 0,
            max: 4,
        },
    ),
    Field::opt(
        "learnset",
        &Shape::List {
            item: &LEARN_ROW,
            min: 0,
            max: 256,
        },
    ),
    Field::opt(
        "evolutions",
        &Shape::List {
            item: &EVOLUTION,
            min: 0,
            max: 16,
        },
    ),
]);

// ----- moves ---------------------------------------------------------------------------------

pub const MOVES: Shape = Shape::Record(&[
    Field::req("name", &STR),
    Field::req("type", &TYPE),
    Field::req("power", &BYTE),
    Field::req("accuracy", &Shape::Int { min: 0, max: 100 }),
    Field::req("pp", &Shape::Int { min: 1, max: 64 }),
    Field::opt("effect", &STR),
    Field::opt("num", &Shape::Int { min: 0, max: 65535 }),
    // The `item_effects` record the item runs when used from the bag.
    Field::opt("effect", &STR),
]);

// ----- item_effects: record id = effect id; `use` is the mod's callback (kept by its host) -----

pub const ITEM_EFFECTS: Shape =
    Shape::Record(&[Field::opt("field", &BOOL), Field::opt("battle", &BOOL)]);

// ----- items ---------------------------------------------------------------------------------

pub const ITEMS: Shape = Shape::Record(&[
    Field::req("name", &STR),
    Field::opt(
        "price",
        &Shape::Int {
            min: 0,
            max: 9_999_999,
        },
    ),
    Field::opt(
        "kind",
        &Shape::OneOf(&[
            "ball",
            "heal",
            "full_restore",
            "status_heal",
            "revive",
            "battle",
            "evolution",
            "key",
            "other",
        ]),
    ),
    Field::opt("num", &Shape::Int { min: 0, max: 65535 }),
]);

// ----- type_chart: record id = attacking type; fields = defending type -> multiplier ------------

pub const TYPE_CHART: Shape = Shape::MapOf(&NUMBER);

// ----- maps ----------------------------------------------------------------------------------

const DIRECTION: Shape = Shape::OneOf(&["up", "down", "left", "right"]);
const CELL: Shape = Shape::Int { min: 0, max: 255 };
/// A warp, in cells: the engine's shape `{x, y, to, toX, toY, facing}`; `to` may be
/// `"LAST_MAP"` (back to where the player came from). The Lua engine's `destMap`/`destWarp`
/// spelling is accepted for `to` / the target warp number (1-based, as pret and Lua count).
const WARP: Shape = Shape::Record(&[
    Field::req("x", &CELL),
    Field::req("y", &CELL),
    Field::opt("to", &STR),
    Field::opt("toX", &CELL),
    Field::opt("toY", &CELL),
    Field::opt("facing", &DIRECTION),
    Field::opt("destMap", &STR),
    Field::opt("destWarp", &Shape::Int { min: 1, max: 255 }),
]);
const SIGN: Shape = Shape::Record(&[
    Field::req("x", &CELL),
    Field::req("y", &CELL),
    Field::req("text", &STR),
]);
const NPC: Shape = Shape::Record(&[
    Field::req("name", &STR),
    Field::req("x", &CELL),
    Field::req("y", &CELL),
    Field::opt("facing", &DIRECTION),
    Field::req("text", &STR),
]);
const MAP_TRAINER: Shape = Shape::Record(&[
    Field::req("npc", &STR),
    Field::req("class", &STR),
    Field::opt("index", &Shape::Int { min: 0, max: 255 }),
    Field::req("sight", &Shape::Int { min: 0, max: 15 }),
    Field::req("battleText", &STR),
]);
pub const MAPS: Shape = Shape::Record(&[
    Field::opt("name", &STR),
    Field::req("width", &Shape::Int { min: 1, max: 128 }),
    Field::req("height", &Shape::Int { min: 1, max: 128 }),
    Field::opt("tileset", &STR),
    Field::opt(
        "blocks",
        &Shape::List {
            item: &BYTE,
            min: 0,
            max: 16384,
        },
    ),
    Field::opt("outdoor", &BOOL),
    Field::opt("music", &STR),
    Field::opt(
        "warps",
        &Shape::List {
            item: &WARP,
            min: 0,
            max: 255,
        },
    ),
    Field::opt(
        "signs",
        &Shape::List {
            item: &SIGN,
            min: 0,
            max: 255,
        },
    ),
    Field::opt(
        "npcs",
        &Shape::List {
            item: &NPC,
            min: 0,
            max: 255,
        },
    ),
    Field::opt(
        "trainers",
        &Shape::List {
            item: &MAP_TRAINER,
            min: 0,
            max: 255,
        },
    ),
    Field::opt("connections", &Shape::MapOf(&ANY)),
    Field::opt(
        "objects",
        &Shape::List {
            item: &ANY,
            min: 0,
            max: 255,
        },
    ),
]);

// ----- map_scripts (compose): one contribution per owner --------------------------------------

pub const MAP_SCRIPTS: Shape = Shape::Record(&[
    Field::opt(
        "onEnter",
        &Shape::List {
            item: &ANY,
            min: 0,
            max: 4096,
        },
    ),
    Field::opt("talk", &Shape::MapOf(&ANY)),
    Field::opt("replacesBase", &BOOL),
]);

// ----- trainers: record id = trainer class ---------------------------------------------------

const TRAINER_MON: Shape = Shape::Record(&[
    Field::req("species", &STR),
    Field::req("level", &LEVEL),
    Field::opt("moves", &STR_LIST),
]);
const TRAINER_PARTY: Shape = Shape::List {
    item: &TRAINER_MON,
    min: 1,
    max: 6,
};
pub const TRAINERS: Shape = Shape::Record(&[
    Field::req("name", &STR),
    Field::req(
        "parties",
        &Shape::List {
            item: &TRAINER_PARTY,
            min: 0,
            max: 255,
        },
    ),
    Field::opt("baseMoney", &Shape::Int { min: 0, max: 9999 }),
    Field::opt("ai", &STR),
]);

// ----- encounters: record id = map id ---------------------------------------------------------

const SLOT: Shape = Shape::Record(&[Field::req("species", &STR), Field::req("level", &LEVEL)]);
const ENCOUNTER_TABLE: Shape = Shape::Record(&[
    Field::req("rate", &BYTE),
    Field::req(
        "slots",
        &Shape::List {
            item: &SLOT,
            min: 0,
            max: 10,
        },
    ),
]);
pub const ENCOUNTERS: Shape = Shape::Record(&[
    Field::opt("grass", &ENCOUNTER_TABLE),
    Field::opt("water", &ENCOUNTER_TABLE),
]);
