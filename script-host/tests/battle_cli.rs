//! `pallet battle` and `pallet calc` end to end through the real binary.

use std::process::{Command, Output};

fn pallet(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pallet"))
        .args(args)
        .output()
        .expect("run pallet")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8 output")
}

fn json(o: &Output) -> serde_json::Value {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).expect("one JSON object")
}

#[test]
fn battle_json_is_deterministic_and_independent_of_jobs() {
    let args = ["battle", "--seed", "1", "--count", "2000", "--json"];
    let a = pallet(&args);
    let b = pallet(&args);
    assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
    assert_eq!(a.stdout, b.stdout, "same seed, same output");
    // Piped stderr: no progress bar.
    assert!(
        a.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&a.stderr)
    );
    let v = json(&a);
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    let mut want = vec![
        "battles", "turns", "p1_wins", "p2_wins", "draws", "checksum",
    ];
    want.sort_unstable();
    let mut got = keys.clone();
    got.sort_unstable();
    assert_eq!(got, want);
    assert_eq!(v["battles"], 2000);
    let sum = v["p1_wins"].as_u64().unwrap()
        + v["p2_wins"].as_u64().unwrap()
        + v["draws"].as_u64().unwrap();
    assert_eq!(sum, 2000);
    assert!(v["turns"].as_u64().unwrap() > 2000);
    // Exactly one line, keys in the documented order.
    let text = stdout(&a);
    assert_eq!(text.lines().count(), 1);
    assert!(text.starts_with("{\"battles\":2000,\"turns\":"), "{text}");

    let j1 = pallet(&[
        "battle", "--seed", "1", "--count", "2000", "--json", "--jobs", "1",
    ]);
    let j2 = pallet(&[
        "battle", "--seed", "1", "--count", "2000", "--json", "--jobs", "2",
    ]);
    let j3 = pallet(&[
        "battle", "--seed", "1", "--count", "2000", "--json", "--jobs", "3",
    ]);
    assert_eq!(j1.stdout, a.stdout);
    assert_eq!(j1.stdout, j2.stdout);
    assert_eq!(j1.stdout, j3.stdout);

    let other = json(&pallet(&[
        "battle", "--seed", "2", "--count", "2000", "--json",
    ]));
    assert_ne!(other["checksum"], v["checksum"]);
}

#[test]
fn battle_text_output_and_team_files() {
    let dir = std::env::temp_dir().join(format!("pallet-battle-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let team = dir.join("team.txt");
    std::fs::write(
        &team,
        "Zapdos\nLevel: 60\n- Thunderbolt\n- Drill Peck\n\nSnorlax\nLevel: 60\n- Body Slam\n- Rest\n",
    )
    .unwrap();
    let t = team.to_str().unwrap();
    let o = pallet(&[
        "battle", "--seed", "3", "--count", "20", "--p1", t, "--p2", t,
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = stdout(&o);
    for label in [
        "battles   20",
        "turns",
        "p1 wins",
        "p2 wins",
        "draws",
        "checksum",
    ] {
        assert!(text.contains(label), "{label}: {text}");
    }
    // A broken team file: one-line error naming the file and line, exit 2.
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "Zapdos\n- Thunderbolt\n- Kamehameha\n").unwrap();
    let o = pallet(&["battle", "--p1", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("line 3: unknown move `Kamehameha`"), "{err}");
    // Every problem at once, with suggestions; Gen 1-less fields are warnings only.
    std::fs::write(
        &bad,
        "Pikachu @ Light Ball\nAbility: Static\n- Thunderbolt\n\nCharizrd\n- Flamethrower\n- Hyperbeem\n",
    )
    .unwrap();
    let o = pallet(&["battle", "--p1", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("line 5: unknown species `Charizrd` (did you mean `Charizard`?)"),
        "{err}"
    );
    assert!(
        err.contains("line 7: unknown move `Hyperbeem` (did you mean `Hyper Beam`?)"),
        "{err}"
    );
    assert!(err.contains("warning: "), "{err}");
    std::fs::write(
        &bad,
        "Pikachu @ Light Ball\nAbility: Static\n- Thunderbolt\n",
    )
    .unwrap();
    let o = pallet(&["battle", "--p1", bad.to_str().unwrap(), "--json"]);
    assert!(o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("line 1: Gen 1 has no held items; `@ Light Ball` is ignored"),
        "{err}"
    );
    assert!(err.contains("line 2: Gen 1 has no abilities"), "{err}");
    let o = pallet(&["battle", "--p2", dir.join("missing.txt").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn battle_team_files_checked_against_gen1_learnsets() {
    let dir = std::env::temp_dir().join(format!("pallet-battle-learn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let team = dir.join("team.txt");
    // TM/HM, pre-evolution and event moves are legal: Snorlax's Surf (HM03) and Psychic (TM29),
    // Raichu's Surf (Surf Pikachu), Charizard's Slash (Charmander at 30).
    std::fs::write(
        &team,
        "Snorlax\n- Body Slam\n- Surf\n- Psychic\n- Rest\n\n\
         Raichu\nLevel: 40\n- Surf\n- Thunderbolt\n\n\
         Charizard\nLevel: 36\n- Slash\n- Earthquake\n",
    )
    .unwrap();
    let t = team.to_str().unwrap();
    let o = pallet(&["battle", "--count", "2", "--p1", t, "--p2", t, "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(json(&o)["battles"], 2);
    // Every problem at once: moves the species cannot know, at its level or ever, a level
    // below its evolution, an unknown name with a suggestion; Gen 1-less fields warn.
    std::fs::write(
        &team,
        "Charizard @ Leftovers\nAbility: Blaze\nLevel: 20\n- Surf\n- Flamethrower\n- Ember\n\n\
         Raichu\nAdamant Nature\n- Psychic\n- Thunderbolt\n- Thunderbolt\n\n\
         Mewtwo\n- Tackle\n- Psychc\n",
    )
    .unwrap();
    let o = pallet(&["battle", "--p1", t]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty(), "no battle is played");
    let err = String::from_utf8_lossy(&o.stderr);
    for want in [
        "line 3: Charizard must be at least level 36 (it evolves from Charmeleon at that level at the earliest); this one is level 20",
        "line 4: Charizard cannot learn `Surf` in Gen 1 (not by level-up, TM/HM, tutor, event or from a pre-evolution)",
        "line 5: Charizard learns `Flamethrower` at level 38 at the earliest; this one is level 20",
        "line 10: Raichu cannot learn `Psychic` in Gen 1",
        "line 12: Raichu knows `Thunderbolt` twice",
        "line 16: unknown move `Psychc` (did you mean `Psychic`?)",
        "warning: ",
        "line 1: Gen 1 has no held items; `@ Leftovers` is ignored",
        "line 2: Gen 1 has no abilities; `Ability: Blaze` is ignored",
        "line 9: Gen 1 has no natures; `Adamant Nature` is ignored",
    ] {
        assert!(err.contains(want), "missing `{want}` in:\n{err}");
    }
    assert!(!err.contains("line 6:"), "Ember is legal at 20:\n{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn battle_bad_arguments_exit_2() {
    for args in [
        &["battle", "--count", "lots"][..],
        &["battle", "--jobs", "0"],
        &["battle", "--seed", "-1"],
        &["battle", "--frobnicate"],
    ] {
        let o = pallet(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        // clap's whole message (error, tip, usage), not only its first line.
        assert!(
            String::from_utf8_lossy(&o.stderr).starts_with("error: "),
            "{args:?}"
        );
    }
}

#[test]
fn calc_hand_computed_case() {
    // Rattata L5 (Atk 12) tackles Pidgey L5 (Def 10), DVs 15, no stat exp:
    // (2*5/5+2)*35*12/10/50 = 3, +2 = 5, STAB -> 7; 7*f/255 for f = 217..=255.
    let o = pallet(&[
        "calc",
        "rattata",
        "PIDGEY",
        "Tackle",
        "--attacker-level",
        "5",
        "--defender-level",
        "5",
        "--statexp",
        "0",
        "--json",
    ]);
    let v = json(&o);
    let rolls: Vec<u64> = v["rolls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_u64().unwrap())
        .collect();
    let mut want = vec![5, 5];
    want.extend(std::iter::repeat_n(6, 36));
    want.push(7);
    assert_eq!(rolls, want);
    // Plain output: the description line, then the rolls.
    let o = pallet(&[
        "calc",
        "rattata",
        "pidgey",
        "tackle",
        "--attacker-level",
        "5",
        "--defender-level",
        "5",
        "--statexp",
        "0",
    ]);
    let text = stdout(&o);
    let mut lines = text.lines();
    assert_eq!(
        lines.next().unwrap(),
        "Rattata Tackle vs. Pidgey: 5-7 (25 - 35%) -- 0.2% chance to 3HKO",
        "{text}"
    );
    let plain: Vec<u64> = lines
        .next()
        .unwrap()
        .strip_prefix("rolls")
        .unwrap()
        .split_whitespace()
        .map(|n| n.parse().unwrap())
        .collect();
    assert_eq!(plain, want);
    assert!(lines.next().unwrap().starts_with("crit rolls  8 8 "));
}

#[test]
fn calc_report_sets_stages_screens_and_modes() {
    // The issue's example shape: Tauros Body Slam vs. Chansey, both DV 15 / max stat exp.
    let o = pallet(&["calc", "Tauros", "Chansey", "Body Slam", "--json"]);
    let v = json(&o);
    assert_eq!(
        v["desc"],
        "Tauros Body Slam vs. Chansey: 251-295 (35.7 - 41.9%) -- guaranteed 3HKO"
    );
    for key in [
        "mode",
        "attacker",
        "defender",
        "move",
        "move_type",
        "power",
        "category",
        "fixed_damage",
        "hit_range",
        "hits",
        "crit",
        "reflect",
        "light_screen",
        "rolls",
        "crit_rolls",
        "min",
        "max",
        "defender_hp",
        "min_percent",
        "max_percent",
        "ko",
        "desc",
    ] {
        assert!(v.get(key).is_some(), "{key}: {v}");
    }
    assert_eq!(v["mode"], "link");
    assert_eq!(v["defender_hp"], 703);
    assert_eq!(v["ko"]["n"], 3);
    assert_eq!(v["rolls"].as_array().unwrap().len(), 39);
    let o = pallet(&[
        "calc",
        "Tauros",
        "Chansey",
        "Body Slam",
        "--attacker-stages",
        "atk=+2",
        "--burned",
        "--reflect",
        "--json",
    ]);
    let d = json(&o)["desc"].as_str().unwrap().to_string();
    assert!(
        d.starts_with("+2 burned Tauros Body Slam vs. Chansey through Reflect: "),
        "{d}"
    );
    // A crit ignores all three.
    let o = pallet(&[
        "calc",
        "Tauros",
        "Chansey",
        "Body Slam",
        "--attacker-stages",
        "atk=+2",
        "--burned",
        "--reflect",
        "--crit",
        "--json",
    ]);
    let c = json(&o);
    assert!(c["desc"]
        .as_str()
        .unwrap()
        .starts_with("Tauros Body Slam vs. Chansey on a critical hit: 490-576"));
    // Game mode: the defender's crit stat loses its stat exp, so crits hit harder.
    let g = json(&pallet(&[
        "calc",
        "Tauros",
        "Chansey",
        "Body Slam",
        "--crit",
        "--mode",
        "game",
        "--json",
    ]));
    assert!(g["min"].as_u64() > c["min"].as_u64(), "{g} {c}");
    // Multi-hit: totals are the per-hit roll times the hits.
    let m = json(&pallet(&[
        "calc",
        "Cloyster",
        "Chansey",
        "Spike Cannon",
        "--hits",
        "5",
        "--json",
    ]));
    assert_eq!(m["hits"], 5);
    assert_eq!(
        m["min"].as_u64().unwrap(),
        5 * m["rolls"][0].as_u64().unwrap()
    );
    // A Showdown set as input.
    let dir = std::env::temp_dir().join(format!("pallet-calc-set-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let set = dir.join("tauros.txt");
    std::fs::write(
        &set,
        "Tauros\nLevel: 50\nEVs: 0 Atk\nIVs: 0 Atk\n- Body Slam\n",
    )
    .unwrap();
    let arg = format!("@{}", set.display());
    let s = json(&pallet(&["calc", &arg, "Chansey", "Body Slam", "--json"]));
    assert_eq!(s["attacker"]["level"], 50);
    assert_eq!(s["attacker"]["dvs"][0], 0);
    assert_eq!(s["attacker"]["stat_exp"][1], 0);
    assert!(s["desc"]
        .as_str()
        .unwrap()
        .starts_with("Lvl 50 Tauros Body Slam vs. Chansey: "));
    let o = pallet(&[
        "calc",
        "Tauros",
        "Chansey",
        "Body Slam",
        "--attacker-stages",
        "atk=+9",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn calc_names_and_no_effect() {
    let a = stdout(&pallet(&["calc", "Mr. Mime", "MR_MIME", "psychic"]));
    let b = stdout(&pallet(&["calc", "mrmime", "Mr Mime", "PSYCHIC_M"]));
    assert_eq!(a, b);
    assert!(a.starts_with("Mr. Mime Psychic vs. Mr. Mime: "), "{a}");
    let rolls = a.lines().nth(1).unwrap().strip_prefix("rolls").unwrap();
    assert_eq!(rolls.split_whitespace().count(), 39);
    let o = pallet(&["calc", "rattata", "gastly", "tackle", "--json"]);
    assert_eq!(json(&o)["rolls"], serde_json::json!([0]));
    let o = pallet(&["calc", "rattata", "pidgey", "growl", "--json"]);
    assert_eq!(json(&o)["rolls"], serde_json::json!([0]));
}

#[test]
fn calc_unknown_names_and_bad_args_exit_2() {
    for args in [
        &["calc", "agumon", "pidgey", "tackle"][..],
        &["calc", "pidgey", "rattata", "hadouken"],
        &["calc", "pidgey", "nobody", "tackle"],
        &["calc", "pidgey", "rattata"],
        &["calc", "pidgey", "rattata", "tackle", "--dv", "16"],
        &[
            "calc",
            "pidgey",
            "rattata",
            "tackle",
            "--attacker-level",
            "0",
        ],
        &[
            "calc",
            "pidgey",
            "rattata",
            "tackle",
            "--defender-level",
            "101",
        ],
    ] {
        let o = pallet(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.starts_with("error: ") || err.lines().count() == 1,
            "{args:?}: {err}"
        );
        assert!(o.stdout.is_empty());
    }
}

#[test]
fn battle_modes_and_draws() {
    let dir = std::env::temp_dir().join(format!("pallet-battle-mode-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let boom = dir.join("boom.txt");
    std::fs::write(&boom, "Electrode\n- Explosion\n").unwrap();
    let b = boom.to_str().unwrap();
    let run = |mode: Option<&str>| {
        let mut args = vec![
            "battle", "--seed", "5", "--count", "400", "--p1", b, "--p2", b, "--json",
        ];
        if let Some(m) = mode {
            args.extend(["--mode", m]);
        }
        json(&pallet(&args))
    };
    // Link battles are the default; an Explosion that KOs the last foe is a draw.
    let link = run(None);
    assert_eq!(link, run(Some("link")));
    assert!(link["draws"].as_u64().unwrap() > 40, "{link}");
    // Game battles: the player's blackout comes last, so no simultaneous faint is a draw.
    let game = run(Some("game"));
    assert_eq!(game["draws"], 0, "{game}");
    assert_eq!(
        game["p1_wins"].as_u64().unwrap() + game["p2_wins"].as_u64().unwrap(),
        400
    );
    let o = pallet(&["battle", "--mode", "arcade"]);
    assert_eq!(o.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn battle_log_is_showdown_protocol_of_battle_zero() {
    let dir = std::env::temp_dir().join(format!("pallet-battle-log-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (p1, p2, boom) = (dir.join("p1.txt"), dir.join("p2.txt"), dir.join("boom.txt"));
    std::fs::write(
        &p1,
        "Tauros\n- Body Slam\n- Hyper Beam\n- Earthquake\n- Blizzard\n",
    )
    .unwrap();
    std::fs::write(
        &p2,
        "Chansey\n- Ice Beam\n- Thunderbolt\n- Thunder Wave\n- Soft-Boiled\n",
    )
    .unwrap();
    std::fs::write(&boom, "Electrode\n- Explosion\n").unwrap();
    let log = dir.join("battle.log");
    for (a, b, seed) in [(&p1, &p2, "3"), (&p2, &p1, "4"), (&boom, &boom, "5")] {
        let args = [
            "battle",
            "--seed",
            seed,
            "--count",
            "1",
            "--p1",
            a.to_str().unwrap(),
            "--p2",
            b.to_str().unwrap(),
            "--json",
        ];
        let plain = json(&pallet(&args));
        let mut with_log = args.to_vec();
        with_log.extend(["--log", log.to_str().unwrap()]);
        // Logging does not change the battle.
        assert_eq!(json(&pallet(&with_log)), plain);
        let text = std::fs::read_to_string(&log).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines.iter().all(|l| l.starts_with('|')), "{text}");
        assert!(
            text.starts_with("|player|p1|P1|\n|player|p2|P2|\n"),
            "{text}"
        );
        assert!(text.contains("|gen|1\n"));
        assert!(text.contains("|switch|p1a: "), "{text}");
        assert!(text.contains("|switch|p2a: "), "{text}");
        assert!(
            text.contains("|move|p1a: ") || text.contains("|move|p2a: "),
            "{text}"
        );
        assert!(text.contains("|-damage|"), "{text}");
        assert!(text.contains("|faint|"), "{text}");
        let turns = lines.iter().filter(|l| l.starts_with("|turn|")).count() as u64;
        assert_eq!(turns, plain["turns"].as_u64().unwrap(), "{text}");
        let last = *lines.last().unwrap();
        let want = if plain["p1_wins"] == 1 {
            "|win|P1"
        } else if plain["p2_wins"] == 1 {
            "|win|P2"
        } else {
            "|tie"
        };
        assert_eq!(last, want, "{text}");
    }
    // Names in Showdown's spelling, HP exact; an unwritable log file fails the run (exit 1).
    let o = pallet(&[
        "battle",
        "--seed",
        "3",
        "--p1",
        p1.to_str().unwrap(),
        "--p2",
        p2.to_str().unwrap(),
        "--log",
        log.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.contains("|move|p1a: Tauros|"), "{text}");
    assert!(
        text.contains("|switch|p2a: Chansey|Chansey, L100|703/703"),
        "{text}"
    );
    let o = pallet(&[
        "battle",
        "--log",
        dir.join("no/such/dir.log").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn battle_mods_run_field_residual_rules() {
    let dir = std::env::temp_dir().join(format!("pallet-battle-mods-{}", std::process::id()));
    let m = dir.join("storm");
    std::fs::create_dir_all(&m).unwrap();
    std::fs::write(
        m.join("manifest.json"),
        r#"{"id":"storm","name":"Storm","version":"1.0.0","api":2,"entry":"main.rhai","capabilities":["hooks"]}"#,
    )
    .unwrap();
    // A quarter of side 2's max HP every round: side 2 loses nearly every Tackle mirror.
    std::fs::write(
        m.join("main.rhai"),
        r#"hooks.wrap("battle.field_residual", |next, ctx| {
    let rows = next.call();
    let b = ctx.battlers.enemy;
    if b.hp > 0 { rows.push(#{ side: "enemy", amount: b.maxHp / 4 }); }
    rows
});
"#,
    )
    .unwrap();
    let team = dir.join("t.txt");
    std::fs::write(&team, "Blastoise\n- Tackle\n").unwrap();
    let t = team.to_str().unwrap();
    let base = [
        "battle", "--seed", "3", "--count", "200", "--p1", t, "--p2", t, "--json",
    ];
    let plain = json(&pallet(&base));
    let mut with = base.to_vec();
    with.extend(["--mods", m.to_str().unwrap()]);
    let modded = json(&pallet(&with));
    assert!(plain["p1_wins"].as_u64().unwrap() < 150, "{plain}");
    assert_eq!(modded["p1_wins"], 200, "{modded}");
    assert!(modded["turns"].as_u64().unwrap() <= 4 * 200, "{modded}");
    // Deterministic, and --jobs does not change a modded run.
    with.extend(["--jobs", "4"]);
    assert_eq!(json(&pallet(&with)), modded);
    // A mod that does not load is an error naming it, not a silent vanilla run.
    std::fs::write(m.join("main.rhai"), "this is not rhai (").unwrap();
    let o = pallet(&with);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("storm"));
    let _ = std::fs::remove_dir_all(&dir);
}
