//! The commands of the README and the guides (`docs/bot-authors.md`, `docs/organisers.md`,
//! `docs/ci.md`), run as written: every line of their code blocks and every whole `referee ...`
//! command they quote in a sentence, from a copy of the repository's root, with small engines and
//! record files standing in for the ones they name.

// The engines these tests run, and what they look at (/proc, bubblewrap), are Linux's.
#![cfg(target_os = "linux")]

mod common;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use common::{Workspace, referee};

/// The commands the test does not run, each with the reason; each must still be in a document.
const NOT_RUN: [(&str, &str); 5] = [
    ("cargo test", "this is the test run"),
    (
        "cargo install --path .",
        "installs into ~/.cargo/bin: the tests run the built binary instead",
    ),
    (
        "python3 -m venv .venv && .venv/bin/pip install ./python",
        "CI installs the Python package this way and runs its tests",
    ),
    (
        "referee match --game dvonn --engine level=4 --engine level=3 --games 1000 --repeat --tc \
         10+0.1 --concurrency 1 --seed 7",
        "a run of hours whose result docs/bot-authors.md reports",
    ),
    (
        "referee match --game wyx --engine level=4 --engine level=3 --games 1000 --repeat --tc \
         10+0.1 --concurrency 1 --seed 7",
        "a run of hours whose result docs/bot-authors.md reports",
    ),
];

/// How long one command may take (the slowest, a 100-game match of Python engines, takes seconds).
const PATIENCE: Duration = Duration::from_secs(900);

/// The address `referee serve` listens on when it is given none.
const SERVE_DEFAULT: &str = "127.0.0.1:8080";

/// The documents whose commands a reader runs as they are written.
const DOCUMENTS: [&str; 4] = [
    "README.md",
    "docs/bot-authors.md",
    "docs/organisers.md",
    "docs/ci.md",
];

/// The documents' texts, one after another (a blank line between: no block or quote runs on from
/// one into the next).
fn documents() -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    DOCUMENTS
        .iter()
        .map(|name| std::fs::read_to_string(root.join(name)).expect("a document"))
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// The documents' code as scripts: each indented block as its commands (a line continued with `\`
/// joined to the next), each fenced `bash` block whole, and each sentence's `referee ...` command
/// (a quote that goes on to the next line joined to it, whole). Python blocks and quoted commands
/// with a placeholder in capitals (`referee rules GAME`) are not commands to run.
fn blocks(text: &str) -> Vec<Vec<String>> {
    let mut blocks = Vec::new();
    let mut block: Vec<String> = Vec::new();
    let mut fence: Option<(bool, String)> = None;
    let mut after_blank = false;
    let mut in_code = false;
    // The start of a sentence's quote that goes on to the next line.
    let mut open_quote: Option<String> = None;
    for line in text.lines() {
        if let Some((keep, body)) = &mut fence {
            if line.starts_with("```") {
                if *keep {
                    blocks.push(vec![std::mem::take(body)]);
                }
                fence = None;
            } else {
                body.push_str(line);
                body.push('\n');
            }
            continue;
        }
        if let Some(lang) = line.strip_prefix("```") {
            fence = Some((lang == "bash", String::new()));
            continue;
        }
        if let Some(code) = line.strip_prefix("    ")
            && (in_code || after_blank)
        {
            in_code = true;
            match block.last_mut() {
                Some(last) if last.ends_with('\\') => {
                    last.pop();
                    last.push(' ');
                    last.push_str(code.trim_start());
                }
                _ => block.push(code.to_owned()),
            }
            continue;
        }
        if line.trim().is_empty() {
            open_quote = None;
            after_blank = true;
            if !in_code {
                continue;
            }
        } else {
            after_blank = false;
        }
        in_code = false;
        if !block.is_empty() {
            blocks.push(std::mem::take(&mut block));
        }
        let line = match open_quote.take() {
            Some(open) => format!("`{open} {}", line.trim_start()),
            None => line.to_owned(),
        };
        let parts: Vec<&str> = line.split('`').collect();
        // An even number of parts: the last quote goes on to the next line.
        if parts.len().is_multiple_of(2) {
            open_quote = parts.last().map(|open| open.trim_end().to_owned());
        }
        let closed = parts.len() - 1 + parts.len() % 2;
        for quoted in parts[..closed].iter().skip(1).step_by(2) {
            let placeholder = quoted.split_whitespace().any(|w| {
                w.chars().any(|c| c.is_ascii_uppercase())
                    && w.chars()
                        .all(|c| c.is_ascii_uppercase() || c == '+' || c.is_ascii_digit())
            });
            if quoted.starts_with("referee ")
                && !quoted.starts_with("referee =")
                && quoted.split_whitespace().count() > 2
                && !placeholder
            {
                blocks.push(vec![quoted.to_string()]);
            }
        }
    }
    if !block.is_empty() {
        blocks.push(block);
    }
    blocks
}

/// A folder of the engines and records the documents' commands name, made once: `./mybot`, `./a`
/// to `./c` (copies of it) and `A` to `D` (on the `PATH`) are the Python random bot of `examples/`, `./bot-v1`
/// and `./bot-v2` the built-in DVONN random and search bots, `./prima` a CodeCup program;
/// `shard-*.jsonl` (with their progress files), `league-*.jsonl` and `new.jsonl` are records of
/// short runs.
fn stand_ins() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = common::temp_dir("readme-stand-ins");
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let bin = &common::shared_referee();
        let random_bot = root.join("examples/random_bot.py");
        let codecup = root.join("tests/engines/codecup.py");
        std::fs::create_dir_all(dir.join("bin")).unwrap();
        let scripts = [
            ("mybot", format!("exec python3 '{}'", random_bot.display())),
            (
                "bot-v1",
                format!("exec {} bot --game dvonn --strategy random", bin.display()),
            ),
            (
                "bot-v2",
                format!(
                    "exec {} bot --game dvonn --strategy search --nodes 300",
                    bin.display()
                ),
            ),
            (
                "prima",
                format!("exec python3 '{}' play dvonn \"$1\"", codecup.display()),
            ),
        ];
        let named = ["bin/A", "bin/B", "bin/C", "bin/D"]
            .map(|name| (name, format!("exec python3 '{}'", random_bot.display())));
        let program = std::fs::read_to_string(&random_bot).unwrap();
        // `./a` to `./c` are the program itself, whole in one file, as an engine a sandbox shows
        // alone must be.
        let whole = ["a", "b", "c"].map(|name| (name, program.clone()));
        let wrapped = scripts.into_iter().chain(named);
        let wrapped = wrapped.map(|(name, body)| (name, format!("#!/bin/sh\n{body}\n")));
        for (name, text) in wrapped.chain(whole) {
            let path = dir.join(name);
            std::fs::write(&path, text).unwrap();
            let mut permissions = std::fs::metadata(&path).unwrap().permissions();
            std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
            std::fs::set_permissions(&path, permissions).unwrap();
        }
        let engine = |name: &str, strategy: &str| {
            format!(
                "name={name} cmd='{} bot --game pegs --strategy {strategy}'",
                bin.display()
            )
        };
        for k in 1..=2 {
            referee()
                .current_dir(&dir)
                .args([
                    "tournament",
                    "--game",
                    "pegs",
                    "--rounds",
                    "2",
                    "--seed",
                    "1",
                ])
                .arg("--shard")
                .arg(format!("{k}/2"))
                .args(["--out", &format!("shard-{k}.jsonl")])
                .args(["--progress", &format!("shard-{k}.progress.json")])
                .args(["--engine", &engine("x", "random")])
                .args(["--engine", &engine("y", "random")])
                .args(["--engine", &engine("z", "search")])
                .assert()
                .success();
        }
        for (out, first, second) in [
            ("league-1.jsonl", "v1", "v2"),
            ("league-2.jsonl", "v2", "v3"),
            ("new.jsonl", "v4", "v1"),
        ] {
            referee()
                .current_dir(&dir)
                .args(["match", "--game", "pegs", "--games", "6", "--out", out])
                .args(["--engine", &engine(first, "random")])
                .args(["--engine", &engine(second, "random")])
                .assert()
                .success();
        }
        dir
    })
}

/// A copy of the repository's root as a newcomer's commands see it: its `examples/` and
/// `fixtures/`, and the stand-ins.
fn root_copy(name: &str) -> Workspace {
    let space = Workspace::new(name);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for folder in ["examples", "fixtures", "python"] {
        std::os::unix::fs::symlink(root.join(folder), space.file(folder)).unwrap();
    }
    for entry in std::fs::read_dir(stand_ins()).unwrap() {
        let entry = entry.unwrap();
        let to = space.file(&entry.file_name().to_string_lossy());
        if entry.file_type().unwrap().is_dir() {
            std::os::unix::fs::symlink(entry.path(), to).unwrap();
        } else {
            std::fs::copy(entry.path(), to).unwrap();
        }
    }
    space
}

/// `script` under bash in `dir`, with the built `referee` and the stand-ins first on the `PATH`,
/// `$HOME` in `dir`, and nothing on its standard input (so `play` and `session` see its end).
fn bash(dir: &Path, script: &str) -> Command {
    let bin = assert_cmd::cargo::cargo_bin!("referee");
    let path = format!(
        "{}:{}:{}",
        bin.parent().expect("the binary's folder").display(),
        dir.join("bin").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut command = Command::new("bash");
    command
        .args(["-euo", "pipefail", "-c", script])
        .current_dir(dir)
        .env("PATH", path)
        .env("HOME", dir)
        .env("REFEREE", bin)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

/// Whether a child ended well by itself within [`PATIENCE`], and its output.
fn finish(child: Child, what: &str) -> (bool, String) {
    let output = common::wait_sampled(child, &format!("`{what}`"), PATIENCE, |_| {});
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.success(), text)
}

/// A `referee serve` command: it must serve its page until Ctrl-C stops it, with status 0.
fn serve(dir: &Path, command: &str) {
    let mut child = bash(dir, &format!("exec {command}")).spawn().unwrap();
    let address = command
        .split_whitespace()
        .skip_while(|w| *w != "--bind")
        .nth(1)
        .unwrap_or(SERVE_DEFAULT);
    let deadline = Instant::now() + Duration::from_secs(60);
    let page = loop {
        assert!(
            child.try_wait().unwrap().is_none(),
            "`{command}` stopped before it served"
        );
        if let Ok(mut stream) = std::net::TcpStream::connect(address) {
            let request = format!("GET / HTTP/1.0\r\nHost: {address}\r\n\r\n");
            stream.write_all(request.as_bytes()).unwrap();
            let mut page = String::new();
            let _ = stream.read_to_string(&mut page);
            break page;
        }
        assert!(Instant::now() < deadline, "`{command}` never listened");
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let (ok, output) = finish(child, command);
    assert!(ok, "`{command}` after Ctrl-C: {output}");
}

/// Runs one block's commands in order in a fresh copy of the root: each must succeed; a command
/// ending in `&` runs beside the rest of its block and must succeed by the block's end.
fn run_block(index: usize, block: &[String]) {
    let space = root_copy(&format!("block-{index}"));
    let mut beside = Vec::new();
    for line in block {
        let command = line.trim();
        if NOT_RUN.iter().any(|(skipped, _)| command == *skipped) {
            continue;
        }
        // The first of the two commands: the binary it builds is the one the tests run.
        let command = match command.strip_prefix("cargo run --release -q -- ") {
            Some(rest) => format!("referee {rest}"),
            None => command.to_owned(),
        };
        if let Some(background) = command.strip_suffix('&') {
            let child = bash(space.dir(), background).spawn().unwrap();
            beside.push((child, command.clone(), Instant::now()));
        } else if command.starts_with("referee serve") {
            serve(space.dir(), &command);
        } else {
            let start = Instant::now();
            let child = bash(space.dir(), &command).spawn().unwrap();
            let (ok, output) = finish(child, &command);
            eprintln!("{:6.1} s  {command}", start.elapsed().as_secs_f64());
            assert!(ok, "`{command}` failed:\n{output}");
            if line.contains("cargo run") {
                // The first command's promise: a match ending with standings.
                assert!(output.contains("Score of search vs random"), "{output}");
            }
        }
    }
    for (child, command, start) in beside {
        let (ok, output) = finish(child, &command);
        eprintln!("{:6.1} s  {command}", start.elapsed().as_secs_f64());
        assert!(ok, "`{command}` failed:\n{output}");
    }
}

#[test]
fn every_command_the_readme_and_the_guides_show_runs_as_written() {
    let text = documents();
    let blocks = blocks(&text);
    let commands: Vec<&String> = blocks.iter().flatten().collect();
    // What the reading finds, so that a change to the documents' form cannot empty the test.
    assert!(commands.len() > 40, "{commands:#?}");
    for (skipped, why) in NOT_RUN {
        assert!(
            commands.iter().any(|c| c.trim() == skipped),
            "`{skipped}` ({why}) is no longer in a document"
        );
    }
    for wanted in [
        "cargo run --release -q -- match --game dvonn --games 4 --movetime 100",
        "referee match --game dvonn --engine ./mybot --games 2",
        "referee serve live.jsonl --live live.events     # open http://127.0.0.1:8080/, Ctrl-C stops",
    ] {
        assert!(commands.iter().any(|c| c.trim() == wanted), "{wanted}");
    }
    // Four blocks at a time, the longest (most commands) first: most commands wait on engines'
    // clocks, which run by the wall clock.
    let mut order: Vec<usize> = (0..blocks.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(blocks[i].len()));
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..4)
            .map(|_| {
                scope.spawn(|| {
                    loop {
                        let taken = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(&index) = order.get(taken) else {
                            return;
                        };
                        run_block(index, &blocks[index]);
                    }
                })
            })
            .collect();
        for worker in workers {
            if let Err(panic) = worker.join() {
                std::panic::resume_unwind(panic);
            }
        }
    });
}
