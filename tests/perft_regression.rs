//! Perft counts of `fixtures/perft.tsv`: each game's move generation, frozen as a regression guard.

// The engines these tests run, and what they look at (/proc, bubblewrap), are Linux's.
#![cfg(target_os = "linux")]

use referee::rules::game::{Game, Setup};
use referee::rules::{AnyGame, perft};

#[test]
fn perft_counts_match_the_fixture() {
    let data = std::fs::read_to_string("fixtures/perft.tsv").unwrap();
    let mut rows = 0;
    for line in data.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (game_id, variant, seats) = (cols[0], cols[1], cols[2].parse().unwrap());
        let setup = Setup {
            variant: (variant != "-").then(|| variant.to_owned()),
            seats: Some(seats),
            seed: 0,
            layout: (cols[3] != "-").then(|| cols[3].to_owned()),
        };
        let mut game = AnyGame::create(game_id, &setup).unwrap();
        for text in cols.get(5).unwrap_or(&"").split_whitespace() {
            let mv = game.parse_move(text).unwrap();
            game.try_play(&mv).unwrap();
        }
        for (depth, expected) in cols[4].split(',').enumerate() {
            let expected: u64 = expected.parse().unwrap();
            // Deep rows are for release builds and `cargo bench`; debug checks stay quick.
            if expected > 500_000 {
                break;
            }
            assert_eq!(
                perft(&game, depth as u32 + 1),
                expected,
                "{line} depth {}",
                depth + 1
            );
        }
        rows += 1;
    }
    assert!(rows >= 10);
}
