//! Engines nobody trusts: resource limits that stop a hog with a verdict naming the limit (the
//! sandbox's own promises are attacked in tests/security.rs).

// The engines these tests run, and what they look at (/proc, bubblewrap), are Linux's.
#![cfg(target_os = "linux")]

mod common;

use std::path::{Path, PathBuf};

use common::{Workspace, referee, run_to_records};

fn bot(game: &str) -> String {
    format!(
        "name=bot cmd='{} bot --game {game}'",
        common::shared_referee().display()
    )
}

/// A copy of test engine `file` in `dir`, which any user may read (the repository may not be).
fn engine_copy(dir: &Path, file: &str) -> PathBuf {
    let copy = dir.join(file);
    std::fs::copy(Path::new("tests/engines").join(file), &copy).unwrap();
    copy
}

/// Plays `games` Pegs games of `hog` against the built-in bot with `extra` flags; returns the
/// records, each checked to end with the hog's crash, and the crash details.
fn hog_match(dir: &Path, hog: &str, games: usize, extra: &[&str]) -> Vec<String> {
    let out = dir.join("games.jsonl");
    let records = run_to_records(
        referee()
            .env("TMPDIR", dir)
            .args(["match", "--game", "pegs", "--seed", "1"])
            .args(["--games", &games.to_string(), "--engine", hog])
            .args(["--engine", &bot("pegs")])
            .args(extra),
        &out,
        120,
    );
    assert_eq!(records.len(), games, "the match goes on after each crash");
    records
        .iter()
        .map(|record| {
            let end = &record["end"];
            assert_eq!(end["verdict"], "crash", "{record}");
            let seat = end["seat"].as_u64().unwrap() as usize;
            assert_eq!(record["seats"][seat]["name"], "hog", "{record}");
            end["detail"].as_str().unwrap().to_owned()
        })
        .collect()
}

#[test]
fn an_engine_that_allocates_2_gib_under_a_256_mib_limit_crashes_and_the_verdict_names_the_limit() {
    let work = Workspace::new("limit-memory");
    let dir = work.dir().to_path_buf();
    let hog = "name=hog cmd='python3 tests/engines/hog.py memory' mem=256M";
    for detail in hog_match(&dir, hog, 2, &["--movetime", "5000"]) {
        assert!(
            detail.contains("exited with code 1 (limits: memory 256 MiB)"),
            "{detail}"
        );
        assert!(detail.contains("MemoryError"), "{detail}");
    }
}

#[test]
fn an_engine_that_spins_past_its_cpu_limit_is_stopped_by_sigxcpu() {
    let work = Workspace::new("limit-cpu");
    let dir = work.dir().to_path_buf();
    let hog = "name=hog cmd='python3 tests/engines/hog.py cpu'";
    // The limit comes from --each, and the clock is far longer than the limit.
    let details = hog_match(&dir, hog, 2, &["--each", "cpu=1", "--movetime", "20000"]);
    for detail in details {
        assert!(
            detail.starts_with("killed by signal 24 (SIGXCPU) (CPU limit 1 s exceeded)"),
            "{detail}"
        );
    }
}

/// bubblewrap reports a signal as exit code 128 + N; the verdict reads as outside the sandbox.
#[test]
fn a_sandboxed_engine_stopped_by_a_signal_gets_the_same_verdict() {
    if !common::bwrap_usable() {
        return;
    }
    let work = Workspace::new("limit-cpu-sandboxed");
    let dir = work.dir().to_path_buf();
    let hog = format!(
        "name=hog cmd='python3 {} cpu' cpu=1 sandbox=bwrap",
        common::shared_engine("hog.py").display()
    );
    for detail in hog_match(&dir, &hog, 1, &["--movetime", "20000"]) {
        assert!(
            detail.starts_with("killed by signal 24 (SIGXCPU) (CPU limit 1 s exceeded)"),
            "{detail}"
        );
    }
}

/// Python ignores SIGXFSZ, so the write fails instead of the process being killed.
#[test]
fn an_engine_that_writes_past_its_file_size_limit_is_refused_the_write() {
    let work = Workspace::new("limit-fsize");
    let dir = work.dir().to_path_buf();
    let hog = "name=hog cmd='python3 tests/engines/hog.py file' fsize=1M";
    for detail in hog_match(&dir, hog, 1, &["--movetime", "20000"]) {
        assert!(
            detail.starts_with("exited with code 1 (limits: file size 1 MiB)"),
            "{detail}"
        );
        assert!(detail.contains("File too large"), "{detail}");
    }
    let written = std::fs::metadata(dir.join("big")).unwrap().len();
    assert_eq!(written, 1 << 20, "nothing past the limit was written");
}

/// The kernel counts `procs=` against every process of the engine's user and never limits root,
/// so as root the engine runs as a user of its own.
#[test]
fn an_engine_that_forks_ten_thousand_children_is_held_to_its_process_limit() {
    let work = Workspace::new("limit-procs");
    let dir = work.dir().to_path_buf();
    let hog = engine_copy(&dir, "hog.py");
    let root = nix::unistd::geteuid().is_root();
    let user = if root { "user=64123" } else { "" };
    let spec = format!(
        "name=hog cmd='python3 {} fork' procs=32 {user}",
        hog.display()
    );
    for detail in hog_match(&dir, &spec, 2, &["--movetime", "20000"]) {
        assert!(detail.contains("(limits: processes 32)"), "{detail}");
        assert!(detail.contains("fork refused after"), "{detail}");
        if root {
            let after: usize = detail
                .split("fork refused after ")
                .nth(1)
                .and_then(|rest| rest.split(' ').next())
                .and_then(|n| n.parse().ok())
                .unwrap();
            assert!(after < 32, "{after} children under a limit of 32: {detail}");
        }
    }
    if root {
        // The children the hog left were killed with its process group.
        let left = std::process::Command::new("pgrep")
            .args(["-u", "64123"])
            .output()
            .unwrap();
        assert!(left.stdout.is_empty(), "left behind: {left:?}");
    }
}

#[test]
fn a_user_that_does_not_exist_or_a_bad_limit_is_a_usage_error() {
    for spec in [
        "cmd=./x mem=lots",
        "cmd=./x user=no-such-user-here",
        "cmd=./x sandbox=docker",
    ] {
        referee()
            .args([
                "match", "--game", "pegs", "--engine", spec, "--engine", spec,
            ])
            .assert()
            .code(2)
            .stderr(predicates::str::contains("bad engine"));
    }
    referee()
        .args(["match", "--game", "pegs", "--each", "name=x"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("`name` belongs to one engine"));
}
