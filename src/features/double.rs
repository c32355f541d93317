//! DOUBLE's tensor: one vector of 254 + 3 x seats numbers, seats counted from the viewer. Only
//! the viewer's own hand is shown; of the others, how many cards they hold.
//!
//! From its start: 72 the viewer's hand (1 for each card it holds, `c01` first); 72 the card on
//! the snake's left end and 72 the card on its right end (once the snake is started); 36 the
//! sectors of the two ends as they lie (each end's 3 sectors, left to right, each one of `R Y B G
//! J H`); 1 the stock's cards out of 72; a number per seat of the cards in its hand out of 72; a
//! number per seat of its points out of 100 (twice the 50 that end the match; more reads as 1);
//! a number per seat, the one whose turn it is set (even while a card is dealt or drawn first:
//! whether one must be drawn can hang on a hand the viewer cannot see); the round, from 0, out of 100.

use crate::features::{Features, Planes, counted_from, fraction};
use crate::rules::double::Double;
use crate::rules::game::{Game, Seat};

/// The symbols a sector shows, in the tensor's order.
const SYMBOLS: [u8; 6] = *b"RYBGJH";
/// Where each part starts.
const ENDS: usize = Double::DECK;
const SECTORS: usize = ENDS + 2 * Double::DECK;
const STOCK: usize = SECTORS + 2 * 3 * SYMBOLS.len();
const PER_SEAT: usize = STOCK + 1;
/// What points and rounds are counted out of.
const POINTS_SCALE: u32 = 2 * Double::MATCH_POINTS;
const ROUNDS_SCALE: u16 = 100;

impl Features for Double {
    fn shape(&self) -> Vec<usize> {
        vec![PER_SEAT + 3 * self.seats() + 1]
    }

    fn features(&self, viewer: Seat, out: &mut Vec<f32>) {
        let shape = self.shape();
        let seats = self.seats();
        let viewer = viewer % seats.max(1);
        let mut values = Planes::new(out, &shape);
        let mut put = |at: usize, value: f32| values.set(0, 0, at, value);
        for card in self.hand(viewer) {
            put(card.index(), 1.0);
        }
        for (end, laid) in self.ends().into_iter().flatten().enumerate() {
            put(ENDS + end * Double::DECK + laid.card.index(), 1.0);
            for (place, sector) in laid.sectors.iter().enumerate() {
                if let Some(symbol) = SYMBOLS.iter().position(|s| s == sector) {
                    put(SECTORS + (end * 3 + place) * SYMBOLS.len() + symbol, 1.0);
                }
            }
        }
        let deck = Double::DECK as f64;
        put(STOCK, fraction(self.stock_size() as f64, deck));
        for seat in 0..seats {
            let k = counted_from(viewer, seat, seats);
            put(PER_SEAT + k, fraction(self.hand(seat).len() as f64, deck));
            put(
                PER_SEAT + seats + k,
                fraction(self.total(seat), POINTS_SCALE),
            );
        }
        if let Some(seat) = self.turn() {
            put(
                PER_SEAT + 2 * seats + counted_from(viewer, seat, seats),
                1.0,
            );
        }
        put(PER_SEAT + 3 * seats, fraction(self.round(), ROUNDS_SCALE));
    }
}
