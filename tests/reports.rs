//! `view` and `report` of any number of games: 10,000 games stay under 100 MB of memory, the page grows with the moves rather than with pictures of every
//! position, and a record that does not replay leaves no half-written page behind.

// The engines these tests run, and what they look at (/proc, bubblewrap), are Linux's.
#![cfg(target_os = "linux")]

mod common;

use std::process::Command;
use std::time::Duration;

use assert_cmd::cargo::cargo_bin;
use common::{Workspace, peak_rss_kib, referee, run_sampled};
use serde_json::Value;

/// `copies` copies of one finished Pegs game, each its own game (its own number).
fn many_games(dir: &std::path::Path, copies: usize) -> std::path::PathBuf {
    let one = dir.join("one.jsonl");
    referee()
        .args(["match", "--game", "pegs", "--games", "1", "--seed", "3"])
        .args(["--engine", "random"].repeat(2))
        .args(["--movetime", "5000", "--out"])
        .arg(&one)
        .assert()
        .success();
    let mut record: Value =
        serde_json::from_str(std::fs::read_to_string(&one).unwrap().trim()).unwrap();
    let many = dir.join("many.jsonl");
    let mut text = String::new();
    for game in 1..=copies {
        record["tags"]["game"] = game.to_string().into();
        text.push_str(&record.to_string());
        text.push('\n');
    }
    std::fs::write(&many, text).unwrap();
    many
}

/// Runs `args` on the binary and returns its peak memory in MiB.
fn peak_mib(args: &[&std::ffi::OsStr]) -> u64 {
    let mut peak = 0;
    let output = run_sampled(
        Command::new(cargo_bin!("referee")).args(args),
        None,
        Duration::from_secs(600),
        |pid| peak = peak.max(peak_rss_kib(pid)),
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    peak / 1024
}

#[test]
fn ten_thousand_games_fit_in_bounded_memory() {
    let work = Workspace::new("reports-many");
    let dir = work.dir().to_path_buf();
    let many = many_games(&dir, 10_000);
    let first = std::fs::read_to_string(&many).unwrap();
    let first = first.lines().next().unwrap();
    // Every game is a copy of the first, numbered apart.
    let plies = 10_000
        * serde_json::from_str::<Value>(first).unwrap()["moves"]
            .as_array()
            .unwrap()
            .len();
    // The two commands run side by side (each process's own peak is measured), which halves
    // the test's time on a busy machine.
    std::thread::scope(|scope| {
        let runs: Vec<_> = ["view", "report"]
            .into_iter()
            .map(|command| {
                let (dir, many) = (&dir, &many);
                scope.spawn(move || {
                    let page = dir.join(format!("{command}.html"));
                    let mib = peak_mib(&[
                        command.as_ref(),
                        many.as_os_str(),
                        "-o".as_ref(),
                        page.as_os_str(),
                    ]);
                    (
                        command,
                        mib,
                        std::fs::metadata(&page).unwrap().len() as usize,
                    )
                })
            })
            .collect();
        for run in runs {
            let (command, mib, size) = run.join().unwrap();
            assert!(mib < 100, "{command} of 10,000 games peaked at {mib} MiB");
            // The page holds each game's moves and the pictures' changes, packed: well under
            // what a picture per position (about 4 KB each, packed about twentyfold) would take.
            assert!(
                size < plies * 120,
                "{command}: {size} bytes for {plies} plies"
            );
        }
    });
}

#[test]
fn a_game_that_does_not_replay_leaves_the_old_page() {
    let work = Workspace::new("reports-bad");
    let dir = work.dir().to_path_buf();
    let many = many_games(&dir, 3);
    let page = dir.join("page.html");
    std::fs::write(&page, "the old page").unwrap();
    let mut text = std::fs::read_to_string(&many).unwrap();
    text = text.replacen("\"move\":\"", "\"move\":\"x", 1);
    std::fs::write(&many, text).unwrap();
    for command in ["view", "report"] {
        referee()
            .arg(command)
            .arg(&many)
            .arg("-o")
            .arg(&page)
            .assert()
            .code(2)
            .stderr(predicates::str::contains("game 1: ply"));
        assert_eq!(std::fs::read_to_string(&page).unwrap(), "the old page");
    }
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "temporary pages left: {leftovers:?}");
}

/// `report` reads its records once (the statistics gathered as the games are drawn), so it reads
/// standard input too: the same page as from the file.
#[test]
fn the_report_of_standard_input_is_the_report_of_the_file() {
    let work = Workspace::new("reports-stdin");
    let dir = work.dir().to_path_buf();
    let many = many_games(&dir, 3);
    let (from_file, from_stdin) = (dir.join("file.html"), dir.join("stdin.html"));
    referee()
        .arg("report")
        .arg(&many)
        .arg("-o")
        .arg(&from_file)
        .assert()
        .success();
    referee()
        .args(["report", "-", "-o"])
        .arg(&from_stdin)
        .pipe_stdin(&many)
        .unwrap()
        .assert()
        .success();
    // The report above the games is the same, and so is the number of games (their parts are
    // numbered as the threads draw them first, so the games' bytes may differ).
    let split = |path: &std::path::Path| {
        let page = std::fs::read_to_string(path).unwrap();
        let (head, rest) = page.split_once("id=\"packed\">").unwrap();
        let games = rest
            .split_once("</script>")
            .unwrap()
            .0
            .trim()
            .lines()
            .count();
        (head.to_owned(), games)
    };
    let (head, games) = split(&from_file);
    assert!(
        head.contains("<h2>Report</h2>"),
        "no report above the games"
    );
    assert_eq!(games, 3);
    assert_eq!(split(&from_stdin), (head, games));
}
