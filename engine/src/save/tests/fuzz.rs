//! Fuzz-style property tests: the loader never panics on any bytes.

use proptest::prelude::*;

use super::*;
use crate::save::codec::{decode, encode};
use crate::save::validate::validate;

/// Decode; when that succeeds, the rest of the load path must not panic either.
fn load_path(bytes: &[u8]) {
    if let Ok(mut s) = decode(bytes) {
        let _ = validate(&mut s, &env());
        let _ = encode(&s);
        let _ = s.party_mons(gen1());
        let _ = s.box_mons(gen1());
    }
}

#[derive(Debug, Clone)]
enum Mutation {
    Flip(usize, u8),
    Truncate(usize),
    Insert(usize, Vec<u8>),
    Delete(usize, usize),
}

fn apply(bytes: &mut Vec<u8>, m: &Mutation) {
    let n = bytes.len().max(1);
    match m {
        Mutation::Flip(i, x) => {
            let i = i % n;
            if let Some(b) = bytes.get_mut(i) {
                *b ^= x | 1;
            }
        }
        Mutation::Truncate(i) => bytes.truncate(i % n),
        Mutation::Insert(i, v) => {
            let i = i % n;
            bytes.splice(i.min(bytes.len())..i.min(bytes.len()), v.iter().copied());
        }
        Mutation::Delete(i, len) => {
            let start = (i % n).min(bytes.len());
            let end = (start + len % 16).min(bytes.len());
            bytes.drain(start..end);
        }
    }
}

fn arb_mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(i, x)| Mutation::Flip(i, x)),
        any::<usize>().prop_map(Mutation::Truncate),
        (
            any::<usize>(),
            prop::sample::select(vec![
                b"[".to_vec(),
                b"{".to_vec(),
                b"\"".to_vec(),
                b"-1".to_vec(),
                b"99999999999999999999999".to_vec(),
                b"null".to_vec(),
                b"1e309".to_vec(),
                b",".to_vec(),
                b"\\u0000".to_vec(),
                vec![0xff, 0xc0],
            ])
        )
            .prop_map(|(i, v)| Mutation::Insert(i, v)),
        (any::<usize>(), any::<usize>()).prop_map(|(i, l)| Mutation::Delete(i, l)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        load_path(&bytes);
        // Also behind a valid header, so the JSON parser and the schema see the garbage.
        let mut with_header = b"PALLET-SAVE 1\n".to_vec();
        with_header.extend_from_slice(&bytes);
        load_path(&with_header);
    }

    #[test]
    fn mutated_saves_never_panic(
        base in super::roundtrip::arb_vanilla_save(),
        mutations in prop::collection::vec(arb_mutation(), 1..6),
    ) {
        let mut bytes = encode(&base).expect("encode");
        for m in &mutations {
            apply(&mut bytes, m);
        }
        load_path(&bytes);
    }
}

#[test]
fn deeply_nested_json_is_an_error_not_a_stack_overflow() {
    let mut bytes = b"PALLET-SAVE 1\n".to_vec();
    bytes.extend(std::iter::repeat_n(b'[', 100_000));
    assert!(decode(&bytes).is_err());
    // Inside modData, past the recursion limit.
    let text = String::from_utf8(encode(&vanilla_save()).unwrap()).unwrap();
    let deep = format!("{}{}", "[".repeat(5000), "]".repeat(5000));
    let patched = text.replacen(
        "\"modData\": {",
        &format!("\"modData\": {{\n    \"deep\": {deep},"),
        1,
    );
    assert!(decode(patched.as_bytes()).is_err());
}
