//! "Did you mean …?" for every name a user or mod types, in every crate (hook, event and
//! registry names, handle methods, option keys, CLI values, species, items, maps, objects):
//! the closest candidate by Jaro–Winkler similarity (`strsim`), compared case-insensitively,
//! offered only when it is close enough to be a plausible typo.

/// The closest of `candidates` to `typed`, if any is close enough.
pub fn closest<'a, I, S>(typed: &str, candidates: I) -> Option<String>
where
    I: IntoIterator<Item = S>,
    S: AsRef<str> + 'a,
{
    let typed_l = typed.to_ascii_lowercase();
    let mut best: Option<(f64, String)> = None;
    for c in candidates {
        let c = c.as_ref();
        if c == typed {
            continue;
        }
        let score = strsim::jaro_winkler(&typed_l, &c.to_ascii_lowercase());
        if score >= 0.8 && best.as_ref().is_none_or(|(s, _)| score > *s) {
            best = Some((score, c.to_owned()));
        }
    }
    best.map(|(_, c)| c)
}

/// `" (did you mean \"x\"?)"`, or an empty string when nothing is close.
pub fn did_you_mean<'a, I, S>(typed: &str, candidates: I) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<str> + 'a,
{
    closest(typed, candidates)
        .map(|c| format!(" (did you mean {c:?}?)"))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn close_names_are_offered_far_ones_are_not() {
        assert_eq!(
            closest("exp.gian", ["exp.gain", "encounter.roll"]).as_deref(),
            Some("exp.gain")
        );
        assert_eq!(closest("zzzz", ["exp.gain"]), None);
        assert_eq!(
            did_you_mean("wrapp", ["wrap", "has"]),
            " (did you mean \"wrap\"?)"
        );
        assert_eq!(did_you_mean("wrap", ["wrap"]), "");
    }
}
