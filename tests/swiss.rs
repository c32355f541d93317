//! Swiss tournaments through the binary: rounds paired by score with no repeated pairing and a
//! bye at most once, and a run cut short and resumed plays the same pairings and results as one
//! that was not.

mod common;

use std::collections::{HashMap, HashSet};
use std::path::Path;

use assert_cmd::cargo::{cargo_bin, cargo_bin_cmd};
use common::temp_dir;
use serde_json::Value;

/// Nine random bots (deterministic for a game's seed), four Swiss rounds of Pegs.
fn swiss(out: &Path, resume: bool) {
    let bin = cargo_bin!("referee");
    let mut command = cargo_bin_cmd!("referee");
    command.args([
        "tournament",
        "--game",
        "pegs",
        "--format",
        "swiss",
        "--rounds",
        "4",
    ]);
    for i in 1..=9 {
        let engine = format!(
            "name=b{i} cmd='{} bot --game pegs --seed {i}'",
            bin.display()
        );
        command.args(["--engine", &engine]);
    }
    command
        .args([
            "--seed",
            "11",
            "--movetime",
            "50",
            "--concurrency",
            "2",
            "--out",
        ])
        .arg(out);
    if resume {
        command.arg("--resume");
    }
    command
        .timeout(std::time::Duration::from_secs(300))
        .assert()
        .success();
}

/// Each game's seats and winners, by game number.
fn games(out: &Path) -> HashMap<u64, (Vec<String>, Value)> {
    common::valid_records(out)
        .into_iter()
        .map(|r| {
            let game = r["tags"]["game"].as_str().unwrap().parse().unwrap();
            let seats = (r["seats"].as_array().unwrap().iter())
                .map(|s| s["name"].as_str().unwrap().to_owned())
                .collect();
            (game, (seats, r["result"]["winners"].clone()))
        })
        .collect()
}

#[test]
fn a_swiss_pairs_without_repeats_and_resumes_to_the_same_games() {
    let dir = temp_dir("swiss");
    let whole = dir.join("whole.jsonl");
    swiss(&whole, false);
    let all = games(&whole);
    // 9 engines: 4 tables a round, one bye.
    assert_eq!(all.len(), 16);
    let mut pairs = HashSet::new();
    for round in 0..4u64 {
        let mut seated = HashSet::new();
        for game in round * 4 + 1..=round * 4 + 4 {
            let (seats, _) = &all[&game];
            for name in seats {
                assert!(seated.insert(name.clone()), "{name} twice in round {round}");
            }
            let mut pair = seats.clone();
            pair.sort();
            assert!(pairs.insert(pair.clone()), "{pair:?} met twice");
        }
        assert_eq!(seated.len(), 8, "one bye in round {round}");
    }
    // Cut short in round 2, as a kill leaves it, then resumed.
    let text = std::fs::read_to_string(&whole).unwrap();
    let cut = dir.join("cut.jsonl");
    let first: Vec<&str> = text.lines().take(6).collect();
    std::fs::write(&cut, first.join("\n") + "\n").unwrap();
    swiss(&cut, true);
    assert_eq!(games(&cut), all, "the resumed run played other games");
    // A Swiss cannot be sharded: each round needs every earlier result.
    cargo_bin_cmd!("referee")
        .args(["tournament", "--game", "pegs", "--format", "swiss"])
        .args(["--engine", "random", "--engine", "search", "--shard", "1/2"])
        .arg("--out")
        .arg(dir.join("shard.jsonl"))
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "Swiss round is paired from the results",
        ));
}
