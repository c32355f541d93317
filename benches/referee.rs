//! Benchmarks: `validate` throughput in plies per second, and `perft` from the reference positions.
//!
//! Run with `cargo bench`. Each figure is the best of several runs on one thread; each run checks
//! its answer, so a broken build cannot report a fast wrong number.

use std::time::{Duration, Instant};

use referee::game::{Game, Setup};
use referee::games::{AnyGame, perft};
use referee::replay::Replay;
use referee::validate::Report;

const RUNS: usize = 5;

fn best_of<T>(runs: usize, mut work: impl FnMut() -> T) -> (Duration, T) {
    let mut best = None;
    let mut last = None;
    for _ in 0..runs {
        let start = Instant::now();
        let value = work();
        let elapsed = start.elapsed();
        best = Some(best.map_or(elapsed, |b: Duration| b.min(elapsed)));
        last = Some(value);
    }
    (best.expect("runs > 0"), last.expect("runs > 0"))
}

/// The 100 random fixture games as finished records, one JSON line each.
fn fixture_records() -> Vec<String> {
    let data = std::fs::read_to_string("fixtures/dvonn/random-games-100.jsonl")
        .expect("run from the crate root");
    data.lines()
        .map(|line| {
            let fixture: serde_json::Value = serde_json::from_str(line).expect("fixture JSON");
            let mut replay = Replay::new("dvonn", &Setup::default()).expect("dvonn");
            for mv in fixture["moves"].as_str().expect("moves").split(' ') {
                replay.play(mv).expect("fixture moves are legal");
            }
            let record = replay.record(&["white".into(), "black".into()], None);
            serde_json::to_string(&record).expect("records serialise")
        })
        .collect()
}

fn bench_validate() {
    let records = fixture_records();
    let copies = 100;
    let text = (0..copies)
        .flat_map(|_| records.iter().map(String::as_str))
        .collect::<Vec<_>>()
        .join("\n");
    let (time, report) = best_of(RUNS, || {
        let mut report = Report::default();
        let mut reader = referee::records_file::Reader::new(text.as_bytes(), true);
        let mut duplicates = referee::records_file::Duplicates::default();
        report.check_reader("bench.jsonl", &mut reader, &mut duplicates, 0);
        report
    });
    assert!(report.ok(), "{report}");
    let plies = report.plies as f64;
    println!(
        "validate: {} records, {} plies, {:.1} MB in {:.3} s: {:.2} M plies/s, {:.0} MB/s",
        report.records,
        report.plies,
        text.len() as f64 / 1e6,
        time.as_secs_f64(),
        plies / time.as_secs_f64() / 1e6,
        text.len() as f64 / time.as_secs_f64() / 1e6,
    );
    // The same plies without JSON: the rules' share of the cost.
    let parsed: Vec<referee::record::Record> = records
        .iter()
        .map(|r| serde_json::from_str(r).expect("record"))
        .collect();
    let (time, plies) = best_of(RUNS, || {
        (0..copies)
            .flat_map(|_| &parsed)
            .map(|r| referee::validate::check_record(r).expect("valid"))
            .sum::<usize>()
    });
    println!(
        "replay without JSON: {plies} plies in {:.3} s: {:.2} M plies/s",
        time.as_secs_f64(),
        plies as f64 / time.as_secs_f64() / 1e6
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
        let (time, nodes) = best_of(3, || perft(&game, 5));
        assert_eq!(nodes, expected, "{}", cols[0]);
        println!(
            "perft 5 {:<36} {nodes:>11} in {:.3} s: {:.0} M leaves/s",
            cols[0],
            time.as_secs_f64(),
            nodes as f64 / time.as_secs_f64() / 1e6
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
