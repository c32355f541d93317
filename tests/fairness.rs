//! The referee never charges an engine for its own delay: a referee stopped (SIGSTOP) for seconds
//! while an engine thinks, as a host freeze or an overloaded machine would hold it up, moves the
//! engine's deadline on by that delay, charges its clock nothing for it, and records it.

// The engines these tests run, and what they look at (/proc, bubblewrap), are Linux's.
#![cfg(target_os = "linux")]

mod common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::cargo::cargo_bin;
use common::{Workspace, send_signal, valid_records};

#[test]
fn a_referee_stopped_while_an_engine_thinks_charges_it_nothing() {
    let work = Workspace::new("frozen");
    let dir = work.dir().to_path_buf();
    let (out, live) = (dir.join("games.jsonl"), dir.join("games.live"));
    let referee = &common::shared_referee();
    // The slow engine answers in 300 ms of its 1000; the stop lasts 3 s, past its deadline.
    let slow = "name=slow cmd='python3 tests/engines/slow.py pegs 1 300'";
    let bot = format!("name=bot cmd='{} bot --game pegs'", referee.display());
    let mut child = Command::new(referee)
        .env("REFEREE", referee)
        .args(["match", "--game", "pegs", "--games", "1", "--seed", "5"])
        .args(["--movetime", "1000", "--engine", slow, "--engine", &bot])
        .arg("--out")
        .arg(&out)
        .arg("--live")
        .arg(&live)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Mid-game (a Pegs game at 300 ms a move takes several seconds): once three plies are
    // played, however long a busy machine took to start the engines.
    let started = Instant::now() + Duration::from_secs(60);
    while std::fs::read_to_string(&live)
        .unwrap_or_default()
        .matches(r#""event":"ply""#)
        .count()
        < 3
    {
        assert!(Instant::now() < started, "the game did not start");
        std::thread::sleep(Duration::from_millis(20));
    }
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

/// Spinning processes on the first CPU, each in a session of its own (a scheduling group each,
/// as another user's work would be), until dropped.
struct Busy(Vec<std::process::Child>);

impl Busy {
    fn start(count: usize) -> Busy {
        Busy(
            (0..count)
                .map(|_| {
                    Command::new("setsid")
                        .args(["taskset", "-c", "0", "python3", "-c", "while True: pass"])
                        .spawn()
                        .unwrap()
                })
                .collect(),
        )
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Under `--clock cpu` an engine is charged the CPU time its processes used, so a machine made
/// busy by other work slows it without costing it its clock: the same engine, thinking about
/// 100 ms of CPU a move on two processes, loses on time (or by stall) against the wall clock on
/// the busy machine and plays every game on the CPU clock, charged under its 300 ms. The run and
/// the spinners share the first CPU, so that how busy it is does not depend on the machine's
/// cores or on how the kernel groups the engines with the referee.
#[test]
fn a_cpu_clock_makes_nobody_lose_on_time_on_a_busy_machine() {
    let work = Workspace::new("cpu-clock");
    let engine = common::engine_copies(work.dir(), &["rival.py", "relay.py"]);
    let spec = |mode: &str| {
        format!(
            "name={mode} cmd='python3 rival.py {mode} pegs' dir={}",
            engine.display()
        )
    };
    let run = |clock: &str| {
        let out = work.dir().join(format!("{clock}.jsonl"));
        let assert = assert_cmd::Command::new("taskset")
            .args(["-c", "0"])
            .arg(cargo_bin!("referee"))
            .env("REFEREE", cargo_bin!("referee"))
            .args(["match", "--game", "pegs", "--seed", "5", "--games", "2"])
            .args(["--movetime", "300", "--clock", clock])
            // The verdict under test is the moves' clock: starting Python on a CPU shared with
            // eight spinners may take more than the default 5 s.
            .args(["--startup", "30000"])
            .args([
                "--engine",
                &spec("work"),
                "--engine",
                &spec("plain"),
                "--out",
            ])
            .arg(&out)
            .timeout(Duration::from_secs(120))
            .assert();
        (assert, out)
    };
    let _busy = Busy::start(6);
    let (cpu, out) = run("cpu");
    if cpu.get_output().status.code() == Some(2) {
        let why = String::from_utf8_lossy(&cpu.get_output().stderr).into_owned();
        assert!(why.contains("--clock cpu"), "{why}");
        eprintln!("skipped: no cgroup for the CPU clock here: {why}");
        return;
    }
    cpu.success();
    for record in valid_records(&out) {
        assert_eq!(record["end"]["reason"], "normal", "{record}");
        assert_eq!(record["tags"]["clock"], "cpu", "{record}");
        let seat = (record["seats"].as_array().unwrap().iter())
            .position(|s| s["name"] == "work")
            .unwrap() as u64;
        for ply in record["moves"].as_array().unwrap() {
            if ply["seat"] == seat {
                let ms = ply["time_ms"].as_f64().unwrap();
                assert!(ms > 20.0 && ms < 300.0, "charged {ms} ms: {record}");
            }
        }
    }
    let (wall, out) = run("wall");
    wall.success();
    // Late on the wall clock: past its time (a time loss), or so far past it that the referee
    // stopped waiting (a stall); either way the busy machine cost it the game.
    let lost = (valid_records(&out).iter())
        .filter(|r| {
            let late = ["time_loss", "stall"].contains(&r["end"]["verdict"].as_str().unwrap_or(""));
            let seat = r["end"]["seat"].as_u64().unwrap_or(u64::MAX) as usize;
            late && r["seats"][seat]["name"] == "work"
        })
        .count();
    assert!(
        lost > 0,
        "the busy machine cost nobody the wall clock: the test shows nothing"
    );
}
