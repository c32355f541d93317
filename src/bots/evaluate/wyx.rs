//! Wyx's evaluation: pawns on the board.
//!
//! The rack is open and the game short (at most 64 plies, each placing one to three pawns and
//! perhaps taking some back), so the search sees most of what matters and the evaluation is the
//! score itself: pawns on the board against the opponent's (over both rounds in Double Wyx). The
//! moves tried first are those that gain most at once: a strong square's two or three pawns, and
//! the enemy pawns the knight lands on.

use crate::rules::game::{Game, Seat};
use crate::rules::wyx::{Move, Wyx, pawns_for};

use crate::bots::search::{Evaluate, key_of};

impl Evaluate for Wyx {
    /// See the module's comment.
    fn evaluate(&self, seat: Seat) -> i32 {
        let scores = self.scores();
        (100 * (scores[seat] - scores[1 - seat])) as i32
    }

    fn key(&self) -> u64 {
        key_of(self)
    }

    fn promise(&self, mv: &Move) -> i32 {
        let Move::Column(column) = *mv else {
            return 0;
        };
        let Some((from, to)) = self.jump(usize::from(column)) else {
            return 0;
        };
        let mover = usize::from(self.knight(0) != from);
        let taken = match self.pawns(to) {
            Some((colour, pawns)) if colour != mover => i32::from(pawns),
            _ => 0,
        };
        i32::from(pawns_for(to)) + taken
    }
}
