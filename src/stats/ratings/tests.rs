//! The rating list's rules on small cases worked by hand, and the intervals' coverage on
//! simulated engines of known strength.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::fit::K;
use super::*;
use crate::records::{GameResult, Record, finished_record};

fn pool(games: &[(&[&str], &[usize])]) -> Pool {
    let mut pool = Pool::default();
    for (i, (names, winners)) in games.iter().enumerate() {
        pool.add(&finished_record(names, winners, i as u64))
            .unwrap();
    }
    pool
}

fn standing(ratings: &Ratings, name: &str) -> Standing {
    (ratings.engines.iter())
        .find(|r| r.name == name)
        .map(|r| r.standing)
        .unwrap()
}

fn elo(ratings: &Ratings, name: &str) -> f64 {
    match standing(ratings, name) {
        Standing::Rated { elo, .. } => elo,
        other => panic!("{name}: {other:?}"),
    }
}

#[test]
fn two_engines_average_zero_at_the_elo_of_their_score() {
    // a wins 3 of 4 against b: +190.8 Elo apart, ±95.4 around the average 0.
    let ratings = pool(&[
        (&["a", "b"], &[0]),
        (&["b", "a"], &[1]),
        (&["a", "b"], &[0]),
        (&["b", "a"], &[0]),
    ])
    .rate(&Options::default())
    .unwrap();
    let gap = 400.0 * 3f64.log10();
    assert!((elo(&ratings, "a") - gap / 2.0).abs() < 1e-6);
    assert!((elo(&ratings, "b") + gap / 2.0).abs() < 1e-6);
    let anchored = Options {
        anchor: Some(("b".into(), 1500.0)),
        ..Options::default()
    };
    let ratings = pool(&[
        (&["a", "b"], &[0]),
        (&["b", "a"], &[0]),
        (&["a", "b"], &[0]),
    ])
    .rate(&anchored)
    .unwrap();
    assert_eq!(elo(&ratings, "b"), 1500.0);
    let Standing::Rated { error, .. } = standing(&ratings, "b") else {
        panic!()
    };
    assert_eq!(error, 0.0, "the anchor is the reference");
}

#[test]
fn a_perfect_score_is_a_bound_and_the_rest_are_named() {
    let mut games: Vec<(&[&str], &[usize])> = Vec::new();
    for _ in 0..5 {
        games.push((&["a", "b"], &[0]));
        games.push((&["b", "a"], &[0]));
        // c beats both every time: no finite rating, a lower bound.
        games.push((&["c", "a"], &[0]));
        games.push((&["b", "c"], &[1]));
        // x and y play only each other.
        games.push((&["x", "y"], &[0]));
        games.push((&["y", "x"], &[1]));
    }
    games.push((&["z", "a"], &[1]));
    let options = Options {
        anchor: None,
        min_games: 2,
        ..Options::default()
    };
    let ratings = pool(&games).rate(&options).unwrap();
    assert!(
        (elo(&ratings, "a") - elo(&ratings, "b")).abs() < 1e-6,
        "5-5"
    );
    let Standing::AtLeast(bound) = standing(&ratings, "c") else {
        panic!("{ratings}")
    };
    // 10 wins against engines at 0: 10 log σ(k L) = ln 0.05 at L ≈ +384.
    let expected = -400.0 * ((0.05f64).powf(-0.1) - 1.0).log10();
    assert!((bound - expected).abs() < 0.01, "{bound} vs {expected}");
    assert_eq!(
        standing(&ratings, "x"),
        Standing::Unrated(Unrated::Disconnected)
    );
    assert_eq!(
        standing(&ratings, "z"),
        Standing::Unrated(Unrated::FewGames(2))
    );
    // The rated are ranked first; c's bound, above every rating, comes after them, and the
    // unrated last, each under a heading of its own.
    let order: Vec<&str> = ratings.engines.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(order, ["a", "b", "c", "x", "y", "z"]);
    let text = ratings.to_string();
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[2].starts_with("   1  a") && lines[3].starts_with("   2  b"),
        "{text}"
    );
    assert!(lines[4].starts_with("No place on the list yet"), "{text}");
    assert!(lines[6].starts_with("Not rated:"), "{text}");
    assert!(text.contains(">=+"), "{text}");
    assert!(!text.contains("inf"), "{text}");
    let json = ratings.to_json();
    let c = json
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "c")
        .unwrap();
    assert_eq!(c["bound"], "at_least");
    assert!(c["error"].is_null());
}

#[test]
fn bad_input_is_refused_clearly() {
    let one = pool(&[(&["a", "a"], &[0])]);
    assert!(matches!(
        one.rate(&Options::default()),
        Err(RatingsError::OneEngine(_))
    ));
    assert!(matches!(
        Pool::default().rate(&Options::default()),
        Err(RatingsError::NoGames)
    ));
    let two = pool(&[(&["a", "b"], &[0]), (&["b", "a"], &[0])]);
    let unknown = Options {
        anchor: Some(("c".into(), 0.0)),
        ..Options::default()
    };
    let error = two.rate(&unknown).unwrap_err().to_string();
    assert!(
        error.contains("no engine c") && error.contains("a, b"),
        "{error}"
    );
    let mut mixed = two;
    let mut other = finished_record(&["a", "b"], &[0], 9);
    other.game = "pegs".into();
    let error = mixed.add(&other).unwrap_err().to_string();
    assert!(error.contains("mixed"), "{error}");
    // An anchor that won every game has no rating to anchor.
    let top = pool(&[
        (&["a", "b"], &[0]),
        (&["b", "c"], &[0]),
        (&["c", "b"], &[0]),
        (&["a", "c"], &[0]),
    ]);
    let anchored = Options {
        anchor: Some(("a".into(), 0.0)),
        ..Options::default()
    };
    assert!(matches!(
        top.rate(&anchored),
        Err(RatingsError::AnchorUnrated { .. })
    ));
}

/// The simulated engines' strengths, in Elo.
const STRENGTHS: [f64; 8] = [-250.0, -120.0, -60.0, 0.0, 30.0, 90.0, 160.0, 240.0];

/// How many simulated leagues a coverage test plays: `at_least`, or `PROPTEST_CASES` when more.
fn leagues(at_least: u64) -> u64 {
    (std::env::var("PROPTEST_CASES").ok())
        .and_then(|v| v.parse().ok())
        .map_or(at_least, |cases: u64| cases.max(at_least))
}

/// A simulated league's start: its engines' names (`e0` on, as [`STRENGTHS`]), its random
/// stream seeded `seed`, and an empty pool.
fn league_start(seed: u64) -> (Vec<String>, ChaCha8Rng, Pool) {
    let names = (0..STRENGTHS.len()).map(|i| format!("e{i}")).collect();
    (names, ChaCha8Rng::seed_from_u64(seed), Pool::default())
}

/// `seats` different engines of `engines`, drawn at random.
fn random_table(rng: &mut ChaCha8Rng, seats: usize, engines: usize) -> Vec<usize> {
    let mut table = Vec::with_capacity(seats);
    while table.len() < seats {
        let e = rng.random_range(0..engines);
        if !table.contains(&e) {
            table.push(e);
        }
    }
    table
}

/// A Plackett-Luce finishing order of `table`: each seat's strength plus Gumbel noise, its
/// points how many seats performed better (0 for the winner).
fn luce_points(rng: &mut ChaCha8Rng, strengths: &[f64], table: &[usize]) -> Vec<i64> {
    let performance: Vec<f64> = (table.iter())
        .map(|&e| K * strengths[e] - (-(rng.random::<f64>().max(1e-300)).ln()).ln())
        .collect();
    (0..table.len())
        .map(|s| performance.iter().filter(|&&p| p > performance[s]).count() as i64)
        .collect()
}

/// `strengths` relative to their average.
fn around_average(strengths: &[f64]) -> Vec<f64> {
    let mean = strengths.iter().sum::<f64>() / strengths.len() as f64;
    strengths.iter().map(|s| s - mean).collect()
}

/// How many of the engines `names` (in the order of `truth`) are rated with `truth` inside their
/// 95% intervals, of how many are rated, and their intervals' summed half-widths.
fn covered(ratings: &Ratings, names: &[String], truth: &[f64]) -> (usize, usize, f64) {
    let (mut inside, mut total, mut width) = (0, 0, 0.0);
    for (name, truth) in names.iter().zip(truth) {
        if let Standing::Rated { elo, error } = standing(ratings, name) {
            inside += usize::from((elo - truth).abs() <= error);
            total += 1;
            width += error;
        }
    }
    (inside, total, width)
}

/// Engines of known strength play `games` games at tables of `seats`, each won by the argmax of
/// strength plus Gumbel noise (exactly the fitted Luce model; for two seats, Elo's logistic
/// curve), except that a two-seat game is drawn with probability `σ(1 - σ)` (`σ` the first seat's
/// expected score), taken half from each side's wins so that the expected score stays `σ`,
/// which is all the model says about draws. Returns how many of the engines' true
/// ratings (relative to their average) fell inside their 95% intervals, of how many.
fn coverage(seed: u64, seats: usize, games: usize) -> (usize, usize) {
    let strengths = STRENGTHS;
    let (names, mut rng, mut pool) = league_start(seed);
    for game in 0..games {
        let table = random_table(&mut rng, seats, strengths.len());
        let expected = 1.0 / (1.0 + (K * (strengths[table[1]] - strengths[table[0]])).exp());
        let draw = expected * (1.0 - expected);
        let winners = if seats == 2 {
            let u: f64 = rng.random();
            if u < expected - draw / 2.0 {
                vec![0]
            } else if u < expected + draw / 2.0 {
                vec![0, 1]
            } else {
                vec![1]
            }
        } else {
            let points = luce_points(&mut rng, &strengths, &table);
            vec![(0..seats).position(|s| points[s] == 0).unwrap()]
        };
        let at: Vec<&str> = table.iter().map(|&e| names[e].as_str()).collect();
        pool.add(&finished_record(&at, &winners, game as u64))
            .unwrap();
    }
    let ratings = pool.rate(&Options::default()).unwrap();
    let (inside, _, _) = covered(&ratings, &names, &around_average(&strengths));
    (inside, names.len())
}

#[test]
fn the_intervals_hold_the_true_ratings_about_95_percent_of_the_time() {
    let runs = leagues(150);
    for (seats, games) in [(2, 400), (4, 300)] {
        let (mut inside, mut total) = (0, 0);
        for seed in 0..runs {
            let (i, t) = coverage(seed, seats, games);
            inside += i;
            total += t;
        }
        let share = inside as f64 / total as f64;
        // 150 runs of 8 engines: the share's standard error is under 1% (less with the
        // runs' engines correlated through their average): 0.92..0.98 is a wide margin.
        eprintln!("{seats} seats: {share:.3} of {total} inside");
        assert!(
            (0.92..=0.98).contains(&share),
            "{seats} seats: {share:.3} of {total}"
        );
    }
}

/// A DOUBLE-like league: engines of known strength at tables of `seats`, each game's whole
/// finishing order drawn from the Plackett-Luce model (strength plus Gumbel noise, sorted: the
/// best performance places first, with the fewest points), the order kept in the records as
/// DOUBLE keeps it (points, the fewest first). The full-order fit and the winner-only fit of the
/// same games: for each, how many true ratings (relative to their average) fell inside their 95%
/// intervals, of how many, and the intervals' summed half-widths.
fn full_order_league(seed: u64, seats: usize, games: usize) -> [(usize, usize, f64); 2] {
    let strengths = STRENGTHS;
    let (names, mut rng, mut pool) = league_start(seed);
    for game in 0..games {
        let table = random_table(&mut rng, seats, strengths.len());
        let scores = luce_points(&mut rng, &strengths, &table);
        let winners: Vec<usize> = (0..seats).filter(|&s| scores[s] == 0).collect();
        let at: Vec<&str> = table.iter().map(|&e| names[e].as_str()).collect();
        let result = GameResult { winners, scores };
        pool.add(&Record::result_only("double", &at, game as u64, result))
            .unwrap();
    }
    let truth = around_average(&strengths);
    [false, true].map(|winner_only| {
        let options = Options {
            winner_only,
            ..Options::default()
        };
        covered(&pool.rate(&options).unwrap(), &names, &truth)
    })
}

#[test]
fn full_finishing_orders_hold_the_true_ratings_and_narrow_the_intervals() {
    let runs = leagues(1000);
    let mut sums = [(0, 0, 0.0); 2];
    for seed in 0..runs {
        for (sum, (inside, total, width)) in sums.iter_mut().zip(full_order_league(seed, 4, 300)) {
            *sum = (sum.0 + inside, sum.1 + total, sum.2 + width);
        }
    }
    let [(inside, total, width), (_, winner_total, winner_width)] = sums;
    let share = inside as f64 / total as f64;
    // Per engine, how much narrower the full order's interval is than the winner's alone.
    let narrower = (width / total as f64) / (winner_width / winner_total as f64);
    eprintln!(
        "4 seats, 300 games, {runs} leagues: {share:.4} of {total} inside; intervals {narrower:.3} \
         of the winner-only fit's"
    );
    assert!((0.93..=0.97).contains(&share), "{share:.4} of {total}");
    assert!(narrower < 0.8, "{narrower:.3}");
}

/// DOUBLE records of three seats given as finishing orders (names first to last; `=` between two
/// names shares a place).
fn orders(games: &[&str]) -> Pool {
    let mut pool = Pool::default();
    for (i, order) in games.iter().enumerate() {
        let mut names = Vec::new();
        let mut scores = Vec::new();
        for (place, group) in order.split(' ').enumerate() {
            for name in group.split('=') {
                names.push(name);
                scores.push(place as i64);
            }
        }
        let winners: Vec<usize> = (0..names.len()).filter(|&s| scores[s] == 0).collect();
        let result = GameResult { winners, scores };
        pool.add(&Record::result_only("double", &names, i as u64, result))
            .unwrap();
    }
    pool
}

#[test]
fn an_engine_that_never_wins_is_rated_from_the_places_it_took() {
    // c never wins, but finishes ahead of a and of b: only the whole order rates it.
    let pool = orders(&["a b c", "b a c", "a c b", "b c a", "c=a b"]);
    let full = pool.rate(&Options::default()).unwrap();
    assert!(
        matches!(standing(&full, "c"), Standing::Rated { .. }),
        "{full:?}"
    );
    // Without the shared first place (a win a winner-only fit counts too), c has won nothing.
    let pool = orders(&["a b c", "b a c", "a c b", "b c a"]);
    let full = pool.rate(&Options::default()).unwrap();
    assert!(
        matches!(standing(&full, "c"), Standing::Rated { .. }),
        "{full:?}"
    );
    let winner_only = Options {
        winner_only: true,
        ..Options::default()
    };
    // The winners alone rate nobody: c took no point, so no finite ratings fit.
    let wins = pool.rate(&winner_only).unwrap();
    assert!(
        (wins.engines.iter()).all(|r| !matches!(r.standing, Standing::Rated { .. })),
        "{wins:?}"
    );
}

#[test]
fn a_faulted_game_counts_its_winners_only() {
    // The scores put c first, but a fault ended the game and a won it: the order is not the
    // scores', so only a's win counts.
    let mut pool = Pool::default();
    let result = GameResult {
        winners: vec![0],
        scores: vec![5, 3, 1],
    };
    pool.add(&Record::result_only("double", &["a", "b", "c"], 0, result))
        .unwrap();
    let kinds: Vec<_> = pool.kinds.keys().cloned().collect();
    assert_eq!(kinds, [vec![(0, 0, 0), (1, 1, 1), (2, 1, 2)]]);
}

/// The standard deviation, in Elo, of the bias an opening gives its first seat in
/// [`paired_league`].
const OPENING_BIAS: f64 = 200.0;

/// The ratings [`paired_league`]'s games measure, relative to their average: the openings'
/// biases flatten the Elo curve (a game's expected score is the curve averaged over the biases),
/// so the engines' strengths are not what any fit of the games tends to. What it tends to is the
/// fit of the expected scores themselves: every pair of engines meeting once, with the points
/// each expects over the biases (numerically integrated).
fn paired_truth(strengths: &[f64]) -> Vec<f64> {
    let n = strengths.len();
    let expected = |gap: f64| {
        let (steps, width) = (4000, 8.0 * OPENING_BIAS);
        let mut sum = 0.0;
        let mut weights = 0.0;
        for k in 0..=steps {
            let b = -width / 2.0 + width * k as f64 / steps as f64;
            let w = (-0.5 * (b / OPENING_BIAS).powi(2)).exp();
            sum += w / (1.0 + (-K * (gap + b)).exp());
            weights += w;
        }
        sum / weights
    };
    let mut games = Vec::new();
    for i in 0..n {
        for j in 0..n {
            if i != j {
                let p = expected(strengths[i] - strengths[j]);
                games.push(super::fit::Game {
                    seats: vec![(i, p), (j, 1.0 - p)],
                    positions: vec![0, 1],
                    count: 1.0,
                });
            }
        }
    }
    let fit = super::fit::fit(n, 0, &games.iter().map(Game::view).collect::<Games>(), &[]).unwrap();
    let mean = fit.elo.iter().sum::<f64>() / n as f64;
    fit.elo.iter().map(|e| e - mean).collect()
}

/// A league of two-seat games played in pairs, as `--repeat` plays them: each pair's opening
/// favours its first seat by a bias drawn for the pair (normal, [`OPENING_BIAS`] wide), and the
/// engines play both sides of it, so a pair's two results lean opposite ways and its points vary
/// less than two independent games'. Draws as in [`coverage`]. How many of the ratings the games
/// measure ([`paired_truth`]) fell inside their 95% intervals, of how many.
fn paired_league(seed: u64, pairs: usize, truth: &[f64]) -> (usize, usize) {
    let strengths = STRENGTHS;
    let (names, mut rng, mut pool) = league_start(seed);
    for pair in 0..pairs {
        let a = rng.random_range(0..strengths.len());
        let b = (a + rng.random_range(1..strengths.len())) % strengths.len();
        // A standard normal from two uniforms (Box-Muller).
        let (u, v): (f64, f64) = (rng.random::<f64>().max(1e-300), rng.random());
        let bias = OPENING_BIAS * (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos();
        for (first, second) in [(a, b), (b, a)] {
            let gap = strengths[first] + bias - strengths[second];
            let expected = 1.0 / (1.0 + (-K * gap).exp());
            let draw = expected * (1.0 - expected);
            let u: f64 = rng.random();
            let winners: &[usize] = if u < expected - draw / 2.0 {
                &[0]
            } else if u < expected + draw / 2.0 {
                &[0, 1]
            } else {
                &[1]
            };
            let at = [names[first].as_str(), names[second].as_str()];
            let mut record = finished_record(&at, winners, pair as u64);
            (record.tags).insert("tournament".into(), "game=dvonn repeat=true seed=1".into());
            pool.add(&record).unwrap();
        }
    }
    let (inside, _, _) = covered(&pool.rate(&Options::default()).unwrap(), &names, truth);
    (inside, names.len())
}

#[test]
fn paired_games_hold_the_true_ratings_about_95_percent_of_the_time() {
    let runs = leagues(1000);
    let truth = paired_truth(&STRENGTHS);
    let (mut inside, mut total) = (0, 0);
    for seed in 0..runs {
        let (i, t) = paired_league(seed, 200, &truth);
        inside += i;
        total += t;
    }
    let share = inside as f64 / total as f64;
    eprintln!("paired openings, 200 pairs, {runs} leagues: {share:.4} of {total} inside");
    assert!((0.93..=0.97).contains(&share), "{share:.4} of {total}");
}

#[test]
fn the_order_the_records_are_read_in_changes_nothing() {
    // Sharded runs read the same games in another order: the list must be the same, bit for bit
    // (two engines with equal results must not swap places on a last-bit difference).
    let games: Vec<(&[&str], &[usize])> = vec![
        (&["a", "b"], &[0]),
        (&["c", "b"], &[0]),
        (&["b", "a"], &[0]),
        (&["c", "a"], &[1]),
        (&["a", "c"], &[0, 1]),
        (&["b", "c"], &[1]),
        (&["c", "b"], &[1]),
    ];
    let forward = pool(&games).rate(&Options::default()).unwrap();
    let mut reversed = games.clone();
    reversed.reverse();
    let backward = pool(&reversed).rate(&Options::default()).unwrap();
    assert_eq!(forward, backward);
}

#[test]
fn a_single_draw_leaves_an_honest_interval() {
    // b and c drew their one game and both lost to a: equal, but nothing like certain. (The
    // observed scores' sandwich gave them no error at all.)
    let ratings = pool(&[
        (&["a", "b"], &[0]),
        (&["a", "c"], &[0]),
        (&["b", "c"], &[0, 1]),
    ])
    .rate(&Options::default())
    .unwrap();
    for name in ["b", "c"] {
        let Standing::Rated { elo, error } = standing(&ratings, name) else {
            panic!("{name} is rated");
        };
        assert!(elo.abs() < 1e-6, "{name}: {elo}");
        // Only their game is fitted (a is a bound): a share 1/(1 + 2) of draws, so the score's
        // variance is 1/4 - 1/12 = 1/6; over an information of 1/4, squared, their difference
        // has sd 1.63 in natural units, 284 Elo; each one's half of it, ± 1.96 × 142 = 278.
        assert!((error - 278.0).abs() < 1.0, "{name}: ±{error}");
    }
    assert!(matches!(standing(&ratings, "a"), Standing::AtLeast(_)));
}

#[test]
fn superiority_follows_the_ratings_and_their_intervals() {
    let beats = |winner: &'static str,
                 loser: &'static str|
     -> (&'static [&'static str], &'static [usize]) {
        match (winner, loser) {
            ("a", "b") => (&["a", "b"], &[0]),
            ("b", "a") => (&["a", "b"], &[1]),
            ("b", "c") => (&["b", "c"], &[0]),
            ("c", "b") => (&["b", "c"], &[1]),
            ("a", "c") => (&["c", "a"], &[1]),
            _ => (&["c", "a"], &[0]),
        }
    };
    let mut games = Vec::new();
    for (winner, loser, times) in [
        ("a", "b", 3),
        ("b", "a", 1),
        ("b", "c", 3),
        ("c", "b", 1),
        ("a", "c", 2),
        ("c", "a", 1),
    ] {
        games.extend(std::iter::repeat_n(beats(winner, loser), times));
    }
    let asked = Options {
        los: true,
        ..Options::default()
    };
    let ratings = pool(&games).rate(&asked).unwrap();
    let los = ratings.los.as_ref().unwrap();
    let names: Vec<&str> = ratings.engines.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["a", "b", "c"]);
    for a in 0..3 {
        assert!(los[a][a].is_nan());
        for b in (0..3).filter(|&b| b != a) {
            // Complements, and the higher-rated engine above a half.
            assert!((los[a][b] + los[b][a] - 1.0).abs() < 1e-12);
            assert_eq!(los[a][b] > 0.5, a < b, "{los:?}");
        }
    }
    // Unasked, none is worked out.
    let plain = pool(&games).rate(&Options::default()).unwrap();
    assert!(plain.los.is_none());
    assert!(plain.to_json()[0].get("los").is_none());
    assert!(ratings.to_json()[0]["los"]["c"].as_f64().unwrap() > 0.5);
}

#[test]
fn two_engines_superiority_is_the_normal_probability_of_their_gap() {
    // a wins 3 of 4 against b. Around the average each error is half the gap's: the gap's
    // standard deviation is 2 · error / z(97.5%).
    let games: [(&[&str], &[usize]); 4] = [
        (&["a", "b"], &[0]),
        (&["b", "a"], &[1]),
        (&["a", "b"], &[0]),
        (&["b", "a"], &[0]),
    ];
    let asked = Options {
        los: true,
        ..Options::default()
    };
    let ratings = pool(&games).rate(&asked).unwrap();
    let Standing::Rated { error, .. } = standing(&ratings, "a") else {
        panic!()
    };
    let gap = elo(&ratings, "a") - elo(&ratings, "b");
    let spread = 2.0 * error / Z_95;
    let expected = 0.5 * (1.0 + libm::erf(gap / spread / std::f64::consts::SQRT_2));
    let los = ratings.los.unwrap();
    assert!((los[0][1] - expected).abs() < 1e-9, "{los:?} {expected}");
    let text = pool(&games).rate(&asked).unwrap().los_table().unwrap();
    assert!(text.contains(&format!("{:.1}", 100.0 * expected)), "{text}");
}

#[test]
fn a_pairs_variance_is_the_variance_of_its_difference() {
    // Three engines and a table of three, so that the covariance has cross terms everywhere.
    let game = |seats: &[(usize, f64)], count: f64| Game {
        seats: seats.to_vec(),
        positions: (0..seats.len()).collect(),
        count,
    };
    let games = [
        game(&[(0, 1.0), (1, 0.0)], 5.0),
        game(&[(0, 0.0), (1, 1.0)], 2.0),
        game(&[(1, 1.0), (2, 0.0)], 4.0),
        game(&[(1, 0.0), (2, 1.0)], 3.0),
        game(&[(0, 0.0), (1, 0.0), (2, 1.0)], 2.0),
        game(&[(0, 1.0), (1, 0.0), (2, 0.0)], 3.0),
    ];
    let fit = super::fit::fit(3, 0, &games.iter().map(Game::view).collect::<Games>(), &[]).unwrap();
    for (i, j) in [(0, 1), (1, 2), (0, 2), (2, 1)] {
        let mut contrast = [0.0; 3];
        contrast[i] += 1.0;
        contrast[j] -= 1.0;
        let general = fit.variance(&contrast);
        assert!(general > 0.0);
        assert!((fit.difference_variance(i, j) - general).abs() < 1e-9 * general);
    }
    // Each rating less the average, and less an anchor, as the general contrast gives them.
    let average = fit.reference_variances(3, None);
    let anchored = fit.reference_variances(3, Some(2));
    for i in 0..3 {
        let mut contrast = [-1.0 / 3.0; 3];
        contrast[i] += 1.0;
        let general = fit.variance(&contrast);
        assert!((average[i] - general).abs() < 1e-9 * general, "{i}");
        let mut contrast = [0.0; 3];
        contrast[i] += 1.0;
        contrast[2] -= 1.0;
        assert!(
            (anchored[i] - fit.variance(&contrast)).abs() < 1e-9 * general,
            "{i}"
        );
    }
}

#[test]
fn two_seat_games_are_held_by_pair_seats_and_result_whatever_their_number() {
    // Five engines, every ordered pair, wins, losses and draws: at most 5 x 4 x 3 kinds, as many
    // after 20,000 games as after the first 600.
    let names = ["a", "b", "c", "d", "e"];
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut pool = Pool::default();
    let mut kinds_early = 0;
    for i in 0..20_000u64 {
        let a = rng.random_range(0..5);
        let b = (a + rng.random_range(1..5)) % 5;
        let winners = match rng.random_range(0..3) {
            0 => vec![0],
            1 => vec![1],
            _ => vec![0, 1],
        };
        pool.add(&finished_record(&[names[a], names[b]], &winners, i))
            .unwrap();
        if i == 599 {
            kinds_early = pool.kinds.len();
        }
    }
    assert_eq!(kinds_early, 60);
    assert_eq!(pool.kinds.len(), 60);
    assert_eq!(pool.finished, 20_000);
    assert!(pool.clusters.is_empty() && pool.open.is_empty());
}

/// A league of 2 to 6 seats among 40 engines (DOUBLE's orders, some tables sharing places), one
/// engine that wins every game it plays against the rest, and one that plays once: its records.
fn mixed_seat_league() -> Vec<Record> {
    let strengths: Vec<f64> = (0..40).map(|e| f64::from(e) * 15.0 - 300.0).collect();
    let names: Vec<String> = (0..40).map(|e| format!("e{e:02}")).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut records = Vec::new();
    for game in 0..3000u64 {
        let seats = rng.random_range(2..=6);
        let table = random_table(&mut rng, seats, strengths.len());
        let mut scores = luce_points(&mut rng, &strengths, &table);
        if game % 7 == 0 {
            // Two seats share the last place.
            let last = *scores.iter().max().unwrap();
            if let Some(s) = scores.iter().position(|&p| p == last - 1) {
                scores[s] = last;
            }
        }
        let winners = (0..seats).filter(|&s| scores[s] == 0).collect();
        let at: Vec<&str> = table.iter().map(|&e| names[e].as_str()).collect();
        let result = GameResult { winners, scores };
        records.push(Record::result_only("double", &at, game, result));
    }
    for game in 0..5u64 {
        let result = GameResult {
            winners: vec![0],
            scores: vec![0, 1, 2],
        };
        let at = ["top", names[game as usize].as_str(), "e39"];
        records.push(Record::result_only("double", &at, 5000 + game, result));
    }
    let result = GameResult {
        winners: vec![1],
        scores: vec![1, 0, 2],
    };
    records.push(Record::result_only(
        "double",
        &["once", "e03", "e04"],
        6000,
        result,
    ));
    records
}

#[test]
fn games_kept_in_a_file_give_the_list_they_give_in_memory_bit_for_bit() {
    let records = mixed_seat_league();
    // As text, every bit of every number (the LOS table's NaN included, which no == holds).
    let rate = |pool: &Pool, options: &Options| format!("{:?}", pool.rate(options).unwrap());
    let mut memory = Pool::default();
    // About 60 seats in memory: dozens of runs in the file.
    let mut spilled = Pool::spilling(60 * BYTES_PER_SEAT, tempfile::tempfile);
    let mut backward = Pool::spilling(60 * BYTES_PER_SEAT, tempfile::tempfile);
    for record in &records {
        memory.add(record).unwrap();
        spilled.add(record).unwrap();
    }
    for record in records.iter().rev() {
        backward.add(record).unwrap();
    }
    assert_eq!(memory.spilled(), 0);
    assert!(spilled.spilled() > 2000, "{}", spilled.spilled());
    let held = spilled.kinds.keys().filter(|kind| kind.len() > 2).count();
    assert!(held < 20, "{held}");
    let options = [
        Options::default(),
        Options {
            anchor: Some(("e20".into(), 1500.0)),
            min_games: 2,
            los: true,
            seat_advantage: true,
            ..Options::default()
        },
        Options {
            winner_only: true,
            ..Options::default()
        },
    ];
    for options in &options {
        let list = rate(&memory, options);
        assert!(list == rate(&spilled, options), "{options:?}");
        assert!(list == rate(&backward, options), "{options:?}");
    }
    let list = spilled.rate(&options[1]).unwrap();
    assert!(matches!(standing(&list, "top"), Standing::AtLeast(_)));
    assert_eq!(
        standing(&list, "once"),
        Standing::Unrated(Unrated::FewGames(2))
    );
    // Rated again, and after more games: the file is read, not used up.
    assert!(rate(&spilled, &options[0]) == rate(&memory, &options[0]));
    let more = finished_record(&["e01", "e02"], &[0], 9999);
    let mut more = Record {
        game: "double".into(),
        ..more
    };
    more.result = Some(GameResult {
        winners: vec![0],
        scores: vec![0, 1],
    });
    memory.add(&more).unwrap();
    spilled.add(&more).unwrap();
    assert!(rate(&spilled, &options[0]) == rate(&memory, &options[0]));
}

#[test]
fn a_file_that_cannot_be_made_is_a_clear_error() {
    let mut pool = Pool::spilling(BYTES_PER_SEAT, || {
        Err(io::Error::new(io::ErrorKind::PermissionDenied, "no room"))
    });
    let error = (mixed_seat_league().iter())
        .find_map(|record| pool.add(record).err())
        .unwrap();
    assert_eq!(
        error.to_string(),
        "cannot keep the games of more than two seats in a temporary file: no room"
    );
}

#[test]
fn a_file_that_cannot_be_read_back_refuses_the_list() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static MADE: AtomicUsize = AtomicUsize::new(0);
    // The runs' file as it should be; the merged one can be written and not read.
    fn make() -> io::Result<File> {
        match MADE.fetch_add(1, Ordering::SeqCst) {
            0 => tempfile::tempfile(),
            _ => {
                let path =
                    std::env::temp_dir().join(format!("referee-write-only-{}", std::process::id()));
                let file = File::create(&path)?;
                std::fs::remove_file(&path)?;
                Ok(file)
            }
        }
    }
    let mut pool = Pool::spilling(60 * BYTES_PER_SEAT, make);
    for record in &mixed_seat_league() {
        pool.add(record).unwrap();
    }
    assert!(pool.spilled() > 0);
    let error = pool.rate(&Options::default()).unwrap_err().to_string();
    assert!(
        error.starts_with("cannot keep the games of more than two seats in a temporary file"),
        "{error}"
    );
}
