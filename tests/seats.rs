//! Seats attacked by seats: an engine that tries to change its opponent's verdict or clock
//! (tests/engines/rival.py) against the engine it aims at, both sandboxed. Each attack is also
//! shown to succeed where the protection is taken away, so that the test could fail.

mod common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use assert_cmd::cargo::cargo_bin;
use common::{Workspace, bwrap_usable, referee, valid_records};
use serde_json::Value;

/// A directory any user may read holding the rival engine, for the engines to run in.
fn engine_dir(dir: &Path) -> PathBuf {
    let engine = dir.join("engine");
    std::fs::create_dir_all(&engine).unwrap();
    for file in ["rival.py", "relay.py"] {
        std::fs::copy(Path::new("tests/engines").join(file), engine.join(file)).unwrap();
    }
    engine
}

/// Plays `games` Pegs games of rival `attack` against rival `victim`, each with `keys` (besides
/// its name, command and directory); returns the records.
fn duel(dir: &Path, (attack, victim): (&str, &str), keys: &str, extra: &[&str]) -> Vec<Value> {
    let engine = engine_dir(dir);
    let spec = |mode: &str| {
        format!(
            "name={mode} cmd='python3 rival.py {mode} pegs' dir={} env=REFEREE {keys}",
            engine.display()
        )
    };
    let out = dir.join(format!("{attack}-{}.jsonl", keys.len()));
    referee()
        .env("REFEREE", cargo_bin!("referee"))
        .args(["match", "--game", "pegs", "--seed", "5"])
        .args(["--engine", &spec(attack), "--engine", &spec(victim)])
        .args(extra)
        .arg("--out")
        .arg(&out)
        .timeout(Duration::from_secs(240))
        .assert()
        .success();
    valid_records(&out)
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
