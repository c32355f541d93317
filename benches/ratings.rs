//! Benchmark: a rating list of many engines from many games of 2 to 6 seats, read into the pool
//! and fitted, on one thread. `cargo bench --bench ratings -- ENGINES GAMES MB` (default 1600,
//! 1000000 and `referee ratings`' default memory, 256); prints the time to add the games, the
//! time to rate them, how many kinds of game went to the temporary file, and the peak memory
//! where the system says it (Linux).

use std::time::Instant;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use referee::records::{GameResult, Record};
use referee::stats::ratings::{Options, Pool, Standing};

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let engines = args.first().copied().unwrap_or(1600);
    let games = args.get(1).copied().unwrap_or(1_000_000);
    let megabytes = args.get(2).copied().unwrap_or(256);
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let strengths: Vec<f64> = (0..engines)
        .map(|_| rng.random_range(-600.0..600.0))
        .collect();
    let names: Vec<String> = (0..engines).map(|e| format!("engine{e:04}")).collect();
    let k = std::f64::consts::LN_10 / 400.0;
    let mut pool = Pool::spilling(megabytes << 20, tempfile::tempfile);
    let start = Instant::now();
    for game in 0..games {
        let seats = rng.random_range(2..=6);
        let mut table: Vec<usize> = Vec::with_capacity(seats);
        while table.len() < seats {
            let e = rng.random_range(0..engines);
            if !table.contains(&e) {
                table.push(e);
            }
        }
        // A Plackett-Luce order: strength plus Gumbel noise, the fewest points first.
        let performance: Vec<f64> = (table.iter())
            .map(|&e| k * strengths[e] - (-(rng.random::<f64>().max(1e-300)).ln()).ln())
            .collect();
        let scores: Vec<i64> = (0..seats)
            .map(|s| performance.iter().filter(|&&p| p > performance[s]).count() as i64)
            .collect();
        let winners = (0..seats).filter(|&s| scores[s] == 0).collect();
        let at: Vec<&str> = table.iter().map(|&e| names[e].as_str()).collect();
        let result = GameResult { winners, scores };
        let record = Record::result_only("double", &at, game as u64, result);
        pool.add(&record).expect("one game");
    }
    let added = start.elapsed();
    let start = Instant::now();
    let ratings = pool.rate(&Options::default()).expect("a list");
    let rated = start.elapsed();
    let listed = (ratings.engines.iter())
        .filter(|r| matches!(r.standing, Standing::Rated { .. }))
        .count();
    // The process's peak resident memory, from /proc (Linux only).
    let peak = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
            line.split_whitespace().nth(1)?.parse::<u64>().ok()
        })
        .map_or(String::new(), |kib| {
            format!(", peak memory {} MB", kib / 1024)
        });
    println!(
        "{engines} engines, {games} games of 2 to 6 seats, {megabytes} MB: added in {:.2} s, \
         rated in {:.2} s ({listed} rated, {} kinds in the file{peak})",
        added.as_secs_f64(),
        rated.as_secs_f64(),
        pool.spilled()
    );
}
