//! Each game's evaluation for the search: what a position is worth to a seat, and which moves to
//! try first.

use crate::rules::double_dutch::DoubleDutch;
use crate::rules::dvonn::Dvonn;
use crate::rules::game::{Game, Seat};
use crate::rules::pegs::Pegs;
use crate::rules::wyx::Wyx;
use crate::rules::{AnyGame, AnyMove};

use super::search::{Evaluate, key_of};

mod dvonn;

impl Evaluate for Dvonn {
    /// See [`dvonn`].
    fn evaluate(&self, seat: Seat) -> i32 {
        if self.placing() {
            dvonn::placing(self, seat)
        } else {
            dvonn::stacking(self, seat)
        }
    }

    fn key(&self) -> u64 {
        key_of(self)
    }

    fn promise(&self, mv: &Self::Move) -> i32 {
        dvonn::promise(self, mv)
    }
}

impl Evaluate for DoubleDutch {
    /// The last seat to slide wins, so what counts is being able to slide when others cannot:
    /// own regular moves against the most any other seat has.
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

impl Evaluate for Pegs {
    /// Pegs, and how far the most advanced peg has come: reaching the far row wins at once.
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
}

impl Evaluate for Wyx {
    /// Pawns on the board (over both rounds in Double Wyx): the score itself.
    fn evaluate(&self, seat: Seat) -> i32 {
        let scores = self.scores();
        (100 * (scores[seat] - scores[1 - seat])) as i32
    }

    fn key(&self) -> u64 {
        key_of(self)
    }
}

impl Evaluate for AnyGame {
    fn evaluate(&self, seat: Seat) -> i32 {
        match self {
            AnyGame::Dvonn(game) => game.evaluate(seat),
            AnyGame::DoubleDutch(game) => game.evaluate(seat),
            AnyGame::Pegs(game) => game.evaluate(seat),
            AnyGame::Wyx(game) => game.evaluate(seat),
            // Hidden hands: the search must not see them; the Monte Carlo bot samples instead.
            AnyGame::Double(game) => -game.scores()[seat] as i32,
        }
    }

    fn key(&self) -> u64 {
        match self {
            AnyGame::Dvonn(game) => game.key(),
            AnyGame::DoubleDutch(game) => game.key(),
            AnyGame::Pegs(game) => game.key(),
            AnyGame::Wyx(game) => game.key(),
            // Never searched (see above); every position the same key would only waste the table.
            AnyGame::Double(game) => game.ply() as u64,
        }
    }

    fn promise(&self, mv: &AnyMove) -> i32 {
        match (self, mv) {
            (AnyGame::Dvonn(game), AnyMove::Dvonn(mv)) => game.promise(mv),
            (AnyGame::DoubleDutch(game), AnyMove::DoubleDutch(mv)) => game.promise(mv),
            (AnyGame::Pegs(game), AnyMove::Pegs(mv)) => game.promise(mv),
            (AnyGame::Wyx(game), AnyMove::Wyx(mv)) => game.promise(mv),
            _ => 0,
        }
    }
}
