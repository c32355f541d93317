//! The referee's own cost per ply: a match of the built-in random bots (which answer within
//! microseconds) against a bare driver that sends the same messages to the same kind of engine
//! processes with no rules, clocks or records; and the throughput of two games at once.
//!
//! Run with `cargo bench --bench overhead`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use referee::play::arena::{self, MatchConfig};
use referee::play::clock::TimeControl;
use referee::play::engine::EngineCommand;
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
const RUNS: usize = 10;

fn bot_command() -> String {
    format!(
        "{} bot --game dvonn --strategy random",
        env!("CARGO_BIN_EXE_referee")
    )
}

fn config(concurrency: usize) -> MatchConfig {
    let engine = |name: &str| EngineSpec {
        command: EngineCommand {
            name: name.to_owned(),
            command: bot_command(),
            ..EngineCommand::default()
        },
        tc: None,
        proto: Default::default(),
    };
    MatchConfig {
        game: "dvonn".into(),
        variant: None,
        engines: vec![engine("a"), engine("b")],
        repeat: false,
        seed: SEED,
        tc: TimeControl::Fischer {
            base: Duration::from_secs(3600),
            increment: Duration::ZERO,
            moves: None,
        },
        margin: Duration::from_secs(1),
        time_margin: Duration::ZERO,
        startup: Duration::from_secs(5),
        concurrency,
        on_fault: Default::default(),
        log_dir: None,
        log_limit: 0,
        openings: Default::default(),
        scratch_dir: None,
        private: Vec::new(),
        probe_keys: false,
    }
}

/// The referee's match; returns the time and the records in schedule order.
fn referee_match(concurrency: usize) -> (Duration, Vec<Record>) {
    let mut records = vec![None; GAMES];
    let start = Instant::now();
    let config = config(concurrency);
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
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: u64,
    pending: usize,
    line: String,
}

impl Bare {
    fn start() -> Bare {
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

/// The same conversation as the referee's, driven straight from the records' plies.
fn bare_match(records: &[Record]) -> Duration {
    let start = Instant::now();
    let mut engines = [Bare::start(), Bare::start()];
    for engine in &mut engines {
        engine.send("protocol_version");
        engine.send("name");
        engine.settle();
    }
    for (index, record) in records.iter().enumerate() {
        let seed = game_seed(SEED, index);
        let engine_of = |seat: usize| (seat + index) % 2;
        for seat in 0..2 {
            let e = &mut engines[engine_of(seat)];
            e.send(&format!(
                "newgame dvonn seats=2 seat={seat} seed={}",
                engine_seed(seed, index, seat)
            ));
            e.settle();
        }
        for ply in &record.moves {
            let seat = ply.seat.expect("no chance in DVONN");
            let mover = &mut engines[engine_of(seat)];
            mover.send(&format!(
                "genmove {seat} time=3600000 inc=0 clocks=3600000,3600000"
            ));
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
    }
    for engine in &mut engines {
        engine.send("quit");
        engine.settle();
        engine.child.wait().expect("the bot exits");
    }
    start.elapsed()
}

/// Median, lowest and highest of `values`.
fn spread(mut values: Vec<f64>) -> (f64, f64, f64) {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    let median = if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    };
    (median, values[0], values[n - 1])
}

fn show(what: &str, values: Vec<f64>, unit: &str) {
    let (median, low, high) = spread(values);
    println!("  {what}: {median:.1} {unit} [{low:.1} .. {high:.1}]");
}

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let (mut referee, mut bare, mut own) = (Vec::new(), Vec::new(), Vec::new());
    let (mut cpu_referee, mut cpu_bare, mut cpu_own) = (Vec::new(), Vec::new(), Vec::new());
    let mut one_game = Vec::new();
    let mut plies = 0;
    for _ in 0..RUNS {
        let before = cpu_time();
        let (time, records) = referee_match(1);
        let between = cpu_time();
        let bare_time = bare_match(&records);
        let after = cpu_time();
        plies = records.iter().map(|r| r.moves.len()).sum::<usize>();
        let per_ply = |d: Duration| d.as_secs_f64() * 1e6 / plies as f64;
        referee.push(per_ply(time));
        bare.push(per_ply(bare_time));
        own.push(per_ply(time) - per_ply(bare_time));
        cpu_referee.push(per_ply(between - before));
        cpu_bare.push(per_ply(after - between));
        cpu_own.push(per_ply(between - before) - per_ply(after - between));
        one_game.push(time.as_secs_f64());
    }
    println!("{GAMES} games, {plies} plies, {RUNS} interleaved runs, median [lowest .. highest]:");
    show("referee match, wall", referee, "us/ply");
    show("bare driver, wall", bare, "us/ply");
    show("referee's own cost, wall (run by run)", own, "us/ply");
    show("referee, CPU of the controller", cpu_referee, "us/ply");
    show("bare driver, CPU of the controller", cpu_bare, "us/ply");
    show("referee's own cost, CPU (run by run)", cpu_own, "us/ply");
    let (one, _, _) = spread(one_game);
    let speedups: Vec<f64> = (0..RUNS)
        .map(|_| one / referee_match(2).0.as_secs_f64())
        .collect();
    show(
        "two games at once, throughput over the median single game",
        speedups,
        "x",
    );
}
