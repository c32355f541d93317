//! Engines that flood, signals at any moment, a referee killed outright, orphans: the referee
//! ends in seconds, in bounded memory, records nothing false and leaves nothing running.

// The engines these tests run, and what they look at (/proc, bubblewrap), are Linux's.
#![cfg(target_os = "linux")]

mod common;

use std::process::Command;
use std::time::{Duration, Instant};

use assert_cmd::cargo::cargo_bin;
use common::{
    Workspace, assert_stops_by, children_of, peak_rss_kib, processes_with,
    referee_process as referee, run_sampled, runs_python, send_signal, temp_dir, valid_records,
};
use serde_json::Value;

/// The most resident memory a flooded referee may reach, in KiB.
const FLOOD_RSS_LIMIT_KIB: u64 = 64 * 1024;

fn bot() -> String {
    format!(
        "name=bot cmd='{} bot --game dvonn'",
        common::shared_referee().display()
    )
}

/// Runs a two-game DVONN match of `engine` against the built-in bot; returns the records, the
/// referee's stdout and its peak memory in KiB. It must end within 30 s.
fn flood_match(name: &str, engine: &str) -> (Vec<Value>, String, u64) {
    let (output, peak, out) = flood_run(name, engine);
    assert!(output.status.success(), "{output:?}");
    (
        valid_records(&out),
        String::from_utf8(output.stdout).unwrap(),
        peak,
    )
}

/// The run of [`flood_match`]: its output, the referee's peak memory in KiB, and its records file.
fn flood_run(name: &str, engine: &str) -> (std::process::Output, u64, std::path::PathBuf) {
    let dir = temp_dir(name);
    let out = dir.join("games.jsonl");
    let mut peak = 0;
    let output = run_sampled(
        referee()
            .env("REFEREE", cargo_bin!("referee"))
            .env("FAULTY_PIDS", dir.join("pids"))
            .args(["match", "--game", "dvonn", "--games", "2", "--seed", "3"])
            // A start-up long enough for a busy machine: the floods are caught by their lines'
            // count, not a deadline.
            .args([
                "--movetime",
                "300",
                "--margin",
                "1000",
                "--startup",
                "20000",
            ])
            .args(["--engine", engine, "--engine", &bot(), "--out"])
            .arg(&out),
        None,
        Duration::from_secs(30),
        |pid| peak = peak.max(peak_rss_kib(pid)),
    );
    (output, peak, out)
}

fn assert_flood_verdict(name: &str, engine: &str, verdict: &str, detail: &str) {
    let (records, stdout, peak) = flood_match(name, engine);
    assert_eq!(records.len(), 2, "{stdout}");
    for record in &records {
        assert_eq!(record["end"]["verdict"], verdict, "{record}");
        let text = record["end"]["detail"].as_str().unwrap();
        assert!(text.contains(detail), "{text}");
    }
    assert!(
        peak < FLOOD_RSS_LIMIT_KIB,
        "{name}: the referee reached {peak} KiB"
    );
}

/// An engine that never finishes its first handshake stops the run (status 3), in bounded memory.
#[test]
fn blank_lines_without_end_at_startup_fail_the_start_in_bounded_memory() {
    let (output, peak, out) = flood_run("yes", "name=yes cmd=\"yes ''\"");
    assert_eq!(output.status.code(), Some(3), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("engine yes cannot start"), "{stderr}");
    assert!(stderr.contains("more than 256 lines"), "{stderr}");
    assert!(!out.exists() || std::fs::read(&out).unwrap().is_empty());
    assert!(peak < FLOOD_RSS_LIMIT_KIB, "the referee reached {peak} KiB");
}

fn faulty(mode: &str) -> String {
    format!("name=faulty cmd='python3 tests/engines/faulty.py {mode}'")
}

#[test]
fn blank_lines_without_end_on_move_are_a_protocol_error() {
    assert_flood_verdict(
        "flood_blank",
        &faulty("flood_blank"),
        "protocol_error",
        "more than 256 lines",
    );
}

#[test]
fn an_answer_with_endless_continuation_lines_is_a_protocol_error() {
    assert_flood_verdict(
        "flood_continuation",
        &faulty("flood_continuation"),
        "protocol_error",
        "more than 256 lines",
    );
}

#[test]
fn blank_lines_while_not_on_move_count_against_the_next_answer() {
    assert_flood_verdict(
        "flood_idle",
        &faulty("flood_idle"),
        "protocol_error",
        "more than 256 lines",
    );
}

/// An engine that writes far more to stderr than a pipe holds while the other seat is on move
/// blocks there until the referee reads it, which it does whenever it waits on that engine: the
/// games end as the rules say, with no fault, in bounded memory.
#[test]
fn stderr_written_while_not_on_move_holds_up_nobody() {
    let (records, stdout, peak) = flood_match("stderr_idle", &faulty("stderr_idle"));
    assert_eq!(records.len(), 2, "{stdout}");
    for record in &records {
        assert!(record["end"].get("verdict").is_none(), "{record}");
        assert!(record["moves"].as_array().unwrap().len() > 40, "{record}");
    }
    assert!(peak < FLOOD_RSS_LIMIT_KIB, "the referee reached {peak} KiB");
}

/// Clock ticks since boot, as `/proc/PID/stat` gives a process's start.
fn ticks_since_boot() -> u64 {
    let uptime = std::fs::read_to_string("/proc/uptime").unwrap();
    let seconds: f64 = uptime.split_whitespace().next().unwrap().parse().unwrap();
    let getconf = Command::new("getconf").arg("CLK_TCK").output().unwrap();
    let per_second: u64 = String::from_utf8(getconf.stdout)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    (seconds * per_second as f64) as u64
}

/// Interrupts a match between two built-in bots after `delay`; returns its records. Every engine
/// notes when it was forked in `starts`. With `engines_too`, the signal goes to every engine
/// process first and then to the referee, in one `kill`, as Slurm stops a job.
fn interrupted_match(
    dir: &std::path::Path,
    signal: &str,
    delay: Duration,
    engines_too: bool,
) -> Vec<Value> {
    let out = dir.join("games.jsonl");
    let starts = dir.join("starts");
    let pids = dir.join("pids");
    for file in [&out, &starts, &pids] {
        let _ = std::fs::remove_file(file);
    }
    let engine = |name: &str| format!("name={name} cmd='python3 tests/engines/faulty.py none'");
    let mut child = referee()
        .env("REFEREE", cargo_bin!("referee"))
        .env("FAULTY_PIDS", &pids)
        .env("FAULTY_STARTS", &starts)
        .args([
            "match", "--game", "dvonn", "--games", "100000", "--tc", "60+0",
        ])
        .args(["--concurrency", "2", "--on-fault", "forfeit"])
        .args(["--engine", &engine("a"), "--engine", &engine("b"), "--out"])
        .arg(&out)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(delay);
    let sent = ticks_since_boot();
    let mut targets: Vec<String> = Vec::new();
    if engines_too {
        let listed = std::fs::read_to_string(&pids).unwrap_or_default();
        targets.extend(listed.lines().map(str::to_owned));
    }
    targets.push(child.id().to_string());
    Command::new("kill")
        .arg(format!("-{signal}"))
        .args(&targets)
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap();
    let waited = Instant::now();
    let status = child.wait().unwrap();
    assert!(waited.elapsed() < Duration::from_secs(5), "slow to stop");
    // Stopped by the signal (128 + its number), not failed for an engine's fault (status 3).
    let number = match signal {
        "HUP" => 1,
        "INT" => 2,
        "QUIT" => 3,
        _ => 15,
    };
    assert_eq!(status.code(), Some(128 + number), "{signal} to the referee");
    // Every engine (and the bot each runs) is gone, or a zombie left to init.
    for pid in std::fs::read_to_string(&pids).unwrap_or_default().lines() {
        let deadline = Instant::now() + Duration::from_secs(2);
        assert_stops_by(pid, deadline, &format!("{signal}: an engine"));
    }
    // A run stopped before its first game finished leaves its --out empty (or none at all).
    let empty = std::fs::metadata(&out).map_or(true, |m| m.len() == 0);
    let records = if empty {
        Vec::new()
    } else {
        valid_records(&out)
    };
    let late = std::fs::read_to_string(&starts)
        .unwrap_or_default()
        .lines()
        .map(|l| l.parse::<u64>().unwrap())
        // A tick is 10 ms: a fork in the tick after the one the signal was sent in is late.
        .filter(|&t| t > sent + 1)
        .count();
    assert_eq!(late, 0, "{signal}: an engine started after the signal");
    records
}

/// Interrupts `runs` matches (REFEREE_INTERRUPT_RUNS, if set) with each stop signal in turn,
/// spread over the first games (startup, mid-game, between games) from `first` on; no game the
/// signal cut short is recorded. With `engines_too`, the engines get the signal first.
fn interrupt_runs(name: &str, runs: usize, first: u64, engines_too: bool) {
    let work = Workspace::new(name);
    let dir = work.dir().to_path_buf();
    let runs: usize = std::env::var("REFEREE_INTERRUPT_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(runs);
    let signals = ["INT", "TERM", "HUP", "QUIT"];
    let mut recorded = 0;
    for run in 0..runs {
        let signal = signals[run % signals.len()];
        let delay = Duration::from_millis(first + (run as u64 * 37) % 900);
        let records = interrupted_match(&dir, signal, delay, engines_too);
        for record in &records {
            assert_eq!(
                record["end"]["reason"], "normal",
                "{signal} after {delay:?} (engines too: {engines_too}): a game the signal cut \
                 short was recorded: {record}"
            );
        }
        recorded += records.len();
    }
    // The runs did reach finished games, so the check above saw records.
    assert!(recorded > 0);
}

#[test]
fn an_interrupt_records_no_false_result_and_starts_no_engine() {
    interrupt_runs("interrupt", 50, 150, false);
}

/// A job scheduler (Slurm) or a terminal signals the engines as well as the referee, and an
/// engine may die of it first: that is no crash of the engine, the game is not recorded, and the
/// run ends as stopped, not as failed for an engine that cannot start.
#[test]
fn a_stop_signal_that_also_reaches_the_engines_is_no_engine_fault() {
    interrupt_runs("interrupt-all", 16, 300, true);
}

#[test]
fn engines_do_not_outlive_a_referee_killed_outright() {
    let work = Workspace::new("sigkill");
    let dir = work.dir().to_path_buf();
    let pids = dir.join("pids");
    let mut child = referee()
        .env("REFEREE", cargo_bin!("referee"))
        .env("FAULTY_PIDS", &pids)
        .args(["match", "--game", "dvonn", "--games", "2", "--tc", "60+0"])
        .args(["--engine", &faulty("busy"), "--engine", &bot()])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // The busy engine spins from its third move on, reading nothing.
    std::thread::sleep(Duration::from_millis(1500));
    child.kill().unwrap();
    child.wait().unwrap();
    let deadline = Instant::now() + Duration::from_secs(3);
    let listed = std::fs::read_to_string(&pids).unwrap();
    assert!(listed.lines().count() >= 2, "the engine started: {listed}");
    for pid in listed.lines() {
        assert_stops_by(pid, deadline, "an engine outlived the referee");
    }
}

#[test]
fn orphans_that_left_the_process_group_are_reaped_game_by_game() {
    let work = Workspace::new("setsid");
    let dir = work.dir().to_path_buf();
    let out = dir.join("games.jsonl");
    let mut most = 0;
    let output = run_sampled(
        referee()
            .env("REFEREE", cargo_bin!("referee"))
            .env("FAULTY_PIDS", dir.join("pids"))
            .args([
                "match",
                "--game",
                "pegs",
                "--games",
                "30",
                "--movetime",
                "20",
            ])
            .args(["--engine", &faulty("setsid_helper pegs"), "--engine"])
            .arg(format!(
                "name=bot cmd='{} bot --game pegs'",
                common::shared_referee().display()
            ))
            .arg("--out")
            .arg(&out),
        None,
        Duration::from_secs(120),
        |pid| {
            let zombies = children_of(pid).iter().filter(|(_, s)| *s == 'Z').count();
            most = most.max(zombies);
        },
    );
    assert!(output.status.success(), "{output:?}");
    let records = valid_records(&out);
    assert_eq!(records.len(), 30);
    // The faulty engine leaves a helper for every command it gets, at least one per ply. Each
    // ends within 50 ms and is reaped as the games go: a few at once on an idle machine, 52 seen
    // under the whole test suite's load on two cores. Never reaped, they would all be there at
    // the end: one per ply and more (over a thousand in 30 games).
    let plies: usize = records
        .iter()
        .map(|r| r["moves"].as_array().unwrap().len())
        .sum();
    // Fewer plies under load (moves of 20 ms lost on time end games early: 279 seen) while
    // more helpers wait at once; never reaped, they would outnumber the plies.
    assert!(plies >= 150, "{plies} plies");
    assert!(
        most <= plies / 2,
        "{most} zombies waited to be reaped at once, in {plies} plies"
    );
}

/// Runs `referee ARGS` with `input` on stdin; returns its output and peak memory in KiB. The
/// bound only catches a hang: a debug build's perft budget took over a minute on a machine
/// running two test suites.
fn run_with_input(args: &[&str], input: Vec<u8>) -> (std::process::Output, u64) {
    let mut peak = 0;
    let output = run_sampled(
        referee().args(args),
        Some(input),
        Duration::from_secs(300),
        |pid| peak = peak.max(peak_rss_kib(pid)),
    );
    (output, peak)
}

#[test]
fn a_session_line_of_200_mb_is_refused_in_bounded_memory_and_the_session_goes_on() {
    let mut input = b"newgame dvonn\nplay ".to_vec();
    input.extend(std::iter::repeat_n(b'D', 200 << 20));
    input.extend(b"\nplay D2\n");
    input.extend(std::iter::repeat_n(b'x', 10_000));
    input.extend(b"\nto_move\n");
    let (output, peak) = run_with_input(&["session"], input);
    let stdout = String::from_utf8(output.stdout).unwrap();
    let answers: Vec<&str> = stdout.split("\n\n").collect();
    assert_eq!(answers[0], "=");
    assert_eq!(answers[1], "? a command line is at most 65536 bytes");
    assert_eq!(answers[2], "=");
    // The unknown command is quoted, but only its first few hundred characters.
    assert!(
        answers[3].starts_with("? unknown command `xxx"),
        "{}",
        answers[3]
    );
    assert!(answers[3].len() < 500, "{}", answers[3].len());
    assert_eq!(answers[4], "= 1");
    assert!(peak < 32 * 1024, "the session reached {peak} KiB");
}

#[test]
fn perft_stops_at_its_budget_with_a_clear_error() {
    // The CodeCup game's placements and its first moves: a mid-game position where perft 6
    // expands hundreds of millions of positions (83 s before the budget existed).
    let script = std::fs::read_to_string("fixtures/dvonn/codecup-2011-game-53360.gtp").unwrap();
    let mut input: Vec<u8> = script
        .lines()
        .take(56)
        .collect::<Vec<_>>()
        .join("\n")
        .into();
    input.extend(b"\nperft 6\nperft 2\n");
    // The answer names the budget it stopped at: no timing needed (a debug build on a busy
    // machine takes tens of seconds for the 30 million positions).
    let (output, _) = run_with_input(&["session"], input);
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(
        stdout.contains("? perft 6 stopped after expanding 30000000 positions"),
        "{stdout}"
    );
    assert!(stdout.trim_end().ends_with(|c: char| c.is_ascii_digit()));
    // Near the end of the game perft 6 finishes.
    let mut late: Vec<u8> = script
        .lines()
        .filter(|l| l.starts_with("play") || l.starts_with("newgame"))
        .collect::<Vec<_>>()
        .join("\n")
        .into();
    late.extend(b"\nundo\nundo\nundo\nundo\nundo\nundo\nperft 6\n");
    let (output, _) = run_with_input(&["session"], late);
    let stdout = String::from_utf8(output.stdout).unwrap();
    let last = stdout.trim_end().rsplit("\n\n").next().unwrap();
    assert!(last.starts_with("= "), "{last}");
}

#[test]
fn a_double_bot_refuses_seats_that_do_not_exist_without_crashing() {
    let input = b"1 newgame double seats=2 seat=0 seed=5\n2 event deal 9\n3 event deal 3\n\
        4 event deal 255\n5 event deal -1\n6 newgame double seats=2 seat=7\n7 name\n"
        .to_vec();
    let (output, _) = run_with_input(&["bot", "--game", "double"], input);
    assert!(output.status.success());
    let stdout = String::from_utf8(output.stdout).unwrap();
    let answers: Vec<&str> = stdout.split("\n\n").collect();
    assert_eq!(answers[0], "=1");
    for answer in &answers[1..5] {
        assert!(answer.contains("not a seat of this game"), "{answer}");
    }
    assert!(
        answers[5].contains("seat=7 is not a seat of a 2-seat game"),
        "{}",
        answers[5]
    );
    assert!(answers[6].starts_with("=7 referee-"), "{}", answers[6]);
}

#[test]
fn transcripts_are_capped_private_and_say_what_they_dropped() {
    use std::os::unix::fs::PermissionsExt;
    let work = Workspace::new("log-limit");
    let dir = work.dir().to_path_buf();
    let logs = dir.join("logs");
    let output = referee()
        .args([
            "match",
            "--game",
            "dvonn",
            "--games",
            "1",
            "--movetime",
            "50",
        ])
        .args([
            "--engine",
            &bot(),
            "--engine",
            &bot(),
            "--log-limit",
            "2000",
        ])
        .arg("--log-dir")
        .arg(&logs)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let path = logs.join("game-00001.log");
    let text = std::fs::read_to_string(&path).unwrap();
    let mode = std::fs::metadata(&path).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600, "only its owner may read a transcript");
    assert!(
        text.contains("lines dropped past the transcript's limit of 2000 bytes"),
        "{text}"
    );
    // The engines' lines stop at the limit; the referee's notes (the result) are always kept.
    let engine_bytes: usize = text
        .lines()
        .filter(|l| !l.contains(" referee # "))
        .map(|l| l.len() + 1)
        .sum();
    assert!(engine_bytes <= 2000, "{engine_bytes} bytes of engine lines");
    assert!(text.contains("referee # end"), "{text}");
}

#[test]
fn a_schedule_of_ten_million_rounds_takes_no_memory_up_front() {
    let work = Workspace::new("long-schedule");
    let dir = work.dir().to_path_buf();
    let out = dir.join("t.jsonl");
    let engine = |name: &str| {
        format!(
            "name={name} cmd='{} bot --game pegs'",
            common::shared_referee().display()
        )
    };
    let mut child = referee()
        .args([
            "tournament",
            "--game",
            "pegs",
            "--rounds",
            "10000000",
            "--movetime",
            "50",
        ])
        .args([
            "--engine",
            &engine("a"),
            "--engine",
            &engine("b"),
            "--engine",
            &engine("c"),
        ])
        .arg("--out")
        .arg(&out)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut peak = 0;
    while std::fs::read_to_string(&out).map_or(0, |t| t.lines().count()) < 3 {
        assert!(Instant::now() < deadline, "no game finished in 30 s");
        peak = peak.max(peak_rss_kib(child.id()));
        std::thread::sleep(Duration::from_millis(20));
    }
    peak = peak.max(peak_rss_kib(child.id()));
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(peak < 32 * 1024, "{peak} KiB for a long schedule");
}

/// Runs a match of two slow engines (each move 40 ms) and sends SIGINT `signals` times, 200 ms
/// apart, in the middle of the first game; returns the exit status, the records and stderr.
fn stopped_slow_match(name: &str, signals: usize) -> (Option<i32>, Vec<Value>, String) {
    let work = Workspace::new(name);
    let dir = work.dir().to_path_buf();
    let out = dir.join("games.jsonl");
    let marker = format!("{name}-{}", std::process::id());
    let slow = |n: &str| format!("name={n} cmd='python3 tests/engines/slow.py pegs 1 40 {marker}'");
    let mut child = referee()
        .env("REFEREE", cargo_bin!("referee"))
        .args([
            "match",
            "--game",
            "pegs",
            "--games",
            "10",
            "--movetime",
            "5000",
        ])
        .args(["--engine", &slow("a"), "--engine", &slow("b"), "--out"])
        .arg(&out)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Once both engines run, the game lasts two seconds more at least: stop it in the middle.
    let deadline = Instant::now() + Duration::from_secs(30);
    // The engines, not the referee whose command line names them too.
    let engines = || {
        let running = processes_with(&["slow.py", &marker]).into_iter();
        running.filter(|(_, command)| runs_python(command)).count()
    };
    while engines() < 2 {
        assert!(Instant::now() < deadline, "the engines never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(400));
    for _ in 0..signals {
        assert!(send_signal(child.id(), "INT"));
        std::thread::sleep(Duration::from_millis(200));
    }
    let deadline = Instant::now() + Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        assert!(Instant::now() < deadline, "the referee did not stop");
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = child.wait_with_output().unwrap();
    let empty = std::fs::metadata(&out).map_or(true, |m| m.len() == 0);
    let records = if empty {
        Vec::new()
    } else {
        valid_records(&out)
    };
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    (output.status.code(), records, stderr)
}

/// The first stop signal finishes the game under way, records it, and starts no other (as
/// cutechess users asked for years); the second stops at once, recording nothing false.
#[test]
fn a_first_interrupt_finishes_the_game_under_way_and_a_second_stops_at_once() {
    let (status, records, stderr) = stopped_slow_match("graceful", 1);
    assert_eq!(status, Some(130), "{stderr}");
    assert_eq!(
        records.len(),
        1,
        "the game under way, and no other: {stderr}"
    );
    assert_eq!(records[0]["end"]["reason"], "normal", "{}", records[0]);
    assert!(
        stderr.contains("the games under way were finished"),
        "{stderr}"
    );

    let (status, records, stderr) = stopped_slow_match("graceful-twice", 2);
    assert_eq!(status, Some(130), "{stderr}");
    assert!(
        records.is_empty(),
        "the game under way was cut short: {records:?}"
    );
    assert!(stderr.contains("not recorded"), "{stderr}");
}

/// An engine that writes terminal escape sequences to stderr and crashes: its stderr reaches the
/// organiser's terminal in the verdict, shown (`\u{1b}[2J`), never sent; and so does what
/// check-engine quotes of an engine.
#[test]
fn an_engines_escape_sequences_are_shown_not_sent_to_the_terminal() {
    let work = Workspace::new("escapes");
    let hog = "name=hog cmd='python3 tests/engines/hog.py escape'";
    let output = common::referee()
        .args(["match", "--game", "pegs", "--games", "1", "--engine", hog])
        .args(["--engine", "random", "--out"])
        .arg(work.file("g.jsonl"))
        .timeout(Duration::from_secs(60))
        .assert()
        .success()
        .get_output()
        .clone();
    let stdout = String::from_utf8(output.stdout).unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stdout.contains("hog loses by crash"), "{stdout}");
    assert!(stdout.contains("\\u{1b}[2J"), "{stdout}");
    for text in [&stdout, &stderr] {
        let sent: Vec<char> = text
            .chars()
            .filter(|c| c.is_control() && *c != '\n' && *c != '\t')
            .collect();
        assert!(
            sent.is_empty(),
            "control characters reached the terminal: {sent:?}"
        );
    }
    // The record keeps what the engine wrote, as it wrote it.
    let records = valid_records(&work.file("g.jsonl"));
    let detail = records[0]["end"]["detail"].as_str().unwrap();
    assert!(detail.contains("\u{1b}[2J"), "{detail}");

    let checked = common::referee()
        .args(["check-engine", "--game", "pegs", "--"])
        .arg("python3 tests/engines/hog.py escape")
        .timeout(Duration::from_secs(60))
        .assert()
        .get_output()
        .clone();
    let text = String::from_utf8(checked.stdout).unwrap();
    assert!(text.contains("\\u{1b}"), "{text}");
    assert!(!text.contains('\u{1b}'), "{text}");

    // A records file whose names and game carry escape sequences: stats, ratings and validate
    // show them.
    let line = std::fs::read_to_string(work.file("g.jsonl")).unwrap();
    let named = line.replace("\"hog\"", "\"h\\u001b[2Jog\"");
    let broken = named.replace(
        "\"game\":\"pegs\"",
        "\"game\":\"pegs\\u001b]0;owned\\u0007\"",
    );
    std::fs::write(work.file("named.jsonl"), &named).unwrap();
    std::fs::write(work.file("broken.jsonl"), &broken).unwrap();
    for (command, file) in [
        ("stats", "named.jsonl"),
        ("ratings", "named.jsonl"),
        ("validate", "broken.jsonl"),
    ] {
        let output = common::referee()
            .arg(command)
            .arg(work.file(file))
            .output()
            .unwrap();
        for text in [&output.stdout, &output.stderr] {
            let text = String::from_utf8_lossy(text);
            assert!(
                !text.contains('\u{1b}') && !text.contains('\u{7}'),
                "{command}: {text}"
            );
        }
        let shown =
            String::from_utf8_lossy(&output.stdout) + String::from_utf8_lossy(&output.stderr);
        // One game gives no rating list to name anyone in.
        assert!(
            command == "ratings" || shown.contains("\\u{1b}"),
            "{command} shows nothing of it: {shown}"
        );
    }
}
