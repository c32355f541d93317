//! The built-in strategies: the search bot beats the random bot, and deeper search beats shallower.

// The engines these tests run, and what they look at (/proc, bubblewrap), are Linux's.
#![cfg(target_os = "linux")]

use std::time::{Duration, Instant};

use referee::bots::ismcts::perfect_information;
use referee::bots::search::{Budget, search};
use referee::bots::{Strategy, choose};
use referee::rules::AnyGame;
use referee::rules::game::{Actor, Game, Outcome, Setup};

/// How a side chooses in these games: a random move, or a search of fixed depth (no clock, so the
/// games are the same on every machine).
#[derive(Clone, Copy)]
enum Side {
    Random,
    Depth(u32),
    Playouts(u64),
}

/// Plays one game of `id` (`variant`, as many seats as `sides`); returns the outcome.
fn play_game(id: &str, variant: Option<&str>, sides: &[Side], seed: u64) -> Outcome {
    let setup = Setup {
        variant: variant.map(str::to_owned),
        seats: Some(sides.len()),
        seed,
        layout: None,
    };
    let mut game = AnyGame::create(id, &setup).unwrap();
    let mut history = Vec::new();
    while let Some(Actor::Seat(seat)) = game.to_move() {
        let mv = match sides[seat] {
            Side::Random => choose(
                Strategy::Random,
                &game,
                &history,
                seed + seat as u64,
                Duration::ZERO,
            ),
            Side::Depth(depth) => {
                let budget = Budget {
                    deadline: Instant::now() + Duration::from_secs(3600),
                    max_depth: depth,
                    max_nodes: u64::MAX,
                };
                search(&game, budget, seed).map(|found| found.best)
            }
            Side::Playouts(n) => {
                let far = Instant::now() + Duration::from_secs(3600);
                perfect_information(&game, far, n, seed + history.len() as u64).map(|s| s.best)
            }
        }
        .unwrap();
        game.try_play(&mv).unwrap();
        history.push(mv.to_string());
    }
    game.outcome()
}

/// Games of `id` won by a depth-`depth` search against random bots in every other seat, the
/// search taking each seat in turn.
fn search_wins(id: &str, variant: Option<&str>, seats: usize, depth: u32, games: u64) -> u64 {
    (0..games)
        .filter(|&g| {
            let seat = (g as usize) % seats;
            let mut sides = vec![Side::Random; seats];
            sides[seat] = Side::Depth(depth);
            play_game(id, variant, &sides, g) == Outcome::Winners(vec![seat])
        })
        .count() as u64
}

/// Games of 3-seat Double Dutch won by Monte Carlo with `playouts` against two random bots.
fn monte_carlo_wins(playouts: u64, games: u64) -> u64 {
    (0..games)
        .filter(|&g| {
            let seat = (g % 3) as usize;
            let mut sides = vec![Side::Random; 3];
            sides[seat] = Side::Playouts(playouts);
            play_game("double-dutch", None, &sides, g) == Outcome::Winners(vec![seat])
        })
        .count() as u64
}

#[test]
fn search_beats_random_in_every_two_seat_game() {
    for (id, variant) in [
        ("double-dutch", None),
        ("pegs", Some("standard")),
        ("pegs", Some("turbo")),
        ("wyx", None),
        ("wyx", Some("double")),
    ] {
        let won = search_wins(id, variant, 2, 2, 20);
        assert!(won >= 18, "{id} {variant:?}: search won {won} of 20");
    }
}

#[test]
fn monte_carlo_beats_random_in_three_seat_double_dutch() {
    let won = monte_carlo_wins(5000, 20);
    assert!(
        won >= 18,
        "Monte Carlo won {won} of 20 against two random bots"
    );
}

#[test]
#[ignore = "a measurement"]
fn measure_three_seat_monte_carlo() {
    for playouts in [50, 200, 1000, 5000] {
        let won = monte_carlo_wins(playouts, 100);
        println!("double-dutch 3 seats, {playouts} playouts: {won} of 100");
    }
}

#[test]
#[ignore = "a measurement: cargo test --release --test bots -- --ignored --nocapture"]
fn measure_search_against_random() {
    for (id, variant, seats) in [
        ("dvonn", None, 2),
        ("double-dutch", None, 2),
        ("double-dutch", None, 3),
        ("pegs", Some("standard"), 2),
        ("pegs", Some("turbo"), 2),
        ("wyx", None, 2),
        ("wyx", Some("double"), 2),
    ] {
        for depth in [1, 2, 3] {
            let won = search_wins(id, variant, seats, depth, 100);
            println!("{id} {variant:?} {seats} seats, depth {depth}: {won} of 100");
        }
    }
}

#[test]
fn search_beats_random_in_at_least_90_percent_of_games() {
    let won = search_wins("dvonn", None, 2, 2, 20);
    assert!(won >= 18, "search won {won} of 20");
}

#[test]
fn deeper_search_beats_shallower_search() {
    // With no randomness both sides repeat themselves, so vary the games by a random opening:
    // each game starts from a position after a few random placements.
    let mut deeper = 0;
    let games = 8;
    for g in 0..games {
        let mut game = AnyGame::create("dvonn", &Setup::default()).unwrap();
        let mut history = Vec::new();
        for _ in 0..6 {
            let mv = choose(Strategy::Random, &game, &history, g, Duration::ZERO).unwrap();
            game.try_play(&mv).unwrap();
            history.push(mv.to_string());
        }
        let deep_seat = (g % 2) as usize;
        while let Some(Actor::Seat(seat)) = game.to_move() {
            let depth = if seat == deep_seat { 3 } else { 1 };
            let budget = Budget {
                deadline: Instant::now() + Duration::from_secs(3600),
                max_depth: depth,
                max_nodes: u64::MAX,
            };
            let mv = search(&game, budget, g).unwrap().best;
            game.try_play(&mv).unwrap();
        }
        if game.outcome() == Outcome::Winners(vec![deep_seat]) {
            deeper += 1;
        }
    }
    assert!(
        deeper * 4 >= games * 3,
        "depth 3 won {deeper} of {games} against depth 1"
    );
}
