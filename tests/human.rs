//! The human seat: `referee play` and `--engine human`, driven through piped standard input, as
//! a person at a terminal would type.

// The engines these tests run, and what they look at (/proc, bubblewrap), are Linux's.
#![cfg(target_os = "linux")]

mod common;

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use common::{Workspace, referee, run_to_records, valid_records};
use serde_json::Value;

/// The prompt the human seat ends its question with.
const PROMPT: &str = "> ";

/// `referee play ARGS` with `input` piped in; its stdout and the one record it wrote.
fn play(name: &str, args: &[&str], input: &str) -> (String, Value) {
    let work = Workspace::new(name);
    let dir = work.dir().to_path_buf();
    let out = dir.join("games.jsonl");
    let output = referee()
        .arg("play")
        .args(args)
        .arg("--out")
        .arg(&out)
        .write_stdin(input)
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let mut records = valid_records(&out);
    assert_eq!(records.len(), 1);
    (stdout, records.remove(0))
}

fn moves(record: &Value) -> Vec<&str> {
    record["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["move"].as_str().unwrap())
        .collect()
}

#[test]
fn moves_are_read_in_any_case_and_parse_errors_are_told_from_illegal_moves() {
    // Ply 2: A1 is taken by the first move, so it is a DVONN move the rules forbid.
    let input = "xyzzy\na1\nA1\nresign\n";
    let (stdout, record) = play("case", &["--game", "dvonn", "--seed", "5"], input);
    assert!(stdout.contains("not a move of dvonn"), "{stdout}");
    assert!(stdout.contains("illegal"), "{stdout}");
    assert_eq!(moves(&record)[0], "A1");
    assert_eq!(moves(&record).len(), 2, "{record}");
    assert_eq!(record["end"]["reason"], "resignation");
    assert_eq!(record["end"]["seat"], 0);
    assert_eq!(record["seats"][0]["name"], "human");
}

#[test]
fn the_legal_moves_are_listed_on_request() {
    let (stdout, _) = play("list", &["--game", "pegs", "--seed", "2"], "?\nresign\n");
    let listed = referee()
        .args(["moves", "--game", "pegs", "--seed", "2"])
        .output()
        .unwrap();
    let mut legal: Vec<String> = String::from_utf8_lossy(&listed.stdout)
        .lines()
        .map(str::to_owned)
        .collect();
    assert!(!legal.is_empty());
    // The answer to `?` is the line after the first prompt.
    let answer = stdout.split(PROMPT).nth(1).and_then(|t| t.lines().next());
    let mut shown: Vec<String> = answer
        .map(|l| l.split(' ').map(str::to_owned).collect())
        .unwrap_or_default();
    legal.sort();
    shown.sort();
    assert_eq!(shown, legal, "{stdout}");
}

#[test]
fn undo_takes_back_the_last_move_in_a_game_without_a_clock() {
    let input = "undo\na1\nundo\nb1\nresign\n";
    let (stdout, record) = play("undo", &["--game", "dvonn", "--seed", "5"], input);
    assert!(stdout.contains("no move of yours to take back"), "{stdout}");
    assert!(stdout.contains("taking back your last move"), "{stdout}");
    let moves = moves(&record);
    assert_eq!(moves.len(), 2, "{record}");
    assert_eq!(moves[0], "B1");
}

#[test]
fn undo_is_refused_with_a_clock_and_the_clock_is_shown() {
    let input = "undo\nresign\n";
    let args = ["--game", "wyx", "--seed", "1", "--tc", "60+1"];
    let (stdout, record) = play("clock", &args, input);
    assert!(
        stdout.contains("no undo in a game with a clock"),
        "{stdout}"
    );
    assert!(
        stdout.contains("your clock: 60.0 s (+1.0 s a move)"),
        "{stdout}"
    );
    assert!(moves(&record).is_empty(), "{record}");
}

#[test]
fn the_end_of_the_input_resigns() {
    let (stdout, record) = play("eof", &["--game", "pegs", "--seat", "1"], "");
    assert!(stdout.contains("end of input"), "{stdout}");
    assert_eq!(record["end"]["reason"], "resignation");
    assert_eq!(record["end"]["seat"], 1);
}

#[test]
fn a_double_player_sees_only_their_own_hand() {
    let args = ["--game", "double", "--seats", "3", "--seat", "1"];
    let (stdout, record) = play("double", &args, "resign\n");
    let hands: Vec<&str> = stdout.lines().filter(|l| l.contains(" cards: ")).collect();
    assert_eq!(hands.len(), 3, "{stdout}");
    for line in hands {
        let own = line.starts_with("seat 1:") || line.starts_with("seat 1,");
        assert_eq!(line.ends_with("(hidden)"), !own, "{stdout}");
    }
    assert_eq!(record["end"]["seat"], 1);
}

/// Plays a whole game by hand: at every prompt asks for the legal moves, then types the first;
/// once, instead of the third move, takes the second back. Returns the stdout and the record.
fn play_through(name: &str, args: &[&str]) -> (String, Value) {
    let work = Workspace::new(name);
    let dir = work.dir().to_path_buf();
    let out = dir.join("games.jsonl");
    let mut child = Command::new(env!("CARGO_BIN_EXE_referee"))
        .arg("play")
        .args(args)
        .arg("--out")
        .arg(&out)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let (chunks, text) = mpsc::channel();
    std::thread::spawn(move || {
        let mut buffer = [0u8; 4096];
        while let Ok(n @ 1..) = stdout.read(&mut buffer) {
            if chunks.send(buffer[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut seen = String::new();
    let (mut asked, mut typed, mut undone) = (false, 0, false);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let Ok(chunk) = text.recv_timeout(left) else {
            // The end of its output: the game is over.
            break;
        };
        seen.push_str(&String::from_utf8_lossy(&chunk));
        if !seen.ends_with(PROMPT) {
            continue;
        }
        if asked && typed == 2 && !undone {
            // Once a game, the second move is taken back.
            writeln!(stdin, "undo").unwrap();
            (asked, undone) = (false, true);
            seen.push('\n');
            continue;
        }
        if asked {
            typed += 1;
            // The line before this prompt lists the legal moves.
            let lines: Vec<&str> = seen.lines().collect();
            let listed = lines[lines.len() - 2];
            // DOUBLE's moves take several words: `single left CARD`, `left CARD`, `draw`.
            let words: Vec<&str> = listed.split(' ').collect();
            let length = match words[0] {
                "single" => 3,
                "left" | "right" => 2,
                _ => 1,
            };
            let first = words[..length].join(" ");
            writeln!(stdin, "{first}").unwrap();
        } else {
            writeln!(stdin, "?").unwrap();
        }
        asked = !asked;
        seen.push('\n');
    }
    assert!(
        Instant::now() < deadline,
        "the game did not end in time:\n{seen}"
    );
    assert!(child.wait().unwrap().success(), "{seen}");
    let mut records = valid_records(&out);
    (seen, records.remove(0))
}

/// Every game and seat count can be played by hand to its end, from the first seat and another,
/// with a move taken back on the way (the record, validated, shows the game stayed whole).
#[test]
fn every_game_can_be_played_through_by_hand() {
    let games: [&[&str]; 8] = [
        &["--game", "dvonn"],
        &["--game", "double-dutch", "--seats", "3", "--seat", "2"],
        &["--game", "pegs", "--variant", "standard", "--seat", "1"],
        &["--game", "pegs", "--variant", "turbo"],
        &["--game", "wyx", "--seat", "1"],
        &["--game", "wyx", "--variant", "double"],
        &["--game", "double", "--seats", "2"],
        &["--game", "double", "--seats", "4", "--seat", "3"],
    ];
    for (i, args) in games.iter().enumerate() {
        let mut args = args.to_vec();
        // The built-in random bot, so that the games are quick.
        let bot = format!(
            "{} bot --game {} --seed 3",
            common::shared_referee().display(),
            args[1]
        );
        args.extend(["--engine", &bot, "--seed", "11"]);
        let (seen, record) = play_through(&format!("through-{i}"), &args);
        assert_eq!(record["end"]["reason"], "normal", "{args:?}: {seen}");
        assert!(seen.contains("Finished game 1 ("), "{args:?}: {seen}");
        assert!(
            seen.contains("taking back your last move"),
            "{args:?}: {seen}"
        );
    }
}

/// Only the human seat may take a move back: from an engine, `undo` is no move.
#[test]
fn an_engine_answering_undo_has_answered_no_move() {
    let work = Workspace::new("engine-undo");
    let dir = work.dir().to_path_buf();
    let out = dir.join("games.jsonl");
    let bot = format!("{} bot --game dvonn", common::shared_referee().display());
    let records = run_to_records(
        referee()
            // The test engine notes its process ids there.
            .env("FAULTY_PIDS", dir.join("pids"))
            .env("REFEREE", env!("CARGO_BIN_EXE_referee"))
            .args([
                "match", "--game", "dvonn", "--games", "1", "--tc", "inf", "--seed", "1",
            ])
            .args([
                "--engine",
                "python3 tests/engines/faulty.py undo",
                "--engine",
                &bot,
            ]),
        &out,
        60,
    );
    assert_eq!(
        records[0]["end"]["verdict"], "unparseable_move",
        "{}",
        records[0]
    );
    assert_eq!(records[0]["end"]["seat"], 0);
}

/// Where an engine cannot start the game over (a CodeCup process is never told `newgame`), the
/// move stays, the person is told, and the game goes on in step.
#[test]
fn undo_against_a_codecup_program_leaves_the_move_and_says_so() {
    let work = Workspace::new("codecup-undo");
    let dir = work.dir().to_path_buf();
    let out = dir.join("games.jsonl");
    let cc = "name=cc proto=codecup cmd='python3 tests/engines/codecup.py play dvonn 1000'";
    let output = referee()
        .env("REFEREE", env!("CARGO_BIN_EXE_referee"))
        .args(["play", "--game", "dvonn", "--seed", "5", "--engine", cc])
        .arg("--out")
        .arg(&out)
        .write_stdin("a1\nundo\nresign\n")
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    assert!(stdout.contains("not taken back"), "{stdout}");
    let records = valid_records(&out);
    assert_eq!(moves(&records[0]).len(), 2, "{}", records[0]);
    assert_eq!(records[0]["end"]["reason"], "resignation");
}

/// The person is told who sits where, by colour and name, and each move by who played it; no
/// engine is told the names (an engine could play its opponent rather than the game).
#[test]
fn the_person_hears_each_move_by_the_seats_colour_and_name() {
    let work = Workspace::new("names");
    let output = referee()
        .args([
            "match", "--game", "dvonn", "--seed", "5", "--engine", "human",
        ])
        .args(["--engine", "search", "--log-dir"])
        .arg(work.file("logs"))
        .write_stdin("A1\nresign\n")
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(output.status.success(), "{stdout}");
    let log = std::fs::read_to_string(work.file("logs").join("game-00001.log")).unwrap();
    let newgames: Vec<&str> = log.lines().filter(|l| l.contains(" newgame ")).collect();
    assert_eq!(newgames.len(), 2, "{log}");
    for line in newgames {
        assert_eq!(
            line.contains("names=human,search"),
            line.contains("human <"),
            "{line}"
        );
    }
    assert!(
        stdout.contains("you are seat 0, white, against black (search)"),
        "{stdout}"
    );
    assert!(stdout.contains("black (search) plays "), "{stdout}");
    let (stdout, _) = play("names-pegs", &["--game", "pegs", "--seed", "5"], "resign\n");
    assert!(
        stdout.contains("you are seat 0, against seat 1 (search)"),
        "{stdout}"
    );
}
