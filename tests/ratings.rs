//! Joint ratings against Ordo's: the same 1200 two-seat results (fixtures/ratings, whose README
//! says how Ordo 1.2.6 was run on them) give every engine Ordo's rating within 1 Elo, its
//! interval within 10% and its likelihood of superiority over each other within 1.5 points; the
//! PGN the referee exports is the file Ordo read; a fitted seat advantage is Ordo's white
//! advantage, the draw rate Ordo's; bad input is refused.

// The engines these tests run, and what they look at (/proc, bubblewrap), are Linux's.
#![cfg(target_os = "linux")]

mod common;

use common::referee;

use std::path::Path;

use serde_json::Value;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/ratings");

/// Ordo's table: name, rating and error (`None` for the anchor's `----`).
fn ordo(file: &str) -> Vec<(String, f64, Option<f64>)> {
    let text = std::fs::read_to_string(Path::new(FIXTURES).join(file)).unwrap();
    text.lines()
        .filter_map(|line| {
            let (left, right) = line.split_once(':')?;
            let name = left.split_whitespace().nth(1)?.to_owned();
            let mut columns = right.split_whitespace();
            let rating = columns.next()?.parse().ok()?;
            let error = columns.next()?.parse().ok();
            Some((name, rating, error))
        })
        .collect()
}

/// What a command run in the fixtures' folder prints, once it has succeeded.
fn printed(args: &[&str]) -> Vec<u8> {
    referee()
        .current_dir(FIXTURES)
        .args(args)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone()
}

fn ratings(extra: &[&str]) -> Vec<Value> {
    ratings_of("league.jsonl", extra)
}

/// The list of `file` (in the fixtures' folder) as JSON, the engines' list alone.
fn ratings_of(file: &str, extra: &[&str]) -> Vec<Value> {
    let output = printed(&[&["ratings", file, "--json"], extra].concat());
    let value: Value = serde_json::from_slice(&output).unwrap();
    let list = value.get("engines").unwrap_or(&value);
    list.as_array().unwrap().clone()
}

fn agree(ours: &[Value], theirs: &[(String, f64, Option<f64>)]) {
    assert_eq!(ours.len(), theirs.len());
    for (name, rating, error) in theirs {
        let engine = ours.iter().find(|e| e["name"] == name.as_str()).unwrap();
        let got = engine["rating"].as_f64().unwrap();
        assert!(
            (got - rating).abs() <= 1.0,
            "{name}: {got} vs Ordo's {rating}"
        );
        match error {
            Some(error) => {
                let got = engine["error"].as_f64().unwrap();
                assert!(
                    (got - error).abs() <= 0.1 * error,
                    "{name}: ±{got} vs Ordo's ±{error}"
                );
            }
            None => assert_eq!(engine["error"].as_f64(), Some(0.0), "{name} is the anchor"),
        }
        assert!(engine["games"].as_u64().unwrap() > 0 && engine["points"].is_number());
    }
}

#[test]
fn the_ratings_agree_with_ordo_around_the_average_and_an_anchor() {
    agree(&ratings(&[]), &ordo("ordo-average.txt"));
    agree(
        &ratings(&["--anchor", "dog=1500"]),
        &ordo("ordo-anchor.txt"),
    );
}

/// A league whose first seat plays 60 Elo stronger (`make_league.py 60`): with the seat advantage
/// fitted, every rating is Ordo's with `-W` (white advantage fitted) within 1 Elo and its interval
/// within 10%, and the second seat's advantage is minus Ordo's white advantage within 1 Elo, its
/// interval 1.96 of Ordo's standard deviation within 10%. Without the fit, the first seat's edge
/// goes into the ratings and the advantage is not printed.
#[test]
fn the_seat_advantage_agrees_with_ordos_white_advantage() {
    let file = "league-first-seat.jsonl";
    let output = printed(&["ratings", file, "--json", "--seat-advantage", "fit"]);
    let fitted: Value = serde_json::from_slice(&output).unwrap();
    agree(
        fitted["engines"].as_array().unwrap(),
        &ordo("ordo-first-seat.txt"),
    );
    let text = std::fs::read_to_string(Path::new(FIXTURES).join("ordo-first-seat.txt")).unwrap();
    let line = (text.lines())
        .find_map(|l| l.strip_prefix("White advantage = "))
        .unwrap();
    let (white, sd) = line.split_once(" +/- ").unwrap();
    let (white, sd): (f64, f64) = (white.parse().unwrap(), sd.parse().unwrap());
    let seats = fitted["seats"].as_array().unwrap();
    assert_eq!(seats.len(), 1, "{fitted}");
    assert_eq!(seats[0]["seat"], 1);
    let (elo, error) = (
        seats[0]["elo"].as_f64().unwrap(),
        seats[0]["error"].as_f64().unwrap(),
    );
    assert!(
        (elo + white).abs() <= 1.0,
        "{elo} vs Ordo's white advantage {white}"
    );
    assert!(
        (error - 1.96 * sd).abs() <= 0.1 * 1.96 * sd,
        "±{error} vs Ordo's sd {sd}"
    );
    let plain: Value = serde_json::from_slice(&printed(&["ratings", file, "--json"])).unwrap();
    assert!(plain.get("seats").is_none(), "{plain}");
    let hen = |list: &Value| {
        (list.as_array().unwrap().iter())
            .find(|e| e["name"] == "hen")
            .map(|e| e["rating"].as_f64().unwrap())
            .unwrap()
    };
    assert!((hen(&plain["engines"]) - hen(&fitted["engines"])).abs() > 1.0);
}

/// The PGN files Ordo read, read here instead of the records: Ordo's lists, with and without the
/// seat advantage fitted.
#[test]
fn pgn_files_are_rated_as_ordo_rates_them() {
    agree(&ratings_of("league.pgn", &[]), &ordo("ordo-average.txt"));
    agree(
        &ratings_of("league.pgn", &["--anchor", "dog=1500"]),
        &ordo("ordo-anchor.txt"),
    );
    agree(
        &ratings_of("league-first-seat.pgn", &["--seat-advantage", "fit"]),
        &ordo("ordo-first-seat.txt"),
    );
}

/// A chess list's PGN as people write it: moves, comments (one hiding a tag line), an unfinished
/// game, a game with no Black, a line far past the standard's 255 characters, and bytes that
/// are not UTF-8. The finished games are rated, the others counted on stderr.
#[test]
fn a_hand_written_pgn_is_read_as_pgn_means_it() {
    let dir = common::temp_dir("pgn-in");
    let file = dir.join("games.PGN");
    let game = |white: &str, black: &str, result: &str| {
        format!(
            "[Event \"club\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n\n\
             1. e4 e5 {{a comment\n[White \"not a tag\"]\n}} 2. Nf3 ; [Black \"no\"]\n{result}\n\n"
        )
    };
    let mut text = String::new();
    for _ in 0..3 {
        text += &game("Ann", "Bob", "1-0");
        text += &game("Bob", "Ann", "1/2-1/2");
        text += &game("Cy", "Ann", "0-1");
        text += &game("Bob", "Cy", "1-0");
        text += &game("Cy", "Bob", "1-0");
    }
    text += &game("Ann", "Bob", "*");
    text += "[White \"Dee\"]\n[Result \"1-0\"]\n1-0\n\n";
    text += &format!(
        "[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"0-1\"]\n{}\n0-1\n\n",
        "e4 ".repeat(40_000)
    );
    let mut bytes = text.into_bytes();
    bytes.extend_from_slice(b"[White \"Eve\xff\"]\n[Black \"Bob\"]\n[Result \"1-0\"]\n1-0\n");
    std::fs::write(&file, bytes).unwrap();
    let output = referee()
        .args(["ratings", "--json"])
        .arg(&file)
        .assert()
        .success()
        .get_output()
        .clone();
    let document: Value = serde_json::from_slice(&output.stdout).unwrap();
    let list = &document["engines"];
    let games = |name: &str| {
        (list.as_array().unwrap().iter())
            .find(|e| e["name"] == name)
            .map_or(0, |e| e["games"].as_u64().unwrap())
    };
    assert_eq!(
        (games("Ann"), games("Bob"), games("Cy")),
        (10, 14, 9),
        "{list}"
    );
    assert_eq!(games("not a tag") + games("no") + games("Dee"), 0, "{list}");
    assert_eq!(games("Eve\u{fffd}"), 1, "{list}");
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(
        said.contains("2 games without a result or without both players"),
        "{said}"
    );
}

/// The draw rate between equal opponents is Ordo's (`-D`): the rate within a tenth of a point and
/// its interval 1.96 of Ordo's standard deviation within 10%, on both leagues.
#[test]
fn the_draw_rate_agrees_with_ordos() {
    for (file, table, extra) in [
        ("league.jsonl", "ordo-average.txt", &[][..]),
        (
            "league-first-seat.pgn",
            "ordo-first-seat.txt",
            &["--seat-advantage", "fit"][..],
        ),
    ] {
        let output = printed(&[&["ratings", file, "--json"], extra].concat());
        let document: Value = serde_json::from_slice(&output).unwrap();
        let text = std::fs::read_to_string(Path::new(FIXTURES).join(table)).unwrap();
        let line = (text.lines())
            .find_map(|l| l.strip_prefix("Draw rate (equal opponents) = "))
            .unwrap();
        let (rate, sd) = line.split_once(" % +/- ").unwrap();
        let (rate, sd): (f64, f64) = (rate.parse().unwrap(), sd.parse().unwrap());
        let ours = &document["draw_rate"];
        let (got, error) = (
            ours["rate"].as_f64().unwrap(),
            ours["error"].as_f64().unwrap(),
        );
        assert!(
            (100.0 * got - rate).abs() <= 0.1,
            "{file}: {got} vs Ordo's {rate} %"
        );
        assert!(
            (100.0 * error - 1.96 * sd).abs() <= 0.1 * 1.96 * sd,
            "{file}: ±{error} vs Ordo's sd {sd} %"
        );
    }
    // Games without a draw have no draw rate to fit.
    let dir = common::temp_dir("no-draws");
    let file = dir.join("decisive.pgn");
    let game = |white: &str, black: &str, result: &str| {
        format!("[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n{result}\n\n")
    };
    let text = [("a", "b", "1-0"), ("b", "a", "1-0"), ("a", "b", "0-1")]
        .map(|(w, b, r)| game(w, b, r))
        .concat();
    std::fs::write(&file, text).unwrap();
    let output = referee()
        .args(["ratings", "--json"])
        .arg(&file)
        .assert()
        .success();
    let document: Value = serde_json::from_slice(&output.get_output().stdout).unwrap();
    assert!(document.get("draw_rate").is_none(), "{document}");
}

#[test]
fn the_likelihood_of_superiority_agrees_with_ordos() {
    let text = std::fs::read_to_string(Path::new(FIXTURES).join("ordo-cfs.csv")).unwrap();
    let rows: Vec<Vec<&str>> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    let names: Vec<&str> = (rows.iter())
        .map(|row| row[1].trim_matches('"').trim())
        .collect();
    let ours = ratings(&["--los"]);
    let mut compared = 0;
    for (row, name) in rows.iter().zip(&names) {
        let engine = ours.iter().find(|e| e["name"] == *name).unwrap();
        for (cell, other) in row[2..].iter().zip(&names) {
            if cell.is_empty() {
                assert!(engine["los"].get(*other).is_none(), "{name} over itself");
                continue;
            }
            let theirs: f64 = cell.parse().unwrap();
            let got = 100.0 * engine["los"][*other].as_f64().unwrap();
            assert!(
                (got - theirs).abs() <= 1.5,
                "{name} over {other}: {got:.1}% vs Ordo's {theirs}%"
            );
            compared += 1;
        }
    }
    assert_eq!(compared, 8 * 7);
    // The text table: the list's order, row over column.
    let text = String::from_utf8(printed(&["ratings", "league.jsonl", "--los"])).unwrap();
    let table = text.split("Likelihood of superiority").nth(1).unwrap();
    let dog = table.lines().find(|l| l.starts_with("dog")).unwrap();
    assert_eq!(dog.split_whitespace().nth(5), Some("-"), "{table}");
}

#[test]
fn head_to_head_counts_each_pairs_games_from_both_sides() {
    // What the records say, counted here: each ordered pair's wins, losses and draws.
    let text = std::fs::read_to_string(Path::new(FIXTURES).join("league.jsonl")).unwrap();
    let mut expected: std::collections::BTreeMap<(String, String), [u32; 3]> = Default::default();
    for line in text.lines() {
        let record: Value = serde_json::from_str(line).unwrap();
        let name = |seat: usize| record["seats"][seat]["name"].as_str().unwrap().to_owned();
        let winners: Vec<u64> = (record["result"]["winners"].as_array().unwrap().iter())
            .map(|w| w.as_u64().unwrap())
            .collect();
        for (me, other) in [(0, 1), (1, 0)] {
            let slot = match winners.as_slice() {
                [only] if *only == me as u64 => 0,
                [_] => 1,
                _ => 2,
            };
            expected.entry((name(me), name(other))).or_default()[slot] += 1;
        }
    }
    let ours = ratings(&["--head-to-head"]);
    let mut compared = 0;
    for engine in &ours {
        let name = engine["name"].as_str().unwrap();
        for (other, row) in engine["head_to_head"].as_object().unwrap() {
            let [wins, losses, draws] = expected[&(name.to_owned(), other.clone())];
            let count = |key: &str| row[key].as_u64().unwrap() as u32;
            assert_eq!(
                [count("wins"), count("losses"), count("draws")],
                [wins, losses, draws],
                "{name} against {other}"
            );
            assert_eq!(count("games"), wins + losses + draws);
            let points = f64::from(wins) + f64::from(draws) / 2.0;
            assert_eq!(row["points"].as_f64(), Some(points));
            compared += 1;
        }
    }
    assert_eq!(compared, expected.len());
}

#[test]
fn head_to_head_counts_the_game_pairs_of_a_repeated_match() {
    let dir = common::temp_dir("head-to-head");
    let out = dir.join("pairs.jsonl");
    referee()
        .args([
            "match", "--game", "pegs", "--games", "8", "--repeat", "--seed", "3",
        ])
        .args([
            "--engine",
            "random",
            "--engine",
            "random",
            "--movetime",
            "100",
        ])
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let out = out.to_str().expect("a path in UTF-8");
    let output = printed(&["ratings", out, "--head-to-head", "--json"]);
    let document: Value = serde_json::from_slice(&output).unwrap();
    let list = &document["engines"];
    let side = |me: usize| {
        let engine = &list[me];
        let other = list[1 - me]["name"].as_str().unwrap();
        engine["head_to_head"][other].clone()
    };
    let (first, second) = (side(0), side(1));
    assert_eq!(first["pairs"], 4, "{first}");
    let pentanomial = |v: &Value| -> Vec<u64> {
        (v["pentanomial"].as_array().unwrap().iter())
            .map(|n| n.as_u64().unwrap())
            .collect()
    };
    let mut mirrored = pentanomial(&second);
    mirrored.reverse();
    assert_eq!(pentanomial(&first), mirrored);
    assert_eq!(pentanomial(&first).iter().sum::<u64>(), 4);
    // The pairs' points are the games' points.
    let paired: f64 = (pentanomial(&first).iter().enumerate())
        .map(|(k, &n)| k as f64 / 2.0 * n as f64)
        .sum();
    assert_eq!(first["points"].as_f64(), Some(paired));
    assert_eq!(first["wins"], second["losses"]);
    // The intervals count each pair as one unit, and the list says so.
    let text = String::from_utf8(printed(&["ratings", out])).unwrap();
    assert!(
        text.contains("8 games played from shared seeds, each seed's games one unit"),
        "{text}"
    );
    let single = String::from_utf8(printed(&["ratings", "league.jsonl"])).unwrap();
    assert!(!single.contains("shared seeds"), "{single}");
}

/// Four-seat DOUBLE between two levels of the built-in ladder, twice each: the last engine never
/// wins a game, so the winners alone rate nobody, and the whole finishing orders rate everyone.
#[test]
fn four_seat_games_are_rated_from_their_finishing_orders() {
    let dir = common::temp_dir("full-orders");
    let out = dir.join("double.jsonl");
    referee()
        .args(["match", "--game", "double", "--seats", "4", "--games", "24"])
        .args(["--seed", "3", "--movetime", "2000", "--engine", "level=1"])
        .args(["--engine", "level=2", "--engine", "level=1 name=r2"])
        .args(["--engine", "level=2 name=s2", "--out"])
        .arg(&out)
        .assert()
        .success();
    let out = out.to_str().expect("a path in UTF-8");
    let rated = |document: &Value| {
        (document["engines"].as_array().unwrap().iter())
            .filter(|engine| engine["rating"].is_number())
            .count()
    };
    let full: Value = serde_json::from_slice(&printed(&["ratings", out, "--json"])).unwrap();
    let winners: Value =
        serde_json::from_slice(&printed(&["ratings", out, "--json", "--winner-only"])).unwrap();
    assert_eq!(rated(&full), 4, "{full}");
    assert!(
        (full["engines"].as_array().unwrap().iter()).any(|engine| engine["points"] == 0.0),
        "an engine that never won: {full}"
    );
    assert_eq!(rated(&winners), 0, "{winners}");
}

#[test]
fn the_exported_pgn_is_what_ordo_read() {
    let output = referee()
        .current_dir(FIXTURES)
        .args(["export", "--format", "pgn", "league.jsonl"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let expected = std::fs::read(Path::new(FIXTURES).join("league.pgn")).unwrap();
    assert!(
        output == expected,
        "the export differs from fixtures/ratings/league.pgn"
    );
}

#[test]
fn bad_input_is_a_clear_error() {
    let work = common::Workspace::new("ratings-bad");
    let dir = work.dir().to_path_buf();
    let league = Path::new(FIXTURES).join("league.jsonl");
    let text = std::fs::read_to_string(&league).unwrap();
    let first = text.lines().next().unwrap();
    let pegs = first
        .replace("\"dvonn\"", "\"pegs\"")
        .replace("\"seed\":0", "\"seed\":99999");
    let mixed = dir.join("mixed.jsonl");
    std::fs::write(&mixed, format!("{text}{pegs}\n")).unwrap();
    let lone = dir.join("lone.jsonl");
    let one = first.replace(
        r#"[{"name":"bee"},{"name":"cat"}]"#,
        r#"[{"name":"ant"},{"name":"ant"}]"#,
    );
    assert_ne!(one, first);
    std::fs::write(&lone, format!("{one}\n")).unwrap();
    let cases: [(&[&str], &Path, &str); 4] = [
        (&["--anchor", "yak=0"], &league, "no engine yak to anchor"),
        (&["--anchor", "yak"], &league, "is not NAME=ELO"),
        (&[], &mixed, "records of dvonn and of pegs mixed"),
        (&[], &lone, "the records name only"),
    ];
    for (flags, file, message) in cases {
        referee()
            .arg("ratings")
            .arg(file)
            .args(flags)
            .assert()
            .code(2)
            .stderr(predicates::str::contains(message));
    }
}

#[test]
fn stats_and_report_show_the_same_list() {
    let list = ratings(&[]);
    let stats: Value =
        serde_json::from_slice(&printed(&["stats", "league.jsonl", "--json"])).unwrap();
    assert_eq!(stats["ratings"].as_array().unwrap(), &list);
    let work = common::Workspace::new("ratings-report");
    let dir = work.dir().to_path_buf();
    let page = dir.join("report.html");
    referee()
        .current_dir(FIXTURES)
        .args(["report", "league.jsonl", "-o"])
        .arg(&page)
        .assert()
        .success();
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains(r#"<table id="ratings">"#));
    // A dot and an interval for each of the 8 engines.
    assert_eq!(html.matches(r#"class="rating""#).count(), 8);
    assert_eq!(html.matches(r#"class="interval""#).count(), 8);
    for (rank, engine) in list.iter().enumerate() {
        let row = format!(
            "<tr><td>{}</td><td>{}</td><td>{:.1}</td><td>± {:.1}</td>",
            rank + 1,
            engine["name"].as_str().unwrap(),
            engine["rating"].as_f64().unwrap(),
            engine["error"].as_f64().unwrap()
        );
        assert!(html.contains(&row), "no row {row}");
    }
    // The likelihood of superiority as `ratings --los` gives it, row over column.
    let los = ratings(&["--los"]);
    let cell = los[0]["los"][los[1]["name"].as_str().unwrap()]
        .as_f64()
        .unwrap();
    assert!(html.contains(r#"<table id="los">"#));
    let row = format!(
        "<tr><th>{}</th><td>-</td><td>{:.1}</td>",
        los[0]["name"].as_str().unwrap(),
        100.0 * cell
    );
    assert!(html.contains(&row), "no LOS row {row}");
    // Each pair's head to head, as `ratings --head-to-head` counts it.
    let pairs = ratings(&["--head-to-head"]);
    let hen = pairs.iter().find(|e| e["name"] == "hen").unwrap();
    let against = &hen["head_to_head"]["ant"];
    let row = format!(
        "<tr><td>ant vs hen</td><td>{} - {} - {}</td>",
        against["losses"], against["wins"], against["draws"]
    );
    assert!(html.contains(r#"<table id="head-to-head">"#));
    assert!(html.contains(&row), "no head-to-head row {row}");
}

/// `referee ratings` under an address-space limit of 30 MB, with the arguments the caller adds.
fn ratings_in_30_mb() -> std::process::Command {
    let mut command = std::process::Command::new("sh");
    command
        .arg("-c")
        .arg("ulimit -v 30000 && exec \"$0\" ratings \"$@\"")
        .arg(common::shared_referee());
    command
}

/// A chess list's memory is by its pairs, not its games: 500,000 games of ten players (a 25 MB
/// PGN) are rated under an address-space limit of 30 MB, which the program's own needs (about
/// 10 MB) leave 20 MB of, where 40 bytes a game would take all of it.
#[test]
fn many_two_seat_games_are_rated_in_memory_by_pairs() {
    use std::io::Write;
    let work = common::Workspace::new("ratings-memory");
    let path = work.file("games.pgn");
    let mut file = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    for game in 0..500_000u32 {
        let (white, black) = (game % 10, (game / 10 + game % 10 + 1) % 10);
        let black = if black == white {
            (white + 1) % 10
        } else {
            black
        };
        let result = ["1-0", "0-1", "1/2-1/2"][(game as usize * 7 / 3) % 3];
        write!(
            file,
            "[White \"e{white}\"]\n[Black \"e{black}\"]\n[Result \"{result}\"]\n\n{result}\n\n"
        )
        .unwrap();
    }
    file.flush().unwrap();
    drop(file);
    let output = ratings_in_30_mb().arg(&path).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("from 500000 games"), "{stdout}");
}

/// Writes `games` DOUBLE results of six seats drawn at random from 300 engines (each a kind of
/// its own) to `path`.
fn six_seat_games(path: &Path, games: u64) {
    use std::io::Write;
    let mut file = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    let mut state = 5u64;
    let mut next = |below: u64| {
        // A 64-bit LCG's high bits: enough to draw tables.
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) % below
    };
    for game in 0..games {
        let mut table: Vec<u64> = Vec::new();
        while table.len() < 6 {
            let e = next(300);
            if !table.contains(&e) {
                table.push(e);
            }
        }
        let first = next(6);
        let seats: Vec<String> = table
            .iter()
            .map(|e| format!(r#"{{"name":"e{e}"}}"#))
            .collect();
        // The seat `first` places first, the others by seat number after it.
        let scores: Vec<String> = (0..6).map(|s| ((s + 6 - first) % 6).to_string()).collect();
        writeln!(
            file,
            r#"{{"format":"referee-record","version":1,"game":"double","seats":[{}],"seed":{game},"moves":[],"result":{{"winners":[{first}],"scores":[{}]}},"end":{{"reason":"normal"}}}}"#,
            seats.join(","),
            scores.join(",")
        )
        .unwrap();
    }
    file.flush().unwrap();
}

/// Games of more seats at tables drawn at random are each a kind of their own: beyond `--memory`
/// they go to a temporary file, so 60,000 six-seat games are rated under the address-space limit
/// of 30 MB that holding them takes more than (the same command with them all in memory is seen
/// to fail under it: else the limit would prove nothing). The file has no name: none is left.
#[test]
fn games_of_many_seats_beyond_memory_are_kept_in_a_file() {
    let work = common::Workspace::new("ratings-spill");
    let path = work.file("games.jsonl");
    six_seat_games(&path, 60_000);
    let temporary = work.file("tmp");
    std::fs::create_dir(&temporary).unwrap();
    let run = |memory: &str| {
        (ratings_in_30_mb().args(["--memory", memory]).arg(&path))
            .env("TMPDIR", &temporary)
            .output()
            .unwrap()
    };
    let kept = run("1");
    let stdout = String::from_utf8_lossy(&kept.stdout);
    assert!(
        kept.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&kept.stderr)
    );
    assert!(stdout.contains("from 60000 games"), "{stdout}");
    assert_eq!(std::fs::read_dir(&temporary).unwrap().count(), 0);
    // The list is the one made in memory, without the limit.
    let whole = referee()
        .args(["ratings", "--memory", "4096", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&whole.stdout), stdout);
    assert!(!run("4096").status.success(), "the limit does not bind");
}

#[test]
fn a_temporary_folder_that_cannot_be_used_is_a_clear_error() {
    let work = common::Workspace::new("ratings-no-tmp");
    let path = work.file("games.jsonl");
    six_seat_games(&path, 2000);
    referee()
        .args(["ratings", "--memory", "1", path.to_str().unwrap()])
        .env("TMPDIR", work.file("missing"))
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "cannot keep the games of more than two seats in a temporary file",
        ));
}
