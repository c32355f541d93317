//! `referee check-engine` through the built binary: the built-in bots and the example bots pass
//! every check, and misbehaving engines fail the right check with the right reason.

// The engines these tests run, and what they look at (/proc, bubblewrap), are Linux's.
#![cfg(target_os = "linux")]

mod common;

use assert_cmd::cargo::cargo_bin;
use serde_json::Value;

/// `referee check-engine --json --game GAME -- COMMAND...`: its exit status and report.
fn check(game: &str, command: &[&str]) -> (i32, Value) {
    let pids = common::temp_dir(&format!("check-{game}-{}", command.join("-").len())).join("pids");
    let output = common::referee()
        .env("REFEREE", cargo_bin!("referee"))
        .env("FAULTY_PIDS", pids)
        .args([
            "check-engine",
            "--json",
            "--startup",
            "3000",
            "--game",
            game,
            "--",
        ])
        .args(command)
        .timeout(std::time::Duration::from_secs(300))
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&output.stdout)));
    (output.status.code().unwrap(), report)
}

/// The checks that failed, as `name: detail`.
fn failures(report: &Value) -> Vec<String> {
    report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["passed"] == false)
        .map(|c| {
            format!(
                "{}: {}",
                c["name"].as_str().unwrap(),
                c["detail"].as_str().unwrap()
            )
        })
        .collect()
}

#[test]
fn the_built_in_random_bot_passes_every_check_of_every_game() {
    // (The search bot speaks through the same code; it spends its clock, which would take
    // minutes here.)
    let referee = common::shared_referee().display().to_string();
    for game in referee::rules::GAMES {
        let (status, report) = check(game, &[&referee, "bot", "--game", game]);
        assert_eq!(failures(&report), Vec::<String>::new(), "{game}");
        assert_eq!(status, 0);
        // The handshake, the unknown command, quit, four clock forms of two games or more,
        // and a game per seat of every variant and seat count.
        let passed = report["passed"].as_u64().unwrap();
        assert!(passed >= 3 + 8 + 2, "{game}: {passed} checks");
        // What the games put it through, as the rules say they must: White places at ply 48
        // and moves first at 49; a DOUBLE turn is several actions; DVONN and Double Dutch have
        // a forced pass, which it answers in one seat and is told of in the other.
        let detail = |name: &str| -> String {
            let checks = report["checks"].as_array().unwrap();
            let check = checks.iter().find(|c| c["name"] == name);
            check.map_or(String::new(), |c| c["detail"].as_str().unwrap().to_owned())
        };
        let details: Vec<String> = (report["checks"].as_array().unwrap().iter())
            .map(|c| c["detail"].as_str().unwrap().to_owned())
            .collect();
        let any = |text: &str| details.iter().any(|d| d.contains(text));
        match *game {
            "dvonn" => assert!(
                detail("dvonn with 2 seats, seat 0").contains("the first at ply 48"),
                "{report}"
            ),
            "double" => assert!(any("turn(s) of several plies in a row"), "{report}"),
            _ => {}
        }
        if ["dvonn", "double-dutch"].contains(game) {
            assert!(any("answered pass") && any("told of a pass"), "{report}");
        }
    }
}

/// `examples/bot.rs` as `cargo test` built it: beside the test binaries' `deps` folder.
fn rust_example_bot() -> String {
    let exe = std::env::current_exe().unwrap();
    let profile = exe.parent().and_then(|deps| deps.parent()).unwrap();
    let bot = profile.join("examples").join("bot");
    // A plain `cargo test` builds the examples; `cargo test --test check_engine` alone does not.
    assert!(
        bot.exists(),
        "{} is missing: run `cargo test`, or `cargo build --example bot` first",
        bot.display()
    );
    bot.display().to_string()
}

#[test]
fn the_rust_example_bot_passes_every_check_of_every_game() {
    let bot = rust_example_bot();
    for game in referee::rules::GAMES {
        let (status, report) = check(game, &[&bot]);
        assert_eq!(failures(&report), Vec::<String>::new(), "{game}");
        assert_eq!(status, 0);
        // As many checks as the built-in bot passes (above): nothing was skipped.
        assert!(report["passed"].as_u64().unwrap() >= 3 + 8 + 2, "{game}");
    }
}

#[test]
fn the_python_example_bot_passes_every_check_of_every_game() {
    // DOUBLE included: its `referee session` oracle keeps the seat's view (`seat=` and `event`).
    for game in referee::rules::GAMES {
        let (status, report) = check(game, &["python3", "examples/random_bot.py"]);
        assert_eq!(failures(&report), Vec::<String>::new(), "{game}");
        assert_eq!(status, 0);
    }
}

#[test]
fn misbehaving_engines_fail_the_right_check_with_the_reason() {
    let faulty = |mode: &str| check("dvonn", &["python3", "tests/engines/faulty.py", mode]);
    // Does not start: only the handshake is checked.
    let (status, report) = faulty("crash_start");
    assert_eq!(status, 1);
    assert_eq!(report["checks"].as_array().unwrap().len(), 1);
    assert!(failures(&report)[0].starts_with("handshake: "), "{report}");
    assert!(
        failures(&report)[0].contains("exited with code"),
        "{report}"
    );
    // Answers quit but stays.
    let (status, report) = faulty("ignore_quit");
    assert_eq!(status, 1);
    assert!(
        failures(&report)
            .iter()
            .any(|f| f.starts_with("quit: ") && f.contains("still running")),
        "{report}"
    );
    // Never passes: the game where it must pass fails at the pass; the game where it is told of
    // the pass does not.
    let (status, report) = faulty("no_pass");
    assert_eq!(status, 1);
    let checks = report["checks"].as_array().unwrap();
    let forced: Vec<&Value> = checks
        .iter()
        .filter(|c| {
            c["name"]
                .as_str()
                .unwrap()
                .starts_with("a forced pass (pass at ply ")
        })
        .collect();
    assert_eq!(forced.len(), 2, "{report}");
    let name = forced[0]["name"].as_str().unwrap();
    let ply = name["a forced pass (pass at ply ".len()..]
        .split(')')
        .next()
        .unwrap();
    let (failed, passed): (Vec<&Value>, Vec<&Value>) =
        forced.iter().partition(|c| c["passed"] == false);
    assert_eq!((failed.len(), passed.len()), (1, 1), "{report}");
    assert!(
        failed[0]["detail"]
            .as_str()
            .unwrap()
            .starts_with(&format!("illegal_move at ply {ply}: illegal move A1A2")),
        "{report}"
    );
    assert!(
        passed[0]["detail"]
            .as_str()
            .unwrap()
            .contains("told of a pass"),
        "{report}"
    );
    // Wrong answers at its third move: each game fails, saying what it said and why.
    for (mode, reason) in [
        ("illegal", "illegal_move at ply"),
        ("unparseable", "unparseable_move at ply"),
        ("undo", "unparseable_move at ply"),
        ("garbage", "protocol_error at ply"),
        ("wrong_id", "answered id"),
        ("crash_mid", "crash at ply"),
    ] {
        let (status, report) = faulty(mode);
        assert_eq!(status, 1, "{mode}");
        let games: Vec<&Value> = report["checks"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["name"].as_str().unwrap().contains("seat"))
            // It misbehaves at its third move, which the game from a forced pass near the end
            // may not reach.
            .filter(|c| !c["name"].as_str().unwrap().starts_with("a forced pass"))
            .collect();
        assert!(games.len() >= 8, "{mode}: {report}");
        for game in games {
            assert_eq!(game["passed"], false, "{mode}: {game}");
            assert!(
                game["detail"].as_str().unwrap().contains(reason),
                "{mode}: {game}"
            );
            // The lines exchanged end with the engine's answer and the referee's verdict.
            let lines = game["lines"].as_array().unwrap();
            assert!(
                lines
                    .iter()
                    .any(|l| l.as_str().unwrap().contains(" genmove ")),
                "{game}"
            );
        }
    }
}

#[test]
fn the_text_report_says_each_check_and_sums_up() {
    let referee = common::shared_referee().display().to_string();
    let output = common::referee()
        .args(["check-engine", "--game", "pegs", "--variant", "turbo", "--"])
        .args([&referee, "bot", "--game", "pegs"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(output).unwrap();
    assert!(text.starts_with("ok    handshake: "), "{text}");
    assert!(
        text.contains("ok    pegs turbo with 2 seats, seat 1: played to its end"),
        "{text}"
    );
    assert!(
        !text.contains("standard"),
        "only the variant asked for: {text}"
    );
    assert!(text.ends_with(" passed, 0 failed\n"), "{text}");
}
