//! The HTML viewer in a real browser: headless Chromium opens the page, steps through a game with
//! the arrow key, and shows the right ply and board, and the engines' evaluations where they gave
//! them; a screenshot is taken of each game.
//!
//! `.ci/run` installs Debian's chromium and sets `REFEREE_REQUIRE_CHROMIUM`; elsewhere the test is
//! skipped with a note when no chromium is installed.

// The engines these tests run, and what they look at (/proc, bubblewrap), are Linux's.
#![cfg(target_os = "linux")]

mod common;

use std::path::Path;
use std::process::Command;

use common::{Workspace, referee, valid_records};

/// One game of each kind, played to its end by the built-in random bots (which answer at once:
/// with seconds a move, no game ends early on a busy machine), one match each, files joined; the
/// DVONN game by the search bots, which say what they think (`info`), at 300 ms a move (they
/// think under half of it).
fn records(dir: &Path) -> std::path::PathBuf {
    let out = dir.join("games.jsonl");
    let mut all = Vec::new();
    for (game, variant, seats) in [
        ("dvonn", None, "2"),
        ("double-dutch", None, "3"),
        ("pegs", Some("turbo"), "2"),
        ("wyx", Some("double"), "2"),
        ("double", None, "4"),
    ] {
        let (bot, movetime) = match game {
            "dvonn" => ("search", "300"),
            _ => ("random", "5000"),
        };
        let mut command = referee();
        command
            .args([
                "match", "--game", game, "--seats", seats, "--games", "1", "--seed", "5",
            ])
            .args(["--engine", bot].repeat(seats.parse().unwrap()))
            .args(["--movetime", movetime, "--out"])
            .arg(dir.join(format!("{game}.jsonl")))
            .timeout(std::time::Duration::from_secs(120));
        if let Some(variant) = variant {
            command.args(["--variant", variant]);
        }
        command.assert().success();
        all.extend(std::fs::read(dir.join(format!("{game}.jsonl"))).unwrap());
    }
    std::fs::write(&out, all).unwrap();
    out
}

/// Runs headless Chromium on `url` (the flags a closed network needs) with extra `args`.
fn chromium(dir: &Path, url: &str, args: &[&str]) -> Vec<u8> {
    let profile = dir.join(format!("profile-{}", url.len() % 97));
    let output = Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
        ])
        .args([
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ])
        .args([
            "--hide-scrollbars",
            "--virtual-time-budget=5000",
            "--window-size=1300,820",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .arg(url)
        .output()
        .expect("chromium runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    output.stdout
}

#[test]
fn the_viewer_steps_through_every_game_in_chromium() {
    if Command::new("chromium").arg("--version").output().is_err() {
        assert!(
            std::env::var_os("REFEREE_REQUIRE_CHROMIUM").is_none(),
            "chromium is required here"
        );
        eprintln!("note: no chromium installed; the browser test did not run");
        return;
    }
    let work = Workspace::new("viewer");
    let dir = work.dir().to_path_buf();
    let records_file = records(&dir);
    let records = valid_records(&records_file);
    let page = dir.join("games.html");
    referee()
        .arg("view")
        .arg(&records_file)
        .arg("-o")
        .arg(&page)
        .assert()
        .success();
    let html = std::fs::read_to_string(&page).unwrap();
    // Self-contained: no address to fetch (the pictures travel packed, as base64).
    assert!(
        !html.contains("http://") && !html.contains("https://"),
        "no network address"
    );
    assert!(
        !html.contains("<script src") && !html.contains("<link"),
        "no external assets"
    );
    for (index, record) in records.iter().enumerate() {
        let game = index + 1;
        let plies = record["moves"].as_array().unwrap().len();
        let steps = (plies * 2 / 3).max(1);
        let url = format!("file://{}#game={game}&ply=0&steps={steps}", page.display());
        let dom = String::from_utf8(chromium(&dir, &url, &["--dump-dom"])).unwrap();
        assert!(
            dom.contains(r#"data-ready="yes""#),
            "game {game}: the page did not load its data"
        );
        assert!(
            dom.contains(&format!(r#"<span id="ply">{steps}</span>"#)),
            "game {game}: ply {steps} expected"
        );
        assert!(
            dom.contains(&format!(r#"data-ply="{steps}""#)),
            "game {game}: board of ply {steps}"
        );
        assert!(
            dom.contains(&format!(r#"<span id="plies">{plies}</span>"#)),
            "game {game}"
        );
        // Moves are listed with the seat's name; the picture has its legend.
        let first = &record["moves"][0];
        let who = match first["seat"].as_u64() {
            Some(seat) => record["seats"][seat as usize]["name"]
                .as_str()
                .unwrap()
                .to_owned(),
            None => "chance".to_owned(),
        };
        let row = format!("1. {who}: {}", first["move"].as_str().unwrap());
        assert!(dom.contains(&row), "game {game}: no row `{row}`");
        assert!(
            !dom.contains(r#"<div id="legend"></div>"#) && dom.contains(r#"<div id="legend">"#),
            "game {game}: a legend"
        );
        // The last move is ringed on the board (a pass touches nothing; in DOUBLE a chance ply
        // or a draw neither).
        let last = record["moves"][steps - 1]["move"].as_str().unwrap();
        let rings = dom.matches(r#"class="last-move""#).count();
        let touches = match record["game"].as_str().unwrap() {
            "double" => ["left ", "right ", "single ", "start "]
                .iter()
                .any(|p| last.starts_with(p)),
            _ => !last.eq_ignore_ascii_case("pass"),
        };
        if record["game"] == "double" {
            assert!(rings <= 1, "game {game}: {rings} rings after {last}");
        } else {
            assert_eq!(
                rings > 0,
                touches,
                "game {game}: {rings} rings after {last}"
            );
        }
        // The board shown is the position after those plies: the same pieces `render` draws.
        let svg = referee()
            .arg("render")
            .arg(&records_file)
            .args(["--index", &game.to_string(), "--ply", &steps.to_string()])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let svg = String::from_utf8(svg).unwrap();
        let board =
            &dom[dom.find(r#"<div id="board""#).unwrap()..dom.find(r#"<div id="moves""#).unwrap()];
        for class in [
            "stack white",
            "stack black",
            "piece flat seat0",
            "piece flipped seat1",
            "peg south",
            "peg north",
            "pawns white",
            "knight black",
            "card",
            "hidden",
        ] {
            let needle = format!(r#"class="{class}""#);
            assert_eq!(
                board.matches(&needle).count(),
                svg.matches(&needle).count(),
                "game {game}: {class}"
            );
        }
        // Every part is placed and named as `render` places and names it: the page's script
        // rebuilds the pictures from their changes as the referee writes them.
        let attributes = |text: &str, name: &str| -> Vec<String> {
            let key = format!(r#"{name}=""#);
            text.match_indices(&key)
                .map(|(at, _)| {
                    let value = &text[at + key.len()..];
                    value[..value.find('"').unwrap()].to_owned()
                })
                .collect()
        };
        for name in ["transform", "data-mark"] {
            let placed = attributes(board, name);
            assert!(!placed.is_empty(), "game {game}: no {name}");
            assert_eq!(placed, attributes(&svg, name), "game {game}: {name}");
        }
        // And every text (a label the page carries short and its script writes out) where and
        // as `render` writes it (a quote in a text is written back unescaped by the browser).
        let labels = |text: &str| -> Vec<String> {
            text.split("<text ")
                .skip(1)
                .map(|rest| rest[..rest.find("</text>").unwrap()].replace("&quot;", "\""))
                .collect()
        };
        assert!(!labels(board).is_empty(), "game {game}: no labels");
        assert_eq!(labels(board), labels(&svg), "game {game}: labels");
        let sizes = attributes(board, "font-size");
        assert_eq!(
            sizes,
            attributes(&svg, "font-size"),
            "game {game}: font sizes"
        );
        // The search bots' evaluations: a curve per seat, and what each said beside its moves.
        let evals =
            &dom[dom.find(r#"<div id="evals""#).unwrap()..dom.find(r#"<div id="moves""#).unwrap()];
        let curves = evals.matches("<polyline").count();
        let said = dom.matches(r#"<div class="info">score "#).count();
        match record["game"].as_str().unwrap() {
            "dvonn" => assert!(curves == 2 && said > 0, "{curves} curves, {said} infos"),
            _ => assert!(
                curves == 0 && said == 0,
                "game {game}: the random bot said nothing"
            ),
        }
        // Without a ply in the address, the page opens at the final position.
        let end = format!("file://{}#game={game}", page.display());
        let dom = String::from_utf8(chromium(&dir, &end, &["--dump-dom"])).unwrap();
        assert!(
            dom.contains(&format!(r#"<span id="ply">{plies}</span>"#)),
            "game {game}: opens at ply {plies}"
        );
        let shot = dir.join(format!("game-{game}.png"));
        let flag = format!("--screenshot={}", shot.display());
        chromium(&dir, &url, &[&flag]);
        let png = std::fs::read(&shot).unwrap();
        assert!(
            png.starts_with(b"\x89PNG") && png.len() > 20_000,
            "game {game}: a real screenshot"
        );
    }
}

#[test]
fn the_report_shows_standings_elo_and_the_sprt_and_opens_each_game() {
    let work = Workspace::new("report");
    let dir = work.dir().to_path_buf();
    let out = dir.join("sprt.jsonl");
    let sprt = ["--sprt", "elo0=0", "elo1=100", "alpha=0.05", "beta=0.05"];
    // Two random bots: mixed results, so the Elo is finite and has error bars.
    let bin = &common::shared_referee();
    let random = |name: &str, seed: u32| {
        format!(
            "name={name} cmd='{} bot --game pegs --seed {seed}'",
            bin.display()
        )
    };
    referee()
        .args([
            "match", "--game", "pegs", "--games", "24", "--repeat", "--seed", "3",
        ])
        .args(["--engine", &random("ann", 1), "--engine", &random("bob", 2)])
        .args(["--movetime", "20", "--out"])
        .arg(&out)
        .args(sprt)
        .timeout(std::time::Duration::from_secs(120))
        .assert()
        .success();
    let records = valid_records(&out);
    // The report of `records` with the run's SPRT, written to `page`.
    let report = |records: &Path, page: &Path| {
        referee()
            .arg("report")
            .arg(records)
            .args(sprt)
            .arg("-o")
            .arg(page)
            .assert()
            .success();
        std::fs::read_to_string(page).unwrap()
    };
    let page = dir.join("report.html");
    let html = report(&out, &page);
    assert!(
        !html.contains("http://") && !html.contains("https://") && !html.contains("<script src")
    );
    let names: Vec<String> = records[0]["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap().to_owned())
        .collect();
    // The standings are those of `stats`: the same engines, games and points.
    let stats = common::stats_json(&[&out]);
    for engine in stats["engines"].as_array().unwrap() {
        let row = format!(
            "<td>{}</td><td>{}</td><td>{:.1}</td>",
            engine["name"].as_str().unwrap(),
            engine["games"],
            engine["points"].as_f64().unwrap()
        );
        assert!(html.contains(&row), "no standings row {row}");
    }
    assert!(html.contains(r#"id="crosstable""#));
    for name in &names {
        let line = format!(r#"<polyline class="line" data-name="{name}""#);
        assert!(html.contains(&line), "no Elo line for {name}");
    }
    assert!(html.contains(r#"<svg class="llr-plot""#));
    assert_eq!(
        html.matches(r#"class="bound""#).count(),
        2,
        "the SPRT's two bounds"
    );
    assert!(html.matches(r#"class="error-bar""#).count() > 0);
    // The test is of the first engine given, whatever the records' order: the same file with its
    // first two records swapped (the second has the other engine in seat 0) draws the same.
    let challenger = "LLR of ann against the field";
    assert!(html.contains(challenger), "{}", llr_title(&html));
    let text = std::fs::read_to_string(&out).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    assert_eq!(records[1]["seats"][0]["name"], "bob");
    lines.swap(0, 1);
    for (name, tags) in [("swapped", true), ("untagged", false)] {
        let file = dir.join(format!("{name}.jsonl"));
        let mut body = lines.join("\n") + "\n";
        if !tags {
            // Records of runs that did not name the challenger: the run's statement does.
            body = body.replace(r#""sprt_challenger":"ann","#, "");
            body = body.replace(r#","sprt_challenger":"ann""#, "");
            assert!(!body.contains("sprt_challenger"));
        }
        std::fs::write(&file, body).unwrap();
        let swapped = report(&file, &dir.join(format!("{name}.html")));
        assert!(
            swapped.contains(challenger),
            "{name}: {}",
            llr_title(&swapped)
        );
    }

    if Command::new("chromium").arg("--version").output().is_err() {
        assert!(std::env::var_os("REFEREE_REQUIRE_CHROMIUM").is_none());
        eprintln!("note: no chromium installed; the report was not opened in a browser");
        return;
    }
    // The report links into the viewer: `#game=3` shows game 3 at its final position.
    let plies = records[2]["moves"].as_array().unwrap().len();
    let url = format!("file://{}#game=3", page.display());
    let dom = String::from_utf8(chromium(&dir, &url, &["--dump-dom"])).unwrap();
    assert!(dom.contains(r#"data-ready="yes""#));
    assert!(dom.contains(r#"id="standings""#));
    assert!(
        dom.contains(&format!(r#"<span id="ply">{plies}</span>"#)),
        "game 3 opened"
    );
    let shot = dir.join("report.png");
    chromium(&dir, &url, &[&format!("--screenshot={}", shot.display())]);
    assert!(std::fs::read(&shot).unwrap().starts_with(b"\x89PNG"));
}

/// A stranger's records may name a seat anything: a name that closes the page's script and opens
/// its own, or an element with a handler, must stay text. The pages keep exactly their own
/// scripts, and Chromium shows the name as it is written.
#[test]
fn a_hostile_name_in_the_records_stays_text_in_the_pages() {
    let work = Workspace::new("viewer-hostile-name");
    let dir = work.dir().to_path_buf();
    let hostile = "</script><script>document.title='pwned'</script><img src=x onerror=\"document.title='pwned'\">";
    let benign = dir.join("benign.jsonl");
    referee()
        .args(["match", "--game", "pegs", "--games", "1", "--seed", "3"])
        .args(["--engine", "random", "--engine", "random", "--out"])
        .arg(&benign)
        .assert()
        .success();
    let mut record: serde_json::Value =
        serde_json::from_str(std::fs::read_to_string(&benign).unwrap().trim()).unwrap();
    record["seats"][0]["name"] = hostile.into();
    let bad = dir.join("hostile.jsonl");
    std::fs::write(&bad, format!("{record}\n")).unwrap();
    referee().arg("validate").arg(&bad).assert().success();
    for command in ["view", "report"] {
        let page = |records: &Path, name: &str| {
            let out = dir.join(format!("{command}-{name}.html"));
            referee()
                .arg(command)
                .arg(records)
                .arg("-o")
                .arg(&out)
                .assert()
                .success();
            std::fs::read_to_string(out).unwrap()
        };
        let (plain, attacked) = (page(&benign, "benign"), page(&bad, "hostile"));
        for tag in ["<script", "</script", "<img"] {
            assert_eq!(
                attacked.matches(tag).count(),
                plain.matches(tag).count(),
                "{command}: {tag}"
            );
        }
        if Command::new("chromium").arg("--version").output().is_err() {
            assert!(std::env::var_os("REFEREE_REQUIRE_CHROMIUM").is_none());
            continue;
        }
        let url = format!(
            "file://{}",
            dir.join(format!("{command}-hostile.html")).display()
        );
        let dom = String::from_utf8(chromium(&dir, &url, &["--dump-dom"])).unwrap();
        assert!(!dom.contains("pwned</title>"), "{command}: the name ran");
        assert!(
            dom.contains("&lt;/script&gt;&lt;script&gt;document.title"),
            "{command}: {dom}"
        );
    }
}

/// The title of a report's SPRT plot, for a failure's message.
fn llr_title(html: &str) -> &str {
    let start = html.find("SPRT elo0").unwrap_or(0);
    &html[start..html.len().min(start + 120)]
}
