//! Matches against misbehaving engines (`tests/engines/faulty.py`): each gets the right verdict,
//! the match goes on, every record validates, and no process is left behind.

// The engines these tests run, and what they look at (/proc, bubblewrap), are Linux's.
#![cfg(target_os = "linux")]

mod common;

use common::{Workspace, assert_none_left, exists, valid_records};
use serde_json::Value;

struct Outcome {
    records: Vec<Value>,
    stdout: String,
}

/// Plays two games of the faulty engine in `mode` against the built-in random bot.
fn faulty_match(mode: &str) -> Outcome {
    faulty_match_with(mode, &[])
}

/// [`faulty_match`] with `extra` flags.
fn faulty_match_with(mode: &str, extra: &[&str]) -> Outcome {
    let work = Workspace::new(mode);
    let dir = work.dir().to_path_buf();
    let pids = dir.join("pids");
    let out = dir.join("games.jsonl");
    let _ = std::fs::remove_file(&out);
    let referee = &common::shared_referee();
    let output = common::referee()
        .env("REFEREE", referee)
        .env("FAULTY_PIDS", &pids)
        .args(["match", "--game", "dvonn", "--games", "2", "--seed", "3"])
        .args(["--movetime", "300", "--margin", "1000", "--startup", "5000"])
        .args(extra)
        .arg("--engine")
        .arg(format!(
            "name=faulty cmd='python3 tests/engines/faulty.py {mode}'"
        ))
        .arg("--engine")
        .arg(format!(
            "name=random cmd='{} bot --game dvonn'",
            referee.display()
        ))
        .arg("--out")
        .arg(&out)
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .success()
        .get_output()
        .clone();
    let records = valid_records(&out);
    assert_none_left(&pids);
    Outcome {
        records,
        stdout: String::from_utf8(output.stdout).unwrap(),
    }
}

/// Both games end with `verdict` against the faulty engine, whichever seat it had.
fn assert_verdict(mode: &str, verdict: &str, detail: &str) {
    let outcome = faulty_match(mode);
    assert_eq!(
        outcome.records.len(),
        2,
        "{mode}: the match goes on after a fault"
    );
    for record in &outcome.records {
        let faulty_seat = record["seats"]
            .as_array()
            .unwrap()
            .iter()
            .position(|s| s["name"] == "faulty")
            .unwrap();
        let end = &record["end"];
        assert_eq!(end["reason"], "verdict", "{mode}: {record}");
        assert_eq!(end["verdict"], verdict, "{mode}: {end}");
        assert_eq!(end["seat"], faulty_seat, "{mode}: {end}");
        let text = end["detail"].as_str().unwrap_or_default();
        assert!(
            text.contains(detail),
            "{mode}: detail {text:?} lacks {detail:?}"
        );
        assert_eq!(
            record["result"]["winners"],
            serde_json::json!([1 - faulty_seat])
        );
    }
    assert!(
        outcome
            .stdout
            .contains("Score of faulty vs random: 0 - 2 - 0 [0.000] 2")
    );
}

/// An engine that cannot start the first time stops the run with status 3 and says why, its
/// stderr included, instead of forfeiting every game; a missing command too.
#[test]
fn an_engine_that_cannot_start_stops_the_run() {
    let work = Workspace::new("cannot-start");
    let dir = work.dir().to_path_buf();
    let referee = &common::shared_referee();
    for (engine, why) in [
        (
            "name=faulty cmd='python3 tests/engines/faulty.py crash_start'",
            "exited with code 3; stderr: faulty.py crash_start starting",
        ),
        ("name=faulty cmd=./no-such-engine", "No such file"),
    ] {
        let out = dir.join("games.jsonl");
        common::referee()
            .env("REFEREE", referee)
            .env("FAULTY_PIDS", dir.join("pids"))
            .args(["match", "--game", "dvonn", "--games", "4", "--seed", "3"])
            .args(["--engine", engine, "--engine"])
            .arg(format!(
                "name=random cmd='{} bot --game dvonn'",
                referee.display()
            ))
            .arg("--out")
            .arg(&out)
            .timeout(std::time::Duration::from_secs(60))
            .assert()
            .code(3)
            .stderr(predicates::str::contains("engine faulty cannot start"))
            .stderr(predicates::str::contains(why));
        assert_eq!(std::fs::read_to_string(&out).unwrap_or_default(), "");
    }
    assert_none_left(&dir.join("pids"));
}

#[test]
fn crash_mid_game_is_a_crash_with_the_engines_last_stderr_lines() {
    assert_verdict("crash_mid", "crash", "exited with code 4");
    assert_verdict(
        "crash_mid",
        "crash",
        "stderr: faulty.py crash_mid starting | ZeroDivisionError: faulty.py gave up",
    );
}

/// An engine's last answer, written just before it exits, is read: each of 200 games ends with
/// the move it sent (unparseable), never with a crash, whichever seat it had. The portable path's
/// pipe threads had lost it in about one game in thirty.
#[test]
fn an_answer_written_just_before_an_exit_is_read() {
    let work = Workspace::new("last-word");
    let engine = common::engine_copies(work.dir(), &["last_word.sh"]).join("last_word.sh");
    let records = common::run_to_records(
        common::referee()
            .args(["match", "--game", "pegs", "--games", "200", "--seed", "9"])
            .arg("--engine")
            .arg(format!("name=last cmd='{}'", engine.display()))
            .arg("--engine")
            .arg(common::bot_spec("random", "pegs", None)),
        &work.file("games.jsonl"),
        120,
    );
    assert_eq!(records.len(), 200);
    for record in &records {
        let end = &record["end"];
        assert_eq!(end["verdict"], "unparseable_move", "{end}");
        assert_eq!(
            record["seats"][end["seat"].as_u64().unwrap() as usize]["name"],
            "last"
        );
    }
}
/// An answer 5 ms late (and a little more: the engine's own round trip) loses on time, unless
/// `--timemargin 20` lets it count, with its lateness recorded.
#[test]
fn a_time_margin_accepts_an_answer_a_few_ms_late() {
    // A referee held up past its tolerance while it waited (a busy machine) cannot prove an
    // answer 5 ms late was late, and charges nothing: the ply then records the delay.
    let excused = |record: &Value| {
        let faulty = faulty_seat(record);
        (record["moves"].as_array().unwrap().iter())
            .any(|p| p["seat"] == faulty && p["referee_delay_ms"].is_f64())
    };
    let outcome = faulty_match("late5");
    // An excused late answer leaves the engine playing, and its later games have no late answer
    // (only the process's third genmove is late): then nothing is left to check.
    let checked = match outcome.records.iter().any(excused) {
        true => &outcome.records[..0],
        false => &outcome.records[..],
    };
    for record in checked {
        let end = &record["end"];
        assert_eq!(end["verdict"], "time_loss", "{record}");
        assert_eq!(end["seat"], faulty_seat(record), "{record}");
        let detail = end["detail"].as_str().unwrap();
        assert!(detail.contains("with 300 ms allowed"), "{detail}");
    }
    let outcome = faulty_match_with("late5", &["--timemargin", "20"]);
    let mut late = Vec::new();
    for record in &outcome.records {
        let faulty = faulty_seat(record);
        late.extend(
            record["moves"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|p| p["seat"] == faulty)
                .filter_map(|p| p["overrun_ms"].as_f64()),
        );
        assert_ne!(record["end"]["reason"], "verdict", "{record}");
    }
    // The engine process plays both games; only its third genmove is late (unless excused).
    if !outcome.records.iter().any(excused) {
        assert_eq!(late.len(), 1, "{late:?}");
        assert!((5.0..20.0).contains(&late[0]), "{late:?}");
    }
}

#[test]
fn hang_on_genmove_is_a_stall() {
    assert_verdict("hang", "stall", "no answer within 1300 ms");
}

#[test]
fn late_answer_loses_on_time() {
    assert_verdict("late", "time_loss", "with 300 ms allowed");
}

#[test]
fn garbage_is_a_protocol_error() {
    assert_verdict("garbage", "protocol_error", "where an answer");
}

#[test]
fn unparseable_and_illegal_moves_are_kept_apart() {
    assert_verdict("unparseable", "unparseable_move", "cannot parse move `Z9`");
    assert_verdict("illegal", "illegal_move", "illegal move A1A2: placement");
}

#[test]
fn invalid_utf8_is_a_protocol_error() {
    assert_verdict("invalid_utf8", "protocol_error", "invalid UTF-8");
}

#[test]
fn a_10_mb_line_is_a_protocol_error() {
    assert_verdict("huge_line", "protocol_error", "longer than 65536 bytes");
}

#[test]
fn a_70_kb_line_read_whole_is_a_protocol_error() {
    assert_verdict("long_line", "protocol_error", "longer than 65536 bytes");
}

/// Answers are cleaned as commands are (protocol.md, "Framing"): a control character or a comment
/// does not spoil a move.
#[test]
fn control_characters_and_comments_in_answers_are_removed() {
    for mode in ["nul_in_move", "comment_after_move", "comment_line"] {
        let outcome = faulty_match(mode);
        for record in &outcome.records {
            assert_eq!(record["end"]["reason"], "normal", "{mode}: {record}");
        }
    }
}

#[test]
fn closed_output_is_a_protocol_error() {
    assert_verdict("close_stdout", "protocol_error", "closed its output");
}

#[test]
fn wrong_id_is_a_protocol_error() {
    assert_verdict("wrong_id", "protocol_error", "answered id");
}

#[test]
fn extra_lines_are_a_protocol_error() {
    assert_verdict("extra_lines", "protocol_error", "several lines");
}

#[test]
fn a_child_holding_the_pipes_does_not_hide_a_crash() {
    assert_verdict("fork", "crash", "exited with code 4");
}

#[test]
fn an_engine_ignoring_quit_and_sigterm_is_still_stopped() {
    let outcome = faulty_match("ignore_quit");
    assert_eq!(outcome.records.len(), 2);
    for record in &outcome.records {
        assert_eq!(record["end"]["reason"], "normal", "{record}");
    }
}

#[test]
fn the_example_python_bot_plays_whole_games_of_every_game() {
    for (game, variant) in [
        ("dvonn", None),
        ("double-dutch", None),
        ("pegs", Some("turbo")),
        ("wyx", Some("double")),
        ("double", None),
    ] {
        let work = Workspace::new(&format!("python-{game}"));
        let dir = work.dir().to_path_buf();
        let out = dir.join("games.jsonl");
        let _ = std::fs::remove_file(&out);
        let referee = &common::shared_referee();
        let mut command = common::referee();
        command
            .env("REFEREE", referee)
            .args([
                "match", "--game", game, "--games", "2", "--seed", "9", "--tc", "20+0.2",
            ])
            .args(["--engine", "python3 examples/random_bot.py", "--engine"])
            .arg(format!("{} bot --game {game}", referee.display()))
            .arg("--out")
            .arg(&out)
            .timeout(std::time::Duration::from_secs(60));
        if let Some(variant) = variant {
            command.args(["--variant", variant]);
        }
        let output = command.assert().success().get_output().clone();
        let stdout = String::from_utf8(output.stdout).unwrap();
        assert!(
            stdout.contains("Score of random_bot.py vs referee: "),
            "{game}: {stdout}"
        );
        for record in valid_records(&out) {
            assert_eq!(record["end"]["reason"], "normal", "{game}: {record}");
        }
    }
}

#[test]
fn the_builtin_bot_speaks_the_engine_protocol() {
    let output = common::referee()
        .args(["bot", "--game", "dvonn", "--strategy", "search"])
        .write_stdin(
            "1 protocol_version\n2 name\n3 newgame dvonn seats=2 seat=1 seed=4\n4 play 0 D2\n\
             5 genmove 1 time=1000 inc=10 clocks=1000,1000\n6 genmove 0\n7 play 0 Q9\n8 quit\n",
        )
        .timeout(std::time::Duration::from_secs(20))
        .assert()
        .success()
        .get_output()
        .clone();
    let text = String::from_utf8(output.stdout).unwrap();
    let answers: Vec<&str> = text.split_terminator("\n\n").collect();
    assert_eq!(answers[..4], ["=1 2", "=2 referee-search", "=3", "=4"]);
    // What it thought, then its move.
    let (info, answer) = answers[4].split_once('\n').unwrap();
    assert!(
        info.starts_with("info score=") && info.contains(" depth=") && info.contains(" nodes="),
        "{info}"
    );
    let cell = answer.strip_prefix("=5 ").unwrap();
    assert!(
        cell.len() == 2 && cell != "D2",
        "a placement on an empty cell: {cell}"
    );
    assert_eq!(answers[5], "?6 seat 0 is not to move");
    assert!(
        answers[6].starts_with("?7 cannot parse move `Q9`"),
        "{}",
        answers[6]
    );
    assert_eq!(answers[7], "=8");
}

#[test]
fn an_interrupted_match_leaves_no_engine_behind() {
    let work = Workspace::new("interrupt");
    let dir = work.dir().to_path_buf();
    let pids = dir.join("pids");
    let _ = std::fs::remove_file(&pids);
    let referee = &common::shared_referee();
    let mut child = std::process::Command::new(referee)
        .env("REFEREE", referee)
        .env("FAULTY_PIDS", &pids)
        .args([
            "match",
            "--game",
            "dvonn",
            "--games",
            "4",
            "--movetime",
            "60000",
        ])
        .args(["--engine", "python3 tests/engines/faulty.py hang"])
        .args(["--engine", "python3 tests/engines/faulty.py hang"])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Wait until both engines and their inner bots run, then interrupt.
    let start = std::time::Instant::now();
    while std::fs::read_to_string(&pids)
        .unwrap_or_default()
        .lines()
        .count()
        < 4
    {
        assert!(start.elapsed().as_secs() < 20, "the engines did not start");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    // Twice: the first would let the hanging game run to its stall; the second stops at once.
    let pid = nix::unistd::Pid::from_raw(child.id() as i32);
    for _ in 0..2 {
        nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGINT).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    assert_none_left(&pids);
}

/// Runs a match of two seeded random bots and returns the records in game order.
fn random_match(games: &str, concurrency: &str, extra: &[&str]) -> (Vec<Value>, String) {
    let work = Workspace::new(&format!("random-{games}-{concurrency}-{}", extra.len()));
    let dir = work.dir().to_path_buf();
    let out = dir.join("games.jsonl");
    let _ = std::fs::remove_file(&out);
    let bot = format!("{} bot --game dvonn", common::shared_referee().display());
    let output = common::referee()
        .args(["match", "--game", "dvonn", "--seed", "77", "--games", games])
        .args([
            "--concurrency",
            concurrency,
            "--engine",
            &bot,
            "--engine",
            &bot,
        ])
        .args(extra)
        .arg("--out")
        .arg(&out)
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .success()
        .get_output()
        .clone();
    let records = valid_records(&out);
    (records, String::from_utf8(output.stdout).unwrap())
}

fn moves(record: &Value) -> Vec<String> {
    record["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["move"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn a_seed_reproduces_the_match_at_any_concurrency() {
    let (one, _) = random_match("6", "1", &[]);
    let (two, _) = random_match("6", "2", &[]);
    assert_eq!(one.len(), 6);
    for (a, b) in one.iter().zip(&two) {
        assert_eq!(moves(a), moves(b));
        assert_eq!(a["seed"], b["seed"]);
        assert_eq!(a["seats"], b["seats"]);
        let run = a["tags"]["tournament"].as_str().unwrap();
        assert!(run.contains(" seed=77 "), "{run}");
        for ply in a["moves"].as_array().unwrap() {
            assert!(
                ply["time_ms"].is_number() && ply["clock_ms"].is_number(),
                "{ply}"
            );
        }
    }
    let seeds: std::collections::HashSet<String> =
        one.iter().map(|r| r["seed"].to_string()).collect();
    assert_eq!(seeds.len(), 6, "each game has its own seed");
}

#[test]
fn repeat_plays_each_seed_twice_with_seats_swapped() {
    let (records, _) = random_match("4", "1", &["--repeat"]);
    assert_eq!(records[0]["seed"], records[1]["seed"]);
    assert_eq!(records[2]["seed"], records[3]["seed"]);
    assert_ne!(records[0]["seed"], records[2]["seed"]);
    assert_eq!(records[0]["seats"][0]["name"], "referee");
    assert_eq!(
        records[0]["seats"][0]["name"],
        records[1]["seats"][1]["name"]
    );
}

#[test]
fn json_summary_counts_every_game() {
    let (_, stdout) = random_match("4", "2", &["--json"]);
    let summary: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(summary["games"], 4);
    // The same standings `stats` gives: engines best first, each with its two-seat tally.
    let mut names: Vec<&str> = summary["engines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    names.sort_unstable();
    assert_eq!(names, ["referee", "referee#2"]);
    for engine in summary["engines"].as_array().unwrap() {
        let t = &engine["tally"];
        let counted = t["wins"].as_u64().unwrap()
            + t["losses"].as_u64().unwrap()
            + t["draws"].as_u64().unwrap();
        assert_eq!(counted, 4);
    }
    assert_eq!(summary["ends"]["normal"], 4);
    assert!(summary["plies"].as_u64().unwrap() > 4 * 40);
    assert!(summary["pairings"][0]["estimate"]["score"].is_number());
}

#[test]
fn engine_processes_live_from_game_to_game() {
    let work = Workspace::new("reuse");
    let dir = work.dir().to_path_buf();
    let pids = dir.join("pids");
    let _ = std::fs::remove_file(&pids);
    let referee = &common::shared_referee();
    common::referee()
        .env("REFEREE", referee)
        .env("FAULTY_PIDS", &pids)
        .args(["match", "--game", "dvonn", "--games", "4", "--tc", "20+0.2"])
        .args(["--engine", "python3 tests/engines/faulty.py none"])
        .arg("--engine")
        .arg(format!("{} bot --game dvonn", referee.display()))
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .success();
    // One wrapper and its inner bot, started once for all four games.
    let started = std::fs::read_to_string(&pids).unwrap();
    assert_eq!(started.lines().count(), 2, "{started}");
    for pid in started.lines() {
        assert!(!exists(pid), "process {pid} was left behind");
    }
}

/// Three games of 3-seat Double Dutch: the faulty engine (crashing at its third genmove) and two
/// random bots, with `--on-fault` set to `policy`; the records and the referee's stdout.
fn three_seat_match(policy: &str) -> (Vec<Value>, String) {
    let work = Workspace::new(&format!("three-{policy}"));
    let dir = work.dir().to_path_buf();
    let (pids, out) = (dir.join("pids"), dir.join("games.jsonl"));
    let _ = std::fs::remove_file(&out);
    let referee = &common::shared_referee();
    let bot = format!("{} bot --game double-dutch", referee.display());
    let stdout = common::referee()
        .env("REFEREE", referee)
        .env("FAULTY_PIDS", &pids)
        .args([
            "match",
            "--game",
            "double-dutch",
            "--games",
            "3",
            "--seed",
            "2",
        ])
        .args(["--on-fault", policy, "--tc", "20+0.2"])
        .args([
            "--engine",
            "name=faulty cmd='python3 tests/engines/faulty.py crash_mid double-dutch'",
        ])
        .args(["--engine", &bot, "--engine", &bot])
        .arg("--out")
        .arg(&out)
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_none_left(&pids);
    (valid_records(&out), String::from_utf8(stdout).unwrap())
}

fn faulty_seat(record: &Value) -> u64 {
    let seats = record["seats"].as_array().unwrap();
    seats.iter().position(|s| s["name"] == "faulty").unwrap() as u64
}

#[test]
fn substitute_plays_on_for_a_faulty_seat_which_cannot_win() {
    let (records, stdout) = three_seat_match("substitute");
    // The game lines and the summary show the faults, though the games ended normally.
    assert_eq!(
        stdout
            .matches("the referee played for faulty from ply")
            .count(),
        3,
        "{stdout}"
    );
    assert!(
        stdout.contains("after crash: exited with code 4"),
        "{stdout}"
    );
    assert!(stdout.contains("ends: substitute 3 (crash)"), "{stdout}");
    for record in records {
        let seat = faulty_seat(&record);
        assert_eq!(record["end"]["reason"], "normal", "{record}");
        let faults = record["faults"].as_array().unwrap();
        assert_eq!(faults.len(), 1);
        assert_eq!(faults[0]["seat"], seat);
        assert_eq!(faults[0]["verdict"], "crash");
        let winners = record["result"]["winners"].as_array().unwrap();
        assert!(!winners.contains(&Value::from(seat)), "{record}");
        // The referee made the faulty seat's later moves: the game went well past its fault.
        let fault_ply = faults[0]["ply"].as_u64().unwrap();
        let later = record["moves"].as_array().unwrap()[fault_ply as usize..]
            .iter()
            .filter(|p| p["seat"] == seat)
            .count();
        assert!(later > 0, "{record}");
    }
}

#[test]
fn forfeit_ends_a_three_seat_game_and_the_others_share_the_win() {
    for record in three_seat_match("forfeit").0 {
        let seat = faulty_seat(&record);
        assert_eq!(record["end"]["reason"], "verdict");
        assert_eq!(record["end"]["seat"], seat);
        let others: Vec<u64> = (0..3).filter(|&s| s != seat).collect();
        assert_eq!(record["result"]["winners"], serde_json::json!(others));
    }
}

#[test]
fn transcripts_hold_every_line_with_times_and_stderr() {
    let work = Workspace::new("logs");
    let dir = work.dir().to_path_buf();
    let logs = dir.join("logs");
    let _ = std::fs::remove_dir_all(&logs);
    let referee = &common::shared_referee();
    common::referee()
        .env("REFEREE", referee)
        .env("FAULTY_PIDS", dir.join("pids"))
        .args([
            "match",
            "--game",
            "dvonn",
            "--games",
            "2",
            "--movetime",
            "300",
        ])
        .args([
            "--engine",
            "name=faulty cmd='python3 tests/engines/faulty.py garbage'",
        ])
        .arg("--engine")
        .arg(format!(
            "name=random cmd='{} bot --game dvonn'",
            referee.display()
        ))
        .arg("--log-dir")
        .arg(&logs)
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .success();
    let first = std::fs::read_to_string(logs.join("game-00001.log")).unwrap();
    let second = std::fs::read_to_string(logs.join("game-00002.log")).unwrap();
    assert!(
        first.contains("faulty ! faulty.py garbage starting"),
        "{first}"
    );
    assert!(first.contains("random < 1 protocol_version"), "{first}");
    assert!(
        first.contains("faulty > hello, this is not an answer"),
        "{first}"
    );
    assert!(
        first.contains("referee # end {\"reason\":\"verdict\""),
        "{first}"
    );
    // The faulty engine was restarted for game 2; the random bot was not.
    assert!(second.contains("faulty < 1 protocol_version"), "{second}");
    assert!(!second.contains("random < 1 protocol_version"), "{second}");
    // Every line starts with milliseconds since the game began.
    for line in first.lines() {
        let ms = line.split_whitespace().next().unwrap();
        assert!(ms.parse::<f64>().is_ok(), "{line}");
    }
}

#[test]
fn a_six_seat_double_match_goes_on_when_one_engine_crashes() {
    let work = Workspace::new("double-six");
    let dir = work.dir().to_path_buf();
    let (pids, out) = (dir.join("pids"), dir.join("games.jsonl"));
    let _ = std::fs::remove_file(&out);
    let referee = &common::shared_referee();
    let bot = format!("{} bot --game double", referee.display());
    let mut command = common::referee();
    command
        .env("REFEREE", referee)
        .env("FAULTY_PIDS", &pids)
        .args([
            "match", "--game", "double", "--seats", "6", "--games", "2", "--seed", "5",
        ])
        .args(["--on-fault", "substitute", "--movetime", "200"])
        .args([
            "--engine",
            "name=faulty cmd='python3 tests/engines/faulty.py crash_mid double'",
        ]);
    for _ in 0..5 {
        command.args(["--engine", &bot]);
    }
    command
        .arg("--out")
        .arg(&out)
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .success();
    assert_none_left(&pids);
    for record in valid_records(&out) {
        let seat = faulty_seat(&record);
        assert_eq!(
            record["end"]["reason"], "normal",
            "the match is played out: {record}"
        );
        assert_eq!(record["faults"][0]["seat"], seat);
        assert_eq!(record["faults"][0]["verdict"], "crash");
        let winners = record["result"]["winners"].as_array().unwrap();
        assert!(!winners.contains(&Value::from(seat)));
    }
}

/// `--tc inf`: no clock keys in `genmove`, `tc=inf` in `newgame`, times kept but no clock.
#[test]
fn no_clock_at_all_with_tc_inf() {
    let work = Workspace::new("tc-inf");
    let dir = work.dir().to_path_buf();
    let (out, logs) = (dir.join("games.jsonl"), dir.join("logs"));
    let random = format!("{} bot --game pegs", common::shared_referee().display());
    common::referee()
        .args(["match", "--game", "pegs", "--games", "2", "--seed", "4"])
        .args(["--engine", &random, "--engine", &random])
        .args(["--tc", "inf", "--log-dir"])
        .arg(&logs)
        .arg("--out")
        .arg(&out)
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .success();
    let log = std::fs::read_to_string(logs.join("game-00001.log")).unwrap();
    assert!(log.contains(" seat=0 seed="), "{log}");
    assert!(log.contains(" tc=inf"), "{log}");
    let genmoves: Vec<&str> = log.lines().filter(|l| l.contains("genmove")).collect();
    assert!(!genmoves.is_empty());
    for line in genmoves {
        assert!(
            line.trim_end().ends_with("genmove 0") || line.trim_end().ends_with("genmove 1"),
            "{line}"
        );
    }
    for record in valid_records(&out) {
        for ply in record["moves"].as_array().unwrap() {
            assert!(
                ply["time_ms"].is_number() && ply.get("clock_ms").is_none(),
                "{ply}"
            );
        }
    }
}

/// What an engine writes to stderr before its last answer of a game lands in that game's
/// transcript, never the next one's, with games played two at a time.
#[test]
fn stderr_lands_in_the_transcript_of_its_own_game() {
    if cfg!(feature = "portable") {
        // Its threads read stdout and stderr apart: what came just before the last answer may be
        // read after it (protocol.md says so).
        eprintln!("skipped in the portable build: stderr is not read in order with the answers");
        return;
    }
    let work = Workspace::new("chatty");
    let dir = work.dir().to_path_buf();
    let logs = dir.join("logs");
    let _ = std::fs::remove_dir_all(&logs);
    let referee = &common::shared_referee();
    common::referee()
        .env("REFEREE", referee)
        .env("FAULTY_PIDS", dir.join("pids"))
        .args(["match", "--game", "pegs", "--games", "40", "--seed", "3"])
        .args(["--movetime", "300", "--concurrency", "2", "--engine"])
        .arg("name=chatty cmd='python3 tests/engines/faulty.py chatty pegs'")
        .arg("--engine")
        .arg(format!(
            "name=random cmd='{} bot --game pegs'",
            referee.display()
        ))
        .arg("--log-dir")
        .arg(&logs)
        .timeout(std::time::Duration::from_secs(120))
        .assert()
        .success();
    let mut checked = 0;
    for game in 1..=40 {
        let log = std::fs::read_to_string(logs.join(format!("game-{game:05}.log"))).unwrap();
        let seed = log
            .lines()
            .filter(|l| l.contains("chatty < ") && l.contains(" newgame "))
            .find_map(|l| l.split_whitespace().find_map(|w| w.strip_prefix("seed=")))
            .expect("the engine's newgame is in the transcript");
        // `seed=None`: the handshake of a new process, before its first game.
        let said = |l: &&str| l.contains("chatty ! chatty seed=") && !l.contains("seed=None");
        for line in log.lines().filter(said) {
            assert!(
                line.contains(&format!("seed={seed} ")),
                "game {game}: {line}"
            );
            checked += 1;
        }
        assert!(
            log.contains(&format!("chatty ! chatty seed={seed} play")),
            "game {game} holds the engine's last lines: {log}"
        );
    }
    assert!(checked > 40 * 10, "{checked} lines checked");
}

/// A game's engines are started together: each is asked for its handshake before any answers,
/// so engines slow to start cost the game one start-up, not one per seat.
#[test]
fn a_games_engines_start_and_shake_hands_together() {
    let work = Workspace::new("together");
    let dir = work.dir().to_path_buf();
    let logs = dir.join("logs");
    let _ = std::fs::remove_dir_all(&logs);
    let referee = &common::shared_referee();
    let slow = |name: &str| {
        format!(
            "name={name} cmd=\"sh -c 'sleep 0.3; exec {} bot --game wyx'\"",
            referee.display()
        )
    };
    common::referee()
        .args([
            "match",
            "--game",
            "wyx",
            "--games",
            "1",
            "--movetime",
            "300",
        ])
        .args(["--engine", &slow("a"), "--engine", &slow("b"), "--log-dir"])
        .arg(&logs)
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .success();
    let log = std::fs::read_to_string(logs.join("game-00001.log")).unwrap();
    let first_answer = log.find(" > =").expect("answers");
    for name in ["a", "b"] {
        let asked = log.find(&format!("{name} < 1 protocol_version")).unwrap();
        assert!(asked < first_answer, "{name} asked late:\n{log}");
    }
}

/// The portable build (what macOS and Windows run) refuses what only Linux offers, naming it and
/// the platform, before any game; an engine asking for none of it plays.
#[cfg(feature = "portable")]
#[test]
fn the_portable_build_refuses_what_needs_linux_by_name() {
    let bot = format!("{} bot --game pegs", common::shared_referee().display());
    let run = |keys: &str| {
        common::referee()
            .args(["match", "--game", "pegs", "--games", "1", "--seed", "2"])
            .arg("--engine")
            .arg(format!("name=asks cmd='{bot}' {keys}"))
            .arg("--engine")
            .arg(format!("name=other cmd='{bot}'"))
            .timeout(std::time::Duration::from_secs(60))
            .assert()
    };
    for (keys, what) in [
        ("sandbox=bwrap", "sandbox=bwrap"),
        ("mem=256M", "a resource limit"),
        ("user=64000", "user="),
    ] {
        let refused = run(keys).code(2);
        let stderr = String::from_utf8_lossy(&refused.get_output().stderr).into_owned();
        assert!(
            stderr.contains(&format!("engine asks: {what}")) && stderr.contains("needs Linux"),
            "{keys}: {stderr}"
        );
    }
    run("").success();
}
