//! The script rows that ask the player or the bag: the `choice` box (its screen and input)
//! and the bag reads/changes of `check_item` / `take_item`.

use super::Screen;
use super::{Overworld, WorldCtx};
use crate::world::presentation::PresentationRow;
use crate::world::types::Input;

/// The bag id an item name of a script row stands for (the dataset's id, else the name).
fn bag_id(ctx: &WorldCtx<'_>, item: &str) -> String {
    ctx.data
        .item_by_name(item)
        .map(|n| ctx.data.item(n).id.to_owned())
        .unwrap_or_else(|| item.to_owned())
}

/// A literal script text with `{PLAYER}` and `{RIVAL}` replaced by the save's names (as the
/// Lua engine's runner does for mod texts); a text without `{` is returned as is.
pub(super) fn with_names(literal: String, (player, rival): (&str, &str)) -> String {
    if !literal.contains('{') {
        return literal;
    }
    literal
        .replace("{PLAYER}", player)
        .replace("{RIVAL}", rival)
}

/// How many of `item` the bag holds.
pub(super) fn bag_count(ctx: &WorldCtx<'_>, item: &str) -> u32 {
    let id = bag_id(ctx, item);
    ctx.bag
        .iter()
        .filter(|s| s.id == id)
        .map(|s| s.count)
        .fold(0, u32::saturating_add)
}

/// Remove `count` of `item`; `false` (bag untouched) when it holds fewer.
pub(super) fn take_from_bag(ctx: &mut WorldCtx<'_>, item: &str, count: u32) -> bool {
    if bag_count(ctx, item) < count {
        return false;
    }
    let id = bag_id(ctx, item);
    let mut left = count;
    for s in ctx.bag.iter_mut().filter(|s| s.id == id) {
        let n = s.count.min(left);
        s.count -= n;
        left -= n;
    }
    ctx.bag.retain(|s| s.count > 0);
    ctx.show(PresentationRow::Note {
        text: format!("gave away {id} x{count}"),
    });
    true
}

impl Overworld {
    /// Set the running script's condition (`check_flag`, `check_item`, `choice`, …).
    pub(super) fn set_cond(&mut self, on: bool) {
        if let Some(r) = self.runner.current.as_mut() {
            r.cond = on;
        }
    }

    /// The battle a `start_battle` row waits for ended (`won`), or did not start: the row's
    /// condition is set to `won` and the script goes on. Nothing happens when no script waits
    /// for a battle (a trainer's sight script does not).
    pub fn battle_finished(&mut self, won: bool) {
        self.battle_finished_as(won, if won { "win" } else { "" });
    }

    /// [`battle_finished`](Self::battle_finished) with the battle's result string (`"win"`,
    /// `"lose"`, `"ran"`, `"caught"`, …; empty: it did not start), kept for
    /// `check_battle_result`.
    pub fn battle_finished_as(&mut self, won: bool, result: &str) {
        if let Some(r) = self.runner.current.as_mut() {
            if r.wait == Some(crate::world::script::RowWait::Battle) {
                r.battle_result = (!result.is_empty()).then(|| result.to_owned());
            }
        }
        if let Some(r) = self.runner.current.as_mut() {
            if r.wait == Some(crate::world::script::RowWait::Battle) {
                r.wait = None;
                r.cond = won;
            }
        }
    }

    /// Queue a choice box; returns its id. An empty option list reads as YES/NO.
    pub(super) fn open_choice(&mut self, options: Vec<String>, ctx: &mut WorldCtx<'_>) -> u64 {
        let options = if options.is_empty() {
            vec!["YES".to_owned(), "NO".to_owned()]
        } else {
            options
        };
        let id = self.next_screen_id;
        self.next_screen_id += 1;
        if self.screens.is_empty() {
            ctx.show(PresentationRow::ChoiceOpened {
                options: options.clone(),
            });
        }
        self.screens.push_back(Screen::Choice {
            id,
            options,
            cursor: 0,
        });
        id
    }

    /// Input on an open choice box: up/down move the cursor, A answers the highlighted
    /// option, B answers the last one ("no").
    pub(super) fn choice_input(&mut self, input: Input, ctx: &mut WorldCtx<'_>) {
        let Some(Screen::Choice {
            options, cursor, ..
        }) = self.screens.front_mut()
        else {
            return;
        };
        let last = options.len().saturating_sub(1);
        let answer = match input {
            Input::Up => {
                *cursor = cursor.saturating_sub(1);
                None
            }
            Input::Down => {
                *cursor = (*cursor + 1).min(last);
                None
            }
            Input::A => Some(*cursor),
            Input::B => Some(last),
            _ => None,
        };
        let Some(index) = answer else {
            return;
        };
        self.screens.pop_front();
        let yes = index == 0;
        ctx.show(PresentationRow::ChoiceMade { index, yes });
        self.set_cond(yes);
        match self.screens.front() {
            Some(Screen::Text { text, .. }) => {
                ctx.show(PresentationRow::TextOpened { text: text.clone() })
            }
            Some(Screen::Choice { options, .. }) => ctx.show(PresentationRow::ChoiceOpened {
                options: options.clone(),
            }),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests;
