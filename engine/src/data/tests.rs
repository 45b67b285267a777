//! Checks of the embedded tables against known cartridge facts and internal consistency.
//! Nothing here runs the generator: the tests read the committed Rust tables only.

use super::*;

fn sp(ds: &Dataset, name: &str) -> &'static SpeciesData {
    let id = ds
        .species_by_name(name)
        .unwrap_or_else(|| panic!("no species {name}"));
    ds.species(id)
}

fn mv(ds: &Dataset, name: &str) -> &'static MoveData {
    let id = ds
        .move_by_name(name)
        .unwrap_or_else(|| panic!("no move {name}"));
    ds.move_data(id)
}

#[test]
fn gen1_counts() {
    let g = gen1();
    assert_eq!(g.generation, 1);
    assert_eq!(g.species.len(), 151);
    assert_eq!(g.moves.len(), 165);
    assert_eq!(g.types.len(), 15);
    assert_eq!(g.type_matchups().len(), 82);
    for (i, s) in g.species.iter().enumerate() {
        assert_eq!(usize::from(s.dex), i + 1, "{}", s.id);
    }
    for (i, m) in g.moves.iter().enumerate() {
        assert_eq!(usize::from(m.num), i + 1, "{}", m.id);
    }
}

#[test]
fn gen1_species_spot_checks() {
    let g = gen1();
    let mewtwo = sp(g, "Mewtwo");
    assert_eq!(
        (mewtwo.hp, mewtwo.atk, mewtwo.def, mewtwo.spe, mewtwo.spc),
        (106, 110, 90, 130, 154)
    );
    assert_eq!(mewtwo.catch_rate, 3);
    assert_eq!(mewtwo.base_exp, 220);
    assert_eq!(mewtwo.growth, GrowthRate::Slow);
    assert_eq!(mewtwo.types, [Type::Psychic, Type::Psychic]);

    let pikachu = sp(g, "PIKACHU");
    assert_eq!(pikachu.catch_rate, 190);
    assert_eq!(pikachu.dex, 25);
    let start: Vec<&str> = pikachu
        .start_moves
        .iter()
        .map(|&m| g.move_data(m).id)
        .collect();
    assert_eq!(start, ["THUNDERSHOCK", "GROWL"]);
    assert_eq!(
        pikachu.evolutions,
        &[Evolution {
            trigger: EvolutionTrigger::Item("THUNDER_STONE"),
            into: "RAICHU"
        }]
    );

    let bulba = sp(g, "bulbasaur");
    assert_eq!(bulba.types, [Type::Grass, Type::Poison]);
    assert_eq!(bulba.growth, GrowthRate::MediumSlow);
    assert_eq!(
        bulba.learnset[0],
        (7, g.move_by_name("LEECH_SEED").unwrap())
    );
    assert_eq!(bulba.evolutions[0].trigger, EvolutionTrigger::Level(16));

    let kadabra = sp(g, "Kadabra");
    assert_eq!(kadabra.evolutions[0].trigger, EvolutionTrigger::Trade);
    assert_eq!(sp(g, "Eevee").evolutions.len(), 3);

    // Gen 1 typing quirks that later generations changed.
    assert_eq!(sp(g, "Magnemite").types, [Type::Electric, Type::Electric]);
    assert_eq!(sp(g, "Clefairy").types, [Type::Normal, Type::Normal]);
    // Gen 1 has one Special stat: spd mirrors spc.
    assert!(g.species.iter().all(|s| s.spd == s.spc));
    assert_eq!(sp(g, "Chansey").base_exp, 255);
    assert_eq!(sp(g, "Raticate").catch_rate, 90);
}

#[test]
fn gen1_display_names_and_ids() {
    let g = gen1();
    let expect = [
        ("MR_MIME", "MR.MIME", 122),
        ("NIDORAN_F", "NIDORAN♀", 29),
        ("NIDORAN_M", "NIDORAN♂", 32),
        ("FARFETCHD", "FARFETCH'D", 83),
    ];
    for (id, name, dex) in expect {
        let s = sp(g, id);
        assert_eq!((s.id, s.name, s.dex), (id, name, dex));
    }
}

#[test]
fn gen1_name_lookup_variants() {
    let g = gen1();
    let mime = Some(SpeciesId(121));
    for q in ["Mr. Mime", "MR_MIME", "mrmime", "MR.MIME", "mr mime"] {
        assert_eq!(g.species_by_name(q), mime, "{q}");
    }
    for q in ["NIDORAN♀", "Nidoran F", "NIDORAN_F", "nidoran-f"] {
        assert_eq!(g.species_by_name(q), Some(SpeciesId(28)), "{q}");
    }
    for q in ["NIDORAN♂", "Nidoran M", "NIDORAN_M"] {
        assert_eq!(g.species_by_name(q), Some(SpeciesId(31)), "{q}");
    }
    assert_eq!(g.species_by_name("Farfetch'd"), Some(SpeciesId(82)));
    assert_eq!(g.species_by_name("Nidoran"), None);
    assert_eq!(g.species_by_name("Chikorita"), None);
    assert_eq!(g.species_by_name(""), None);

    for q in ["Thunder Shock", "THUNDERSHOCK", "thundershock"] {
        assert_eq!(g.move_by_name(q), Some(MoveId(84)), "{q}");
    }
    for q in ["PSYCHIC_M", "Psychic"] {
        assert_eq!(g.move_by_name(q), Some(MoveId(94)), "{q}");
    }
    assert_eq!(g.move_by_name("DOUBLESLAP"), Some(MoveId(3)));
    assert_eq!(g.move_by_name("Double Slap"), Some(MoveId(3)));
    assert_eq!(g.move_by_name("SONICBOOM"), Some(MoveId(49)));
    assert_eq!(g.move_by_name("Hi Jump Kick"), Some(MoveId(136)));
    assert_eq!(g.move_by_name("High Jump Kick"), Some(MoveId(136)));
    assert_eq!(g.move_by_name("Vise Grip"), Some(MoveId(11)));
    assert_eq!(g.move_by_name("SELFDESTRUCT"), Some(MoveId(120)));
    assert_eq!(g.move_by_name("Crunch"), None);

    assert_eq!(g.item_by_name("Poké Ball"), Some(ItemId(4)));
    assert_eq!(g.item_by_name("POKE_BALL"), Some(ItemId(4)));
    assert_eq!(g.item_by_name("S.S. Ticket"), Some(ItemId(63)));
    assert_eq!(g.item_by_name("Leftovers"), None);
}

#[test]
fn gen1_move_spot_checks() {
    let g = gen1();
    let tackle = mv(g, "TACKLE");
    assert_eq!(
        (tackle.num, tackle.power, tackle.accuracy, tackle.pp),
        (33, 35, 95, 35)
    );
    assert_eq!(tackle.effect, MoveEffect::NoAdditionalEffect);
    assert_eq!(g.moves[0].id, "POUND");
    assert_eq!(g.moves[164].id, "STRUGGLE");
    assert_eq!(mv(g, "KARATE_CHOP").ty, Type::Normal);
    assert_eq!(mv(g, "GUST").ty, Type::Normal);
    assert_eq!(mv(g, "BITE").ty, Type::Normal);
    assert_eq!(mv(g, "BIDE").effect, MoveEffect::Bide);
    assert_eq!(mv(g, "PSYCHIC_M").name, "PSYCHIC");
    assert_eq!(mv(g, "PSYCHIC_M").effect, MoveEffect::SpecialDownSideEffect);
    assert_eq!(mv(g, "SAND_ATTACK").name, "SAND-ATTACK");
    assert_eq!(mv(g, "SWIFT").effect, MoveEffect::Swift);
    assert_eq!(mv(g, "HYPER_BEAM").effect, MoveEffect::HyperBeam);
    assert_eq!(mv(g, "SEISMIC_TOSS").effect, MoveEffect::SpecialDamage);
    assert_eq!(mv(g, "TWINEEDLE").effect, MoveEffect::Twineedle);
    assert_eq!(mv(g, "ROCK_THROW").accuracy, 65);
    assert!(g
        .moves
        .iter()
        .all(|m| !matches!(m.effect, MoveEffect::Gen2(_))));
    assert!(g
        .moves
        .iter()
        .all(|m| m.pp <= 40 && m.pp % 5 == 0 && m.accuracy <= 100));
}

#[test]
fn gen1_type_chart_quirks() {
    let g = gen1();
    assert_eq!(g.effectiveness(Type::Ghost, Type::Psychic), 0);
    assert_eq!(g.effectiveness(Type::Bug, Type::Poison), 20);
    assert_eq!(g.effectiveness(Type::Poison, Type::Bug), 20);
    assert_eq!(g.effectiveness(Type::Ice, Type::Fire), 10);
    assert_eq!(g.effectiveness(Type::Normal, Type::Ghost), 0);
    assert_eq!(g.effectiveness(Type::Water, Type::Fire), 20);
    assert_eq!(g.effectiveness(Type::Fire, Type::Water), 5);
    assert_eq!(g.effectiveness(Type::Normal, Type::Normal), 10);
    assert!(!g.has_type(Type::Dark) && !g.has_type(Type::Steel));
    // The ordered rows and the 17x17 chart agree, and unlisted pairs are neutral.
    for &(a, d, m) in g.type_matchups() {
        assert_eq!(g.effectiveness(a, d), m);
        assert!(g.has_type(a) && g.has_type(d));
    }
    let listed = |a, d| g.type_matchups().iter().any(|&(x, y, _)| (x, y) == (a, d));
    for &a in &ALL_TYPES {
        for &d in &ALL_TYPES {
            if !listed(a, d) {
                assert_eq!(g.effectiveness(a, d), 10, "{a:?} -> {d:?}");
            }
        }
    }
    assert_eq!(g.type_matchups()[0], (Type::Water, Type::Fire, 20));
}

#[test]
fn gen1_items() {
    let g = gen1();
    let expect = [
        ("MASTER_BALL", 1, 0),
        ("ULTRA_BALL", 2, 1200),
        ("GREAT_BALL", 3, 600),
        ("POKE_BALL", 4, 200),
        ("SAFARI_BALL", 8, 1000),
        ("POTION", 20, 300),
        ("SUPER_POTION", 19, 700),
        ("HYPER_POTION", 18, 1500),
        ("MAX_POTION", 17, 2500),
        ("FULL_RESTORE", 16, 3000),
        ("ANTIDOTE", 11, 100),
        ("BURN_HEAL", 12, 250),
        ("ICE_HEAL", 13, 250),
        ("AWAKENING", 14, 200),
        ("PARLYZ_HEAL", 15, 200),
        ("FULL_HEAL", 52, 600),
        ("REVIVE", 53, 1500),
        ("MAX_REVIVE", 54, 4000),
        ("X_ATTACK", 65, 500),
        ("X_DEFEND", 66, 550),
        ("X_SPEED", 67, 350),
        ("X_SPECIAL", 68, 350),
        ("MOON_STONE", 10, 0),
        ("FIRE_STONE", 32, 2100),
        ("THUNDER_STONE", 33, 2100),
        ("WATER_STONE", 34, 2100),
        ("LEAF_STONE", 47, 2100),
        ("RARE_CANDY", 40, 4800),
        ("S_S_TICKET", 63, 0),
        ("BICYCLE", 6, 0),
    ];
    for (id, num, price) in expect {
        let item_id = g.item_by_name(id).unwrap_or_else(|| panic!("no item {id}"));
        assert_eq!(item_id, ItemId(num), "{id}");
        let item = g.item(item_id);
        assert_eq!((item.id, item.num, item.price), (id, num, price), "{id}");
    }
    assert!(matches!(g.item(ItemId(4)).kind, ItemKind::Ball { .. }));
    assert_eq!(g.item(ItemId(20)).kind, ItemKind::Heal { hp: 20 });
    assert_eq!(g.item(ItemId(54)).kind, ItemKind::Revive { full: true });
    assert!(g.get_item(ItemId(0)).is_none());
    assert!(g.get_item(ItemId(7)).is_none());
    assert!(g.get_item(ItemId(255)).is_none());
    assert!(g.get_item(ItemId(999)).is_none());
    // Every stone that an evolution names is an item of the dataset.
    for s in g.species {
        for e in s.evolutions {
            if let EvolutionTrigger::Item(item) = e.trigger {
                assert!(g.item_by_name(item).is_some(), "{} needs {item}", s.id);
            }
        }
    }
}

/// Structural checks every dataset must pass.
fn check_integrity(ds: &Dataset) {
    for s in ds.species {
        assert!(s.catch_rate > 0, "{} catch rate", s.id);
        assert!(s.base_exp > 0, "{} base exp", s.id);
        assert!(
            s.hp > 0 && s.atk > 0 && s.def > 0 && s.spe > 0 && s.spc > 0,
            "{}",
            s.id
        );
        assert!(s.start_moves.len() <= 4, "{}", s.id);
        assert!(!s.start_moves.is_empty(), "{} has no level-1 move", s.id);
        for m in s.start_moves {
            assert!(ds.get_move(*m).is_some(), "{}: start move {m:?}", s.id);
        }
        for (lvl, m) in s.learnset {
            assert!((1..=100).contains(lvl), "{}: level {lvl}", s.id);
            assert!(ds.get_move(*m).is_some(), "{}: learnset move {m:?}", s.id);
        }
        assert!(
            s.learnset.windows(2).all(|w| w[0].0 <= w[1].0),
            "{} learnset order",
            s.id
        );
        for e in s.evolutions {
            let target = ds.species_by_name(e.into);
            assert!(
                target.is_some(),
                "{}: evolves into unknown {}",
                s.id,
                e.into
            );
        }
        for t in s.types {
            assert!(
                ds.has_type(t),
                "{}: type {t:?} not in gen {}",
                s.id,
                ds.generation
            );
        }
        // every record can be found by its id and its display name
        let id = ds.species_by_name(s.id).map(|i| ds.species(i).id);
        assert_eq!(id, Some(s.id));
        assert_eq!(
            ds.species_by_name(s.name).map(|i| ds.species(i).id),
            Some(s.id)
        );
    }
    for m in ds.moves {
        assert!(ds.has_type(m.ty), "{}", m.id);
        assert_eq!(ds.move_by_name(m.id), Some(MoveId(m.num)), "{}", m.id);
        assert_eq!(ds.move_by_name(m.name), Some(MoveId(m.num)), "{}", m.name);
    }
    for it in ds.items {
        assert_eq!(ds.item_by_name(it.id), Some(ItemId(it.num)), "{}", it.id);
        assert_eq!(ds.get_item(ItemId(it.num)).map(|i| i.id), Some(it.id));
    }
    assert!(ds.get_species(SpeciesId(ds.species.len() as u16)).is_none());
    assert!(ds.get_move(MoveId(0)).is_none());
    assert!(ds.get_move(MoveId(ds.moves.len() as u16 + 1)).is_none());
    assert_eq!(ds.species_by_dex(0), None);
    assert_eq!(ds.species_by_dex(1), Some(SpeciesId(0)));
}

#[test]
fn gen1_integrity() {
    check_integrity(gen1());
}

#[test]
fn gen2_counts_and_types() {
    let g = gen2();
    assert_eq!(g.generation, 2);
    assert_eq!(g.species.len(), 251);
    assert_eq!(g.moves.len(), 251);
    assert_eq!(g.types.len(), 17);
    assert!(g.has_type(Type::Dark) && g.has_type(Type::Steel));
    assert!(!gen1().has_type(Type::Dark) && !gen1().has_type(Type::Steel));
    // Gold/Silver items: cartridge numbers differ from Gen 1 (BRIGHTPOWDER took 3).
    assert_eq!(g.items.len(), 161);
    assert_eq!(g.item(ItemId(4)).id, "GREAT_BALL");
    assert_eq!(g.item(ItemId(5)).id, "POKE_BALL");
    assert_eq!(g.item_by_name("King's Rock"), Some(ItemId(82)));
    assert_eq!(g.item_by_name("THUNDERSTONE"), Some(ItemId(23)));
    assert_eq!(g.item(ItemId(12)).price, 250, "Gen 2 Awakening costs 250");
    assert_eq!(
        g.item(ItemId(79)).kind,
        ItemKind::StatusHeal { cures: "FRZ" }
    );
    assert_eq!(
        g.item(ItemId(80)).kind,
        ItemKind::StatusHeal { cures: "BRN" }
    );
    // Unused slots and the Crystal-only items are absent; so are TMs/HMs.
    for num in [6, 25, 70, 115, 116, 129, 191, 243] {
        assert!(g.get_item(ItemId(num)).is_none(), "{num}");
    }
    assert!(g.item_by_name("GS_BALL").is_none());
    assert!(g.items.windows(2).all(|w| w[0].num < w[1].num));
    // Every item an evolution names exists.
    for s in g.species {
        for e in s.evolutions {
            let item = match e.trigger {
                crate::data::EvolutionTrigger::Item(i) => Some(i),
                crate::data::EvolutionTrigger::Other(t) => t.strip_prefix("TRADE "),
                _ => None,
            };
            if let Some(item) = item {
                assert!(g.items.iter().any(|it| it.id == item), "{}: {item}", s.id);
            }
        }
    }
    assert_eq!(g.moves[250].id, "BEAT_UP");
    assert_eq!(g.moves[164].id, "STRUGGLE");
    // Gen 1 move ids keep their numbers in Gen 2.
    for m in gen1().moves {
        assert_eq!(g.move_data(MoveId(m.num)).id, m.id);
    }
    // Species ids and dex numbers agree across the two datasets.
    for s in gen1().species {
        assert_eq!(g.species(SpeciesId(s.dex - 1)).id, s.id);
    }
}

#[test]
fn gen2_spot_checks() {
    let g = gen2();
    assert_eq!(g.effectiveness(Type::Ghost, Type::Psychic), 20);
    assert_eq!(gen1().effectiveness(Type::Ghost, Type::Psychic), 0);
    assert_eq!(g.effectiveness(Type::Bug, Type::Poison), 5);
    assert_eq!(g.effectiveness(Type::Poison, Type::Bug), 10);
    assert_eq!(g.effectiveness(Type::Ice, Type::Fire), 5);
    assert_eq!(g.effectiveness(Type::Psychic, Type::Dark), 0);
    assert_eq!(g.effectiveness(Type::Poison, Type::Steel), 0);
    assert_eq!(g.effectiveness(Type::Ghost, Type::Steel), 5);
    assert_eq!(g.type_matchups()[0], (Type::Normal, Type::Rock, 5));
    let fs = g.foresight_rows_start();
    assert_eq!(
        &g.type_matchups()[fs..],
        &[
            (Type::Normal, Type::Ghost, 0),
            (Type::Fighting, Type::Ghost, 0)
        ]
    );
    assert_eq!(gen1().foresight_rows_start(), gen1().type_matchups().len());

    let magnemite = sp(g, "Magnemite");
    assert_eq!(magnemite.types, [Type::Electric, Type::Steel]);
    let mewtwo = sp(g, "MEWTWO");
    assert_eq!((mewtwo.spc, mewtwo.spd, mewtwo.catch_rate), (154, 90, 3));
    let chikorita = sp(g, "Chikorita");
    assert_eq!(
        (chikorita.dex, chikorita.catch_rate, chikorita.base_exp),
        (152, 45, 64)
    );
    assert_eq!(chikorita.growth, GrowthRate::MediumSlow);
    assert_eq!(sp(g, "Ho-Oh").id, "HO_OH");
    assert_eq!(sp(g, "ho oh").name, "HO-OH");
    assert_eq!(sp(g, "Porygon2").dex, 233);
    assert_eq!(sp(g, "Farfetch'd").id, "FARFETCHD");
    assert_eq!(sp(g, "Eevee").evolutions.len(), 5);
    let espeon = sp(g, "Eevee")
        .evolutions
        .iter()
        .find(|e| e.into == "ESPEON")
        .unwrap();
    assert_eq!(espeon.trigger, EvolutionTrigger::Other("HAPPINESS DAY"));
    let onix = sp(g, "Onix").evolutions[0];
    assert_eq!(
        onix,
        Evolution {
            trigger: EvolutionTrigger::Other("TRADE METAL_COAT"),
            into: "STEELIX"
        }
    );
    assert_eq!(sp(g, "Tyrogue").evolutions.len(), 3);

    let bite = mv(g, "Bite");
    assert_eq!(bite.ty, Type::Dark);
    assert_eq!(bite.effect, MoveEffect::Gen2("EFFECT_FLINCH_HIT"));
    assert_eq!(bite.effect_chance, 30);
    assert_eq!(mv(g, "Faint Attack").id, "FAINT_ATTACK");
    assert_eq!(mv(g, "Feint Attack").id, "FAINT_ATTACK");
    assert_eq!(mv(g, "Mud-Slap").name, "MUD-SLAP");
    assert_eq!(mv(g, "EXTREMESPEED").power, 80);
    assert_eq!(mv(g, "Curse").effect, MoveEffect::Gen2("EFFECT_CURSE"));
    assert!(g
        .moves
        .iter()
        .all(|m| matches!(m.effect, MoveEffect::Gen2(_))));
    assert!(gen1().moves.iter().all(|m| m.effect_chance == 0));
}

#[test]
fn gen2_integrity() {
    check_integrity(gen2());
}
