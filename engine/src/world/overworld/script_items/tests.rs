//! Script rows `choice`, `check_item`, `take_item`, `start_battle`: the box answered with
//! A/B/cursor, the bag read and changed, the battle's outcome, the condition feeding
//! `jump_if_true`/`jump_if_false`.

use super::super::Screen;
use crate::save::data::ItemStack;
use crate::world::presentation::PresentationRow;
use crate::world::script::{Script, ScriptRow};
use crate::world::tests::H;
use crate::world::*;

use Direction::Up;

fn branch(first: ScriptRow) -> Vec<ScriptRow> {
    vec![
        first,
        ScriptRow::JumpIfFalse { label: "no".into() },
        ScriptRow::SetFlag { flag: "YES".into() },
        ScriptRow::End,
        ScriptRow::Label { name: "no".into() },
        ScriptRow::SetFlag { flag: "NO".into() },
    ]
}

fn choice() -> ScriptRow {
    ScriptRow::Choice {
        options: vec!["SURE".into(), "NO THANKS".into()],
    }
}

fn run(h: &mut H, rows: Vec<ScriptRow>) {
    h.with_ctx(|ow, _| ow.queue_script(Script::new("test", rows)).unwrap());
    h.step(Input::None);
}

fn answered(h: &H) -> (bool, bool) {
    (h.flags.contains("YES"), h.flags.contains("NO"))
}

#[test]
fn a_choice_waits_and_a_answers_yes() {
    let mut h = H::red("PALLET_TOWN", 10, 8, Up, &[]);
    run(&mut h, branch(choice()));
    assert!(matches!(
        h.ow.screen(),
        Some(Screen::Choice { cursor: 0, .. })
    ));
    assert!(h.rows().contains(&&PresentationRow::ChoiceOpened {
        options: vec!["SURE".into(), "NO THANKS".into()]
    }));
    for _ in 0..5 {
        h.step(Input::None);
    }
    assert_eq!(
        answered(&h),
        (false, false),
        "the script waits for an answer"
    );
    h.step(Input::A);
    h.until_idle(Input::None);
    assert_eq!(answered(&h), (true, false));
}

#[test]
fn b_answers_no_and_the_cursor_moves() {
    let mut h = H::red("PALLET_TOWN", 10, 8, Up, &[]);
    run(&mut h, branch(choice()));
    h.step(Input::B);
    h.until_idle(Input::None);
    assert_eq!(answered(&h), (false, true));

    let mut h = H::red("PALLET_TOWN", 10, 8, Up, &[]);
    run(&mut h, branch(choice()));
    h.step(Input::Down);
    h.step(Input::Down);
    assert!(matches!(
        h.ow.screen(),
        Some(Screen::Choice { cursor: 1, .. })
    ));
    h.step(Input::A);
    h.until_idle(Input::None);
    assert_eq!(answered(&h), (false, true));
    assert_eq!(h.ow.map_id(), "PALLET_TOWN");
}

#[test]
fn check_item_reads_the_bag_with_a_count() {
    let mut h = H::red("PALLET_TOWN", 10, 8, Up, &[]);
    h.bag.push(ItemStack {
        id: "POTION".into(),
        count: 2,
    });
    run(
        &mut h,
        branch(ScriptRow::CheckItem {
            item: "POTION".into(),
            count: 2,
        }),
    );
    h.until_idle(Input::None);
    assert_eq!(answered(&h), (true, false));

    let mut h = H::red("PALLET_TOWN", 10, 8, Up, &[]);
    h.bag.push(ItemStack {
        id: "POTION".into(),
        count: 2,
    });
    run(
        &mut h,
        branch(ScriptRow::CheckItem {
            item: "POTION".into(),
            count: 3,
        }),
    );
    h.until_idle(Input::None);
    assert_eq!(answered(&h), (false, true));
    assert_eq!(h.bag[0].count, 2, "check_item never changes the bag");
}

#[test]
fn take_item_removes_or_fails_cleanly() {
    let mut h = H::red("PALLET_TOWN", 10, 8, Up, &[]);
    h.bag.push(ItemStack {
        id: "POTION".into(),
        count: 3,
    });
    let take = |count| ScriptRow::TakeItem {
        item: "POTION".into(),
        count,
    };
    run(&mut h, branch(take(2)));
    h.until_idle(Input::None);
    assert_eq!(answered(&h), (true, false));
    assert_eq!(
        h.bag,
        vec![ItemStack {
            id: "POTION".into(),
            count: 1
        }]
    );

    h.flags.clear();
    run(&mut h, branch(take(1)));
    h.until_idle(Input::None);
    assert_eq!(answered(&h), (true, false));
    assert!(h.bag.is_empty(), "an emptied stack leaves the bag");

    h.flags.clear();
    run(&mut h, branch(take(1)));
    h.until_idle(Input::None);
    assert_eq!(
        answered(&h),
        (false, true),
        "absent: the condition is cleared"
    );
    assert!(h.bag.is_empty());
    assert!(h
        .ow
        .diagnostics()
        .iter()
        .any(|d| d.contains("take_item") && d.contains("POTION")));
}

#[test]
fn literal_texts_name_the_player_and_the_rival() {
    use crate::world::presentation::TextRef;
    let mut h = H::red("PALLET_TOWN", 10, 8, Up, &[]);
    run(
        &mut h,
        vec![ScriptRow::Say {
            literal: "{PLAYER} got it!\n{RIVAL} is mad. {OTHER}".into(),
        }],
    );
    assert!(
        h.rows().contains(&&PresentationRow::TextOpened {
            text: TextRef::Literal("RED got it!\nBLUE is mad. {OTHER}".into())
        }),
        "{:?}",
        h.rows()
    );
}

#[test]
fn start_battle_waits_until_the_game_reports_the_outcome() {
    use crate::world::script::Gift;
    for won in [true, false] {
        let mut h = H::red("PALLET_TOWN", 10, 8, Up, &[]);
        let start = ScriptRow::StartBattle {
            class: "OPP_TUTOR".into(),
            index: 0,
        };
        run(&mut h, branch(start));
        assert_eq!(
            h.ow.take_gifts(),
            vec![Gift::TrainerBattle {
                class: "OPP_TUTOR".into(),
                index: 0
            }]
        );
        for _ in 0..5 {
            h.step(Input::None);
        }
        assert_eq!(
            answered(&h),
            (false, false),
            "the script waits for the battle"
        );
        h.ow.battle_finished(won);
        h.until_idle(Input::None);
        assert_eq!(answered(&h), (won, !won));
    }
}

#[test]
fn battle_finished_leaves_a_script_that_waits_for_something_else() {
    let mut h = H::red("PALLET_TOWN", 10, 8, Up, &[]);
    run(&mut h, branch(choice()));
    h.ow.battle_finished(true);
    for _ in 0..3 {
        h.step(Input::None);
    }
    assert_eq!(answered(&h), (false, false), "the choice still waits");
    h.step(Input::B);
    h.until_idle(Input::None);
    assert_eq!(answered(&h), (false, true));
}
