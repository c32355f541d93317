//! The built binary driven through assert_cmd: session, validate, import, schema.

// The engines these tests run, and what they look at (/proc, bubblewrap), are Linux's.
#![cfg(target_os = "linux")]

mod common;

use assert_cmd::cargo::cargo_bin;
use common::{Workspace, referee};
use predicates::prelude::*;
use serde_json::Value;

/// Runs a session on `input` and returns every answer, without its closing empty line.
fn session(input: &str) -> Vec<String> {
    let output = referee()
        .arg("session")
        .write_stdin(input)
        .assert()
        .success();
    let text = String::from_utf8(output.get_output().stdout.clone()).unwrap();
    assert!(text.is_empty() || text.ends_with("\n\n"), "{text:?}");
    text.split_terminator("\n\n").map(str::to_owned).collect()
}

fn codecup_moves() -> Vec<String> {
    let text = std::fs::read_to_string("fixtures/dvonn/codecup-2011-game-53360.txt").unwrap();
    text.split_whitespace().skip(2).map(str::to_owned).collect()
}

#[test]
fn the_codecup_session_script_is_the_fixture_game() {
    let script = std::fs::read_to_string("fixtures/dvonn/codecup-2011-game-53360.gtp").unwrap();
    let played: Vec<String> = script
        .lines()
        .filter_map(|l| l.strip_prefix("play "))
        .map(str::to_owned)
        .collect();
    assert_eq!(played, codecup_moves());
    let answers = session(&script);
    assert_eq!(answers.len(), 1 + played.len() + 3);
    assert!(answers[..answers.len() - 3].iter().all(|a| a == "="));
    let board = &answers[answers.len() - 3];
    assert!(
        board.starts_with("= dvonn ply 73: white to move\n"),
        "{board}"
    );
    assert!(board.contains("B3*"), "{board}");
    assert_eq!(answers[answers.len() - 2], "= 26 11");
    assert_eq!(answers[answers.len() - 1], "= ongoing");
}

#[test]
fn scripted_game_plays_to_the_end_with_every_command() {
    // A random game from the fixtures, played to its end through the session.
    let data = std::fs::read_to_string("fixtures/dvonn/random-games-100.jsonl").unwrap();
    let fixture: Value = serde_json::from_str(data.lines().next().unwrap()).unwrap();
    let moves: Vec<&str> = fixture["moves"].as_str().unwrap().split(' ').collect();
    let mut script = String::from("1 newgame dvonn seed=5\n");
    for (i, mv) in moves.iter().enumerate() {
        script.push_str(&format!("{} play {}\n", 100 + i, mv.to_lowercase()));
    }
    script.push_str("2 result\n3 score\n4 to_move\n5 legal_moves\n6 play PASS\n7 record\n");
    let answers = session(&script);
    assert_eq!(answers[0], "=1");
    for (i, answer) in answers[1..=moves.len()].iter().enumerate() {
        assert_eq!(*answer, format!("={}", 100 + i));
    }
    let tail = &answers[moves.len() + 1..];
    assert_eq!(tail[0], "=2 draw");
    assert_eq!(tail[1], "=3 12 12");
    assert_eq!(tail[2], "=4 none");
    assert_eq!(tail[3], "=5");
    assert!(
        tail[4].starts_with("?6 ply 83: the game is over"),
        "{}",
        tail[4]
    );
    let record: Value = serde_json::from_str(tail[5].strip_prefix("=7 ").unwrap()).unwrap();
    assert_eq!(record["seed"], 5);
    assert_eq!(record["moves"].as_array().unwrap().len(), moves.len());
    assert_eq!(record["end"]["reason"], "normal");
    assert_eq!(record["result"]["winners"], serde_json::json!([0, 1]));
}

#[test]
fn every_command_answers() {
    let answers = session(
        "protocol_version\nname\nversion\nlist_commands\nknown_command perft\nknown_command fly\n\
         newgame dvonn seed=3\nto_move\nplay D2\nto_move\nundo\nundo\nperft 2\nscore\nresult\n\
         showboard 1\nlegal_moves\nquit\nname\n",
    );
    let expected_start = [
        "= 2".to_owned(),
        "= referee".to_owned(),
        format!("= {}", env!("CARGO_PKG_VERSION")),
    ];
    assert_eq!(answers[..3], expected_start);
    assert!(answers[3].starts_with("= protocol_version\nname\n"));
    assert_eq!(answers[3].lines().count(), 17);
    assert_eq!(answers[4..6], ["= true", "= false"]);
    assert_eq!(answers[6..10], ["=", "= 0", "=", "= 1"]);
    assert_eq!(answers[10], "=");
    assert_eq!(answers[11], "? nothing to undo");
    assert_eq!(answers[12], format!("= {}", 49 * 48));
    assert_eq!(answers[13..15], ["= 0 0", "= ongoing"]);
    assert!(answers[15].starts_with("= dvonn ply 0: white to place a DVONN piece\n5 "));
    assert_eq!(answers[16].split(' ').count(), 1 + 49);
    assert_eq!(answers[17], "=");
    assert_eq!(answers.len(), 18, "nothing is read after quit");
}

#[test]
fn bad_input_gets_clear_errors_and_the_session_goes_on() {
    let answers = session(
        "legal_moves\nnewgame chess\nnewgame double seats=7\nnewgame dvonn turbo\nnewgame dvonn seats=3\n\
         newgame dvonn colour=red\nnewgame dvonn seed=x\nnewgame dvonn\nplay E4E5\nplay QQ\n\
         play 1 D2\nshowboard 2\nperft 7\nfly away\n3\n\x01\x02\n\u{7f}\nplay d2\n",
    );
    let expected = [
        "? no game: start one with newgame, e.g. newgame dvonn",
        "? unknown game `chess` (known: dvonn, double-dutch, pegs, wyx, double)",
        "? double is played by 2 to 6 seats, not 7",
        "? dvonn has no variant `turbo`",
        "? dvonn is played by 2 seats, not 3",
        "? unknown option `colour` (known: seats, seed, setup; seat, tc and movetime are accepted and ignored)",
        "? option seed=x: expected a whole number",
        "=",
        "? ply 0 (seat 0): illegal move E4E5: placement 1 of 49: place a piece on an empty cell",
        "? ply 0 (seat 0): cannot parse move `QQ`: `QQ` is not a cell (a column A-K and a row 1-5)",
        "? ply 0: seat 1 is not to move; seat 0 is",
        "? no seat 2: seats are 0 to 1",
        "? perft depth 7 would take too long; the most is 6",
        "? unknown command `fly` (list_commands lists them)",
        "? unknown command `3` (list_commands lists them)",
        "=",
    ];
    assert_eq!(answers, expected);
}

#[test]
fn end_of_input_ends_the_session_cleanly() {
    assert_eq!(session("name"), ["= referee"]);
    assert!(session("").is_empty());
}

fn write_temp(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("referee-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn imported_codecup() -> String {
    let output = referee()
        .args([
            "import",
            "--from",
            "codecup",
            "fixtures/dvonn/codecup-2011-game-53360.txt",
        ])
        .assert()
        .success();
    String::from_utf8(output.get_output().stdout.clone()).unwrap()
}

#[test]
fn imported_codecup_game_validates() {
    let jsonl = imported_codecup();
    assert_eq!(jsonl.lines().count(), 1);
    let record: Value = serde_json::from_str(&jsonl).unwrap();
    assert_eq!(record["tags"]["codecup_game"], "53360");
    assert!(
        record.get("end").is_none(),
        "the game ended by a crash, outside the rules"
    );
    let path = write_temp("codecup.jsonl", &jsonl);
    referee()
        .arg("validate")
        .arg(&path)
        .assert()
        .success()
        .stdout("ok: 1 of 1 records valid, 73 plies replayed, 0 problems\n");
}

#[test]
fn validate_names_file_line_ply_seat_and_move() {
    let good = imported_codecup();
    let bad = good.replacen("\"move\":\"B4E4\"", "\"move\":\"B4E5\"", 1);
    let unparseable = good.replacen("\"move\":\"B4E4\"", "\"move\":\"B4E\"", 1);
    let truncated = &good[..good.len() / 2];
    let text = format!("{good}\n{bad}{unparseable}{truncated}\n");
    let path = write_temp("mixed.jsonl", &text);
    let output = referee().arg("validate").arg(&path).assert().code(1);
    let stdout = String::from_utf8(output.get_output().stdout.clone()).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    let file = path.display();
    assert_eq!(
        lines[0],
        format!(
            "{file}:3: ply 62 (seat 1): illegal move B4E5: E5 is not in a straight line from B4"
        )
    );
    assert!(
        lines[1].starts_with(&format!(
            "{file}:4: ply 62 (seat 1): cannot parse move `B4E`"
        )),
        "{}",
        lines[1]
    );
    assert!(
        lines[2].starts_with(&format!("{file}:5: truncated JSON")),
        "{}",
        lines[2]
    );
    assert_eq!(
        lines[3],
        "FAILED: 1 of 4 records valid, 73 plies replayed, 3 problems"
    );

    let output = referee()
        .arg("validate")
        .arg("--json")
        .arg(&path)
        .assert()
        .code(1);
    let report: Value = serde_json::from_slice(&output.get_output().stdout).unwrap();
    assert_eq!(report["records"], 4);
    assert_eq!(report["problems"][0]["kind"], "illegal_move");
    assert_eq!(report["problems"][0]["ply"], 62);
    assert_eq!(report["problems"][0]["seat"], 1);
    assert_eq!(report["problems"][0]["move"], "B4E5");
    assert_eq!(report["problems"][1]["kind"], "unparseable_move");
    assert_eq!(report["problems"][2]["kind"], "malformed");
}

#[test]
fn validate_checks_the_stored_result_and_end() {
    let data = std::fs::read_to_string("fixtures/dvonn/random-games-100.jsonl").unwrap();
    let fixture: Value = serde_json::from_str(data.lines().nth(1).unwrap()).unwrap();
    let mut script = String::from("newgame dvonn seed=1\n");
    for mv in fixture["moves"].as_str().unwrap().split(' ') {
        script.push_str(&format!("play {mv}\n"));
    }
    script.push_str("record\n");
    let answers = session(&script);
    let record = answers
        .last()
        .unwrap()
        .strip_prefix("= ")
        .unwrap()
        .to_owned();
    let finished: Value = serde_json::from_str(&record).unwrap();
    let scores = finished["result"]["scores"].clone();
    let mut wrong_result = finished.clone();
    wrong_result["result"]["scores"] = serde_json::json!([0, 0]);
    let mut no_end = finished.clone();
    no_end.as_object_mut().unwrap().remove("end");
    no_end.as_object_mut().unwrap().remove("result");
    let mut typo = finished.clone();
    typo["resutl"] = Value::Null;
    let text = [finished, wrong_result, no_end, typo]
        .iter()
        .map(Value::to_string)
        .collect::<Vec<_>>()
        .join("\n");
    let path = write_temp("results.jsonl", &text);
    let output = referee().arg("validate").arg(&path).assert().code(1);
    let stdout = String::from_utf8(output.get_output().stdout.clone()).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(
        lines[0].contains(":2: stored result winners"),
        "{}",
        lines[0]
    );
    assert!(
        lines[0].contains(&format!("scores {scores}").replace(',', ", ")),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].contains(":3: the game is over after"),
        "{}",
        lines[1]
    );
    assert!(
        lines[2].contains(":4: not a valid record: unknown field `resutl`"),
        "{}",
        lines[2]
    );
}

#[test]
fn validate_reads_pretty_json_and_reports_unreadable_files() {
    let record: Value = serde_json::from_str(&imported_codecup()).unwrap();
    let path = write_temp(
        "pretty.json",
        &serde_json::to_string_pretty(&record).unwrap(),
    );
    referee().arg("validate").arg(&path).assert().success();
    referee()
        .args(["validate", "no/such/file.jsonl"])
        .assert()
        .code(2)
        .stdout(predicates::str::starts_with(
            "no/such/file.jsonl:0: cannot read:",
        ));
    referee().arg("validate").assert().code(2);
}

#[test]
fn import_reports_a_bad_transcript() {
    let path = write_temp("bad.txt", "game 9: D2 C1 D2\n");
    referee()
        .args(["import", "--from", "codecup"])
        .arg(&path)
        .assert()
        .code(1)
        .stderr(predicates::str::contains(
            ":1: ply 2 (seat 0): illegal move D2: D2 is occupied",
        ));
}

#[test]
fn schema_is_json_describing_records() {
    let output = referee().arg("schema").assert().success();
    let schema: Value = serde_json::from_slice(&output.get_output().stdout).unwrap();
    assert_eq!(schema["title"], "Record");
    let required = schema["required"].as_array().unwrap();
    for field in ["format", "version", "game", "seats", "seed", "moves"] {
        assert!(required.contains(&Value::from(field)), "{field}");
    }
}

#[test]
fn the_documented_schema_is_the_printed_one() {
    let output = referee().arg("schema").assert().success();
    let documented = std::fs::read_to_string("docs/record.schema.json").unwrap();
    assert_eq!(
        String::from_utf8(output.get_output().stdout.clone()).unwrap(),
        documented,
        "regenerate with: cargo run -q -- schema > docs/record.schema.json"
    );
}

#[test]
fn every_game_plays_in_a_session() {
    let answers = session(
        "newgame double-dutch seats=3 seed=1\nplay d4\nplay a1\nplay g7\nto_move\nplay d4d7\n\
         play d4g4\nshowboard\nscore\n\
         newgame pegs turbo\nplay c2d3\nplay b3c4\nshowboard 1\n\
         newgame wyx seed=7\nlegal_moves\nplay 3\nplay 1\nscore\n\
         newgame wyx double seed=7\nshowboard\n",
    );
    assert_eq!(answers[..4], ["=", "=", "=", "="]);
    assert_eq!(answers[4], "= 0");
    assert!(answers[5].contains("illegal move d4d7: a slide from d4 must go as far as it can"));
    assert_eq!(answers[6], "=");
    let board = &answers[7];
    assert!(
        board.starts_with("= double-dutch ply 4: dark to move"),
        "{board}"
    );
    // Light slid d4 to g4 (3 cells: flipped, lower case) and dropped a flat piece on e4.
    assert!(
        board.contains("\n4    .   .   .   .   L   .   l"),
        "{board}"
    );
    assert!(board.contains("light 2 on board, 18 in supply"), "{board}");
    assert_eq!(answers[8], "= 2 1 1");
    assert_eq!(answers[9], "=");
    assert!(
        answers[10].starts_with("? ply 0 (seat 0): illegal move c2d3"),
        "{}",
        answers[10]
    );
    assert_eq!(answers[11], "=");
    assert!(
        answers[12].starts_with("= pegs turbo ply 1: north to move"),
        "{}",
        answers[12]
    );
    assert_eq!(answers[14], "= 1 2 5 7 8");
    assert!(
        answers[15].contains("L4D2 from d4 leaves the board"),
        "{}",
        answers[15]
    );
    assert_eq!(answers[17], "= 1 0");
    assert!(
        answers[19].starts_with("= wyx round 1 ply 0: white (seat 0) to move"),
        "{}",
        answers[19]
    );
    assert!(
        answers[19].contains("column 1: L3U3 L2U3"),
        "{}",
        answers[19]
    );
}

#[test]
fn showboard_svg_answers_a_picture_without_empty_lines() {
    let answers = session(
        "newgame pegs\nshowboard svg\nnewgame double seats=3 seed=2\nshowboard svg 1\nshowboard svg 5\n",
    );
    let pegs = answers[1].strip_prefix("= ").unwrap();
    assert!(
        pegs.starts_with("<svg") && pegs.ends_with("</svg>"),
        "{pegs}"
    );
    assert_eq!(pegs.matches(r#"class="peg south""#).count(), 11);
    let seat1 = answers[3].strip_prefix("= ").unwrap();
    assert_eq!(
        seat1.matches(r#"class="hidden""#).count(),
        12,
        "the other two hands, face down"
    );
    assert_eq!(answers[4], "? no seat 5: seats are 0 to 2");
}

#[test]
fn every_subcommand_teaches_by_example() {
    // The subcommands as the top-level help lists them, so a new one cannot be missed.
    let help = referee().arg("--help").output().expect("help runs");
    let help = String::from_utf8_lossy(&help.stdout).into_owned();
    let listed: Vec<&str> = help
        .split("Commands:")
        .nth(1)
        .expect("a Commands section")
        .lines()
        .skip(1)
        .take_while(|line| !line.trim().is_empty())
        .filter_map(|line| line.split_whitespace().next())
        .filter(|&sub| sub != "help")
        .collect();
    assert!(
        listed.len() >= 14 && listed.contains(&"rules"),
        "{listed:?}"
    );
    for sub in listed {
        referee()
            .args([sub, "--help"])
            .assert()
            .success()
            .stdout(predicates::str::contains("Example"));
    }
    referee()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicates::str::contains(
            "DVONN, Double Dutch, Pegs, Wyx and DOUBLE",
        ));
}

#[test]
fn each_subcommand_s_help_opens_with_what_the_list_says_it_does() {
    // The subcommands' flags are built only when used; their description must survive that.
    let help = referee().arg("--help").output().expect("help runs");
    let help = String::from_utf8_lossy(&help.stdout).into_owned();
    let listed: Vec<(&str, &str)> = (help.split("Commands:").nth(1).expect("a Commands section"))
        .lines()
        .skip(1)
        .take_while(|line| !line.trim().is_empty())
        .filter_map(|line| line.trim().split_once(' '))
        .map(|(sub, about)| (sub, about.trim()))
        .filter(|&(sub, _)| sub != "help")
        .collect();
    assert!(listed.len() >= 14, "{listed:?}");
    for (sub, about) in listed {
        let own = referee().args([sub, "-h"]).output().expect("help runs");
        let own = String::from_utf8_lossy(&own.stdout).into_owned();
        assert_eq!(own.lines().next(), Some(about), "{sub} -h:\n{own}");
    }
}

#[test]
fn counts_that_would_do_nothing_are_refused() {
    for args in [
        &["match", "--game", "pegs", "--games", "0"][..],
        &["match", "--game", "pegs", "--rounds", "0"],
        &["match", "--game", "pegs", "--concurrency", "0"],
        &["match", "--game", "pegs", "--movetime", "0"],
        &["tournament", "--game", "pegs", "--rounds", "0"],
        &["openings", "--game", "pegs", "--plies", "4", "--count", "0"],
        &["render", "x.jsonl", "--index", "0"],
    ] {
        referee()
            .args(args)
            .assert()
            .code(2)
            .stderr(predicates::str::contains("invalid value '0'"));
    }
}

#[test]
fn engines_may_be_given_as_separate_words_as_cutechess_users_type_them() {
    let work = Workspace::new("cutechess-words");
    let dir = work.dir().to_path_buf();
    let out = dir.join("games.jsonl");
    let bot = format!("cmd={} bot --game pegs", common::shared_referee().display());
    referee()
        .args([
            "match",
            "--game",
            "pegs",
            "--games",
            "2",
            "--movetime",
            "50",
        ])
        .args(["--engine", "name=first", &bot, "tc=5+0.1"])
        .args(["--engine", "name=second", &bot, "-o"])
        .arg(&out)
        .assert()
        .success();
    let records = common::valid_records(&out);
    assert_eq!(records[0]["seats"][0]["name"], "first");
    assert_eq!(records[0]["seats"][1]["name"], "second");
}

#[test]
fn completions_and_a_manual_page_are_printed() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        referee()
            .args(["completions", shell])
            .assert()
            .success()
            .stdout(predicates::str::contains("tournament"));
    }
    referee().arg("man").assert().success().stdout(
        predicates::str::starts_with(".ie").and(predicates::str::contains(".TH referee 1")),
    );
    // Every page the top one lists is written too.
    let top = referee().arg("man").output().unwrap();
    let top = String::from_utf8(top.stdout).unwrap();
    let listed: Vec<&str> = top
        .split("referee\\-")
        .skip(1)
        .filter_map(|rest| rest.split_once("(1)").map(|(name, _)| name))
        .collect();
    assert!(listed.len() >= 10, "{listed:?}");
    for name in listed {
        let name = name.replace("\\-", "-");
        let page = referee().args(["man", &name]).output().unwrap();
        assert!(page.status.success(), "{name}");
        let text = String::from_utf8(page.stdout).unwrap();
        assert!(
            text.contains(&format!(".TH referee-{name} 1")),
            "{name}: {text}"
        );
    }
    // Shells complete --game with the game names, not file names.
    let bash = referee().args(["completions", "bash"]).output().unwrap();
    let bash = String::from_utf8(bash.stdout).unwrap();
    assert!(
        bash.matches("dvonn double-dutch pegs wyx double").count() >= 6,
        "every --game completes game names"
    );
    referee()
        .args(["man", "nonesuch"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("no subcommand `nonesuch`"));
}

#[test]
fn an_empty_file_and_an_unknown_end_field_do_not_validate() {
    let empty = write_temp("empty.jsonl", "");
    referee()
        .arg("validate")
        .arg(&empty)
        .assert()
        .code(1)
        .stdout(predicates::str::contains("empty.jsonl:0: holds no records"));
    let record = r#"{"format":"referee-record","version":1,"game":"dvonn","seats":[{"name":"a"},{"name":"b"}],"seed":0,"moves":[],"end":{"reason":"normal","extra":1}}"#;
    let extra = write_temp("extra.jsonl", &format!("{record}\n"));
    referee()
        .arg("validate")
        .arg(&extra)
        .assert()
        .code(1)
        .stdout(predicates::str::contains("unknown field `extra`"));
}

#[test]
fn the_rules_of_every_game_are_printed_and_are_the_repositorys_pages() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for game in ["dvonn", "double-dutch", "pegs", "wyx", "double"] {
        let page = std::fs::read_to_string(root.join(format!("docs/rules/{game}.md")))
            .expect("a rules page per game");
        referee()
            .args(["rules", game])
            .assert()
            .success()
            .stdout(predicates::ord::eq(page));
    }
    referee()
        .arg("rules")
        .assert()
        .success()
        .stdout(predicates::str::contains("double-dutch.md"));
    referee()
        .args(["rules", "chess"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("possible values"));
}

#[test]
fn nothing_a_user_reads_points_outside_the_repository() {
    // Users clone the repository alone: docs, help and messages must stand on their own.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<_> = [
        "README.md",
        "protocol.md",
        "ARCHITECTURE.md",
        "CONTRIBUTING.md",
        "CHANGELOG.md",
    ]
    .iter()
    .map(|name| root.join(name))
    .collect();
    for folder in ["docs", "fixtures", "examples", "src"] {
        files.extend(common::files_under(&root.join(folder), &["md", "rs", "py"]));
    }
    assert!(files.len() > 40, "{} files", files.len());
    for path in files {
        let text = std::fs::read_to_string(&path).expect("a text file");
        for outside in ["../shared", "shared/rules", "rulebooks/"] {
            assert!(
                !text.contains(outside),
                "{} mentions {outside}",
                path.display()
            );
        }
    }
    let manual = referee().arg("man").output().expect("man runs");
    assert!(!String::from_utf8_lossy(&manual.stdout).contains("shared/"));
}

#[test]
fn the_ci_guides_bash_example_plays_a_game_to_its_end() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let guide = std::fs::read_to_string(root.join("docs/ci.md")).expect("docs/ci.md");
    let script = guide
        .split("## Scripting a game in bash")
        .nth(1)
        .and_then(|section| section.split("```bash\n").nth(1))
        .and_then(|block| block.split("```").next())
        .expect("a bash block in the scripting section");
    let bin = cargo_bin("referee");
    let path = format!(
        "{}:{}",
        bin.parent().expect("the binary's folder").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for _ in 0..3 {
        let out = std::process::Command::new("bash")
            .args(["-euo", "pipefail", "-c", script])
            .env("PATH", &path)
            .output()
            .expect("bash runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            out.stderr.is_empty(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        // Pegs always ends with a winner or a draw, never `ongoing`.
        let last = stdout.lines().last().unwrap_or("");
        assert!(last.starts_with("winner ") || last == "draw", "{stdout}");
    }
}

#[test]
fn moves_prints_the_legal_moves_and_tells_bad_moves_apart() {
    let out = referee()
        .args(["moves", "--game", "dvonn", "D2", "c1"])
        .output()
        .expect("runs");
    assert!(out.status.success());
    let moves: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(String::from)
        .collect();
    // 49 cells, two taken: the rules page's placement phase.
    assert_eq!(moves.len(), 47);
    assert!(!moves.contains(&"D2".to_owned()) && moves.contains(&"A1".to_owned()));
    referee()
        .args(["moves", "--game", "pegs", "c2c3", "zz"])
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicates::str::contains(
            "ply 1 (seat 1): cannot parse move `zz`",
        ));
    referee()
        .args(["moves", "--game", "pegs", "c2c4"])
        .assert()
        .code(1)
        .stderr(predicates::str::contains(
            "ply 0 (seat 0): illegal move c2c4",
        ));
    referee()
        .args(["moves", "--game", "pegs", "--variant", "fast"])
        .assert()
        .code(2);
    // DOUBLE's actions hold spaces: one per line, dealt from the seed.
    let out = referee()
        .args(["moves", "--game", "double", "--seed", "7"])
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.lines().any(|line| line == "draw"), "{text}");
    let again = referee()
        .args(["moves", "--game", "double", "--seed", "7"])
        .output()
        .expect("runs");
    assert_eq!(out.stdout, again.stdout);
}

#[test]
fn a_plain_session_prints_answers_only_and_fails_after_an_error() {
    referee()
        .args(["session", "--plain"])
        .write_stdin("newgame pegs\nplay c2c3\nto_move\nplay zz\nscore\n")
        .assert()
        .code(1)
        .stdout("1\n11 11\n")
        .stderr(predicates::str::starts_with(
            "referee: line 4: ply 1 (seat 1): cannot parse",
        ));
    referee()
        .args(["session", "--plain"])
        .write_stdin("newgame pegs\nplay c2c3\n")
        .assert()
        .success()
        .stdout("");
}

#[test]
fn render_view_stats_and_report_read_every_file_validate_reads() {
    // Two finished games, pretty-printed one after the other in one `.json` file.
    let work = Workspace::new("pretty-pages");
    let dir = work.dir().to_path_buf();
    let lines = dir.join("two.jsonl");
    referee()
        .args([
            "match",
            "--game",
            "pegs",
            "--games",
            "2",
            "--movetime",
            "20",
            "-o",
        ])
        .arg(&lines)
        .assert()
        .success();
    let text: Vec<String> = std::fs::read_to_string(&lines)
        .unwrap()
        .lines()
        .map(|line| serde_json::to_string_pretty(&serde_json::from_str::<Value>(line).unwrap()))
        .collect::<Result<_, _>>()
        .unwrap();
    let path = dir.join("two-pretty.json");
    std::fs::write(&path, text.join("\n")).unwrap();
    referee()
        .arg("validate")
        .arg(&path)
        .assert()
        .success()
        .stdout(predicates::str::contains("2 of 2 records valid"));
    referee()
        .arg("stats")
        .arg(&path)
        .assert()
        .success()
        .stdout(predicates::str::starts_with("2 games"));
    // A ply the second game has, however it ended (a bot may lose on time on a busy machine).
    let second: Value = serde_json::from_str(&text[1]).unwrap();
    let ply = second["moves"].as_array().unwrap().len() / 2;
    referee()
        .arg("render")
        .arg(&path)
        .args(["--index", "2", "--ply", &ply.to_string()])
        .assert()
        .success()
        .stdout(predicates::str::starts_with("<svg"));
    for (command, shows) in [
        ("view", "<title>referee games</title>"),
        ("report", r#"<p id="summary">2 games"#),
    ] {
        let page = dir.join(format!("{command}.html"));
        referee()
            .arg(command)
            .arg(&path)
            .arg("-o")
            .arg(&page)
            .assert()
            .success();
        let html = std::fs::read_to_string(&page).unwrap();
        assert!(html.contains(shows), "{command}");
    }
}

/// One engine plays the built-in search bot (and random bots in any further seat), as the README
/// says; `--engine search` and `--engine random` name the built-in bots.
#[test]
fn one_engine_plays_the_built_in_bots_and_the_bots_have_names() {
    let work = Workspace::new("one-engine");
    let dir = work.dir().to_path_buf();
    let random = format!(
        "name=mine cmd='{} bot --game dvonn --strategy random'",
        common::shared_referee().display()
    );
    // A short clock: the search bot may lose on time on a busy machine, which these do not check.
    let out = dir.join("one.jsonl");
    referee()
        .args([
            "match",
            "--game",
            "dvonn",
            "--games",
            "1",
            "--movetime",
            "60",
        ])
        .args(["--engine", &random, "--out"])
        .arg(&out)
        .assert()
        .success()
        .stdout(predicate::str::contains("Score of mine vs search"));
    let out = dir.join("three.jsonl");
    referee()
        .args(["match", "--game", "double", "--seats", "3", "--games", "1"])
        .args([
            "--movetime",
            "60",
            "--engine",
            &random.replace("dvonn", "double"),
        ])
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let text = std::fs::read_to_string(&out).unwrap();
    let record: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let names: Vec<&str> = (record["seats"].as_array().unwrap().iter())
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["mine", "search", "random"]);
    referee()
        .args([
            "match",
            "--game",
            "pegs",
            "--games",
            "1",
            "--movetime",
            "60",
        ])
        .args(["--engine", "random", "--engine", "search"])
        .assert()
        .success()
        .stdout(predicate::str::contains("(random vs search)"));
    // The ladder's levels by number; a level that is not one is refused.
    let ladder = dir.join("ladder.jsonl");
    referee()
        .args([
            "match",
            "--game",
            "pegs",
            "--games",
            "2",
            "--movetime",
            "200",
        ])
        .args(["--engine", "level=3", "--engine", "level=1", "--out"])
        .arg(&ladder)
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "Score of level3 vs level1: 2 - 0 - 0",
        ));
    // Level 3 looks at 10,000 positions a move at most, and says so.
    let nodes = |text: &str| -> Vec<u64> {
        (text.match_indices("\"nodes\":"))
            .map(|(at, key)| {
                let rest = &text[at + key.len()..];
                rest[..rest.find(|c: char| !c.is_ascii_digit()).unwrap()]
                    .parse()
                    .unwrap()
            })
            .collect()
    };
    let text = std::fs::read_to_string(&ladder).unwrap();
    assert!(
        nodes(&text).into_iter().max().is_some_and(|n| n <= 10_100),
        "{text}"
    );
    // DOUBLE's ladder has smaller budgets: its level 3 makes at most 300 playouts a move.
    let double = dir.join("double-ladder.jsonl");
    referee()
        .args(["match", "--game", "double", "--games", "1", "--seed", "2"])
        .args([
            "--movetime",
            "2000",
            "--engine",
            "level=3",
            "--engine",
            "level=1",
        ])
        .arg("--out")
        .arg(&double)
        .assert()
        .success();
    let text = std::fs::read_to_string(&double).unwrap();
    let nodes = nodes(&text);
    assert!(nodes.contains(&300), "{text}");
    assert!(nodes.iter().all(|&n| n <= 300), "{text}");
    referee()
        .args([
            "match", "--game", "pegs", "--engine", "level=5", "--engine", "level=1",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("the built-in levels are 1 to 4"));
    // A level takes keys of its own, a name among them, in one argument or several.
    let named = dir.join("named.jsonl");
    referee()
        .args(["match", "--game", "pegs", "--games", "1"])
        .args(["--engine", "level=2", "name=weak", "movetime=500"])
        .args(["--engine", "name=strong level=3", "--out"])
        .arg(&named)
        .assert()
        .success()
        .stdout(predicate::str::contains("(weak vs strong)"));
    let record: Value =
        serde_json::from_str(std::fs::read_to_string(&named).unwrap().trim()).unwrap();
    assert_eq!(record["seats"][0]["name"], "weak");
    assert_eq!(record["seats"][1]["name"], "strong");
}

/// cutechess-cli's spellings out of habit: long options with one dash, `-srand`, `-each` with its
/// keys as separate words; its options the referee has no use for are refused with what to type
/// instead.
#[test]
fn cutechess_spellings_work_or_say_what_to_type() {
    let work = Workspace::new("cutechess");
    let dir = work.dir().to_path_buf();
    let out = dir.join("games.jsonl");
    referee()
        .args(["match", "-game", "pegs", "-games", "2", "-movetime", "60"])
        .args(["-engine", "name=a"])
        .arg(format!(
            "cmd={} bot --game pegs",
            common::shared_referee().display()
        ))
        .args(["-each", "movetime=60", "proto=native"])
        .args(["-engine", "random", "-srand", "7", "-out"])
        .arg(&out)
        .assert()
        .success();
    let text = std::fs::read_to_string(&out).unwrap();
    assert_eq!(text.lines().count(), 2);
    assert!(text.contains("seed=7"), "{text}");
    referee()
        .args(["match", "-game", "pegs", "-pgnout", "games.pgn"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "-pgnout is cutechess-cli's and fastchess's; here --out FILE",
        ));
    // An alias with one dash is the option; any other word with one dash is refused by name,
    // never read as `-o` and the rest of the word (`-output x` wrote the records to `utput`).
    let aliased = dir.join("aliased.jsonl");
    referee()
        .current_dir(&dir)
        .args(["match", "-game", "pegs", "-games", "1", "-output"])
        .arg(&aliased)
        .assert()
        .success();
    assert_eq!(
        std::fs::read_to_string(&aliased).unwrap().lines().count(),
        1
    );
    let page = dir.join("page.html");
    referee()
        .current_dir(&dir)
        .arg("view")
        .arg(&aliased)
        .arg("-output")
        .arg(&page)
        .assert()
        .success();
    assert!(page.exists());
    // cutechess-cli's and fastchess's options with no meaning here: refused by name, with what
    // to type instead.
    for (sub, words, instead) in [
        ("match", &["-outcomeinterval", "5"][..], "-ratinginterval N"),
        (
            "tournament",
            &["-tournament", "round-robin"],
            "--format round-robin",
        ),
        ("match", &["-site", "x"], "tags.tournament"),
        ("match", &["-randomseed"], "-randomseed is fastchess's"),
        ("match", &["-report", "penta=true"], "pentanomial"),
        ("tournament", &["-scoreinterval", "5"], "-ratinginterval N"),
        ("match", &["-maxmoves", "200"], "their own rules"),
        ("tournament", &["-debug"], "--log-dir DIR"),
        ("match", &["-tbignore50"], "no tablebases"),
        (
            "match",
            &["-output", "format=cutechess"],
            "cutechess-cli's already",
        ),
        ("view", &["-whatever"], "unknown option -whatever"),
    ] {
        referee()
            .current_dir(&dir)
            .args([sub, "--game", "pegs"])
            .args(words)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(instead));
    }
    for stray in ["utput", "utcomeinterval", "ournament", "format=cutechess"] {
        assert!(!dir.join(stray).exists(), "{stray} was written");
    }
}

/// `-use-affinity` (fastchess's and cutechess-cli's spelling) pins each game played at once to a
/// CPU of its own: every engine of a game runs on that one CPU, the games spread over the CPUs
/// listed, and a CPU the referee may not use, or too few of them, is refused.
#[test]
fn use_affinity_pins_each_game_and_its_engines_to_a_cpu_of_its_own() {
    let usable = referee::engine::process::usable_cpus().unwrap();
    let at_once = usable.len().min(2);
    let work = Workspace::new("affinity");
    let logs = work.file("logs");
    let engine = |name: &str| format!("name={name} cmd='python3 tests/engines/affinity.py'");
    referee()
        .env("REFEREE", cargo_bin!("referee"))
        .args(["match", "-game", "pegs", "-games", "4", "-movetime", "5000"])
        .args(["-engine", &engine("a"), "-engine", &engine("b")])
        .args([
            "-concurrency",
            &at_once.to_string(),
            "-use-affinity",
            "-log-dir",
        ])
        .arg(&logs)
        .assert()
        .success();
    let mut used = std::collections::BTreeSet::new();
    for game in 1..=4 {
        let log = std::fs::read_to_string(logs.join(format!("game-{game:05}.log"))).unwrap();
        let cpus: Vec<&str> = (log.lines())
            .filter_map(|l| l.split_once(" ! cpus ").map(|(_, cpus)| cpus))
            .collect();
        // Engines started for an earlier game say nothing again; each that starts says one CPU,
        // the same as the other engines of its game.
        assert!(
            cpus.iter().all(|c| !c.contains(',') && *c == cpus[0]),
            "{log}"
        );
        used.extend(cpus.iter().map(|c| c.parse::<usize>().unwrap()));
    }
    let expected: std::collections::BTreeSet<usize> = usable[..at_once].iter().copied().collect();
    assert_eq!(used, expected);
    let refused = |list: &str, concurrency: &str, message: &str| {
        referee()
            .args([
                "match", "--game", "pegs", "--engine", "random", "--engine", "random",
            ])
            .args(["--concurrency", concurrency, "--use-affinity", list])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(message.to_owned()));
    };
    let unusable = (0..).find(|cpu| !usable.contains(cpu)).unwrap();
    refused(
        &unusable.to_string(),
        "1",
        "is not one this process may use",
    );
    refused(&usable[0].to_string(), "2", "a CPU of its own");
    refused("1-x", "1", "expected CPU numbers and ranges");
}

/// The lines a cutechess-cli parser reads, by its documented format: `Started game N of M (A vs
/// B)`, `Finished game N (A vs B): RESULT {COMMENT}`, `Score of A vs B: W - L - D [SCORE] N`, and
/// after each score `Elo difference: X +/- Y, LOS: Z %, DrawRatio: W %`.
fn cutechess_parse(stdout: &str) -> Cutechess {
    let (mut started, mut finished, mut score) = (Vec::new(), Vec::new(), None);
    let mut elo_lines = 0;
    for line in stdout.lines() {
        if let Some(rest) = line.strip_prefix("Started game ") {
            let (n, rest) = rest.split_once(" of ").expect("Started game N of M");
            let (_m, players) = rest.split_once(" (").expect("(A vs B)");
            assert!(players.ends_with(')') && players.contains(" vs "), "{line}");
            started.push(n.parse().unwrap());
        } else if let Some(rest) = line.strip_prefix("Finished game ") {
            let (n, rest) = rest.split_once(" (").expect("Finished game N (");
            let (players, rest) = rest.split_once("): ").expect("(A vs B): ");
            assert!(players.contains(" vs "), "{line}");
            let (result, comment) = rest.split_once(" {").expect("RESULT {COMMENT}");
            assert!(["1-0", "0-1", "1/2-1/2", "*"].contains(&result), "{line}");
            assert!(comment.ends_with('}'), "{line}");
            finished.push((n.parse().unwrap(), result.to_owned()));
        } else if let Some(rest) = line.strip_prefix("Score of ") {
            let (_, rest) = rest.split_once(": ").unwrap();
            let words: Vec<&str> = rest.split_whitespace().collect();
            // W - L - D [SCORE] N
            assert_eq!((words[1], words[3]), ("-", "-"), "{line}");
            assert!(
                words[5].starts_with('[') && words[5].ends_with(']'),
                "{line}"
            );
            let n = |i: usize| words[i].parse::<u32>().unwrap();
            score = Some([n(0), n(2), n(4), n(6)]);
        } else if let Some(rest) = line.strip_prefix("Elo difference: ") {
            // `X +/- Y, LOS: Z %, DrawRatio: W %`, numbers as C prints them (`inf`, `nan`).
            let (elo, rest) = rest.split_once(" +/- ").expect("X +/- Y");
            let (error, rest) = rest.split_once(", LOS: ").expect(", LOS: ");
            let (los, rest) = rest.split_once(" %, DrawRatio: ").expect(" %, DrawRatio: ");
            let draws = rest.strip_suffix(" %").expect("W %");
            for number in [elo, error, los, draws] {
                assert!(number.parse::<f64>().is_ok(), "{number}: {line}");
            }
            elo_lines += 1;
        }
    }
    assert_eq!(elo_lines, stdout.matches("Score of ").count(), "{stdout}");
    Cutechess {
        started,
        finished,
        score,
    }
}

/// What [`cutechess_parse`] read.
struct Cutechess {
    /// The numbers of the games started.
    started: Vec<u32>,
    /// The numbers and results of the games finished.
    finished: Vec<(u32, String)>,
    /// Wins, losses, draws and games of the score line.
    score: Option<[u32; 4]>,
}

#[test]
fn the_game_lines_read_as_cutechess_cli_writes_them() {
    let output = referee()
        .args([
            "match",
            "--game",
            "pegs",
            "--games",
            "4",
            "--movetime",
            "60",
        ])
        .args([
            "--engine",
            "random",
            "--engine",
            "random",
            "--concurrency",
            "2",
        ])
        .args(["-ratinginterval", "2"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let stdout = String::from_utf8(output).unwrap();
    let Cutechess {
        mut started,
        mut finished,
        score,
    } = cutechess_parse(&stdout);
    started.sort_unstable();
    finished.sort();
    assert_eq!(started, [1, 2, 3, 4], "{stdout}");
    let numbers: Vec<u32> = finished.iter().map(|f| f.0).collect();
    assert_eq!(numbers, [1, 2, 3, 4], "{stdout}");
    let [w, l, d, n] = score.expect("a score line");
    assert_eq!((w + l + d, n), (4, 4), "{stdout}");
    // Every 2 games, and at the end.
    assert_eq!(stdout.matches("Score of ").count(), 3, "{stdout}");
    // A sweep, whose Elo has no finite estimate, reads the same way.
    let output = referee()
        .args(["match", "--game", "pegs", "--games", "4", "--seed", "1"])
        .args(["--engine", "search", "--engine", "random"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let stdout = String::from_utf8(output).unwrap();
    cutechess_parse(&stdout);
    assert!(stdout.contains("Elo difference: inf +/- "), "{stdout}");
    assert!(stdout.contains("Elo difference, 95%: > "), "{stdout}");
}

/// `nodes=`, `depth=` and `option.NAME=` in an `--engine` value reach that engine in `newgame`.
#[test]
fn engine_keys_of_cutechess_users_reach_the_engine() {
    let work = Workspace::new("newgame-keys");
    let dir = work.dir().to_path_buf();
    let bot = format!("{} bot --game pegs", common::shared_referee().display());
    referee()
        .args([
            "match",
            "--game",
            "pegs",
            "--games",
            "1",
            "--movetime",
            "60",
        ])
        .arg("--engine")
        .arg(format!("name=a cmd='{bot}' nodes=1000 option.Hash=64"))
        .arg("--engine")
        .arg(format!("name=b cmd='{bot}'"))
        .arg("--log-dir")
        .arg(&dir)
        .assert()
        .success();
    let log = std::fs::read_to_string(dir.join("game-00001.log")).unwrap();
    let told = |engine: &str| {
        log.lines()
            .find(|l| l.contains(&format!(" {engine} < ")) && l.contains("newgame"))
            .unwrap()
            .to_owned()
    };
    assert!(told("a").ends_with(" nodes=1000 option.Hash=64"), "{log}");
    assert!(!told("b").contains("nodes="), "{log}");
}

#[test]
fn rounds_and_games_multiply_as_in_cutechess_and_sprt_takes_the_normalized_model() {
    let output = referee()
        .args([
            "match", "-game", "pegs", "-rounds", "3", "-games", "2", "-repeat",
        ])
        .args([
            "-movetime",
            "2000",
            "-engine",
            "random",
            "-engine",
            "random",
        ])
        .args(["-sprt", "elo0=0", "elo1=5", "model=normalized"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(output).unwrap();
    assert_eq!(text.matches("Finished game").count(), 6, "{text}");
    assert!(text.contains("model=normalized, on game pairs"), "{text}");
    referee()
        .args([
            "match",
            "--game",
            "pegs",
            "--sprt",
            "elo0=0",
            "elo1=5",
            "model=bayes",
        ])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("model is logistic or normalized"));
}

/// Every referee process (each built-in bot, each `referee moves` of a script) starts faster for
/// loading no shared library but the C library and its maths library: the unwinder is linked in
/// (`build.rs`). A dependency that brings back `libgcc_s`, or another library, fails here.
#[test]
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn the_program_loads_no_shared_library_but_the_c_library_and_its_maths() {
    let output = std::process::Command::new("readelf")
        .arg("--dynamic")
        .arg(assert_cmd::cargo::cargo_bin!("referee"))
        .output()
        .expect("readelf (binutils, which the C linker comes with)");
    assert!(output.status.success());
    let text = String::from_utf8_lossy(&output.stdout);
    let needed: Vec<&str> = text
        .lines()
        .filter(|line| line.contains("(NEEDED)"))
        .filter_map(|line| line.split('[').nth(1)?.split(']').next())
        .collect();
    assert!(!needed.is_empty(), "{text}");
    for library in &needed {
        assert!(
            ["libc.so", "libm.so", "ld-linux"]
                .iter()
                .any(|allowed| library.starts_with(allowed)),
            "the program needs {library}: {needed:?}"
        );
    }
}

/// Started with its standard output closed (or all three standard descriptors), the referee must
/// not let a file it opens take their place: what it prints would then land in the records.
#[test]
fn closed_standard_descriptors_do_not_let_printing_into_the_records() {
    let dir = Workspace::new("closed-stdio");
    for (n, closing) in [">&-", "<&- >&- 2>&-"].into_iter().enumerate() {
        let out = dir.file(&format!("m{n}.jsonl"));
        let status = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!(r#"exec "$0" "$@" {closing}"#))
            .arg(assert_cmd::cargo::cargo_bin!("referee"))
            .args([
                "match", "--game", "pegs", "--engine", "random", "--engine", "random",
            ])
            .args(["--games", "2", "--seed", "5", "--out"])
            .arg(&out)
            .status()
            .expect("sh");
        assert!(status.success(), "{closing}: {status}");
        let text = std::fs::read_to_string(&out).expect("the records");
        assert_eq!(text.lines().count(), 2, "{closing}: {text}");
        for line in text.lines() {
            let record: Value = serde_json::from_str(line).expect("a record on each line");
            assert_eq!(record["game"], "pegs");
        }
    }
}

/// Standard output closed by its reader before anything is written (`referee ... | head -0`): the
/// referee is not killed by SIGPIPE but sees the error, says nothing and exits 0, as a match
/// piped into `head` does.
#[test]
fn a_closed_output_pipe_ends_the_program_quietly_with_success() {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let output = std::process::Command::new(assert_cmd::cargo::cargo_bin!("referee"))
        .args([
            "import",
            "--from",
            "codecup",
            "fixtures/dvonn/codecup-2011-game-53360.txt",
        ])
        .stdout(writer)
        .stderr(std::process::Stdio::piped())
        .output()
        .expect("the referee");
    assert_eq!(output.status.code(), Some(0), "{:?}", output.status);
    assert!(
        output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// An engine whose program lies in a folder with a space in its name, given as one word to
/// `match --engine` and to `check-engine --`, is that program, not two words.
#[test]
fn an_engine_in_a_folder_with_a_space_is_one_program() {
    let work = Workspace::new("spaced engine");
    let folder = work.dir().join("my bots");
    std::fs::create_dir(&folder).unwrap();
    let bot = folder.join("bot");
    std::fs::write(
        &bot,
        format!(
            "#!/bin/sh\nexec '{}' bot --game pegs \"$@\"\n",
            common::shared_referee().display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&bot, std::fs::Permissions::from_mode(0o755)).unwrap();
    let bot = bot.display().to_string();
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
        .args(["--engine", &bot, "--engine", &bot])
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .success();
    referee()
        .args(["check-engine", "--game", "pegs", "--", &bot])
        .timeout(std::time::Duration::from_secs(120))
        .assert()
        .success();
}
