//! DOUBLE's picture: the snake's two ends, then each seat's hand as the viewer may see it.

use super::Picture;
use crate::render::svg::Svg;
use crate::rules::Game;
use crate::rules::double::{Card, Double, Move};
use crate::rules::game::{Actor, Viewer};

/// At most ten cards a row, so any hand fits a 1280 px wide page.
const PER_ROW: usize = 10;

/// Fill colours of the sectors.
fn sector_fill(sector: u8) -> &'static str {
    match sector {
        b'R' => "#d33",
        b'Y' => "#e6c229",
        b'B' => "#3366cc",
        b'G' => "#2e9e4f",
        b'J' => "#111",
        _ => "#bbb",
    }
}

/// Draws a card as three sectors at (`x`, `y`), with its number above.
fn card(svg: &mut Svg, x: f64, y: f64, card: Card, sectors: [u8; 3]) {
    let laid = std::str::from_utf8(&sectors).unwrap_or_default();
    let key = format_args!("{card} {laid}");
    svg.part(key, x, y, Some(&card), |svg| {
        svg.rect(-2.0, -2.0, 94.0, 34.0, "#fff", "#333", "card");
        for (i, &s) in sectors.iter().enumerate() {
            let sx = i as f64 * 30.0;
            svg.rect(sx, 0.0, 30.0, 30.0, sector_fill(s), "#fff", "sector");
            if s == b'J' || s == b'H' {
                svg.text(sx + 15.0, 15.0, 14.0, "#fff", &(s as char).to_string());
            }
        }
        svg.text(45.0, -9.0, 10.0, "#555", &card.to_string());
    });
}

/// Draws `seat`'s hand in the row starting at `y`: the cards when `shown`, their backs if not.
fn hand(svg: &mut Svg, game: &Double, seat: usize, y: f64, shown: bool) {
    let (cards, total) = (game.hand(seat), game.total(seat));
    // A move changes one hand at most: the others are drawn as they were. (The row's `y` by its
    // bits: exact, and cheaper to write than the float.)
    let name = svg.seat_name(seat);
    let key = format_args!("{name} {} {shown} {total} {}", y.to_bits(), Hand(cards));
    svg.group(key, |svg| draw_hand(svg, cards, total, &name, y, shown));
}

/// The cards of a hand, a character each, for a key.
struct Hand<'a>(&'a [Card]);

impl std::fmt::Display for Hand<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use std::fmt::Write as _;
        self.0
            .iter()
            .try_for_each(|c| f.write_char(char::from(b'0'.wrapping_add(c.0))))
    }
}

/// The hand's summary, then its cards or their backs.
fn draw_hand(svg: &mut Svg, cards: &[Card], total: u32, name: &str, y: f64, shown: bool) {
    let summary = format!("{name}: {} cards, {total} pts", cards.len());
    svg.label(15.0, y + 15.0, 12.0, &summary);
    if !shown {
        for i in 0..cards.len() {
            let x = 170.0 + i as f64 * 24.0;
            svg.part(format_args!("back"), x, y, None, |svg| {
                svg.rect(0.0, 0.0, 20.0, 30.0, "#668", "#333", "hidden");
            });
        }
        return;
    }
    let mut sorted = cards.to_vec();
    sorted.sort();
    for (i, c) in sorted.iter().enumerate() {
        let (row, column) = (i / PER_ROW, i % PER_ROW);
        let (x, card_y) = (170.0 + column as f64 * 100.0, y + row as f64 * 48.0);
        card(svg, x, card_y, *c, c.laid(false));
    }
}

/// Rows of cards `seat`'s hand takes on the picture.
fn rows(game: &Double, viewer: Viewer, seat: usize) -> usize {
    match shown(viewer, seat) {
        true => game.hand(seat).len().max(1).div_ceil(PER_ROW),
        false => 1,
    }
}

/// Whether `viewer` sees `seat`'s cards.
fn shown(viewer: Viewer, seat: usize) -> bool {
    viewer == Viewer::Everyone || viewer == Viewer::Seat(seat)
}

impl Picture for Double {
    fn size(&self, viewer: Viewer) -> (f64, f64) {
        let seats = self.seats();
        let widest = (0..seats)
            .map(|s| self.hand(s).len().min(PER_ROW))
            .max()
            .unwrap_or(0)
            .max(6);
        let width = 180.0 + widest as f64 * 100.0;
        let height = 120.0
            + (0..seats)
                .map(|s| rows(self, viewer, s) as f64 * 48.0 + 14.0)
                .sum::<f64>();
        (width.max(520.0), height)
    }

    fn draw(&self, viewer: Viewer, svg: &mut Svg) {
        let status = self.status();
        let named = match self.to_move() {
            Some(Actor::Seat(seat)) => (status.strip_suffix(&format!("seat {seat} to act")))
                .map(|head| format!("{head}{} to act", svg.seat_name(seat))),
            _ => None,
        };
        svg.label(15.0, 18.0, 14.0, named.as_deref().unwrap_or(&status));
        match self.ends() {
            Some([left, right]) => {
                svg.label(15.0, 60.0, 13.0, "left end");
                card(svg, 90.0, 45.0, left.card, left.sectors);
                svg.label(215.0, 60.0, 13.0, "right end");
                card(svg, 295.0, 45.0, right.card, right.sectors);
            }
            None => svg.label(15.0, 60.0, 13.0, "the snake is not started"),
        }
        svg.label(420.0, 60.0, 13.0, &format!("stock {}", self.stock_size()));
        let mut y = 120.0;
        for seat in 0..self.seats() {
            hand(svg, self, seat, y, shown(viewer, seat));
            y += rows(self, viewer, seat) as f64 * 48.0 + 14.0;
        }
    }

    fn marks(&self, mv: &Move) -> Vec<String> {
        match mv {
            Move::Start { card }
            | Move::Cover { card, .. }
            | Move::Single { card, .. }
            | Move::Unsaid { card, .. } => vec![card.to_string()],
            _ => Vec::new(),
        }
    }

    fn legend(&self) -> &'static str {
        "Cards show their three sectors left to right as they lie: red, yellow, blue, green; J a \
         joker, H a hatched sector (both match anything). The snake's two ends are on top; a seat's \
         points are its total so far, the lowest total wins."
    }
}
