//! What engines say of their thinking (`info` lines, `tests/engines/thinker.py`): the last line
//! before each move is kept in the record; a malformed one costs nothing in play and fails
//! check-engine; a flood of them is bounded by a count and by the clock.

// The engines these tests run, and what they look at (/proc, bubblewrap), are Linux's.
#![cfg(target_os = "linux")]

mod common;

use common::{Workspace, valid_records};
use serde_json::{Value, json};

/// `games` games of Pegs between the thinker in `mode` and the random bot; the records, and the
/// seat the thinker had in each game.
fn thinker_match(mode: &str, games: usize) -> Vec<(Value, usize)> {
    let work = Workspace::new(&format!("info-{mode}"));
    let out = work.dir().join("games.jsonl");
    let referee = &common::shared_referee();
    common::referee()
        .env("REFEREE", referee)
        .args(["match", "--game", "pegs", "--seed", "3", "--games"])
        .arg(games.to_string())
        .args(["--movetime", "300", "--margin", "1000"])
        .arg("--engine")
        .arg(format!(
            "name=thinker cmd='python3 tests/engines/thinker.py {mode} pegs'"
        ))
        .arg("--engine")
        .arg(format!(
            "name=random cmd='{} bot --game pegs'",
            referee.display()
        ))
        .arg("--out")
        .arg(&out)
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .success();
    let records = valid_records(&out);
    records
        .into_iter()
        .map(|record| {
            let seat = (record["seats"].as_array().unwrap().iter())
                .position(|s| s["name"] == "thinker")
                .unwrap();
            (record, seat)
        })
        .collect()
}

/// The thinker's plies' `info`, in order, and whether every other ply has none.
fn infos(record: &Value, seat: usize) -> (Vec<Value>, bool) {
    let plies = record["moves"].as_array().unwrap();
    let ours = plies.iter().filter(|p| p["seat"] == seat);
    let others_silent = (plies.iter())
        .filter(|p| p["seat"] != seat)
        .all(|p| p.get("info").is_none());
    (ours.map(|p| p["info"].clone()).collect(), others_silent)
}

#[test]
fn the_last_info_line_before_each_move_is_recorded() {
    let mut told = 0;
    for (record, seat) in thinker_match("good", 2) {
        assert!(record["end"]["verdict"].is_null(), "{}", record["end"]);
        let (infos, others_silent) = infos(&record, seat);
        assert!(others_silent, "a ply of the random bot has an info");
        assert!(!infos.is_empty());
        for info in infos {
            // The process plays both games: its moves are counted across them.
            told += 1;
            assert_eq!(
                info,
                json!({"score": told, "depth": 3, "nodes": 100, "pv": "x,y",
                       "keys": {"hashfull": "7"}, "text": format!("move {told}")})
            );
        }
    }
}

#[test]
fn a_malformed_info_line_costs_nothing_in_play_and_fails_check_engine() {
    for (record, seat) in thinker_match("bad", 2) {
        assert!(record["end"]["verdict"].is_null(), "{}", record["end"]);
        assert!(infos(&record, seat).0.iter().all(|i| i["depth"] == 3));
    }
    let referee = &common::shared_referee();
    let output = common::referee()
        .env("REFEREE", referee)
        .args([
            "check-engine",
            "--game",
            "pegs",
            "--variant",
            "standard",
            "--",
        ])
        .args(["python3", "tests/engines/thinker.py", "bad", "pegs"])
        .timeout(std::time::Duration::from_secs(120))
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let stdout = String::from_utf8(output).unwrap();
    assert!(
        stdout.contains("FAIL  info lines: `info depth`") && stdout.contains("is not KEY=VALUE"),
        "{stdout}"
    );
    assert_eq!(stdout.matches("FAIL").count(), 1, "{stdout}");
}

#[test]
fn a_flood_of_info_lines_is_bounded_by_a_count_and_by_the_clock() {
    for (mode, verdict, detail) in [
        (
            "flood",
            "protocol_error",
            "more than 10000 info lines before one answer",
        ),
        ("endless", "stall", "no answer within"),
    ] {
        let started = std::time::Instant::now();
        for (record, seat) in thinker_match(mode, 1) {
            let end = &record["end"];
            assert_eq!(end["verdict"], verdict, "{mode}: {end}");
            assert_eq!(end["seat"], seat, "{mode}: {end}");
            let said = end["detail"].as_str().unwrap();
            assert!(said.contains(detail), "{mode}: {said}");
        }
        // Two moves of 300 ms and a margin of 1 s, with seconds to spare on a busy machine.
        assert!(
            started.elapsed() < std::time::Duration::from_secs(30),
            "{mode}"
        );
    }
}
