//! Double Dutch's evaluation: mobility.
//!
//! The last seat able to slide wins, and every slide drops a piece that narrows the lines the
//! slides run on, so a position is good for a seat when it can still slide and the others cannot:
//! the seat's own slides against the most any other seat has. With three seats this is what the
//! seat must beat; the Monte Carlo search plays three seats, and this judges two.

use crate::rules::double_dutch::DoubleDutch;
use crate::rules::game::{Game, Seat};

use crate::bots::search::{Evaluate, key_of};

impl Evaluate for DoubleDutch {
    /// See the module's comment.
    fn evaluate(&self, seat: Seat) -> i32 {
        let mobility: Vec<i32> = (0..self.seats())
            .map(|s| self.slide_count(s) as i32)
            .collect();
        let best_other = (0..self.seats())
            .filter(|&s| s != seat)
            .map(|s| mobility[s])
            .max()
            .unwrap_or(0);
        10 * (mobility[seat] - best_other)
    }

    fn key(&self) -> u64 {
        key_of(self)
    }
}
