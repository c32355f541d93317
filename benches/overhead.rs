//! The referee's own cost per ply: a match of the built-in random bots (which answer within
//! microseconds) against a bare driver that sends the same messages to the same kind of engine
//! processes with no rules, clocks or records; and the throughput of two games at once.
//!
//! Run with `cargo bench --bench overhead`. It runs itself twice: pinned to one CPU (every thread
//! and engine on it) and free; each time the referee and the driver alternate, [`RUNS`] of each.
//! Before timing, the driver's lines are checked byte for byte against the referee's transcripts.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use referee::engine::EngineCommand;
use referee::play::arena::{self, MatchConfig};
use referee::play::clock::TimeControl;
use referee::play::schedule::{Format, Plan, engine_seed, game_seed, schedule};
use referee::play::spec::EngineSpec;
use referee::records::Record;

const GAMES: usize = 300;

/// CPU time (user + system) this process has used so far, all threads.
fn cpu_time() -> Duration {
    let usage = nix::sys::resource::getrusage(nix::sys::resource::UsageWho::RUSAGE_SELF)
        .expect("getrusage");
    let time = |t: nix::sys::time::TimeVal| {
        Duration::from_secs(t.tv_sec() as u64) + Duration::from_micros(t.tv_usec() as u64)
    };
    time(usage.user_time()) + time(usage.system_time())
}
const SEED: u64 = 1;
/// Runs of each, interleaved (referee, driver, referee, driver ...): figures are their median and
/// range, not the best run.
const RUNS: usize = 11;
/// How the bench tells the copy of itself it starts which phase to run.
const PHASE: &str = "REFEREE_OVERHEAD_PHASE";

fn bot_command() -> String {
    format!(
        "{} bot --game dvonn --strategy random",
        env!("CARGO_BIN_EXE_referee")
    )
}

fn config(concurrency: usize, log_dir: Option<&Path>) -> MatchConfig {
    let engine = |name: &str| EngineSpec {
        command: EngineCommand {
            name: name.to_owned(),
            command: bot_command(),
            ..EngineCommand::default()
        },
        tc: None,
        proto: Default::default(),
        newgame_keys: Vec::new(),
    };
    MatchConfig {
        affinity: Vec::new(),
        game: "dvonn".into(),
        variant: None,
        engines: vec![engine("a"), engine("b")],
        repeat: false,
        seed: SEED,
        secret: None,
        tc: TimeControl::Fischer {
            base: Duration::from_secs(3600),
            increment: Duration::ZERO,
            moves: None,
        },
        margin: Duration::from_secs(1),
        time_margin: Duration::ZERO,
        cpu_clock: false,
        startup: Duration::from_secs(5),
        concurrency,
        on_fault: Default::default(),
        log_dir: log_dir.map(Path::to_path_buf),
        log_limit: u64::MAX,
        openings: Default::default(),
        scratch_dir: None,
        private: Vec::new(),
        probe_keys: false,
        live: None,
    }
}

/// The referee's match, with transcripts in `log_dir` if given; returns the time and the records
/// in schedule order.
fn referee_match(concurrency: usize, log_dir: Option<&Path>) -> (Duration, Vec<Record>) {
    let mut records = vec![None; GAMES];
    let start = Instant::now();
    let config = config(concurrency, log_dir);
    arena::run(
        &config,
        schedule(&Plan {
            format: Format::RoundRobin,
            engines: 2,
            seats: 2,
            rounds: GAMES,
            limit: None,
            repeat: config.repeat,
            seed: config.seed,
            secret: None,
        }),
        |finished| {
            records[finished.index] = Some(finished.record);
            Ok(true)
        },
    )
    .expect("the match runs");
    let time = start.elapsed();
    (
        time,
        records
            .into_iter()
            .map(|r| r.expect("every game"))
            .collect(),
    )
}

struct Bare {
    name: &'static str,
    /// The lines written, when they are being checked.
    sent: Option<Vec<String>>,
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: u64,
    pending: usize,
    line: String,
}

impl Bare {
    fn start(name: &'static str, check: bool) -> Bare {
        let words: Vec<String> = bot_command().split(' ').map(str::to_owned).collect();
        let mut child = Command::new(&words[0])
            .args(&words[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the bot starts");
        let stdin = child.stdin.take().expect("piped");
        let stdout = BufReader::new(child.stdout.take().expect("piped"));
        Bare {
            name,
            sent: check.then(Vec::new),
            child,
            stdin,
            stdout,
            next_id: 1,
            pending: 0,
            line: String::new(),
        }
    }

    /// Writes the command in one `write`, as the referee does.
    fn send(&mut self, command: &str) {
        let line = format!("{} {command}\n", self.next_id);
        self.stdin.write_all(line.as_bytes()).expect("write");
        if let Some(sent) = &mut self.sent {
            sent.push(format!("{} < {}", self.name, line.trim_end()));
        }
        self.next_id += 1;
        self.pending += 1;
    }

    /// Reads every pending answer; returns the last one's first line.
    fn settle(&mut self) -> String {
        let mut first = String::new();
        while self.pending > 0 {
            first.clear();
            loop {
                self.line.clear();
                self.stdout.read_line(&mut self.line).expect("read");
                if self.line == "\n" {
                    break;
                }
                if first.is_empty() {
                    first.push_str(self.line.trim_end());
                }
            }
            self.pending -= 1;
        }
        first
    }
}

/// The same conversation as the referee's, driven straight from the records' plies. With
/// `sent`, each game's lines as written (`NAME < LINE`, in order) are pushed there.
fn bare_match(records: &[Record], mut sent: Option<&mut Vec<Vec<String>>>) -> Duration {
    let check = sent.is_some();
    let start = Instant::now();
    let mut engines = [Bare::start("a", check), Bare::start("b", check)];
    for engine in &mut engines {
        engine.send("protocol_version");
        engine.send("name");
    }
    for engine in &mut engines {
        engine.settle();
    }
    for (index, record) in records.iter().enumerate() {
        let seed = game_seed(SEED, index);
        let engine_of = |seat: usize| (seat + index) % 2;
        for seat in 0..2 {
            engines[engine_of(seat)].send(&format!(
                "newgame dvonn seats=2 seat={seat} seed={} tc=3600",
                engine_seed(seed, index, seat)
            ));
            engines[engine_of(seat)].settle();
        }
        // The clocks the referee sent: its record holds each mover's clock after the ply.
        let mut clocks = [3_600_000; 2];
        for ply in &record.moves {
            let seat = ply.seat.expect("no chance in DVONN");
            let mover = &mut engines[engine_of(seat)];
            mover.send(&format!(
                "genmove {seat} time={} inc=0 clocks={},{}",
                clocks[seat], clocks[0], clocks[1]
            ));
            clocks[seat] = ply.clock_ms.expect("a clock runs").floor() as u64;
            let answer = mover.settle();
            let mv = answer.split(' ').nth(1).unwrap_or_default().to_owned();
            assert_eq!(mv, ply.mv, "the bare driver replays the same game");
            for engine in &mut engines {
                engine.send(&format!("play {seat} {mv}"));
            }
        }
        for engine in &mut engines {
            engine.settle();
        }
        if let Some(games) = sent.as_deref_mut() {
            let mut lines = Vec::new();
            for engine in &mut engines {
                lines.append(engine.sent.as_mut().expect("checking"));
            }
            games.push(lines);
        }
    }
    for engine in &mut engines {
        engine.send("quit");
        engine.settle();
        engine.child.wait().expect("the bot exits");
    }
    start.elapsed()
}

/// The lines the referee wrote to engines in one game's transcript, as `NAME < LINE`.
fn written(transcript: &str) -> Vec<String> {
    transcript
        .lines()
        .filter_map(|line| {
            let mut words = line.trim_start().splitn(4, ' ');
            let (_, name, mark, text) =
                (words.next()?, words.next()?, words.next()?, words.next()?);
            (mark == "<").then(|| format!("{name} < {text}"))
        })
        .collect()
}

/// Checks that the bare driver writes exactly the referee's lines: each engine's in the same
/// order, byte for byte, against the referee's transcripts of the same games. Returns how many.
fn check_messages() -> usize {
    let dir = std::env::temp_dir().join(format!("referee-overhead-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (_, records) = referee_match(1, Some(&dir));
    let mut games = Vec::new();
    bare_match(&records, Some(&mut games));
    let mut lines = 0;
    for (index, bare) in games.iter().enumerate() {
        let path = dir.join(format!("game-{:05}.log", index + 1));
        let transcript = std::fs::read_to_string(&path).expect("a transcript per game");
        let referee = written(&transcript);
        // Each engine's lines in order; how the two engines' lines interleave is not compared.
        for name in ["a", "b"] {
            let of = |lines: &[String]| -> Vec<String> {
                lines
                    .iter()
                    .filter(|l| l.starts_with(&format!("{name} <")))
                    .cloned()
                    .collect()
            };
            assert_eq!(
                of(bare),
                of(&referee),
                "game {}: the bare driver must write the referee's lines to {name}",
                index + 1
            );
        }
        lines += referee.len();
    }
    let _ = std::fs::remove_dir_all(&dir);
    lines
}

/// Median, lowest and highest of `values`.
fn spread(mut values: Vec<f64>) -> (f64, f64, f64) {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    let median = if n % 2 == 1 {
        values[n / 2]
    } else {
        f64::midpoint(values[n / 2 - 1], values[n / 2])
    };
    (median, values[0], values[n - 1])
}

fn show(what: &str, values: Vec<f64>, unit: &str) {
    let (median, low, high) = spread(values);
    println!("  {what}: {median:.1} {unit} [{low:.1} .. {high:.1}]");
}

/// Pins this process (every thread it starts, and their children) to the first CPU it may use.
fn pin() {
    use referee::engine::process::{run_on, usable_cpus};
    let first = *usable_cpus().expect("the CPUs").first().expect("a CPU");
    run_on(first).expect("sched_setaffinity");
}

/// Runs this bench again as a child for `phase`, which prints its own figures.
fn run_phase(phase: &str) {
    let me = std::env::current_exe().expect("the bench's path");
    let status = Command::new(me)
        .arg("--bench")
        .env(PHASE, phase)
        .status()
        .expect("the bench runs itself");
    assert!(status.success(), "the {phase} phase failed");
}

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    match std::env::var(PHASE).as_deref() {
        Ok("pinned") => {
            // Before any thread starts: every later thread and engine inherits it.
            pin();
            println!("\nPinned to one CPU (referee or driver, and both engines):");
            phase(false);
        }
        Ok(_) => {
            println!("\nFree (the scheduler places everything):");
            phase(true);
        }
        Err(_) => {
            println!("{}", common::machine());
            println!(
                "{GAMES} DVONN games between two random bots, answering in microseconds; referee and bare \
                 driver alternate, {RUNS} runs of each; median [lowest .. highest]."
            );
            let lines = check_messages();
            println!(
                "Checked: the bare driver writes the referee's {lines} lines to the engines byte \
                 for byte (its transcripts of the same games)."
            );
            run_phase("pinned");
            run_phase("free");
        }
    }
}

/// Alternating runs of the referee and the bare driver; with `two_games`, also two games at once.
fn phase(two_games: bool) {
    let (mut referee, mut bare, mut own) = (Vec::new(), Vec::new(), Vec::new());
    let (mut cpu_referee, mut cpu_bare, mut cpu_own) = (Vec::new(), Vec::new(), Vec::new());
    let mut one_game = Vec::new();
    let mut plies = 0;
    for _ in 0..RUNS {
        let before = cpu_time();
        let (time, records) = referee_match(1, None);
        let between = cpu_time();
        let bare_time = bare_match(&records, None);
        let after = cpu_time();
        plies = records.iter().map(|r| r.moves.len()).sum::<usize>();
        let per_ply = |d: Duration| d.as_secs_f64() * 1e6 / plies as f64;
        referee.push(per_ply(time));
        bare.push(per_ply(bare_time));
        own.push(per_ply(time) - per_ply(bare_time));
        cpu_referee.push(per_ply(between.saturating_sub(before)));
        cpu_bare.push(per_ply(after.saturating_sub(between)));
        cpu_own
            .push(per_ply(between.saturating_sub(before)) - per_ply(after.saturating_sub(between)));
        one_game.push(time.as_secs_f64());
    }
    println!("  {plies} plies a run");
    show("referee match, wall", referee, "us/ply");
    show("bare driver, wall", bare, "us/ply");
    show("referee's own cost, wall (run by run)", own, "us/ply");
    show("referee, CPU of the controller", cpu_referee, "us/ply");
    show("bare driver, CPU of the controller", cpu_bare, "us/ply");
    show("referee's own cost, CPU (run by run)", cpu_own, "us/ply");
    if !two_games {
        return;
    }
    let (one, _, _) = spread(one_game);
    let speedups: Vec<f64> = (0..RUNS)
        .map(|_| one / referee_match(2, None).0.as_secs_f64())
        .collect();
    show(
        "two games at once, throughput over the median single game",
        speedups,
        "x",
    );
}
