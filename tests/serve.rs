//! `referee serve` following runs as they are played: a board changes after a move and the
//! standings after a game, in the JSON a page polls and in headless Chromium; no hidden card of a
//! DOUBLE game in progress is in anything it sends; hostile clients (a thousand idle or
//! half-sent connections, oversized or malformed requests, paths that climb out) get nothing and
//! hold up nobody.

// The engines these tests run, and what they look at (/proc, bubblewrap), are Linux's.
#![cfg(target_os = "linux")]

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use assert_cmd::cargo::cargo_bin;
use common::Workspace;
use serde_json::Value;

/// A `referee serve` process on a free loopback port, killed when dropped, or the page a match
/// serves (no process of its own).
struct Server {
    child: Option<Child>,
    address: String,
}

impl Server {
    fn start(records: &Path, live: Option<&Path>) -> Server {
        Server::start_with(records, live, &[])
    }

    fn start_with(records: &Path, live: Option<&Path>, extra: &[&str]) -> Server {
        let mut command = common::referee_process();
        command.arg("serve").arg(records).args(extra);
        if let Some(live) = live {
            command.arg("--live").arg(live);
        }
        let (child, address) = serving(command.args(["--bind", "127.0.0.1:0"]));
        Server {
            child: Some(child),
            address,
        }
    }

    /// The page a run (`match --serve 127.0.0.1:0`) serves from its own thread: the run, and
    /// the server.
    fn of_run(run: &mut std::process::Command) -> (Child, Server) {
        let (child, address) = serving(run);
        let server = Server {
            child: None,
            address,
        };
        (child, server)
    }

    /// The status and body of `request` (a whole request head), read to the end.
    fn send(&self, request: &str) -> (u16, String) {
        let mut stream = TcpStream::connect(&self.address).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        stream.write_all(request.as_bytes()).unwrap();
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).unwrap();
        let answer = String::from_utf8_lossy(&answer).into_owned();
        let status = answer.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0);
        let body = answer
            .split_once("\r\n\r\n")
            .map_or("", |(_, b)| b)
            .to_owned();
        (status, body)
    }

    fn get(&self, path: &str) -> (u16, String) {
        self.send(&format!(
            "GET {path} HTTP/1.1\r\nHost: {}\r\n\r\n",
            self.address
        ))
    }

    fn state(&self) -> Value {
        let (status, body) = self.get("/state");
        assert_eq!(status, 200, "{body}");
        serde_json::from_str(&body).unwrap()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(child) = &mut self.child {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// The server's resident memory, in kB.
fn rss_kb(server: &Server) -> u64 {
    let pid = server.child.as_ref().unwrap().id();
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches(" kB").trim().parse().ok())
        .unwrap()
}

/// Starts `command`, a referee that serves a page, and reads its stderr up to the address it
/// names; the rest of what it says goes to the test's output, shown when the test fails.
fn serving(command: &mut std::process::Command) -> (Child, String) {
    let mut child = command
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let address = served_at(&mut stderr);
    std::thread::spawn(move || {
        for line in stderr.lines().map_while(Result::ok) {
            eprintln!("serve: {line}");
        }
    });
    (child, address)
}

/// The address a referee names on `stderr` as it starts serving (`serving http://ADDR/`).
fn served_at(stderr: &mut impl BufRead) -> String {
    let mut line = String::new();
    while !line.contains("serving http://") {
        line.clear();
        assert!(stderr.read_line(&mut line).unwrap() > 0, "no page served");
    }
    let rest = line.split("http://").nth(1).unwrap();
    rest.split('/').next().unwrap().to_owned()
}

/// A run of `game` between `engines` (slow.py: the random bot waiting `ms` a move), with its
/// records in `out` and its live file in `live`.
fn start_run(game: &str, seats: usize, engines: usize, ms: u32, out: &Path, live: &Path) -> Child {
    let mut command = common::referee_process();
    command.env("REFEREE", cargo_bin!("referee"));
    command.args(["tournament", "--game", game, "--seats", &seats.to_string()]);
    for seed in 1..=engines {
        command.arg("--engine").arg(format!(
            "name=slow{seed} cmd='python3 tests/engines/slow.py {game} {seed} {ms}'"
        ));
    }
    command
        .args(["--seed", "9", "--movetime", "5000", "--out"])
        .arg(out)
        .arg("--live")
        .arg(live)
        .arg("--progress")
        .arg(live.with_extension("progress"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// Polls until `done` says yes of the state, or panics after `limit`.
fn until(
    server: &Server,
    limit: Duration,
    what: &str,
    mut done: impl FnMut(&Value) -> bool,
) -> Value {
    let deadline = Instant::now() + limit;
    loop {
        let state = server.state();
        if done(&state) {
            return state;
        }
        assert!(Instant::now() < deadline, "{what}: {state}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn the_page_follows_a_run_move_by_move_and_game_by_game() {
    let work = Workspace::new("serve-live");
    let (out, live) = (work.file("t.jsonl"), work.file("t.live"));
    // Three engines, three games of DVONN, 100 ms a move: about ten seconds a game, so that the
    // browser, slow to start on a busy machine, still finds games to draw.
    let mut run = start_run("dvonn", 2, 3, 100, &out, &live);
    let progress = live.with_extension("progress").display().to_string();
    let server = Server::start_with(&out, Some(&live), &["--progress", &progress]);
    let limit = Duration::from_secs(60);
    let first = until(&server, limit, "a game in progress", |s| {
        s["live"].as_array().is_some_and(|l| !l.is_empty())
            && s["live"][0]["ply"].as_u64() > Some(0)
    });
    let (key, ply, board) = (
        &first["live"][0]["key"],
        &first["live"][0]["ply"],
        &first["live"][0]["svg"],
    );
    let later = until(&server, limit, "a move later", |s| {
        (s["live"].as_array().unwrap().iter())
            .any(|g| g["key"] == *key && g["ply"].as_u64() > ply.as_u64())
    });
    let moved = (later["live"].as_array().unwrap().iter())
        .find(|g| g["key"] == *key)
        .unwrap();
    assert_ne!(
        moved["svg"], *board,
        "the board did not change after a move"
    );
    assert!(
        moved["names"][0].as_str().unwrap().starts_with("slow"),
        "{moved}"
    );
    let clock = moved["clocks"][0].as_str().unwrap();
    assert!(
        clock.parse::<f64>().is_ok() || clock.contains(':'),
        "{moved}"
    );
    let report = first["report"].clone();
    let finished = until(&server, limit, "a game finished", |s| {
        s["finished"].as_u64() >= Some(1)
    });
    assert_ne!(
        finished["report"], report,
        "the standings did not change after a game"
    );
    assert!(
        finished["report"]
            .as_str()
            .unwrap()
            .contains("id=\"standings\"")
    );
    // While nothing changes, a poll that has the version gets the version alone.
    let version = finished["version"].as_u64().unwrap();
    let (_, body) = server.get(&format!("/state?since={version}"));
    assert!(
        body.len() < 100 || !body.contains(&format!("\"version\":{version},")),
        "{body}"
    );
    // The page in a browser, drawn from what it polls, while the run goes on: twice, a moment
    // apart, it shows a game in progress, the standings, and a later state of the run.
    let attribute = |dom: &str, name: &str| -> Option<u64> {
        let at = dom.find(&format!("{name}=\""))? + name.len() + 2;
        dom[at..].split('"').next()?.parse().ok()
    };
    if let Some(mut before) = chromium(&server, &work) {
        // Between two games none is in progress: look again until one is.
        let deadline = Instant::now() + limit;
        while !before.contains(r#"class="game""#) && Instant::now() < deadline {
            assert!(
                run.try_wait().unwrap().is_none(),
                "the run ended before the page showed a game in progress"
            );
            before = chromium(&server, &work).unwrap();
        }
        std::thread::sleep(Duration::from_millis(1500));
        let after = chromium(&server, &work).unwrap();
        for dom in [&before, &after] {
            assert!(dom.contains(r#"id="standings""#), "{dom}");
        }
        assert!(before.contains(r#"class="game""#), "{before}");
        let version = |dom: &str| attribute(dom, "data-version").unwrap();
        assert!(
            version(&after) > version(&before),
            "the page did not change"
        );
        let key = |dom: &str| {
            dom.split("data-key=\"")
                .nth(1)?
                .split('"')
                .next()
                .map(str::to_owned)
        };
        let ply = |dom: &str| attribute(dom, "data-ply");
        if key(&before) == key(&after) {
            assert!(ply(&after) > ply(&before), "the board did not move");
        }
    }
    assert!(run.wait().unwrap().success());
    let done = until(&server, limit, "every game finished", |s| {
        s["finished"] == 3 && s["live"].as_array().unwrap().is_empty()
    });
    assert_eq!(done["listed"].as_array().unwrap().len(), 3);
    // The run has ended, so its progress file says so; the server reads the file as it
    // changes, and may show the state before the last write (`running`) for a moment.
    let said = until(&server, limit, "the progress file read", |s| {
        let progress = s["progress"].as_str().unwrap();
        progress.starts_with("Progress: 3 of 3 games (100.0%)") && progress.contains("finished")
    });
    assert!(
        said["progress"].as_str().unwrap().contains("finished"),
        "{said}"
    );
    // Each finished game opens in the replay viewer; nothing else is there.
    let (status, page) = server.get("/game/2");
    assert_eq!(status, 200);
    assert!(page.contains("id=\"packed\""));
    assert_eq!(server.get("/game/4").0, 404);
}

/// The page as headless Chromium draws it after polling for a while (a screenshot of it is kept
/// in the test's target directory); `None` where Chromium is not installed.
fn chromium(server: &Server, work: &Workspace) -> Option<String> {
    if std::process::Command::new("chromium")
        .arg("--version")
        .output()
        .is_err()
    {
        assert!(
            std::env::var_os("REFEREE_REQUIRE_CHROMIUM").is_none(),
            "chromium is required here"
        );
        eprintln!("note: no chromium installed; the browser part did not run");
        return None;
    }
    let shot = Path::new(env!("CARGO_TARGET_TMPDIR")).join("serve-live.png");
    browse(server, work, &format!("--screenshot={}", shot.display()));
    assert!(std::fs::read(&shot).is_ok_and(|png| png.starts_with(b"\x89PNG")));
    Some(browse(server, work, "--dump-dom"))
}

/// Profiles made so far (see [`browse`]).
static PROFILES: AtomicUsize = AtomicUsize::new(0);

/// What headless Chromium writes on stdout for the page with `extra` (`--dump-dom`,
/// `--screenshot=FILE`) after polling it for three seconds of its virtual time; a failure when it
/// has not ended within a minute.
fn browse(server: &Server, work: &Workspace, extra: &str) -> String {
    let url = format!("http://{}/", server.address);
    let mut child = std::process::Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
        ])
        .args([
            "--disable-background-networking",
            "--disable-component-update",
        ])
        .args(["--virtual-time-budget=3000", "--window-size=1200,1100"])
        // A profile of its own each time: no capture depends on what an earlier one left.
        .arg(format!(
            "--user-data-dir={}",
            work.file(&format!(
                "profile{}",
                PROFILES.fetch_add(1, Ordering::Relaxed)
            ))
            .display()
        ))
        .arg(extra)
        .arg(&url)
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(work.file("chromium.err")).unwrap())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stdout.read_to_string(&mut text);
        text
    });
    let deadline = Instant::now() + Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium {extra} {url} did not end within a minute");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    reader.join().unwrap()
}

/// The cards (`c17`) in the hands at ply `ply` of a DOUBLE record, in the round then under way:
/// dealt or drawn and not yet laid.
fn hidden_at(record: &Value, ply: usize) -> Vec<String> {
    let mut hands: Vec<String> = Vec::new();
    let mut dealing = false;
    for p in record["moves"].as_array().unwrap().iter().take(ply) {
        let words: Vec<&str> = p["move"].as_str().unwrap().split_whitespace().collect();
        let card = |w: &str| w.split(':').next().unwrap().to_owned();
        match words.as_slice() {
            ["deal", _, c] => {
                // A new round deals new hands.
                if !dealing {
                    hands.clear();
                }
                dealing = true;
                hands.push(card(c));
                continue;
            }
            ["draw", _, c] => hands.push(card(c)),
            [.., c] => hands.retain(|h| *h != card(c)),
            [] => {}
        }
        dealing = false;
    }
    hands
}

/// Whether `text` names `card` (`c17`) as a whole word: a card's label, a mark, an id.
fn mentions(text: &str, card: &str) -> bool {
    text.match_indices(card).any(|(at, _)| {
        let after = text
            .as_bytes()
            .get(at + card.len())
            .copied()
            .unwrap_or(b' ');
        let before = at.checked_sub(1).map_or(b' ', |b| text.as_bytes()[b]);
        !after.is_ascii_alphanumeric() && !before.is_ascii_alphanumeric()
    })
}

#[test]
fn no_hidden_card_of_a_game_in_progress_reaches_a_client() {
    let work = Workspace::new("serve-hidden");
    let (out, live) = (work.file("d.jsonl"), work.file("d.live"));
    let mut run = start_run("double", 4, 4, 15, &out, &live);
    let server = Server::start(&out, Some(&live));
    let mut seen = Vec::new();
    while run.try_wait().unwrap().is_none() {
        let (status, body) = server.get("/state");
        assert_eq!(status, 200);
        seen.push(body);
        std::thread::sleep(Duration::from_millis(30));
    }
    let records = common::valid_records(&out);
    let mut checked = 0;
    for body in &seen {
        let state: Value = serde_json::from_str(body).unwrap();
        for game in state["live"].as_array().unwrap() {
            // `2. double: a vs b`: game 2 of the run.
            let number = game["title"].as_str().unwrap().split('.').next().unwrap();
            let record = (records.iter())
                .find(|r| r["tags"]["game"] == number)
                .unwrap();
            let ply = game["ply"].as_u64().unwrap() as usize;
            let hidden = hidden_at(record, ply);
            assert!(!hidden.is_empty(), "ply {ply}: hands are held");
            for card in &hidden {
                assert!(
                    !mentions(body, card),
                    "game {number} ply {ply}: the hidden {card} was sent"
                );
            }
            // The hands are drawn, face down.
            assert!(game["svg"].as_str().unwrap().contains("hidden"), "{game}");
            checked += 1;
        }
    }
    assert!(
        checked >= 10,
        "only {checked} views of a game in progress were fetched"
    );
    // A finished game shows every hand.
    until(&server, Duration::from_secs(20), "the records read", |s| {
        s["finished"] == 1
    });
    let (_, page) = server.get("/game/1");
    assert!(page.contains("id=\"packed\""));
    // The same events with the game's end cut off, as if it were still played: its hands stay
    // hidden, unless --reveal asks for them (a run no engine plays).
    let text = std::fs::read_to_string(&live).unwrap();
    let cut: String = (text.lines())
        .filter(|l| !l.contains(r#""event":"end""#))
        .map(|l| format!("{l}\n"))
        .collect();
    let cut_file = work.file("cut.live");
    std::fs::write(&cut_file, cut).unwrap();
    let hands = hidden_at(&records[0], records[0]["moves"].as_array().unwrap().len());
    let nowhere = work.file("none.jsonl");
    for (reveal, extra) in [(false, &[][..]), (true, &["--reveal"][..])] {
        let replay = Server::start_with(&nowhere, Some(&cut_file), extra);
        let state = until(&replay, Duration::from_secs(20), "the cut game", |s| {
            s["live"].as_array().unwrap().len() == 1
        });
        let svg = state["live"][0]["svg"].as_str().unwrap();
        let shown = hands.iter().filter(|c| mentions(svg, c)).count();
        match reveal {
            true => assert_eq!(shown, hands.len(), "--reveal shows every hand"),
            false => assert_eq!(shown, 0, "a hand was shown without --reveal"),
        }
    }
}

#[test]
fn hostile_clients_get_nothing_and_hold_up_nobody() {
    let work = Workspace::new("serve-hostile");
    let out = work.file("g.jsonl");
    common::referee()
        .args([
            "match", "--game", "pegs", "--engine", "random", "--engine", "random",
        ])
        .args(["--games", "2", "--out"])
        .arg(&out)
        .assert()
        .success();
    let server = Server::start(&out, None);
    until(&server, Duration::from_secs(20), "the records read", |s| {
        s["finished"] == 2
    });
    // A thousand connections that send nothing or half a request, held open.
    let mut flood = flood(&server, &[]);
    // Others are answered at once, not when the idle ones time out (10 s).
    let asked = Instant::now();
    assert_eq!(server.get("/state").0, 200);
    assert_eq!(server.get("/game/1").0, 200);
    assert!(
        asked.elapsed() < Duration::from_secs(5),
        "{:?}",
        asked.elapsed()
    );
    // Malformed, oversized, other methods, and paths that reach for files.
    let huge = format!("GET / HTTP/1.1\r\nX-Pad: {}\r\n\r\n", "a".repeat(20_000));
    assert_eq!(server.send(&huge).0, 431);
    assert_eq!(server.send("\x16\x03\x01 garbage\r\n\r\n").0, 400);
    assert_eq!(
        server.send("POST /state HTTP/1.1\r\nHost: x\r\n\r\n").0,
        405
    );
    for path in [
        "/../../../../etc/passwd",
        "/game/../../etc/passwd",
        "//etc/passwd",
        "/game/-1",
        "/game/99999999999999999999999",
    ] {
        let (status, body) = server.get(path);
        assert_eq!(status, 404, "{path}");
        assert!(!body.contains("root:"), "{path}");
    }
    let rss_kb = rss_kb(&server);
    assert!(rss_kb < 64 * 1024, "the server holds {rss_kb} kB");
    drop(flood.stdin.take());
    flood.wait().unwrap();
    assert_eq!(server.get("/").0, 200);
}

/// A thousand requests at once for finished games, none of them read: each game's page is drawn
/// once, one at a time between other clients' answers, and kept within a byte budget, so another
/// client is answered at once and the server stays small.
#[test]
fn a_flood_of_requests_for_finished_games_holds_up_nobody() {
    let work = Workspace::new("serve-games-flood");
    let out = work.file("g.jsonl");
    common::referee()
        .args(["match", "--game", "dvonn", "--engine", "random"])
        .args(["--engine", "random", "--games", "200", "--out"])
        .arg(&out)
        .assert()
        .success();
    let server = Server::start(&out, None);
    until(&server, Duration::from_secs(20), "the records read", |s| {
        s["finished"] == 200
    });
    let mut flood = flood(&server, &["games", "200"]);
    let asked = Instant::now();
    assert_eq!(server.get("/state").0, 200);
    let waited = asked.elapsed();
    assert!(waited < Duration::from_secs(1), "/state took {waited:?}");
    let rss_kb = rss_kb(&server);
    assert!(rss_kb < 64 * 1024, "the server holds {rss_kb} kB");
    drop(flood.stdin.take());
    flood.wait().unwrap();
    let (status, body) = server.get("/game/200");
    assert_eq!(status, 200, "{body}");
}

/// tests/engines/http_flood.py holding 1,000 connections to `server` (with `extra`, its mode),
/// once it says they are all open; they close when its standard input does.
fn flood(server: &Server, extra: &[&str]) -> Child {
    let (host, port) = server.address.rsplit_once(':').unwrap();
    let mut flood = std::process::Command::new("python3")
        .args(["tests/engines/http_flood.py", host, port, "1000"])
        .args(extra)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut ready = String::new();
    BufReader::new(flood.stdout.take().unwrap())
        .read_line(&mut ready)
        .unwrap();
    assert_eq!(ready.trim(), "ready 1000");
    flood
}

/// A website the organiser visits may make its own name resolve to the server's address (DNS
/// rebinding) and read the page as its own: a request that names the server by any name but its
/// address, `localhost` or one given to `--allow-host` is refused, and no answer grants another
/// site access (CORS).
#[test]
fn a_page_asked_for_by_another_sites_name_is_refused() {
    let work = Workspace::new("serve-hosts");
    let records = work.file("none.jsonl");
    let server = Server::start_with(&records, None, &["--allow-host", "scoreboard.lan"]);
    let port = server.address.rsplit(':').next().unwrap().to_owned();
    let ask = |host: &str| server.send(&format!("GET /state HTTP/1.1\r\nHost: {host}\r\n\r\n"));
    for host in [
        format!("evil.example:{port}"),
        "evil.example".to_owned(),
        format!("127.0.0.1.evil.example:{port}"),
    ] {
        let (status, body) = ask(&host);
        assert_eq!(status, 403, "{host}: {body}");
        assert!(!body.contains("version"), "{host}: {body}");
    }
    let (status, _) = server.send("GET /state HTTP/1.1\r\n\r\n");
    assert_eq!(status, 403, "a request without Host");
    let (status, _) = server.send(&format!(
        "GET /state HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nHost: evil.example\r\n\r\n"
    ));
    assert_eq!(status, 403, "two Hosts");
    for host in [
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        format!("scoreboard.lan:{port}"),
    ] {
        assert_eq!(ask(&host).0, 200, "{host}");
    }
    let mut stream = TcpStream::connect(&server.address).unwrap();
    let request = format!(
        "GET /state HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://evil.example\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    assert!(
        !answer.to_ascii_lowercase().contains("access-control-"),
        "{answer}"
    );
}

#[test]
fn a_match_serves_its_own_page_with_each_engines_curve() {
    let work = Workspace::new("serve-match");
    let out = work.file("m.jsonl");
    // Two search bots, which say what they think: 150 ms a move, a few seconds a game.
    let mut command = common::referee_process();
    command
        .args([
            "match", "--game", "pegs", "--engine", "search", "--engine", "search",
        ])
        .args([
            "--games",
            "1",
            "--movetime",
            "150",
            "--serve",
            "127.0.0.1:0",
            "--out",
        ])
        .arg(&out);
    let (mut run, server) = Server::of_run(&mut command);
    let both = until(
        &server,
        Duration::from_secs(60),
        "both engines' scores",
        |s| {
            (s["live"].as_array().unwrap().first()).is_some_and(|g| {
                let seats: Vec<&Value> = (g["scores"].as_array().unwrap().iter())
                    .map(|s| &s[1])
                    .collect();
                seats.contains(&&Value::from(0)) && seats.contains(&&Value::from(1))
            })
        },
    );
    assert!(
        both["live"][0]["last"].as_str().unwrap().contains("depth"),
        "{both}"
    );
    assert!(run.wait().unwrap().success());
    assert!(work.file("m.jsonl.live").exists());
}

/// The page of an SPRT match made for a screen across a room: the event's headline, `N of M
/// games`, the SPRT box and the standings beside the games, in what `/state` sends and, ten times
/// over, in what headless Chromium draws.
#[test]
fn an_sprt_matchs_page_shows_its_headline_progress_and_test_every_time() {
    let work = Workspace::new("serve-wall");
    let out = work.file("m.jsonl");
    // Two random bots that take 50 ms a move: a test long enough to be looked at while it runs.
    let slow = |name: &str, seed: u32| {
        format!("name={name} cmd='python3 tests/engines/slow.py pegs {seed} 50'")
    };
    let mut command = common::referee_process();
    command
        .env("REFEREE", cargo_bin!("referee"))
        .args(["match", "--game", "pegs", "--engine", &slow("new", 1)])
        .args(["--engine", &slow("old", 2), "--games", "400", "--repeat"])
        .args(["--movetime", "2000", "--sprt", "elo0=0 elo1=5", "--event"])
        .args(["Cup <b>final</b>", "--serve", "127.0.0.1:0", "--out"])
        .arg(&out);
    let (mut run, server) = Server::of_run(&mut command);
    let state = until(&server, Duration::from_secs(120), "a finished game", |s| {
        s["finished"].as_u64() >= Some(1) && !s["live"].as_array().unwrap().is_empty()
    });
    let headline = state["headline"].as_str().unwrap();
    assert!(
        headline.contains("<h1>Cup &lt;b&gt;final&lt;/b&gt;</h1>"),
        "{headline}"
    );
    assert!(headline.contains("pegs · tc 2000 ms/move"), "{headline}");
    let done = state["finished"].as_u64().unwrap();
    assert!(
        headline.contains(&format!("{done} of 400 games")),
        "{headline}"
    );
    let sprt = state["sprt"].as_str().unwrap();
    assert!(sprt.contains("SPRT: new vs the field"), "{sprt}");
    assert!(
        sprt.contains("(-2.94, 2.94)") && sprt.contains(" · W "),
        "{sprt}"
    );
    assert!(
        state["table"].as_str().unwrap().contains(">new<"),
        "{state}"
    );
    let game = &state["live"][0];
    assert!(
        game["on_move"].as_u64().is_some_and(|seat| seat < 2),
        "{game}"
    );
    if chromium(&server, &work).is_some() {
        for shot in 0..10 {
            let dom = browse(&server, &work, "--dump-dom");
            for part in [
                "Cup &lt;b&gt;final&lt;/b&gt;",
                " of 400 games",
                "SPRT: new vs the field",
            ] {
                assert!(dom.contains(part), "capture {shot} lacks {part}: {dom}");
            }
        }
    }
    let _ = run.kill();
    let _ = run.wait();
}

/// In duplicate play (`--repeat`) the cards one rotation plays are the hands of the deal's other
/// rotations: a finished rotation's replay is held back (403) until every rotation of its deal
/// has ended, and nothing of a rotation in progress is drawn.
#[test]
fn a_duplicate_deal_is_shown_only_once_every_rotation_has_ended() {
    let work = Workspace::new("serve-duplicate");
    let (out, live) = (work.file("d.jsonl"), work.file("d.live"));
    common::referee()
        .args(["match", "--game", "double", "--repeat", "--games", "2"])
        .args(["--engine", "random", "--engine", "random", "--out"])
        .arg(&out)
        .arg("--live")
        .arg(&live)
        .assert()
        .success();
    let text = std::fs::read_to_string(&out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2);
    // The first rotation alone, as while the second is still played.
    let partial = work.file("partial.jsonl");
    std::fs::write(&partial, format!("{}\n", lines[0])).unwrap();
    let cut: String = (std::fs::read_to_string(&live).unwrap().lines())
        .filter(|l| !l.contains(r#""event":"end""#))
        .map(|l| format!("{l}\n"))
        .collect();
    let cut_file = work.file("cut.live");
    std::fs::write(&cut_file, cut).unwrap();
    let server = Server::start(&partial, Some(&cut_file));
    let state = until(&server, Duration::from_secs(20), "the rotation read", |s| {
        s["finished"] == 1 && !s["live"].as_array().unwrap().is_empty()
    });
    let (status, body) = server.get("/game/1");
    assert_eq!(status, 403, "{body}");
    assert!(!body.contains("packed"), "{body}");
    for game in state["live"].as_array().unwrap() {
        assert_eq!(game["svg"], "", "{game}");
        assert!(game["marks"].as_array().unwrap().is_empty(), "{game}");
        assert!(
            game["last"].as_str().unwrap().contains("duplicate deal"),
            "{game}"
        );
    }
    // The second rotation ends: the deal is shown.
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&partial)
        .unwrap();
    writeln!(file, "{}", lines[1]).unwrap();
    until(
        &server,
        Duration::from_secs(20),
        "both rotations read",
        |s| s["finished"] == 2,
    );
    for game in ["/game/1", "/game/2"] {
        let (status, page) = server.get(game);
        assert_eq!(status, 200, "{game}");
        assert!(page.contains("id=\"packed\""), "{game}");
    }
}

/// A live file past its bound begins again with the lines of the games in progress (see
/// `play::live`): the page, seeing it shorter, reads it again and keeps following those games.
#[test]
fn a_live_file_that_begins_again_keeps_its_games_in_progress() {
    let work = Workspace::new("serve-live-again");
    let (out, live) = (work.file("g.jsonl"), work.file("g.live"));
    common::referee()
        .args(["match", "--game", "pegs", "--games", "2"])
        .args(["--engine", "random", "--engine", "random", "--out"])
        .arg(&out)
        .arg("--live")
        .arg(&live)
        .assert()
        .success();
    let text = std::fs::read_to_string(&live).unwrap();
    let of = |game: u64| -> Vec<String> {
        (text.lines())
            .filter(|l| serde_json::from_str::<Value>(l).unwrap()["game"] == game)
            .filter(|l| !l.contains(r#""event":"end""#))
            .map(|l| format!("{l}\n"))
            .collect()
    };
    let (first, second) = (of(1), of(2));
    assert!(second.len() > 6, "game 2 has plies");
    // Game 1 played and ended, game 2 under way: a long file.
    let followed = work.file("followed.live");
    let mut long: String = first.concat() + "{\"event\":\"end\",\"game\":1}\n";
    long.push_str(&second[..4].concat());
    std::fs::write(&followed, &long).unwrap();
    let server = Server::start(&out, Some(&followed));
    let ply_of_game_2 = |s: &Value| {
        (s["live"].as_array().unwrap().iter())
            .find(|g| g["key"] == "0-2")
            .and_then(|g| g["ply"].as_u64())
    };
    until(&server, Duration::from_secs(20), "game 2 at ply 3", |s| {
        ply_of_game_2(s) == Some(3)
    });
    // It begins again: game 2's lines alone, two plies further on, shorter than what was read.
    let again = second[..6].concat();
    assert!(again.len() < long.len());
    std::fs::write(&followed, &again).unwrap();
    until(&server, Duration::from_secs(20), "game 2 at ply 5", |s| {
        ply_of_game_2(s) == Some(5)
    });
}
