//! Benchmarks: `validate` throughput in plies per second, and `perft` from the reference positions.
//!
//! Run with `cargo bench`. Each figure is the median of several runs on one thread, with the
//! range in brackets; each run checks its answer, so a broken build cannot report a fast wrong
//! number.

use std::time::{Duration, Instant};

use referee::records::Record;
use referee::records::replay::Replay;
use referee::records::validate::Report;
use referee::rules::game::{Actor, Game, Setup};
use referee::rules::{AnyGame, perft};

const RUNS: usize = 10;

/// The times of `runs` runs of `work` (median, fastest, slowest) and the last run's answer.
fn timed<T>(runs: usize, mut work: impl FnMut() -> T) -> (Times, T) {
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..runs {
        let start = Instant::now();
        last = Some(work());
        times.push(start.elapsed());
    }
    times.sort();
    let median = times[times.len() / 2];
    let times = Times {
        median,
        fastest: times[0],
        slowest: times[times.len() - 1],
    };
    (times, last.expect("runs > 0"))
}

struct Times {
    median: Duration,
    fastest: Duration,
    slowest: Duration,
}

impl Times {
    /// `amount` per second at the median run, with the range: `12.3 [11.0 .. 13.1]`.
    fn rate(&self, amount: f64, scale: f64) -> String {
        let per_second = |d: Duration| amount / d.as_secs_f64() / scale;
        format!(
            "{:.2} [{:.2} .. {:.2}]",
            per_second(self.median),
            per_second(self.slowest),
            per_second(self.fastest)
        )
    }
}

/// The 100 random fixture games as finished match records, one JSON line each: each ply timed
/// and its clock, and the tags a match writes, as `referee match` records them.
fn fixture_records() -> Vec<Record> {
    let data = std::fs::read_to_string("fixtures/dvonn/random-games-100.jsonl")
        .expect("run from the crate root");
    data.lines()
        .map(|line| {
            let fixture: serde_json::Value = serde_json::from_str(line).expect("fixture JSON");
            let mut replay = Replay::new("dvonn", &Setup::default()).expect("dvonn");
            let mut clocks = [Duration::from_secs(60); 2];
            for (ply, mv) in fixture["moves"]
                .as_str()
                .expect("moves")
                .split(' ')
                .enumerate()
            {
                let Some(Actor::Seat(seat)) = replay.game().to_move() else {
                    panic!("DVONN has no chance plies");
                };
                replay.play(mv).expect("fixture moves are legal");
                // Some microseconds to some hundred milliseconds a ply, as engines take.
                let used = Duration::from_micros((ply as u64 * 7_919) % 300_000 + 17);
                clocks[seat] = clocks[seat].saturating_sub(used);
                replay.time_last_ply(used, Some(clocks[seat]), Duration::ZERO, Duration::ZERO);
            }
            replay.record(&["white".into(), "black".into()], None)
        })
        .collect()
}

fn bench_validate() {
    let records = fixture_records();
    let copies = 100;
    // Each copy numbered as a match numbers its games, so none is a duplicate.
    let mut lines = Vec::new();
    for copy in 0..copies {
        for (index, record) in records.iter().enumerate() {
            let mut record = record.clone();
            let number = copy * records.len() + index + 1;
            record.tags.insert("game".into(), number.to_string());
            lines.push(serde_json::to_string(&record).expect("records serialise"));
        }
    }
    let text = lines.join("\n");
    let (times, report) = timed(RUNS, || {
        let mut report = Report::default();
        let mut reader = referee::records::file::Reader::new(text.as_bytes(), true);
        let mut duplicates = referee::records::file::Duplicates::default();
        report.check_reader("bench.jsonl", &mut reader, &mut duplicates, 0);
        report
    });
    assert!(report.ok(), "{report}");
    let plies = report.plies as f64;
    println!(
        "validate: {} records, {} plies, {:.1} MB in {:.3} s (median of {RUNS}): {} M plies/s, {} MB/s",
        report.records,
        report.plies,
        text.len() as f64 / 1e6,
        times.median.as_secs_f64(),
        times.rate(plies, 1e6),
        times.rate(text.len() as f64, 1e6),
    );
    // The same file through the command line: process start, reading the file, the report.
    let mut file = tempfile::Builder::new()
        .suffix(".jsonl")
        .tempfile()
        .expect("a temporary file");
    std::io::Write::write_all(&mut file, text.as_bytes()).expect("write the records");
    let summary = format!("ok: {0} of {0} records valid", report.records);
    let (times, ()) = timed(RUNS, || {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_referee"))
            .arg("validate")
            .arg(file.path())
            .output()
            .expect("run referee validate");
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(stdout.starts_with(&summary), "{stdout}");
    });
    println!(
        "referee validate FILE ({:.1} MB): {} M plies/s, {} MB/s",
        text.len() as f64 / 1e6,
        times.rate(plies, 1e6),
        times.rate(text.len() as f64, 1e6),
    );
    // The same plies without JSON: the rules' share of the cost.
    let parsed = records;
    let (times, plies) = timed(RUNS, || {
        (0..copies)
            .flat_map(|_| &parsed)
            .map(|r| referee::records::validate::check_record(r).expect("valid"))
            .sum::<usize>()
    });
    println!(
        "replay without JSON: {plies} plies in {:.3} s: {} M plies/s",
        times.median.as_secs_f64(),
        times.rate(plies as f64, 1e6)
    );
}

fn bench_perft() {
    let data =
        std::fs::read_to_string("fixtures/dvonn/perft.tsv").expect("run from the crate root");
    for line in data.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let expected: u64 = cols[7].parse().expect("depth 5 count");
        let mut game = AnyGame::create("dvonn", &Setup::default()).expect("dvonn");
        for text in cols[9].split(' ') {
            let mv = game.parse_move(text).expect("prefix parses");
            game.try_play(&mv).expect("prefix is legal");
        }
        let (times, nodes) = timed(5, || perft(&game, 5));
        assert_eq!(nodes, expected, "{}", cols[0]);
        println!(
            "perft 5 {:<36} {nodes:>11} in {:.3} s [{:.3} .. {:.3}]: {} M leaves/s",
            cols[0],
            times.median.as_secs_f64(),
            times.fastest.as_secs_f64(),
            times.slowest.as_secs_f64(),
            times.rate(nodes as f64, 1e6)
        );
    }
}

fn main() {
    // `cargo test --benches` runs this binary too; only a real `cargo bench` measures.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    bench_validate();
    bench_perft();
}
