//! Name normalization for dataset lookups (`"Mr. Mime"`, `"MR_MIME"` and `"mrmime"` are one name).
//!
//! The generated name indexes store keys already normalized and sorted by byte value, so a
//! lookup is a binary search that normalizes the query on the fly, without allocating.

use std::cmp::Ordering;

/// Normalizes one character: ASCII letters and digits (upper-cased), `♀`→`F`, `♂`→`M`,
/// accented `e`→`E`; every other character (spaces, punctuation, `_`) is dropped.
fn normalize_char(c: char) -> Option<u8> {
    match c {
        'a'..='z' | 'A'..='Z' | '0'..='9' => Some(c.to_ascii_uppercase() as u8),
        '♀' => Some(b'F'),
        '♂' => Some(b'M'),
        'é' | 'è' | 'ê' | 'ë' | 'É' | 'È' | 'Ê' | 'Ë' => Some(b'E'),
        _ => None,
    }
}

fn normalized_bytes(s: &str) -> impl Iterator<Item = u8> + '_ {
    s.chars().filter_map(normalize_char)
}

/// Upper-case ASCII alphanumerics only (`♀`→`F`, `♂`→`M`, `é`→`E`): `"Mr. Mime"` → `"MRMIME"`.
pub fn normalize_name(s: &str) -> String {
    normalized_bytes(s).map(char::from).collect()
}

/// Compares a stored (already normalized) key with a raw query as if the query were normalized.
fn cmp_key(key: &str, query: &str) -> Ordering {
    key.bytes().cmp(normalized_bytes(query))
}

/// Looks `query` up in a generated, sorted `(normalized key, id)` index. Allocation-free.
pub(crate) fn lookup(index: &[(&str, u16)], query: &str) -> Option<u16> {
    normalized_bytes(query).next()?;
    index
        .binary_search_by(|(key, _)| cmp_key(key, query))
        .ok()
        .map(|i| index[i].1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalizes_punctuation_case_and_symbols() {
        assert_eq!(normalize_name("Mr. Mime"), "MRMIME");
        assert_eq!(normalize_name("MR_MIME"), "MRMIME");
        assert_eq!(normalize_name("mrmime"), "MRMIME");
        assert_eq!(normalize_name("NIDORAN♀"), "NIDORANF");
        assert_eq!(normalize_name("Nidoran ♂"), "NIDORANM");
        assert_eq!(normalize_name("Farfetch'd"), "FARFETCHD");
        assert_eq!(normalize_name("POKé BALL"), "POKEBALL");
        assert_eq!(normalize_name("Thunder Shock"), "THUNDERSHOCK");
        assert_eq!(normalize_name("  --  "), "");
    }

    #[test]
    fn lookup_matches_only_exact_normalized_keys() {
        let index = [("ABC", 1), ("ABD", 2), ("B", 3)];
        assert_eq!(lookup(&index, "a.b c"), Some(1));
        assert_eq!(lookup(&index, "abd"), Some(2));
        assert_eq!(lookup(&index, "b"), Some(3));
        assert_eq!(lookup(&index, "ab"), None);
        assert_eq!(lookup(&index, "abcd"), None);
        assert_eq!(lookup(&index, ""), None);
        assert_eq!(lookup(&index, "!!"), None);
    }
}
