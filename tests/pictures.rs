//! SVG pictures: well formed, and showing what the position holds.

// The engines these tests run, and what they look at (/proc, bubblewrap), are Linux's.
#![cfg(target_os = "linux")]

use referee::records::replay::Replay;
use referee::render::board::Picture;
use referee::rules::AnyGame;
use referee::rules::game::{Game, Setup, Viewer};

/// A game of `id` played some plies in, the chance plies drawn from the seed.
fn position(id: &str, variant: Option<&str>, seats: usize, plies: usize) -> AnyGame {
    let setup = Setup {
        variant: variant.map(str::to_owned),
        seats: Some(seats),
        seed: 17,
        layout: None,
    };
    let mut replay = Replay::new(id, &setup).unwrap();
    replay.settle_chance();
    for i in 0..plies {
        let mut moves = Vec::new();
        replay.game().legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let mv = moves[(i * 7919) % moves.len()].to_string();
        replay.play(&mv).unwrap();
        replay.settle_chance();
    }
    replay.game().clone()
}

/// How many elements carry exactly this class, in a well-formed SVG.
fn count(svg: &str, class: &str) -> usize {
    let doc = roxmltree::Document::parse(svg).expect("well-formed SVG");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    doc.descendants()
        .filter(|n| n.attribute("class") == Some(class))
        .count()
}

/// The numbers written right after each element of `class` (pawn counts, stack heights).
fn numbers_after(svg: &str, class: &str) -> Vec<u32> {
    let doc = roxmltree::Document::parse(svg).unwrap();
    // In document order, through the groups that name cells (`data-mark`).
    let elements: Vec<_> = doc
        .descendants()
        .filter(|n| n.is_element() && n.tag_name().name() != "g")
        .collect();
    elements
        .iter()
        .enumerate()
        .filter(|(_, n)| n.attribute("class") == Some(class))
        .filter_map(|(i, _)| {
            elements[i + 1..]
                .iter()
                .find(|n| n.tag_name().name() == "text")
        })
        .filter_map(|t| t.text()?.parse().ok())
        .collect()
}

#[test]
fn dvonn_shows_every_stack_with_its_top_and_height() {
    let game = position("dvonn", None, 2, 70);
    let AnyGame::Dvonn(dvonn) = &game else {
        unreachable!()
    };
    let svg = game.svg(Viewer::Everyone);
    let stacks = dvonn.stacks();
    let tops = |c: char| {
        stacks
            .split(' ')
            .filter(|s| s.split(':').nth(1).is_some_and(|t| t.starts_with(c)))
            .count()
    };
    assert_eq!(count(&svg, "stack white"), tops('W'));
    assert_eq!(count(&svg, "stack black"), tops('B'));
    assert_eq!(count(&svg, "stack dvonn"), tops('D'));
    // The heights written on the white stacks add up to white's score.
    let heights: u32 = numbers_after(&svg, "stack white").iter().sum();
    assert_eq!(i64::from(heights), game.scores()[0]);
}

#[test]
fn double_dutch_shows_flat_and_flipped_pieces_of_every_seat() {
    let game = position("double-dutch", None, 3, 20);
    let svg = game.svg(Viewer::Everyone);
    for seat in 0..3 {
        let on_board = count(&svg, &format!("piece flat seat{seat}"))
            + count(&svg, &format!("piece flipped seat{seat}"));
        assert_eq!(on_board as i64, game.scores()[seat], "seat {seat}");
    }
    assert!(count(&svg, "piece flipped seat0") + count(&svg, "piece flipped seat1") > 0);
    assert_eq!(count(&svg, "cell"), 49);
}

#[test]
fn pegs_shows_the_cross_the_corner_spaces_and_the_pegs() {
    let game = position("pegs", Some("turbo"), 2, 15);
    let svg = game.svg(Viewer::Everyone);
    assert_eq!(count(&svg, "hole") + count(&svg, "corner"), 33);
    assert_eq!(count(&svg, "corner"), 4);
    assert_eq!(count(&svg, "peg south") as i64, game.scores()[0]);
    assert_eq!(count(&svg, "peg north") as i64, game.scores()[1]);
}

#[test]
fn wyx_shows_strong_squares_pawns_knights_and_the_rack() {
    let game = position("wyx", None, 2, 12);
    let svg = game.svg(Viewer::Everyone);
    assert_eq!(count(&svg, "strong"), 12);
    assert_eq!(count(&svg, "knight white") + count(&svg, "knight black"), 2);
    let white: u32 = numbers_after(&svg, "pawns white").iter().sum();
    let black: u32 = numbers_after(&svg, "pawns black").iter().sum();
    assert_eq!([i64::from(white), i64::from(black)], game.scores()[..]);
    assert_eq!(
        count(&svg, "domino"),
        64 - 12,
        "the dominoes still in the rack"
    );
}

#[test]
fn double_shows_the_ends_and_only_the_hands_a_seat_may_see() {
    let game = position("double", None, 4, 12);
    let text = game.render(Viewer::Everyone);
    let sizes: Vec<usize> = text
        .lines()
        .filter(|l| l.starts_with("seat "))
        .map(|l| {
            l.split(" cards")
                .next()
                .unwrap()
                .rsplit(' ')
                .next()
                .unwrap()
                .parse()
                .unwrap()
        })
        .collect();
    assert_eq!(sizes.len(), 4);
    let everyone = game.svg(Viewer::Everyone);
    assert_eq!(count(&everyone, "card"), 2 + sizes.iter().sum::<usize>());
    assert_eq!(count(&everyone, "hidden"), 0);
    let seat1 = game.svg(Viewer::Seat(1));
    assert_eq!(count(&seat1, "card"), 2 + sizes[1]);
    assert_eq!(
        count(&seat1, "hidden"),
        sizes.iter().sum::<usize>() - sizes[1]
    );
}

#[test]
fn double_names_each_hand_after_its_engine_escaped_and_cut_short() {
    let game = position("double", None, 3, 6);
    let names = ["alice", "<b>&bob", "a-very-long-engine-name-indeed"].map(String::from);
    let svg = game.svg_named(Viewer::Everyone, &names);
    let doc = roxmltree::Document::parse(&svg).expect("well-formed SVG");
    let labels: Vec<&str> = (doc.descendants())
        .filter(roxmltree::Node::is_element)
        .filter_map(|n| n.text())
        .filter(|t| t.contains(" cards, "))
        .collect();
    assert_eq!(labels.len(), 3, "{svg}");
    assert!(labels[0].starts_with("alice: "), "{labels:?}");
    assert!(labels[1].starts_with("<b>&bob: "), "{labels:?}");
    assert!(labels[2].starts_with("a-very-long-eng…: "), "{labels:?}");
    assert!(!svg.contains("seat "), "{svg}");
    // Without names, the seats' numbers.
    assert!(game.svg(Viewer::Everyone).contains("seat 0: "));
}
