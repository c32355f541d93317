//! Clock fairness: how much more time the referee charges an engine for a move than the engine
//! itself saw between the `genmove` reaching it and its answer leaving it. The difference is the
//! pipes' transit both ways and the referee's own wake-up: time no engine should pay for.
//!
//! Run with `cargo bench --bench fairness`. It plays DVONN matches through the built binary
//! between two `benches/stamped_engine.py` engines (random moves through a built-in bot, each
//! genmove's arrival and answer stamped by the engine), once with one game at a time and once with
//! `--concurrency 2`, pairs every ply of the records with the engine's own stamp (by the engine
//! seed of protocol.md, "Random draws", and the genmove's number), and prints p50 / p99 / max of
//! the differences in microseconds.

mod common;

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

use referee::play::schedule::engine_seed;
use referee::records::Record;
use referee::records::file::Reader;

const GAMES: usize = 60;

fn main() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    println!(
        "clock fairness: charged minus seen by the engine, per move, {GAMES} DVONN games each; {}",
        common::machine()
    );
    for concurrency in [1, 2] {
        let run = dir.path().join(format!("c{concurrency}"));
        std::fs::create_dir(&run).expect("a run directory");
        let mut excess = play(&run, concurrency);
        excess.sort_by(f64::total_cmp);
        let at = |q: f64| excess[((excess.len() - 1) as f64 * q).round() as usize];
        println!(
            "--concurrency {concurrency}: {} moves, min {:.1} µs, p50 {:.1} µs, p99 {:.1} µs, max {:.1} µs",
            excess.len(),
            at(0.0),
            at(0.5),
            at(0.99),
            at(1.0)
        );
    }
}

/// Plays the match in `dir`; the charged-minus-seen time of every move, in microseconds.
fn play(dir: &Path, concurrency: usize) -> Vec<f64> {
    let referee = env!("CARGO_BIN_EXE_referee");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/stamped_engine.py");
    let engine = |name: &str| {
        let log = dir.join(format!("{name}.stamps"));
        format!(
            "name={name} cmd='python3 {} dvonn {}'",
            script.display(),
            log.display()
        )
    };
    let out = dir.join("records.jsonl");
    let status = Command::new(referee)
        .env("REFEREE", referee)
        .args(["match", "--game", "dvonn", "--tc", "600+0", "--seed", "1"])
        .args(["--games", &GAMES.to_string()])
        .args(["--concurrency", &concurrency.to_string()])
        .args(["--engine", &engine("a"), "--engine", &engine("b")])
        .arg("--out")
        .arg(&out)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .expect("the referee runs");
    assert!(status.success(), "the match failed");
    // (engine seed, genmove number) -> nanoseconds the engine saw.
    let mut seen: HashMap<(u64, usize), u64> = HashMap::new();
    for name in ["a", "b"] {
        let stamps = std::fs::read_to_string(dir.join(format!("{name}.stamps"))).expect("stamps");
        for line in stamps.lines() {
            let numbers: Vec<u64> = (line.split(' '))
                .map(|w| w.parse().expect("a number"))
                .collect();
            seen.insert((numbers[0], numbers[1] as usize), numbers[2]);
        }
    }
    let mut excess = Vec::new();
    let mut reader = Reader::open(&out).expect("the records");
    while let Some((_, entry)) = reader.next_entry().expect("readable records") {
        let record: Record = entry.expect("a record");
        let index: usize = record.tags["game"].parse::<usize>().expect("a game number") - 1;
        let mut asked = [0usize; 2];
        for ply in &record.moves {
            let seat = ply.seat.expect("DVONN has no chance plies");
            let key = (engine_seed(record.seed, index, seat), asked[seat]);
            asked[seat] += 1;
            let engine_ns = seen[&key];
            let charged_ms = ply.time_ms.expect("a timed ply");
            excess.push(charged_ms * 1000.0 - engine_ns as f64 / 1000.0);
        }
    }
    assert_eq!(excess.len(), seen.len(), "every stamp paired with a ply");
    excess
}
