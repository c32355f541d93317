//! The built-in strategies: the search bot beats the random bot, and deeper search beats shallower.

use std::time::{Duration, Instant};

use referee::bots::search::{Budget, search};
use referee::bots::{Strategy, choose};
use referee::game::{Actor, Game, Outcome, Setup};
use referee::games::AnyGame;

/// How a side chooses in these games: a random move, or a search of fixed depth (no clock, so the
/// games are the same on every machine).
#[derive(Clone, Copy)]
enum Side {
    Random,
    Depth(u32),
}

/// Plays one DVONN game; returns the outcome.
fn play(sides: [Side; 2], seed: u64) -> Outcome {
    let mut game = AnyGame::create("dvonn", &Setup::default()).unwrap();
    let mut history = Vec::new();
    while let Some(Actor::Seat(seat)) = game.to_move() {
        let mv = match sides[seat] {
            Side::Random => choose(Strategy::Random, &game, &history, seed, Duration::ZERO),
            Side::Depth(depth) => {
                let budget = Budget {
                    deadline: Instant::now() + Duration::from_secs(3600),
                    max_depth: depth,
                };
                search(&game, budget, seed).map(|found| found.best)
            }
        }
        .unwrap();
        game.try_play(&mv).unwrap();
        history.push(mv.to_string());
    }
    game.outcome()
}

/// Games won by `first` out of `games`, playing each seat half the time.
fn wins(first: Side, second: Side, games: u64) -> u64 {
    (0..games)
        .filter(|&g| {
            let seat = (g % 2) as usize;
            let sides = if seat == 0 {
                [first, second]
            } else {
                [second, first]
            };
            play(sides, g) == Outcome::Winners(vec![seat])
        })
        .count() as u64
}

#[test]
fn search_beats_random_in_at_least_90_percent_of_games() {
    let won = wins(Side::Depth(2), Side::Random, 20);
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
