//! The referee never charges an engine for its own delay: a referee stopped (SIGSTOP) for seconds
//! while an engine thinks, as a host freeze or an overloaded machine would hold it up, moves the
//! engine's deadline on by that delay, charges its clock nothing for it, and records it.

mod common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::cargo::cargo_bin;
use common::{Workspace, send_signal, valid_records};

#[test]
fn a_referee_stopped_while_an_engine_thinks_charges_it_nothing() {
    let work = Workspace::new("frozen");
    let dir = work.dir().to_path_buf();
    let out = dir.join("games.jsonl");
    let referee = cargo_bin!("referee");
    // The slow engine answers in 300 ms of its 1000; the stop lasts 3 s, past its deadline.
    let slow = "name=slow cmd='python3 tests/engines/slow.py pegs 1 300'";
    let bot = format!("name=bot cmd='{} bot --game pegs'", referee.display());
    let mut child = Command::new(referee)
        .env("REFEREE", referee)
        .args(["match", "--game", "pegs", "--games", "1", "--seed", "5"])
        .args(["--movetime", "1000", "--engine", slow, "--engine", &bot])
        .arg("--out")
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Mid-game: a Pegs game at 300 ms a move takes several seconds.
    std::thread::sleep(Duration::from_millis(1500));
    assert!(send_signal(child.id(), "STOP"));
    std::thread::sleep(Duration::from_secs(3));
    assert!(send_signal(child.id(), "CONT"));
    let deadline = Instant::now() + Duration::from_secs(120);
    while child.try_wait().unwrap().is_none() {
        assert!(Instant::now() < deadline, "the match did not end");
        std::thread::sleep(Duration::from_millis(50));
    }
    let record = valid_records(&out).remove(0);
    assert_eq!(record["end"]["reason"], "normal", "{record}");
    let delayed: Vec<&serde_json::Value> = record["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|ply| {
            ply["referee_delay_ms"]
                .as_f64()
                .is_some_and(|ms| ms >= 2000.0)
        })
        .collect();
    assert_eq!(delayed.len(), 1, "one ply records the stop: {record}");
    // Its time is the engine's own, not the stop's.
    assert!(delayed[0]["time_ms"].as_f64().unwrap() < 1000.0, "{record}");
}
