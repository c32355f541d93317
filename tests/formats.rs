//! Swiss and knockout tournaments through the binary: Swiss rounds paired by score with no
//! repeated pairing and a bye at most once; a knockout bracket whose ties go to their winners; and
//! for both, a run killed outright and resumed plays the same games and results as one that was
//! not.

// The engines these tests run, and what they look at (/proc, bubblewrap), are Linux's.
#![cfg(target_os = "linux")]

mod common;

use std::collections::{HashMap, HashSet};
use std::path::Path;

use common::{Workspace, referee};
use serde_json::Value;

/// Nine random bots (deterministic for a game's seed), four Swiss rounds of Pegs.
fn swiss(out: &Path, resume: bool) {
    run(out, resume, 9, &["--format", "swiss", "--rounds", "4"]);
}

/// The arguments of a Pegs tournament of `engines` bots (deterministic for a game's seed) in
/// `format`, recorded in `out`.
fn arguments(out: &Path, engines: usize, format: &[&str]) -> Vec<String> {
    let bin = &common::shared_referee();
    let mut args: Vec<String> = ["tournament", "--game", "pegs"].map(String::from).to_vec();
    args.extend(format.iter().map(std::string::ToString::to_string));
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

/// `referee stats --json` of `out`.
fn stats_json(out: &Path) -> Value {
    let output = referee()
        .args(["stats", "--json"])
        .arg(out)
        .assert()
        .success();
    serde_json::from_slice(&output.get_output().stdout).unwrap()
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
    // The standings count each bye as a win and rank by points: scores worked out here from
    // the games (a point a win, shared when shared) and the rounds each engine sat out.
    let mut score: HashMap<String, f64> = HashMap::new();
    let mut played: HashMap<String, u32> = HashMap::new();
    for game in all.keys() {
        for name in &all[game].0 {
            score.entry(name.clone()).or_default();
            *played.entry(name.clone()).or_default() += 1;
        }
        let names = &all[game].0;
        let winners = all[game].1.as_array().unwrap();
        for w in winners {
            *score.get_mut(&names[w.as_u64().unwrap() as usize]).unwrap() +=
                1.0 / winners.len() as f64;
        }
    }
    for (name, games) in &played {
        *score.get_mut(name).unwrap() += f64::from(4 - games);
    }
    let stats = stats_json(&whole);
    let rows = stats["event"]["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 9);
    let shown: Vec<f64> = rows.iter().map(|r| r["score"].as_f64().unwrap()).collect();
    for (row, &x) in rows.iter().zip(&shown) {
        let name = row["name"].as_str().unwrap();
        assert!(
            (score[name] - x).abs() < 1e-9,
            "{name}: {x}, not {}",
            score[name]
        );
    }
    assert!(
        shown.windows(2).all(|w| w[0] >= w[1]),
        "not by points: {shown:?}"
    );
    assert_eq!(rows[0]["place"], "1");
    let byes: u64 = rows.iter().map(|r| r["byes"].as_u64().unwrap()).sum();
    assert_eq!(byes, 4, "a bye a round");
    // Cut short by SIGKILL in round 2 (or later), then resumed.
    let cut = dir.join("cut.jsonl");
    killed_after(&cut, 6, 9, &["--format", "swiss", "--rounds", "4"]);
    swiss(&cut, true);
    assert_eq!(games(&cut), all, "the resumed run played other games");
    // Three shards, the last started late: the others cannot go past round 1 without its
    // games, and together they play the games of the run on one machine.
    let format = ["--format", "swiss", "--rounds", "4"];
    assert_eq!(
        sharded(&dir, 3, 9, &format),
        all,
        "the shards paired otherwise"
    );
}

/// The games of `format` played by `n` shards that read each other's files (`--peers`), shard 1
/// started last, once the others have recorded games and are waiting for it.
fn sharded(
    dir: &Path,
    n: usize,
    engines: usize,
    format: &[&str],
) -> HashMap<u64, (Vec<String>, Value)> {
    let pattern = dir.join("shard-{shard}.jsonl").display().to_string();
    let file = |k: usize| dir.join(format!("shard-{k}.jsonl"));
    let start = |k: usize| {
        let mut args = arguments(&file(k), engines, format);
        args.extend([format!("--shard={k}/{n}"), format!("--peers={pattern}")]);
        common::referee_process()
            .args(args)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let mut shards: Vec<_> = (2..=n).map(start).collect();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    let recorded = |k: usize| std::fs::read_to_string(file(k)).map_or(0, |t| t.lines().count());
    while (2..=n).any(|k| recorded(k) == 0) {
        assert!(
            std::time::Instant::now() < deadline,
            "the shards recorded nothing"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    // Shard 1's games of round 1 are not played yet: the others can only wait.
    std::thread::sleep(std::time::Duration::from_millis(500));
    for shard in &mut shards {
        assert!(
            shard.try_wait().unwrap().is_none(),
            "a shard ended without shard 1's games"
        );
    }
    shards.insert(0, start(1));
    let mut merged = HashMap::new();
    for (k, shard) in shards.into_iter().enumerate() {
        let output = shard.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "shard {}: {stderr}", k + 1);
        for (game, played) in games(&file(k + 1)) {
            assert_eq!((game as usize - 1) % n, k, "game {game} in shard {}", k + 1);
            assert!(merged.insert(game, played).is_none(), "game {game} twice");
        }
    }
    merged
}

#[test]
fn a_sharded_swiss_or_knockout_names_every_shards_file() {
    let work = Workspace::new("peers");
    let out = work.dir().join("shard-1.jsonl");
    let attempt = |extra: &[&str], expected: &str| {
        referee()
            .args([
                "tournament",
                "--game",
                "pegs",
                "--engine",
                "random",
                "--seed",
                "3",
            ])
            .args(["--engine", "search", "--engine", "random", "--out"])
            .arg(&out)
            .args(extra)
            .assert()
            .code(2)
            .stderr(predicates::str::contains(expected));
    };
    let pattern = work.dir().join("shard-{shard}.jsonl").display().to_string();
    let peers = format!("--peers={pattern}");
    let elsewhere = format!("--peers={}/x-{{shard}}.jsonl", work.dir().display());
    attempt(
        &["--format", "swiss", "--shard", "1/2"],
        "name every shard's records file with --peers",
    );
    attempt(
        &["--format", "knockout", "--shard", "1/2"],
        "sharded knockout",
    );
    attempt(
        &["--format", "swiss", "--shard", "1/2", "--peers", "a.jsonl"],
        "put {shard} where",
    );
    attempt(
        &["--format", "swiss", "--shard", "1/2", &elsewhere],
        "give it as --out",
    );
    attempt(&["--format", "swiss", &peers], "give --shard");
    // A shard waiting for another is told so, and stops at once on a stop signal.
    let mut alone = common::referee_process()
        .args(["tournament", "--game", "pegs", "--engine", "random"])
        .args(["--engine", "search", "--engine", "random", "--out"])
        .arg(&out)
        .args([
            "--format", "swiss", "--rounds", "3", "--shard", "1/2", "--seed", "3", &peers,
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = std::io::BufReader::new(alone.stderr.take().unwrap());
    let mut line = String::new();
    while !line.contains("round 2 waits for shard 2") {
        line.clear();
        let read = std::io::BufRead::read_line(&mut stderr, &mut line).unwrap();
        assert!(read > 0, "the shard ended without waiting");
    }
    assert!(common::send_signal(alone.id(), "TERM"));
    let stopped = std::time::Instant::now();
    assert_eq!(alone.wait().unwrap().code(), Some(128 + 15));
    assert!(stopped.elapsed() < std::time::Duration::from_secs(10));
    std::fs::remove_file(&out).unwrap();
    // A file of another run among the peers: named, not counted.
    let other = work.dir().join("shard-2.jsonl");
    referee()
        .args([
            "match", "--game", "pegs", "--engine", "random", "--engine", "random",
        ])
        .args(["--games", "1", "--out"])
        .arg(&other)
        .assert()
        .success();
    referee()
        .args(["tournament", "--game", "pegs", "--engine", "random"])
        .args(["--engine", "search", "--engine", "random", "--out"])
        .arg(&out)
        .args(["--format", "swiss", "--shard", "1/2", "--seed", "3", &peers])
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .failure()
        .stderr(predicates::str::contains(
            "shard-2.jsonl:1: a record of another run",
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
    // The standings put the champion first and the other finalist second; the report draws
    // the bracket with the champion going on from the final.
    let stats = stats_json(&whole);
    let rows = stats["event"]["rows"].as_array().unwrap();
    let runner_up = if champion == a { b } else { a };
    assert_eq!(stats["event"]["champion"], champion.as_str());
    assert_eq!(
        (rows[0]["name"].as_str(), rows[0]["place"].as_str()),
        (Some(champion.as_str()), Some("1"))
    );
    assert_eq!(rows[1]["name"].as_str(), Some(runner_up.as_str()));
    assert_eq!(rows[1]["reached"], "final");
    let report = dir.join("report.html");
    referee()
        .args(["report", "-o"])
        .arg(&report)
        .arg(&whole)
        .assert()
        .success();
    let html = std::fs::read_to_string(&report).unwrap();
    let bracket = &html[html.find("id=\"bracket\"").expect("no bracket")..];
    let last_round = &bracket[bracket.find(">final<").expect("no final")..];
    assert!(
        last_round.contains(&format!("<div class=\"on\"><span>{champion}</span>")),
        "{last_round}"
    );
    // Cut short by SIGKILL in the first or second round, then resumed.
    let cut = dir.join("cut.jsonl");
    killed_after(&cut, 5, 6, &format);
    run(&cut, true, 6, &format);
    assert_eq!(games(&cut), all, "the resumed run played other games");
    // Two shards, each playing every other game of a tie, draw the same bracket.
    assert_eq!(
        sharded(&dir, 2, 6, &format),
        all,
        "the shards drew another bracket"
    );
}
