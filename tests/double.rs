//! DOUBLE end to end: hidden information never leaks to engines, the search bot wins, duplicate
//! play, seat views in the session, and validation of chance events.

// The engines these tests run, and what they look at (/proc, bubblewrap), are Linux's.
#![cfg(target_os = "linux")]

use std::collections::{HashMap, HashSet};

mod common;

use predicates::prelude::PredicateBooleanExt;

use common::{Workspace, bwrap_usable, referee, temp_dir, valid_records};
use serde_json::Value;

/// Plays a DOUBLE match of the built-in bots; returns the records in game order. The search bot
/// stops at 300 playouts a move (`nodes=300`, about 9 ms here) within 100 ms a move, so that it
/// plays the same games on a busy machine as on a quiet one.
fn double_match(
    name: &str,
    seats: &str,
    games: &str,
    extra: &[&str],
) -> (Vec<Value>, std::path::PathBuf, String) {
    let work = Workspace::new(name);
    let dir = work.dir().to_path_buf();
    let out = dir.join("games.jsonl");
    let output = referee()
        .args([
            "match", "--game", "double", "--seats", seats, "--games", games,
        ])
        .args(["--seed", "31", "--movetime", "100", "--each", "nodes=300"])
        .args(["--concurrency", "2"])
        .args(extra)
        .arg("--out")
        .arg(&out)
        .timeout(std::time::Duration::from_secs(120))
        .assert()
        .success()
        .get_output()
        .clone();
    let records = valid_records(&out);
    (records, dir, String::from_utf8(output.stdout).unwrap())
}

/// The card identities (`c01`..`c72`) a line names.
fn cards_in(line: &str) -> Vec<String> {
    line.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| {
            w.len() == 3 && w.starts_with('c') && w[1..].chars().all(|c| c.is_ascii_digit())
        })
        .map(str::to_owned)
        .collect()
}

#[test]
fn no_engine_ever_receives_a_card_it_may_not_see() {
    let logs = temp_dir("leak-logs");
    let log_dir = logs.to_str().unwrap();
    let (records, _, _) = double_match("leak", "4", "2", &["--log-dir", log_dir]);
    let mut checked_lines = 0;
    for (game, record) in records.iter().enumerate() {
        let seed = record["seed"].to_string();
        let transcript =
            std::fs::read_to_string(logs.join(format!("game-{:05}.log", game + 1))).unwrap();
        let seats: Vec<String> = record["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["name"].as_str().unwrap().to_owned())
            .collect();
        // What each seat may know so far: its own cards as they are dealt or drawn, the start
        // cards, and every card played.
        let mut entitled: HashMap<usize, HashSet<String>> = HashMap::new();
        for line in transcript.lines() {
            let mut words = line.split_whitespace().skip(1);
            let (Some(engine), Some("<")) = (words.next(), words.next()) else {
                continue;
            };
            let Some(seat) = seats.iter().position(|s| s == engine) else {
                continue;
            };
            let message: Vec<&str> = words.skip(1).collect();
            let text = message.join(" ");
            assert!(
                !text.contains(&seed),
                "the game's seed reached seat {seat}: {line}"
            );
            let known = entitled.entry(seat).or_default();
            let disclosed = match message.as_slice() {
                ["event", "deal" | "draw", s, _] => s.parse::<usize>() == Ok(seat),
                ["event", "start", _] | ["play", ..] => true,
                _ => false,
            };
            for card in cards_in(&text) {
                if disclosed {
                    known.insert(card);
                } else {
                    assert!(
                        known.contains(&card),
                        "seat {seat} was told {card} it may not see: {line}"
                    );
                }
            }
            // Another seat's draw names no card.
            if let ["event", "deal" | "draw", s, ..] = message.as_slice()
                && s.parse::<usize>() != Ok(seat)
            {
                assert_eq!(
                    message.len(),
                    3,
                    "seat {seat} saw another seat's card: {line}"
                );
            }
            checked_lines += 1;
        }
    }
    assert!(
        checked_lines > 100,
        "the transcripts hold the engines' input ({checked_lines} lines)"
    );
}

#[test]
fn search_beats_random_by_a_wide_margin_in_four_seat_matches() {
    let (_, _, stdout) = double_match("strength", "4", "12", &["--json"]);
    let summary: Value = serde_json::from_str(&stdout).unwrap();
    // Engines are listed best first; a win shared by k seats gives each 1/k point.
    assert_eq!(summary["engines"][0]["name"], "search");
    let points = summary["engines"][0]["points"].as_f64().unwrap();
    // Four equal seats would win a quarter each: 3 of 12.
    assert!(
        points >= 6.5,
        "search won {points} points of 12 four-seat matches"
    );
}

#[test]
fn duplicate_play_gives_every_seat_every_hand_of_one_deal() {
    let (records, _, _) = double_match("duplicate", "3", "3", &["--duplicate"]);
    let seeds: HashSet<String> = records.iter().map(|r| r["seed"].to_string()).collect();
    assert_eq!(seeds.len(), 1, "one deal for the three rotations");
    let deal = |r: &Value| {
        r["moves"].as_array().unwrap()[..18]
            .iter()
            .map(|p| p["move"].as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
    };
    assert_eq!(deal(&records[0]), deal(&records[1]));
    let first_seat: Vec<&str> = records
        .iter()
        .map(|r| r["seats"][0]["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        first_seat.iter().collect::<HashSet<_>>().len(),
        3,
        "{first_seat:?}"
    );
}

#[test]
fn the_session_shows_each_seat_its_own_hand_only() {
    let output = referee()
        .arg("session")
        .write_stdin("newgame double seats=3 seed=5\nshowboard 1\nshowboard\nlegal_moves\nplay right c01\nrecord\n")
        .assert()
        .success()
        .get_output()
        .clone();
    let text = String::from_utf8(output.stdout).unwrap();
    let answers: Vec<&str> = text.split_terminator("\n\n").collect();
    let view = answers[1];
    assert!(
        view.contains("seat 0, dealer: 0 points, 6 cards: (hidden)"),
        "{view}"
    );
    assert!(
        view.contains("seat 1: 0 points, 6 cards: c10:BRG"),
        "{view}"
    );
    assert!(
        view.contains("seat 2: 0 points, 6 cards: (hidden)"),
        "{view}"
    );
    assert!(
        answers[2].contains("seat 0, dealer: 0 points, 6 cards: c01:BYG"),
        "{}",
        answers[2]
    );
    assert_eq!(answers[3], "= draw, right c01:BYG");
    assert_eq!(answers[4], "=");
    let record: Value = serde_json::from_str(answers[5].strip_prefix("= ").unwrap()).unwrap();
    let moves = record["moves"].as_array().unwrap();
    // 18 cards dealt from the dealer on, then start cards (a special one goes under), all chance.
    assert!(
        moves[0]["move"].as_str().unwrap().starts_with("deal 0 c"),
        "{}",
        moves[0]
    );
    assert!(
        moves[1]["move"].as_str().unwrap().starts_with("deal 1 c"),
        "{}",
        moves[1]
    );
    let first_seat_ply = moves.iter().position(|p| p.get("seat").is_some()).unwrap();
    assert!(
        moves[..first_seat_ply]
            .iter()
            .all(|p| p.get("seat").is_none())
    );
    assert!(
        moves[first_seat_ply - 1]["move"]
            .as_str()
            .unwrap()
            .starts_with("start c")
    );
    assert_eq!(moves[first_seat_ply]["move"], "right c01:BYG");
    assert_eq!(moves[first_seat_ply]["seat"], 0);
}

/// Each spy process's games, from what it wrote down: per game, its seat, the `play` lines it saw
/// (`SEAT MOVE`), and every line it received.
struct SpyGame {
    seat: usize,
    plays: Vec<String>,
    lines: Vec<String>,
}

fn spy_games(file: &std::path::Path) -> Vec<SpyGame> {
    let mut games: Vec<SpyGame> = Vec::new();
    for line in std::fs::read_to_string(file).unwrap().lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.get(1) {
            Some(&"newgame") => {
                let seat = words.iter().find_map(|w| w.strip_prefix("seat=")).unwrap();
                games.push(SpyGame {
                    seat: seat.parse().unwrap(),
                    plays: Vec::new(),
                    lines: Vec::new(),
                });
            }
            Some(&"play") => games.last_mut().unwrap().plays.push(words[2..].join(" ")),
            _ => {}
        }
        if let Some(game) = games.last_mut() {
            game.lines.push(words[1..].join(" "));
        }
    }
    games
}

#[test]
fn in_duplicate_play_no_process_sees_a_deal_twice_or_a_card_it_may_not_see() {
    let work = Workspace::new("spy");
    let dir = work.dir().to_path_buf();
    let seen = dir.join("seen");
    std::fs::create_dir_all(&seen).unwrap();
    let spy = format!(
        "python3 {} {} double",
        common::shared_engine("spy.py").display(),
        seen.display()
    );
    let out = dir.join("games.jsonl");
    let mut command = referee();
    command
        .env("REFEREE", common::shared_referee())
        .args(["match", "--game", "double", "--seats", "3", "--repeat"])
        .args(["--games", "12", "--seed", "4", "--movetime", "200"])
        .args(["--concurrency", "2", "--engine", &spy, "--engine", &spy])
        .args(["--engine", &spy, "--out"])
        .arg(&out);
    // Sandboxed where bubblewrap runs: each process then writes in its own scratch directory.
    if bwrap_usable() {
        command
            .args(["--each", "sandbox=bwrap env=REFEREE", "--scratch-dir"])
            .arg(&seen);
    }
    let run = command
        .timeout(std::time::Duration::from_secs(300))
        .assert()
        .success();
    if bwrap_usable() {
        // The organiser is told what the scratch directories do not bound.
        run.stderr(predicates::str::contains("scratch directories under").and(
            predicates::str::contains("bounded per file (fsize=), not in all"),
        ));
    }
    let records = valid_records(&out);
    assert_eq!(records.len(), 12);
    // A record's seat moves, as an engine hears them, identify the game a spy played.
    let plays_of = |record: &Value| -> Vec<String> {
        record["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["seat"].is_u64())
            .map(|m| format!("{} {}", m["seat"], m["move"].as_str().unwrap()))
            .collect()
    };
    let mut games_seen = 0;
    let mut reused = 0;
    let mut files = Vec::new();
    for entry in std::fs::read_dir(&seen).unwrap() {
        let path = entry.unwrap().path();
        match path.is_dir() {
            true => files.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path())),
            false => files.push(path),
        }
    }
    for file in files {
        let games = spy_games(&file);
        reused += usize::from(games.len() > 1);
        let mut deals = HashSet::new();
        for game in &games {
            let record = records
                .iter()
                .find(|r| plays_of(r) == game.plays)
                .expect("every game a spy played is recorded");
            games_seen += 1;
            let seed = record["seed"].to_string();
            assert!(
                deals.insert(seed.clone()),
                "one process played deal {seed} twice"
            );
            // What the seat may know: its own cards as dealt or drawn, the start cards, every card
            // played.
            let mut known = HashSet::new();
            for line in &game.lines {
                let words: Vec<&str> = line.split_whitespace().collect();
                let disclosed = match words.as_slice() {
                    ["event", "deal" | "draw", s, _] => s.parse::<usize>() == Ok(game.seat),
                    ["event", "start", _] | ["play", ..] => true,
                    _ => false,
                };
                for card in cards_in(line) {
                    assert!(
                        disclosed || known.contains(&card),
                        "seat {} was told {card} before it could see it: {line}",
                        game.seat
                    );
                    known.insert(card);
                }
            }
            // The end of every round is told with its points and totals; the last ones are the
            // record's scores.
            let rounds: Vec<&String> = game
                .lines
                .iter()
                .filter(|l| l.starts_with("event round "))
                .collect();
            let last = rounds.last().expect("the end of each round is told");
            let totals: Vec<String> = record["result"]["scores"]
                .as_array()
                .unwrap()
                .iter()
                .map(Value::to_string)
                .collect();
            assert!(
                last.ends_with(&format!("totals={}", totals.join(","))),
                "{last} vs {totals:?}"
            );
            assert!(
                last.starts_with(&format!("event round {} points=", rounds.len())),
                "{last}"
            );
        }
    }
    // Every seat of every game was a spy; processes were still reused across deals.
    assert_eq!(games_seen, 36);
    assert!(reused > 0, "no process played two games");
}

/// The attack: an engine that looks through the descriptors it was started with for another
/// engine's pipe (whose answers and hand it could read), the records, the live file or a
/// transcript. Engines start while others run and after others' pipes were opened (two games at
/// once, duplicate play restarting engines before each repeated deal): each has only its
/// stdin, stdout and stderr.
#[test]
fn an_engine_starts_with_no_descriptor_but_its_three() {
    let work = Workspace::new("descriptors");
    let found = work.file("descriptors");
    let engine = "python3 tests/engines/descriptors.py double";
    let referee_bin = common::shared_referee();
    referee()
        .env("REFEREE", referee_bin)
        .env("DESCRIPTORS_OUT", &found)
        .args(["match", "--game", "double", "--seats", "4", "--repeat"])
        .args(["--games", "8", "--seed", "6", "--movetime", "100"])
        .args(["--concurrency", "2"])
        .args(["--engine", engine, "--engine", engine, "--engine", engine])
        .args(["--engine", engine, "--out"])
        .arg(work.file("games.jsonl"))
        .arg("--live")
        .arg(work.file("live.jsonl"))
        .arg("--log-dir")
        .arg(work.file("logs"))
        .timeout(std::time::Duration::from_secs(300))
        .assert()
        .success();
    let lines = std::fs::read_to_string(&found).unwrap();
    let starts: Vec<&str> = lines.lines().collect();
    // Four seats, restarted for each repeated deal: more engines than one game's.
    assert!(starts.len() >= 8, "{lines}");
    for start in starts {
        assert_eq!(start, "[]", "an engine started holding more than its three");
    }
}

/// Every engine hears of each ply and event before the engine to move is asked: each engine,
/// asked for a move, waits until the others' logs hold every ply it has heard, and answers no
/// move should one not (the referee holds a ply's lines to write them with what follows at once:
/// one write per engine for a run of cards dealt, never past its next wait).
#[test]
fn every_engine_hears_each_ply_before_the_next_seat_is_asked() {
    let work = Workspace::new("witness");
    let logs = work.file("heard");
    std::fs::create_dir_all(&logs).unwrap();
    let engine = format!("python3 tests/engines/witness.py {} double", logs.display());
    let out = work.file("games.jsonl");
    referee()
        .env("REFEREE", common::shared_referee())
        .args(["match", "--game", "double", "--seats", "3", "--games", "2"])
        .args(["--seed", "8", "--movetime", "20000", "--concurrency", "1"])
        .args([
            "--engine", &engine, "--engine", &engine, "--engine", &engine,
        ])
        .arg("--out")
        .arg(&out)
        .timeout(std::time::Duration::from_secs(300))
        .assert()
        .success();
    let records = valid_records(&out);
    assert_eq!(records.len(), 2);
    for record in &records {
        assert_eq!(record["end"]["reason"], "normal", "{record}");
        assert!(record["moves"].as_array().unwrap().len() > 40);
    }
}
