//! The tensors' shapes, ranges and layouts, on random games of every game and variant.

use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::features::Features;
use crate::rules::game::{Actor, Game, Setup};
use crate::rules::{AnyGame, GAMES};

/// Every game, variant and seat count the rules allow: (id, variant, seats), the default
/// variant as None.
fn every_setup() -> Vec<(&'static str, Option<&'static str>, usize)> {
    let mut setups = Vec::new();
    for &id in GAMES {
        let allowed = AnyGame::allowed(id).expect("every listed game has its rules");
        let variants = std::iter::once(None).chain(allowed.variants.iter().copied().map(Some));
        for variant in variants {
            setups.extend(allowed.seats.iter().map(|&seats| (id, variant, seats)));
        }
    }
    setups
}

fn create(id: &str, variant: Option<&str>, seats: usize, seed: u64) -> AnyGame {
    let setup = Setup {
        variant: variant.map(str::to_owned),
        seats: Some(seats),
        seed,
        layout: None,
    };
    AnyGame::create(id, &setup).expect("every listed game sets up")
}

/// Every position of a random game, the start first.
fn positions(game: AnyGame, rng: &mut impl Rng) -> Vec<AnyGame> {
    let mut game = game;
    let mut seen = vec![game.clone()];
    let mut moves = Vec::new();
    while game.to_move().is_some() {
        moves.clear();
        game.legal_moves(&mut moves);
        let mv = *moves.choose(rng).expect("a game that goes on has a move");
        game.play_unchecked(&mv);
        seen.push(game.clone());
    }
    seen
}

fn features(game: &AnyGame, viewer: usize) -> Vec<f32> {
    let mut out = vec![9.0; 3];
    game.features(viewer, &mut out);
    out
}

/// The sum of plane `plane` of a tensor of `shape`.
fn plane_sum(values: &[f32], shape: &[usize], plane: usize) -> f32 {
    let size = shape[1] * shape[2];
    values[plane * size..(plane + 1) * size].iter().sum()
}

#[test]
fn every_position_fills_its_shape_with_numbers_from_0_to_1() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let setups = every_setup();
    assert!(setups.len() >= 12, "{setups:?}");
    for (id, variant, seats) in setups {
        let start = create(id, variant, seats, 7);
        let shape = start.shape();
        for game in positions(start, &mut rng) {
            assert_eq!(game.shape(), shape, "{id}: the shape never changes");
            for viewer in 0..seats {
                let values = features(&game, viewer);
                assert_eq!(values.len(), shape.iter().product::<usize>(), "{id}");
                assert!(
                    values.iter().all(|v| (0.0..=1.0).contains(v)),
                    "{id}: {values:?}"
                );
            }
        }
    }
}

#[test]
fn the_seat_to_move_is_counted_from_the_viewer() {
    let game = create("double-dutch", None, 3, 0);
    let shape = game.shape();
    // Seat 0 is to move: the first mover plane for seat 0, the third (two seats on) for seat 1.
    for (viewer, plane) in [(0, 7), (1, 9), (2, 8)] {
        let values = features(&game, viewer);
        assert_eq!(plane_sum(&values, &shape, plane), 49.0, "viewer {viewer}");
        let set = (7..10)
            .filter(|&p| plane_sum(&values, &shape, p) > 0.0)
            .count();
        assert_eq!(set, 1, "viewer {viewer}");
    }
}

#[test]
fn dvonn_shows_its_49_cells_and_its_placing_phase() {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let start = create("dvonn", None, 2, 0);
    let shape = start.shape();
    let all = positions(start, &mut rng);
    let values = features(&all[0], 0);
    assert_eq!(plane_sum(&values, &shape, 0), 49.0);
    assert_eq!(
        plane_sum(&values, &shape, 6),
        55.0,
        "placing, the whole plane"
    );
    // After the 49 placements: 46 pieces topped by a seat (23 each), 3 DVONN pieces alone.
    let placed = features(&all[49], 0);
    assert_eq!(plane_sum(&placed, &shape, 1), 23.0);
    assert_eq!(plane_sum(&placed, &shape, 2), 23.0);
    assert_eq!(plane_sum(&placed, &shape, 3), 3.0);
    assert_eq!(plane_sum(&placed, &shape, 6), 0.0);
    // Each seat sees its own pieces first.
    let other = features(&all[49], 1);
    let size = 55;
    assert_eq!(placed[size..2 * size], other[2 * size..3 * size]);
}

#[test]
fn pegs_turns_the_board_so_that_each_seat_moves_up() {
    // The start is the same for both seats, each seeing its own pegs on the rows it starts on.
    let game = create("pegs", Some("standard"), 2, 0);
    let (south, north) = (features(&game, 0), features(&game, 1));
    let size = 49;
    assert_eq!(south[size..3 * size], north[size..3 * size]);
    assert_eq!(south[..size], north[..size], "the cross either way up");
    // South's first row holds its pegs c1, d1 and e1.
    assert_eq!(south[size..size + 7], [0.0, 0.0, 1.0, 1.0, 1.0, 0.0, 0.0]);
}

#[test]
fn wyx_shows_the_colour_each_seat_plays() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let start = create("wyx", Some("double"), 2, 4);
    let shape = start.shape();
    let all = positions(start, &mut rng);
    let second = all
        .iter()
        .find(|g| plane_sum(&features(g, 0), &shape, 12) > 0.0)
        .expect("Double Wyx plays a second round");
    // In each round a seat's knight plane is its colour's knight.
    for game in [&all[0], second] {
        let AnyGame::Wyx(wyx) = game else {
            panic!("a Wyx game")
        };
        for viewer in 0..2 {
            let knight = wyx.knight(wyx.colour_of(viewer));
            let at = 2 * 64 + knight.rank() as usize * 8 + knight.file() as usize;
            assert_eq!(features(game, viewer)[at], 1.0);
        }
    }
    // The full rack at the start: 64 dominoes.
    assert_eq!(plane_sum(&features(&all[0], 0), &shape, 5), 64.0);
}

#[test]
fn double_shows_the_viewers_hand_and_only_the_size_of_the_others() {
    let mut game = create("double", None, 3, 5);
    while game.to_move() == Some(Actor::Chance) {
        let mv = game.seeded_chance(5).expect("chance draws a card");
        game.play_unchecked(&mv);
    }
    let AnyGame::Double(double) = &game else {
        panic!("a DOUBLE game")
    };
    for viewer in 0..3 {
        let values = features(&game, viewer);
        let held: Vec<usize> = (0..72).filter(|&i| values[i] == 1.0).collect();
        let mut hand: Vec<usize> = double.hand(viewer).iter().map(|c| c.index()).collect();
        hand.sort_unstable();
        assert_eq!(held, hand, "viewer {viewer} sees its own hand");
        let sizes = &values[253..256];
        assert_eq!(sizes, [6.0 / 72.0; 3], "six cards each after the deal");
    }
}
