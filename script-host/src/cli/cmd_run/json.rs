//! `pallet run --json`: the run summary as one JSON document (mods with their state and
//! reason, expectations a mod changed, the end state, and the transcript as lines).

use serde_json::{json, Value as Json};

use super::outcome::{RunFailure, RunOptions, RunOutcome};

/// One status row as JSON.
pub fn mod_rows(status: &pallet_api::loader::LoadStatus) -> Json {
    Json::Array(
        status
            .mods
            .iter()
            .map(|m| {
                json!({
                    "id": m.id,
                    "name": m.name,
                    "version": m.version,
                    "state": m.state.as_str(),
                    "error": m.error,
                    "note": m.note,
                    "host": m.host,
                })
            })
            .collect(),
    )
}

fn lines(text: &str) -> Json {
    Json::Array(text.lines().map(|l| Json::String(l.to_owned())).collect())
}

/// A finished run.
pub fn outcome_json(opts: &RunOptions, o: &RunOutcome, saved: Option<&str>) -> String {
    let save = &o.game.save;
    let doc = json!({
        "ok": o.failed_mods.is_empty(),
        "version": opts.version.to_string(),
        "seed": opts.seed,
        "mods": o.mods_status.as_ref().map(mod_rows).unwrap_or(Json::Array(vec![])),
        "order": o.mods_status.as_ref().map(|s| s.order.clone()).unwrap_or_default(),
        "failed": o.failed_mods,
        "expectations": {
            "met": o.met,
            "changed_by_mods": o.differed.iter().map(|(line, m)| json!({"line": line, "message": m})).collect::<Vec<_>>(),
        },
        "end": {
            "ticks": o.game.tick,
            "player": {"map": save.player.map, "x": save.player.x, "y": save.player.y, "facing": save.player.facing.to_string()},
            "flags": save.flags.iter().collect::<Vec<_>>(),
            "party": save.party.len(),
            "boxed": save.boxes.iter().map(Vec::len).sum::<usize>(),
        },
        "save_written": saved,
        "transcript": lines(&o.transcript),
    });
    serde_json::to_string_pretty(&doc).unwrap_or_default()
}

/// A run stopped by a scenario error.
pub fn failure_json(opts: &RunOptions, f: &RunFailure) -> String {
    let doc = json!({
        "ok": false,
        "version": opts.version.to_string(),
        "seed": opts.seed,
        "error": f.message,
        "transcript": lines(&f.transcript),
    });
    serde_json::to_string_pretty(&doc).unwrap_or_default()
}
