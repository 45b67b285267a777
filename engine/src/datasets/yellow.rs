//! Yellow's corrections to the Red/Blue species data: the level-up learnsets and level-1 moves
//! that Pokémon Yellow changed. Facts transcribed from pret/pokeyellow
//! (`data/pokemon/evos_moves.asm`, `data/pokemon/base_stats/*.asm`) and cross-checked against
//! the union of Gen 1 level-up data in `@pkmn/dex` (each Yellow-only entry appears there).
//! Evolutions, base stats, catch rates and types are unchanged for these species.

/// `(species, full Yellow level-up learnset in cartridge order)`.
pub const LEARNSETS: &[(&str, &[(u8, &str)])] = &[
    (
        "BUTTERFREE",
        &[
            (10, "CONFUSION"),
            (13, "POISONPOWDER"),
            (14, "STUN_SPORE"),
            (15, "SLEEP_POWDER"),
            (18, "SUPERSONIC"),
            (23, "WHIRLWIND"),
            (28, "GUST"),
            (34, "PSYBEAM"),
        ],
    ),
    ("METAPOD", &[(7, "HARDEN")]),
    (
        "PIKACHU",
        &[
            (6, "TAIL_WHIP"),
            (8, "THUNDER_WAVE"),
            (11, "QUICK_ATTACK"),
            (15, "DOUBLE_TEAM"),
            (20, "SLAM"),
            (26, "THUNDERBOLT"),
            (33, "AGILITY"),
            (41, "THUNDER"),
            (50, "LIGHT_SCREEN"),
        ],
    ),
    (
        "NIDORAN_F",
        &[
            (8, "SCRATCH"),
            (12, "DOUBLE_KICK"),
            (17, "POISON_STING"),
            (23, "TAIL_WHIP"),
            (30, "BITE"),
            (38, "FURY_SWIPES"),
        ],
    ),
    (
        "NIDORINA",
        &[
            (8, "SCRATCH"),
            (12, "DOUBLE_KICK"),
            (19, "POISON_STING"),
            (27, "TAIL_WHIP"),
            (36, "BITE"),
            (46, "FURY_SWIPES"),
        ],
    ),
    (
        "NIDOQUEEN",
        &[(8, "SCRATCH"), (12, "DOUBLE_KICK"), (23, "BODY_SLAM")],
    ),
    (
        "NIDORAN_M",
        &[
            (8, "HORN_ATTACK"),
            (12, "DOUBLE_KICK"),
            (17, "POISON_STING"),
            (23, "FOCUS_ENERGY"),
            (30, "FURY_ATTACK"),
            (38, "HORN_DRILL"),
        ],
    ),
    (
        "NIDORINO",
        &[
            (8, "HORN_ATTACK"),
            (12, "DOUBLE_KICK"),
            (19, "POISON_STING"),
            (27, "FOCUS_ENERGY"),
            (36, "FURY_ATTACK"),
            (46, "HORN_DRILL"),
        ],
    ),
    (
        "NIDOKING",
        &[(8, "HORN_ATTACK"), (12, "DOUBLE_KICK"), (23, "THRASH")],
    ),
    (
        "VENONAT",
        &[
            (11, "SUPERSONIC"),
            (19, "CONFUSION"),
            (22, "POISONPOWDER"),
            (27, "LEECH_LIFE"),
            (30, "STUN_SPORE"),
            (35, "PSYBEAM"),
            (38, "SLEEP_POWDER"),
            (43, "PSYCHIC_M"),
        ],
    ),
    (
        "VENOMOTH",
        &[
            (22, "POISONPOWDER"),
            (27, "LEECH_LIFE"),
            (30, "STUN_SPORE"),
            (38, "PSYBEAM"),
            (43, "SLEEP_POWDER"),
            (50, "PSYCHIC_M"),
        ],
    ),
    (
        "MANKEY",
        &[
            (9, "LOW_KICK"),
            (15, "KARATE_CHOP"),
            (21, "FURY_SWIPES"),
            (27, "FOCUS_ENERGY"),
            (33, "SEISMIC_TOSS"),
            (39, "THRASH"),
            (45, "SCREECH"),
        ],
    ),
    (
        "PRIMEAPE",
        &[
            (9, "LOW_KICK"),
            (15, "KARATE_CHOP"),
            (21, "FURY_SWIPES"),
            (27, "FOCUS_ENERGY"),
            (28, "RAGE"),
            (37, "SEISMIC_TOSS"),
            (46, "THRASH"),
            // Out of level order on the cartridge too (never learned by level-up).
            (45, "SCREECH"),
        ],
    ),
    (
        "CHANSEY",
        &[
            (12, "DOUBLESLAP"),
            (24, "SING"),
            (30, "GROWL"),
            (38, "MINIMIZE"),
            (44, "DEFENSE_CURL"),
            (48, "LIGHT_SCREEN"),
            (54, "DOUBLE_EDGE"),
        ],
    ),
    (
        "TANGELA",
        &[
            (24, "BIND"),
            (27, "ABSORB"),
            (29, "VINE_WHIP"),
            (32, "POISONPOWDER"),
            (36, "STUN_SPORE"),
            (39, "SLEEP_POWDER"),
            (45, "SLAM"),
            (48, "GROWTH"),
        ],
    ),
    (
        "SCYTHER",
        &[
            (17, "LEER"),
            (20, "FOCUS_ENERGY"),
            (24, "DOUBLE_TEAM"),
            (29, "SLASH"),
            (35, "SWORDS_DANCE"),
            (42, "AGILITY"),
            (50, "WING_ATTACK"),
        ],
    ),
    (
        "PINSIR",
        &[
            (21, "BIND"),
            (25, "SEISMIC_TOSS"),
            (30, "GUILLOTINE"),
            (36, "FOCUS_ENERGY"),
            (43, "HARDEN"),
            (49, "SLASH"),
            (54, "SWORDS_DANCE"),
        ],
    ),
    (
        "CUBONE",
        &[
            (10, "BONE_CLUB"),
            (13, "TAIL_WHIP"),
            (18, "HEADBUTT"),
            (25, "LEER"),
            (31, "FOCUS_ENERGY"),
            (38, "THRASH"),
            (43, "BONEMERANG"),
            (46, "RAGE"),
        ],
    ),
    (
        "MAROWAK",
        &[
            (10, "BONE_CLUB"),
            (13, "TAIL_WHIP"),
            (18, "HEADBUTT"),
            (25, "LEER"),
            (33, "FOCUS_ENERGY"),
            (41, "THRASH"),
            (48, "BONEMERANG"),
            (55, "RAGE"),
        ],
    ),
    (
        "EEVEE",
        &[
            (8, "SAND_ATTACK"),
            (16, "GROWL"),
            (23, "QUICK_ATTACK"),
            (30, "BITE"),
            (36, "FOCUS_ENERGY"),
            (42, "TAKE_DOWN"),
        ],
    ),
    (
        "VAPOREON",
        &[
            (8, "SAND_ATTACK"),
            (16, "WATER_GUN"),
            (23, "QUICK_ATTACK"),
            (30, "BITE"),
            (36, "AURORA_BEAM"),
            (42, "HAZE"),
            (42, "MIST"),
            (47, "ACID_ARMOR"),
            (52, "HYDRO_PUMP"),
        ],
    ),
    (
        "JOLTEON",
        &[
            (8, "SAND_ATTACK"),
            (16, "THUNDERSHOCK"),
            (23, "QUICK_ATTACK"),
            (30, "DOUBLE_KICK"),
            (36, "PIN_MISSILE"),
            (42, "THUNDER_WAVE"),
            (47, "AGILITY"),
            (52, "THUNDER"),
        ],
    ),
    (
        "FLAREON",
        &[
            (8, "SAND_ATTACK"),
            (16, "EMBER"),
            (23, "QUICK_ATTACK"),
            (30, "BITE"),
            (36, "FIRE_SPIN"),
            (42, "SMOG"),
            (47, "LEER"),
            (52, "FLAMETHROWER"),
        ],
    ),
];

/// `(species, Yellow level-1 moves)` where they differ from Red/Blue.
pub const START_MOVES: &[(&str, &[&str])] = &[
    ("CUBONE", &["GROWL"]),
    ("MAROWAK", &["BONE_CLUB", "TAIL_WHIP"]),
    ("CHANSEY", &["POUND", "TAIL_WHIP"]),
    ("EEVEE", &["TACKLE", "TAIL_WHIP"]),
    (
        "VAPOREON",
        &["TACKLE", "TAIL_WHIP", "QUICK_ATTACK", "WATER_GUN"],
    ),
    (
        "JOLTEON",
        &["TACKLE", "TAIL_WHIP", "QUICK_ATTACK", "THUNDERSHOCK"],
    ),
    ("FLAREON", &["TACKLE", "TAIL_WHIP", "QUICK_ATTACK", "EMBER"]),
];

/// Yellow's learnset for `species`, if Yellow changed it.
pub fn learnset(species: &str) -> Option<&'static [(u8, &'static str)]> {
    LEARNSETS
        .iter()
        .find(|(s, _)| *s == species)
        .map(|(_, l)| *l)
}

/// Yellow's level-1 moves for `species`, if Yellow changed them.
pub fn start_moves(species: &str) -> Option<&'static [&'static str]> {
    START_MOVES
        .iter()
        .find(|(s, _)| *s == species)
        .map(|(_, l)| *l)
}
