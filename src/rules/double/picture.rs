//! DOUBLE's pictures: the position as text and as SVG, each for the eyes of one viewer.

use std::fmt::Write as _;

use super::Double;
use super::cards::{Card, sectors};
use crate::rules::game::{Actor, Game, Viewer};

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

impl Double {
    /// The position as text: status, the snake's ends, each hand as `viewer` may see it.
    pub(super) fn text(&self, viewer: Viewer) -> String {
        let status = match self.to_move() {
            None => format!("game over, {}", self.outcome()),
            Some(Actor::Chance) => "cards leave the stock".to_owned(),
            Some(Actor::Seat(seat)) => format!("seat {seat} to act"),
        };
        let mut text = format!(
            "double round {} ply {}: {status}\n",
            self.round + 1,
            self.ply
        );
        match self.ends {
            Some([left, right]) => {
                let _ = writeln!(
                    text,
                    "snake ends: left {}:{}  right {}:{}",
                    left.card,
                    sectors(left.sectors),
                    right.card,
                    sectors(right.sectors)
                );
            }
            None => text.push_str("snake: not started\n"),
        }
        for seat in 0..usize::from(self.seats) {
            let hand = &self.hands[seat];
            let shown = viewer == Viewer::Everyone || viewer == Viewer::Seat(seat);
            let mut cards: Vec<Card> = hand.clone();
            cards.sort();
            let cards = if shown {
                cards
                    .iter()
                    .map(|c| format!("{c}:{}", sectors(c.laid(false))))
                    .collect::<Vec<_>>()
                    .join(" ")
            } else {
                "(hidden)".to_owned()
            };
            let dealer = if seat == usize::from(self.dealer) {
                ", dealer"
            } else {
                ""
            };
            let _ = writeln!(
                text,
                "seat {seat}{dealer}: {} points, {} cards: {cards}",
                self.totals[seat],
                hand.len()
            );
        }
        let _ = write!(text, "stock {} cards", self.stock_size());
        text
    }

    /// Draws a card as three sectors at (`x`, `y`), with its number above.
    fn svg_card(svg: &mut crate::render::svg::Svg, x: f64, y: f64, card: Card, sectors: [u8; 3]) {
        svg.start_mark(&card.to_string());
        svg.rect(x - 2.0, y - 2.0, 94.0, 34.0, "#fff", "#333", "card");
        for (i, &s) in sectors.iter().enumerate() {
            let sx = x + i as f64 * 30.0;
            svg.rect(sx, y, 30.0, 30.0, sector_fill(s), "#fff", "sector");
            if s == b'J' || s == b'H' {
                svg.text(sx + 15.0, y + 15.0, 14.0, "#fff", &(s as char).to_string());
            }
        }
        svg.text(x + 45.0, y - 9.0, 10.0, "#555", &card.to_string());
        svg.end_mark();
    }

    /// The picture: the snake's two ends, then each seat's hand as `viewer` may see it.
    pub(super) fn svg(&self, viewer: Viewer) -> String {
        // At most ten cards a row, so any hand fits a 1280 px wide page.
        const PER_ROW: usize = 10;
        let seats = usize::from(self.seats);
        let shown = |seat: usize| viewer == Viewer::Everyone || viewer == Viewer::Seat(seat);
        let rows = |seat: usize| match shown(seat) {
            true => self.hands[seat].len().max(1).div_ceil(PER_ROW),
            false => 1,
        };
        let widest = (0..seats)
            .map(|s| self.hands[s].len().min(PER_ROW))
            .max()
            .unwrap_or(0)
            .max(6);
        let width = 180.0 + widest as f64 * 100.0;
        let height = 120.0
            + (0..seats)
                .map(|s| rows(s) as f64 * 48.0 + 14.0)
                .sum::<f64>();
        let mut svg = crate::render::svg::Svg::new(width.max(520.0), height);
        let status = self.render(viewer);
        svg.label(15.0, 18.0, 14.0, status.lines().next().unwrap_or_default());
        match self.ends {
            Some([left, right]) => {
                svg.label(15.0, 60.0, 13.0, "left end");
                Self::svg_card(&mut svg, 90.0, 45.0, left.card, left.sectors);
                svg.label(215.0, 60.0, 13.0, "right end");
                Self::svg_card(&mut svg, 295.0, 45.0, right.card, right.sectors);
            }
            None => svg.label(15.0, 60.0, 13.0, "the snake is not started"),
        }
        svg.label(420.0, 60.0, 13.0, &format!("stock {}", self.stock_size()));
        let mut y = 120.0;
        for seat in 0..seats {
            let hand = &self.hands[seat];
            svg.label(
                15.0,
                y + 15.0,
                12.0,
                &format!(
                    "seat {seat}: {} cards, {} pts",
                    hand.len(),
                    self.totals[seat]
                ),
            );
            if shown(seat) {
                let mut cards = hand.clone();
                cards.sort();
                for (i, card) in cards.iter().enumerate() {
                    let (row, column) = (i / PER_ROW, i % PER_ROW);
                    let (x, card_y) = (170.0 + column as f64 * 100.0, y + row as f64 * 48.0);
                    Self::svg_card(&mut svg, x, card_y, *card, card.laid(false));
                }
            } else {
                for i in 0..hand.len() {
                    svg.rect(
                        170.0 + i as f64 * 24.0,
                        y,
                        20.0,
                        30.0,
                        "#668",
                        "#333",
                        "hidden",
                    );
                }
            }
            y += rows(seat) as f64 * 48.0 + 14.0;
        }
        svg.finish()
    }
}
