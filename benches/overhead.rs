//! The referee's own cost per ply: a match of the built-in random bots (which answer within
//! microseconds) against a bare driver that sends the same messages to the same kind of engine
//! processes with no rules, clocks or records; and the throughput of two games at once.
//!
//! Run with `cargo bench --bench overhead`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use referee::arena::{self, EngineSpec, MatchConfig, engine_seed, game_seed};
use referee::clock::TimeControl;
use referee::engine::EngineCommand;
use referee::record::Record;

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
const RUNS: usize = 5;

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
            dir: None,
        },
        tc: None,
    };
    MatchConfig {
        game: "dvonn".into(),
        variant: None,
        engines: vec![engine("a"), engine("b")],
        games: GAMES,
        repeat: false,
        seed: SEED,
        tc: TimeControl::Fischer {
            base: Duration::from_secs(3600),
            increment: Duration::ZERO,
            moves: None,
        },
        margin: Duration::from_secs(1),
        startup: Duration::from_secs(5),
        concurrency,
        on_fault: Default::default(),
        log_dir: None,
        log_limit: 0,
    }
}

/// The referee's match; returns the time and the records in schedule order.
fn referee_match(concurrency: usize) -> (Duration, Vec<Record>) {
    let mut records = vec![None; GAMES];
    let start = Instant::now();
    let config = config(concurrency);
    arena::run(&config, arena::match_schedule(&config), |finished| {
        records[finished.index] = Some(finished.record);
        Ok(true)
    })
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

    fn send(&mut self, command: &str) {
        writeln!(self.stdin, "{} {command}", self.next_id).expect("write");
        self.stdin.flush().expect("flush");
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
                engine_seed(seed, seat)
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

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let mut best_referee = Duration::MAX;
    let mut best_bare = Duration::MAX;
    let mut cpu_referee = Duration::MAX;
    let mut cpu_bare = Duration::MAX;
    let mut plies = 0;
    for _ in 0..RUNS {
        let before = cpu_time();
        let (time, records) = referee_match(1);
        let between = cpu_time();
        plies = records.iter().map(|r| r.moves.len()).sum::<usize>();
        best_referee = best_referee.min(time);
        best_bare = best_bare.min(bare_match(&records));
        cpu_referee = cpu_referee.min(between - before);
        cpu_bare = cpu_bare.min(cpu_time() - between);
    }
    let per_ply = |d: Duration| d.as_secs_f64() * 1e6 / plies as f64;
    println!("{GAMES} games, {plies} plies, best of {RUNS}:");
    println!(
        "  referee match: {:.3} s, {:.1} us/ply",
        best_referee.as_secs_f64(),
        per_ply(best_referee)
    );
    println!(
        "  bare driver:   {:.3} s, {:.1} us/ply",
        best_bare.as_secs_f64(),
        per_ply(best_bare)
    );
    println!(
        "  referee's own cost: {:.1} us/ply of wall time",
        per_ply(best_referee) - per_ply(best_bare)
    );
    println!(
        "  CPU time of the controller: referee {:.1} us/ply, bare driver {:.1} us/ply",
        per_ply(cpu_referee),
        per_ply(cpu_bare)
    );
    let best_two = (0..RUNS)
        .map(|_| referee_match(2).0)
        .min()
        .expect("runs > 0");
    println!(
        "  two games at once: {:.3} s, {:.2} x the throughput of one",
        best_two.as_secs_f64(),
        best_referee.as_secs_f64() / best_two.as_secs_f64()
    );
}
