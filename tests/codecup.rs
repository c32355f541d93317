//! CodeCup programs (`proto=codecup`): the test engine `tests/engines/codecup.py` plays whole
//! games of DVONN, Pegs and Double Dutch against the built-in bots, gets the native protocol's
//! verdicts when it misbehaves, and leaves no process behind; games it cannot play are refused.

// The engines these tests run, and what they look at (/proc, bubblewrap), are Linux's.
#![cfg(target_os = "linux")]

mod common;

use std::time::Duration;

use assert_cmd::cargo::cargo_bin;
use common::{Workspace, assert_none_left, bot_spec, referee, run_to_records};
use serde_json::Value;

/// Plays `games` games of the CodeCup engine in `mode` against the built-in random bot; returns
/// the records, after checking that none of the engine's processes is left.
fn codecup_match(game: &str, mode: &str, games: usize, extra: &[&str]) -> Vec<Value> {
    let work = Workspace::new(&format!("codecup-{game}-{mode}"));
    let dir = work.dir().to_path_buf();
    let (pids, out) = (dir.join("pids"), dir.join("games.jsonl"));
    let records = run_to_records(
        referee()
            .env("REFEREE", cargo_bin!("referee"))
            .env("CODECUP_PIDS", &pids)
            .args(["match", "--game", game, "--seed", "6"])
            .args(["--games", &games.to_string(), "--engine"])
            .arg(format!(
                "name=cc proto=codecup cmd='python3 tests/engines/codecup.py {mode} {game} {{time_ms}}'"
            ))
            .arg("--engine")
            .arg(bot_spec("bot", game, Some("random")))
            .args(extra),
        &out,
        120,
    );
    assert_none_left(&pids);
    assert_eq!(records.len(), games);
    records
}

#[test]
fn a_codecup_engine_plays_whole_games_of_every_game_it_can() {
    for game in ["dvonn", "pegs", "double-dutch"] {
        // Its first move includes its start-up, as in CodeCup: a clock with a base fits.
        let records = codecup_match(game, "play", 4, &["--tc", "10+0.1"]);
        for record in &records {
            assert_eq!(record["end"]["reason"], "normal", "{game}: {record}");
        }
        // It played both seats, and its moves are in the records like anyone's.
        let seats: Vec<&Value> = records.iter().map(|r| &r["seats"][0]["name"]).collect();
        assert!(seats.contains(&&Value::from("cc")) && seats.contains(&&Value::from("bot")));
    }
}

#[test]
fn a_codecup_engine_that_misbehaves_gets_the_verdict_a_native_one_would() {
    for (mode, verdict, detail) in [
        ("crash", "crash", "exited with code 1"),
        ("hang", "stall", "no answer within"),
        ("garbage", "unparseable_move", "hello, this is not a move"),
        ("illegal", "illegal_move", "A1A2"),
    ] {
        // Time enough for a Python process started per game on a busy machine: only the hang
        // waits it out.
        let extra = ["--movetime", "2000", "--margin", "300"];
        for record in codecup_match("dvonn", mode, 2, &extra) {
            let end = &record["end"];
            assert_eq!(end["verdict"], verdict, "{mode}: {record}");
            let seat = end["seat"].as_u64().unwrap() as usize;
            assert_eq!(record["seats"][seat]["name"], "cc", "{mode}: {record}");
            assert!(
                end["detail"].as_str().unwrap().contains(detail),
                "{mode}: {record}"
            );
        }
    }
}

#[test]
fn games_and_runs_the_codecup_protocol_cannot_express_are_refused() {
    let cc = "name=cc proto=codecup cmd='./cc {time_ms}'";
    for (args, why) in [
        (vec!["--game", "double"], "games of two seats"),
        (vec!["--game", "wyx"], "games of two seats"),
        (
            vec!["--game", "double-dutch", "--seats", "3", "--engine", "./x"],
            "games of two seats",
        ),
        (
            vec!["--game", "dvonn", "--random-plies", "4"],
            "cannot begin from an opening",
        ),
        (vec!["--game", "dvonn", "--tc", "inf"], "needs a clock"),
    ] {
        referee()
            .arg("match")
            .args(&args)
            .args(["--engine", cc, "--engine", "./other"])
            .assert()
            .code(2)
            .stderr(predicates::str::contains(why));
    }
}

/// `referee check-engine --json` of the CodeCup engine in `mode`: its exit status and report.
fn check_engine(game: &str, mode: &str) -> (i32, Option<Value>) {
    let work = Workspace::new(&format!("codecup-check-{game}-{mode}"));
    let dir = work.dir().to_path_buf();
    let pids = dir.join("pids");
    let output = referee()
        .env("REFEREE", cargo_bin!("referee"))
        .env("CODECUP_PIDS", &pids)
        .args(["check-engine", "--json", "--game", game, "--"])
        .arg(format!(
            "proto=codecup cmd='python3 tests/engines/codecup.py {mode} {game} {{time_ms}}'"
        ))
        .timeout(Duration::from_secs(300))
        .output()
        .unwrap();
    assert_none_left(&pids);
    let report = serde_json::from_slice(&output.stdout).ok();
    (output.status.code().unwrap(), report)
}

#[test]
fn check_engine_checks_a_codecup_program_as_far_as_its_protocol_goes() {
    for game in ["dvonn", "pegs", "double-dutch"] {
        let (status, report) = check_engine(game, "play");
        let report = report.unwrap();
        assert_eq!(
            (status, &report["failed"]),
            (0, &Value::from(0)),
            "{report}"
        );
        let names: Vec<&str> = (report["checks"].as_array().unwrap().iter())
            .map(|c| c["name"].as_str().unwrap())
            .collect();
        // No handshake, informational command or quit in that protocol; no opening to a pass,
        // which it could not be told; a clock only as {time_ms}, the time for the whole game, so
        // neither `--tc inf` nor a time per move; two seats.
        assert!(
            names.iter().all(|n| n.contains("seat ")
                && !n.starts_with("a forced pass")
                && !n.contains("clock inf")
                && !n.contains("movetime")
                && !n.contains("3 seats")),
            "{game}: {names:?}"
        );
        assert!(names.len() >= 6, "{game}: {names:?}");
    }
    // At its third move it answers a move the rules forbid: every game fails, saying so.
    let (status, report) = check_engine("dvonn", "illegal");
    let report = report.unwrap();
    assert_eq!(status, 1);
    for check in report["checks"].as_array().unwrap() {
        assert_eq!(check["passed"], false, "{check}");
        let detail = check["detail"].as_str().unwrap();
        assert!(detail.starts_with("illegal_move at ply "), "{detail}");
    }
    // A game the protocol cannot play is refused before anything starts.
    let (status, report) = check_engine("wyx", "play");
    assert_eq!((status, report), (2, None));
}
