//! Tournaments through the built binary: resume after a kill, shards merged, SPRT.

// The engines these tests run, and what they look at (/proc, bubblewrap), are Linux's.
#![cfg(target_os = "linux")]

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use assert_cmd::cargo::cargo_bin;
use common::{Workspace, referee, stats_json as stats, valid_records};
use predicates::prelude::*;
use serde_json::Value;

/// Three seeded random bots: every game is the same on every run, so runs can be compared.
fn tournament_args(out: &Path) -> Vec<String> {
    run_args(
        &["tournament", "--rounds", "2"],
        &[("a", 1), ("b", 2), ("c", 3)],
        out,
    )
}

/// Two seeded random bots in a match of 12 games, in pairs.
fn match_args(out: &Path) -> Vec<String> {
    run_args(&["match", "--games", "12"], &[("a", 1), ("b", 2)], out)
}

/// `command` (with its own flags) of seeded random DVONN bots, in pairs of games, seed 8.
fn run_args(command: &[&str], bots: &[(&str, u32)], out: &Path) -> Vec<String> {
    let bot = |name: &str, seed: u32| {
        format!(
            "name={name} cmd='{} bot --game dvonn --seed {seed}'",
            common::shared_referee().display()
        )
    };
    let mut args: Vec<String> = command
        .iter()
        .map(std::string::ToString::to_string)
        .collect();
    args.extend(["--game", "dvonn", "--repeat"].map(String::from));
    for &(name, seed) in bots {
        args.push("--engine".into());
        args.push(bot(name, seed));
    }
    args.extend(["--seed", "8", "--movetime", "1000", "--out"].map(String::from));
    args.push(out.display().to_string());
    args
}

fn uninterrupted(dir: &Path) -> PathBuf {
    uninterrupted_run(dir, tournament_args)
}

fn uninterrupted_run(dir: &Path, args: fn(&Path) -> Vec<String>) -> PathBuf {
    let out = dir.join("full.jsonl");
    common::referee()
        .args(args(&out))
        .timeout(std::time::Duration::from_secs(120))
        .assert()
        .success();
    out
}

#[test]
fn a_killed_and_resumed_run_equals_an_uninterrupted_one() {
    // 3 pairings x 2 rounds x 2 seat orders.
    killed_and_resumed("resume", tournament_args);
}

#[test]
fn a_killed_and_resumed_match_equals_an_uninterrupted_one() {
    killed_and_resumed("resume-match", match_args);
}

/// `args` with each seeded random bot behind tests/engines/slow.py, which plays the same moves
/// 10 ms later each.
fn slowed(args: Vec<String>) -> Vec<String> {
    let bot = format!(
        "{} bot --game dvonn --seed ",
        common::shared_referee().display()
    );
    let slow = common::shared_engine("slow.py");
    args.into_iter()
        .map(|arg| match arg.split_once(&bot) {
            Some((name, seed)) => {
                let seed = seed.trim_end_matches('\'');
                format!("{name}python3 {} dvonn {seed} 10'", slow.display())
            }
            None => arg,
        })
        .collect()
}

/// The referee running `args` (slowed down: see [`slowed`], so that a stop comes in the middle of
/// the run however busy the machine is), once `games` of its games are in `out`; its stderr is a
/// pipe.
fn started_until(args: Vec<String>, out: &Path, games: usize) -> std::process::Child {
    let child = Command::new(cargo_bin!("referee"))
        .env("REFEREE", cargo_bin!("referee"))
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while std::fs::read_to_string(out)
        .unwrap_or_default()
        .lines()
        .count()
        < games
    {
        assert!(start.elapsed().as_secs() < 60, "no games were written");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    child
}

/// Runs `args` to the end, and again killed with SIGKILL after 4 of its 12 games with a torn
/// line added, then resumed: the same standings.
fn killed_and_resumed(name: &str, args: fn(&Path) -> Vec<String>) {
    let work = Workspace::new(name);
    let dir = work.dir().to_path_buf();
    let full = uninterrupted_run(&dir, args);
    assert_eq!(valid_records(&full).len(), 12);

    let out = dir.join("killed.jsonl");
    // Kill it with SIGKILL once a few games are written.
    let mut child = started_until(slowed(args(&out)), &out, 4);
    child.kill().unwrap();
    child.wait().unwrap();
    let written = std::fs::read_to_string(&out).unwrap().lines().count();
    assert!(written < 12, "killed before the end ({written} games)");
    // A write cut short by the kill: a torn last line.
    let mut text = std::fs::read_to_string(&out).unwrap();
    text.push_str("{\"format\":\"referee-record\",\"vers");
    std::fs::write(&out, text).unwrap();

    common::referee()
        .args(args(&out))
        .arg("--resume")
        .timeout(std::time::Duration::from_secs(120))
        .assert()
        .success();
    let resumed = valid_records(&out);
    assert_eq!(resumed.len(), 12, "exactly the missing games were played");
    assert_eq!(stats(&[out]), stats(&[full]));
}

#[test]
fn starting_over_an_existing_file_needs_resume() {
    let work = Workspace::new("refuse");
    let dir = work.dir().to_path_buf();
    let out = dir.join("t.jsonl");
    std::fs::write(&out, "{}\n").unwrap();
    common::referee()
        .args(tournament_args(&out))
        .assert()
        .code(2)
        .stderr(predicates::str::contains("use --resume"));
    common::referee()
        .args(tournament_args(&out))
        .arg("--resume")
        .assert()
        .code(2)
        .stderr(predicates::str::contains(":1: not a record"));
}

/// Runs the three shards with GNU parallel (installed by `.ci/run`, which sets
/// `REFEREE_REQUIRE_PARALLEL`); without it, one after the other.
#[test]
fn shards_run_with_gnu_parallel_merge_into_the_unsharded_standings() {
    let work = Workspace::new("shards");
    let dir = work.dir().to_path_buf();
    let full = uninterrupted(&dir);
    let shard = |k: &str| dir.join(format!("shard-{k}.jsonl"));
    let has_parallel = Command::new("parallel").arg("--version").output().is_ok();
    if has_parallel {
        // The documented way: one referee per shard, the shard number filled in by parallel.
        let mut args = tournament_args(&dir.join("shard-{}.jsonl"));
        args.extend(["--shard", "{}/3", "--progress"].map(String::from));
        args.push(dir.join("shard-{}.progress.json").display().to_string());
        let command = std::iter::once(common::shared_referee().display().to_string())
            .chain(
                args.iter()
                    .map(|a| shlex::try_quote(a).unwrap().into_owned()),
            )
            .collect::<Vec<_>>()
            .join(" ");
        let status = Command::new("parallel")
            .args([
                "--will-cite",
                "--halt",
                "now,fail=1",
                &command,
                ":::",
                "1",
                "2",
                "3",
            ])
            .stdout(std::process::Stdio::null())
            .status()
            .unwrap();
        assert!(status.success());
    } else {
        assert!(
            std::env::var_os("REFEREE_REQUIRE_PARALLEL").is_none(),
            "GNU parallel is required here"
        );
        for k in ["1", "2", "3"] {
            common::referee()
                .args(tournament_args(&shard(k)))
                .args(["--shard", &format!("{k}/3"), "--progress"])
                .arg(dir.join(format!("shard-{k}.progress.json")))
                .assert()
                .success();
        }
    }
    let shards: Vec<PathBuf> = ["1", "2", "3"].map(shard).to_vec();
    let counts: Vec<usize> = shards.iter().map(|s| valid_records(s).len()).collect();
    assert_eq!(counts, [4, 4, 4], "disjoint slices of the 12 games");
    assert_eq!(stats(&shards), stats(&[full]));
    // The shards' progress files say the whole run is done.
    let output = common::referee()
        .arg("stats")
        .args(&shards)
        .arg("--progress")
        .args(["1", "2", "3"].map(|k| dir.join(format!("shard-{k}.progress.json"))))
        .assert()
        .success()
        .get_output()
        .clone();
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(
        text.ends_with("Progress: 12 of 12 games (100.0%); 3 shards: 3 finished\n"),
        "{text}"
    );
}

/// The progress file as a run goes: written at the start (with the games an earlier sitting
/// recorded), after every game, and at the end with how the run ended.
#[test]
fn the_progress_file_follows_the_run_and_its_resume() {
    let work = Workspace::new("progress");
    let dir = work.dir().to_path_buf();
    let out = dir.join("games.jsonl");
    let progress = dir.join("progress.json");
    let read =
        || -> Value { serde_json::from_str(&std::fs::read_to_string(&progress).unwrap()).unwrap() };
    // 2 of the 12 games, then the rest with --resume and --rounds 2.
    let mut first = match_args(&out);
    first.splice(1..3, ["--games".to_owned(), "2".to_owned()]);
    common::referee()
        .args(&first)
        .arg("--progress")
        .arg(&progress)
        .assert()
        .success();
    let after_first = read();
    assert_eq!(after_first["games_done"], 2);
    assert_eq!(after_first["games_total"], 2);
    assert_eq!(after_first["state"], "finished");
    assert_eq!(after_first["shard"], Value::Null);
    common::referee()
        .args(match_args(&out))
        .args(["--resume", "--progress"])
        .arg(&progress)
        .assert()
        .success();
    let after = read();
    assert_eq!(
        (
            &after["games_done"],
            &after["games_total"],
            &after["schedule_games"]
        ),
        (&Value::from(12), &Value::from(12), &Value::from(12))
    );
    assert_eq!(
        after["tournament"],
        valid_records(&out)[0]["tags"]["tournament"]
    );
    // A progress file where it cannot be written stops the run before any game.
    common::referee()
        .args(match_args(&dir.join("other.jsonl")))
        .args(["--progress", "/nonexistent/dir/p.json"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "cannot write /nonexistent/dir/p.json",
        ));
    let written = std::fs::metadata(dir.join("other.jsonl")).map_or(0, |m| m.len());
    assert_eq!(written, 0, "no game was recorded");
}

#[test]
fn the_sprt_stops_the_run_when_it_decides() {
    let work = Workspace::new("sprt");
    let dir = work.dir().to_path_buf();
    let out = dir.join("t.jsonl");
    let referee = common::shared_referee().display().to_string();
    let output = common::referee()
        .args([
            "tournament",
            "--game",
            "dvonn",
            "--format",
            "gauntlet",
            "--rounds",
            "20",
        ])
        .args(["--seed", "3", "--movetime", "40"])
        .args([
            "--engine",
            &format!("name=search cmd='{referee} bot --game dvonn --strategy search'"),
        ])
        .args([
            "--engine",
            &format!("name=r1 cmd='{referee} bot --game dvonn --seed 1'"),
        ])
        .args([
            "--engine",
            &format!("name=r2 cmd='{referee} bot --game dvonn --seed 2'"),
        ])
        .args([
            "--sprt",
            "elo0=0",
            "elo1=200",
            "alpha=0.05",
            "beta=0.05",
            "--out",
        ])
        .arg(&out)
        .timeout(std::time::Duration::from_secs(120))
        .assert()
        .success()
        .get_output()
        .clone();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(stdout.contains("H1 accepted"), "{stdout}");
    let played = valid_records(&out).len();
    assert!(played < 40, "stopped early: {played} of 40 games");
}

/// Search against random in a two-engine Pegs match in pairs: the SPRT decides for the stronger
/// engine (H1) when it comes first and against the weaker (H0) when that comes first, on game
/// pairs, long before the 200 games.
#[test]
fn a_two_engine_sprt_on_game_pairs_decides_both_ways() {
    let work = Workspace::new("sprt-match");
    let dir = work.dir().to_path_buf();
    let referee = common::shared_referee().display().to_string();
    let search = format!("name=search cmd='{referee} bot --game pegs --strategy search'");
    let random = format!("name=random cmd='{referee} bot --game pegs --seed 1'");
    for (first, second, decision) in [
        (&search, &random, "H1 accepted"),
        (&random, &search, "H0 accepted"),
    ] {
        let out = dir.join(format!("{}.jsonl", decision.replace(' ', "-")));
        let output = common::referee()
            .args(["match", "--game", "pegs", "--games", "200", "--repeat"])
            .args(["--seed", "3", "--movetime", "40", "--engine", first])
            .args([
                "--engine",
                second,
                "--sprt",
                "elo0=0 elo1=100 alpha=0.05 beta=0.05",
            ])
            .arg("--out")
            .arg(&out)
            .timeout(std::time::Duration::from_secs(120))
            .assert()
            .success()
            .get_output()
            .clone();
        let stdout = String::from_utf8(output.stdout).unwrap();
        assert!(stdout.contains(decision), "{stdout}");
        assert!(stdout.contains("on game pairs"), "{stdout}");
        // The lines cutechess-cli's and fastchess's scripts parse, with the same verdict.
        let h = &decision[..2];
        let cutechess = (stdout.lines())
            .find(|l| l.starts_with("SPRT: llr "))
            .unwrap_or_else(|| panic!("no cutechess line: {stdout}"));
        assert!(
            cutechess.contains(", lbound -2.94, ubound 2.94 - ")
                && cutechess.ends_with(&format!(" - {h} was accepted")),
            "{cutechess}"
        );
        let fastchess = (stdout.lines())
            .find(|l| l.starts_with("LLR: "))
            .unwrap_or_else(|| panic!("no fastchess line: {stdout}"));
        assert!(
            fastchess.ends_with(" (-2.94, 2.94) [0.00, 100.00]"),
            "{fastchess}"
        );
        // fastchess's summary, whose Games and Ptnml lines fishtest's worker reads, counts the
        // records' games.
        let games = valid_records(&out).len();
        let counts = (stdout.lines())
            .find_map(|l| l.strip_prefix("Games: "))
            .unwrap_or_else(|| panic!("no Games line: {stdout}"));
        assert!(counts.starts_with(&format!("{games}, Wins: ")), "{counts}");
        let ptnml = (stdout.lines())
            .find_map(|l| l.strip_prefix("Ptnml(0-2): ["))
            .unwrap_or_else(|| panic!("no Ptnml line: {stdout}"));
        let pairs: u32 = (ptnml.trim_end_matches(']').split(", "))
            .map(|n| n.parse::<u32>().unwrap())
            .sum();
        assert_eq!(pairs as usize, games / 2, "{ptnml}");
        let played = valid_records(&out).len();
        assert!(played < 40, "stopped early: {played} of 200 games");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(stderr.contains("LLR "), "progress shows the LLR: {stderr}");
    }
}

/// Runs `referee ARGS --json` and reads its summary.
fn json_of(args: &[String]) -> Value {
    let output = common::referee()
        .args(args)
        .arg("--json")
        .timeout(std::time::Duration::from_secs(120))
        .assert()
        .success()
        .get_output()
        .clone();
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
fn match_tournament_and_stats_print_the_same_standings_for_the_same_records() {
    let work = Workspace::new("one-tally");
    let dir = work.dir().to_path_buf();
    let referee = common::shared_referee().display().to_string();
    let bot = |name: &str, seed: u32| {
        format!("name={name} cmd='{referee} bot --game double-dutch --seed {seed}'")
    };
    // Three-seat Double Dutch: games whose win may be shared, and no two-seat pairings.
    let mut args: Vec<String> = ["--game", "double-dutch", "--seats", "3", "--seed", "4"]
        .map(String::from)
        .to_vec();
    args.extend(["--movetime", "1000"].map(String::from));
    for (name, seed) in [("a", 1), ("b", 2), ("c", 3)] {
        args.extend(["--engine".to_owned(), bot(name, seed)]);
    }
    let match_out = dir.join("match.jsonl");
    let mut match_args = vec!["match".to_owned(), "--games".into(), "6".into()];
    match_args.extend(args.iter().cloned());
    match_args.extend(["--out".to_owned(), match_out.display().to_string()]);
    let from_match = json_of(&match_args);
    let tournament_out = dir.join("tournament.jsonl");
    let mut tournament_args = vec!["tournament".to_owned(), "--rounds".into(), "2".into()];
    tournament_args.extend(args);
    tournament_args.extend(["--out".to_owned(), tournament_out.display().to_string()]);
    let from_tournament = json_of(&tournament_args);
    assert_eq!(from_match["games"], 6);
    assert_eq!(from_match, stats(&[match_out]));
    assert_eq!(from_tournament, stats(&[tournament_out]));
    // Every game's point is shared out in full, shared wins included.
    let points: f64 = from_match["engines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["points"].as_f64().unwrap())
        .sum();
    assert!((points - 6.0).abs() < 1e-9, "{points} points for 6 games");
}

/// Run twice without `--out`, a tournament keeps each run's records in a file of its own, named
/// on stderr, instead of refusing the second run; `--resume` still needs the file named.
#[test]
fn without_out_each_run_keeps_its_records_in_a_new_file_it_names() {
    let work = Workspace::new("tournament-default-out");
    let run = || {
        referee()
            .current_dir(work.dir())
            .args([
                "tournament",
                "--game",
                "pegs",
                "--movetime",
                "100",
                "--seed",
                "1",
            ])
            .args([
                "--engine", "random", "--engine", "random", "--engine", "search",
            ])
            .assert()
            .success()
    };
    for n in 1..=2 {
        let name = format!("tournament-pegs-{n}.jsonl");
        run().stderr(predicate::str::contains(format!("records go to {name}")));
        let text = std::fs::read_to_string(work.file(&name)).unwrap();
        assert_eq!(text.lines().count(), 3, "{text}");
    }
    referee()
        .current_dir(work.dir())
        .args(["tournament", "--game", "pegs", "--resume"])
        .args([
            "--engine", "random", "--engine", "random", "--engine", "search",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--resume needs --out"));
}

/// Another program cuts the records file while the run writes it: the run plays on, each game
/// after on a line of its own, and ends saying the file changed under it, with status 2.
#[test]
fn a_records_file_cut_under_a_run_ends_it_with_an_error() {
    let work = Workspace::new("records-cut");
    let out = work.dir().join("cut.jsonl");
    let child = started_until(slowed(match_args(&out)), &out, 4);
    let text = std::fs::read_to_string(&out).unwrap();
    let first = text.find('\n').unwrap() + 1;
    // Into the middle of the second record.
    let file = std::fs::OpenOptions::new().write(true).open(&out).unwrap();
    file.set_len((first + 20) as u64).unwrap();
    drop(file);
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("changed while the run wrote it"),
        "{stderr}"
    );
    assert!(stderr.contains(&out.display().to_string()), "{stderr}");
    let text = std::fs::read_to_string(&out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[1].len(),
        20,
        "the cut line stands alone: {}",
        lines[1]
    );
    for line in lines.iter().skip(2) {
        serde_json::from_str::<serde_json::Value>(line).unwrap();
    }
    assert!(lines.len() >= 3, "games were recorded after the cut");
}

/// The simplest resumable run: no `--seed`. Stopped with Ctrl-C, it goes on with `--resume`
/// alone, with the seed its records keep, and ends as the uninterrupted run of that seed does.
/// Shards, which could not agree on a seed drawn by each, must be given one.
#[test]
fn a_run_without_a_seed_resumes_with_the_seed_its_records_keep() {
    let work = Workspace::new("resume-no-seed");
    let dir = work.dir().to_path_buf();
    let unseeded = |out: &Path| -> Vec<String> {
        let mut args = match_args(out);
        let at = args.iter().position(|a| a == "--seed").unwrap();
        args.drain(at..at + 2);
        args
    };
    let out = dir.join("stopped.jsonl");
    let mut child = started_until(slowed(unseeded(&out)), &out, 4);
    common::send_signal(child.id(), "INT");
    child.wait().unwrap();
    let written = valid_records(&out).len();
    assert!(written < 12, "stopped before the end ({written} games)");
    common::referee()
        .args(unseeded(&out))
        .arg("--resume")
        .timeout(std::time::Duration::from_secs(120))
        .assert()
        .success()
        .stderr(predicate::str::contains("--resume: the run's seed is "));
    let resumed = valid_records(&out);
    assert_eq!(resumed.len(), 12, "exactly the missing games were played");
    let fingerprint = resumed[0]["tags"]["tournament"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        resumed
            .iter()
            .all(|r| r["tags"]["tournament"] == fingerprint)
    );
    let seed = (fingerprint.split_whitespace())
        .find_map(|w| w.strip_prefix("seed="))
        .unwrap()
        .to_owned();
    let full = dir.join("full.jsonl");
    let mut args = unseeded(&full);
    args.extend(["--seed".to_owned(), seed]);
    common::referee()
        .args(args)
        .timeout(std::time::Duration::from_secs(120))
        .assert()
        .success();
    assert_eq!(stats(&[out]), stats(&[full]));

    let mut shard = unseeded(&dir.join("shard-1.jsonl"));
    shard.extend(["--shard".to_owned(), "1/2".to_owned()]);
    common::referee()
        .args(shard)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--shard needs --seed"));
}
