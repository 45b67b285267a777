//! One or more tests per move effect family, with every roll scripted.

use super::*;
use crate::battle::state::flag;

fn fast(species: &str, moves: &[&str]) -> Pokemon {
    let mut m = mon(species, 50, moves);
    set_stats(&mut m, 150, 100, 100, 200, 100);
    m
}

fn slow(species: &str, moves: &[&str]) -> Pokemon {
    let mut m = mon(species, 50, moves);
    set_stats(&mut m, 160, 100, 100, 50, 100);
    m
}

fn go(b: &mut Battle<ScriptedRng>, p: Action, e: Action) {
    b.submit(&rt(), p, e).unwrap();
}

const M0: Action = Action::Move(0);
const M1: Action = Action::Move(1);
const C: Action = Action::Continue;

#[test]
fn stat_up_stages_and_the_six_stage_cap() {
    // Swords Dance: no rolls. 100 -> x2 = 200 (stage 9) -> x3 = 300 (11) -> x4 = 400 (13) ->
    // "Nothing happened!".
    let mut b = wild(
        vec![fast("RATTATA", &["SWORDS DANCE"])],
        vec![slow("PIDGEY", &["SPLASH"])],
        &[],
    );
    for (stage, atk) in [(9, 200), (11, 300), (13, 400)] {
        go(&mut b, M0, M0);
        assert_eq!(b.battler(Side::Player).stages[0], stage);
        assert_eq!(b.battler(Side::Player).stats[0], atk);
    }
    b.clear_rows();
    go(&mut b, M0, M0);
    assert_eq!(texts(&mut b)[1], "Nothing happened!");
    drained(&b);
}

#[test]
fn stat_up_at_999_undoes_one_stage_only() {
    // 600 x2 = 1200 -> capped at 999 (stage 9). Again: the stat is 999, so the stage goes to
    // 11 and back by one only (10), and "Nothing happened!".
    let mut p = fast("RATTATA", &["SWORDS DANCE"]);
    p.stats.atk = 600;
    let mut b = wild(vec![p], vec![slow("PIDGEY", &["SPLASH"])], &[]);
    go(&mut b, M0, M0);
    assert_eq!(b.battler(Side::Player).stats[0], 999);
    b.clear_rows();
    go(&mut b, M0, M0);
    assert_eq!(b.battler(Side::Player).stages[0], 10);
    assert_eq!(texts(&mut b)[1], "Nothing happened!");
    drained(&b);
}

#[test]
fn the_ai_stat_down_miss_and_growl() {
    // The wild enemy's Growl first rolls its 25% miss (a byte below 64): 0 fails; 64 passes, then
    // the normal hit roll. Attack 100 x 66/100 = 66.
    let mut b = wild(
        vec![slow("RATTATA", &["SPLASH"])],
        vec![fast("PIDGEY", &["GROWL"])],
        &[0, 64, HIT],
    );
    go(&mut b, M0, M0);
    assert_eq!(texts(&mut b)[1], "But, it failed!");
    go(&mut b, M0, M0);
    assert_eq!(b.battler(Side::Player).stats[0], 66);
    assert_eq!(texts(&mut b)[1], "RATTATA's ATTACK fell!");
    drained(&b);
    // Link rules: no AI miss roll.
    let mut b = wild(
        vec![slow("RATTATA", &["SPLASH"])],
        vec![fast("PIDGEY", &["GROWL"])],
        &[HIT],
    );
    b.set_link_rules(true);
    go(&mut b, M0, M0);
    assert_eq!(b.battler(Side::Player).stages[0], 6);
    drained(&b);
}

#[test]
fn stat_moves_reapply_the_opponents_paralysis_drop() {
    // Enemy paralyzed: speed 400/4 = 100. Swords Dance by the player quarters it again (25);
    // a Growl (hit roll) on it quarters it once more (6).
    let mut e = slow("PIDGEY", &["SPLASH"]);
    e.stats.spe = 400;
    e.status = Status::Paralysis;
    let mut p = fast("RATTATA", &["SWORDS DANCE", "GROWL"]);
    p.stats.spe = 300;
    // Each enemy turn starts with its full-paralysis roll (0xFF: it acts).
    let mut b = wild(vec![p], vec![e], &[0xFF, HIT, 0xFF]);
    assert_eq!(b.battler(Side::Enemy).stats[2], 100);
    go(&mut b, M0, M0);
    assert_eq!(b.battler(Side::Enemy).stats[2], 25);
    go(&mut b, M1, M0);
    assert_eq!(b.battler(Side::Enemy).stats[2], 6);
    drained(&b);
}

#[test]
fn agility_while_paralyzed_drops_the_penalty() {
    // Speed 200 quartered to 50. The player's full-paralysis roll (0xFF: it acts), then Agility
    // recomputes Speed from the unmodified 200: x2 = 400, the quartering gone.
    let mut p = fast("RATTATA", &["AGILITY"]);
    p.status = Status::Paralysis;
    let mut e = slow("PIDGEY", &["SPLASH"]);
    e.stats.spe = 10;
    let mut b = wild(vec![p], vec![e], &[0xFF]);
    assert_eq!(b.battler(Side::Player).stats[2], 50);
    go(&mut b, M0, M0);
    assert_eq!(b.battler(Side::Player).stats[2], 400);
    drained(&b);
}

#[test]
fn mist_blocks_stat_down_moves() {
    // Enemy (faster) Mist; player Growl is stopped before its accuracy roll: no rolls at all.
    let mut b = wild(
        vec![slow("RATTATA", &["GROWL"])],
        vec![fast("PIDGEY", &["MIST"])],
        &[],
    );
    go(&mut b, M0, M0);
    let t = texts(&mut b);
    assert_eq!(t[1], "Enemy PIDGEY's shrouded in mist!");
    assert_eq!(t[3], "But, it failed!");
    assert_eq!(b.battler(Side::Enemy).stages[0], 7);
    drained(&b);
}

#[test]
fn substitute_takes_hits_and_breaks() {
    // Max HP 100: the substitute costs 25 (100 -> 75) and has 25 HP. Enemy Tackle: 22*35 = 770;
    // /50 = 15; +2 = 17; STAB 25; factor 217: 21 -> the substitute keeps 4. Next Tackle (21 > 4)
    // breaks it; the player's HP stays 75.
    let mut p = fast("RATTATA", &["SUBSTITUTE", "SPLASH"]);
    set_stats(&mut p, 100, 100, 100, 200, 100);
    let mut b = wild(
        vec![p],
        vec![slow("RATTATA", &["TACKLE"])],
        &[NO_CRIT, factor(217), HIT, NO_CRIT, factor(217), HIT],
    );
    go(&mut b, M0, M0);
    assert_eq!(b.active(Side::Player).hp, 75);
    assert_eq!(b.battler(Side::Player).substitute_hp, 4);
    go(&mut b, M1, M0);
    assert!(!b.battler(Side::Player).has(flag::SUBSTITUTE));
    assert_eq!(b.active(Side::Player).hp, 75);
    let t = texts(&mut b);
    assert!(t.contains(&"The SUBSTITUTE took damage for RATTATA!".to_string()));
    assert!(t.contains(&"RATTATA's SUBSTITUTE broke!".to_string()));
    drained(&b);
}

#[test]
fn substitute_at_exactly_a_quarter_faints_the_user() {
    let mut p = fast("RATTATA", &["SUBSTITUTE"]);
    set_stats(&mut p, 100, 100, 100, 200, 100);
    p.hp = 25;
    let mut b = wild(
        vec![p, fast("PIDGEY", &["SPLASH"])],
        vec![slow("RATTATA", &["SPLASH"])],
        &[],
    );
    go(&mut b, M0, M0);
    assert_eq!(b.active(Side::Player).hp, 0);
    assert_eq!(
        b.needs_choice(),
        NeedsChoice::Replacement {
            player: true,
            enemy: false
        }
    );
    drained(&b);
    // 24 HP is too weak.
    let mut p = fast("RATTATA", &["SUBSTITUTE"]);
    set_stats(&mut p, 100, 100, 100, 200, 100);
    p.hp = 24;
    let mut b = wild(vec![p], vec![slow("RATTATA", &["SPLASH"])], &[]);
    go(&mut b, M0, M0);
    assert_eq!(texts(&mut b)[1], "Too weak to make a SUBSTITUTE!");
    drained(&b);
}

#[test]
fn substitute_blocks_stat_drops_but_not_sleep() {
    // Link rules (no AI miss roll). Growl on a substitute fails without a hit roll; Sing still
    // puts it to sleep (hit roll, counter).
    let mut b = wild(
        vec![fast("RATTATA", &["SPLASH"])],
        vec![slow("JIGGLYPUFF", &["GROWL", "SING"])],
        &[HIT, 0x03],
    );
    b.set_link_rules(true);
    b.bat_mut(Side::Player).set(flag::SUBSTITUTE);
    b.bat_mut(Side::Player).substitute_hp = 30;
    go(&mut b, M0, M0);
    assert_eq!(b.battler(Side::Player).stages[0], 7);
    go(&mut b, M0, M1);
    assert_eq!(status_of(&b, Side::Player), Status::Sleep(3));
    drained(&b);
}

#[test]
fn haze_resets_everything_and_cures_only_the_target() {
    let mut e = slow("PIDGEY", &["SPLASH"]);
    e.status = Status::Sleep(5);
    let mut p = fast("KOFFING", &["HAZE"]);
    p.status = Status::Poison;
    let mut b = wild(vec![p], vec![e], &[]);
    b.bat_mut(Side::Enemy).stages[0] = 11;
    b.bat_mut(Side::Enemy).set(flag::CONFUSED | flag::SEEDED);
    b.bat_mut(Side::Player).stages[2] = 3;
    b.bat_mut(Side::Player).set(flag::TOXIC);
    b.sides[0].screens.reflect = true;
    go(&mut b, M0, C);
    for s in [Side::Player, Side::Enemy] {
        assert_eq!(b.battler(s).stages, [7; 6]);
        assert!(!b
            .battler(s)
            .has(flag::CONFUSED | flag::SEEDED | flag::TOXIC));
    }
    assert!(!b.side(Side::Player).screens.reflect);
    // The target is cured (and, being asleep, loses its turn); the user keeps its poison.
    assert_eq!(status_of(&b, Side::Enemy), Status::None);
    assert_eq!(status_of(&b, Side::Player), Status::Poison);
    let t = texts(&mut b);
    assert_eq!(t[1], "All STATUS changes are eliminated!");
    assert!(!t.iter().any(|l| l.starts_with("Enemy PIDGEY used")));
    drained(&b);
}

#[test]
fn disable_picks_a_move_and_counts_down_on_the_targets_turns() {
    // Disable (55%): hit roll; slot 0 & 3 = 0 (TACKLE); turns (1 & 7) + 1 = 2.
    let mut b = wild(
        vec![fast("DROWZEE", &["DISABLE", "SPLASH"])],
        vec![slow("RATTATA", &["TACKLE", "SPLASH"])],
        &[HIT, 0x00, 0x01],
    );
    go(&mut b, M0, M0);
    let t = texts(&mut b);
    assert_eq!(t[1], "Enemy RATTATA's TACKLE was disabled!");
    // The Tackle chosen this turn is refused on the enemy's turn (counter 2 -> 1).
    assert_eq!(t[2], "TACKLE is disabled!");
    assert_eq!(legal(&b, Side::Enemy), [Action::Move(1)]);
    go(&mut b, M1, M1);
    assert_eq!(texts(&mut b)[2], "Enemy RATTATA's disabled no more!");
    assert_eq!(legal(&b, Side::Enemy), [Action::Move(0), Action::Move(1)]);
    drained(&b);
}

#[test]
fn rage_locks_in_builds_attack_and_spends_no_more_pp() {
    let mut b = wild(
        vec![fast("RATTATA", &["RAGE"])],
        vec![slow("PIDGEY", &["TACKLE"])],
        &[
            NO_CRIT,
            factor(217),
            HIT,
            NO_CRIT,
            factor(217),
            HIT,
            NO_CRIT,
            factor(217),
            HIT,
            NO_CRIT,
            factor(217),
            HIT,
        ],
    );
    go(&mut b, M0, M0);
    assert!(b.battler(Side::Player).has(flag::RAGE));
    assert_eq!(b.battler(Side::Player).stages[0], 8);
    let t = texts(&mut b);
    assert!(
        t.contains(&"RATTATA's RAGE is building!".to_string()),
        "{t:?}"
    );
    assert_eq!(b.active(Side::Player).pp[0], 19);
    // Raging: no menu at all.
    assert_eq!(legal(&b, Side::Player), [Action::Continue]);
    go(&mut b, C, M0);
    assert_eq!(texts(&mut b)[0], "RATTATA used RAGE!");
    assert_eq!(b.active(Side::Player).pp[0], 19);
    assert_eq!(b.battler(Side::Player).stages[0], 9);
    drained(&b);
}

#[test]
fn bide_stores_two_or_three_turns_and_hits_ghosts_for_double() {
    // Bide counter (0 & 1) + 2 = 2. Gastly's Tackle (no STAB): 22*35 = 770; /50 = 15; +2 = 17.
    // Turn 2: stores 17 (the last damage dealt); turn 3: stores 17 more, unleashes 2 x 34 = 68
    // with no roll, typeless: it hits the Ghost.
    let mut b = wild(
        vec![fast("RATTATA", &["BIDE"])],
        vec![slow("GASTLY", &["TACKLE"])],
        &[
            0x00,
            NO_CRIT,
            factor(255),
            HIT,
            NO_CRIT,
            factor(255),
            HIT,
            NO_CRIT,
            factor(255),
            HIT,
        ],
    );
    go(&mut b, M0, M0);
    assert_eq!(legal(&b, Side::Player), [Action::Continue, Action::Run]);
    go(&mut b, C, M0);
    assert_eq!(b.active(Side::Enemy).hp, 160);
    go(&mut b, C, M0);
    assert_eq!(b.active(Side::Enemy).hp, 160 - 68);
    assert!(texts(&mut b).contains(&"RATTATA unleashed energy!".to_string()));
    drained(&b);
}

#[test]
fn thrash_runs_three_or_four_turns_then_confuses() {
    // Counter (0 & 1) + 2 = 2 more turns; at the end confusion for (0 & 3) + 2 = 2 turns.
    let mut b = wild(
        vec![fast("TAUROS", &["THRASH"])],
        vec![slow("ONIX", &["SPLASH"])],
        &[
            0x00,
            NO_CRIT,
            factor(217),
            HIT,
            NO_CRIT,
            factor(217),
            HIT,
            0x00,
            NO_CRIT,
            factor(217),
            HIT,
        ],
    );
    b.sides[1].party[0].hp = 160;
    go(&mut b, M0, M0);
    assert_eq!(legal(&b, Side::Player), [Action::Continue]);
    go(&mut b, C, M0);
    assert_eq!(texts(&mut b)[0], "TAUROS used THRASH!");
    assert!(b.battler(Side::Player).has(flag::THRASHING));
    go(&mut b, C, M0);
    assert_eq!(texts(&mut b)[0], "TAUROS's thrashing about!");
    assert!(b.battler(Side::Player).has(flag::CONFUSED));
    assert!(!b.battler(Side::Player).has(flag::THRASHING));
    assert_eq!(b.battler(Side::Player).confusion_turns, 2);
    assert_eq!(b.active(Side::Player).pp[0], 19);
    drained(&b);
}

#[test]
fn wrap_traps_and_repeats_its_damage() {
    // Trapping counter (0 & 3) + 1 = 1 more turn. Wrap (15 power, no STAB for Ekans):
    // 22*15 = 330; /50 = 6; +2 = 8; factor 255: 8. The enemy can't move either turn; turn 2
    // repeats 8 damage with no roll. Turn 3 the enemy attacks.
    let mut b = wild(
        vec![fast("EKANS", &["WRAP", "SPLASH"])],
        vec![slow("RATTATA", &["TACKLE"])],
        &[0x00, NO_CRIT, factor(255), HIT, NO_CRIT, factor(217), HIT],
    );
    go(&mut b, M0, M0);
    assert_eq!(b.active(Side::Enemy).hp, 152);
    assert_eq!(texts(&mut b)[1], "Enemy RATTATA can't move!");
    assert_eq!(legal(&b, Side::Enemy), [Action::Continue]);
    go(&mut b, C, C);
    assert_eq!(b.active(Side::Enemy).hp, 144);
    // The trapped side selected nothing ($FF): its turn is skipped without a text.
    let t = texts(&mut b);
    assert_eq!(t, ["EKANS's attack continues!"]);
    go(&mut b, M1, M0);
    assert!(b.active(Side::Player).hp < 150);
    drained(&b);
}

#[test]
fn hyper_beam_recharges_unless_it_knocks_out() {
    let mut b = wild(
        vec![fast("TAUROS", &["HYPER BEAM"])],
        vec![slow("ONIX", &["SPLASH"])],
        &[NO_CRIT, factor(217), HIT],
    );
    b.sides[1].party[0].hp = 160;
    go(&mut b, M0, M0);
    assert!(b.battler(Side::Player).has(flag::RECHARGE));
    assert_eq!(legal(&b, Side::Player), [Action::Continue]);
    b.clear_rows();
    go(&mut b, C, M0);
    assert_eq!(texts(&mut b)[0], "TAUROS must recharge!");
    drained(&b);
    // A knock-out skips the recharge.
    let mut e = slow("RATTATA", &["SPLASH"]);
    e.hp = 10;
    let mut b = wild(
        vec![fast("TAUROS", &["HYPER BEAM"]), fast("PIDGEY", &["SPLASH"])],
        vec![e],
        &[NO_CRIT, factor(217), HIT],
    );
    go(&mut b, M0, M0);
    assert_eq!(b.result(), Some(BattleResult::Win));
    assert!(!b.battler(Side::Player).has(flag::RECHARGE));
    drained(&b);
}

#[test]
fn charge_moves_and_dig_invulnerability() {
    // Solar Beam: turn 1 no roll and no PP; turn 2 (locked) fires.
    let mut b = wild(
        vec![fast("ODDISH", &["SOLARBEAM"])],
        vec![slow("RATTATA", &["SPLASH"])],
        &[NO_CRIT, factor(217), HIT],
    );
    go(&mut b, M0, M0);
    assert_eq!(texts(&mut b)[0], "ODDISH took in sunlight!");
    assert_eq!(b.active(Side::Player).pp[0], 10);
    assert_eq!(legal(&b, Side::Player), [Action::Continue]);
    go(&mut b, C, M0);
    assert_eq!(texts(&mut b)[0], "ODDISH used SOLARBEAM!");
    assert_eq!(b.active(Side::Player).pp[0], 9);
    drained(&b);
    // Dig: the enemy's Tackle rolls crit and damage, then misses without an accuracy roll.
    let mut b = wild(
        vec![fast("DIGLETT", &["DIG"])],
        vec![slow("RATTATA", &["TACKLE"])],
        &[
            NO_CRIT,
            factor(217),
            NO_CRIT,
            factor(217),
            HIT,
            NO_CRIT,
            factor(217),
            HIT,
        ],
    );
    go(&mut b, M0, M0);
    assert_eq!(b.active(Side::Player).hp, 150);
    assert_eq!(texts(&mut b)[2], "Enemy RATTATA's attack missed!");
    go(&mut b, C, M0);
    assert!(!b.battler(Side::Player).has(flag::INVULNERABLE));
    assert!(b.active(Side::Player).hp < 150);
    drained(&b);
}

#[test]
fn counter_returns_double_the_last_damage() {
    // Counter moves last. Enemy Tackle: 25*217/255 = 21. Counter: crit roll (power 1), then 42
    // and a hit roll.
    let mut b = wild(
        vec![fast("MACHOP", &["COUNTER"])],
        vec![slow("RATTATA", &["TACKLE", "EMBER"])],
        &[
            NO_CRIT,
            factor(217),
            HIT,
            NO_CRIT,
            HIT,
            NO_CRIT,
            factor(217),
            HIT,
            0xFF,
            NO_CRIT,
        ],
    );
    go(&mut b, M0, M0);
    assert_eq!(b.active(Side::Player).hp, 150 - 21);
    assert_eq!(b.active(Side::Enemy).hp, 160 - 42);
    // Against a special move it fails (no hit roll). Ember: crit, factor, hit, burn roll.
    go(&mut b, M0, M1);
    assert_eq!(
        texts(&mut b).last().map(String::as_str),
        Some("MACHOP's attack missed!")
    );
    drained(&b);
}

#[test]
fn mirror_move_copies_the_last_used_move() {
    let mut b = wild(
        vec![fast("PIDGEOT", &["MIRROR MOVE"])],
        vec![slow("RATTATA", &["TACKLE"])],
        &[
            NO_CRIT,
            factor(217),
            HIT,
            NO_CRIT,
            factor(217),
            HIT,
            NO_CRIT,
            factor(217),
            HIT,
        ],
    );
    go(&mut b, M0, M0);
    assert_eq!(texts(&mut b)[1], "The MIRROR MOVE failed!");
    go(&mut b, M0, M0);
    let t = texts(&mut b);
    assert_eq!(
        t[..2],
        [
            "PIDGEOT used MIRROR MOVE!".to_string(),
            "PIDGEOT used TACKLE!".to_string()
        ]
    );
    // One PP per use, not two.
    assert_eq!(b.active(Side::Player).pp[0], 18);
    drained(&b);
}

#[test]
fn metronome_picks_any_move_but_itself() {
    // 0, 118 (Metronome) and 200 (> 164) are rerolled; 33 is Tackle.
    let mut b = wild(
        vec![fast("CLEFAIRY", &["METRONOME"])],
        vec![slow("RATTATA", &["SPLASH"])],
        &[0, 118, 200, 33, NO_CRIT, factor(217), HIT],
    );
    go(&mut b, M0, M0);
    let t = texts(&mut b);
    assert_eq!(
        t[..2],
        [
            "CLEFAIRY used METRONOME!".to_string(),
            "CLEFAIRY used TACKLE!".to_string()
        ]
    );
    assert_eq!(b.active(Side::Player).pp[0], 9);
    drained(&b);
}

#[test]
fn mimic_under_link_rules_copies_a_random_move_into_its_slot() {
    // Link rules: the player's Mimic picks at random too. Hit roll; slot 3 is empty (reroll),
    // slot 1 is GROWL.
    let mut b = wild(
        vec![fast("CLEFAIRY", &["SPLASH", "MIMIC"])],
        vec![slow("RATTATA", &["TACKLE", "GROWL"])],
        &[HIT, 0x03, 0x01, HIT],
    );
    b.set_link_rules(true);
    go(&mut b, M1, M1);
    assert_eq!(b.needs_choice(), NeedsChoice::Round);
    assert_eq!(b.battler(Side::Player).moves[1], Some(mv("GROWL")));
    // The party mon keeps Mimic.
    assert_eq!(b.active(Side::Player).moves[1], Some(mv("MIMIC")));
    drained(&b);
}

#[test]
fn the_players_mimic_asks_which_enemy_move_and_draws_nothing() {
    // Outside link battles the player picks from the enemy's moves: only the hit roll is
    // drawn, the round stops at the menu, and the enemy's turn runs after the answer.
    let mut b = wild(
        vec![fast("CLEFAIRY", &["SPLASH", "MIMIC"])],
        vec![slow("RATTATA", &["TACKLE", "GROWL", "QUICK ATTACK"])],
        &[HIT],
    );
    go(&mut b, M1, M1);
    assert_eq!(b.needs_choice(), NeedsChoice::Mimic);
    assert_eq!(b.prompt(), Some(Prompt::Mimic));
    assert_eq!(legal(&b, Side::Player), [M0, M1, Action::Move(2)]);
    assert_eq!(legal(&b, Side::Enemy), [C]);
    assert_eq!(b.default_prompt_answer(), Some(M0));
    assert_eq!(texts(&mut b), ["CLEFAIRY used MIMIC!"]);
    drained(&b);
    // Refused answers change nothing (an empty enemy slot, a switch, a run).
    for bad in [Action::Move(3), Action::Switch(0), Action::Run] {
        assert!(b.submit(&rt(), bad, C).is_err());
    }
    assert!(
        b.submit(&rt(), Action::Move(2), M0).is_err(),
        "the enemy passes"
    );
    // The enemy's GROWL: the AI's stat-down miss roll, then the hit roll.
    b.rng.push(&[64, HIT]);
    go(&mut b, Action::Move(2), C);
    assert_eq!(b.needs_choice(), NeedsChoice::Round);
    assert_eq!(b.battler(Side::Player).moves[1], Some(mv("QUICK ATTACK")));
    assert_eq!(b.active(Side::Player).moves[1], Some(mv("MIMIC")));
    assert_eq!(
        texts(&mut b),
        [
            "CLEFAIRY learned QUICK ATTACK!",
            "Enemy RATTATA used GROWL!",
            "CLEFAIRY's ATTACK fell!"
        ]
    );
    drained(&b);
}

#[test]
fn the_enemys_mimic_still_picks_at_random() {
    let mut b = wild(
        vec![slow("RATTATA", &["TACKLE", "GROWL"])],
        vec![fast("CLEFAIRY", &["MIMIC"])],
        &[HIT, 0x03, 0x01, NO_CRIT, factor(255), HIT],
    );
    go(&mut b, M0, M0);
    assert_eq!(b.needs_choice(), NeedsChoice::Round);
    assert_eq!(b.battler(Side::Enemy).moves[0], Some(mv("GROWL")));
    drained(&b);
}

#[test]
fn transform_copies_species_types_stats_stages_and_moves_with_5_pp() {
    let mut b = wild(
        vec![fast("DITTO", &["TRANSFORM"])],
        vec![slow("ONIX", &["SPLASH", "TACKLE"])],
        &[],
    );
    b.bat_mut(Side::Enemy).stages[0] = 9;
    b.bat_mut(Side::Enemy).stats[0] = 200;
    go(&mut b, M0, M0);
    let p = *b.battler(Side::Player);
    let e = *b.battler(Side::Enemy);
    assert!(p.has(flag::TRANSFORMED));
    assert_eq!(p.species, sp("ONIX"));
    assert_eq!(p.types, e.types);
    assert_eq!(p.stats, e.stats);
    assert_eq!(p.stages, e.stages);
    assert_eq!(p.moves, e.moves);
    assert_eq!(p.pp, [5, 5, 0, 0]);
    assert_eq!(texts(&mut b)[1], "DITTO transformed into ONIX!");
    drained(&b);
}

#[test]
fn conversion_copies_the_targets_types() {
    let mut b = wild(
        vec![fast("PORYGON", &["CONVERSION"])],
        vec![slow("GASTLY", &["SPLASH"])],
        &[],
    );
    go(&mut b, M0, M0);
    assert_eq!(b.battler(Side::Player).types, b.battler(Side::Enemy).types);
    drained(&b);
}

#[test]
fn psywave_ranges_differ_by_side() {
    // Player L50: below 75, at least 1: hit roll (80%), then 0 and 80 rerolled, 30.
    let mut b = wild(
        vec![fast("DROWZEE", &["PSYWAVE"])],
        vec![slow("RATTATA", &["SPLASH"])],
        &[HIT, 0, 80, 30],
    );
    go(&mut b, M0, M0);
    assert_eq!(b.active(Side::Enemy).hp, 130);
    drained(&b);
    // The enemy's range starts at 0: a 0 does nothing.
    let mut b = wild(
        vec![slow("RATTATA", &["SPLASH"])],
        vec![fast("DROWZEE", &["PSYWAVE"])],
        &[HIT, 0],
    );
    go(&mut b, M0, M0);
    assert_eq!(b.active(Side::Player).hp, 160);
    drained(&b);
}

#[test]
fn fixed_damage_ignores_types_and_stats() {
    // Seismic Toss = level (50), even on a Ghost; one hit roll, no crit roll.
    let mut b = wild(
        vec![fast("MACHOP", &["SEISMIC TOSS"])],
        vec![slow("GASTLY", &["SPLASH"])],
        &[HIT],
    );
    go(&mut b, M0, M0);
    assert_eq!(b.active(Side::Enemy).hp, 110);
    drained(&b);
    // Night Shade hits a Normal type; Sonic Boom 20; Dragon Rage 40.
    let mut b = wild(
        vec![fast("GASTLY", &["NIGHT SHADE", "SONICBOOM", "DRAGON RAGE"])],
        vec![slow("RATTATA", &["SPLASH"])],
        &[HIT, HIT, HIT],
    );
    go(&mut b, M0, M0);
    assert_eq!(b.active(Side::Enemy).hp, 110);
    go(&mut b, M1, M0);
    assert_eq!(b.active(Side::Enemy).hp, 90);
    go(&mut b, Action::Move(2), M0);
    assert_eq!(b.active(Side::Enemy).hp, 50);
    drained(&b);
}

#[test]
fn super_fang_halves_current_hp_at_least_one() {
    let mut b = wild(
        vec![fast("RATICATE", &["SUPER FANG"])],
        vec![slow("GASTLY", &["SPLASH"])],
        &[HIT, HIT],
    );
    b.sides[1].party[0].hp = 161;
    go(&mut b, M0, M0);
    assert_eq!(b.active(Side::Enemy).hp, 81);
    b.sides[1].party[0].hp = 1;
    go(&mut b, M0, M0);
    assert_eq!(b.result(), Some(BattleResult::Win));
    drained(&b);
}

#[test]
fn ohko_moves_need_speed_and_respect_immunity() {
    // Slower user: crit roll only, then "unaffected".
    let mut b = wild(
        vec![slow("RHYDON", &["HORN DRILL", "FISSURE"])],
        vec![fast("PIDGEY", &["SPLASH"])],
        &[NO_CRIT],
    );
    go(&mut b, M0, M0);
    assert_eq!(texts(&mut b)[3], "Enemy PIDGEY is unaffected!");
    drained(&b);
    // Faster: crit roll, 65535 -> factor, hit roll: knocked out.
    let mut b = wild(
        vec![fast("RHYDON", &["HORN DRILL", "FISSURE"])],
        vec![slow("PIDGEY", &["SPLASH"])],
        &[NO_CRIT, factor(217), HIT],
    );
    go(&mut b, M0, M0);
    assert_eq!(b.result(), Some(BattleResult::Win));
    assert!(b.peek_rows().contains(&Row::Text(Msg::Ohko)));
    drained(&b);
    // Fissure on a Flying type: zero after types (no factor roll), the hit roll, "doesn't affect".
    let mut b = wild(
        vec![fast("RHYDON", &["FISSURE"])],
        vec![slow("PIDGEY", &["SPLASH"])],
        &[NO_CRIT, HIT],
    );
    go(&mut b, M0, M0);
    assert_eq!(texts(&mut b)[1], "It doesn't affect Enemy PIDGEY!");
    drained(&b);
}

#[test]
fn explosion_halves_defense_and_faints_the_user_even_on_a_miss() {
    // Defense 100 halved to 50: 22*170 = 3740; *100/50 = 7480; /50 = 149; +2 = 151 (no STAB).
    let mut e = slow("RATTATA", &["SPLASH"]);
    set_stats(&mut e, 300, 100, 100, 50, 100);
    let mut b = wild(
        vec![fast("GEODUDE", &["EXPLOSION"]), fast("PIDGEY", &["SPLASH"])],
        vec![e],
        &[NO_CRIT, factor(255), HIT],
    );
    go(&mut b, M0, M0);
    assert_eq!(b.active(Side::Enemy).hp, 300 - 151);
    assert_eq!(b.party(Side::Player)[0].hp, 0);
    drained(&b);
    // A miss still faints the user.
    let mut b = wild(
        vec![fast("GEODUDE", &["EXPLOSION"]), fast("PIDGEY", &["SPLASH"])],
        vec![slow("ONIX", &["SPLASH"])],
        &[NO_CRIT, factor(255), MISS],
    );
    go(&mut b, M0, M0);
    assert_eq!(b.party(Side::Player)[0].hp, 0);
    assert_eq!(b.active(Side::Enemy).hp, 160);
    drained(&b);
    // Breaking a substitute cancels the effect: the user survives.
    let mut b = wild(
        vec![fast("GEODUDE", &["EXPLOSION"])],
        vec![slow("ONIX", &["SPLASH"])],
        &[NO_CRIT, factor(255), HIT],
    );
    b.bat_mut(Side::Enemy).set(flag::SUBSTITUTE);
    b.bat_mut(Side::Enemy).substitute_hp = 10;
    go(&mut b, M0, M0);
    assert_eq!(b.active(Side::Player).hp, 150);
    assert!(!b.battler(Side::Enemy).has(flag::SUBSTITUTE));
    drained(&b);
}

#[test]
fn struggle_when_no_pp_and_half_recoil() {
    // Struggle (50, Normal, STAB for Rattata): 22*50 = 1100; /50 = 22; +2 = 24; STAB 36; factor
    // 255: 36; recoil 36/2 = 18.
    let mut p = fast("RATTATA", &["TACKLE"]);
    p.pp = [0; 4];
    let mut b = wild(
        vec![p],
        vec![slow("PIDGEY", &["SPLASH"])],
        &[NO_CRIT, factor(255), HIT],
    );
    assert_eq!(legal(&b, Side::Player), [Action::Struggle, Action::Run]);
    go(&mut b, Action::Struggle, M0);
    assert_eq!(b.active(Side::Enemy).hp, 160 - 36);
    assert_eq!(b.active(Side::Player).hp, 150 - 18);
    drained(&b);
}

#[test]
fn recoil_quarter_drain_half_and_dream_eater() {
    // Take Down (90): 22*90 = 1980; /50 = 39; +2 = 41; STAB 61; factor 255; recoil 61/4 = 15.
    let mut b = wild(
        vec![fast("RATTATA", &["TAKE DOWN"])],
        vec![slow("PIDGEY", &["SPLASH"])],
        &[NO_CRIT, factor(255), HIT],
    );
    go(&mut b, M0, M0);
    assert_eq!(b.active(Side::Enemy).hp, 160 - 61);
    assert_eq!(b.active(Side::Player).hp, 150 - 15);
    drained(&b);
    // Mega Drain (40, special) from Oddish (STAB): 22*40 = 880; /50 = 17; +2 = 19; STAB 28; vs
    // Normal: 28; factor 255; heals 14.
    let mut p = fast("ODDISH", &["MEGA DRAIN", "DREAM EATER"]);
    p.hp = 100;
    let mut b = wild(
        vec![p],
        vec![slow("RATTATA", &["SPLASH"])],
        &[NO_CRIT, factor(255), HIT, NO_CRIT, factor(255)],
    );
    go(&mut b, M0, M0);
    assert_eq!(b.active(Side::Enemy).hp, 160 - 28);
    assert_eq!(b.active(Side::Player).hp, 114);
    // Dream Eater on an awake target misses before the accuracy roll.
    go(&mut b, M1, M0);
    assert_eq!(b.active(Side::Enemy).hp, 132);
    drained(&b);
}

#[test]
fn multi_hit_distribution_double_kick_and_twineedle() {
    // Fury Attack (15, STAB): 22*15 = 330; /50 = 6; +2 = 8; STAB 12. After the first hit: count
    // roll 2 (>= 2) -> second roll 3 -> 5 hits = 60.
    let mut b = wild(
        vec![fast("RATTATA", &["FURY ATTACK"])],
        vec![slow("PIDGEY", &["SPLASH"])],
        &[NO_CRIT, factor(255), HIT, 0x02, 0x03],
    );
    go(&mut b, M0, M0);
    assert_eq!(b.active(Side::Enemy).hp, 100);
    assert!(texts(&mut b).contains(&"Hit 5 times!".to_string()));
    drained(&b);
    // Double Kick: two hits, no count roll. (30, Fighting, no STAB): 22*30 = 660; /50 = 13; +2 = 15.
    let mut b = wild(
        vec![fast("RATTATA", &["DOUBLE KICK"])],
        vec![slow("ONIX", &["SPLASH"])],
        &[NO_CRIT, factor(255), HIT],
    );
    b.bat_mut(Side::Enemy).types = [crate::data::Type::Water; 2];
    go(&mut b, M0, M0);
    assert_eq!(b.active(Side::Enemy).hp, 130);
    drained(&b);
    // Twineedle: two hits, then one 20% poison roll (51 < 52).
    let mut b = wild(
        vec![fast("BEEDRILL", &["TWINEEDLE"])],
        vec![slow("RATTATA", &["SPLASH"])],
        &[NO_CRIT, factor(255), HIT, 51],
    );
    go(&mut b, M0, M0);
    assert_eq!(status_of(&b, Side::Enemy), Status::Poison);
    assert!(texts(&mut b).contains(&"Hit 2 times!".to_string()));
    drained(&b);
}

#[test]
fn pay_day_and_splash() {
    let mut e = slow("PIDGEY", &["SPLASH"]);
    e.hp = 1;
    let mut b = wild(
        vec![fast("MEOWTH", &["PAY DAY"])],
        vec![e],
        &[NO_CRIT, factor(255), HIT],
    );
    go(&mut b, M0, M0);
    assert_eq!(b.pay_day_money(), 100);
    let t = texts(&mut b);
    assert!(t.contains(&"Coins scattered everywhere!".to_string()));
    assert!(t.contains(&"RED picked up ¥100!".to_string()));
    drained(&b);
}

#[test]
fn teleport_and_roar_end_wild_battles_only() {
    let mut b = wild(
        vec![fast("ABRA", &["TELEPORT"])],
        vec![slow("PIDGEY", &["SPLASH"])],
        &[],
    );
    go(&mut b, M0, M0);
    assert_eq!(b.result(), Some(BattleResult::Ran));
    assert_eq!(texts(&mut b)[1], "ABRA fled from battle!");
    drained(&b);
    let mut b = battle(
        trainer_kind(),
        vec![fast("ABRA", &["TELEPORT"])],
        vec![slow("PIDGEY", &["SPLASH"])],
        &[],
    );
    go(&mut b, M0, M0);
    assert_eq!(b.result(), None);
    assert_eq!(texts(&mut b)[1], "But, it failed!");
    drained(&b);
    // Lower level: a byte below L+L+1 (60 >= 51 is rerolled) against target level / 4 (10).
    let mut p = fast("PIDGEY", &["ROAR"]);
    p.level = 10;
    let mut e = slow("RATTATA", &["SPLASH"]);
    e.level = 40;
    let mut b = wild(vec![p], vec![e], &[60, 9, 10]);
    go(&mut b, M0, M0);
    assert_eq!(b.result(), None);
    go(&mut b, M0, M0);
    assert_eq!(b.result(), Some(BattleResult::Ran));
    assert!(texts(&mut b).contains(&"Enemy RATTATA ran away scared!".to_string()));
    drained(&b);
}

#[test]
fn recover_fails_at_a_255_or_511_deficit_and_rest_sleeps_two_turns() {
    let mut p = fast("CHANSEY", &["SOFTBOILED", "REST"]);
    set_stats(&mut p, 300, 100, 100, 200, 100);
    p.hp = 45; // deficit 255
    let mut b = wild(vec![p], vec![slow("PIDGEY", &["SPLASH"])], &[]);
    go(&mut b, M0, M0);
    assert_eq!(texts(&mut b)[1], "But, it failed!");
    b.sides[0].party[0].hp = 44; // deficit 256 heals 150
    go(&mut b, M0, M0);
    assert_eq!(b.active(Side::Player).hp, 194);
    drained(&b);
    let mut p = fast("CHANSEY", &["SOFTBOILED"]);
    set_stats(&mut p, 600, 100, 100, 200, 100);
    p.hp = 89; // deficit 511
    let mut b = wild(vec![p], vec![slow("PIDGEY", &["SPLASH"])], &[]);
    go(&mut b, M0, M0);
    assert_eq!(b.active(Side::Player).hp, 89);
    // Rest: full HP, status replaced by two turns of sleep.
    let mut p = fast("SNORLAX", &["REST"]);
    p.hp = 10;
    p.status = Status::Poison;
    let mut b = wild(vec![p], vec![slow("PIDGEY", &["SPLASH"])], &[]);
    go(&mut b, M0, M0);
    assert_eq!(b.active(Side::Player).hp, 150);
    assert_eq!(status_of(&b, Side::Player), Status::Sleep(2));
    assert_eq!(texts(&mut b)[1], "SNORLAX fell asleep and became healthy!");
    drained(&b);
}

#[test]
fn jump_kick_crashes_for_one() {
    let mut b = wild(
        vec![fast("HITMONLEE", &["HI JUMP KICK"])],
        vec![slow("RATTATA", &["SPLASH"])],
        &[NO_CRIT, factor(255), MISS],
    );
    go(&mut b, M0, M0);
    assert_eq!(b.active(Side::Player).hp, 149);
    assert_eq!(texts(&mut b)[2], "HITMONLEE kept going and crashed!");
    drained(&b);
}

#[test]
fn flinch_only_when_moving_first() {
    // Bite's 10% (26): 25 flinches the slower target.
    let mut b = wild(
        vec![fast("RATTATA", &["BITE"])],
        vec![slow("PIDGEY", &["TACKLE"])],
        &[NO_CRIT, factor(255), HIT, 25],
    );
    go(&mut b, M0, M0);
    assert_eq!(texts(&mut b)[1], "Enemy PIDGEY flinched!");
    drained(&b);
}

#[test]
fn screens_mist_focus_energy_fail_when_already_up() {
    let mut b = wild(
        vec![fast(
            "MR MIME",
            &["REFLECT", "LIGHT SCREEN", "FOCUS ENERGY"],
        )],
        vec![slow("PIDGEY", &["SPLASH"])],
        &[],
    );
    for a in [M0, M0, M1, M1, Action::Move(2), Action::Move(2)] {
        go(&mut b, a, M0);
    }
    let t = texts(&mut b);
    assert_eq!(t.iter().filter(|l| *l == "But, it failed!").count(), 3);
    assert!(t.contains(&"MR.MIME gained armor!".to_string()));
    assert!(b.side(Side::Player).screens.reflect && b.side(Side::Player).screens.light_screen);
    drained(&b);
}

#[test]
fn side_effect_stat_drop_chance() {
    // Bubble's 33% (85): 84 lowers Speed.
    let mut b = wild(
        vec![fast("SQUIRTLE", &["BUBBLE"])],
        vec![slow("RATTATA", &["SPLASH"])],
        &[NO_CRIT, factor(255), HIT, 84],
    );
    go(&mut b, M0, M0);
    assert_eq!(b.battler(Side::Enemy).stages[2], 6);
    drained(&b);
}

#[test]
fn two_to_five_distribution_is_3_3_1_1_eighths() {
    // Every pair of bytes, weighted as the cartridge draws them: the second byte only matters
    // when the first gave 2 or 3.
    let mut counts = [0u32; 4];
    let mut b = wild(
        vec![fast("RATTATA", &["SPLASH"])],
        vec![slow("PIDGEY", &["SPLASH"])],
        &[],
    );
    for b1 in 0..=255u8 {
        for b2 in 0..=255u8 {
            b.rng.push(&[b1, b2]);
            let r = b.two_to_five_roll();
            counts[usize::from(r)] += 1;
            if !b.rng().remaining().is_empty() {
                b.rng.byte(); // the second byte was not needed
            }
        }
    }
    drained(&b);
    let total: u32 = counts.iter().sum();
    assert_eq!(total, 65536);
    assert_eq!(counts.map(|c| c * 8 / total), [3, 3, 1, 1]);
    assert_eq!(counts, [24576, 24576, 8192, 8192]);
}

#[test]
fn light_screen_doubles_special_and_dream_eater_drains_a_sleeper() {
    // Dream Eater (100, Psychic; no STAB for Ghost/Poison Gastly) on a sleeping target behind
    // Light Screen: special 100 x2 = 200: 22*100 = 2200; *100/200 = 1100; /50 = 22;
    // +2 = 24; factor 255: 24; heals 12.
    let mut p = fast("GASTLY", &["DREAM EATER"]);
    p.hp = 100;
    let mut e = slow("RATTATA", &["SPLASH"]);
    e.status = Status::Sleep(5);
    let mut b = wild(vec![p], vec![e], &[NO_CRIT, factor(255), HIT]);
    b.sides[1].screens.light_screen = true;
    go(&mut b, M0, C);
    assert_eq!(b.active(Side::Enemy).hp, 160 - 24);
    assert_eq!(b.active(Side::Player).hp, 112);
    assert!(texts(&mut b).contains(&"Enemy RATTATA's dream was eaten!".to_string()));
    drained(&b);
}
