//! Drift test for the limits tables (issue 21): every limit an error names must have its row in
//! `docs/modding.md` (Rhai and shared limits) or `docs/modding-lua.md` (Lua), spelled as the
//! error spells it and with the value the code enforces. The value text is derived from the
//! constant, so changing a limit without its row (or the row without the limit) fails here.

use std::path::PathBuf;

fn doc(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("docs")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `1 000`, `64 KiB`, `16 MiB` — how the tables write a count or a size.
fn count(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

fn bytes(n: u64) -> String {
    match n {
        n if n >= 1 << 20 && n % (1 << 20) == 0 => format!("{} MiB", n >> 20),
        n if n >= 1 << 10 && n % (1 << 10) == 0 => format!("{} KiB", n >> 10),
        n => format!("{} bytes", count(n as usize)),
    }
}

/// The table row of limit `name` starts with `` | `name` | value``.
fn has_row(text: &str, file: &str, name: &str, value: &str) {
    let head = format!("| `{name}` | {value}");
    assert!(
        text.lines().any(|l| l.starts_with(&head)),
        "{file}: no limits row starting {head:?}"
    );
}

#[test]
fn every_named_limit_has_its_row_with_the_enforced_value() {
    let rhai = doc("modding.md");
    let lua = doc("modding-lua.md");
    let shared = [
        (
            "save.max_bucket_bytes",
            format!(
                "{} per mod",
                bytes(pallet_api::services::MAX_BUCKET_BYTES as u64)
            ),
        ),
        (
            "events.max_listeners",
            format!("{} per mod", count(pallet_api::MAX_LISTENERS_PER_MOD)),
        ),
        (
            "hooks.max_links",
            format!("{} per mod", count(pallet_api::MAX_LINKS_PER_MOD)),
        ),
        (
            "log.max_bytes_per_tick",
            format!(
                "{} per mod per tick",
                bytes(pallet_api::MAX_LOG_BYTES_PER_TICK as u64)
            ),
        ),
        (
            "errors.max_message_bytes",
            bytes(pallet_api::MAX_ERROR_MESSAGE_BYTES as u64),
        ),
        (
            "events.max_failure_lines",
            format!(
                "{} distinct lines per dispatch",
                pallet_api::failure_tally::MAX_FAILURE_LINES
            ),
        ),
    ];
    for (name, value) in &shared {
        has_row(&rhai, "docs/modding.md", name, value);
    }
    for (name, value) in shared
        .iter()
        .filter(|(n, _)| *n != "events.max_failure_lines")
    {
        has_row(&lua, "docs/modding-lua.md", name, value);
    }
    has_row(
        &lua,
        "docs/modding-lua.md",
        "events.max_failure_lines",
        &format!(
            "{} distinct lines per dispatch",
            pallet_api::failure_tally::MAX_FAILURE_LINES
        ),
    );
    has_row(
        &rhai,
        "docs/modding.md",
        "save.max_bytes",
        &bytes(pallet_engine::save::codec::MAX_SAVE_BYTES),
    );
    has_row(
        &rhai,
        "docs/modding.md",
        "rhai.max_closure_depth",
        &format!(
            "{} levels",
            pallet_script_host::host::depth::MAX_CLOSURE_DEPTH
        ),
    );
    has_row(
        &rhai,
        "docs/modding.md",
        pallet_script_host::alloc::MEMORY_TOKEN,
        &format!(
            "{} per dispatch",
            bytes(pallet_script_host::alloc::MAX_DISPATCH_BYTES as u64)
        ),
    );
    has_row(
        &rhai,
        "docs/modding.md",
        "rhai.max_retained_bytes",
        &format!(
            "{} per mod",
            bytes(pallet_script_host::host::held::MAX_RETAINED_BYTES as u64)
        ),
    );
    has_row(
        &rhai,
        "docs/modding.md",
        "rhai.max_held_bytes",
        &format!(
            "{} per mod",
            bytes(pallet_script_host::host::held::MAX_HELD_BYTES as u64)
        ),
    );
    let held_row = rhai
        .lines()
        .find(|l| l.starts_with("| `rhai.max_held_bytes` |"))
        .unwrap_or_default();
    for part in [
        format!(
            "plus {} per value",
            pallet_script_host::host::held::VALUE_BYTES
        ),
        format!(
            "more than {} values or {} levels",
            count(pallet_script_host::host::held::MAX_HELD_VALUES),
            pallet_script_host::host::held::MAX_HELD_DEPTH
        ),
    ] {
        assert!(
            held_row.contains(&part),
            "rhai.max_held_bytes row lacks {part:?}"
        );
    }
    use pallet_compat_lua as shim;
    for (name, value) in [
        (
            "lua.max_value_bytes",
            bytes(shim::convert::MAX_VALUE_BYTES as u64),
        ),
        (
            "lua.max_pattern_depth",
            format!("{} nested matcher calls", shim::pattern_cost::MAX_DEPTH),
        ),
        (
            "lua.max_chunk_bytes",
            bytes(shim::sandbox::MAX_CHUNK_BYTES as u64),
        ),
        (
            "lua.max_string_collisions",
            bytes(shim::string_flood::MAX_COLLISION_BYTES as u64),
        ),
        (
            "lua.max_dormant_wraps",
            format!("{} per mod", count(shim::mod_state::MAX_DORMANT_PER_MOD)),
        ),
    ] {
        has_row(&lua, "docs/modding-lua.md", name, &value);
    }
    // The budget row names the allocation rate and the concatenation allowance the code uses.
    let budget_row = lua
        .lines()
        .find(|l| l.starts_with("| *operation budget exhausted* |"))
        .expect("docs/modding-lua.md: no budget row");
    for part in [
        format!(
            "one unit per {}",
            bytes(shim::charged_alloc::ALLOC_BYTES_PER_UNIT)
        ),
        format!(
            "past {} per window",
            bytes(shim::charged_alloc::CONCAT_FREE_BYTES as u64)
        ),
    ] {
        assert!(budget_row.contains(&part), "budget row lacks {part:?}");
    }
    assert_eq!(
        shim::charged_alloc::CONCAT_MIN_INSTRUCTIONS,
        3,
        "\"every third\""
    );
}

#[test]
fn the_value_texts_read_as_the_tables_write_them() {
    assert_eq!(count(1000), "1 000");
    assert_eq!(count(64), "64");
    assert_eq!(bytes(64 * 1024), "64 KiB");
    assert_eq!(bytes(16 << 20), "16 MiB");
    assert_eq!(bytes(1000), "1 000 bytes");
}
