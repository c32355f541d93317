//! DVONN rules checked against reference data: 100 random games, perft counts, a real CodeCup game.

// The engines these tests run, and what they look at (/proc, bubblewrap), are Linux's.
#![cfg(target_os = "linux")]

use referee::rules::dvonn::{Dvonn, Move};
use referee::rules::game::{Game, Outcome, perft};
use serde_json::Value;

fn play_all(moves: &str) -> Dvonn {
    let mut game = Dvonn::start();
    for (ply, text) in moves.split_whitespace().enumerate() {
        let mv = game.parse_move(text).expect("fixture moves parse");
        if let Err(e) = game.try_play(&mv) {
            panic!("ply {ply}: {e}");
        }
    }
    game
}

fn sorted_legal(game: &Dvonn) -> Vec<String> {
    let mut moves: Vec<Move> = Vec::new();
    game.legal_moves(&mut moves);
    let mut texts: Vec<String> = moves.iter().map(Move::to_string).collect();
    texts.sort();
    texts
}

#[test]
fn random_games_replay_with_every_legal_move_list() {
    let data = std::fs::read_to_string("fixtures/dvonn/random-games-100.jsonl").unwrap();
    let mut games = 0;
    for line in data.lines() {
        let fixture: Value = serde_json::from_str(line).unwrap();
        let id = fixture["id"].as_str().unwrap();
        let moves: Vec<&str> = fixture["moves"].as_str().unwrap().split(' ').collect();
        let nlegal = fixture["nlegal"].as_array().unwrap();
        let movement_legal = fixture["movement_legal"].as_array().unwrap();
        let removed = fixture["pieces_removed_per_movement_ply"]
            .as_array()
            .unwrap();
        assert_eq!(moves.len(), nlegal.len(), "{id}");
        let mut game = Dvonn::start();
        for (ply, text) in moves.iter().enumerate() {
            assert_eq!(
                game.count_legal() as u64,
                nlegal[ply].as_u64().unwrap(),
                "{id} ply {ply}: number of legal moves"
            );
            assert_eq!(
                sorted_legal(&game).len(),
                game.count_legal(),
                "{id} ply {ply}"
            );
            if ply >= 49 {
                let expected: Vec<&str> = movement_legal[ply - 49]
                    .as_str()
                    .unwrap()
                    .split(',')
                    .collect();
                assert_eq!(sorted_legal(&game), expected, "{id} ply {ply}: legal moves");
            }
            let mv = game.parse_move(text).unwrap();
            game.try_play(&mv)
                .unwrap_or_else(|e| panic!("{id} ply {ply}: {e}"));
            if ply >= 49 {
                assert_eq!(
                    u64::from(game.removed_by_last_move()),
                    removed[ply - 49].as_u64().unwrap(),
                    "{id} ply {ply}: pieces removed"
                );
            }
        }
        assert_eq!(game.to_move(), None, "{id}: the game is over");
        let scores = game.scores();
        assert_eq!(scores[0], fixture["score_white"].as_i64().unwrap(), "{id}");
        assert_eq!(scores[1], fixture["score_black"].as_i64().unwrap(), "{id}");
        let expected = match fixture["result"].as_str().unwrap() {
            "white" => Outcome::Winners(vec![0]),
            "black" => Outcome::Winners(vec![1]),
            _ => Outcome::Draw,
        };
        assert_eq!(game.outcome(), expected, "{id}");
        let mut stacks: Vec<&str> = fixture["final_stacks"]
            .as_str()
            .unwrap()
            .split(' ')
            .collect();
        stacks.sort_unstable();
        let actual = game.stacks();
        let mut actual: Vec<&str> = actual.split(' ').collect();
        actual.sort_unstable();
        assert_eq!(actual, stacks, "{id}: final stacks");
        games += 1;
    }
    assert_eq!(games, 100);
}

/// Rows of `perft.tsv`: (root name, move prefix, counts for depths 1..=5).
fn perft_rows() -> Vec<(String, String, Vec<u64>)> {
    let data = std::fs::read_to_string("fixtures/dvonn/perft.tsv").unwrap();
    data.lines()
        .skip(1)
        .map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            let counts = cols[3..8].iter().map(|c| c.parse().unwrap()).collect();
            (cols[0].to_owned(), cols[9].to_owned(), counts)
        })
        .collect()
}

#[test]
fn perft_to_depth_3() {
    let rows = perft_rows();
    assert_eq!(rows.len(), 4);
    for (root, prefix, counts) in rows {
        let game = play_all(&prefix);
        for depth in 1..=3 {
            assert_eq!(
                perft(&game, depth),
                counts[depth as usize - 1],
                "{root} depth {depth}"
            );
        }
    }
}

/// Depth 4 is 2.5 to 5 million leaves per root: quick in release, slow-ish in debug builds.
#[test]
fn perft_depth_4() {
    for (root, prefix, counts) in perft_rows() {
        let game = play_all(&prefix);
        assert_eq!(perft(&game, 4), counts[3], "{root} depth 4");
    }
}

/// Seconds with the optimised test profile (`[profile.test]` in Cargo.toml).
#[test]
fn perft_depth_5() {
    for (root, prefix, counts) in perft_rows() {
        let game = play_all(&prefix);
        assert_eq!(perft(&game, 5), counts[4], "{root} depth 5");
    }
}

#[test]
fn codecup_game_replays_move_for_move() {
    let text = std::fs::read_to_string("fixtures/dvonn/codecup-2011-game-53360.txt").unwrap();
    let moves = text.trim().strip_prefix("game 53360:").unwrap();
    let game = play_all(moves);
    assert_eq!(game.ply(), moves.split_whitespace().count());
    // The last ply is a forced PASS, and the game goes on: the other player still has moves.
    assert!(moves.trim_end().ends_with("PASS"));
    assert_eq!(game.outcome(), Outcome::Ongoing);
}
