//! Openings through the built binary: random plies and opening files give every pair of games
//! its own opening, played from both sides and told to the engines as ordinary plies; records mark
//! the opening and validate; bad files are refused with the line that is wrong.

// The engines these tests run, and what they look at (/proc, bubblewrap), are Linux's.
#![cfg(target_os = "linux")]

mod common;

use std::path::Path;

use common::{Workspace, valid_records};
use serde_json::Value;

/// Two seeded random DVONN bots, 20 games in pairs, with `extra` flags; the valid records.
fn paired_match(dir: &Path, extra: &[&str]) -> Vec<Value> {
    let referee = common::shared_referee().display().to_string();
    let out = dir.join("games.jsonl");
    common::referee()
        .args(["match", "--game", "dvonn", "--games", "20", "--repeat"])
        .args(["--seed", "5", "--movetime", "1000"])
        .args([
            "--engine",
            &format!("name=a cmd='{referee} bot --game dvonn --seed 1'"),
            "--engine",
            &format!("name=b cmd='{referee} bot --game dvonn --seed 2'"),
        ])
        .args(extra)
        .arg("--out")
        .arg(&out)
        .timeout(std::time::Duration::from_secs(120))
        .assert()
        .success();
    valid_records(&out)
}

/// The first `plies` moves of a record.
fn first_moves(record: &Value, plies: usize) -> Vec<String> {
    record["moves"].as_array().unwrap()[..plies]
        .iter()
        .map(|p| p["move"].as_str().unwrap().to_owned())
        .collect()
}

/// Ten distinct openings of `plies` plies, each in two games with the seats swapped, marked in
/// the records and played with no clock; returned in game order.
fn assert_ten_openings_from_both_sides(records: &[Value], plies: usize) -> Vec<Vec<String>> {
    assert_eq!(records.len(), 20);
    let mut openings = Vec::new();
    for pair in records.chunks(2) {
        let (first, second) = (&pair[0], &pair[1]);
        assert_eq!(first["opening"], plies, "{first}");
        assert_eq!(second["opening"], plies);
        assert_eq!(first_moves(first, plies), first_moves(second, plies));
        assert_eq!(first["seats"][0]["name"], "a");
        assert_eq!(second["seats"][0]["name"], "b");
        for ply in &first["moves"].as_array().unwrap()[..plies] {
            assert!(
                ply.get("time_ms").is_none(),
                "an opening ply is not timed: {ply}"
            );
        }
        assert!(first["moves"][plies]["time_ms"].is_number());
        openings.push(first_moves(first, plies));
    }
    let distinct: std::collections::HashSet<_> = openings.iter().collect();
    assert_eq!(distinct.len(), 10, "{openings:?}");
    openings
}

#[test]
fn random_plies_give_each_pair_of_games_its_own_opening_from_both_sides() {
    let work = Workspace::new("random-plies");
    let dir = work.dir().to_path_buf();
    let logs = dir.join("logs");
    let records = paired_match(
        &dir,
        &["--random-plies", "8", "--log-dir", logs.to_str().unwrap()],
    );
    let openings = assert_ten_openings_from_both_sides(&records, 8);
    // The engines hear the opening as ordinary plies, before their first genmove.
    let log = std::fs::read_to_string(logs.join("game-00001.log")).unwrap();
    let first_genmove = log.find("genmove").unwrap();
    for (ply, mv) in openings[0].iter().enumerate() {
        let line = format!("play {} {mv}", ply % 2);
        let at = log
            .find(&line)
            .unwrap_or_else(|| panic!("{line} not in {log}"));
        assert!(at < first_genmove, "{line} after the first genmove");
    }
    // The run's fingerprint names the openings, so a resume never mixes in other games.
    let run = records[0]["tags"]["tournament"].as_str().unwrap();
    assert!(run.ends_with(" random-plies=8"), "{run}");
}

#[test]
fn an_openings_file_is_played_in_order_each_line_from_both_sides() {
    let work = Workspace::new("openings-file");
    let dir = work.dir().to_path_buf();
    let book = dir.join("book.txt");
    common::referee()
        .args([
            "openings", "--game", "dvonn", "--plies", "6", "--count", "12",
        ])
        .arg("-o")
        .arg(&book)
        .assert()
        .success();
    let lines: Vec<Vec<String>> = std::fs::read_to_string(&book)
        .unwrap()
        .lines()
        .map(|l| l.split(' ').map(str::to_owned).collect())
        .collect();
    assert_eq!(lines.len(), 12);
    let records = paired_match(&dir, &["--openings", book.to_str().unwrap(), "start=2"]);
    let openings = assert_ten_openings_from_both_sides(&records, 6);
    assert_eq!(openings, lines[1..11]);
    // A record's plies are an opening too, cut with plies=N.
    let from_records = dir.join("from-records.jsonl");
    std::fs::copy(dir.join("games.jsonl"), &from_records).unwrap();
    std::fs::remove_file(dir.join("games.jsonl")).unwrap();
    let records = paired_match(
        &dir,
        &["--openings", from_records.to_str().unwrap(), "plies=3"],
    );
    assert_eq!(first_moves(&records[0], 3), lines[1][..3]);
}

#[test]
fn a_bad_openings_file_is_refused_naming_the_line_and_ply() {
    let work = Workspace::new("bad-openings");
    let dir = work.dir().to_path_buf();
    let book = dir.join("book.txt");
    let with_openings = || {
        let mut command = common::referee();
        command.args(["match", "--game", "dvonn", "--games", "2", "--openings"]);
        command
    };
    std::fs::write(&book, "# placements\nD2 C1\nD2 D2 C1\n").unwrap();
    with_openings()
        .arg(&book)
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "book.txt:3: ply 1 `D2`: illegal move",
        ));
    std::fs::write(&book, "D2 C1\nD2 Q9\n").unwrap();
    with_openings()
        .arg(&book)
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "book.txt:2: ply 1 `Q9`: cannot parse",
        ));
    std::fs::write(&book, "\n# nothing\n").unwrap();
    with_openings()
        .arg(&book)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("no opening in the file"));
    with_openings()
        .arg(dir.join("missing.txt"))
        .assert()
        .code(2)
        .stderr(predicates::str::contains("cannot read"));
    common::referee()
        .args(["match", "--game", "wyx", "--games", "2", "--openings"])
        .arg(&book)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("use --random-plies"));
}

/// Every game takes random plies, the ones with chance and hidden cards included.
#[test]
fn random_plies_work_for_every_game() {
    let work = Workspace::new("random-plies-all");
    let dir = work.dir().to_path_buf();
    for (game, seats) in [
        ("double-dutch", "3"),
        ("pegs", "2"),
        ("wyx", "2"),
        ("double", "3"),
    ] {
        let out = dir.join(format!("{game}.jsonl"));
        common::referee()
            .args(["match", "--game", game, "--seats", seats, "--games", "2"])
            .args(["--random-plies", "4", "--seed", "2", "--movetime", "200"])
            .arg("--out")
            .arg(&out)
            .timeout(std::time::Duration::from_secs(120))
            .assert()
            .success();
        for record in valid_records(&out) {
            let opening = record["opening"].as_u64().unwrap() as usize;
            let seat_plies = record["moves"].as_array().unwrap()[..opening]
                .iter()
                .filter(|p| p.get("seat").is_some())
                .count();
            assert_eq!(seat_plies, 4, "{game}: {record}");
        }
    }
}
