//! What translation mods change in the texts the game shows: the overridden records of the
//! `strings` and `text` registries (issue 18 item 8), applied when a front end renders a line.
//!
//! * Map texts (`TextRef::Const`) read the merged `text` registry directly (the compiled
//!   [`MapSet`](super::MapSet) texts).
//! * A literal text box line (a mod's `show_text`) is replaced when `strings` has an override
//!   for exactly that line.
//! * A battle line is matched against [`CATALOG`]: Pallet's English format of the message, the
//!   Lua engine's `text` label for it (with the placeholders its text uses, one per `{}`) and/or
//!   its `strings` source string (with `%s`/`%d`, in order). A `text` override wins over a
//!   `strings` override; a name argument spelled `Enemy X` is itself translated through the
//!   `"Enemy %s"` string. Text codes (`\n`, `\x0b`, `\x0c`) become spaces (battle lines are one
//!   line in the feed).
//!
//! Nothing is looked up while no translation mod is loaded ([`Translations::is_empty`]).

use std::collections::BTreeMap;

/// One battle message: Pallet's English format (`{}` per argument), the Lua engine's `text`
/// label with the placeholder each argument fills, and its `strings` source string.
pub struct CatalogEntry {
    pub format: &'static str,
    pub text: Option<(&'static str, &'static [&'static str])>,
    pub strings: Option<&'static str>,
}

const fn t(
    format: &'static str,
    label: &'static str,
    args: &'static [&'static str],
) -> CatalogEntry {
    CatalogEntry {
        format,
        text: Some((label, args)),
        strings: None,
    }
}

const fn s(format: &'static str, source: &'static str) -> CatalogEntry {
    CatalogEntry {
        format,
        text: None,
        strings: Some(source),
    }
}

const USER: &[&str] = &["USER"];
const TARGET: &[&str] = &["TARGET"];

/// The battle messages a translation reaches, in match order (the first format that matches a
/// line is used, so a more specific format comes first).
pub const CATALOG: &[CatalogEntry] = &[
    t(
        "Wild {} appeared!",
        "_WildMonAppearedText",
        &["RAM:wEnemyMonNick"],
    ),
    t(
        "{} wants to fight!",
        "_TrainerWantsToFightText",
        &["RAM:wTrainerName"],
    ),
    t("Critical hit!", "_CriticalHitText", &[]),
    t("One-hit KO!", "_OHKOText", &[]),
    t("It's super effective!", "_SuperEffectiveText", &[]),
    t("It's not very effective...", "_NotVeryEffectiveText", &[]),
    t("{}'s attack missed!", "_AttackMissedText", USER),
    t("It doesn't affect {}!", "_DoesntAffectMonText", TARGET),
    t("{} is unaffected!", "_UnaffectedText", TARGET),
    t(
        "Enemy {} fainted!",
        "_EnemyMonFaintedText",
        &["RAM:wEnemyMonNick"],
    ),
    t(
        "{} fainted!",
        "_PlayerMonFaintedText",
        &["RAM:wBattleMonNick"],
    ),
    t("{} is fast asleep!", "_FastAsleepText", USER),
    t("{} woke up!", "_WokeUpText", USER),
    t("{} is frozen solid!", "_IsFrozenText", USER),
    t("{}'s fully paralyzed!", "_FullyParalyzedText", USER),
    t("{} flinched!", "_FlinchedText", USER),
    t("{} must recharge!", "_MustRechargeText", USER),
    t("{}'s disabled no more!", "_DisabledNoMoreText", USER),
    t("{} is confused!", "_IsConfusedText", USER),
    t("{}'s confused no more!", "_ConfusedNoMoreText", USER),
    t("It hurt itself in its confusion!", "_HurtItselfText", &[]),
    t("{} can't move!", "_CantMoveText", USER),
    t("{}'s hurt by poison!", "_HurtByPoisonText", USER),
    t("{}'s hurt by the burn!", "_HurtByBurnText", USER),
    t("{} fell asleep!", "_FellAsleepText", TARGET),
    t("{}'s already asleep!", "_AlreadyAsleepText", TARGET),
    t("{} was poisoned!", "_PoisonedText", TARGET),
    t("{}'s badly poisoned!", "_BadlyPoisonedText", TARGET),
    t("{} was burned!", "_BurnedText", TARGET),
    t("{} was frozen solid!", "_FrozenText", TARGET),
    t("{} became confused!", "_BecameConfusedText", TARGET),
    t("{} ran away scared!", "_RanAwayScaredText", TARGET),
    t("Nothing happened!", "_NothingHappenedText", &[]),
    t("But, it failed!", "_ButItFailedText", &[]),
    s("{} used {}!", "%s used\n%s!"),
    s("{} gained {} EXP. Points!", "%s gained\n%d EXP. Points!"),
    s("{} grew to level {}!", "%s grew\nto level %d!"),
    s("{} learned {}!", "%s learned\n%s!"),
    s("{} blacked out!", "%s blacked\nout!"),
    s("Go! {}!", "Go! %s!"),
    s("{} sent out {}!", "%s sent\nout %s!"),
];

/// The source string of the enemy prefix on a battler's name.
pub const ENEMY_SOURCE: &str = "Enemy %s";
const ENEMY_PREFIX: &str = "Enemy ";

/// The base records of the `strings` registry: every source string Pallet shows, to itself.
pub fn base_strings() -> BTreeMap<String, String> {
    CATALOG
        .iter()
        .filter_map(|e| e.strings)
        .chain(std::iter::once(ENEMY_SOURCE))
        .map(|k| (k.to_owned(), k.to_owned()))
        .collect()
}

/// The base records of the `text` registry for battle messages: each label to Pallet's English
/// with the label's placeholders (`"{USER}'s attack missed!"`).
pub fn base_battle_texts() -> BTreeMap<String, String> {
    CATALOG
        .iter()
        .filter_map(|e| {
            let (label, args) = e.text?;
            let mut out = String::new();
            let mut rest = e.format;
            for a in args {
                let Some(i) = rest.find("{}") else { break };
                out.push_str(&rest[..i]);
                out.push('{');
                out.push_str(a);
                out.push('}');
                rest = &rest[i + 2..];
            }
            out.push_str(rest);
            Some((label.to_owned(), out))
        })
        .collect()
}

/// The overridden `strings` and `text` records (only those that differ from the base).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Translations {
    /// Source string → shown string.
    pub strings: BTreeMap<String, String>,
    /// Text label → text (battle labels; map texts live in the map set's texts).
    pub text: BTreeMap<String, String>,
}

impl Translations {
    /// No translation loaded (every render is Pallet's English, nothing looked up).
    pub fn is_empty(&self) -> bool {
        self.strings.is_empty() && self.text.is_empty()
    }

    /// A literal text box line as shown.
    pub fn literal<'a>(&'a self, line: &'a str) -> &'a str {
        if self.strings.is_empty() {
            return line;
        }
        self.strings.get(line).map(String::as_str).unwrap_or(line)
    }

    /// A rendered battle line as shown (`None`: no translation reaches it).
    pub fn battle_line(&self, line: &str) -> Option<String> {
        if self.is_empty() {
            return None;
        }
        for e in CATALOG {
            let Some(caps) = match_format(e.format, line) else {
                continue;
            };
            if let Some((label, args)) = e.text {
                if let Some(tr) = self.text.get(label) {
                    return Some(flatten(&self.fill_named(tr, args, &caps)));
                }
            }
            if let Some(src) = e.strings {
                if let Some(tr) = self.strings.get(src) {
                    return Some(flatten(&self.fill_positional(tr, &caps)));
                }
            }
            // The format matched but only a name inside may be translated.
            let caps2: Vec<String> = caps.iter().map(|c| self.name(c)).collect();
            if caps2.iter().zip(&caps).any(|(a, b)| a != b) {
                return Some(fill_format(e.format, &caps2));
            }
            return None;
        }
        None
    }

    /// A battler's name with the enemy prefix translated (`"Enemy %s"`).
    fn name(&self, cap: &str) -> String {
        match (
            cap.strip_prefix(ENEMY_PREFIX),
            self.strings.get(ENEMY_SOURCE),
        ) {
            (Some(bare), Some(tr)) => flatten(&tr.replacen("%s", bare, 1)),
            _ => cap.to_owned(),
        }
    }

    fn fill_named(&self, tr: &str, args: &[&str], caps: &[&str]) -> String {
        let mut out = String::with_capacity(tr.len() + 16);
        let mut rest = tr;
        while let Some(open) = rest.find('{') {
            let Some(close) = rest[open..].find('}').map(|c| open + c) else {
                break;
            };
            out.push_str(&rest[..open]);
            let token = &rest[open + 1..close];
            let key = token.split(',').next().unwrap_or("").trim();
            match args.iter().position(|a| *a == key) {
                Some(i) if i < caps.len() => {
                    // The enemy's own placeholder takes the bare name.
                    if key == "RAM:wEnemyMonNick" {
                        out.push_str(caps[i]);
                    } else {
                        out.push_str(&self.name(caps[i]));
                    }
                }
                _ => out.push_str(&rest[open..=close]),
            }
            rest = &rest[close + 1..];
        }
        out.push_str(rest);
        out
    }

    fn fill_positional(&self, tr: &str, caps: &[&str]) -> String {
        let mut out = String::with_capacity(tr.len() + 16);
        let mut next = 0;
        let mut chars = tr.char_indices().peekable();
        while let Some((_, c)) = chars.next() {
            if c != '%' {
                out.push(c);
                continue;
            }
            match chars.peek().map(|(_, c)| *c) {
                Some('%') => {
                    chars.next();
                    out.push('%');
                }
                Some('s') | Some('d') => {
                    chars.next();
                    if let Some(cap) = caps.get(next) {
                        out.push_str(&self.name(cap));
                    }
                    next += 1;
                }
                _ => out.push('%'),
            }
        }
        out
    }
}

/// `format` with its `{}` filled by `caps` in order.
fn fill_format(format: &str, caps: &[String]) -> String {
    let mut out = String::new();
    let mut rest = format;
    let mut i = 0;
    while let Some(at) = rest.find("{}") {
        out.push_str(&rest[..at]);
        if let Some(c) = caps.get(i) {
            out.push_str(c);
        }
        i += 1;
        rest = &rest[at + 2..];
    }
    out.push_str(rest);
    out
}

/// Text codes to spaces, runs of spaces collapsed, ends trimmed.
fn flatten(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        let c = if matches!(c, '\n' | '\x0b' | '\x0c') {
            ' '
        } else {
            c
        };
        if c == ' ' && (out.is_empty() || out.ends_with(' ')) {
            continue;
        }
        out.push(c);
    }
    while out.ends_with(' ') {
        out.pop();
    }
    out
}

/// The arguments of `line` when it is `format` filled in (`{}` = one non-empty argument; the
/// leftmost split is taken).
pub fn match_format<'a>(format: &str, line: &'a str) -> Option<Vec<&'a str>> {
    let pieces: Vec<&str> = format.split("{}").collect();
    let (first, last) = (pieces[0], pieces[pieces.len() - 1]);
    if pieces.len() == 1 {
        return (line == format).then(Vec::new);
    }
    let body = line.strip_prefix(first)?.strip_suffix(last)?;
    let mut caps = Vec::with_capacity(pieces.len() - 1);
    let mut rest = body;
    for lit in &pieces[1..pieces.len() - 1] {
        // Each argument takes at least one character.
        let at = rest.get(1..)?.find(lit)? + 1;
        caps.push(&rest[..at]);
        rest = &rest[at + lit.len()..];
    }
    if rest.is_empty() {
        return None;
    }
    caps.push(rest);
    Some(caps)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tr(strings: &[(&str, &str)], text: &[(&str, &str)]) -> Translations {
        Translations {
            strings: strings
                .iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect(),
            text: text
                .iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect(),
        }
    }

    #[test]
    fn formats_match_and_fill() {
        assert_eq!(
            match_format("{} used {}!", "Enemy PIDGEY used GUST!"),
            Some(vec!["Enemy PIDGEY", "GUST"])
        );
        assert_eq!(match_format("Critical hit!", "Critical hit!"), Some(vec![]));
        assert_eq!(match_format("{} fainted!", " fainted!"), None);
        assert_eq!(match_format("Wild {} appeared!", "Wild appeared!"), None);
    }

    #[test]
    fn text_then_strings_then_names() {
        let t = tr(
            &[
                ("%s used\n%s!", "%s utilise\n%s!"),
                ("Enemy %s", "%s ennemi"),
            ],
            &[
                (
                    "_WildMonAppearedText",
                    "Un {RAM:wEnemyMonNick}\nsauvage apparaît!",
                ),
                ("_AttackMissedText", "L'attaque de\n{USER}\x0ba échoué!"),
            ],
        );
        assert_eq!(
            t.battle_line("Wild PIDGEY appeared!").as_deref(),
            Some("Un PIDGEY sauvage apparaît!")
        );
        assert_eq!(
            t.battle_line("Enemy PIDGEY used GUST!").as_deref(),
            Some("PIDGEY ennemi utilise GUST!")
        );
        assert_eq!(
            t.battle_line("Enemy PIDGEY's attack missed!").as_deref(),
            Some("L'attaque de PIDGEY ennemi a échoué!")
        );
        // Only the name is translated where the message itself is not.
        assert_eq!(
            t.battle_line("Enemy PIDGEY flinched!").as_deref(),
            Some("PIDGEY ennemi flinched!")
        );
        assert_eq!(t.battle_line("Got away safely!"), None);
        assert_eq!(Translations::default().battle_line("Critical hit!"), None);
    }

    #[test]
    fn base_records_name_every_catalog_entry() {
        let s = base_strings();
        assert_eq!(s.get("Enemy %s").map(String::as_str), Some("Enemy %s"));
        let t = base_battle_texts();
        assert_eq!(
            t.get("_AttackMissedText").map(String::as_str),
            Some("{USER}'s attack missed!")
        );
        for e in CATALOG {
            let n = e.format.matches("{}").count();
            if let Some((_, args)) = e.text {
                assert_eq!(args.len(), n, "{}", e.format);
            }
            if let Some(src) = e.strings {
                assert_eq!(src.matches('%').count(), n, "{}", e.format);
            }
        }
    }
}
