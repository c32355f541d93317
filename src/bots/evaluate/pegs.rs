//! Pegs' evaluation: pegs and the race to the far row.
//!
//! A peg reaching the opponent's back row wins at once, so the game is a race slowed by captures:
//! a seat is worth its pegs against the opponent's (a capture removes a runner and a blocker), and
//! how far its most advanced peg has come against the opponent's (the first to arrive wins,
//! whatever the pegs). Moves are tried captures first, then the furthest forward: in a race the
//! move that gains most is usually the one to beat.

use crate::rules::game::{Actor, Game, Seat};
use crate::rules::pegs::{Move, Pegs};

use crate::bots::search::{Evaluate, key_of};

impl Evaluate for Pegs {
    /// See the module's comment.
    fn evaluate(&self, seat: Seat) -> i32 {
        let scores = self.scores();
        let other = 1 - seat;
        let material = (scores[seat] - scores[other]) as i32;
        let race = self.best_advance(seat) - self.best_advance(other);
        100 * material + 20 * race
    }

    fn key(&self) -> u64 {
        key_of(self)
    }

    fn promise(&self, mv: &Move) -> i32 {
        let forward = match self.to_move() {
            Some(Actor::Seat(0)) => 1,
            _ => -1,
        };
        let (from, to) = (mv.from(), mv.to());
        let capture =
            (to.row() - from.row()).abs() == 2 || (to.column() - from.column()).abs() == 2;
        100 * i32::from(capture) + 10 * forward * i32::from(to.row() - from.row())
    }
}
