//! DOUBLE's position as text, for the eyes of one viewer.

use std::fmt::Write as _;

use super::Double;
use super::cards::{Card, sectors};
use crate::rules::game::{Actor, Game, Viewer};

impl Double {
    /// The first line of the text picture: round, ply and who acts.
    pub fn status(&self) -> String {
        let status = match self.to_move() {
            None => format!("game over, {}", self.outcome()),
            Some(Actor::Chance) => "cards leave the stock".to_owned(),
            Some(Actor::Seat(seat)) => format!("seat {seat} to act"),
        };
        format!("double round {} ply {}: {status}", self.round + 1, self.ply)
    }

    /// The position as text: status, the snake's ends, each hand as `viewer` may see it.
    pub(super) fn text(&self, viewer: Viewer) -> String {
        let mut text = self.status();
        text.push('\n');
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
}
