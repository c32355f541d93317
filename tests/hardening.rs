//! Engines that flood, signals at any moment, a referee killed outright, orphans: the referee
//! ends in seconds, in bounded memory, records nothing false and leaves nothing running.

mod common;

use std::process::Command;
use std::time::{Duration, Instant};

use assert_cmd::cargo::cargo_bin;
use common::{children_of, peak_rss_kib, run_sampled, state_of, temp_dir, valid_records};
use serde_json::Value;

/// The most resident memory a flooded referee may reach, in KiB.
const FLOOD_RSS_LIMIT_KIB: u64 = 64 * 1024;

fn referee() -> Command {
    Command::new(cargo_bin!("referee"))
}

fn bot() -> String {
    format!(
        "name=bot cmd='{} bot --game dvonn'",
        cargo_bin!("referee").display()
    )
}

/// Runs a two-game DVONN match of `engine` against the built-in bot; returns the records, the
/// referee's stdout and its peak memory in KiB. It must end within 30 s.
fn flood_match(name: &str, engine: &str) -> (Vec<Value>, String, u64) {
    let dir = temp_dir(name);
    let out = dir.join("games.jsonl");
    let mut peak = 0;
    let output = run_sampled(
        referee()
            .env("REFEREE", cargo_bin!("referee"))
            .env("FAULTY_PIDS", dir.join("pids"))
            .args(["match", "--game", "dvonn", "--games", "2", "--seed", "3"])
            .args(["--movetime", "300", "--margin", "1000", "--startup", "1000"])
            .args(["--engine", engine, "--engine", &bot(), "--out"])
            .arg(&out),
        Duration::from_secs(30),
        |pid| peak = peak.max(peak_rss_kib(pid)),
    );
    assert!(output.status.success(), "{output:?}");
    (
        valid_records(&out),
        String::from_utf8(output.stdout).unwrap(),
        peak,
    )
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

#[test]
fn blank_lines_without_end_at_startup_fail_the_start_in_bounded_memory() {
    assert_flood_verdict(
        "yes",
        "name=yes cmd=\"yes ''\"",
        "failed_to_start",
        "more than 256 lines",
    );
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
/// notes when it was forked in `starts`.
fn interrupted_match(dir: &std::path::Path, signal: &str, delay: Duration) -> Vec<Value> {
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
    Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    let waited = Instant::now();
    let status = child.wait().unwrap();
    assert!(waited.elapsed() < Duration::from_secs(5), "slow to stop");
    assert!(!status.success(), "an interrupted run exits non-zero");
    // Every engine (and the bot each runs) is gone, or a zombie left to init.
    for pid in std::fs::read_to_string(&pids).unwrap_or_default().lines() {
        let deadline = Instant::now() + Duration::from_secs(2);
        while state_of(pid).is_some_and(|s| s != 'Z') && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(
            state_of(pid).is_none_or(|s| s == 'Z'),
            "{signal}: engine process {pid} is still running"
        );
    }
    let records = if out.exists() {
        valid_records(&out)
    } else {
        Vec::new()
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

#[test]
fn an_interrupt_records_no_false_result_and_starts_no_engine() {
    let dir = temp_dir("interrupt");
    let runs: usize = std::env::var("REFEREE_INTERRUPT_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(50);
    let signals = ["INT", "TERM", "HUP", "QUIT"];
    let mut recorded = 0;
    for run in 0..runs {
        let signal = signals[run % signals.len()];
        // Spread the signal over the first games: during startup, mid-game, between games.
        let delay = Duration::from_millis(150 + (run as u64 * 37) % 900);
        let records = interrupted_match(&dir, signal, delay);
        for record in &records {
            assert_eq!(
                record["end"]["reason"], "normal",
                "{signal} after {delay:?}: a game the signal cut short was recorded: {record}"
            );
        }
        recorded += records.len();
    }
    // The runs did reach finished games, so the check above saw records.
    assert!(recorded > 0);
}

#[test]
fn engines_do_not_outlive_a_referee_killed_outright() {
    let dir = temp_dir("sigkill");
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
        while state_of(pid).is_some_and(|s| s != 'Z') && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(
            state_of(pid).is_none_or(|s| s == 'Z'),
            "engine process {pid} outlived the referee"
        );
    }
}

#[test]
fn orphans_that_left_the_process_group_are_reaped_game_by_game() {
    let dir = temp_dir("setsid");
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
                cargo_bin!("referee").display()
            ))
            .arg("--out")
            .arg(&out),
        Duration::from_secs(120),
        |pid| {
            let zombies = children_of(pid).iter().filter(|(_, s)| *s == 'Z').count();
            most = most.max(zombies);
        },
    );
    assert!(output.status.success(), "{output:?}");
    assert_eq!(valid_records(&out).len(), 30);
    // Each game's helpers end within 50 ms and are reaped when the game ends: a few at most.
    assert!(most <= 8, "{most} zombies waited to be reaped at once");
}
