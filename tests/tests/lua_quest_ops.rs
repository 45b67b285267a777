//! Issue 18: the map-script ops quest packs use — `choice`, `check_item`, `take_item`,
//! `give_money`, `emote`, `start_battle` (trainer and wild) — run from original fixture mods
//! (`tests/fixtures/lua_mods/shape-fetch-quest`, `shape-tutor-battle`, `shape-wild-ambush`) through
//! `pallet run --mods`, answered from the scenario language.

mod lua_support;

use lua_support::{lua_fixture, run_mods};
use pallet_script_host::cli::cmd_run::RunOutcome;

fn run(scenario: &str) -> RunOutcome {
    run_mods(vec![lua_fixture("shape-fetch-quest")], scenario)
}

fn count(o: &RunOutcome, id: &str) -> u32 {
    o.game
        .save
        .inventory
        .iter()
        .filter(|s| s.id == id)
        .map(|s| s.count)
        .sum()
}

/// Walk next to MOM (new-game start) and talk; `close` stops at the choice box.
const ASK: &str = "walk right 1\ntalk\nclose\n";

#[test]
fn b_refuses_and_a_accepts_the_quest() {
    let o = run(&format!("{ASK}expect busy screen_busy\npress b\nclose\n"));
    let t = &o.transcript;
    assert!(o.failed_mods.is_empty(), "{t}");
    assert!(t.contains("[choice] OK / NOPE"), "{t}");
    assert!(t.contains("[chose 2] no"), "{t}");
    assert!(t.contains("Maybe later."), "{t}");
    assert!(o.game.save.flags.contains("MOD_FETCH_REFUSED"), "{t}");
    assert!(!o.game.save.flags.contains("MOD_FETCH_STARTED"), "{t}");

    let o = run(&format!("{ASK}press a\nclose\n"));
    let t = &o.transcript;
    assert!(t.contains("[chose 1] yes"), "{t}");
    assert!(t.contains("Thank you, dear!"), "{t}");
    assert!(o.game.save.flags.contains("MOD_FETCH_STARTED"), "{t}");
    assert!(!o.game.save.flags.contains("MOD_FETCH_REFUSED"), "{t}");
}

#[test]
fn the_cursor_moves_to_no() {
    let o = run(&format!("{ASK}press down\npress a\nclose\n"));
    assert!(
        o.game.save.flags.contains("MOD_FETCH_REFUSED"),
        "{}",
        o.transcript
    );
}

#[test]
fn check_item_and_take_item_settle_the_trade() {
    let o = run(&format!(
        "{ASK}press a\nclose\n\
         bag POTION 1\ntalk\nclose\n\
         bag POTION 2\ntalk\nclose\n\
         talk\nclose\n"
    ));
    let t = &o.transcript;
    // One POTION is not enough: reminded, nothing taken.
    assert!(t.contains("Still two POTIONs"), "{t}");
    // Three: two taken, the candy given, the quest done.
    // `{PLAYER}` in a literal text reads the save's name.
    let named = format!("Two POTIONs! Here, / {}, a candy.", o.game.save.player.name);
    assert!(t.contains(&named), "{t}");
    assert!(!t.contains("{PLAYER}"), "{t}");
    assert!(t.contains("Thanks again!"), "{t}");
    assert!(o.game.save.flags.contains("MOD_FETCH_DONE"), "{t}");
    assert_eq!(count(&o, "POTION"), 1, "{t}");
    assert_eq!(count(&o, "RARE_CANDY"), 1, "{t}");
    // `give_money` adds to the purse (a refused quest gives nothing), `emote` shows its row.
    let refused = run(&format!("{ASK}press b\nclose\n"));
    assert_eq!(o.game.save.money, refused.game.save.money + 500, "{t}");
    assert!(t.contains("player: happy"), "{t}");
}

fn run_tutor(scenario: &str) -> RunOutcome {
    run_mods(vec![lua_fixture("shape-tutor-battle")], scenario)
}

/// Talk to MOM, read her challenge, fight with `choice`, then close what follows.
fn tutor(mon: &str, choice: &str) -> RunOutcome {
    run_tutor(&format!(
        "give {mon}\nwalk right 1\ntalk\nclose\nbattle {choice}\nclose\nexpect battle none\n"
    ))
}

#[test]
fn start_battle_waits_for_the_battle_and_a_win_sets_the_condition() {
    let won = tutor("MEWTWO 70", "auto");
    let t = &won.transcript;
    assert!(won.failed_mods.is_empty(), "{t}");
    let battle = t.find("battle ended: win").expect("a won battle");
    let praise = t.find("You won, dear!").expect("the win row ran");
    assert!(battle < praise, "the script waited for the battle:\n{t}");
    assert!(won.game.save.flags.contains("MOD_TUTOR_WON"), "{t}");
    // A second talk takes the `after` branch.
    let again =
        run_tutor("give MEWTWO 70\nwalk right 1\ntalk\nclose\nbattle auto\nclose\ntalk\nclose\n");
    assert!(
        again.transcript.contains("So proud of you!"),
        "{}",
        again.transcript
    );
}

fn ambush(scenario: &str) -> RunOutcome {
    run_mods(vec![lua_fixture("shape-wild-ambush")], scenario)
}

#[test]
fn start_battle_wild_waits_and_a_win_or_a_run_picks_the_branch() {
    let won = ambush(
        "give MEWTWO 70\nwalk right 1\ntalk\nclose\nbattle auto\nclose\nexpect battle none\n",
    );
    let t = &won.transcript;
    assert!(won.failed_mods.is_empty(), "{t}");
    let battle = t.find("battle ended: win").expect("a won wild battle");
    let praise = t.find("My hero! Take this.").expect("the win branch ran");
    assert!(battle < praise, "the script waited for the battle:\n{t}");
    assert!(won.game.save.flags.contains("MOD_AMBUSH_DONE"), "{t}");

    let ran = ambush("give MEWTWO 70\nwalk right 1\ntalk\nclose\nbattle run\nclose\n");
    let t = &ran.transcript;
    let battle = t.find("battle ended: ran").expect("the player ran");
    let sorry = t
        .find("It's still in here...")
        .expect("the lost branch ran");
    assert!(battle < sorry, "{t}");
    assert!(!ran.game.save.flags.contains("MOD_AMBUSH_DONE"), "{t}");
    assert_eq!(ran.game.save.money + 200, won.game.save.money, "{t}");
}

#[test]
fn start_battle_wild_without_a_healthy_party_goes_on_at_once() {
    // No party: the battle cannot start; the script takes the lost branch, nothing waits.
    let o = ambush("walk right 1\ntalk\nclose\nclose\n");
    let t = &o.transcript;
    assert!(t.contains("the battle is skipped"), "{t}");
    assert!(o.game.battle().is_none(), "{t}");
    assert!(t.contains("It's still in here..."), "{t}");
}
