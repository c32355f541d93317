//! Records files under hostile conditions: `--out` never damages a file that is not a records
//! file, never glues a record to a partial line, refuses a second run; the same game twice is
//! counted once; `validate` streams a large file in bounded memory and goes on past a bad line.

// The engines these tests run, and what they look at (/proc, bubblewrap), are Linux's.
#![cfg(target_os = "linux")]

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use assert_cmd::cargo::cargo_bin;
use common::{Workspace, peak_rss_kib, referee, run_sampled};
use serde_json::Value;

fn bot(name: &str, seed: u32) -> String {
    format!(
        "name={name} cmd='{} bot --game pegs --seed {seed}'",
        common::shared_referee().display()
    )
}

/// A quick match of `games` Pegs games writing to `out`, or going on with it when `resume`.
fn quick_match(out: &Path, games: u32, resume: bool) -> assert_cmd::assert::Assert {
    quick_match_command(out, games, resume).assert()
}

/// The command of [`quick_match`], to add flags to.
fn quick_match_command(out: &Path, games: u32, resume: bool) -> assert_cmd::Command {
    let resume = if resume { &["--resume"][..] } else { &[] };
    let mut command = referee();
    command
        .args([
            "match",
            "--game",
            "pegs",
            "--seed",
            "4",
            "--movetime",
            "100",
        ])
        .args(["--games", &games.to_string()])
        .args(resume)
        .args(["--engine", &bot("a", 1), "--engine", &bot("b", 2), "--out"])
        .arg(out)
        .timeout(Duration::from_secs(120));
    command
}

fn tournament(out: &Path) -> Command {
    let mut command = Command::new(cargo_bin!("referee"));
    command
        .args([
            "tournament",
            "--game",
            "pegs",
            "--seed",
            "4",
            "--movetime",
            "100",
        ])
        .args(["--engine", &bot("a", 1), "--engine", &bot("b", 2)])
        .args(["--engine", &bot("c", 3), "--out"])
        .arg(out);
    command
}

/// Games counted by `referee stats --json` over `files`.
fn games_counted(files: &[&Path]) -> u64 {
    common::stats_json(files)["games"].as_u64().unwrap()
}

/// The record of a one-game match played in `dir`, to copy with other game numbers.
fn one_record(dir: &Path) -> Value {
    let one = dir.join("one.jsonl");
    quick_match(&one, 1, false).success();
    serde_json::from_str(std::fs::read_to_string(&one).unwrap().trim()).unwrap()
}

/// `path` holds `lines` lines, each a whole JSON object.
fn assert_lines_are_records(path: &Path, lines: usize) {
    let text = std::fs::read_to_string(path).unwrap();
    assert_eq!(text.lines().count(), lines);
    for line in text.lines() {
        assert!(serde_json::from_str::<Value>(line).is_ok(), "{line}");
    }
}

fn files_that_are_not_records(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut binary: Vec<u8> = (0..=255u8).cycle().take(5000).collect();
    binary.extend(b"\n{\"format\":");
    // A records file compressed with gzip: binary, with no newline at its end.
    let records = dir.join("plain.jsonl");
    quick_match(&records, 2, false).success();
    let gzipped = Command::new("gzip")
        .arg("-c")
        .arg(&records)
        .output()
        .unwrap()
        .stdout;
    vec![
        (dir.join("binary.jsonl"), binary),
        (dir.join("shard.jsonl.gz"), gzipped),
        (
            dir.join("notes.txt"),
            b"first line\nsecond line\nlast line".to_vec(),
        ),
        (dir.join("one-line.txt"), b"just a line".to_vec()),
    ]
}

#[test]
fn out_refuses_a_file_that_is_not_records_and_leaves_it_byte_identical() {
    let work = Workspace::new("not-records");
    let dir = work.dir().to_path_buf();
    for (path, bytes) in files_that_are_not_records(&dir) {
        std::fs::write(&path, &bytes).unwrap();
        let refused = tournament(&path).arg("--resume").output().unwrap();
        assert_eq!(refused.status.code(), Some(2), "{}", path.display());
        let stderr = String::from_utf8_lossy(&refused.stderr);
        assert!(stderr.contains("not a records file"), "{stderr}");
        assert_eq!(std::fs::read(&path).unwrap(), bytes, "{}", path.display());
        quick_match(&path, 1, true)
            .code(2)
            .stderr(predicates::str::contains("left untouched"));
        quick_match(&path, 1, false)
            .code(2)
            .stderr(predicates::str::contains("is not empty: use --resume"));
        assert_eq!(std::fs::read(&path).unwrap(), bytes, "{}", path.display());
    }
}

#[test]
fn a_last_record_without_its_newline_is_repaired_not_glued_to() {
    let work = Workspace::new("no-newline");
    let dir = work.dir().to_path_buf();
    let out = dir.join("games.jsonl");
    quick_match(&out, 2, false).success();
    let mut bytes = std::fs::read(&out).unwrap();
    assert_eq!(bytes.pop(), Some(b'\n'));
    std::fs::write(&out, &bytes).unwrap();
    // Resumed with more games: the two played are kept, two more are added.
    quick_match(&out, 4, true)
        .success()
        .stderr(predicates::str::contains("added the newline"));
    assert_eq!(games_counted(&[&out]), 4);
    assert_lines_are_records(&out, 4);
}

#[test]
fn a_torn_last_line_is_cut_with_a_note_before_appending() {
    let work = Workspace::new("torn");
    let dir = work.dir().to_path_buf();
    let out = dir.join("games.jsonl");
    quick_match(&out, 1, false).success();
    let whole = std::fs::read(&out).unwrap();
    let mut torn = whole.clone();
    torn.extend(&whole[..whole.len() / 2]);
    std::fs::write(&out, &torn).unwrap();
    referee()
        .args(["stats"])
        .arg(&out)
        .assert()
        .success()
        .stderr(predicates::str::contains(":2: skipped a torn last line"));
    quick_match(&out, 2, true)
        .success()
        .stderr(predicates::str::contains(":2: cut a torn last line"));
    assert_lines_are_records(&out, 2);
}

#[test]
fn a_second_run_on_the_same_out_file_is_refused_while_the_first_runs() {
    let work = Workspace::new("locked");
    let dir = work.dir().to_path_buf();
    let out = dir.join("t.jsonl");
    let mut first = tournament(&out)
        .args(["--rounds", "1000"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Wait until the first run has the file.
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while std::fs::metadata(&out).map_or(0, |m| m.len()) == 0 {
        assert!(
            std::time::Instant::now() < deadline,
            "the first run wrote nothing"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let second = tournament(&out)
        .args(["--rounds", "1000", "--resume"])
        .output()
        .unwrap();
    first.kill().unwrap();
    first.wait().unwrap();
    assert_eq!(second.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert!(stderr.contains("being written by another run"), "{stderr}");
}

#[test]
fn the_same_games_twice_are_counted_once_and_reported() {
    let work = Workspace::new("duplicates");
    let dir = work.dir().to_path_buf();
    let out = dir.join("t.jsonl");
    assert!(tournament(&out).output().unwrap().status.success());
    let text = std::fs::read_to_string(&out).unwrap();
    let games = text.lines().count() as u64;
    assert_eq!(games, 3);
    // A requeued job that started over on the same file: every game twice.
    let doubled = dir.join("doubled.jsonl");
    std::fs::write(&doubled, text.repeat(2)).unwrap();
    assert_eq!(games_counted(&[&doubled]), games);
    assert_eq!(games_counted(&[&out, &out]), games);
    referee()
        .arg("validate")
        .arg(&doubled)
        .assert()
        .code(1)
        .stdout(predicates::str::contains("doubled.jsonl:4: game 1 again"));
    // A damaged copy of game 1 (a move changed) read before the good file: the copy is blamed,
    // the good file is not said to repeat it.
    let mut first: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    first["moves"][0]["move"] = Value::from("a1a1");
    let damaged = dir.join("damaged.jsonl");
    std::fs::write(&damaged, format!("{first}\n")).unwrap();
    let checked = referee()
        .arg("validate")
        .arg(&damaged)
        .arg(&out)
        .assert()
        .code(1);
    let said = String::from_utf8_lossy(&checked.get_output().stdout).into_owned();
    assert!(said.contains("damaged.jsonl:1: ply 0"), "{said}");
    assert!(!said.contains("again"), "{said}");
    // Resuming counts each game once and plays nothing more.
    let resumed = tournament(&doubled)
        .args(["--resume", "--json"])
        .output()
        .unwrap();
    assert!(resumed.status.success());
    let summary: Value = serde_json::from_slice(&resumed.stdout).unwrap();
    assert_eq!(summary["games"].as_u64(), Some(games));
    let stderr = String::from_utf8_lossy(&resumed.stderr);
    assert!(stderr.contains("counted once"), "{stderr}");
}

#[test]
fn validate_streams_a_200_mb_file_in_bounded_memory_and_goes_on_past_bad_lines() {
    let work = Workspace::new("big");
    let dir = work.dir().to_path_buf();
    let mut record = one_record(&dir);
    let big = dir.join("big.jsonl");
    let mut file = std::io::BufWriter::new(std::fs::File::create(&big).unwrap());
    let (mut written, mut count) = (0, 0);
    while written < 200 << 20 {
        count += 1;
        record["tags"]["game"] = Value::from(count.to_string());
        let mut line = serde_json::to_vec(&record).unwrap();
        line.push(b'\n');
        if count == 3 {
            // A line with invalid UTF-8 inside a string.
            line = b"{\"format\":\"referee-record\xff\"}\n".to_vec();
        }
        std::io::Write::write_all(&mut file, &line).unwrap();
        written += line.len();
    }
    drop(file);
    let mut peak = 0;
    let output = run_sampled(
        Command::new(cargo_bin!("referee"))
            .arg("validate")
            .arg(&big),
        None,
        Duration::from_secs(300),
        |pid| peak = peak.max(peak_rss_kib(pid)),
    );
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("big.jsonl:3: "), "{stdout}");
    assert!(
        stdout.contains(&format!("{} of {count} records valid", count - 1)),
        "{stdout}"
    );
    assert!(
        peak < 50 * 1024,
        "validate reached {peak} KiB on a 200 MB file"
    );
}

/// The lines `validate` reads in blocks are the file's lines: a record on each side of every
/// block's end, a line past the 64 MiB bound between them, blank lines, and a torn last line,
/// each told at its own line, read from a file and from standard input alike.
#[test]
fn validate_names_every_line_across_blocks_and_a_line_past_the_bound() {
    let work = Workspace::new("blocks");
    let dir = work.dir().to_path_buf();
    let mut record = one_record(&dir);
    let mut text = Vec::new();
    let mut game = 0;
    let mut add = |text: &mut Vec<u8>| {
        game += 1;
        record["tags"]["game"] = Value::from(game.to_string());
        text.extend(serde_json::to_vec(&record).unwrap());
        text.push(b'\n');
    };
    // About 300 KiB of records: past the first block (256 KiB) whatever a record's length.
    while text.len() < 300 << 10 {
        add(&mut text);
    }
    let before_long = text.iter().filter(|&&b| b == b'\n').count();
    text.extend(vec![b' '; 64 << 20]);
    text.extend(b"x\n\n  \r\n");
    add(&mut text);
    add(&mut text);
    let whole = text.iter().filter(|&&b| b == b'\n').count();
    let last = text.len();
    add(&mut text);
    text.truncate(last + 100);
    let path = dir.join("blocks.jsonl");
    std::fs::write(&path, &text).unwrap();
    let records = before_long + 4;
    for stdin in [false, true] {
        let mut command = referee();
        command
            .args(["validate", "--json"])
            .timeout(Duration::from_secs(120));
        match stdin {
            true => command.arg("-").pipe_stdin(&path).unwrap(),
            false => command.arg(&path),
        };
        let output = command.output().unwrap();
        assert_eq!(output.status.code(), Some(1));
        let report: Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(report["records"], records, "{report}");
        assert_eq!(report["valid"], records - 2, "{report}");
        let problems = report["problems"].as_array().unwrap();
        let lines: Vec<_> = problems.iter().map(|p| p["line"].clone()).collect();
        assert_eq!(lines, [before_long + 1, whole + 1], "{report}");
        let messages: Vec<_> = problems.iter().map(|p| p["message"].to_string()).collect();
        assert!(messages[0].contains("longer than"), "{report}");
        assert!(messages[1].contains("torn last line"), "{report}");
    }
}

/// Problems are told as they are found, not kept: 300,000 bad records (each a few hundred bytes
/// of problem) take no more memory than one.
#[test]
fn validate_keeps_no_problem_in_memory() {
    let work = Workspace::new("many-problems");
    let dir = work.dir().to_path_buf();
    let bad = dir.join("bad.jsonl");
    let line = "{\"format\":\"referee-record\",\"version\":1,\"game\":\"nonesuch\"}\n";
    std::fs::write(&bad, line.repeat(300_000)).unwrap();
    for json in [false, true] {
        let mut peak = 0;
        let mut command = Command::new(cargo_bin!("referee"));
        command.arg("validate").arg(&bad);
        if json {
            command.arg("--json");
        }
        let output = run_sampled(&mut command, None, Duration::from_secs(300), |pid| {
            peak = peak.max(peak_rss_kib(pid));
        });
        assert_eq!(output.status.code(), Some(1));
        let stdout = String::from_utf8(output.stdout).unwrap();
        match json {
            true => {
                let report: Value = serde_json::from_str(&stdout).unwrap();
                let problems = report["problems"].as_array().unwrap();
                assert_eq!(problems.len(), 300_000);
                // Checked by several threads, told in the file's order.
                for (i, problem) in problems.iter().enumerate() {
                    assert_eq!(problem["line"], i + 1);
                }
                assert_eq!(report["records"], 300_000);
            }
            false => assert!(
                stdout.ends_with("0 of 300000 records valid, 0 plies replayed, 300000 problems\n")
            ),
        }
        // Kept, they took over 100 MB.
        assert!(
            peak < 30 * 1024,
            "validate reached {peak} KiB (json: {json})"
        );
    }
}

/// Numbers from a record are checked before they index anything: seats, plies, winners and
/// faults out of range give problems or errors, never a panic (exit status 101).
#[test]
fn records_with_numbers_out_of_range_never_crash_a_reader() {
    let work = Workspace::new("hostile");
    let dir = work.dir().to_path_buf();
    let one = dir.join("one.jsonl");
    quick_match(&one, 1, false).success();
    let record: Value =
        serde_json::from_str(std::fs::read_to_string(&one).unwrap().trim()).unwrap();
    let huge = u64::MAX;
    let mutations: Vec<(&str, Value)> = vec![
        (
            "end",
            serde_json::json!({"reason": "verdict", "seat": 99, "verdict": "crash", "detail": ""}),
        ),
        (
            "end",
            serde_json::json!({"reason": "resignation", "seat": huge}),
        ),
        (
            "result",
            serde_json::json!({"winners": [99], "scores": [1, 2]}),
        ),
        ("result", serde_json::json!({"winners": [0], "scores": []})),
        (
            "faults",
            serde_json::json!([{"seat": 7, "ply": 3, "verdict": "crash", "detail": ""}]),
        ),
        (
            "faults",
            serde_json::json!([{"seat": 0, "ply": huge, "verdict": "crash", "detail": ""}]),
        ),
        ("seats", serde_json::json!([])),
        (
            "seats",
            Value::Array(vec![serde_json::json!({"name": "x"}); 1000]),
        ),
        ("setup", Value::from("R2D3/".repeat(100))),
        ("opening", Value::from(huge)),
        (
            "moves",
            serde_json::json!([{"ply": huge, "seat": 99, "move": "D2"}]),
        ),
    ];
    let hostile = dir.join("hostile.jsonl");
    let lines: Vec<String> = mutations
        .into_iter()
        .map(|(field, value)| {
            let mut bad = record.clone();
            bad[field] = value;
            bad["tags"] = serde_json::json!({});
            bad.to_string()
        })
        .collect();
    std::fs::write(&hostile, lines.join("\n") + "\n").unwrap();
    let run = |args: &[&str]| {
        let output = Command::new(cargo_bin!("referee"))
            .args(args)
            .arg(&hostile)
            .output()
            .unwrap();
        let code = output.status.code();
        assert!(matches!(code, Some(0..=2)), "{args:?}: {output:?}");
    };
    run(&["validate"]);
    // Each mutation is a problem of its own record.
    let report = Command::new(cargo_bin!("referee"))
        .args(["validate", "--json"])
        .arg(&hostile)
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&report.stdout).unwrap();
    assert_eq!(report["valid"], 0, "{report}");
    assert!(
        report["problems"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["kind"] == "opening"),
        "{report}"
    );
    run(&["stats"]);
    run(&["view", "-o", dir.join("page.html").to_str().unwrap()]);
    for game in 1..=lines.len() {
        run(&["render", "--index", &game.to_string(), "--ply", "3"]);
    }
}

/// A record whose game, variant, end, field name or move is 70 KB of text: every command that reads
/// records says what is wrong in a few hundred bytes, quoting at most 400 characters of it.
#[test]
fn errors_quote_at_most_400_characters_of_a_hostile_record() {
    let work = Workspace::new("long-quotes");
    let dir = work.dir().to_path_buf();
    let long = "X".repeat(70_000);
    let base = serde_json::json!({
        "format": "referee-record", "version": 1, "game": "dvonn",
        "seats": [{"name": "a"}, {"name": "b"}], "seed": 1, "moves": []
    });
    let mut cases = Vec::new();
    for (field, value) in [
        ("game", serde_json::json!(long)),
        ("variant", serde_json::json!(long)),
        ("end", serde_json::json!({"reason": long})),
        (long.as_str(), serde_json::json!(1)),
        (
            "moves",
            serde_json::json!([{"ply": 0, "seat": 0, "move": long}]),
        ),
    ] {
        let mut record = base.clone();
        record[field] = value;
        cases.push(record);
    }
    for (i, record) in cases.iter().enumerate() {
        let file = dir.join(format!("case-{i}.jsonl"));
        std::fs::write(&file, format!("{record}\n")).unwrap();
        for command in ["stats", "view", "validate"] {
            let mut run = referee();
            run.arg(command).arg(&file);
            if command == "view" {
                run.arg("-o").arg(dir.join("page.html"));
            }
            let output = run.output().unwrap();
            // Each reads the record (a usage error would prove nothing).
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert!(!stderr.starts_with("error:"), "{command}: {stderr}");
            let said = output.stdout.len() + output.stderr.len();
            assert!(
                said < 2000,
                "{command} on case {i} said {said} bytes: {}",
                String::from_utf8_lossy(&output.stderr[..output.stderr.len().min(300)])
            );
        }
    }
}

/// What a power loss leaves: the file's last blocks allocated but never written, read as NUL
/// bytes, after a whole record or in the middle of one. `--resume` cuts them as a torn line.
#[test]
fn a_tail_of_nul_bytes_is_cut_like_a_torn_line() {
    let work = Workspace::new("nul-tail");
    let dir = work.dir().to_path_buf();
    let out = dir.join("games.jsonl");
    quick_match(&out, 2, false).success();
    let whole = std::fs::read(&out).unwrap();
    let first_line = whole.iter().position(|&b| b == b'\n').unwrap() + 1;
    for tail in [whole.clone(), whole[..first_line + 40].to_vec()] {
        let mut damaged = tail;
        damaged.extend(vec![0u8; 4096]);
        std::fs::write(&out, &damaged).unwrap();
        quick_match(&out, 3, true)
            .success()
            .stderr(predicates::str::contains("cut a torn last line"));
        assert_eq!(games_counted(&[&out]), 3);
        assert_lines_are_records(&out, 3);
        quick_match(&out, 2, false).code(2);
        std::fs::write(&out, "").unwrap();
        quick_match(&out, 2, false).success();
    }
}

/// A record that reads as JSON but does not replay (a flipped byte in a move) is not a game
/// played: `--resume` refuses the file, naming the line, rather than count a false result.
#[test]
fn resume_refuses_a_record_that_does_not_replay() {
    let work = Workspace::new("no-replay");
    let dir = work.dir().to_path_buf();
    let out = dir.join("games.jsonl");
    quick_match(&out, 2, false).success();
    let text = std::fs::read_to_string(&out).unwrap();
    let mut lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    lines[1]["moves"][0]["move"] = Value::from("z9z9");
    let damaged: String = lines.iter().map(|r| format!("{r}\n")).collect();
    std::fs::write(&out, &damaged).unwrap();
    quick_match(&out, 3, true)
        .code(2)
        .stderr(predicates::str::contains(":2:"))
        .stderr(predicates::str::contains("does not replay"));
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        damaged,
        "the file is left as it was"
    );
}

/// `stats` keeps a few dozen bytes per game, whatever the records hold: 300,000 two-seat games
/// that pair with none (each of its own seed), with a long tournament tag.
#[test]
fn stats_holds_a_few_dozen_bytes_a_game() {
    let work = Workspace::new("stats-memory");
    let dir = work.dir().to_path_buf();
    let many = dir.join("many.jsonl");
    let tournament = format!("game=pegs variant=- format=round-robin {}", "x".repeat(200));
    let mut file = std::io::BufWriter::new(std::fs::File::create(&many).unwrap());
    for seed in 0..300_000u64 {
        let record = serde_json::json!({
            "format": "referee-record", "version": 1, "game": "pegs",
            "seats": [{"name": "a"}, {"name": "b"}], "seed": seed,
            "tags": {"tournament": tournament}, "moves": [],
            "result": {"winners": [seed % 2], "scores": [1, 0]}, "end": {"reason": "normal"}
        });
        std::io::Write::write_all(&mut file, format!("{record}\n").as_bytes()).unwrap();
    }
    drop(file);
    let mut peak = 0;
    let output = run_sampled(
        Command::new(cargo_bin!("referee")).arg("stats").arg(&many),
        None,
        Duration::from_secs(300),
        |pid| peak = peak.max(peak_rss_kib(pid)),
    );
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(output.status.success(), "{stdout}");
    assert!(stdout.contains("300000 games"), "{stdout}");
    // Kept as strings, the unpaired games took over 100 MB.
    assert!(
        peak < 40 * 1024,
        "stats reached {peak} KiB for 300,000 games"
    );
}

/// A full disk: the progress file cannot be written, the run says which file and stops before it
/// starts, and leaves no temporary file beside it. Needs a small file system of its own (a root
/// test mounts a 64 KiB tmpfs; elsewhere it says it did not run).
#[test]
fn a_full_disk_leaves_no_temporary_file_and_names_the_file() {
    let work = Workspace::new("full-disk");
    let disk = work.dir().join("disk");
    std::fs::create_dir_all(&disk).unwrap();
    let mounted = std::process::Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=64k", "tmpfs"])
        .arg(&disk)
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !mounted {
        eprintln!("not run: no tmpfs could be mounted here (needs root)");
        return;
    }
    let unmount = || {
        let _ = std::process::Command::new("umount").arg(&disk).status();
    };
    // Filled to the last byte.
    let _ = std::fs::write(disk.join("filler"), vec![0u8; 1 << 20]);
    let progress = disk.join("progress.json");
    let assert = common::referee()
        .args(["match", "--game", "pegs", "--games", "1", "--progress"])
        .arg(&progress)
        .assert();
    let left: Vec<_> = std::fs::read_dir(&disk)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    unmount();
    assert
        .code(2)
        .stderr(predicates::str::contains(progress.display().to_string()));
    assert_eq!(left, ["filler"], "only the filler is on the disk");
}

/// Small things `validate` says plainly: a negative time spent is no record; a compressed file
/// is named as one, with what to type; one problem is one problem.
#[test]
fn validate_names_negative_times_and_compressed_files() {
    let work = Workspace::new("validate-small");
    let dir = work.dir().to_path_buf();
    let mut record = one_record(&dir);
    record["moves"][1]["time_ms"] = serde_json::json!(-5.0);
    let negative = dir.join("negative.jsonl");
    std::fs::write(&negative, format!("{record}\n")).unwrap();
    referee()
        .arg("validate")
        .arg(&negative)
        .assert()
        .code(1)
        .stdout(predicates::str::contains("times spent are 0 or more"))
        .stdout(predicates::str::contains(", 1 problem\n"));
    let packed = dir.join("games.jsonl.gz");
    let mut gzip = vec![0x1f, 0x8b, 0x08, 0x00];
    gzip.extend_from_slice(&[0u8; 60]);
    std::fs::write(&packed, gzip).unwrap();
    for command in ["validate", "stats"] {
        let assert = referee().arg(command).arg(&packed).assert().code(2);
        let output = assert.get_output();
        let said = String::from_utf8_lossy(&output.stdout).into_owned()
            + &String::from_utf8_lossy(&output.stderr);
        assert!(
            said.contains("a gzip file, not records"),
            "{command}: {said}"
        );
    }
}

/// `--live` that names the records file (or the progress file) another way, by a path through
/// `..` or by a hard link, is refused before anything is emptied: the records are left as they
/// were.
#[test]
fn the_live_file_cannot_be_the_records_file_under_another_name() {
    let work = Workspace::new("live-same");
    let out = work.file("games.jsonl");
    quick_match(&out, 1, false).success();
    let before = std::fs::read(&out).unwrap();
    std::fs::create_dir(work.file("sub")).unwrap();
    let linked = work.file("linked.jsonl");
    std::fs::hard_link(&out, &linked).unwrap();
    for live in [work.dir().join("sub/../games.jsonl"), linked] {
        quick_match_command(&out, 2, true)
            .arg("--live")
            .arg(&live)
            .assert()
            .code(2)
            .stderr(predicates::str::contains("another of the run's files"));
        assert_eq!(std::fs::read(&out).unwrap(), before, "{}", live.display());
    }
}

/// `user=` with a name the password database does not have is refused by name, not guessed.
#[test]
fn an_unknown_user_name_is_refused() {
    referee()
        .args([
            "match",
            "--game",
            "pegs",
            "--games",
            "1",
            "--movetime",
            "100",
        ])
        .args([
            "--engine",
            &format!("{} user=no-such-user-here", bot("a", 1)),
        ])
        .args(["--engine", &bot("b", 2)])
        .timeout(Duration::from_secs(60))
        .assert()
        .code(2)
        .stderr(predicates::str::contains("no user `no-such-user-here`"));
}
