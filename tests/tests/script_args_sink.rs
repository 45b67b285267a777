//! The direct route of a hook's typed arguments into a script host's values (the `ValueSink`
//! stream of `pallet_api::script`) describes exactly what the `Value` route does, for every
//! catalog hook: at the api level (`args_to_sink` into the reference `ValueBuilder` against
//! `args_to_values`) and in the Rhai host (its `DynamicSink` against `Value` → `Dynamic`).
//! A catalog hook without a sample in `common/samples.rs` fails the test.

#[path = "common/samples.rs"]
#[macro_use]
mod samples;

use std::collections::BTreeSet;

use pallet_api::catalog::{self, hooks};
use pallet_api::script::{ScriptHook, ValueBuilder};
use pallet_script_host::host::convert::{from_dynamic, into_dynamic, DynamicSink};

fn check<H: ScriptHook>((args, _out): (H::Args, H::Out)) -> &'static str {
    let via_value = H::args_to_values(&args).expect("sample converts");

    let mut builder = ValueBuilder::new();
    H::args_to_sink(&args, &mut builder).expect("sample streams");
    let via_sink = builder.into_values().expect("complete stream");
    assert_eq!(via_sink, via_value, "{}: api sink vs to_values", H::NAME);
    assert_eq!(via_sink.len(), H::Args::NAMES_LEN, "{}: arity", H::NAME);

    let mut sink = DynamicSink::default();
    H::args_to_sink(&args, &mut sink).expect("sample streams into Rhai");
    let (direct, _) = sink.finish();
    let direct = direct.expect("complete stream");
    assert_eq!(direct.len(), via_value.len(), "{}: params", H::NAME);
    for (i, (d, v)) in direct.iter().zip(via_value).enumerate() {
        let through_value = into_dynamic(v.clone());
        // Same data, and the same Rhai types and rendering (ints stay ints, maps sorted).
        assert_eq!(from_dynamic(d).as_ref(), Ok(&v), "{} arg {i}", H::NAME);
        assert_eq!(
            d.to_string(),
            through_value.to_string(),
            "{} arg {i}",
            H::NAME
        );
        assert_eq!(
            d.type_name(),
            through_value.type_name(),
            "{} arg {i}",
            H::NAME
        );
    }
    H::NAME
}

/// `ArgList::NAMES.len()` as an associated constant, for the arity check above.
trait NamesLen {
    const NAMES_LEN: usize;
}
impl<T: pallet_api::script::ArgList> NamesLen for T {
    const NAMES_LEN: usize = T::NAMES.len();
}

#[test]
fn every_catalog_hook_streams_the_same_arguments() {
    macro_rules! check_all {
        (hooks [$($h:ident => $hs:ident),+ $(,)?] events [$($e:ident => $es:ident),+ $(,)?]) => {
            [$(check::<hooks::$h>(samples::$hs())),+]
        };
    }
    let checked: BTreeSet<&str> = with_catalog_samples!(check_all).into_iter().collect();
    let catalog_names: BTreeSet<&str> = catalog::HOOKS.iter().map(|h| h.name).collect();
    let missing: Vec<_> = catalog_names.difference(&checked).collect();
    assert!(
        missing.is_empty(),
        "catalog hooks without a sample: {missing:?}"
    );
}
