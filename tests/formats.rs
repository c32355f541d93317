//! Swiss and knockout tournaments through the binary: Swiss rounds paired by score with no
//! repeated pairing and a bye at most once; a knockout bracket whose ties go to their winners; and
//! for both, a run killed outright and resumed plays the same games and results as one that was
//! not.

mod common;

use std::collections::{HashMap, HashSet};
use std::path::Path;

use assert_cmd::cargo::cargo_bin;
use common::{Workspace, referee};
use serde_json::Value;

/// Nine random bots (deterministic for a game's seed), four Swiss rounds of Pegs.
fn swiss(out: &Path, resume: bool) {
    run(out, resume, 9, &["--format", "swiss", "--rounds", "4"]);
}

/// The arguments of a Pegs tournament of `engines` bots (deterministic for a game's seed) in
/// `format`, recorded in `out`.
fn arguments(out: &Path, engines: usize, format: &[&str]) -> Vec<String> {
    let bin = cargo_bin!("referee");
    let mut args: Vec<String> = ["tournament", "--game", "pegs"].map(String::from).to_vec();
    args.extend(format.iter().map(|a| a.to_string()));
    for i in 1..=engines {
        args.push("--engine".into());
        args.push(format!(
            "name=b{i} cmd='{} bot --game pegs --seed {i}'",
            bin.display()
        ));
    }
    let rest = [
        "--seed",
        "11",
        "--movetime",
        "50",
        "--concurrency",
        "2",
        "--out",
    ];
    args.extend(rest.map(String::from));
    args.push(out.display().to_string());
    args
}

/// Starts the tournament of [`arguments`] and kills it outright (SIGKILL) once `out` holds
/// `games` records, as a power cut or the OOM killer would.
fn killed_after(out: &Path, games: usize, engines: usize, format: &[&str]) {
    let mut child = common::referee_process()
        .args(arguments(out, engines, format))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    let done = || std::fs::read_to_string(out).map_or(0, |t| t.lines().count());
    while done() < games {
        assert!(std::time::Instant::now() < deadline, "{} games", done());
        assert!(child.try_wait().unwrap().is_none(), "the run ended first");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
}

/// `engines` random bots (deterministic for a game's seed) in a Pegs tournament; its stdout.
fn run(out: &Path, resume: bool, engines: usize, format: &[&str]) -> String {
    let mut command = referee();
    command.args(arguments(out, engines, format));
    if resume {
        command.arg("--resume");
    }
    let output = command
        .timeout(std::time::Duration::from_secs(300))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(output).unwrap()
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
    let work = Workspace::new("swiss");
    let dir = work.dir().to_path_buf();
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
    // Cut short by SIGKILL in round 2 (or later), then resumed.
    let cut = dir.join("cut.jsonl");
    killed_after(&cut, 6, 9, &["--format", "swiss", "--rounds", "4"]);
    swiss(&cut, true);
    assert_eq!(games(&cut), all, "the resumed run played other games");
    // A Swiss cannot be sharded: each round needs every earlier result.
    referee()
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

#[test]
fn a_knockout_sends_each_tie_winner_on_and_resumes_to_the_same_games() {
    let work = Workspace::new("knockout");
    let dir = work.dir().to_path_buf();
    let whole = dir.join("whole.jsonl");
    let format = ["--format", "knockout", "--games", "2"];
    let stdout = run(&whole, false, 6, &format);
    let all = games(&whole);
    // Six engines in a bracket of 8: seeds 1 and 2 (b1, b2) have byes; the first round's ties
    // are b4-b5 (games 5..8) and b3-b6 (games 13..16), two games each plus tie-break pairs.
    let pair = |game: u64| {
        let mut seats = all[&game].0.clone();
        seats.sort();
        seats
    };
    assert_eq!(pair(5), ["b4", "b5"]);
    assert_eq!(pair(13), ["b3", "b6"]);
    assert!(
        !all.contains_key(&1) && !all.contains_key(&9),
        "byes play no game"
    );
    // Each tie is decided: a winner by points, or the higher seed after the tie-break pairs.
    let points = |game: u64, name: &str| {
        let (seats, winners) = &all[&game];
        let winners: Vec<usize> = (winners.as_array().unwrap().iter())
            .map(|w| w.as_u64().unwrap() as usize)
            .collect();
        let seat = seats.iter().position(|s| s == name).unwrap();
        if winners.contains(&seat) {
            1.0 / winners.len() as f64
        } else {
            0.0
        }
    };
    let final_first = 6 * 4 + 1;
    let finalists = pair(final_first);
    let played: Vec<u64> = (final_first..final_first + 4)
        .filter(|g| all.contains_key(g))
        .collect();
    let score = |name: &str| played.iter().map(|&g| points(g, name)).sum::<f64>();
    let (a, b) = (&finalists[0], &finalists[1]);
    let champion = match score(a).total_cmp(&score(b)) {
        std::cmp::Ordering::Greater => a,
        std::cmp::Ordering::Less => b,
        std::cmp::Ordering::Equal => a.min(b),
    };
    assert!(
        stdout.contains(&format!("Knockout won by {champion}")),
        "{stdout}"
    );
    // Cut short by SIGKILL in the first or second round, then resumed.
    let cut = dir.join("cut.jsonl");
    killed_after(&cut, 5, 6, &format);
    run(&cut, true, 6, &format);
    assert_eq!(games(&cut), all, "the resumed run played other games");
}
