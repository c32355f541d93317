//! Seats attacked by seats: an engine that tries to change its opponent's verdict or clock
//! (tests/engines/rival.py) against the engine it aims at, both sandboxed. Each attack is also
//! shown to succeed where the protection is taken away, so that the test could fail.

// The engines these tests run, and what they look at (/proc, bubblewrap), are Linux's.
#![cfg(target_os = "linux")]

mod common;

use std::path::Path;

use common::{Workspace, bwrap_usable, referee, run_to_records};
use serde_json::Value;

/// Plays `games` Pegs games of rival `attack` against rival `victim`, each with `keys` (besides
/// its name, command and directory); returns the records.
fn duel(dir: &Path, (attack, victim): (&str, &str), keys: &str, extra: &[&str]) -> Vec<Value> {
    let engine = common::engine_copies(dir, &["rival.py", "relay.py"]);
    let spec = |mode: &str| {
        format!(
            "name={mode} cmd='python3 rival.py {mode} pegs' dir={} env=REFEREE {keys}",
            engine.display()
        )
    };
    let out = dir.join(format!("{attack}-{victim}-{}.jsonl", keys.len()));
    run_to_records(
        referee()
            .env("REFEREE", common::shared_referee())
            .args(["match", "--game", "pegs", "--seed", "5"])
            .args(["--engine", &spec(attack), "--engine", &spec(victim)])
            .args(extra),
        &out,
        240,
    )
}

/// The verdicts against `name` in `records`, with their details.
fn faults_of(records: &[Value], name: &str) -> Vec<String> {
    records
        .iter()
        .filter(|r| {
            let seat = r["end"]["seat"].as_u64();
            seat.is_some_and(|s| r["seats"][s as usize]["name"] == name)
        })
        .map(|r| format!("{}: {}", r["end"]["verdict"], r["end"]["detail"]))
        .collect()
}

/// Every sandboxed engine of a root referee is a user of its own: an engine that uses up its
/// process count leaves its opponent's whole. Two engines made to share a user show the attack.
#[test]
fn an_engine_that_forks_to_its_limit_does_not_starve_its_opponent() {
    if !bwrap_usable() || !nix::unistd::geteuid().is_root() {
        eprintln!("skipped: distinct engine users need a root referee with bubblewrap");
        return;
    }
    let work = Workspace::new("seats-starve");
    let games = ["--games", "2", "--movetime", "5000"];
    let shared = duel(
        work.dir(),
        ("starve", "threads"),
        "sandbox=bwrap procs=64 user=65534",
        &games,
    );
    let starved = faults_of(&shared, "threads");
    assert!(
        starved.iter().any(|f| f.contains("threads: refused")),
        "sharing a user, the victim was not starved: {starved:?}"
    );
    let own = duel(
        work.dir(),
        ("starve", "threads"),
        "sandbox=bwrap procs=64",
        &games,
    );
    assert_eq!(faults_of(&own, "threads"), Vec::<String>::new());
    for record in &own {
        assert_eq!(record["end"]["reason"], "normal", "{record}");
    }
}

/// The median time the records charged `name` for a move.
fn median_time(records: &[Value], name: &str) -> f64 {
    let mut times: Vec<f64> = records
        .iter()
        .flat_map(|r| {
            let seat = r["seats"]
                .as_array()
                .unwrap()
                .iter()
                .position(|s| s["name"] == name);
            let moves = r["moves"].as_array().unwrap().clone();
            moves
                .into_iter()
                .filter(move |m| Some(m["seat"].as_u64().unwrap() as usize) == seat)
                .map(|m| m["time_ms"].as_f64().unwrap())
        })
        .collect();
    assert!(times.len() >= 10, "{name} made {} moves", times.len());
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

/// A contained engine that owes no answer is frozen with everything it started: helpers that
/// spin in sessions of their own while the opponent thinks take none of its CPU. The same
/// attacker allowed to think on the opponent's time (`ponder=yes`) shows the theft.
#[test]
fn helpers_that_spin_while_the_opponent_thinks_do_not_slow_it() {
    if !bwrap_usable() {
        return;
    }
    let work = Workspace::new("seats-spin");
    let games = ["--games", "2", "--movetime", "5000"];
    let keys = "sandbox=bwrap";
    let alone = median_time(&duel(work.dir(), ("plain", "work"), keys, &games), "work");
    let spun = duel(work.dir(), ("spin", "work"), keys, &games);
    assert_eq!(faults_of(&spun, "work"), Vec::<String>::new());
    let frozen = median_time(&spun, "work");
    let pondering = duel(
        work.dir(),
        ("spin", "work"),
        "sandbox=bwrap ponder=yes",
        &games,
    );
    let stolen = median_time(&pondering, "work");
    eprintln!("work's median move: {alone} ms alone, {frozen} ms frozen, {stolen} ms pondering");
    assert!(
        frozen < 1.5 * alone,
        "the spinners slowed their opponent: {frozen} ms against {alone} ms alone"
    );
    assert!(
        stolen > 1.5 * alone,
        "the attack shows nothing even unfrozen: {stolen} ms against {alone} ms alone"
    );
}

/// Two engines of one user outside the sandbox: one attaches the other as its tracer and never
/// lets it go, so the other, killed, cannot be reaped while the tracer lives. The referee waits for
/// no such process: the match ends, the held engine losing by its stall.
#[test]
fn an_engine_held_by_its_opponents_trace_does_not_hold_up_the_referee() {
    if !nix::unistd::geteuid().is_root() {
        eprintln!("skipped: two engines of one other user need a root referee");
        return;
    }
    let work = Workspace::new("seats-trace");
    let records = duel(
        work.dir(),
        ("trace", "plain"),
        "user=64600",
        &["--games", "2", "--movetime", "1000"],
    );
    let faults = faults_of(&records, "plain");
    assert!(
        !faults.is_empty(),
        "the held engine lost nothing: {records:?}"
    );
}
